"""Odds before committing (issue 11): every attack-like choice on a menu carries its exact outcome
distribution — hit, critical, defended, stun, knock-down, KO, expected injury — computed by the functions
the bout resolves it with; the odds shown equal the frequencies over many resolutions of the same choice
through the core's engine, and the single-attack calculators of the CLI where they overlap."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from kassen.arena.bout import Attack, Grapple, Guts
from kassen.arena.bout.forecast import attack_forecast, choice_odds, guts_chance
from kassen.arena.checks import check_odds
from kassen.arena.fighter import CheckBonus, Guard, GutsBonusPlan, Weapon
from kassen.arena.terms import CheckKind, Condition, DamageType, MatchFormat
from kassen.cli.main import app
from kassen.core.menu import Odds
from kassen.core.scenario import open_fight

from .helpers import begun, edit, fighter
from .table_support import Tally, fight_at, option_of, tally

HT_CHECKS = (CheckKind.DEATH, CheckKind.VITAL, CheckKind.KNOCKDOWN)


def _duel() -> Any:
    fight = open_fight("arena/duel", seed=3)
    fight.step()  # the referee begins: Ryu's slot
    return fight


def _maul(**target: Any) -> Any:
    """A maul (3d+2 crushing) against a fighter at HT 10 with a guts-bonus plan on every HT check a hit
    calls for, in a fight that has begun at the maul's slot; ``target`` changes its state."""
    a = fighter("a", "east", dx=12, skill=15, weapon=Weapon("maul", "none", 3, 2, DamageType.CRUSHING))
    b = fighter("b", "west", ht=10, hp=10, defense=9, guts_bonus=GutsBonusPlan(HT_CHECKS, 2))
    return edit(begun(a, b), "b", **target)


STAND_TALL = CheckBonus("stand tall", 2, HT_CHECKS)
#: Choices whose odds cover every outcome: the duel's torso blow (stun, knock-down; a stun offered in a
#: match), a blow to the skull (a head blow), a maul at the vitals of a fighter at HP 2 (death checks,
#: the vital-organ check, guts and audience bonuses on them), a guarded skull (the arm takes it: crippled,
#: stunned), an all-out attack on a fighter that cannot defend.
CHOICES: list[tuple[str, Any, Any, dict[str, Any] | None]] = [
    ("duel-torso", _duel, Attack("ryu", "ken", "torso"), None),
    ("duel-skull", _duel, Attack("ryu", "ken", "skull"), None),
    (
        "dying-vitals",
        lambda: fight_at(_maul(hp=2, fp=6, check_bonuses=(STAND_TALL,))),
        Attack("a", "b", "vitals"),
        None,
    ),
    (
        "dying-any-bonus",
        lambda: fight_at(
            _maul(hp=2, fp=6, check_bonuses=(STAND_TALL,)),
            {"injury": {"guts": {"one_bonus_per_check": "any"}}},
        ),
        Attack("a", "b", "vitals"),
        None,
    ),
    (
        "guarded-skull",
        lambda: fight_at(_maul(guards=(Guard("left_arm", "skull"),))),
        Attack("a", "b", "skull"),
        None,
    ),
    ("undefended", lambda: fight_at(_maul(no_defense=True)), Attack("a", "b", "torso", all_out=True), None),
]  # fmt: skip


def _close(odds: Odds, t: Tally, sigmas: float) -> list[str]:
    """The outcomes whose frequency is more than ``sigmas`` standard errors from the odds (a certain or
    impossible outcome must be exact)."""
    bad = []
    for name, p in odds.outcomes:
        freq = Fraction(t.counts[name], t.n)
        se = math.sqrt(float(p * (1 - p)) / t.n)
        if (se == 0 and freq != p) or abs(float(freq - p)) > sigmas * se:
            bad.append(f"{name}: odds {float(p):.4f}, frequency {float(freq):.4f} over {t.n}")
    [(_, mean)] = odds.expected
    got = t.injury / t.n
    var = t.injury_sq / t.n - got * got
    se = math.sqrt(var / t.n) if var > 0 else 0.0
    if (se == 0 and got != mean) or abs(got - float(mean)) > sigmas * se:
        bad.append(f"injury: expected {float(mean):.4f}, mean {got:.4f} over {t.n}")
    return bad


def _shown(name: str) -> tuple[Any, Any, Odds]:
    make, action = next((m, a) for n, m, a, _ in CHOICES if n == name)
    fight = make()
    _, option = option_of(fight, action)
    assert option.odds is not None
    return fight, action, option.odds


@pytest.mark.parametrize("name", [c[0] for c in CHOICES])
def test_the_odds_shown_match_the_frequencies_of_the_same_choice(name: str) -> None:
    # rule: AR.CORE.2, AR.GAP.2, AR.INJ.5, AR.INJ.6, AR.INJ.7, AR.INJ.8, AR.INJ.9, AR.HP.3, AR.HP.4
    # rule: AR.GUT.3, AR.RD.6
    # always on: 2,000 resolutions each, within 5 standard errors (the slow test: 100,000 within 4)
    fight, action, odds = _shown(name)
    assert not _close(odds, tally(fight, action, 2000), 5.0)


@pytest.mark.slow
@pytest.mark.parametrize("name", [c[0] for c in CHOICES])
def test_the_odds_shown_match_100000_resolutions_within_4_standard_errors(name: str) -> None:
    # rule: AR.CORE.2, AR.INJ.5, AR.INJ.6, AR.INJ.8, AR.INJ.9, AR.HP.3, AR.HP.4
    fight, action, odds = _shown(name)
    t = tally(fight, action, 100_000, first_seed=1 << 32)
    bad = _close(odds, t, 4.0)
    assert not bad, bad


def test_the_choices_cover_every_outcome() -> None:
    # the frequency tests above mean something only if each outcome is possible in one of them
    seen: dict[str, Fraction] = {}
    for name, *_ in CHOICES:
        _, _, odds = _shown(name)
        for k, p in odds.outcomes:
            seen[k] = max(seen.get(k, Fraction(0)), p)
    assert all(0 < p < 1 for p in seen.values()), seen
    assert set(seen) == {"hit", "critical", "defended", "stun", "knock-down", "KO"}


def test_a_death_check_and_the_vital_check_take_their_bonuses_in_turn() -> None:
    # rule: AR.GUT.3, AR.AUD.3, AR.RD.6 — the audience bonus goes to the first HT check, the guts bonus to
    # each while the plan's FP last: the odds change with them as the bout's checks do
    plain = attack_forecast(_maul(hp=2, fp=6), Attack("a", "b", "vitals"), _rules())
    cheered = attack_forecast(
        _maul(hp=2, fp=6, check_bonuses=(STAND_TALL,)), Attack("a", "b", "vitals"), _rules()
    )
    spent = attack_forecast(_maul(hp=2, fp=2), Attack("a", "b", "vitals"), _rules())
    assert spent.ko > plain.ko > cheered.ko > 0
    assert plain.rolls == cheered.rolls == spent.rolls and plain.injury == spent.injury


def _odds(odds: Odds | None) -> Odds:
    assert odds is not None
    return odds


def _rules() -> Any:
    from kassen.arena.content import load_rules

    return load_rules()


def test_location_options_show_the_odds_of_a_normal_attack_there() -> None:
    # rule: AR.GAP.1, AR.GAP.2 — to hit by location; all-out +4 and no defence roll for the target's gain
    fight = _duel()
    menu = fight.menu(["attack", "ken"])
    assert menu.options[0].id == "torso"  # the default location first (AR.DMG.1)
    for option in menu.options:
        assert not option.complete and option.odds is not None
        leaf = fight.menu(["attack", "ken", option.id])
        normal, all_out = leaf.options
        assert (normal.id, all_out.id) == ("normal", "all_out")
        assert normal.odds == option.odds
        assert all_out.odds is not None and all_out.odds.outcomes[0][1] >= normal.odds.outcomes[0][1]
    skull = dict(_odds(next(o for o in menu.options if o.id == "skull").odds).outcomes)
    torso = dict(_odds(menu.options[0].odds).outcomes)
    assert skull["hit"] < torso["hit"] and skull["KO"] > torso["KO"] == 0


def test_a_grapple_and_a_guts_check_carry_their_odds() -> None:
    # rule: AR.GUT.1, AR.GUT.2, AR.CORE.2
    fight = _duel()
    grapple = fight.menu(["grapple"]).options[0]
    assert grapple.complete and grapple.odds is not None
    held = _odds(choice_odds(fight.state, Grapple("ryu", "ken"), fight.tables))
    assert dict(grapple.odds.outcomes)["held"] == dict(held.outcomes)["held"] > 0
    stunned = edit(fight.state, "ryu", conditions=(Condition.STUNNED,))
    at = fight_at(stunned)
    guts = next(o for o in at.menu().options if o.id == "guts")
    target = 11  # Ryu's Will, no penalties: his stun has no cause
    assert guts.odds == Odds((("overrides", check_odds(target).success),))
    assert guts_chance(stunned, "ryu", at.tables) == check_odds(target).success
    assert choice_odds(stunned, Guts("ryu"), at.tables) == guts.odds


def _cli(*args: str) -> Any:
    result = CliRunner().invoke(app, ["arena", *args])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize(("location", "armor"), [("torso", "0"), ("skull", "4"), ("vitals", "0")])
def test_the_menus_odds_equal_the_cli_calculators(location: str, armor: str) -> None:
    # rule: AR.CORE.1, AR.CORE.2 — Ryu (skill 14, broadsword: swing for ST 12 = 1d+2, +1: 1d+3 cut)
    # against Ken (defence 8, HT 12, 13 HP, ST 13; a helmet: DR 4 on the skull)
    fight = _duel()
    _, option = option_of(fight, Attack("ryu", "ken", location))
    assert option.odds is not None
    shown = option.odds.to_json()
    calc = _cli(
        "odds", "--skill", "14", "--damage", "1d+3", "--type", "cut", "--ht", "12", "--defense", "8",
        "--st", "13", "--location", location, "--armor-dr", armor, "--json",
    )  # fmt: skip
    assert {k: calc[k] for k in ("outcomes", "expected")} == shown
    # `kassen arena check` at the effective attack: the attack roll succeeds = hit or defended
    check = _cli("check", str(calc["attack"]), "--json")
    rolled = Fraction(shown["outcomes"]["hit"]["p"]) + Fraction(shown["outcomes"]["defended"]["p"])
    assert rolled == Fraction(check["success"]["fraction"])


def test_against_a_fighter_that_cannot_defend_the_hit_is_the_attack_check() -> None:
    # rule: AR.GAP.2 — no defence: any success hits (the CLI's `check` says the same)
    state = _maul(no_defense=True)
    forecast = attack_forecast(state, Attack("a", "b", "torso"), _rules())
    assert forecast.defense is None and forecast.rolls.defended == 0
    assert forecast.rolls.hit == Fraction(_cli("check", "15", "--json")["success"]["fraction"])


def test_a_match_stun_offered_does_not_change_the_odds_of_the_hit() -> None:
    # rule: AR.GUT.1 — the odds are the hit's effects, whatever the victim then overrides
    a = fighter("a", "east", dx=12, skill=15, weapon=Weapon("maul", "none", 3, 2, DamageType.CRUSHING))
    b = fighter("b", "west", ht=10, hp=10, defense=9)
    match = begun(a, b, format=MatchFormat.MATCH, faces=[6] * 6)
    fight = begun(a, b)
    one = attack_forecast(match, Attack("a", "b"), _rules())
    two = attack_forecast(fight, Attack("a", "b"), _rules())
    assert (one.stun, one.knockdown, one.ko, one.injury) == (two.stun, two.knockdown, two.ko, two.injury)
