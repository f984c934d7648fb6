"""A duel told in words: a renderer for every event kind the ruleset logs (:mod:`kassen.core.report`).

Every event's data carries its ``text`` (names, not ids: a fighter's id is its name) and, where numbers
were worked out, the explanation ``steps``; a renderer says it with the event's rule in brackets, and
with every step when verbose. A turn starts a block (``== Turn 3 ==``); a declaration is indented under
it. ``tests/l5r/test_report.py`` checks that every kind logged in the package has a renderer here.
"""

from __future__ import annotations

__all__ = ["RENDERERS"]

from collections.abc import Mapping
from typing import Any

from kassen.core.report import Line, Narration
from kassen.core.ruleset import Renderer


def _said(ctx: Narration, data: Mapping[str, Any]) -> Line:
    """The event's own words, its rule, and (verbose) its steps."""
    return Line(str(data.get("text", "")), ctx.rule, ctx.steps(data))


def _turn(ctx: Narration, data: Mapping[str, Any]) -> Line:
    return Line(f"== {str(data.get('text', 'turn')).capitalize()} ==", heading=True)


def _declare(ctx: Narration, data: Mapping[str, Any]) -> Line:
    """A declaration, indented under its turn; its rule only when verbose."""
    return Line(str(data.get("text", "")), ctx.rule if ctx.verbose else "", indent=1)


def _skipped(ctx: Narration, data: Mapping[str, Any]) -> Line:
    """A script step skipped, indented with the declaration it precedes, with the rule that stops it."""
    return Line(str(data.get("text", "")), ctx.rule, indent=1)


def _over(ctx: Narration, data: Mapping[str, Any]) -> Line:
    winner = data.get("winner")
    text = str(data.get("text", ""))
    if winner is not None:  # the side by its display name
        text = text.replace(f"{winner} wins", f"{ctx.name(winner)} wins")
    return Line(text, ctx.rule)


#: Every event kind the ruleset logs → how it reads.
RENDERERS: dict[str, Renderer] = {
    # the turn loop (kassen.l5r.flow, kassen.l5r.ruleset)
    "begin": _said,
    "turn": _turn,
    "initiative": _said,
    "declare": _declare,
    "script_skipped": _skipped,
    "full_defense": _said,
    "lost_action": _said,
    "status_ended": _said,
    "over": _over,
    # attacks and harm (kassen.l5r.attacks, kassen.l5r.damage)
    "attack": _said,
    "damage": _said,
    "wounds": _said,
    "out": _said,
    "dying": _said,
    "death": _said,
    "released": _said,
    "injury_choice": _said,
    "injury": _said,
    "maim": _said,
    "weapon_dropped": _said,
    "foul": _said,
    # special attacks (kassen.l5r.specials)
    "bind": _said,
    "bind_freed": _said,
    "clipping": _said,
    "corps_a_corps": _said,
    "disengage": _said,
    "struggle": _said,
    "thrown": _said,
    "disarm": _said,
    "drive": _said,
    "mark": _said,
    "point_to_throat": _said,
    # other declarations (kassen.l5r.acts)
    "wait": _said,
    "yield": _said,
    "regain_grip": _said,
    "regain_footing": _said,
    "remove_weapon": _said,
    "clear_vision": _said,
    "free_weapon": _said,
    "recover_weapon": _said,
    "medical_aid": _said,
    "release_bind": _said,
    # the position model (kassen.l5r.movement, kassen.l5r.acts, kassen.l5r.attacks)
    "move": _said,
}
