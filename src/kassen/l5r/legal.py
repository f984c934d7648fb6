"""Every legal decision now: the actions the list offers, each one validated.

Complete, with one bound written in the data: when a character's raises have no limit
(``core.raises.limit: none``) the attacks are listed with at most ``core.raises.max_enumerated_raises``
paid raises (beyond any Free Raises), since the list must be finite; an attack with more stays legal and
is accepted (see ``RulesetInfo.legal_actions_note`` in :mod:`kassen.l5r.ruleset`). With a limit (the
house default: Void) every legal attack is listed.
"""

from __future__ import annotations

__all__ = ["attack_candidates", "checked_attack", "legal_actions", "validate_listed"]

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
    Declare,
    ThroatStrike,
)
from kassen.l5r.character import FighterId
from kassen.l5r.rolls import AttackPool, RaisePlan, attack_pool, is_blacked_out, plan_raises, raise_limit
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
from kassen.l5r.validate import (
    act_allowed,
    check_attack_form,
    check_attacker_and_target,
    free_raises_for,
    next_declarer,
    validate,
    validate_attack,
    validate_strike,
)


def checked_attack(
    state: DuelState, attacker: Fighter, attack: Attack, tables: L5Tables, *, free: int
) -> RaisePlan:
    """:func:`~kassen.l5r.validate.validate_attack` (not simultaneous): the raise plan, found with no
    check at all for an attack the last list of legal actions allowed in this very state (the
    heuristic weighs those), else an :class:`IllegalActionError`."""
    known = _listed_plan(state, attacker, attack, tables, free)
    if known is not None:
        return known
    return validate_attack(state, attacker, attack, tables, free=free)


def validate_listed(state: DuelState, action: Action, tables: L5Tables) -> None:
    """:func:`~kassen.l5r.validate.validate`, except that an attack the list of legal actions allowed
    for this very state (and attacker, tables and Free Raises) is not validated again: what would be
    checked was checked there."""
    if (
        isinstance(action, Declare)
        and not action.skipped
        and isinstance(action.act, Attack)
        and state.phase is Phase.DECLARE
        and state.pending is None
        and next_declarer(state) == action.actor
    ):
        f = state.fighter(action.actor)
        free = free_raises_for(f, action.act.target, f.declarations_made + 1)
        if _listed_plan(state, f, action.act, tables, free) is not None:
            return
    validate(state, action, tables)


def _listed_plan(
    state: DuelState, attacker: Fighter, attack: Attack, tables: L5Tables, free: int
) -> RaisePlan | None:
    """The plan of ``attack`` if this thread's last listing (``L5Memos.listed``) allowed an equal attack
    for this very state and attacker (under these tables), with these Free Raises; else ``None``."""
    listed = tables.memos.listed.value
    if listed.state is not state or listed.attacker is not attacker:
        return None
    found = listed.plans.get(attack)
    return found[1] if found is not None and found[0] == free else None


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
    return _declarations(state, actor, tables)


#: No special / no called shot, then each (iterating an Enum costs more than a tuple, once per candidate).
_SPECIALS: tuple[SpecialAttackName | None, ...] = (None, *SpecialAttackName)
_LOCATIONS: tuple[Location | None, ...] = (None, *Location)


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
        for special in _SPECIALS:
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
                # nobody else to obstruct: ineffective and legal, unless the table refuses it
                ineffective = t.special_attacks.foul.unobstructed == "ineffective"
                obstructs = list(opponents) or ([None] if ineffective else [])
            # What the special and each called shot cost (as raise_cost adds them up), so that only the
            # attacks within the budget are built: damage raises from 0 while the total stays in it.
            special_cost = 0 if row is None else row.raises
            for loc in _LOCATIONS:
                fixed = special_cost + (0 if loc is None else t.location(loc).raises)
                for dmg in range(min(budget, budget - fixed) + 1):
                    for other in obstructs:
                        yield Attack(target.name, dmg, loc, special, full, other)


def _declarations(state: DuelState, actor: FighterId, tables: L5Tables) -> list[Action]:
    """Every declaration :func:`~kassen.l5r.validate.validate_declaration` allows ``actor`` now (each a
    :class:`Declare`), in the order of the candidates (the plain acts, then the attacks target by target
    as :func:`attack_candidates` lists them); ``test_legal_lists_what_validation_allows`` holds this to
    validating every candidate one by one.

    What validate_declaration checks first (the declaration phase, nothing pending, the actor declares
    next) is checked once; so is what validate_attack checks first for every attack on one target (the
    target, the attacker's weapon and hands, reach): what is left of an attack's checks (its form, its
    raise plan) depends on values that change seldom, so the allowed attacks are remembered by them
    (:func:`_allowed_attacks`) with their plans (passed on to the heuristic, see :func:`checked_attack`).
    The declarations are immutable values: the same objects are listed again whenever they are legal."""
    if not (state.phase is Phase.DECLARE and state.pending is None and next_declarer(state) == actor):
        return []  # validate_declaration refuses every declaration
    f = state.fighter(actor)
    sides = tuple((o.name, o.side) for o in state.fighters)
    legal: list[Action] = []
    blacked, locked = is_blacked_out(f, state.turn), f.has("locked", state.turn)
    acts = tables.memos.plain_acts
    plain = acts.get((actor, sides))
    if plain is None:
        plain = acts.put((actor, sides), _plain_acts(actor, sides))
    for declare in plain:
        act = declare.act
        assert isinstance(act, Act)
        if act_allowed(state, f, act, tables, blacked=blacked, locked=locked):
            legal.append(declare)
    plans: dict[Attack, tuple[int, RaisePlan]] = {}
    for target in state.fighters:  # any other fighter still standing, allies included
        if target.name != f.name and standing(target, tables):
            try:
                check_attacker_and_target(state, f, target.name, tables)
            except IllegalActionError:
                continue  # refused for what every attack on this target shares
            free = free_raises_for(f, target.name, f.declarations_made + 1)
            for declare, attack, plan in _allowed_attacks(state, f, target, free, tables):
                plans[attack] = (free, plan)
                legal.append(declare)
    listed = tables.memos.listed.value
    listed.state, listed.attacker, listed.plans = state, f, plans
    return legal


def _plain_acts(actor: FighterId, sides: tuple[tuple[FighterId, str], ...]) -> tuple[Declare, ...]:
    """Every non-attack declaration ``actor`` might make among fighters of these names and sides."""
    side = dict(sides)[actor]
    acts: list[Act] = []
    for kind in ActKind:
        if kind is ActKind.ATTACK:
            continue
        if kind is ActKind.MEDICAL_AID:
            acts += [Act(kind, name) for name, s in sides if s == side]
        elif kind is ActKind.CLOSE:
            acts += [Act(kind, name) for name, s in sides if s != side]
        else:
            acts.append(Act(kind))
    return tuple(Declare(actor, a) for a in acts)


def _allowed_attacks(
    state: DuelState, f: Fighter, target: Fighter, free: int, tables: L5Tables
) -> tuple[tuple[Declare, Attack, RaisePlan], ...]:
    """The candidates on ``target`` validate_attack allows once its shared checks have passed, each
    with its raise plan.

    Past those checks, what decides them is: the candidates (:func:`attack_candidates`: the target, the
    Free Raises, the attacker's raise limit, the other opponents still standing), each one's form (Full
    Attack, special, Foul: a Foul's other opponent is one of those standing, so it passes or fails with
    the tables alone) and its raise plan (raises, special, the raise limit, the attacker's name, whether
    the attack pool is unskilled and why). Remembered by these values."""
    turn = state.turn
    pools = (attack_pool(f, tables, turn, full_attack=False), attack_pool(f, tables, turn, full_attack=True))
    opponents = tuple(
        o.name for o in state.fighters if o.side != f.side and o.name != target.name and standing(o, tables)
    )
    key = (
        f.name,
        target.name,
        free,
        raise_limit(f, tables),
        opponents,
        pools[0].unskilled,
        pools[0].unskilled_rule,
        pools[1].unskilled,
        pools[1].unskilled_rule,
    )
    memo = tables.memos.allowed
    found = memo.get(key)
    if found is None:
        found = memo.put(key, _check_attacks(state, f, target, free, tables, pools))
    return found


def _check_attacks(
    state: DuelState,
    f: Fighter,
    target: Fighter,
    free: int,
    tables: L5Tables,
    pools: tuple[AttackPool, AttackPool],
) -> tuple[tuple[Declare, Attack, RaisePlan], ...]:
    """The candidates on ``target`` whose form and raise plan validate_attack accepts (its shared
    checks passed), each with its declaration and plan; ``pools``: the attack pools without and with
    Full Attack."""
    out: list[tuple[Declare, Attack, RaisePlan]] = []
    for a in attack_candidates(state, f, target, free, tables):
        try:
            check_attack_form(state, f, a, tables)
            ap = pools[a.full_attack]
            plan = plan_raises(
                a, f, tables, free=free, unskilled=ap.unskilled, unskilled_rule=ap.unskilled_rule
            )
        except IllegalActionError:
            continue
        out.append((Declare(f.name, a), a, plan))
    return tuple(out)


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
