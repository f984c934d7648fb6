"""The legal-action list checks attacks by class and remembers results (issue 15, speed): it must list
exactly what validating every candidate one by one allows, in the same order, and the remembered
results must be what the rules return."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kassen.core.errors import IllegalActionError
from kassen.core.fastreplace import replace
from kassen.core.scenario import bundled_scenarios, open_fight
from kassen.l5r.actions import Act, ActKind, Attack, Declaration
from kassen.l5r.legal import attack_candidates, checked_attack, legal_actions
from kassen.l5r.rolls import attack_pool, plan_raises
from kassen.l5r.state import DuelState, Fighter
from kassen.l5r.tables import L5Tables
from kassen.l5r.turn import standing
from kassen.l5r.validate import free_raises_for, next_declarer, validate_attack, validate_declaration


def states() -> Iterator[tuple[str, int, DuelState, L5Tables]]:
    """Every state of the bundled duels, seeds 0-2, as their own policies play them."""
    for scenario in bundled_scenarios("l5r"):
        for seed in range(3):
            fight = open_fight(f"l5r/{scenario.name}", seed=seed)
            fight.autoplay()
            for state in fight.states:
                yield scenario.name, seed, state, fight.tables


def plain_filter(state: DuelState, tables: L5Tables) -> list[Declaration]:
    """The list the way it was built before: every candidate, validated one by one."""
    actor = next_declarer(state)
    assert actor is not None
    f = state.fighter(actor)
    out: list[Declaration] = []
    for kind in ActKind:
        if kind is ActKind.ATTACK:
            continue
        if kind is ActKind.MEDICAL_AID:
            out += [Act(kind, o.name) for o in state.fighters if o.side == f.side]
        elif kind is ActKind.CLOSE:
            out += [Act(kind, o.name) for o in state.fighters if o.side != f.side]
        else:
            out.append(Act(kind))
    for target in state.fighters:
        if target.name != f.name and standing(target, tables):
            free = free_raises_for(f, target.name, f.declarations_made + 1)
            out += list(attack_candidates(state, f, target, free, tables))
    legal = []
    for d in out:
        try:
            validate_declaration(state, actor, d, tables)
        except IllegalActionError:
            continue
        legal.append(d)
    return legal


def test_legal_lists_what_validation_allows() -> None:
    # rule: L5.CORE.3 (raises within the limit), L5.CORE.8 (who declares), L5.SPC.1 (special attacks)
    checked = 0
    for name, seed, state, tables in states():
        if next_declarer(state) is None or state.pending is not None:
            continue
        listed = [a.act for a in legal_actions(state, tables)]  # type: ignore[union-attr]
        assert listed == plain_filter(state, tables), (name, seed, state.turn)
        checked += 1
    assert checked > 50  # many declaration states were really compared


def test_remembered_plans_are_the_rules_plans() -> None:
    # rule: L5.CORE.3, L5.CORE.4 (raises paid in TN, Free Raises first)
    compared = refused = 0
    for _, _, state, tables in states():
        actor = next_declarer(state)
        if actor is None or state.pending is not None:
            continue
        f = state.fighter(actor)
        for listed in legal_actions(state, tables):  # fills the memo
            attack = listed.act  # type: ignore[union-attr]
            if isinstance(attack, Attack):  # the plans remembered with the listing
                free = free_raises_for(f, attack.target, f.declarations_made + 1)
                expected = validate_attack(state, f, attack, tables, free=free)
                assert checked_attack(state, f, attack, tables, free=free) == expected
        for target in state.fighters:
            if target.name == f.name or not standing(target, tables):
                continue
            free = free_raises_for(f, target.name, f.declarations_made + 1)
            for a in list(attack_candidates(state, f, target, free, tables))[:40]:
                try:
                    expected = validate_attack(state, f, a, tables, free=free)
                except IllegalActionError as error:
                    with pytest.raises(IllegalActionError) as info:
                        checked_attack(state, f, a, tables, free=free)
                    assert (info.value.message, info.value.rule) == (error.message, error.rule)
                    refused += 1
                    continue
                assert checked_attack(state, f, a, tables, free=free) == expected
                ap = attack_pool(f, tables, state.turn, full_attack=a.full_attack)
                plan = plan_raises(
                    a, f, tables, free=free, unskilled=ap.unskilled, unskilled_rule=ap.unskilled_rule
                )
                assert plan == expected
                compared += 1
    assert compared > 100 and refused > 10


def test_fast_replace_is_dataclasses_replace() -> None:
    import dataclasses

    for _, _, state, _ in list(states())[:40]:
        f = state.fighters[0]
        assert replace(f, wounds=f.wounds + 3) == dataclasses.replace(f, wounds=f.wounds + 3)
        assert replace(state, turn=state.turn + 1) == dataclasses.replace(state, turn=state.turn + 1)
    fight = open_fight("arena/melee", seed=0)
    fight.autoplay()
    for state in fight.states[:60]:
        changed = dataclasses.replace(state, slot=state.slot + 1, next_hit=7)
        assert replace(state, slot=state.slot + 1, next_hit=7) == changed
        assert type(replace(state, slot=0)) is type(state)

    @dataclasses.dataclass(slots=True)
    class Doubling:  # a mutable class whose __init__ stores through its own __setattr__
        a: int

        def __setattr__(self, name: str, value: int) -> None:
            object.__setattr__(self, name, value * 2)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:  # __post_init__ runs on a copy too
        a: int

        def __post_init__(self) -> None:
            if self.a < 0:
                raise ValueError("negative")

    assert replace(Doubling(1), a=3) == dataclasses.replace(Doubling(1), a=3)
    with pytest.raises(ValueError):
        replace(Checked(1), a=-1)
    attack = Attack("someone")
    with pytest.raises(TypeError):
        replace(attack, no_such_field=1)
    with pytest.raises(TypeError):
        replace(object())


def test_best_is_the_plain_maximum() -> None:
    # rule: L5.CORE.2 (chance to hit a TN), L5.CORE.5 (damage), L5.CORE.7 (Full Attack)
    from fractions import Fraction

    from kassen.l5r.actions import Declare
    from kassen.l5r.policies import _attack_value, _best

    compared = 0
    for _, _, state, tables in states():
        actor = next_declarer(state)
        if actor is None or state.pending is not None:
            continue
        me = state.fighter(actor)
        options = [
            (a, a.act)
            for a in legal_actions(state, tables)
            if isinstance(a, Declare) and isinstance(a.act, Attack)
        ]
        if not options:
            continue

        def free(at: Attack, me: Fighter = me) -> int:
            return free_raises_for(me, at.target, me.declarations_made + 1)

        plain, plain_value = None, Fraction(-1)
        for action, attack in options:
            value = _attack_value(state, me, attack, tables, free=free(attack))
            if value > plain_value:
                plain, plain_value = action, value
        assert _best(state, me, options, free, tables) is plain
        compared += 1
    assert compared > 50


def test_a_listed_script_step_is_legal() -> None:
    # rule: L5.CORE.8 (a scripted declaration is made only when it is legal)
    from kassen.l5r.actions import Declare
    from kassen.l5r.policies import _listed

    checked = 0
    for scenario in bundled_scenarios("l5r"):
        fight = open_fight(f"l5r/{scenario.name}", seed=0)
        while not fight.over and checked < 60:
            legal = fight.legal_actions()
            for action in legal[:6]:
                if isinstance(action, Declare):
                    copy = Declare(action.actor, action.act)
                    assert _listed(legal, copy) is action
                    assert fight.is_legal(copy)
                    checked += 1
            fight.step()
    assert checked > 20


def test_validate_listed_is_validate() -> None:
    # rule: L5.CORE.8 (only a legal declaration is made), L5.CORE.3 (raises within the limit)
    from kassen.l5r.actions import Declare
    from kassen.l5r.legal import validate_listed
    from kassen.l5r.validate import validate

    def verdict(check: object, state: DuelState, action: Declare, tables: L5Tables) -> tuple[str, str] | None:
        try:
            check(state, action, tables)  # type: ignore[operator]
        except IllegalActionError as error:
            return error.message, error.rule
        return None

    compared = 0
    for _, _, state, tables in list(states())[::3]:
        actor = next_declarer(state)
        if actor is None or state.pending is not None:
            continue
        f = state.fighter(actor)
        listed = [a for a in legal_actions(state, tables) if isinstance(a, Declare)]
        others = [a for a in state.fighters if a.name != f.name]
        fresh = [
            Declare(actor, a) for o in others for a in list(attack_candidates(state, f, o, 0, tables))[:8]
        ]
        for action in [*listed[:10], *fresh]:
            assert verdict(validate_listed, state, action, tables) == verdict(validate, state, action, tables)
            compared += 1
    assert compared > 200
