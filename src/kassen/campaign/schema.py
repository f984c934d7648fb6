"""The campaign tables, kept in the fight store's database (migration step 5 of
:mod:`kassen.web.schema`, which creates them; their DDL never changes once shipped).

- ``campaigns``: one row per campaign: its id, name, the SHA-256 of its GM token;
- ``campaign_players``: a player's token (SHA-256) in a campaign, with the player's name;
- ``roster``: one row per character (campaign, id): ruleset, name, owner (a player's name, null: the
  GM's), sheet and lasting state (JSON), a version counted up by every change;
- ``campaign_fights``: one row per fight of a campaign (numbered from 1): the template's name, the
  scenario as built (YAML), the cast (JSON), its state (``started``, ``proposed``, ``settled``), the
  chronicle once played, the aftermath proposed or confirmed (JSON: each character's lasting state
  before and after, with the notes);
- ``roster_fights``: which character took part in which fight;
- ``campaign_scenarios``: the scenario templates a GM built for the campaign (YAML, by id);
- ``campaign_tables``: the web table's fight a campaign fight was opened as (its id in ``fights``).
"""

from __future__ import annotations

__all__ = [
    "campaign_fights",
    "campaign_metadata",
    "campaign_players",
    "campaign_scenarios",
    "campaign_tables",
    "campaigns",
    "create_v5",
    "roster",
    "roster_fights",
]

from sqlalchemy import Boolean, Column, DateTime, ForeignKeyConstraint, Integer, MetaData, String, Table, Text
from sqlalchemy.engine import Connection

campaign_metadata = MetaData()

campaigns = Table(
    "campaigns",
    campaign_metadata,
    Column("id", String(64), primary_key=True),
    Column("name", Text, nullable=False),
    Column("gm_hash", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

campaign_players = Table(
    "campaign_players",
    campaign_metadata,
    Column("hash", String(64), primary_key=True),
    Column("campaign_id", String(64), nullable=False, index=True),
    Column("player", String(64), nullable=False),
    ForeignKeyConstraint(["campaign_id"], ["campaigns.id"]),
)

roster = Table(
    "roster",
    campaign_metadata,
    Column("campaign_id", String(64), primary_key=True),
    Column("id", String(64), primary_key=True),
    Column("ruleset", String(64), nullable=False),
    Column("name", Text, nullable=False),
    Column("owner", String(64), nullable=True),
    Column("sheet", Text, nullable=False),
    Column("lasting", Text, nullable=False),
    Column("dead", Boolean, nullable=False),
    Column("version", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(["campaign_id"], ["campaigns.id"]),
)

campaign_fights = Table(
    "campaign_fights",
    campaign_metadata,
    Column("campaign_id", String(64), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("ruleset", String(64), nullable=False),
    Column("template", Text, nullable=False),
    Column("scenario", Text, nullable=False),
    Column("cast", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("chronicle", Text, nullable=True),
    Column("aftermath", Text, nullable=True),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("settled_at", DateTime(timezone=True), nullable=True),
    ForeignKeyConstraint(["campaign_id"], ["campaigns.id"]),
)

roster_fights = Table(
    "roster_fights",
    campaign_metadata,
    Column("campaign_id", String(64), primary_key=True),
    Column("character_id", String(64), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("side", Text, nullable=False),
    ForeignKeyConstraint(["campaign_id", "character_id"], ["roster.campaign_id", "roster.id"]),
)


campaign_scenarios = Table(
    "campaign_scenarios",
    campaign_metadata,
    Column("campaign_id", String(64), primary_key=True),
    Column("id", String(64), primary_key=True),
    Column("ruleset", String(64), nullable=False),
    Column("name", Text, nullable=False),
    Column("text", Text, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(["campaign_id"], ["campaigns.id"]),
)

campaign_tables = Table(
    "campaign_tables",
    campaign_metadata,
    Column("campaign_id", String(64), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("fight_id", String(64), nullable=False),
    ForeignKeyConstraint(["campaign_id", "seq"], ["campaign_fights.campaign_id", "campaign_fights.seq"]),
)


def create_v5(conn: Connection) -> None:
    """Migration step 5: the campaign tables."""
    tables = (campaigns, campaign_players, roster, campaign_fights, roster_fights)
    for table in (*tables, campaign_scenarios, campaign_tables):
        table.create(conn, checkfirst=True)
