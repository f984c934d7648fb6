"""A fight rebuilt from the store: its start (a bundled scenario, a posted scenario's text, or an imported
chronicle's header) replayed through the core row by row, each row's resulting ``state_id`` checked,
so a store that does not replay is refused (500 ``replay``) rather than served wrong."""

from __future__ import annotations

__all__ = ["Live", "pending_json", "rebuild", "rebuild_rows", "start_fight"]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy.engine import Connection

from kassen.core.chronicle import read_start
from kassen.core.engine import GM
from kassen.core.errors import KassenError
from kassen.core.fight import DiceRequest, Fight
from kassen.core.scenario import ScenarioSource, open_fight, read_scenario
from kassen.i18n import S_
from kassen.web.catalog import POSTED, bundled_source
from kassen.web.problems import Problem
from kassen.web.store import ActionRow, FightRow, Store


@dataclass
class Live:
    """A fight in memory, at row ``seq`` of the store, with the stored rows of its live actions."""

    row: FightRow
    fight: Fight[Any, Any]
    seq: int
    stack: list[ActionRow]
    scenario: ScenarioSource | None = None


def start_fight(row: FightRow) -> tuple[Fight[Any, Any], ScenarioSource | None]:
    """The fight at its start, as the row says it begins, each side played as the row says."""
    dice: Literal["auto", "table"] = "table" if row.dice == "table" else "auto"
    if row.chronicle is not None:
        fight = read_start(row.chronicle, content=list(row.content))
        fight.dice_mode = dice
        fight.use_policies(row.policies or {})
        return fight, None
    if row.scenario_name is not None:
        src = bundled_source(row.scenario_name)
    elif row.scenario_text is not None:
        src = read_scenario(POSTED, text=row.scenario_text)
    else:
        raise KassenError("the stored fight names no scenario")
    fight = open_fight(src, seed=row.seed, content=list(row.content), dice=dice, policies=row.policies)
    return fight, src


def rebuild(store: Store, conn: Connection, row: FightRow) -> Live:
    """The fight at its head: every stored row (actions and undos) replayed and checked."""
    try:
        fight, src = start_fight(row)
        if fight.state_id != row.initial_state_id:
            raise KassenError("its start is not the one stored (the scenario or content changed)")
        stack: list[ActionRow] = []
        for stored in store.rows(conn, row.id):
            where = f"row {stored.seq}"
            if stored.kind == "action":
                fight.apply(stored.action, dice=stored.dice, by=GM if stored.by_gm else None)
                stack.append(stored)
            elif stored.kind == "undo":
                fight.undo()
                stack.pop()
            else:
                raise KassenError(f"{where}: unknown kind {stored.kind!r}")
            if fight.state_id != stored.state_id:
                raise KassenError(f"{where}: the state after it is not the one stored")
        if fight.state_id != row.state_id:
            raise KassenError("its head is not the state its rows lead to")
        if row.pending is not None:
            restore_pending(fight, row.pending)
    except KassenError as exc:
        raise Problem(
            500, "replay", S_("the stored fight does not replay on this kassen: {why}", why=str(exc)[:300])
        ) from None
    return Live(row, fight, row.head_seq, stack, src)


def rebuild_rows(row: FightRow, rows: Sequence[ActionRow]) -> Live:
    """A fight from ``row``'s start through the live ``rows`` only (a fork)."""
    try:
        fight, src = start_fight(row)
        for stored in rows:
            fight.apply(stored.action, dice=stored.dice, by=GM if stored.by_gm else None)
            if fight.state_id != stored.state_id:
                raise KassenError(f"row {stored.seq}: the state after it is not the one stored")
    except KassenError as exc:
        raise Problem(500, "replay", S_("the fight does not replay: {why}", why=str(exc)[:300])) from None
    return Live(row, fight, len(rows), list(rows), src)


def restore_pending(fight: Fight[Any, Any], pending: Mapping[str, Any]) -> None:
    """Play again the action that waits for typed dice, with the faces already typed."""
    got = fight.play(pending["action"], by=GM if pending.get("by_gm") else None)
    faces = pending.get("faces") or []
    if faces:
        got = fight.roll(faces)
    if not isinstance(got, DiceRequest):
        raise KassenError("the action stored as waiting for dice does not wait for them")


def pending_json(fight: Fight[Any, Any]) -> dict[str, Any] | None:
    """What the store keeps of the action waiting for dice (None: nothing waits)."""
    p = fight.pending
    if p is None:
        return None
    return {"action": fight.action_json(p.action), "faces": list(p.faces), "by_gm": p.by == GM}
