"""What a new fight's rows hold before they are stored: its tokens (:func:`issue`), the bytes it takes
(:func:`stored_size`, charged to the client's quota), and a fork's name (:func:`fork_name`)."""

from __future__ import annotations

__all__ = ["MAX_NAME", "fork_name", "issue", "stored_size"]

import json
from collections.abc import Sequence
from datetime import datetime

from kassen.i18n import S_
from kassen.web.store import FightRow, NewAction, TokenRow
from kassen.web.tokens import join_token, new_token, token_hash


def issue(
    fight_id: str, sides: Sequence[str], expires_at: datetime | None
) -> tuple[str, dict[str, str], list[TokenRow]]:
    """A new GM token, each side's join token derived from it, and the rows the store keeps of them."""
    gm = new_token()
    join = {side: join_token(gm, fight_id, side) for side in sides}
    rows = [TokenRow(fight_id, "gm", None, expires_at, 0, token_hash(gm))]
    rows += [TokenRow(fight_id, "side", side, expires_at, 0, token_hash(t)) for side, t in join.items()]
    return gm, join, rows


def stored_size(row: FightRow, new: Sequence[NewAction]) -> int:
    """About how many bytes a new fight takes in the store: its texts, its rows' JSON, and a fixed
    part for the rest of each row and its tokens."""
    size = 1024 + len((row.scenario_text or "").encode("utf-8"))
    if row.chronicle is not None:
        size += len(json.dumps(row.chronicle, ensure_ascii=False).encode("utf-8"))
    return size + sum(
        256 + len(json.dumps(a.action, ensure_ascii=False).encode("utf-8")) + 4 * len(a.dice or ())
        for a in new
    )


#: The longest name the GM may give a fight.
MAX_NAME = 200


def fork_name(source: str, upto: int) -> str:
    """A fork's name: its source's, and where it forked (``Night raid — fork at action 12``)."""
    where = S_("the start") if upto == 0 else S_("action {n}", n=upto)
    room = MAX_NAME - len(S_("{source} — fork at {where}", source="", where=where))
    return S_("{source} — fork at {where}", source=source[:room], where=where)
