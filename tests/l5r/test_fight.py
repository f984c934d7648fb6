"""The duel on the core's engine skeleton: who decides (to_move), the automatic follow-ups drained one
step at a time, the scripted policy's place derived from the actions played (undo rewinds it), and
complete legal actions (a script step no longer possible is skipped: test_scripts.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kassen import open_fight
from kassen.core.engine import GM, Actor
from kassen.core.errors import IllegalActionError
from kassen.core.policy import Scripted
from kassen.core.rng import Rng
from kassen.l5r import pool
from kassen.l5r.actions import Act, ActKind, Attack, Begin, ChooseInjury, Declare, ThroatStrike
from kassen.l5r.character import FighterId
from kassen.l5r.pool import Pool, chance, roll_pool
from kassen.l5r.ruleset import RULESET
from kassen.l5r.scenario import bundled_scenarios
from kassen.l5r.state import InjuryPending, Phase, ThroatPending
from kassen.l5r.tables import L5Tables, Location, SpecialAttackName
from kassen.l5r.validate import validate

from .conftest import ScriptedRng, char, duel

MASARU = FighterId("Ronin Masaru")


def test_to_move_is_the_gm_then_each_declarer_then_whoever_has_a_choice() -> None:
    # rule: L5.CORE.8 — the GM begins; then characters declare from the lowest initiative.
    fight = open_fight("l5r/kakita-vs-hida", seed=1)
    assert fight.to_move == GM and fight.legal_actions() == (Begin(),)
    fight.apply(Begin())
    first = fight.state.declare_order[0]
    assert fight.to_move == Actor("unit", first, fight.state.fighter(first).side)
    assert all(isinstance(a, Declare) and a.actor == first for a in fight.legal_actions())
    pending = InjuryPending(
        FighterId("Hida Kuroda"), FighterId("Kakita Toshiro"), Location.ARM, 5, (), ("x",)
    )
    chooser = RULESET.to_move(fight.state.__class__(**{**_fields(fight.state), "pending": pending}))
    assert chooser == Actor("unit", "Hida Kuroda", "Crab")
    fight.autoplay()
    assert fight.over and fight.to_move is None and RULESET.to_move(fight.state) is None
    assert fight.result is not None and fight.result.winner == fight.state.winner


def _fields(state: object) -> dict[str, object]:
    return {name: getattr(state, name) for name in state.__dataclass_fields__}  # type: ignore[attr-defined]


def test_follow_up_is_one_automatic_step_until_someone_must_decide() -> None:
    # rule: L5.CORE.8 — once all have declared, actions resolve one by one, the turn ends and the next
    # begins with initiative; each of those is one automatic step, and the steps stop at a declaration.
    fight = open_fight("l5r/first-blood", seed=9)  # nobody bloodied in turn 1: turn 2 begins
    fight.apply(Begin())
    fight.step()  # the first declaration; the second one sets the turn going
    last = fight.decide()
    before = fight.snapshot
    turn = RULESET.start(before.state, Rng.from_state(before.rng), fight.tables)
    RULESET.resolve(turn, last)
    assert [e.kind for e in turn.events] == ["declare"]
    steps = []
    while RULESET.follow_up(turn):
        steps.append([e.kind for e in turn.events[sum(map(len, steps)) + 1 :]])
        assert len(steps) < 100
    assert steps[0] == []  # everyone has declared: the resolution phase begins
    assert turn.state.phase is Phase.DECLARE and turn.state.turn == 2
    assert steps[-1] == ["turn", "initiative", "initiative"]
    assert not RULESET.follow_up(turn)  # at a decision, a further step does nothing
    # the core drains the same steps under its cap: the same events and state
    events = fight.apply(last)
    assert list(events) == turn.events and fight.state == turn.state


def test_the_scripted_policy_rewinds_on_undo() -> None:
    # rule: L5.FOL.1 — the ambush opens with the scripted Foul; undone, the script offers it again.
    fight = open_fight("l5r/bridge-ambush", seed=4)
    policy = fight.policy
    assert isinstance(policy, Scripted)
    script = policy.scripts[MASARU]
    while not any(isinstance(a, Declare) and a.actor == MASARU for a in fight.history):
        fight.step()
    assert fight.history[-1] == script[0] and Scripted.cursor(script, fight.history) == 1
    fight.undo()
    assert Scripted.cursor(script, fight.history) == 0 and policy.remaining(fight.history)[MASARU] == script
    assert fight.decide() == script[0]
    fight.autoplay()
    straight = open_fight("l5r/bridge-ambush", seed=4)
    straight.autoplay()
    assert fight.log_json() == straight.log_json()


@pytest.mark.parametrize("name", bundled_scenarios())
def test_with_the_bundled_raise_limit_every_action_played_was_listed(name: str) -> None:
    # rule: L5.CORE.3 — with a raise limit (Void), the legal actions are every legal action.
    for seed in (0, 1, 2):
        fight = open_fight(f"l5r/{name}", seed=seed)
        fight.autoplay()
        for state, entry in zip(fight.states, fight.entries, strict=False):
            action = entry.action  # a script's skips ride on a declaration the list offers bare
            bare = replace(action, skipped=()) if isinstance(action, Declare) else action
            assert bare in RULESET.legal_actions(state, fight.tables)


def test_the_extra_attack_of_a_point_at_the_throat_is_no_foul(tables: L5Tables) -> None:
    # rule: L5.PTT.1 — the holder's extra attack is a plain attack (raises for damage, called shots):
    # not a Full Attack, not a Foul (which the list never offered), not a special that deals no Wounds.
    a = FighterId("A")
    state = duel(char("A", void=4), char("T"), char("B", side="T"))
    state = state.__class__(**{**_fields(state), "pending": ThroatPending(a, FighterId("T"))})
    foul = Attack(FighterId("T"), special=SpecialAttackName.FOUL, obstructs=FighterId("B"))
    for attack in (
        foul,
        Attack(FighterId("T"), full_attack=True),
        Attack(FighterId("T"), special=SpecialAttackName.MARK),
    ):
        with pytest.raises(IllegalActionError) as err:
            validate(state, ThroatStrike(a, attack), tables)
        assert err.value.rule == "L5.PTT.1"
    validate(state, ThroatStrike(a, Attack(FighterId("T"), damage_raises=4)), tables)
    assert all(s.attack.special is not SpecialAttackName.FOUL for s in RULESET.legal_actions(state, tables))


def test_the_odds_enumerate_the_very_roll_the_duel_rolls(monkeypatch: pytest.MonkeyPatch) -> None:
    # rule: L5.CORE.1 — one chance rule: rolling a pool and its exact odds go through one expression.
    used = []
    original = pool.pool_dice

    def spy(rolled: int, kept: int, explode: bool):  # type: ignore[no-untyped-def]
        used.append((rolled, kept, explode))
        return original(rolled, kept, explode)

    monkeypatch.setattr(pool, "pool_dice", spy)
    pool._chance.cache_clear()
    roll_pool(Pool(9, 7), ScriptedRng([5] * 9), "test")
    chance(Pool(9, 7), 61)
    assert used == [(9, 7, True), (9, 7, True)]
    # unskilled 3k2, every face: the share of rolls reaching each TN is the exact chance
    faces = [(x, y, z) for x in range(1, 11) for y in range(1, 11) for z in range(1, 11)]
    totals = [roll_pool(Pool(3, 2, explode=False), ScriptedRng(f), "test").total for f in faces]
    for tn in (2, 11, 15, 19, 20, 21):
        assert chance(Pool(3, 2, explode=False), tn) * len(faces) == sum(t >= tn for t in totals)


def test_an_injury_choice_is_validated_before_anything_changes(tables: L5Tables) -> None:
    # rule: L5.CS.2 — only an injury of the location hit; nothing is applied when refused.
    a, t = FighterId("A"), FighterId("T")
    pending = InjuryPending(a, t, Location.ARM, 5, (), ("deep_gash", "loose_grip", "numb_arm"))
    state = duel(char("A"), char("T"))
    state = state.__class__(**{**_fields(state), "pending": pending})
    with pytest.raises(IllegalActionError) as err:
        validate(state, ChooseInjury(a, "critical"), tables)
    assert err.value.rule == "L5.CS.2"
    with pytest.raises(IllegalActionError) as err:
        validate(state, ChooseInjury(t, "deep_gash"), tables)
    assert err.value.rule == "L5.CS.2"
    with pytest.raises(IllegalActionError) as err:
        validate(state, Declare(a, Act(ActKind.WAIT)), tables)
    assert err.value.rule == "L5.CORE.8"
