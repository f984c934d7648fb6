"""The odds table shares one enumeration among techniques with the same blow (kassen.sengoku.odds.blow_of):
the shared tally must be exactly the tally of each technique itself, for every catalog technique (and its
Aim Focus forms) at every Defense the check can need. And it resolves each double and one pair of each
other total once: the tally must be the one of every ordered roll resolved in turn."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kassen.sengoku.aim import largest_extra_within_breath
from kassen.sengoku.attack import Attack, AttackOutcome, FixedDefense, resolve_attack
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.catalog import load_catalog
from kassen.sengoku.odds import _ATTACKER, _TARGET, OddsTable, _pairs, _TableDie, blow_of
from kassen.sengoku.resolution import load_resolution
from kassen.sengoku.technique import Technique, technique, technique_names

#: A few Defenses in the default suite (the lowest, around the middle, the highest reachable, beyond);
#: every one behind the slow marker.
SOME_NEEDS = (2, 9, 12, 15, 20, 21)


def _techniques() -> list[Technique]:
    """Every catalog technique, and each Aim Focus form of it the breath limit allows (SG.AIM.1-4)."""
    catalog = load_catalog()
    rules = BattleRules(catalog)
    out: list[Technique] = []
    for key in technique_names(catalog):
        tech = technique(key, catalog)
        out.append(tech)
        for finesse in (1, 3):
            room = largest_extra_within_breath(tech, finesse=finesse, rules=rules.defense)
            out += [replace(tech, tags=rules.aim(tech, finesse, extra).tags) for extra in range(1, room + 1)]
    return list(dict.fromkeys(out))


def _check(needs: tuple[int, ...]) -> int:
    table = OddsTable(load_resolution())
    compared = 0
    for tech in _techniques():
        blow = blow_of(tech)
        for need in needs:
            # rule: SG.WND.1, SG.WND.3, SG.CRT.2, SG.CRT.3
            assert table._enumerate(need, tech) == table._enumerate(need, blow), (tech.name, need)
            compared += 1
    return compared


def test_a_shared_tally_is_each_techniques_own() -> None:
    assert _check(SOME_NEEDS) > 100  # every technique of the catalog, not a handful


@pytest.mark.slow
def test_a_shared_tally_is_each_techniques_own_at_every_defense() -> None:
    assert _check(tuple(range(2, 22))) > 500


def test_techniques_that_differ_only_in_name_share_one_enumeration(monkeypatch: pytest.MonkeyPatch) -> None:
    # rule: SG.WND.1
    table = OddsTable(load_resolution())
    calls: list[int] = []
    enumerate_ = OddsTable._enumerate

    def counted(self: OddsTable, need: int, tech: Technique) -> object:
        calls.append(need)
        return enumerate_(self, need, tech)

    monkeypatch.setattr(OddsTable, "_enumerate", counted)
    a = table.attack(3, 12, Technique(name="Horizontal Cut", id="horizontal-cut", energy=2))
    b = table.attack(3, 12, Technique(name="Thrust", id="thrust", energy=3, weapon="yari"))
    assert a.expected_wounds == b.expected_wounds and a.hit == b.hit
    assert calls == [9]  # the second is the first's tally, not enumerated again
    c = table.attack(3, 12, Technique(name="Heavy", wounds=2))
    assert c.expected_wounds != a.expected_wounds and calls == [9, 9]


def _every_ordered_roll(table: OddsTable, need: int, tech: Technique) -> tuple[object, ...]:
    """The tally of the plain enumeration: all 100 ordered rolls, each resolved (no pair counted twice)."""
    from fractions import Fraction

    sides = table.rules.check.sides
    hit = critical = fumble = decisive = mistake = wounds = 0
    spread: dict[int, int] = {}
    for a in range(1, sides + 1):
        for b in range(1, sides + 1):
            r = resolve_attack(
                _ATTACKER,
                _TARGET,
                Attack(tech, modifier=0),
                FixedDefense(need),
                (a, b),
                table_dice=_TableDie(),
                rules=table.rules,
            )
            hit += r.hit
            critical += r.outcome is AttackOutcome.CRITICAL
            fumble += r.outcome is AttackOutcome.FUMBLE
            decisive += r.table is not None and r.table.table == "decisive_moment"
            mistake += r.table is not None and r.table.table == "critical_mistake"
            wounds += r.wounds_lost
            spread[r.wounds_lost] = spread.get(r.wounds_lost, 0) + 1
    n = sides * sides
    chances = tuple(Fraction(spread.get(k, 0), n) for k in range(max(spread) + 1))
    return (*(Fraction(x, n) for x in (hit, critical, fumble, decisive, mistake, wounds)), chances)


def _check_pairs(needs: tuple[int, ...]) -> int:
    table = OddsTable(load_resolution())
    compared = 0
    for tech in _techniques():
        for need in needs:
            # rule: SG.CHK.1  rule: SG.CHK.2  rule: SG.CRT.1  rule: SG.FUM.1 — the chances, the mean Wounds
            # and the chance of each number of Wounds (SG.WND.1-2)
            tally = table._enumerate(need, tech)
            got = (tally.hit, tally.critical, tally.fumble, tally.heavenly_mandate, tally.karmic_retribution)
            want = _every_ordered_roll(table, need, tech)
            assert (*got, tally.wounds, tally.spread) == want, (tech.name, need)
            assert sum(tally.spread) == 1 and sum(k * p for k, p in enumerate(tally.spread)) == tally.wounds
            compared += 1
    return compared


def test_each_pair_of_faces_resolved_once_is_every_roll_resolved() -> None:
    assert _check_pairs((2, 12, 21)) > 100


@pytest.mark.slow
def test_each_pair_of_faces_resolved_once_is_every_roll_resolved_at_every_defense() -> None:
    assert _check_pairs(tuple(range(2, 22))) > 500


@pytest.mark.parametrize("sides", [6, 10, 12])
def test_the_resolved_pairs_stand_for_every_ordered_roll(sides: int) -> None:
    # rule: SG.CHK.1, SG.CHK.2 — every ordered roll of 2dN counted once: each double by itself, each
    # other total by one pair of it, weighted by how many ordered rolls show that total without a double
    pairs = _pairs(sides)
    assert sum(w for _, w in pairs) == sides * sides
    doubles = [(a, b) for (a, b), _ in pairs if a == b]
    assert doubles == [(f, f) for f in range(1, sides + 1)]
    others = {a + b: w for (a, b), w in pairs if a != b}
    every = {t: sum(1 for a in range(1, sides + 1) for b in range(1, sides + 1) if a != b and a + b == t)
             for t in range(3, 2 * sides)}
    assert others == every
