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
from string import Formatter
from typing import Any

from kassen.arena import events as ev
from kassen.arena.bout import BoutState
from kassen.arena.words import word
from kassen.core.report import Line, Narration
from kassen.i18n import N_, _, ngettext, pgettext, translate_text

Data = Mapping[str, Any]

#: A condition as a noun (what is offered, overridden, let stand) and as a state (what one is).
_CONDITIONS = {
    "stunned": N_("the stun"),
    "unconscious": N_("unconsciousness"),
    "dead": N_("death"),
    "gave_up": N_("giving up"),
    "lost_will": N_("the loss of the will to fight"),
    "helpless": N_("FP 1"),
}
_STATES = {
    "gave_up": N_("given up"),
    "lost_will": N_("without the will to fight"),
    "helpless": N_("at FP 1"),
    "stunned": N_("stunned"),
    "unconscious": N_("unconscious"),
    "dead": N_("dead"),
}


def _check_name(kind: str) -> str:
    """A kind of check in words (``knockdown (HT)``), in the reader's language."""
    names = {
        "attack": pgettext("check", "attack"),
        "defense": pgettext("check", "defence"),
        "stun_recovery": pgettext("check", "stun recovery (HT)"),
        "zero_hp": pgettext("check", "HT at 0 HP"),
        "death": pgettext("check", "death (HT)"),
        "knockdown": pgettext("check", "knockdown (HT)"),
        "vital": pgettext("check", "vital-organ (HT)"),
        "fall_stun": pgettext("check", "falling stun"),
        "knockback": pgettext("check", "knockback (DX)"),
        "limb_knockback": pgettext("check", "limb knockback (ST)"),
        "guts": pgettext("check", "guts (Will)"),
        "popularity": pgettext("check", "popularity"),
        "grapple": pgettext("check", "grapple"),
    }
    return names.get(kind, kind)


def condition_noun(condition: str) -> str:
    """A condition (or ``helpless``) as what is offered, overridden, let stand: ``the stun``."""
    found = _CONDITIONS.get(condition)
    return _(found) if found is not None else word(condition)


def _state_word(condition: str) -> str:
    found = _STATES.get(condition)
    return _(found) if found is not None else word(condition)


def side_name(state: BoutState, side: str) -> str:
    """A side by its fighters: ``Ryu``, or ``the pair side (Aki and Mei)``."""
    members = [f.profile.name for f in state.fighters if f.profile.side == side]
    if len(members) == 1:
        return members[0]
    if not members:
        return _("the {side} side ({members})").format(side=side, members=side)
    listed = _("{some} and {last}").format(some=", ".join(members[:-1]), last=members[-1])
    return _("the {side} side ({members})").format(side=side, members=listed)


def names(state: BoutState) -> dict[str, str]:
    """Display names by id: every fighter, and every side (by its fighters)."""
    out = {f.id: f.profile.name for f in state.fighters}
    for side in dict.fromkeys(f.profile.side for f in state.fighters):
        out.setdefault(side, side_name(state, side))
    return out


def _where(key: Any) -> str:
    """A location, arm, facing... of the data in words (``left_arm``: ``left arm``), translated."""
    return word(key)


def _said(ctx: Narration, text: str, steps_key: str | None = None, d: Data | None = None) -> Line:
    steps = ctx.steps(d, steps_key) if steps_key is not None and d is not None else ()
    return Line(text, ctx.rule, steps, indent=2 if ctx.automatic else 1)


def _r_bout_begins(ctx: Narration, d: ev.BoutBegins) -> Line:
    order = ", ".join(ctx.name(f) for f in d["order"])
    text = _("The bout begins ({format} format); acting order: {order}.").format(
        format=word(d["format"]), order=order
    )
    return Line(text, ctx.rule, heading=True)


def _r_subturn(ctx: Narration, d: ev.Subturn) -> Line:
    return Line(_("Subturn {subturn}").format(subturn=d["subturn"]), ctx.rule, heading=True)


def _r_bout_over(ctx: Narration, d: ev.BoutOver) -> Line:
    n = d["subturn"]
    if d.get("reason") == "ended by the referee":
        if d.get("winner") is not None:
            text = _("The bout is over in subturn {subturn}: the referee ends it: {winner} wins.")
        else:
            text = _("The bout is over in subturn {subturn}: the referee ends it: nobody wins.")
    elif d.get("winner") is not None:
        text = _("The bout is over in subturn {subturn}: {winner} alone still stands.")
    else:
        text = _("The bout is over in subturn {subturn}: nobody wins: {reason}.")
    winner = ctx.name(d["winner"]) if d.get("winner") is not None else ""
    reason = translate_text(str(d.get("reason")))
    return Line(text.format(subturn=n, winner=winner, reason=reason), ctx.rule, heading=True)


def _r_check(ctx: Narration, d: ev.Check) -> Line:
    if d["success"]:
        if d["critical"]:
            outcome = _("critical success")
        elif d["margin"]:
            outcome = _("success by {margin}").format(margin=d["margin"])
        else:
            outcome = _("success, exactly")
    elif d["critical"]:
        outcome = _("critical failure")
    else:
        outcome = _("failure by {margin}").format(margin=-int(d["margin"]))
    values = {
        "who": ctx.name(d["fighter"]),
        "what": _check_name(str(d["check"])),
        "faces": " + ".join(str(f) for f in d["faces"]),
        "roll": d["roll"],
        "target": d["target"],
        "outcome": outcome,
    }
    if d.get("against"):
        template = _(
            "{who}'s {what} check against {condition}: 3d6 = {faces} = {roll} against {target}: {outcome}"
        )
        values["condition"] = condition_noun(str(d["against"]))
    else:
        template = _("{who}'s {what} check: 3d6 = {faces} = {roll} against {target}: {outcome}")
    return _said(ctx, template.format(**values), "steps", d)


#: An attack's reason once the quick contest's sides are named (translated like a step's reason).
_NAMED_REASONS = (
    N_("margins {first} vs {second}: {winner} wins by {loss}"),
    N_("margins {first} vs {second}: a tie, {winner} wins"),
)


def _r_attack(ctx: Narration, d: ev.Attack) -> Line:
    attacker, target = ctx.name(d["attacker"]), ctx.name(d["target"])
    reason = str(d["reason"])
    if reason == f"{d['target']} cannot defend":
        reason = _("{target} cannot defend").format(target=target)
    else:
        reason = translate_text(reason.replace("the first side", attacker).replace("the second side", target))
    if d["all_out"]:
        template = (
            _("{attacker} makes an all-out attack on {target}'s {location}: hit ({reason})")
            if d["hit"]
            else _("{attacker} makes an all-out attack on {target}'s {location}: miss ({reason})")
        )
    else:
        template = (
            _("{attacker} attacks {target}'s {location}: hit ({reason})")
            if d["hit"]
            else _("{attacker} attacks {target}'s {location}: miss ({reason})")
        )
    text = template.format(attacker=attacker, target=target, location=_where(d["location"]), reason=reason)
    return _said(ctx, text, "target_steps", d)


def _r_quick_contest(ctx: Narration, d: ev.QuickContest) -> Line:
    a, b = ctx.name(d["attacker"]), ctx.name(d["defender"])
    if d["winner"] is None:
        text = _("Quick contest of {attacker}'s attack and {defender}'s defence: a tie: nobody wins")
        return _said(ctx, text.format(attacker=a, defender=b))
    who = a if d["winner"] == "first" else b
    text = _("Quick contest of {attacker}'s attack and {defender}'s defence: {winner} wins by {margin}")
    return _said(ctx, text.format(attacker=a, defender=b, winner=who, margin=d["margin_of_loss"]))


def _r_damage_roll(ctx: Narration, d: ev.DamageRoll) -> Line:
    faces = [str(x["value"]) for x in d.get("dice", []) if isinstance(x, Mapping)]
    values = {
        "who": ctx.name(d["fighter"]),
        "what": translate_text(str(d["what"])),
        "expression": d["expression"],
        "faces": " + ".join(faces),
        "total": d["total"],
    }
    if faces:
        return _said(ctx, _("{who} rolls {what}: {expression} ({faces}) = {total}").format(**values))
    return _said(ctx, _("{who} rolls {what}: {expression} = {total}").format(**values))


def _r_damage(ctx: Narration, d: ev.Damage) -> Line:
    templates = {
        "falling": N_(
            "{who} takes {final} {type} damage to the {location} from the fall "
            "(basic {basic}, penetrating {penetrating} × {multiplier}{more})"
        ),
        "knockback": N_(
            "{who} takes {final} {type} damage to the {location} from the knockback "
            "(basic {basic}, penetrating {penetrating} × {multiplier}{more})"
        ),
        "self": N_(
            "{who} takes {final} {type} damage to the {location} (self) "
            "(basic {basic}, penetrating {penetrating} × {multiplier}{more})"
        ),
    }
    plain = N_(
        "{who} takes {final} {type} damage to the {location} "
        "(basic {basic}, penetrating {penetrating} × {multiplier}{more})"
    )
    extra = []
    if d.get("capped"):
        extra.append(_("capped"))
    if d.get("crippled"):
        extra.append(_("crippling"))
    more = "".join(_(", {more}").format(more=x) for x in extra)
    text = _(templates.get(str(d.get("source")), plain)).format(
        who=ctx.name(d["fighter"]),
        final=d["final"],
        type=word(d["type"]),
        location=_where(d["location"]),
        basic=d["basic"],
        penetrating=d["penetrating"],
        multiplier=d["multiplier"],
        more=more,
    )
    return _said(ctx, text, "steps", d)


def _r_popularity(ctx: Narration, d: ev.Popularity) -> Line:
    text = _("{who}'s popularity is {popularity}").format(
        who=ctx.name(d["fighter"]), popularity=d["popularity"]
    )
    return _said(ctx, text, "steps", d)


#: Keys of an event's data whose values are the arena's words for a thing (a location, a facing...).
_WORDS = frozenset({"location", "arm", "lands_on", "facing", "posture", "already", "tier"})


class _Template:
    """A renderer of ``template`` (in the reader's language) formatted with the event's data, ``{who}``
    the fighter's name and a ``{condition}`` as a noun (``the stun``); ``fields`` are the data keys it
    reads (a test holds them to the kind's declared data)."""

    __slots__ = ("fields", "template")

    def __init__(self, template: str) -> None:
        self.template = template
        shown = {name for _text, name, _spec, _conv in Formatter().parse(template) if name}
        self.fields = frozenset(shown - {"who"} | {"fighter"})

    def __call__(self, ctx: Narration, d: Data) -> Line:
        values = {
            k: _where(v) if k in _WORDS else translate_text(v) if isinstance(v, str) else v
            for k, v in d.items()
        }
        if "condition" in d:
            values["condition"] = condition_noun(str(d["condition"]))
        text = _(self.template).format(who=ctx.name(d.get("fighter")), **values)
        return _said(ctx, text)


_fighter = _r_condition = _Template


def _r_overridden(ctx: Narration, d: ev.Overridden) -> Line:
    """What an override leaves is null in another side's view: said without it."""
    who, condition = ctx.name(d["fighter"]), condition_noun(str(d["condition"]))
    if d.get("now") is None:
        return _said(ctx, _("{who} overrides {condition}").format(who=who, condition=condition))
    now = translate_text(str(d["now"]))
    return _said(ctx, _("{who} overrides {condition}: {now}").format(who=who, condition=condition, now=now))


def _r_incapacitated(ctx: Narration, d: ev.Condition) -> Line:
    words = {
        "unconscious": N_("{who} falls unconscious"),
        "gave_up": N_("{who} gives up"),
        "lost_will": N_("{who} has lost the will to fight"),
        "dead": N_("{who} is dead"),
    }
    who = ctx.name(d["fighter"])
    found = words.get(str(d["condition"]))
    if found is None:
        return _said(ctx, _("{who} {condition}").format(who=who, condition=word(d["condition"])))
    return _said(ctx, _(found).format(who=who))


def _known(value: Any) -> bool:
    """Whether a number is in the event (a side reads ``None`` for what is hidden from it)."""
    return value is not None


def _r_injury(ctx: Narration, d: ev.Injury) -> Line:
    who = ctx.name(d["fighter"])
    if _known(d.get("hp_after")):
        return _said(
            ctx, _("{who}: HP {before} → {after}").format(who=who, before=d["hp_before"], after=d["hp_after"])
        )
    return _said(ctx, _("{who} loses {final} HP").format(who=who, final=d["final"]))


def _r_fatigue(ctx: Narration, d: ev.Fatigue) -> Line:
    who, reason = ctx.name(d["fighter"]), translate_text(str(d["reason"]))
    if _known(d.get("fp_after")):
        text = _("{who} spends FP ({reason}): {before} → {after}")
        return _said(ctx, text.format(who=who, reason=reason, before=d["fp_before"], after=d["fp_after"]))
    return _said(ctx, _("{who} spends FP ({reason})").format(who=who, reason=reason))


def _r_below_zero(ctx: Narration, d: ev.FatigueBelowZero) -> Line:
    who = ctx.name(d["fighter"])
    if _known(d.get("hp_after")):
        text = _("{who} goes below 0 FP: {lost} HP lost, HP {after}")
        return _said(ctx, text.format(who=who, lost=d["hp_lost"], after=d["hp_after"]))
    return _said(ctx, _("{who} goes below 0 FP: the rest comes off HP").format(who=who))


def _r_fatigued(ctx: Narration, d: ev.Fatigued) -> Line:
    who = ctx.name(d["fighter"])
    if _known(d.get("fp")):
        text = _("{who} is fatigued at FP {fp}: {penalty} on ST checks")
        return _said(ctx, text.format(who=who, fp=d["fp"], penalty=d["st_checks"]))
    return _said(ctx, _("{who} is fatigued: {penalty} on ST checks").format(who=who, penalty=d["st_checks"]))


def _r_helpless(ctx: Narration, d: ev.Fp) -> Line:
    who = ctx.name(d["fighter"])
    if _known(d.get("fp")):
        return _said(ctx, _("{who} is at FP {fp}: too tired to act").format(who=who, fp=d["fp"]))
    return _said(ctx, _("{who} is at the end of their FP: too tired to act").format(who=who))


def _r_fp_recovered(ctx: Narration, d: ev.FpChange) -> Line:
    who = ctx.name(d["fighter"])
    if _known(d.get("fp_after")):
        text = _("{who} gets a second wind: FP {before} → {after}")
        return _said(ctx, text.format(who=who, before=d["fp_before"], after=d["fp_after"]))
    return _said(ctx, _("{who} gets a second wind").format(who=who))


def _r_ht_checks(ctx: Narration, d: ev.Hp) -> Line:
    who = ctx.name(d["fighter"])
    if _known(d.get("hp")):
        text = _("{who} is at HP {hp}: an HT check each subturn to stay conscious")
        return _said(ctx, text.format(who=who, hp=d["hp"]))
    return _said(
        ctx, _("{who} is at HP 0 or less: an HT check each subturn to stay conscious").format(who=who)
    )


def _r_death_check_due(ctx: Narration, d: ev.DeathCheckDue) -> Line:
    who = ctx.name(d["fighter"])
    if _known(d.get("hp")):
        text = _("{who} at HP {hp} has passed {threshold}: a death check")
        return _said(ctx, text.format(who=who, hp=d["hp"], threshold=d["threshold"]))
    return _said(
        ctx, _("{who} has passed {threshold}: a death check").format(who=who, threshold=d["threshold"])
    )


def _r_dead(ctx: Narration, d: ev.Hp) -> Line:
    who = ctx.name(d["fighter"])
    if _known(d.get("hp")):
        return _said(ctx, _("{who} dies (HP {hp})").format(who=who, hp=d["hp"]))
    return _said(ctx, _("{who} dies").format(who=who))


def _r_gm_hp(ctx: Narration, d: ev.HpChange) -> Line:
    who, after = ctx.name(d["fighter"]), d.get("hp_after")
    if _known(after):
        text = _("The referee sets {who}'s HP: {before} → {after}")
        return _said(ctx, text.format(who=who, before=d["hp_before"], after=after))
    return _said(ctx, _("The referee sets {who}'s HP").format(who=who))


def _r_gm_fp(ctx: Narration, d: ev.FpChange) -> Line:
    who, after = ctx.name(d["fighter"]), d.get("fp_after")
    if _known(after):
        text = _("The referee sets {who}'s FP: {before} → {after}")
        return _said(ctx, text.format(who=who, before=d["fp_before"], after=after))
    return _said(ctx, _("The referee sets {who}'s FP").format(who=who))


def _r_gm_condition(ctx: Narration, d: ev.GmCondition) -> Line:
    who, condition = ctx.name(d["fighter"]), word(d["condition"])
    if d.get("added"):
        return _said(ctx, _("The referee rules {who} {condition}").format(who=who, condition=condition))
    return _said(ctx, _("The referee takes {condition} off {who}").format(who=who, condition=condition))


def _r_gm_end(ctx: Narration, d: ev.GmEnd) -> Line:
    if d.get("winner") is None:
        return _said(ctx, _("The referee ends the bout: nobody wins"))
    return _said(ctx, _("The referee ends the bout: {winner} wins").format(winner=ctx.name(d["winner"])))


def _r_grapple(ctx: Narration, d: ev.Grapple) -> Line:
    template = (
        _("{who} grapples {target} and holds")
        if d["held"]
        else _("{who} grapples {target} but fails to hold")
    )
    return _said(ctx, template.format(who=ctx.name(d["fighter"]), target=ctx.name(d["target"])))


def _r_grapple_released(ctx: Narration, d: ev.Target) -> Line:
    text = _("{who} lets go of {target}").format(who=ctx.name(d["fighter"]), target=ctx.name(d["target"]))
    return _said(ctx, text)


def _r_guard(ctx: Narration, d: ev.Guard) -> Line:
    who, arm = ctx.name(d["fighter"]), _where(d["arm"])
    if d.get("location"):
        text = _("{who} guards the {location} with the {arm}")
        return _said(ctx, text.format(who=who, location=_where(d["location"]), arm=arm))
    return _said(ctx, _("{who} lowers the {arm}'s guard").format(who=who, arm=arm))


def _r_wait(ctx: Narration, d: ev.OfFighter) -> Line:
    who = ctx.name(d["fighter"])
    if ctx.rule == "AR.STN.1":
        return _said(ctx, _("{who} waits (stunned: may only defend)").format(who=who))
    return _said(ctx, _("{who} waits").format(who=who))


def _r_landed(ctx: Narration, d: ev.Landed) -> Line:
    who = ctx.name(d["fighter"])
    if d.get("on_its_feet"):
        return _said(
            ctx, _("{who} lands on their feet, {posture}").format(who=who, posture=word(d["posture"]))
        )
    values = {
        "who": who,
        "posture": word(d["posture"]),
        "facing": _where(d.get("facing", "")),
        "location": _where(d.get("location")),
        "height": d.get("height"),
    }
    if str(d.get("height", "0")) != "0":
        return _said(
            ctx, _("{who} lands {posture}, {facing}, on the {location} from {height} m").format(**values)
        )
    return _said(ctx, _("{who} lands {posture}, {facing}, on the {location}").format(**values))


def _r_lands_facing(ctx: Narration, d: ev.LandsFacing) -> Line:
    who, facing = ctx.name(d["fighter"]), _where(d["facing"])
    if d.get("tier"):
        text = _("{who} will land {facing} (a {tier}-tier hit)")
        return _said(ctx, text.format(who=who, facing=facing, tier=word(d["tier"])))
    if d.get("cause"):
        text = _("{who} will land {facing} ({cause})")
        return _said(ctx, text.format(who=who, facing=facing, cause=translate_text(str(d["cause"]))))
    return _said(ctx, _("{who} will land {facing}").format(who=who, facing=facing))


def _r_aerial(ctx: Narration, d: ev.Aerial) -> Line:
    values = {
        "who": ctx.name(d["fighter"]),
        "factor": d["knockback_factor"],
        "reason": translate_text(str(d["factor_reason"])),
    }
    if d["falls"]:
        text = _(
            "{who} is in the air: falls and will land on the {location}; "
            "knockback damage × {factor} ({reason})"
        )
        return _said(ctx, text.format(location=_where(d["lands_on"]), **values))
    text = _(
        "{who} is in the air: keeps their balance and will land on their feet; "
        "knockback damage × {factor} ({reason})"
    )
    return _said(ctx, text.format(**values))


def _r_shock_expired(ctx: Narration, d: ev.ShockExpired) -> Line:
    ended = ", ".join(
        _("{kind} -{value}").format(kind=word(e["kind"]), value=e["value"])
        for e in d.get("ended", [])
        if isinstance(e, Mapping)
    )
    text = _("{who}'s {ended} ends with subturn {subturn}")
    return _said(ctx, text.format(who=ctx.name(d["fighter"]), ended=ended, subturn=d["subturn"]))


def _r_no_further_effect(ctx: Narration, d: ev.NoFurtherEffect) -> Line:
    already = _(" and ").join(_state_word(str(c)) for c in d.get("already", []))
    text = _("{who} is already {already}: {condition} changes nothing")
    who, condition = ctx.name(d["fighter"]), condition_noun(str(d["condition"]))
    return _said(ctx, text.format(who=who, already=already, condition=condition))


def _r_audience_point(ctx: Narration, d: ev.AudiencePoint) -> Line:
    text = _("{who} spends an audience point: {effect}")
    return _said(ctx, text.format(who=ctx.name(d["fighter"]), effect=_where(d["effect"])))


def _r_audience_points(ctx: Narration, d: ev.AudiencePoints) -> Line:
    who = ctx.name(d["fighter"])
    if not _known(d.get("points")):
        return _said(ctx, _("The crowd is behind {who}").format(who=who))
    n = int(d["points"])
    text = ngettext(
        "The crowd is behind {who}: {n} audience point", "The crowd is behind {who}: {n} audience points", n
    )
    return _said(ctx, text.format(who=who, n=n))


def _r_exempted(ctx: Narration, d: ev.Exempted) -> Line:
    n = int(d["exempted"])
    text = ngettext(
        "{who}'s override spares {n} more effect of hit {hit}",
        "{who}'s override spares {n} more effects of hit {hit}",
        n,
    )
    return _said(ctx, text.format(who=ctx.name(d["fighter"]), n=n, hit=d["hit"]))


def _r_move_halved(ctx: Narration, d: ev.MoveHalved) -> Line:
    if "hp" in d:
        why = _("HP {hp}").format(hp=d["hp"]) if _known(d["hp"]) else _("injury")
    else:
        why = _("FP {fp}").format(fp=d["fp"]) if _known(d.get("fp")) else _("fatigue")
    who = ctx.name(d["fighter"])
    before, after = d.get("move_before"), d.get("move_after")
    if before is not None and before == after:
        text = _("{who}'s Move is halved by injury ({why}) instead of fatigue: it stays {after}")
        return _said(ctx, text.format(who=who, why=why, after=after))
    if before is not None:
        text = _("{who}'s Move is halved ({why}): Move {before} → {after}")
        return _said(ctx, text.format(who=who, why=why, before=before, after=after))
    return _said(ctx, _("{who}'s Move is halved ({why})").format(who=who, why=why))


def _r_match_lost(ctx: Narration, d: ev.MatchLost) -> Line:
    who = ctx.name(d.get("fighter"))
    if _known(d.get("reason")):
        text = _("{who} loses the match ({reason})")
        return _said(ctx, text.format(who=who, reason=translate_text(str(d["reason"]))))
    return _said(ctx, _("{who} loses the match").format(who=who))


def _r_moved(ctx: Narration, d: ev.Moved) -> Line:
    values = {
        "who": ctx.name(d["fighter"]),
        "metres": int(d["metres"]),
        "why": translate_text(str(d["why"])),
        "move": d["move"],
        "start": d["position_from"],
        "end": d["position_to"],
    }
    if d.get("nearest") is not None:
        text = _(
            "{who} moves {metres} m ({why}, Move {move}): {start} m → {end} m, {distance} m from {nearest}"
        )
        values.update(distance=d["distance"], nearest=ctx.name(d["nearest"]))
    else:
        text = _("{who} moves {metres} m ({why}, Move {move}): {start} m → {end} m")
    return _said(ctx, text.format(**values), "steps", d)


def _r_knocked_back(ctx: Narration, d: ev.KnockedBack) -> Line:
    values = {"who": ctx.name(d["fighter"]), "metres": d["metres"], "location": _where(d["location"])}
    if "position_to" in d:
        text = _("{who} is knocked back {metres} m by the blow to the {location}: from {start} m to {end} m")
        values.update(start=d["position_from"], end=d["position_to"])
    else:
        text = _(
            "{who} is knocked back {metres} m by the blow to the {location} (a limb: an ST check instead)"
        )
    return _said(ctx, text.format(**values))


def _r_stun_renewed(ctx: Narration, d: ev.StunRenewed) -> Line:
    text = _(
        "{who}'s stun now counts hit {hit} (final damage {final}, margin of loss {margin}) for a guts check"
    )
    return _said(
        ctx,
        text.format(who=ctx.name(d["fighter"]), hit=d["hit"], final=d["final"], margin=d["margin_of_loss"]),
    )


#: Event kind → renderer, for every kind the arena logs (a test keeps it complete).
RENDERERS: dict[str, Callable[[Narration, Any], Line]] = {
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
    "crippled": _fighter(N_("{who}'s {location} is crippled")),
    "incapacitated": _r_incapacitated,
    "override_offered": _r_condition(
        N_("{who} may override {condition} (a guts check or an audience point)")
    ),
    "declined": _r_condition(N_("{who} lets {condition} stand")),
    "overridden": _r_overridden,
    "falls": _fighter(N_("{who} falls over, {facing}; lands {lands}")),
    "match_lost": _r_match_lost,
    "shock": _fighter(
        N_("{who} is in shock: -{penalty} on DX and IQ until the end of subturn {until_end_of_subturn}")
    ),
    "pain": _fighter(
        N_("{who} is in pain: -{penalty} on DX and IQ until the end of subturn {until_end_of_subturn}")
    ),
    "shock_expired": _r_shock_expired,
    "shock_cleared": _fighter(N_("{who} shakes off shock and pain")),
    "fatigue": _r_fatigue,
    "fatigue_below_zero": _r_below_zero,
    "fatigued": _r_fatigued,
    "helpless": _r_helpless,
    "fp_recovered": _r_fp_recovered,
    "stunned": _fighter(N_("{who} is stunned")),
    "stun_ended": _fighter(N_("{who} recovers from the stun")),
    "wait": _r_wait,
    "rise": _fighter(N_("{who} rises to {posture}")),
    "gave_up": _fighter(N_("{who} gives up")),
    "grapple": _r_grapple,
    "grapple_released": _r_grapple_released,
    "guard": _r_guard,
    "guarded": _fighter(N_("{who}'s {arm} takes the blow aimed at the {location}")),
    "guard_dropped": _fighter(N_("{who}'s {arm} is knocked out of its guard")),
    "death_check_due": _r_death_check_due,
    "dead": _r_dead,
    "no_further_effect": _r_no_further_effect,
    "knocked_back": _r_knocked_back,
    "moved": _r_moved,
    "stun_renewed": _r_stun_renewed,
    "aerial": _r_aerial,
    "knockback_damage": _fighter(N_("{who}'s knockback damage: {rolled} × {factor} = {basic} basic")),
    "lands_facing": _r_lands_facing,
    "landed": _r_landed,
    "rooted": _fighter(N_("{who} is rooted to the spot until the end of subturn {until_subturn}")),
    "cannot_fall": _fighter(N_("{who} is already {already}: the {cause} cannot throw them down")),
    "defense_back": _fighter(
        N_("{who} may defend again: the all-out attack's no-defence ends with their slot")
    ),
    "exempted": _r_exempted,
    "gm_hp": _r_gm_hp,
    "gm_fp": _r_gm_fp,
    "gm_condition": _r_gm_condition,
    "gm_end": _r_gm_end,
}
