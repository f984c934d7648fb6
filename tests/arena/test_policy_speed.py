"""The heuristic's fast weighing (issue 15, speed) picks what weighing every attack one by one picks:
the attack base without explanations is attack_target's total, and the best attack is the plain
maximum of :meth:`HeuristicPolicy.value` (first listed on ties). A bout's scripts are the core's: a
legal step is tried on a copy and played, never looked for in the list of every legal action."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction

from kassen.arena.bout import Attack, BoutState, attack_target
from kassen.arena.policies import HeuristicPolicy, _attack_base
from kassen.arena.rules import ArenaRules, DiceSpec
from kassen.core.policy import FirstLegal, Listed, Scripted
from kassen.core.scenario import bundled_scenarios, open_fight


def states() -> Iterator[tuple[str, BoutState, ArenaRules]]:
    """Every state of the bundled bouts, seeds 0-1, as their own policies play them."""
    for scenario in bundled_scenarios("arena"):
        for seed in range(2):
            fight = open_fight(f"arena/{scenario.name}", seed=seed)
            fight.autoplay()
            for state in fight.states:
                yield scenario.name, state, fight.tables


def test_attack_base_is_attack_target() -> None:
    # rule: AR.GAP.1 (to-hit of the location), AR.GAP.2 (posture, grapple), AR.FTG.1 (all-out bonus)
    compared = 0
    for _, state, rules in states():
        for f in state.fighters:
            for o in state.fighters:
                if o.id == f.id:
                    continue
                for location in (None, *rules.locations.locations):
                    for all_out in (False, True):
                        total, _ = attack_target(state, f.id, o.id, location, all_out, rules=rules)
                        to_hit = rules.locations.find(location or rules.damage.basic.default_location).to_hit
                        assert _attack_base(state, f.id, all_out, rules) + to_hit == total
                        compared += 1
    assert compared > 1000


def plain_best(policy: HeuristicPolicy, state: BoutState, attacks: list[Attack], rules: ArenaRules) -> int:
    """The loop the heuristic ran before: every attack valued, the first of the highest value."""
    best: tuple[Fraction, int] = (Fraction(-1), 0)
    for i, a in enumerate(attacks):
        value = policy.weigh(state, a, rules)
        if value is None:
            continue
        if value > best[0]:
            best = (value, i)
    return best[1]


def test_best_attack_is_the_plain_maximum() -> None:
    # rule: AR.CORE.1 (exact odds of a check), AR.DMG.1 (where an attack lands)
    policy = HeuristicPolicy()
    compared = 0
    for _, state, rules in states():
        for f in state.fighters:
            attacks = [
                Attack(f.id, o.id, location, all_out)
                for o in state.fighters
                if o.id != f.id
                for location in (None, *rules.locations.locations)
                for all_out in (False, True)
            ]
            fast = policy._best(state, f, attacks, rules)
            assert fast == plain_best(policy, state, attacks, rules)
            compared += 1
    assert compared > 100


def test_the_mean_damage_weighed_is_the_table_of_the_whole_prior_damage() -> None:
    # rule: AR.DMG.6 (crippling cap), AR.RD.2 (per hit, or cumulative): the heuristic's mean damage,
    # remembered by the part of a location's prior damage that counts, is the mean of the exact table
    # of the whole prior damage, with either reading, for every fighter on every other, everywhere (a key
    # missing the weapon, ST, HT, DR or reductions fails it)
    from kassen.arena.content import load_rules
    from kassen.arena.damage import Reduction, strength_damage
    from kassen.arena.fighter import LocationDR
    from kassen.arena.odds import damage_table, expected_final

    cumulative = load_rules({"damage": {"crippling": {"cap": "cumulative"}}})
    compared = 0
    for scenario in bundled_scenarios("arena"):
        fight = open_fight(f"arena/{scenario.name}", seed=0)
        fight.autoplay()
        state = fight.state  # fighters with damage here and there
        # and each fighter again with other values of what the mean reads (a new profile, as in a new
        # fight): another ST and weapon attacking, another HT, DR and reductions struck
        stronger = [
            replace(
                f, profile=replace(f.profile, st=f.profile.st + 3, weapon=replace(f.profile.weapon, adds=1))
            )
            for f in state.fighters
        ]
        tougher = [
            replace(f, profile=replace(f.profile, **change))
            for f in state.fighters
            for change in (
                {"ht": f.profile.ht + 2},
                {"dr": (LocationDR("torso", 2), LocationDR("left_arm", 1, 1))},
                {"reductions": (Reduction("tough", 2, 0),)},
            )
        ]
        for rules in (fight.tables, cumulative):
            policy = HeuristicPolicy(rules)
            for a in (*state.fighters, *stronger):
                w = a.profile.weapon
                base = strength_damage(a.profile.st, w.base, rules) if w.base != "none" else None
                dice = base.dice if base is not None else w.dice
                spec = DiceSpec(dice=dice, adds=(base.adds if base is not None else 0) + w.adds)
                for t in (*state.fighters, *tougher):
                    if t.id == a.id:
                        continue
                    for where in rules.locations.locations:
                        dr = t.profile.dr_at(where)
                        for prior in sorted({t.damage_at(where), 0, 3, 7, 20}):
                            hurt = replace(t, location_damage=((where, prior),))
                            mean, _ = policy._mean_pair(a, hurt, where, rules)
                            table = damage_table(
                                spec,
                                w.damage_type,
                                t.profile.ht,
                                where,
                                dr.armor,
                                dr.bone,
                                dr.soft,
                                t.profile.reductions,
                                prior,
                                rules,
                            )
                            # counted up to what a hit is worth against the target
                            cap = policy.worth(hurt, rules)
                            assert mean == sum((p * min(d.final, cap) for p, d in table), Fraction(0))
                            assert mean <= expected_final(table)
                            compared += 1
    assert compared > 1000


def test_a_legal_script_step_is_played_without_listing_every_legal_action() -> None:
    # rule: AR.CORE.3 (who decides), AR.GAP.2 (a script step not legal now waits)
    played = waited = 0
    for seed in range(4):
        fight = open_fight("arena/knockback", seed=seed)
        assert isinstance(fight.policy, Scripted)
        scripts = fight.policy.scripts
        while not fight.over:
            decision = fight.decision()
            actor = decision.actor.id
            at = fight.policy.cursor(scripts.get(actor, ()), decision.history)
            step = scripts[actor][at] if at < len(scripts.get(actor, ())) else None
            chosen = fight.policy(decision)
            if step is not None and chosen is step:
                # tried on a copy (kept for the play below), not found among every legal action
                assert isinstance(decision.legal, Listed) and not decision.legal.listed
                assert step in fight.legal_actions()  # the very action the list names
                played += 1
            elif step is not None:
                assert not fight.is_legal(step)  # a step not legal now waits: the heuristic decides
                waited += 1
            fight.play(chosen)
    assert played >= 8 and waited >= 1


def test_a_script_tries_an_attack_naming_no_location() -> None:
    # rule: AR.DMG.1 (an attack naming no location aims at the default location, listed by its key)
    fight = open_fight("arena/duel", seed=1)
    while not any(isinstance(a, Attack) for a in fight.legal_actions()):  # the referee's Begin, closing
        fight.step()
    actor = fight.to_move
    assert actor is not None and actor.kind == "unit"
    other = next(f.id for f in fight.state.fighters if f.id != actor.id)
    step = Attack(actor.id, other, None)
    policy = Scripted({actor.id: (step,)}, FirstLegal())
    assert step not in fight.legal_actions() and fight.is_legal(step)
    assert policy(fight.decision()) is step


def test_every_fight_of_a_scenario_plays_the_same_script_steps() -> None:
    # rule: AR.CORE.3 (a script's steps, played in order): the steps are the scenario's, one object
    # each for every fight, equal to the steps read afresh from its script
    from kassen.arena.scenario import script_steps

    first, second = open_fight("arena/knockback", seed=1), open_fight("arena/knockback", seed=2)
    assert isinstance(first.policy, Scripted) and isinstance(second.policy, Scripted)
    scripts = first.policy.scripts
    assert scripts.keys() == {"tetsu", "bo"}
    for fid, steps in scripts.items():
        again = second.policy.scripts[fid]
        assert all(a is b for a, b in zip(steps, again, strict=True))
        entries = [dict(first.action_json(step)) for step in steps]
        for entry in entries:
            entry.pop("actor", None)
        assert steps == script_steps(fid, entries, first.tables)
