"""The ruleset on the core's Fight: illegal declarations change nothing, replay, undo, JSON.

Rules: L5.CORE.3 (raise limit, unskilled), L5.SPC.2, L5.HED.1 (illegal declarations), L5.CORE.8 (the
turn loop), L5.CAC.1 (locked across turns).
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kassen import open_fight
from kassen.content.content import Content, inline_layer
from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.fight import Fight, state_codec
from kassen.core.policy import Decision
from kassen.core.ruleset import find_ruleset
from kassen.l5r.actions import Act, Action, ActKind, Attack, Begin, Declaration, Declare
from kassen.l5r.character import FighterId
from kassen.l5r.content import bundled_content, load_content
from kassen.l5r.injuries import injury_effects
from kassen.l5r.policies import heuristic
from kassen.l5r.rolls import raise_cost
from kassen.l5r.ruleset import RULESET
from kassen.l5r.scenario import bundled_scenarios, run_duel
from kassen.l5r.state import DuelState, Fighter, Phase
from kassen.l5r.tables import L5Tables, Location, SpecialAttackName
from kassen.l5r.validate import validate_declaration

from .conftest import char, duel

A, T = FighterId("A"), FighterId("T")


def at_declaration(state: DuelState, actor: FighterId) -> DuelState:
    others = tuple(f if f.name == actor else replace(f, declared=Act(ActKind.WAIT)) for f in state.fighters)
    order = (actor, *[f.name for f in state.fighters if f.name != actor])
    return replace(
        state,
        fighters=others,
        turn=1,
        phase=Phase.DECLARE,
        declare_order=order,
        act_order=tuple(reversed(order)),
        cursor=0,
    )


def fight_at(
    state: DuelState, seed: int, content: Content[L5Tables] | None = None
) -> Fight[DuelState, Action]:
    """A fight from ``state``, over the bundled content unless another is given."""
    return Fight(RULESET, content or bundled_content(), state, seed)


def assert_refused(state: DuelState, action: Declare, rule: str) -> None:
    chronicle = fight_at(state, seed=5)
    before = (chronicle.log_json(), chronicle.state, chronicle.snapshot.rng, chronicle.state_id)
    with pytest.raises(IllegalActionError) as err:
        chronicle.apply(action)
    assert err.value.rule == rule
    assert (chronicle.log_json(), chronicle.state, chronicle.snapshot.rng, chronicle.state_id) == before


def test_more_raises_than_allowed_is_refused_and_changes_nothing() -> None:
    # rule: L5.CORE.3 — the raise limit (Void): a declaration beyond it is a typed error, no change.
    state = at_declaration(duel(char("A", void=2), char("T")), A)
    assert_refused(state, Declare(A, Attack(T, damage_raises=3)), "L5.CORE.3")
    assert_refused(state, Declare(A, Attack(T, called_shot=Location.HEAD)), "L5.CORE.3")


def test_clipping_in_a_full_attack_is_refused_and_changes_nothing() -> None:
    # rule: L5.SPC.2 — Clipping may not be part of a Full Attack.
    state = at_declaration(duel(char("A", void=4), char("T")), A)
    assert_refused(
        state, Declare(A, Attack(T, special=SpecialAttackName.CLIPPING, full_attack=True)), "L5.SPC.2"
    )


def test_raises_while_unskilled_are_refused_and_change_nothing() -> None:
    # rule: L5.CORE.3 — an unskilled roll may not raise (no weapon skill).
    state = at_declaration(duel(char("A", skills=()), char("T")), A)
    assert_refused(state, Declare(A, Attack(T, damage_raises=1)), "L5.CORE.3")


def test_full_defense_while_blacked_out_is_refused_and_changes_nothing(tables: L5Tables) -> None:
    # rule: L5.HED.1 — a blacked-out character may not declare Full Defense.
    a = injury_effects(
        Fighter(char("A")),
        Location.HEAD,
        "blackout",
        turn=0,
        tables=tables,
        attacker_weapon_skill=3,
        dropped=(),
    ).fighter
    state = at_declaration(duel(a, char("T")), A)
    assert_refused(state, Declare(A, Act(ActKind.FULL_DEFENSE)), "L5.HED.1")


def test_declarations_follow_the_initiative_order() -> None:
    # rule: L5.CORE.8 — declare from the lowest initiative; out of turn is refused.
    chronicle = open_fight("l5r/kakita-vs-hida", seed=11)
    chronicle.apply(Begin())
    state = chronicle.state
    first_to_declare = state.declare_order[0]
    other = next(n for n in state.names() if n != first_to_declare)
    assert state.fighter(first_to_declare).initiative <= state.fighter(other).initiative
    with pytest.raises(IllegalActionError) as err:
        chronicle.apply(Declare(other, Act(ActKind.WAIT)))
    assert err.value.rule == "L5.CORE.8" and chronicle.state is state
    with pytest.raises(IllegalActionError):
        chronicle.apply(Begin())


@pytest.mark.parametrize("name", bundled_scenarios())
@pytest.mark.parametrize("seed", [0, 1, 7, 42, 2024])
def test_a_duel_replays_from_its_seed_to_the_identical_log(name: str, seed: int) -> None:
    # Not a ledger rule (the core Fight's contract): a whole duel (initiative, declarations,
    # resolution) replays from its seed and actions to the identical log.
    chronicle = run_duel(name, seed)
    assert chronicle.over
    data = json.loads(chronicle.log_json())
    again = Fight.from_json(data)
    assert again.log_json() == chronicle.log_json()
    assert again.state == chronicle.state
    assert run_duel(name, seed).log_json() == chronicle.log_json()


def test_undo_restores_state_and_rng_then_the_same_action_gives_the_same_events() -> None:
    # Not a ledger rule (the core Fight's contract): undo steps back one decision, RNG included.
    chronicle = run_duel("kakita-vs-hida", 3)
    actions = [chronicle.action(chronicle.action_json(e.action)) for e in chronicle.entries]
    shorter = open_fight("l5r/kakita-vs-hida", seed=3)
    for action in actions[:-1]:
        shorter.apply(action)
    last = chronicle.entries[-1]
    chronicle.undo()
    assert chronicle.state == shorter.state and chronicle.snapshot.rng == shorter.snapshot.rng
    events = chronicle.apply(actions[-1])
    assert [e.to_json() for e in events] == [e.to_json() for e in last.events]


def test_the_ruleset_is_registered_and_round_trips_states_and_actions() -> None:
    assert find_ruleset("l5r") is RULESET
    chronicle = run_duel("bridge-ambush", 5)
    states = state_codec(DuelState)
    for state in chronicle.states:
        assert states.load(json.loads(json.dumps(states.dump(state)))) == state
    for entry in chronicle.entries:
        data = chronicle.action_json(entry.action)
        assert chronicle.action_json(chronicle.action(data)) == data
        assert chronicle.action(data) == entry.action
    with pytest.raises(KassenError):
        chronicle.action({"kind": "declare", "actor": "A", "act": {"kind": "teleport"}})
    with pytest.raises(KassenError):
        states.load({"fighters": "none"})
    assert state_codec(Declaration).dump(Attack(T)) == {
        "kind": "attack",
        "target": "T",
        "damage_raises": 0,
        "called_shot": None,
        "special": None,
        "full_attack": False,
        "obstructs": None,
    }
    assert state_codec(Declaration).dump(Act(ActKind.WAIT)) == {"kind": "act", "do": "wait", "target": None}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(bundled_scenarios()), st.randoms(use_true_random=False))
def test_any_legal_play_is_accepted_and_replays(seed: int, name: str, chooser: object) -> None:
    # rule: L5.CORE.8 — every listed legal action applies; random legal play always replays exactly.
    chronicle = open_fight(f"l5r/{name}", seed=seed)
    for _ in range(60):
        if chronicle.over:
            break
        legal = chronicle.legal_actions()
        assert legal, "a duel that is not over always has a decision"
        who = chronicle.to_move
        assert who is not None
        action = chooser.choice(legal)  # type: ignore[attr-defined]
        chronicle.apply(action)
        if who.kind == "unit" and isinstance(action, Declare):
            assert action.actor == who.id
    assert Fight.from_json(json.loads(chronicle.log_json())).log_json() == chronicle.log_json()


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32))
def test_an_illegal_action_never_changes_anything(seed: int) -> None:
    # rule: L5.CORE.3 — illegal actions are typed errors and leave the chronicle as it was, anywhere.
    chronicle = open_fight("l5r/kakita-vs-hida", seed=seed)
    chronicle.apply(Begin())
    for _ in range(10):
        if chronicle.over:
            break
        state = chronicle.state
        actor = chronicle.to_move
        assert actor is not None
        who = FighterId(actor.id)
        bad = [Declare(FighterId("Nobody"), Act(ActKind.WAIT)), Begin()]
        if state.pending is None:
            target = next(n for n in state.names() if n != who)
            bad += [Declare(who, Attack(target, damage_raises=9)), Declare(who, Act(ActKind.STRUGGLE))]
        for action in bad:
            before = (chronicle.log_json(), chronicle.snapshot.rng)
            with pytest.raises(IllegalActionError):
                chronicle.apply(action)
            assert (chronicle.log_json(), chronicle.snapshot.rng) == before and chronicle.state is state
        chronicle.apply(heuristic(state, chronicle.legal_actions(), chronicle.tables))


def test_legal_declarations_are_exactly_the_valid_ones() -> None:
    # rule: L5.CORE.3 — the listed attacks respect the raise limit; everything listed validates.
    chronicle = open_fight("l5r/kakita-vs-hida", seed=2)
    chronicle.apply(Begin())
    state, tables = chronicle.state, chronicle.tables
    legal = RULESET.legal_actions(state, tables)
    actor = chronicle.to_move
    assert actor is not None and actor.kind == "unit"
    who = FighterId(actor.id)
    limit = state.fighter(who).character.void
    for action in legal:
        assert isinstance(action, Declare)
        validate_declaration(state, action.actor, action.act, tables)
        if isinstance(action.act, Attack):
            assert raise_cost(action.act, tables)[0] <= limit
    assert Declare(who, Act(ActKind.FULL_DEFENSE)) in legal


def test_without_a_raise_limit_the_legal_list_stops_at_the_datas_max_enumerated_raises(
    tables: L5Tables,
) -> None:
    # rule: L5.CORE.3 — with `limit: none` the legal declarations offer attacks with up to
    # core.raises.max_enumerated_raises paid raises (data); a declaration with more is still accepted.
    def raises(**update: object) -> L5Tables:
        new = tables.core.raises.model_copy(update=update)
        return tables.model_copy(update={"core": tables.core.model_copy(update={"raises": new})})

    def most_listed(t: L5Tables, void: int) -> int:
        """The most raises among the listed plain attacks (damage raises and called shots; the
        non-damaging specials have a fixed cost and are listed as they are)."""
        state = at_declaration(duel(char("A", void=void), char("T")), A)
        costs = [
            raise_cost(d.act, t)[0]
            for d in RULESET.legal_actions(state, t)
            if isinstance(d, Declare) and isinstance(d.act, Attack) and d.act.special is None
        ]
        assert costs
        return max(costs)

    bundled = tables.core.raises.max_enumerated_raises
    for cap in (bundled, 3):
        t = raises(limit="none", max_enumerated_raises=cap)
        assert most_listed(t, void=2) == cap
        state = at_declaration(duel(char("A", void=2), char("T")), A)
        validate_declaration(state, A, Attack(T, damage_raises=cap + 1), t)  # beyond the list: still legal
        # and a fight accepts it, on content whose layer sets the same tables (the info says so)
        layer = inline_layer({"core": {"raises": {"limit": "none", "max_enumerated_raises": cap}}})
        content = load_content([layer])
        assert content.tables == t
        fight_at(state, seed=1, content=content).apply(Declare(A, Attack(T, damage_raises=cap + 1)))
        assert (
            not RULESET.info.legal_actions_complete
            and "max_enumerated_raises" in RULESET.info.legal_actions_note
        )
    assert most_listed(raises(max_enumerated_raises=0), void=2) == 2  # a limit (Void) is not the cap


def test_a_duel_that_never_ends_stops_at_max_turns() -> None:
    # rule: L5.CORE.8 — the turn loop is bounded: no decision in max_turns turns is a draw.
    state = replace(duel(char("A"), char("T"), turn=0, phase=Phase.START), max_turns=2)
    chronicle = fight_at(state, seed=1)

    def wait(d: Decision[DuelState, Action]) -> Action:
        return next((a for a in d.legal if isinstance(a, Declare) and a.act == Act(ActKind.WAIT)), d.legal[0])

    chronicle.autoplay(wait)
    assert chronicle.state.winner is None and "2 turns" in chronicle.state.reason
    assert chronicle.result is not None and chronicle.result.winner is None
