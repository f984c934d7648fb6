"""The live fights of one server: rebuilt from the store, changed one request at a time.

A fight is stored as where it starts (a bundled scenario, a posted scenario's text, or an imported
chronicle), its content layers, seed and dice mode, and its rows (:mod:`kassen.web.store`). In memory
it is a :class:`~kassen.core.fight.Fight`, kept in a small cache; a fight not cached — after a restart,
or one another server process changed — is rebuilt by replaying its rows through the core
(:mod:`kassen.web.replay`), each row's resulting ``state_id`` checked.

Every change (:meth:`Tables.act`, :meth:`Tables.undo`) runs under the fight's lock inside one writing
transaction: read the head, check the ``state_id`` the client chose on (stale: 409, nothing changes),
apply through the core (an illegal choice raises before anything changes: 422), append the rows and
the new head, commit — and only then reply and announce the new state to the open screens
(:mod:`kassen.web.streams`). An error after the fight changed in memory drops it from the cache, so the
next request rebuilds it from what was committed.

Who may do what is decided by :mod:`kassen.web.callers`; what each caller sees, by
:mod:`kassen.web.views`; the bundled scenarios, by :mod:`kassen.web.catalog`. Opening a fight (a
scenario, an imported chronicle), its tokens and links, the cache and locks and loading a fight current
with the store are in :mod:`kassen.web.opening` (:class:`Tables` builds on it); here are the changes.
"""

from __future__ import annotations

__all__ = ["Created", "Tables"]

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError

from kassen.core.engine import GM
from kassen.core.errors import KassenError
from kassen.core.fastreplace import replace
from kassen.core.fight import Fight
from kassen.core.policy import Decision
from kassen.i18n import S_
from kassen.web.autoplay import MAX_RUN, Autoplayer, table_policies
from kassen.web.callers import Caller, gm_only
from kassen.web.opening import Created, Opening
from kassen.web.problems import Problem, refused
from kassen.web.replay import Live, pending_json, rebuild_rows
from kassen.web.rows import fork_name
from kassen.web.store import ActionRow, NewAction, Store, now
from kassen.web.streams import Broadcaster
from kassen.web.tokens import new_fight_id


class Tables(Opening):
    """Every fight of one store (see the module notes)."""

    def __init__(
        self,
        store: Store,
        *,
        content: Sequence[str] = (),
        cached: int = 256,
        streams: Broadcaster | None = None,
    ) -> None:
        super().__init__(store, content=content, cached=cached, streams=streams)
        self.autoplayer = Autoplayer(self.play_policies)

    # -- changing -------------------------------------------------------------------------------------
    def act(
        self,
        fight_id: str,
        caller: Caller,
        state_id: str,
        *,
        choices: Sequence[str] | None = None,
        gm: bool = False,
        auto: bool = False,
        dice: Sequence[int | None] | None = None,
    ) -> dict[str, Any]:
        """Play one step at the table: a complete path of choices, the policy's choice (``auto``) or the
        faces for the action waiting for dice. Returns the new entries, what waits, and the new view."""

        def permit(live: Live) -> None:
            # who may do this, before the state id is compared: a side asking for what is not its own
            # is told so (403), whichever id it chose on
            fight = live.fight
            if dice is not None:
                p = fight.pending
                if p is None:
                    raise Problem(409, "no_pending", S_("no action is waiting for dice"))
                if not caller.may_act_for(GM if p.by == GM else fight.to_move):
                    raise Problem(403, "not_yours", S_("not yours to roll: the dice are for another side"))
                if choices is not None or auto:
                    raise Problem(422, "request", S_("send one of choices, auto or dice"))
                return
            if fight.pending is not None:
                raise Problem(
                    409, "pending", S_("an action is waiting for dice: type them (or undo it) first")
                )
            if choices is not None and gm:
                gm_only(caller, S_("the GM's moves"))
            elif choices is not None or auto:
                self._may_decide(fight, caller)
                played = self.played_by(fight)
                if played is not None and not caller.gm:
                    raise Problem(
                        409,
                        "policy",
                        S_("this side is played by {played} now: the GM can hand it back", played=played),
                    )
            else:
                raise Problem(422, "request", S_("send one of choices, auto or dice"))

        def change(live: Live) -> list[NewAction]:
            fight = live.fight
            before = len(fight.entries)
            if dice is not None:
                self._core(lambda: fight.roll(list(dice)))
            elif choices is not None:
                self._core(lambda: fight.choose(list(choices), gm=gm))
            else:
                self._core(lambda: fight.step())
            ids = fight.state_ids()
            return [
                NewAction(
                    "action",
                    ids[e.index + 1],
                    caller.author,
                    fight.action_json(e.action),
                    e.faces,
                    e.out_of_turn and e.actor == GM,
                )
                for e in fight.entries[before:]
            ]

        done = self._change(fight_id, caller, state_id, change, permit)
        self.autoplayer.kick(fight_id)
        return done

    # -- sides played by a policy -----------------------------------------------------------------------
    @staticmethod
    def played_by(fight: Fight[Any, Any]) -> str | None:
        """The policy spec that plays the side deciding now (None: its players, or the GM)."""
        actor = fight.to_move
        if actor is None or fight.over or fight.pending is not None:
            return None
        side = actor.side if actor.kind == "unit" else actor.id if actor.kind == "side" else None
        return fight.policy_specs().get(side) if side is not None else None

    def set_policies(self, fight_id: str, caller: Caller, policies: dict[str, str]) -> dict[str, Any]:
        """Who plays each side from now on (the GM's): side → spec for the sides the server plays; a
        side left out is played by its players. Checked first: on an error nothing changes."""
        gm_only(caller, S_("choosing who plays a side"))
        named = table_policies(policies)
        with self._lock(fight_id):
            try:
                with self.store.writing() as conn:
                    live = self._load(conn, fight_id, lock=True)
                    self._core(lambda: live.fight.use_policies(named))
                    self.store.set_policies(conn, fight_id, named or None)
            except BaseException:
                self.forget(fight_id)  # the fight's policies may have changed in memory
                raise
            live.row = replace(live.row, policies=named or None)
            self._remember(live)
            self.streams.publish(fight_id, self.announcement(live))
            view = self.view(live, caller, log=False)
        self.autoplayer.kick(fight_id)
        return view

    def play_policies(self, fight_id: str) -> None:
        """Play the turns of the sides a policy plays, one committed action at a time, until a player
        or the GM decides, dice are to be typed, or the fight is over (:mod:`kassen.web.autoplay`)."""
        for _ in range(MAX_RUN):
            with self._lock(fight_id):
                try:
                    with self.store.reading() as conn:
                        live = self._load(conn, fight_id)
                except Problem as problem:
                    if problem.code == "no_fight":  # deleted meanwhile: nothing to play
                        return
                    raise
                fight = live.fight
                spec = self.played_by(fight)
                if spec is None:
                    return
                state_id = fight.state_id
                policy = fight.policy
                if policy is None:
                    return
                # what the policy reads, copied while nothing can change it
                decision = fight.decision()
                seen = fight.events
                decision = Decision(
                    decision.state,
                    decision.actor,
                    tuple(decision.legal),
                    tuple(decision.history),
                    decision.seed,
                    decision.tables,
                    decision.is_legal,
                    lambda seen=seen: seen,  # type: ignore[misc]
                )
            action = policy(decision)  # outside the lock and the store: a search may think a while
            author = f"policy:{spec}"[:200]
            player = Caller("gm", None, "", author)

            def change(live: Live, action: Any = action, author: str = author) -> list[NewAction]:
                fight = live.fight
                before = len(fight.entries)
                self._core(lambda: fight.play(action))
                ids = fight.state_ids()
                return [
                    NewAction("action", ids[e.index + 1], author, fight.action_json(e.action), e.faces, False)
                    for e in fight.entries[before:]
                ]

            try:
                self._change(fight_id, player, state_id, change)
            except Problem as problem:
                if problem.code == "stale":
                    continue  # someone else moved first: look again
                raise

    def undo(self, fight_id: str, caller: Caller, state_id: str) -> dict[str, Any]:
        """Take back the last action (or drop the action waiting for dice): the GM's."""
        gm_only(caller, S_("undo"))

        def change(live: Live) -> list[NewAction]:
            fight = live.fight
            if fight.pending is not None:
                fight.cancel()
                return []
            if not fight.entries:
                raise Problem(409, "start", S_("nothing to undo: the fight is at its start"))
            fight.undo()
            return [NewAction("undo", fight.state_id, caller.author)]

        return self._change(fight_id, caller, state_id, change)

    def fork(
        self,
        fight_id: str,
        caller: Caller,
        at: str,
        charge: Callable[[int], None] | None = None,
        expires_at: datetime | None = None,
    ) -> Created:
        """A new fight from the state ``at`` of this one (its start, or after any live action;
        ``charge``: as for :meth:`create`)."""
        gm_only(caller, S_("forking"))
        with self.reading(fight_id) as live:
            ids = live.fight.state_ids()
            if at not in ids:
                raise Problem(
                    422,
                    "no_state",
                    S_("no state {state} in this fight's log (undone states are gone)", state=repr(at[:40])),
                )
            upto = ids.index(at)
            kept = live.stack[:upto]
            row = live.row
        new = [NewAction("action", r.state_id, r.author, r.action, r.dice, r.by_gm) for r in kept]
        source = row.name or row.title
        fork_row = replace(
            row,
            id=new_fight_id(),
            name=fork_name(source, upto),
            archived=False,
            created_at=now(),
            updated_at=now(),
            head_seq=len(new),
            state_id=at,
            actions=len(new),
            pending=None,
            parent=row.id,
            parent_state_id=at,
        )
        live_fork = rebuild_rows(fork_row, kept)
        result = live_fork.fight.result
        fork_row = replace(
            fork_row, over=result is not None, result=None if result is None else result.to_json()
        )
        live_fork.row = fork_row
        return self._insert(fork_row, live_fork.fight, new, live_fork.scenario, charge, expires_at)

    # -- the GM's fight list: names, archive, delete ------------------------------------------------------
    def manage(
        self, fight_id: str, caller: Caller, *, name: str | None = None, archived: bool | None = None
    ) -> dict[str, Any]:
        """Rename the fight or archive it (or bring it back): the GM's. Returns its facts."""
        gm_only(caller, S_("renaming or archiving a fight"))
        with self._lock(fight_id):
            with self.store.writing() as conn:
                live = self._load(conn, fight_id, lock=True)
                self.store.rename(conn, fight_id, name=name, archived=archived)
            live.row = replace(
                live.row,
                name=live.row.name if name is None else name,
                archived=live.row.archived if archived is None else archived,
            )
            self._remember(live)
            return self.facts(live, caller)

    def delete(self, fight_id: str, caller: Caller) -> None:
        """Forget the fight, its rows and its tokens (the GM's): its open screens are told it is gone."""
        gm_only(caller, S_("deleting a fight"))
        with self._lock(fight_id):
            with self.store.writing() as conn:
                self._load(conn, fight_id, lock=True)
                held = [t.hash for t in self.store.tokens_of(conn, fight_id)]
                self.store.delete_fight(conn, fight_id)
            self.forget(fight_id)
        self.streams.revoke(fight_id, held)

    def _change(
        self,
        fight_id: str,
        caller: Caller,
        state_id: str,
        change: Callable[[Live], list[NewAction]],
        permit: Callable[[Live], None] | None = None,
    ) -> dict[str, Any]:
        with self._lock(fight_id):
            new: list[NewAction] = []
            before = 0
            try:
                with self.store.writing() as conn:
                    live = self._load(conn, fight_id, lock=True)
                    fight = live.fight
                    if permit is not None:
                        permit(live)
                    # a side chose on its own view's id (Fight.view_id), the GM on the state id
                    now = fight.view_id(caller.viewer)
                    if state_id != now:
                        raise Problem(
                            409,
                            "stale",
                            S_("the fight has moved on since this was chosen: look again"),
                            state_id=now,
                        )
                    before = len(fight.entries)
                    pending_before = pending_json(fight)
                    new = change(live)
                    pending_after = pending_json(fight)
                    if new or pending_after != pending_before:
                        self.store.append(conn, fight_id, live.seq + 1, new)
                        result = fight.result
                        self.store.set_head(
                            conn,
                            fight_id,
                            head_seq=live.seq + len(new),
                            state_id=fight.state_id,
                            live_actions=len(fight.entries),
                            over=result is not None,
                            result=None if result is None else result.to_json(),
                            pending=pending_after,
                        )
            except Problem as problem:
                if problem.status >= 500:
                    self.forget(fight_id)
                raise
            except IntegrityError:  # another writer took the row first (never under the locks above)
                self.forget(fight_id)
                raise Problem(
                    409, "stale", S_("the fight has moved on since this was chosen: look again")
                ) from None
            except BaseException:
                self.forget(fight_id)  # the fight may have changed in memory without being stored
                raise
            # committed
            self._advance(live, new)
            self.streams.publish(fight_id, self.announcement(live))
            entries = self.entries(live, caller, start=min(before, len(live.fight.entries)))
            return {
                "applied": bool(new),
                "entries": entries if new and new[0].kind == "action" else [],
                "undone": bool(new) and new[0].kind == "undo",
                "view": self.view(live, caller, log=False),
                # the number the fight's event stream announces for this state: a screen that has it
                # need not fetch itself again when the stream's news of it comes
                "seq": live.seq,
            }

    def _advance(self, live: Live, new: Sequence[NewAction]) -> None:
        at = now()
        for i, a in enumerate(new):
            seq = live.seq + 1 + i
            if a.kind == "undo":
                live.stack.pop()
            else:
                live.stack.append(
                    ActionRow(
                        seq,
                        a.kind,
                        a.action,
                        None if a.dice is None else tuple(a.dice),
                        a.by_gm,
                        a.author,
                        a.state_id,
                        at,
                    )
                )
        live.seq += len(new)
        result = live.fight.result
        live.row = replace(
            live.row,
            head_seq=live.seq,
            state_id=live.fight.state_id,
            actions=len(live.fight.entries),
            over=result is not None,
            result=None if result is None else result.to_json(),
            pending=pending_json(live.fight),
            updated_at=at,
        )
        self._remember(live)

    # -- helpers --------------------------------------------------------------------------------------
    @staticmethod
    def _core(call: Any) -> Any:
        try:
            return call()
        except KassenError as exc:
            raise refused(exc) from None

    # -- listing --------------------------------------------------------------------------------------
    def listing(self, *, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
        """The fights of this store, newest first: their public facts only (no title, seed or token: a
        fight's name can tell who plays it and what they plan; its GM and sides read it in their views)."""
        with self.store.reading() as conn:
            rows, total = self.store.listing(conn, limit=limit, offset=offset)
        return [
            {
                "id": r.id,
                "ruleset": r.ruleset,
                "dice": r.dice,
                "actions": r.actions,
                "over": r.over,
                "created_at": r.created_at.isoformat(),
                "updated_at": r.updated_at.isoformat(),
                "forked": r.parent is not None,
                "archived": r.archived,
            }
            for r in rows
        ], total
