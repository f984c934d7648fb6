"""The content remembers a unit's listing by everything it reads (kassen.sengoku.battle.candidates.
listing_key) and the plan of a maneuver by everything its plan reads but the target (Planner's template
key): what they give back must be what a fresh listing gives, on fresh content, for every unit of many
battles, and no field left out of the key may change a listing."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from kassen.core.scenario import ScenarioSource, open_fight
from kassen.sengoku.battle.actions import Breath
from kassen.sengoku.battle.candidates import (
    Skeleton,
    _grouped,
    candidate_breaths,
    has_breath,
    listing_key,
)
from kassen.sengoku.battle.copies import copied_units
from kassen.sengoku.battle.plan import AttackGroup, Planner
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, Reservation, Tally, Unit, Use


def _source(name: str) -> str | ScenarioSource:
    base, _, k = name.partition("*")
    return copied_units(base, int(k)) if k else base


def _states(name: str, seeds: range) -> Iterator[tuple[BattleRules, BattleState]]:
    """Every state of several battles of one scenario, all on one content (its memos warm by the end)."""
    for seed in seeds:
        fight = open_fight(_source(name), seed=seed)
        fight.autoplay()
        for state in fight.states:
            yield fight.tables, state


def _units_at_count(name: str, seeds: range) -> Iterator[tuple[BattleRules, BattleState, Unit]]:
    """Every unit on the battlefield in every count-phase state of :func:`_states`."""
    for rules, state in _states(name, seeds):
        if state.phase.value == "count":
            for unit in state.units:
                if unit.on_battlefield:
                    yield rules, state, unit


def _fresh(rules: BattleRules, state: BattleState, unit: Unit) -> list[tuple[Breath, int]]:
    """The listing worked out from nothing: new content tables, a new planner, no memo."""
    clean = BattleRules(rules.catalog)
    return list(Planner(clean, state, unit).entries(list(_grouped(clean, state, unit))).flat())


@pytest.mark.parametrize(
    ("name", "seeds"), [("demo", range(3)), ("burning-temple", range(2)), ("count-example", range(2))]
)
def test_a_remembered_listing_is_a_fresh_one(name: str, seeds: range) -> None:
    # rule: SG.BRT.1  rule: SG.CNT.5  rule: SG.CNT.6
    compared = reused = 0
    for rules, state, unit in _units_at_count(name, seeds):
        reused += listing_key(rules, state, Planner(rules, state, unit)) in rules.listings
        fresh = _fresh(rules, state, unit)
        wanted = [b for b, spent in fresh if spent <= unit.energy]
        assert candidate_breaths(rules, state, unit) == wanted, (unit.id, state.round, state.count)
        singles = any(len(b.uses) == 1 for b in wanted)
        assert has_breath(rules, state, unit) == singles
        compared += 1
    assert compared > 50 and reused > compared // 4  # many listings found remembered, each one checked


@pytest.mark.parametrize(
    ("name", "seeds"), [("demo", range(3)), ("burning-temple", range(2)), ("demo*3", range(1))]
)
def test_remembered_skeletons_are_fresh_ones(name: str, seeds: range) -> None:
    # rule: SG.BRT.1 — the candidates of a unit before the enemies are read are remembered by what they
    # read (candidates._skeleton_key: not its id, its uses this round, Energy or prices, nor where the
    # enemies stand): found again in many states, by copies of the unit too, they are always the ones a
    # fresh content generates there, in the same order, and filled in they are the fresh candidates; what
    # each of their items reads is remembered with them
    from kassen.sengoku.battle.candidates import _filled, _items_read, _skeleton, _skeleton_key, _skeleton_of

    compared = found = across = 0
    made_by: dict[tuple[object, ...], str] = {}
    for rules, state, unit in _units_at_count(name, seeds):
        if unit.zone is None:
            continue
        key = _skeleton_key(rules, state, unit)
        remembered = key in rules.skeletons
        got, reads = _skeleton_of(rules, key, state, unit)
        clean = BattleRules(rules.catalog)
        assert got == tuple(_skeleton(clean, state, unit)), (unit.id, state.round)
        assert reads == _items_read(clean, got)
        assert list(_filled(rules, state, unit, got)) == list(_grouped(clean, state, unit))
        found += remembered
        across += remembered and made_by.get(key, unit.id) != unit.id
        made_by.setdefault(key, unit.id)
        compared += 1
    assert compared > 50 and found > compared // 4
    assert across > 0 or "*" not in name


def test_a_remembered_skeleton_is_the_fresh_one_when_the_units_equipment_changes() -> None:
    # rule: SG.BRT.1  rule: SG.FUM.2  rule: SG.FUM.3  rule: SG.LUL.1 — a unit's stances, weapons broken or
    # on the ground and limited uses change what it may attempt: the skeleton remembered for it before
    # each change is never taken for the one after it (each is the fresh one)
    from kassen.sengoku.battle.candidates import _skeleton, _skeleton_key, _skeleton_of

    compared = 0
    for rules, state, unit in _units_at_count("demo", range(2)):
        if unit.zone is None or state.round > 1:
            continue
        _skeleton_of(rules, _skeleton_key(rules, state, unit), state, unit)  # remembered as it stands
        for change in _equipment_changes(rules, unit):
            other = state.with_unit(dataclasses.replace(unit, **change))
            acting = other.unit(unit.id)
            got, _ = _skeleton_of(rules, _skeleton_key(rules, other, acting), other, acting)
            assert got == tuple(_skeleton(BattleRules(rules.catalog), other, acting)), (unit.id, change)
            compared += 1
    assert compared > 30


@pytest.mark.parametrize(
    ("name", "seeds"), [("demo", range(3)), ("burning-temple", range(2)), ("demo*3", range(1))]
)
def test_a_listing_filled_in_from_a_remembered_frame_is_a_fresh_one(name: str, seeds: range) -> None:
    # rule: SG.BRT.1  rule: SG.CNT.5  rule: SG.ZON.2  rule: SG.INC.2 — a listing not remembered is filled
    # in from the frame remembered for the unit's situation (candidates._frame_key: everything but the
    # enemies), perhaps made for another unit of the same template in the same place: at every unit of
    # every count, with the listings forgotten, it is the listing worked out from nothing
    from kassen.sengoku.battle.candidates import _frame_key, _listing

    compared = remembered = across = filled = 0
    made_by: dict[tuple[object, ...], str] = {}
    for rules, state, unit in _units_at_count(name, seeds):
        plans = Planner(rules, state, unit)
        key = _frame_key(rules, state, plans)
        known = key in rules.frames
        fills = len(rules.fills)
        assert list(_listing(rules, state, plans).flat()) == _fresh(rules, state, unit), (
            unit.id,
            state.count,
        )
        remembered += known
        filled += known and len(rules.fills) == fills  # its filling found remembered too
        across += known and made_by.get(key, unit.id) != unit.id
        made_by.setdefault(key, unit.id)
        compared += 1
    assert compared > 50 and remembered > compared // 4 and filled > remembered // 4
    assert across > 0 or "*" not in name


@pytest.mark.parametrize(
    ("name", "seeds"), [("demo", range(2)), ("burning-temple", range(2)), ("demo*3", range(1))]
)
def test_whom_a_range_reaches_is_read_from_the_units(name: str, seeds: range) -> None:
    # rule: SG.ZON.2 — the enemies a range reaches from a zone, remembered by the content by the state's
    # roster, the battlefield and the side: for every unit of every state, every range from every zone
    # is what the units themselves say (each enemy on the battlefield, in the state's order)
    from kassen.sengoku.battle.candidates import _Reach
    from kassen.sengoku.entries import Range

    compared = remembered = 0
    for rules, state in _states(name, seeds):
        for unit in state.units[::2]:
            reach = _Reach(rules, state, unit)
            for rng in Range:
                for zone in state.zones:
                    before = len(rules.reaches)
                    got = reach(rng, zone.id)
                    remembered += len(rules.reaches) == before
                    near = {zone.id, *state.neighbours(zone.id)}
                    wanted = tuple(
                        t.id
                        for t in state.units
                        if t.side != unit.side
                        and t.on_battlefield
                        and (
                            rng is Range.BATTLEFIELD
                            or t.zone == zone.id
                            or (rng not in (Range.SAME_ZONE, Range.SELF) and t.zone in near)
                        )
                    )
                    assert got == wanted, (unit.id, rng, zone.id)
                    compared += 1
    assert compared > 1000 and remembered > compared // 2


@pytest.mark.parametrize(
    ("name", "seeds"), [("demo", range(3)), ("burning-temple", range(2)), ("demo*3", range(1))]
)
def test_a_frame_made_of_remembered_items_is_a_fresh_one(name: str, seeds: range) -> None:
    # rule: SG.BRT.1  rule: SG.BRT.3 — a frame not remembered is made item by item, each item's verdict
    # remembered by the situation, its place and the uses this round of its own maneuvers: at every unit
    # of every count, with the frames forgotten, the listing made is the fresh one and so is the frame
    # (the one fresh content makes), many items found remembered after a breath of other maneuvers
    from kassen.sengoku.battle.candidates import _frame_key, _framed, _skeleton_of

    compared = remembered = 0
    for rules, state, unit in _units_at_count(name, seeds):
        if unit.zone is None:
            continue
        rules.frames.clear()
        plans = Planner(rules, state, unit)
        key = _frame_key(rules, state, plans)
        skeleton, reads = _skeleton_of(rules, key[0], state, unit)  # type: ignore[arg-type]
        before = len(rules.frame_items)
        listing, frame = _framed(rules, state, plans, skeleton, reads)
        remembered += len(rules.frame_items) - before < len(skeleton) // 2
        assert list(listing.flat()) == _fresh(rules, state, unit), (unit.id, state.round, state.count)
        clean = BattleRules(rules.catalog)
        again = Planner(clean, state, unit)
        fresh = _framed(clean, state, again, skeleton, reads)[1]
        # a group known whatever its targets now may have been known before, where it had targets
        assert all(a == b or b is None for a, b in zip(frame, fresh, strict=True)), unit.id
        compared += 1
    assert compared > 50 and remembered > compared // 2


@pytest.mark.parametrize(("name", "seed"), [("demo", 7), ("burning-temple", 4), ("demo*2", 3)])
def test_no_field_left_out_of_an_items_key_changes_its_verdict(name: str, seed: int) -> None:
    # rule: SG.BRT.1  rule: SG.ZON.2  rule: SG.RET.2  rule: SG.AIM.5 — the items of one skeleton planned in
    # a state where a field of any unit changed (a unit moved to each other zone, bleeding or not, a
    # squad or not; the acting unit's own fields too): the verdicts remembered before the change are
    # used only where they are the verdicts planned afresh after it (each item keyed by all it reads)
    from kassen.sengoku.battle.candidates import _framed, _items_read, _skeleton

    fight = open_fight(_source(name), seed=seed)
    fight.autoplay()
    rules = fight.tables
    states = [s for s in fight.states if s.decision is not None and s.decision.kind.value == "breath"]
    tried = bound = 0
    for at in states[:: max(1, len(states) // 8)]:
        assert at.decision is not None
        unit = at.unit(at.decision.unit)
        # and the same with an ally beside it bleeding (its wound to bind, SG.AIM.5)
        beside = [a for a in at.units if a.side == unit.side and a.id != unit.id and a.zone == unit.zone]
        bases = [at] + [at.with_unit(dataclasses.replace(a, bleeding=True)) for a in beside[:1]]
        for state in bases:
            unit = state.unit(unit.id)
            skeleton = tuple(_skeleton(rules, state, unit))
            _framed(rules, state, Planner(rules, state, unit), skeleton, _items_read(rules, skeleton))
            tried += _changed_items_are_planned_afresh(rules, state, unit, skeleton)
            bound += any(isinstance(i, tuple) and len(i) == 1 and i[0].target for i in skeleton)
    assert tried > 300 and bound > 3


def _equipment_changes(rules: BattleRules, unit: Unit) -> list[dict[str, object]]:
    """The unit's stances, weapons and limited uses changed (each read by some plan, SG.BRT.1, SG.FUM.2-3,
    SG.LUL.1): a stance it knows held, its first weapon broken or on the ground, each limited maneuver
    of its spent."""
    known = [rules.maneuver(k) for k in rules.known(unit)]
    weapons = rules.creature(unit).weapons
    out: list[dict[str, object]] = []
    held = [m.id for m in known if m.grants is not None and m.id not in unit.stances]
    if held:
        out.append({"stances": (*unit.stances, held[0])})
    if unit.stances:
        out.append({"stances": ()})
    if weapons:
        out += [{"broken": (*unit.broken, weapons[0])}, {"dropped": weapons[0]}]
    spent = tuple(Tally(f"{m.id}#0", 99, since=0) for m in known if m.limits)
    if spent:
        out.append({"limited": spent})
    return out


def _changed_items_are_planned_afresh(
    rules: BattleRules, state: BattleState, unit: Unit, skeleton: Skeleton
) -> int:
    """How many changed states the frame of ``skeleton`` (its verdicts remembered in ``state``) was made
    in and found to list what a fresh planner on fresh content lists there."""
    from kassen.sengoku.battle.candidates import _filled, _framed, _items_read

    tried = 0
    reads = _items_read(rules, skeleton)
    near = state.in_zone(unit.side, unit.zone or "")
    for who in dict.fromkeys((*state.units[:5], *state.units[-3:], *near, unit)):
        changes: list[dict[str, object]] = [{"bleeding": not who.bleeding}, {"routed": not who.routed}]
        if who is unit:  # what the skeleton does not read (it is made for where the unit stands)
            changes += [{"defenseless": not who.defenseless}, {"surcharge": who.surcharge + 2}]
            changes += [{"pickup_cost": who.pickup_cost + 2}]
            changes += _equipment_changes(rules, who)
        else:
            changes += [{"zone": z.id} for z in state.zones if z.id != who.zone]
            changes += [{"cohesion": None if who.cohesion else 5}, {"incapacitated": True}]
        for change in changes:
            other = state.with_unit(dataclasses.replace(who, **change))
            acting = other.unit(unit.id)
            if not acting.on_battlefield:
                continue
            got = _framed(rules, other, Planner(rules, other, acting), skeleton, reads)[0]
            clean = BattleRules(rules.catalog)
            fresh = Planner(clean, other, acting).entries(list(_filled(clean, other, acting, skeleton)))
            assert list(got.flat()) == list(fresh.flat()), (who.id, change)
            tried += 1
    return tried


@pytest.mark.parametrize(
    ("name", "seeds"), [("count-example", range(3)), ("demo", range(2)), ("burning-temple", range(1))]
)
def test_has_breath_is_the_fresh_answer(name: str, seeds: range) -> None:
    # rule: SG.CNT.6 — whether a unit can pay for a maneuver alone is read from its listing (remembered,
    # filled in from a frame, or worked out): at every unit of every count, with the listings forgotten,
    # it is the fresh answer
    from kassen.sengoku.battle.candidates import _frame_key

    compared = remembered = 0
    for rules, state, unit in _units_at_count(name, seeds):
        rules.listings.clear()
        remembered += _frame_key(rules, state, Planner(rules, state, unit)) in rules.frames
        fresh = any(len(b.uses) == 1 and spent <= unit.energy for b, spent in _fresh(rules, state, unit))
        assert has_breath(rules, state, unit) == fresh, (unit.id, state.round, unit.energy)
        compared += 1
    assert compared > 50 and remembered > compared // 4


def _other(name: str, value: object) -> object | None:
    """Another plausible value of a unit's field (None: none to try)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 3
    if isinstance(value, str):
        return value + "-x"
    if isinstance(value, tuple) and value and isinstance(value[0], Tally):
        return tuple(dataclasses.replace(t, n=t.n + 5) for t in value)
    if name == "reservations" and value == ():
        return (Reservation("parry"),)  # as if it had reserved a technique (the listing reads none)
    return None


#: The unit fields the listing key reads (a change to any of them may change a listing).
_KEYED = {
    "id",
    "creature",
    "spec",
    "zone",
    "stances",
    "dropped",
    "broken",
    "pickup_cost",
    "limited",
    "unloaded",
    "defenseless",
    "surcharge",
    "used",
    "side",
    "incapacitated",
    "retreated",
    "routed",
    "bleeding",
    "cohesion",
}


@pytest.mark.parametrize(("name", "seed"), [("demo", 7), ("burning-temple", 4), ("demo*2", 3)])
def test_no_field_left_out_of_the_key_changes_a_listing(name: str, seed: int) -> None:
    # rule: SG.BRT.1 — every other field of the acting unit, of its enemies and allies, and the
    # battle's round, count and conditions, changed one at a time: the key stays, and so does the listing
    fight = open_fight(_source(name), seed=seed)
    fight.autoplay()
    rules = fight.tables
    states = [s for s in fight.states if s.decision is not None and s.decision.kind.value == "breath"]
    tried = 0
    for state in states[:: max(1, len(states) // 6)]:
        assert state.decision is not None
        unit = state.unit(state.decision.unit)
        key = listing_key(rules, state, Planner(rules, state, unit))
        base = _fresh(rules, state, unit)
        for who in (*state.units[:4], unit):
            for f in dataclasses.fields(Unit):
                if f.name in _KEYED and f.name != "used":
                    continue
                value = getattr(who, f.name)
                if f.name == "name":
                    continue  # words only
                changed = _other(f.name, value)
                if changed is None:
                    continue
                other = state.with_unit(dataclasses.replace(who, **{f.name: changed}))
                acting = other.unit(unit.id)
                if listing_key(rules, other, Planner(rules, other, acting)) != key:
                    assert f.name == "used"  # more uses than combo fatigue counts free: another key
                    continue
                assert _fresh(rules, other, acting) == base, (who.id, f.name)
                tried += 1
        for change in ({"round": state.round + 1}, {"count": state.count + 2}):
            other = state.changed(**change)
            assert listing_key(rules, other, Planner(rules, other, unit)) == key
            assert _fresh(rules, other, unit) == base
    assert tried > 100


@pytest.mark.parametrize(("name", "seed"), [("demo", 7), ("burning-temple", 4), ("demo*2", 3)])
def test_no_field_left_out_of_the_frame_key_changes_a_filled_listing(name: str, seed: int) -> None:
    # rule: SG.BRT.1  rule: SG.ZON.2  rule: SG.RET.5 — every field of the acting unit, of its allies and of
    # its enemies changed one at a time (a unit moved to each other zone): where the frame key stays, the
    # listing filled in from the frame made before the change is the fresh listing after it (the
    # enemies' part read from the new state), and the frame key changes where it must
    from kassen.sengoku.battle.candidates import _filled_frame, _frame_key, _listing

    fight = open_fight(_source(name), seed=seed)
    fight.autoplay()
    rules = fight.tables
    states = [s for s in fight.states if s.decision is not None and s.decision.kind.value == "breath"]
    tried = moved = keyed = swapped = 0
    for state in states[:: max(1, len(states) // 8)]:
        assert state.decision is not None
        unit = state.unit(state.decision.unit)
        plans = Planner(rules, state, unit)
        key = _frame_key(rules, state, plans)
        _listing(rules, state, plans)
        frame = rules.frames[key]
        templates = {(u.creature, u.spec) for u in state.units}
        for who in dict.fromkeys((*state.units[:5], *state.units[-3:], unit)):
            for f in dataclasses.fields(Unit):
                if f.name in ("id", "name", "spec"):
                    continue  # ids and words (a template is changed with its creature)
                value = getattr(who, f.name)
                if f.name == "zone":
                    tries: list[dict[str, object]] = [{"zone": z.id} for z in state.zones if z.id != value]
                elif f.name == "creature":  # another template of the battle (whom [Incorporeal] strikes)
                    mine = (who.creature, who.spec)
                    tries = [{"creature": c, "spec": sp} for c, sp in sorted(templates - {mine})]
                else:
                    changed = _other(f.name, value)
                    tries = [] if changed is None else [{f.name: changed}]
                for change in tries:
                    other = state.with_unit(dataclasses.replace(who, **change))
                    acting = other.unit(unit.id)
                    if not acting.on_battlefield:
                        continue  # lists nothing, before any frame is read
                    again = Planner(rules, other, acting)
                    if _frame_key(rules, other, again) != key:
                        keyed += 1
                        continue
                    filled = list(_filled_frame(rules, other, again, frame).flat())
                    assert filled == _fresh(rules, other, acting), (who.id, change)
                    tried += 1
                    moved += f.name == "zone"
                    swapped += f.name == "creature"
    assert tried > 300 and moved > 20 and keyed > 50 and swapped > 20


def test_a_remembered_check_is_the_check_itself() -> None:
    # rule: SG.CHK.1  rule: SG.CHK.2  rule: SG.CRT.1  rule: SG.FUM.1 — BattleRules remembers checks by
    # faces, modifier and target: every roll at several modifiers and targets, asked twice and as a list,
    # is what resolve_check and classify give
    from kassen.sengoku.catalog import load_catalog
    from kassen.sengoku.check import CheckKind, classify, resolve_check

    rules = BattleRules(load_catalog())
    for a in range(1, 11):
        for b in range(1, 11):
            for modifier, target in ((0, 11), (3, 15), (-2, 4)):
                plain = resolve_check((a, b), modifier, target)
                outcome = classify(plain, kind=CheckKind.ATTACK, rules=rules.resolution).outcome
                for _ in range(2):
                    assert rules.check((a, b), modifier, target) == plain
                    assert rules.attack_check((a, b), modifier, target) == (plain, outcome)
                listed = rules.check([a, b], modifier, target)
                assert listed.faces == [a, b] and listed.total == plain.total


@pytest.mark.parametrize(("name", "seeds"), [("demo", range(3)), ("burning-temple", range(1))])
def test_remembered_group_prices_are_fresh_ones(name: str, seeds: range) -> None:
    # rule: SG.BRT.1  rule: SG.BRT.3 — an attack made from where the unit stands is priced shape by shape
    # once per situation (BattleRules.group_prices): at every target, in every state met again, the
    # verdicts are those of the group planned from nothing on fresh content
    # — and so is a stance or a movement then an attack (lead 1), by what its first use reads too
    compared = remembered = then = 0
    for rules, state, unit in _units_at_count(name, seeds):
        if unit.zone is None:
            continue
        clean = BattleRules(rules.catalog)
        for group in _grouped(rules, state, unit):
            if not isinstance(group, AttackGroup) or not (group.shapes or group.lead == 1):
                continue
            before = len(rules.group_prices)
            got = Planner(rules, state, unit)._group(group)
            remembered += len(rules.group_prices) == before
            assert got == Planner(clean, state, unit)._group(group), (unit.id, group.maneuver)
            compared += 1
            then += group.lead == 1
    assert compared > 50 and remembered > compared // 2 and then > 20


@pytest.mark.parametrize(("name", "seeds"), [("demo", range(2)), ("demo*2", range(1))])
def test_remembered_prices_of_a_first_use_then_an_attack_are_fresh_ones(name: str, seeds: range) -> None:
    # rule: SG.BRT.1  rule: SG.ZON.2 — every stance and every movement of the catalog to every zone, then
    # the unit's first attack at the enemies it would reach: the remembered verdicts, with a warm memo
    # and whatever first use came before, are those planned from nothing (known or not, going or not)
    from kassen.sengoku.battle.candidates import _after, _targets_from, _use
    from kassen.sengoku.entries import ManeuverKind

    compared, seen = 0, set()
    for n, (rules, state, unit) in enumerate(_units_at_count(name, seeds)):
        if n % 3 or unit.zone is None:
            continue
        attacks = [rules.maneuver(k) for k in rules.known(unit) if rules.maneuver(k).attacks]
        if not attacks:
            continue
        m = attacks[0]
        catalog = rules.catalog.maneuvers.values()
        firsts = [_use(s.id) for s in catalog if s.grants is not None]
        firsts += [
            _use(mv.id, to=z.id) for mv in catalog if mv.kind is ManeuverKind.MOVEMENT for z in state.zones
        ]
        enemies = [t for t in state.units if t.side != unit.side and t.on_battlefield and t.zone is not None]
        clean = BattleRules(rules.catalog)
        for first in firsts:
            zone = first.to or unit.zone
            targets = _targets_from(state, rules.range(unit, m), zone, enemies)
            if not targets:
                continue
            group = _after(rules, first, m, targets, zone)
            got = Planner(rules, state, unit)._group(group)
            assert got == Planner(clean, state, unit)._group(group), (unit.id, first)
            seen.add((first.maneuver, got.prices))
            compared += 1
    # many groups, of many stances and movements, with verdicts that differ
    assert compared > 200 and len({f for f, _ in seen}) > 4 and len({p for _, p in seen}) > 4


def _held_by_hand(state: BattleState, side: str) -> tuple[str, ...]:
    """The zones where a unit of another side stands able to act, read from the units one by one."""
    return tuple(
        z.id
        for z in state.zones
        if any(u.zone == z.id and u.side != side and u.on_battlefield and not u.routed for u in state.units)
    )


@pytest.mark.parametrize(
    ("name", "seeds"), [("demo", range(3)), ("burning-temple", range(2)), ("demo*2", range(1))]
)
def test_the_zones_held_against_a_side_are_read_from_the_units(name: str, seeds: range) -> None:
    # rule: SG.ZON.2 — what a movement's route reads of the units (a Breakthrough into a zone another
    # side holds, a Core Zone Exit), kept by each state and carried over by with_unit while the unit
    # that changed stays where it was, as able as it was: always what the units themselves say
    compared = changed = 0
    for _, state in _states(name, seeds):
        for side in state.sides:
            assert state.held_against(side.id) == _held_by_hand(state, side.id)
            compared += 1
        if state.units[0].zone is not None:  # a unit routed, then put back: each state its own reading
            first = state.units[0]
            routed = state.with_unit(dataclasses.replace(first, routed=not first.routed))
            for side in state.sides:
                assert routed.held_against(side.id) == _held_by_hand(routed, side.id)
            changed += first.on_battlefield
    assert compared > 100 and changed > 10


def _roster_by_hand(state: BattleState) -> tuple[tuple[object, ...], ...]:
    """Every unit's place as candidates_key reads it, read from the units one by one."""
    return tuple(
        (
            u.id,
            u.side,
            u.zone,
            u.incapacitated,
            u.retreated,
            u.routed,
            u.bleeding,
            u.cohesion is not None,
            u.creature,
            u.spec,
        )
        for u in state.units
    )


@pytest.mark.parametrize(
    ("name", "seeds"), [("demo", range(3)), ("burning-temple", range(2)), ("demo*2", range(1))]
)
def test_the_roster_carried_from_state_to_state_is_read_from_the_units(name: str, seeds: range) -> None:
    # rule: SG.BRT.1 — every unit's place (what a listing's key reads of every unit), kept by each state
    # and carried over by with_unit while the unit put back keeps its place, numbered by identity: always
    # what the units themselves say, and the same number as the value's own
    compared = shared = changed = 0
    last: object = None
    for rules, state in _states(name, seeds):
        roster = state.roster()
        assert roster == _roster_by_hand(state)
        assert rules.roster_number(state) == rules.number(_roster_by_hand(state))
        shared += roster is last
        last = roster
        compared += 1
        for f, value in (("zone", None), ("bleeding", True), ("routed", True), ("cohesion", 3)):
            first = state.units[0]
            if getattr(first, f) == value:
                continue
            other = state.with_unit(dataclasses.replace(first, **{f: value}))
            assert other.roster() == _roster_by_hand(other) != roster
            changed += 1
    assert compared > 50 and shared > compared // 2 and changed > 50


@pytest.mark.parametrize(
    ("name", "seeds"), [("demo", range(2)), ("burning-temple", range(2)), ("demo*2", range(1))]
)
def test_remembered_routes_and_movements_are_fresh_ones(name: str, seeds: range) -> None:
    # rule: SG.ZON.2 — whether a candidate movement goes, and its plan, are remembered by the zones the
    # other sides hold: in every state, every movement to every zone is what a fresh planner on fresh
    # content says (the same plan, or the same refusal)
    compared = remembered = 0
    for rules, state, unit in _units_at_count(name, seeds):
        clean = BattleRules(rules.catalog)
        moves = [m for m in (rules.maneuver(k) for k in rules.known(unit)) if m.movement is not None]
        for m in moves:
            for z in (None, *(z.id for z in state.zones)):
                use = Use(m.id, to=z)
                before = len(rules.planned)
                warm = Planner(rules, state, unit)._walk((use,))
                remembered += len(rules.planned) == before
                assert warm == Planner(clean, state, unit)._walk((use,)), (unit.id, m.id, z)
                compared += 1
    assert compared > 100 and remembered > compared // 2
