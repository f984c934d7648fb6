"""Defenseless as it touches the profile (SG.DFL.2) and its removal (SG.DFL.3)."""

from __future__ import annotations

from kassen.sengoku.defense import compute_defense
from kassen.sengoku.defenseless import (
    can_declare_stance,
    can_reserve_defense,
    can_use_evasion_defense,
    clear_defenseless,
    make_defenseless,
)
from kassen.sengoku.profile import ArmorKind, BonusKind, CombatProfile, DefenseBonus

FORMATION = DefenseBonus(BonusKind.STANCE, 2, "Immovable Formation")
BARRIER = DefenseBonus(BonusKind.BARRIER, 1, "ward")


def test_becoming_defenseless_releases_stances_and_costs_4() -> None:
    # rule: SG.DFL.2 — maintained [stance] released at once; Defense −4; other bonuses stay.
    samurai = CombatProfile(armor=ArmorKind.HEAVY, bonuses=(FORMATION, BARRIER))
    assert compute_defense(samurai).defense == 17
    fallen, steps = make_defenseless(samurai)
    assert fallen.defenseless
    assert fallen.bonuses == (BARRIER,)
    assert [s.rule for s in steps] == ["SG.DFL.2", "SG.DFL.2"]
    assert steps[0].reason == "stance +2 (Immovable Formation) released"
    assert steps[1].value == -4
    assert compute_defense(fallen).defense == 14 + 1 - 4


def test_defenseless_forbids_stances_reservations_and_evasion() -> None:
    # rule: SG.DFL.2 — no new stance, no defense reservation, no evasion/counterattack defense.
    ready = CombatProfile()
    assert can_declare_stance(ready) and can_reserve_defense(ready) and can_use_evasion_defense(ready)
    fallen, _ = make_defenseless(ready)
    assert not can_declare_stance(fallen)
    assert not can_reserve_defense(fallen)
    assert not can_use_evasion_defense(fallen)


def test_defenseless_twice_does_not_stack() -> None:
    # rule: SG.DFL.2 — a state, not a count: −4 once.
    once, _ = make_defenseless(CombatProfile())
    twice, steps = make_defenseless(once)
    assert twice == once
    assert steps == ()
    assert compute_defense(twice).defense == 6


def test_clear_defenseless() -> None:
    # rule: SG.DFL.3 — removed at the unit's next action (or the lull); released stances do not return.
    fallen, _ = make_defenseless(CombatProfile(bonuses=(FORMATION,)))
    cleared = clear_defenseless(fallen)
    assert not cleared.defenseless
    assert cleared.bonuses == ()
    assert compute_defense(cleared).defense == 10
    assert can_declare_stance(cleared) and can_reserve_defense(cleared)
