"""A bout's state and actions: frozen, slotted dataclasses updated with ``replace()``, written and read
by the core's codec (:mod:`kassen.core.codec`; an action is written with its ``kind``).

The state holds no tables: the content (:class:`~kassen.arena.rules.ArenaRules`) comes with every call
that needs it. Besides the fighters it holds the acting order, the subturn and slot, the *agenda* of
scheduled tasks (the automatic part of the rules, run by :func:`kassen.arena.bout.flow.follow_up`), the
pending override *offers* and the result.
"""

from __future__ import annotations

__all__ = [
    "Action",
    "AddShock",
    "ApplyHit",
    "Attack",
    "AutoStun",
    "Begin",
    "BoutState",
    "Cheer",
    "Death",
    "DeathCheck",
    "Decline",
    "EndSubturn",
    "ExpireEffects",
    "FallStunCheck",
    "FatigueTick",
    "FpThresholds",
    "GiveUp",
    "Grapple",
    "Guts",
    "HeadBlow",
    "HitRecord",
    "Knockback",
    "KnockdownCheck",
    "Land",
    "Move",
    "Offer",
    "PopularityCheck",
    "Result",
    "Rise",
    "SetGuard",
    "SpendFp",
    "StartSubturn",
    "StunRecovery",
    "Task",
    "VitalCheck",
    "Wait",
    "ZeroHpCheck",
    "initial_state",
]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

from kassen.arena.damage import DamageResult
from kassen.arena.fighter import Cause, Fighter, FighterState
from kassen.arena.rules import ArenaRules
from kassen.arena.terms import MatchFormat, Posture
from kassen.core.errors import KassenError
from kassen.core.fastinit import fast_init
from kassen.i18n import _


# -- actions -------------------------------------------------------------------------------------------
@fast_init
@dataclass(frozen=True, slots=True)
class Begin:
    """The referee starts the bout: popularity checks (match format), then subturn 1."""


@fast_init
@dataclass(frozen=True, slots=True)
class Attack:
    """Attack ``target`` at ``location`` (a key of the location table; ``None``: the location the rules
    give damage that names none, ``damage.basic.default_location``, AR.DMG.1); ``all_out`` is an all-out
    attack (+4, no defence until the next slot, 1 FP: AR.FTG.1)."""

    actor: str
    target: str
    location: str | None = None
    all_out: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class Grapple:
    """Seize ``target`` (a quick contest of skill against defence)."""

    actor: str
    target: str


@fast_init
@dataclass(frozen=True, slots=True)
class SetGuard:
    """Cover ``location`` with ``arm`` (庇い); an empty location drops that arm's guard."""

    KIND: ClassVar[str] = "guard"

    actor: str
    arm: str
    location: str = ""


@fast_init
@dataclass(frozen=True, slots=True)
class Move:
    """Move to ``to`` metres on the line, at most the fighter's effective Move away (closing or
    retreating; the AR.GAP.2 position model, with AR.HP.1, AR.FTG.3 and AR.KNB.5)."""

    actor: str
    to: int


@fast_init
@dataclass(frozen=True, slots=True)
class Rise:
    """One step up: lying → sitting → standing."""

    actor: str


@fast_init
@dataclass(frozen=True, slots=True)
class Wait:
    """Do nothing this slot (a stunned fighter may only defend: AR.STN.1)."""

    actor: str


@fast_init
@dataclass(frozen=True, slots=True)
class GiveUp:
    """Give up (ギブアップ): an incapacitated state (AR.OUT.1)."""

    actor: str


@fast_init
@dataclass(frozen=True, slots=True)
class Guts:
    """A guts check (AR.GUT.1): 2 FP and a Will check, against an offered state or one's own stun."""

    actor: str


@fast_init
@dataclass(frozen=True, slots=True)
class Cheer:
    """Spend an audience point on ``effect`` (AR.AUD.2-3); a free action."""

    actor: str
    effect: str


@fast_init
@dataclass(frozen=True, slots=True)
class Decline:
    """Let an offered state stand."""

    actor: str


Action = Begin | Attack | Grapple | SetGuard | Move | Rise | Wait | GiveUp | Guts | Cheer | Decline


# -- hits, offers, tasks --------------------------------------------------------------------------------
@fast_init
@dataclass(frozen=True, slots=True)
class HitRecord:
    """One hit on its way through the injury rules."""

    hit_id: int
    victim: str
    damage: DamageResult
    attacker: str | None = None
    painful: bool = False
    margin_of_loss: int = 0

    @property
    def cause(self) -> Cause:
        return Cause(self.damage.reduced, self.margin_of_loss, self.hit_id, self.damage.location)


@fast_init
@dataclass(frozen=True, slots=True)
class Offer:
    """A fighter may override ``condition`` now (``"helpless"``: FP 1). ``automatic`` marks an
    automatic unconsciousness or stun, whose override exempts the same hit's others (AR.INJ.10)."""

    fighter: str
    condition: str
    rule: str
    cause: Cause = field(default_factory=Cause)
    automatic: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class StartSubturn:
    pass


@fast_init
@dataclass(frozen=True, slots=True)
class EndSubturn:
    pass


@fast_init
@dataclass(frozen=True, slots=True)
class PopularityCheck:
    fighter: str


@fast_init
@dataclass(frozen=True, slots=True)
class FatigueTick:
    fighter: str


@fast_init
@dataclass(frozen=True, slots=True)
class StunRecovery:
    fighter: str


@fast_init
@dataclass(frozen=True, slots=True)
class ZeroHpCheck:
    fighter: str


@fast_init
@dataclass(frozen=True, slots=True)
class Land:
    fighter: str


@fast_init
@dataclass(frozen=True, slots=True)
class ExpireEffects:
    pass


@fast_init
@dataclass(frozen=True, slots=True)
class ApplyHit:
    hit: HitRecord


@fast_init
@dataclass(frozen=True, slots=True)
class DeathCheck:
    hit: HitRecord
    threshold: int


@fast_init
@dataclass(frozen=True, slots=True)
class Death:
    hit: HitRecord


@fast_init
@dataclass(frozen=True, slots=True)
class HeadBlow:
    hit: HitRecord


@fast_init
@dataclass(frozen=True, slots=True)
class VitalCheck:
    hit: HitRecord


@fast_init
@dataclass(frozen=True, slots=True)
class AutoStun:
    hit: HitRecord
    rule: str


@fast_init
@dataclass(frozen=True, slots=True)
class KnockdownCheck:
    hit: HitRecord


@fast_init
@dataclass(frozen=True, slots=True)
class FallStunCheck:
    hit: HitRecord


@fast_init
@dataclass(frozen=True, slots=True)
class Knockback:
    hit: HitRecord
    distance: int


@fast_init
@dataclass(frozen=True, slots=True)
class AddShock:
    hit: HitRecord


@fast_init
@dataclass(frozen=True, slots=True)
class SpendFp:
    fighter: str
    amount: int
    rule: str
    reason: str


@fast_init
@dataclass(frozen=True, slots=True)
class FpThresholds:
    """Look at the FP thresholds (AR.FTG.2-5) crossed on the way from ``before`` to ``after``: both are
    taken when the FP are spent, so each crossing is looked at once."""

    fighter: str
    before: int
    after: int


Task = (
    StartSubturn
    | EndSubturn
    | PopularityCheck
    | FatigueTick
    | StunRecovery
    | ZeroHpCheck
    | Land
    | ExpireEffects
    | ApplyHit
    | DeathCheck
    | Death
    | HeadBlow
    | VitalCheck
    | AutoStun
    | KnockdownCheck
    | FallStunCheck
    | Knockback
    | AddShock
    | SpendFp
    | FpThresholds
)


@fast_init
@dataclass(frozen=True, slots=True)
class Result:
    """How the bout ended: the winning side (None: nobody, a draw), why, and in which subturn."""

    winner: str | None
    reason: str
    subturn: int


@fast_init
@dataclass(frozen=True, slots=True)
class BoutState:
    """A bout: the fighters, the acting order, the subturn and slot, the agenda of scheduled tasks,
    pending offers, and the result."""

    fighters: tuple[FighterState, ...]
    order: tuple[str, ...]
    format: MatchFormat = MatchFormat.MATCH
    ground: str = "hard"
    name: str = ""
    started: bool = False
    subturn: int = 0
    slot: int = 0
    agenda: tuple[Task, ...] = ()
    offers: tuple[Offer, ...] = ()
    next_hit: int = 1
    result: Result | None = None

    def fighter(self, fid: str) -> FighterState:
        for f in self.fighters:
            if f.profile.id == fid:  # f.id, without the property call (asked many times per action)
                return f
        raise KassenError(
            _("no fighter {fid} in this bout (fighters: {known})").format(
                fid=repr(fid), known=", ".join(self.order)
            )
        )


def initial_state(
    fighters: Sequence[Fighter],
    rules: ArenaRules,
    *,
    format: MatchFormat = MatchFormat.MATCH,
    ground: str | None = None,
    name: str = "",
    postures: Mapping[str, Posture] | None = None,
    altitudes: Mapping[str, Fraction] | None = None,
    positions: Mapping[str, int] | None = None,
    start_distance: int | None = None,
) -> BoutState:
    """A bout at its start, under ``rules``. The acting order is by the data's ``match.order_by`` (DX,
    then HT; ties keep the given order); the ground defaults to the data's ``default_ground``. A
    fighter not in ``positions`` stands with its side: the first side at 0 m, each next side
    ``start_distance`` metres (default: the data's ``match.position.start_distance``) beyond."""
    ids = [f.id for f in fighters]
    if len(set(ids)) != len(ids):
        raise KassenError(_("fighter ids must be unique, got {ids}").format(ids=ids))
    if len({f.side for f in fighters}) < 2:
        raise KassenError(_("a bout needs fighters on at least two sides"))
    g = ground or rules.falling.falling.default_ground
    if g not in rules.falling.falling.ground:
        raise KassenError(
            _("unknown ground {ground} (known: {known})").format(
                ground=repr(g), known=", ".join(rules.falling.falling.ground)
            )
        )
    keys = rules.match.match.order_by
    ordered = sorted(fighters, key=lambda f: tuple(-f.attribute(k) for k in keys))
    gap = rules.match.position.start_distance if start_distance is None else start_distance
    sides = list(dict.fromkeys(f.side for f in fighters))
    states = tuple(
        FighterState.fresh(
            f,
            posture=(postures or {}).get(f.id, Posture.STANDING),
            altitude=(altitudes or {}).get(f.id, Fraction(0)),
            position=(positions or {}).get(f.id, sides.index(f.side) * gap),
        )
        for f in fighters
    )
    return BoutState(states, tuple(f.id for f in ordered), format, g, name)
