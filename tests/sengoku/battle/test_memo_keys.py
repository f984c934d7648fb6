"""The content's readings of a unit's template are remembered by exactly what they read: each is worked
out by a method handed its memo key (``*key``: the unit's creature id and spec, a maneuver's id in this
catalog, zones and weapons by value) and nothing of the unit or the state, so a rule that comes to read
one more field of a unit must add it to the key. And each remembered answer is the one worked out on fresh
content for every unit of every state of played battles, whatever else differs between those units."""

from __future__ import annotations

import ast
import inspect
import typing
from pathlib import Path

from kassen.core.scenario import open_fight
from kassen.sengoku.battle import rules as rules_module
from kassen.sengoku.battle import values as values_module
from kassen.sengoku.battle.flow import rounds as rounds_module
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Unit
from kassen.sengoku.house import ZoneApplies


def _puts(module: object) -> list[ast.Call]:
    tree = ast.parse(Path(inspect.getfile(module)).read_text(encoding="utf-8"))  # type: ignore[arg-type]
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "put"
    ]


def test_each_remembered_template_reading_is_a_method_of_its_memo_key_alone() -> None:
    # rule: SG.CNT.4 (the tie keys), SG.BRT.1 (the maneuvers a unit knows), SG.DEF.7 (maximum Energy)
    puts = _puts(rules_module)
    assert len(puts) >= 8
    for put in puts:
        key, made = put.args
        assert isinstance(made, ast.Call) and isinstance(made.func, ast.Attribute), ast.unparse(put)
        assert ast.unparse(made.args[0]) == f"*{ast.unparse(key)}", ast.unparse(put)
        hints = typing.get_type_hints(getattr(BattleRules, made.func.attr))
        hints.pop("return")
        assert hints, made.func.attr
        for arg, kind in hints.items():
            assert kind not in (Unit, BattleState), (made.func.attr, arg)  # plain values, not records
    # and no reading of the heuristic or the rounds is keyed by an object's identity
    for module in (rules_module, values_module, rounds_module):
        tree = ast.parse(Path(inspect.getfile(module)).read_text(encoding="utf-8"))
        called = {
            n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        assert "id" not in called, module.__name__


def test_remembered_template_readings_are_fresh_contents_own_for_every_unit() -> None:
    # rule: SG.CNT.4, SG.BRT.1, SG.DEF.7, SG.ZON.1 — units of one template differ in everything a fight
    # changes (Wounds, Energy, zone, stances, setup order): the warm content's answers are fresh content's
    compared = 0
    for source, seed in (("demo", 1), ("burning-temple", 0)):
        fight = open_fight(source, seed=seed)
        fight.autoplay()
        warm: BattleRules = fight.tables  # type: ignore[assignment]
        for state in fight.states[::3]:
            for unit in state.units:
                fresh = BattleRules(warm.catalog)
                assert warm.tie_key(state, unit) == fresh.tie_key(state, unit), unit.id
                assert warm.creature(unit) == fresh.creature(unit)
                assert warm.known(unit) == fresh.known(unit)
                assert warm.armor_max_energy(unit) == fresh.armor_max_energy(unit)
                for weapon in (None, "", *warm.creature(unit).weapons):
                    assert warm.base_profile(unit, weapon) == fresh.base_profile(unit, weapon), weapon
                for mid in warm.known(unit)[:6]:
                    m = warm.maneuver(mid)
                    assert warm.technique(unit, m) == fresh.technique(unit, m)
                    assert warm.carriers(unit, m) == fresh.carriers(unit, m)
                    if unit.zone is not None:
                        zone = state.zone(unit.zone)
                        for applies in (ZoneApplies.CHECK, ZoneApplies.ENERGY):
                            assert warm.zone_effects(unit, m, applies, zone) == fresh.zone_effects(
                                unit, m, applies, zone
                            )
                compared += 1
    assert compared > 200
