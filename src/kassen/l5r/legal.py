"""Every legal decision now: the actions the list offers, each one validated.

Complete, with one bound written in the data: when a character's raises have no limit
(``core.raises.limit: none``) the attacks are listed with at most ``core.raises.max_enumerated_raises``
paid raises (beyond any Free Raises), since the list must be finite; an attack with more stays legal and
is accepted (see ``RulesetInfo.legal_actions_note`` in :mod:`kassen.l5r.ruleset`). With a limit (the
house default: Void) every legal attack is listed.
"""

from __future__ import annotations

__all__ = ["attack_candidates", "legal_actions"]

from collections.abc import Iterator, Sequence

from kassen.core.errors import IllegalActionError
from kassen.l5r.actions import (
    Act,
    Action,
    ActKind,
    Attack,
    Begin,
    ChooseCorps,
    ChooseDrive,
    ChooseInjury,
    Declaration,
    Declare,
    ThroatStrike,
)
from kassen.l5r.character import FighterId
from kassen.l5r.rolls import raise_cost, raise_limit
from kassen.l5r.state import (
    CorpsPending,
    DrivePending,
    DuelState,
    Fighter,
    InjuryPending,
    Phase,
    ThroatPending,
)
from kassen.l5r.tables import L5Tables, Location, SpecialAttackName
from kassen.l5r.turn import standing
from kassen.l5r.validate import free_raises_for, next_declarer, validate_declaration, validate_strike


def legal_actions(state: DuelState, tables: L5Tables) -> Sequence[Action]:
    """What the character (or the GM) to decide may do now."""
    if state.phase is Phase.OVER:
        return []
    if state.phase is Phase.START:
        return [Begin()]
    if state.pending is not None:
        return _choices(state, tables)
    actor = next_declarer(state)
    if actor is None:
        return []
    return [Declare(actor, d) for d in _declarations(state, actor, tables)]


def attack_candidates(
    state: DuelState, f: Fighter, target: Fighter, free: int, tables: L5Tables, *, strike: bool = False
) -> Iterator[Attack]:
    """The attacks ``f`` might declare on ``target`` with ``free`` Free Raises, before validation
    (``strike``: the Point-to-throat extra attack, plain attacks and Subdue only)."""
    t = tables
    limit = raise_limit(f, t)
    # no limit: the list stops at the data's max_enumerated_raises (L5.CORE.3 house default)
    budget = (t.core.raises.max_enumerated_raises if limit is None else limit) + free
    opponents = [
        o.name for o in state.fighters if o.side != f.side and o.name != target.name and standing(o, t)
    ]
    for full in (False,) if strike else (False, True):
        for special in (None, *SpecialAttackName):
            row = None if special is None else t.special(special)
            if strike and row is not None and not row.damage:
                continue
            if row is not None and not row.damage:
                yield Attack(target.name, special=special, full_attack=full)
                continue
            obstructs: list[FighterId | None] = [None]
            if special is SpecialAttackName.FOUL:
                if strike:
                    continue
                obstructs = list(opponents)
            for loc in (None, *Location):
                for dmg in range(budget + 1):
                    for other in obstructs:
                        a = Attack(target.name, dmg, loc, special, full, other)
                        if raise_cost(a, t)[0] <= budget:
                            yield a


def _declarations(state: DuelState, actor: FighterId, tables: L5Tables) -> list[Declaration]:
    f = state.fighter(actor)
    out: list[Declaration] = []
    for kind in ActKind:
        if kind is ActKind.ATTACK:
            continue
        if kind is ActKind.MEDICAL_AID:
            out += [Act(kind, o.name) for o in state.fighters if o.side == f.side]
        elif kind is ActKind.CLOSE:
            out += [Act(kind, o.name) for o in state.fighters if o.side != f.side]
        else:
            out.append(Act(kind))
    for target in state.fighters:  # any other fighter still standing, allies included
        if target.name != f.name and standing(target, tables):
            free = free_raises_for(f, target.name, f.declarations_made + 1)
            out += list(attack_candidates(state, f, target, free, tables))
    legal: list[Declaration] = []
    for d in out:
        try:
            validate_declaration(state, actor, d, tables)
        except IllegalActionError:
            continue
        legal.append(d)
    return legal


def _choices(state: DuelState, tables: L5Tables) -> list[Action]:
    p = state.pending
    if isinstance(p, InjuryPending):
        injuries: list[Action] = [ChooseInjury(p.chooser, o) for o in p.options]
        return [*injuries, ChooseInjury(p.chooser, None)]
    if isinstance(p, CorpsPending):
        return [ChooseCorps(p.chooser, "disengage"), ChooseCorps(p.chooser, "struggle")]
    if isinstance(p, DrivePending):
        return [ChooseDrive(p.chooser, "give_way"), ChooseDrive(p.chooser, "refuse")]
    if isinstance(p, ThroatPending):
        holder, target = state.fighter(p.chooser), state.fighter(p.threatened)
        free = tables.special_attacks.point_to_throat.free_raises
        strikes: list[Action] = []
        for a in attack_candidates(state, holder, target, free, tables, strike=True):
            strike = ThroatStrike(p.chooser, a)
            try:
                validate_strike(state, strike, tables)
            except IllegalActionError:
                continue
            strikes.append(strike)
        return strikes
    return []
