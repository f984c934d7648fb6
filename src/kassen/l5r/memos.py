"""What one content's duel tables remember of their pure readings (see :mod:`kassen.core.memo`).

:attr:`L5Tables.memos <kassen.l5r.tables.L5Tables.memos>` belongs to the tables its readings read, so
every fight of that content shares it and no other content's answer leaks in. Each memo is keyed by the
values its reading reads (a character by its value: it never changes in a duel, and keeps its hash),
written under its own lock (threads share it), and bounded. What the list of legal actions passes on
to the heuristic for the very state it listed is kept per thread (:class:`Listed`).
"""

from __future__ import annotations

__all__ = ["L5Memos", "Listed"]

from fractions import Fraction
from typing import TYPE_CHECKING

from kassen.core.memo import Memo, PerThread

if TYPE_CHECKING:
    from kassen.core.explain import Step
    from kassen.l5r.actions import Attack, Declare
    from kassen.l5r.character import Character
    from kassen.l5r.rolls import AttackPool, RaisePlan
    from kassen.l5r.state import DuelState, Fighter
    from kassen.l5r.wounds import RankState


class Listed:
    """The last list of legal actions a thread made: for which state and attacker (kept, so that their
    identity stays theirs), and the raise plan of each attack it allowed, by the attack's value, with
    the Free Raises it was planned with."""

    __slots__ = ("attacker", "plans", "state")

    def __init__(self) -> None:
        self.state: DuelState | None = None
        self.attacker: Fighter | None = None
        self.plans: dict[Attack, tuple[int, RaisePlan]] = {}


class L5Memos:
    """The readings of the duel tables (``L5Tables``), each by what it reads."""

    __slots__ = (
        "allowed",
        "attack_pools",
        "characters",
        "defense_tns",
        "ladders",
        "listed",
        "plain_acts",
        "plans",
        "ranks",
        "values",
    )

    def __init__(self) -> None:
        #: One shared instance of each character value (:func:`kassen.l5r.turn.shared_characters`): the
        #: memos below are keyed by characters, and a key found by identity is found without comparing
        #: the character's fields (a fight opened, a state read back or guessed, has its own instances).
        self.characters: Memo[Character, Character] = Memo(256)
        #: ``rolls.rank`` by the Wounds, death and the character.
        self.ranks: Memo[tuple[object, ...], RankState] = Memo(256)
        #: ``rolls.defense_tn`` by the character, its statuses active, its Full Defense bonus and a
        #: declared Full Attack.
        self.defense_tns: Memo[tuple[object, ...], tuple[int, tuple[Step, ...]]] = Memo(256)
        #: ``rolls.attack_pool`` by the character, its statuses active and Full Attack.
        self.attack_pools: Memo[tuple[object, ...], AttackPool] = Memo(256)
        #: ``rolls.plan_raises``: the plan, or the refusal's message and rule, by what it reads.
        self.plans: Memo[tuple[object, ...], RaisePlan | tuple[str, str]] = Memo(1024)
        #: ``wounds.ladder`` by Earth.
        self.ladders: Memo[int, tuple[tuple[str, int, int, bool], ...]] = Memo(256)
        #: Declarations by what decides them: ``legal._plain_acts`` by the actor and the sides,
        #: ``legal._allowed_attacks`` by the values listed there.
        self.plain_acts: Memo[tuple[object, ...], tuple[Declare, ...]] = Memo(256)
        self.allowed: Memo[tuple[object, ...], tuple[tuple[Declare, Attack, RaisePlan], ...]] = Memo(1024)
        #: The heuristic's attack values and their floats, by the pools, TN, bonus and risk they read.
        self.values: Memo[tuple[object, ...], tuple[Fraction, float]] = Memo(4096)
        #: The last listing of each thread (:class:`Listed`).
        self.listed: PerThread[Listed] = PerThread(Listed)
