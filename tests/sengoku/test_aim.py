"""Aim Focus: extra Energy scales [Pierce]/[Direct], capped by Finesse (SG.AIM.*)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kassen.core.errors import IllegalActionError
from kassen.sengoku.aim import (
    AimFocus,
    aim_cap,
    aim_focus,
    largest_extra_within_breath,
)
from kassen.sengoku.catalog import load_catalog
from kassen.sengoku.defense import compute_defense, load_defense_rules
from kassen.sengoku.profile import ALL, AttackTags, Attributes, CombatProfile
from kassen.sengoku.resolution import EffectKind
from kassen.sengoku.technique import Technique, attack_modifier

CATALOG = load_catalog()
# The seed's three techniques (SG.AIM.5), and a technique without Aim Focus, from the catalog.
PIERCE_THE_VITALS = CATALOG.technique("pierce-the-vitals")
THOUSAND_YEAR_ARROW = CATALOG.technique("thousand-year-arrow")
PIERCING_ARROW = CATALOG.technique("piercing-arrow")
HORIZONTAL_CUT = CATALOG.technique("horizontal-cut")

HEAVY = CATALOG.outfit("heavy-armor")  # Defense 14
HEAVY_BATTLE = CATALOG.outfit("heavy-battle-armor")  # Defense 16


def test_only_techniques_that_allow_it() -> None:
    # rule: SG.AIM.1 — only "Aim Focus [Direct] allowed" / "Aim Focus [Pierce] allowed" techniques.
    with pytest.raises(IllegalActionError) as info:
        aim_focus(HORIZONTAL_CUT, finesse=3, extra=1)
    assert info.value.rule == "SG.AIM.1"
    assert "Horizontal Cut" in str(info.value)
    plain = aim_focus(HORIZONTAL_CUT, finesse=3, extra=0)  # no Aim Focus: the technique as written
    assert (plain.cost, plain.tags) == (2, AttackTags())
    assert largest_extra_within_breath(HORIZONTAL_CUT, finesse=3) == 0


def test_extra_energy_grants_or_raises_the_allowed_tag() -> None:
    # rule: SG.AIM.2 — N extra Energy grants [X N] or raises [X M] to [X M+N].
    granted = aim_focus(THOUSAND_YEAR_ARROW, finesse=1, extra=1)
    assert granted.tags == AttackTags(direct=1)
    raised = aim_focus(PIERCE_THE_VITALS, finesse=2, extra=2)
    assert (raised.cost, raised.tags) == (4, AttackTags(pierce=4))
    assert any(s.rule == "SG.AIM.2" and "[Pierce 2] → [Pierce 4]" in s.reason for s in raised.steps)
    # A Direct-allowed technique with a [Direct M] stacks; a [Pierce all] stays all.
    stacked = aim_focus(
        Technique("x", energy=1, tags=AttackTags(direct=1), aim_focus=AimFocus.DIRECT), finesse=2, extra=2
    )
    assert stacked.tags.direct == 3
    already = Technique("y", energy=1, tags=AttackTags(pierce=ALL), aim_focus=AimFocus.PIERCE)
    assert aim_focus(already, finesse=1, extra=1).tags.pierce == ALL
    with pytest.raises(IllegalActionError) as info:
        aim_focus(PIERCE_THE_VITALS, finesse=3, extra=-1)
    assert info.value.rule == "SG.AIM.2"


def test_finesse_cap_and_overload_past_the_breath_limit() -> None:
    # rule: SG.AIM.3 — N ≤ Finesse modifier; past the one-breath limit 5 is allowed, with an overload check.
    with pytest.raises(IllegalActionError) as info:
        aim_focus(PIERCE_THE_VITALS, finesse=2, extra=3)
    assert info.value.rule == "SG.AIM.3"
    with pytest.raises(IllegalActionError):
        aim_focus(PIERCING_ARROW, finesse=-1, extra=1)
    assert aim_cap(-2) == 0
    reckless = aim_focus(PIERCING_ARROW, finesse=3, extra=3)
    assert (reckless.cost, reckless.tags.pierce, reckless.breath_spent) == (6, 5, 6)
    assert reckless.overload
    assert reckless.steps[-2].rule == "SG.BRT.2"
    # Other spending in the same breath counts towards the limit.
    crowded = aim_focus(PIERCE_THE_VITALS, finesse=3, extra=1, other_spending=3)
    assert (crowded.breath_spent, crowded.overload) == (6, True)
    assert largest_extra_within_breath(PIERCE_THE_VITALS, finesse=3, other_spending=3) == 0
    assert load_defense_rules().aim_focus.house_default.rule == "SG.AIM.3"


def test_declared_on_activation_and_spent_whatever_the_result() -> None:
    # rule: SG.AIM.4 — declared when the technique is activated; the Energy is spent hit or miss.
    result = aim_focus(PIERCE_THE_VITALS, finesse=3, extra=3)
    assert result.energy_spent == result.cost == 5
    assert result.steps[-1].rule == "SG.AIM.4"
    with pytest.raises(IllegalActionError) as info:
        aim_focus(PIERCE_THE_VITALS, finesse=3, extra=1, after_check=True)
    assert info.value.rule == "SG.AIM.4"


def test_seed_example_pierce_the_vitals() -> None:
    # rule: SG.AIM.5 — Finesse +3: 2 + 3 = 5 Energy (within the limit), [Pierce 5]; heavy armor 14 → 10.
    assert largest_extra_within_breath(PIERCE_THE_VITALS, finesse=3) == 3
    result = aim_focus(PIERCE_THE_VITALS, finesse=3, extra=3)
    assert (result.cost, result.tags, result.overload) == (5, AttackTags(pierce=5), False)
    assert compute_defense(HEAVY).defense == 14
    assert compute_defense(HEAVY, result.tags).defense == 10
    # "2d10+Finesse+Ninjutsu >= Defense | [Pierce 5]. 2 Wounds. Bleed."
    shinobi = CombatProfile(attributes=Attributes(finesse=3), skills=(("ninjutsu", 2),))
    modifier, _ = attack_modifier(shinobi, PIERCE_THE_VITALS)
    assert modifier == 3 + 2
    assert PIERCE_THE_VITALS.wounds == 2
    assert [e.kind for e in PIERCE_THE_VITALS.on_hit] == [EffectKind.BLEED]


def test_seed_example_thousand_year_arrow() -> None:
    # rule: SG.AIM.5 — Finesse +2, within the limit only +1: 5 Energy, [Direct 1]; stance +2 → Defense −1.
    assert largest_extra_within_breath(THOUSAND_YEAR_ARROW, finesse=2) == 1
    result = aim_focus(THOUSAND_YEAR_ARROW, finesse=2, extra=1)
    assert (result.cost, result.tags, result.overload) == (5, AttackTags(direct=1), False)
    enemy = CATALOG.outfit(stances=["immovable-formation"])
    assert compute_defense(enemy, result.tags).defense == compute_defense(enemy).defense - 1
    # "2d10 + Courage + Archery +4 >= Defense | [Direct 1]. 2 Wounds. Anywhere on battlefield."
    archer = CombatProfile(attributes=Attributes(courage=1, finesse=2), skills=(("archery", 3),))
    modifier, _ = attack_modifier(archer, THOUSAND_YEAR_ARROW)
    assert modifier == 1 + 3 + 4
    assert THOUSAND_YEAR_ARROW.wounds == 2
    assert CATALOG.maneuver("thousand-year-arrow").range == "battlefield"


def test_seed_example_piercing_arrow() -> None:
    # rule: SG.AIM.5 — Finesse +0: 3 Energy, [Pierce 2], heavy battle 16 → 14;
    # Finesse +3, within the limit only +2: 5 Energy, [Pierce 4] → 12.
    assert largest_extra_within_breath(PIERCING_ARROW, finesse=0) == 0
    plain = aim_focus(PIERCING_ARROW, finesse=0, extra=0)
    assert (plain.cost, plain.tags) == (3, AttackTags(pierce=2))
    assert compute_defense(HEAVY_BATTLE).defense == 16
    assert compute_defense(HEAVY_BATTLE, plain.tags).defense == 14
    assert largest_extra_within_breath(PIERCING_ARROW, finesse=3) == 2
    aimed = aim_focus(PIERCING_ARROW, finesse=3, extra=2)
    assert (aimed.cost, aimed.tags, aimed.overload) == (5, AttackTags(pierce=4), False)
    assert compute_defense(HEAVY_BATTLE, aimed.tags).defense == 12


@given(finesse=st.integers(-3, 6), other=st.integers(0, 6), cost=st.integers(0, 6))
def test_largest_safe_extra_is_legal_and_never_overloads(finesse: int, other: int, cost: int) -> None:
    # rule: SG.AIM.3
    technique = Technique("t", energy=cost, tags=AttackTags(pierce=1), aim_focus=AimFocus.PIERCE)
    n = largest_extra_within_breath(technique, finesse=finesse, other_spending=other)
    result = aim_focus(technique, finesse=finesse, extra=n, other_spending=other)
    assert 0 <= n <= max(0, finesse)
    assert result.overload == (other + cost > 5)
