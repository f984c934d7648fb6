"""Roll-and-keep between duels: the campaign hooks (:mod:`kassen.campaign.hooks`).

The between-fight rules are :mod:`kassen.l5r.aftermath`'s, with its data (``called_shots.aftermath``):
a maim's disadvantage stays for good — "neither natural or magical healing will repair the secondary
effects (only the Wounds can be recovered)" (L5.CS.3) — and the next duel starts with its effects
(``called_shots.disadvantages``, L5.GAP.1); Wounds stay too unless the GM grants healing (``heal``,
house default ``carry_wounds: true``); a character whose Wounds fill the Dead rank is dead, its death
recorded (L5.CS.5), and never cast again.

>>> from kassen.campaign.hooks import Character
>>> lame = {"wounds": 6, "disadvantages": ["Lame"]}
>>> hida = Character("hida", "Hida Tadaka", "l5r", {"rings": {"earth": 3}}, lame)
>>> CAMPAIGN.entry(hida)["disadvantages"], CAMPAIGN.entry(hida)["wounds"]
(['Lame'], 6)
"""

from __future__ import annotations

__all__ = ["CAMPAIGN", "L5Campaign", "L5Lasting"]

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import Field

from kassen.campaign.hooks import CampaignError, Cast, Character, Entry, Note, Recovery
from kassen.content.yamlio import StrictModel
from kassen.core.fight import Fight
from kassen.core.scenario import ScenarioSource
from kassen.i18n import N_, S_, _
from kassen.l5r.aftermath import aftermath
from kassen.l5r.say import say


class L5Lasting(StrictModel):
    """What a roll-and-keep character carries between duels: Wounds taken (0: unhurt), the
    disadvantages its maims gave (beyond its sheet's own), whether it is dead and how."""

    wounds: int = Field(default=0, ge=0, le=1000)
    disadvantages: list[str] = Field(default_factory=list, max_length=40)
    duels: int = Field(default=0, ge=0, le=100_000)
    dead: bool = False
    death: str = Field(default="", max_length=400)


_RECOVERIES = {
    "heal": Recovery("heal", N_("healing: every Wound recovered (never a maim's effects)"), "L5.CS.3"),
}


class L5Campaign:
    """The roll-and-keep campaign hooks (see the module notes)."""

    ruleset = "l5r"
    lasting = L5Lasting
    entries = "characters"
    key = "name"
    placement = frozenset({"position", "policy", "script", "prefers"})
    recoveries: Mapping[str, Recovery] = _RECOVERIES

    def entry(self, character: Character) -> dict[str, Any]:
        sheet = {k: v for k, v in character.sheet.items() if k not in ("side", "name", "position")}
        lasting = L5Lasting.model_validate(dict(character.lasting))
        out: dict[str, Any] = {"name": character.name, **sheet}
        own = list(sheet.get("disadvantages") or [])
        if lasting.disadvantages or own:
            out["disadvantages"] = own + lasting.disadvantages
        if lasting.wounds:
            out["wounds"] = lasting.wounds
        return out

    def probe(self, entry: Mapping[str, Any]) -> ScenarioSource:
        foe = "Sheet Check Opponent"
        data = {
            "name": "sheet check",
            "characters": [
                {**entry, "side": "own"},
                {"name": foe, "side": "foe", "rings": {"earth": 2, "water": 2, "fire": 2, "air": 2}},
            ],
        }
        return ScenarioSource("sheet", "sheet", "l5r", data)

    def settle(
        self, fight: Fight[Any, Any], cast: Sequence[Cast], take: Mapping[str, Sequence[str]]
    ) -> tuple[Entry, ...]:
        carried = {c.name: c for c in aftermath(fight.state, fight.tables)}
        out = []
        for member in cast:
            ch = member.character
            c = carried.get(ch.name)
            if c is None:
                raise CampaignError(S_("{name} is not in this duel", name=ch.name))
            before = L5Lasting.model_validate(dict(ch.lasting))
            own = Counter(str(d) for d in ch.sheet.get("disadvantages") or [])
            gained: list[str] = []
            for d in c.disadvantages:  # the duel's disadvantages, less the sheet's own (cumulative, L5.CS.2)
                if own[d] > 0:
                    own[d] -= 1
                else:
                    gained.append(d)
            notes: list[Note] = []
            new = Counter(gained) - Counter(before.disadvantages)
            for d in new.elements():
                notes.append(
                    Note(
                        S_("{name} is maimed: {d}, for good (healing never repairs it)", name=ch.name, d=d),
                        "L5.CS.3",
                    )
                )
            after: dict[str, Any] = {
                "wounds": c.wounds,
                "disadvantages": gained,
                "duels": before.duels + 1,
                "dead": c.dead,
                "death": c.death[:400] if c.dead else "",
            }
            if c.dead:
                notes.append(Note(S_("{name} dies: {cause}", name=ch.name, cause=c.death), "L5.CS.5"))
            elif c.wounds:
                notes.append(
                    Note(
                        S_(
                            "{name} carries {wounds} Wounds into the next duel", name=ch.name, wounds=c.wounds
                        ),
                        "L5.CS.3",
                    )
                )
            for rid in take.get(ch.id, ()):
                if rid not in _RECOVERIES:
                    raise CampaignError(
                        S_(
                            "no recovery {rid} in l5r (known: {value})",
                            rid=repr(rid),
                            value=", ".join(_RECOVERIES),
                        )
                    )
                if c.dead:
                    raise CampaignError(S_("{name} is dead: no {rid}", name=ch.name, rid=rid))
                after["wounds"] = 0
                notes.append(
                    Note(
                        S_("{name} is healed: every Wound recovered, the maims stay", name=ch.name), "L5.CS.3"
                    )
                )
            out.append(
                Entry(ch.id, before.model_dump(), L5Lasting.model_validate(after).model_dump(), tuple(notes))
            )
        return tuple(out)

    def sheet(self, character: Character) -> list[str]:
        lasting = L5Lasting.model_validate(dict(character.lasting))
        if lasting.dead:
            return [_("dead: {cause}").format(cause=say(lasting.death))]
        maims = _(", ").join(say(d) for d in lasting.disadvantages) or _("none")
        return [
            _("Wounds taken: {n}").format(n=lasting.wounds),
            _("lasting disadvantages: {maims}").format(maims=maims),
            _("duels: {n}").format(n=lasting.duels),
        ]


CAMPAIGN = L5Campaign()
