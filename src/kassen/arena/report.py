"""The arena's events in words: one renderer per event kind the bout logs (names, not ids; the rule;
with ``--verbose`` the explanation steps), and the display names of fighters and sides. The core's
:func:`kassen.core.report.account` walks a fight's events through :data:`RENDERERS`.

A side reads the events with what the visibility table hides from it left out (``None``: another side's
HP and FP numbers, its audience points...): every renderer words such an event without the number.

>>> import kassen
>>> from kassen.core.report import account
>>> fight = kassen.open_fight("arena/duel", seed=7)
>>> fight.autoplay()
>>> print(account(fight).splitlines()[0])
The bout begins (match format); acting order: Ryu, Ken.  [AR.CORE.3]
"""

from __future__ import annotations

__all__ = ["RENDERERS", "condition_noun", "names", "side_name"]

from collections.abc import Callable, Mapping
from typing import Any

from kassen.arena.bout import BoutState
from kassen.core.report import Line, Narration

Data = Mapping[str, Any]

#: A condition as a noun (what is offered, overridden, let stand) and as a state (what one is).
_CONDITIONS = {
    "stunned": "the stun",
    "unconscious": "unconsciousness",
    "dead": "death",
    "gave_up": "giving up",
    "lost_will": "the loss of the will to fight",
    "helpless": "FP 1",
}
_STATES = {"gave_up": "given up", "lost_will": "without the will to fight", "helpless": "at FP 1"}
_CHECKS = {
    "attack": "attack",
    "defense": "defence",
    "stun_recovery": "stun recovery (HT)",
    "zero_hp": "HT at 0 HP",
    "death": "death (HT)",
    "knockdown": "knockdown (HT)",
    "vital": "vital-organ (HT)",
    "fall_stun": "falling stun",
    "knockback": "knockback (DX)",
    "limb_knockback": "limb knockback (ST)",
    "guts": "guts (Will)",
    "popularity": "popularity",
    "grapple": "grapple",
}


def condition_noun(condition: str) -> str:
    """A condition (or ``helpless``) as what is offered, overridden, let stand: ``the stun``."""
    return _CONDITIONS.get(condition, condition.replace("_", " "))


def side_name(state: BoutState, side: str) -> str:
    """A side by its fighters: ``Ryu``, or ``the pair side (Aki and Mei)``."""
    members = [f.profile.name for f in state.fighters if f.profile.side == side]
    if len(members) == 1:
        return members[0]
    listed = ", ".join(members[:-1]) + f" and {members[-1]}" if members else side
    return f"the {side} side ({listed})"


def names(state: BoutState) -> dict[str, str]:
    """Display names by id: every fighter, and every side (by its fighters)."""
    out = {f.id: f.profile.name for f in state.fighters}
    for side in dict.fromkeys(f.profile.side for f in state.fighters):
        out.setdefault(side, side_name(state, side))
    return out


def _where(key: Any) -> str:
    return str(key).replace("_", " ")


def _said(ctx: Narration, text: str, steps_key: str | None = None, d: Data | None = None) -> Line:
    steps = ctx.steps(d, steps_key) if steps_key is not None and d is not None else ()
    return Line(text, ctx.rule, steps, indent=2 if ctx.automatic else 1)


def _r_bout_begins(ctx: Narration, d: Data) -> Line:
    order = ", ".join(ctx.name(f) for f in d["order"])
    return Line(f"The bout begins ({d['format']} format); acting order: {order}.", ctx.rule, heading=True)


def _r_subturn(ctx: Narration, d: Data) -> Line:
    return Line(f"Subturn {d['subturn']}", ctx.rule, heading=True)


def _r_bout_over(ctx: Narration, d: Data) -> Line:
    if d.get("reason") == "ended by the referee":
        who = f"{ctx.name(d['winner'])} wins" if d.get("winner") is not None else "nobody wins"
        how = f"the referee ends it: {who}"
    elif d.get("winner") is not None:
        how = f"{ctx.name(d['winner'])} alone still stands"
    else:
        how = f"nobody wins: {d['reason']}"
    return Line(f"The bout is over in subturn {d['subturn']}: {how}.", ctx.rule, heading=True)


def _r_check(ctx: Narration, d: Data) -> Line:
    what = _CHECKS.get(str(d["check"]), str(d["check"]))
    against = f" against {_CONDITIONS.get(str(d['against']), d['against'])}" if d.get("against") else ""
    if d["success"]:
        outcome = (
            "critical success"
            if d["critical"]
            else f"success by {d['margin']}"
            if d["margin"]
            else "success, exactly"
        )
    else:
        outcome = "critical failure" if d["critical"] else f"failure by {-int(d['margin'])}"
    faces = " + ".join(str(f) for f in d["faces"])
    who = ctx.name(d["fighter"])
    text = f"{who}'s {what} check{against}: 3d6 = {faces} = {d['roll']} against {d['target']}: {outcome}"
    return _said(ctx, text, "steps", d)


def _r_attack(ctx: Narration, d: Data) -> Line:
    attacker, target = ctx.name(d["attacker"]), ctx.name(d["target"])
    verb = "makes an all-out attack on" if d["all_out"] else "attacks"
    reason = str(d["reason"])
    if reason == f"{d['target']} cannot defend":
        reason = f"{target} cannot defend"
    reason = reason.replace("the first side", attacker).replace("the second side", target)
    text = f"{attacker} {verb} {target}'s {_where(d['location'])}: {'hit' if d['hit'] else 'miss'} ({reason})"
    return _said(ctx, text, "target_steps", d)


def _r_quick_contest(ctx: Narration, d: Data) -> Line:
    a, b = ctx.name(d["attacker"]), ctx.name(d["defender"])
    if d["winner"] is None:
        outcome = "a tie: nobody wins"
    else:
        who = a if d["winner"] == "first" else b
        outcome = f"{who} wins by {d['margin_of_loss']}"
    return _said(ctx, f"Quick contest of {a}'s attack and {b}'s defence: {outcome}")


def _r_damage_roll(ctx: Narration, d: Data) -> Line:
    faces = [str(x["value"]) for x in d.get("dice", []) if isinstance(x, Mapping)]
    shown = f" ({' + '.join(faces)})" if faces else ""
    return _said(ctx, f"{ctx.name(d['fighter'])} rolls {d['what']}: {d['expression']}{shown} = {d['total']}")


def _r_damage(ctx: Narration, d: Data) -> Line:
    source = {
        "attack": "",
        "falling": " from the fall",
        "knockback": " from the knockback",
        "self": " (self)",
    }
    extra = []
    if d.get("capped"):
        extra.append("capped")
    if d.get("crippled"):
        extra.append("crippling")
    more = f", {', '.join(extra)}" if extra else ""
    text = (
        f"{ctx.name(d['fighter'])} takes {d['final']} {d['type']} damage to the {_where(d['location'])}"
        f"{source.get(str(d.get('source')), '')} (basic {d['basic']}, penetrating {d['penetrating']}"
        f" × {d['multiplier']}{more})"
    )
    return _said(ctx, text, "steps", d)


def _r_popularity(ctx: Narration, d: Data) -> Line:
    return _said(ctx, f"{ctx.name(d['fighter'])}'s popularity is {d['popularity']}", "steps", d)


def _fighter(template: str) -> Callable[[Narration, Data], Line]:
    """A renderer of ``template`` formatted with the event's data, ``{who}`` the fighter's name."""

    def render(ctx: Narration, d: Data) -> Line:
        values = {k: _where(v) if k in ("location", "arm", "lands_on", "facing") else v for k, v in d.items()}
        return _said(ctx, template.format(who=ctx.name(d.get("fighter")), **values))

    return render


def _r_incapacitated(ctx: Narration, d: Data) -> Line:
    words = {
        "unconscious": "falls unconscious",
        "gave_up": "gives up",
        "lost_will": "has lost the will to fight",
        "dead": "is dead",
    }
    return _said(ctx, f"{ctx.name(d['fighter'])} {words.get(str(d['condition']), d['condition'])}")


def _r_condition(template: str) -> Callable[[Narration, Data], Line]:
    def render(ctx: Narration, d: Data) -> Line:
        condition = _CONDITIONS.get(str(d["condition"]), str(d["condition"]))
        text = template.format(who=ctx.name(d["fighter"]), condition=condition, now=d.get("now"))
        return _said(ctx, text.removesuffix(": None"))  # what it leaves may be hidden from a side

    return render


def _known(value: Any) -> bool:
    """Whether a number is in the event (a side reads ``None`` for what is hidden from it)."""
    return value is not None


def _r_injury(ctx: Narration, d: Data) -> Line:
    who = ctx.name(d["fighter"])
    if _known(d.get("hp_after")):
        return _said(ctx, f"{who}: HP {d['hp_before']} → {d['hp_after']}")
    return _said(ctx, f"{who} loses {d['final']} HP")


def _r_fatigue(ctx: Narration, d: Data) -> Line:
    who = ctx.name(d["fighter"])
    change = f": {d['fp_before']} → {d['fp_after']}" if _known(d.get("fp_after")) else ""
    return _said(ctx, f"{who} spends FP ({d['reason']}){change}")


def _r_below_zero(ctx: Narration, d: Data) -> Line:
    who = ctx.name(d["fighter"])
    if _known(d.get("hp_after")):
        return _said(ctx, f"{who} goes below 0 FP: {d['hp_lost']} HP lost, HP {d['hp_after']}")
    return _said(ctx, f"{who} goes below 0 FP: the rest comes off HP")


def _r_fatigued(ctx: Narration, d: Data) -> Line:
    at = f" at FP {d['fp']}" if _known(d.get("fp")) else ""
    return _said(ctx, f"{ctx.name(d['fighter'])} is fatigued{at}: {d['st_checks']} on ST checks")


def _r_helpless(ctx: Narration, d: Data) -> Line:
    at = f"is at FP {d['fp']}" if _known(d.get("fp")) else "is at the end of their FP"
    return _said(ctx, f"{ctx.name(d['fighter'])} {at}: too tired to act")


def _r_fp_recovered(ctx: Narration, d: Data) -> Line:
    change = f": FP {d['fp_before']} → {d['fp_after']}" if _known(d.get("fp_after")) else ""
    return _said(ctx, f"{ctx.name(d['fighter'])} gets a second wind{change}")


def _r_ht_checks(ctx: Narration, d: Data) -> Line:
    at = f"is at HP {d['hp']}" if _known(d.get("hp")) else "is at HP 0 or less"
    return _said(ctx, f"{ctx.name(d['fighter'])} {at}: an HT check each subturn to stay conscious")


def _r_death_check_due(ctx: Narration, d: Data) -> Line:
    at = f" at HP {d['hp']}" if _known(d.get("hp")) else ""
    return _said(ctx, f"{ctx.name(d['fighter'])}{at} has passed {d['threshold']}: a death check")


def _r_dead(ctx: Narration, d: Data) -> Line:
    at = f" (HP {d['hp']})" if _known(d.get("hp")) else ""
    return _said(ctx, f"{ctx.name(d['fighter'])} dies{at}")


def _r_gm_number(what: str) -> Callable[[Narration, Data], Line]:
    key = what.lower()

    def render(ctx: Narration, d: Data) -> Line:
        who = ctx.name(d["fighter"])
        after = d.get(f"{key}_after")
        change = f": {d[f'{key}_before']} → {after}" if _known(after) else ""
        return _said(ctx, f"The referee sets {who}'s {what}{change}")

    return render


def _r_gm_condition(ctx: Narration, d: Data) -> Line:
    who, condition = ctx.name(d["fighter"]), str(d["condition"]).replace("_", " ")
    if d.get("added"):
        return _said(ctx, f"The referee rules {who} {condition}")
    return _said(ctx, f"The referee takes {condition} off {who}")


def _r_gm_end(ctx: Narration, d: Data) -> Line:
    who = ctx.name(d["winner"]) if d.get("winner") is not None else "nobody"
    return _said(ctx, f"The referee ends the bout: {who} wins")


def _r_grapple(ctx: Narration, d: Data) -> Line:
    outcome = "and holds" if d["held"] else "but fails to hold"
    return _said(ctx, f"{ctx.name(d['fighter'])} grapples {ctx.name(d['target'])} {outcome}")


def _r_grapple_released(ctx: Narration, d: Data) -> Line:
    return _said(ctx, f"{ctx.name(d['fighter'])} lets go of {ctx.name(d['target'])}")


def _r_guard(ctx: Narration, d: Data) -> Line:
    who, arm = ctx.name(d["fighter"]), _where(d["arm"])
    if d.get("location"):
        return _said(ctx, f"{who} guards the {_where(d['location'])} with the {arm}")
    return _said(ctx, f"{who} lowers the {arm}'s guard")


def _r_wait(ctx: Narration, d: Data) -> Line:
    why = " (stunned: may only defend)" if ctx.rule == "AR.STN.1" else ""
    return _said(ctx, f"{ctx.name(d['fighter'])} waits{why}")


def _r_landed(ctx: Narration, d: Data) -> Line:
    who = ctx.name(d["fighter"])
    if d.get("on_its_feet"):
        return _said(ctx, f"{who} lands on their feet, {d['posture']}")
    facing = _where(d.get("facing", ""))
    height = f" from {d['height']} m" if str(d.get("height", "0")) != "0" else ""
    return _said(ctx, f"{who} lands {d['posture']}, {facing}, on the {_where(d.get('location'))}{height}")


def _r_lands_facing(ctx: Narration, d: Data) -> Line:
    why = f" (a {d['tier']}-tier hit)" if d.get("tier") else f" ({d['cause']})" if d.get("cause") else ""
    return _said(ctx, f"{ctx.name(d['fighter'])} will land {_where(d['facing'])}{why}")


def _r_aerial(ctx: Narration, d: Data) -> Line:
    who = ctx.name(d["fighter"])
    if d["falls"]:
        how = f"falls and will land on the {_where(d['lands_on'])}"
    else:
        how = "keeps their balance and will land on their feet"
    return _said(
        ctx, f"{who} is in the air: {how}; knockback damage × {d['knockback_factor']} ({d['factor_reason']})"
    )


def _r_shock_expired(ctx: Narration, d: Data) -> Line:
    ended = ", ".join(f"{e['kind']} -{e['value']}" for e in d.get("ended", []) if isinstance(e, Mapping))
    return _said(ctx, f"{ctx.name(d['fighter'])}'s {ended} ends with subturn {d['subturn']}")


def _r_no_further_effect(ctx: Narration, d: Data) -> Line:
    already = " and ".join(_STATES.get(str(c), str(c)) for c in d.get("already", []))
    condition = _CONDITIONS.get(str(d["condition"]), str(d["condition"]))
    return _said(ctx, f"{ctx.name(d['fighter'])} is already {already}: {condition} changes nothing")


def _r_audience_point(ctx: Narration, d: Data) -> Line:
    return _said(ctx, f"{ctx.name(d['fighter'])} spends an audience point: {_where(d['effect'])}")


def _r_audience_points(ctx: Narration, d: Data) -> Line:
    if not _known(d.get("points")):
        return _said(ctx, f"The crowd is behind {ctx.name(d['fighter'])}")
    n = int(d["points"])
    return _said(
        ctx, f"The crowd is behind {ctx.name(d['fighter'])}: {n} audience point{'s' if n != 1 else ''}"
    )


def _r_exempted(ctx: Narration, d: Data) -> Line:
    n = int(d["exempted"])
    return _said(
        ctx,
        f"{ctx.name(d['fighter'])}'s override spares {n} more effect{'s' * (n != 1)} of hit {d['hit']}",
    )


def _r_move_halved(ctx: Narration, d: Data) -> Line:
    key = "hp" if "hp" in d else "fp"
    why = f"{key.upper()} {d[key]}" if _known(d[key]) else ("injury" if key == "hp" else "fatigue")
    who = ctx.name(d["fighter"])
    before, after = d.get("move_before"), d.get("move_after")
    if before is not None and before == after:
        return _said(ctx, f"{who}'s Move is halved by injury ({why}) instead of fatigue: it stays {after}")
    change = f": Move {before} → {after}" if before is not None else ""
    return _said(ctx, f"{who}'s Move is halved ({why}){change}")


def _r_match_lost(ctx: Narration, d: Data) -> Line:
    why = f" ({d['reason']})" if _known(d.get("reason")) else ""
    return _said(ctx, f"{ctx.name(d.get('fighter'))} loses the match{why}")


def _r_moved(ctx: Narration, d: Data) -> Line:
    who = ctx.name(d["fighter"])
    n = int(d["metres"])
    text = f"{who} moves {n} m ({d['why']}, Move {d['move']}): {d['position_from']} m → {d['position_to']} m"
    if d.get("nearest") is not None:
        text += f", {d['distance']} m from {ctx.name(d['nearest'])}"
    return _said(ctx, text, "steps", d)


def _r_knocked_back(ctx: Narration, d: Data) -> Line:
    who = ctx.name(d["fighter"])
    text = f"{who} is knocked back {d['metres']} m by the blow to the {_where(d['location'])}"
    if "position_to" in d:
        text += f": from {d['position_from']} m to {d['position_to']} m"
    else:
        text += " (a limb: an ST check instead)"
    return _said(ctx, text)


def _r_stun_renewed(ctx: Narration, d: Data) -> Line:
    return _said(
        ctx,
        f"{ctx.name(d['fighter'])}'s stun now counts hit {d['hit']} (final damage {d['final']}, "
        f"margin of loss {d['margin_of_loss']}) for a guts check",
    )


#: Event kind → renderer, for every kind the arena logs (a test keeps it complete).
RENDERERS: dict[str, Callable[[Narration, Data], Line]] = {
    "bout_begins": _r_bout_begins,
    "subturn": _r_subturn,
    "bout_over": _r_bout_over,
    "popularity": _r_popularity,
    "check": _r_check,
    "audience_points": _r_audience_points,
    "audience_point": _r_audience_point,
    "attack": _r_attack,
    "quick_contest": _r_quick_contest,
    "damage_roll": _r_damage_roll,
    "damage": _r_damage,
    "injury": _r_injury,
    "move_halved": _r_move_halved,
    "ht_checks_each_subturn": _r_ht_checks,
    "crippled": _fighter("{who}'s {location} is crippled"),
    "incapacitated": _r_incapacitated,
    "override_offered": _r_condition("{who} may override {condition} (a guts check or an audience point)"),
    "declined": _r_condition("{who} lets {condition} stand"),
    "overridden": _r_condition("{who} overrides {condition}: {now}"),
    "falls": _fighter("{who} falls over, {facing}; lands {lands}"),
    "match_lost": _r_match_lost,
    "shock": _fighter(
        "{who} is in shock: -{penalty} on DX and IQ until the end of subturn {until_end_of_subturn}"
    ),
    "pain": _fighter(
        "{who} is in pain: -{penalty} on DX and IQ until the end of subturn {until_end_of_subturn}"
    ),
    "shock_expired": _r_shock_expired,
    "shock_cleared": _fighter("{who} shakes off shock and pain"),
    "fatigue": _r_fatigue,
    "fatigue_below_zero": _r_below_zero,
    "fatigued": _r_fatigued,
    "helpless": _r_helpless,
    "fp_recovered": _r_fp_recovered,
    "stunned": _fighter("{who} is stunned"),
    "stun_ended": _fighter("{who} recovers from the stun"),
    "wait": _r_wait,
    "rise": _fighter("{who} rises to {posture}"),
    "gave_up": _fighter("{who} gives up"),
    "grapple": _r_grapple,
    "grapple_released": _r_grapple_released,
    "guard": _r_guard,
    "guarded": _fighter("{who}'s {arm} takes the blow aimed at the {location}"),
    "guard_dropped": _fighter("{who}'s {arm} is knocked out of its guard"),
    "death_check_due": _r_death_check_due,
    "dead": _r_dead,
    "no_further_effect": _r_no_further_effect,
    "knocked_back": _r_knocked_back,
    "moved": _r_moved,
    "stun_renewed": _r_stun_renewed,
    "aerial": _r_aerial,
    "knockback_damage": _fighter("{who}'s knockback damage: {rolled} × {factor} = {basic} basic"),
    "lands_facing": _r_lands_facing,
    "landed": _r_landed,
    "rooted": _fighter("{who} is rooted to the spot until the end of subturn {until_subturn}"),
    "cannot_fall": _fighter("{who} is already {already}: the {cause} cannot throw them down"),
    "defense_back": _fighter("{who} may defend again: the all-out attack's no-defence ends with their slot"),
    "exempted": _r_exempted,
    "gm_hp": _r_gm_number("HP"),
    "gm_fp": _r_gm_number("FP"),
    "gm_condition": _r_gm_condition,
    "gm_end": _r_gm_end,
}
