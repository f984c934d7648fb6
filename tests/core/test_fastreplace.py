"""``kassen.core.fastreplace.replace`` builds what ``dataclasses.replace`` builds, whichever way it copies."""

from __future__ import annotations

import dataclasses

import pytest

from kassen.core.fastreplace import _PLANS, replace


@dataclasses.dataclass(frozen=True, slots=True)
class Record:
    a: int
    b: str = "x"
    items: tuple[int, ...] = ()
    # a reading the record keeps of itself: not part of the value, started afresh by a copy
    _cached: int = dataclasses.field(default=0, init=False, repr=False, compare=False)


@dataclasses.dataclass(frozen=True, slots=True)
class Base:
    a: int


@dataclasses.dataclass(frozen=True, slots=True)
class Derived(Base):  # two slotted classes: copied the plain way
    b: int = 0


@dataclasses.dataclass(frozen=True)
class Unslotted:
    a: int
    b: int = 2


def test_the_twin_copy_is_the_record_replace_builds() -> None:
    r = Record(1, "y", (1, 2))
    object.__setattr__(r, "_cached", 99)
    copy = replace(r, a=5)
    assert copy == dataclasses.replace(r, a=5) and type(copy) is Record
    assert copy._cached == 0  # started afresh, as replace's __init__ leaves it
    assert replace(r) == r and replace(r) is not r
    plan = _PLANS[Record]
    assert plan is not None and plan[2] is not None  # copied by the twin, not by calling the class
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.a = 3  # type: ignore[misc]  # still frozen
    assert hash(copy) == hash(Record(5, "y", (1, 2)))


def test_changes_replace_refuses_are_refused_the_same_way() -> None:
    r = Record(1)
    with pytest.raises(TypeError):
        replace(r, nope=1)
    with pytest.raises(ValueError):
        replace(r, _cached=3)  # init=False: replace's own error
    assert r == Record(1)


def test_other_dataclasses_are_copied_the_plain_way() -> None:
    d = Derived(1, 2)
    assert replace(d, b=3) == Derived(1, 3) and type(replace(d, b=3)) is Derived
    u = Unslotted(1)
    assert replace(u, b=5) == Unslotted(1, 5)
    with pytest.raises(TypeError):
        replace(object())


def test_a_replacer_gives_what_replace_gives_for_its_fields() -> None:
    from kassen.arena.bout.state import BoutState
    from kassen.core.fastreplace import replacer
    from kassen.core.scenario import open_fight

    fight = open_fight("arena/knockback", seed=3)
    fight.autoplay()
    for state in fight.states:
        for name, value in (("agenda", ()), ("slot", state.slot + 1), ("fighters", state.fighters[::-1])):
            made = replacer(BoutState, name)(state, value)
            assert type(made) is BoutState and made == replace(state, **{name: value})
            assert getattr(made, name) == value and made is not state
    two = replacer(BoutState, "slot", "next_hit")(fight.state, 7, 9)
    assert (two.slot, two.next_hit) == (7, 9) and two == replace(fight.state, slot=7, next_hit=9)
    for bad in ((), ("slot", "slot"), ("nonesuch",)):
        with pytest.raises(TypeError, match="distinct __init__ fields"):
            replacer(BoutState, *bad)


def test_a_keeper_copies_the_readings_replace_starts_afresh() -> None:
    from kassen.core.fastreplace import keeper

    r = Record(1, "y", (1, 2))
    object.__setattr__(r, "_cached", 99)
    copy = keeper(Record)(r, {"a": 5})
    assert type(copy) is Record and copy == replace(r, a=5) and copy is not r
    assert copy._cached == 99  # kept, unlike replace
    fresh = keeper(Record)(r, {"b": "z", "_cached": 0})  # a reading given afresh by the caller
    assert fresh == Record(1, "z", (1, 2)) and fresh._cached == 0
    named = keeper(Record, "items", "_cached")(r, (3,), 7)
    assert named == Record(1, "y", (3,)) and named._cached == 7 and r == Record(1, "y", (1, 2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.a = 3  # type: ignore[misc]  # still frozen
    for bad in (("a", "a"), ("nonesuch",)):
        with pytest.raises(TypeError, match="distinct fields"):
            keeper(Record, *bad)
    with pytest.raises(TypeError, match="not copied with a twin"):
        keeper(Derived)


def test_the_battle_state_keeps_only_the_readings_a_change_leaves_true() -> None:
    from kassen.core.scenario import open_fight

    fight = open_fight("sengoku/demo", seed=2)
    fight.autoplay()
    for state in fight.states[::5]:
        if not state.units:
            continue
        first = state.units[0]
        state.unit(first.id), state.in_zone_all(first.zone or ""), state.neighbours(first.zone or "")
        same = state.changed(count=state.count + 1)
        assert same._by_id is state._by_id and same._zone_map is state._zone_map  # kept
        assert same == replace(state, count=state.count + 1)
        moved = state.with_unit(replace(first, zone=None, wounds=0))
        assert moved.unit(first.id).zone is None and moved._placed is None  # started afresh
        assert moved.in_zone_all(first.zone or "") == tuple(
            u for u in moved.units if u.zone == first.zone and first.zone is not None
        )
        assert moved == replace(state, units=(moved.unit(first.id), *state.units[1:]))
        assert state.unit(first.id) is first  # the state it came from is as it was
        with pytest.raises(TypeError):
            state.changed(nonesuch=1)
