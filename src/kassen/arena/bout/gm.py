"""The referee's own moves: available at any point of a bout, to the GM only.

Each is an action like any other — logged, replayed, undone, resolved through the ruleset's
``resolve`` (validated first: an :class:`~kassen.core.errors.IllegalActionError` naming the rule when it
cannot be made), its follow-ups drained by the core — but never among a fighter's legal actions: the
core offers them through ``fight.menu(gm=True)`` (the hook :func:`gm_actions`), ``kassen play`` through
the answer ``gm``. The referee's powers are part of the match-format house default (AR.GAP.2): the seed
leaves the match rules, and the call on "lost the will to fight", to the referee.

- :class:`GmSetHp`: a fighter's HP, set outright (−5 × HT up to its HP). Nothing is rolled: the
  referee's number stands (the death thresholds it passes are not rolled), but HP −5 × HT or less is
  death (AR.HP.4); HP 3 or less halves Move and HP 0 or less calls for an HT check each subturn, as they
  always do (AR.HP.1-2).
- :class:`GmSetFp`: a fighter's FP (0 up to its FP); FP taken away crosses the FP thresholds as a spend
  does (AR.FTG.2-5: FP 1 helpless, FP 0 unconscious).
- :class:`GmAddCondition`: stunned (AR.STN.1), or an incapacitated state (AR.OUT.1): unconscious, dead,
  gave up, lost the will to fight — the state arises as the rules make it arise (a guts check offered
  where one may override it, a fall, a lost match).
- :class:`GmRemoveCondition`: takes a condition off (a match already lost stays lost).
- :class:`GmEndBout`: the bout ends now, won by the side the referee names (or nobody).
"""

from __future__ import annotations

__all__ = [
    "GM_ACTIONS",
    "REFEREE",
    "GmAction",
    "GmAddCondition",
    "GmEndBout",
    "GmRemoveCondition",
    "GmSetFp",
    "GmSetHp",
    "addable",
    "apply_gm",
    "gm_actions",
    "hp_range",
    "validate_gm",
]

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

from kassen.arena.bout.state import BoutState, FpThresholds
from kassen.arena.bout.turn import BoutTurn
from kassen.arena.fighter import Cause, FighterState
from kassen.arena.rules import ArenaRules
from kassen.arena.terms import Condition
from kassen.arena.words import raw
from kassen.core.engine import Handlers
from kassen.core.errors import IllegalActionError
from kassen.core.fastreplace import replace
from kassen.i18n import N_, _

#: Why a bout the referee ends is over (``Result.reason``).
REFEREE = N_("ended by the referee")


@dataclass(frozen=True, slots=True)
class GmSetHp:
    """The referee sets ``fighter``'s HP to ``hp``."""

    fighter: str
    hp: int


@dataclass(frozen=True, slots=True)
class GmSetFp:
    """The referee sets ``fighter``'s FP to ``fp``."""

    fighter: str
    fp: int


@dataclass(frozen=True, slots=True)
class GmAddCondition:
    """The referee gives ``fighter`` a condition (a :class:`~kassen.arena.terms.Condition` value)."""

    fighter: str
    condition: str


@dataclass(frozen=True, slots=True)
class GmRemoveCondition:
    """The referee takes a condition off ``fighter``."""

    fighter: str
    condition: str


@dataclass(frozen=True, slots=True)
class GmEndBout:
    """The referee ends the bout; ``winner`` is a side, or ``None`` for nobody."""

    winner: str | None = None


GmAction: TypeAlias = GmSetHp | GmSetFp | GmAddCondition | GmRemoveCondition | GmEndBout
#: Every referee's action type (for ``isinstance``).
GM_ACTIONS = (GmSetHp, GmSetFp, GmAddCondition, GmRemoveCondition, GmEndBout)


def hp_range(f: FighterState, rules: ArenaRules) -> range:
    """The HP the referee may set: from death (−5 × HT, AR.HP.4) up to the fighter's HP."""
    return range(rules.injury.hp.dead_ht_multiple * f.profile.ht, f.profile.hp + 1)


def addable(f: FighterState) -> list[Condition]:
    """The conditions the referee may give ``f``: any it has not while it is able; only death once it is
    incapacitated (one incapacitated state at a time, AR.OUT.1); none once it is dead."""
    if f.has(Condition.DEAD):
        return []
    if f.incapacitated:
        return [Condition.DEAD]
    return [c for c in Condition if c not in f.conditions]


def _sides(state: BoutState) -> list[str]:
    return list(dict.fromkeys(f.profile.side for f in state.fighters))


# -- what the referee may do now ---------------------------------------------------------------------------
def gm_actions(state: BoutState, rules: ArenaRules) -> Sequence[GmAction]:
    """Every move open to the referee now (none once the bout is over)."""
    if state.result is not None:
        return []
    out: list[GmAction] = []
    for f in state.fighters:
        out += [GmSetHp(f.id, hp) for hp in reversed(hp_range(f, rules)) if hp != f.hp]
    for f in state.fighters:
        out += [GmSetFp(f.id, fp) for fp in range(f.profile.fp, -1, -1) if fp != f.fp]
    for f in state.fighters:
        out += [GmAddCondition(f.id, c.value) for c in addable(f)]
    for f in state.fighters:
        out += [GmRemoveCondition(f.id, c.value) for c in f.conditions]
    out += [GmEndBout(side) for side in _sides(state)]
    out.append(GmEndBout(None))
    return out


# -- validation ---------------------------------------------------------------------------------------------
def _fighter(state: BoutState, fid: str) -> FighterState:
    if not isinstance(fid, str) or fid not in state.order:
        shown = fid[:40] if isinstance(fid, str) else fid
        raise IllegalActionError(
            _("no fighter {fid} in this bout (fighters: {known})").format(
                fid=repr(shown), known=", ".join(state.order)
            ),
            rule="AR.GAP.2",
        )
    return state.fighter(fid)


def _condition(name: str) -> Condition:
    try:
        return Condition(name)
    except ValueError:
        known = ", ".join(c.value for c in Condition)
        raise IllegalActionError(
            _("unknown condition {name} (known: {known})").format(name=repr(str(name)[:40]), known=known),
            rule="AR.OUT.1",
        ) from None


def validate_gm(state: BoutState, action: GmAction, rules: ArenaRules) -> None:
    """Raise :class:`IllegalActionError` (naming the rule) unless the referee may make ``action`` now."""
    if state.result is not None:
        raise IllegalActionError(_("the bout is over"), rule="AR.OUT.1")
    if isinstance(action, GmEndBout):
        if action.winner is not None and action.winner not in _sides(state):
            raise IllegalActionError(
                _("{side} is no side of this bout (sides: {known})").format(
                    side=repr(str(action.winner)[:40]), known=", ".join(_sides(state))
                ),
                rule="AR.GAP.2",
            )
        return
    f = _fighter(state, action.fighter)
    if isinstance(action, GmSetHp):
        hp = hp_range(f, rules)
        if isinstance(action.hp, bool) or action.hp not in hp:
            raise IllegalActionError(
                _("{who}'s HP is set between {least} (dead: -5 x HT) and {most}").format(
                    who=f.id, least=hp.start, most=hp.stop - 1
                ),
                rule="AR.HP.4",
            )
    elif isinstance(action, GmSetFp):
        if isinstance(action.fp, bool) or not 0 <= action.fp <= f.profile.fp:
            raise IllegalActionError(
                _("{who}'s FP is set between 0 and {most}").format(who=f.id, most=f.profile.fp),
                rule="AR.FTG.5",
            )
    elif isinstance(action, GmAddCondition):
        c = _condition(action.condition)
        if f.has(Condition.DEAD):
            raise IllegalActionError(
                _("{who} is dead: take death off first").format(who=f.id), rule="AR.HP.4"
            )
        if f.has(c):
            raise IllegalActionError(
                _("{who} is already {condition}").format(who=f.id, condition=raw(c.value)), rule="AR.OUT.1"
            )
        if c not in addable(f):
            held = ", ".join(raw(x.value) for x in f.conditions)
            raise IllegalActionError(
                _("{who} is already incapacitated ({held}): only death can follow").format(
                    who=f.id, held=held
                ),
                rule="AR.OUT.1",
            )
    elif not f.has(_condition(action.condition)):
        raise IllegalActionError(
            _("{who} is not {condition}").format(who=f.id, condition=raw(action.condition)), rule="AR.OUT.1"
        )


# -- what each does ---------------------------------------------------------------------------------------
def _set_hp(b: BoutTurn, a: GmSetHp) -> None:
    f = b.f(a.fighter)
    b.put(replace(f, hp=a.hp))
    b.log("gm_hp", "AR.GAP.2", automatic=False, fighter=f.id, hp_before=f.hp, hp_after=a.hp)
    if a.hp <= b.rules.injury.hp.dead_ht_multiple * f.profile.ht and not f.has(Condition.DEAD):
        b.incapacitate(f.id, Condition.DEAD, "AR.HP.4", Cause())


def _set_fp(b: BoutTurn, a: GmSetFp) -> None:
    f = b.f(a.fighter)
    b.put(replace(f, fp=a.fp))
    b.log("gm_fp", "AR.GAP.2", automatic=False, fighter=f.id, fp_before=f.fp, fp_after=a.fp)
    if a.fp < f.fp:
        b.push(FpThresholds(f.id, f.fp, a.fp))


def _add_condition(b: BoutTurn, a: GmAddCondition) -> None:
    c = Condition(a.condition)
    b.log("gm_condition", "AR.GAP.2", automatic=False, fighter=a.fighter, condition=c.value, added=True)
    if c is Condition.STUNNED:
        b.stun(a.fighter, "AR.STN.1", Cause(), automatic=False)
    elif c is Condition.GAVE_UP:
        f = b.f(a.fighter)
        b.put(replace(f.with_condition(c), guards=()))
        b.release_holds(f.id)
        b.stays(f.id, c.value, "AR.OUT.1")
    else:
        b.incapacitate(a.fighter, c, "AR.OUT.1", Cause())


def _remove_condition(b: BoutTurn, a: GmRemoveCondition) -> None:
    f = b.f(a.fighter)
    b.put(f.without_condition(Condition(a.condition)))
    b.log("gm_condition", "AR.GAP.2", automatic=False, fighter=f.id, condition=a.condition, added=False)


def _end(b: BoutTurn, a: GmEndBout) -> None:
    b.log("gm_end", "AR.GAP.2", automatic=False, winner=a.winner)
    b.finish(a.winner, REFEREE)


_APPLY: Handlers[BoutTurn] = (
    Handlers[BoutTurn]()
    .add(GmSetHp, _set_hp)
    .add(GmSetFp, _set_fp)
    .add(GmAddCondition, _add_condition)
    .add(GmRemoveCondition, _remove_condition)
    .add(GmEndBout, _end)
)


def apply_gm(turn: BoutTurn, action: GmAction) -> None:
    """Validate the referee's ``action`` (naming the rule), then make it."""
    validate_gm(turn.state, action, turn.rules)
    _APPLY(turn, action)
