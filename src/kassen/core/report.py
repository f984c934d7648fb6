"""Accounts of fights in words: one report layer for every ruleset.

A ruleset supplies ``renderers``: a table from each event kind it logs to a function that says it in
words (names, not ids; the rule in brackets; with ``verbose``, every explanation step). The core walks
a chronicle's events in order and renders each through that table; a kind without a renderer is shown
plainly and marked, never skipped — and a test over every ruleset keeps the table complete.

>>> from kassen.core.report import Line
>>> Line("Kuro hits the Oni: 2 Wounds", rule="SG.WND.1").render(verbose=False)
['Kuro hits the Oni: 2 Wounds  [SG.WND.1]']
"""

from __future__ import annotations

__all__ = ["Line", "Narration", "account", "missing_renderers", "narrate", "outcome_text"]

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kassen.core.explain import Step, format_steps
from kassen.core.view import GM_VIEW, Viewer, observe, redact_event, visibility_of
from kassen.i18n import _, speaking_for, translate_text

if TYPE_CHECKING:
    from kassen.core.engine import Outcome
    from kassen.core.fight import Fight
    from kassen.core.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Line:
    """One line of an account: text, its rule, the explanation steps shown when verbose, an indent
    level, and whether it starts a new block (a round, a turn)."""

    text: str
    rule: str = ""
    steps: tuple[Step, ...] = ()
    indent: int = 0
    heading: bool = False

    def render(self, *, verbose: bool) -> list[str]:
        pad = "  " * self.indent
        rule = f"  [{self.rule}]" if self.rule else ""
        out = [f"{pad}{self.text}{rule}"]
        if self.heading:
            out.insert(0, "")
        if verbose and self.steps:
            out += [f"{pad}      {line}" for line in format_steps(self.steps).splitlines()]
        return out


@dataclass(frozen=True)
class Narration:
    """What a renderer may use: display names by id, verbosity, and the event's own rule."""

    names: Mapping[str, str] = field(default_factory=dict)
    verbose: bool = False
    rule: str = ""
    automatic: bool = False

    def name(self, ident: Any) -> str:
        """The display name of a unit or side id (the id itself when unknown)."""
        if ident is None:
            return _("nobody")
        return self.names.get(str(ident), str(ident))

    @staticmethod
    def steps(data: Mapping[str, Any], key: str = "steps") -> tuple[Step, ...]:
        """Explanation steps stored in an event's data."""
        raw = data.get(key) or []
        return tuple(
            Step(int(s.get("value", 0)), _reason(s.get("reason", "")), str(s.get("rule", "")))
            for s in raw
            if isinstance(s, Mapping)
        )


def _reason(reason: Any) -> str:
    """A step's words (None: hidden from the side that reads them, ``kassen.core.view.StepRule``)."""
    return _("(hidden)") if reason is None else str(reason)


def _plain(kind: str, data: Mapping[str, Any]) -> str:
    shown = ", ".join(f"{k} {v}" for k, v in data.items() if k != "steps")
    return (_("({kind}: no words for this event yet)").format(kind=kind) + f" {shown}").rstrip()


def render_event(
    ruleset: Ruleset[Any, Any, Any], event: Mapping[str, Any], names: Mapping[str, str], *, verbose: bool
) -> list[str]:
    """One event's lines."""
    kind = str(event.get("kind", ""))
    data = event.get("data") or {}
    rule = str(event.get("rule", ""))
    ctx = Narration(names, verbose, rule, bool(event.get("automatic", False)))
    renderer = ruleset.renderers.get(kind)
    with speaking_for(ruleset.info.name):  # the ruleset's own words first (Wounds: 戰力 or 傷)
        out = renderer(ctx, data) if renderer is not None else Line(_plain(kind, data), rule)
        if out is None:
            return []
        line = out if isinstance(out, Line) else Line(out, rule)
        return line.render(verbose=verbose)


def narrate(
    fight: Fight[Any, Any],
    events: Iterable[Any],
    viewer: Viewer | None = None,
    *,
    verbose: bool = False,
    redacted: bool = False,
) -> list[str]:
    """The lines of ``events`` (:class:`~kassen.core.events.Event` or their JSON) as ``viewer`` may read
    them (None: the GM): each event redacted by the ruleset's visibility table, then told. Every client
    narrates through it — the terminal and the web's screens alike — so no screen tells one side what
    another's view hides. ``redacted``: the events are JSON already redacted for ``viewer``."""
    who = GM_VIEW if viewer is None else viewer
    rules = visibility_of(fight.ruleset, fight.tables)
    names = fight.ruleset.names(fight.initial_state)
    out: list[str] = []
    for e in events:
        data = e if isinstance(e, Mapping) else e.to_json()
        shown = data if redacted else redact_event(data, rules, who, fight.side_of)
        out.extend(render_event(fight.ruleset, shown, names, verbose=verbose))
    return out


def account(
    fight: Fight[Any, Any],
    *,
    verbose: bool = False,
    events: Iterable[Any] | None = None,
    viewer: Viewer | None = None,
) -> str:
    """The fight told in words, event by event, then how it ended — as ``viewer`` may know it (a side
    reads the events with what is hidden from it left out; default: the GM, everything)."""
    rs = fight.ruleset
    names = rs.names(fight.initial_state)
    lines: list[str] = []
    if events is not None:
        source: Iterable[Any] = events
    elif viewer is not None and not viewer.gm:
        source = (e for entry in observe(fight, viewer)["log"] for e in entry["events"])
    else:
        source = (e.to_json() for e in fight.events)
    for event in source:
        lines += render_event(rs, event, names, verbose=verbose)
    result = fight.result
    if result is not None:
        with speaking_for(rs.info.name):
            said = outcome_text(result, names)
        lines += ["", _("Result: {outcome}.").format(outcome=said)]
    else:
        who = fight.to_move
        shown = names.get(who.id, str(who)) if who is not None else _("nobody")
        lines += ["", _("The fight goes on: {who} to decide.").format(who=shown)]
    return "\n".join(lines).strip("\n") + "\n"


def outcome_text(result: Outcome, names: Mapping[str, str]) -> str:
    """``winner: The raiders (the Takeda camp: no unit left able to act)``, or ``no winner (...)``."""
    reason = translate_text(result.reason)
    if result.winner is None:
        return _("no winner ({reason})").format(reason=reason)
    winner = translate_text(names.get(result.winner, result.winner))
    return _("winner: {winner} ({reason})").format(winner=winner, reason=reason)


def missing_renderers(ruleset: Ruleset[Any, Any, Any], kinds: Iterable[str]) -> set[str]:
    """The kinds among ``kinds`` the ruleset has no renderer for."""
    return {k for k in kinds if k not in ruleset.renderers}
