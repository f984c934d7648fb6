"""Who sent a request, and what they may do: the caller a bearer token names.

The GM token of a fight may do everything; a side's join token reads that side's view and decides
only for that side's units (its menus, its dice, its ``auto``), never reads the chronicle, undoes,
forks or sees another side's hidden values (:attr:`Caller.viewer` is what every view, menu, status
line and narrated event is made for). Tokens are checked by their SHA-256 in the store
(:mod:`kassen.web.tokens`).
"""

from __future__ import annotations

__all__ = ["Caller", "gm_only", "lookup_caller"]

import re
from dataclasses import dataclass, field
from typing import Literal

from kassen.core.engine import Actor
from kassen.core.view import GM_VIEW, Viewer
from kassen.i18n import S_
from kassen.web.problems import Problem
from kassen.web.store import Store, now
from kassen.web.tokens import TOKEN_PATTERN, token_hash


@dataclass(frozen=True, slots=True)
class Caller:
    """Who sent a request: the GM, or one side (by its join token)."""

    role: Literal["gm", "side"]
    side: str | None = None
    token: str = field(default="", repr=False)
    #: Who the store says sent it, when not the token's holder (the server playing a side's policy).
    name: str = ""

    @property
    def gm(self) -> bool:
        return self.role == "gm"

    @property
    def viewer(self) -> Viewer:
        return GM_VIEW if self.gm else Viewer(self.side)

    @property
    def author(self) -> str:
        if self.name:
            return self.name
        return "gm" if self.gm else f"side:{self.side}"

    def may_act_for(self, actor: Actor | None) -> bool:
        """Whether this caller decides for ``actor``: the GM for anyone; a side for its own units."""
        if self.gm:
            return True
        if actor is None:
            return False
        if actor.kind == "unit":
            return actor.side is not None and actor.side == self.side
        return actor.kind == "side" and actor.id == self.side


def lookup_caller(store: Store, fight_id: str, token: str | None) -> Caller:
    """The caller a bearer token names, for ``fight_id`` (401 unknown or expired, 404 no such fight,
    403 a token of another fight)."""
    if not token:
        raise Problem(401, "token", S_("this needs a token: Authorization: Bearer TOKEN"))
    if re.fullmatch(TOKEN_PATTERN, token) is None:
        raise Problem(401, "token", S_("this token opens no fight"))
    with store.reading() as conn:
        found = store.token(conn, token_hash(token))
        exists = store.head(conn, fight_id) is not None
    if found is None:
        raise Problem(401, "token", S_("this token opens no fight"))
    if found.expired(now()):
        raise Problem(401, "expired", S_("this token has expired: ask the GM for a new link"))
    if not exists:
        raise Problem(404, "no_fight", S_("no such fight"))
    if found.fight_id != fight_id:
        raise Problem(403, "token", S_("this token is for another fight"))
    if found.role == "gm":
        return Caller("gm", None, token)
    return Caller("side", found.side, token)


def gm_only(caller: Caller, what: str) -> None:
    """403 unless the caller is the GM."""
    if not caller.gm:
        raise Problem(403, "gm_only", S_("{what}: the GM's alone (a side's token cannot)", what=what))
