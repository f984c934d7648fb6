"""When Defenseless ends (the SG.DFL.3 readings) and which Defenseless bars evasion (SG.DFL.2 with an
ambush's, SG.AMB.1, and a rout's, SG.RET.5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kassen.core.errors import IllegalActionError
from kassen.sengoku.battle import Breath, Decline, Pass, React, Reservation
from kassen.sengoku.battle.plan import usable_reservations
from kassen.sengoku.catalog import Catalog

from .helpers import CATALOG, NO_FATE, Fight, house, scenario, use


def after_a_failed_exit(catalog: Catalog | None = None) -> Fight:
    """Genzaburo fails a Core Zone Exit (Defenseless); the Oni passes; it is Genzaburo's breath again."""
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "core"},
            {"creature": "oni", "side": "b", "zone": "core"},
            content=catalog,
        )
    ).begin()
    f.breath("genzaburo", use("core-zone-exit", to="own-front"), faces=(1, 2))
    assert f.u("genzaburo").defenseless
    f.do(Pass("oni"))
    return f


def test_the_house_reading_of_when_defenseless_ends() -> None:
    # rule: SG.DFL.3 — the catalog's reading follows the seed's words: Defenseless ends as the next
    # action starts, before its breath is declared; a React is not the unit's next action
    timing = CATALOG.house_default("SG.DFL.3")
    assert timing.restrictions_apply_to_next_breath is False  # type: ignore[attr-defined]
    assert timing.reaction_ends_defenseless is False  # type: ignore[attr-defined]
    assert "Alternative" in timing.rationale


def test_the_other_reading_declares_the_next_breath_while_defenseless(tmp_path: Path) -> None:
    # rule: SG.DFL.3 — `restrictions_apply_to_next_breath: true`: no stance in the breath after
    f = after_a_failed_exit(house(tmp_path, "SG.DFL.3", restrictions_apply_to_next_breath=True))
    before = f.state
    with pytest.raises(IllegalActionError) as err:
        f.do(Breath("genzaburo", (use("immovable-formation"),)))
    assert err.value.rule == "SG.DFL.2" and f.state is before


def test_by_default_defenseless_ends_before_the_breath_is_declared() -> None:
    # rule: SG.DFL.3 — the seed's words ("removed when your next action starts"): Defenseless ends before
    # the breath is declared, so the breath right after may take a stance, and the account says it ended
    # before that breath's stance
    f = after_a_failed_exit()
    events = f.breath("genzaburo", use("immovable-formation"))
    kinds = f.kinds(events)
    assert kinds.index("defenseless_ends") < kinds.index("stance")
    assert f.of("defenseless_ends", events)[0].rule == "SG.DFL.3"
    assert not f.u("genzaburo").defenseless and f.u("genzaburo").stances == ("immovable-formation",)


def parried_while_defenseless(catalog: Catalog | None = None) -> Fight:
    """Genzaburo, Defenseless and holding a parry, is cut by the Oni and parries."""
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "own-front"},
            content=catalog,
        )
    ).begin()
    f.breath("genzaburo", use("parry"))
    f.do(Pass("genzaburo"))
    f.set_unit("genzaburo", defenseless=True)
    f.breath("oni", use("heavy-blow", "genzaburo"))
    assert f.decider == "genzaburo"
    f.do(React("genzaburo", "parry"), 6, 5, 10, 9)
    return f


def test_by_default_a_reaction_does_not_end_defenseless() -> None:
    # rule: SG.DFL.3 — `reaction_ends_defenseless: false`: the parry is not the unit's next action, so
    # the attack meets Defense −4 and the unit is still Defenseless after it
    f = parried_while_defenseless()
    attack = f.of("attack")[0]
    assert attack.data["reaction"] == "parry"
    assert any("Defenseless" in str(s["reason"]) for s in attack.data["defense_steps"])
    assert f.u("genzaburo").defenseless and "defenseless_ends" not in f.kinds()


def test_the_other_reading_a_reaction_ends_defenseless(tmp_path: Path) -> None:
    # rule: SG.DFL.3 — `reaction_ends_defenseless: true`: the parry starts the unit's next action, so its
    # Defenseless ends before the attack is resolved
    f = parried_while_defenseless(house(tmp_path, "SG.DFL.3", reaction_ends_defenseless=True))
    ends = f.of("defenseless_ends")
    assert [(e.rule, e.data["when"]) for e in ends] == [("SG.DFL.3", "its reaction starts")]
    attack = f.of("attack")[0]
    assert not any("Defenseless" in str(s["reason"]) for s in attack.data["defense_steps"])
    assert not f.u("genzaburo").defenseless


def test_evasion_is_chosen_free_of_defenseless_only_under_both_other_readings(tmp_path: Path) -> None:
    # rule: SG.DFL.3 — a reaction chosen after Defenseless ends (`reaction_ends_defenseless` flipped, with
    # the house's `restrictions_apply_to_next_breath: false`) may be an evasion; with the other reading of
    # the breath too it is still chosen under Defenseless
    for flip, allowed in (
        ({"reaction_ends_defenseless": True, "restrictions_apply_to_next_breath": True}, False),
        ({"reaction_ends_defenseless": True}, True),
    ):
        sub = tmp_path / str(allowed)
        sub.mkdir()
        f = Fight(
            scenario(
                {"creature": "kuro", "side": "a"},
                {"creature": "oni", "side": "b", "zone": "own-front"},
                content=house(sub, "SG.DFL.3", **flip),
            )
        ).begin()
        f.do(Pass("kuro"))
        f.set_unit("kuro", defenseless=True, reservations=(Reservation("emergency-evasion"),))
        usable = usable_reservations(f.rules, f.state, f.u("kuro"))
        assert usable == (("emergency-evasion",) if allowed else ())


@pytest.mark.parametrize("status", [True, False])
def test_an_ambushed_target_cannot_evade_the_ambush(tmp_path: Path, status: bool) -> None:
    # rule: SG.DFL.2  rule: SG.RD.10 — a basic ambush's Defenseless (SG.AMB.1) bars evasion against the
    # ambusher's attack. With the house reading it is the status, so the second attack of the breath finds
    # the target still Defenseless and its evasion still barred; with the other reading it holds against
    # the first attack only. (A Pass does not count as a breath here, so Kuro is still unseen.)
    content = house(
        tmp_path, "SG.RD.10", basic_ambush_releases_stance=status, pass_or_hold_counts_as_breath=False
    )
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "zone": "own-flank", "overrides": NO_FATE},
            {"creature": "kuro", "side": "b", "zone": "own-flank"},
            content=content,
        )
    ).begin()
    f.do(Pass("kuro"))  # no breath taken: still unseen from the flank
    f.set_unit("kuro", reservations=(Reservation("emergency-evasion"), Reservation("parry")))
    f.breath("genzaburo", use("horizontal-cut", "kuro"), use("horizontal-cut", "kuro"))
    d = f.state.decision
    assert d is not None and d.unit == "kuro" and d.ambushed
    assert [getattr(a, "maneuver", None) for a in f.legal()] == ["parry", None]
    assert f.u("kuro").defenseless is status
    before = f.state
    with pytest.raises(IllegalActionError) as err:
        f.do(React("kuro", "emergency-evasion"))
    assert err.value.rule == "SG.DFL.2" and f.state is before
    f.do(Decline("kuro"), 1, 2)  # the ambush attack misses; the second attack waits for an answer
    d = f.state.decision
    assert d is not None and d.unit == "kuro" and not d.ambushed
    evasion = "emergency-evasion" in [getattr(a, "maneuver", None) for a in f.legal()]
    assert evasion is not status


def test_a_routed_squad_cannot_evade_once_its_rout_makes_it_defenseless() -> None:
    # rule: SG.DFL.2 — a routed squad counts as Defenseless (SG.RET.5's default: from the round after its
    # rout), and so cannot use an evasion from then on
    f = Fight(
        scenario(
            {"id": "squad", "creature": "ashigaru-squad", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "own-front"},
        )
    ).begin()
    rules = f.rules
    held = (Reservation("emergency-evasion"), Reservation("parry"))
    f.set_unit("squad", routed=True, routed_round=f.state.round, reservations=held)
    assert usable_reservations(rules, f.state, f.u("squad")) == ("emergency-evasion", "parry")
    f.set_unit("squad", routed_round=f.state.round - 1)
    assert not f.u("squad").defenseless
    assert usable_reservations(rules, f.state, f.u("squad")) == ("parry",)
