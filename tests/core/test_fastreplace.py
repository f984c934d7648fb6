"""``kassen.core.fastreplace.replace`` builds what ``dataclasses.replace`` builds, whichever way it copies."""

from __future__ import annotations

import dataclasses

import pytest

from kassen.core.fastreplace import _COPIERS, _PLANS, replace


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
    assert plan is not None and plan[2] is not None and _COPIERS[Record] is plan[2]  # a twin copies it
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


def _records(value: object, seen: set[int], out: list[object]) -> None:
    """Every dataclass record reachable from ``value`` through records, tuples and dicts."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out.append(value)
        for f in dataclasses.fields(value):
            _records(getattr(value, f.name), seen, out)
    elif isinstance(value, tuple | list):
        for item in value:
            _records(item, seen, out)
    elif isinstance(value, dict):
        for item in value.values():
            _records(item, seen, out)


@pytest.mark.parametrize("scenario", ["arena/knockback", "l5r/first-blood", "sengoku/demo"])
def test_every_record_of_a_played_fight_copies_as_dataclasses_replace_copies(scenario: str) -> None:
    # the twin copier against its plain equivalent on the records the rules really copy: each record of
    # every fifth state, unchanged and with each of its __init__ fields given again
    from kassen.core.scenario import open_fight

    fight = open_fight(scenario, seed=5)
    fight.autoplay()
    records: list[object] = []
    seen: set[int] = set()
    for state in fight.states[::5]:
        _records(state, seen, records)
    twins = 0
    for record in records:
        plan = _PLANS.get(type(record)) or (replace(record) and _PLANS.get(type(record)))
        twins += plan is not None and plan[2] is not None
        assert replace(record) == dataclasses.replace(record)  # type: ignore[type-var]
        for f in dataclasses.fields(record):  # type: ignore[arg-type]
            if not f.init:
                continue
            value = getattr(record, f.name)
            made = replace(record, **{f.name: value})
            assert type(made) is type(record) and made == record and made is not record
    assert len(records) >= 5 and twins >= 3


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
