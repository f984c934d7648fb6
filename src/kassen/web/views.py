"""What a caller may know of a live fight: its view, the turn order, the menus, the log in words, the
action waiting for dice, and what an event stream announces — always made for the caller's viewer
(:attr:`~kassen.web.callers.Caller.viewer`), so a side's token never gets another side's hidden values.

:class:`Views` is the reading half of :class:`~kassen.web.tables.Tables` (which adds the store, the
cache and the changes)."""

from __future__ import annotations

__all__ = ["Views", "view_without_log"]

from collections.abc import Sequence
from typing import Any

from kassen.core.engine import GM
from kassen.core.errors import KassenError
from kassen.core.fight import Fight, state_codec
from kassen.core.report import narrate
from kassen.core.view import Viewer, redact_event, redact_state, visibility_of
from kassen.i18n import S_
from kassen.web.callers import Caller, gm_only
from kassen.web.problems import Problem, refused
from kassen.web.replay import Live


def view_without_log(fight: Fight[Any, Any], viewer: Viewer) -> dict[str, Any]:
    """:func:`kassen.core.view.observe` less its ``"log"``, without building the log: the core redacts
    every event of the log for every view, which makes each view of a long fight cost more than the
    action itself, and the screens and the replies to an action ask for the log's tail only. The same
    keys and values as the core's view (``test_views`` holds the two equal for every ruleset and
    viewer)."""
    rs = fight.ruleset
    rules = visibility_of(rs, fight.tables)
    to_move = fight.to_move
    result = fight.result
    state = state_codec(rs.info.state_type).dump(fight.state)
    return {
        "viewer": {"gm": viewer.gm, "side": viewer.side},
        "ruleset": rs.info.name,
        "scenario": fight.meta.get("scenario", ""),
        "names": dict(rs.names(fight.initial_state)),
        "state_id": fight.view_id(viewer),
        "to_move": to_move.to_json() if to_move is not None else None,
        "over": result is not None,
        "result": result.to_json() if result is not None else None,
        "state": redact_state(state, rules, viewer, fight.side_of),
    }


class Views:
    """The views of a live fight for a caller (see the module notes)."""

    def view(self, live: Live, caller: Caller, *, log: bool = True) -> dict[str, Any]:
        """What ``caller`` may know of the fight (the core's view for its viewer), with the turn order,
        the action waiting for dice, whether the caller decides now, and the fight's public facts."""
        fight = live.fight
        out = fight.view(caller.viewer) if log else view_without_log(fight, caller.viewer)
        out["fight"] = self.facts(live, caller)
        out["status"] = list(fight.status(caller.viewer))
        out["pending"] = self.pending(fight, caller)
        out["may_decide"] = self.may_decide(fight, caller)
        out["sides"] = list(fight.sides())
        out["units"] = dict(fight.units())
        return out

    def facts(self, live: Live, caller: Caller) -> dict[str, Any]:
        row = live.row
        out: dict[str, Any] = {
            "id": row.id,
            "ruleset": row.ruleset,
            "title": row.title,
            "dice": live.fight.dice_mode,
            "seq": live.seq,
            "actions": len(live.fight.entries),
            "created_at": row.created_at.isoformat(),
            # who plays each side the server plays (public: a player knows a bot faces them)
            "policies": live.fight.policy_specs(),
        }
        if caller.gm:  # the seed and the RNG give future rolls away: the GM's alone
            out["seed"] = str(live.fight.seed)
            out["parent"] = row.parent
            out["parent_state_id"] = row.parent_state_id
            # the GM's own name for the fight (a fork's names its source), and whether it is archived
            out["name"] = row.name or row.title
            out["archived"] = row.archived
        return out

    @staticmethod
    def may_decide(fight: Fight[Any, Any], caller: Caller) -> bool:
        if fight.pending is not None:
            return caller.may_act_for(GM if fight.pending.by == GM else fight.to_move)
        return not fight.over and caller.may_act_for(fight.to_move)

    def pending(self, fight: Fight[Any, Any], caller: Caller) -> dict[str, Any] | None:
        """The action waiting for typed dice, as ``caller`` may see it."""
        p = fight.pending
        if p is None:
            return None
        actor = GM if p.by == GM else fight.to_move
        rules = visibility_of(fight.ruleset, fight.tables)
        events = [redact_event(e.to_json(), rules, caller.viewer, fight.side_of) for e in p.events]
        lines = [ln for ln in narrate(fight, events, caller.viewer, redacted=True) if ln.strip()]
        mine = caller.may_act_for(actor)
        out: dict[str, Any] = {
            "sides": p.sides,
            "index": p.index,
            "typed": len(p.faces),
            "by": actor.to_json() if actor is not None else None,
            "events": events,
            "lines": lines,
            "yours": mine,
        }
        if mine:
            out["faces"] = list(p.faces)
            out["action"] = fight.action_json(p.action)
        return out

    def choices(self, live: Live, caller: Caller, path: Sequence[str], *, gm: bool) -> dict[str, Any]:
        """The menu after ``path`` for the caller (``gm``: the GM's own moves)."""
        fight = live.fight
        if gm:
            gm_only(caller, S_("the GM's moves"))
        if fight.pending is not None:
            raise Problem(409, "pending", S_("an action is waiting for dice: type them (or undo it) first"))
        if not gm:
            if fight.over:
                raise Problem(409, "over", S_("the fight is over: nobody decides"))
            if not caller.may_act_for(fight.to_move):
                raise Problem(
                    403, "not_yours", S_("not yours to decide: {who} decides now", who=self.who(fight))
                )
        try:
            menu = fight.menu(list(path), gm=gm, viewer=caller.viewer)
        except KassenError as exc:
            raise refused(exc) from None
        return {
            "state_id": fight.view_id(caller.viewer),
            "gm": gm,
            "actor": menu.actor.to_json(),
            "prompt": menu.prompt,
            "path": list(menu.path),
            "options": [o.to_json() for o in menu.options],
        }

    def chronicle(self, live: Live, caller: Caller) -> dict[str, Any]:
        gm_only(caller, S_("the chronicle"))
        return live.fight.to_json()

    def entries(self, live: Live, caller: Caller, start: int = 0) -> list[dict[str, Any]]:
        """The log entries from ``start`` as the caller sees them, each event with its words."""
        fight = live.fight
        rules = visibility_of(fight.ruleset, fight.tables)
        out = []
        for entry in fight.entries[start:]:
            mine = caller.gm or (entry.actor is not None and entry.actor.side == caller.side)
            events = [redact_event(e.to_json(), rules, caller.viewer, fight.side_of) for e in entry.events]
            item: dict[str, Any] = {
                "index": entry.index,
                "actor": entry.actor.to_json() if entry.actor is not None else None,
                "events": events,
                "lines": [ln for ln in narrate(fight, events, caller.viewer, redacted=True) if ln.strip()],
            }
            if mine:
                item["action"] = fight.action_json(entry.action)
            out.append(item)
        return out

    @staticmethod
    def announcement(live: Live) -> dict[str, Any]:
        """What an event stream says of a new state (a side's stream leaves the state id out:
        :func:`for_caller`)."""
        fight = live.fight
        return {
            "state_id": fight.state_id,
            "seq": live.seq,
            "actions": len(fight.entries),
            "over": fight.over,
            "pending": fight.pending is not None,
        }

    def _may_decide(self, fight: Fight[Any, Any], caller: Caller) -> None:
        if fight.over:
            raise Problem(409, "over", S_("the fight is over: nobody decides"))
        if not caller.may_act_for(fight.to_move):
            raise Problem(403, "not_yours", S_("not yours to decide: {who} decides now", who=self.who(fight)))

    @staticmethod
    def who(fight: Fight[Any, Any]) -> str:
        actor = fight.to_move
        if actor is None:
            return S_("nobody")
        names = fight.ruleset.names(fight.initial_state)
        if actor.kind == "unit":
            return names.get(actor.id, actor.id)
        if actor.kind == "side":
            return names.get(actor.id, actor.id)
        return S_("the GM") if actor.kind == "gm" else str(actor)


def for_caller(message: dict[str, Any], caller: Caller) -> dict[str, Any]:
    """An event stream's message as ``caller`` may read it: the GM's whole; a side's without the state
    id (which the side's views replace by its own, ``Fight.view_id``: the seq says a state is new)."""
    if caller.gm:
        return message
    return {k: v for k, v in message.items() if k != "state_id"}
