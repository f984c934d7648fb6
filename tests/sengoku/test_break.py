"""[Break]: the paired [Pierce] reduction stays until repaired, by equipment grade (SG.BRK.*)."""

from __future__ import annotations

import pytest

from kassen.core.errors import IllegalActionError, KassenError
from kassen.sengoku.breakage import (
    BreakTrigger,
    Repair,
    UnknownGradeError,
    apply_break,
    break_triggers,
    don_armor,
    emergency_patch,
    equipment_armor,
    equipment_damage,
    equipment_rank,
    repair,
)
from kassen.sengoku.catalog import load_catalog
from kassen.sengoku.defense import compute_defense, load_defense_rules
from kassen.sengoku.profile import ALL, ArmorKind, AttackTags, CombatProfile
from kassen.sengoku.tags import parse_tags


def hit_with_break(attacker_grade: str, target: CombatProfile, tags: AttackTags) -> tuple[int, CombatProfile]:
    """This attack's Defense, and the target after its [Break]."""
    result = compute_defense(target, tags)
    after, _ = apply_break(attacker_grade, target, result.pierce_removed)
    return result.defense, after


def test_break_keeps_the_paired_pierce_and_without_pierce_removes_nothing() -> None:
    # rule: SG.BRK.1 — no N on [Break]; the paired [Pierce] applies as usual; alone it removes nothing.
    target = CombatProfile(armor=ArmorKind.HEAVY, armor_grade="ordinary")
    tags = parse_tags("[Break]")
    result = compute_defense(target, tags)
    assert (result.defense, result.pierce_removed) == (14, 0)
    after, steps = apply_break("divine", target, result.pierce_removed)
    assert after == target
    assert steps[0].rule == "SG.BRK.1"
    defense, after = hit_with_break("divine", target, parse_tags("[Pierce 2] + [Break]"))
    assert (defense, after.armor_damage) == (12, 2)


def test_equal_or_higher_grade_leaves_the_damage_until_repair() -> None:
    # rule: SG.BRK.2 — executing grade ≥ armor grade: the same reduction stays on the armor.
    target = CombatProfile(armor=ArmorKind.LIGHT, shield=True, armor_grade="masterwork")
    defense, after = hit_with_break("masterwork", target, AttackTags(pierce=2, break_=True))
    assert defense == 11
    assert after.armor_damage == 2
    assert compute_defense(after).defense == 11  # every later attack sees the damaged armor
    assert any(s.rule == "SG.BRK.2" for s in compute_defense(after).steps)
    # A second [Break] adds to it, never past the armor (shield included) that is left.
    _, again = hit_with_break("masterwork", after, AttackTags(pierce=ALL, break_=True))
    assert again.armor_damage == 3
    assert compute_defense(again).defense == 10


def test_higher_armor_grade_voids_only_the_break() -> None:
    # rule: SG.BRK.3 — the hit and its [Pierce] still apply; only the permanent damage is void.
    target = CombatProfile(armor=ArmorKind.HEAVY, armor_grade="divine")
    defense, after = hit_with_break("masterwork", target, AttackTags(pierce=3, break_=True))
    assert defense == 11
    assert after == target
    _, steps = apply_break("masterwork", target, 3)
    assert steps[0].rule == "SG.BRK.3"
    assert "immune" in steps[0].reason


@pytest.mark.parametrize(
    ("trigger", "hit", "critical", "decisive", "fires"),
    [
        (BreakTrigger.ON_HIT, True, False, False, True),  # kanabo, tetsubo, zweihander as stated
        (BreakTrigger.ON_HIT, False, False, False, False),
        (BreakTrigger.ON_CRITICAL, True, False, False, False),
        (BreakTrigger.ON_CRITICAL, True, True, False, True),
        (BreakTrigger.ON_DECISIVE, True, False, False, False),
        (BreakTrigger.ON_DECISIVE, True, False, True, True),
        (BreakTrigger.ON_CRITICAL, False, True, False, False),
    ],
)
def test_break_triggers(
    trigger: BreakTrigger, hit: bool, critical: bool, decisive: bool, fires: bool
) -> None:
    # rule: SG.BRK.4 — critical with an explicit effect, decisive blows, heavy weapons as stated.
    assert break_triggers(trigger, hit=hit, critical=critical, decisive=decisive) is fires


def test_equipment_grade_order_house_default() -> None:
    # rule: SG.BRK.5 — supply < masterwork, ordinary ≤ masterwork, masterwork < divine; supply == ordinary.
    rank = equipment_rank
    assert rank("supply") < rank("masterwork") < rank("divine")
    assert rank("ordinary") <= rank("masterwork")
    assert rank("supply") == rank("ordinary")
    assert rank(" Masterwork ") == rank("masterwork")
    assert load_defense_rules().equipment_grades.house_default.rule == "SG.BRK.5"
    with pytest.raises(UnknownGradeError, match="known grades: supply, ordinary, masterwork, divine"):
        rank("mithril")
    assert issubclass(UnknownGradeError, KassenError)


def test_supply_breaks_ordinary_under_the_house_order() -> None:
    # rule: SG.BRK.5 — one rank for supply and ordinary: an issued katana can break common armor.
    target = CombatProfile(armor=ArmorKind.LIGHT, armor_grade="ordinary")
    _, after = hit_with_break("supply", target, AttackTags(pierce=1, break_=True))
    assert after.armor_damage == 1


def test_emergency_patch_once_per_armor_then_camp_or_forge() -> None:
    # rule: SG.BRK.6 — emergency patch only once on the same armor; later damage needs camp or forge.
    target = CombatProfile(name="Genzaburo", armor=ArmorKind.HEAVY, armor_grade="ordinary")
    broken, _ = apply_break("masterwork", target, 3)
    patched, steps = emergency_patch(broken)
    assert (patched.armor_damage, patched.emergency_patch_used) == (0, True)  # house default: all restored
    assert steps[0].rule == "SG.BRK.6"
    broken_again, _ = apply_break("masterwork", patched, 2)
    with pytest.raises(IllegalActionError) as info:
        emergency_patch(broken_again)
    assert info.value.rule == "SG.BRK.6"
    camp, _ = repair(broken_again, Repair.CAMP)
    assert (camp.armor_damage, camp.emergency_patch_used) == (0, True)  # the patch stays spent
    forged, _ = repair(broken_again, Repair.FORGE)
    assert (forged.armor_damage, forged.emergency_patch_used) == (0, False)  # as new
    with pytest.raises(IllegalActionError, match="no \\[Break\\] damage"):
        emergency_patch(target)


def test_patch_that_restores_a_number_of_points() -> None:
    # rule: SG.BRK.6 — the alternative: a patch restores N points (data).
    rules = load_defense_rules()
    two = rules.repair.emergency_patch.model_copy(update={"restores": 2})
    partial = rules.model_copy(update={"repair": rules.repair.model_copy(update={"emergency_patch": two})})
    broken = CombatProfile(armor=ArmorKind.HEAVY_BATTLE, armor_damage=5)
    patched, _ = emergency_patch(broken, rules=partial)
    assert patched.armor_damage == 3


def test_new_armor_clears_damage() -> None:
    # rule: SG.BRK.2 — "until repair, maintenance or new armor".
    broken = CombatProfile(armor=ArmorKind.HEAVY, armor_damage=4, emergency_patch_used=True)
    fresh = don_armor(broken, ArmorKind.LIGHT, "masterwork")
    assert (fresh.armor_damage, fresh.emergency_patch_used, fresh.armor_grade) == (0, False, "masterwork")
    assert compute_defense(fresh).defense == 12


def test_break_never_damages_natural_armor() -> None:
    # rule: SG.BRK.2 — the reduction stays on armor/shield: natural armor is not equipment.
    oni = CombatProfile(natural_armor=4, natural_armor_pierceable=True, armor=ArmorKind.LIGHT)
    result = compute_defense(oni, AttackTags(pierce=ALL, break_=True))
    assert result.pierce_removed == 6
    after, _ = apply_break("divine", oni, result.pierce_removed)
    assert after.armor_damage == 2
    assert equipment_armor(after) == 0
    assert compute_defense(after).defense == 14


def test_seed_examples_break() -> None:
    # rule: SG.BRK.7 — the seed's four examples, with its numbers, from catalog entries.
    catalog = load_catalog()
    # Supply katana vs masterwork armor, [Pierce 2] + [Break]: Pierce applies, no permanent damage.
    masterwork_heavy = catalog.outfit("masterwork-heavy-armor")
    supply = catalog.weapon("supply-katana")
    splitting = catalog.technique("armor-splitting-thrust", weapon=supply.id).tags
    assert splitting == parse_tags("[Pierce 2] + [Break]")
    defense, after = hit_with_break(supply.grade, masterwork_heavy, splitting)
    assert (defense, after.armor_damage) == (12, 0)
    # Masterwork kanabo vs ordinary heavy armor, [Pierce 3] + [Break]: 3 points gone until repaired.
    ordinary_heavy = catalog.outfit("heavy-armor")
    kanabo = catalog.weapon("masterwork-kanabo")
    crushing = catalog.technique(kanabo.attack_b or "", weapon=kanabo.id).tags
    assert crushing == parse_tags("[Pierce 3] + [Break]")
    defense, after = hit_with_break(kanabo.grade, ordinary_heavy, crushing)
    assert (defense, after.armor_damage, compute_defense(after).defense) == (11, 3, 11)
    # Divine item (Excalibur) vs a commander in masterwork armor, [Pierce 4] + [Break]: 4 points gone.
    excalibur = catalog.weapon("excalibur")
    assert excalibur.armor_break is not None
    decisive = excalibur.armor_break.attack_tags
    defense, after = hit_with_break(excalibur.grade, masterwork_heavy, decisive)
    assert (defense, after.armor_damage, compute_defense(after).defense) == (10, 4, 10)
    # Masterwork katana (Muramasa) vs divine armor (Aegis), [Pierce 3] + [Break]: immune to Break.
    aegis = catalog.outfit("aegis")
    muramasa = catalog.weapon("muramasa")
    assert muramasa.armor_break is not None
    defense, after = hit_with_break(muramasa.grade, aegis, muramasa.armor_break.attack_tags)
    assert (defense, after.armor_damage, compute_defense(after).defense) == (11, 0, 14)


def test_equipment_damage_is_its_own_effect() -> None:
    # rule: SG.BRK.8 — "equipment damage N points" needs no [Pierce] and no grade comparison.
    aegis = CombatProfile(armor=ArmorKind.HEAVY, armor_grade="divine")
    corroded, steps = equipment_damage(aegis, 2)
    assert corroded.armor_damage == 2
    assert steps[0].rule == "SG.BRK.8"
    assert compute_defense(corroded).defense == 12
    worn, _ = equipment_damage(corroded, 9)
    assert worn.armor_damage == 4  # never below 0 armor
    with pytest.raises(IllegalActionError):
        equipment_damage(aegis, -1)
