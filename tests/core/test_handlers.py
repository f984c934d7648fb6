"""The core's dispatch table (DESIGN principle 9): ``Handlers`` runs each item's own handler, and its
``table`` — what a ruleset's hot loop reads by one lookup — holds exactly the pairs added."""

from __future__ import annotations

import pytest

from kassen.arena.bout.actions import ACTION_HANDLERS
from kassen.arena.bout.tasks import TASK_HANDLERS
from kassen.core.engine import Handlers


class _Red:
    pass


class _Blue:
    pass


def test_table_holds_the_pairs_added_and_dispatch_agrees() -> None:
    seen: list[str] = []

    def on_red(target: list[str], item: _Red) -> None:
        target.append("red")

    def on_blue(target: list[str], item: _Blue) -> None:
        target.append("blue")

    handlers = Handlers[list[str]]().add(_Red, on_red).add(_Blue, on_blue)
    assert dict(handlers.table) == {_Red: on_red, _Blue: on_blue}
    handlers(seen, _Blue())
    handlers.table[_Red](seen, _Red())
    assert seen == ["blue", "red"]
    with pytest.raises(KeyError):
        handlers(seen, object())


def test_arena_tables_cover_every_kind_once() -> None:
    # the bout's flow and apply_action dispatch through these tables: every kind has its handler
    for handlers in (TASK_HANDLERS, ACTION_HANDLERS):
        assert set(handlers.table) == set(handlers.kinds())
        assert all(callable(h) for h in handlers.table.values())
    assert len(TASK_HANDLERS.kinds()) == 20
    assert len(ACTION_HANDLERS.kinds()) == 11
