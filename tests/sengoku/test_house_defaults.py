"""The house defaults for the combat flow's gaps (seed 002): each is in the catalog, named by its rule
ID, carries its rationale, and holds a value the flow engine can use (a valid order, a connected zone
map, a d100 table covering 1-100...). The engine's own tests check the rules that read them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kassen.core.errors import ContentError
from kassen.sengoku.catalog import load_catalog
from kassen.sengoku.entries import HonorClass, ManeuverKind, MovementTo, Reach, ZoneKind
from kassen.sengoku.house import (
    FLOW_DEFAULTS,
    AmbushImmunity,
    AmbushRules,
    CombatEnd,
    ComboFatigue,
    HonorFollowUp,
    ManeuverPricing,
    MaxEnergy,
    OverloadCheck,
    PassHold,
    Reactions,
    ReservationAtZero,
    SquadRules,
    TieKey,
    TieOrder,
    YomaEncounters,
    ZoneApplies,
    ZoneModifiers,
    ZoneTactics,
)
from kassen.sengoku.profile import Grade

CATALOG = load_catalog()


def write(tmp_path: Path, entry: dict[str, object]) -> Path:
    (tmp_path / "house.yaml").write_text(yaml.safe_dump({"house_defaults": [entry]}), encoding="utf-8")
    return tmp_path


def changed(rule: str, **values: object) -> dict[str, object]:
    """The bundled entry for ``rule`` with ``values`` replaced, as a user would write it."""
    data = CATALOG.house_default(rule).model_dump(mode="json")
    data.update(values)
    return data


def test_every_flow_gap_has_its_default_with_a_rationale() -> None:
    # rule: SG.BRT.0 rule: SG.BRT.3 rule: SG.RES.4 rule: SG.MAN.1 rule: SG.ZON.2 rule: SG.AMB.1
    # rule: SG.AMB.3 rule: SG.LUL.3 rule: SG.RET.4 rule: SG.RET.5 rule: SG.END.1 rule: SG.CNT.4
    # rule: SG.CNT.6 rule: SG.RD.2 rule: SG.RD.6 — each entry is found by its rule ID and by its type
    assert set(CATALOG.flow) == set(FLOW_DEFAULTS)
    for rule, model in FLOW_DEFAULTS.items():
        entry = CATALOG.house_default(rule)
        assert isinstance(entry, model) and entry.rule == rule
        assert CATALOG.default(model) is entry
        assert len(entry.rationale) > 150, rule
        assert CATALOG.origins[rule].startswith("kassen/sengoku/data/catalog/")


def test_max_energy_by_grade() -> None:
    # rule: SG.BRT.0 — every grade has a maximum Energy; the examples' 10-12 sit inside the ladder
    by_grade = CATALOG.default(MaxEnergy).by_grade
    assert set(by_grade) == set(Grade)
    ladder = [by_grade[g] for g in (Grade.MOB, Grade.MINION, Grade.VETERAN, Grade.ELITE, Grade.LORD)]
    assert ladder == sorted(ladder) and ladder[0] >= 5  # a Mob can still take a full breath
    assert 10 <= by_grade[Grade.VETERAN] <= by_grade[Grade.PC] <= 12


def test_max_energy_needs_every_grade(tmp_path: Path) -> None:
    # rule: SG.BRT.0
    with pytest.raises(ContentError, match="by_grade: every grade needs a value"):
        load_catalog([write(tmp_path, changed("SG.BRT.0", by_grade={"mob": 8}))])


def test_overload_check() -> None:
    # rule: SG.BRT.2 — failure: all Energy lost and Defenseless (stated); the check itself is the house's
    overload = CATALOG.default(OverloadCheck)
    assert overload.failure_loses_all_energy and overload.failure_defenseless
    assert overload.attribute == "physique" and overload.target == 11
    limit = CATALOG.defense.aim_focus.breath_limit
    spent = 7  # two over the limit
    assert overload.target + overload.per_excess * (spent - limit) == 13
    assert overload.next_round_penalty * (spent - limit) == 2


def test_combo_fatigue_agrees_with_the_count_example() -> None:
    # rule: SG.BRT.3 — two cuts of one technique in a breath at the base cost (Genzaburo, Kuro) are
    # within the free uses; the short-weapon Core Zone bonus is an Energy row of the zone table
    fatigue = CATALOG.default(ComboFatigue)
    assert fatigue.free_uses >= 2 and fatigue.extra_cost >= 1
    assert set(fatigue.applies_to) <= {ManeuverKind.ATTACK, ManeuverKind.KATA}
    cut = CATALOG.maneuver("horizontal-cut").cost
    assert cut * 2 + CATALOG.maneuver("parry").cost == 5  # Genzaburo's breath, no fatigue
    core = [r for r in CATALOG.default(ZoneModifiers).rows if r.zone is ZoneKind.CORE]
    short = [r for r in core if Reach.SHORT in r.select.reach]
    assert [(r.amount, r.applies) for r in short] == [(-1, ZoneApplies.ENERGY)]


def test_reactions_name_the_three_defense_techniques(tmp_path: Path) -> None:
    # rule: SG.RES.4 — parry, back-of-blade block, emergency evasion; ties to the defender
    reactions = CATALOG.default(Reactions)
    kinds = {slot: CATALOG.maneuver(getattr(reactions, slot)) for slot in ("parry", "block", "evasion")}
    assert all(m.reaction is not None and m.reaction.kind.value == slot for slot, m in kinds.items())
    assert reactions.tie_goes_to == "defender" and reactions.attacks_per_reservation == 1
    with pytest.raises(ContentError, match=r"SG\.RES\.4\.parry: 'emergency-evasion' is not a parry"):
        load_catalog([write(tmp_path, changed("SG.RES.4", parry="emergency-evasion"))])


def test_reservation_at_zero_energy() -> None:
    # rule: SG.RD.6 — a prepaid reservation is usable at 0 Energy (Genzaburo parries "with 0 Energy")
    assert CATALOG.default(ReservationAtZero).usable_at_zero_energy is True


def test_tie_order_is_a_valid_total_order(tmp_path: Path) -> None:
    # rule: SG.CNT.4 — descending Finesse, then allies first (stated), then the house keys, ending in
    # one that always decides
    order = CATALOG.default(TieOrder).order
    assert order[:2] == (TieKey.FINESSE, TieKey.ALLIES_FIRST)
    assert order[-1] is TieKey.SETUP_ORDER and len(set(order)) == len(order)
    for bad, why in (
        ([TieKey.ALLIES_FIRST, TieKey.FINESSE, TieKey.SETUP_ORDER], "seed's order comes first"),
        ([TieKey.FINESSE, TieKey.ALLIES_FIRST], "must end with setup-order"),
        ([TieKey.FINESSE, TieKey.ALLIES_FIRST, TieKey.FINESSE, TieKey.SETUP_ORDER], "given twice"),
    ):
        with pytest.raises(ContentError, match=why) as info:
            load_catalog([write(tmp_path, changed("SG.CNT.4", order=[k.value for k in bad]))])
        assert info.value.issues[0].field == "house_defaults.SG.CNT.4.order"


def test_pass_and_hold_always_move_the_count() -> None:
    # rule: SG.CNT.6 — holding costs at least 1 Energy (so counting ends); a unit that cannot pay passes
    rule = CATALOG.default(PassHold)
    assert rule.hold_cost >= 1 and rule.cannot_spend == "pass"
    assert rule.pass_keeps_energy_for_reactions


def test_zone_layout() -> None:
    # rule: SG.ZON.2 — every zone the seed names, on both sides, connected; Breakthrough and Core Zone
    # Exit are movement maneuvers that fail into Defenseless
    zones = CATALOG.default(ZoneTactics)
    kinds = {(z.kind, z.side) for z in zones.zones}
    for side in ("own", "enemy"):
        assert {("front", side), ("rear", side), ("flank", side)} <= kinds
    assert ("core", "none") in kinds
    assert set(zones.neighbours("core")) == {"own-front", "own-flank", "enemy-front", "enemy-flank"}
    assert "core" not in zones.neighbours("own-rear")  # the Rear is behind the line
    assert zones.start == {"own": "own-front", "enemy": "enemy-front"}
    exits = {
        zones.breakthrough: MovementTo.ENEMY_HELD_ZONE,
        zones.core_exit: MovementTo.OUT_OF_CORE,
        zones.walk: MovementTo.ADJACENT_ZONE,
        zones.run: MovementTo.UP_TO_TWO_ZONES,
    }
    for key, to in exits.items():
        m = CATALOG.maneuver(key)
        assert m.movement is not None and m.movement.to is to
    for key in (zones.breakthrough, zones.core_exit):
        m = CATALOG.maneuver(key)
        assert m.movement is not None and m.movement.defenseless_on_failure
        assert m.check is not None and isinstance(m.check.against, int)
    # Retreat starts from the own Flank or Rear (stated): both are on the map.
    retreat = CATALOG.maneuver("retreat").movement
    assert retreat is not None and {z.value for z in retreat.from_zones} <= {z.kind for z in zones.zones}


def test_a_broken_zone_map_is_refused(tmp_path: Path) -> None:
    # rule: SG.ZON.2
    zones = CATALOG.default(ZoneTactics).model_dump(mode="json")
    island = [*zones["zones"], {"id": "island", "kind": "flank", "side": "none"}]
    with pytest.raises(ContentError, match="not connected to the rest: island"):
        load_catalog([write(tmp_path, changed("SG.ZON.2", zones=island))])


def test_zone_table_holds_every_seed_number() -> None:
    # rule: SG.ZON.1 — Front: yari +1, mounted unlocked, tanto −1; Core: short −1, long +1,
    # grappling/shoving +2; Rear: ranged +1, upkeep −1 Energy; Flank: Infiltration +2, ambush unlocked;
    # High ground: ranged +2, enemy melee −1
    rows = {(r.zone.value, r.text): r.amount for r in CATALOG.default(ZoneModifiers).rows}
    assert rows == {
        ("front", "yari techniques +1"): 1,
        ("front", "unlock mounted techniques"): 0,
        ("front", "tanto -1"): -1,
        ("core", "short weapons -1"): -1,
        ("core", "long weapons +1"): 1,
        ("core", "grappling/shoving +2"): 2,
        ("rear", "ranged +1"): 1,
        ("rear", "upkeep -1 Energy"): -1,
        ("flank", "Infiltration +2"): 2,
        ("flank", "unlock ambush"): 0,
        ("high-ground", "ranged +2"): 2,
        ("high-ground", "enemy melee -1"): -1,
    }


def test_zone_numbers_reading() -> None:
    # rule: SG.RD.2 — Core short/long and Rear upkeep are Energy costs; the rest are check modifiers or
    # unlocks; a zone never lowers a cost below 1
    table = CATALOG.default(ZoneModifiers)
    energy = {(r.zone.value, r.text) for r in table.rows if r.applies is ZoneApplies.ENERGY}
    assert energy == {("core", "short weapons -1"), ("core", "long weapons +1"), ("rear", "upkeep -1 Energy")}
    unlocks = {r.text for r in table.rows if r.applies is ZoneApplies.UNLOCK}
    assert unlocks == {"unlock mounted techniques", "unlock ambush"}
    assert table.energy_minimum == 1
    # Every weapon a row names is in the catalog (the loader checks it); the upkeep row has something to
    # reduce during the count (reload).
    reload = CATALOG.maneuver("reload").upkeep
    assert reload is not None and reload.count_cost is not None and reload.count_cost > table.energy_minimum


def test_ambush_conditions_and_first_attack_modifier() -> None:
    # rule: SG.AMB.1 — any one condition; the basic first-attack modifier makes the target Defenseless
    # (what the shinobi trait "does not inflict additionally")
    ambush = CATALOG.default(AmbushRules)
    assert {c.id for c in ambush.conditions} == {"infiltrating", "unseen-from-the-flank"}
    assert ambush.target_defenseless and ambush.first_attack_only and ambush.check_bonus == 0
    trait = CATALOG.trait("shinobi-ambush").ambush
    assert trait is not None and trait.replaces_basic and not trait.inflicts_defenseless


def test_ambush_immunity(tmp_path: Path) -> None:
    # rule: SG.AMB.3 — immune traits exist and are carried; a unit is ambushed once per combat
    immunity = CATALOG.default(AmbushImmunity)
    assert [CATALOG.trait(t).id for t in immunity.immune_traits] == ["vigilant", "incorporeal"]
    assert "incorporeal" in CATALOG.creature("yurei").traits and immunity.once_per_target
    with pytest.raises(ContentError, match="unknown trait 'sentinel'"):
        load_catalog([write(tmp_path, changed("SG.AMB.3", immune_traits=["sentinel"]))])


def test_yoma_encounter_table(tmp_path: Path) -> None:
    # rule: SG.LUL.3 — a d100 table covering 1-100 once, whose yoma are catalog creatures
    table = CATALOG.default(YomaEncounters)
    assert table.die == 100 and CATALOG.tables()["yoma-encounter"] is table
    names = [table.row(n).name for n in range(1, 101)]
    assert names[0] == "Quiet" and names.count("Quiet") == 50
    for row in table.rows:
        for c in row.creatures:
            assert CATALOG.creature(c.id).faction == "yoma"
    gap = [r.model_dump(mode="json") for r in table.rows][1:]
    with pytest.raises(ContentError, match=r"rows must cover 1\.\.100 once each"):
        load_catalog([write(tmp_path, changed("SG.LUL.3", rows=gap))])


def test_honor_follow_up_after_retreat() -> None:
    # rule: SG.RET.4 — non-honor classes get no follow-up; honor classes a check; the flag is on units
    classes = CATALOG.default(HonorFollowUp).classes
    assert set(classes) == set(HonorClass)
    assert classes[HonorClass.NON_HONOR].follow_up == "none"
    honor = classes[HonorClass.HONOR]
    assert (honor.follow_up, honor.attribute, honor.target) == ("check", "presence", 11)
    assert CATALOG.creature("genzaburo").honor is HonorClass.HONOR
    assert CATALOG.creature("kuro").honor is HonorClass.NON_HONOR
    assert CATALOG.creature("ashigaru").honor is HonorClass.EXTERNAL_DISCIPLINE


def test_squad_cohesion_and_rout() -> None:
    # rule: SG.RET.5 — Cohesion by grade, Rout at 0: only Retreat, Defenseless, a pursuit target
    squads = CATALOG.default(SquadRules)
    assert set(squads.cohesion_by_grade) == set(Grade) and squads.rout_at == 0
    assert all(v > squads.rout_at for v in squads.cohesion_by_grade.values())
    assert squads.rout_allowed == ("retreat",) and squads.rout_defenseless
    assert squads.rout_pursuit_from_next_round
    ward = CATALOG.maneuver("cohesion-ward")
    assert ward.house_default is not None and ward.house_default.rule == "SG.RET.5"
    assert CATALOG.creature("ashigaru-squad").squad


def test_combat_end() -> None:
    # rule: SG.END.1 — a side with no unit able to act (incapacitated or retreated; a routed squad is
    # still the pursuit target SG.RET.2 names, the SG.RD.11 reading), or the GM
    end = CATALOG.default(CombatEnd)
    assert set(end.out_states) == {"incapacitated", "retreated"}
    assert end.gm_may_end and end.checked == "after-each-breath"


def test_priced_maneuvers_each_say_why() -> None:
    # rule: SG.MAN.1 — the maneuvers the house priced are exactly those with their own house default
    priced = set(CATALOG.default(ManeuverPricing).priced)
    explained = {m.id for m in CATALOG.maneuvers.values() if m.house_default is not None}
    assert priced == explained
    stated = {m.id for m in CATALOG.maneuvers.values() if m.house_default is None}
    assert {"thrust", "pierce-the-vitals", "thousand-year-arrow", "piercing-arrow", "retreat"} <= stated


def test_a_user_overrides_a_house_default_by_rule(tmp_path: Path) -> None:
    # rule: SG.CNT.4 — house defaults are overridden like entries: same rule, whole entry replaced
    mine = changed("SG.CNT.4", order=["finesse", "allies-first", "setup-order"], rationale="Our table.")
    catalog = load_catalog([write(tmp_path, mine)])
    assert catalog.default(TieOrder).order == (TieKey.FINESSE, TieKey.ALLIES_FIRST, TieKey.SETUP_ORDER)
    assert catalog.default(TieOrder).rationale == "Our table."
    assert catalog.origins["SG.CNT.4"].startswith(str(tmp_path))
    assert CATALOG.default(TieOrder).order[2] is TieKey.MAX_ENERGY  # the bundled one is untouched
