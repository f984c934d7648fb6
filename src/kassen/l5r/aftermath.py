"""After a duel: what each character carries into the next fight (L5.CS.3, ``called_shots.aftermath``).

"Neither natural or magical healing will repair the secondary effects (only the Wounds can be
recovered)": a maim's disadvantages (Missing Limb, Lost Limb, Lame, Single Eye, Benten's Curse,
Permanent Wound) stay for good, with their effects (``called_shots.disadvantages``, L5.GAP.1); the
Wounds stay too unless healed (``recover``, or ``carry_wounds: false`` in the tables). Injuries that are
not maims, and a maim's bleeding, end with the fight (the GM tends them). The dead are not carried.

:func:`aftermath` reads a duel's end state; :func:`carry` writes it into the next scenario (its
characters' ``wounds`` and ``disadvantages``, matched by name), which then starts with those effects.

>>> import kassen
>>> fight = kassen.open_fight("l5r/kakita-vs-hida", seed=1)
>>> fight.autoplay()
>>> [c.name for c in aftermath(fight.state, fight.tables)]
['Kakita Toshiro', 'Hida Kuroda']
"""

from __future__ import annotations

__all__ = ["Carried", "aftermath", "carried_yaml", "carry"]

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from kassen.core.errors import KassenError
from kassen.core.fastreplace import replace
from kassen.core.scenario import ScenarioSource
from kassen.i18n import S_
from kassen.l5r.state import DuelState
from kassen.l5r.tables import L5Tables


@dataclass(frozen=True, slots=True)
class Carried:
    """One character after the duel: the Wounds it carries (0 once recovered), its lasting
    disadvantages (in the order the maims gave them; repeats are cumulative, L5.CS.2), and, for the dead,
    the cause."""

    name: str
    side: str
    wounds: int
    disadvantages: tuple[str, ...]
    dead: bool = False
    death: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "side": self.side, "wounds": self.wounds}
        out["disadvantages"] = list(self.disadvantages)
        if self.dead:
            out["dead"] = True
            out["death"] = self.death
        return out


def aftermath(state: DuelState, tables: L5Tables, *, recover: bool = False) -> tuple[Carried, ...]:
    """Each character as the duel leaves it, in scenario order. ``recover``: the Wounds were healed
    (only they can be, L5.CS.3)."""
    known = tables.called_shots.disadvantages.effects
    keep_wounds = tables.called_shots.aftermath.carry_wounds and not recover
    return tuple(
        Carried(
            f.name,
            f.side,
            f.wounds if keep_wounds else 0,
            tuple(c for c in f.conditions if c in known),
            f.dead,
            f.death,
        )
        for f in state.fighters
    )


def carry(scenario: ScenarioSource, carried: Sequence[Carried]) -> ScenarioSource:
    """``scenario`` with each carried character (matched by name) starting with the Wounds and the
    disadvantages the duel left: they replace what the scenario gave, the duel's end state being the
    later truth. A dead character cannot be carried (:class:`KassenError`); characters the scenario
    does not name are left out, and a scenario that names none of them is a :class:`KassenError`."""
    by_name = {c.name: c for c in carried}
    characters = scenario.data.get("characters")
    if not isinstance(characters, list):
        raise KassenError(
            S_("{file}: the scenario has no list of characters to carry into", file=scenario.file)
        )
    names = [ch.get("name") for ch in characters if isinstance(ch, dict)]
    if not any(isinstance(n, str) and n in by_name for n in names):
        # nothing would be carried: said, not a scenario printed back unchanged as if it were
        theirs = ", ".join(str(n)[:40] for n in names[:8]) or "none"
        raise KassenError(
            S_(
                "{file}: none of the duel's characters ({value}) is in it (its characters: {theirs}); characters are carried by name",  # noqa: E501
                file=scenario.file,
                value=", ".join(sorted(by_name)),
                theirs=theirs,
            )
        )
    out = []
    for ch in characters:
        name = ch.get("name") if isinstance(ch, dict) else None
        c = by_name.get(name) if isinstance(name, str) else None
        if c is None:
            out.append(ch)
            continue
        if c.dead:
            raise KassenError(
                S_(
                    "{name} died in the earlier duel ({death}) and cannot be carried",
                    name=c.name,
                    death=c.death,
                )
            )
        out.append({**ch, "wounds": c.wounds, "disadvantages": list(c.disadvantages)})
    return replace(scenario, data={**scenario.data, "characters": out})


def carried_yaml(scenario: ScenarioSource) -> str:
    """A scenario (as :func:`carry` leaves it) written back as YAML, header first."""
    head: dict[str, Any] = {"ruleset": scenario.ruleset}
    body: dict[str, Any] = dict(scenario.data)
    if scenario.content:
        body["content"] = dict(scenario.content)
    return yaml.safe_dump({**head, **body}, sort_keys=False, allow_unicode=True, width=100)
