"""The one random source of kassen: a small, seedable, serializable generator.

Rules never import :mod:`random`. Every draw goes through an :class:`Rng` that the caller injects, and the
generator's whole position is one integer (:attr:`Rng.state`), so a battle state can store it, a replay
can restore it and undo can rewind it.

The generator is SplitMix64 (Steele, Lea & Flood 2014): 64 bits of state, passes BigCrush, and is cheap
in pure Python. Integers in a range are drawn without modulo bias by rejection.
"""

from __future__ import annotations

__all__ = ["DieSource", "Rng", "ScriptedDice", "fresh_seed"]

from kassen.core.errors import S_, KassenError, TypedDiceError, check_whole

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `kassen roll` starts fast
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Protocol

    class DieSource(Protocol):
        """Anything that rolls one die: an :class:`Rng`, or :class:`ScriptedDice` for faces given in
        advance."""

        def die(self, sides: int) -> int: ...


_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_SPAN = 1 << 64


class Rng:
    """A seedable random generator whose state is a single 64-bit integer.

    >>> a, b = Rng(42), Rng(42)
    >>> [a.die(10) for _ in range(5)] == [b.die(10) for _ in range(5)]
    True
    >>> c = Rng.from_state(a.state)
    >>> a.die(6) == c.die(6)
    True
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int = 0) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise KassenError(S_("a seed is an integer, not {name}", name=type(seed).__name__))
        if not 0 <= seed <= _MASK:  # one seed rule everywhere: refused, never wrapped
            shown = seed if abs(seed) < 10**24 else "…"
            raise KassenError(S_("a seed is between 0 and 2**64 - 1, not {shown}", shown=shown))
        # Hash the seed once so that nearby seeds (0, 1, 2...) start far apart.
        self._state = _mix((seed * _GOLDEN) & _MASK)

    @classmethod
    def from_state(cls, state: int) -> Rng:
        """A generator positioned exactly at ``state`` (as read from :attr:`state`: 0 .. 2**64 - 1)."""
        if state.__class__ is not int or not 0 <= state <= _MASK:
            raise KassenError(
                S_("an RNG state is an integer from 0 to 2**64 - 1, not {state}", state=repr(state)[:40])
            )
        rng = cls.__new__(cls)
        rng._state = state
        return rng

    @property
    def state(self) -> int:
        """The generator's whole position; ``Rng.from_state(rng.state)`` continues identically."""
        return self._state

    def copy(self) -> Rng:
        return Rng.from_state(self._state)

    def next_u64(self) -> int:
        """The next raw 64-bit output."""
        self._state = s = (self._state + _GOLDEN) & _MASK
        return _mix(s)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` with no modulo bias; ``n`` a whole number from 1 to 2**64."""
        # type() rather than isinstance: a bool or a float (5.5, NaN) is refused, cheaply, on the hot path
        if type(n) is not int or not 0 < n <= _SPAN:
            # above 2**64 one draw cannot cover the range and the loop below would never end
            raise KassenError(S_("a die has a whole number of faces from 1 to 2**64, not {n}", n=repr(n)))
        # Reject the top sliver of the 64-bit range that would over-weight small remainders.
        limit = _SPAN - _SPAN % n
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def die(self, sides: int) -> int:
        """One roll of a fair die with faces ``1..sides`` (refused unless a whole number from 1 up).

        >>> Rng(1).die(5.5)
        Traceback (most recent call last):
        ...
        kassen.core.errors.KassenError: a die has a whole number of faces from 1 to 2**64, not 5.5
        """
        # The same draws as ``below(sides) + 1``, inlined: this is the hottest function of every battle.
        if type(sides) is not int or not 0 < sides <= _SPAN:
            raise KassenError(
                S_("a die has a whole number of faces from 1 to 2**64, not {sides}", sides=repr(sides))
            )
        limit = _SPAN - _SPAN % sides
        state = self._state
        while True:
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                self._state = state
                return z % sides + 1

    def advance(self, draws: int) -> Rng:
        """Skip ``draws`` raw outputs (cheap: SplitMix64's state is a counter). Returns ``self``."""
        check_whole(draws, "draws", 0)
        self._state = (self._state + _GOLDEN * draws) & _MASK
        return self

    def __repr__(self) -> str:
        return f"Rng.from_state({self._state:#x})"


def fresh_seed() -> int:
    """64 random bits from the operating system (:mod:`secrets`): the seed of a fight nobody chose a
    seed for at a table. A scenario's own ``seed:`` is public — anyone with the file has it, and with it
    every roll to come — so a table never plays on it unless asked; the seed used is recorded in the
    chronicle, so the fight still replays.

    >>> 0 <= fresh_seed() < 2**64
    True
    """
    import secrets  # imported when a seed is drawn: `kassen roll` never needs it

    return secrets.randbits(64)


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def __getattr__(name: str) -> object:
    # DieSource is a typing.Protocol: built on first use, so that importing the Rng imports no typing.
    if name != "DieSource":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from typing import Protocol

    class DieSource(Protocol):
        """Anything that rolls one die: an :class:`Rng`, or :class:`ScriptedDice` for faces given in
        advance."""

        def die(self, sides: int) -> int: ...

    DieSource.__qualname__ = "DieSource"
    globals()["DieSource"] = DieSource
    return DieSource


class ScriptedDice:
    """Faces given in advance: dice a GM rolled at the table and types in, or a test forcing a roll.

    Running out of faces, or a face the die does not have, is a
    :class:`~kassen.core.errors.TypedDiceError` (``hint`` says what the faces were for).

    >>> d = ScriptedDice([10, 10, 57])
    >>> d.die(10), d.die(10), d.die(100)
    (10, 10, 57)
    """

    __slots__ = ("_faces", "_hint", "_next")

    def __init__(self, faces: Iterable[int], *, hint: str = "") -> None:
        self._faces = tuple(faces)
        self._hint = hint
        self._next = 0

    def die(self, sides: int) -> int:
        if self._next >= len(self._faces):
            given = ", ".join(map(str, self._faces)) or "none"
            hint = f"; {self._hint}" if self._hint else ""
            raise TypedDiceError(
                S_(
                    "a d{sides} is needed but no scripted face is left (given: {given}){hint}",
                    sides=sides,
                    given=given,
                    hint=hint,
                )
            )
        face = self._faces[self._next]
        if not 1 <= face <= sides:
            raise TypedDiceError(
                S_("scripted face {face} is not a face of a d{sides}", face=face, sides=sides)
            )
        self._next += 1
        return face

    @property
    def remaining(self) -> tuple[int, ...]:
        """The faces not used yet."""
        return self._faces[self._next :]
