"""The heuristic weighs a hit by what it is worth, and an all-out attack by what it gives away.

Weighing raw expected damage, the arena duel's Ryu aimed at the neck from skill 13 (a bigger blow that
lands less often), and a fixed margin for the all-out attack made him give it up from skill 13: his win
rate fell from 96% at skill 12 to 86.5% at skill 13 and 87.5% at 14 (200 seeds each).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from kassen.arena.bout import Attack, Begin
from kassen.arena.fighter import Condition
from kassen.arena.odds import damage_table, expected_final
from kassen.arena.policies import HeuristicPolicy, _damage_spec
from kassen.core.fight import Fight
from kassen.core.scenario import open_fight

DUEL = Path(__file__).parents[2] / "src/kassen/arena/data/bouts/duel.yaml"


def duel_at(skill: int, tmp_path: Path) -> Fight[object, object]:
    path = tmp_path / f"duel-{skill}.yaml"
    path.write_text(DUEL.read_text("utf-8").replace("skill: 14", f"skill: {skill}", 1), "utf-8")
    fight = open_fight(str(path), seed=1)
    fight.apply(Begin())
    assert fight.to_move is not None and fight.to_move.id == "ryu"
    return fight


def test_a_hit_is_worth_up_to_the_stun_of_a_fresh_target_and_the_hp_of_a_stunned_one(tmp_path: Path) -> None:
    # rule: AR.INJ.5 (HT/2 from one hit stuns), AR.STN.1 (stunned: may only defend), AR.HP.2 (0 HP)
    fight = duel_at(14, tmp_path)
    ken = fight.state.fighter("ken")
    policy = HeuristicPolicy(fight.tables)
    assert policy.worth(ken, fight.tables) == 6  # Ken's HT 12: 6 stuns him
    stunned = ken.with_condition(Condition.STUNNED)
    assert policy.worth(stunned, fight.tables) == ken.hp == 13


def test_ryu_aims_at_the_torso_and_goes_all_out_at_every_skill(tmp_path: Path) -> None:
    # rule: AR.INJ.5 — every torso cut of Ryu's broadsword stuns Ken (at least 6 final damage), so the
    # neck's bigger cut is worth no more and lands less often (-5 to hit); the all-out attack's +4 lands
    # more, and Ken, stunned by it, cannot strike back at a Ryu without defence
    for skill in range(10, 17):
        fight = duel_at(skill, tmp_path)
        policy = HeuristicPolicy(fight.tables)
        choice = policy(fight.decision())
        assert isinstance(choice, Attack) and choice.location in (None, "torso"), (skill, choice)
        assert choice.all_out or skill == 16, (skill, choice)  # at 16 the plain cut already lands as often
        neck = Attack("ryu", "ken", "neck", True)
        torso = Attack("ryu", "ken", "torso", True)
        worth_neck, worth_torso = (
            policy.weigh(fight.state, neck, fight.tables),
            policy.weigh(fight.state, torso, fight.tables),
        )
        assert worth_neck is not None and worth_torso is not None and worth_torso > worth_neck


def test_counted_up_to_its_worth_the_neck_no_longer_outweighs_the_torso(tmp_path: Path) -> None:
    # rule: AR.DMG.5 (cutting x1.5), AR.DMG.6 (the neck's wounding change) — uncapped, the neck's mean is
    # the larger; capped at Ken's stun threshold both are worth the same 6 whenever they land
    fight = duel_at(14, tmp_path)
    tables, state = fight.tables, fight.state
    ryu, ken = state.fighter("ryu"), state.fighter("ken")
    policy = HeuristicPolicy(tables)
    means = {}
    for where in ("torso", "neck"):
        dr = ken.profile.dr_at(where)
        table = damage_table(
            _damage_spec(ryu.profile.weapon, ryu.profile.st, tables),
            ryu.profile.weapon.damage_type,
            ken.profile.ht,
            where,
            dr.armor,
            dr.bone,
            dr.soft,
            ken.profile.reductions,
            0,
            tables,
        )
        raw = expected_final(table)
        capped, _ = policy._mean_pair(ryu, ken, where, tables)
        means[where] = (raw, capped)
        assert capped == sum((p * min(d.final, 6) for p, d in table), Fraction(0))
    assert means["neck"][0] > means["torso"][0]
    assert means["neck"][1] == means["torso"][1] == 6
