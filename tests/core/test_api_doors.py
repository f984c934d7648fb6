"""The rulesets' public Python API refuses arguments of the wrong kind with kassen's own error, like the
dice and the CLI: every function a ruleset package exports (``kassen.arena``, ``kassen.l5r``), given a
wrong kind in each argument, raises a KassenError (an ArgumentError for the wrong kind, which is a
TypeError too), never an AttributeError, a bare TypeError or a KeyError from inside."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

import kassen.arena
import kassen.l5r
from kassen.core.errors import ArgumentError, KassenError

WRONG: tuple[Any, ...] = (None, 5.5, True, [], {}, object(), b"x")


def _required(f: Callable[..., Any]) -> list[inspect.Parameter]:
    return [
        p
        for p in inspect.signature(f).parameters.values()
        if p.default is inspect.Parameter.empty
        and p.kind is not p.VAR_POSITIONAL
        and p.kind is not p.VAR_KEYWORD
    ]


@pytest.mark.parametrize("module", [kassen.arena, kassen.l5r], ids=["arena", "l5r"])
def test_every_exported_function_refuses_wrong_kinds(module: Any) -> None:
    checked = 0
    for name in module.__all__:
        f = getattr(module, name)
        if not inspect.isfunction(f):
            continue
        params = _required(f)
        if not params:
            continue
        for bad in WRONG:
            if name in ("build_fighter", "landing_facing", "content_for") and bad is None:
                continue  # None is a value these take (a default read from the content)
            args = {p.name: bad for p in params}
            pos = [bad for p in params if p.kind is not p.KEYWORD_ONLY]
            kw = {
                k: v
                for k, v in args.items()
                if inspect.signature(f).parameters[k].kind is inspect.Parameter.KEYWORD_ONLY
            }
            with pytest.raises(KassenError):
                f(*pos, **kw)
            checked += 1
    assert checked > 50


def test_the_examples_name_the_argument() -> None:
    for call, words in (
        (lambda: kassen.arena.check_odds(None), "target is int, not None"),
        (lambda: kassen.arena.resolve_damage(12, "cut", ht="x"), "ht is int, not a str"),
        (lambda: kassen.l5r.chance(None, 20), "pool is Pool, not None"),
        (lambda: kassen.l5r.roll_odds("7k3", None), "tn"),
    ):
        with pytest.raises(KassenError) as info:
            call()
        assert words in str(info.value), str(info.value)
    with pytest.raises(ArgumentError):
        kassen.arena.hit_chance(None, 10)
    with pytest.raises(KassenError, match="unknown hit location"):
        kassen.arena.resolve_damage(12, "cut", ht=10, location="nowhere")
    # the right kinds still work, through the same door
    assert kassen.arena.resolve_damage(12, "cut", ht=10, location="left_arm", armor_dr=2).final == 6
