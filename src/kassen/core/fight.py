"""A fight: one ruleset, its content, a seed and the snapshots and log of the actions applied.

:class:`Fight` is what every client works through — the CLI, terminal play, the web table, the lab —
and what a tool builder embeds::

    fight = kassen.open_fight("demo", seed=3)
    while not fight.over:
        fight.step()                      # the scenario's policies decide
    fight.result, fight.to_json()

It keeps a :class:`~kassen.core.engine.Snapshot` (state + RNG position) after every action, so
:meth:`Fight.undo` steps back exactly, and :meth:`Fight.to_json` writes a chronicle (format
:data:`FORMAT`) that :meth:`Fight.from_json` replays, checking every recorded field
(:mod:`kassen.core.chronicle`): the content, every event of every action, typed dice, the state id
after each action, the result. Actions and states go through the one codec (:mod:`kassen.core.codec`),
so malformed JSON is a :class:`~kassen.core.codec.FormatError` naming its path, never a traceback.

The chronicle format, the log entry, the dice request and the checks of what a caller hands a fight
(seed, typed faces, policy, viewer) are in :mod:`kassen.core.fight_records`, and importable from here.
"""

from __future__ import annotations

__all__ = ["FORMAT", "READS", "DiceRequest", "Fight", "LogEntry", "ReplayError", "log_digest", "state_codec"]

import copy
import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from kassen.content.content import Content
from kassen.core.codec import Codec, FormatError
from kassen.core.collector import paused
from kassen.core.engine import GM, Actor, DiceNeeded, Outcome, Snapshot, advance
from kassen.core.errors import IllegalActionError, KassenError
from kassen.core.events import Event, canonical_json
from kassen.core.fight_records import DEFAULT_MAX_ACTIONS as DEFAULT_MAX_ACTIONS
from kassen.core.fight_records import (
    FORMAT,
    READS,
    DiceRequest,
    LogEntry,
    ReplayError,
    _count,
    _dice_mode,
    check_by,
    check_more_faces,
    check_policy,
    check_size,
    check_viewer,
    log_digest,
    state_codec,
)
from kassen.core.fight_records import MAX_FACE as MAX_FACE
from kassen.core.fight_records import MAX_TYPED_FACES as MAX_TYPED_FACES
from kassen.core.fight_records import SEED_BOUNDS as SEED_BOUNDS
from kassen.core.fight_records import check_faces as check_faces
from kassen.core.fight_records import check_seed as check_seed
from kassen.core.menu import Menu, build_menu, decide, in_words, without_hidden_odds
from kassen.core.policy import Decision, Listed, Policy
from kassen.core.rng import Rng
from kassen.core.ruleset import Ruleset
from kassen.core.view import GM_VIEW, Viewer, check_visibility, observe, redact_state, visibility_of
from kassen.i18n import S_, speaking_for

if TYPE_CHECKING:
    from kassen.core.scenario import ScenarioSource

S = TypeVar("S")
A = TypeVar("A")


class Fight(Generic[S, A]):
    """One fight over a ruleset and its content (see the module notes). ``history`` are actions played
    before ``state`` (a fight resumed from a snapshot), so that policies continue where they were."""

    def __init__(
        self,
        ruleset: Ruleset[S, A, Any],
        content: Content[Any],
        state: S,
        seed: int,
        *,
        meta: Mapping[str, Any] | None = None,
        policy: Policy[S, A] | None = None,
        max_actions: int = DEFAULT_MAX_ACTIONS,
        rng: int | None = None,
        history: Sequence[A] = (),
        dice: Literal["auto", "table"] = "auto",
    ) -> None:
        if content.ruleset != ruleset.info.name:
            raise KassenError(
                S_(
                    "{ruleset} content cannot run a {name} fight",
                    ruleset=content.ruleset,
                    name=ruleset.info.name,
                )
            )
        self.ruleset = ruleset
        self.content = content
        self.seed = check_seed(seed)
        self.meta: dict[str, Any] = {**(meta or {}), "content": content.meta()}
        self.policy = check_policy(policy)
        #: The scenario's own policy (or the one given), which every side without a named one keeps.
        self.base_policy: Policy[S, A] | None = self.policy
        self.max_actions = _count(max_actions, "max_actions")
        self._initial_rng = rng
        self._state_codec: Codec[S] = state_codec(ruleset.info.state_type)
        self._action_codec: Codec[A] = state_codec(ruleset.info.action_type)
        start = Rng(self.seed).state if rng is None else rng
        self._snapshots: list[Snapshot[S]] = [Snapshot(state, start)]
        self._ids: list[str | None] = [None]
        self._entries: list[LogEntry[A]] = []
        self._prior: tuple[A, ...] = tuple(history)
        self._history: list[A] = list(self._prior)
        self._legal: tuple[Snapshot[S], Sequence[A]] | None = None
        #: The last action tried on a copy (:meth:`check`): the snapshot, the action, what it led to.
        self._tried: tuple[Snapshot[S], A, tuple[Snapshot[S], tuple[Event, ...]]] | None = None
        self.dice_mode = _dice_mode(dice)
        self._check_size()
        check_visibility(visibility_of(ruleset, content.tables), ruleset.info.event_types)
        self._pending: DiceRequest[A] | None = None

    def _check_size(self) -> None:
        """A fight needs units on at least two sides, and at most the ruleset's ``max_units``."""
        check_size(self.units(), str(self.meta.get("source") or "the scenario"), self.ruleset.info)

    # -- reading ---------------------------------------------------------------------------------------
    @property
    def tables(self) -> Any:
        return self.content.tables

    @property
    def snapshot(self) -> Snapshot[S]:
        return self._snapshots[-1]

    @property
    def state(self) -> S:
        return self._snapshots[-1].state

    @property
    def initial_state(self) -> S:
        return self._snapshots[0].state

    @property
    def states(self) -> tuple[S, ...]:
        """Every state so far: the initial one, then one after each applied action."""
        return tuple(s.state for s in self._snapshots)

    @property
    def state_id(self) -> str:
        """Identifies the current snapshot — the ruleset's state and the RNG position, under this
        ruleset, content and seed: the same state always has the same id, any change gives another."""
        return self.state_ids()[-1]

    def state_ids(self) -> list[str]:
        """The id of every snapshot so far (computed once each)."""
        for i, known in enumerate(self._ids):
            if known is None:
                self._ids[i] = self.snapshot_id(self._snapshots[i])
        return [i for i in self._ids if i is not None]

    def view_id(self, viewer: Viewer = GM_VIEW) -> str:
        """The id of the current snapshot as ``viewer`` may know it: the GM's is :attr:`state_id`; a
        side's is computed from what that side sees and nothing else — the ruleset, the side, how many
        actions were played and the state without what it may not see — so it names every change the
        side can see and gives away nothing it may not know. No seed, RNG position or content digest
        goes into it: hashing any of them would let a side try seeds (a seed a GM typed was found in a
        fraction of a second) or hidden values (a Fate point count written in the content) until one
        matches. Two fights a side sees alike have the same id. A side sends it back with a choice (the
        web table's ``stale`` check)."""
        checked = self._known_viewer(viewer)
        if checked.gm:
            return self.state_id
        rules = visibility_of(self.ruleset, self.tables)
        seen = redact_state(self._state_codec.dump(self.state), rules, checked, self.side_of)
        text = canonical_json(["view", self.ruleset.info.name, len(self._history), checked.side, seen])
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]

    def snapshot_id(self, snapshot: Snapshot[S]) -> str:
        text = canonical_json(
            [
                self.ruleset.info.name,
                self.content.hash,
                self.seed,
                snapshot.rng,
                self._state_codec.dump(snapshot.state),
            ]
        )
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]

    @property
    def entries(self) -> tuple[LogEntry[A], ...]:
        return tuple(self._entries)

    @property
    def history(self) -> Sequence[A]:
        """The actions applied so far, oldest first (those before a resumed snapshot included)."""
        return tuple(self._history)

    @property
    def events(self) -> tuple[Event, ...]:
        return self._events()

    def _events(self) -> tuple[Event, ...]:
        return tuple(e for entry in self._entries for e in entry.events)

    @property
    def to_move(self) -> Actor | None:
        return self.ruleset.to_move(self.state)

    @property
    def result(self) -> Outcome | None:
        return self.ruleset.result(self.state)

    @property
    def over(self) -> bool:
        return self.ruleset.result(self.state) is not None

    def units(self) -> Mapping[str, str]:
        """Every unit's side, by unit id (the ruleset's optional ``units(state)`` hook)."""
        hook = getattr(self.ruleset, "units", None)
        return dict(hook(self.state)) if hook is not None else {}

    def sides(self) -> tuple[str, ...]:
        """The sides of the fight, in the order their units come."""
        return tuple(dict.fromkeys(self.units().values()))

    def side_of(self, unit: Any) -> str | None:
        """The side of the unit ``unit`` (None when it is none of the fight's)."""
        return self.units().get(str(unit)) if isinstance(unit, str) else None

    def view(self, viewer: Viewer = GM_VIEW) -> dict[str, Any]:
        """The fight as ``viewer`` sees it (:func:`kassen.core.view.observe`)."""
        return observe(self, check_viewer(viewer))

    def legal_actions(self) -> Sequence[A]:
        """What the actor to move may do now (see ``RulesetInfo.legal_actions_complete``)."""
        snap = self.snapshot
        if self._legal is None or self._legal[0] is not snap:
            self._legal = (snap, tuple(self.ruleset.legal_actions(snap.state, self.tables)))
        return self._legal[1]

    def check(self, action: A) -> None:
        """Raise :class:`~kassen.core.errors.IllegalActionError` unless ``action`` is legal now (tried
        on a copy: nothing changes)."""
        snap = self.snapshot
        typed = self._typed(action)
        done = advance(self.ruleset, self.tables, snap, typed)
        # kept for the play of this very action that usually follows (a script's step, tried first)
        self._tried = (snap, typed, done)

    def is_legal(self, action: A) -> bool:
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    # -- changing --------------------------------------------------------------------------------------
    def action(self, data: Any, path: str = "action") -> A:
        """An action of this ruleset from its JSON (:class:`FormatError` naming the field if malformed)."""
        return self._action_codec.load(data, path)

    def action_json(self, action: A) -> Any:
        return self._action_codec.dump(action)

    def _typed(self, action: A | Mapping[str, Any]) -> A:
        """``action`` as this ruleset reads it: JSON decoded; an object checked against its type by a
        round trip through the codec (so the log can always be read back)."""
        if isinstance(action, Mapping):
            return self.action(action)
        legal = self._legal
        if legal is not None and legal[0] is self.snapshot and any(action is a for a in legal[1]):
            return action  # listed by the ruleset for this very snapshot: read back like any other
        codec = self._action_codec
        if codec.knows(action):
            # its round trip gave itself before (a breath the content keeps), or gave a value just like it
            # (a script's step, built afresh for each fight the scenario opens)
            return action
        try:
            data = codec.dump(action)
        except (KassenError, AttributeError, TypeError):
            raise FormatError(
                "action",
                S_(
                    "{name} is not an action of {name2}",
                    name=type(action).__name__,
                    name2=self.ruleset.info.name,
                ),
            ) from None
        typed = self.action(data)
        codec.remember(action, typed)
        return typed

    def apply(
        self,
        action: A | Mapping[str, Any],
        *,
        dice: Sequence[int | None] | None = None,
        by: Actor | None = None,
    ) -> tuple[Event, ...]:
        """Apply ``action`` (or its JSON) now; ``dice`` are all the faces rolled at the table for it
        (``None`` for a die the RNG rolls); ``by`` is who takes it when not whoever is to move (the GM's
        own moves: ``GM``). An illegal action, or typed faces that do not fit (too few:
        :class:`~kassen.core.engine.DiceNeeded`), raise a typed error and nothing changes."""
        if self._pending is not None:
            raise KassenError(S_("an action is waiting for dice: roll(...) them, or cancel() it first"))
        self._check_by(by)
        typed = self._typed(action)
        if dice is not None and not isinstance(dice, list | tuple):
            raise FormatError(
                "dice", S_("typed dice are a list of faces, not {name}", name=type(dice).__name__)
            )
        faces = None if dice is None else check_faces(dice)
        return self._apply(typed, faces, by)

    def _check_by(self, by: Any) -> None:
        """Who takes an action: whoever is to move (``by`` None, or that very actor), or the GM for the
        GM's own moves (``GM``, at any time). No one else acts for a unit (a player acts only for their
        own units), so any other actor is refused and nothing changes."""
        check_by(by, lambda: self.to_move)

    # -- decisions built step by step ----------------------------------------------------------------------
    def menu(self, path: Sequence[str] = (), *, gm: bool = False, viewer: Viewer = GM_VIEW) -> Menu:
        """The menu of next choices after ``path`` for whoever decides now (``gm``: the GM's own moves,
        available at any time), each attack-like choice with its exact odds (:mod:`kassen.core.menu`);
        for a side's ``viewer``, the odds that depend on what it may not see are left out. A side sees
        only its own menus: the GM's moves and another side's decision are refused (their options tell
        what that side holds in reserve)."""
        viewer = self._known_viewer(viewer)
        if not viewer.gm:
            actor = self.to_move
            deciding = None if actor is None else actor.id if actor.kind == "side" else actor.side
            if gm or actor is None or actor.kind not in ("unit", "side") or deciding != viewer.side:
                whose = "the GM's moves" if gm else "no decision" if actor is None else f"{actor}'s decision"
                raise KassenError(
                    S_("{viewer} sees only its own menus, not {whose}", viewer=viewer, whose=whose)
                )
        with speaking_for(self.ruleset.info.name):
            menu = in_words(build_menu(self.ruleset, self.state, self.tables, path, gm=gm))
        if viewer.gm:
            return menu
        return without_hidden_odds(menu, visibility_of(self.ruleset, self.tables).odds)

    def _known_viewer(self, viewer: Any) -> Viewer:
        """``viewer`` checked: a Viewer, of one of the fight's sides (or the GM)."""
        checked = check_viewer(viewer)
        if checked.side is not None and checked.side not in self.sides():
            raise KassenError(
                S_(
                    "no side {side} in this fight (sides: {items})",
                    side=repr(checked.side),
                    items=", ".join(self.sides()),
                )
            )
        return checked

    def status(self, viewer: Viewer = GM_VIEW) -> Sequence[str]:
        """The turn order / track as ``viewer`` may see it (the ruleset's ``status`` hook)."""
        viewer = self._known_viewer(viewer)
        hook = getattr(self.ruleset, "status", None)
        if hook is None:
            return []
        with speaking_for(self.ruleset.info.name):
            return list(hook(self.state, self.tables, viewer))

    def choose(self, path: Sequence[str], *, gm: bool = False) -> tuple[Event, ...] | DiceRequest[A]:
        """Play the action the complete ``path`` of choices names (see :meth:`play`)."""
        return self.play(decide(self.ruleset, self.state, self.tables, path, gm=gm), by=GM if gm else None)

    # -- dice rolled at the table ------------------------------------------------------------------------
    @property
    def pending(self) -> DiceRequest[A] | None:
        """The action waiting for typed dice, and the die it wants now (table dice mode)."""
        return self._pending

    def play(
        self, action: A | Mapping[str, Any], *, by: Actor | None = None
    ) -> tuple[Event, ...] | DiceRequest[A]:
        """Apply ``action`` the way this fight rolls: with the seeded RNG (``dice_mode`` ``auto``), or —
        ``table`` — ask for each die the players roll: the action waits (:attr:`pending`) until
        :meth:`roll` has given every face it needs, then applies with them (they go in the log)."""
        if self.dice_mode == "auto":
            return self.apply(action, by=by)
        if self._pending is not None:
            raise KassenError(S_("an action is waiting for dice: roll(...) them, or cancel() it first"))
        self._check_by(by)
        return self._try(self._typed(action), (), by)

    def roll(self, faces: Sequence[int | None]) -> tuple[Event, ...] | DiceRequest[A]:
        """Give the waiting action more faces (``None``: let the RNG roll that die). Applies it once it
        has all it needs; a face the die does not have is refused and nothing changes."""
        if self._pending is None:
            raise KassenError(S_("no action is waiting for dice"))
        given = check_more_faces(self._pending, faces)
        return self._try(self._pending.action, given, self._pending.by)

    def cancel(self) -> DiceRequest[A] | None:
        """Drop the action waiting for dice (nothing was applied)."""
        pending, self._pending = self._pending, None
        return pending

    def _try(
        self, action: A, faces: tuple[int | None, ...], by: Actor | None
    ) -> tuple[Event, ...] | DiceRequest[A]:
        try:
            events = self._apply(action, faces, by)
        except DiceNeeded as need:
            self._pending = DiceRequest(action, faces, need.sides, need.index, need.events, by)
            return self._pending
        self._pending = None
        return events

    def _apply(
        self, typed: A, faces: tuple[int | None, ...] | None, by: Actor | None = None
    ) -> tuple[Event, ...]:
        to_move = self.to_move
        actor = by if by is not None else to_move
        out_of_turn = by is not None and by != to_move
        tried = self._tried
        self._tried = None
        if faces is None and tried is not None and tried[0] is self.snapshot and tried[1] == typed:
            snap, events = tried[2]  # tried on a copy just now (check): advance is a pure function
        else:
            snap, events = advance(self.ruleset, self.tables, self.snapshot, typed, faces)
        self._snapshots.append(snap)
        self._ids.append(None)
        self._entries.append(LogEntry(len(self._entries), typed, actor, events, faces, out_of_turn))
        self._history.append(typed)
        return events

    def undo(self) -> LogEntry[A] | DiceRequest[A]:
        """Step back one action, RNG position included (an action waiting for dice is dropped first)."""
        if self._pending is not None:
            pending = self.cancel()
            assert pending is not None
            return pending
        if not self._entries:
            raise KassenError(S_("nothing to undo: the fight is at its start"))
        self._snapshots.pop()
        self._ids.pop()
        self._history.pop()
        return self._entries.pop()

    def use_policies(self, specs: Mapping[str, Any]) -> None:
        """Play each side in ``specs`` (side id → a policy spec such as ``"search:iterations=800"``,
        :mod:`kassen.core.named`) by its named policy from now on, the other sides and the GM by the
        fight's own policy (the scenario's). Recorded in the chronicle's meta (``policies``), so a replay
        or a resumed fight keeps them; an empty mapping goes back to the scenario's. Every spec and side
        is checked first: on an error nothing changes."""
        from kassen.core.named import parse_policies, side_policies

        parsed = parse_policies(specs)
        base = self.base_policy
        scenario = (lambda: base) if base is not None else None
        policy = side_policies(parsed, self.ruleset, self.tables, self.sides(), scenario)
        self.policy = policy if parsed else base
        if parsed:
            self.meta["policies"] = {side: str(spec) for side, spec in parsed.items()}
        else:
            self.meta.pop("policies", None)

    def policy_specs(self) -> dict[str, str]:
        """Each side's named policy (side id → spec); a side not listed plays the scenario's."""
        found = self.meta.get("policies")
        return dict(found) if isinstance(found, dict) else {}

    def decision(self) -> Decision[S, A]:
        """What a policy sees now."""
        actor = self.to_move
        if actor is None:
            raise KassenError(S_("the fight is over: nobody decides"))
        legal = Listed(self.legal_actions)  # listed when a policy first reads it
        return Decision(
            self.state, actor, legal, self._history, self.seed, self.tables, self.is_legal, self._events
        )

    def decide(self, policy: Policy[S, A] | None = None) -> A:
        """The action ``policy`` (default: the scenario's, else the ruleset's heuristic) chooses now."""
        chosen = check_policy(policy) or self.policy or self.ruleset.heuristic(self.tables)
        if self.policy is None and policy is None:
            self.policy = chosen
        return chosen(self.decision())

    def step(self, policy: Policy[S, A] | None = None) -> tuple[Event, ...] | DiceRequest[A]:
        """Play the action ``policy`` chooses now (:meth:`play`: in table dice mode it may wait)."""
        return self.play(self.decide(policy))

    def autoplay(
        self, policy: Policy[S, A] | None = None, *, max_actions: int | None = None
    ) -> DiceRequest[A] | None:
        """Let ``policy`` (default: the scenario's) play until the fight is over — or, in table dice
        mode, until an action waits for dice (returned). The cyclic garbage collector is held off while
        it plays (a fight makes no reference cycles: :mod:`kassen.core.collector`)."""
        limit = self.max_actions if max_actions is None else _count(max_actions, "max_actions")
        check_policy(policy)
        with paused():
            for _ in range(limit):
                if self.over:
                    return None
                done = self.step(policy)
                if isinstance(done, DiceRequest):
                    return done
        if not self.over:
            raise KassenError(S_("the fight did not end within {limit} actions", limit=limit))
        return None

    # -- JSON ------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The chronicle: everything a replay needs (format, ruleset, seed, meta with the content,
        initial state, actions with any typed dice) and what it must reproduce (the events and the
        state id after each action, the result), and its ``end``: the number of actions in the log and
        a digest of it, so that a chronicle cut short (its last entries and result gone) is refused,
        not replayed as an unfinished fight."""
        ids = self.state_ids()
        log = []
        for e in self._entries:
            item: dict[str, Any] = {
                "index": e.index,
                "action": self._action_codec.dump(e.action),
                "events": [ev.to_json() for ev in e.events],
                "state_id": ids[e.index + 1],
            }
            if e.faces is not None:
                item["dice"] = list(e.faces)
            if e.out_of_turn and e.actor == GM:
                item["by"] = "gm"
            log.append(item)
        out: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": self.ruleset.info.name,
            "seed": self.seed,
            "meta": copy.deepcopy(self.meta),
            "initial_state": self._state_codec.dump(self.initial_state),
            "state_id": ids[0],
            "log": log,
        }
        if self._initial_rng is not None:
            out["rng"] = self._initial_rng
            out["played"] = [self._action_codec.dump(a) for a in self._prior]
        result = self.result
        if result is not None:
            out["result"] = result.to_json()
        out["end"] = {"actions": len(log), "digest": log_digest(log)}
        return out

    def log_json(self) -> str:
        """:meth:`to_json` in the one canonical form compared byte for byte."""
        return canonical_json(self.to_json())

    def snapshot_json(self) -> dict[str, Any]:
        """The current snapshot alone (with the actions played so far, which policies read):
        :meth:`from_snapshot` continues from it as if never stopped."""
        snap = self.snapshot
        return {
            "format": FORMAT,
            "snapshot": True,
            "ruleset": self.ruleset.info.name,
            "seed": self.seed,
            "meta": copy.deepcopy(self.meta),
            "state": self._state_codec.dump(snap.state),
            "rng": snap.rng,
            "played": [self._action_codec.dump(a) for a in self._history],
            "state_id": self.state_id,
        }

    @classmethod
    def from_json(
        cls,
        data: Any,
        *,
        content: Sequence[str | Path] | str | Path = (),
        policy: Policy[Any, Any] | None = None,
        scenario: str | Path | ScenarioSource | None = None,
    ) -> Fight[Any, Any]:
        """Replay a chronicle (:meth:`to_json`), checking every recorded field; ``content`` are the
        ``--content`` layers it was played with. The resumed fight's policy is ``policy``, else that of
        ``scenario`` (or of the bundled scenario the chronicle names), so that :meth:`autoplay` goes on
        as if never stopped. Raises :class:`FormatError` (malformed),
        :class:`~kassen.content.content.ContentMismatchError` or :class:`ReplayError` (naming the first
        differing index and field); an unfinished fight replays as unfinished."""
        from kassen.core.chronicle import read_chronicle

        return read_chronicle(data, content=content, policy=policy, scenario=scenario)

    @classmethod
    def from_snapshot(
        cls,
        data: Any,
        *,
        content: Sequence[str | Path] | str | Path = (),
        policy: Policy[Any, Any] | None = None,
        scenario: str | Path | ScenarioSource | None = None,
    ) -> Fight[Any, Any]:
        """A fight continuing from :meth:`snapshot_json` (its state, RNG position, content and the
        actions played before), its policy found as for :meth:`from_json`."""
        from kassen.core.chronicle import read_snapshot

        return read_snapshot(data, content=content, policy=policy, scenario=scenario)
