"""The bundled Sengoku catalog: every weapon, armor, technique, stance and maneuver seeds 000 and 002
name is there and usable; techniques, profiles and units come from catalog entries."""

from __future__ import annotations

import doctest
from dataclasses import replace
from types import ModuleType

import pytest

from kassen.core.errors import KassenError
from kassen.sengoku import aim as aim_module
from kassen.sengoku import catalog as catalog_module
from kassen.sengoku import technique as technique_module
from kassen.sengoku.aim import aim_focus
from kassen.sengoku.attack import Attack, FixedDefense, resolve_attack
from kassen.sengoku.catalog import UnknownEntryError, load_catalog
from kassen.sengoku.defense import compute_defense, trigger_debuff
from kassen.sengoku.energy import max_energy
from kassen.sengoku.entries import Maneuver, ManeuverKind, MovementTo, Reach, ReactionKind
from kassen.sengoku.house import MaxEnergy
from kassen.sengoku.odds import attack_odds
from kassen.sengoku.profile import AimFocus, ArmorKind, AttackTags, BonusKind, ExorcismRank, Grade
from kassen.sengoku.technique import technique, technique_names

CATALOG = load_catalog()

#: Every weapon seeds 000 and 002 name (uchikatana, katana, masterwork and divine examples included).
SEED_WEAPONS = [
    "uchigatana",
    "nodachi",
    "kanabo",
    "tetsubo",
    "ninja-to",
    "tanto",
    "yari",
    "teppo",
    "daikyu",
    "shuriken",
    "kusarigama",
    "zweihander",
    "muramasa",
    "excalibur",
    "supply-katana",
    "masterwork-kanabo",
    "spirit-sword",
    "spirit-talisman",
]
#: Every armor and shield they name.
SEED_ARMOR = [
    "light-armor",
    "heavy-armor",
    "heavy-battle-armor",
    "chain-armor",
    "o-yoroi",
    "masterwork-cuirass",
    "masterwork-heavy-armor",
    "aegis",
]
#: Every technique, Kata, defense technique, stance, movement and upkeep maneuver they name.
SEED_MANEUVERS = [
    "horizontal-cut",
    "thrust",
    "quick-draw",
    "heavy-blow",
    "stroke-of-fire",
    "reverse-grip-cut",
    "pierce-the-vitals",
    "thousand-year-arrow",
    "piercing-arrow",
    "one-stroke-of-the-home-province",
    "precise-shuriken-throw",
    "ninjutsu-assassination",
    "teppo-shot",
    "meisterhau",
    "crushing-blow",
    "chain-bind",
    "bloodflower-dance",
    "plant-curse-insect",
    "fox-fire",
    "soul-drain",
    "spirit-cut",
    "talisman-strike",
    "parry",
    "back-of-blade-block",
    "emergency-evasion",
    "immovable-formation",
    "defensive-stance",
    "squad-formation",
    "barrier-formation",
    "spirit-ward",
    "walk",
    "run",
    "stealth-movement",
    "breakthrough",
    "core-zone-exit",
    "retreat",
    "flower-of-the-battlefield",
    "reposition-shikigami",
    "cohesion-ward",
    "reload",
]
SEED_DEBUFFS = [
    "curse-insect-parasitism",
    "bloodflower-charm",
    "kusarigama-bind",
    "snake-paralysis-poison",
    "grudge-curse",
]


@pytest.mark.parametrize("key", SEED_WEAPONS)
def test_every_seed_weapon_attacks_from_the_catalog(key: str) -> None:
    # rule: SG.MAN.1 — weapons with their Attack A/B techniques, reach class and equipment grade
    weapon = CATALOG.weapon(key)
    attack_a = CATALOG.technique(key)
    assert attack_a.id == weapon.attack_a and attack_a.weapon == key
    assert attack_a.wounds is not None and attack_a.energy is not None
    for maneuver_id in weapon.maneuver_ids():
        tech = CATALOG.technique(maneuver_id, weapon=key)
        odds = attack_odds(5, 12, technique=tech)  # every technique resolves
        assert 0 <= odds.expected_wounds <= 6
    assert weapon.reach in Reach


@pytest.mark.parametrize("key", SEED_ARMOR)
def test_every_seed_armor_gives_its_defense(key: str) -> None:
    # rule: SG.DEF.2 — armor additions on the grade base; aptitudes in the armor category (SG.DEF.3)
    armor = CATALOG.armor_entry(key)
    unit = CATALOG.outfit(key)
    added = {"light": 2, "heavy": 4, "heavy-battle": 6}[armor.armor]
    aptitude = sum(a.defense for a in armor.aptitudes)
    assert compute_defense(unit).defense == 10 + added + aptitude
    assert unit.armor_grade == armor.grade


def test_shield_is_part_of_armor() -> None:
    # rule: SG.DEF.2 — shield +1, removed by [Pierce] like armor
    knight = CATALOG.profile("gaijin-knight")
    assert knight.shield and knight.armor is ArmorKind.HEAVY_BATTLE
    assert compute_defense(knight).defense == 17
    assert compute_defense(knight, AttackTags(pierce="all")).defense == 10


@pytest.mark.parametrize("key", SEED_MANEUVERS)
def test_every_seed_maneuver_is_usable(key: str) -> None:
    # rule: SG.MAN.1 — every maneuver the seeds name is an entry of its kind, within one breath
    m = CATALOG.maneuver(key)
    assert m.cost <= 5  # fits one breath
    if m.attacks:
        tech = CATALOG.technique(key)
        assert (tech.name, tech.energy, tech.tags) == (m.name, m.cost, m.attack_tags)
        assert aim_focus(tech, finesse=0, extra=0).cost == m.cost
        return
    with pytest.raises(KassenError, match="not an attack"):
        CATALOG.technique(key)
    if m.kind is ManeuverKind.DEFENSE:
        assert m.reservable and m.reaction is not None and m.check is not None
        assert m.check.against == "attack-total"
    elif m.grants is not None:
        held = CATALOG.outfit(stances=[key])
        assert compute_defense(held).defense == 10 + CATALOG.stance_bonus(key).value
        assert held.incorporeal_defense == m.grants.incorporeal_defense
    elif m.kind is ManeuverKind.MOVEMENT:
        assert m.movement is not None and m.movement.to in MovementTo
    else:
        assert m.kind is ManeuverKind.UPKEEP and m.upkeep is not None and m.cost == 0


@pytest.mark.parametrize("key", SEED_DEBUFFS)
def test_every_seed_debuff_lowers_defense(key: str) -> None:
    # rule: SG.DBF.1 — a Defense −N status on the target, never a tag (SG.DBF.4)
    source = CATALOG.debuff(key)
    unit = CATALOG.outfit("light-armor")
    lowered = replace(unit, debuffs=(source.debuff(),))
    assert compute_defense(lowered).defense == compute_defense(unit).defense - source.value


def test_debuff_sources_from_the_seed() -> None:
    # rule: SG.DBF.3 — "Defense −1 each round (until removed)"; "Defense −2 next round"
    parasitism = CATALOG.debuff("curse-insect-parasitism")
    assert (parasitism.value, parasitism.rounds, parasitism.each_round) == (1, None, True)
    charm = CATALOG.debuff("bloodflower-charm")
    assert (charm.value, charm.rounds) == (2, 1)
    # The Kata that inflict them name them as debuff effects, not as tags.
    dance = CATALOG.technique("bloodflower-dance")
    assert [e.debuff for e in dance.on_hit] == ["bloodflower-charm"] and dance.tags == AttackTags()
    curse = CATALOG.technique("plant-curse-insect")
    assert [e.debuff for e in curse.on_hit] == ["curse-insect-parasitism"] and curse.tags.incorporeal


def test_seed_techniques_as_the_seed_writes_them() -> None:
    # rule: SG.MAN.1 — Horizontal Cut (Courage, standard), Thrust (Finesse, [Pierce 2],
    # 2d10+Finesse+Swordsmanship, cost 2, 1 Wound), Quick Draw (Licensed, bonus after a stance change)
    cut = CATALOG.technique("horizontal-cut")
    assert (cut.attribute, cut.wounds, cut.tags) == ("courage", 1, AttackTags())
    thrust = CATALOG.technique("thrust")
    assert (thrust.attribute, thrust.skill, thrust.energy, thrust.wounds) == (
        "finesse",
        "swordsmanship",
        2,
        1,
    )
    assert thrust.tags == AttackTags(pierce=2)
    quick = CATALOG.maneuver("quick-draw")
    assert "Licensed" in quick.license and quick.check is not None
    assert [s.when.value for s in quick.check.situational] == ["after-stance-change"]
    # The swords' Attack A is Horizontal Cut and Attack B Thrust.
    assert (CATALOG.weapon("uchigatana").attack_a, CATALOG.weapon("uchigatana").attack_b) == (
        "horizontal-cut",
        "thrust",
    )


def test_special_criticals_live_on_the_weapon() -> None:
    # rule: SG.CRT.2 — nodachi critical 3; teppo critical 2 + 1 Wound to the enemy behind
    assert CATALOG.technique("nodachi").critical_wounds == 3
    assert CATALOG.technique("overhead-cut", weapon="nodachi").critical_wounds == 3
    assert CATALOG.technique("horizontal-cut", weapon="uchigatana").critical_wounds is None
    teppo = CATALOG.technique("teppo")
    assert teppo.critical_wounds == 2 and [e.wounds for e in teppo.on_critical] == [1]


def test_aim_focus_allowance_comes_from_the_entry() -> None:
    # rule: SG.AIM.1 — only techniques whose text allows it
    allowed = {m.id: m.aim_focus for m in CATALOG.maneuvers.values() if m.aim_focus is not AimFocus.NONE}
    assert allowed == {
        "pierce-the-vitals": AimFocus.PIERCE,
        "thousand-year-arrow": AimFocus.DIRECT,
        "piercing-arrow": AimFocus.PIERCE,
    }


def test_heavy_weapons_and_divine_items_state_their_break() -> None:
    # rule: SG.BRK.4 — heavy weapons as stated; on a critical; divine items on a decisive blow
    assert CATALOG.technique("crushing-blow").tags == AttackTags(pierce=3, break_=True)
    assert CATALOG.technique("meisterhau").tags == AttackTags(pierce=2, break_=True)
    muramasa, excalibur = CATALOG.weapon("muramasa"), CATALOG.weapon("excalibur")
    assert muramasa.armor_break is not None and muramasa.armor_break.trigger == "on-critical"
    assert excalibur.armor_break is not None and excalibur.armor_break.trigger == "on-decisive"
    assert (muramasa.grade, excalibur.grade) == ("masterwork", "divine")


def test_incorporeal_attacks_and_defense_from_the_catalog() -> None:
    # rule: SG.INC.3 — no Exorcism + Incorporeal Defense +2 armor (Aegis) → target number 11
    wearer = CATALOG.outfit("aegis")
    assert wearer.incorporeal_defense == 2
    assert compute_defense(wearer, CATALOG.technique("soul-drain").tags).defense == 11
    # The Spirit Ward technique stacks with it (SG.INC.4 house default).
    warded = CATALOG.outfit("aegis", stances=["spirit-ward"])
    assert compute_defense(warded, CATALOG.technique("talisman-strike").tags).defense == 13
    # A Licensed exorcist is immune (SG.INC.2).
    assert compute_defense(CATALOG.profile("onmyoji"), AttackTags(incorporeal=True)).immune


def test_incorporeal_sources_carry_the_tag() -> None:
    # rule: SG.INC.5 — incorporeal yoma, spirit talismans and swords, onmyoji spells, curses
    for key in ("soul-drain", "talisman-strike", "spirit-cut", "fox-fire", "plant-curse-insect"):
        assert CATALOG.technique(key).tags.incorporeal, key
    assert CATALOG.trait("incorporeal").incorporeal
    assert "incorporeal" in CATALOG.creature("yurei").traits


def test_defense_techniques_as_house_defaults() -> None:
    # rule: SG.RES.4 — parry (Finesse) nullifies; block (Physique) nullifies and penalises; evasion
    # reduces the blow even on failure. Checks against the attack's total.
    parry, block, evasion = (
        CATALOG.maneuver(k) for k in ("parry", "back-of-blade-block", "emergency-evasion")
    )
    assert parry.reaction is not None and parry.reaction.kind is ReactionKind.PARRY
    assert parry.check is not None and (parry.check.attribute, parry.check.weapon_skill) == ("finesse", True)
    assert block.reaction is not None and block.reaction.attacker_energy_loss == 1
    assert block.check is not None and block.check.attribute == "physique"
    assert evasion.reaction is not None and evasion.reaction.failure_wound_reduction == 1
    assert evasion.check is not None and (evasion.check.attribute, evasion.check.skill) == ("finesse", None)
    assert (parry.cost, evasion.cost) == (1, 1)  # the count example's reservations
    assert all(
        m.house_default is not None and m.house_default.rule == "SG.RES.4" for m in (parry, block, evasion)
    )


def test_movement_and_retreat() -> None:
    # rule: SG.RET.1 — Retreat: 3 Energy, only from the own Flank or Rear Zone, leaves the battlefield
    retreat = CATALOG.maneuver("retreat")
    assert retreat.cost == 3 and retreat.movement is not None
    assert retreat.movement.to is MovementTo.OFF_BATTLEFIELD
    assert {z.value for z in retreat.movement.from_zones} == {"flank", "rear"}
    # rule: SG.DFL.1 — a failed Breakthrough or Core Zone Exit inflicts Defenseless
    for key in ("breakthrough", "core-zone-exit"):
        m = CATALOG.maneuver(key)
        assert m.movement is not None and m.movement.defenseless_on_failure and m.check is not None


def test_upkeep_maneuvers_of_the_lull() -> None:
    # rule: SG.LUL.2 — no Energy cost, only by upkeep-type traits/techniques: Flower of the Battlefield
    # (1 Wound or Cohesion +1), shikigami, prevention of Cohesion collapse, teppo reload
    upkeep = {m.id: m for m in CATALOG.maneuvers_of(ManeuverKind.UPKEEP)}
    assert set(upkeep) == {"flower-of-the-battlefield", "reposition-shikigami", "cohesion-ward", "reload"}
    assert all(m.cost == 0 for m in upkeep.values())
    flower = upkeep["flower-of-the-battlefield"].upkeep
    assert flower is not None and (flower.wounds_recovered, flower.cohesion_gained, flower.choose_one) == (
        1,
        1,
        True,
    )
    granted = {g for t in CATALOG.traits.values() for g in t.grants}
    assert {"flower-of-the-battlefield", "reposition-shikigami", "cohesion-ward"} <= granted
    assert upkeep["reload"].weapon == "teppo" and CATALOG.weapon("teppo").reload


def test_shinobi_ambush_trait() -> None:
    # rule: SG.AMB.2 — shinobi rank 3 [Ambush]: first attack while infiltrating is an automatic
    # Critical Hit with no check; it replaces basic ambush and adds no Defenseless
    ambush = CATALOG.trait("shinobi-ambush").ambush
    assert ambush is not None
    assert (ambush.requires, ambush.automatic_critical, ambush.replaces_basic) == ("infiltrating", True, True)
    assert not ambush.inflicts_defenseless
    assert "shinobi-ambush" in CATALOG.creature("shinobi").traits
    stealth = CATALOG.maneuver("stealth-movement")
    assert stealth.movement is not None and stealth.movement.grants == ("infiltrating",)


# ------------------------------------------------------------------------------------------ units


def test_creatures_by_grade() -> None:
    # rule: SG.DEF.1 — grade base; SG.WND.5 — Wounds by grade; SG.DEF.6 — a lower stat block wins
    assert compute_defense(CATALOG.profile("ashigaru")).defense == 8  # Mob, unarmored
    assert CATALOG.profile("ashigaru").grade is Grade.MOB
    assert compute_defense(CATALOG.profile("gaki")).defense == 6
    assert CATALOG.profile("lord").grade is Grade.LORD and CATALOG.creature("lord").lord
    assert compute_defense(CATALOG.profile("lord")).defense == 15  # o-yoroi: heavy +4, shoulder catch +1
    assert CATALOG.creature("ashigaru-squad").squad


def test_natural_armor_and_pierce() -> None:
    # rule: SG.PRC.4 — natural armor: [Pierce] reaches it when the entry states so
    oni, turtle = CATALOG.profile("oni"), CATALOG.profile("tetsu-kame")
    assert (oni.natural_armor, oni.natural_armor_pierceable) == (2, True)
    assert (turtle.natural_armor, turtle.natural_armor_pierceable) == (4, False)
    thrust = CATALOG.technique("thrust").tags
    assert (compute_defense(oni).defense, compute_defense(oni, thrust).defense) == (12, 10)
    assert (compute_defense(turtle).defense, compute_defense(turtle, thrust).defense) == (13, 13)


def test_the_seed_examples_three_units() -> None:
    # rule: SG.BRT.0 — per-creature maximum Energy: Genzaburo 11 (uchigatana), Oni 10 (kanabo), Kuro 12
    # (ninja-to); a unit without its own takes its grade's house default
    units = {k: CATALOG.creature(k) for k in ("genzaburo", "oni", "kuro")}
    assert {k: CATALOG.max_energy(k) for k in units} == {"genzaburo": 11, "oni": 10, "kuro": 12}
    assert {k: u.weapons[0] for k, u in units.items()} == {
        "genzaburo": "uchigatana",
        "oni": "kanabo",
        "kuro": "ninja-to",
    }
    by_grade = CATALOG.default(MaxEnergy).by_grade
    assert CATALOG.max_energy("samurai") == by_grade[Grade.VETERAN] == 10
    # Heavy armor lowers it, offset by Physique (SG.DEF.7): the samurai's Physique +1 cancels −1.
    assert max_energy(CATALOG.max_energy("samurai"), CATALOG.profile("samurai"))[0] == 10
    # What each can choose in a breath comes from its weapons, its own maneuvers and its traits.
    kuro = CATALOG.known_maneuvers("kuro")
    for key in ("stealth-movement", "stroke-of-fire", "reverse-grip-cut", "emergency-evasion"):
        assert key in kuro
    assert {"horizontal-cut", "parry"} <= set(CATALOG.known_maneuvers("genzaburo"))
    assert "heavy-blow" in CATALOG.known_maneuvers("oni")


def test_profile_carries_attributes_skills_and_grades() -> None:
    # rule: SG.CHK.1 — the attack modifier is attribute + skill + bonus, from the unit's entry
    kuro = CATALOG.profile("kuro")
    assert (kuro.attributes.finesse, kuro.skill("ninjutsu"), kuro.fate_points) == (3, 3, 2)
    assert kuro.weapon_grade == "ordinary" and kuro.faction == "party"
    assert CATALOG.profile("gaijin-knight", weapon="excalibur").weapon_grade == "divine"
    assert CATALOG.profile("oni", weapon="claws").weapon_grade == "ordinary"  # natural weapons
    monk = CATALOG.profile("pure-land-monk")
    assert monk.exorcism is ExorcismRank.NOVICE
    held = CATALOG.profile("samurai", stances=["immovable-formation", "barrier-formation"])
    assert [(b.kind, b.value) for b in held.bonuses] == [(BonusKind.STANCE, 2), (BonusKind.BARRIER, 2)]


def test_technique_for_a_unit_uses_its_weapon() -> None:
    # rule: SG.CRT.2 — a lord's Horizontal Cut is made with the nodachi in hand (critical 3)
    assert CATALOG.technique_for("lord").critical_wounds == 3
    assert CATALOG.technique_for("lord", "horizontal-cut").weapon == "nodachi"
    assert CATALOG.technique_for("kuro", "pierce-the-vitals").weapon == "tanto"
    assert CATALOG.technique_for("genzaburo", "thrust").weapon == "uchigatana"
    assert CATALOG.technique_for("kuro", "shuriken").id == "shuriken-throw"


def test_technique_lookups_and_errors() -> None:
    # rule: SG.WND.3 — technique() reads the catalog: maneuvers and weapons
    assert technique("piercing-arrow") == CATALOG.technique("piercing-arrow")
    keys = technique_names()
    assert "thrust" in keys and "nodachi" in keys and "parry" not in keys
    with pytest.raises(UnknownEntryError, match="unknown weapon or technique 'katana'"):
        technique("katana")
    with pytest.raises(KassenError, match="not an attack"):
        technique("parry")
    with pytest.raises(UnknownEntryError, match="did you mean thrust"):
        CATALOG.maneuver("thurst")
    kind, entry = CATALOG.entry("o-yoroi")
    assert kind == "armor" and entry == CATALOG.armor_entry("o-yoroi")
    assert isinstance(CATALOG.entry("thrust")[1], Maneuver)


def test_bundled_catalog_is_cached_and_hashed() -> None:
    # rule: SG.MAN.1 — the bundled catalog loads once; its content hash identifies it for replays
    assert load_catalog() is CATALOG
    assert len(CATALOG.content_hash) == 64
    assert CATALOG.grades is not None and CATALOG.defense.aim_focus.breath_limit == 5
    assert CATALOG.origins["thrust"].startswith("kassen/sengoku/data/catalog/maneuvers.yaml:")


def test_every_entry_cites_rules_or_says_why() -> None:
    # rule: SG.MAN.1 — numbers come from the seed (rule IDs) or a house default with its rationale
    for kind, key, entry in CATALOG.entries():
        rules = getattr(entry, "rules", ())
        hd = getattr(entry, "house_default", None)
        if kind in ("maneuver", "debuff", "trait"):
            assert rules or hd is not None, f"{kind} {key}"
        if hd is not None:
            assert len(hd.rationale) > 40, f"{kind} {key}"


def test_a_binding_hit_puts_its_debuff_on_the_target() -> None:
    # rule: SG.DBF.1 — the kusarigama's Chain Bind binds instead of wounding: Defense −2 on the target
    binder, samurai = CATALOG.profile("dokuchushi"), CATALOG.profile("samurai")
    r = resolve_attack(binder, samurai, Attack(CATALOG.technique("chain-bind")), FixedDefense(10), (6, 5))
    assert r.hit and r.wounds_lost == 0
    (event,) = [e for e in r.events if e.kind == "debuff"]
    assert event.data == {"target": "Samurai", "debuff": "kusarigama-bind"} and event.rule == "SG.DBF.1"
    bound, _ = trigger_debuff(r.target, CATALOG.debuff(str(event.data["debuff"])).debuff())
    assert compute_defense(bound).defense == compute_defense(samurai).defense - 2


@pytest.mark.parametrize("module", [catalog_module, technique_module, aim_module])
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
