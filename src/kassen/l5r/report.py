"""A duel told in words: a renderer for every event kind the ruleset logs (:mod:`kassen.core.report`).

Every event's data carries its ``text`` (names, not ids: a fighter's id is its name) and, where numbers
were worked out, the explanation ``steps``; a renderer says it with the event's rule in brackets, and
with every step when verbose. A turn starts a block (``== Turn 3 ==``); a declaration is indented under
it. ``tests/l5r/test_report.py`` checks that every kind logged in the package has a renderer here.

A side's view of the duel (:mod:`kassen.core.view`) reads events with what the visibility table hides
set to ``None`` (or the whole event hidden): every renderer then says what is left — the Wounds taken by
another side's fighter with their rank and no count — never a hidden value, never the word None.
"""

from __future__ import annotations

__all__ = ["KIND_WORDS", "RENDERERS"]

from collections.abc import Mapping
from typing import Any

from kassen.core.explain import Step
from kassen.core.report import Line, Narration
from kassen.core.ruleset import Renderer
from kassen.i18n import N_, S_, _
from kassen.l5r import events as ev
from kassen.l5r.say import say, say_declaration, say_list, say_parts, say_steps

#: Each event kind in words, for a line whose details a side's view hides.
KIND_WORDS: dict[str, str] = {
    "begin": N_("the duel begins"),
    "turn": N_("a new turn"),
    "initiative": N_("initiative"),
    "declare": N_("a declaration"),
    "script_skipped": N_("a scripted declaration skipped"),
    "full_defense": N_("Full Defense"),
    "lost_action": N_("an action lost"),
    "status_ended": N_("a status ends"),
    "over": N_("the duel is over"),
    "attack": N_("an attack"),
    "damage": N_("damage"),
    "wounds": N_("Wounds"),
    "out": N_("out of the fight"),
    "dying": N_("in the Dead rank"),
    "death": N_("death"),
    "released": N_("ties released"),
    "injury_choice": N_("an injury to choose"),
    "injury": N_("an injury"),
    "maim": N_("a maim"),
    "weapon_dropped": N_("the weapon dropped"),
    "foul": N_("a Foul"),
    "bind": N_("a Bind"),
    "bind_freed": N_("a bind freed"),
    "clipping": N_("a Clipping"),
    "corps_a_corps": N_("a Corps-a-Corps"),
    "disengage": N_("a disengage"),
    "struggle": N_("a struggle"),
    "thrown": N_("thrown to the ground"),
    "disarm": N_("a Disarm"),
    "drive": N_("a Drive"),
    "mark": N_("a Mark"),
    "point_to_throat": N_("a point at the throat"),
    "wait": N_("waiting"),
    "yield": N_("yielding"),
    "regain_grip": N_("regaining grip"),
    "regain_footing": N_("regaining footing"),
    "remove_weapon": N_("removing the pinning weapon"),
    "clear_vision": N_("clearing the eyes"),
    "free_weapon": N_("freeing the weapon"),
    "recover_weapon": N_("recovering the weapon"),
    "medical_aid": N_("medical aid"),
    "release_bind": N_("releasing the bind"),
    "move": N_("a move"),
    "gm_wounds": N_("the GM sets Wounds"),
    "gm_injury": N_("the GM rules an injury"),
    "gm_status_removed": N_("the GM ends a status"),
    "gm_condition": N_("the GM gives a condition"),
    "gm_condition_removed": N_("the GM takes a condition off"),
    "gm_danger": N_("the GM rules on danger behind"),
}


def _text(ctx: Narration, data: Mapping[str, Any], kind: str) -> str:
    """The event's own words, in the reader's language; when a view hides them (``None``, or the whole
    event hidden), what is left to say: who, and what happened, never a hidden value or the word None."""
    text = data.get("text")
    if isinstance(text, str) and text:
        return say(text)
    who = next(
        (data[k] for k in ("fighter", "attacker", "chooser", "target") if data.get(k) is not None), None
    )
    what = _(KIND_WORDS[kind]) if kind in KIND_WORDS else kind.replace("_", " ")
    if who is not None:
        return _("{name}: {what} (details not seen)").format(name=ctx.name(who), what=what)
    return _("{what} (details not seen)").format(what=what)


def _steps(ctx: Narration, data: Mapping[str, Any]) -> tuple[Step, ...]:
    """The event's explanation steps, each reason in the reader's language."""
    return say_steps(ctx.steps(data))


def _said(kind: str) -> Renderer:
    """The event's own words, its rule, and (verbose) its steps."""

    def render(ctx: Narration, data: ev.Explained) -> Line:
        return Line(_text(ctx, data, kind), ctx.rule, _steps(ctx, data))

    return render


def _declared(ctx: Narration, data: Mapping[str, Any], kind: str) -> str:
    """A line that names a declaration (its details said one by one, :func:`say_declaration`) and, when
    it was refused, the refusal (said on its own)."""
    text, who = data.get("text"), data.get("fighter") or data.get("attacker")
    if not (isinstance(text, str) and text and isinstance(who, str)):
        return _text(ctx, data, kind)
    parts: list[tuple[str, str]] = []
    if kind == "declare" and text.startswith(f"{who} declares: "):
        act = text[len(f"{who} declares: ") :]
        parts = [(act, say_declaration(act))]
    elif kind == "attack" and text.startswith(f"{who}: ") and " - rolls " in text:
        act = text[len(f"{who}: ") : text.rindex(" - rolls ")]
        parts = [(act, say_declaration(act))]
    elif kind == "lost_action" and text.startswith(f"{who}'s ") and " cannot be made: " in text:
        act, _sep, why = text[len(f"{who}'s ") :].partition(" cannot be made: ")
        suffix = f" ({ctx.rule})"
        why = why[: -len(suffix)] if why.endswith(suffix) else why
        parts = [(act, say_declaration(act)), (why, say(why))]
    elif (
        kind == "script_skipped"
        and text.startswith(f"{who}'s scripted declaration (")
        and ") is skipped: " in text
    ):
        act, _sep, why = text[len(f"{who}'s scripted declaration (") :].partition(") is skipped: ")
        parts = [(act, say_declaration(act)), (why, say(why))]
    return say_parts(text, parts) if parts else say(text)


def _injury_choice(ctx: Narration, data: ev.InjuryChoice) -> Line:
    """The injuries to choose from: a list of the tables' words, each said in turn."""
    text = data.get("text")
    options = data.get("options")
    if isinstance(text, str) and text and isinstance(options, list):
        return Line(say_list(text, [str(o) for o in options]), ctx.rule, _steps(ctx, data))
    return Line(_text(ctx, data, "injury_choice"), ctx.rule, _steps(ctx, data))


def _death(ctx: Narration, data: ev.Death) -> Line:
    """A death, said from its fields (the cause is itself a sentence with brackets, which the words of
    the whole line would read ambiguously)."""
    text, fighter, cause = data.get("text"), data.get("fighter"), data.get("cause")
    if isinstance(text, str) and isinstance(fighter, str) and isinstance(cause, str):
        for form in (_DISTINCTIVE, _DIES):
            if text == S_(form, name=fighter, cause=cause):
                return Line(_(form).format(name=fighter, cause=say(cause)), ctx.rule, _steps(ctx, data))
    return Line(_text(ctx, data, "death"), ctx.rule, _steps(ctx, data))


_DIES = N_("{name} dies: {cause}")
_DISTINCTIVE = N_("{name} dies: {cause} (a distinctive death)")


def _wounds(ctx: Narration, data: ev.Wounds) -> Line:
    """Wounds taken; another side reads the rank only (the visibility table hides the count)."""
    if isinstance(data.get("text"), str) and data["text"]:
        return Line(say(data["text"]), ctx.rule, _steps(ctx, data))
    rank = data.get("rank")
    name = ctx.name(data.get("fighter"))
    if rank:
        return Line(_("{name} takes Wounds: {rank}").format(name=name, rank=say(str(rank))), ctx.rule)
    return Line(_("{name} takes Wounds").format(name=name), ctx.rule)


def _gm_wounds(ctx: Narration, data: ev.GmWounds) -> Line:
    """The GM sets a fighter's Wounds; another side reads the rank only."""
    if isinstance(data.get("text"), str) and data["text"]:
        return Line(say(data["text"]), ctx.rule, _steps(ctx, data))
    rank = data.get("rank")
    name = ctx.name(data.get("fighter"))
    if rank:
        return Line(_("the GM sets {name}'s Wounds: {rank}").format(name=name, rank=say(str(rank))), ctx.rule)
    return Line(_("the GM sets {name}'s Wounds").format(name=name), ctx.rule)


def _turn(ctx: Narration, data: ev.Turn) -> Line:
    return Line(f"== {_text(ctx, data, 'turn').capitalize()} ==", heading=True)


def _declare(ctx: Narration, data: ev.Declared) -> Line:
    """A declaration, indented under its turn; its rule only when verbose."""
    return Line(_declared(ctx, data, "declare"), ctx.rule if ctx.verbose else "", indent=1)


def _skipped(ctx: Narration, data: ev.Declared) -> Line:
    """A script step skipped, indented with the declaration it precedes, with the rule that stops it."""
    return Line(_declared(ctx, data, "script_skipped"), ctx.rule, indent=1)


def _with_declaration(kind: str) -> Renderer:
    """An attack or a lost action: the declaration it names said apart (:func:`_declared`)."""

    def render(ctx: Narration, data: ev.Explained) -> Line:
        return Line(_declared(ctx, data, kind), ctx.rule, _steps(ctx, data))

    return render


def _over(ctx: Narration, data: ev.Over) -> Line:
    winner = data.get("winner")
    text = data.get("text")
    if not (isinstance(text, str) and text):
        return Line(_text(ctx, data, "over"), ctx.rule)
    if winner is not None:  # the side by its display name
        text = text.replace(f"{winner} wins", f"{ctx.name(winner)} wins")
    return Line(say(text), ctx.rule)


#: Every event kind the ruleset logs → how it reads.
RENDERERS: dict[str, Renderer] = {
    # the turn loop (kassen.l5r.flow, kassen.l5r.ruleset)
    "begin": _said("begin"),
    "turn": _turn,
    "initiative": _said("initiative"),
    "declare": _declare,
    "script_skipped": _skipped,
    "full_defense": _said("full_defense"),
    "lost_action": _with_declaration("lost_action"),
    "status_ended": _said("status_ended"),
    "over": _over,
    # attacks and harm (kassen.l5r.attacks, kassen.l5r.damage)
    "attack": _with_declaration("attack"),
    "damage": _said("damage"),
    "wounds": _wounds,
    "out": _said("out"),
    "dying": _said("dying"),
    "death": _death,
    "released": _said("released"),
    "injury_choice": _injury_choice,
    "injury": _said("injury"),
    "maim": _said("maim"),
    "weapon_dropped": _said("weapon_dropped"),
    "foul": _said("foul"),
    # special attacks (kassen.l5r.specials)
    "bind": _said("bind"),
    "bind_freed": _said("bind_freed"),
    "clipping": _said("clipping"),
    "corps_a_corps": _said("corps_a_corps"),
    "disengage": _said("disengage"),
    "struggle": _said("struggle"),
    "thrown": _said("thrown"),
    "disarm": _said("disarm"),
    "drive": _said("drive"),
    "mark": _said("mark"),
    "point_to_throat": _said("point_to_throat"),
    # other declarations (kassen.l5r.acts)
    "wait": _said("wait"),
    "yield": _said("yield"),
    "regain_grip": _said("regain_grip"),
    "regain_footing": _said("regain_footing"),
    "remove_weapon": _said("remove_weapon"),
    "clear_vision": _said("clear_vision"),
    "free_weapon": _said("free_weapon"),
    "recover_weapon": _said("recover_weapon"),
    "medical_aid": _said("medical_aid"),
    "release_bind": _said("release_bind"),
    # the position model (kassen.l5r.movement, kassen.l5r.acts, kassen.l5r.attacks)
    "move": _said("move"),
    # the GM's own moves (kassen.l5r.gm)
    "gm_wounds": _gm_wounds,
    "gm_injury": _said("gm_injury"),
    "gm_status_removed": _said("gm_status_removed"),
    "gm_condition": _said("gm_condition"),
    "gm_condition_removed": _said("gm_condition_removed"),
    "gm_danger": _said("gm_danger"),
}
