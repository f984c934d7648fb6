"""The position model (L5.GAP.1 house default, ``core.movement``): where the fighters stand and how far
they may move, so that the excerpt's movement effects restrict something real.

The fighters stand on a line, positions in feet (a bridge, a dueling ground). A weapon reaches
``reach`` feet. Each turn a character may move Water x ``feet_per_water`` feet with its action (an
attack closes to reach first, :func:`close_in`) or spend the action moving ``move_action_multiple``
times as far (close, retreat, go for a dropped weapon). Limping halves that (L5.LEG.1), cumulatively
with the Lame disadvantage; a pinned foot (L5.FOT.1) and being prone stop it (``stops_movement``). A
Drive (L5.DRV.1) moves the defender straight back, away from the attacker; a Disarm (L5.DSM.1) knocks
the weapon behind its owner.

>>> from kassen.l5r.content import bundled_tables
>>> from kassen.l5r.state import Fighter, Status
>>> from kassen.l5r.character import Character, FighterId, Weapon
>>> t = bundled_tables()
>>> f = Fighter(Character(FighterId("A"), Weapon("katana", 3, 2, "kenjutsu"), strength=3, perception=3))
>>> speed(f, t, 1).feet, action_move(f, t, 1)
(15, 30)
>>> limping = f.with_status(Status("movement_divisor", "leg: limping", "L5.LEG.1", amount=2))
>>> speed(limping, t, 1).feet
7
"""

from __future__ import annotations

__all__ = [
    "Speed",
    "action_move",
    "back",
    "can_reach",
    "check_reach",
    "close_in",
    "distance",
    "move",
    "nearest_opponent",
    "reach",
    "speed",
    "toward",
]

from dataclasses import dataclass

from kassen.core.errors import IllegalActionError
from kassen.core.explain import Step
from kassen.core.fastinit import fast_init
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.l5r.character import ring
from kassen.l5r.state import DuelState, Fighter, Status
from kassen.l5r.tables import L5Tables
from kassen.l5r.turn import standing


@fast_init
@dataclass(frozen=True, slots=True)
class Speed:
    """How far a fighter may move this turn with its action (``feet``), why (``steps``), what stops it
    (``stopped``) and what slows it (``slowed``)."""

    feet: int
    base: int
    steps: tuple[Step, ...]
    stopped: Status | None
    slowed: tuple[Status, ...]


def distance(a: Fighter, b: Fighter) -> int:
    return abs(a.position - b.position)


def reach(f: Fighter, tables: L5Tables) -> int:
    """Feet the fighter's weapon reaches: its own, else the table's."""
    own = f.character.weapon.reach
    return tables.core.movement.reach if own is None else own


def speed(f: Fighter, tables: L5Tables, turn: int) -> Speed:
    """Water x ``feet_per_water``, divided by every movement divisor (cumulative), 0 when a status in
    ``stops_movement`` holds (L5.GAP.1, L5.LEG.1, L5.FOT.1)."""
    m = tables.core.movement
    water = ring(f.character, "water", tables)
    base = water * m.feet_per_water
    steps = [
        Step(base, S_("move: Water {water} x {per} feet", water=water, per=m.feet_per_water), "L5.GAP.1")
    ]
    feet = base
    slowed = f.active("movement_divisor", turn)
    for s in slowed:
        feet //= max(1, s.amount)
        steps.append(Step(feet, S_("{source}: movement divided by {n}", source=s.source, n=s.amount), s.rule))
    stopped = next((s for s in f.statuses if s.kind in m.stops_movement and s.active(turn)), None)
    if stopped is not None:
        feet = 0
        steps.append(Step(0, S_("{source}: cannot move", source=stopped.source), stopped.rule))
    return Speed(feet, base, tuple(steps), stopped, slowed)


def action_move(f: Fighter, tables: L5Tables, turn: int) -> int:
    """Feet moved by an action spent only on moving."""
    return speed(f, tables, turn).feet * tables.core.movement.move_action_multiple


def toward(start: int, goal: int, feet: int) -> int:
    """The position ``feet`` from ``start`` toward ``goal``, never past it."""
    if goal >= start:
        return min(goal, start + feet)
    return max(goal, start - feet)


def back(state: DuelState, mover: Fighter, other: Fighter) -> int:
    """The direction (+1 or -1) away from ``other``; on the same spot, away from the first side's end of
    the line for the first side, toward it for the others (as a duel is laid out)."""
    if mover.position != other.position:
        return 1 if mover.position > other.position else -1
    return -1 if mover.side == state.fighters[0].side else 1


def nearest_opponent(state: DuelState, f: Fighter, tables: L5Tables) -> Fighter | None:
    """The nearest opponent still standing (ties: the first in the scenario)."""
    others = [o for o in state.fighters if o.side != f.side and standing(o, tables)]
    return min(others, key=lambda o: distance(f, o)) if others else None


def can_reach(state: DuelState, attacker: Fighter, target: Fighter, tables: L5Tables) -> bool:
    try:
        check_reach(attacker, target, tables, state.turn)
    except IllegalActionError:
        return False
    return True


def check_reach(attacker: Fighter, target: Fighter, tables: L5Tables, turn: int) -> None:
    """Raise :class:`IllegalActionError` unless ``attacker`` can bring ``target`` within its weapon's
    reach with this turn's move, naming what stops or slows it."""
    gap = distance(attacker, target) - reach(attacker, tables)
    if gap <= 0:
        return
    sp = speed(attacker, tables, turn)
    if gap <= sp.feet:
        return
    where = S_(
        "{target} is {feet} feet away (reach {reach})",
        target=target.name,
        feet=distance(attacker, target),
        reach=reach(attacker, tables),
    )
    if sp.stopped is not None:
        raise IllegalActionError(
            S_(
                "{where} and {name} cannot move ({source})",
                where=where,
                name=attacker.name,
                source=sp.stopped.source,
            ),
            rule=sp.stopped.rule,
        )
    if sp.slowed and gap <= sp.base:
        s = sp.slowed[0]
        raise IllegalActionError(
            S_(
                "{where} and {name} moves only {feet} feet ({source})",
                where=where,
                name=attacker.name,
                feet=sp.feet,
                source=s.source,
            ),
            rule=s.rule,
        )
    raise IllegalActionError(
        S_("{where}, beyond {name}'s move of {feet} feet", where=where, name=attacker.name, feet=sp.feet),
        rule="L5.GAP.1",
    )


def move(fighter: Fighter, position: int) -> Fighter:
    return replace(fighter, position=position)


def close_in(state: DuelState, attacker: Fighter, target: Fighter, tables: L5Tables) -> tuple[int, int]:
    """Where the attacker stands once it has closed to reach (as far as this turn's move allows), and
    how many feet it moved."""
    gap = distance(attacker, target) - reach(attacker, tables)
    if gap <= 0:
        return attacker.position, 0
    feet = min(gap, speed(attacker, tables, state.turn).feet)
    goal = target.position
    return toward(attacker.position, goal, feet), feet
