"""What one finished fight tells the lab: who stood at the end, Wounds dealt and taken, what each unit
did and whether its attacks succeeded, and how many rounds it took — for any ruleset.

The lab knows no ruleset by name. It asks the ruleset first: a ruleset that has a ``fight_summary``
hook (see :class:`SummaryHook`, proposed for the core's ruleset protocol) says it all itself. Without
the hook, :func:`generic_summary` reads what every ruleset already exposes — the state through the
core's codec, the log's actions and events, ``Ruleset.names`` — by these conventions:

* **units**: each list element of the state's JSON that holds (itself, or in a mapping it holds, such as
  a profile or a character) a string ``side`` and an ``id`` (else a ``name``), both of which
  ``Ruleset.names`` knows;
* **standing at the end**: a unit is *out* when, in the final state, one of its flags
  ``incapacitated``, ``dead``, ``yielded``, ``retreated``, ``routed`` or ``lost`` is true, its
  ``conditions`` hold ``unconscious``, ``dead``, ``gave_up``, ``lost_will`` or ``incapacitated``, or
  the last event giving it a ``rank`` says ``Out`` or ``Dead``;
* **Wounds dealt and taken** (in the ruleset's own measure: Wounds, or HP): events naming an
  ``attacker`` and a victim (``target`` or ``fighter``), both unit ids, with ``wounds_before`` and
  ``wounds_after``, else an integer ``damage``, else an integer ``final``;
* **actions used**: each action a unit took, named by its maneuvers (an action with ``uses``), by the
  ``kind`` of the act it declares (an action with an ``act``), as ``kind:maneuver`` (an action naming a
  ``maneuver``), else by its ``kind``;
* **attacks and their success**: events naming an ``attacker`` and a ``target`` (unit ids) with a
  verdict — a boolean ``hit`` or ``success``, or an ``outcome`` (``hit``, ``critical``, ``success`` and
  ``critical_success`` succeed) — named by their ``maneuver``, else by the event's kind;
* **rounds**: the ``round``, ``turn`` or ``subturn`` of the last event that names a ``winner``; else the
  number of actions.

A ruleset whose data breaks a convention gets wrong tallies rather than an error: the hook is the way
to be exact, and the tests pin the fallback's reading of the bundled rulesets.
"""

from __future__ import annotations

__all__ = [
    "ActionUse",
    "Attempt",
    "FightSummary",
    "SummaryHook",
    "UnitSummary",
    "generic_summary",
    "summarize",
]

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard, runtime_checkable

from kassen.core.events import Event
from kassen.core.fight import LogEntry, state_codec

#: Flags that put a unit out of the fight when true (the fallback's reading).
OUT_FLAGS = ("incapacitated", "dead", "yielded", "retreated", "routed", "lost")
#: Conditions that put a unit out of the fight.
OUT_CONDITIONS = frozenset({"unconscious", "dead", "gave_up", "lost_will", "incapacitated"})
#: Ranks that put a unit out of the fight (compared in lower case).
OUT_RANKS = frozenset({"out", "dead"})
#: Outcomes of an attack that count as a success.
SUCCESS_OUTCOMES = frozenset({"hit", "critical", "success", "critical_success"})
#: Where the fallback looks for the round the fight ended in.
ROUND_KEYS = ("round", "turn", "subturn")
#: How deep the fallback looks for units in the state's JSON.
_MAX_DEPTH = 4


@dataclass(frozen=True, slots=True)
class UnitSummary:
    """One unit at the end of a fight: its side, whether it still stands, Wounds (or HP) it took from
    attacks and dealt with its own."""

    id: str
    side: str
    standing: bool
    wounds_taken: int = 0
    wounds_dealt: int = 0


@dataclass(frozen=True, slots=True)
class ActionUse:
    """A unit used ``action`` (a maneuver, an action kind) once."""

    unit: str
    action: str


@dataclass(frozen=True, slots=True)
class Attempt:
    """A unit's attack named ``action`` and whether it succeeded (hit)."""

    unit: str
    action: str
    success: bool


@dataclass(frozen=True, slots=True)
class FightSummary:
    """Everything the lab keeps of one finished fight besides its outcome."""

    rounds: int
    units: tuple[UnitSummary, ...]
    uses: tuple[ActionUse, ...] = ()
    attempts: tuple[Attempt, ...] = ()


@runtime_checkable
class PlayedFight(Protocol):
    """What a summary reads of a finished fight: a :class:`~kassen.core.fight.Fight`, or the lab's record
    of one played in the simulation mode (:class:`kassen.lab.engine.Played`)."""

    @property
    def ruleset(self) -> Any: ...

    @property
    def initial_state(self) -> Any: ...

    @property
    def state(self) -> Any: ...

    @property
    def entries(self) -> Sequence[LogEntry[Any]]: ...

    @property
    def events(self) -> tuple[Event, ...]: ...

    def action_json(self, action: Any) -> Any: ...


@runtime_checkable
class SummaryHook(Protocol):
    """The hook a ruleset may add (proposed for :class:`kassen.core.ruleset.Ruleset`): a summary of a
    finished fight in the ruleset's own terms, so the lab needs no conventions."""

    def fight_summary(self, fight: PlayedFight) -> FightSummary: ...


def summarize(fight: PlayedFight) -> FightSummary:
    """The ruleset's own summary when it has the hook (checked), else :func:`generic_summary`."""
    hook = getattr(fight.ruleset, "fight_summary", None)
    if callable(hook):
        out = hook(fight)
        if not isinstance(out, FightSummary):
            from kassen.lab.limits import LabError

            raise LabError(
                f"the {fight.ruleset.info.name} ruleset's fight_summary returned "
                f"{type(out).__name__}, not a FightSummary"
            )
        return out
    return generic_summary(fight)


# -- the fallback --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Found:
    id: str
    side: str
    view: Mapping[str, Any]


def _candidates(data: Any, depth: int = 0) -> Iterator[Mapping[str, Any]]:
    """Every mapping that is an element of a list, depth first, in order."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(data, Mapping):
        for value in data.values():
            yield from _candidates(value, depth + 1)
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, Mapping):
                yield item
            yield from _candidates(item, depth + 1)


def _identity(item: Mapping[str, Any], names: Mapping[str, str]) -> tuple[str, str] | None:
    for view in (item, *(v for v in item.values() if isinstance(v, Mapping))):
        side = view.get("side")
        ident = view.get("id") if isinstance(view.get("id"), str) else view.get("name")
        if isinstance(side, str) and isinstance(ident, str) and ident in names and side in names:
            return ident, side
    return None


def find_units(state_json: Any, names: Mapping[str, str]) -> tuple[_Found, ...]:
    """The units in a state's JSON (see the module notes), in the state's order, each once."""
    out: dict[str, _Found] = {}
    for item in _candidates(state_json):
        found = _identity(item, names)
        if found is None or found[0] in out:
            continue
        view: dict[str, Any] = {}
        for value in item.values():
            if isinstance(value, Mapping):
                view.update(value)
        view.update(item)
        out[found[0]] = _Found(found[0], found[1], view)
    return tuple(out.values())


def _is_out(view: Mapping[str, Any]) -> bool:
    if any(view.get(flag) is True for flag in OUT_FLAGS):
        return True
    conditions = view.get("conditions")
    return isinstance(conditions, list) and any(
        isinstance(c, str) and c in OUT_CONDITIONS for c in conditions
    )


def _victim(data: Mapping[str, Any]) -> Any:
    return data["target"] if "target" in data else data.get("fighter")


def _amount(data: Mapping[str, Any]) -> int | None:
    before, after = data.get("wounds_before"), data.get("wounds_after")
    if _is_int(before) and _is_int(after):
        return abs(int(before) - int(after))
    for key in ("damage", "final"):
        value = data.get(key)
        if _is_int(value):
            return max(0, int(value))
    return None


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _verdict(data: Mapping[str, Any]) -> bool | None:
    for key in ("hit", "success"):
        if isinstance(data.get(key), bool):
            return bool(data[key])
    outcome = data.get("outcome")
    if isinstance(outcome, str):
        return outcome in SUCCESS_OUTCOMES
    return None


def action_labels(action: Mapping[str, Any]) -> list[str]:
    """The names the lab counts an action under (see the module notes)."""
    kind = str(action.get("kind", "action"))
    uses = action.get("uses")
    if isinstance(uses, list) and uses:
        labels = [
            u["maneuver"] for u in uses if isinstance(u, Mapping) and isinstance(u.get("maneuver"), str)
        ]
        if labels:
            return labels
    act = action.get("act")
    if isinstance(act, Mapping) and isinstance(act.get("kind"), str):
        return [act["kind"]]
    maneuver = action.get("maneuver")
    if isinstance(maneuver, str):
        return [f"{kind}:{maneuver}"]
    return [kind]


def _rounds(events: Sequence[Event], actions: int) -> int:
    for event in reversed(events):
        if "winner" in event.data:
            for key in ROUND_KEYS:
                value = event.data.get(key)
                if _is_int(value):
                    return int(value)
            break
    return actions


def generic_summary(fight: PlayedFight) -> FightSummary:
    """A fight's summary by the conventions of the module notes (no hook needed)."""
    rs = fight.ruleset
    names = rs.names(fight.initial_state)
    codec = state_codec(rs.info.state_type)
    units = find_units(codec.dump(fight.state), names)
    ids = {u.id for u in units}
    taken = dict.fromkeys(ids, 0)
    dealt = dict.fromkeys(ids, 0)
    ranks: dict[str, str] = {}
    attempts: list[Attempt] = []
    events = fight.events
    for event in events:
        data = event.data
        who = data.get("fighter", data.get("unit"))
        rank = data.get("rank")
        if isinstance(who, str) and who in ids and isinstance(rank, str):
            ranks[who] = rank.lower()
        attacker, victim = data.get("attacker"), _victim(data)
        if not (isinstance(attacker, str) and attacker in ids and isinstance(victim, str) and victim in ids):
            continue
        amount = _amount(data)
        if amount is not None:
            dealt[attacker] += amount
            taken[victim] += amount
        verdict = _verdict(data) if "target" in data else None
        if verdict is not None:
            label = data.get("maneuver")
            attempts.append(Attempt(attacker, label if isinstance(label, str) else event.kind, verdict))
    uses: list[ActionUse] = []
    for entry in fight.entries:
        actor = entry.actor
        if actor is None or actor.kind != "unit" or actor.id not in ids:
            continue
        for label in action_labels(fight.action_json(entry.action)):
            uses.append(ActionUse(actor.id, label))
    summaries = tuple(
        UnitSummary(
            u.id,
            u.side,
            not (_is_out(u.view) or ranks.get(u.id) in OUT_RANKS),
            taken[u.id],
            dealt[u.id],
        )
        for u in units
    )
    return FightSummary(_rounds(events, len(fight.entries)), summaries, tuple(uses), tuple(attempts))
