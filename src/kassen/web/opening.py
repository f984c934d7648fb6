"""The fights of one store as they are opened and found (:class:`~kassen.web.tables.Tables` adds the
changes to them): the cache of live fights and the per-fight locks, who a token names
(:mod:`kassen.web.callers`), a fight opened at the start of a scenario — a bundled name or posted YAML,
never a path — or from an imported chronicle (replayed and checked through the core), stored with its
GM and join tokens, its links and their rotation, and a fight loaded current with the store (rebuilt by
replaying its rows when the cache is behind it, :mod:`kassen.web.replay`) and read under its lock.
"""

from __future__ import annotations

__all__ = ["Created", "Opening"]

import contextlib
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy.engine import Connection

from kassen.core.errors import KassenError
from kassen.core.fight import Fight
from kassen.core.rng import fresh_seed
from kassen.core.scenario import ScenarioSource, open_fight, read_scenario
from kassen.i18n import S_
from kassen.web.autoplay import Autoplayer, table_policies
from kassen.web.callers import Caller, gm_only, lookup_caller
from kassen.web.catalog import POSTED, Catalog, bundled_source
from kassen.web.problems import Problem, refused
from kassen.web.replay import Live, pending_json, rebuild
from kassen.web.rows import issue, stored_size
from kassen.web.store import ActionRow, FightRow, NewAction, Store, TokenRow, now
from kassen.web.streams import Broadcaster
from kassen.web.tokens import join_token, new_fight_id, token_hash
from kassen.web.views import Views


@dataclass(frozen=True, slots=True)
class Created:
    """A new fight: its id and tokens (the only time the GM token is ever sent)."""

    id: str
    gm_token: str
    join: dict[str, str]
    state_id: str
    expires_at: datetime | None = None


class Opening(Views):
    """The fights of one store as they are opened and read (see the module notes); :attr:`autoplayer`
    is set by :class:`~kassen.web.tables.Tables`, which plays the server's sides."""

    autoplayer: Autoplayer

    def __init__(
        self,
        store: Store,
        *,
        content: Sequence[str] = (),
        cached: int = 256,
        streams: Broadcaster | None = None,
    ) -> None:
        self.store = store
        self.content = tuple(content)
        self.catalog = Catalog()
        self.streams = streams or Broadcaster(64, 1024)
        self._cached = max(1, cached)
        self._cache: OrderedDict[str, Live] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._stripes = [threading.RLock() for _ in range(64)]

    # -- locks and the cache --------------------------------------------------------------------------
    def _lock(self, fight_id: str) -> threading.RLock:
        digest = hashlib.blake2b(fight_id.encode(), digest_size=2).digest()
        return self._stripes[int.from_bytes(digest, "big") % len(self._stripes)]

    def _remember(self, live: Live) -> None:
        with self._cache_lock:
            self._cache[live.row.id] = live
            self._cache.move_to_end(live.row.id)
            while len(self._cache) > self._cached:
                self._cache.popitem(last=False)

    def forget(self, fight_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(fight_id, None)

    def _cached_live(self, fight_id: str) -> Live | None:
        with self._cache_lock:
            live = self._cache.get(fight_id)
            if live is not None:
                self._cache.move_to_end(fight_id)
            return live

    # -- callers --------------------------------------------------------------------------------------
    def caller(self, fight_id: str, token: str | None) -> Caller:
        """The caller a bearer token names (see :func:`~kassen.web.callers.lookup_caller`)."""
        return lookup_caller(self.store, fight_id, token)

    # -- opening fights -------------------------------------------------------------------------------
    def scenario(self, text: str) -> tuple[ScenarioSource, str | None]:
        """The scenario a client posted: a bundled name (``demo``, ``sengoku/demo``), else YAML text.
        Never a path: the server reads no file a client names."""
        if "\n" not in text and len(text) <= 200:
            ident = self.catalog.find(text)
            if ident is not None:
                return bundled_source(ident), ident
            if ":" not in text:
                known = ", ".join(b.ident for b in self.catalog.items())
                raise Problem(
                    422,
                    "content",
                    S_(
                        "no bundled scenario {name} (bundled: {known}); a scenario of your own "
                        "is posted as its YAML text",
                        name=repr(text.strip()[:60]),
                        known=known,
                    ),
                    errors=[{"file": POSTED, "field": "scenario", "line": None, "message": "unknown name"}],
                )
        try:
            return read_scenario(POSTED, text=text), None
        except KassenError as exc:
            raise refused(exc) from None

    def create(
        self,
        scenario: str,
        *,
        seed: int | None,
        dice: Literal["auto", "table"],
        charge: Callable[[int], None] | None = None,
        expires_at: datetime | None = None,
        policies: dict[str, str] | None = None,
    ) -> Created:
        """A new fight at the start of ``scenario`` (see :meth:`scenario`), on ``seed`` or, when none
        is given, 64 random bits: never the scenario's own seed, which anyone with the file has.
        ``charge`` is told the bytes it will take in the store before they are written (and may refuse
        them); its tokens expire at ``expires_at`` (None: never); ``policies`` names the sides the
        server plays (:mod:`kassen.web.autoplay`)."""
        named = table_policies(policies)
        src, ident = self.scenario(scenario)
        try:
            used = seed if seed is not None else fresh_seed()
            fight = open_fight(src, seed=used, content=list(self.content), dice=dice, policies=named)
        except KassenError as exc:
            raise refused(exc) from None
        row = self._row(
            fight,
            scenario_name=ident,
            scenario_text=None if ident is not None else scenario,
            chronicle=None,
        )
        return self._insert(row, fight, [], src, charge, expires_at)

    def import_chronicle(
        self,
        data: Any,
        *,
        dice: Literal["auto", "table"],
        charge: Callable[[int], None] | None = None,
        expires_at: datetime | None = None,
    ) -> Created:
        """A new fight from a chronicle (:meth:`Fight.to_json`), replayed and checked first (``charge``:
        as for :meth:`create`)."""
        try:
            fight = Fight.from_json(data, content=list(self.content))
            fight.use_policies(table_policies(fight.policy_specs()))
        except KassenError as exc:
            raise refused(exc) from None
        fight.dice_mode = dice
        header = {k: v for k, v in data.items() if k not in ("log", "result")}
        stack = [
            NewAction(
                "action",
                item["state_id"],
                "import",
                item["action"],
                item.get("dice"),
                item.get("by") == "gm",
            )
            for item in data["log"]
        ]
        row = self._row(fight, scenario_name=None, scenario_text=None, chronicle=header)
        return self._insert(row, fight, stack, None, charge, expires_at)

    def _row(
        self,
        fight: Fight[Any, Any],
        *,
        scenario_name: str | None,
        scenario_text: str | None,
        chronicle: dict[str, Any] | None,
    ) -> FightRow:
        at = now()
        result = fight.result
        return FightRow(
            id=new_fight_id(),
            created_at=at,
            updated_at=at,
            ruleset=fight.ruleset.info.name,
            title=str(fight.meta.get("scenario", "")) or fight.ruleset.info.name,
            source=str(fight.meta.get("source", "")),
            scenario_name=scenario_name,
            scenario_text=scenario_text,
            chronicle=chronicle,
            content=self.content,
            seed=fight.seed,
            dice=fight.dice_mode,
            initial_state_id=fight.state_ids()[0],
            head_seq=len(fight.entries),
            state_id=fight.state_id,
            actions=len(fight.entries),
            over=result is not None,
            result=None if result is None else result.to_json(),
            pending=None,
            policies=fight.policy_specs() or None,
        )

    def _insert(
        self,
        row: FightRow,
        fight: Fight[Any, Any],
        new: Sequence[NewAction],
        scenario: ScenarioSource | None,
        charge: Callable[[int], None] | None = None,
        expires_at: datetime | None = None,
    ) -> Created:
        if charge is not None:
            charge(stored_size(row, new))
        gm, join, token_rows = issue(row.id, fight.sides(), expires_at)
        with self.store.writing() as conn:
            self.store.insert_fight(conn, row, token_rows)
            self.store.append(conn, row.id, 1, new)
        stack = [
            ActionRow(
                i + 1,
                a.kind,
                a.action,
                None if a.dice is None else tuple(a.dice),
                a.by_gm,
                a.author,
                a.state_id,
                row.created_at,
            )
            for i, a in enumerate(new)
        ]
        self._remember(Live(row, fight, row.head_seq, stack, scenario))
        self.autoplayer.kick(row.id)
        return Created(row.id, gm, join, row.state_id, expires_at)

    def links(self, fight_id: str, caller: Caller) -> tuple[dict[str, str], dict[str, datetime | None]]:
        """Each side's join token (derived from the GM token the caller holds), and when each token
        expires (``gm`` and each side)."""
        gm_only(caller, S_("the join links"))
        with self._lock(fight_id), self.store.reading() as conn:
            live = self._load(conn, fight_id)
            held = self.store.tokens_of(conn, fight_id)
        generation = {t.side: t.generation for t in held if t.role == "side"}
        join = {
            side: join_token(caller.token, fight_id, side, generation.get(side, 0))
            for side in live.fight.sides()
        }
        expires = {t.side or "gm": t.expires_at for t in held if t.role == "gm" or t.side in join}
        own = next((t for t in held if t.hash == token_hash(caller.token)), None)
        expires["gm"] = own.expires_at if own is not None else None
        return join, expires

    def rotate(
        self, fight_id: str, caller: Caller, which: str, expires_at: datetime | None
    ) -> tuple[str | None, dict[str, str]]:
        """Replace tokens (the GM's): ``all`` — a new GM token and, derived from it, every side's (the
        old ones open nothing any more); or one side's link. Returns the new GM token (None when it is
        unchanged) and the tokens that are new. Streams opened with a replaced token are ended."""
        gm_only(caller, S_("replacing tokens"))
        with self._lock(fight_id), self.store.writing() as conn:
            live = self._load(conn, fight_id, lock=True)
            sides = live.fight.sides()
            held = self.store.tokens_of(conn, fight_id)
            if which == "all":
                gm, join, rows = issue(fight_id, sides, expires_at)
                gone = [t.hash for t in held]
            elif which in sides:
                old = [t for t in held if t.role == "side" and t.side == which]
                generation = max((t.generation for t in old), default=0) + 1
                token = join_token(caller.token, fight_id, which, generation)
                gm, join = None, {which: token}
                rows = [TokenRow(fight_id, "side", which, expires_at, generation, token_hash(token))]
                gone = [t.hash for t in old]
            else:
                known = ", ".join(["all", *sides])
                raise Problem(
                    422,
                    "request",
                    S_("rotate: one of {known}, not {given}", known=known, given=repr(which[:60])),
                )
            self.store.drop_tokens(conn, fight_id, gone)
            self.store.add_tokens(conn, fight_id, rows)
        self.streams.revoke(fight_id, gone)
        return gm, join

    def _load(self, conn: Connection, fight_id: str, *, lock: bool = False) -> Live:
        """The live fight, current with the store (rebuilt when the cache is behind it)."""
        row = self.store.fight(conn, fight_id, lock=lock)
        if row is None:
            raise Problem(404, "no_fight", S_("no such fight"))
        live = self._cached_live(fight_id)
        if (
            live is None
            or live.seq != row.head_seq
            or live.fight.state_id != row.state_id
            or pending_json(live.fight) != row.pending
        ):
            live = rebuild(self.store, conn, row)
            self._remember(live)
        live.row = row
        return live

    # -- reading --------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def reading(self, fight_id: str) -> Iterator[Live]:
        """The live fight, held under its lock for the block (nothing may change it meanwhile)."""
        with self._lock(fight_id):
            with self.store.reading() as conn:
                live = self._load(conn, fight_id)
            yield live
