"""Duel scenarios (YAML): validation with file, line and field; scripted and heuristic policies."""

from __future__ import annotations

from pathlib import Path

import pytest

from kassen import open_fight
from kassen.core.errors import ContentError
from kassen.core.report import account
from kassen.l5r.actions import Attack, Declare
from kassen.l5r.policies import heuristic
from kassen.l5r.scenario import bundled_scenarios, load_scenario, run_duel
from kassen.l5r.tables import SpecialAttackName


def test_bundled_scenarios_load_and_build_their_characters() -> None:
    # rule: L5.CORE.6 — Earth is the lower of Stamina and Willpower; rings set both traits.
    assert {"kakita-vs-hida", "bridge-ambush", "first-blood"} <= set(bundled_scenarios())
    sc = open_fight("l5r/kakita-vs-hida")
    hida = sc.state.fighter("Hida Kuroda").character
    assert (hida.stamina, hida.willpower, hida.strength, hida.armor) == (4, 3, 4, "heavy")
    assert sc.tables.core.wound_ranks.house_default.rule == "L5.CORE.6"


def test_scenario_errors_name_file_line_and_field_all_at_once(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: broken\n"
        "characters:\n"
        "  - name: A\n"
        "    armor: paper\n"
        "    rings: {earth: 3}\n"
        "    traits: {stamina: 2}\n"
        "    script:\n"
        "      - {attack: Nobody}\n"
        "  - name: B\n"
        "    weapon: naginata\n",
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as err:
        open_fight(load_scenario(bad))
    fields = {i.field: i.line for i in err.value.issues}
    assert {
        "characters.0.armor",
        "characters.0.rings.earth",
        "characters.0.script.0.attack",
        "characters.1.weapon",
    } <= set(fields)
    assert (fields["characters.0.armor"], fields["characters.0.script.0.attack"]) == (4, 8)
    assert all(i.file == str(bad) for i in err.value.issues)
    typo = tmp_path / "typo.yaml"
    typo.write_text("name: x\ncharacters:\n  - name: A\n    agilty: 3\n  - name: B\n", encoding="utf-8")
    with pytest.raises(ContentError) as err:
        open_fight(load_scenario(typo))
    assert err.value.issues[0].line == 4 and "agilty" in err.value.issues[0].field
    with pytest.raises(ContentError):
        load_scenario("no-such-duel")


def test_scripted_characters_follow_their_script_then_the_heuristic() -> None:
    # rule: L5.FOL.1 — the bundled ambush opens with the scripted Foul.
    chronicle = open_fight("l5r/bridge-ambush", seed=4)
    actions = []
    while not chronicle.over:
        action = chronicle.decide()
        actions.append(action)
        chronicle.apply(action)
    masaru = [a for a in actions if isinstance(a, Declare) and a.actor == "Ronin Masaru"]
    first = masaru[0].act
    assert isinstance(first, Attack) and first.special is SpecialAttackName.FOUL and first.obstructs == "Jiro"


def test_first_blood_duel_ends_at_the_first_mark_or_wound() -> None:
    # rule: L5.MRK.1 — a Mark bloodies (no Wounds): in a contest to first blood it decides the duel,
    # which ends in the turn of the first blood, right after it, won by the side not bloodied.
    ways = set()
    for seed in range(10):
        c = run_duel("first-blood", seed)
        events = list(c.events)
        turn, first = 0, None
        for i, e in enumerate(events):
            if e.kind == "turn":
                turn = e.data["turn"]
            elif e.kind in ("mark", "wounds"):
                first = i
                break
        assert first is not None, seed
        blood, over = events[first], events[first + 1]
        assert over.kind == "over" and over is events[-1] and over.data["turn"] == turn, seed
        bloodied = [f for f in c.state.fighters if f.bloodied]
        assert [f.name for f in bloodied] == [blood.data["fighter"]]
        assert c.state.winner == over.data["winner"] != bloodied[0].side
        assert c.state.winner in {f.side for f in c.state.fighters} and "first blood" in c.state.reason
        assert c.result is not None and c.result.winner == c.state.winner
        if blood.kind == "mark":
            assert blood.rule == "L5.MRK.1" and bloodied[0].wounds == 0  # bloodied without Wounds
        ways.add(blood.kind)
    assert ways == {"mark", "wounds"}  # these seeds reach first blood both ways


def test_the_account_is_readable_and_cites_rules(tmp_path: Path) -> None:
    c = run_duel("kakita-vs-hida", 9)
    text = account(c)
    assert "== Turn 1 ==" in text and "[L5.CORE.3]" in text and "the duel is over" in text
    assert "Agility" in account(c, verbose=True)


def test_the_heuristic_only_chooses_legal_actions() -> None:
    chronicle = open_fight("l5r/bridge-ambush", seed=12)
    while not chronicle.over:
        legal = chronicle.legal_actions()
        action = heuristic(chronicle.state, legal, chronicle.tables)
        assert action in legal
        chronicle.apply(action)


def test_scenario_tables_override(tmp_path: Path) -> None:
    # rule: L5.CORE.2 — table values are overridable: a scenario may point at its own tables.
    core = (Path(__file__).parents[2] / "src/kassen/l5r/data/core.yaml").read_text(encoding="utf-8")
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "core.yaml").write_text(
        core.replace("reflexes_multiplier: 5", "reflexes_multiplier: 6"), encoding="utf-8"
    )
    (tmp_path / "duel.yaml").write_text(
        "name: x\ntables: tables\ncharacters:\n  - name: A\n  - name: B\n", encoding="utf-8"
    )
    sc = open_fight(load_scenario(tmp_path / "duel.yaml"))
    assert sc.tables.core.tn_to_be_hit.reflexes_multiplier == 6
