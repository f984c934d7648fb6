"""The store's schema, created and versioned by the app (a small versioned-schema runner).

Why not Alembic: the schema is three tables the app itself owns, on two dialects; the server creates or
upgrades it at start, inside one transaction under a lock (PostgreSQL's advisory lock, SQLite's
``BEGIN IMMEDIATE``), so two servers starting at once cannot both migrate. A list of numbered
:class:`Migration` steps and a one-row version table do that in a few lines, with no migration
environment, ``alembic.ini`` or script folder to ship in the wheel, and no autogeneration (which we
would not trust for data we must replay). A store newer than this kassen is refused, never touched.

Tables (version 5; the campaign tables of version 5 are described in :mod:`kassen.campaign.schema`):

- ``fights``: one row per fight: where it starts (a bundled scenario's name, a posted scenario's YAML
  text, or an imported chronicle's header), the content layers, seed and dice mode, and its head — the
  number of rows, the current state id, the live action count, whether it is over, the action waiting
  for typed dice, and the sides played by a named policy (side → spec, JSON; null: every side by its
  players or the scenario's policies); the GM's name for it (null: its scenario's title; a fork is
  named after its source) and whether the GM archived it (folded away in the fight list, kept whole);
- ``tokens``: the SHA-256 of each token, with the fight and the role (``gm``, or ``side`` and which),
  when it expires (null: never) and, for a side's token, its generation (how many times that side's
  link was replaced: the join token is derived from the GM token, the fight, the side and it);
- ``actions``: append-only, one row per applied action (its JSON, the typed dice, whether the GM made it
  out of turn, who sent it, the resulting state id) or undo (the state id it returned to), numbered
  per fight from 1; the primary key ``(fight_id, seq)`` makes two writers of the same row impossible.
"""

from __future__ import annotations

__all__ = [
    "LATEST",
    "MIGRATIONS",
    "Migration",
    "SchemaError",
    "actions",
    "fights",
    "metadata",
    "migrate",
    "schema_version",
    "tokens",
]

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    select,
    text,
)
from sqlalchemy.engine import Connection

from kassen.campaign.schema import create_v5
from kassen.web.settings import WebError

metadata = MetaData()

schema_version = Table(
    "kassen_schema",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("version", Integer, nullable=False),
)

fights = Table(
    "fights",
    metadata,
    Column("id", String(22), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("ruleset", String(64), nullable=False),
    Column("title", Text, nullable=False),
    Column("source", Text, nullable=False),
    Column("scenario_name", Text, nullable=True),
    Column("scenario_text", Text, nullable=True),
    Column("chronicle", Text, nullable=True),
    Column("content", Text, nullable=False),
    Column("seed", String(20), nullable=False),
    Column("dice", String(5), nullable=False),
    Column("initial_state_id", String(40), nullable=False),
    Column("head_seq", Integer, nullable=False),
    Column("state_id", String(40), nullable=False),
    Column("actions", Integer, nullable=False),
    Column("over", Boolean, nullable=False),
    Column("result", Text, nullable=True),
    Column("pending", Text, nullable=True),
    Column("parent", String(22), nullable=True),
    Column("parent_state_id", String(40), nullable=True),
    Column("policies", Text, nullable=True),
    Column("name", Text, nullable=True),
    Column("archived", Boolean, nullable=False, server_default=text("false")),
)

tokens = Table(
    "tokens",
    metadata,
    Column("hash", String(64), primary_key=True),
    Column("fight_id", String(22), ForeignKey("fights.id"), nullable=False, index=True),
    Column("role", String(8), nullable=False),
    Column("side", Text, nullable=True),
    Column("expires_at", DateTime(timezone=True), nullable=True),
    Column("generation", Integer, nullable=False, server_default="0"),
)

#: ``fights`` and ``tokens`` as version 1 created them (a migration's DDL never changes once shipped).
_metadata_v1 = MetaData()
_fights_v1 = Table(
    "fights",
    _metadata_v1,
    Column("id", String(22), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("ruleset", String(64), nullable=False),
    Column("title", Text, nullable=False),
    Column("source", Text, nullable=False),
    Column("scenario_name", Text, nullable=True),
    Column("scenario_text", Text, nullable=True),
    Column("chronicle", Text, nullable=True),
    Column("content", Text, nullable=False),
    Column("seed", String(20), nullable=False),
    Column("dice", String(5), nullable=False),
    Column("initial_state_id", String(40), nullable=False),
    Column("head_seq", Integer, nullable=False),
    Column("state_id", String(40), nullable=False),
    Column("actions", Integer, nullable=False),
    Column("over", Boolean, nullable=False),
    Column("result", Text, nullable=True),
    Column("pending", Text, nullable=True),
    Column("parent", String(22), nullable=True),
    Column("parent_state_id", String(40), nullable=True),
)
_tokens_v1 = Table(
    "tokens",
    _metadata_v1,
    Column("hash", String(64), primary_key=True),
    Column("fight_id", String(22), ForeignKey("fights.id"), nullable=False, index=True),
    Column("role", String(8), nullable=False),
    Column("side", Text, nullable=True),
)

actions = Table(
    "actions",
    metadata,
    Column("fight_id", String(22), ForeignKey("fights.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(8), nullable=False),
    Column("action", Text, nullable=True),
    Column("dice", Text, nullable=True),
    Column("by_gm", Boolean, nullable=False),
    Column("author", Text, nullable=False),
    Column("state_id", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


class SchemaError(WebError):
    """A store this kassen cannot use (a newer schema, a broken version table)."""

    code = "web.schema"


@dataclass(frozen=True)
class Migration:
    """One numbered step; ``apply`` runs inside the migration's transaction. A later version adds a
    step here (and freezes the DDL of the earlier ones)."""

    version: int
    what: str
    apply: Callable[[Connection], None]


def _v1(conn: Connection) -> None:
    for table in (_fights_v1, _tokens_v1, actions):
        table.create(conn, checkfirst=True)


def _v2(conn: Connection) -> None:
    when = DateTime(timezone=True).compile(dialect=conn.dialect)
    conn.exec_driver_sql(f"ALTER TABLE tokens ADD COLUMN expires_at {when}")
    conn.exec_driver_sql("ALTER TABLE tokens ADD COLUMN generation INTEGER NOT NULL DEFAULT 0")


def _v3(conn: Connection) -> None:
    conn.exec_driver_sql("ALTER TABLE fights ADD COLUMN policies TEXT")


def _v4(conn: Connection) -> None:
    # SQLite reads the keyword false as 0 (3.23+), PostgreSQL as its boolean
    conn.exec_driver_sql("ALTER TABLE fights ADD COLUMN name TEXT")
    conn.exec_driver_sql("ALTER TABLE fights ADD COLUMN archived BOOLEAN NOT NULL DEFAULT false")


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "the fight store: fights, tokens, actions", _v1),
    Migration(2, "tokens that expire, and a side's link that can be replaced", _v2),
    Migration(3, "sides played by a named policy", _v3),
    Migration(4, "the GM's name for a fight, and fights archived out of the list", _v4),
    Migration(5, "campaigns: the roster and its fights (kassen.campaign.schema)", create_v5),
)
LATEST = MIGRATIONS[-1].version

#: The PostgreSQL advisory lock held while the schema is checked or migrated.
_LOCK_KEY = 0x6B617373


def migrate(engine: Engine, migrations: Sequence[Migration] = MIGRATIONS) -> tuple[int, int]:
    """Bring the store to the last version of ``migrations``, in one transaction: returns the version
    found and the version now. Raises :class:`SchemaError` for a store newer than ``migrations``."""
    latest = migrations[-1].version if migrations else 0
    with engine.connect().execution_options(kassen_write=True) as conn, conn.begin():
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_LOCK_KEY})")
        schema_version.create(conn, checkfirst=True)
        rows = conn.execute(select(schema_version.c.version)).scalars().all()
        if len(rows) > 1:
            raise SchemaError(f"the store's version table has {len(rows)} rows, not one: it is not kassen's")
        found = rows[0] if rows else 0
        if found > latest:
            raise SchemaError(
                f"the store is at schema version {found}, newer than this kassen knows ({latest}): "
                "upgrade kassen to open it"
            )
        for step in migrations:
            if step.version > found:
                step.apply(conn)
        if not rows:
            conn.execute(schema_version.insert().values(id=1, version=latest))
        elif latest != found:
            conn.execute(schema_version.update().values(version=latest))
    return found, latest
