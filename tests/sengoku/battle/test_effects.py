"""A hit's lasting effects in a battle: Wounds to the enemy behind, Defense −N statuses and their
duration, [Break] damage kept on the armor (seed 000 rules, applied by the engine to its state)."""

from __future__ import annotations

from kassen.sengoku.battle import Pass

from .helpers import Fight, scenario, use


def test_the_enemy_behind_takes_its_wound() -> None:
    # rule: SG.WND.3 — Piercing Arrow: 1 Wound to the enemy behind (house reading: another unit of the
    # target's side in the target's zone)
    f = Fight(
        scenario(
            {"creature": "gaijin-archer", "side": "a"},
            {"creature": "oni", "side": "b", "zone": "core"},
            {"creature": "samurai", "side": "b", "zone": "core"},
        )
    ).begin()
    assert f.decider == "gaijin-archer"
    events = f.breath("gaijin-archer", use("piercing-arrow", "oni"), faces=(5, 4))
    assert f.u("oni").wounds == 2 and f.u("samurai").wounds == 3
    behind = f.of("behind", events)[0]
    assert behind.data["unit"] == "samurai" and behind.rule == "SG.WND.3"


def test_a_defense_debuff_holds_then_counts_down_in_the_lull() -> None:
    # rule: SG.DBF.1 — Chain Bind puts Defense −2 on the target for a round; every attacker rolls against
    # it; the lull counts it down (SG.DBF.3)
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a"},
            {"creature": "dokuchushi", "side": "b", "zone": "own-front"},
        )
    ).begin()
    f.do(Pass("genzaburo"))
    events = f.breath(
        "dokuchushi", use("chain-bind", "genzaburo"), use("sickle-cut", "genzaburo"), faces=(6, 4, 1, 2)
    )
    assert f.of("debuff", events)[0].data["debuff"] == "kusarigama-bind"
    cut = f.of("attack", events)[1]
    assert cut.data["defense"] == 10  # 12 − 2
    while f.state.round == 1:
        f.do(Pass(f.decider or ""))
    assert f.u("genzaburo").debuffs == () and f.of("debuffs_count_down")


def test_break_keeps_the_pierce_on_the_armor() -> None:
    # rule: SG.BRK.2 — a [Pierce 3] + [Break] hit by equipment of at least the armor's grade leaves the
    # reduction on the armor until repaired
    f = Fight(
        scenario(
            {"creature": "oni", "side": "a"},
            {"creature": "samurai", "side": "b", "zone": "own-front", "overrides": {"maneuvers": []}},
        )
    ).begin()
    f.do(Pass("samurai"))  # Finesse 1 puts the samurai before the Oni
    events = f.breath("oni", use("crushing-blow", "samurai"), faces=(4, 3))
    assert f.of("attack", events)[0].data["defense"] == 11  # 14 − 3
    assert f.u("samurai").armor_damage == 3 and f.of("armor_broken", events)
    events = f.breath("oni", use("claw-rake", "samurai"), faces=(1, 2))
    assert f.of("attack", events)[0].data["defense"] == 11
