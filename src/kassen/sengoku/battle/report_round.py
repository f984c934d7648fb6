"""A Sengoku battle's round told in words (renderers for :data:`kassen.sengoku.battle.report.RENDERERS`):
the round and its count (SG.CNT.*, ties by their keys SG.CNT.4), each unit's Energy at the reset, who
breathes with which maneuvers and their Energy costs (SG.BRT.1), holds and Energy changes, the end with
its death checks and honor follow-ups; moves with their checks (SG.ZON.2), forfeits, pursuits, the GM's
statuses and Defense −N sources, and the checks of a unit (overload, Cohesion); then the lull: the Yoma
Encounter Table and who arrives, upkeep, ambush, the battlefield changes (the GM's, their checks, the
Wounds they take, a lull the GM leaves alone).
"""

from __future__ import annotations

__all__: list[str] = []  # the renderers are read by the table of kassen.sengoku.battle.report

from collections.abc import Mapping
from typing import Any

from kassen.core.report import Line, Narration
from kassen.i18n import N_, _, pgettext
from kassen.sengoku.battle import events as ev
from kassen.sengoku.battle.report_pieces import (
    Render,
    _change_word,
    _debuff_name,
    _line,
    _m,
    _ok,
    _roll,
    _t,
    _use,
)

# ------------------------------------------------------------------------------------------ the round


def _r_energy(ctx: Narration, d: ev.EnergyReset) -> Line:
    extra = []
    if d.get("overload"):
        extra.append(_("overload −{n}").format(n=d["overload"]))
    if d.get("exhaustion"):
        extra.append(_("exhaustion −{n}").format(n=d["exhaustion"]))
    if d.get("initiative"):
        extra.append(_("initiative +{n} on the first breath").format(n=d["initiative"]))
    status = [
        pgettext("sengoku", "Wounds {wounds}/{wounds_max}").format(
            wounds=d["wounds"], wounds_max=d["wounds_max"]
        )
        if d.get("wounds") is not None
        else _("Wounds not seen")
    ]
    if d.get("cohesion") is not None:
        status.append(pgettext("sengoku", "Cohesion {cohesion}").format(cohesion=d["cohesion"]))
    if d.get("stances"):
        status.append(
            pgettext("sengoku", "holds {stances}").format(stances=", ".join(_m(ctx, s) for s in d["stances"]))
        )
    if d.get("routed"):
        status.append(_("routed"))
    more = f" ({'; '.join(extra)})" if extra else ""
    who = _("{unit} in {zone}: Energy {energy}{more}; {status}").format(
        unit=ctx.name(d["unit"]), zone=_t(d["zone"]), energy=d["energy"], more=more, status=", ".join(status)
    )
    armor = ctx.steps(d, "armor")
    return Line(who, ctx.rule, armor if len(armor) > 1 else (), indent=1)


def _r_count(ctx: Narration, d: ev.Count) -> Line:
    units = ", ".join(ctx.name(u) for u in d["units"])
    return _line(ctx, _("-- count {count}: {units} --").format(count=d["count"], units=units))


#: The tie-break keys a tie names (SG.CNT.4), said in words.
_TIE_KEYS = (N_("finesse"), N_("max-energy"), N_("physique"), N_("allies-first"), N_("setup-order"))


def _r_tie(ctx: Narration, d: ev.Tie) -> Line:
    order = _(" before ").join(ctx.name(u) for u in d["order"])
    keys = ", ".join(_t(k) for k in d["keys"])
    return _line(
        ctx, _("tie at {count}: {order} ({keys})").format(count=d["count"], order=order, keys=keys), 1
    )


def _r_breath(ctx: Narration, d: ev.Breath) -> Line:
    over = _(" OVERLOAD") if d.get("overload") else ""
    who = _("{unit} breathes at count {count}").format(unit=ctx.name(d["unit"]), count=d["count"])
    if d.get("uses") is None or d.get("costs") is None:  # another side's: its maneuvers show as they resolve
        text = _("{who}: spends {spent} Energy (limit {limit}){over}").format(
            who=who, spent=d["spent"], limit=d["limit"], over=over
        )
        return Line(text, ctx.rule)
    uses = " + ".join(f"{_use(ctx, u)} ({c})" for u, c in zip(d["uses"], d["costs"], strict=True))
    text = pgettext("sengoku", "{who}: {uses} = {spent} of {limit}{over}").format(
        who=who, uses=uses, spent=d["spent"], limit=d["limit"], over=over
    )
    costs = [c for c in d.get("cost_steps", []) if len(c) > 1]  # a bare price says nothing more
    steps = tuple(s for c in costs for s in ctx.steps({"s": c}, "s"))
    return Line(text, ctx.rule, steps)


def _winner(ctx: Narration, winner: Any) -> str:
    return ctx.name(winner) if winner else _("nobody")


def _r_over(ctx: Narration, d: ev.CombatOver) -> Line:
    text = _("== Combat over in round {round}: {reason}; winner: {winner} ==").format(
        round=d["round"], reason=_t(d["reason"]), winner=_winner(ctx, d.get("winner"))
    )
    return _line(ctx, text, heading=True)


def _r_death(ctx: Narration, d: ev.DeathCheck) -> Line:
    fate = _t(d["outcome"]) if d["survives"] else _("dies")
    roll = _roll(d["faces"], d["modifier"], d["total"])
    return Line(
        _("death check, {unit}: {roll} vs {target}: {fate}").format(
            unit=ctx.name(d["unit"]), roll=roll, target=d["target"], fate=fate
        ),
        ctx.rule,
        ctx.steps(d),
        indent=1,
    )


def _r_honor(ctx: Narration, d: ev.HonorFollowUp) -> Line:
    text = _("honor follow-up, {unit} ({honor}): {follow_up}").format(
        unit=ctx.name(d["unit"]), honor=_t(d["honor"]), follow_up=_t(d["follow_up"])
    )
    if d.get("penalty"):
        text += f" {_t(d['penalty'])}"
    check = d.get("check")
    if isinstance(check, Mapping):
        text += _(" (a {attribute} check against {target})").format(
            attribute=_t(check.get("attribute")), target=check.get("target")
        )
    if d.get("when"):
        text += f", {_t(d['when'])}"
    return _line(ctx, text, 1)


# ------------------------------------------------------------------------------------------ moves


def _r_move(ctx: Narration, d: ev.Moved) -> Line:
    check = d.get("check") or {}
    roll = ""
    if check:
        roll = pgettext("sengoku", ": {roll} vs {target}, {result}").format(
            roll=_roll(check["faces"], check["modifier"], check["total"]),
            target=check["target"],
            result=_ok(check["success"]),
        )
    if d["moved"]:
        where = f"{_t(d['frm'])} → {_t(d['to'])}"
    else:
        where = pgettext("sengoku", "stays in {zone}").format(zone=_t(d["frm"]))
    inf = _("; infiltrating") if d.get("infiltrating") else ""
    text = f"{ctx.name(d['unit'])}: {_m(ctx, d['maneuver'])} {where}{roll}{inf}"
    return Line(text, ctx.rule, ctx.steps(check) if check else (), indent=1)


def _r_forfeit(ctx: Narration, d: ev.Forfeit) -> Line:
    what = _use(ctx, d["use"]) if isinstance(d.get("use"), Mapping) else _("maneuver")
    text = _("{unit}'s {what} is forfeited: {why}").format(
        unit=ctx.name(d["unit"]), what=what, why=_t(d["why"])
    )
    return _line(ctx, text, 1)


_STATUSES = {"defenseless": N_("Defenseless"), "bleeding": N_("bleeding")}


def _r_gm_status(ctx: Narration, d: ev.GmStatus) -> Line:
    found = _STATUSES.get(str(d["status"]))
    status = _(found) if found is not None else _t(d["status"])
    if d.get("on"):
        text = _("GM rules {unit} {status}").format(unit=ctx.name(d["unit"]), status=status)
    else:
        text = _("GM: {unit} is no longer {status}").format(unit=ctx.name(d["unit"]), status=status)
    return _line(ctx, text)


def _r_gm_debuff(ctx: Narration, d: ev.GmDebuff) -> Line:
    name = _debuff_name(d)
    if d.get("on"):
        text = _("GM puts {name} on {unit}: Defense −{value}").format(
            name=name, unit=ctx.name(d["unit"]), value=d.get("value")
        )
    else:
        text = _("GM takes {name} off {unit}").format(name=name, unit=ctx.name(d["unit"]))
    total = d.get("total")
    return _line(ctx, text + (_(" (Defense −{total} in all)").format(total=total) if total else ""))


def _r_pursuit(ctx: Narration, d: ev.Pursuit) -> Line:
    mine = _roll(d["faces"], d["modifier"], d["total"])
    theirs = _roll(d["pursuer_faces"], d["pursuer_modifier"], d["pursuer_total"])
    text = _("pursuit ({zones}, {reading}): {unit} {mine} vs {pursuer} {theirs}: the {winner} wins").format(
        zones=_t(d["zones"]),
        reading=_t(d["reading"]),
        unit=ctx.name(d["unit"]),
        mine=mine,
        pursuer=ctx.name(d["pursuer"]),
        theirs=theirs,
        winner=_t(d["winner"]),
    )
    return _line(ctx, text, 1)


def _check(label: str) -> Render:
    def render(ctx: Narration, d: ev.UnitCheck) -> Line:
        roll = _roll(d["faces"], d["modifier"], d["total"])
        text = pgettext("sengoku", "{unit}: {label} {roll} vs {target}: {result}").format(
            unit=ctx.name(d["unit"]), label=_(label), roll=roll, target=d["target"], result=_ok(d["success"])
        )
        return Line(text, ctx.rule, ctx.steps(d), indent=1)

    return render


# ------------------------------------------------------------------------------------------ the lull


def _r_yoma(ctx: Narration, d: ev.YomaRoll) -> Line:
    text = _("GM rolls the Yoma Encounter Table: d100 {roll}: {name}: {effect}").format(
        roll=d["roll"], name=_t(d["name"]), effect=_t(d["effect"])
    )
    return _line(ctx, text, 1)


def _r_arrives(ctx: Narration, d: ev.Arrives) -> Line:
    who = _t(d["name"]) if d.get("name") else ctx.name(d["unit"])
    return _line(ctx, _("{unit} arrives in {zone}").format(unit=who, zone=_t(d["zone"])), 2)


def _r_upkeep(ctx: Narration, d: ev.Upkeep) -> Line:
    text = f"{ctx.name(d['unit'])}: {_m(ctx, d['maneuver'])}"
    if d.get("target") is not None:
        text = pgettext("sengoku", "{text} on {target}").format(text=text, target=ctx.name(d["target"]))
    if d.get("choice"):
        text += f" ({_t(d['choice'])})"
    if d.get("effect"):
        text += f": {_t(d['effect'])}"
    return _line(ctx, text, 1)


def _r_round(ctx: Narration, d: ev.Round) -> Line:
    return _line(ctx, _("== Round {round} ==").format(round=d["round"]), heading=True)


def _r_hold(ctx: Narration, d: ev.Hold) -> Line:
    collapse = (
        _(" (stance collapse +{surcharge})").format(surcharge=d["surcharge"]) if d.get("surcharge") else ""
    )
    text = _("{unit} holds: Energy {before} → {after}{collapse}").format(
        unit=ctx.name(d["unit"]), before=d["before"], after=d["after"], collapse=collapse
    )
    return _line(ctx, text)


def _r_energy_changed(ctx: Narration, d: ev.EnergyChanged) -> Line:
    who = ctx.name(d["unit"])
    if d["before"] != d["after"]:
        return _line(
            ctx,
            _("{unit}: Energy {before} → {after}").format(unit=who, before=d["before"], after=d["after"]),
            3,
        )
    text = _("{unit}: Energy stays at {energy} ({cause}: nothing to change)").format(
        unit=who, energy=d["after"], cause=_t(d["cause"])
    )
    return _line(ctx, text, 3)


def _r_ambush(ctx: Narration, d: ev.Ambush) -> Line:
    if d.get("status"):
        text = _("ambush ({condition}): {target} is caught Defenseless")
    else:
        text = _("ambush ({condition}): {target} counts as Defenseless against {attacker}")
    text = text.format(
        condition=_t(d["condition"]), target=ctx.name(d["target"]), attacker=ctx.name(d["attacker"])
    )
    return _line(ctx, text, 2)


def _r_change_check(ctx: Narration, d: ev.ChangeCheck) -> Line:
    roll = _roll(d["faces"], d["modifier"], d["total"])
    outcome = _("clear") if d["success"] else _("caught")
    text = _("{unit} tries to get clear of the {change}: {roll} vs {target}: {outcome}").format(
        unit=ctx.name(d["unit"]),
        change=_change_word(d["change"]),
        roll=roll,
        target=d["target"],
        outcome=outcome,
    )
    return Line(text, ctx.rule, ctx.steps(d), indent=1)


def _r_change_ends(ctx: Narration, d: ev.ChangeEnds) -> Line:
    text = _("the {change} in {zone} is over").format(change=_change_word(d["change"]), zone=_t(d["zone"]))
    return _line(ctx, text, 1)


def _r_lost_to(ctx: Narration, d: ev.LostTo) -> Line:
    count = f": {d['before']} → {d['after']}" if d.get("after") is not None else ""
    text = _("{unit} loses Wounds to {cause}{count}").format(
        unit=ctx.name(d["unit"]), cause=_t(d["cause"]), count=count
    )
    return _line(ctx, text, 2)


def _r_change(ctx: Narration, d: ev.BattlefieldChange) -> Line:
    until = _(" (until the lull of round {round})").format(round=d["until"]) if d.get("until") else ""
    text = _("GM: {name} in {zone}{until}: {effect}").format(
        name=_t(d["name"]), zone=_t(d["zone"]), until=until, effect=_t(d["effect"])
    )
    return _line(ctx, text, 1)


def _r_env_skipped(ctx: Narration, d: ev.EnvironmentSkipped) -> Line:
    yoma, changes = bool(d.get("yoma", True)), bool(d.get("changes"))
    if yoma and changes:
        text = _("The GM does not roll for yoma or change the battlefield this lull")
    elif yoma:
        text = _("The GM does not roll for yoma this lull")
    elif changes:
        text = _("The GM does not change the battlefield this lull")
    else:
        text = _("The GM does not act this lull")
    return _line(ctx, text, 1)
