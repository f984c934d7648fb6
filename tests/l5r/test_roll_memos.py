"""The pools and the TN to be hit are remembered by what they read: the character, the statuses active
this turn, the Full Defense bonus and a declared Full Attack; never by the fighter object or the turn.
Each remembered answer must be the rules' own for the fighter as it stands on that turn: the one worked
out afresh, with nothing remembered. And each remembered reading is a function of exactly its memo key
(it is handed ``*key`` and the tables), so it cannot read a field its key lacks."""

from __future__ import annotations

import ast
import inspect
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from kassen.core.fastreplace import replace
from kassen.core.scenario import open_fight
from kassen.l5r import policies, rolls
from kassen.l5r.actions import Attack
from kassen.l5r.rolls import (
    attack_pool,
    damage_pool,
    defense_tn,
    plan_raises,
    rank,
    wound_penalty,
)
from kassen.l5r.state import DuelState, Fighter, Status
from kassen.l5r.tables import L5Tables, SpecialAttackName

T = TypeVar("T")


def _afresh(tables: L5Tables, ask: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``ask(*args, **kwargs)`` with every reading worked out anew: the tables' memos emptied first."""
    m = tables.memos
    for memo in (m.ranks, m.defense_tns, m.attack_pools, m.plans):
        memo.clear()
    return ask(*args, **kwargs)


def _duel() -> tuple[DuelState, L5Tables]:
    fight = open_fight("l5r/kakita-vs-hida", seed=0)
    return fight.state, fight.tables  # type: ignore[return-value]


def _variants(f: Fighter, foe: str) -> list[Fighter]:
    """The fighter as each thing the answers read changes: a status active on turn 1 only, for each
    kind the pools and the TN read; a Full Defense bonus; a declared Full Attack or a plain attack."""
    one_turn = [
        Status("tn_to_be_hit", "a test", "L5.CORE.2", amount=5, start_turn=1, end_turn=1),
        Status("prone", "a test", "L5.FOT.1", start_turn=1, end_turn=1),
        Status("blackout", "a test", "L5.HED.1", amount=1, start_turn=1, end_turn=1),
        Status("dice", "a test", "L5.ARM.1", amount=-1, applies_to="damage", start_turn=1, end_turn=1),
        Status("dice", "a test", "L5.TOR.1", amount=-1, applies_to="attack", start_turn=1, end_turn=1),
        Status("bound", "a test", "L5.BND.1", amount=1, start_turn=1, end_turn=1, other=foe),
        Status("no_skill_dice", "a test", "L5.HND.1", start_turn=1, end_turn=1),
        Status("no_reroll_tens", "a test", "L5.HND.1", start_turn=1, end_turn=1),
    ]
    out = [f]
    out += [replace(f, statuses=(s,)) for s in one_turn]
    out.append(replace(f, full_defense_bonus=7))
    out.append(replace(f, full_defense_bonus=7, statuses=(one_turn[2],)))
    out.append(replace(f, declared=Attack(foe, full_attack=True)))
    out.append(replace(f, declared=Attack(foe)))
    # and as what no reading reads changes: the turn's bookkeeping, where it stands, its weapon
    out.append(replace(f, initiative=31, acted=True, declarations_made=2, full_defense_rolled=True))
    out.append(replace(f, position=20, weapon_at=5, bloodied=True, conditions=("a test",)))
    out.append(replace(f, statuses=(Status("free_raise", "a test", "L5.CORE.4", amount=1, other=foe),)))
    return out


def test_remembered_pools_and_tns_are_the_rules_own_on_every_turn() -> None:
    # rule: L5.CORE.2 (TN to be hit), L5.CORE.7 (Full Attack, Full Defense), L5.CORE.9 (attack roll),
    # rule: L5.CORE.5 (damage roll), L5.DMG.1 (raises for damage), L5.BND.1, L5.FOT.1, L5.HED.1
    state, tables = _duel()
    a, b = state.fighters[0], state.fighters[1]
    compared = 0
    for f in _variants(a, b.name):
        # turn 1 then turn 2 (the one-turn statuses gone), then turn 1 again: each asked of the memo in turn
        for turn in (1, 2, 1):
            assert defense_tn(f, tables, turn) == _afresh(tables, defense_tn, f, tables, turn)
            for wounds in (None, 0, 40):
                assert rank(f, tables, wounds) == _afresh(tables, rank, f, tables, wounds)
                assert wound_penalty(f, tables, wounds) == _afresh(tables, wound_penalty, f, tables, wounds)
            for full in (False, True):
                assert attack_pool(f, tables, turn, full_attack=full) == _afresh(
                    tables, attack_pool, f, tables, turn, full_attack=full
                )
            for special in (None, SpecialAttackName.SUBDUE, SpecialAttackName.MARK):
                for raises in (0, 2):
                    attack = Attack(b.name, damage_raises=raises, special=special)
                    assert damage_pool(f, attack, tables, turn, damage_raises=raises) == _afresh(
                        tables, damage_pool, f, attack, tables, turn, damage_raises=raises
                    )
                    assert plan_raises(attack, f, tables, free=1, unskilled=False) == _afresh(
                        tables, plan_raises, attack, f, tables, free=1, unskilled=False
                    )
            compared += 1
    assert compared == 3 * len(_variants(a, b.name))
    # and the answers really differ where what they read does (else the comparison above proves little)
    blind = _variants(a, b.name)
    assert rank(replace(a, wounds=40), tables) != rank(a, tables)
    assert defense_tn(blind[1], tables, 1)[0] != defense_tn(blind[1], tables, 2)[0]  # +5 on turn 1 only
    assert defense_tn(blind[9], tables, 1)[0] != defense_tn(blind[0], tables, 1)[0]  # Full Defense
    assert defense_tn(blind[11], tables, 1)[0] != defense_tn(blind[12], tables, 1)[0]  # Full Attack declared
    assert (
        damage_pool(blind[4], Attack(b.name), tables, 1, damage_raises=0)[0]
        != damage_pool(blind[4], Attack(b.name), tables, 2, damage_raises=0)[0]
    )
    assert (
        attack_pool(blind[5], tables, 1, full_attack=False).pool
        != attack_pool(blind[5], tables, 2, full_attack=False).pool
    )


def test_every_action_plays_on_the_contents_one_instance_of_each_character() -> None:
    # The memos are keyed by characters: a state read back from JSON has its own instances (equal, not
    # the same), which a memo finds only by comparing every field. The first action of such a state
    # plays on the content's shared instance of each character (kassen.l5r.turn.shared_characters), with
    # the same state id and the same play; a state already made of them is taken as it is.
    import json

    from kassen.core.fight import Fight
    from kassen.l5r.turn import shared_characters

    fight = open_fight("l5r/bridge-ambush", seed=5)
    fight.autoplay()
    again = Fight.from_json(json.loads(fight.log_json()))
    first = again._snapshots[0].state
    shared = shared_characters(first, again.tables)
    assert shared == first and shared is not first
    assert all(
        a.character == b.character and a.character is not b.character
        for a, b in zip(first.fighters, shared.fighters, strict=True)
    )
    assert shared_characters(shared, again.tables) is shared
    assert all(f.character is again.tables.memos.characters[f.character] for f in again.state.fighters)
    assert again.log_json() == fight.log_json()


#: The readings the duel's tables remember, each handed exactly its memo key (and the tables).
_REMEMBERED = (
    (rolls, "_rank"),
    (rolls, "_defense_tn"),
    (rolls, "_attack_pool"),
    (rolls, "_plan_or_refusal"),
    (policies, "_worth"),
    (policies, "_damage_worth"),
)


def test_each_remembered_reading_is_a_function_of_its_memo_key_alone() -> None:
    # Structural: every memo write in the roll-and-keep rules stores ``f(*key, tables)`` (or ``f(key,
    # tables)`` for a one-value key) of a function that takes only plain values (no fighter, no duel
    # state): a rule that comes to read one more value cannot read it without adding it to the key.
    from kassen.l5r.state import Fighter

    for module in (rolls, policies):
        tree = ast.parse(Path(inspect.getfile(module)).read_text(encoding="utf-8"))
        puts = [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "put"
        ]
        assert puts, module.__name__
        for put in puts:
            key, made = put.args
            assert isinstance(made, ast.Call) and isinstance(made.func, ast.Name), ast.unparse(put)
            first = made.args[0]
            assert ast.unparse(first) in (f"*{ast.unparse(key)}", ast.unparse(key)), ast.unparse(put)
            assert (module, made.func.id) in _REMEMBERED, ast.unparse(put)
    for module, name in _REMEMBERED:
        hints = typing.get_type_hints(getattr(module, name))
        hints.pop("return")
        assert hints, name
        for arg, kind in hints.items():
            assert kind not in (Fighter, DuelState), (name, arg)  # a plain value, not a record of the fight
