"""Injuries as statuses: each chosen injury (L5.CS.2) becomes typed statuses with their timing.

The injury rows in ``called_shots.yaml`` list effects; :func:`injury_effects` turns them into
:class:`~kassen.l5r.state.Status` values (lasting effects), named conditions (L5.GAP.1) and immediate
effects (extra Wounds, a dropped weapon). Bleeding (:func:`bleeding_due`) and expiry
(:func:`expire`) are the timing hooks the turn loop calls at the start and end of each turn.
Injuries are cumulative, even when the same one repeats (L5.CS.2): every choice adds its own statuses.
"""

from __future__ import annotations

__all__ = [
    "InjuryOutcome",
    "bleed_amount",
    "bleeding_due",
    "end_by_action",
    "expire",
    "injury_effects",
    "injury_options",
    "maim_threshold",
    "with_disadvantage",
]

from dataclasses import dataclass

from kassen.core.explain import Step
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.l5r.actions import Attack
from kassen.l5r.character import earth
from kassen.l5r.state import Fighter, Status
from kassen.l5r.tables import EffectRow, L5Tables, Location

#: Status kinds whose statuses tie two fighters and end when either leaves the fight.
TIES = ("bound", "binding", "locked", "threatened", "holding_point")


def maim_threshold(target: Fighter, location: Location, tables: L5Tables) -> tuple[int, Step]:
    """Damage needed to maim at ``location``: Earth x the location's multiple (L5.CS.3)."""
    row = tables.location(location)
    e = earth(target.character, tables)
    value = e * row.maim_earth_multiple
    return value, Step(
        value,
        S_(
            "to maim the {location}: Earth {earth} x {multiple}",
            location=location.value,
            earth=e,
            multiple=row.maim_earth_multiple,
        ),
        "L5.CS.3",
    )


def injury_options(target: Fighter, location: Location, damage: int, tables: L5Tables) -> tuple[str, ...]:
    """Injuries the attacker may choose: every injury of the location, and its maims only when the
    damage reaches the threshold (L5.CS.2, L5.CS.3), in name order."""
    row = tables.location(location)
    threshold, _ = maim_threshold(target, location, tables)
    # Sorted by name: a replay rebuilds the tables from canonical JSON, which does not keep dict order.
    return tuple(sorted(name for name, inj in row.injuries.items() if not inj.maim or damage >= threshold))


@dataclass(frozen=True, slots=True)
class InjuryOutcome:
    """What one injury does: the fighter with its new statuses and conditions, Wounds to add now, and
    whether the weapon falls."""

    fighter: Fighter
    extra_wounds: int
    drops_weapon: bool
    maimed: bool
    steps: tuple[Step, ...]


def injury_effects(
    target: Fighter,
    location: Location,
    injury: str,
    *,
    turn: int,
    tables: L5Tables,
    attacker_weapon_skill: int,
    dropped: tuple[int, ...],
) -> InjuryOutcome:
    """Apply injury ``injury`` of ``location`` to ``target`` (L5.ARM.1 ... L5.TOR.1)."""
    row = tables.location(location)
    inj = row.injuries[injury]
    source = f"{location.value}: {injury.replace('_', ' ')}"  # a word of kassen.l5r.words
    fighter = target
    extra = 0
    drops = False
    steps = [Step(0, S_("{source} - {text}", source=source, text=inj.text), row.rule)]
    for effect in inj.effects:
        if effect.kind == "condition":
            assert effect.condition is not None
            fighter = with_disadvantage(fighter, effect.condition, tables, turn)
            steps.append(
                Step(0, S_("condition: {condition} (lasting)", condition=effect.condition), "L5.GAP.1")
            )
        elif effect.kind == "extra_wounds":
            if effect.source == "attacker_weapon_skill":
                amount = attacker_weapon_skill
            else:  # the damage roll keeps `amount` more dice: the highest dropped ones (L5.HED.1)
                amount = sum(sorted(dropped, reverse=True)[: max(1, effect.amount)])
            extra += amount
            why = (
                S_("additional Wounds equal to the attacker's weapon skill")
                if effect.source == "attacker_weapon_skill"
                else S_("additional Wounds equal to the next highest damage die")
            )
            steps.append(Step(amount, why, row.rule))
        elif effect.kind == "drop_weapon":
            drops = True
            steps.append(Step(0, S_("drops what the hand holds"), row.rule))
        else:
            fighter = fighter.with_status(_status(effect, source, row.rule, turn))
    return InjuryOutcome(fighter, extra, drops, inj.maim, tuple(steps))


def with_disadvantage(fighter: Fighter, name: str, tables: L5Tables, turn: int) -> Fighter:
    """``fighter`` with the disadvantage ``name`` (a maim's, or one it carries into the fight): the
    named condition and its lasting effects from ``called_shots.disadvantages`` (L5.GAP.1, L5.CS.3),
    from ``turn`` on, for good."""
    rows = tables.called_shots.disadvantages.effects.get(name, [])
    statuses = tuple(_status(row, name, "L5.GAP.1", turn) for row in rows)
    return replace(fighter, conditions=(*fighter.conditions, name), statuses=fighter.statuses + statuses)


def _status(effect: EffectRow, source: str, rule: str, turn: int) -> Status:
    """An effect row as a status. ``starts: now`` covers the rest of this turn and ``turns`` more;
    ``starts: next_turn`` covers the ``turns`` turns after this one."""
    start = turn + 1 if effect.starts == "next_turn" else turn
    end = None if effect.turns is None else turn + effect.turns
    return Status(
        kind=effect.kind,
        source=source,
        rule=rule,
        amount=effect.amount,
        applies_to=effect.applies_to or "",
        start_turn=start,
        end_turn=end,
        shrink=effect.shrink_per_turn,
        ended_by=effect.ended_by or "",
    )


def bleed_amount(fighter: Fighter, status: Status, tables: L5Tables, turn: int) -> tuple[int, str]:
    """Wounds one bleeding status costs, and the rule: a Permanent Wound makes the bleeds listed in the
    L5.RD.3 reading heavier."""
    pw = tables.called_shots.permanent_wound
    if status.kind in pw.bleeding and fighter.has("permanent_wound", turn):
        return pw.wounds, "L5.RD.3"
    return status.amount, status.rule


def bleeding_due(
    fighter: Fighter, tables: L5Tables, turn: int, moment: str
) -> tuple[tuple[Status, int, str], ...]:
    """Bleeds due now: ``moment`` is ``start`` (bloody gash, L5.LEG.1), ``end`` (losing blood after a
    declared attack, L5.TOR.1; a maim every Earth turns, L5.CS.4)."""
    out: list[tuple[Status, int, str]] = []
    if moment == "start":
        for s in fighter.active("bleed_turn_start", turn):
            if s.start_turn < turn:
                amount, rule = bleed_amount(fighter, s, tables, turn)
                out.append((s, amount, rule))
        return tuple(out)
    if isinstance(fighter.declared, Attack):
        for s in fighter.active("bleed_after_attack", turn):
            amount, rule = bleed_amount(fighter, s, tables, turn)
            out.append((s, amount, rule))
    e = earth(fighter.character, tables)
    for s in fighter.active("maim_bleed", turn):
        passed = turn - s.start_turn
        if passed > 0 and passed % e == 0:
            amount, rule = bleed_amount(fighter, s, tables, turn)
            out.append((s, amount, "L5.CS.4" if rule == s.rule else rule))
    return tuple(out)


def end_by_action(fighter: Fighter, action: str) -> tuple[Fighter, tuple[Status, ...]]:
    """End every status that ``action`` ends (regain grip, regain footing, remove weapon, medical aid)."""
    ended = tuple(s for s in fighter.statuses if s.ended_by == action)
    return fighter.without(lambda s: s.ended_by == action), ended


def expire(fighter: Fighter, turn: int) -> tuple[Fighter, tuple[Status, ...]]:
    """At the end of ``turn``: drop statuses whose last turn it was, and faded penalties."""

    def gone(s: Status) -> bool:
        if s.end_turn is not None and s.end_turn <= turn:
            return True
        return bool(s.shrink) and s.amount_on(turn + 1) == 0

    ended = tuple(s for s in fighter.statuses if gone(s))
    return fighter.without(gone), ended
