"""The death check after combat (SG.INP.3): 2d10 + max(Physique, Fate) >= 11."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kassen.core.errors import IllegalActionError
from kassen.core.rng import Rng
from kassen.dice import at_least
from kassen.sengoku.check import ScriptedDice
from kassen.sengoku.death import death_check, death_check_modifier, death_check_odds, resolve_death_check
from kassen.sengoku.profile import Attributes, CombatProfile
from kassen.sengoku.resolution import load_resolution


def fallen(physique: int = 0, fate: int = 0) -> CombatProfile:
    return CombatProfile(name="Genzaburo", wounds=0, attributes=Attributes(physique=physique, fate=fate))


def test_11_or_more_survives_with_serious_injury_less_dies() -> None:
    # rule: SG.INP.3
    dc = load_resolution().death_check
    assert dc.target == 11
    alive = resolve_death_check((5, 4), fallen(physique=2))
    assert alive.survives and alive.check.total == 11 and alive.outcome == dc.serious_injury.name
    assert alive.effect == dc.serious_injury.effect
    dead = resolve_death_check((5, 3), fallen(physique=2))
    assert not dead.survives and dead.check.total == 10 and dead.outcome == "dies"
    assert any(s.rule == "SG.INP.3" for s in dead.steps)


def test_the_higher_of_physique_and_fate_counts() -> None:
    # rule: SG.INP.3
    assert death_check_modifier(fallen(physique=1, fate=3))[0] == 3
    assert death_check_modifier(fallen(physique=2, fate=-1))[0] == 2
    assert resolve_death_check((4, 4), fallen(physique=0, fate=3)).survives


def test_only_an_incapacitated_unit_makes_a_death_check() -> None:
    # rule: SG.INP.3
    with pytest.raises(IllegalActionError) as err:
        resolve_death_check((5, 5), CombatProfile(wounds=1))
    assert err.value.rule == "SG.INP.3"


def test_doubles_do_not_change_the_death_check_by_default() -> None:
    # rule: SG.INP.3
    # rule: SG.RD.4 — doubles apply to attack checks only (house): 1-1 + 9 = 11 survives
    assert resolve_death_check((1, 1), fallen(physique=9)).survives
    # With doubles on every check and a successful double 1 read as Karmic Retribution, it dies.
    every = load_resolution().override("check", doubles_scope="every_check")
    harsh = every.override("doubles", double_one_success="karmic_retribution")
    assert resolve_death_check((1, 1), fallen(physique=9), rules=every).survives
    assert not resolve_death_check((1, 1), fallen(physique=9), rules=harsh).survives


def test_death_check_rolls_from_the_injected_rng() -> None:
    # rule: SG.INP.3
    assert death_check(fallen(), Rng(196)).check.faces == (10, 10)
    assert death_check(fallen(), ScriptedDice([2, 3])).survives is False


@given(modifier=st.integers(-12, 12))
def test_death_check_odds_equal_their_exact_enumeration(modifier: int) -> None:
    # rule: SG.INP.3
    p = death_check_odds(modifier)
    brute = Fraction(
        sum(
            resolve_death_check((a, b), fallen(modifier, modifier)).survives
            for a in range(1, 11)
            for b in range(1, 11)
        ),
        100,
    )
    assert isinstance(p, Fraction) and p == brute == at_least("2d10", 11 - modifier)


def test_house_text_for_serious_injury_and_bleed_is_data() -> None:
    # rule: SG.INP.3 — GAP: the meaning of "serious injury" and "Bleed" are house defaults in data
    dc = load_resolution().death_check
    assert dc.house_default.rule == "SG.INP.3"
    assert dc.serious_injury.effect and dc.bleed.name == "Bleed" and dc.bleed.effect
