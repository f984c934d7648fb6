"""Properties of Defense over random profiles and tags (hypothesis)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from kassen.sengoku.battle.values import guard_of
from kassen.sengoku.defense import compute_defense
from kassen.sengoku.grades import load_grades
from kassen.sengoku.profile import (
    ALL,
    Amount,
    ArmorKind,
    AttackTags,
    BonusKind,
    CombatProfile,
    DefenseBonus,
    DefenseDebuff,
    ExorcismRank,
    Grade,
)

amounts = st.one_of(st.integers(0, 12), st.just(ALL))

profiles = st.builds(
    CombatProfile,
    grade=st.sampled_from(Grade),
    armor=st.sampled_from(ArmorKind),
    shield=st.booleans(),
    natural_armor=st.integers(0, 6),
    natural_armor_pierceable=st.sampled_from([None, True, False]),
    armor_bonus=st.integers(0, 3),
    armor_damage=st.integers(0, 8),
    bonuses=st.lists(
        st.builds(DefenseBonus, kind=st.sampled_from(BonusKind), value=st.integers(0, 4)), max_size=4
    ).map(tuple),
    debuffs=st.lists(st.builds(DefenseDebuff, value=st.integers(0, 6)), max_size=3).map(tuple),
    defenseless=st.booleans(),
    defense_override=st.one_of(st.none(), st.integers(0, 12)),
    exorcism=st.sampled_from(ExorcismRank),
    incorporeal_defense=st.integers(0, 3),
)

tag_sets = st.builds(
    AttackTags,
    pierce=st.one_of(st.none(), amounts),
    direct=st.one_of(st.none(), amounts),
    incorporeal=st.booleans(),
    break_=st.booleans(),
    pierce_natural=st.sampled_from([None, True, False]),
)


def physical(target: CombatProfile) -> CombatProfile:
    """The same target with no other-source reductions (to look at the tag stage alone)."""
    return replace(target, defenseless=False, debuffs=())


def base_of(target: CombatProfile) -> int:
    grade_base = load_grades().row(target.grade).defense
    override = target.defense_override
    return override if override is not None and override < grade_base else grade_base


@given(target=profiles, pierce=amounts)
def test_pierce_never_below_the_base(target: CombatProfile, pierce: Amount) -> None:
    # rule: SG.PRC.2 — [Pierce] never drops Defense below the (grade or stat-block) base.
    result = compute_defense(physical(target), AttackTags(pierce=pierce))
    assert result.base == base_of(target)
    assert result.after_tags >= base_of(target)
    assert result.defense <= compute_defense(physical(target)).defense


@given(target=profiles, direct=amounts)
def test_direct_never_below_base_plus_armor(target: CombatProfile, direct: Amount) -> None:
    # rule: SG.DIR.2 — [Direct] never drops Defense below base + armor/shield additions.
    result = compute_defense(physical(target), AttackTags(direct=direct))
    assert result.after_tags >= result.base + result.armor
    assert result.after_tags <= result.base + result.armor + result.non_armor


@given(target=profiles, tags=tag_sets)
def test_defense_never_below_2(target: CombatProfile, tags: AttackTags) -> None:
    # rule: SG.DBF.2 — the final Defense has a minimum of 2, whatever the tags and reductions.
    result = compute_defense(target, tags)
    assert result.defense >= 2
    # Immune defenders (SG.INC.2) have no Defense at all, and say so in JSON rather than a number.
    assert (result.to_json()["defense"] is None) == result.immune


@given(target=profiles, tags=tag_sets)
def test_the_last_step_is_the_defense(target: CombatProfile, tags: AttackTags) -> None:
    # rule: SG.DEF.5 — the steps end on the value the attack rolls against; every step names a rule.
    result = compute_defense(target, tags)
    assert result.steps[-1].value == result.defense
    assert all(s.rule.startswith("SG.") for s in result.steps)
    if not result.immune:
        assert result.to_json()["defense"] == result.defense


@given(target=profiles, tags=tag_sets)
def test_other_reductions_come_after_the_tags(target: CombatProfile, tags: AttackTags) -> None:
    # rule: SG.DEF.5 — Defenseless and Defense −N stack separately after the floors, minimum 2.
    result = compute_defense(target, tags)
    if result.immune:
        return
    # The reductions computed from the profile itself, not read back from the result.
    expected = (4 if target.defenseless else 0) + sum(d.value for d in target.debuffs)
    assert result.reductions == expected
    assert result.defense == max(2, result.after_tags - expected)
    assert result.after_tags == compute_defense(physical(target), tags).defense or result.after_tags < 2


@given(
    target=profiles,
    tags=tag_sets,
    name=st.text(max_size=8),
    wounds=st.one_of(st.none(), st.integers(0, 40)),
    wounds_max=st.one_of(st.none(), st.integers(1, 40)),
    fate_points=st.integers(0, 5),
)
def test_defense_reads_no_name_wounds_or_fate(
    target: CombatProfile,
    tags: AttackTags,
    name: str,
    wounds: int | None,
    wounds_max: int | None,
    fate_points: int,
) -> None:
    # rule: SG.DEF.5 — the Defense is built from grade, armor, shield, bonuses, tags and reductions alone:
    # a unit's name, Wounds and Fate Points change nothing of it, steps included. The heuristic's values
    # are keyed by the profile without them (``guard_of``), so this is what makes that key exact.
    other = replace(target, name=name, wounds=wounds, wounds_max=wounds_max, fate_points=fate_points)
    assert guard_of(other) == guard_of(target)
    assert compute_defense(other, tags) == compute_defense(target, tags)
    assert compute_defense(guard_of(other), tags) == compute_defense(target, tags)
