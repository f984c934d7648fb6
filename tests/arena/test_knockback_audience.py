"""Knockback as pure functions (AR.KNB.1, AR.KNB.4, AR.KNB.5, AR.KNB.7) and popularity and audience
effects (AR.AUD.1, AR.AUD.3, AR.RD.7)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kassen.arena.audience import audience_effect, popularity
from kassen.arena.content import load_rules
from kassen.arena.knockback import (
    knockback_distance,
    knockback_metres,
    landing_facing,
    limb_knockback_outcome,
    posture_factor,
)
from kassen.arena.rules import AudienceEffectKind
from kassen.arena.terms import DamageType, Facing, Limb, Posture, Tier
from kassen.core.errors import KassenError


def test_knockback_distance_per_full_st_minus_two() -> None:
    # rule: AR.KNB.1 (GAP: house default 1 m per full (ST - 2) of basic damage)
    assert knockback_distance(20, "cr", penetrating=5, target_st=12)[0] == 2
    assert knockback_distance(9, "cr", penetrating=5, target_st=12)[0] == 0
    assert knockback_distance(5, "cr", penetrating=5, target_st=3)[0] == 5  # per point at ST 3 or less
    assert (
        knockback_distance(20, "cut", penetrating=0, target_st=12)[0] == 2
    )  # cutting that fails to penetrate
    assert knockback_distance(20, "cut", penetrating=1, target_st=12)[0] == 0
    assert knockback_distance(20, "imp", penetrating=0, target_st=12)[0] == 0


def test_knockback_metres_is_the_distance() -> None:
    # rule: AR.KNB.1 (the bout's metres without the explanation: the same number, under both readings
    # of cutting blows that fail to penetrate)
    for rules in (
        load_rules(),
        load_rules({"falling": {"knockback": {"cutting_without_penetration": False}}}),
    ):
        for dtype in DamageType:
            for basic in (-1, 0, 5, 9, 10, 20, 31):
                for penetrating in (0, 1):
                    for st in (1, 3, 4, 12):
                        expected = knockback_distance(
                            basic, dtype, penetrating=penetrating, target_st=st, rules=rules
                        )[0]
                        assert knockback_metres(basic, dtype, penetrating, st, rules) == expected


@pytest.mark.parametrize(
    ("posture", "altitude", "factor"),
    [
        (Posture.STANDING, Fraction(0), Fraction(1)),
        (Posture.SITTING, Fraction(0), Fraction(1, 2)),
        (Posture.SITTING, Fraction(1, 2), Fraction(1)),
        (Posture.LYING, Fraction(0), Fraction(0)),
        (Posture.LYING, Fraction(49, 100), Fraction(0)),
        (Posture.LYING, Fraction(1, 2), Fraction(1, 2)),
        (Posture.LYING, Fraction(1), Fraction(1)),
    ],
)
def test_low_posture_softens_knockback_damage(posture: Posture, altitude: Fraction, factor: Fraction) -> None:
    # rule: AR.KNB.4
    assert posture_factor(posture, altitude)[0] == factor


def test_limb_knockback_checks() -> None:
    # rule: AR.KNB.5
    assert limb_knockback_outcome(Limb.ARM, False, 1).drop_guard
    assert not limb_knockback_outcome(Limb.ARM, True, 0).drop_guard
    leg = limb_knockback_outcome(Limb.LEG, False, 2)
    assert (leg.rooted, leg.falls) == (True, False)
    assert limb_knockback_outcome(Limb.LEG, False, 3).falls


def test_landing_face_down_after_middle_or_lower_damage_or_leg_knockback() -> None:
    # rule: AR.KNB.7
    assert landing_facing(Tier.MIDDLE) is Facing.FACE_DOWN
    assert landing_facing(Tier.LOWER) is Facing.FACE_DOWN
    assert landing_facing(Tier.UPPER) is Facing.FACE_UP
    assert landing_facing(None) is Facing.FACE_UP
    assert landing_facing(None, leg_knockback=True) is Facing.FACE_DOWN


def test_popularity() -> None:
    # rule: AR.AUD.1
    assert popularity()[0] == 10
    assert popularity(champion=True, matches=10, age=19)[0] == 14
    assert popularity(matches=9, age=20)[0] == 10
    assert popularity(reactions=(3, -2))[0] == 11  # +highest, -lowest


def test_popularity_readings() -> None:
    # rule: AR.RD.7 (signs kept: positive-only adds just the highest; champion = ever won)
    assert popularity(reactions=(2, 1))[0] == 12
    assert popularity(reactions=(-2,))[0] == 8
    assert popularity(reactions=(2,))[0] == 12
    literal = load_rules({"match": {"popularity": {"readings": {"reactions": "literal"}}}})
    assert popularity(reactions=(2, 1), rules=literal)[0] == 13
    assert popularity(reactions=(2,), rules=literal)[0] == 14
    magnitude = load_rules({"match": {"popularity": {"readings": {"reactions": "magnitude"}}}})
    assert popularity(reactions=(2, 1), rules=magnitude)[0] == 11
    assert popularity(reactions=(-1, -3), rules=magnitude)[0] == 8
    assert popularity(champion=True)[0] == 11
    title = load_rules({"match": {"popularity": {"readings": {"champion": "holds_title"}}}})
    assert popularity(champion=True, rules=title)[0] == 10
    assert popularity(holds_title=True, rules=title)[0] == 11


def test_audience_effect_list_is_house_default_data() -> None:
    # rule: AR.AUD.3
    rules = load_rules()
    assert rules.match.audience.house_default.rule == "AR.AUD.3"
    kinds = {e.kind for e in rules.match.audience.effects.values()}
    assert kinds == set(AudienceEffectKind)
    assert audience_effect("second_wind").amount == 2
    with pytest.raises(KassenError, match="unknown audience effect"):
        audience_effect("fireworks")
