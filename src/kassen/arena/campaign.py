"""The arena between matches: the campaign hooks (:mod:`kassen.campaign.hooks`) and their data.

A fighter's record is what lasts (``data/campaign.yaml``): each match fought (won, lost or drawn)
counts toward the popularity bonus at 10 matches; the winner of a match the GM marks ``championship``
is a champion and holds the title; age and reaction modifiers are the sheet's. Popularity is computed
from that record by :func:`kassen.arena.audience.popularity` (AR.AUD.1) and checked at the start of
each match (AR.AUD.2); audience points are never carried over (AR.AUD.2: the state does not hold
them). A fighter who died in a match is dead for good; the others start the next at full HP and FP
(house default).

>>> from kassen.campaign.hooks import Character
>>> ryu = Character("ryu", "Ryu", "arena", {"matches": 4, "age": 18}, {"matches": 6, "wins": 2})
>>> CAMPAIGN.entry(ryu)["matches"]
10
"""

from __future__ import annotations

__all__ = ["CAMPAIGN", "ArenaCampaign", "ArenaLasting", "load_between_matches"]

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Literal

from pydantic import Field

from kassen.arena.audience import popularity
from kassen.arena.terms import Condition
from kassen.campaign.hooks import CampaignError, Cast, Character, Entry, Note, Recovery
from kassen.content.yamlio import HouseDefault, StrictModel, load_package_model
from kassen.core.fight import Fight
from kassen.core.scenario import ScenarioSource
from kassen.i18n import N_, S_, _, translate_text


class _Matches(StrictModel):
    house_default: HouseDefault


class _Recovery(StrictModel):
    hp_fp: Literal["recover", "carry"] = "recover"
    house_default: HouseDefault


class BetweenMatches(StrictModel):
    """``data/campaign.yaml``."""

    matches: _Matches
    recovery: _Recovery


@cache
def load_between_matches() -> BetweenMatches:
    return load_package_model("kassen.arena.data", "campaign.yaml", BetweenMatches)


class ArenaLasting(StrictModel):
    """A fighter's record over the campaign: matches fought, won and lost here (added to its sheet's
    ``matches``), championships, HP/FP carried (``carry`` reading only), whether it died."""

    matches: int = Field(default=0, ge=0, le=10_000)
    wins: int = Field(default=0, ge=0, le=10_000)
    losses: int = Field(default=0, ge=0, le=10_000)
    champion: bool = False
    holds_title: bool = False
    hp: int | None = Field(default=None, ge=-1000, le=1000)
    fp: int | None = Field(default=None, ge=-1000, le=1000)
    dead: bool = False
    death: str = Field(default="", max_length=400)


_RECOVERIES = {
    "championship": Recovery(
        "championship", N_("this match was a championship final: its winner is champion"), "AR.AUD.1"
    ),
}


class ArenaCampaign:
    """The arena campaign hooks (see the module notes)."""

    ruleset = "arena"
    lasting = ArenaLasting
    entries = "fighters"
    key = "id"
    placement = frozenset({"position", "posture", "altitude", "policy", "script"})
    recoveries: Mapping[str, Recovery] = _RECOVERIES

    def entry(self, character: Character) -> dict[str, Any]:
        sheet = {k: v for k, v in character.sheet.items() if k not in ("side", "id", "name", "position")}
        lasting = ArenaLasting.model_validate(dict(character.lasting))
        out: dict[str, Any] = {"id": character.id, "name": character.name, **sheet}
        out["matches"] = int(sheet.get("matches") or 0) + lasting.matches
        if lasting.champion:
            out["champion"] = True
        if lasting.holds_title:
            out["holds_title"] = True
        return out

    def probe(self, entry: Mapping[str, Any]) -> ScenarioSource:
        foe = "probe-foe" if entry.get("id") != "probe-foe" else "probe-other"
        data = {
            "name": "sheet check",
            "format": "match",
            "fighters": [{**entry, "side": "own"}, {"id": foe, "side": "foe"}],
        }
        return ScenarioSource("sheet", "sheet", "arena", data)

    def settle(
        self, fight: Fight[Any, Any], cast: Sequence[Cast], take: Mapping[str, Sequence[str]]
    ) -> tuple[Entry, ...]:
        state = fight.state
        winner = state.result.winner if state.result is not None else None
        out = []
        for member in cast:
            ch = member.character
            f = next((x for x in state.fighters if x.profile.id == ch.id), None)
            if f is None:
                raise CampaignError(_("{name} ({id}) is not in this match").format(name=ch.name, id=ch.id))
            before = ArenaLasting.model_validate(dict(ch.lasting))
            after = before.model_dump()
            notes: list[Note] = []
            after["matches"] = before.matches + 1
            won = winner is not None and f.profile.side == winner
            if won:
                after["wins"] = before.wins + 1
            elif winner is not None:
                after["losses"] = before.losses + 1
            total = int(ch.sheet.get("matches") or 0) + after["matches"]
            if won:
                note = S_("{name} wins: {total} matches fought", name=ch.name, total=total)
            elif winner is None:
                note = S_("{name} draws: {total} matches fought", name=ch.name, total=total)
            else:
                note = S_("{name} loses: {total} matches fought", name=ch.name, total=total)
            notes.append(Note(note, "AR.AUD.1"))
            if Condition.DEAD in f.conditions:
                after.update(dead=True, death=S_("died in the match (HP {hp})", hp=f.hp))
                notes.append(Note(S_("{name} died in the match", name=ch.name), "AR.HP.4"))
            elif load_between_matches().recovery.hp_fp == "carry":
                after.update(hp=f.hp, fp=f.fp)
            for rid in take.get(ch.id, ()):
                if rid not in _RECOVERIES:
                    text = _("no option {option} in arena (known: {known})")
                    raise CampaignError(text.format(option=repr(rid), known=", ".join(_RECOVERIES)))
                if not won:
                    raise CampaignError(
                        _("{name} did not win this match: no championship").format(name=ch.name)
                    )
                after.update(champion=True, holds_title=True)
                notes.append(Note(S_("{name} wins the championship", name=ch.name), "AR.AUD.1"))
            settled = ArenaLasting.model_validate(after)
            now, _steps = self._popularity(ch, settled)
            was, _before = self._popularity(ch, before)
            if now != was:
                notes.append(
                    Note(S_("{name}'s popularity: {was} → {now}", name=ch.name, was=was, now=now), "AR.AUD.1")
                )
            out.append(Entry(ch.id, before.model_dump(), settled.model_dump(), tuple(notes)))
        return tuple(out)

    def _popularity(self, character: Character, lasting: ArenaLasting) -> tuple[int, tuple[Any, ...]]:
        sheet = character.sheet
        reactions = tuple(int(r) for r in sheet.get("reactions") or ())
        age = sheet.get("age")
        return popularity(
            champion=bool(sheet.get("champion")) or lasting.champion,
            holds_title=bool(sheet.get("holds_title")) or lasting.holds_title,
            matches=int(sheet.get("matches") or 0) + lasting.matches,
            age=int(age) if age is not None else None,
            reactions=reactions,
        )

    def popularity(self, character: Character) -> int:
        """The fighter's popularity now (AR.AUD.1)."""
        return self._popularity(character, ArenaLasting.model_validate(dict(character.lasting)))[0]

    def sheet(self, character: Character) -> list[str]:
        lasting = ArenaLasting.model_validate(dict(character.lasting))
        if lasting.dead:
            return [_("dead: {death}").format(death=translate_text(lasting.death))]
        value, steps = self._popularity(character, lasting)
        why = ", ".join(
            _("{reason} {value}").format(reason=translate_text(s.reason), value=f"{s.value:+d}")
            for s in steps[1:-1]
            if s.rule == "AR.AUD.1"
        )
        matches = int(character.sheet.get("matches") or 0) + lasting.matches
        champion = lasting.champion or character.sheet.get("champion")
        return [
            _("matches: {matches} ({wins} won, {losses} lost here)").format(
                matches=matches, wins=lasting.wins, losses=lasting.losses
            ),
            _("champion: yes") if champion else _("champion: no"),
            _("popularity: {value} (10, {why})").format(value=value, why=why)
            if why
            else _("popularity: {value} (10)").format(value=value),
        ]


CAMPAIGN = ArenaCampaign()
