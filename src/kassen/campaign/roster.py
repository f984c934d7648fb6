"""Campaigns in the store: every operation one transaction (a confirmed aftermath survives ``kill -9``).

The life of a fight: :meth:`Campaigns.start_fight` casts a template with roster characters and records
the scenario as built (``started``); the fight is played anywhere (``kassen play``, ``kassen fight``,
the web table, Python) and its chronicle comes back to :meth:`Campaigns.propose`, which checks that it
is a fight of that very scenario, runs the ruleset's between-fight rules and keeps the result for
review (``proposed``); :meth:`Campaigns.confirm` writes it to the roster (``settled``);
:meth:`Campaigns.undo` takes it back until the next fight starts.

Rights: the GM's token opens everything; a player's token shows only the characters the player owns
(:meth:`Campaigns.role`).
"""

from __future__ import annotations

__all__ = ["Campaigns", "FightRecord", "Role"]

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection, RowMapping

from kassen.campaign.build import (
    build_scenario,
    check_lasting,
    check_sheet,
    fresh_lasting,
    scenario_yaml,
    validate_scenario,
)
from kassen.campaign.hooks import CHARACTER_ID, CampaignError, Cast, Character, Entry, campaign_rules
from kassen.campaign.schema import campaign_fights, campaign_players, campaigns, roster, roster_fights
from kassen.core.fight import Fight
from kassen.core.scenario import ScenarioSource, open_fight, read_scenario
from kassen.core.text import control_in
from kassen.i18n import S_
from kassen.web.store import Store, now

#: The most characters a campaign's roster holds, and a player name's length.
MAX_ROSTER = 500
MAX_NAME = 64


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Role:
    """Who holds a token: the GM, or a player (by name)."""

    campaign: str
    gm: bool
    player: str | None = None

    def may_see(self, character: Character) -> bool:
        return self.gm or (self.player is not None and character.owner == self.player)


@dataclass(frozen=True, slots=True)
class FightRecord:
    """A fight of a campaign: its number, ruleset, template, the scenario as built, the cast (character
    id → side), its status and aftermath (each character's entry, once proposed)."""

    seq: int
    ruleset: str
    template: str
    scenario: str
    cast: tuple[tuple[str, str], ...]
    status: str
    aftermath: tuple[Entry, ...] = ()
    versions: Mapping[str, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "ruleset": self.ruleset,
            "template": self.template,
            "cast": [{"character": c, "side": s} for c, s in self.cast],
            "status": self.status,
            "aftermath": [e.to_json() for e in self.aftermath],
        }

    @classmethod
    def read(cls, row: RowMapping) -> FightRecord:
        after = json.loads(row["aftermath"]) if row["aftermath"] else None
        entries = tuple(Entry.from_json(e) for e in after["entries"]) if after else ()
        return cls(
            row["seq"],
            row["ruleset"],
            row["template"],
            row["scenario"],
            tuple((c["character"], c["side"]) for c in json.loads(row["cast"])),
            row["status"],
            entries,
            after["versions"] if after else None,
        )


def _character(row: RowMapping) -> Character:
    return Character(
        row["id"],
        row["name"],
        row["ruleset"],
        json.loads(row["sheet"]),
        json.loads(row["lasting"]),
        row["owner"],
        row["version"],
    )


class Campaigns:
    """The campaign operations over a :class:`~kassen.web.store.Store` (see the module notes)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- campaigns and rights ----------------------------------------------------------------------
    def new(self, campaign_id: str, name: str = "") -> str:
        """A new campaign; returns its GM token (shown once: the store keeps only its hash)."""
        _check_id(campaign_id, "campaign")
        _check_text(name)
        token = secrets.token_urlsafe(24)
        with self.store.writing() as conn:
            if conn.execute(select(campaigns.c.id).where(campaigns.c.id == campaign_id)).first():
                raise CampaignError(
                    S_("a campaign {campaign_id} exists already", campaign_id=repr(campaign_id))
                )
            conn.execute(
                campaigns.insert().values(
                    id=campaign_id, name=(name or campaign_id)[:200], gm_hash=_digest(token), created_at=now()
                )
            )
        return token

    def listing(self) -> list[dict[str, Any]]:
        with self.store.reading() as conn:
            rows = conn.execute(select(campaigns.c.id, campaigns.c.name).order_by(campaigns.c.id)).mappings()
            return [{"id": r["id"], "name": r["name"]} for r in rows]

    def player_token(self, campaign_id: str, player: str) -> str:
        """A token for ``player`` in the campaign (they see only the characters they own)."""
        _check_name(player)
        token = secrets.token_urlsafe(24)
        with self.store.writing() as conn:
            self._campaign(conn, campaign_id)
            conn.execute(
                campaign_players.insert().values(hash=_digest(token), campaign_id=campaign_id, player=player)
            )
        return token

    def role(self, campaign_id: str, token: str) -> Role | None:
        """Who ``token`` is in the campaign (None: nobody)."""
        digest = _digest(token)
        with self.store.reading() as conn:
            row = conn.execute(select(campaigns.c.gm_hash).where(campaigns.c.id == campaign_id)).first()
            if row is None:
                return None
            if secrets.compare_digest(row[0], digest):
                return Role(campaign_id, True)
            player = conn.execute(
                select(campaign_players.c.player).where(
                    campaign_players.c.hash == digest, campaign_players.c.campaign_id == campaign_id
                )
            ).first()
            return None if player is None else Role(campaign_id, False, player[0])

    # -- the roster --------------------------------------------------------------------------------
    def characters(self, campaign_id: str, role: Role | None = None) -> list[Character]:
        with self.store.reading() as conn:
            self._campaign(conn, campaign_id)
            rows = conn.execute(
                select(roster).where(roster.c.campaign_id == campaign_id).order_by(roster.c.id)
            ).mappings()
            found = [_character(r) for r in rows]
        return [c for c in found if role is None or role.may_see(c)]

    def character(self, campaign_id: str, character_id: str, role: Role | None = None) -> Character:
        with self.store.reading() as conn:
            ch = self._get(conn, campaign_id, character_id)
        if role is not None and not role.may_see(ch):
            raise CampaignError(
                S_(
                    "no character {character_id} in campaign {campaign_id}",
                    character_id=repr(character_id),
                    campaign_id=repr(campaign_id),
                )
            )
        return ch

    def history(self, campaign_id: str, character_id: str) -> list[int]:
        """The fights (by number) the character was cast in."""
        with self.store.reading() as conn:
            self._get(conn, campaign_id, character_id)
            rows = conn.execute(
                select(roster_fights.c.seq)
                .where(
                    roster_fights.c.campaign_id == campaign_id, roster_fights.c.character_id == character_id
                )
                .order_by(roster_fights.c.seq)
            )
            return [int(r[0]) for r in rows]

    def add(
        self,
        campaign_id: str,
        ruleset: str,
        character_id: str,
        name: str,
        sheet: Mapping[str, Any],
        *,
        owner: str | None = None,
        lasting: Mapping[str, Any] | None = None,
    ) -> Character:
        """Add a character, its sheet checked as a scenario would check it (nothing stored if not)."""
        rules = campaign_rules(ruleset)
        if owner is not None:
            _check_name(owner)
        state = check_lasting(rules, lasting) if lasting is not None else fresh_lasting(rules)
        ch = Character(character_id, name, ruleset, dict(sheet), state, owner)
        check_sheet(rules, ch)
        with self.store.writing() as conn:
            self._campaign(conn, campaign_id, lock=True)
            count = conn.execute(
                select(func.count()).select_from(roster).where(roster.c.campaign_id == campaign_id)
            ).scalar_one()
            if count >= MAX_ROSTER:
                raise CampaignError(
                    S_("the roster holds at most {max_roster} characters", max_roster=MAX_ROSTER)
                )
            if conn.execute(
                select(roster.c.id).where(roster.c.campaign_id == campaign_id, roster.c.id == character_id)
            ).first():
                raise CampaignError(
                    S_(
                        "a character {character_id} is on the roster already",
                        character_id=repr(character_id),
                    )
                )
            conn.execute(roster.insert().values(campaign_id=campaign_id, **self._values(ch)))
        return ch

    def edit(
        self,
        campaign_id: str,
        character_id: str,
        *,
        name: str | None = None,
        sheet: Mapping[str, Any] | None = None,
        lasting: Mapping[str, Any] | None = None,
        owner: str | None = None,
        version: int | None = None,
    ) -> Character:
        """Change a character (each given field replaced; checked again). ``version``: refuse if the
        character changed since it was read."""
        with self.store.writing() as conn:
            self._campaign(conn, campaign_id, lock=True)
            old = self._get(conn, campaign_id, character_id)
            if version is not None and version != old.version:
                raise CampaignError(
                    S_(
                        "{name} changed since version {version} (now {version2}): read it again",
                        name=old.name,
                        version=version,
                        version2=old.version,
                    )
                )
            rules = campaign_rules(old.ruleset)
            new = Character(
                old.id,
                old.name if name is None else name,
                old.ruleset,
                old.sheet if sheet is None else dict(sheet),
                old.lasting if lasting is None else check_lasting(rules, {**old.lasting, **lasting}),
                old.owner if owner is None else (owner or None),
                old.version + 1,
            )
            check_sheet(rules, new)
            self._put(conn, campaign_id, new)
        return new

    # -- fights --------------------------------------------------------------------------------------
    def fights(self, campaign_id: str) -> list[FightRecord]:
        with self.store.reading() as conn:
            self._campaign(conn, campaign_id)
            rows = conn.execute(
                select(campaign_fights)
                .where(campaign_fights.c.campaign_id == campaign_id)
                .order_by(campaign_fights.c.seq)
            ).mappings()
            return [FightRecord.read(r) for r in rows]

    def build(
        self, campaign_id: str, template: ScenarioSource, cast: Sequence[tuple[str, str]]
    ) -> ScenarioSource:
        """The scenario ``template`` cast with roster characters (id, side), checked by its ruleset's
        loader; nothing is stored."""
        with self.store.reading() as conn:
            self._campaign(conn, campaign_id)
            members = [Cast(self._get(conn, campaign_id, cid), side) for cid, side in cast]
        return self._build(template, members)

    def _build(self, template: ScenarioSource, members: Sequence[Cast]) -> ScenarioSource:
        if not members:
            raise CampaignError(S_("cast at least one roster character"))
        rules = campaign_rules(template.ruleset)
        built = build_scenario(rules, template, members)
        text = scenario_yaml(built)
        again = read_scenario(template.name, ruleset=template.ruleset, text=text)
        validate_scenario(again)
        return again

    def start_fight(
        self,
        campaign_id: str,
        template: ScenarioSource,
        cast: Sequence[tuple[str, str]],
        *,
        abandon: bool = False,
    ) -> FightRecord:
        """Start the next fight: the last one must be settled (or ``abandon``: it is left unsettled and
        its aftermath can no longer be confirmed). From now on the last aftermath cannot be undone."""
        with self.store.writing() as conn:
            self._campaign(conn, campaign_id, lock=True)
            members = [Cast(self._get(conn, campaign_id, cid), side) for cid, side in cast]
            last = self._last(conn, campaign_id)
            if last is not None and last.status in ("started", "proposed"):
                if not abandon:
                    raise CampaignError(
                        S_(
                            "fight {seq} is not settled: confirm its aftermath first (or abandon it)",
                            seq=last.seq,
                        )
                    )
                conn.execute(
                    campaign_fights.update()
                    .where(campaign_fights.c.campaign_id == campaign_id, campaign_fights.c.seq == last.seq)
                    .values(status="abandoned")
                )
            built = self._build(template, members)
            seq = (last.seq if last is not None else 0) + 1
            text = scenario_yaml(built)
            record = FightRecord(seq, built.ruleset, template.name, text, tuple(cast), "started")
            conn.execute(
                campaign_fights.insert().values(
                    campaign_id=campaign_id,
                    seq=seq,
                    ruleset=built.ruleset,
                    template=template.name[:200],
                    scenario=text,
                    cast=_dumps([{"character": c, "side": s} for c, s in cast]),
                    status="started",
                    started_at=now(),
                )
            )
            for member in members:
                conn.execute(
                    roster_fights.insert().values(
                        campaign_id=campaign_id, character_id=member.character.id, seq=seq, side=member.side
                    )
                )
        return record

    def scenario(self, campaign_id: str, seq: int | None = None) -> ScenarioSource:
        """A fight's scenario as built (default: the last fight's)."""
        record = self._record(campaign_id, seq)
        return read_scenario(
            f"campaign-{campaign_id}-{record.seq}", ruleset=record.ruleset, text=record.scenario
        )

    def open(self, campaign_id: str, seq: int | None = None, **options: Any) -> Fight[Any, Any]:
        """A fight of the last (or ``seq``-th) fight's scenario, ``open_fight``'s options passed on."""
        return open_fight(self.scenario(campaign_id, seq), **options)

    def propose(
        self,
        campaign_id: str,
        played: Fight[Any, Any] | Mapping[str, Any],
        take: Mapping[str, Sequence[str]] = {},
    ) -> FightRecord:
        """The aftermath of the last fight, played as ``played`` (a fight, or its chronicle), with the
        recoveries the GM takes (character id → recovery ids): kept for review, not yet written."""
        fight = played if isinstance(played, Fight) else Fight.from_json(dict(played))
        if not fight.over:
            raise CampaignError(S_("the fight is not over yet: the aftermath follows its end"))
        with self.store.writing() as conn:
            self._campaign(conn, campaign_id, lock=True)
            last = self._last(conn, campaign_id)
            if last is None or last.status not in ("started", "proposed"):
                raise CampaignError(S_("no fight waits for its aftermath: start one first"))
            built = read_scenario("built", ruleset=last.ruleset, text=last.scenario)
            if fight.ruleset.info.name != last.ruleset:
                raise CampaignError(
                    S_("this is a {name} fight, not fight {seq}", name=fight.ruleset.info.name, seq=last.seq)
                )
            expected = open_fight(built, seed=fight.seed).to_json()["initial_state"]
            if fight.to_json()["initial_state"] != expected:
                raise CampaignError(
                    S_("this fight did not start from fight {seq}'s scenario as built", seq=last.seq)
                )
            members = [Cast(self._get(conn, campaign_id, cid), side) for cid, side in last.cast]
            unknown = sorted(set(take) - {m.character.id for m in members})
            if unknown:
                raise CampaignError(S_("not in this fight: {items}", items=", ".join(unknown)))
            rules = campaign_rules(last.ruleset)
            entries = rules.settle(fight, members, take)
            versions = {m.character.id: m.character.version for m in members}
            aftermath = {"entries": [e.to_json() for e in entries], "versions": versions}
            conn.execute(
                campaign_fights.update()
                .where(campaign_fights.c.campaign_id == campaign_id, campaign_fights.c.seq == last.seq)
                .values(status="proposed", chronicle=_dumps(fight.to_json()), aftermath=_dumps(aftermath))
            )
        return FightRecord(
            last.seq, last.ruleset, last.template, last.scenario, last.cast, "proposed", entries, versions
        )

    def confirm(self, campaign_id: str) -> FightRecord:
        """Write the proposed aftermath to the roster (refused if a character changed since)."""
        with self.store.writing() as conn:
            self._campaign(conn, campaign_id, lock=True)
            last = self._last(conn, campaign_id)
            if last is None or last.status != "proposed":
                raise CampaignError(
                    S_("no aftermath to confirm: propose one after the fight (campaign aftermath)")
                )
            for entry in last.aftermath:
                ch = self._get(conn, campaign_id, entry.character)
                if last.versions is not None and ch.version != last.versions.get(ch.id):
                    raise CampaignError(
                        S_("{name} changed since the aftermath was proposed: propose it again", name=ch.name)
                    )
                self._put(conn, campaign_id, _with(ch, entry.after))
            self._status(conn, campaign_id, last.seq, "settled")
        return FightRecord(
            last.seq, last.ruleset, last.template, last.scenario, last.cast, "settled", last.aftermath
        )

    def undo(self, campaign_id: str) -> FightRecord:
        """Take back the last confirmed aftermath, until the next fight starts: each character's lasting
        state as it was before (refused if a character was edited since)."""
        with self.store.writing() as conn:
            self._campaign(conn, campaign_id, lock=True)
            last = self._last(conn, campaign_id)
            if last is None or last.status != "settled":
                if last is not None and last.status in ("started", "abandoned") and last.seq > 1:
                    raise CampaignError(
                        S_("fight {seq} has started since: the aftermath before it stays", seq=last.seq)
                    )
                raise CampaignError(S_("no confirmed aftermath to undo"))
            for entry in last.aftermath:
                ch = self._get(conn, campaign_id, entry.character)
                if dict(ch.lasting) != dict(entry.after):
                    raise CampaignError(
                        S_("{name} was edited since the aftermath: undo by hand (roster edit)", name=ch.name)
                    )
                self._put(conn, campaign_id, _with(ch, entry.before))
            versions = {
                e.character: self._get(conn, campaign_id, e.character).version for e in last.aftermath
            }
            aftermath = {"entries": [e.to_json() for e in last.aftermath], "versions": versions}
            conn.execute(
                campaign_fights.update()
                .where(campaign_fights.c.campaign_id == campaign_id, campaign_fights.c.seq == last.seq)
                .values(status="proposed", aftermath=_dumps(aftermath))
            )
        return FightRecord(
            last.seq, last.ruleset, last.template, last.scenario, last.cast, "proposed", last.aftermath
        )

    # -- inside a transaction -----------------------------------------------------------------------
    def _campaign(self, conn: Connection, campaign_id: str, *, lock: bool = False) -> None:
        query = select(campaigns.c.id).where(campaigns.c.id == campaign_id)
        if lock and conn.dialect.name == "postgresql":
            query = query.with_for_update()
        if conn.execute(query).first() is None:
            raise CampaignError(
                S_(
                    "no campaign {campaign_id} (kassen campaign new NAME)",
                    campaign_id=repr(str(campaign_id)[:64]),
                )
            )

    def _get(self, conn: Connection, campaign_id: str, character_id: str) -> Character:
        row = (
            conn.execute(
                select(roster).where(roster.c.campaign_id == campaign_id, roster.c.id == character_id)
            )
            .mappings()
            .first()
        )
        if row is None:
            raise CampaignError(
                S_(
                    "no character {character_id} in campaign {campaign_id}",
                    character_id=repr(str(character_id)[:64]),
                    campaign_id=repr(campaign_id),
                )
            )
        return _character(row)

    def _values(self, ch: Character) -> dict[str, Any]:
        return {
            "id": ch.id,
            "ruleset": ch.ruleset,
            "name": ch.name,
            "owner": ch.owner,
            "sheet": _dumps(dict(ch.sheet)),
            "lasting": _dumps(dict(ch.lasting)),
            "dead": ch.dead,
            "version": ch.version,
            "updated_at": now(),
        }

    def _put(self, conn: Connection, campaign_id: str, ch: Character) -> None:
        values = self._values(ch)
        del values["id"]
        conn.execute(
            roster.update().where(roster.c.campaign_id == campaign_id, roster.c.id == ch.id).values(**values)
        )

    def _last(self, conn: Connection, campaign_id: str) -> FightRecord | None:
        row = (
            conn.execute(
                select(campaign_fights)
                .where(campaign_fights.c.campaign_id == campaign_id)
                .order_by(campaign_fights.c.seq.desc())
                .limit(1)
            )
            .mappings()
            .first()
        )
        return None if row is None else FightRecord.read(row)

    def _status(self, conn: Connection, campaign_id: str, seq: int, status: str) -> None:
        conn.execute(
            campaign_fights.update()
            .where(campaign_fights.c.campaign_id == campaign_id, campaign_fights.c.seq == seq)
            .values(status=status, settled_at=now() if status == "settled" else None)
        )

    def _record(self, campaign_id: str, seq: int | None) -> FightRecord:
        with self.store.reading() as conn:
            self._campaign(conn, campaign_id)
            if seq is None:
                record = self._last(conn, campaign_id)
            else:
                row = (
                    conn.execute(
                        select(campaign_fights).where(
                            campaign_fights.c.campaign_id == campaign_id, campaign_fights.c.seq == seq
                        )
                    )
                    .mappings()
                    .first()
                )
                record = None if row is None else FightRecord.read(row)
        if record is None:
            raise CampaignError(
                f"no fight {seq if seq is not None else ''} in campaign {campaign_id!r}".replace("  ", " ")
            )
        return record


def _with(ch: Character, lasting: Mapping[str, Any]) -> Character:
    return Character(ch.id, ch.name, ch.ruleset, ch.sheet, dict(lasting), ch.owner, ch.version + 1)


def _check_id(value: str, what: str) -> None:
    if not isinstance(value, str) or not CHARACTER_ID.match(value) or len(value) > 64:
        raise CampaignError(
            S_(
                "a {what} id is lower-case letters, digits and single hyphens, up to 64 ({example})",
                what=what,
                example=f"my-{what}",  # an id as typed, never translated
            )
        )


def _check_name(player: str) -> None:
    """A player's name: 1 to :data:`MAX_NAME` characters, no control character (kassen.core.text)."""
    if not player.strip() or len(player) > MAX_NAME:
        raise CampaignError(S_("a player's name is 1 to {max_name} characters", max_name=MAX_NAME))
    _check_text(player)


def _check_text(text: str) -> None:
    """No control character in a name the campaign keeps (kassen.core.text)."""
    found = control_in(text)
    if found is not None:
        raise CampaignError(S_("the control character {char} is not allowed in text", char=found))
