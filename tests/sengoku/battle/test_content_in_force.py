"""Every table value a battle reads is the battle's own content: a ``--content`` layer or a scenario's
``content:`` block that changes a number of ``defense.yaml``, ``grades.yaml`` or ``resolution.yaml``
changes the battle, never the bundled data behind its back.

The pure rules (:mod:`kassen.sengoku.energy`, ``defense``, ``wounds``, ``attack``...) fall back to the
bundled tables when none is passed; a battle calls them only through
:class:`~kassen.sengoku.battle.rules.BattleRules`, which passes its own. Each test overrides one value and
shows the battle (its events, its state, its menus, its heuristic) using the new one, next to the
bundled battle where that helps say what changed. The last test plays whole battles with the bundled
tables' loaders made to fail: no rule of a battle may reach for them.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

import kassen
from kassen.content.content import Content
from kassen.core.events import Event
from kassen.sengoku.battle import GM, BattleRules, Decline, HeuristicPolicy, Pass
from kassen.sengoku.battle.actions import GmAddStatus, GmSetWounds
from kassen.sengoku.battle.table.preview import attack_preview
from kassen.sengoku.odds import check_chance

from .helpers import NO_FATE, Fight, catalog_with, scenario, use

#: The attacker of most tests: Genzaburo (Courage 2 + Swordsmanship 2: Horizontal Cut at +4), no Fate.
GENZABURO = {"creature": "genzaburo", "side": "a", "overrides": NO_FATE}


def foe(creature: str, **extra: Any) -> dict[str, Any]:
    """The target, ``foe``, in Genzaburo's zone, with no Fate."""
    return {
        "id": "foe",
        "creature": creature,
        "side": "b",
        "zone": "own-front",
        "overrides": NO_FATE,
        **extra,
    }


def battle(*units: dict[str, Any], content: Content[BattleRules] | None = None) -> Fight:
    return Fight(scenario(*units, content=content)).begin()


def reset(f: Fight, unit: str) -> Event:
    """The unit's ``energy_reset`` of the first round (SG.RND.1)."""
    return next(e for e in f.of("energy_reset") if e.data["unit"] == unit)


def cut(f: Fight, faces: tuple[int, ...]) -> Event:
    """Genzaburo's Horizontal Cut on ``foe`` with these faces; its ``attack`` event."""
    events = f.breath("genzaburo", use("horizontal-cut", "foe"), faces=faces)
    [attack] = f.of("attack", events)
    return attack


def defense_layer(tmp_path: Path, patch: dict[str, Any]) -> Content[BattleRules]:
    return catalog_with(tmp_path, {"defense": patch})


def resolution_layer(tmp_path: Path, patch: dict[str, Any]) -> Content[BattleRules]:
    return catalog_with(tmp_path, {"resolution": patch})


# ------------------------------------------------------------------------------ armor and Energy


def test_the_heavy_armor_energy_penalty_comes_from_the_content_layer(tmp_path: Path) -> None:
    # rule: SG.DEF.7 — heavy armor lowers maximum Energy by the Defense table's penalty, offset by
    # Physique; rule: SG.RND.1 — each round resets Energy to that maximum; rule: SG.DEF.1 — the table is
    # data. The samurai (Veteran 10, heavy armor, Physique +1): bundled −1 + 1 = 10; a layer's penalty 3
    # gives 10 − (3 − 1) = 8, in the energy_reset event, its steps and the unit's Energy.
    bundled = battle(GENZABURO, foe("samurai"))
    assert reset(bundled, "foe").data["energy"] == 10
    content = defense_layer(tmp_path, {"armor": {"rows": {"heavy": {"energy_penalty": 3}}}})
    f = battle(GENZABURO, foe("samurai"), content=content)
    event = reset(f, "foe")
    assert event.rule == "SG.RND.1" and event.data["energy"] == 8
    armor = event.data["armor"][-1]
    assert armor["rule"] == "SG.DEF.7" and armor["value"] == 8 and "maximum Energy −3" in armor["reason"]
    assert f.u("foe").energy == f.u("foe").max_energy == 8


def test_the_heavy_armor_energy_penalty_comes_from_the_scenarios_content_block(tmp_path: Path) -> None:
    # rule: SG.DEF.7 — the same override in the scenario's own `content:` block (merged last, over a
    # `--content` layer that sets another value): the battle opened by kassen.open_fight uses it
    layer = tmp_path / "layer"
    layer.mkdir()
    (layer / "mine.yaml").write_text(
        yaml.safe_dump({"defense": {"armor": {"rows": {"heavy": {"energy_penalty": 2}}}}}), encoding="utf-8"
    )
    data = {
        "ruleset": "sengoku",
        "content": {"defense": {"armor": {"rows": {"heavy": {"energy_penalty": 4}}}}},
        "name": "heavy",
        "sides": [{"id": "a", "name": "A", "allies": True}, {"id": "b", "name": "B"}],
        "units": [{"creature": "samurai", "side": "a"}, {"creature": "oni", "side": "b"}],
    }
    path = tmp_path / "heavy.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    fight = kassen.open_fight(str(path), seed=1, content=[str(layer)])
    fight.step()  # Begin: round 1, every unit's Energy reset
    [reset_event] = [e for e in fight.events if e.kind == "energy_reset" and e.data["unit"] == "samurai"]
    assert reset_event.data["energy"] == 10 - (4 - 1)
    assert fight.state.unit("samurai").max_energy == 7


def test_physique_may_turn_the_penalty_into_a_bonus(tmp_path: Path) -> None:
    # rule: SG.DEF.7 — `energy.penalty_can_become_bonus: true`: a samurai of Physique +3 in heavy armor
    # has 10 − (1 − 3) = 12 Energy (the house default stops the offset at 0: 10)
    strong = foe("samurai", overrides={**NO_FATE, "attributes": {"physique": 3}})
    assert reset(battle(GENZABURO, strong), "foe").data["energy"] == 10
    content = defense_layer(tmp_path, {"energy": {"penalty_can_become_bonus": True}})
    assert reset(battle(GENZABURO, strong, content=content), "foe").data["energy"] == 12


def test_a_negative_physique_may_deepen_the_penalty(tmp_path: Path) -> None:
    # rule: SG.DEF.7 — `energy.negative_physique_deepens: true`: a samurai of Physique −1 in heavy armor
    # has 10 − (1 + 1) = 8 Energy (the house default keeps the penalty at 1: 9)
    weak = foe("samurai", overrides={**NO_FATE, "attributes": {"physique": -1}})
    assert reset(battle(GENZABURO, weak), "foe").data["energy"] == 9
    content = defense_layer(tmp_path, {"energy": {"negative_physique_deepens": True}})
    assert reset(battle(GENZABURO, weak, content=content), "foe").data["energy"] == 8


def test_the_armor_rows_defense_comes_from_the_content(tmp_path: Path) -> None:
    # rule: SG.DEF.2 — heavy armor adds its row of the Defense table: bundled +4 (Defense 14), a layer's
    # +7 makes the samurai's Defense 17 against Genzaburo's cut, step by step
    assert cut(battle(GENZABURO, foe("samurai")), (1, 2)).data["defense"] == 14
    content = defense_layer(tmp_path, {"armor": {"rows": {"heavy": {"defense": 7}}}})
    attack = cut(battle(GENZABURO, foe("samurai"), content=content), (1, 2))
    assert attack.data["defense"] == 17
    assert any(
        s["reason"] == "+7 heavy armor" and s["rule"] == "SG.DEF.2" for s in attack.data["defense_steps"]
    )


def test_the_shield_comes_from_the_content(tmp_path: Path) -> None:
    # rule: SG.DEF.2 — a shield adds the table's shield value: the gaijin knight (Elite 10, heavy battle
    # armor +6, shield) has Defense 17 bundled, 19 with a layer's shield +3
    assert cut(battle(GENZABURO, foe("gaijin-knight")), (1, 2)).data["defense"] == 17
    content = defense_layer(tmp_path, {"armor": {"shield": 3}})
    attack = cut(battle(GENZABURO, foe("gaijin-knight"), content=content), (1, 2))
    assert attack.data["defense"] == 19
    assert any(s["reason"] == "+3 shield" for s in attack.data["defense_steps"])


# ------------------------------------------------------------------------------------- reductions


def test_the_defenseless_reduction_comes_from_the_content(tmp_path: Path) -> None:
    # rule: SG.DFL.2 — Defenseless is Defense −N from the table: the Oni (10 + natural armor 2), put
    # Defenseless by the GM (SG.DFL.1), is at 12 − 4 = 8 bundled and 12 − 6 = 6 with a layer's 6
    def against_defenseless(content: Content[BattleRules] | None) -> Event:
        f = battle(GENZABURO, foe("oni"), content=content)
        f.do(GmAddStatus("foe", "defenseless"))
        return cut(f, (1, 2))

    assert against_defenseless(None).data["defense"] == 8
    attack = against_defenseless(defense_layer(tmp_path, {"reductions": {"defenseless": 6}}))
    assert attack.data["defense"] == 6
    assert any(
        s["reason"] == "Defenseless −6" and s["rule"] == "SG.DFL.2" for s in attack.data["defense_steps"]
    )


def test_a_fumble_makes_the_attacker_defenseless_by_the_contents_reduction(tmp_path: Path) -> None:
    # rule: SG.FUM.1 — a fumble makes the attacker Defenseless; rule: SG.DFL.2 — Defense −N from the
    # table: the attack's explanation says −6 under a layer's 6, and the fumbler's Defense is 6 lower
    content = defense_layer(tmp_path, {"reductions": {"defenseless": 6}})
    f = battle(GENZABURO, foe("oni"), content=content)
    attack = cut(f, (2, 2))  # 2 + 2 + 4 = 8 < 12, a double: a Fumble
    assert attack.data["outcome"] == "fumble"
    said = [s for s in attack.data["steps"] if s["rule"] == "SG.DFL.2" and "Defenseless" in s["reason"]]
    assert [s["reason"] for s in said] == ["Defenseless: Defense −6"] and said[0]["value"] == -6
    assert f.u("genzaburo").defenseless
    f.do(Decline(GM))  # no fumble extras; the Oni (10 Energy) breathes next
    events = f.breath("foe", use("heavy-blow", "genzaburo"), faces=(1, 2))
    [blow] = f.of("attack", events)
    assert blow.data["defense"] == 10 + 2 - 6  # PC 10, light armor +2, Defenseless −6


def test_the_minimum_defense_comes_from_the_content(tmp_path: Path) -> None:
    # rule: SG.RD.5 — the minimum bounds the final Defense, Defenseless included; rule: SG.DBF.2 — the
    # minimum is data: a Defenseless gaki (stat-block Defense 6, SG.DEF.6; 3 Wounds, so that it stands)
    # is at 2 bundled, 5 with a layer's minimum 5
    def against_gaki(content: Content[BattleRules] | None) -> Event:
        f = battle(GENZABURO, foe("gaki", overrides={**NO_FATE, "wounds": 3}), content=content)
        f.do(GmAddStatus("foe", "defenseless"))
        return cut(f, (1, 2))

    assert against_gaki(None).data["defense"] == 2
    attack = against_gaki(defense_layer(tmp_path, {"reductions": {"minimum": 5}}))
    assert attack.data["defense"] == 5
    assert attack.data["defense_steps"][-1]["reason"] == "minimum Defense 5"


# ---------------------------------------------------------------------------------------- Wounds


def test_the_wounds_of_a_grade_come_from_the_content(tmp_path: Path) -> None:
    # rule: SG.WND.5 — Wounds by grade are a house default in grades.yaml: a layer's Veteran 7 gives the
    # Oni 7 Wounds (bundled 4) in the state, its energy_reset, and what a hit leaves (SG.WND.1)
    bundled = battle(GENZABURO, foe("oni"))
    assert bundled.u("foe").wounds_max == 4
    content = catalog_with(tmp_path, {"grades": {"grades": {"veteran": {"wounds": 7}}}})
    f = battle(GENZABURO, foe("oni"), content=content)
    assert f.u("foe").wounds == f.u("foe").wounds_max == 7
    assert reset(f, "foe").data["wounds_max"] == 7
    attack = cut(f, (5, 6))  # 15 >= 12: a hit
    assert attack.data["outcome"] == "hit" and (
        attack.data["wounds_before"],
        attack.data["wounds_after"],
    ) == (7, 6)


def test_the_critical_hits_wounds_come_from_the_content(tmp_path: Path) -> None:
    # rule: SG.WND.2 — a Critical Hit reduces the table's critical Wounds; rule: SG.CRT.1 — a double on
    # a hit: bundled 2 (the Oni 4 → 2), a layer's 3 (4 → 1)
    assert cut(battle(GENZABURO, foe("oni")), (5, 5)).data["wounds_after"] == 2
    content = resolution_layer(tmp_path, {"wounds": {"critical": 3}})
    attack = cut(battle(GENZABURO, foe("oni"), content=content), (5, 5))
    assert attack.data["outcome"] == "critical" and attack.data["wounds_after"] == 1
    assert any(
        s["reason"] == "Critical Hit: 3 Wounds" and s["rule"] == "SG.CRT.1" for s in attack.data["steps"]
    )


def test_the_base_hits_wounds_come_from_the_content(tmp_path: Path) -> None:
    # rule: SG.WND.1 — the base hit is the table's `wounds.hit`; rule: SG.WND.3 — a technique stating
    # other Wounds is "its own"; rule: SG.RD.1 — its critical is own + (critical − hit). A layer's base
    # hit 2 makes Horizontal Cut's 1 Wound its own: the hit says so, and its Critical Hit is 1 + (2 − 2)
    # = 1 (bundled: the base critical, 2)
    content = resolution_layer(tmp_path, {"wounds": {"hit": 2}})
    hit = cut(battle(GENZABURO, foe("oni"), content=content), (5, 6))
    assert any("its own" in s["reason"] and s["rule"] == "SG.WND.3" for s in hit.data["steps"])
    assert hit.data["wounds_after"] == 3
    critical = cut(battle(GENZABURO, foe("oni"), content=content), (5, 5))
    assert critical.data["outcome"] == "critical" and critical.data["wounds_after"] == 3
    assert any(s["rule"] == "SG.RD.1" for s in critical.data["steps"])


def test_the_critical_reading_comes_from_the_content(tmp_path: Path) -> None:
    # rule: SG.RD.1 — `wounds.critical_reading: double`: the Oni's Heavy Blow (2 Wounds) scores 4 on a
    # Critical Hit (bundled plus_one: 3); Genzaburo (5 Wounds) is left with 1
    def heavy_blow(content: Content[BattleRules] | None) -> Event:
        f = battle(GENZABURO, foe("oni"), content=content)
        f.do(Pass("genzaburo"))
        events = f.breath("foe", use("heavy-blow", "genzaburo"), faces=(5, 5))  # 10 + 5 = 15 >= 12
        [attack] = f.of("attack", events)
        assert attack.data["outcome"] == "critical"
        return attack

    assert heavy_blow(None).data["wounds_after"] == 5 - 3
    content = resolution_layer(tmp_path, {"wounds": {"critical_reading": "double"}})
    assert heavy_blow(content).data["wounds_after"] == 5 - 4


def test_the_death_check_target_comes_from_the_content(tmp_path: Path) -> None:
    # rule: SG.INP.3 — after combat an Incapacitated unit survives on 2d10 + max(Physique, Fate) >= the
    # table's target: the Oni (Physique 3) rolls 5 + 6 + 3 = 14, alive against 11, dead against 15
    def fallen(content: Content[BattleRules] | None) -> Event:
        f = battle(GENZABURO, foe("oni"), content=content)
        f.do(GmSetWounds("foe", 0), 5, 6)  # the Oni falls, the combat ends, the death check is rolled
        [check] = f.of("death_check")
        return check

    alive = fallen(None)
    assert (alive.data["target"], alive.data["total"], alive.data["survives"]) == (11, 14, True)
    dead = fallen(resolution_layer(tmp_path, {"death_check": {"target": 15}}))
    assert (dead.data["target"], dead.data["total"], dead.data["survives"]) == (15, 14, False)


def test_a_lords_fall_costs_the_contents_cohesion(tmp_path: Path) -> None:
    # rule: SG.INP.2 — a Lord Incapacitated costs squads Cohesion; rule: SG.RD.9 — which squads and how
    # much are data: a layer's 2 takes both of the Lord's squads from 3 to 1 (bundled: 2); with
    # `scope: one_squad` only the first loses it
    def lord_falls(content: Content[BattleRules] | None) -> list[Event]:
        f = battle(
            GENZABURO,
            {"id": "lord", "creature": "lord", "side": "b", "zone": "own-front", "overrides": NO_FATE},
            {"id": "s1", "creature": "ashigaru-squad", "side": "b", "cohesion": 3},
            {"id": "s2", "creature": "ashigaru-squad", "side": "b", "cohesion": 3},
            content=content,
        )
        events = f.do(GmSetWounds("lord", 0))
        return [e for e in events if e.kind == "cohesion" and e.rule == "SG.INP.2"]

    assert [(e.data["unit"], e.data["after"]) for e in lord_falls(None)] == [("s1", 2), ("s2", 2)]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    content = resolution_layer(tmp_path / "a", {"lord_fall": {"cohesion_loss": 2}})
    assert [(e.data["unit"], e.data["after"]) for e in lord_falls(content)] == [("s1", 1), ("s2", 1)]
    one = resolution_layer(tmp_path / "b", {"lord_fall": {"cohesion_loss": 2, "scope": "one_squad"}})
    assert [(e.data["unit"], e.data["after"]) for e in lord_falls(one)] == [("s1", 1)]


def test_a_lord_felled_behind_the_target_costs_the_contents_cohesion(tmp_path: Path) -> None:
    # rule: SG.CRT.2 — a teppo's Critical Hit also takes 1 Wound from the enemy behind; rule: SG.INP.2 —
    # a Lord felled so costs the layer's 2 Cohesion, as the Wounds' own account says
    content = resolution_layer(tmp_path, {"lord_fall": {"cohesion_loss": 2}})
    f = battle(
        {"creature": "ashigaru-gunner", "side": "a", "overrides": NO_FATE},
        foe("samurai", zone="core"),
        {"id": "lord", "creature": "lord", "side": "b", "zone": "core", "overrides": NO_FATE},
        {"id": "s1", "creature": "ashigaru-squad", "side": "b", "zone": "enemy-rear", "cohesion": 3},
        content=content,
    )
    f.do(GmSetWounds("lord", 1))
    while f.decider != "ashigaru-gunner":
        f.do(Pass(f.decider or ""))
    events = f.breath("ashigaru-gunner", use("teppo-shot", "foe"), faces=(9, 9))  # a Critical Hit
    [behind] = f.of("behind", events)
    assert behind.data["unit"] == "lord" and f.u("lord").incapacitated
    [loss] = f.of("cohesion_loss", events)
    assert loss.data["amount"] == 2 and f.u("s1").cohesion == 1


def test_a_lord_felled_by_a_blow_costs_the_contents_cohesion(tmp_path: Path) -> None:
    # rule: SG.INP.2 — the attack resolution says what the Lord's fall costs (cohesion_loss) and the
    # battle takes it from the squads: both the layer's 2
    content = resolution_layer(tmp_path, {"lord_fall": {"cohesion_loss": 2}})
    f = battle(
        GENZABURO,
        {"id": "foe", "creature": "lord", "side": "b", "zone": "own-front", "overrides": NO_FATE},
        {"id": "s1", "creature": "ashigaru-squad", "side": "b", "cohesion": 3},
        content=content,
    )
    f.do(GmSetWounds("foe", 1))
    f.do(Pass("foe"))  # the Lord (12 Energy) is first at the count
    attack = cut(f, (5, 6))  # 15 against 10 + heavy armor 4 + shoulder catch 1 = 15: a hit
    assert attack.data["outcome"] == "hit" and f.u("foe").incapacitated
    [loss] = f.of("cohesion_loss")
    assert loss.rule == "SG.INP.2" and loss.data["amount"] == 2
    assert f.u("s1").cohesion == 1


def test_last_bastion_is_offered_by_the_contents_critical_wounds(tmp_path: Path) -> None:
    # rule: SG.FAT.2 — Last Bastion is offered when the hit check would take the target's last Wounds;
    # rule: SG.WND.2 — a Critical Hit's Wounds from the table: against an Oni at 3 Wounds with a Fate
    # point, a Critical Hit of 2 (bundled) leaves it standing, no offer; a layer's 3 would fell it: the
    # offer is made, naming the 3 Wounds due
    def critical_on(content: Content[BattleRules] | None) -> tuple[Fight, list[Event]]:
        f = battle(GENZABURO, foe("oni", wounds=3, overrides={"fate_points": 1}), content=content)
        return f, f.breath("genzaburo", use("horizontal-cut", "foe"), faces=(5, 5))

    f, events = critical_on(None)
    assert not f.of("last_bastion_offered", events) and f.u("foe").wounds == 1
    f, events = critical_on(resolution_layer(tmp_path, {"wounds": {"critical": 3}}))
    [offer] = f.of("last_bastion_offered", events)
    assert offer.rule == "SG.FAT.2" and offer.data["wounds"] == 3 and f.decider == "foe"


def test_the_doubles_readings_come_from_the_content(tmp_path: Path) -> None:
    # rule: SG.RD.4 — a double 1 on a success: a Critical Hit (house) or a Fumble with Karmic
    # Retribution (`doubles.double_one_success: karmic_retribution`); rule: SG.FAT.2 — Last Bastion is
    # offered only against a hit check. Genzaburo's 1-1 + 4 = 6 against a gaki at Defense 6 with 2
    # Wounds and a Fate point: bundled, a Critical Hit of 2 — the gaki is offered its Last Bastion; under
    # the layer's reading, a Fumble (its d100 rolled): no offer
    gaki = foe("gaki", wounds=2, overrides={"wounds": 2, "fate_points": 1})
    f = battle(GENZABURO, gaki)
    events = f.breath("genzaburo", use("horizontal-cut", "foe"), faces=(1, 1))
    [offer] = f.of("last_bastion_offered", events)
    assert offer.data["outcome"] == "critical"
    content = resolution_layer(tmp_path, {"doubles": {"double_one_success": "karmic_retribution"}})
    f = battle(GENZABURO, gaki, content=content)
    events = f.breath("genzaburo", use("horizontal-cut", "foe"), faces=(1, 1, 50))
    assert not f.of("last_bastion_offered", events)
    [attack] = f.of("attack", events)
    assert attack.data["outcome"] == "fumble" and f.of("critical_mistake", events)


# ------------------------------------------------------------------------ Defense −N, [Break], the die


def test_the_debuff_reading_comes_from_the_content(tmp_path: Path) -> None:
    # rule: SG.RD.3 — the same source triggering again accumulates (house) or renews; rule: SG.DBF.1 —
    # Defense −N: two Chain Binds on the Oni leave Defense −4 bundled, −2 under a layer's `renew`
    def two_binds(content: Content[BattleRules] | None) -> list[int]:
        f = battle({"creature": "dokuchushi", "side": "a", "overrides": NO_FATE}, foe("oni"), content=content)
        bind = use("chain-bind", "foe")
        events = f.breath("dokuchushi", bind, bind, faces=(5, 6, 5, 6))  # 11 + 3 = 14: two hits
        return [e.data["total"] for e in f.of("debuff", events)]

    assert two_binds(None) == [2, 4]
    assert two_binds(defense_layer(tmp_path, {"debuffs": {"each_round": "renew"}})) == [2, 2]


def test_the_equipment_grade_order_comes_from_the_content(tmp_path: Path) -> None:
    # rule: SG.BRK.5 — the grade order is data; rule: SG.BRK.3 — a [Break] of a lower grade is void;
    # rule: SG.BRK.2 — else the [Pierce] stays on the armor. The Oni's ordinary kanabo against a
    # samurai in masterwork heavy armor: Crushing Blow's [Break] is void bundled (ordinary 0 <
    # masterwork 1); a layer ranking masterwork 0 lets it take the 3 points, and a decisive moment row's
    # [Break] on another enemy in the zone (masterwork too) takes its 2
    guard = {"id": "guard", "creature": "samurai", "side": "b", "zone": "own-front"}
    masterwork = {"armor": "masterwork-heavy-armor"}

    def crushing_blow(content: Content[BattleRules] | None) -> Fight:
        f = battle(
            {"creature": "oni", "side": "a", "overrides": NO_FATE},
            foe("samurai", overrides={**NO_FATE, **masterwork}),
            {**guard, "overrides": {**NO_FATE, **masterwork}},
            content=content,
        )
        while f.decider != "oni":
            f.do(Pass(f.decider or ""))
        # 5 + 6 + 5 = 16 against 14 − [Pierce 3] = 11: a hit
        f.breath("oni", use("crushing-blow", "foe"), faces=(5, 6))
        return f

    bundled = crushing_blow(None)
    assert bundled.u("foe").armor_damage == 0 and bundled.of("armor_holds")[0].rule == "SG.BRK.3"
    row = {
        "low": 1,
        "high": 100,
        "name": "Splinters",
        "effect": "Another enemy's armor takes [Pierce 2] + [Break].",
        "effects": [{"kind": "break-armor", "who": "another-enemy", "amount": 2}],
    }
    content = catalog_with(
        tmp_path,
        {
            "defense": {"equipment_grades": {"ranks": {"masterwork": 0}}},
            "resolution": {"decisive_moment": {"rows": [row]}},
        },
    )
    f = crushing_blow(content)
    assert f.u("foe").armor_damage == 3 and f.of("armor_broken")[0].rule == "SG.BRK.2"
    g = battle(
        {"creature": "oni", "side": "a", "overrides": NO_FATE},
        foe("samurai"),
        {**guard, "overrides": {**NO_FATE, **masterwork}},  # the other enemy in the target's zone
        content=content,
    )
    while g.decider != "oni":
        g.do(Pass(g.decider or ""))
    g.breath("oni", use("heavy-blow", "foe"), faces=(10, 10, 50))  # a Heavenly Mandate: the row
    assert g.u("guard").armor_damage == 2


def test_the_die_of_the_checks_comes_from_the_content(tmp_path: Path) -> None:
    # rule: SG.CHK.1 — 2dN + modifier >= target with the data's die; rule: SG.RET.3 — a pursuit is an
    # opposed check (SG.CHK.3) on the same die: under a layer's d12, faces 12 and 11 are legal rolls
    content = resolution_layer(tmp_path, {"check": {"sides": 12}})
    f = battle(
        {"creature": "kuro", "side": "a", "zone": "own-rear"},
        {"creature": "oni", "side": "b", "zone": "own-front"},
        {"creature": "samurai", "side": "b", "zone": "own-flank"},
        content=content,
    )
    events = f.breath("kuro", use("retreat"), faces=(12, 11, 1, 2))  # 23 + 3 against 3 + 1
    [pursuit] = f.of("pursuit", events)
    assert (pursuit.data["total"], pursuit.data["pursuer_total"]) == (26, 4) and f.u("kuro").retreated


def test_movement_checks_and_their_chances_use_the_contents_die(tmp_path: Path) -> None:
    # rule: SG.CHK.1 — the die is data; rule: SG.ZON.2 — Stealth Movement is 2dN + Finesse +
    # Infiltration >= 11: under a layer's d12 the heuristic weighs it at the d12 chance (Kuro +5: 134/144,
    # not the d10's 90/100), and a breath rolls it with d12 faces
    content = resolution_layer(tmp_path, {"check": {"sides": 12}})
    f = battle({"creature": "kuro", "side": "a"}, {"creature": "oni", "side": "b"}, content=content)
    stealth = f.rules.maneuver("stealth-movement")
    chance = HeuristicPolicy(f.rules).stealth_chance(f.state, f.u("kuro"), stealth)
    assert chance == check_chance(5, 11, sides=12) == Fraction(134, 144) != check_chance(5, 11)
    events = f.breath("kuro", use("stealth-movement", to="own-flank"), faces=(12, 11))
    [moved] = f.of("move", events)
    check = moved.data["check"]
    assert (check["faces"], check["total"]) == ([12, 11], 28) and f.u("kuro").zone == "own-flank"
    assert [s["reason"] for s in check["steps"][2:4]] == ["first d12", "second d12"]


# ------------------------------------------------------------------------------------- Aim Focus


def test_the_breath_limit_of_aim_focus_comes_from_the_content(tmp_path: Path) -> None:
    # rule: SG.AIM.3 — Aim Focus N is capped by Finesse, and the breath's limit says when it overloads;
    # rule: SG.BRT.2 — past the limit, an overload check. The gaijin archer (Finesse +2) with the
    # Thousand-Year Arrow (cost 4): bundled limit 5 lists N = 1 and a 6-Energy breath overloads; a
    # layer's limit 7 lists N = 2 and the same breath stays within it, as its Aim Focus steps say
    def archer(content: Content[BattleRules] | None) -> Fight:
        return battle(
            {"creature": "gaijin-archer", "side": "a", "overrides": NO_FATE},
            foe("oni", zone="enemy-front"),
            content=content,
        )

    def aims(f: Fight) -> set[int]:
        return {
            u.aim for a in f.legal() for u in getattr(a, "uses", ()) if u.maneuver == "thousand-year-arrow"
        }

    arrow = use("thousand-year-arrow", "foe", aim=2)
    bundled = archer(None)
    assert max(aims(bundled)) == 1
    events = bundled.breath("gaijin-archer", arrow, faces=(1, 2, 1, 2))  # the shot, then the overload check
    assert [e.data["limit"] for e in bundled.of("overload_check", events)] == [5]
    content = defense_layer(tmp_path, {"aim_focus": {"breath_limit": 7}})
    f = archer(content)
    assert max(aims(f)) == 2
    events = f.breath("gaijin-archer", arrow, faces=(1, 2))
    assert not f.of("overload_check", events)
    [attack] = f.of("attack", events)
    assert any("of the limit 7" in s["reason"] for s in attack.data["aim_steps"])


# ------------------------------------------------------------------------------------ d100 tables


def test_the_decisive_moment_rows_come_from_the_content(tmp_path: Path) -> None:
    # rule: SG.CRT.4 — a Heavenly Mandate (double 10 on a hit) rolls the table's d100: a layer's one-row
    # table (Heaven's Gift: the attacker gains 3 Fate) is the row rolled and its effect is applied
    row = {
        "low": 1,
        "high": 100,
        "name": "Heaven's Gift",
        "effect": "The attacker gains 3 Fate points.",
        "effects": [{"kind": "fate", "who": "attacker", "amount": 3}],
    }
    content = resolution_layer(tmp_path, {"decisive_moment": {"rows": [row]}})
    f = battle(GENZABURO, foe("oni"), content=content)
    events = f.breath("genzaburo", use("horizontal-cut", "foe"), faces=(10, 10, 50))
    [table] = f.of("decisive_moment", events)
    assert table.rule == "SG.CRT.4" and table.data["name"] == "Heaven's Gift"
    assert f.u("genzaburo").fate_points == 3


def test_the_critical_mistake_rows_come_from_the_content(tmp_path: Path) -> None:
    # rule: SG.FUM.3 — a Karmic Retribution (double 1 on a miss) rolls the table's d100: a layer's
    # one-row table (Spent: the roller loses 3 Energy) is the row rolled and the battle applies it
    row = {
        "low": 1,
        "high": 100,
        "name": "Spent",
        "effect": "The roller loses 3 Energy.",
        "effects": [{"kind": "energy", "who": "attacker", "amount": -3}],
    }
    content = resolution_layer(tmp_path, {"critical_mistake": {"rows": [row]}})
    f = battle(GENZABURO, foe("oni"), content=content)
    events = f.breath("genzaburo", use("horizontal-cut", "foe"), faces=(1, 1, 50))
    [table] = f.of("critical_mistake", events)
    assert table.rule == "SG.FUM.3" and table.data["name"] == "Spent"
    assert f.u("genzaburo").energy == 11 - 2 - 3


# ------------------------------------------------------------------------- menus and the heuristic


def test_the_menus_odds_and_the_heuristic_read_the_contents_armor(tmp_path: Path) -> None:
    # rule: SG.DEF.2 — the table's armor row; rule: SG.CHK.1 — the exact odds of the attack: the menu's
    # preview of Genzaburo's cut on the samurai is at Defense 17 under a layer's heavy armor +7, its
    # chances those of the content's odds table, and the heuristic prices the cut the same way
    content = defense_layer(tmp_path, {"armor": {"rows": {"heavy": {"defense": 7}}}})
    f = battle(GENZABURO, foe("samurai"), content=content)
    cut_it = (use("horizontal-cut", "foe"),)
    preview = attack_preview(f.rules, f.state, "genzaburo", cut_it, 0)
    assert preview is not None and (preview.modifier, preview.defense) == (4, 17)
    tech = f.rules.technique(f.u("genzaburo"), f.rules.maneuver("horizontal-cut"))
    assert preview.chances == f.rules.odds.attack(4, 17, tech)
    heuristic = HeuristicPolicy(f.rules)
    value = heuristic.attack_value(f.state, f.u("genzaburo"), cut_it[0], "own-front")
    assert value == f.rules.odds.attack(4, 17, tech).expected_wounds


# ------------------------------------------------------------------------------ no bundled tables


@pytest.mark.parametrize("name", ["demo", "burning-temple", "count-example"])
def test_a_battle_never_reads_the_bundled_tables(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # rule: SG.DEF.1 — the Defense table; rule: SG.WND.5 — the grade table; rule: SG.CRT.4 — the
    # resolution data: once the content is loaded, a battle, its menus and odds and its heuristic never
    # fall back to the bundled tables (the loaders fail if asked), so whatever the content says is what
    # every rule reads
    fight = kassen.open_fight(f"sengoku/{name}", seed=3)

    def bundled(*_: object) -> Any:
        raise AssertionError("a battle reached for the bundled tables instead of its content's")

    for module in ("defense_rules", "resolution", "grades"):
        monkeypatch.setattr(f"kassen.sengoku.{module}._bundled", bundled)
    monkeypatch.setattr("kassen.sengoku.odds._bundled_table", bundled)
    menus = 0
    while not fight.over:
        if menus < 30:
            for option in fight.menu().options:
                if option.allowed and not option.complete:
                    fight.menu([option.id])
            menus += 1
        fight.step()
    assert fight.result is not None and menus > 5
