"""Special attacks and their contested rolls (L5.SPC.*, L5.BND.1 ... L5.SUB.1, L5.RD.1, L5.RD.2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kassen.core.engine import drain
from kassen.core.errors import IllegalActionError
from kassen.core.fight import Fight
from kassen.l5r.actions import Act, ActKind, Attack, Begin, ChooseCorps, ChooseDrive, Declare, ThroatStrike
from kassen.l5r.attacks import resolve_attack
from kassen.l5r.character import FighterId
from kassen.l5r.content import bundled_content
from kassen.l5r.flow import check_over
from kassen.l5r.rolls import attack_pool, defense_tn
from kassen.l5r.ruleset import RULESET
from kassen.l5r.specials import choose_corps
from kassen.l5r.state import CorpsPending, DrivePending, Fighter, Phase, Status, ThroatPending
from kassen.l5r.tables import L5Tables, SpecialAttackName
from kassen.l5r.turn import L5Turn
from kassen.l5r.validate import validate_attack, validate_declaration
from kassen.l5r.wounds import out_ceiling

from .conftest import ScriptedRng, apply, char, duel, first, kinds, play

A, T, B = FighterId("A"), FighterId("T"), FighterId("B")
HIT = [10, 9, 9, 9, 9, 9, 9]  # 6k3 → (10+9) + 9 + 9 = 37: hits TN 10 with up to 5 raises
S = SpecialAttackName


def attacker(**kw: object) -> Fighter:
    return Fighter(char("A", agility=3, void=4, strength=3, **kw))  # type: ignore[arg-type]


def declaring(state, actor: FighterId, turn: int = 2):  # type: ignore[no-untyped-def]
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
        pending=None,
    )


def test_special_attacks_need_a_hit_and_most_deal_no_wounds(tables: L5Tables) -> None:
    # rule: L5.SPC.1 — a special attack is a Normal or Full Attack with raises; it needs a successful
    # attack roll; non-damaging ones take no raises for damage or called shots.
    state = duel(attacker(), char("T"))
    after, out = play(
        state, resolve_attack, A, Attack(T, special=S.DISARM), dice=ScriptedRng([2, 2, 2, 1, 1, 1])
    )
    assert first(out, "attack").data["hit"] is False and "disarm" not in kinds(out)
    assert after.fighter(T).weapon_in_hand
    with pytest.raises(IllegalActionError) as err:
        validate_attack(state, state.fighter(A), Attack(T, damage_raises=1, special=S.MARK), tables, free=0)
    assert err.value.rule == "L5.SPC.1"
    validate_attack(state, state.fighter(A), Attack(T, special=S.BIND, full_attack=True), tables, free=0)
    assert {s.value: tables.special(s).raises for s in S} == {
        "bind": 3,
        "clipping": 4,
        "corps_a_corps": 1,
        "disarm": 3,
        "drive": 1,
        "foul": 4,
        "mark": 2,
        "point_to_throat": 4,
        "subdue": 2,
    }


@pytest.mark.parametrize("special", ["clipping", "mark", "point_to_throat", "subdue"])
def test_barred_from_full_attack_and_the_state_is_unchanged(special: str) -> None:
    # rule: L5.SPC.2 — Clipping, Mark, Point-to-throat and Subdue may not be part of a Full Attack;
    # the illegal declaration is a typed error and leaves the chronicle as it was.
    state = declaring(duel(attacker(), char("T")), A)
    chronicle = Fight(RULESET, bundled_content(), state, seed=1)
    before = chronicle.log_json()
    with pytest.raises(IllegalActionError) as err:
        chronicle.apply(Declare(A, Attack(T, special=S(special), full_attack=True)))
    assert err.value.rule == "L5.SPC.2"
    assert chronicle.log_json() == before and chronicle.state is state
    chronicle.apply(Declare(A, Attack(T, special=S(special))))


def test_bind(tables: L5Tables) -> None:
    # rule: L5.BND.1 — the bound lose skill on attacks equal to the binder's weapon skill (possibly
    # unskilled) until freed; freeing: an action, Agility + Weapon Skill at full value against the Bind
    # roll, or a hit on the binder; the binding weapon cannot attack while binding nor that turn.
    state = duel(attacker(skills=(("kenjutsu", 3),)), char("T", skills=(("kenjutsu", 3),)))
    state, out = play(state, resolve_attack, A, Attack(T, special=S.BIND), dice=ScriptedRng(HIT))
    t = state.fighter(T)
    assert t.active("bound", 1)[0].roll == 37
    ap = attack_pool(t, tables, 1, full_attack=False)
    assert ap.unskilled and ap.pool.rolled == 2  # kenjutsu 3 - 3 = 0: unskilled
    with pytest.raises(IllegalActionError) as err:
        validate_attack(state, t, Attack(A, damage_raises=1), tables, free=0)
    assert err.value.rule == "L5.BND.1"
    with pytest.raises(IllegalActionError) as err:
        validate_declaration(declaring(state, A), A, Attack(T), tables)
    assert err.value.rule == "L5.BND.1"
    # freeing by the roll: Agility 2 + kenjutsu 3 (full value) = 5k2 against 37
    state2 = replace(declaring(state, T), act_order=(T, A))
    state2, events = apply(
        state2, Declare(T, Act(ActKind.FREE_WEAPON)), ScriptedRng([10, 10, 10, 9, 9, 1, 1, 1], strict=False)
    )
    assert first(events, "free_weapon").data["success"] is True
    assert not state2.fighter(T).has("bound", 2)
    # freeing by hitting the binder with the trapped weapon
    freed, out = play(state, resolve_attack, T, Attack(A), dice=ScriptedRng([10, 9, 1, 1, 1] + [1] * 10))
    assert "bind_freed" in kinds(out) and not freed.fighter(T).has("bound", 1)
    assert freed.fighter(A).has("cannot_attack", 1) and not freed.fighter(A).has("cannot_attack", 2)


def test_clipping_is_recorded_and_harmless(tables: L5Tables) -> None:
    # rule: L5.CLP.1 — no harm; the intimidation (a GAP) is recorded as a condition, no mechanical effect.
    state = duel(attacker(), char("T"))
    state, out = play(state, resolve_attack, A, Attack(T, special=S.CLIPPING), dice=ScriptedRng(HIT))
    t = state.fighter(T)
    assert t.wounds == 0 and "intimidated" in t.conditions and first(out, "clipping").rule == "L5.CLP.1"
    assert tables.special_attacks.clipping.house_default.rule == "L5.CLP.1"


def _locked(tables: L5Tables, faces: list[int]):  # type: ignore[no-untyped-def]
    state = duel(attacker(), char("T", skills=(("kenjutsu", 3), ("defense", 2), ("jiujutsu", 1))))
    return play(state, resolve_attack, A, Attack(T, special=S.CORPS_A_CORPS), dice=ScriptedRng(faces))


def test_corps_a_corps_disengage_and_struggle(tables: L5Tables) -> None:
    # rule: L5.CAC.1 — weapons lock; the defender disengages (Agility + Defense against the roll: a Free
    # Raise against the attacker on its next action) or struggles (opposed Strength + Hand-to-Hand;
    # the loser is thrown prone and takes the victor's Strength in Wounds).
    state, out = _locked(tables, HIT)
    assert isinstance(state.pending, CorpsPending) and state.fighter(T).has("locked", 1)
    ok, _ = play(
        state, choose_corps, ChooseCorps(T, "disengage"), dice=ScriptedRng([10, 10, 10, 10, 1, 1, 1, 1])
    )
    t = ok.fighter(T)
    assert not t.has("locked", 1) and t.active("free_raise", 1)[0].amount == 1
    assert t.active("free_raise", 1)[0].other == A
    # failing to disengage becomes a struggle: A (Strength 3, no jiujutsu: 3k3 unskilled) beats T
    s, out = play(
        state, choose_corps, ChooseCorps(T, "disengage"), dice=ScriptedRng([1, 1, 1, 1, 9, 9, 9, 1, 1, 1])
    )
    assert kinds(out) == ["disengage", "struggle", "thrown", "wounds"]
    assert first(out, "disengage").data["success"] is False
    strength = state.fighter(A).character.strength
    assert first(out, "thrown").data["fighter"] == T
    assert (first(out, "wounds").data["fighter"], first(out, "wounds").data["wounds"]) == (T, strength)
    t = s.fighter(T)
    assert t.has("prone", 1) and t.wounds == strength and not t.has("locked", 1)
    assert not t.active("free_raise", 1)  # only a successful disengage earns the Free Raise


def _go(state, action, faces):  # type: ignore[no-untyped-def]
    """Apply ``action`` with exactly these dice (all of them used)."""
    rng = ScriptedRng(faces)
    state, events = apply(state, action, rng)
    assert not rng.faces, f"unused faces {rng.faces}"
    return state, events


def _declare(state, acts, faces):  # type: ignore[no-untyped-def]
    """Everyone declares (``acts`` by name, in the declaration order); ``faces`` roll what follows."""
    order = state.declare_order
    for name in order[:-1]:
        state, _ = _go(state, Declare(name, acts[name]), [])
    return _go(state, Declare(order[-1], acts[order[-1]]), faces)


@pytest.mark.parametrize("defender_acted", [False, True], ids=["acts_later_this_turn", "already_acted"])
def test_corps_a_corps_disengage_free_raise_is_for_the_next_action_only(
    tables: L5Tables, defender_acted: bool
) -> None:
    # rule: L5.CAC.1 — a successful disengage gives a Free Raise to strike the attacker on the defender's
    # next action only: this turn's if it has yet to act, else the next turn's. Here it goes unused
    # on effects, so it lowers the TN (L5.CORE.4); the action after that has no Free Raise.
    fast, slow = [9, 9, 9], [1, 1, 2]  # initiative 3k2: 18 and 3 (A rolls first, then T)
    disengaged = [10, 10, 10, 10, 1, 1, 1, 1]  # T's 4k2 disengage roll: 42 against the Corps roll 37
    swing, blow = [4, 3, 1, 1, 1], [1, 1, 1, 1, 1]  # T's 5k2 attack rolls 7; damage 5k2 rolls 2
    init = [*slow, *fast] if defender_acted else [*fast, *slow]
    target = char("T", skills=(("kenjutsu", 3), ("defense", 2), ("jiujutsu", 1)))
    state, _ = _go(duel(attacker(), target, turn=0, phase=Phase.START), Begin(), init)
    corps = Attack(T, special=S.CORPS_A_CORPS)
    strike: dict[FighterId, object] = {A: Act(ActKind.WAIT), T: Attack(A)}
    if defender_acted:  # T is faster: it waits, then A locks weapons with it
        state, _ = _declare(state, {A: corps, T: Act(ActKind.WAIT)}, HIT)
        state, _ = _go(state, ChooseCorps(T, "disengage"), [*disengaged, *init])
        [grant] = state.fighter(T).active("free_raise", state.turn)
        assert (grant.other, grant.amount) == (A, tables.special_attacks.corps_a_corps.disengage_free_raises)
        state, events = _declare(state, strike, [*swing, *blow, *init])  # the next turn's action
    else:  # T is slower: A's Corps-a-Corps comes first, T's declared attack follows this turn
        state, _ = _declare(state, {A: corps, T: Attack(A)}, HIT)
        state, events = _go(state, ChooseCorps(T, "disengage"), [*disengaged, *swing, *blow, *init])
    lower = tables.core.free_raises.unused_lowers_tn_by
    base = defense_tn(state.fighter(A), tables, state.turn)[0]
    assert lower > 0
    used = next(e for e in events if e.kind == "attack" and e.data["attacker"] == T)
    assert (used.data["tn"], used.data["hit"]) == (base - lower, True)
    assert any(st["rule"] == "L5.CORE.4" for st in used.data["steps"])
    assert not state.fighter(T).active("free_raise", state.turn)  # gone once that action has passed
    state, events = _declare(state, strike, [*swing, *init])  # the action after: no Free Raise
    after = next(e for e in events if e.kind == "attack" and e.data["attacker"] == T)
    assert (after.data["tn"], after.data["hit"]) == (base, False)
    assert not any(st["rule"] == "L5.CORE.4" for st in after.data["steps"])


def test_corps_a_corps_close_contest_stays_locked_into_the_next_turn(tables: L5Tables) -> None:
    # rule: L5.RD.1 — close = the totals differ by 4 or less (house default): nobody is thrown, the two
    # stay locked; next turn each declares struggle or disengage, and both disengaging frees them.
    state, out = _locked(tables, HIT)
    close, out = play(state, choose_corps, ChooseCorps(T, "struggle"), dice=ScriptedRng([5, 4, 3, 5, 4, 1]))
    assert first(out, "struggle").data["close"] is True
    assert close.fighter(T).has("locked", 2) and close.fighter(A).has("locked", 2)
    assert not close.fighter(T).has("prone", 1)
    decisive, _ = play(state, choose_corps, ChooseCorps(T, "struggle"), dice=ScriptedRng([5, 4, 3, 1, 1, 1]))
    assert not decisive.fighter(T).has("locked", 1) and decisive.fighter(T).has("prone", 1)
    nxt = declaring(close, A)
    nxt = nxt.with_fighter(replace(nxt.fighter(T), declared=None))
    with pytest.raises(IllegalActionError) as err:
        validate_declaration(nxt, A, Attack(T), tables)
    assert err.value.rule == "L5.CAC.1"
    both, _ = apply(nxt, Declare(A, Act(ActKind.DISENGAGE)), ScriptedRng([]))
    assert nxt.act_order == (T, A)
    # both disengage: free at once, and all their other actions that turn are lost — T's resolves the
    # pair and A's is gone with it: no roll, nothing else until turn 3 (whose initiative these dice are)
    rng = ScriptedRng([3, 2, 1, 4, 4, 1])
    both, events = apply(both, Declare(T, Act(ActKind.DISENGAGE)), rng)
    assert not rng.faces
    assert kinds(events) == ["declare", "disengage", "turn", "initiative", "initiative"]
    assert "both" in first(events, "disengage").data["text"] and both.turn == 3
    assert not both.fighter(A).has("locked", 3) and not both.fighter(T).has("locked", 3)
    # the reading is data: with the loser thrown even in a close contest
    loose = tables.model_copy(
        update={
            "special_attacks": tables.special_attacks.model_copy(
                update={
                    "corps_a_corps": tables.special_attacks.corps_a_corps.model_copy(
                        update={"close_loser_thrown": True}
                    )
                }
            )
        }
    )
    thrown, _ = play(
        state, choose_corps, ChooseCorps(T, "struggle"), dice=ScriptedRng([5, 4, 3, 5, 4, 1]), tables=loose
    )
    assert thrown.fighter(T).has("prone", 1) and thrown.fighter(T).has("locked", 1)


def test_disarm(tables: L5Tables) -> None:
    # rule: L5.DSM.1 — the opponent rolls weapon skill + Strength keeping weapon skill against the
    # Disarm roll; failing, the weapon lands (attacker's Strength + one die) feet away.
    state = duel(attacker(), char("T", skills=(("kenjutsu", 2),)))
    lost, out = play(
        state, resolve_attack, A, Attack(T, special=S.DISARM), dice=ScriptedRng([*HIT, 5, 5, 1, 1, 6])
    )
    ev = next(e for e in out if e.kind == "disarm")
    assert "4k2" in str(ev.data["steps"]) and ev.data["feet"] == 3 + 6
    # rule: L5.GAP.1 — it lies behind its owner, away from the attacker (the position model)
    assert not lost.fighter(T).weapon_in_hand and lost.fighter(T).weapon_at == 9 and ev.data["weapon_at"] == 9
    kept, _ = play(
        state,
        resolve_attack,
        A,
        Attack(T, special=S.DISARM),
        dice=ScriptedRng([*HIT, 10, 10, 10, 9, 1, 1, 1]),
    )
    assert kept.fighter(T).weapon_in_hand


def test_drive_give_way_refuse_and_pinned(tables: L5Tables) -> None:
    # rule: L5.DRV.1 — driven back up to Strength + Weapon Skill feet; Agility + Athletics against half
    # the Drive roll or prone; a defender aware of danger may refuse: the raise then counts for damage.
    state = duel(attacker(), char("T"))
    pushed, out = play(state, resolve_attack, A, Attack(T, special=S.DRIVE), dice=ScriptedRng([*HIT, 3, 2]))
    t = pushed.fighter(T)
    assert t.position == 3 + 3 and t.has("prone", 1)  # straight back from A; 5 < 37 // 2
    steady, _ = play(state, resolve_attack, A, Attack(T, special=S.DRIVE), dice=ScriptedRng([*HIT, 10, 9, 1]))
    assert not steady.fighter(T).has("prone", 1) and steady.fighter(T).wounds == 0
    aware = duel(attacker(), char("T", hazard_behind=True))
    waiting, _ = play(aware, resolve_attack, A, Attack(T, special=S.DRIVE), dice=ScriptedRng(HIT))
    assert isinstance(waiting.pending, DrivePending)
    _refused, events = apply(
        replace(waiting, phase=Phase.RESOLVE),
        ChooseDrive(T, "refuse"),
        ScriptedRng([5, 5, 5, 5, 5, 5, 5], strict=False),
    )
    dmg = first(events, "damage")
    assert "7k2" in str(dmg.data["steps"])  # katana 3 + Strength 3 + the Drive's raise
    pinned = Fighter(
        char("T"), statuses=(Status("cannot_move", "foot: pinned", "L5.FOT.1", ended_by="remove_weapon"),)
    )
    _, out = play(
        duel(attacker(), pinned),
        resolve_attack,
        A,
        Attack(T, special=S.DRIVE),
        dice=ScriptedRng(HIT + [5] * 7),
    )
    assert "7k2" in str(first(out, "damage").data["steps"])


def test_drive_damage_reading_is_switchable(tables: L5Tables) -> None:
    # rule: L5.RD.2 — house default: a Drive given way to deals no Wounds; the other reading is data.
    assert tables.special_attacks.drive.give_way_deals_damage is False
    other = tables.model_copy(
        update={
            "special_attacks": tables.special_attacks.model_copy(
                update={
                    "drive": tables.special_attacks.drive.model_copy(update={"give_way_deals_damage": True})
                }
            )
        }
    )
    state = duel(attacker(), char("T"))
    state, out = play(
        state,
        resolve_attack,
        A,
        Attack(T, special=S.DRIVE),
        dice=ScriptedRng(HIT + [10, 9, 1] + [4] * 6),
        tables=other,
    )
    assert state.fighter(T).wounds == 8 and "6k2" in str(first(out, "damage").data["steps"])


def test_foul(tables: L5Tables) -> None:
    # rule: L5.FOL.1 — normal damage to one opponent, driven to obstruct another attacker acting later
    # in the initiative order; with no one later it obstructs no one.
    a = attacker()
    t, b = char("T", side="foes"), char("B", side="foes")
    state = replace(duel(a, t, b), act_order=(A, B, T), cursor=1)
    state = state.with_fighter(replace(state.fighter(B), declared=Attack(A)))
    foul = Attack(T, special=S.FOUL, obstructs=B)
    state, out = play(state, resolve_attack, A, foul, dice=ScriptedRng(HIT + [4] * 6))
    assert state.fighter(T).wounds == 8 and state.fighter(B).has("obstructed", 1)
    _, out = play(state, resolve_attack, B, Attack(A), dice=ScriptedRng([9] * 10))
    assert first(out, "lost_action").rule == "L5.FOL.1"
    early = replace(duel(a, t, b), act_order=(B, A, T), cursor=2)
    early = early.with_fighter(replace(early.fighter(B), acted=True))
    early, out = play(early, resolve_attack, A, foul, dice=ScriptedRng(HIT + [4] * 6))
    assert not early.fighter(B).has("obstructed", 1) and "obstructs no one" in first(out, "foul").data["text"]
    # another opponent there: the Foul must name whom its target obstructs
    with pytest.raises(IllegalActionError) as err:
        validate_attack(duel(a, t, b), a, Attack(T, special=S.FOUL), tables, free=0)
    assert err.value.rule == "L5.FOL.1"
    # nobody else: ineffective, not illegal ("at least one opponent must come after the attack ... for
    # this action to be effective"): a plain blow, and the log says the Foul obstructs no one
    alone = duel(a, char("T"))
    validate_attack(alone, a, Attack(T, special=S.FOUL), tables, free=0)
    alone, out = play(alone, resolve_attack, A, Attack(T, special=S.FOUL), dice=ScriptedRng(HIT + [4] * 6))
    assert alone.fighter(T).wounds == 8 and "no effect beyond its damage" in first(out, "foul").data["text"]


def test_mark_bloodies_without_wounds_and_wins_first_blood(tables: L5Tables) -> None:
    # rule: L5.MRK.1 — no real damage, the opponent is bloodied: a contest to first blood ends.
    state = duel(attacker(), char("T"), ends_at="first_blood")
    state, _ = play(state, resolve_attack, A, Attack(T, special=S.MARK), dice=ScriptedRng(HIT))
    assert state.fighter(T).wounds == 0 and state.fighter(T).bloodied
    state, out = play(state, check_over)
    assert state.phase is Phase.OVER and state.winner == "A"
    assert first(out, "over").data["winner"] == "A" and state.reason == "first blood"


def _threatened(**kw: object):  # type: ignore[no-untyped-def]
    state = duel(attacker(), char("T", **kw))  # type: ignore[arg-type]
    state, _ = play(state, resolve_attack, A, Attack(T, special=S.POINT_TO_THROAT), dice=ScriptedRng(HIT))
    assert state.fighter(T).has("threatened", 1) and state.fighter(A).has("holding_point", 1)
    return state


def test_point_to_throat_strikes_with_free_raises_when_the_threatened_attacks(tables: L5Tables) -> None:
    # rule: L5.PTT.1 — if the opponent attacks, the holder strikes at once with four Free Raises; both
    # actions resolve together: the threatened's attack still happens, with its earlier penalties.
    state = _threatened()
    state = replace(
        state,
        turn=2,
        phase=Phase.RESOLVE,
        act_order=(T, A),
        cursor=0,
        fighters=tuple(
            replace(f, declared=Attack(A) if f.name == T else Act(ActKind.HOLD_POINT)) for f in state.fighters
        ),
    )
    turn = L5Turn(state, ScriptedRng([]), tables)
    drain(lambda: RULESET.follow_up(turn))
    state = turn.state
    assert isinstance(state.pending, ThroatPending) and state.exchange is not None
    legal = RULESET.legal_actions(state, tables)
    assert ThroatStrike(A, Attack(T, damage_raises=4)) in legal
    strike = Attack(T, damage_raises=4)
    faces = [9, 9, 9, 1, 1, 1, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 9, 1, 1, 1, 1, 1, 1]
    state, events = apply(state, ThroatStrike(A, strike), ScriptedRng([*faces, 9, 9, 1, 1, 1], strict=False))
    attacks = [e for e in events if e.kind == "attack"]
    assert attacks[0].data["attacker"] == "A" and attacks[0].data["free_raises"] == 4
    assert attacks[0].data["tn"] == 10  # four Free Raises: no TN increase
    assert attacks[1].data["attacker"] == "T"  # the threatened's attack still resolves
    assert not state.fighter(T).has("threatened", 2)


def test_point_to_throat_full_defense_bonus_is_settled_first(tables: L5Tables) -> None:
    # rule: L5.PTT.1 — a threatened character declaring Full Defense rolls its bonus before the extra
    # attack resolves, and may yield instead ("a good time to talk").
    state = _threatened(skills=(("kenjutsu", 3), ("defense", 3)))
    d = declaring(state, T)
    validate_declaration(d, T, Act(ActKind.YIELD), tables)
    state, _events = apply(d, Declare(T, Act(ActKind.FULL_DEFENSE)), ScriptedRng([9, 9, 1, 1, 1]))
    assert isinstance(state.pending, ThroatPending)
    assert state.fighter(T).full_defense_bonus == 9
    tn, _ = defense_tn(state.fighter(T), tables, state.turn)
    assert tn == 10 + 9


def test_subdue_rolls_one_less_die_and_never_kills(tables: L5Tables) -> None:
    # rule: L5.SUB.1 — damage -1k0; never below the Out rank.
    t = Fighter(char("T", earth=2), wounds=30)
    state = duel(attacker(), t)
    state, out = play(
        state,
        resolve_attack,
        A,
        Attack(T, special=S.SUBDUE),
        dice=ScriptedRng([*HIT, 10, 10, 10, 10, 9, 9, 9, 9, 9]),
    )
    assert "5k2" in str(first(out, "damage").data["steps"])  # 3 + Strength 3 - 1
    t = state.fighter(T)
    assert not t.dead and t.wounds == out_ceiling(2, tables) == 38
    assert first(out, "wounds").data["total"] == 38
