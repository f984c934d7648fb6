"""The maims' lasting disadvantages take effect (L5.GAP.1 house default, called_shots.disadvantages), and
"only the Wounds can be recovered" (L5.CS.3, called_shots.aftermath): a character carried from one duel
into the next keeps them."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen import open_fight
from kassen.cli.main import app
from kassen.core.errors import ContentError, KassenError
from kassen.core.fight import log_digest
from kassen.l5r.actions import Attack
from kassen.l5r.aftermath import Carried, aftermath, carry
from kassen.l5r.character import FighterId
from kassen.l5r.content import content_for
from kassen.l5r.injuries import bleeding_due, injury_effects
from kassen.l5r.movement import speed
from kassen.l5r.rolls import attack_pool, damage_pool, dice_change, full_defense_pool
from kassen.l5r.scenario import load_scenario
from kassen.l5r.state import DuelState, Fighter
from kassen.l5r.tables import L5Tables, Location

from .conftest import char

A = FighterId("A")
NEXT = """
ruleset: l5r
name: The next morning
characters:
  - name: Hida Tadaka
    side: Crab
    rings: {earth: 3, water: 2, fire: 2, air: 2}
    skills: {kenjutsu: 3, defense: 2}
  - name: Kakita Ryu
    side: Crane
    skills: {kenjutsu: 3}
"""


def maimed(location: Location, tables: L5Tables, injury: str = "maimed") -> Fighter:
    return maimed_too(Fighter(char("T", earth=2)), location, tables, injury)


def maimed_too(f: Fighter, location: Location, tables: L5Tables, injury: str = "maimed") -> Fighter:
    return injury_effects(
        f, location, injury, turn=1, tables=tables, attacker_weapon_skill=3, dropped=()
    ).fighter


def test_every_maims_disadvantage_has_lasting_effects_in_data(tables: L5Tables) -> None:
    # rule: L5.GAP.1 — in data with the rationale and the other reading; every condition a maim names
    d = tables.called_shots.disadvantages
    assert d.house_default.rule == "L5.GAP.1" and "core book" in d.alternative
    assert set(d.effects) == {
        "Missing Limb",
        "Lost Limb",
        "Lame",
        "Single Eye",
        "Benten's Curse",
        "Permanent Wound",
    }
    assert d.effects["Benten's Curse"] == []  # social: nothing in a fight


def test_a_disadvantage_effect_has_no_timing(tmp_path: Path) -> None:
    # rule: L5.GAP.1 — lasting means for good: a timed or immediate effect is refused, naming the field
    (tmp_path / "called_shots.yaml").write_text(
        "disadvantages:\n  effects:\n    Lame: [{kind: movement_divisor, amount: 2, turns: 3}]\n",
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as err:
        content_for(tmp_path)
    assert "no timing" in str(err.value) and "called_shots.disadvantages" in str(err.value)
    (tmp_path / "called_shots.yaml").write_text(
        "disadvantages:\n  effects:\n    Lame: [{kind: drop_weapon}]\n", encoding="utf-8"
    )
    with pytest.raises(ContentError):
        content_for(tmp_path)


def test_each_maim_leaves_its_disadvantage_with_its_effects(tables: L5Tables) -> None:
    # rule: L5.LEG.1 — Lame: movement halved, one less Full Defense die
    lame = maimed(Location.LEG, tables)
    assert "Lame" in lame.conditions and speed(lame, tables, 9).feet == 5
    plain = Fighter(char("T", earth=2, agility=4, skills=(("defense", 3),)))
    weak = maimed_too(plain, Location.LEG, tables)
    assert full_defense_pool(weak, tables, 9)[0].rolled == full_defense_pool(plain, tables, 9)[0].rolled - 1
    # rule: L5.FOT.1 — Lost Limb: three less balance dice, movement halved
    lost = maimed(Location.FOOT, tables)
    assert dice_change(lost, 9, ("balance",))[0] == -3 and speed(lost, tables, 9).feet == 5
    # rule: L5.ARM.1  rule: L5.HND.1 — Missing Limb: one less damage die
    for loc in (Location.ARM, Location.HAND):
        arm = maimed(loc, tables)
        assert damage_pool(arm, Attack(A), tables, 9, damage_raises=0)[0].rolled == 3 + 2 - 1
    # rule: L5.HED.1 — Single Eye: one less attack die; Benten's Curse: nothing
    eye = maimed(Location.HEAD, tables)
    assert attack_pool(eye, tables, 9, full_attack=False).pool.rolled == 2 + 3 - 1
    scar = maimed(Location.HEAD, tables, "maimed_scarred")
    assert "Benten's Curse" in scar.conditions
    assert attack_pool(scar, tables, 9, full_attack=False).pool.rolled == 2 + 3
    # rule: L5.TOR.1  rule: L5.RD.3 — Permanent Wound: bleeding 3 instead of 1, the seed's own effect
    torso = maimed(Location.TORSO, tables)
    assert [a for _, a, _ in bleeding_due(torso, tables, 3, "end")] == [3]


def test_healing_recovers_only_the_wounds(tables: L5Tables) -> None:
    # rule: L5.CS.3 — "neither natural or magical healing will repair the secondary effects (only the
    # Wounds can be recovered)": the Wounds go, the disadvantage and its effect stay
    lame = replace(maimed(Location.LEG, tables), wounds=20)
    state = DuelState(fighters=(lame, Fighter(char("B"))))
    [t, _] = aftermath(state, tables, recover=True)
    assert t == Carried("T", "T", 0, ("Lame",))
    [t, _] = aftermath(state, tables)
    assert t.wounds == 20 and tables.called_shots.aftermath.carry_wounds is True


def test_the_aftermath_reading_is_data(tmp_path: Path, tables: L5Tables) -> None:
    # rule: L5.CS.3 — house default: Wounds carried (the next fight follows at once); the other reading
    # heals them between fights, the disadvantages stay either way
    a = tables.called_shots.aftermath
    assert a.house_default.rule == "L5.CS.3" and "carry_wounds: false" in a.alternative
    (tmp_path / "called_shots.yaml").write_text("aftermath:\n  carry_wounds: false\n", encoding="utf-8")
    healed = content_for(tmp_path).tables
    state = DuelState(fighters=(replace(maimed(Location.LEG, tables), wounds=20), Fighter(char("B"))))
    [t, _] = aftermath(state, healed)
    assert t.wounds == 0 and t.disadvantages == ("Lame",)


def test_a_scenario_carries_disadvantages_into_the_fight(tables: L5Tables) -> None:
    # rule: L5.GAP.1 — `disadvantages:` in a scenario: the conditions and their effects from turn 1
    fight = open_fight("l5r/lame-veteran", seed=1)
    tadaka = fight.state.fighter("Hida Tadaka")
    assert tadaka.conditions == ("Lame",) and tadaka.wounds == 6
    assert speed(tadaka, fight.tables, 1).feet == 5 and dice_change(tadaka, 1, ("full_defense",))[0] == -1
    bad = NEXT.replace(
        "    skills: {kenjutsu: 3}\n", "    skills: {kenjutsu: 3}\n    disadvantages: [Hunchback]\n"
    )
    with pytest.raises(ContentError) as err:
        open_fight(load_scenario("next.yaml", text=bad))
    [issue] = err.value.issues
    assert issue.field == "characters.1.disadvantages.0" and "Hunchback" in issue.message and issue.line


def test_a_duels_end_carries_into_the_next_scenario(tables: L5Tables) -> None:
    # rule: L5.CS.3 — the survivor's Wounds and disadvantages replace what the next scenario gave him,
    # and take effect there; a dead character cannot be carried
    carried = [Carried("Hida Tadaka", "Crab", 14, ("Lame", "Lost Limb")), Carried("X", "Y", 3, ())]
    src = carry(load_scenario("next.yaml", text=NEXT), carried)
    fight = open_fight(src, seed=2)
    t = fight.state.fighter("Hida Tadaka")
    assert t.wounds == 14 and t.conditions == ("Lame", "Lost Limb")
    assert speed(t, fight.tables, 1).feet == 2  # 10 feet, halved twice
    assert fight.state.fighter("Kakita Ryu").wounds == 0
    with pytest.raises(KassenError) as err:
        carry(load_scenario("next.yaml", text=NEXT), [Carried("Hida Tadaka", "Crab", 60, (), True, "a cut")])
    assert "died" in str(err.value)


def test_the_cli_prints_the_aftermath_and_the_next_scenario(tmp_path: Path) -> None:
    # rule: L5.CS.3 — `kassen l5r aftermath CHRONICLE [--into NEXT] [--recover]`: seed 27 leaves Hida
    # Tadaka alive, Lame twice (the carried leg and a fresh leg maim: cumulative)
    runner = CliRunner()
    played = runner.invoke(app, ["l5r", "duel", "lame-veteran", "--seed", "27", "--json"])
    assert played.exit_code == 0
    chronicle = tmp_path / "ford.json"
    chronicle.write_text(played.stdout, encoding="utf-8")
    text = runner.invoke(app, ["l5r", "aftermath", str(chronicle)])
    assert text.exit_code == 0, text.stderr
    assert "only the Wounds can be recovered (L5.CS.3)" in text.stdout
    assert "  - name: Hida Tadaka\n    wounds: 58\n    disadvantages: [Lame, Lame]" in text.stdout
    as_json = runner.invoke(app, ["l5r", "aftermath", str(chronicle), "--json", "--recover"])
    rows = {r["name"]: r for r in json.loads(as_json.stdout)}
    assert rows["Hida Tadaka"] == {
        "name": "Hida Tadaka",
        "side": "Crab",
        "wounds": 0,
        "disadvantages": ["Lame", "Lame"],
    }
    nxt = tmp_path / "next.yaml"
    nxt.write_text(NEXT, encoding="utf-8")
    into = runner.invoke(app, ["l5r", "aftermath", str(chronicle), "--into", str(nxt), "--recover"])
    assert into.exit_code == 0, into.stderr
    again = tmp_path / "again.yaml"
    again.write_text(into.stdout, encoding="utf-8")
    fight = open_fight(load_scenario(str(again)), seed=1)
    t = fight.state.fighter("Hida Tadaka")
    assert t.conditions == ("Lame", "Lame") and t.wounds == 0 and speed(t, fight.tables, 1).feet == 2
    # a scenario that names none of the duel's characters: said (it was printed back unchanged)
    other = runner.invoke(app, ["l5r", "aftermath", str(chronicle), "--into", "first-blood"])
    assert other.exit_code == 2 and "none of the duel's characters" in other.stderr and other.stdout == ""
    # the docs' own example carries the duel into its rematch
    rematch = runner.invoke(app, ["l5r", "aftermath", str(chronicle), "--into", "lame-veteran"])
    assert rematch.exit_code == 0 and "wounds: 58\n  disadvantages:\n  - Lame\n  - Lame\n" in rematch.stdout
    data = json.loads(played.stdout)
    unfinished = dict(data, log=data["log"][:2])  # a fight saved after two actions
    unfinished.pop("result", None)
    unfinished["end"] = {"actions": 2, "digest": log_digest(unfinished["log"])}
    chronicle.write_text(json.dumps(unfinished), encoding="utf-8")
    refused = runner.invoke(app, ["l5r", "aftermath", str(chronicle)])
    assert refused.exit_code == 2 and "not over" in refused.stderr
