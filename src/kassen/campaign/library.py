"""A campaign's scenario templates, and the web table's fight each campaign fight was opened as.

A GM builds scenario templates (in the browser, or as YAML) and keeps them with the campaign; a fight
is started from one of them (or a bundled scenario) with roster characters cast into it
(:meth:`Campaigns.start_fight <kassen.campaign.roster.Campaigns.start_fight>`). Opened at the web table,
the campaign fight remembers which table fight it is, so that its aftermath is read from that fight.
Every operation is one transaction.
"""

from __future__ import annotations

__all__ = ["MAX_SCENARIOS", "Library", "Template", "character_yaml", "read_character"]

from dataclasses import dataclass
from typing import Any

import yaml
from sqlalchemy import func, select

from kassen.campaign.build import scenario_yaml, validate_scenario
from kassen.campaign.hooks import CHARACTER_ID, CampaignError, Character
from kassen.campaign.roster import Campaigns
from kassen.campaign.schema import campaign_fights, campaign_scenarios, campaign_tables
from kassen.content.yamlio import parse_yaml
from kassen.core.errors import ContentError, ContentIssue
from kassen.core.scenario import ScenarioSource, read_scenario
from kassen.i18n import S_
from kassen.web.store import now

#: The most scenario templates a campaign keeps.
MAX_SCENARIOS = 200


@dataclass(frozen=True, slots=True)
class Template:
    """A scenario template of a campaign: its id, ruleset, title and YAML text."""

    id: str
    ruleset: str
    name: str
    text: str

    def source(self) -> ScenarioSource:
        return read_scenario(self.id, ruleset=self.ruleset, text=self.text)

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "ruleset": self.ruleset, "name": self.name, "yaml": self.text}


_CHARACTER_FIELDS = ("ruleset", "id", "name", "owner", "sheet", "lasting", "dead", "version")


def character_yaml(character: Character) -> str:
    """A character as a YAML file (:func:`read_character` reads it back, into any campaign)."""
    data = {k: v for k, v in character.to_json().items() if k not in ("dead", "version")}
    if data["owner"] is None:
        del data["owner"]
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def read_character(text: str, file: str) -> dict[str, Any]:
    """A character file's fields (``ruleset``, ``id``, ``name``, ``sheet``; ``owner``, ``lasting``),
    each checked for its kind (:class:`ContentError` naming the field); the sheet itself is checked
    when the character is added."""
    data, _ = parse_yaml(text, file)
    if not isinstance(data, dict):
        raise ContentError(
            ContentIssue(file, "(root)", S_("a character is a mapping: ruleset, id, name, sheet"))
        )
    for key in data:
        if key not in _CHARACTER_FIELDS:
            known = ", ".join(sorted(_CHARACTER_FIELDS))
            raise ContentError(
                ContentIssue(file, str(key)[:40], S_("unknown field (fields: {known})", known=known))
            )
    for key in ("ruleset", "id", "name"):
        if not isinstance(data.get(key), str):
            raise ContentError(ContentIssue(file, key, S_("required, a string")))
    if not isinstance(data.get("sheet"), dict):
        raise ContentError(
            ContentIssue(file, "sheet", S_("required, a mapping (the character's scenario entry)"))
        )
    if data.get("lasting") is not None and not isinstance(data["lasting"], dict):
        raise ContentError(ContentIssue(file, "lasting", S_("a mapping")))
    if data.get("owner") is not None and not isinstance(data["owner"], str):
        raise ContentError(ContentIssue(file, "owner", S_("a player's name")))
    return data


class Library:
    """The scenario templates and table links of the campaigns in ``campaigns``' store."""

    def __init__(self, campaigns: Campaigns) -> None:
        self.campaigns = campaigns
        self.store = campaigns.store

    def save(self, campaign_id: str, template_id: str, source: ScenarioSource) -> Template:
        """Keep ``source`` as the template ``template_id`` (replacing one of that id), checked first by
        its ruleset's loader (:class:`~kassen.core.errors.ContentError` naming each problem)."""
        if not CHARACTER_ID.match(template_id) or len(template_id) > 64:
            raise CampaignError(
                S_("a scenario id is lower-case letters, digits and single hyphens, up to 64")
            )
        validate_scenario(source)
        text = scenario_yaml(source)
        title = str(source.data.get("name") or template_id)[:200]
        with self.store.writing() as conn:
            self.campaigns._campaign(conn, campaign_id, lock=True)
            key = (campaign_scenarios.c.campaign_id == campaign_id) & (campaign_scenarios.c.id == template_id)
            if conn.execute(select(campaign_scenarios.c.id).where(key)).first():
                conn.execute(
                    campaign_scenarios.update()
                    .where(key)
                    .values(ruleset=source.ruleset, name=title, text=text, updated_at=now())
                )
            else:
                count = conn.execute(
                    select(func.count())
                    .select_from(campaign_scenarios)
                    .where(campaign_scenarios.c.campaign_id == campaign_id)
                ).scalar_one()
                if count >= MAX_SCENARIOS:
                    raise CampaignError(
                        S_("a campaign keeps at most {max_scenarios} scenarios", max_scenarios=MAX_SCENARIOS)
                    )
                conn.execute(
                    campaign_scenarios.insert().values(
                        campaign_id=campaign_id,
                        id=template_id,
                        ruleset=source.ruleset,
                        name=title,
                        text=text,
                        updated_at=now(),
                    )
                )
        return Template(template_id, source.ruleset, title, text)

    def templates(self, campaign_id: str) -> list[Template]:
        with self.store.reading() as conn:
            self.campaigns._campaign(conn, campaign_id)
            rows = conn.execute(
                select(campaign_scenarios)
                .where(campaign_scenarios.c.campaign_id == campaign_id)
                .order_by(campaign_scenarios.c.id)
            ).mappings()
            return [Template(r["id"], r["ruleset"], r["name"], r["text"]) for r in rows]

    def template(self, campaign_id: str, template_id: str) -> Template:
        for found in self.templates(campaign_id):
            if found.id == template_id:
                return found
        raise CampaignError(
            S_(
                "no scenario {template_id} in campaign {campaign_id}",
                template_id=repr(template_id[:64]),
                campaign_id=repr(campaign_id),
            )
        )

    def link(self, campaign_id: str, seq: int, fight_id: str) -> None:
        """Remember that campaign fight ``seq`` is played as the table's fight ``fight_id``."""
        with self.store.writing() as conn:
            self.campaigns._campaign(conn, campaign_id, lock=True)
            started = conn.execute(
                select(campaign_fights.c.seq).where(
                    campaign_fights.c.campaign_id == campaign_id, campaign_fights.c.seq == seq
                )
            ).first()
            if started is None:
                raise CampaignError(
                    S_("no fight {seq} in campaign {campaign_id}", seq=seq, campaign_id=repr(campaign_id))
                )
            conn.execute(campaign_tables.insert().values(campaign_id=campaign_id, seq=seq, fight_id=fight_id))

    def table(self, campaign_id: str, seq: int) -> str | None:
        """The table's fight that campaign fight ``seq`` is played as (None: played elsewhere)."""
        with self.store.reading() as conn:
            row = conn.execute(
                select(campaign_tables.c.fight_id).where(
                    campaign_tables.c.campaign_id == campaign_id, campaign_tables.c.seq == seq
                )
            ).first()
        return None if row is None else str(row[0])
