"""A breath built in steps: maneuver → (weapon) → (Aim Focus) → target, zone or squads → the
next maneuver … → end the breath; or Hold, or Pass (SG.BRT.1, SG.CNT.6).

A breath is any sequence of maneuvers within the unit's Energy — far more than ``legal_actions`` lists —
so the menus are built here, one step at a time, from the breath's own validation: the unit's
:class:`~kassen.sengoku.battle.plan.Planner` checks every prefix (:meth:`~kassen.sengoku.battle.plan.
Planner.prefix`: each maneuver on the ones before it, the Energy they spend, SG.CNT.5) and the finished
breath (:meth:`~kassen.sengoku.battle.plan.Planner.plan`), so a completed path is exactly a
:class:`~kassen.sengoku.battle.actions.Breath` ``apply`` accepts. A step offers every value it could take
— each maneuver the unit knows, each enemy as a target, each zone — and marks the ones that lead to no
legal breath as not allowed, with the rule that refuses them (out of reach, SG.ZON.2; not enough Energy,
SG.CNT.5; Defenseless, SG.DFL.2...). Each prompt says the Energy spent so far and left, and the breath
limit past which the breath overloads (SG.BRT.2); each maneuver its cost as priced at that point (zone
rows SG.RD.2, combo fatigue SG.BRT.3, Aim Focus SG.AIM.2); each target of an attack the exact odds of
that attack at that point of the breath (:mod:`~kassen.sengoku.battle.table.preview`).

A weapon step is offered only when more than one weapon in hand carries the technique: the first that
carries it, unnamed (as the breath reads a maneuver that names none), or one named (a weapon picked up
earlier in the breath counts, and is then named); an Aim Focus step only for a technique that allows
it (SG.AIM.1), from none up to the Finesse cap (SG.AIM.3); Retreat asks which allied squads in the zone
go along (SG.RET.2).
"""

from __future__ import annotations

__all__ = ["AIM", "END", "HOLD", "PASS", "RELEASE", "BreathMenus", "Choice"]

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from kassen.core.errors import IllegalActionError
from kassen.core.menu import MenuError, Odds
from kassen.i18n import N_, S_, _, pgettext, translate_text
from kassen.sengoku.aim import aim_cap
from kassen.sengoku.battle.actions import Action, Breath, Hold, Pass
from kassen.sengoku.battle.plan import Plan, planner
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Unit, Use
from kassen.sengoku.battle.table.check import refusal
from kassen.sengoku.battle.table.preview import attack_preview
from kassen.sengoku.entries import Maneuver, ManeuverKind, MovementTo, Weapon
from kassen.sengoku.profile import AimFocus
from kassen.sengoku.words import content_word as _w

#: Ids of the options that are no maneuver (a maneuver's id never holds ``_`` nor ``:``).
END, HOLD, PASS = "end_breath", "hold_breath", "pass_round"
RELEASE, AIM, WITH, ALONE, FIRST_WEAPON = "release:", "aim:", "with:", "alone", "first_weapon"

_STEP_WORDS = {
    "weapon": N_("choose the weapon"),
    "aim": N_("choose the Aim Focus"),
    "target": N_("choose the target"),
    "to": N_("choose the zone"),
    "squads": N_("choose who retreats along"),
}


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a step: its id, words, the value it sets, whether it finishes the decision, and —
    when the rules refuse it — why and the rule; an attack's target carries its odds."""

    id: str
    label: str
    value: Any = None
    allowed: bool = True
    why: str = ""
    rule: str = ""
    odds: Odds | None = None
    complete: bool = False


@dataclass(frozen=True, slots=True)
class _Partial:
    """A maneuver being built: the maneuver and the steps chosen for it so far."""

    maneuver: Maneuver
    chosen: tuple[tuple[str, Any], ...] = ()

    def get(self, step: str) -> Any:
        return dict(self.chosen)[step]

    def has(self, step: str) -> bool:
        return any(k == step for k, _ in self.chosen)

    def plus(self, step: str, value: Any) -> _Partial:
        return _Partial(self.maneuver, (*self.chosen, (step, value)))


@dataclass(frozen=True, slots=True)
class Built:
    """Where a path leads: the maneuvers complete so far, the one being built (if any), and the action
    once the path is complete."""

    uses: tuple[Use, ...]
    partial: _Partial | None
    action: Action | None = None


class BreathMenus:
    """The steps of one unit's breath in one state (see the module notes)."""

    def __init__(self, rules: BattleRules, state: BattleState, unit: Unit) -> None:
        self.rules = rules
        self.state = state
        self.unit = unit
        self.plans = planner(rules, state, unit)

    # -- the breath so far -------------------------------------------------------------------------------
    def _prefix(self, uses: tuple[Use, ...]) -> Plan | None:
        if not uses:
            return None
        return self.plans.prefix(uses)

    def zone_after(self, uses: tuple[Use, ...]) -> str:
        """Where the unit stands after ``uses`` (each movement assumed to succeed, as planned)."""
        plan = self._prefix(uses)
        assert self.unit.zone is not None
        if plan is None:
            return self.unit.zone
        last = plan.uses[-1]
        mv = last.maneuver.movement
        if mv is not None and mv.to is not MovementTo.OFF_BATTLEFIELD and last.use.to is not None:
            return last.use.to
        return last.zone

    def held_after(self, uses: tuple[Use, ...]) -> list[str]:
        """The stances and Kata the unit maintains after ``uses``."""
        held = list(self.unit.stances)
        for u in uses:
            m = self.rules.maneuver(u.maneuver)
            if m.grants is None:
                continue
            if u.release:
                held = [h for h in held if h != m.id]
            elif m.id not in held:
                if m.kind is ManeuverKind.STANCE:
                    held = [h for h in held if self.rules.maneuver(h).kind is not ManeuverKind.STANCE]
                held.append(m.id)
        return held

    def _picked(self, uses: tuple[Use, ...]) -> bool:
        return any(
            (m := self.rules.maneuver(u.maneuver)).aid is not None and m.aid.ends == "dropped-weapon"
            for u in uses
        )

    def usable(self, uses: tuple[Use, ...], m: Maneuver) -> list[Weapon]:
        """The weapons in hand that carry ``m`` after ``uses`` (one picked up earlier counts)."""
        picked = self._picked(uses)
        unit = self.unit
        return [
            w
            for w in self.rules.carriers(unit, m)
            if not unit.lacks(w.id) or (picked and w.id == unit.dropped and w.id not in unit.broken)
        ]

    # -- the steps of one maneuver -----------------------------------------------------------------------
    def _fill(self, uses: tuple[Use, ...], p: _Partial) -> tuple[_Partial, str | None]:
        """``p`` with the steps that need no asking taken, and the next step to ask (None: complete)."""
        m = p.maneuver
        if m.attacks:
            if not p.has("weapon"):
                usable = self.usable(uses, m)
                if len(usable) > 1:
                    return p, "weapon"
                one = usable[0] if usable else None
                named = one is not None and self.unit.lacks(one.id)  # picked up earlier: named
                p = p.plus("weapon", one.id if named and one is not None else None)
            if not p.has("aim"):
                if self._aim_cap(m, p.get("weapon")) >= 1:
                    return p, "aim"
                p = p.plus("aim", 0)
            return p, (None if p.has("target") else "target")
        if m.aid is not None:
            if m.aid.ends == "dropped-weapon" or p.has("target"):
                return p, None
            return p, "target"
        mv = m.movement
        if mv is not None and mv.to is MovementTo.OFF_BATTLEFIELD:
            if p.has("squads"):
                return p, None
            if len(self._squad_sets(uses)) > 1:
                return p, "squads"
            return p.plus("squads", ()), None
        if mv is not None:
            return p, (None if p.has("to") else "to")
        return p, None

    def _aim_cap(self, m: Maneuver, weapon: str | None) -> int:
        if m.kind not in (ManeuverKind.ATTACK, ManeuverKind.KATA):
            return 0
        if self.rules.technique(self.unit, m, weapon).aim_focus is AimFocus.NONE:
            return 0
        return aim_cap(self.rules.attribute(self.unit, "finesse"))

    def _squad_sets(self, uses: tuple[Use, ...]) -> list[tuple[str, ...]]:
        here = self.zone_after(uses)
        squads = [
            s.id
            for s in self.state.units
            if s.side == self.unit.side
            and s.id != self.unit.id
            and s.zone == here
            and s.cohesion is not None
            and s.on_battlefield
        ]
        out: list[tuple[str, ...]] = [()]
        for k in range(len(squads), 0, -1):
            out += list(combinations(squads, k))
        return out

    def _values(self, uses: tuple[Use, ...], p: _Partial, step: str) -> list[tuple[str, Any]]:
        """``(id, value)`` of every value ``step`` can take."""
        u = self.unit
        if step == "weapon":
            return [(FIRST_WEAPON, None), *((w.id, w.id) for w in self.usable(uses, p.maneuver))]
        if step == "aim":
            return [(f"{AIM}{n}", n) for n in range(self._aim_cap(p.maneuver, p.get("weapon")) + 1)]
        if step == "target":
            if p.maneuver.attacks:
                found = [t for t in self.state.units if t.side != u.side and t.on_battlefield]
            else:
                found = [
                    t for t in self.state.units if t.side == u.side and t.id != u.id and t.on_battlefield
                ]
            return [(t.id, t.id) for t in found]
        if step == "to":
            here = self.zone_after(uses)
            return [(z.id, z.id) for z in self.state.zones if z.id != here]
        return [(WITH + "+".join(s) if s else ALONE, s) for s in self._squad_sets(uses)]

    @staticmethod
    def use_of(p: _Partial) -> Use:
        c = dict(p.chosen)
        return Use(
            p.maneuver.id,
            c.get("target"),
            aim=c.get("aim", 0),
            to=c.get("to"),
            squads=c.get("squads", ()),
            release=c.get("release", False),
            weapon=c.get("weapon"),
        )

    def completions(self, uses: tuple[Use, ...], p: _Partial) -> Iterator[Use]:
        """Every use ``p`` can become (each later step at each value)."""
        p, step = self._fill(uses, p)
        if step is None:
            yield self.use_of(p)
            return
        for _ident, value in self._values(uses, p, step):
            yield from self.completions(uses, p.plus(step, value))

    def feasible(self, uses: tuple[Use, ...], p: _Partial) -> tuple[Plan | None, tuple[str, str]]:
        """The plan of the first legal breath-so-far ``p`` leads to, else the first refusal."""
        first: tuple[str, str] | None = None
        for use in self.completions(uses, p):
            try:
                return self.plans.prefix((*uses, use)), ("", "")
            except IllegalActionError as exc:
                first = first or (exc.message, exc.rule)
        if first is not None:
            return None, first
        if p.maneuver.aid is not None:
            return None, (
                S_("{name} has no ally on the battlefield to help", name=self.unit.name),
                "SG.INP.3",
            )
        why = S_("{maneuver} has no enemy on the battlefield to aim at", maneuver=p.maneuver.name)
        return None, (why, "SG.BRT.1")

    # -- walking a path ----------------------------------------------------------------------------------
    def walk(self, path: Sequence[str]) -> Built:
        """Follow ``path`` step by step: an id no step offers is a :class:`MenuError` listing the
        choices; one offered but refused is the rule's :class:`IllegalActionError`."""
        uses: tuple[Use, ...] = ()
        partial: _Partial | None = None
        for k, want in enumerate(path):
            if partial is None:
                step = "maneuver"
                choice = self._pick_maneuver(uses, want)
            else:
                partial, next_step = self._fill(uses, partial)
                assert next_step is not None
                step = next_step
                choice = self._pick_value(uses, partial, step, want)
            if choice.id == END:
                if k != len(path) - 1:
                    raise MenuError(
                        _("the breath is complete: {value} is one too many").format(
                            value=f"{path[k + 1][:40]!r}"
                        )
                    )
                return Built(uses, None, Breath(self.unit.id, uses))
            if choice.id in (HOLD, PASS):
                if k != len(path) - 1:
                    raise MenuError(
                        _("the decision is complete: {value} is one too many").format(
                            value=f"{path[k + 1][:40]!r}"
                        )
                    )
                cls = Hold if choice.id == HOLD else Pass
                return Built(uses, None, cls(self.unit.id))
            partial = choice.value if partial is None else partial.plus(step, choice.value)
            assert partial is not None
            partial, nxt = self._fill(uses, partial)
            if nxt is None:
                uses, partial = (*uses, self.use_of(partial)), None
        return Built(uses, partial)

    def options(self, path: Sequence[str]) -> tuple[Built, list[Choice], str]:
        """The step after ``path``: where it stands, the choices, and the step's name."""
        built = self.walk(path)
        if built.action is not None:
            return built, [], "complete"
        if built.partial is None:
            return built, self.maneuver_step(built.uses), "maneuver"
        partial, step = self._fill(built.uses, built.partial)
        assert step is not None
        return Built(built.uses, partial), self.sub_step(built.uses, partial, step), step

    # -- one choice, checked on its own (walking a path) --------------------------------------------------
    def _pick_maneuver(self, uses: tuple[Use, ...], want: str) -> Choice:
        """The maneuver step's option ``want``, checked as :meth:`maneuver_step` checks it."""
        if want == END and uses:
            return _pick([self._end(uses)], want)
        if want in (HOLD, PASS) and not uses:
            action = Hold(self.unit.id) if want == HOLD else Pass(self.unit.id)
            no = refusal(self.rules, self.state, action)
            return _pick([Choice(want, want, None, no is None, *(no or ("", "")), complete=True)], want)
        if want.startswith(RELEASE) and want[len(RELEASE) :] in self.held_after(uses):
            m = self.rules.maneuver(want[len(RELEASE) :])
            p = _Partial(m, (("release", True),))
            try:
                self.plans.prefix((*uses, self.use_of(p)))
            except IllegalActionError as exc:
                return _pick([Choice(want, _w(m.name), None, False, exc.message, exc.rule)], want)
            return Choice(want, _w(m.name), p)
        if want in self.rules.known(self.unit):
            m = self.rules.maneuver(want)
            if not (m.kind is ManeuverKind.UPKEEP and (m.upkeep is None or m.upkeep.count_cost is None)):
                plan, (why, rule) = self.feasible(uses, _Partial(m))
                return _pick([Choice(want, m.name, _Partial(m), plan is not None, why, rule)], want)
        return _pick(self.maneuver_step(uses), want)  # not a choice: the error lists the choices

    def _pick_value(self, uses: tuple[Use, ...], p: _Partial, step: str, want: str) -> Choice:
        """The option ``want`` of ``step``, checked as :meth:`sub_step` checks it."""
        for ident, value in self._values(uses, p, step):
            if ident == want:
                plan, (why, rule) = self.feasible(uses, p.plus(step, value))
                return _pick([Choice(ident, ident, value, plan is not None, why, rule)], want)
        return _pick(self.sub_step(uses, p, step), want)

    # -- the steps' options ------------------------------------------------------------------------------
    def maneuver_step(self, uses: tuple[Use, ...]) -> list[Choice]:
        """The next maneuver (or end the breath; at its start, Hold or Pass)."""
        first: list[Choice] = []
        attacks: list[Choice] = []
        others: list[Choice] = []
        refused: list[Choice] = []
        if uses:
            end = self._end(uses)
            (first if end.allowed else refused).append(end)
        for mid in self.rules.known(self.unit):
            m = self.rules.maneuver(mid)
            if m.kind is ManeuverKind.UPKEEP and (m.upkeep is None or m.upkeep.count_cost is None):
                continue  # the lull's own upkeep (SG.LUL.2): never in a breath
            plan, (why, rule) = self.feasible(uses, _Partial(m))
            if plan is None:
                refused.append(Choice(mid, _maneuver_words(m, None), None, False, why, rule))
                continue
            cost = plan.uses[-1].cost
            choice = Choice(mid, _maneuver_words(m, cost, plan.overload), _Partial(m))
            (attacks if m.attacks else others).append(choice)
        for sid in self.held_after(uses):
            m = self.rules.maneuver(sid)
            p = _Partial(m, (("release", True),))
            try:
                self.plans.prefix((*uses, self.use_of(p)))
            except IllegalActionError as exc:
                label = pgettext("sengoku", "Release {maneuver}").format(maneuver=_w(m.name))
                refused.append(Choice(RELEASE + sid, label, None, False, exc.message, exc.rule))
                continue
            others.append(
                Choice(RELEASE + sid, _("Release {maneuver} (0 Energy)").format(maneuver=_w(m.name)), p)
            )
        tail: list[Choice] = []
        if not uses:
            for ident, action, words in (
                (HOLD, Hold(self.unit.id), self._hold_words()),
                (PASS, Pass(self.unit.id), self._pass_words()),
            ):
                no = refusal(self.rules, self.state, action)
                if no is None:
                    tail.append(Choice(ident, words, None, complete=True))
                else:
                    refused.append(Choice(ident, words, None, False, no[0], no[1], complete=True))
        return [*first, *attacks, *others, *tail, *refused]

    def sub_step(self, uses: tuple[Use, ...], p: _Partial, step: str) -> list[Choice]:
        """The values of ``step`` for the maneuver being built, each checked on what can follow it."""
        ok: list[Choice] = []
        refused: list[Choice] = []
        for ident, value in self._values(uses, p, step):
            q = p.plus(step, value)
            plan, (why, rule) = self.feasible(uses, q)
            words = self._value_words(step, value, p, plan)
            if plan is None:
                refused.append(Choice(ident, words, None, False, why, rule))
                continue
            odds = None
            filled, nxt = self._fill(uses, q)
            if step == "target" and p.maneuver.attacks and nxt is None:
                full = (*uses, self.use_of(filled))
                preview = attack_preview(self.rules, self.state, self.unit.id, full, len(uses))
                if preview is not None:
                    odds = preview.odds
                    words += f" - {preview.summary()}"
            ok.append(Choice(ident, words, value, odds=odds))
        return ok + refused

    def _end(self, uses: tuple[Use, ...]) -> Choice:
        try:
            plan = self.plans.plan(uses)
        except IllegalActionError as exc:
            return Choice(END, _("End the breath"), None, False, exc.message, exc.rule, complete=True)
        left = self.unit.energy - plan.spent
        if plan.overload:
            words = _(
                "End the breath: {spent} Energy spent, {left} left;"
                " over the limit {limit}: an overload check follows"
            ).format(spent=plan.spent, left=left, limit=plan.limit)
        else:
            words = _("End the breath: {spent} Energy spent, {left} left").format(spent=plan.spent, left=left)
        return Choice(END, words, None, complete=True)

    def _hold_words(self) -> str:
        cost = self.rules.pass_hold.hold_cost + self.unit.surcharge
        return _("Hold ({cost} Energy: act again at a lower count)").format(cost=cost)

    def _pass_words(self) -> str:
        if self.rules.pass_hold.pass_keeps_energy_for_reactions:
            return _("Pass (no more breaths this round; the Energy left is kept for reactions)")
        return _("Pass (no more breaths this round; the Energy left is unused)")

    def _value_words(self, step: str, value: Any, p: _Partial, plan: Plan | None) -> str:
        s = self.state
        if step == "weapon":
            if value is None:
                first = self.usable((), p.maneuver)
                if first:
                    return _("the first weapon in hand that carries it ({weapon})").format(
                        weapon=_w(first[0].name)
                    )
                return _("the first weapon in hand that carries it")
            return _w(self.rules.catalog.weapon(str(value)).name)
        if step == "aim":
            n = int(value)
            if n == 0:
                return _("no Aim Focus")
            if plan is not None:
                return _("Aim Focus +{n} ({n_more} more Energy, {cost} Energy)").format(
                    n=n, n_more=n, cost=plan.uses[-1].cost
                )
            return _("Aim Focus +{n} ({n_more} more Energy)").format(n=n, n_more=n)
        if step == "target":
            t = s.unit(str(value))
            return f"{t.name} ({s.side(t.side).name}; {translate_text(t.zone or '')})"
        if step == "to":
            z = s.zone(str(value))
            if z.high_ground:
                return _("{zone} ({kind}, high ground)").format(zone=translate_text(z.id), kind=_(z.kind))
            return pgettext("sengoku", "{zone} ({kind})").format(zone=translate_text(z.id), kind=_(z.kind))
        squads = tuple(value)
        if not squads:
            return _("alone")
        return pgettext("sengoku", "with {squads}").format(squads=", ".join(s.unit(x).name for x in squads))

    def prompt(self, uses: tuple[Use, ...], partial: _Partial | None, step: str) -> str:
        """``Genzaburo, count 11: choose a maneuver — 4 of 11 Energy spent in this breath, 7 left; the
        limit is 5 (overload past it)``."""
        plan = self._prefix(uses)
        spent = plan.spent if plan is not None else 0
        limit = self.rules.breath_limit
        left = self.unit.energy - spent
        room = limit - spent
        if room >= 0:
            over = _("{room} more before overload").format(room=room)
        else:
            over = _("OVERLOAD by {room}: a check follows").format(room=-room)
        energy = _(
            "{spent} of {energy} Energy spent in this breath, {left} left; limit {limit} ({over})"
        ).format(spent=spent, energy=self.unit.energy, left=left, limit=limit, over=over)
        what = _("choose a maneuver") if uses else _("choose a maneuver (or Hold, or Pass)")
        if partial is not None:
            what = f"{_w(partial.maneuver.name)}: {_(_STEP_WORDS[step])}"
        elif uses:
            what = _("choose the next maneuver, or end the breath")
        return _("{unit}, count {count}: {what} — {energy}").format(
            unit=self.unit.name, count=self.state.count, what=what, energy=energy
        )


def _pick(options: Sequence[Choice], want: str) -> Choice:
    for o in options:
        if o.id == want:
            if not o.allowed:
                raise IllegalActionError(
                    o.why or S_("{label} is not allowed now", label=o.label), rule=o.rule
                )
            return o
    shown = want if len(want) <= 40 else want[:37] + "..."
    known = ", ".join(o.id for o in options[:30] if o.allowed) + (", ..." if len(options) > 30 else "")
    raise MenuError(
        _("{shown} is not a choice here (choices: {value})").format(shown=f"{shown!r}", value=known or "none")
    )


def _maneuver_words(m: Maneuver, cost: int | None, over: bool = False) -> str:
    kinds = {
        ManeuverKind.ATTACK: N_("attack"),
        ManeuverKind.DEFENSE: N_("reserve a defense"),
        ManeuverKind.MOVEMENT: N_("movement"),
        ManeuverKind.STANCE: N_("declare a stance"),
        ManeuverKind.KATA: N_("attack") if m.attacks else N_("Kata"),
        ManeuverKind.UPKEEP: N_("upkeep"),
    }
    what = _(kinds[m.kind])
    if m.movement is not None and m.movement.to is MovementTo.OFF_BATTLEFIELD:
        what = _("leave the battlefield")
    if m.aid is not None:
        what = _("aid")
    if cost is not None:
        what = pgettext("sengoku", "{what}; {cost} Energy").format(what=what, cost=cost)
    if over:
        what = _("{what}; overload").format(what=what)
    return f"{_w(m.name)} ({what})"
