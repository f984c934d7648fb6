"""No silent change in a battle, no stranger named: over every bundled scenario at several seeds, each
change of a unit (or of the battle) between two consecutive states is told by an event of that action
that names the unit by its id, and no event names a unit id that is not in the battle.

What a unit has and is — zone, Wounds, Energy, reservations, stances, Defense −N, Defenseless,
Incapacitated, retreated, routed, Cohesion, Fate points, armor damage, a weapon dropped or broken,
bleeding, a ward — is checked; bookkeeping the turn order reads (counts, tallies, passed, the breath or
attack in progress) is not (who is to move says it)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from kassen.core.events import Event
from kassen.core.scenario import bundled_scenarios, open_fight
from kassen.sengoku.battle.state import BattleState

_WOUNDS = {"wounds_lost", "wounds_lost_to", "bleeds", "behind", "wounds_recovered", "gm_set_wounds"}
#: For each unit field, the event kinds that tell its change (naming the unit).
TOLD_BY: dict[str, frozenset[str]] = {
    k: frozenset(v)
    for k, v in {
        "zone": {"move", "removed", "retreated", "shikigami_moved", "forced_move", "arrives"},
        "wounds": _WOUNDS,
        "energy": {"breath", "energy_spent", "energy_reset", "energy_changed", "energy_lost", "hold"},
        "reservations": {"reserve", "reservations_expire", "reaction", "removed", "forfeit"},
        "stances": {"stance", "stance_released", "removed"},
        "debuffs": {"debuff", "debuffs_count_down", "gm_debuff", "upkeep"},
        "defenseless": {"defenseless", "defenseless_ends", "gm_status", "retreat_failed", "table_effect"},
        "incapacitated": {"incapacitated", "removed"},
        "retreated": {"retreated"},
        "routed": {"routed", "rallied"},
        "cohesion": {"cohesion", "ward_holds"},
        "fate_points": {"fate_spent", "table_effect"},
        "armor_damage": {"armor_broken", "table_effect"},
        "dropped": {"weapon_dropped", "weapon_picked_up", "weapon_broken"},
        "broken": {"weapon_broken"},
        "bleeding": {"bleed", "bleeds", "wound_bound", "gm_status"},
        "ward": {"ward", "ward_ends"},
    }.items()
}
#: The battle's own fields and the events that tell them (no unit named).
BATTLE_TOLD_BY = {
    "round": frozenset({"round"}),
    "result": frozenset({"combat_over"}),
    "conditions": frozenset({"battlefield_change", "change_ends"}),
}
#: The data keys that hold unit ids (a string or a list of them).
PEOPLE = ("unit", "attacker", "target", "behind", "pursuer", "with_unit", "units", "order")

SEEDS = (1, 2, 3, 4)


def named(event: Event) -> Iterator[str]:
    for key in PEOPLE:
        value = event.data.get(key)
        if isinstance(value, str):
            yield value
        elif isinstance(value, list | tuple):
            yield from (v for v in value if isinstance(v, str))


def silent(before: BattleState, after: BattleState, events: Sequence[Event]) -> list[str]:
    """The changes from ``before`` to ``after`` no event of ``events`` tells (``unit.field``)."""
    out = []
    for what, kinds in BATTLE_TOLD_BY.items():
        if getattr(before, what) != getattr(after, what) and not any(e.kind in kinds for e in events):
            out.append(what)
    old = {u.id: u for u in before.units}
    for new in after.units:
        was = old.get(new.id)
        if was is None:
            if not any(e.kind == "arrives" and new.id in named(e) for e in events):
                out.append(f"{new.id} arrived")
            continue
        for what, kinds in TOLD_BY.items():
            if getattr(was, what) == getattr(new, what):
                continue
            if not any(e.kind in kinds and new.id in set(named(e)) for e in events):
                out.append(f"{new.id}.{what}: {getattr(was, what)!r} → {getattr(new, what)!r}")
    return out


def _cases() -> list[Any]:
    return [
        pytest.param(s.name, seed, id=f"{s.name}:{seed}")
        for s in bundled_scenarios("sengoku")
        for seed in SEEDS
    ]


@pytest.mark.parametrize(("name", "seed"), _cases())
def test_every_change_is_told_by_an_event_naming_the_unit(name: str, seed: int) -> None:
    # rule: SG.WND.4  rule: SG.INP.1  rule: SG.DFL.1  rule: SG.AIM.5  rule: SG.BRK.2 — each mechanic that
    # changes a unit is told by an event of its action naming that unit by id, and no event names a unit
    # the battle does not have
    fight = open_fight(f"sengoku/{name}", seed=seed)
    fight.autoplay()
    states = fight.states
    quiet: list[str] = []
    strangers: list[str] = []
    for i, entry in enumerate(fight.entries):
        before, after = states[i], states[i + 1]
        quiet += [
            f"action {i}: {c} (events {sorted({e.kind for e in entry.events})})"
            for c in silent(before, after, entry.events)
        ]
        ids = {u.id for u in before.units} | {u.id for u in after.units}
        strangers += [
            f"action {i}: {e.kind} names {u!r}" for e in entry.events for u in named(e) if u not in ids
        ]
    assert not quiet, "silent changes:\n" + "\n".join(quiet[:15])
    assert not strangers, "events name units not in the battle:\n" + "\n".join(strangers[:15])


def test_the_check_catches_a_silent_change() -> None:
    # rule: SG.WND.4 — a Wound lost with its event left out is caught, and so is an event naming nobody
    fight = open_fight("sengoku/demo", seed=1)
    fight.autoplay()
    for i, entry in enumerate(fight.entries):
        told = [e for e in entry.events if e.kind == "wounds_lost"]
        if told:
            rest = [e for e in entry.events if e.kind not in _WOUNDS]
            assert any(".wounds" in c for c in silent(fight.states[i], fight.states[i + 1], rest))
            assert not silent(fight.states[i], fight.states[i + 1], entry.events)
            return
    pytest.fail("no Wound lost in the demo at seed 1")
