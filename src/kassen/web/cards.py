"""The turn order at a glance: a card per unit, in the order they act, with its side's colour, the bars
of its ruleset (Energy and Wounds in Sengoku, Wounds in roll-and-keep, HP and FP in the arena) and its
status line, the unit to act marked.

Every number on a card comes from the viewer's view (:func:`kassen.web.views.view_without_log`'s
``state``, redacted by the ruleset's visibility table): a value another side may not see is ``None``
there and its bar reads "?". The words under each card are the ruleset's own status line for that
unit, written for the same viewer (``Fight.status``). The order itself is public in every ruleset (the
count track, the slot order, the declaration and acting orders are all announced at the table).

A ruleset this module does not know (a fourth ruleset) gets no cards: the screen shows its status
lines as they are.
"""

from __future__ import annotations

__all__ = ["Bar", "Card", "cards"]

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kassen.i18n import _, pgettext


@dataclass(frozen=True, slots=True)
class Bar:
    """One gauge: ``value`` of ``most`` (None: not seen by this viewer). ``falling`` says a fuller bar
    is worse (Wounds taken)."""

    label: str
    value: int | None
    most: int | None
    falling: bool = False
    words: str = ""  # the label in the viewer's words (the English label when empty)

    @property
    def shown_label(self) -> str:
        return self.words or self.label

    @property
    def shown(self) -> str:
        if self.value is None:
            return "?"
        return f"{self.value}/{self.most}" if self.most is not None else str(self.value)

    @property
    def percent(self) -> int:
        """How full the bar is drawn (0-100; nothing when not seen)."""
        if self.value is None or not self.most:
            return 0
        return max(0, min(100, round(100 * self.value / self.most)))

    @property
    def level(self) -> str:
        """``ok``, ``low`` or ``bad``: how it stands for its unit (colour and words, never colour alone)."""
        if self.value is None or not self.most:
            return "unknown"
        health = 1 - self.value / self.most if self.falling else self.value / self.most
        return "ok" if health > 0.5 else "low" if health > 0.2 else "bad"


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    name: str
    side: str
    side_name: str
    colour: int
    acting: bool
    out: bool
    bars: tuple[Bar, ...]
    notes: str
    at: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _sengoku(state: Mapping[str, Any], fight: Any) -> list[dict[str, Any]]:
    started = state.get("phase") not in (None, "start")
    units = list(state.get("units", []))
    live = [u for u in units if not u.get("incapacitated") and not u.get("retreated")]
    gone = [u for u in units if u not in live]
    # the count track: highest acting value (Energy plus a pending initiative) first, SG.CNT.1-3
    live.sort(
        key=lambda u: (
            u.get("passed", False),
            -((_int(u.get("energy")) or 0) + (_int(u.get("initiative")) or 0)),
        )
    )
    out = []
    for u in [*live, *gone]:
        wounds = pgettext("sengoku", "Wounds")  # 戰力: what a unit has left (SG.WND.1)
        bars = [Bar("Wounds", _int(u.get("wounds")), _int(u.get("wounds_max")), words=wounds)]
        if started:
            energy = pgettext("sengoku", "Energy")
            bars.insert(0, Bar("Energy", _int(u.get("energy")), _int(u.get("max_energy")), words=energy))
        out.append(
            {
                "id": u["id"],
                "side": u.get("side", ""),
                "name": u.get("name", u["id"]),
                "out": u in gone,
                "bars": bars,
                "at": (_("count {n} · passed") if u.get("passed") else _("count {n}")).format(
                    n=(_int(u.get("energy")) or 0) + (_int(u.get("initiative")) or 0)
                )
                if started and u not in gone
                else "",
            }
        )
    return out


def _arena(state: Mapping[str, Any], fight: Any) -> list[dict[str, Any]]:
    fighters = {f["profile"]["id"]: f for f in state.get("fighters", [])}
    order = [fid for fid in state.get("order", []) if fid in fighters]
    order += [fid for fid in fighters if fid not in order]
    out = []
    for slot, fid in enumerate(order):
        f = fighters[fid]
        p = f["profile"]
        out.append(
            {
                "id": fid,
                "side": p.get("side", ""),
                "name": p.get("name", fid),
                "out": bool(f.get("lost")),
                "bars": [
                    Bar("HP", _int(f.get("hp")), _int(p.get("hp")), words=pgettext("arena", "HP")),
                    Bar("FP", _int(f.get("fp")), _int(p.get("fp")), words=pgettext("arena", "FP")),
                ],
                "at": _("slot {n}").format(n=slot + 1),
            }
        )
    return out


def _l5r(state: Mapping[str, Any], fight: Any) -> list[dict[str, Any]]:
    from kassen.l5r.character import earth
    from kassen.l5r.wounds import dead_at

    fighters = {f["character"]["name"]: f for f in state.get("fighters", [])}
    phase = state.get("phase")
    order = list(state.get("declare_order" if phase == "declare" else "act_order", []) or [])
    order = [n for n in order if n in fighters] + [n for n in fighters if n not in order]
    real = {f.name: f for f in fight.state.fighters}
    out = []
    for n in order:
        f = fighters[n]
        # the ladder's length follows Earth, which every side knows (the character sheet is public)
        most = dead_at(earth(real[n].character, fight.tables), fight.tables) if n in real else None
        init = _int(f.get("initiative"))
        taken = pgettext("l5r", "Wounds")
        out.append(
            {
                "id": n,
                "side": f["character"].get("side", ""),
                "name": n,
                "out": bool(f.get("dead")) or bool(f.get("yielded")),
                # 傷: the Wounds taken, which fill the ladder (L5.CORE.5)
                "bars": [Bar("Wounds", _int(f.get("wounds")), most, falling=True, words=taken)],
                "at": _("initiative {n}").format(n=init) if init and phase not in (None, "start") else "",
            }
        )
    return out


_RULESETS: dict[str, Callable[[Mapping[str, Any], Any], list[dict[str, Any]]]] = {
    "sengoku": _sengoku,
    "arena": _arena,
    "l5r": _l5r,
}


def cards(
    fight: Any,
    state: Mapping[str, Any],
    status: Sequence[str],
    names: Mapping[str, str],
    acting: str | None,
) -> tuple[list[Card], list[str]]:
    """The cards of the fight as the viewer whose ``state`` (redacted) and ``status`` lines these are,
    and the status lines no card took (the round, the track, who is waiting)."""
    make = _RULESETS.get(fight.ruleset.info.name)
    if make is None:
        return [], list(status)
    sides = list(fight.sides())
    raw = make(state, fight)
    lines = list(status)
    taken: set[int] = set()
    out = []
    for item in raw:
        name = str(item["name"])
        notes = ""
        for i, line in enumerate(lines):
            if i not in taken and line.startswith(f"{name} ("):
                taken.add(i)
                _head, sep, rest = line.partition("): ")
                if not sep:
                    _head, sep, rest = line.partition(") ")
                notes = rest
                break
        side = str(item["side"])
        for bar in item["bars"]:  # the bars show these numbers: the words keep the rest
            notes = re.sub(rf"(?:[,;:] )?\b{bar.label} (?:\?|not seen|-?\d+(?:/-?\d+)?)", "", notes)
            shown = bar.shown_label
            if shown != bar.label:  # the status line in the viewer's words
                unseen = re.escape(_("not seen"))
                notes = re.sub(
                    rf"(?:[,;:、，] ?)?{re.escape(shown)} ?(?:\?|{unseen}|-?\d+(?:/-?\d+)?)", "", notes
                )
        notes = notes.strip(" ;,、")
        side_name = names.get(side, side)
        out.append(
            Card(
                id=str(item["id"]),
                name=name,
                side=side,
                side_name=side if side_name == name else side_name,
                colour=sides.index(side) % 6 if side in sides else 5,
                acting=acting == str(item["id"]),
                out=bool(item["out"]),
                bars=tuple(item["bars"]),
                notes=notes,
                at=str(item.get("at", "")),
            )
        )
    left = [line for i, line in enumerate(lines) if i not in taken]
    return out, left
