"""Called shots, injuries as timed statuses, maiming and distinctive deaths.

Rules: L5.CS.1-5, L5.ARM.1, L5.FOT.1, L5.HND.1, L5.HED.1, L5.LEG.1, L5.TOR.1, L5.GAP.1, L5.RD.3.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kassen.core.errors import ContentError, IllegalActionError
from kassen.l5r.actions import Act, ActKind, Attack, ChooseInjury, Declare
from kassen.l5r.attacks import resolve_attack
from kassen.l5r.character import FighterId
from kassen.l5r.content import content_for
from kassen.l5r.damage import choose_injury
from kassen.l5r.flow import end_turn, start_turn
from kassen.l5r.injuries import bleeding_due, injury_effects, injury_options, maim_threshold
from kassen.l5r.rolls import (
    attack_pool,
    damage_pool,
    defense_tn,
    dice_change,
    full_defense_pool,
    initiative_pool,
)
from kassen.l5r.ruleset import RULESET
from kassen.l5r.state import Fighter, InjuryPending, Phase
from kassen.l5r.tables import CalledShotTables, L5Tables, Location
from kassen.l5r.turn import L5Turn
from kassen.l5r.validate import validate, validate_attack, validate_declaration

from .conftest import ScriptedRng, apply, char, duel, first, play

A, T = FighterId("A"), FighterId("T")


def hurt(
    f: Fighter,
    location: Location,
    injury: str,
    tables: L5Tables,
    *,
    turn: int = 1,
    skill: int = 3,
    dropped: tuple[int, ...] = (6, 2),
) -> Fighter:
    return injury_effects(
        f, location, injury, turn=turn, tables=tables, attacker_weapon_skill=skill, dropped=dropped
    ).fighter


def test_called_shot_raises_by_location(tables: L5Tables) -> None:
    # rule: L5.CS.1 — Torso 2, Arm 3, Leg 3, Foot 4, Hand 4, Head 4; two or more, always.
    assert {loc.value: tables.location(loc).raises for loc in Location} == {
        "torso": 2,
        "arm": 3,
        "leg": 3,
        "foot": 4,
        "hand": 4,
        "head": 4,
    }
    data = tables.called_shots.model_dump()
    data["locations"]["torso"]["raises"] = 1
    with pytest.raises(ValueError, match="greater than or equal to 2"):
        CalledShotTables.model_validate(data)


def test_a_called_shot_hit_deals_wounds_then_the_attacker_chooses_an_injury(tables: L5Tables) -> None:
    # rule: L5.CS.2 — on a hit: normal Wounds, then one injury of that location, the attacker's choice.
    state = duel(char("A", agility=3, void=3), char("T", earth=3))
    faces = [10, 9, 9, 9, 1, 1, 1, 6, 5, 1, 1, 1]  # attack 37 vs TN 20; damage 5k2 = 11
    state, _ = play(state, resolve_attack, A, Attack(T, called_shot=Location.ARM), dice=ScriptedRng(faces))
    assert state.fighter(T).wounds == 11
    pending = state.pending
    assert isinstance(pending, InjuryPending) and pending.chooser == A
    assert pending.options == ("deep_gash", "loose_grip", "numb_arm")  # 11 < Earth 3 x 5: no maim
    assert RULESET.legal_actions(state, tables)[-1] == ChooseInjury(A, None)
    state, _ = play(state, choose_injury, ChooseInjury(A, "deep_gash"))
    assert state.pending is None and state.fighter(T).has("dice", 1)


def test_injuries_are_cumulative_even_when_repeated(tables: L5Tables) -> None:
    # rule: L5.CS.2 — the same injury twice counts twice.
    t = hurt(
        hurt(Fighter(char("T", strength=2)), Location.ARM, "deep_gash", tables),
        Location.HAND,
        "deep_gash",
        tables,
    )
    t = hurt(t, Location.ARM, "deep_gash", tables)
    assert dice_change(t, 1, ("damage",))[0] == -3
    assert damage_pool(t, Attack(A), tables, 1, damage_raises=0)[0].rolled == 5 - 3


@pytest.mark.parametrize(
    ("location", "multiple"), [("arm", 5), ("foot", 3), ("hand", 3), ("head", 4), ("leg", 7), ("torso", 8)]
)
def test_maiming_needs_earth_times_the_location_multiple(
    location: str, multiple: int, tables: L5Tables
) -> None:
    # rule: L5.CS.3 — a maim is possible only when the damage reaches Earth x k for the location.
    target = Fighter(char("T", earth=3))
    loc = Location(location)
    assert maim_threshold(target, loc, tables)[0] == 3 * multiple
    assert "maimed" not in injury_options(target, loc, 3 * multiple - 1, tables)
    assert "maimed" in injury_options(target, loc, 3 * multiple, tables)


def test_a_maim_below_the_threshold_is_illegal_and_a_maim_outlasts_healing(tables: L5Tables) -> None:
    # rule: L5.CS.3 — choosing a maim the damage does not allow is refused; a maim's effects stay
    # when the Wounds are healed.
    state = duel(char("A"), char("T", earth=2))
    pending = InjuryPending(
        A, T, Location.ARM, 9, (4,), injury_options(state.fighter(T), Location.ARM, 9, tables)
    )
    state = replace(state, pending=pending)
    with pytest.raises(IllegalActionError) as err:
        validate(state, ChooseInjury(A, "maimed"), tables)
    assert err.value.rule == "L5.CS.3"
    pending = replace(pending, damage=10, options=injury_options(state.fighter(T), Location.ARM, 10, tables))
    validate(replace(state, pending=pending), ChooseInjury(A, "maimed"), tables)
    state, _ = play(replace(state, pending=pending), choose_injury, ChooseInjury(A, "maimed"))
    healed = replace(state.fighter(T), wounds=0)
    assert "Missing Limb" in healed.conditions and healed.has("maim_bleed", 5)


def test_a_maimed_character_bleeds_every_earth_turns_until_aided(tables: L5Tables) -> None:
    # rule: L5.CS.4 — one more Wound each time Earth turns pass, unless given medical aid.
    t = hurt(Fighter(char("T", earth=2)), Location.ARM, "maimed", tables, turn=1)
    due = {turn: sum(a for _, a, _ in bleeding_due(t, tables, turn, "end")) for turn in range(1, 8)}
    assert due == {1: 0, 2: 0, 3: 1, 4: 0, 5: 1, 6: 0, 7: 1}
    state = duel(t, char("A", side="T"), char("E"), turn=3)
    state, out = play(state, end_turn)
    assert state.fighter(T).wounds == 1 and first(out, "wounds").rule == "L5.CS.4"
    # medical aid (an action, L5.GAP.1) stops the bleeding: no more Wounds at turn 5's end
    state = replace(state, turn=4)
    aided, events = apply(
        _declaring(state, A, turn=4), Declare(A, Act(ActKind.MEDICAL_AID, T)), ScriptedRng([5] * 60)
    )
    assert first(events, "medical_aid").rule == "L5.CS.4"
    assert not aided.fighter(T).has("maim_bleed", aided.turn)
    assert bleeding_due(aided.fighter(T), tables, 5, "end") == ()


def test_maim_bleeding_counts_whole_turns_after_the_maim_as_the_docs_say(tables: L5Tables) -> None:
    # rule: L5.CS.4 — "each time a number of turns equal to their Earth passes": the turn of the maim
    # does not count. Earth 2, maimed in turn 1: ends of turns 3, 5, 7; Earth 3: 4, 7, 10 — the numbers
    # docs/l5r/house-defaults.md gives
    for e, due_at in ((2, [3, 5, 7]), (3, [4, 7, 10])):
        t = hurt(Fighter(char("T", earth=e)), Location.ARM, "maimed", tables, turn=1)
        assert [n for n in range(1, 11) if bleeding_due(t, tables, n, "end")][:3] == due_at
    docs = (Path(__file__).parents[2] / "docs" / "l5r" / "house-defaults.md").read_text(encoding="utf-8")
    flat = " ".join(docs.split())
    assert "with Earth 2 a maim in turn 1 bleeds at the end of turns 3, 5, 7" in flat
    assert "(Earth 3: 4, 7, 10...)" in flat and "starts counting in the turn of the maim" not in flat


def _declaring(state, actor: FighterId, *, turn: int):  # type: ignore[no-untyped-def]
    """``state`` at the declaration of ``actor`` (everyone else already declared Wait)."""
    fighters = tuple(f if f.name == actor else replace(f, declared=Act(ActKind.WAIT)) for f in state.fighters)
    order = (actor, *[f.name for f in state.fighters if f.name != actor])
    return replace(
        state,
        fighters=fighters,
        turn=turn,
        phase=Phase.DECLARE,
        declare_order=order,
        act_order=tuple(reversed(order)),
        cursor=0,
    )


def test_medical_aid_stops_maim_bleeding(tables: L5Tables) -> None:
    # rule: L5.GAP.1 — medical aid: one action by a companion (or oneself), no roll; stops maim bleeding.
    t = hurt(Fighter(char("T", earth=2, side="S")), Location.LEG, "maimed", tables)
    state = duel(t, char("B", side="S"), char("E"), turn=1)
    state = replace(
        state,
        phase=Phase.RESOLVE,
        cursor=0,
        act_order=(FighterId("B"),),
        fighters=tuple(
            replace(f, declared=Act(ActKind.MEDICAL_AID, T)) if f.name == "B" else f for f in state.fighters
        ),
    )
    turn = L5Turn(state, ScriptedRng([]), tables)
    assert RULESET.follow_up(turn)  # one step: B's action resolves
    state = turn.state
    assert first(turn.events, "medical_aid").data["fighter"] == T
    assert not state.fighter(T).has("maim_bleed", 1) and "Lame" in state.fighter(T).conditions
    with pytest.raises(IllegalActionError) as err:
        validate_declaration(
            _declaring(state, FighterId("E"), turn=2), FighterId("E"), Act(ActKind.MEDICAL_AID, T), tables
        )
    assert err.value.rule == "L5.GAP.1"


def test_a_maim_sized_killing_blow_is_a_distinctive_death(tables: L5Tables) -> None:
    # rule: L5.CS.5 — no cap on maiming damage; filling the Dead rank with it is a distinctive death,
    # recorded with its cause.
    target = Fighter(char("T", earth=2), wounds=30)  # Out ceiling with Earth 2 is 38
    state = duel(char("A", agility=3, void=4), target)
    faces = [10, 9, 9, 9, 1, 1, 1, 10, 10, 5, 1, 1, 1, 1]  # 37 vs TN 30; damage 26 (a maim needs 8)
    state, out = play(state, resolve_attack, A, Attack(T, called_shot=Location.HEAD), dice=ScriptedRng(faces))
    t = state.fighter(T)
    assert t.dead and t.wounds == 56 and "decapitated" in t.death
    death = first(out, "death")
    assert death.rule == "L5.CS.5" and death.data["distinctive"] is True
    # a killing blow too small to maim is an ordinary death: Earth 3, Down at 51, the Dead rank filled at
    # 63 (L5.RD.4); a torso shot of 12 < Earth 3 x 8
    state = duel(char("A", agility=3, void=4), Fighter(char("T", earth=3), wounds=51))
    faces = [10, 9, 9, 9, 1, 1, 1, 6, 6, 1, 1, 1]  # 37 against TN 20; damage 5k2 = 12
    state, out = play(
        state, resolve_attack, A, Attack(T, called_shot=Location.TORSO), dice=ScriptedRng(faces)
    )
    assert state.fighter(T).dead and first(out, "death").data["distinctive"] is False


def test_arm_injuries(tables: L5Tables) -> None:
    # rule: L5.ARM.1 — deep gash: one less damage die; loose grip: no skill dice until an action;
    # numb arm: no rerolling 10s on attacks; maimed: Missing Limb.
    base = Fighter(char("T", agility=3, strength=2))
    assert (
        damage_pool(hurt(base, Location.ARM, "deep_gash", tables), Attack(A), tables, 1, damage_raises=0)[
            0
        ].rolled
        == 4
    )
    grip = hurt(base, Location.ARM, "loose_grip", tables)
    assert attack_pool(grip, tables, 1, full_attack=False).pool.rolled == 3
    state = _declaring(duel(grip, char("A")), T, turn=2)
    state, _ = apply(state, Declare(T, Act(ActKind.REGAIN_GRIP)), ScriptedRng([5] * 30))
    assert not state.fighter(T).has("no_skill_dice", 2)
    numb = hurt(base, Location.ARM, "numb_arm", tables)
    assert not attack_pool(numb, tables, 5, full_attack=False).pool.explode
    assert "Missing Limb" in hurt(base, Location.ARM, "maimed", tables).conditions


def test_foot_injuries(tables: L5Tables) -> None:
    # rule: L5.FOT.1 — can't support weight: -3 dice on balance rolls; pinned: cannot move until the
    # weapon is removed; fall: prone, TN to be hit 5, an action to regain footing; maimed: Lost Limb.
    base = Fighter(char("T", reflexes=4))
    assert dice_change(hurt(base, Location.FOOT, "no_weight", tables), 1, ("balance", "skill"))[0] == -3
    assert dice_change(hurt(base, Location.FOOT, "no_weight", tables), 1, ("skill",))[0] == 0
    pinned = hurt(base, Location.FOOT, "pinned", tables)
    assert pinned.has("cannot_move", 9)
    fallen = hurt(base, Location.FOOT, "fall", tables)
    assert defense_tn(fallen, tables, 1)[0] == 5
    state = _declaring(duel(fallen, char("A")), T, turn=2)
    with pytest.raises(IllegalActionError) as err:
        validate_declaration(state, T, Act(ActKind.REMOVE_WEAPON), tables)
    assert err.value.rule == "L5.FOT.1"
    state, _ = apply(state, Declare(T, Act(ActKind.REGAIN_FOOTING)), ScriptedRng([5] * 30))
    assert not state.fighter(T).has("prone", 3)
    assert "Lost Limb" in hurt(base, Location.FOOT, "maimed", tables).conditions


def test_hand_injuries(tables: L5Tables) -> None:
    # rule: L5.HND.1 — deep gash: one less damage die; no grip: drops the weapon, the hand unusable for
    # 3 turns; numb hand: unskilled on attacks (no raises, no exploding 10s); maimed: Missing Limb.
    base = Fighter(char("T"))
    assert dice_change(hurt(base, Location.HAND, "deep_gash", tables), 1, ("damage",))[0] == -1
    state = duel(char("A", agility=3, void=4), base)
    pending = InjuryPending(A, T, Location.HAND, 5, (3,), injury_options(base, Location.HAND, 5, tables))
    state, _ = play(replace(state, pending=pending), choose_injury, ChooseInjury(A, "no_grip"))
    t = state.fighter(T)
    assert not t.weapon_in_hand
    assert [t.has("hand_unusable", turn) for turn in (1, 2, 3, 4, 5)] == [True, True, True, True, False]
    with pytest.raises(IllegalActionError) as err:
        validate_attack(state, t, Attack(A), tables, free=0)
    assert err.value.rule in ("L5.DSM.1", "L5.HND.1")
    with pytest.raises(IllegalActionError) as err:
        validate_declaration(_declaring(state, T, turn=2), T, Act(ActKind.RECOVER_WEAPON), tables)
    assert err.value.rule == "L5.HND.1"
    validate_declaration(_declaring(state, T, turn=5), T, Act(ActKind.RECOVER_WEAPON), tables)
    numb = hurt(base, Location.HAND, "numb_hand", tables)
    ap = attack_pool(numb, tables, 1, full_attack=False)
    assert ap.unskilled and not ap.pool.explode
    with pytest.raises(IllegalActionError) as err:
        validate_attack(duel(numb, char("A")), numb, Attack(A, damage_raises=1), tables, free=0)
    assert err.value.rule == "L5.HND.1"
    assert "Missing Limb" in hurt(base, Location.HAND, "maimed", tables).conditions


def test_head_injuries(tables: L5Tables) -> None:
    # rule: L5.HED.1 — blackout: loses the next action, normal TN, no Full Defense; blood in eyes:
    # TN to be hit -5, a full turn to clear; dazed: -6 initiative, one less each turn; critical: extra
    # Wounds equal to the next highest damage die; maimed: Single Eye or Benten's Curse.
    base = Fighter(char("T", reflexes=3))
    black = hurt(base, Location.HEAD, "blackout", tables)
    state = _declaring(duel(black, char("A")), T, turn=2)
    with pytest.raises(IllegalActionError) as err:
        validate_declaration(state, T, Act(ActKind.FULL_DEFENSE), tables)
    assert err.value.rule == "L5.HED.1"
    before = state
    state, events = apply(state, Declare(T, Act(ActKind.WAIT)), ScriptedRng([5] * 40))
    lost = first(events, "lost_action")
    assert lost.rule == "L5.HED.1" and before.fighter(T).statuses != state.fighter(T).statuses
    fd = replace(black, full_defense_bonus=9)
    assert defense_tn(fd, tables, 1)[0] == 15  # normal TN to be hit while blacked out
    eyes = hurt(base, Location.HEAD, "blood_in_eyes", tables)
    assert defense_tn(eyes, tables, 4)[0] == 10
    dazed = hurt(base, Location.HEAD, "dazed", tables, turn=1)
    assert [initiative_pool(dazed, tables, turn)[1] for turn in range(1, 9)] == [0, -6, -5, -4, -3, -2, -1, 0]
    outcome = injury_effects(
        base, Location.HEAD, "critical", turn=1, tables=tables, attacker_weapon_skill=3, dropped=(8, 4, 1)
    )
    assert outcome.extra_wounds == 8
    assert "Single Eye" in hurt(base, Location.HEAD, "maimed", tables).conditions
    assert "Benten's Curse" in hurt(base, Location.HEAD, "maimed_scarred", tables).conditions


def test_blood_in_eyes_clears_after_a_full_turn(tables: L5Tables) -> None:
    # rule: L5.HED.1 — clearing takes the whole turn, at the reduced TN; the next turn it is gone.
    eyes = hurt(Fighter(char("T", reflexes=3)), Location.HEAD, "blood_in_eyes", tables)
    state = _declaring(duel(eyes, char("A")), T, turn=2)
    state, _ = apply(state, Declare(T, Act(ActKind.CLEAR_VISION)), ScriptedRng([5] * 40))
    assert state.turn == 3
    assert defense_tn(state.fighter(T), tables, 3)[0] == 15


def test_leg_injuries(tables: L5Tables) -> None:
    # rule: L5.LEG.1 — bloody gash: a Wound at the beginning of each turn; can't support full weight:
    # one less die on Full Defense; limping: movement halved; stumble: loses initiative next turn;
    # maimed: Lame.
    base = Fighter(char("T", skills=(("kenjutsu", 3), ("defense", 2))))
    gash = hurt(base, Location.LEG, "bloody_gash", tables, turn=1)
    state = replace(duel(gash, char("A"), turn=1, phase=Phase.RESOLVE))
    state, out = play(state, start_turn, dice=ScriptedRng([5] * 20))
    assert state.fighter(T).wounds == 1 and first(out, "wounds").rule == "L5.LEG.1"
    weak = hurt(base, Location.LEG, "weak_leg", tables)
    assert full_defense_pool(weak, tables, 1)[0].rolled == full_defense_pool(base, tables, 1)[0].rolled - 1
    assert hurt(base, Location.LEG, "limping", tables).has("movement_divisor", 1)
    stumble = hurt(base, Location.LEG, "stumble", tables, turn=1)
    assert [stumble.has("lose_initiative", turn) for turn in (1, 2, 3)] == [False, True, False]
    assert "Lame" in hurt(base, Location.LEG, "maimed", tables).conditions


def test_torso_injuries(tables: L5Tables) -> None:
    # rule: L5.TOR.1 — painful: -1 die on all skill rolls the next two turns; stunned: -3 initiative
    # next turn; losing blood: a Wound at the end of each turn the target declares an attack; vitals:
    # extra Wounds equal to the attacker's weapon skill; maimed: Permanent Wound, bleeding 3 Wounds.
    base = Fighter(char("T", agility=3))
    painful = hurt(base, Location.TORSO, "painful", tables, turn=1)
    assert [attack_pool(painful, tables, turn, full_attack=False).pool.rolled for turn in (1, 2, 3, 4)] == [
        6,
        5,
        5,
        6,
    ]
    assert [dice_change(painful, 2, (k,))[0] for k in ("skill", "damage")] == [-1, 0]
    stunned = hurt(base, Location.TORSO, "stunned", tables, turn=1)
    assert [initiative_pool(stunned, tables, turn)[1] for turn in (1, 2, 3)] == [0, -3, 0]
    bleeding = hurt(base, Location.TORSO, "losing_blood", tables)
    assert bleeding_due(bleeding, tables, 1, "end") == ()
    attacking = replace(bleeding, declared=Attack(A))
    assert [a for _, a, _ in bleeding_due(attacking, tables, 1, "end")] == [1]
    outcome = injury_effects(
        base, Location.TORSO, "vitals", turn=1, tables=tables, attacker_weapon_skill=4, dropped=()
    )
    assert outcome.extra_wounds == 4
    maimed = hurt(Fighter(char("T", earth=2)), Location.TORSO, "maimed", tables, turn=1)
    assert "Permanent Wound" in maimed.conditions
    assert [(a, r) for _, a, r in bleeding_due(maimed, tables, 3, "end")] == [(3, "L5.RD.3")]


def test_permanent_wound_reading_is_switchable(tables: L5Tables) -> None:
    # rule: L5.RD.3 — house default: the torso maim makes the maim bleed 3 Wounds; the other reading
    # (losing blood) is one data change away.
    pw = tables.called_shots.permanent_wound
    assert pw.bleeding == ["maim_bleed"] and pw.wounds == 3
    other = tables.model_copy(
        update={
            "called_shots": tables.called_shots.model_copy(
                update={"permanent_wound": pw.model_copy(update={"bleeding": ["bleed_after_attack"]})}
            )
        }
    )
    t = hurt(Fighter(char("T", earth=2)), Location.TORSO, "maimed", other, turn=1)
    t = replace(hurt(t, Location.TORSO, "losing_blood", other, turn=1), declared=Attack(A))
    due = sorted((s.kind, a) for s, a, _ in bleeding_due(t, other, 3, "end"))
    assert due == [("bleed_after_attack", 3), ("maim_bleed", 1)]


def test_gap_conditions_are_recorded_with_no_further_effect(tables: L5Tables) -> None:
    # rule: L5.GAP.1 — the disadvantages are named conditions; prone is the Fall injury's TN 5; the
    # only balance roll is the Drive footing roll.
    c = tables.called_shots.conditions
    assert c.house_default.rule == "L5.GAP.1"
    assert c.prone_tn_to_be_hit == 5 and c.balance_rolls == ["drive_footing"]
    base = Fighter(char("T"))
    for loc, name in (
        (Location.ARM, "Missing Limb"),
        (Location.LEG, "Lame"),
        (Location.TORSO, "Permanent Wound"),
    ):
        maimed = hurt(base, loc, "maimed", tables)
        assert name in maimed.conditions
        assert (
            attack_pool(maimed, tables, 1, full_attack=False).pool
            == attack_pool(base, tables, 1, full_attack=False).pool
        )


def test_bad_called_shot_tables_are_content_errors(tmp_path: Path) -> None:
    # rule: L5.CS.1 — the tables are data; broken overrides report file and field, every file at once.
    (tmp_path / "called_shots.yaml").write_text("locations: {torso: {raises: 1}}\n", encoding="utf-8")
    (tmp_path / "special_attacks.yaml").write_text("specials: 3\n", encoding="utf-8")
    with pytest.raises(ContentError) as err:
        content_for(tmp_path)
    files = {i.file for i in err.value.issues}
    assert any("called_shots.yaml" in f for f in files) and any("special_attacks.yaml" in f for f in files)
    raises = next(i for i in err.value.issues if "called_shots.yaml" in i.file)
    assert raises.field == "called_shots.locations.torso.raises" and raises.line == 1


@pytest.mark.parametrize("seed", range(6))
def test_an_injury_the_attack_can_never_offer_is_refused_before_the_roll(seed: int) -> None:
    # rule: L5.CS.1, L5.CS.2 — an injury is chosen for a called shot, among its location's: refused up
    # front whether the blow would land or not (a miss used to say nothing)
    from kassen.core.rng import Rng
    from kassen.l5r.calc import attack_once
    from kassen.l5r.tables import Location

    from .conftest import char

    a, d = char("a", void=5), char("d")
    with pytest.raises(IllegalActionError, match=r"'nope' is no injury of the head") as caught:
        attack_once(a, d, Attack(d.name, called_shot=Location.HEAD), Rng(seed), injury="nope")
    assert caught.value.rule == "L5.CS.2"
    with pytest.raises(IllegalActionError, match="only for a called shot") as caught:
        attack_once(a, d, Attack(d.name), Rng(seed), injury="critical")
    assert caught.value.rule == "L5.CS.1"
    attack_once(a, d, Attack(d.name, called_shot=Location.HEAD), Rng(seed), injury="dazed")
