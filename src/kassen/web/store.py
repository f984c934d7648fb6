"""The durable fight store: SQLite (a file) or PostgreSQL, through SQLAlchemy 2 Core.

Every change is one transaction committed before the server replies:

- SQLite runs in WAL mode with ``synchronous=FULL`` (a committed action survives ``kill -9`` and a
  power cut), and every writing transaction starts with ``BEGIN IMMEDIATE``, so two writers never
  interleave a read of the head and the write after it (readers are not blocked);
- PostgreSQL locks the fight's row (``SELECT ... FOR UPDATE``) before reading its head.

A full disk (SQLite's ``SQLITE_FULL``, PostgreSQL's ``disk_full``) fails the one transaction, which
rolls back: :class:`StoreFull`, a 507 to the client, while reading goes on.

Rows are only ever added to ``actions`` (an undo is a row too), so the store holds everything that
happened at a table, in order. See :mod:`kassen.web.schema` for the tables and their versions.
"""

from __future__ import annotations

__all__ = [
    "ActionRow",
    "FightRow",
    "NewAction",
    "Store",
    "StoreFull",
    "StoreUnavailable",
    "TokenRow",
    "engine_for",
    "now",
]

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, func, select
from sqlalchemy.engine import Connection, RowMapping, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError, SQLAlchemyError

from kassen.i18n import S_, _
from kassen.web.schema import actions, fights, migrate, tokens
from kassen.web.settings import WebError


class StoreFull(WebError):
    """The store's disk (or its size limit) is full: the change was not saved, nothing else changed,
    and reading goes on (the server replies 507)."""

    code = "web.store_full"


class StoreUnavailable(WebError):
    """The store cannot be reached or did not answer in time (the server replies 503)."""

    code = "web.store_unavailable"


#: SQLite's "database or disk is full"; PostgreSQL's disk_full class (SQLSTATE 53100) and the I/O error
#: it raises when it cannot extend a file.
_SQLITE_FULL = 13
_PG_FULL = ("53100",)


def _is_full(exc: DBAPIError) -> bool:
    orig = exc.orig
    if getattr(orig, "sqlite_errorcode", None) == _SQLITE_FULL:
        return True
    if getattr(orig, "sqlstate", None) in _PG_FULL:
        return True
    text = str(orig).lower()
    return "no space left on device" in text or "disk is full" in text


@contextmanager
def _store_errors() -> Iterator[None]:
    """The store's failures as what the server tells a client: a full disk, a store not reachable."""
    try:
        yield
    except DBAPIError as exc:
        if _is_full(exc):
            raise StoreFull(S_("the store's disk is full: this change was not saved")) from exc
        if isinstance(exc, OperationalError):
            raise StoreUnavailable(f"the store did not answer: {_short(exc)}") from exc
        raise


def now() -> datetime:
    return datetime.now(UTC)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


@dataclass(frozen=True, slots=True)
class FightRow:
    """A fight as stored: where it starts, and its head."""

    id: str
    created_at: datetime
    updated_at: datetime
    ruleset: str
    title: str
    source: str
    scenario_name: str | None
    scenario_text: str | None
    chronicle: dict[str, Any] | None
    content: tuple[str, ...]
    seed: int
    dice: str
    initial_state_id: str
    head_seq: int
    state_id: str
    actions: int
    over: bool
    result: dict[str, Any] | None
    pending: dict[str, Any] | None
    parent: str | None = None
    parent_state_id: str | None = None
    #: The sides played by a named policy (side → spec); None: none.
    policies: dict[str, str] | None = None
    #: The GM's name for the fight (None: its scenario's title).
    name: str | None = None
    #: Archived by the GM: folded away in the fight list (nothing is lost).
    archived: bool = False

    @classmethod
    def read(cls, row: RowMapping) -> FightRow:
        return cls(
            id=row["id"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            ruleset=row["ruleset"],
            title=row["title"],
            source=row["source"],
            scenario_name=row["scenario_name"],
            scenario_text=row["scenario_text"],
            chronicle=_loads(row["chronicle"]),
            content=tuple(_loads(row["content"])),
            seed=int(row["seed"]),
            dice=row["dice"],
            initial_state_id=row["initial_state_id"],
            head_seq=row["head_seq"],
            state_id=row["state_id"],
            actions=row["actions"],
            over=bool(row["over"]),
            result=_loads(row["result"]),
            pending=_loads(row["pending"]),
            parent=row["parent"],
            parent_state_id=row["parent_state_id"],
            policies=_loads(row["policies"]),
            name=row["name"],
            archived=bool(row["archived"]),
        )

    def values(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "ruleset": self.ruleset,
            "title": self.title,
            "source": self.source,
            "scenario_name": self.scenario_name,
            "scenario_text": self.scenario_text,
            "chronicle": None if self.chronicle is None else _dumps(self.chronicle),
            "content": _dumps(list(self.content)),
            "seed": str(self.seed),
            "dice": self.dice,
            "initial_state_id": self.initial_state_id,
            "head_seq": self.head_seq,
            "state_id": self.state_id,
            "actions": self.actions,
            "over": self.over,
            "result": None if self.result is None else _dumps(self.result),
            "pending": None if self.pending is None else _dumps(self.pending),
            "parent": self.parent,
            "parent_state_id": self.parent_state_id,
            "policies": None if not self.policies else _dumps(self.policies),
            "name": self.name,
            "archived": self.archived,
        }


@dataclass(frozen=True, slots=True)
class NewAction:
    """A row to append: an applied action (``kind`` ``action``: its JSON, typed faces, whether the GM
    made it out of turn) or an undo; ``state_id`` is the state after it."""

    kind: str
    state_id: str
    author: str
    action: Any = None
    dice: Sequence[int | None] | None = None
    by_gm: bool = False


@dataclass(frozen=True, slots=True)
class ActionRow:
    """A stored row of ``actions``."""

    seq: int
    kind: str
    action: Any
    dice: tuple[int | None, ...] | None
    by_gm: bool
    author: str
    state_id: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class TokenRow:
    """A stored token: its SHA-256, fight, role (``gm``, ``side``), side, expiry (None: never) and, for
    a side's token, its generation (see :func:`kassen.web.tokens.join_token`)."""

    fight_id: str
    role: str
    side: str | None
    expires_at: datetime | None = None
    generation: int = 0
    hash: str = ""

    @classmethod
    def read(cls, row: RowMapping) -> TokenRow:
        expires = row["expires_at"]
        if expires is not None and expires.tzinfo is None:  # SQLite keeps no zone: it was stored in UTC
            expires = expires.replace(tzinfo=UTC)
        return cls(row["fight_id"], row["role"], row["side"], expires, int(row["generation"]), row["hash"])

    def expired(self, at: datetime) -> bool:
        return self.expires_at is not None and at >= self.expires_at


def engine_for(url: str) -> Engine:
    """An engine for ``sqlite:///PATH`` or ``postgresql://...`` (psycopg 3), set up as the module notes
    say; any other URL is a :class:`WebError`."""
    try:
        parsed = make_url(url)
        parsed.port  # noqa: B018 - a port that is no number ("[::1" unclosed) fails here, not later
    except (ArgumentError, ValueError):
        raise WebError(
            _("--db is a URL like sqlite:///kassen.db or postgresql://user@host/db, not {url}").format(
                url=repr(url)
            )[:160]
        ) from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        database = parsed.database or ""
        if database in ("", ":memory:") or database.startswith("file:"):
            raise WebError(_("--db sqlite:///PATH needs a file (an in-memory store would lose every fight)"))
        folder = Path(database).expanduser().resolve().parent
        if not folder.is_dir():
            raise WebError(_("--db {url}: the folder {folder} does not exist").format(url=url, folder=folder))
        engine = create_engine(
            parsed.set(drivername="sqlite+pysqlite"),
            connect_args={"check_same_thread": False, "timeout": 30},
            pool_size=8,
            max_overflow=16,
        )
        _sqlite_setup(engine)
        return engine
    if backend in ("postgresql", "postgres"):
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise WebError("a PostgreSQL store needs psycopg: pip install 'kassen[postgres]'") from None
        return create_engine(
            parsed.set(drivername="postgresql+psycopg"),
            pool_size=10,
            max_overflow=20,
            pool_pre_ping=True,
        )
    raise WebError(
        _("--db: kassen stores fights in SQLite or PostgreSQL, not {backend}").format(backend=repr(backend))
    )


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # transactions are begun below, not by the driver
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("kassen_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


class Store:
    """The fight store at ``url`` (schema created or upgraded on opening)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = engine_for(url)
        # PostgreSQL locks rows, not the store: its writers need no lock here.
        self._write_lock: AbstractContextManager[object] = (
            threading.Lock() if self.engine.dialect.name == "sqlite" else nullcontext()
        )
        try:
            self.versions = migrate(self.engine)
        except SQLAlchemyError as exc:
            self.engine.dispose()
            raise WebError(
                _("cannot open the store {store}: {why}").format(store=self.shown, why=_short(exc))
            ) from None
        except BaseException:
            self.engine.dispose()
            raise

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @property
    def shown(self) -> str:
        """The URL without its password."""
        return make_url(self.url).render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        with _store_errors(), self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """A writing transaction (see the module notes), committed when the block ends without error.

        On SQLite the threads of this process also queue for one lock first: SQLite has one writer at a
        time, and threads left to its busy handler poll with growing sleeps, so under load a few wait
        for seconds while others pass (another process on the same file still waits in the handler)."""
        with (
            _store_errors(),
            self._write_lock,
            self.engine.connect().execution_options(kassen_write=True) as conn,
            conn.begin(),
        ):
            yield conn

    # -- reading --------------------------------------------------------------------------------------
    def fight(self, conn: Connection, fight_id: str, *, lock: bool = False) -> FightRow | None:
        query = select(fights).where(fights.c.id == fight_id)
        if lock and conn.dialect.name == "postgresql":
            query = query.with_for_update()
        row = conn.execute(query).mappings().first()
        return None if row is None else FightRow.read(row)

    def head(self, conn: Connection, fight_id: str) -> tuple[int, str] | None:
        """The fight's row count and state id (a cheap check that a cached fight is current)."""
        row = conn.execute(
            select(fights.c.head_seq, fights.c.state_id).where(fights.c.id == fight_id)
        ).first()
        return None if row is None else (int(row[0]), str(row[1]))

    def rows(self, conn: Connection, fight_id: str) -> list[ActionRow]:
        result = conn.execute(select(actions).where(actions.c.fight_id == fight_id).order_by(actions.c.seq))
        return [
            ActionRow(
                seq=r["seq"],
                kind=r["kind"],
                action=_loads(r["action"]),
                dice=None if r["dice"] is None else tuple(_loads(r["dice"])),
                by_gm=bool(r["by_gm"]),
                author=r["author"],
                state_id=r["state_id"],
                created_at=r["created_at"],
            )
            for r in result.mappings()
        ]

    def token(self, conn: Connection, digest: str) -> TokenRow | None:
        row = conn.execute(select(tokens).where(tokens.c.hash == digest)).mappings().first()
        return None if row is None else TokenRow.read(row)

    def tokens_of(self, conn: Connection, fight_id: str) -> list[TokenRow]:
        """Every token of a fight."""
        query = select(tokens).where(tokens.c.fight_id == fight_id)
        return [TokenRow.read(r) for r in conn.execute(query).mappings()]

    def listing(self, conn: Connection, *, limit: int, offset: int) -> tuple[list[FightRow], int]:
        total = conn.execute(select(func.count()).select_from(fights)).scalar_one()
        query = select(fights).order_by(fights.c.updated_at.desc(), fights.c.id).limit(limit).offset(offset)
        return [FightRow.read(r) for r in conn.execute(query).mappings()], int(total)

    # -- writing --------------------------------------------------------------------------------------
    def insert_fight(self, conn: Connection, row: FightRow, token_rows: Sequence[TokenRow]) -> None:
        conn.execute(fights.insert().values(**row.values()))
        self.add_tokens(conn, row.id, token_rows)

    def add_tokens(self, conn: Connection, fight_id: str, token_rows: Sequence[TokenRow]) -> None:
        if token_rows:
            conn.execute(
                tokens.insert(),
                [
                    {
                        "hash": t.hash,
                        "fight_id": fight_id,
                        "role": t.role,
                        "side": t.side,
                        "expires_at": t.expires_at,
                        "generation": t.generation,
                    }
                    for t in token_rows
                ],
            )

    def drop_tokens(self, conn: Connection, fight_id: str, digests: Sequence[str]) -> None:
        """Forget tokens of a fight (replaced: they open nothing any more)."""
        if digests:
            conn.execute(
                tokens.delete().where(tokens.c.fight_id == fight_id, tokens.c.hash.in_(list(digests)))
            )

    def append(self, conn: Connection, fight_id: str, first_seq: int, new: Sequence[NewAction]) -> None:
        """Append ``new`` as rows ``first_seq``, ``first_seq + 1``...: a row already there (another
        writer) fails the transaction."""
        if not new:
            return
        at = now()
        conn.execute(
            actions.insert(),
            [
                {
                    "fight_id": fight_id,
                    "seq": first_seq + i,
                    "kind": a.kind,
                    "action": None if a.action is None else _dumps(a.action),
                    "dice": None if a.dice is None else _dumps(list(a.dice)),
                    "by_gm": a.by_gm,
                    "author": a.author,
                    "state_id": a.state_id,
                    "created_at": at,
                }
                for i, a in enumerate(new)
            ],
        )

    def set_head(
        self,
        conn: Connection,
        fight_id: str,
        *,
        head_seq: int,
        state_id: str,
        live_actions: int,
        over: bool,
        result: dict[str, Any] | None,
        pending: dict[str, Any] | None,
    ) -> None:
        conn.execute(
            fights.update()
            .where(fights.c.id == fight_id)
            .values(
                head_seq=head_seq,
                state_id=state_id,
                actions=live_actions,
                over=over,
                result=None if result is None else _dumps(result),
                pending=None if pending is None else _dumps(pending),
                updated_at=now(),
            )
        )

    def set_policies(self, conn: Connection, fight_id: str, policies: dict[str, str] | None) -> None:
        """Who plays each side now (None or empty: every side by its players or the scenario's)."""
        conn.execute(
            fights.update()
            .where(fights.c.id == fight_id)
            .values(policies=_dumps(policies) if policies else None, updated_at=now())
        )

    def rename(self, conn: Connection, fight_id: str, *, name: str | None, archived: bool | None) -> None:
        """The GM's name for the fight and whether it is archived (None: unchanged)."""
        values: dict[str, Any] = {}
        if name is not None:
            values["name"] = name
        if archived is not None:
            values["archived"] = archived
        if values:
            conn.execute(fights.update().where(fights.c.id == fight_id).values(**values))

    def delete_fight(self, conn: Connection, fight_id: str) -> None:
        """Forget a fight: its rows, its tokens, the fight (its forks stay: they are fights of their own)."""
        conn.execute(actions.delete().where(actions.c.fight_id == fight_id))
        conn.execute(tokens.delete().where(tokens.c.fight_id == fight_id))
        conn.execute(fights.delete().where(fights.c.id == fight_id))


def _short(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]
