"""Odds before committing (issue 11): every attack a breath's menu offers carries, once its target is
chosen, its exact outcome distribution — hit, Critical Hit, Fumble, the target down and the expected
Wounds — read at the Defense and modifier the attack will have at that point of the breath and computed
by the functions that resolve it. They equal the frequencies over many resolutions of the same breath
(the core's ``advance``, each with its own seed) within 4 standard errors, and ``kassen sengoku odds
--modifier M --defense D`` where the two overlap (hit, Critical Hit, Fumble)."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kassen import open_fight
from kassen.cli.main import app
from kassen.core.fight import Fight
from kassen.core.menu import Odds
from kassen.sengoku.battle import RULESET, Breath, DecisionKind
from kassen.sengoku.battle.table.preview import attack_preview
from kassen.sengoku.odds import attack_odds

from .support import SCENARIOS, attacks, duel, resolve

runner = CliRunner()


def _targets(fight: Fight[Any, Any]) -> list[tuple[list[str], Any]]:
    """Every attack's target options at the start of the breath (the first weapon and no Aim Focus
    where those are asked): ``(path, option)``."""
    out = []
    for m in fight.menu().options:
        entry = fight.tables.catalog.maneuvers.get(m.id)
        if not m.allowed or m.complete or entry is None or not entry.attacks:
            continue
        path = [m.id]
        while True:
            menu = fight.menu(path)
            if "choose the target" in menu.prompt:
                out += [([*path, o.id], o) for o in menu.options if o.allowed]
                break
            path.append(next(o.id for o in menu.options if o.allowed))
    return out


def test_every_attack_target_carries_the_odds_of_the_calculator() -> None:
    # rule: SG.CHK.1 — 2d10 + modifier >= Defense, exact; rule: SG.CRT.1 — a double on a hit; rule:
    # SG.FUM.1 — a double on a miss: the same chances `kassen sengoku odds` gives for that modifier and
    # Defense (the calculator's own function, attack_odds)
    seen: set[tuple[int, int]] = set()
    for scenario in SCENARIOS:
        fight = open_fight(f"sengoku/{scenario}", seed=2)
        for _ in range(40):
            if fight.over:
                break
            d = fight.state.decision
            if d is not None and d.kind is DecisionKind.BREATH:
                for path, option in _targets(fight):
                    action = RULESET.decision(fight.state, fight.tables, [*path, "end_breath"])
                    assert isinstance(action, Breath)
                    preview = attack_preview(fight.tables, fight.state, action.unit, action.uses, 0)
                    assert preview is not None and option.odds == preview.odds
                    assert option.odds == RULESET.odds(fight.state, fight.tables, action)
                    if preview.automatic:
                        continue
                    calc = attack_odds(preview.modifier, preview.defense, rules=fight.tables.resolution)
                    shown = dict(option.odds.outcomes)
                    assert (shown["hit"], shown["critical"], shown["fumble"]) == (
                        calc.hit,
                        calc.critical,
                        calc.fumble,
                    )
                    assert f"2d10{preview.modifier:+d} vs Defense {preview.defense}" in option.label
                    seen.add((preview.modifier, preview.defense))
                # a choice that is no attack carries no odds
                assert all(o.odds is None for o in fight.menu().options)
            fight.step()
    assert len(seen) >= 8
    for modifier, defense in sorted(seen)[:6]:  # the command line says the same
        result = runner.invoke(
            app, ["sengoku", "odds", "--modifier", str(modifier), "--defense", str(defense), "--json"]
        )
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        calc = attack_odds(modifier, defense)
        assert (data["hit"], data["critical"], data["fumble"]) == (
            float(calc.hit),
            float(calc.critical),
            float(calc.fumble),
        )


def test_the_odds_read_the_attack_at_its_point_of_the_breath(tmp_path: Path) -> None:
    # rule: SG.MAN.1 — Quick Draw: +2 in the breath its user declared or released a stance; the odds of
    # a Quick Draw after a stance in the same breath count it
    fight = duel(tmp_path, {"overrides": {"wounds": 2}})
    plain = _odds(fight, ["quick-draw", "oni"])
    after = _odds(fight, ["immovable-formation", "quick-draw", "oni"])
    assert plain.modifier + 2 == after.modifier and plain.defense == after.defense
    assert after.chances is not None and plain.chances is not None
    assert after.chances.hit > plain.chances.hit


def _odds(fight: Fight[Any, Any], path: list[str]) -> Any:
    action = RULESET.decision(fight.state, fight.tables, [*path, "end_breath"])
    assert isinstance(action, Breath)
    index = next(i for i, u in enumerate(action.uses) if fight.tables.maneuver(u.maneuver).attacks)
    found = attack_preview(fight.tables, fight.state, action.unit, action.uses, index)
    assert found is not None
    shown = next(o for o in fight.menu(path[:-1]).options if o.id == path[-1])
    assert shown.odds == found.odds
    return found


def _resolve(fight: Fight[Any, Any], path: list[str], n: int) -> tuple[Odds, dict[str, Any]]:
    """The odds shown for the attack ``path`` ends with, and what ``n`` resolutions of the breath did."""
    shown = next(o for o in fight.menu(path[:-1]).options if o.id == path[-1])
    assert shown.odds is not None
    action = RULESET.decision(fight.state, fight.tables, [*path, "end_breath"])
    counts = {"hit": 0, "critical": 0, "fumble": 0, "target down": 0}
    wounds: list[int] = []
    for i in range(n):
        [attack] = attacks(resolve(fight, action, 1_000_003 + i), "genzaburo")
        outcome = attack["outcome"]
        counts["hit"] += outcome in ("hit", "critical")
        counts["critical"] += outcome == "critical"
        counts["fumble"] += outcome == "fumble"
        counts["target down"] += attack["wounds_after"] == 0 < attack["wounds_before"]
        wounds.append(attack["wounds_before"] - attack["wounds_after"])
    return shown.odds, {"n": n, "counts": counts, "wounds": wounds}


def _within(odds: Odds, seen: dict[str, Any], k: float) -> dict[str, tuple[float, float, float]]:
    """Each outcome and the expected Wounds: (shown, observed, standard errors apart); asserts ``k``."""
    n = seen["n"]
    out: dict[str, tuple[float, float, float]] = {}
    for key, p in odds.outcomes:
        freq = seen["counts"][key] / n
        se = math.sqrt(float(p * (1 - p)) / n)
        out[key] = (float(p), freq, abs(freq - float(p)) / se if se else 0.0)
        assert abs(freq - float(p)) <= k * se or (se == 0 and freq == float(p)), (key, float(p), freq)
    values = seen["wounds"]
    mean = sum(values) / n
    se = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    expected = float(dict(odds.expected)["Wounds"])
    out["Wounds"] = (expected, mean, abs(mean - expected) / se if se else 0.0)
    assert abs(mean - expected) <= k * se, ("Wounds", expected, mean, se)
    return out


def _report(found: dict[str, tuple[float, float, float]]) -> str:
    return "; ".join(f"{k}: shown {a:.5f}, observed {b:.5f} ({c:.2f} SE)" for k, (a, b, c) in found.items())


def test_odds_match_the_frequencies_of_a_few_thousand_breaths(tmp_path: Path) -> None:
    # rule: SG.WND.2 — a Critical Hit takes 2 Wounds: against an Oni of 2 Wounds, the target down;
    # rule: SG.CRT.4 — a double 10 rolls the decisive moment (a Decisive Blow incapacitates); always on:
    # fewer breaths, a wider margin
    fight = duel(tmp_path, {"overrides": {"wounds": 2}})
    odds, seen = _resolve(fight, ["thrust", "oni"], 3_000)
    found = _within(odds, seen, 5.0)
    assert set(found) == {"hit", "critical", "fumble", "target down", "Wounds"}
    odds, seen = _resolve(fight, ["immovable-formation", "quick-draw", "oni"], 3_000)
    _within(odds, seen, 5.0)


@pytest.mark.slow
def test_odds_match_the_frequencies_of_100000_breaths(tmp_path: Path) -> None:
    # rule: SG.CHK.2 — doubles: Critical Hit on a hit, Fumble on a miss; rule: SG.WND.4 — Wounds never
    # below 0 (the blow capped by what the target has left)
    fight = duel(tmp_path, {"overrides": {"wounds": 2}})
    for path in (["thrust", "oni"], ["immovable-formation", "quick-draw", "oni"]):
        odds, seen = _resolve(fight, path, 100_000)
        print(path, _report(_within(odds, seen, 4.0)))


def test_an_ambush_from_infiltration_is_a_critical_hit_with_no_check() -> None:
    # rule: SG.AMB.2 — the shinobi's [Ambush]: the first attack while infiltrating, a Critical Hit
    fight = open_fight("sengoku/count-example", seed=4)
    fight.choose(["begin"])
    option = next(o for o in fight.menu(["stealth-movement", "own-front", "stroke-of-fire"]).options)
    assert option.odds is not None and "[Ambush]: a Critical Hit with no check" in option.label
    assert dict(option.odds.outcomes)["critical"] == Fraction(1)
    assert dict(option.odds.expected)["Wounds"] == 2
