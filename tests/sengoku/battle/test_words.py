"""Every event of a battle has words, and none of them are placeholders or nonsense (issue 13's defect:
a curse-insect hit said `?: Defense −?`, a Kata doing 0 Wounds said "Wounds 30 → 30")."""

from __future__ import annotations

import re

import pytest

from kassen.core.fight import Fight as CoreFight
from kassen.core.report import account
from kassen.sengoku.battle import RULESET, Pass, load_scenario, run_battle

from .helpers import NO_FATE, Fight, scenario, use

_SAME = re.compile(r"(\d+) → \1\b")


def _bad(text: str) -> list[str]:
    return [
        line
        for line in text.splitlines()
        if "?" in line or "no words for this event" in line or _SAME.search(line) or "0 Wound(s)" in line
    ]


@pytest.mark.parametrize("name", ["demo", "count-example", "burning-temple"])
def test_bundled_battles_are_told_without_placeholders(name: str) -> None:
    # rule: SG.RND.2 — every event of every bundled battle over a few seeds: words, no "?", no change
    # that changes nothing
    s = load_scenario(name)
    for seed in range(6):
        text = account(run_battle(s, seed), verbose=True)
        assert _bad(text) == []


def test_a_curse_and_a_bind_are_told_as_what_they_do() -> None:
    # rule: SG.DBF.1  rule: SG.DBF.3 — a Kata that wounds nobody says so, and its Defense −N says its
    # value, its source and the total when it accumulates (SG.RD.3), never "?: Defense −?" nor "30 → 30"
    f = Fight(
        scenario(
            {"creature": "dokuchushi", "side": "a", "zone": "own-front", "overrides": NO_FATE},
            {"creature": "samurai", "side": "b", "zone": "own-front", "wounds": 4},
        )
    ).begin()
    f.breath("dokuchushi", use("plant-curse-insect", "samurai"), faces=(6, 5))
    f.do(Pass("samurai"))
    f.breath("dokuchushi", use("plant-curse-insect", "samurai"), faces=(6, 5))
    fight = CoreFight(RULESET, f.content, f.scenario.state, 0)
    text = account(fight, events=[e.to_json() for e in f.events])
    assert _bad(text) == []
    assert "no Wounds (the blow's effect is all it does)" in text
    assert "Samurai: Defense −1 (Curse-insect parasitism)" in text
    assert "Defense −2 in all" in text
    assert "Wounds 4 → 4" not in text
