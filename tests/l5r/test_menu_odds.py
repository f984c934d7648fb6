"""Odds before committing (issue 11): every attack a menu offers carries its exact outcome distribution —
the chance to hit with its raises met, to beat the TN without them, to take the target down, the
expected Wounds and wound ranks — computed by the rule functions that resolve it. They equal the
frequencies over many resolutions of the same declaration (kassen.core.engine.advance, each with its
own seed) within 4 standard errors, and the single-attack calculators of ``kassen l5r``."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from kassen import open_fight
from kassen.cli.main import app
from kassen.core.engine import Snapshot, advance
from kassen.core.fight import Fight
from kassen.core.menu import Odds, Option
from kassen.core.rng import Rng
from kassen.l5r.actions import Attack, Declare, ThroatStrike
from kassen.l5r.odds import attack_preview, declared_state
from kassen.l5r.ruleset import RULESET
from kassen.l5r.scenario import bundled_scenarios
from kassen.l5r.validate import free_raises_for, validate_attack

runner = CliRunner()


def _duel(*, hida_wounds: int, hida_declares: Sequence[str]) -> Fight[Any, Any]:
    """kakita-vs-hida, seed 3: Hida Kuroda declares first, Kakita Toshiro last — so Kakita's attack
    resolves first, with the duel as it stands when he declares it."""
    fight = open_fight("l5r/kakita-vs-hida", seed=3)
    fight.choose(["begin"])
    if hida_wounds:
        fight.choose(["gm_set_wounds", "Hida Kuroda", str(hida_wounds)], gm=True)
    fight.choose(list(hida_declares))
    assert fight.to_move is not None and fight.to_move.id == "Kakita Toshiro"
    assert fight.state.act_order[0] == "Kakita Toshiro"
    return fight


@dataclass
class Tally:
    n: int = 0
    hit: int = 0
    unraised: int = 0
    down: int = 0
    wounds: list[int] | None = None
    ranks: list[int] | None = None


def _resolve(fight: Fight[Any, Any], path: Sequence[str], n: int) -> tuple[Odds, Tally]:
    """The odds shown for ``path``, and what ``n`` resolutions of that declaration did."""
    parent = fight.menu(path[:-1])
    option = next(o for o in parent.options if o.id == path[-1])
    assert option.complete and option.odds is not None
    action = RULESET.decision(fight.state, fight.tables, path)
    assert isinstance(action, Declare) and isinstance(action.act, Attack)
    me, target = action.actor, action.act.target
    names = [r.name for r in fight.tables.core.wound_ranks.ranks] + ["Dead rank", "Dead"]
    start = names.index(_rank_name(fight, target))
    per = fight.tables.core.raises.tn_per_raise
    tally = Tally(wounds=[], ranks=[])
    snap = fight.snapshot
    for i in range(n):
        _, events = advance(RULESET, fight.tables, Snapshot(snap.state, Rng(1_000_003 + i).state), action)
        at = next(k for k, e in enumerate(events) if e.kind == "attack" and e.data["attacker"] == me)
        attack = events[at].data
        paid = attack["raises"] - attack["free_raises"]
        tally.n += 1
        tally.hit += attack["hit"]
        tally.unraised += attack["roll"] >= attack["tn"] - paid * per
        taken, rank, down = 0, names[start], False
        for e in events[at + 1 :]:
            if e.kind in ("attack", "turn"):
                break
            if e.data.get("fighter") == target and e.kind == "wounds":
                taken, rank = e.data["wounds"], e.data["rank"]
            down |= e.data.get("fighter") == target and e.kind in ("out", "dying", "death")
        tally.down += down
        assert tally.wounds is not None and tally.ranks is not None
        tally.wounds.append(taken)
        tally.ranks.append(names.index(rank) - start)
    return option.odds, tally


def _rank_name(fight: Fight[Any, Any], name: str) -> str:
    from kassen.l5r.rolls import rank

    return rank(fight.state.fighter(name), fight.tables).name


def _within(tally: Tally, odds: Odds, k: float) -> dict[str, tuple[float, float, float]]:
    """Each outcome and expectation: (shown, observed, standard errors apart); asserts ``k``."""
    outcomes, expected = dict(odds.outcomes), dict(odds.expected)
    observed = {"hit": tally.hit, "TN before raises": tally.unraised, "target down": tally.down}
    out: dict[str, tuple[float, float, float]] = {}
    for key, p in outcomes.items():
        freq = observed[key] / tally.n
        se = math.sqrt(float(p * (1 - p)) / tally.n)
        out[key] = (float(p), freq, abs(freq - float(p)) / se if se else 0.0)
        assert abs(freq - float(p)) <= k * se or (se == 0 and freq == float(p)), (key, float(p), freq)
    for key, values in (("Wounds", tally.wounds), ("wound ranks", tally.ranks)):
        assert values is not None
        mean = sum(values) / len(values)
        var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
        se = math.sqrt(var / len(values))
        e = float(expected[key])
        out[key] = (e, mean, abs(mean - e) / se if se else 0.0)
        assert abs(mean - e) <= k * se, (key, e, mean, se)
    return out


def test_every_attack_on_a_menu_carries_its_odds_and_nothing_else_does() -> None:
    # rule: L5.CORE.2 — the chance is P(pool >= TN), exact; rule: L5.CORE.5 — and the damage it deals
    for scenario in bundled_scenarios():
        fight = open_fight(f"l5r/{scenario}", seed=2)
        for _ in range(4):
            if fight.over:
                break
            for path, option in _complete_options(fight):
                action = RULESET.decision(fight.state, fight.tables, path)
                attack_like = (isinstance(action, Declare) and isinstance(action.act, Attack)) or isinstance(
                    action, ThroatStrike
                )
                assert (option.odds is not None) == attack_like, (scenario, path)
                if option.odds is not None:
                    hit = dict(option.odds.outcomes)["hit"]
                    assert isinstance(hit, Fraction) and 0 <= hit <= 1
                    assert option.odds == RULESET.odds(fight.state, fight.tables, action)
            fight.step()


def _complete_options(
    fight: Fight[Any, Any], path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], Option]]:
    out: list[tuple[tuple[str, ...], Option]] = []
    for o in fight.menu(path).options:
        out += [((*path, o.id), o)] if o.complete else _complete_options(fight, (*path, o.id))
    return out


def _complete_paths(fight: Fight[Any, Any]) -> list[tuple[str, ...]]:
    return [path for path, _ in _complete_options(fight)]


def test_the_hit_chance_equals_the_odds_calculator_of_the_cli() -> None:
    # rule: L5.CORE.3 — the TN plus 5 per raise: `kassen l5r odds POOL --tn TN --raises R` says the same
    fight = _duel(hida_wounds=0, hida_declares=["wait"])
    t, state = fight.tables, fight.state
    checked = 0
    for path in _complete_paths(fight):
        action = RULESET.decision(state, t, path)
        preview = attack_preview(state, t, action)
        if preview is None:
            continue
        assert isinstance(action, Declare) and isinstance(action.act, Attack)
        now = declared_state(state, action)
        me = now.fighter(action.actor)
        free = free_raises_for(me, action.act.target, me.declarations_made)
        plan = validate_attack(now, me, action.act, t, free=free)
        unraised = preview.tn - plan.paid * t.core.raises.tn_per_raise
        args = ["l5r", "odds", preview.pool.expression(), "--tn", str(unraised), "--raises", str(plan.paid)]
        result = runner.invoke(app, [*args, "--json"])
        assert result.exit_code == 0, result.output
        odds = dict(preview.odds.outcomes)
        assert Fraction(json.loads(result.stdout)["fraction"]) == odds["hit"]
        if plan.paid:
            again = runner.invoke(
                app, ["l5r", "odds", preview.pool.expression(), "--tn", str(unraised), "--json"]
            )
            assert Fraction(json.loads(again.stdout)["fraction"]) == odds["TN before raises"]
        checked += 1
    assert checked >= 10


def test_the_hit_chance_equals_the_single_attack_of_the_cli() -> None:
    # rule: L5.DMG.1 — Kakita's attack with one raise for damage, as `kassen l5r attack` reads it
    fight = _duel(hida_wounds=0, hida_declares=["wait"])
    menu = fight.menu(["attack", "none", "none"])
    shown = _odds(next(o for o in menu.options if o.id == "1").odds)
    k = fight.state.fighter("Kakita Toshiro").character
    h = fight.state.fighter("Hida Kuroda").character
    args = [
        "l5r", "attack", "--agility", str(k.agility), "--skill", str(k.weapon_skill),
        "--strength", str(k.strength), "--void", str(k.void), "--weapon", k.weapon.damage,
        "--damage-raises", "1", "--target-reflexes", str(h.reflexes), "--target-armor", h.armor,
        "--target-earth", "3", "--seed", "1", "--json",
    ]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert Fraction(json.loads(result.stdout)["fraction"]) == shown["hit"]


def test_a_full_defense_already_declared_is_counted_exactly() -> None:
    # rule: L5.CORE.7 — its bonus is rolled before any action: the chance is the mixture over that roll
    open_duel = _duel(hida_wounds=0, hida_declares=["wait"])
    plain = _odds(open_duel.menu(["attack", "none", "none"]).options[1].odds)
    fight = _duel(hida_wounds=0, hida_declares=["full_defense"])
    option = fight.menu(["attack", "none", "none"]).options[1]
    assert (
        "TN 25 + Full Defense" in option.label
        and "TN 25," in open_duel.menu(["attack", "none", "none"]).options[1].label
    )
    guarded = _odds(option.odds)
    assert 0 < guarded["hit"] < plain["hit"]


def _odds(odds: Odds | None) -> dict[str, Fraction]:
    assert odds is not None
    return dict(odds.outcomes)


def _report(found: dict[str, tuple[float, float, float]]) -> str:
    return "; ".join(f"{k}: shown {a:.5f}, observed {b:.5f} ({c:.2f} SE)" for k, (a, b, c) in found.items())


def test_odds_match_the_frequencies_of_a_few_thousand_resolutions() -> None:
    # rule: L5.CORE.6 — the wound ranks a blow moves the target down; always on: fewer, a wider margin
    fight = _duel(hida_wounds=40, hida_declares=["full_defense"])
    odds, tally = _resolve(fight, ["attack", "none", "none", "1"], 1_500)
    found = _within(tally, odds, 5.0)
    assert set(found) == {"hit", "TN before raises", "target down", "Wounds", "wound ranks"}
    fight = _duel(hida_wounds=0, hida_declares=["wait"])
    odds, tally = _resolve(fight, ["attack", "none", "torso", "0"], 1_500)
    _within(tally, odds, 5.0)


@pytest.mark.slow
def test_odds_match_the_frequencies_of_100000_resolutions() -> None:
    # rule: L5.CORE.3 — hit with the raise met, the TN without it; the blow's Wounds and ranks
    fight = _duel(hida_wounds=40, hida_declares=["full_defense"])
    odds, tally = _resolve(fight, ["attack", "none", "none", "1"], 100_000)
    found = _within(tally, odds, 4.0)
    print(_report(found))
