"""Helpers for the tests of play at the table (issue 11): a fight at a given state, the menu path of an
action, and one action resolved many times through the core's engine to count what happened."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kassen.arena.bout import Attack, BoutState, Decline
from kassen.arena.content import bundled_content, load_content
from kassen.arena.ruleset import RULESET
from kassen.arena.table.menus import steps
from kassen.content.content import Layer
from kassen.core.engine import Snapshot, advance
from kassen.core.events import Event
from kassen.core.fight import Fight
from kassen.core.menu import Option
from kassen.core.rng import Rng

#: The events that say a hit knocked its victim out (kind, rule).
KO = {("dead", "AR.HP.3"), ("dead", "AR.HP.4"), ("incapacitated", "AR.INJ.8"), ("incapacitated", "AR.INJ.9")}


def fight_at(state: BoutState, overrides: dict[str, Any] | None = None, seed: int = 1) -> Fight[Any, Any]:
    """A fight that starts at ``state`` (the bundled content, with ``overrides`` as one more layer)."""
    content = bundled_content() if not overrides else load_content([Layer("test", data=overrides)])
    return Fight(RULESET, content, state, seed)


def option_of(fight: Fight[Any, Any], action: Any) -> tuple[list[str], Option]:
    """The path through the fight's menus to the complete option that names ``action``, and the option."""
    wanted = [ident for _, ident in steps(action, fight.tables)]
    path: list[str] = []
    while True:
        menu = fight.menu(path)
        option = next(o for o in menu.options if o.id in wanted[len(path) :])
        path.append(option.id)
        if option.complete:
            assert RULESET.decision(fight.state, fight.tables, path) == action
            return path, option


def resolve(fight: Fight[Any, Any], action: Any, seed: int) -> list[Event]:
    """``action`` resolved from the fight's state with the RNG at ``seed``, every override then offered
    declined (the odds are those of the hit's effects let stand), until nobody is offered one."""
    snap, events = advance(RULESET, fight.tables, Snapshot(fight.state, Rng(seed).state), action)
    out = list(events)
    while snap.state.offers and snap.state.result is None:
        snap, more = advance(RULESET, fight.tables, snap, Decline(snap.state.offers[0].fighter))
        out += more
    return out


@dataclass
class Tally:
    """What happened over ``n`` resolutions of one attack."""

    n: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    injury: int = 0
    injury_sq: int = 0

    def add(self, events: Sequence[Event], hit_id: int, target: str) -> None:
        self.n += 1
        seen = _measure(events, hit_id, target)
        for k, v in seen.items():
            if k == "injury":
                self.injury += v
                self.injury_sq += v * v
            else:
                self.counts[k] = self.counts.get(k, 0) + v


def _measure(events: Sequence[Event], hit_id: int, target: str) -> dict[str, int]:
    """One resolution, counted as the odds name their outcomes: the attack's rolls, then the events of
    its hit's own effects on the target (from its damage to the end of the subturn or the next hit)."""
    attack = next(e for e in events if e.kind == "attack")
    roll = next(e for e in events if e.kind == "check" and e.data["check"] == "attack")
    hit = bool(attack.data["hit"])
    out = {
        "hit": int(hit),
        "critical": int(hit and roll.data["critical"] and roll.data["success"]),
        "defended": int(roll.data["success"] and not hit),
        "stun": 0,
        "knock-down": 0,
        "KO": 0,
        "injury": 0,
    }
    start = next((i for i, e in enumerate(events) if e.kind == "damage" and e.data["hit"] == hit_id), None)
    if start is None:
        return out
    out["injury"] = int(events[start].data["final"])
    for e in events[start + 1 :]:
        if e.kind in ("subturn", "landed", "damage"):
            break
        if e.data.get("fighter") != target:
            continue
        if (e.kind, e.rule) in KO and (e.kind == "dead" or e.data.get("condition") == "unconscious"):
            out["KO"] += 1
        elif e.kind == "stunned" and e.rule in ("AR.INJ.5", "AR.INJ.7"):
            out["stun"] += 1
        elif e.kind == "falls" and e.rule == "AR.INJ.6":
            out["knock-down"] += 1
    return out


def tally(fight: Fight[Any, Any], action: Attack, n: int, first_seed: int = 10_000) -> Tally:
    """``action`` resolved ``n`` times (seeds ``first_seed`` …), counted."""
    t = Tally()
    for i in range(n):
        t.add(resolve(fight, action, first_seed + i), fight.state.next_hit, action.target)
    return t
