"""Turning results into text and Rich markup for the terminal (never used by rules code)."""

from __future__ import annotations

__all__ = ["dice_markup", "dice_text", "probability_text"]

from kassen.dice.roller import DieRoll, RollResult

TYPE_CHECKING = False  # `kassen roll` (kassen.cli.fast) imports this module: no fractions, no typing
if TYPE_CHECKING:
    from fractions import Fraction


def _die_text(die: DieRoll, rich: bool) -> str:
    # The markers are plain characters so they survive a pipe; Rich only adds emphasis.
    text = f"({'+'.join(str(f) for f in die.faces)})!" if die.exploded else str(die.face)
    if die.exploded and rich:
        text = f"[bold]{text}[/bold]"
    if not die.kept:
        text = f"[dim]~~{text}~~[/dim]" if rich else f"~~{text}~~"
    return text


def _render(result: RollResult, rich: bool) -> str:
    parts: list[str] = []
    for i, group in enumerate(result.groups):
        shown = "[" + ", ".join(_die_text(d, rich) for d in group.dice) + "]"
        if i == 0:
            parts.append(("-" if group.sign < 0 else "") + shown)
        else:
            parts.append(("- " if group.sign < 0 else "+ ") + shown)
    if result.constant or not parts:
        c = result.constant
        parts.append(str(c) if not parts else ("- " if c < 0 else "+ ") + str(abs(c)))
    total = f"[bold]{result.total}[/bold]" if rich else str(result.total)
    return f"{result.expression}: {' '.join(parts)} = {total}"


def dice_text(result: RollResult) -> str:
    """``2d10 + 5: [3, 7] + 5 = 15``; dropped dice ``~~2~~``, exploded ``(10+4)!``."""
    return _render(result, rich=False)


def dice_markup(result: RollResult) -> str:
    return _render(result, rich=True)


def probability_text(p: Fraction) -> str:
    """``p`` as a percentage and its exact fraction. Never 100% or 0% unless it is exactly that: a
    chance within a millionth of a percent of either end says how close it is instead."""
    shown = f"{float(p):.6%}"
    if 0 < p < 1 and shown == "100.000000%":
        shown = f"> 99.999999% (1 - {float(1 - p):.3g})"
    elif 0 < p < 1 and shown == "0.000000%":
        shown = f"{float(p) * 100:.3g}%"
    return f"{shown} ({p.numerator}/{p.denominator})"
