"""A character's preview in the builder: what its ruleset's status line says of it (Wounds, Fate, HP...),
its Defense or TN to be hit, and the exact odds of its main attacks.

Nothing is computed here: the preview opens the ruleset's smallest scenario holding the character (the
campaign hook ``probe``, the very check its sheet passes) against the probe's opponent, plays the
opening moves with the scenario's own policy until the character is to decide, and reads the menu the
table would show it, with the odds the table shows (:meth:`kassen.core.fight.Fight.menu`). The
opponent's own attack options give the character's Defense as the odds state it (``vs Defense 8``).
"""

from __future__ import annotations

__all__ = ["Preview", "preview"]

import re
from dataclasses import dataclass, field, replace
from typing import Any

from kassen.campaign.hooks import Character, campaign_rules
from kassen.core.errors import KassenError
from kassen.core.fight import Fight
from kassen.core.scenario import ScenarioSource, open_fight
from kassen.i18n import S_, SOURCE, pgettext, use_language

#: How far the preview looks: the moves played before the character decides, the menus it opens, the
#: depth of a decision, and the attacks it lists.
MAX_STEPS = 30
MAX_MENUS = 30
MAX_DEPTH = 2
MAX_ATTACKS = 8
_DEFENSE = re.compile(r"vs (Defense|TN) (\d+)")


@dataclass(frozen=True, slots=True)
class Preview:
    """What the builder shows beside the form."""

    status: tuple[str, ...] = ()
    defense: str = ""
    attacks: tuple[tuple[str, str], ...] = field(default=())
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "status": list(self.status),
            "defense": self.defense,
            "attacks": [{"label": label, "odds": odds} for label, odds in self.attacks],
            "note": self.note,
        }


def _close_in(source: ScenarioSource) -> ScenarioSource:
    """The probe with the opponent beside the character (Sengoku's probe keeps them a zone apart: the
    odds of its melee attacks need the foe in reach, SG.ZON.2)."""
    units = source.data.get("units")
    if source.ruleset != "sengoku" or not isinstance(units, list) or len(units) < 2:
        return source
    own = dict(units[0])
    # a veteran oni: it stands the character's first blow, so that its own attack states the Defense
    foe = {
        "id": units[1].get("id", "probe-foe"),
        "creature": "oni",
        "side": "foe",
        "zone": own.get("zone") or "own-front",
    }
    return replace(source, data={**source.data, "units": [own, foe, *units[2:]]})


def _own(fight: Fight[Any, Any]) -> bool:
    actor = fight.to_move
    return actor is not None and actor.kind != "gm" and fight.side_of(actor.id) == "own"


def preview(character: Character) -> Preview:
    """The preview of a character whose sheet passed its check."""
    rules = campaign_rules(character.ruleset)
    try:
        fight = open_fight(_close_in(rules.probe(rules.entry(character))), seed=1)
        # the character's own lines, found by their English form (side "own"), shown in the reader's words
        with use_language(SOURCE):
            english = fight.status()
        shown = fight.status()
        status = tuple(line for line, said in zip(shown, english, strict=False) if "(own)" in said)
        for _ in range(MAX_STEPS):
            if fight.over or _own(fight):
                break
            fight.step()
        if not _own(fight):
            return Preview(status, note=S_("the character never came to decide in the preview"))
        attacks: dict[str, str] = {}
        budget = [MAX_MENUS]

        def walk(path: list[str], depth: int) -> None:
            budget[0] -= 1
            if budget[0] < 0 or len(attacks) >= MAX_ATTACKS:
                return
            for option in fight.menu(path).options:
                if not option.allowed:
                    continue
                if option.odds is not None:
                    label = " › ".join([*_labels(fight, path), option.label])
                    attacks.setdefault(label, option.odds.text())
                elif not option.complete and depth < MAX_DEPTH:
                    walk([*path, option.id], depth + 1)

        walk([], 0)
        found = tuple(attacks.items())[:MAX_ATTACKS]
        return Preview(status, _defense_of(fight, character), found)
    except KassenError as exc:
        return Preview(note=S_("no preview: {why}", why=str(exc))[:300])


def _labels(fight: Fight[Any, Any], path: list[str]) -> list[str]:
    out = []
    for i, step in enumerate(path):
        menu = fight.menu(path[:i])
        out.append(next((o.label for o in menu.options if o.id == step), step))
    return out


def _defense_of(fight: Fight[Any, Any], character: Character) -> str:
    """The character's Defense (or TN to be hit) as the opponent's odds state it (``vs Defense 8``),
    or as the state gives it (the arena's active defence), in the reader's words (made when shown: the
    API's preview asks in English)."""
    state = fight.view().get("state") or {}
    for fighter in state.get("fighters", ()) if isinstance(state, dict) else ():
        profile = fighter.get("profile") if isinstance(fighter, dict) else None
        if isinstance(profile, dict) and profile.get("id") == character.id and "defense" in profile:
            return pgettext("campaign preview", "active defence {n}").format(n=profile["defense"])
    if character.ruleset == "sengoku":
        return _sengoku_defense(fight, character)
    foe = fight  # the preview is done with the character's own menu: play on to the opponent's
    for _ in range(MAX_STEPS):
        if foe.over:
            return ""
        actor = foe.to_move
        if actor is not None and actor.kind != "gm" and foe.side_of(actor.id) == "foe":
            break
        foe.step()
    else:
        return ""
    with use_language(SOURCE):  # the odds' label says the Defense (or TN) in its English form
        found = _first_odds(foe, [], 0, [MAX_MENUS])
    for _, odds_label in found:
        match = _DEFENSE.search(odds_label)
        if match is not None:
            kind, value = match.groups()
            if kind == "Defense":
                return pgettext("campaign preview", "Defense {n}").format(n=value)
            return pgettext("campaign preview", "TN {n}").format(n=value)
    return ""


def _sengoku_defense(fight: Fight[Any, Any], character: Character) -> str:
    """The Defense a plain attack rolls against (SG.DEF.5), from the battle's own rules."""
    from kassen.sengoku.profile import AttackTags

    unit = next((u for u in fight.initial_state.units if u.id == character.id), None)
    if unit is None:
        return ""
    rules = fight.tables
    defense = rules.defense_of(rules.base_profile(unit), AttackTags()).defense
    return pgettext("campaign preview", "Defense {n} (SG.DEF.5)").format(n=defense)


def _first_odds(
    fight: Fight[Any, Any], path: list[str], depth: int, budget: list[int]
) -> list[tuple[str, str]]:
    budget[0] -= 1
    if budget[0] < 0:
        return []
    for option in fight.menu(path).options:
        if not option.allowed:
            continue
        if option.odds is not None:
            return [(option.id, option.label)]
        if not option.complete and depth < MAX_DEPTH:
            found = _first_odds(fight, [*path, option.id], depth + 1, budget)
            if found:
                return found
    return []
