"""Odds before committing: the exact outcome distribution of an attack in a breath being built.

:func:`attack_preview` reads the attack the way the battle will resolve it — nothing re-implemented. The
breath is declared and paid on a working copy (:meth:`~kassen.sengoku.battle.flow.BattleTurn.
begin_breath`, so Defenseless ends as the action starts, SG.DFL.3), the maneuvers before the attack take
their sure effects (a stance declared or released, a reservation, a weapon picked up, a movement —
assumed to succeed, as the planner assumes it — an earlier attack's ambush and the attack count it
raises, SG.AMB.1), then the attack starts as :meth:`~kassen.sengoku.battle.flow.attack.AttackPart.
use_attack` starts it (reach, weapon, ambush) and stops where the dice would be rolled. Its
:meth:`~kassen.sengoku.battle.flow.context.ContextPart.context` — the modifier with the technique, the
situation, the zone rows, the battlefield changes and the ambush; the target's Defense with its stances,
Defenseless and debuffs — is what the roll will be made against. Then:

- ``hit``, ``critical``, ``fumble``: :meth:`kassen.sengoku.odds.OddsTable.attack` (what ``attack_odds``
  and ``kassen sengoku odds --modifier M --defense D`` compute: every roll through
  :func:`~kassen.sengoku.attack.resolve_attack`, SG.CHK.1-2, SG.CRT.1, SG.FUM.1);
- ``target down`` and the expected ``Wounds`` the target loses: every one of the ``10 × 10`` rolls (and,
  where a double consults a d100 table, every row of it, SG.CRT.4, SG.FUM.3) through
  :func:`~kassen.sengoku.attack.resolve_attack` with the two units' own profiles — the blow's Wounds and
  added effects (SG.WND.1-6, SG.CRT.2-3, SG.RD.1), capped by the Wounds the target has left (SG.WND.4),
  a Decisive Blow's Incapacitated included.

What the dice of an earlier attack in the same breath will do is not foreseen; nor are the decisions the
attack may wait on: a reserved defense of the target (hidden from the attacker's side, SG.RES.1), a Fate
Intervention or a Last Bastion (SG.FAT.1-2). A shinobi's [Ambush] from infiltration is a Critical Hit
with no check (SG.AMB.2): odds of 1.
"""

from __future__ import annotations

__all__ = ["AttackPreview", "attack_preview"]

import contextlib
from dataclasses import dataclass
from fractions import Fraction

from kassen.core.errors import IllegalActionError
from kassen.core.fastreplace import replace
from kassen.core.menu import Odds
from kassen.i18n import N_, _, translate_text
from kassen.sengoku.attack import Attack, AttackResult
from kassen.sengoku.battle.actions import Breath
from kassen.sengoku.battle.flow import BattleTurn
from kassen.sengoku.battle.flow.context import _Context
from kassen.sengoku.battle.plan import destination
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Use
from kassen.sengoku.battle.table.check import NoDice, Rolled
from kassen.sengoku.entries import Maneuver, ManeuverKind, MovementTo
from kassen.sengoku.odds import AttackOdds


class _Face:
    """A d100 showing ``face`` (one row of a table at a time)."""

    def __init__(self, face: int) -> None:
        self.face = face

    def die(self, sides: int) -> int:
        return self.face


@dataclass(frozen=True, slots=True)
class AttackPreview:
    """An attack as it will be rolled: its modifier and the target's Defense, the chances of the check
    (:class:`~kassen.sengoku.odds.AttackOdds`), the chance the target goes down and the Wounds it is
    expected to lose; ``automatic``: a Critical Hit with no check (SG.AMB.2); ``ambush``: the condition
    of a basic ambush (SG.AMB.1)."""

    technique: str
    modifier: int
    defense: int
    chances: AttackOdds | None
    down: Fraction
    wounds: Fraction
    automatic: bool = False
    ambush: str = ""

    @property
    def odds(self) -> Odds:
        """As a menu shows them: hit, critical, fumble, target down; expected Wounds."""
        c = self.chances
        if c is None:
            outcomes = (("hit", Fraction(1)), ("critical", Fraction(1)), ("fumble", Fraction(0)))
        else:
            outcomes = (("hit", c.hit), ("critical", c.critical), ("fumble", c.fumble))
        return Odds((*outcomes, (_ODDS_DOWN, self.down)), ((_ODDS_WOUNDS, self.wounds),))

    def summary(self) -> str:
        """``2d10+5 vs Defense 12`` (``ambush``, or ``[Ambush]: a Critical Hit, no check``)."""
        if self.automatic:
            return _("[Ambush]: a Critical Hit with no check")
        sign = "-" if self.modifier < 0 else "+"
        roll = f"2d10{sign}{abs(self.modifier)}"
        if self.ambush:
            return _("{roll} vs Defense {defense}, ambush ({condition})").format(
                roll=roll, defense=self.defense, condition=translate_text(self.ambush)
            )
        return _("{roll} vs Defense {defense}").format(roll=roll, defense=self.defense)


#: The odds' keys (language-neutral in JSON; marked so a menu can say them in the reader's language).
_ODDS_KEYS = (N_("hit"), N_("critical"), N_("fumble"))
_ODDS_DOWN, _ODDS_WOUNDS = N_("target down"), N_("Wounds")


def _kind(m: Maneuver) -> str:
    if m.attacks:
        return "attack"
    if m.movement is not None:
        return "retreat" if m.movement.to is MovementTo.OFF_BATTLEFIELD else "move"
    return "other"


def _before(turn: BattleTurn, use: Use, m: Maneuver) -> None:
    """The sure effects of a maneuver that comes before the attack in the breath."""
    b = turn.state.breath
    assert b is not None
    kind = _kind(m)
    if kind == "attack":
        with contextlib.suppress(Rolled):
            turn.use_attack(b, use, m)
        p = turn.state.attack
        if p is not None:  # its dice are not foreseen; what it does whatever they show is
            a = turn.u(p.attacker)
            w = turn.rules.weapon_for(a, m, p.weapon or None)
            reload = w is not None and w.reload
            turn.put(replace(a, attacks=a.attacks + 1, infiltrating=False, unloaded=a.unloaded or reload))
            turn.set(attack=None, decision=None)
    elif kind == "move":
        unit = turn.u(b.unit)
        assert unit.zone is not None and m.movement is not None
        try:
            dest = destination(turn.state, unit, m, use, unit.zone)
        except IllegalActionError:
            return
        infiltrating = True if "infiltrating" in m.movement.grants else unit.infiltrating
        turn.put(replace(unit, zone=dest or unit.zone, infiltrating=infiltrating))
    elif m.aid is not None:
        turn.use_aid(b, use, m)
    elif m.kind is ManeuverKind.DEFENSE:
        turn.use_reserve(b, use, m)
    elif m.grants is not None:
        turn.use_stance(b, use, m)


def attack_preview(
    rules: BattleRules, state: BattleState, unit: str, uses: tuple[Use, ...], index: int
) -> AttackPreview | None:
    """The preview of ``uses[index]``, an attack in ``unit``'s breath ``uses`` (only the uses up to it
    are read) — ``None`` when it is no attack, the breath is not legal, or the attack would be forfeited
    (its target gone, out of reach)."""
    use = uses[index]
    m = rules.maneuver(use.maneuver)
    if not m.attacks:
        return None
    turn = BattleTurn(state, NoDice(), rules)
    try:
        turn.begin_breath(Breath(unit, uses[: index + 1]))
    except IllegalActionError:
        return None
    for i in range(index):
        _before(turn, uses[i], rules.maneuver(uses[i].maneuver))
        now = turn.state.breath
        assert now is not None
        turn.set(breath=replace(now, index=i + 1))
    b = turn.state.breath
    assert b is not None
    mark = len(turn.events)
    with contextlib.suppress(Rolled):
        turn.use_attack(b, use, m)
    p = turn.state.attack
    if p is None:
        done = [e for e in turn.events[mark:] if e.kind == "attack" and e.data.get("automatic_critical")]
        if not done:
            return None  # forfeited
        d = done[0].data
        before, after = int(d["wounds_before"]), int(d["wounds_after"])
        lost = Fraction(before - after)
        return AttackPreview(str(d["technique"]), 0, 0, None, Fraction(int(after == 0 < before)), lost, True)
    ctx = turn.context()
    chances = rules.odds.attack(ctx.modifier, ctx.defense.defense, ctx.tech)
    down, wounds = _blows(rules, ctx)
    ambush = p.condition if p.ambush == "basic" else ""
    return AttackPreview(
        ctx.tech.name, ctx.modifier, ctx.defense.defense, chances, down, wounds, ambush=ambush
    )


def _blows(rules: BattleRules, ctx: _Context) -> tuple[Fraction, Fraction]:
    """The chance the target is Incapacitated and the Wounds it is expected to lose: every roll, and
    every d100 row a double consults, through :func:`resolve_attack` (remembered by value in the
    content's rules: the same attack on the same target is priced once)."""
    r = rules.resolution
    defense = ctx.defense
    action = Attack(ctx.tech, modifier=ctx.modifier, tags=ctx.tags)
    key = (ctx.pa, ctx.pt, action, defense.defense, defense.pierce_removed)
    found = rules.previews.get(key)
    if found is not None:
        return found

    def one(faces: tuple[int, int], face: int) -> AttackResult:
        return rules.resolve_attack(ctx.pa, ctx.pt, action, defense, faces, _Face(face))

    sides = r.check.sides
    wounds = down = Fraction(0)
    for a in range(1, sides + 1):
        for b in range(1, sides + 1):
            weight = Fraction(1, sides * sides)
            res = one((a, b), 1)
            if res.table is None:
                rows = [(res, weight)]
            else:
                table = r.decisive_moment if res.table.table == "decisive_moment" else r.critical_mistake
                rows = [
                    (one((a, b), row.low), weight * Fraction(row.high - row.low + 1, table.die))
                    for row in table.rows
                ]
            for done, w in rows:
                wounds += w * (done.wounds_before - done.wounds_after)
                down += w * done.incapacitated
    rules.previews[key] = (down, wounds)
    return down, wounds
