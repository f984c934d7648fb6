"""Sengoku campaigns: a survivor of the death check fights its next battles "with serious injury" —
1 Wound and -1 on every check it makes until a full day's rest (house default over SG.INP.3's GAP,
resolution.yaml ``death_check.serious_injury``; data/campaign.yaml ``serious_injury``)."""

from __future__ import annotations

from typing import Any

from kassen.campaign.roster import Campaigns
from kassen.core.engine import GM
from kassen.core.fight import Fight
from kassen.sengoku.battle import Begin, Breath, Use
from kassen.sengoku.battle.actions import GmEndCombat
from kassen.sengoku.death import death_check_modifier

from .test_sengoku import CAST, FORD, first_battle, roster, to


def next_battle(c: Campaigns, seed: int) -> Fight[Any, Any]:
    c.start_fight("ford", FORD, CAST)
    return c.open("ford", seed=seed, dice="table")


def cut(fight: Fight[Any, Any]) -> tuple[int, tuple[Any, ...]]:
    """The lord's Horizontal Cut modifier, as the battle's rules work it out."""
    rules = fight.tables
    unit = fight.state.unit("nobukado")
    tech = rules.catalog.technique_for(rules.creature(unit), "horizontal-cut")
    modifier, steps = rules.attack_modifier(rules.base_profile(unit), tech)
    return modifier, steps


def test_a_survivor_takes_minus_one_on_every_check_until_a_rest(campaigns: Campaigns) -> None:
    # rule: SG.INP.3 — "survive with serious injury": the house default's -1 on every check takes effect
    c = campaigns
    roster(c)
    c.start_fight("ford", FORD, CAST)
    c.propose("ford", first_battle(c, [6, 5]))  # 6 + 5 + Physique 1 = 12 >= 11: survives
    c.confirm("ford")
    assert c.character("ford", "nobukado").lasting["serious_injury"]

    injured = next_battle(c, seed=4)
    lord = injured.state.unit("nobukado")
    assert injured.tables.check_penalty(lord) == 1
    modifier, steps = cut(injured)
    assert [s.rule for s in steps if s.value == -1] == ["SG.INP.3"]
    assert death_check_modifier(injured.tables.base_profile(lord))[0] == 0  # Physique 1, less 1
    # in play: the Oni's Crushing Blow is answered by nothing here, but the lord's own check is rolled
    # with the lower modifier, and the odds the table shows say so
    injured.apply(Begin())
    to(injured, "hatamoto")
    injured.apply(GmEndCombat(winner="takeda"), by=GM, dice=[])
    c.propose("ford", injured, {"nobukado": ["rest"]})
    c.confirm("ford")
    assert not c.character("ford", "nobukado").lasting["serious_injury"]

    healed = next_battle(c, seed=4)
    assert healed.tables.check_penalty(healed.state.unit("nobukado")) == 0
    assert cut(healed)[0] == modifier + 1
    assert death_check_modifier(healed.tables.base_profile(healed.state.unit("nobukado")))[0] == 1


def test_the_penalty_is_rolled_in_the_battle(campaigns: Campaigns) -> None:
    # rule: SG.INP.3 — the injured hatamoto's cut at the Oni (Defense 12) with the faces 3 and 6: Courage 1
    # + Swordsmanship 2 - 1 = 2, 3 + 6 + 2 = 11 < 12 misses where the same faces hit it unhurt (12)
    # rule: SG.CHK.1
    c = campaigns
    roster(c)
    c.edit("ford", "hatamoto", lasting={"serious_injury": True, "wounds": 1})  # as a death check leaves it
    outcomes = []
    for healed in (False, True):
        if healed:
            c.edit("ford", "hatamoto", lasting={"serious_injury": False, "wounds": None})
        fight = next_battle(c, seed=4)
        fight.apply(Begin())
        to(fight, "hatamoto")
        events = fight.apply(Breath("hatamoto", (Use("horizontal-cut", "oni"),)), dice=[3, 6])
        attack = next(e for e in events if e.kind == "attack")
        outcomes.append((attack.data["modifier"], attack.data["total"], attack.data["outcome"]))
        said = [s for s in attack.data["modifier_steps"] if s["rule"] == "SG.INP.3"]
        assert said == ([] if healed else [{"value": -1, "reason": said[0]["reason"], "rule": "SG.INP.3"}])
        fight.apply(GmEndCombat(winner="takeda"), by=GM, dice=[])
        c.propose("ford", fight)
        c.confirm("ford")
    assert outcomes[0] == (2, 11, "miss")
    assert outcomes[1][:2] == (3, 12) and outcomes[1][2] != "miss"
