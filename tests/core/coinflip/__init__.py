"""A ruleset that lives only in the tests: a coin-flip duel on the core's interface, nothing else.

Two players take turns calling a coin (a d2 from the core's dice: 1 heads, 2 tails); a wrong call
costs the caller ``stake`` tokens, a right one costs the other player; who runs out first loses. It
proves that a fourth ruleset costs no edit of the core: it registers itself, and the core's
conformance test runs it like the bundled three.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Literal

from pydantic import Field, ValidationError

from kassen.content import StrictModel
from kassen.content.content import Content, Layer, bundled_layer
from kassen.content.loader import tables_content
from kassen.content.yamlio import validation_issues
from kassen.core.accounting import Accounting, Change, by_keys, field_changes
from kassen.core.engine import GM, Actor, Outcome, Turn
from kassen.core.errors import ContentError, IllegalActionError
from kassen.core.fight import state_codec
from kassen.core.policy import ByActor, FirstLegal, Policy, RandomPolicy, Scripted
from kassen.core.report import Line, Narration
from kassen.core.rng import DieSource
from kassen.core.ruleset import RulesetInfo, Setup
from kassen.core.scenario import ScenarioSource
from kassen.core.summary import ActionUse, Attempt, FightSummary, PlayedFight, UnitSummary
from kassen.core.view import Visibility, VisibilityModel

Call = Literal["heads", "tails"]


# -- content ------------------------------------------------------------------------------------------
class Coin(StrictModel):
    faces: int = Field(ge=2, le=100)
    stake: int = Field(ge=1, le=10)


class Tables(StrictModel):
    coin: Coin
    visibility: VisibilityModel


@lru_cache(maxsize=1)
def _bundled() -> Layer:
    return bundled_layer("coinflip.data")


# -- state and actions ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    side: str
    tokens: int


@dataclass(frozen=True, slots=True)
class CoinState:
    title: str
    players: tuple[Player, ...]
    started: bool = False
    turn: int = 0
    settle: bool = False
    winner: str | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Begin:
    """The GM starts the duel."""


@dataclass(frozen=True, slots=True)
class Flip:
    player: str
    call: Call


@dataclass(frozen=True, slots=True)
class Concede:
    player: str


Action = Begin | Flip | Concede


# -- scenario -------------------------------------------------------------------------------------------
class PlayerModel(StrictModel):
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    name: str
    side: str
    policy: Literal["heuristic", "random", "first-legal", "scripted"] = "heuristic"
    script: list[Call] = Field(default_factory=list)


class ScenarioModel(StrictModel):
    name: str
    seed: int | None = Field(default=None, ge=0)
    tokens: int = Field(default=3, ge=1, le=100)
    players: list[PlayerModel] = Field(min_length=2, max_length=2)


# -- the ruleset ----------------------------------------------------------------------------------------
class CoinFlip:
    info = RulesetInfo(
        name="coinflip",
        title="Coin-flip duel (test only)",
        ledger="CF",
        state_type=CoinState,
        action_type=Action,
        scenarios=("coinflip", "scenarios"),
        rule_texts=("coinflip", "rules.yaml"),
        scenario_model=ScenarioModel,
    )

    def __init__(self) -> None:
        self.accounting = Accounting(
            self._changes,
            {
                "started": frozenset({"begin"}),
                "turn": frozenset({"turn"}),
                "winner": frozenset({"over", "concede"}),
                "tokens": frozenset({"flip"}),
            },
            by_keys(("player", "loser")),
        )
        self.renderers = {
            "begin": lambda ctx, d: Line("The duel begins.", heading=True),
            "flip": _render_flip,
            "turn": lambda ctx, d: Line(f"{ctx.name(d['player'])} to call.", indent=1),
            "over": lambda ctx, d: f"{ctx.name(d['winner'])} wins: {d['reason']}",
            "concede": lambda ctx, d: f"{ctx.name(d['player'])} concedes.",
        }

    # content
    def load_content(self, layers: Sequence[Layer]) -> Content[Tables]:
        return tables_content("coinflip", Tables, _bundled(), layers, ("coin", "visibility"))

    def setup(self, scenario: ScenarioSource, content: Content[Tables]) -> Setup[CoinState, Action]:
        try:
            model = ScenarioModel.model_validate(dict(scenario.data))
        except ValidationError as exc:
            raise ContentError(validation_issues(exc, scenario.file, scenario.node)) from None
        players = tuple(Player(p.id, p.name, p.side, model.tokens) for p in model.players)
        state = CoinState(model.name, players)
        scripts = {p.id: [Flip(p.id, c) for c in p.script] for p in model.players if p.policy == "scripted"}

        def policy() -> Policy[CoinState, Action]:
            heuristic = self.heuristic(content.tables)
            per: dict[str, Policy[CoinState, Action]] = {}
            for p in model.players:
                if p.policy == "random":
                    per[p.id] = RandomPolicy()
                elif p.policy == "first-legal":
                    per[p.id] = FirstLegal()
            return Scripted(scripts, ByActor(per, heuristic))

        return Setup(state, model.name, model.seed, 1000, policy)

    # the game
    def to_move(self, state: CoinState) -> Actor | None:
        if state.winner is not None:
            return None
        if not state.started:
            return GM
        p = state.players[state.turn]
        return Actor("unit", p.id, p.side)

    def legal_actions(self, state: CoinState, tables: Tables) -> Sequence[Action]:
        actor = self.to_move(state)
        if actor is None:
            return []
        if actor.kind == "gm":
            return [Begin()]
        return [Flip(actor.id, "heads"), Flip(actor.id, "tails"), Concede(actor.id)]

    def start(self, state: CoinState, dice: DieSource, tables: Tables) -> Turn[CoinState]:
        return Turn(state, dice, tables)

    def resolve(self, turn: Turn[CoinState], action: Action) -> None:
        s = turn.state
        if s.winner is not None:
            raise IllegalActionError("the duel is over", rule="CF.END.1")
        if isinstance(action, Begin):
            if s.started:
                raise IllegalActionError("the duel has begun", rule="CF.TURN.1")
            turn.state = replace(s, started=True)
            turn.log("begin", "CF.TURN.1", automatic=False)
            return
        if not s.started:
            raise IllegalActionError("the GM begins the duel first", rule="CF.TURN.1")
        mover = s.players[s.turn]
        if not isinstance(action, Flip | Concede):
            raise IllegalActionError(f"not a coin-flip action: {action!r}", rule="CF.TURN.1")
        if action.player != mover.id:
            raise IllegalActionError(f"{mover.name} calls now, not {action.player}", rule="CF.TURN.1")
        if isinstance(action, Concede):
            other = s.players[1 - s.turn]
            turn.log("concede", "CF.END.1", automatic=False, player=mover.id)
            turn.state = replace(s, winner=other.side, reason=f"{mover.name} conceded")
            return
        face = turn.dice.die(turn.tables.coin.faces)
        shown: Call = "heads" if face == 1 else "tails"
        loser = s.turn if shown != action.call else 1 - s.turn
        stake = turn.tables.coin.stake
        players = list(s.players)
        players[loser] = replace(players[loser], tokens=players[loser].tokens - stake)
        turn.log(
            "flip",
            "CF.FLIP.1",
            automatic=False,
            player=mover.id,
            call=action.call,
            face=face,
            shown=shown,
            loser=players[loser].id,
            tokens=players[loser].tokens,
        )
        turn.state = replace(s, players=tuple(players), settle=True)

    def follow_up(self, turn: Turn[CoinState]) -> bool:
        s = turn.state
        if s.winner is not None or not s.settle:
            return False
        out = next((p for p in s.players if p.tokens <= 0), None)
        if out is not None:
            winner = next(p for p in s.players if p.id != out.id)
            reason = f"{out.name} has no token left"
            turn.state = replace(s, winner=winner.side, reason=reason, settle=False)
            turn.log("over", "CF.END.1", winner=winner.side, reason=reason)
            return True
        nxt = 1 - s.turn
        turn.state = replace(s, turn=nxt, settle=False)
        turn.log("turn", "CF.TURN.1", player=s.players[nxt].id)
        return True

    def result(self, state: CoinState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(state.winner, state.reason)

    def heuristic(self, tables: Tables) -> Policy[CoinState, Action]:
        return _Heads()

    def _changes(self, before: CoinState, after: CoinState) -> Iterator[Change]:
        # ``settle`` is bookkeeping: it says a flip waits for its follow-up, which nobody sees.
        yield from field_changes(None, before, after, ("started", "turn", "winner"))
        for old, new in zip(before.players, after.players, strict=True):
            yield from field_changes(old.id, old, new, ("tokens",))

    def units(self, state: CoinState) -> Mapping[str, str]:
        return {p.id: p.side for p in state.players}

    def visibility(self, tables: Tables) -> Visibility:
        return Visibility.of(tables.visibility)

    # the search's hooks: a side guesses the other's tokens are as many as its own (all it can know)
    def value(self, state: CoinState, tables: Tables) -> Mapping[str, float]:
        total = sum(max(0, p.tokens) for p in state.players) or 1
        return {p.side: max(0, p.tokens) / total for p in state.players}

    def determinize(
        self, seen: dict[str, Any], events: Sequence[Mapping[str, Any]], tables: Tables, side: str, rng: Any
    ) -> CoinState:
        mine = next((p["tokens"] for p in seen["players"] if p["side"] == side), 1)
        for p in seen["players"]:
            if p["tokens"] is None:
                p["tokens"] = mine
        state: CoinState = state_codec(CoinState).load(seen, "the side's view")
        return state

    def fight_summary(self, fight: PlayedFight) -> FightSummary:
        """The duel's summary: a player stands while it has tokens; each call is a use and an attack on
        the coin that succeeds when the coin shows it; tokens lost are the other's "Wounds" dealt."""
        state: CoinState = fight.state
        lost = {p.id: 0 for p in state.players}
        uses, attempts = [], []
        for entry in fight.entries:
            action = entry.action
            if isinstance(action, Flip):
                uses.append(ActionUse(action.player, f"call-{action.call}"))
            elif isinstance(action, Concede):
                uses.append(ActionUse(action.player, "concede", "special"))
            for event in entry.events:
                if event.kind == "flip":
                    d = event.data
                    attempts.append(Attempt(d["player"], f"call-{d['call']}", d["loser"] != d["player"]))
                    lost[d["loser"]] += state_stake(fight)
        units = tuple(
            UnitSummary(
                p.id,
                p.side,
                state.winner == p.side,
                lost[p.id],
                sum(n for q, n in lost.items() if q != p.id),
            )
            for p in state.players
        )
        calls = sum(a.action.startswith("call") for a in uses)
        return FightSummary(calls, units, tuple(uses), tuple(attempts))

    def names(self, state: CoinState) -> Mapping[str, str]:
        out = {p.id: p.name for p in state.players}
        out.update({p.side: p.side.capitalize() for p in state.players})
        return out


def state_stake(fight: PlayedFight) -> int:
    stake: int = fight.tables.coin.stake
    return stake


class _Heads:
    def __call__(self, decision: Any) -> Action:
        for a in decision.legal:
            if isinstance(a, Flip) and a.call == "heads":
                return a
        return decision.legal[0]  # type: ignore[no-any-return]


def _render_flip(ctx: Narration, d: Mapping[str, Any]) -> Line:
    return Line(
        f"{ctx.name(d['player'])} calls {d['call']}: the coin shows {d['shown']}; "
        f"{ctx.name(d['loser'])} is down to {'?' if d['tokens'] is None else d['tokens']}",
        ctx.rule,
        indent=1,
    )


RULESET = CoinFlip()
