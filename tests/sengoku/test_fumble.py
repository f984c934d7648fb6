"""Fumble: double + failure → Defenseless, the GM's extras, Karmic Retribution; the SG.RD.4 edges
(SG.FUM.*, SG.DFL.1, SG.RD.4)."""

from __future__ import annotations

import pytest

from kassen.core.errors import IllegalActionError
from kassen.core.rng import Rng
from kassen.sengoku.attack import (
    Attack,
    AttackOutcome,
    AttackResult,
    FixedDefense,
    resolve_attack,
    roll_attack,
)
from kassen.sengoku.check import CheckKind, CheckOutcome, ScriptedDice, classify, resolve_check
from kassen.sengoku.profile import CombatProfile, Grade
from kassen.sengoku.resolution import ResolutionRules, load_resolution

ATTACKER = CombatProfile(name="Kuro", grade=Grade.PC)
TARGET = CombatProfile(name="Ashigaru", grade=Grade.VETERAN, wounds=3)


def swing(
    faces: tuple[int, int],
    *,
    modifier: int = 0,
    defense: int = 14,
    dice: list[int] | None = None,
    rules: ResolutionRules | None = None,
    extras: tuple[str, ...] = (),
) -> AttackResult:
    action = Attack(modifier=modifier, fumble_extras=extras)
    return resolve_attack(
        ATTACKER,
        TARGET,
        action,
        FixedDefense(defense),
        faces,
        table_dice=ScriptedDice(dice or []),
        rules=rules,
    )


def test_a_double_on_a_failure_is_a_fumble_and_the_roller_becomes_defenseless() -> None:
    # rule: SG.FUM.1
    # rule: SG.DFL.1 — a fumble inflicts Defenseless, no resistance check
    r = swing((3, 3))
    assert r.outcome is AttackOutcome.FUMBLE
    assert r.attacker.defenseless and not ATTACKER.defenseless  # a new profile; the input is untouched
    assert r.target == TARGET and r.wounds_lost == 0
    assert [e.kind for e in r.events if e.kind in ("fumble", "defenseless")] == ["fumble", "defenseless"]
    assert any(s.rule == "SG.DFL.1" for s in r.steps)


def test_a_failure_without_a_double_is_a_plain_miss() -> None:
    # rule: SG.FUM.1
    r = swing((3, 4))
    assert r.outcome is AttackOutcome.MISS and not r.attacker.defenseless


def test_defenseless_on_fumble_is_data() -> None:
    # rule: SG.DFL.1 — the flag lives in resolution.yaml (fumble.defenseless)
    rules = load_resolution().override("fumble", defenseless=False)
    assert not swing((3, 3), rules=rules).attacker.defenseless


def test_the_gm_may_add_drop_weapon_stance_collapse_and_foot_slip() -> None:
    # rule: SG.FUM.2 — optional extras, with their Energy costs from data
    r = swing((2, 2), extras=("drop-weapon", "stance-collapse", "foot-slip"))
    extras = {e.data["extra"]: e.data["energy"] for e in r.events if e.kind == "fumble_extra"}
    assert extras == {"drop-weapon": 1, "stance-collapse": 1, "foot-slip": 0}
    assert all(e.rule == "SG.FUM.2" for e in r.events if e.kind == "fumble_extra")


def test_fumble_extras_are_only_added_on_a_fumble_and_must_be_known() -> None:
    # rule: SG.FUM.2
    assert not [e for e in swing((2, 5), extras=("drop-weapon",)).events if e.kind == "fumble_extra"]
    with pytest.raises(IllegalActionError) as err:
        swing((2, 2), extras=("trip-over-cat",))
    assert err.value.rule == "SG.FUM.2"


def test_double_1_fumble_rolls_the_critical_mistake_table() -> None:
    # rule: SG.FUM.3 — Karmic Retribution (house-default d100 table in data)
    table = load_resolution().critical_mistake
    for roll in (1, 42, 100):
        r = swing((1, 1), dice=[roll])
        assert r.outcome is AttackOutcome.FUMBLE and r.attacker.defenseless
        assert r.table is not None and r.table.table == "critical_mistake" and r.table.rule == "SG.FUM.3"
        assert r.table.name == table.row(roll).name
    assert swing((2, 2)).table is None


def test_karmic_retribution_pinned_to_a_seed() -> None:
    # rule: SG.FUM.3 — seed 142 rolls 1-1 then d100 54
    r = roll_attack(ATTACKER, TARGET, Attack(modifier=0), FixedDefense(10), Rng(142))
    assert r.check.faces == (1, 1) and r.table is not None and r.table.roll == 54


# -- SG.RD.4 --------------------------------------------------------------------------------------------
def test_double_10_on_a_failed_check_is_a_fumble_without_heavenly_mandate() -> None:
    # rule: SG.RD.4 — house reading: double + failure is a fumble whatever the faces
    r = swing((10, 10), modifier=-3, defense=18, dice=[50])
    assert r.outcome is AttackOutcome.FUMBLE and r.table is None and r.attacker.defenseless


def test_double_10_on_a_failed_check_can_be_read_as_a_plain_miss() -> None:
    # rule: SG.RD.4 — the alternative reading, switchable in data
    rules = load_resolution().override("doubles", double_ten_failure="miss")
    r = swing((10, 10), modifier=-3, defense=18, rules=rules)
    assert r.outcome is AttackOutcome.MISS and not r.attacker.defenseless


def test_double_1_on_a_success_against_defense_2_is_a_critical() -> None:
    # rule: SG.RD.4 — house reading: double + success is a critical, never Karmic Retribution
    r = swing((1, 1), defense=2)
    assert r.outcome is AttackOutcome.CRITICAL and r.table is None and r.wounds_lost == 2


def test_double_1_on_a_success_can_be_read_as_karmic_retribution() -> None:
    # rule: SG.RD.4 — the alternative reading
    rules = load_resolution().override("doubles", double_one_success="karmic_retribution")
    r = swing((1, 1), defense=2, rules=rules, dice=[10])
    assert r.outcome is AttackOutcome.FUMBLE and r.table is not None and r.table.table == "critical_mistake"
    assert r.wounds_lost == 0


def test_fumbles_apply_to_attack_checks_only_unless_every_check_is_chosen() -> None:
    # rule: SG.RD.4 — scope of doubles: attacks (house) or every check
    c = resolve_check((4, 4), 0, 11)
    assert classify(c, kind=CheckKind.COHESION).outcome is CheckOutcome.FAILURE
    every = load_resolution().override("check", doubles_scope="every_check")
    assert classify(c, kind=CheckKind.COHESION, rules=every).outcome is CheckOutcome.FUMBLE
    assert classify(resolve_check((6, 6), 0, 11), kind=CheckKind.PURSUIT, rules=every).outcome is (
        CheckOutcome.CRITICAL
    )
