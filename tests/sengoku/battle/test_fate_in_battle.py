"""Fate in battle (SG.FAT.1 Fate Intervention, SG.FAT.2 Last Bastion): offered to the unit when the rules
allow it, as a decision of that unit; spending Fate points; logged and replayed; the heuristic's use."""

from __future__ import annotations

from pathlib import Path

import pytest

from kassen.core.errors import IllegalActionError
from kassen.core.fight import Fight as CoreFight
from kassen.sengoku.battle import (
    RULESET,
    DecisionKind,
    Decline,
    GmSetWounds,
    HeuristicPolicy,
    Pass,
    load_scenario,
    run_battle,
)
from kassen.sengoku.battle.actions import FateIntervention, LastBastion, React
from kassen.sengoku.battle.state import Reservation

from .helpers import Fight, catalog_with, scenario, use


def duel(points: int = 2, content: object = None, **oni: object) -> Fight:
    return Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "overrides": {"fate_points": points}},
            {"creature": "oni", "side": "b", "zone": "own-front", **oni},
            content=content,  # type: ignore[arg-type]
        )
    ).begin()


def test_fate_intervention_is_offered_when_a_shift_makes_a_critical_hit() -> None:
    # rule: SG.FAT.1 — 4-5 (+4 = 13 against the Oni's 12, a hit): moving either die makes a double on a
    # success, a Critical Hit; Genzaburo decides (the core's to_move is the unit), the attack waits
    f = duel()
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(4, 5))
    d = f.state.decision
    assert d is not None and d.kind is DecisionKind.FATE and d.unit == "genzaburo"
    assert f.to_move is not None and f.to_move.id == "genzaburo" and f.to_move.kind == "unit"
    assert f.legal() == [
        FateIntervention("genzaburo", 0),
        FateIntervention("genzaburo", 1),
        Decline("genzaburo"),
    ]
    [offer] = f.of("fate_offered", events)
    assert offer.rule == "SG.FAT.1" and offer.data["faces"] == [4, 5] and offer.data["outcome"] == "success"
    assert "attack" not in f.kinds(events) and f.state.attack is not None
    events = f.do(FateIntervention("genzaburo", 0))  # die 1 moves onto 5: 5-5
    [attack] = f.of("attack", events)
    assert attack.data["faces"] == [5, 5] and attack.data["outcome"] == "critical"
    assert attack.data["fate_die"] == 0
    assert f.u("genzaburo").fate_points == 1 and f.u("oni").wounds == 4 - 2
    assert f.of("fate_spent", events)[0].data["faces_after"] == [5, 5]
    assert f.state.attack is None and f.state.decision is not None


def test_declined_the_attack_lands_as_rolled() -> None:
    # rule: SG.FAT.1 — declining spends nothing: the plain hit, 1 Wound
    f = duel()
    f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(4, 5))
    events = f.do(Decline("genzaburo"))
    assert f.of("attack", events)[0].data["outcome"] == "hit" and f.u("oni").wounds == 3
    assert f.u("genzaburo").fate_points == 2 and "fate_declined" in f.kinds(events)


def test_no_offer_without_points_or_without_a_critical_to_make() -> None:
    # rule: SG.FAT.1 — no Fate points, no offer; 1-2 (+4 = 7, a miss): either shift makes a failed
    # double, a Fumble, which the house offer (`when-it-makes-a-critical`) never proposes
    f = duel(points=0)
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(4, 5))
    assert "fate_offered" not in f.kinds(events) and f.of("attack", events)
    g = duel()
    events = g.breath("genzaburo", use("horizontal-cut", "oni"), faces=(1, 2))
    assert "fate_offered" not in g.kinds(events) and g.of("attack", events)[0].data["outcome"] == "miss"


def test_the_other_offer_reading_offers_every_double(tmp_path: Path) -> None:
    # rule: SG.FAT.1 — `fate.intervention_offered: whenever-a-double-can-be-made`: the 1-2 miss may be
    # shifted too (onto a Fumble: the unit's own choice)
    content = catalog_with(
        tmp_path, {"resolution": {"fate": {"intervention_offered": "whenever-a-double-can-be-made"}}}
    )
    f = duel(content=content)
    f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(1, 2))
    assert f.legal() == [
        FateIntervention("genzaburo", 0),
        FateIntervention("genzaburo", 1),
        Decline("genzaburo"),
    ]
    events = f.do(FateIntervention("genzaburo", 0))  # 2-2: a Fumble (no Karmic Retribution)
    assert f.of("attack", events)[0].data["outcome"] == "fumble"


def test_only_an_offered_shift_is_legal_and_the_gm_waits() -> None:
    # rule: SG.FAT.1 — a die that is not offered, or a Fate decision nobody is waiting for, is refused
    # naming the rule; the GM's adjustments wait until the attack is resolved
    f = duel()
    with pytest.raises(IllegalActionError) as err:
        f.do(FateIntervention("genzaburo", 0))
    assert err.value.rule == "SG.FAT.1"
    f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(4, 5))
    for bad in (FateIntervention("genzaburo", 2), FateIntervention("oni", 0)):
        with pytest.raises(IllegalActionError) as err:
            f.do(bad)
        assert err.value.rule == "SG.FAT.1"
    with pytest.raises(IllegalActionError):
        f.do(GmSetWounds("oni", 1))


def last_stand(points: int = 1, wounds: int = 1) -> Fight:
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "wounds": wounds, "overrides": {"fate_points": points}},
            {"creature": "oni", "side": "b", "zone": "own-front"},
        )
    ).begin()
    f.do(Pass("genzaburo"))
    return f


def test_last_bastion_is_offered_against_the_fatal_hit_and_makes_it_miss() -> None:
    # rule: SG.FAT.2 — the Oni's Heavy Blow (2 Wounds) hits Genzaburo's last Wound: he may spend Fate so
    # the hit check misses; the Wounds stay, the point is spent
    f = last_stand()
    events = f.breath("oni", use("heavy-blow", "genzaburo"), faces=(5, 6))
    d = f.state.decision
    assert d is not None and d.kind is DecisionKind.LAST_BASTION and d.unit == "genzaburo"
    assert f.legal() == [LastBastion("genzaburo"), Decline("genzaburo")]
    [offer] = f.of("last_bastion_offered", events)
    assert offer.rule == "SG.FAT.2" and (offer.data["wounds"], offer.data["wounds_now"]) == (2, 1)
    events = f.do(LastBastion("genzaburo"))
    attack = f.of("attack", events)[0]
    assert attack.data["outcome"] == "miss" and attack.data["last_bastion"]
    assert f.u("genzaburo").wounds == 1 and f.u("genzaburo").fate_points == 0


def test_declining_the_bastion_lets_the_blow_fall() -> None:
    # rule: SG.FAT.2 — declined, the fatal blow lands: Incapacitated (and the combat ends: a death check)
    f = last_stand()
    f.breath("oni", use("heavy-blow", "genzaburo"), faces=(5, 6))
    f.do(Decline("genzaburo"), 9, 9)
    assert f.u("genzaburo").incapacitated and f.u("genzaburo").fate_points == 1


def test_no_bastion_when_the_blow_is_not_fatal_or_without_points() -> None:
    # rule: SG.FAT.2 — only the attack that would reduce Wounds to 0, and only with a point to spend
    f = last_stand(wounds=3)
    events = f.breath("oni", use("heavy-blow", "genzaburo"), faces=(5, 6))
    assert "last_bastion_offered" not in f.kinds(events) and f.u("genzaburo").wounds == 1
    g = last_stand(points=0)
    events = g.breath("oni", use("heavy-blow", "genzaburo"), faces=(5, 6, 9, 9))
    assert "last_bastion_offered" not in g.kinds(events) and g.u("genzaburo").incapacitated


def test_the_heuristic_spends_fate_when_it_pays() -> None:
    # rule: SG.FAT.1  rule: SG.FAT.2 — Last Bastion always; Fate Intervention when the Critical Hit turns
    # a miss into a hit, fells the target the plain hit would not, or leaves a point for a Last Bastion;
    # and toward a double 10 (the Heavenly Mandate) when it can
    policy = lambda f: HeuristicPolicy(f.rules).choose(f.state, f.legal())  # noqa: E731
    f = last_stand()
    f.breath("oni", use("heavy-blow", "genzaburo"), faces=(5, 6))
    assert policy(f) == LastBastion("genzaburo")
    g = duel(points=2)
    g.breath("genzaburo", use("horizontal-cut", "oni"), faces=(9, 10))
    assert policy(g) == FateIntervention("genzaburo", 0)  # 10-10: the Mandate
    h = duel(points=1)  # one point, a plain hit on a healthy Oni: keep it for a Last Bastion
    h.breath("genzaburo", use("horizontal-cut", "oni"), faces=(4, 5))
    assert policy(h) == Decline("genzaburo")
    k = duel(points=1, wounds=2)  # the critical (2) fells an Oni the hit (1) would not
    k.breath("genzaburo", use("horizontal-cut", "oni"), faces=(4, 5))
    assert isinstance(policy(k), FateIntervention)


def test_the_heuristic_keeps_its_fate_when_the_plain_hit_already_fells() -> None:
    # rule: SG.FAT.1  rule: SG.CRT.1  rule: SG.WND.4 — 4-5 hits the Oni's last Wound: the Critical Hit a
    # shift makes (2 Wounds) takes no more from a target that falls anyway, so the point is kept even
    # with one to spare for a Last Bastion; with 2 Wounds left the same roll's critical fells and pays
    policy = lambda f: HeuristicPolicy(f.rules).choose(f.state, f.legal())  # noqa: E731
    for wounds, spends in ((1, False), (2, True)):
        f = duel(points=2, overrides={"wounds": wounds})
        f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(4, 5))
        assert f.state.decision is not None and f.state.decision.kind is DecisionKind.FATE
        assert isinstance(policy(f), FateIntervention) is spends, wounds


def test_the_heuristic_does_not_feed_a_last_bastion() -> None:
    # rule: SG.FAT.1  rule: SG.FAT.2 — the Oni (2 Wounds) holds a Fate point: a critical that takes its
    # last Wounds meets its Last Bastion and misses, where the plain hit takes a Wound; the point is kept
    policy = lambda f: HeuristicPolicy(f.rules).choose(f.state, f.legal())  # noqa: E731
    f = duel(points=2, overrides={"wounds": 2, "fate_points": 1})
    f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(4, 5))
    assert policy(f) == Decline("genzaburo")
    f.do(Decline("genzaburo"))
    assert f.u("oni").wounds == 1 and f.u("oni").fate_points == 1


def test_the_heuristic_reads_a_failed_evasion_into_the_critical() -> None:
    # rule: SG.FAT.1  rule: SG.RES.4 — Kuro (2 Wounds) answers with Emergency Evasion, which a failure
    # still turns into 1 Wound off the blow, never below 1: the critical (2) and the hit (1) both take 1
    # if it fails, and nothing if it succeeds, so the point buys nothing and is kept
    policy = lambda f: HeuristicPolicy(f.rules).choose(f.state, f.legal())  # noqa: E731
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "overrides": {"fate_points": 2}},
            {"creature": "kuro", "side": "b", "zone": "own-front", "overrides": {"fate_points": 0}},
        )
    ).begin()
    while f.decider != "genzaburo":
        f.do(Pass(f.decider or ""))
    f.set_unit("kuro", wounds=2, reservations=(Reservation("emergency-evasion"),))
    f.breath("genzaburo", use("horizontal-cut", "kuro"))
    f.do(React("kuro", "emergency-evasion"), 4, 5)
    assert f.state.decision is not None and f.state.decision.kind is DecisionKind.FATE
    assert policy(f) == Decline("genzaburo")


def test_the_heuristic_pays_for_a_teppo_critical_that_strikes_the_enemy_behind() -> None:
    # rule: SG.FAT.1  rule: SG.CRT.2 — the gunner's plain hit fells the first ashigaru (1 Wound); the
    # teppo's critical also takes 1 Wound from the enemy behind it (another of its side in its zone),
    # worth the point the gunner can spare; with nobody behind the point is kept
    policy = lambda f: HeuristicPolicy(f.rules).choose(f.state, f.legal())  # noqa: E731
    gunner = {"fate_points": 2}
    for behind in (True, False):
        units: list[dict[str, object]] = [
            {"creature": "ashigaru-gunner", "side": "a", "zone": "own-front", "overrides": gunner},
            {"id": "first", "creature": "ashigaru", "side": "b", "zone": "core"},
        ]
        if behind:
            units.append({"id": "second", "creature": "ashigaru", "side": "b", "zone": "core"})
        f = Fight(scenario(*units)).begin()
        while f.decider != "ashigaru-gunner":
            f.do(Pass(f.decider or ""))
        f.breath("ashigaru-gunner", use("teppo-shot", "first"), faces=(8, 9))
        assert f.state.decision is not None and f.state.decision.kind is DecisionKind.FATE
        assert isinstance(policy(f), FateIntervention) is behind


def test_a_battle_with_fate_replays_from_its_chronicle() -> None:
    # rule: SG.FAT.1 — the decisions are actions in the log: the chronicle replays byte for byte
    s = load_scenario("burning-temple")
    fight = run_battle(s)
    kinds = {e.kind for e in fight.events}
    assert {"fate_intervention", "last_bastion", "fate_spent"} <= kinds
    again = CoreFight.from_json(fight.to_json())
    assert again.log_json() == fight.log_json() and again.ruleset is RULESET
