"""The search's two hooks for an arena bout: what a corner guesses of what it may not see
(:func:`determinize`), and what a bout not yet over is worth to each side (:func:`value`).

Both are house defaults (AR.GAP.2: the seed says nothing of what one corner knows of the other);
docs/arena/house-defaults.md describes them with the other readings.

What a corner does not see (the ``visibility`` table): another side's HP and FP (now and at most), its
damage tallies, its audience points and bonuses, its guts-bonus plan, and the FP numbers of its
thresholds still to be looked at. :func:`determinize` is given only the bout as the side sees it (those
fields null) and its view of the log, and fills them in from what was seen:

* **the most HP and FP** — the house default the scenarios use when a profile gives none: HP = ST,
  FP = HT (ST and HT are seen);
* **HP left** — the most, less the final damage of every hit it was seen to take (each ``injury`` event
  shows it: the wound is seen); FP below 0 taken from HP is not counted (its amount is not seen);
* **FP left** — the most, less one for each FP spend it was seen to make (``fatigue`` events show that
  FP was spent and why, not how much), never below 1 unless it was seen to be helpless;
* **damage tallies** by location and to the head start afresh (a crippled location is seen and stays
  crippled); the last death check's HP is the HP guessed; no audience points or bonuses are held; the
  guts-bonus plan is the data's default (``match.fighter_defaults``); an FP threshold still to be
  looked at is taken as crossing nothing (before and after the FP guessed).

:func:`value` scores a bout by each side's fighters still able to fight: HP left as a share of the most
(FP left counts for a quarter), nothing for a fighter out of the bout, as a share of all sides' total.
"""

from __future__ import annotations

__all__ = ["determinize", "value"]

from collections.abc import Mapping, Sequence
from typing import Any

from kassen.arena.bout.state import BoutState
from kassen.arena.fighter import GutsBonusPlan
from kassen.arena.rules import ArenaRules
from kassen.core.fight import state_codec
from kassen.core.rng import Rng


def value(state: BoutState, tables: ArenaRules) -> Mapping[str, float]:
    """Each side's share of the strength its fighters have left (see the module notes)."""
    left: dict[str, float] = {}
    for f in state.fighters:
        p = f.profile
        strength = 0.0
        if not f.lost and not f.incapacitated:
            hp = max(0, f.hp) / max(1, p.hp)
            fp = max(0, f.fp) / max(1, p.fp)
            strength = 0.1 + min(1.0, hp) * (0.75 + 0.25 * min(1.0, fp))
        left[p.side] = left.get(p.side, 0.0) + strength
    total = sum(left.values())
    if total <= 0:
        return dict.fromkeys(left, 0.5)
    return {side: s / total for side, s in left.items()}


def determinize(
    seen: dict[str, Any], events: Sequence[Mapping[str, Any]], tables: ArenaRules, side: str, rng: Rng
) -> BoutState:
    """A whole bout from what ``side`` sees, every hidden value guessed as the module notes say."""
    damage, spends, helpless = _seen(events)
    plan = GutsBonusPlan.default(tables)
    guesses: dict[str, tuple[int, int]] = {}
    for f in seen.get("fighters", ()):
        p = f.get("profile") or {}
        if p.get("side") == side:
            continue
        fid = str(p.get("id"))
        most_hp = int(p.get("st") or 1)
        most_fp = int(p.get("ht") or 1)
        hp = most_hp - damage.get(fid, 0)
        fp = most_fp - spends.get(fid, 0)
        fp = min(fp, 0) if fid in helpless else max(1, fp)
        guesses[fid] = (hp, fp)
        p["hp"], p["fp"] = most_hp, most_fp
        p["guts_bonus"] = {"checks": [str(c) for c in plan.checks], "min_fp_after": plan.min_fp_after}
        f["hp"], f["fp"] = hp, fp
        f["location_damage"], f["head_damage"] = [], 0
        f["last_death_check_hp"] = hp if f.get("death_checks_done") else None
        f["audience_points"], f["check_bonuses"] = 0, []
    for task in seen.get("agenda", ()):
        who = task.get("fighter") if isinstance(task, dict) else None
        if isinstance(who, str) and who in guesses and "before" in task and task["before"] is None:
            fp = guesses[who][1]
            task["before"], task["after"] = fp, fp
    state: BoutState = state_codec(BoutState).load(seen, "the side's view")
    return state


def _seen(events: Sequence[Mapping[str, Any]]) -> tuple[dict[str, int], dict[str, int], set[str]]:
    """Per fighter: the final damage of the hits it took, its FP spends, and whether it was helpless."""
    damage: dict[str, int] = {}
    spends: dict[str, int] = {}
    helpless: set[str] = set()
    for e in events:
        data = e.get("data") or {}
        who = data.get("fighter")
        if not isinstance(who, str):
            continue
        kind = e.get("kind")
        if kind == "injury" and isinstance(data.get("final"), int):
            damage[who] = damage.get(who, 0) + data["final"]
        elif kind == "fatigue":
            spends[who] = spends.get(who, 0) + 1
        elif kind == "helpless":
            helpless.add(who)
    return damage, spends, helpless
