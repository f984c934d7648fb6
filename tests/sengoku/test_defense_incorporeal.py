"""[Incorporeal]: the defender's Exorcism rank sets the target number (SG.INC.*, reading SG.RD.7)."""

from __future__ import annotations

from typing import Any

import pytest

from kassen.sengoku.defense import (
    IMMUNE_DEFENSE,
    Exemption,
    ExorcismRow,
    compute_defense,
    ignores_incorporeal_evasion,
    is_incorporeal_source,
    load_defense_rules,
)
from kassen.sengoku.profile import (
    ALL,
    ArmorKind,
    AttackTags,
    BonusKind,
    CombatProfile,
    DefenseBonus,
    DefenseDebuff,
    ExorcismRank,
    Grade,
)

INCORPOREAL = AttackTags(incorporeal=True)


def with_rank(rank: ExorcismRank, row: ExorcismRow) -> Any:
    rules = load_defense_rules()
    ranks = {**rules.exorcism.ranks, rank: row}
    return rules.model_copy(update={"exorcism": rules.exorcism.model_copy(update={"ranks": ranks})})


def test_incorporeal_bypasses_physical_defense() -> None:
    # rule: SG.INC.1 — armor, shield and grade base do not count; the defender's Exorcism rank does.
    samurai = CombatProfile(grade=Grade.LORD, armor=ArmorKind.HEAVY_BATTLE, shield=True, armor_bonus=1)
    ashigaru = CombatProfile(grade=Grade.MOB)
    assert compute_defense(samurai).defense == 18
    assert compute_defense(samurai, INCORPOREAL).defense == 9
    assert compute_defense(ashigaru, INCORPOREAL).defense == 9
    result = compute_defense(samurai, AttackTags(incorporeal=True, pierce=ALL))
    assert result.defense == 9  # [Pierce] finds no armor to remove
    assert result.incorporeal
    assert any(s.rule == "SG.INC.1" for s in result.steps)


def test_exorcism_ranks_none_novice_and_licensed_up() -> None:
    # rule: SG.INC.2 — Novice: partial protection (−2 for the attacker → target number +2);
    # Licensed and above: full exemption; Master and Saint add nothing further.
    def tn(rank: ExorcismRank) -> Any:
        return compute_defense(CombatProfile(exorcism=rank), INCORPOREAL)

    assert tn(ExorcismRank.NONE).defense == 9
    assert tn(ExorcismRank.NOVICE).defense == 11
    for rank in (ExorcismRank.LICENSED, ExorcismRank.MASTER, ExorcismRank.SAINT):
        result = tn(rank)
        assert result.immune
        assert result.defense == IMMUNE_DEFENSE
        assert result.steps[-1].rule == "SG.INC.2"
    # Exorcism does nothing against a physical attack.
    assert compute_defense(CombatProfile(exorcism=ExorcismRank.SAINT)).defense == 10


def test_seed_example_incorporeal_defense_aptitude() -> None:
    # rule: SG.INC.3 — no Exorcism + Incorporeal Defense +2 armor → target number 11; stacks with rank.
    warded = CombatProfile(armor=ArmorKind.HEAVY, incorporeal_defense=2)
    result = compute_defense(warded, INCORPOREAL)
    assert result.defense == 11
    assert [s.rule for s in result.steps] == ["SG.INC.4", "SG.INC.3"]
    novice = CombatProfile(exorcism=ExorcismRank.NOVICE, incorporeal_defense=2)
    assert compute_defense(novice, INCORPOREAL).defense == 13
    # The aptitude means nothing against a physical attack.
    assert compute_defense(warded).defense == 14


def test_exorcism_table_house_default_and_its_alternative() -> None:
    # rule: SG.INC.4 — the table is data: none 9 (from SG.INC.3's example), novice 11, licensed+ immune.
    rules = load_defense_rules()
    assert rules.exorcism.house_default.rule == "SG.INC.4"
    table = {rank: row.target_number for rank, row in rules.exorcism.ranks.items()}
    assert table == {
        ExorcismRank.NONE: 9,
        ExorcismRank.NOVICE: 11,
        ExorcismRank.LICENSED: Exemption.IMMUNE,
        ExorcismRank.MASTER: Exemption.IMMUNE,
        ExorcismRank.SAINT: Exemption.IMMUNE,
    }
    # Alternative: the exemption voids the tag, and the attack rolls against physical Defense.
    physical = with_rank(
        ExorcismRank.LICENSED, ExorcismRow(target_number=Exemption.PHYSICAL, evasion_exempt=True)
    )
    licensed = CombatProfile(armor=ArmorKind.HEAVY, exorcism=ExorcismRank.LICENSED)
    result = compute_defense(licensed, INCORPOREAL, rules=physical)
    assert result.defense == 14
    assert not result.immune
    assert any(s.rule == "SG.INC.4" and "void" in s.reason for s in result.steps)
    # Or a plain number.
    numbered = with_rank(ExorcismRank.LICENSED, ExorcismRow(target_number=15, evasion_exempt=True))
    assert compute_defense(licensed, INCORPOREAL, rules=numbered).defense == 15


@pytest.mark.parametrize(
    "kind",
    ["spirit talisman", "Onmyoji Spell", "incorporeal yoma", "spirit sword", "soul drain", "curse"],
)
def test_incorporeal_sources(kind: str) -> None:
    # rule: SG.INC.5 — these attacks carry [Incorporeal].
    assert is_incorporeal_source(kind)


def test_ordinary_attacks_are_not_incorporeal_sources() -> None:
    # rule: SG.INC.5
    assert not is_incorporeal_source("katana")
    assert not is_incorporeal_source("teppo")


def test_barriers_and_blessings_still_count_against_incorporeal() -> None:
    # rule: SG.RD.7 — house reading: barrier and spell/blessing bonuses count; stance, terrain and
    # evasion do not (no matter how swift the evasion); [Direct] can strip the counted ones.
    target = CombatProfile(
        bonuses=(
            DefenseBonus(BonusKind.BARRIER, 2, "sacred ground"),
            DefenseBonus(BonusKind.SPELL, 1, "blessing"),
            DefenseBonus(BonusKind.STANCE, 2, "Immovable Formation"),
            DefenseBonus(BonusKind.EVASION, 2, "master of evasion"),
            DefenseBonus(BonusKind.TERRAIN, 1, "brush"),
        )
    )
    result = compute_defense(target, INCORPOREAL)
    assert result.defense == 9 + 2 + 1
    assert sum(1 for s in result.steps if s.rule == "SG.RD.7") == 5
    stripped = compute_defense(target, AttackTags(incorporeal=True, direct=ALL))
    assert stripped.defense == 9
    # Alternative reading: nothing but the Exorcism table and the aptitude counts.
    rules = load_defense_rules()
    bypass_all = rules.model_copy(
        update={"incorporeal": rules.incorporeal.model_copy(update={"counted_bonus_kinds": ()})}
    )
    assert compute_defense(target, INCORPOREAL, rules=bypass_all).defense == 9


def test_novice_evasion_exemption_is_attacker_side_only() -> None:
    # rule: SG.RD.7 — the Novice's "exemption from incorporeal evasion" helps the Novice hit spirits;
    # it never changes the defender's target number (only the defender's rank counts).
    assert not ignores_incorporeal_evasion(ExorcismRank.NONE)
    assert all(ignores_incorporeal_evasion(r) for r in ExorcismRank if r is not ExorcismRank.NONE)


def test_other_reductions_still_apply_to_the_target_number() -> None:
    # rule: SG.RD.7 — Defenseless and Defense −N still reduce the target number (SG.DEF.5), minimum 2.
    cursed = CombatProfile(exorcism=ExorcismRank.NOVICE, defenseless=True, debuffs=(DefenseDebuff(2),))
    result = compute_defense(cursed, INCORPOREAL)
    assert (result.after_tags, result.defense) == (11, 5)
    # ...but never touch an immune defender.
    immune = CombatProfile(exorcism=ExorcismRank.MASTER, defenseless=True)
    assert compute_defense(immune, INCORPOREAL).immune
