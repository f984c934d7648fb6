"""The round around the breaths (SG.RND.2): round start (SG.RND.1), the count (SG.CNT.1-6), the lull
(SG.LUL.1-3), and the end of the combat (SG.END.1) with its death checks (SG.INP.3) and honor follow-ups
(SG.RET.4).
"""

from __future__ import annotations

__all__ = ["RoundPart", "tie_key"]

from typing import Any

from kassen.core.fastreplace import replace
from kassen.core.order import count_down
from kassen.i18n import S_
from kassen.sengoku.battle.flow.breath import BreathPart
from kassen.sengoku.battle.plan import acting_value
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DeathRecord, HonorFlag, Phase, Result, Unit
from kassen.sengoku.defense import end_round_debuffs
from kassen.sengoku.entries import HonorClass


class RoundPart(BreathPart):
    """Round start, the count, the lull and the end (see the module notes)."""

    __slots__ = ()

    # -- round start and count -------------------------------------------------------------------------
    def start_round(self) -> None:
        """SG.RND.1: every unit resets to its maximum Energy (armor, overload and exhaustion penalties
        applied); maintained stances stay; a debuff that triggers each round triggers again."""
        rnd = self.state.round + 1
        self.set(round=rnd, phase=Phase.COUNT, count=0, decision=None, environment_done=False)
        self.log("round", "SG.RND.2", round=rnd)
        for unit in self.state.units:
            if not unit.on_battlefield:
                continue
            base, steps = self.rules.armor_max_energy(unit)
            top = max(0, base - unit.overload_penalty - unit.exhaustion)
            changed = replace(
                unit,
                energy=top,
                max_energy=top,
                passed=False,
                used=(),
                overload_penalty=0,
                exhaustion=0,
                initiative=self.initiative_at(unit, rnd),
            )
            if rnd > 1:
                changed = self.retrigger(changed)
            self.put(changed)
            self.log(
                "energy_reset",
                "SG.RND.1",
                unit=unit.id,
                energy=top,
                zone=unit.zone,
                wounds=unit.wounds,
                wounds_max=unit.wounds_max,
                cohesion=unit.cohesion,
                defenseless=changed.defenseless,
                routed=unit.routed,
                armor=[s.to_json() for s in steps],
                overload=unit.overload_penalty,
                exhaustion=unit.exhaustion,
                stances=list(unit.stances),
                initiative=changed.initiative,
            )

    @staticmethod
    def initiative_at(unit: Unit, rnd: int) -> int:
        """The initiative +N pending for round ``rnd``'s first breath: the combat start's in round 1, or
        one an effect named for the start of round ``initiative_round`` in that round only (SG.CNT.2)."""
        if rnd == 1:
            return unit.initiative
        return unit.initiative_due if rnd == unit.initiative_round else 0

    def retrigger(self, unit: Unit) -> Unit:
        """A Defense −N that triggers each round triggers again (SG.DBF.3, SG.RD.3)."""
        if not unit.debuffs:
            return unit
        p = self.profile(unit)
        for d in unit.debuffs:
            entry = next((e for e in self.rules.catalog.debuffs.values() if e.name == d.source), None)
            if entry is not None and entry.each_round:
                p, _ = self.rules.debuffed(p, entry.debuff())
                total = sum(x.value for x in p.debuffs)
                self.log(
                    "debuff",
                    "SG.DBF.3",
                    unit=unit.id,
                    debuff=entry.id,
                    name=entry.name,
                    value=entry.value,
                    total=total,
                    when=S_("a new round"),
                )
        return replace(unit, debuffs=p.debuffs)

    def next_unit(self) -> Unit | None:
        """The unit that breathes now: the highest acting value (Energy + a pending initiative), ties in
        the catalog's order (SG.CNT.1, SG.CNT.3-5)."""
        s, rules = self.state, self.rules
        found = count_down(
            s.units,
            lambda u: acting_value(u) if u.on_battlefield and not u.passed else None,
            tie=lambda u: tie_key(rules, s, u),
        )
        if found is None:
            return None
        count, at = found
        if count != s.count:
            self.log(
                "count",
                "SG.CNT.1" if s.count == 0 else "SG.CNT.5",
                count=count,
                units=[u.id for u in at],
            )
            self.set(count=count)
            if len(at) > 1:
                keys = [k.value for k in self.rules.tie.order]
                self.log("tie", "SG.CNT.4", count=count, order=[u.id for u in at], keys=keys)
        return at[0]

    def give_up(self, unit: Unit) -> None:
        """A unit that cannot pay for any maneuver passes (or holds), as SG.CNT.6's default says."""
        ph = self.rules.pass_hold
        if ph.cannot_spend == "hold" and unit.energy >= ph.hold_cost + unit.surcharge:
            self.hold(unit, automatic=True)
        else:
            self.put(replace(unit, passed=True, count_reached=True))
            self.log(
                "pass", "SG.CNT.6", unit=unit.id, energy=unit.energy, reason=S_("cannot pay for any maneuver")
            )

    def hold(self, unit: Unit, *, automatic: bool) -> None:
        """Spend the hold cost on nothing (SG.CNT.6); a Hold is an action, so a stance collapse's +N
        (SG.FUM.2) is paid on it."""
        unit = self.action_starts(unit)
        cost = self.rules.pass_hold.hold_cost + unit.surcharge
        self.put(replace(unit, energy=unit.energy - cost, initiative=0, count_reached=True, surcharge=0))
        self.log(
            "hold",
            "SG.CNT.6",
            automatic=automatic,
            unit=unit.id,
            before=unit.energy,
            after=unit.energy - cost,
            surcharge=unit.surcharge,
        )

    # -- the lull --------------------------------------------------------------------------------------
    def begin_lull(self) -> None:
        """SG.LUL.1 automatic handling: Defenseless removed, reservations expire (SG.RES.3), counters of
        maneuvers limited "N rounds" reset, timed Defense −N count down, teppo reload (SG.LUL.2); then
        upkeep maneuvers and the environment."""
        rnd = self.state.round
        self.set(phase=Phase.LULL, count=0, decision=None)
        self.log("lull", "SG.RND.2", round=rnd)
        for unit in self.state.units:
            if not unit.on_battlefield:
                continue
            new = unit
            if unit.defenseless:
                self.log("defenseless_ends", "SG.LUL.1", unit=unit.id, when=S_("the lull phase"))
                new = replace(new, defenseless=False)
            if unit.reservations:
                self.log(
                    "reservations_expire",
                    "SG.RES.3",
                    unit=unit.id,
                    maneuvers=[x.maneuver for x in unit.reservations],
                )
                new = replace(new, reservations=())
            reset = self.reset_limits(unit)
            if reset != unit.limited:
                self.log(
                    "limits_reset",
                    "SG.LUL.1",
                    unit=unit.id,
                    maneuvers=sorted({t.key.split("#")[0] for t in unit.limited if t not in reset}),
                )
                new = replace(new, limited=reset)
            if unit.debuffs:
                p, steps = end_round_debuffs(replace(self.profile(unit), debuffs=unit.debuffs))
                if p.debuffs != unit.debuffs:
                    self.log("debuffs_count_down", "SG.DBF.3", unit=unit.id, ended=[s.reason for s in steps])
                new = replace(new, debuffs=p.debuffs)
            if unit.ward:
                self.log("ward_ends", "SG.RET.5", unit=unit.id)
                new = replace(new, ward=False)
            if unit.unloaded:
                self.log("reload", "SG.LUL.2", unit=unit.id, maneuver="reload", when=S_("the lull"))
                new = replace(new, unloaded=False)
            if unit.initiative:
                new = replace(new, initiative=0)
            self.put(new)
        self.bleed()
        self.zone_conditions()
        if self.rules.end.checked == "in-the-lull" and self.check_end():
            return
        queue = tuple(u.id for u in self.state.units if u.on_battlefield and not u.routed)
        self.set(queue=queue, environment_done=False)

    def reset_limits(self, unit: Unit) -> tuple[Any, ...]:
        kept = []
        for t in unit.limited:
            mid, _, idx = t.key.partition("#")
            limits = self.rules.maneuver(mid).limits
            limit = limits[int(idx)] if idx.isdigit() and int(idx) < len(limits) else None
            # SG.LUL.1: a limit "every N rounds" first used in round r is open again from round r + N
            if limit is None or limit.per.value != "round":
                kept.append(t)
                continue
            if self.state.round + 1 - t.since >= limit.every:
                continue
            kept.append(t)
        return tuple(kept)

    def end_lull(self) -> None:
        rnd = self.state.round
        if rnd >= self.state.max_rounds:
            self.finish(
                None,
                S_(
                    "the round limit ({max_rounds}) is reached: the GM calls the fight off",
                    max_rounds=self.state.max_rounds,
                ),
                automatic=True,
            )
            return
        self.start_round()

    # -- the end ---------------------------------------------------------------------------------------
    def check_end(self) -> bool:
        """SG.END.1 house default: the combat ends when one side has no unit left able to act (with more
        than two sides, when at most one side has)."""
        # the sides with a unit in none of the catalog's out states, in one pass over the units (asked
        # before every breath)
        states = self.rules.end.out_states
        inc, ret, rout = "incapacitated" in states, "retreated" in states, "routed" in states
        up = {
            u.side
            for u in self.state.units
            if not ((u.incapacitated and inc) or (u.retreated and ret) or (u.routed and rout))
        }
        standing = [s.id for s in self.state.sides if s.id in up]
        if len(standing) == len(self.state.sides) or (len(self.state.sides) > 2 and len(standing) > 1):
            return False
        winner = standing[0] if len(standing) == 1 else None
        out = [s.id for s in self.state.sides if s.id not in standing]
        names = ", ".join(s.name for s in self.state.sides if s.id in out)
        self.finish(winner, S_("{names}: no unit left able to act", names=names), automatic=True)
        return True

    def finish(self, winner: str | None, reason: str, *, automatic: bool) -> None:
        """The combat is over: death checks for the Incapacitated (SG.INP.3) and the honor follow-up of
        every retreater (SG.RET.4), both automatic."""
        rnd = self.state.round
        self.set(phase=Phase.OVER, decision=None, breath=None, queue=(), result=Result(winner, reason, rnd))
        self.log("combat_over", "SG.END.1", automatic=automatic, winner=winner, reason=reason, round=rnd)
        deaths = []
        for unit in self.state.units:
            if not unit.incapacitated:
                continue
            dc = self.rules.death_check(self.profile(unit), self.dice)
            deaths.append(DeathRecord(unit.id, dc.check.faces, dc.check.total, dc.survives))
            self.log(
                "death_check",
                "SG.INP.3",
                unit=unit.id,
                faces=list(dc.check.faces),
                modifier=dc.check.modifier,
                total=dc.check.total,
                target=dc.check.target,
                survives=dc.survives,
                outcome=dc.outcome,
                **self.explained(steps=dc.steps),
            )
        flags = []
        for unit in self.state.units:
            if not unit.retreated:
                continue
            honor = self.rules.creature(unit).honor
            row = self.rules.honor.classes[honor]
            flags.append(HonorFlag(unit.id, honor.value, row.follow_up, row.penalty))
            data: dict[str, Any] = {
                "unit": unit.id,
                "honor": honor.value,
                "follow_up": row.follow_up,
                "penalty": row.penalty,
            }
            if row.follow_up == "check":
                data["check"] = {"attribute": row.attribute, "target": row.target}
            if honor is HonorClass.CONDITIONAL_HONOR:
                data["when"] = S_("only if its condition applied (GM)")
            self.log("honor_follow_up", "SG.RET.4", **data)
        self.set(deaths=tuple(deaths), honor=tuple(flags))


def tie_key(rules: BattleRules, state: BattleState, unit: Unit) -> tuple[int, ...]:
    """:meth:`BattleRules.tie_key` (SG.CNT.4): remembered by the content, by all it reads."""
    return rules.tie_key(state, unit)
