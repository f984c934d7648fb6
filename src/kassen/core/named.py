"""Named policies: who plays a side, written as a short spec (``search:iterations=800``).

A spec is a name, then optionally ``:`` and comma-separated parameters, each ``key=value`` or a bare
flag (``search:time=1.0,omniscient``). The names:

==============  ==========================================================================================
``scenario``    the scenario's own policies (its scripts, then each unit's, then the heuristic)
``heuristic``   the ruleset's heuristic
``random``      a uniformly random legal action (``salt=N`` draws another sequence)
``first-legal`` the first legal action
``search``      Monte Carlo tree search (:mod:`kassen.core.search`): ``iterations=N``, ``time=SECONDS``
                (CPU, per decision), ``omniscient`` (reads hidden values: an upper bound, not fair play),
                ``seed=N``, ``rollout=heuristic|random|first-legal``, ``depth=N``, ``exploration=C``,
                ``prior=P``, ``widening=A``, ``widening_base=K``
==============  ==========================================================================================

:func:`parse_policy` reads a spec strictly (an unknown name or parameter, or a bad value, is one line
naming the allowed ones); :func:`build_policy` makes the policy for a fight's ruleset and tables;
:class:`BySide` plays each side by its own policy. A fight records each side's spec (``policies`` in its
meta), so a replay or a resumed fight plays on with the same.
"""

from __future__ import annotations

__all__ = [
    "NAMES",
    "BySide",
    "PolicySpec",
    "build_policy",
    "parse_policies",
    "parse_policy",
    "side_policies",
]

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from kassen.core.errors import KassenError
from kassen.core.policy import Decision, FirstLegal, Policy, RandomPolicy
from kassen.i18n import S_

S = TypeVar("S")
A = TypeVar("A")

#: Each name and the parameters it takes (name -> {parameter: kind}); a kind is ``int``, ``float``,
#: ``flag`` or a tuple of the allowed words.
_PARAMS: dict[str, dict[str, Any]] = {
    "scenario": {},
    "heuristic": {},
    "random": {"salt": "int"},
    "first-legal": {},
    "search": {
        "iterations": "int",
        "time": "float",
        "omniscient": "flag",
        "seed": "int",
        "rollout": ("heuristic", "random", "first-legal"),
        "depth": "int",
        "exploration": "float",
        "prior": "float",
        "widening": "float",
        "widening_base": "float",
        "root": ("halving", "puct"),
        "candidates": "int",
        "margin": "float",
        "guesses": "int",
    },
}
NAMES = tuple(_PARAMS)
#: The longest spec read (a spec is a few words; anything longer is refused unread).
MAX_SPEC = 200


class PolicySpecError(KassenError):
    """A policy spec that cannot be read: the message names what is allowed."""

    code = "policy.spec"


@dataclass(frozen=True, slots=True)
class PolicySpec:
    """A named policy and its parameters, in the order given (:func:`parse_policy`)."""

    name: str
    params: tuple[tuple[str, int | float | bool | str], ...] = ()

    def __str__(self) -> str:
        if not self.params:
            return self.name
        parts = [k if v is True else f"{k}={_word(v)}" for k, v in self.params]
        return f"{self.name}:{','.join(parts)}"

    def param(self, key: str, default: Any = None) -> Any:
        return dict(self.params).get(key, default)

    @property
    def omniscient(self) -> bool:
        """Whether this policy reads hidden values (an upper bound, never fair play)."""
        return bool(self.param("omniscient", False))


def _word(value: int | float | bool | str) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def parse_policy(text: Any) -> PolicySpec:
    """Read a spec (see the module notes); :class:`PolicySpecError` names the allowed names or
    parameters when it cannot.

    >>> str(parse_policy("search:iterations=800,omniscient"))
    'search:iterations=800,omniscient'
    >>> parse_policy("serch")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kassen.core.named.PolicySpecError: unknown policy 'serch' (known: scenario, heuristic, random, ...)
    """
    if isinstance(text, PolicySpec):
        return text
    if not isinstance(text, str):
        raise PolicySpecError(
            S_(
                "a policy is named by a string such as 'search:iterations=800', not {text}",
                text=repr(text)[:40],
            )
        )
    if len(text) > MAX_SPEC:
        raise PolicySpecError(S_("a policy spec is at most {max_spec} characters", max_spec=MAX_SPEC))
    name, _, rest = text.strip().partition(":")
    name = name.strip()
    if name not in _PARAMS:
        raise PolicySpecError(
            S_("unknown policy {name} (known: {items})", name=repr(name[:40]), items=", ".join(NAMES))
        )
    allowed = _PARAMS[name]
    params: dict[str, int | float | bool | str] = {}
    if rest.strip():
        for raw in rest.split(","):
            key, eq, value = (p.strip() for p in raw.partition("="))
            if key not in allowed:
                known = ", ".join(allowed) or "none"
                raise PolicySpecError(
                    S_(
                        "policy {name} has no parameter {key} (its parameters: {known})",
                        name=repr(name),
                        key=repr(key[:40]),
                        known=known,
                    )
                )
            if key in params:
                raise PolicySpecError(
                    S_("parameter {key} given twice in {text}", key=repr(key), text=repr(text[:60]))
                )
            params[key] = _value(name, key, allowed[key], value if eq else None)
    elif _ and not rest.strip():
        raise PolicySpecError(
            S_("nothing after ':' in {text}: give parameters or leave the ':' out", text=repr(text[:60]))
        )
    spec = PolicySpec(name, tuple(params.items()))
    if name == "search":
        _search_config(spec)  # every value checked now, not at the first decision
    return spec


def _value(name: str, key: str, kind: Any, value: str | None) -> int | float | bool | str:
    where = f"{name}:{key}"
    if kind == "flag":
        if value is None or value.lower() in ("true", "yes", "1"):
            return True
        raise PolicySpecError(S_("{where} is a flag: write {key} alone", where=where, key=key))
    if value is None or value == "":
        raise PolicySpecError(S_("{where} needs a value ({key}=...)", where=where, key=key))
    if isinstance(kind, tuple):
        if value not in kind:
            raise PolicySpecError(
                S_(
                    "{where} is one of {items}, not {value}",
                    where=where,
                    items=", ".join(kind),
                    value=repr(value[:40]),
                )
            )
        return value
    try:
        number: int | float = int(value) if kind == "int" else float(value)
    except ValueError:
        wanted = S_("a whole number") if kind == "int" else S_("a number")
        raise PolicySpecError(
            S_("{where} is {wanted}, not {value}", where=where, wanted=wanted, value=repr(value[:40]))
        ) from None
    if isinstance(number, float) and not math.isfinite(number):
        raise PolicySpecError(
            S_("{where} is a finite number, not {value}", where=where, value=repr(value[:40]))
        )
    return number


def parse_policies(items: Mapping[str, Any] | Any) -> dict[str, PolicySpec]:
    """Side → spec from a mapping, or from ``SIDE=SPEC`` strings (as ``--policy`` gives them)."""
    out: dict[str, PolicySpec] = {}
    if isinstance(items, Mapping):
        pairs = list(items.items())
    else:
        pairs = []
        for item in items:
            if not isinstance(item, str) or "=" not in item:
                raise PolicySpecError(
                    S_(
                        "a side's policy is written SIDE=SPEC (party=search), not {item}",
                        item=repr(item)[:60],
                    )
                )
            side, _, spec = item.partition("=")
            pairs.append((side.strip(), spec))
    for side, spec in pairs:
        if not isinstance(side, str) or not side:
            raise PolicySpecError(S_("a side is named by its id, not {side}", side=repr(side)[:40]))
        if side in out:
            raise PolicySpecError(S_("side {side} is given a policy twice", side=repr(side[:40])))
        out[side] = parse_policy(spec)
    return out


def _search_config(spec: PolicySpec) -> Any:
    from kassen.core.search import SearchConfig

    params = dict(spec.params)
    try:
        return SearchConfig(**params)  # type: ignore[arg-type]
    except KassenError as exc:
        raise PolicySpecError(S_("search: {exc}", exc=exc)) from None


def build_policy(
    spec: PolicySpec | str, ruleset: Any, tables: Any, scenario: Callable[[], Policy[Any, Any]] | None = None
) -> Policy[Any, Any]:
    """The policy ``spec`` names, for a fight of ``ruleset`` over ``tables``; ``scenario`` makes the
    scenario's own (the ``scenario`` name; the heuristic when there is none)."""
    spec = parse_policy(spec)
    if spec.name == "scenario":
        return scenario() if scenario is not None else ruleset.heuristic(tables)
    if spec.name == "heuristic":
        return ruleset.heuristic(tables)  # type: ignore[no-any-return]
    if spec.name == "random":
        return RandomPolicy(int(spec.param("salt", 0)))
    if spec.name == "first-legal":
        return FirstLegal()
    from kassen.core.search import SearchPolicy

    try:
        return SearchPolicy(ruleset, tables, _search_config(spec))
    except PolicySpecError:
        raise
    except KassenError as exc:
        raise PolicySpecError(str(exc)) from None


class BySide(Generic[S, A]):
    """Each side's own policy (by the deciding actor's side); ``default`` for the GM and any side not
    named (the scenario's policies)."""

    def __init__(self, policies: Mapping[str, Policy[S, A]], default: Policy[S, A]) -> None:
        self.policies = dict(policies)
        self.default = default

    def __call__(self, decision: Decision[S, A]) -> A:
        actor = decision.actor
        side = actor.side if actor.kind == "unit" else actor.id if actor.kind == "side" else None
        policy = self.policies.get(side) if side is not None else None
        return (policy or self.default)(decision)


def side_policies(
    specs: Mapping[str, PolicySpec],
    ruleset: Any,
    tables: Any,
    sides: tuple[str, ...],
    scenario: Callable[[], Policy[Any, Any]] | None,
) -> Policy[Any, Any]:
    """The fight's policy: each side in ``specs`` played by its spec, the rest (and the GM) by the
    scenario's. A side that is not one of ``sides`` is refused, naming them."""
    for side in specs:
        if side not in sides:
            raise PolicySpecError(
                S_(
                    "no side {side} in this fight (sides: {items})",
                    side=repr(side[:40]),
                    items=", ".join(sides),
                )
            )
    default = scenario() if scenario is not None else ruleset.heuristic(tables)
    per = {side: build_policy(spec, ruleset, tables, scenario) for side, spec in specs.items()}
    return BySide(per, default)
