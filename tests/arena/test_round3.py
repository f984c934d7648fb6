"""Seed mechanics that must take effect, round 3 (arena): a leg knockback cannot fell a fighter already
lying, and a bundled bout reaches limb knockback and crushing vital-organ checks in auto-play."""

from __future__ import annotations

from collections import Counter

from kassen.arena.bout import Attack
from kassen.arena.fighter import Weapon
from kassen.arena.terms import DamageType, Facing, Posture

from .helpers import begun, edit, fighter, step

GIANT = fighter("g", "east", dx=12, st=20, skill=14, weapon=Weapon("ram", "none", 4, 0, DamageType.CRUSHING))
WEAK = fighter("b", "west", defense=8, st=4, ht=16, hp=20)
#: a critical hit on the left leg for 4 crushing, knockback 2 m, then an ST check failed by 16
LEG_BLOW = [1, 1, 2, 1, 1, 1, 1, 6, 6, 6]


def test_a_lying_fighter_failing_a_leg_knockback_check_is_rooted_and_does_not_fall() -> None:
    # rule: AR.KNB.5 — a leg failed by 3 or more falls over; a fighter already lying has nowhere to fall
    state, events = step(
        edit(begun(GIANT, WEAK), "b", posture=Posture.LYING), Attack("g", "b", "left_leg"), LEG_BLOW
    )
    kinds = [e.kind for e in events]
    assert "rooted" in kinds and "cannot_fall" in kinds
    assert "lands_facing" not in kinds and "falls" not in kinds  # no "will land face down" without a fall
    b = state.fighter("b")
    assert b.posture is Posture.LYING and b.fall is None and b.rooted_until == state.subturn
    said = next(e for e in events if e.kind == "cannot_fall")
    assert said.rule == "AR.KNB.5" and said.data["already"] == "lying"


def test_a_standing_fighter_failing_it_by_3_falls_face_down() -> None:
    # rule: AR.KNB.5, AR.KNB.7 — the same blow on a standing fighter: rooted, falls over, face down
    state, events = step(begun(GIANT, WEAK), Attack("g", "b", "left_leg"), LEG_BLOW)
    kinds = [e.kind for e in events]
    assert "falls" in kinds and "cannot_fall" not in kinds
    facing = next(e for e in events if e.kind == "lands_facing")
    assert facing.data["facing"] == Facing.FACE_DOWN.value
    b = state.fighter("b")
    assert "landed" in kinds and b.posture is Posture.LYING and b.facing is Facing.FACE_DOWN


def _counted(name: str, seeds: range) -> Counter[str]:
    from kassen.core.scenario import open_fight

    seen: Counter[str] = Counter()
    for seed in seeds:
        fight = open_fight(f"arena/{name}", seed=seed)
        fight.autoplay()
        for event in fight.events:
            if event.kind == "check":
                seen[str(event.data["check"])] += 1
    return seen


def test_the_crusher_bout_reaches_limb_knockback_and_vital_organ_checks_in_auto_play() -> None:
    # rule: AR.KNB.5, AR.INJ.8 — the bundled bout's auto-play pushes limbs and shakes organs
    bouts: Counter[str] = Counter()
    for seed in range(20):
        bouts.update(set(_counted("crusher", range(seed, seed + 1))))
    assert bouts["limb_knockback"] >= 3, bouts
    assert bouts["vital"] >= 3, bouts
