"""Combat end (SG.END.1 house default), the GM's adjustments, and what follows: death checks (SG.INP.3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kassen.core.errors import IllegalActionError
from kassen.sengoku.battle import GmEndCombat, GmSetWounds, Pass, Phase

from .helpers import NO_FATE, Fight, house, scenario, use


def duel(catalog: object = None, **extra: object) -> Fight:
    return Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "overrides": NO_FATE},
            {"creature": "oni", "side": "b", "zone": "own-front", "wounds": 1},
            content=catalog,  # type: ignore[arg-type]
            **extra,
        )
    ).begin()


def test_the_combat_ends_after_the_breath_that_leaves_a_side_unable_to_act() -> None:
    # rule: SG.END.1 — house default: a side with no unit able to act ends the combat, checked after
    # each breath (not at the lull); then the death checks (SG.INP.3) run by themselves
    f = duel()
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), use("parry"), faces=(5, 6, 2, 9))
    kinds = f.kinds(events)
    assert kinds.index("removed") < kinds.index("combat_over") < kinds.index("death_check")
    assert "lull" not in kinds
    over = f.of("combat_over", events)[0]
    assert over.automatic and over.rule == "SG.END.1" and over.data["winner"] == "a"
    assert f.state.phase is Phase.OVER and f.state.over
    assert f.legal() == []
    death = f.of("death_check", events)[0]
    assert death.automatic and death.rule == "SG.INP.3" and death.data["total"] == 2 + 9 + 3
    assert f.state.deaths[0].survives
    with pytest.raises(IllegalActionError) as err:
        f.do(Pass("genzaburo"))
    assert err.value.rule == "SG.END.1"


def test_the_gm_may_end_the_combat(tmp_path: Path) -> None:
    # rule: SG.END.1 — "or on GM decision"; the house may take that away
    f = duel()
    events = f.do(GmEndCombat("the oni flees into the mist", winner="a"))
    over = f.of("combat_over", events)[0]
    assert not over.automatic and f.state.result is not None and f.state.result.winner == "a"
    f = duel(house(tmp_path, "SG.END.1", gm_may_end=False))
    with pytest.raises(IllegalActionError) as err:
        f.do(GmEndCombat())
    assert err.value.rule == "SG.END.1"


def test_the_gm_sets_wounds_and_the_rules_follow() -> None:
    # rule: SG.END.1 — the GM's adjustment to 0 Wounds incapacitates (SG.INP.1) and may end the combat
    f = duel()
    with pytest.raises(IllegalActionError) as err:
        f.do(GmSetWounds("oni", 9))
    assert err.value.rule == "SG.WND.4"
    f.do(GmSetWounds("genzaburo", 2))
    assert f.u("genzaburo").wounds == 2 and f.decider == "genzaburo"
    events = f.do(GmSetWounds("oni", 0), 5, 5)  # the Oni's death check
    assert f.u("oni").incapacitated and f.state.phase is Phase.OVER
    assert f.of("combat_over", events)[0].data["winner"] == "a"


def test_every_battle_ends_at_the_round_limit() -> None:
    # rule: SG.END.1 — house default: the GM calls the fight off after the round limit (here the
    # scenario's: 2 rounds)
    f = duel(rounds=2)
    while not f.state.over:
        f.do(Pass(f.decider or ""))
    assert f.state.round == 2 and f.state.result is not None and f.state.result.winner is None
    assert "round limit" in f.state.result.reason


def test_out_states_are_house_data(tmp_path: Path) -> None:
    # rule: SG.END.1 — which states count as out is the house default's list: without `retreated`, a side
    # whose last unit has left still counts
    cat = house(tmp_path, "SG.END.1", out_states=["incapacitated", "routed"])
    f = Fight(
        scenario(
            {"creature": "kuro", "side": "a", "zone": "own-rear"},
            {"creature": "oni", "side": "b", "zone": "enemy-rear"},
            content=cat,
        )
    ).begin()
    f.breath("kuro", use("retreat"))
    assert f.state.phase is not Phase.OVER


def test_checked_in_the_lull(tmp_path: Path) -> None:
    # rule: SG.END.1 — with `checked: in-the-lull` the count runs on until the lull
    f = duel(house(tmp_path, "SG.END.1", checked="in-the-lull"))
    events = f.breath("genzaburo", use("horizontal-cut", "oni"), faces=(5, 6))
    assert "combat_over" not in f.kinds(events) and f.decider == "genzaburo"
    events = f.do(Pass("genzaburo"), 5, 5)
    kinds = f.kinds(events)
    assert kinds.index("lull") < kinds.index("combat_over")


def routed_squad(catalog: object = None) -> Fight:
    f = Fight(
        scenario(
            {"creature": "kuro", "side": "a", "zone": "own-rear"},
            {"id": "squad", "creature": "ashigaru-squad", "side": "a", "zone": "own-rear"},
            {"creature": "oni", "side": "b", "zone": "enemy-rear"},
            content=catalog,  # type: ignore[arg-type]
        )
    ).begin()
    f.breath("kuro", use("retreat", squads=("squad",)), faces=(1, 2))  # the squad fails its check
    return f


def test_a_routed_squad_left_alone_is_pursued_from_the_next_round(tmp_path: Path) -> None:
    # rule: SG.END.1  rule: SG.RD.11 — house default: a routed squad is not out (SG.RET.2: it "remains on
    # the battlefield in Rout state" and is a pursuit target from the next round). Kuro retreats, the squad
    # that failed to follow him routs, and the combat goes on; with `routed` among the out states (the
    # other reading) side a has no unit able to act and the combat ends at once (b wins)
    f = routed_squad()
    assert f.u("kuro").retreated and f.u("squad").routed and not f.u("squad").retreated
    assert "combat_over" not in f.kinds() and f.state.phase is not Phase.OVER
    g = routed_squad(house(tmp_path, "SG.END.1", out_states=["incapacitated", "retreated", "routed"]))
    over = g.of("combat_over")[0]
    assert over.rule == "SG.END.1" and over.automatic and over.data["winner"] == "b"
    assert g.state.phase is Phase.OVER
