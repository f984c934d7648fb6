"""One conformance test over every registered ruleset (DESIGN principle 13), the test-only coin-flip
duel included: whatever the ruleset, a fight opened with ``kassen.open_fight`` must end; say who is to
move and offer legal actions until then; write states that survive the codec; replay from its chronicle
to the identical log; undo to any point and continue identically; continue from a saved snapshot as if
never stopped; refuse a tampered chronicle; and tell every event it logs in words."""

from __future__ import annotations

import copy
import json
from typing import Any

import coinflip
import pytest

from kassen.content.content import ContentMismatchError
from kassen.core.codec import FormatError
from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.fight import Fight, ReplayError
from kassen.core.menu import MenuError
from kassen.core.menu import decide as menu_decide
from kassen.core.report import account, missing_renderers
from kassen.core.ruleset import find_ruleset, register_ruleset, registered_rulesets
from kassen.core.scenario import bundled_scenarios, open_fight

register_ruleset(coinflip.RULESET)  # collected before the session fixture runs


def _cases() -> list[Any]:
    # A ruleset that cannot even list its scenarios is one failing case, not a collection error.
    out = []
    for r in registered_rulesets():
        try:
            out += [pytest.param(r, s.name, id=f"{r}:{s.name}") for s in bundled_scenarios(r)]
        except KassenError:  # fails in every test below, naming the load error
            out.append(pytest.param(r, "", id=f"{r}:cannot-load"))
    return out


CASES = _cases()


def test_every_registered_ruleset_has_a_bundled_fight() -> None:
    assert "coinflip" in registered_rulesets()
    assert {r for r, _ in ((c.values[0], c.values[1]) for c in CASES)} == set(registered_rulesets())
    for r in registered_rulesets():
        assert bundled_scenarios(r), r


@pytest.fixture(scope="module", params=[1, 2], ids=["seed1", "seed2"])
def seed(request: pytest.FixtureRequest) -> int:
    return int(request.param)


def _played(ruleset: str, name: str, seed: int) -> Fight[Any, Any]:
    fight = open_fight(f"{ruleset}/{name}", seed=seed)
    fight.autoplay()
    return fight


@pytest.mark.parametrize(("ruleset", "name"), CASES)
def test_a_bundled_fight_conforms(ruleset: str, name: str, seed: int) -> None:
    fight = _played(ruleset, name, seed)
    rs = fight.ruleset
    assert fight.over and fight.entries and fight.to_move is None
    assert fight.result is not None and (fight.result.winner is None or isinstance(fight.result.winner, str))

    # Until the end someone is to move and has legal actions; complete rulesets list what was played.
    replay = Fight.from_json(json.loads(fight.log_json()))
    for i, entry in enumerate(fight.entries):
        state = fight.states[i]
        assert rs.to_move(state) is not None and rs.result(state) is None
        legal = rs.legal_actions(state, fight.tables)
        assert legal
        if rs.info.legal_actions_complete and entry.actor is not None and entry.actor.kind != "gm":
            assert entry.action in legal
    assert replay.log_json() == fight.log_json()
    assert replay.states == fight.states

    # Every state survives the codec.
    codec_json = [json.loads(json.dumps(fight._state_codec.dump(s))) for s in fight.states]
    assert [fight._state_codec.load(d) for d in codec_json] == list(fight.states)

    # Undo to the middle, then the same actions again: the same events, states and RNG positions.
    middle = len(fight.entries) // 2
    tail = fight.entries[middle:]
    ids = [replay.snapshot_id(s) for s in replay._snapshots]
    for _ in tail:
        fight.undo()
    assert fight.state == replay.states[middle] and fight.state_id == ids[middle]
    for entry in tail:
        assert fight.apply(entry.action) == entry.events
    assert fight.log_json() == replay.log_json()

    # A snapshot saved in the middle continues as if never stopped.
    for _ in tail:
        replay.undo()
    resumed = Fight.from_snapshot(json.loads(json.dumps(replay.snapshot_json())))
    assert resumed.state_id == replay.state_id
    for entry in tail:
        assert resumed.apply(entry.action) == entry.events
    assert resumed.state == fight.state and resumed.result == fight.result


@pytest.mark.parametrize(("ruleset", "name"), CASES)
def test_a_fight_resumed_midway_plays_on_as_if_never_stopped(ruleset: str, name: str, seed: int) -> None:
    straight = _played(ruleset, name, seed)
    n = len(straight.entries)
    for cut in sorted({1, n // 3, n // 2, (2 * n) // 3} - {0, n}):
        partial = open_fight(f"{ruleset}/{name}", seed=seed)
        for entry in straight.entries[:cut]:
            partial.apply(entry.action)
        # from a chronicle cut short: replayed, then the scenario's own policies go on
        resumed = Fight.from_json(json.loads(partial.log_json()))
        resumed.autoplay()
        assert resumed.log_json() == straight.log_json(), cut
        # from a snapshot: the state, the RNG position and the actions played (which policies read)
        later = Fight.from_snapshot(json.loads(json.dumps(partial.snapshot_json())))
        later.autoplay()
        assert [e.events for e in later.entries] == [e.events for e in straight.entries[cut:]], cut
        assert later.state_id == straight.state_id


def _leaves(fight: Fight[Any, Any], path: tuple[str, ...] = (), limit: int = 400) -> list[tuple[str, ...]]:
    """Every complete path through the menus (depth first, at most ``limit``)."""
    out: list[tuple[str, ...]] = []
    for option in fight.menu(path).options:
        if len(out) >= limit:
            break
        if not option.allowed:  # shown with the rule that forbids it: choosing it is refused
            with pytest.raises(IllegalActionError):
                menu_decide(fight.ruleset, fight.state, fight.tables, (*path, option.id))
            continue
        here = (*path, option.id)
        out += [here] if option.complete else _leaves(fight, here, limit - len(out))
    return out


@pytest.mark.parametrize(("ruleset", "name"), CASES)
def test_decisions_built_through_the_menus_are_exactly_the_legal_ones(ruleset: str, name: str) -> None:
    fight = _played(ruleset, name, 2)
    rs = fight.ruleset
    picks = sorted({0, 1, len(fight.entries) // 3, len(fight.entries) // 2, len(fight.entries) - 1})
    for i in reversed(picks):
        while len(fight.entries) > i:
            fight.undo()
        paths = _leaves(fight)
        assert paths, "whoever decides has a menu"
        built = [menu_decide(rs, fight.state, fight.tables, p) for p in paths]
        for action in built[:: max(1, len(built) // 25)]:
            fight.check(action)  # every menu-built decision applies
        legal = list(rs.legal_actions(fight.state, fight.tables))
        if rs.info.legal_actions_complete and len(paths) < 400:
            assert sorted(map(repr, built)) == sorted(map(repr, legal))
        with pytest.raises(MenuError):
            fight.menu(("no-such-choice",))


@pytest.mark.parametrize(("ruleset", "name"), CASES)
def test_every_event_is_told_in_words(ruleset: str, name: str, seed: int) -> None:
    fight = _played(ruleset, name, seed)
    kinds = {e.kind for e in fight.events}
    assert not missing_renderers(fight.ruleset, kinds)
    text = account(fight, verbose=True)
    assert "no words for this event" not in text
    assert "Result: winner:" in text or "Result: no winner" in text


@pytest.mark.parametrize(("ruleset", "name"), CASES)
def test_a_tampered_chronicle_is_refused(ruleset: str, name: str) -> None:
    data = _played(ruleset, name, 1).to_json()

    def refused(change: Any, error: type[KassenError] | tuple[type[KassenError], ...]) -> str:
        bad = copy.deepcopy(data)
        change(bad)
        with pytest.raises(error) as info:
            Fight.from_json(bad)
        return str(info.value)

    refused(lambda d: d.update(seed=d["seed"] + 1), ReplayError)
    refused(lambda d: d["result"].update(winner="nobody-at-all"), ReplayError)
    refused(lambda d: d["meta"]["content"].update(hash="0" * 64), ContentMismatchError)
    refused(lambda d: d.update(ruleset=42), KassenError)
    refused(lambda d: d.pop("initial_state"), FormatError)
    refused(lambda d: d["log"][0].update(extra=1), FormatError)
    refused(lambda d: d["log"][0]["action"].update(kind="no-such-kind"), FormatError)
    refused(lambda d: d.update(format=1), FormatError)
    # an event the replay does not make: refused as such, or before the replay as no kind of event the
    # ruleset logs when it declares its event types
    stranger = {"kind": "x", "data": {}}
    added = refused(lambda d: d["log"][0]["events"].append(stranger), (ReplayError, FormatError))
    assert "log[0]" in added
    # cut short, with or without its result: refused before anything is replayed (its end records
    # how many actions the log holds), never replayed as an unfinished fight
    assert "cut short" in refused(lambda d: d.update(log=d["log"][:1]), ReplayError)
    assert "cut short" in refused(lambda d: (d.update(log=d["log"][:1]), d.pop("result")), ReplayError)
    assert "end: field required" in refused(
        lambda d: (d.update(log=d["log"][:1]), d.pop("result"), d.pop("end")), ReplayError
    )
    # an end whose digest is not that of its log: refused once the log has replayed
    changed = copy.deepcopy(data)
    changed["end"]["digest"] = "0" * 64
    with pytest.raises(ReplayError, match=r"end\.digest"):
        Fight.from_json(changed)
    # a fight saved unfinished replays as unfinished
    fight = open_fight(f"{ruleset}/{name}", seed=1)
    fight.step()
    unfinished = Fight.from_json(fight.to_json())
    assert not unfinished.over and unfinished.to_move is not None


@pytest.mark.parametrize("ruleset", sorted(registered_rulesets()))
def test_every_rule_cited_in_events_has_a_text(ruleset: str) -> None:
    from importlib import resources

    import yaml

    rs = find_ruleset(ruleset)
    package, file = rs.info.rule_texts
    texts = yaml.safe_load(resources.files(package).joinpath(file).read_text("utf-8"))
    assert texts["ruleset"] == ruleset
    cited = set()
    for s in bundled_scenarios(ruleset):
        fight = _played(ruleset, s.name, 1)
        cited |= {e.rule for e in fight.events if e.rule}
    assert cited and cited <= set(texts["rules"])
    assert all(r.startswith(rs.info.ledger + ".") for r in texts["rules"])
