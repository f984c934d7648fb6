"""Heavy armor lowers maximum Energy, offset by Physique (SG.DEF.7 and its house default)."""

from __future__ import annotations

import pytest

from kassen.sengoku.defense import load_defense_rules
from kassen.sengoku.energy import armor_energy_penalty, max_energy
from kassen.sengoku.profile import ArmorKind, Attributes, CombatProfile


def unit(armor: ArmorKind, physique: int = 0) -> CombatProfile:
    return CombatProfile(armor=armor, attributes=Attributes(physique=physique))


@pytest.mark.parametrize(
    ("armor", "expected"),
    [(ArmorKind.NONE, 11), (ArmorKind.LIGHT, 11), (ArmorKind.HEAVY, 10), (ArmorKind.HEAVY_BATTLE, 9)],
)
def test_heavy_armor_penalty(armor: ArmorKind, expected: int) -> None:
    # rule: SG.DEF.7 — heavy armor −1, heavy battle armor −2; light armor and none cost nothing.
    value, steps = max_energy(11, unit(armor))
    assert value == expected
    assert steps[-1].value == value


def test_seed_examples_physique_offset() -> None:
    # rule: SG.DEF.7 — heavy −1 with Physique +1 → 0; heavy battle −2 with Physique +1 → −1.
    assert armor_energy_penalty(unit(ArmorKind.HEAVY, 1))[0] == 0
    assert armor_energy_penalty(unit(ArmorKind.HEAVY_BATTLE, 1))[0] == 1
    value, steps = max_energy(12, unit(ArmorKind.HEAVY_BATTLE, 1))
    assert value == 11
    assert steps[-1].rule == "SG.DEF.7"
    assert "Physique +1 offsets" in steps[-1].reason


def test_house_default_never_a_bonus_and_negative_physique_does_not_deepen() -> None:
    # rule: SG.DEF.7 — house default: the offset never makes a bonus; Physique −N does not deepen it.
    assert max_energy(10, unit(ArmorKind.HEAVY, 3))[0] == 10
    assert max_energy(10, unit(ArmorKind.HEAVY_BATTLE, -2))[0] == 8
    assert max_energy(10, unit(ArmorKind.NONE, -2))[0] == 10
    assert load_defense_rules().energy.house_default.rule == "SG.DEF.7"


def test_literal_arithmetic_is_switchable() -> None:
    # rule: SG.DEF.7 — the alternative readings, switched in data.
    rules = load_defense_rules()
    literal = rules.model_copy(
        update={
            "energy": rules.energy.model_copy(
                update={"penalty_can_become_bonus": True, "negative_physique_deepens": True}
            )
        }
    )
    assert max_energy(10, unit(ArmorKind.HEAVY, 3), rules=literal)[0] == 12
    assert max_energy(10, unit(ArmorKind.HEAVY_BATTLE, -2), rules=literal)[0] == 6
