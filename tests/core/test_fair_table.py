"""Nobody sees what is not theirs: for every ruleset, two fights that differ only in one side's hidden
values (and in the seed) give the other side exactly the same things at every step — its view, its
view id, the status lines, the log in words, the action waiting for dice, its menus (labels, odds,
refusals) and the errors its attempts get (``fair.received``).

Both fights are played in table dice mode with the same faces typed (``fair.TableDice``), so their own
seeds roll nothing, and with the same actions (those the first fight's policies choose). A hidden value
may still show through what the rules make public — a blow that crosses a wound rank, a Fate point
offered only to a unit that has one — so each pair's values and faces are ones under which no such
threshold is crossed before the fight ends; the test checks that the pair did differ (the GM's views
are not equal) and that the hidden values were in play (the events that carry them happened).

The web table's event streams and HTTP replies are checked by its own tests (``tests/web``).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from fair import TableDice, received

import kassen
from kassen.core.fight import Fight
from kassen.core.rng import fresh_seed
from kassen.core.scenario import _bundled_files
from kassen.core.view import GM_VIEW


def _first_difference(a: Any, b: Any, path: str = "") -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: in one only"
            found = _first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = _first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None if len(a) == len(b) else f"{path}: {len(a)} items against {len(b)}"
    return None if a == b else f"{path}: {str(a)[:200]!r} against {str(b)[:200]!r}"


def _with(ruleset: str, name: str, change: Any, tmp_path: Path, label: str) -> Path:
    data = yaml.safe_load(_bundled_files(ruleset)[name].read_text("utf-8"))
    changed = copy.deepcopy(data)
    change(changed)
    assert changed != data
    path = tmp_path / f"{label}.yaml"
    path.write_text(yaml.safe_dump(changed, sort_keys=False), "utf-8")
    return path


def play_pair(
    a_path: Path, b_path: Path, observer: str, faces: int
) -> tuple[Fight[Any, Any], Fight[Any, Any]]:
    """Play the pair to its end, comparing what ``observer`` receives before every action and at the
    end; returns the two fights."""
    a = kassen.open_fight(a_path, seed=1, dice="table")
    b = kassen.open_fight(b_path, seed=fresh_seed(), dice="table")
    dice_a, dice_b = TableDice(faces), TableDice(faces)
    gm_differs = False
    for step in range(500):
        found = _first_difference(received(a, observer), received(b, observer))
        assert found is None, f"side {observer} is shown a difference before action {step}: {found}"
        gm_differs = gm_differs or a.view(GM_VIEW)["state"] != b.view(GM_VIEW)["state"]
        if a.over:
            break
        action = a.decide()
        dice_a.play(a, action)
        dice_b.play(b, action)
    assert a.over and b.over and gm_differs
    return a, b


def _kinds(fight: Fight[Any, Any], owner_key: str, owners: set[str]) -> set[str]:
    return {e.kind for e in fight.events if e.data.get(owner_key) in owners}


def _set_fate(side: str, points: int) -> Any:
    def change(data: dict[str, Any]) -> None:
        for unit in data["units"]:
            if unit["side"] == side:
                unit.setdefault("overrides", {})["fate_points"] = points + (unit.get("creature") == "lord")

    return change


@pytest.mark.parametrize(
    ("scenario", "observer", "hidden", "faces"),
    [("demo", "party", "takeda", 0), ("count-example", "yoma", "party", 1)],
    ids=["demo-party-sees-takeda", "count-example-yoma-sees-party"],
)
def test_sengoku_fate_points_reach_no_other_side(
    tmp_path: Path, scenario: str, observer: str, hidden: str, faces: int
) -> None:
    # rule: SG.FAT.1
    # rule: SG.FAT.2
    # rule: SG.RES.1
    # enough Fate points that no unit runs out before the end (an offer shows a unit has one: a unit that
    # takes a Last Bastion at every blow that would fell it spends many)
    a_path = _with("sengoku", scenario, _set_fate(hidden, 16), tmp_path, "a")
    b_path = _with("sengoku", scenario, _set_fate(hidden, 19), tmp_path, "b")
    a, b = play_pair(a_path, b_path, observer, faces)
    theirs = {u.id for u in a.state.units if u.side == hidden}
    assert {u.fate_points for u in a.initial_state.units if u.id in theirs} != {
        u.fate_points for u in b.initial_state.units if u.id in theirs
    }
    # the units whose Fate points differ did fight: they took breaths, attacked and were attacked
    assert "breath" in _kinds(a, "unit", theirs)
    assert "attack" in _kinds(a, "attacker", theirs) and "attack" in _kinds(a, "target", theirs)
    # their specs carry no Fate points: the units whose only override is Fate points have none at all
    assert all(u.spec == "" for u in a.initial_state.units if u.id in theirs)


def _arena_hidden(side: str, hp: int, fp: int, guts: int) -> Any:
    def change(data: dict[str, Any]) -> None:
        for f in data["fighters"]:
            if f["side"] == side:
                f.update(hp=hp, fp=fp, guts_bonus={"checks": ["death", "zero_hp"], "min_fp_after": guts})

    return change


@pytest.mark.parametrize(("observer", "hidden", "faces"), [("east", "west", 5), ("west", "east", 8)])
def test_arena_hp_fp_and_guts_plans_reach_no_other_side(
    tmp_path: Path, observer: str, hidden: str, faces: int
) -> None:
    # rule: AR.GAP.2
    # rule: AR.GUT.3
    a_path = _with("arena", "duel", _arena_hidden(hidden, 16, 15, 4), tmp_path, "a")
    b_path = _with("arena", "duel", _arena_hidden(hidden, 18, 17, 6), tmp_path, "b")
    a, _ = play_pair(a_path, b_path, observer, faces)
    theirs = {f.profile.id for f in a.state.fighters if f.profile.side == hidden}
    assert "injury" in _kinds(a, "fighter", theirs)  # its HP changed where the other side looked on


@pytest.mark.parametrize(("observer", "hidden", "faces"), [("Crane", "Crab", 6), ("Crab", "Crane", 3)])
def test_l5r_wounds_reach_no_other_side(tmp_path: Path, observer: str, hidden: str, faces: int) -> None:
    # rule: L5.CORE.6
    def wounds(n: int) -> Any:
        def change(data: dict[str, Any]) -> None:
            for c in data["characters"]:
                if c["side"] == hidden:
                    c["wounds"] = n

        return change

    a_path = _with("l5r", "kakita-vs-hida", wounds(0), tmp_path, "a")
    b_path = _with("l5r", "kakita-vs-hida", wounds(1), tmp_path, "b")
    a, _ = play_pair(a_path, b_path, observer, faces)
    theirs = {f.character.name for f in a.state.fighters if f.character.side == hidden}
    assert "wounds" in _kinds(a, "fighter", theirs)  # blows landed on the side whose Wounds are hidden
