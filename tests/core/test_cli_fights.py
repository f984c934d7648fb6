"""The generic commands over any registered ruleset (here the test-only coin-flip duel, which no
command knows by name): scenarios, fight, replay, validate, schema, rules, --version."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen import __version__
from kassen.cli.main import app
from kassen.core.scenario import bundled_names, read_scenario

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_scenarios_lists_every_registered_ruleset() -> None:
    code, out, _ = run("scenarios", "--ruleset", "coinflip", "--json")
    assert code == 0
    assert json.loads(out) == [{"name": "best-of-three", "ruleset": "coinflip", "title": "Best of three"}]


def test_fight_then_replay_round_trip(tmp_path: Path) -> None:
    code, out, _ = run("fight", "coinflip/best-of-three", "--seed", "7", "--json")
    assert code == 0
    log = tmp_path / "log.json"
    log.write_text(out, "utf-8")
    code, out, err = run("replay", str(log))
    assert code == 0, err
    assert out.startswith("identical:") and "winner:" in out
    code, out, _ = run("replay", "-", input=log.read_text("utf-8"))
    assert code == 0 and out.startswith("identical:")


def test_fight_tells_the_fight_in_words() -> None:
    code, out, _ = run("fight", "best-of-three", "--seed", "7")
    assert code == 0
    assert "The duel begins." in out and "calls" in out and "Result:" in out
    code, out, _ = run("fight", "best-of-three", "--seed", "7", "--brief")
    assert code == 0 and out.count("\n") == 1 and "winner:" in out


def test_replay_of_a_tampered_log_exits_2_with_one_line(tmp_path: Path) -> None:
    code, out, _ = run("fight", "best-of-three", "--seed", "7", "--json")
    data = json.loads(out)
    cases = {
        "seed": lambda d: d.update(seed=8),
        "dice": lambda d: d["log"][1]["events"][0]["data"].update(face=99),
        "result": lambda d: d["result"].update(
            winner="left" if d["result"]["winner"] == "right" else "right"
        ),
        "hash": lambda d: d["meta"]["content"].update(hash="f" * 64),
        "missing": lambda d: d.pop("log"),
        "type": lambda d: d.update(seed="seven"),
        "huge": lambda d: d.update(seed=10**40),
        "other ruleset": lambda d: d.update(ruleset="sengoku"),
        "cut short": lambda d: (d.pop("result"), d.update(log=d["log"][:-2])),
        "end dropped": lambda d: (d.pop("result"), d.pop("end"), d.update(log=d["log"][:-2])),
        "end edited": lambda d: (d.pop("result"), d.update(log=d["log"][:-2]), d["end"].update(actions=3)),
    }
    for name, change in cases.items():
        bad = json.loads(out)
        change(bad)
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(bad), "utf-8")
        code, _, err = run("replay", str(path))
        assert code == 2, name
        assert err.startswith("kassen: error:") and err.count("\n") == 1, (name, err)
    for text in ["[" * 100_000, '{"format": NaN}', "not json", ""]:
        code, _, err = run("replay", "-", input=text)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert data["format"] == 3


def test_a_chronicle_cut_short_is_refused_and_an_old_one_still_replays(tmp_path: Path) -> None:
    # a chronicle whose last entries and result were cut off used to replay as "identical ... unfinished"
    code, out, _ = run("fight", "best-of-three", "--seed", "7", "--json")
    data = json.loads(out)
    assert data["end"]["actions"] == len(data["log"]) > 2
    cut = {**data, "log": data["log"][:-2]}
    cut.pop("result")
    (tmp_path / "cut.json").write_text(json.dumps(cut), "utf-8")
    code, _, err = run("replay", str(tmp_path / "cut.json"))
    assert code == 2 and "cut short" in err and err.count("\n") == 1
    # a format-2 chronicle (written before the end was recorded) still replays
    old = {**data, "format": 2}
    old.pop("end")
    (tmp_path / "old.json").write_text(json.dumps(old), "utf-8")
    code, out, _ = run("replay", str(tmp_path / "old.json"))
    assert code == 0 and out.startswith("identical")
    # and a format-1 one (no format key) is refused, saying so
    del old["format"]
    (tmp_path / "older.json").write_text(json.dumps(old), "utf-8")
    code, _, err = run("replay", str(tmp_path / "older.json"))
    assert code == 2 and "format 1" in err


def test_validate_reports_every_error_with_file_line_and_field(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(
        "ruleset: coinflip\nname: G\nplayers:\n  - {id: a, name: A, side: l}\n"
        "  - {id: b, name: B, side: r}\n",
        "utf-8",
    )
    code, out, _ = run("validate", str(good))
    assert code == 0 and out.startswith("ok: a coinflip scenario")
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "ruleset: coinflip\nname: B\ntokens: 0\nplayers:\n  - {id: a, name: A, side: l, pet: x}\n", "utf-8"
    )
    code, _, err = run("validate", str(bad))
    assert code == 2
    assert "bad.yaml:3: tokens" in err and "bad.yaml:5: players.0.pet" in err


def test_schema_of_a_scenario() -> None:
    code, out, _ = run("schema", "scenario", "--ruleset", "coinflip")
    schema = json.loads(out)
    assert code == 0 and schema["properties"]["ruleset"] == {
        "const": "coinflip",
        "description": schema["properties"]["ruleset"]["description"],
    }
    assert "players" in schema["properties"] and schema["required"][0] == "ruleset"
    code, _, err = run("schema", "scenario", "--ruleset", "nosuch")
    assert code == 2 and "unknown ruleset" in err


def test_rules_explains_a_cited_id() -> None:
    code, out, _ = run("rules", "CF.FLIP.1")
    assert code == 0 and "stake" in out
    code, out, _ = run("rules", "cf.flip.1", "--json")
    assert json.loads(out)["ruleset"] == "coinflip"
    code, _, err = run("rules", "CF.FLIP.9")
    assert code == 2 and "CF.FLIP.1" in err  # the nearby ids are named
    # asked of another ruleset: said so (it read "no rule 'CF.FLIP.1' (nearby: CF.FLIP.1, ...)")
    code, _, err = run("rules", "CF.FLIP.1", "--ruleset", "sengoku")
    assert code == 2 and "CF.FLIP.1 is a rule of coinflip, not of sengoku" in err
    code, _, err = run("rules", "CF.FLIP.9", "--ruleset", "sengoku")
    assert code == 2 and "nearby" not in err  # none of sengoku's are near


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and out.strip() == f"kassen {__version__}"


def test_a_scenario_without_a_seed_is_played_from_a_random_one_as_the_help_says() -> None:
    # --seed: "default: the scenario's, else random" (kassen fight printed seed 0 every time)
    seeds = set()
    for _ in range(3):
        code, out, _ = run("fight", "first-blood", "--brief")
        assert code == 0
        seeds.add(out.split("(seed ", 1)[1].split(")", 1)[0])
    assert len(seeds) > 1
    code, out, _ = run("fight", "demo", "--brief")  # the demo names seed 167
    assert code == 0 and "(seed 167)" in out
    code, out, _ = run("fight", "first-blood", "--brief", "--seed", "5")
    assert code == 0 and "(seed 5)" in out


def test_a_scenario_that_is_no_file_says_what_it_is() -> None:
    # /dev/null read "no such file", an empty name "a directory"
    code, _, err = run("fight", "/dev/null")
    assert code == 2 and "not a regular file" in err and err.count("\n") == 1
    code, _, err = run("fight", "")
    assert code == 2 and "an empty name" in err
    code, _, err = run("fight", "no-such-scenario")
    assert code == 2 and "no such file, and no bundled scenario of that name" in err


def test_validate_says_an_l5r_scenario() -> None:
    code, out, _ = run("validate", "l5r/first-blood")
    assert code == 0 and out.startswith("ok: an l5r scenario")
    code, out, _ = run("validate", "sengoku/demo")
    assert code == 0 and out.startswith("ok: a sengoku scenario")


def test_no_command_offers_to_edit_the_shells_start_up_files() -> None:
    # `kassen sengoku --install-completion` wrote ~/.bash_completions and a line in ~/.bashrc
    for group in ("sengoku", "l5r", "arena", "content", "lab"):
        code, out, _ = run(group, "--help")
        assert code == 0 and "--install-completion" not in out, group


@pytest.mark.parametrize(
    "scenario",
    [f"{r}/{n}" for r in ("arena", "l5r", "sengoku") for n in bundled_names(r)],
)
def test_every_bundled_scenario_fits_its_rulesets_schema(scenario: str) -> None:
    """``kassen schema scenario`` describes what the loader takes: an editor checking a scenario against it
    flags no file kassen reads (an arena location's DR written as one number, ``torso: 3``, was refused)."""
    jsonschema = pytest.importorskip("jsonschema")
    ruleset = scenario.split("/")[0]
    code, out, err = run("schema", "scenario", "--ruleset", ruleset)
    assert code == 0, err
    src = read_scenario(scenario)
    # the whole file: its header (ruleset, its own content layer) and its body
    data = {"ruleset": src.ruleset, **src.data, **({"content": src.content} if src.content else {})}
    errors = [e.message for e in jsonschema.Draft202012Validator(json.loads(out)).iter_errors(data)]
    assert errors == [], errors


@pytest.mark.parametrize(
    "flags", [("--brief", "--json"), ("--brief", "-v"), ("--json", "--verbose"), ("--json", "--brief", "-v")]
)
def test_two_outputs_asked_at_once_are_refused(flags: tuple[str, ...]) -> None:
    code, out, err = run("fight", "best-of-three", "--seed", "7", *flags)
    assert code == 2 and out == "" and "ask for two outputs" in err, err
