"""Explanations on demand and value-keyed memos (issue 15, speed) give what the plain eager paths gave:
a check's steps written when read are the words the roll used to carry, an event whose data is built
when read is the same mapping and JSON as one logged at once, and the memoized damage pipeline and
check outcomes, Move and shared no-armor records are the plain functions' results."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

from kassen.arena.bout.reading import CheckTerms, check_terms
from kassen.arena.bout.turn import LaterData
from kassen.arena.checks import (
    CheckResult,
    check_is_critical,
    check_succeeds,
    effective_target,
    resolve_check,
    roll_check,
)
from kassen.arena.content import load_rules
from kassen.arena.damage import Reduction, _resolve_damage, damage_finals, resolve_damage, strength_damage
from kassen.arena.fighter import FighterState, LocationDR, build_fighter
from kassen.arena.injury import _effective_move, effective_move
from kassen.arena.odds import damage_table, expected_final, mean_final
from kassen.arena.rules import ArenaRules, DiceSpec, dice_notation
from kassen.arena.terms import CheckKind, DamageSource, DamageType
from kassen.core.engine import Actor
from kassen.core.events import Event, canonical_json
from kassen.core.explain import Step
from kassen.core.rng import ScriptedDice
from kassen.core.scenario import open_fight

RULES = load_rules()


def eager_check_steps(faces: tuple[int, ...], c: CheckResult, label: str) -> tuple[Step, ...]:
    """The steps resolve_check built at every roll before they were written on demand."""
    kind = (
        ("critical success" if c.critical else "success")
        if c.success
        else ("critical failure" if c.critical else "failure")
    )
    how = f"by {abs(c.margin)}" if c.margin else "exactly"
    return (
        Step(c.roll, f"{label}: 3d6 = {' + '.join(map(str, faces))}", "AR.CORE.1"),
        Step(
            c.margin,
            f"{c.roll} against {c.target}: {kind} ({'margin' if c.success else 'failed'} {how})",
            "AR.CORE.1",
        ),
    )


def test_check_steps_on_demand_are_the_eager_steps() -> None:
    # rule: AR.CORE.1 (3d6 roll-under, criticals by the data's rows)
    crit = load_rules({"checks": {"criticals": {"failure_by_margin": 5}}}).checks
    for rules in (RULES.checks, crit):
        for faces in product(range(1, 7), repeat=3):
            for target in range(-2, 22):
                c = resolve_check(faces, target, rules=rules, label="knockback check")
                roll = sum(faces)
                success = check_succeeds(roll, target, rules.criticals)
                assert (c.roll, c.success, c.margin) == (roll, success, target - roll)
                assert c.critical == check_is_critical(roll, target, success, rules.criticals)
                assert c.steps == eager_check_steps(faces, c, "knockback check")
                rolled = roll_check(target, ScriptedDice(list(faces)), rules=rules, label="knockback check")
                assert rolled == c and rolled.to_json() == c.to_json()


def test_later_data_reads_as_the_eager_data() -> None:
    # rule: AR.CORE.1 (a check's event carries its explanation steps)
    built: list[int] = []

    def build() -> dict[str, object]:
        built.append(1)
        return {"fighter": "a", "check": "death", "steps": [{"value": 1, "reason": "r", "rule": ""}]}

    later = Event("check", LaterData(build), "AR.HP.3", True)
    assert not built  # nothing is built before it is read
    eager = Event("check", build(), "AR.HP.3", True)
    assert later.to_json() == eager.to_json()
    assert canonical_json(later.to_json()) == canonical_json(eager.to_json())
    assert later == eager and dict(later.data) == dict(eager.data)
    assert later.data.get("fighter") == "a" and "steps" in later.data and len(later.data) == 3
    assert len(built) == 2  # the eager build above, and one for the later data, kept once built


def test_later_data_built_from_arguments_reads_as_the_eager_data() -> None:
    # rule: AR.CORE.1 (a check's event carries its explanation steps) — a module-level builder with its
    # arguments, as the bout logs its checks, attacks, damage rolls and damage, is the eager data
    from kassen.arena.bout.turn import _check_data
    from kassen.arena.checks import resolve_check
    from kassen.arena.terms import CheckKind
    from kassen.core.explain import Step

    result = resolve_check((2, 3, 4), 11)
    steps = (Step(11, "HT", "AR.HP.3"),)
    later = LaterData(_check_data, "a", CheckKind.DEATH, {"hp": -3}, result, steps)
    eager = _check_data("a", CheckKind.DEATH, {"hp": -3}, result, steps)
    assert dict(later) == eager and list(later) == list(eager)
    assert eager["steps"][0] == steps[0].to_json() and eager["hp"] == -3 and eager["check"] == "death"
    assert later._args == () and later._build is None  # what it read is let go once built


def test_memoized_damage_is_the_plain_pipeline() -> None:
    # rule: AR.DMG.1-7 (basic -> penetration -> multiplier -> reductions -> caps), AR.FAL.1 (half DR)
    cumulative = load_rules({"damage": {"crippling": {"cap": "cumulative"}}})
    reductions = ((), (Reduction("tough skin", 2, 1),))
    for rules in (RULES, cumulative):
        for _ in range(2):  # the second pass reads the memo
            for basic, kind, location, armor, source, reds, prior in product(
                (0, 1, 4, 9, 17),
                (DamageType.CUTTING, DamageType.CRUSHING, "imp"),
                (None, "torso", "skull", "left_arm", "vitals"),
                (0, 3),
                tuple(DamageSource),
                reductions,
                (0, 4, 6, 7, 30),  # the prior is keyed as far as it counts (left arm: crippled at 7)
            ):
                got = resolve_damage(
                    basic,
                    kind,
                    ht=11,
                    location=location,
                    armor_dr=armor,
                    reductions=reds,
                    source=source,
                    prior_location_damage=prior,
                    rules=rules,
                )
                plain = _resolve_damage(
                    basic, kind, 11, location, armor, None, None, reds, source, prior, rules
                )
                assert got == plain and got.to_json() == plain.to_json()
                (alone,) = damage_finals(
                    [basic],
                    kind,
                    ht=11,
                    location=location,
                    armor_dr=armor,
                    reductions=reds,
                    source=source,
                    prior_location_damage=prior,
                    rules=rules,
                )
                assert alone == plain.final


def test_the_mean_final_damage_is_the_mean_of_the_exact_table() -> None:
    # rule: AR.DMG.1-7 (every basic damage of the roll through the pipeline), AR.RD.2 (crippling cap);
    # the means are remembered by what the finals read, shared between locations alike (a key without
    # one of the DR layers, the multiplier, the crippling amount or the HT limit fails it)
    cumulative = load_rules({"damage": {"crippling": {"cap": "cumulative"}}})
    reductions = ((), (Reduction("tough skin", 2, 1),))
    compared = 0
    for rules in (RULES, cumulative):
        for dice, kind, location, armor, (bone, soft), reds, prior, ht in product(
            (DiceSpec(dice=1, adds=-3), DiceSpec(dice=3, adds=4)),
            (DamageType.CUTTING, DamageType.CRUSHING, DamageType.IMPALING),
            tuple(rules.locations.locations),
            (0, 4),
            ((None, None), (1, None), (None, 2)),
            reductions,
            (0, 3, 9),
            (5, 12),
        ):
            mean = mean_final(dice, kind, ht, location, armor, bone, soft, reds, prior, rules)
            table = damage_table(dice, kind, ht, location, armor, bone, soft, reds, prior, rules)
            assert mean == expected_final(table)
            compared += 1
    assert compared > 3000


def test_dice_notation_is_the_spec_notation() -> None:
    for dice, adds in product(range(4), range(-4, 5)):
        assert dice_notation(dice, adds) == DiceSpec(dice=dice, adds=adds).notation


def test_memoized_move_is_the_plain_move() -> None:
    # rule: AR.GAP.2 (encumbrance), AR.HP.1 and AR.FTG.3 (Move halved), AR.KNB.5 (rooted)
    up = load_rules({"injury": {"move": {"halving_rounding": "down"}}})
    for rules in (RULES, up):
        for _ in range(2):  # the second pass reads the memo
            grid = product(range(8), range(5), range(-2, 6), range(-1, 6), (0, 1))
            for move, level, hp, fp, rooted in grid:
                got = effective_move(move, encumbrance=level, hp=hp, fp=fp, rooted=rooted == 1, rules=rules)
                assert got == _effective_move(move, level, hp, fp, rooted == 1, rules)


def test_shared_records_are_the_records_built_anew() -> None:
    # rule: AR.DMG.2 (DR by location), AR.CORE.3 (who decides)
    f = build_fighter("a", "east", dr=(LocationDR("torso", 3),))
    assert f.dr_at("skull") == LocationDR("skull") and f.dr_at("skull") is f.dr_at("skull")
    assert f.dr_at("torso") == LocationDR("torso", 3)
    state = FighterState.fresh(f)
    hurt = replace(state, location_damage=(("left_arm", 2), ("torso", 5)))
    assert [hurt.damage_at(x) for x in ("torso", "left_arm", "skull")] == [5, 2, 0]
    fight = open_fight("arena/duel", seed=2)
    fight.step()  # the referee's Begin
    who = fight.to_move
    assert who is not None and who.kind == "unit"
    assert who == Actor("unit", who.id, fight.state.fighter(who.id).profile.side)


def test_memoized_targets_and_effects_are_the_plain_ones() -> None:
    # rule: AR.GAP.1-2 (effective skill and defence), AR.INJ.1-9 (a hit's effects), AR.FAL.1 (falls)
    from kassen.arena.bout import attack_target, defense_target
    from kassen.arena.bout.reading import _attack_target, _defense_target, attribute_modifiers
    from kassen.arena.falling import _fall_modifiers, _plan_fall, fall_modifiers, plan_fall
    from kassen.arena.injury import _injury_effects, injury_effects

    compared = 0
    for name in ("duel", "knockback", "pit"):
        fight = open_fight(f"arena/{name}", seed=4)
        fight.autoplay()
        for state in fight.states:
            for f in state.fighters:
                held = attribute_modifiers(state, f.id, "dx", RULES)
                for location in (None, "skull", "torso"):
                    for all_out in (False, True):
                        got = attack_target(state, f.id, f.id, location, all_out, rules=RULES)
                        plain = _attack_target(f.profile.skill, location, f.posture, all_out, held, RULES)
                        assert got == plain
                assert defense_target(state, f.id, rules=RULES) == _defense_target(
                    f.profile.defense, f.posture, f.stunned, held, RULES
                )
                compared += 1
    assert compared > 50
    for basic, location in product((1, 6, 14), ("skull", "vitals", "left_leg")):
        hit = resolve_damage(basic, DamageType.CRUSHING, ht=10, location=location, rules=RULES)
        for painful, prior, crippled in product((False, True), (0, 7), (False, True)):
            assert injury_effects(
                hit, ht=10, painful=painful, prior_head_damage=prior, already_crippled=crippled, rules=RULES
            ) == _injury_effects(
                hit.location,
                hit.final,
                hit.crippled,
                hit.damage_type,
                hit.primary_penetration,
                hit.source,
                10,
                painful,
                prior,
                crippled,
                RULES,
            )
    for height, weight in product((Fraction(1, 2), 1, 3, 7), (60, 150)):
        assert plan_fall(height, weight, "sand", RULES) == _plan_fall(height, weight, "sand", RULES)
        assert fall_modifiers(2, weight, None, RULES) == _fall_modifiers(2, weight, None, RULES)


def test_memoized_strength_damage_is_the_table_row() -> None:
    # rule: AR.KNB.3 (thrust and swing for ST, the CORE table)
    for _ in range(2):  # the second pass reads the memo
        for st, kind in product(range(-1, 45), ("thrust", "swing")):
            row = RULES.falling.strength.row(st)
            assert strength_damage(st, kind, RULES) == (row.thrust if kind == "thrust" else row.swing)


def _plain_check_terms(
    f: FighterState,
    kind: CheckKind,
    base: int,
    base_reason: str,
    mods: tuple[Step, ...],
    rule: str,
    ht_based: bool,
    rules: ArenaRules,
) -> CheckTerms:
    """check_terms as it was before its memo: every bonus looked at, every step written anew."""
    steps = list(mods)
    g = rules.injury.guts
    audience = next((b for b in f.check_bonuses if kind in b.checks), None)
    plan = f.profile.guts_bonus
    guts_bonus = (
        ht_based
        and kind in plan.checks
        and f.fp - g.bonus_fp_cost >= plan.min_fp_after
        and f.fp >= g.bonus_fp_cost
    )
    if audience is not None and guts_bonus and g.one_bonus_per_check == "any":
        if audience.amount >= g.bonus:
            guts_bonus = False
            steps.append(Step(0, "one bonus per check: the audience bonus, no guts bonus", "AR.RD.6"))
        else:
            audience = None
            steps.append(Step(0, "one bonus per check: the guts bonus, the audience bonus kept", "AR.RD.6"))
    if audience is not None:
        steps.append(Step(audience.amount, f"audience: {audience.source}", "AR.AUD.3"))
    if guts_bonus:
        steps.append(Step(g.bonus, f"guts bonus: {g.bonus_fp_cost} FP for +{g.bonus}", "AR.GUT.3"))
    target, explained = effective_target(base, base_reason, steps, rule)
    return CheckTerms(target, explained, audience, g.bonus_fp_cost if guts_bonus else 0)


def test_memoized_check_terms_are_the_plain_terms() -> None:
    # rule: AR.CORE.1 (target and modifiers), AR.AUD.3 (audience bonus), AR.GUT.3 (guts bonus), AR.RD.6
    shock = (Step(-3, "shock -3", "AR.INJ.4"),)
    compared = guts = 0
    for name, seed in product(("knockback", "duel", "pit"), range(3)):
        fight = open_fight(f"arena/{name}", seed=seed)
        fight.autoplay()
        for state in fight.states:
            for f, kind, (base, reason), mods, ht_based in product(
                state.fighters, CheckKind, ((12, "HT"), (12, "DX"), (9, "DX")), ((), shock), (False, True)
            ):
                for _ in range(2):  # the second look reads the memo
                    got = check_terms(f, kind, base, reason, mods, "AR.X.1", ht_based=ht_based, rules=RULES)
                    plain = _plain_check_terms(f, kind, base, reason, mods, "AR.X.1", ht_based, RULES)
                    assert got == plain
                guts += plain.guts_fp > 0
                compared += 1
    assert compared > 10_000 and guts > 100


def test_a_damage_roll_of_a_remembered_expression_is_the_roll_of_its_text() -> None:
    # rule: AR.DMG.1 (the damage roll), AR.KNB.3 (knockback thrust), AR.FAL.1 (falling damage)
    from kassen.arena.bout.turn import BoutTurn
    from kassen.dice import roll

    state = open_fight("arena/duel", seed=1).state
    for _ in range(2):  # the second pass reads the memo
        for dice, adds, bonus in product(range(5), range(-4, 5), (0, 2)):
            faces = [(3 * dice + i) % 6 + 1 for i in range(dice)]
            turn = BoutTurn(state, ScriptedDice(faces), RULES)
            total = turn.roll_damage(DiceSpec(dice=dice, adds=adds), bonus, "club", "AR.DMG.1", "a")
            plain = roll(dice_notation(dice, adds + bonus), ScriptedDice(faces))
            assert total == plain.total
            assert dict(turn.events[-1].data) == {"fighter": "a", "what": "club", **plain.to_json()}
