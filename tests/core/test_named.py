"""Named policies (kassen.core.named): specs read strictly, each side played by its own, recorded in the
chronicle, and the same through the CLI (`--policy SIDE=SPEC`), where a bad spec is one line and exit 2."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.core.errors import KassenError
from kassen.core.fight import Fight
from kassen.core.named import BySide, PolicySpec, parse_policies, parse_policy
from kassen.core.policy import FirstLegal, RandomPolicy
from kassen.core.scenario import open_fight
from kassen.core.search import SearchPolicy


@pytest.mark.parametrize(
    ("text", "name", "params"),
    [
        ("heuristic", "heuristic", ()),
        ("random:salt=3", "random", (("salt", 3),)),
        ("first-legal", "first-legal", ()),
        ("scenario", "scenario", ()),
        ("search", "search", ()),
        ("search:iterations=800", "search", (("iterations", 800),)),
        ("search:time=1.0", "search", (("time", 1.0),)),
        ("search:omniscient", "search", (("omniscient", True),)),
        (" search : iterations=40 , rollout=random ", "search", (("iterations", 40), ("rollout", "random"))),
    ],
)
def test_a_spec_is_read_into_its_name_and_parameters(text: str, name: str, params: tuple[Any, ...]) -> None:
    spec = parse_policy(text)
    assert spec == PolicySpec(name, params)
    assert parse_policy(str(spec)) == spec  # its canonical form reads back as itself


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("serch", "unknown policy 'serch' (known: scenario, heuristic, random, first-legal, search)"),
        ("search:iteration=5", "has no parameter 'iteration' (its parameters: iterations, time,"),
        ("search:iterations=many", "search:iterations is a whole number, not 'many'"),
        ("search:iterations=0", "iterations is a whole number from 1"),
        ("search:time=nan", "search:time is a finite number"),
        ("search:time=-2", "time is a number of CPU seconds above 0"),
        ("search:omniscient=maybe", "search:omniscient is a flag"),
        ("search:rollout=smart", "search:rollout is one of heuristic, random, first-legal"),
        ("search:iterations=5,iterations=6", "given twice"),
        ("search:", "nothing after ':'"),
        ("heuristic:depth=3", "policy 'heuristic' has no parameter 'depth' (its parameters: none)"),
        ("x" * 300, "at most 200 characters"),
        (None, "a policy is named by a string"),
    ],
)
def test_a_bad_spec_is_one_line_naming_what_is_allowed(text: Any, says: str) -> None:
    with pytest.raises(KassenError) as caught:
        parse_policy(text)
    message = str(caught.value)
    assert says in message
    assert "\n" not in message


def test_side_specs_come_as_a_mapping_or_side_equals_spec() -> None:
    assert parse_policies(["east=search", "west=random"]) == {
        "east": PolicySpec("search"),
        "west": PolicySpec("random"),
    }
    assert parse_policies({"east": "heuristic"}) == {"east": PolicySpec("heuristic")}
    for bad in (["east"], ["east=search", "east=random"], ["=search"]):
        with pytest.raises(KassenError):
            parse_policies(bad)


def test_each_side_is_played_by_its_own_policy_and_the_gm_by_the_scenarios() -> None:
    fight = open_fight("arena/duel", seed=3, policies={"east": "first-legal", "west": "search:iterations=5"})
    assert isinstance(fight.policy, BySide)
    assert isinstance(fight.policy.policies["east"], FirstLegal)
    assert isinstance(fight.policy.policies["west"], SearchPolicy)
    fight.autoplay()
    east_moves = [e.action for e in fight.entries if e.actor is not None and e.actor.side == "east"]
    again = open_fight("arena/duel", seed=3, policies={"east": "first-legal", "west": "search:iterations=5"})
    again.autoplay()
    assert again.log_json() == fight.log_json()  # the search's choices are the same for the same fight
    replayed = Fight.from_json(fight.to_json())
    assert replayed.policy_specs() == {"east": "first-legal", "west": "search:iterations=5"}
    assert east_moves  # east made moves of its own


def test_a_side_that_is_not_the_fights_is_refused_and_nothing_changes() -> None:
    fight = open_fight("arena/duel", seed=3)
    before = fight.policy
    with pytest.raises(KassenError, match="no side 'north' in this fight"):
        fight.use_policies({"north": "random"})
    assert fight.policy is before and fight.policy_specs() == {}
    fight.use_policies({"west": "random"})
    assert isinstance(fight.policy, BySide) and isinstance(fight.policy.policies["west"], RandomPolicy)
    fight.use_policies({})
    assert fight.policy is before and "policies" not in fight.meta


def test_a_tampered_recorded_policy_is_refused_when_the_chronicle_is_read() -> None:
    fight = open_fight("arena/duel", seed=3, policies={"west": "random"})
    fight.autoplay()
    data = fight.to_json()
    data["meta"]["policies"] = {"west": "serch"}
    with pytest.raises(KassenError, match=r"meta\.policies"):
        Fight.from_json(data)


runner = CliRunner()


@pytest.mark.parametrize(
    "args",
    [
        ["fight", "duel", "--policy", "east=serch"],
        ["fight", "duel", "--policy", "north=random"],
        ["fight", "duel", "--policy", "east"],
        ["play", "duel", "--policy", "east=search:iterations=-1"],
        ["lab", "run", "duel", "--fights", "2", "--policy", "east=search:depth=x"],
        [
            "lab",
            "sweep",
            "duel",
            "--vary",
            "fighters.ryu.skill=12,14",
            "--fights",
            "2",
            "--policy",
            "w=random",
        ],
        ["lab", "match", "duel", "--a", "heuristic", "--b", "nobody"],
    ],
)
def test_the_cli_refuses_a_bad_policy_in_one_line_with_exit_2(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("kassen: error:"), result.stderr


def test_kassen_fight_plays_a_side_by_the_policy_named() -> None:
    result = runner.invoke(app, ["fight", "duel", "--seed", "4", "--policy", "west=first-legal", "--json"])
    assert result.exit_code == 0, result.output
    import json

    data = json.loads(result.stdout)
    assert data["meta"]["policies"] == {"west": "first-legal"}


def test_lab_match_reports_a_mirrored_score() -> None:
    import json

    result = runner.invoke(
        app, ["lab", "match", "duel", "--a", "heuristic", "--b", "random", "-n", "8", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["fights"] == 8 and report["pairs"] == 4
    assert report["wins"] + report["losses"] + report["draws"] == 8
    assert 0 <= report["interval"][0] <= report["score"] <= report["interval"][1] <= 1
    assert set(report["by_side"]) == {"east", "west"}
