"""A decision lists its legal actions only when a policy reads them, and an action the fight tried on
a copy (``check``) is played from what the try worked out: the same events, the same log."""

from __future__ import annotations

from typing import Any

import pytest

from kassen.core.errors import IllegalActionError
from kassen.core.policy import Decision, FirstLegal, Listed, Scripted
from kassen.core.scenario import open_fight


class CountingListings:
    """Wraps a ruleset's ``legal_actions`` to count how often the fight lists."""

    def __init__(self, fight: Any) -> None:
        self.calls = 0
        inner = fight.ruleset.legal_actions

        def listing(state: Any, tables: Any) -> Any:
            self.calls += 1
            return inner(state, tables)

        fight.ruleset = _Proxy(fight.ruleset, legal_actions=listing)


class _Proxy:
    def __init__(self, inner: Any, **overrides: Any) -> None:
        self._inner = inner
        self.__dict__.update(overrides)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def test_listed_is_a_sequence_listed_once_on_first_use() -> None:
    calls: list[int] = []

    def list_them() -> tuple[str, ...]:
        calls.append(1)
        return ("a", "b")

    legal = Listed(list_them)
    assert not legal.listed and calls == []
    assert repr(legal) == "Listed(<not listed yet>)"
    assert legal == ("a", "b") and legal == ["a", "b"] and len(legal) == 2 and legal[1] == "b"
    assert list(legal) == ["a", "b"] and "a" in legal and legal.index("b") == 1 and legal[:1] == ("a",)
    assert legal.listed and calls == [1]
    assert legal != ("b",)
    with pytest.raises(TypeError):
        hash(legal)


def test_a_scripted_step_is_played_without_listing_and_the_log_is_the_same() -> None:
    # the script: the coin-flip fight's first legal action at each decision, written out beforehand
    plain = open_fight("coinflip/best-of-three", seed=3)
    plain.autoplay(FirstLegal())
    steps = list(plain.history)
    fight = open_fight("coinflip/best-of-three", seed=3)
    counter = CountingListings(fight)
    scripts = {a: tuple(steps) for a in {str(d) for d in fight.units()} | {"gm"}}
    fight.autoplay(Scripted(scripts, FirstLegal()))
    assert fight.to_json() == plain.to_json()
    assert counter.calls < len(steps)  # the script's steps needed no listing


def test_an_action_tried_on_a_copy_then_played_gives_the_same_events() -> None:
    a = open_fight("demo", seed=11)
    b = open_fight("demo", seed=11)
    for _ in range(12):
        action = a.decide()
        assert a.is_legal(action)
        events = a.play(action)
        assert events == b.play(action)
    assert a.to_json() == b.to_json()


def test_a_try_is_not_played_for_another_action_nor_after_undo() -> None:
    fight = open_fight("demo", seed=2)
    for _ in range(5):
        fight.step()
    first, second = fight.legal_actions()[0], fight.legal_actions()[-1]
    fight.check(first)
    events = fight.play(second)  # the try of another action is not used
    fresh = open_fight("demo", seed=2)
    for action in fight.history[:-1]:
        fresh.play(action)
    assert events == fresh.play(second)
    fight.undo()
    assert fight.play(second) == events
    with pytest.raises(IllegalActionError):
        fight.check(type(first)("nobody", ()))  # type: ignore[call-arg]


def test_a_policy_sees_a_decision_whose_legal_actions_are_the_fights() -> None:
    fight = open_fight("demo", seed=5)
    decision: Decision[Any, Any] = fight.decision()
    assert isinstance(decision.legal, Listed)
    assert decision.legal == fight.legal_actions()
