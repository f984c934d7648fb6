"""Attack rolls, TN, raises, Free Raises, damage, Full Attack/Defense, trait + skill rolls, initiative.

Rules: L5.CORE.2-9, L5.DMG.1. Dice are scripted with ScriptedRng where a result matters.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from kassen.core.errors import IllegalActionError
from kassen.l5r.actions import Act, ActKind, Attack
from kassen.l5r.attacks import resolve_attack
from kassen.l5r.character import FighterId, tn_to_be_hit_base
from kassen.l5r.flow import end_turn, roll_full_defenses, start_turn
from kassen.l5r.pool import Pool
from kassen.l5r.rolls import (
    attack_pool,
    attack_tn,
    damage_pool,
    defense_tn,
    full_defense_pool,
    initiative_pool,
    plan_raises,
    raise_limit,
    skill_pool,
)
from kassen.l5r.state import Fighter, Phase, Status
from kassen.l5r.tables import L5Tables, Location, SpecialAttackName
from kassen.l5r.validate import validate_attack

from .conftest import ScriptedRng, char, duel, first, play

T = FighterId("T")


def test_tn_to_be_hit_is_reflexes_times_five_plus_armor(tables: L5Tables) -> None:
    # rule: L5.CORE.2 — house default Reflexes x 5 + armor (light +5, heavy +10), overridable.
    assert tn_to_be_hit_base(char("a", reflexes=3), tables)[0] == 15
    assert tn_to_be_hit_base(char("a", reflexes=3, armor="light"), tables)[0] == 20
    assert tn_to_be_hit_base(char("a", reflexes=2, armor="heavy"), tables)[0] == 20
    assert tn_to_be_hit_base(char("a", reflexes=2, armor="heavy", tn_to_be_hit=33), tables)[0] == 33
    other = tables.model_copy(
        update={
            "core": tables.core.model_copy(
                update={"tn_to_be_hit": tables.core.tn_to_be_hit.model_copy(update={"base": 5})}
            )
        }
    )
    assert tn_to_be_hit_base(char("a", reflexes=2), other)[0] == 15


def test_a_hit_needs_the_total_to_reach_the_tn(tables: L5Tables) -> None:
    # rule: L5.CORE.2 — the attack succeeds when the total is at least the TN (here 10, TN 10).
    state = duel(char("A", agility=2), char("T", reflexes=2))
    _, out = play(
        state, resolve_attack, FighterId("A"), Attack(T), dice=ScriptedRng([5, 5, 1, 1, 1] + [1] * 5)
    )
    assert first(out, "attack").data["hit"] is True and first(out, "attack").data["tn"] == 10
    _, out = play(state, resolve_attack, FighterId("A"), Attack(T), dice=ScriptedRng([5, 4, 1, 1, 1]))
    assert first(out, "attack").data["hit"] is False


def test_raises_add_five_each_and_a_miss_of_the_raised_tn_fails_outright(tables: L5Tables) -> None:
    # rule: L5.CORE.3 — +5 TN per raise; beating the original TN but not the raised one fails.
    a, t = Fighter(char("A", agility=2, void=3)), Fighter(char("T", reflexes=2))
    plan = plan_raises(Attack(T, damage_raises=2), a, tables, free=0, unskilled=False)
    assert plan.paid == 2 and plan.tn_change == 10
    assert attack_tn(a, t, plan, tables, 1)[0] == 20
    state = duel(a, t)
    _, out = play(
        state, resolve_attack, a.name, Attack(T, damage_raises=2), dice=ScriptedRng([9, 9, 1, 1, 1])
    )
    ev = first(out, "attack")
    assert ev.data["roll"] == 18 and ev.data["hit"] is False
    assert "fails outright" in str(ev.data["steps"])
    assert "damage" not in [e.kind for e in out]


def test_the_raise_limit_is_void_and_configurable(tables: L5Tables) -> None:
    # rule: L5.CORE.3 — at most Void raises per roll (house default), counting only paid raises.
    a = Fighter(char("A", void=2))
    assert raise_limit(a, tables) == 2
    with pytest.raises(IllegalActionError) as err:
        plan_raises(Attack(T, damage_raises=3), a, tables, free=0, unskilled=False)
    assert err.value.rule == "L5.CORE.3"
    loose = tables.model_copy(
        update={
            "core": tables.core.model_copy(
                update={"raises": tables.core.raises.model_copy(update={"limit": "none"})}
            )
        }
    )
    assert raise_limit(a, loose) is None
    assert plan_raises(Attack(T, damage_raises=7), a, loose, free=0, unskilled=False).paid == 7


def test_unskilled_rolls_may_not_raise(tables: L5Tables) -> None:
    # rule: L5.CORE.3 — no weapon skill: unskilled, so no raises, and its 10s do not explode.
    a = Fighter(char("A", skills=()))
    ap = attack_pool(a, tables, 1, full_attack=False)
    assert ap.unskilled and not ap.pool.explode
    with pytest.raises(IllegalActionError) as err:
        validate_attack(duel(a, char("T")), a, Attack(T, damage_raises=1), tables, free=0)
    assert err.value.rule == "L5.CORE.3"
    validate_attack(duel(a, char("T")), a, Attack(T), tables, free=0)


def test_free_raises_pay_effects_without_tn_or_limit_and_unused_ones_lower_the_tn(tables: L5Tables) -> None:
    # rule: L5.CORE.4 — a Free Raise gives a raise's effect without +5 TN, outside the limit; if
    # unused it lowers the TN by 5.
    a = Fighter(char("A", void=1))
    plan = plan_raises(Attack(T, called_shot=Location.HEAD), a, tables, free=4, unskilled=False)
    assert (plan.free_used, plan.paid, plan.tn_change) == (4, 0, 0)
    plan = plan_raises(
        Attack(T, damage_raises=1, called_shot=Location.HEAD), a, tables, free=4, unskilled=False
    )
    assert (plan.paid, plan.tn_change) == (1, 5)
    plan = plan_raises(Attack(T), a, tables, free=2, unskilled=False)
    assert (plan.free_unused, plan.tn_change) == (2, -10)


def test_damage_is_weapon_plus_strength_rolled_and_raises_add_one_rolled_die(tables: L5Tables) -> None:
    # rule: L5.CORE.5 — katana 3k2 with Strength 3 rolls 6k2; the total is the Wounds inflicted.
    # rule: L5.DMG.1 — each raise for damage adds +1k0 (roll one more, keep no more).
    a = Fighter(char("A", strength=3, agility=3))
    assert damage_pool(a, Attack(T), tables, 1, damage_raises=0)[0] == Pool(6, 2)
    assert damage_pool(a, Attack(T, damage_raises=2), tables, 1, damage_raises=2)[0] == Pool(8, 2)
    state = duel(a, char("T"))
    faces = [9, 9, 9, 1, 1, 1, 7, 3, 2, 8, 1, 1, 1, 1]  # hit (27 vs 10+10), then 8k2 damage = 15
    state, out = play(state, resolve_attack, a.name, Attack(T, damage_raises=2), dice=ScriptedRng(faces))
    assert first(out, "damage").data["damage"] == 15
    assert state.fighter(T).wounds == 15


def test_damage_raises_combine_with_a_called_shot(tables: L5Tables) -> None:
    # rule: L5.DMG.1 — raises for damage combine with other raises.
    a = Fighter(char("A", void=3))
    plan = plan_raises(
        Attack(T, damage_raises=1, called_shot=Location.TORSO), a, tables, free=0, unskilled=False
    )
    assert plan.needed == 3


def test_full_attack_gives_two_k_one_and_lowers_own_tn_by_ten(tables: L5Tables) -> None:
    # rule: L5.CORE.7 — Full Attack: +2k1 to attack rolls, TN to be hit -10 for the turn.
    a = Fighter(char("A", agility=3))
    assert attack_pool(a, tables, 1, full_attack=True).pool == Pool(8, 4)
    declared = replace(a, declared=Attack(T, full_attack=True))
    assert defense_tn(declared, tables, 1)[0] == defense_tn(a, tables, 1)[0] - 10


def test_full_defense_adds_half_of_agility_plus_defense(tables: L5Tables) -> None:
    # rule: L5.CORE.7 — Full Defense rolls Agility + Defense keep Agility; half the total (down) is
    # added to the TN to be hit, and it is settled before the first action resolves.
    a = Fighter(char("A", agility=3, skills=(("kenjutsu", 3), ("defense", 2))))
    assert full_defense_pool(a, tables, 1)[0] == Pool(5, 3)
    state = duel(replace(a, declared=Act(ActKind.FULL_DEFENSE)), char("T"), phase=Phase.RESOLVE)
    state, out = play(
        replace(state, cursor=0), roll_full_defenses, dice=ScriptedRng([9, 8, 6, 1, 1])
    )  # 23 → +11
    assert first(out, "full_defense").data["bonus"] == 11
    assert defense_tn(state.fighter(a.name), tables, 1)[0] == 10 + 11


def test_trait_plus_skill_keeps_trait_and_disarm_keeps_skill(tables: L5Tables) -> None:
    # rule: L5.CORE.9 — Trait + Skill dice, keep Trait; Disarm's roll keeps the weapon skill instead.
    f = Fighter(char("A"))
    pool, _ = skill_pool(
        f, tables, 1, trait=3, trait_name="Agility", skill=2, skill_name="x", kinds=("skill",)
    )
    assert pool == Pool(5, 3)
    pool, _ = skill_pool(
        f,
        tables,
        1,
        trait=3,
        trait_name="Strength",
        skill=2,
        skill_name="x",
        kinds=("skill",),
        keep_skill=True,
    )
    assert pool == Pool(5, 2)
    assert attack_pool(
        Fighter(char("A", agility=4, skills=(("kenjutsu", 2),))), tables, 1, full_attack=False
    ).pool == Pool(6, 4)


def test_initiative_is_insight_plus_reflexes_keep_reflexes_and_orders_the_turn(tables: L5Tables) -> None:
    # rule: L5.CORE.8 — roll Insight Rank + Reflexes keep Reflexes; declare lowest first, act highest
    # first; a character who loses initiative declares first and acts last.
    a = Fighter(char("A", reflexes=3, insight_rank=2))
    assert initiative_pool(a, tables, 1)[0] == Pool(5, 3)
    b = Fighter(char("B", reflexes=2, insight_rank=1))
    state = duel(a, b, turn=0, phase=Phase.START)
    state, out = play(state, start_turn, dice=ScriptedRng([9, 9, 9, 1, 1, 2, 2, 1]))  # A 27, B 4
    assert [(e.data["fighter"], e.data["total"]) for e in out if e.kind == "initiative"] == [
        ("A", 27),
        ("B", 4),
    ]
    assert state.act_order == ("A", "B") and state.declare_order == ("B", "A")
    assert state.phase is Phase.DECLARE
    stumbled = state.fighter(FighterId("A")).with_status(
        Status("lose_initiative", "leg: stumble", "L5.LEG.1", start_turn=2, end_turn=2)
    )
    state = replace(state.with_fighter(stumbled), phase=Phase.RESOLVE)
    state, _ = play(play(state, end_turn)[0], start_turn, dice=ScriptedRng([9, 9, 9, 1, 1, 2, 2, 1]))
    assert state.act_order == ("B", "A") and state.declare_order == ("A", "B")


def test_special_attack_cost_counts_toward_the_limit(tables: L5Tables) -> None:
    # rule: L5.SPC.1 — a special attack is an attack declared with raises; it counts as raises.
    a = Fighter(char("A", void=3))
    with pytest.raises(IllegalActionError):
        plan_raises(Attack(T, special=SpecialAttackName.CLIPPING), a, tables, free=0, unskilled=False)
    assert (
        plan_raises(Attack(T, special=SpecialAttackName.BIND), a, tables, free=0, unskilled=False).paid == 3
    )
