"""``kassen sengoku battle``: the account, the summary, the chronicle JSON, one-line errors; ``make demo``."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import yaml
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.core.events import canonical_json
from kassen.core.fight import Fight

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, ["sengoku", *args])
    return r.exit_code, r.stdout, r.stderr


def test_the_account_shows_counts_breaths_rolls_defense_and_wounds() -> None:
    # rule: SG.CNT.7 — the count example as the CLI tells it
    code, out, _ = run("battle", "count-example", "--seed", "4")
    assert code == 0
    assert "== Round 1 ==" in out and "-- count 12: Kuro --  [SG.CNT.1]" in out
    assert (
        "Kuro breathes at count 12: Stealth Movement → own-front (3) + Stroke of Fire → Oni (2) = 5 of 5"
        in out
    )
    assert "Energy 12 → 7  [SG.CNT.5]" in out
    assert "2d10 [" in out and "vs Defense 12" in out
    assert (
        "base (Veteran)  [SG.DEF.1]" in out and "+2 natural armor  [SG.DEF.3]" in out
    )  # a Defense breakdown
    assert "Wounds 8 → 6" in out
    assert "Summary" in out and "winner:" in out
    code, brief, _ = run("battle", "count-example", "--seed", "4", "--brief")
    assert code == 0 and "base (Veteran)" not in brief and len(brief) < len(out)


def test_json_prints_the_replayable_chronicle() -> None:
    code, out, _ = run("battle", "demo", "--seed", "3", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["ruleset"] == "sengoku" and data["seed"] == 3 and data["meta"]["scenario"]
    assert data["format"] == 3 and data["meta"]["content"]["hash"]
    assert Fight.from_json(data).log_json() == canonical_json(data)
    # the generic command plays the same fight to the same chronicle
    generic = runner.invoke(app, ["fight", "sengoku/demo", "--seed", "3", "--json"])
    assert generic.exit_code == 0 and json.loads(generic.stdout) == data


def test_rounds_and_content_options(tmp_path: Path) -> None:
    # rule: SG.END.1 — `--rounds` sets the round limit
    code, out, _ = run("battle", "count-example", "--seed", "4", "--rounds", "1", "--json")
    assert code == 0 and json.loads(out)["initial_state"]["max_rounds"] == 1
    (tmp_path / "oni.yaml").write_text(
        yaml.safe_dump(
            {
                "creatures": [
                    {
                        "id": "oni",
                        "name": "Red Oni",
                        "grade": "veteran",
                        "weapons": ["kanabo"],
                        "max_energy": 10,
                    }
                ]
            }
        ),
        encoding="utf-8",
    )
    code, out, _ = run("battle", "count-example", "--seed", "4", "--content", str(tmp_path))
    assert code == 0 and "Red Oni" in out


def test_bad_input_is_one_line_on_stderr_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: x\nsides: [{id: a}, {id: b}]\nunits: [{creature: nobody, side: a}, {creature: oni, side: b}]\n"
    )
    for args in (
        ["battle", "no-such-battle"],
        ["battle", "demo", "--rounds", "0"],
        ["battle", str(bad)],
        ["battle", "demo", "--content", str(tmp_path / "missing")],
        ["battle"],
    ):
        code, _, err = run(*args)
        assert code == 2, args
        assert err.startswith("kassen: error:") and err.count("\n") == 1, (args, err)
    _, _, err = run("battle", str(bad))
    assert "units.0.creature" in err and str(bad) in err


def test_battles_lists_the_bundled_ones() -> None:
    code, out, _ = run("battles")
    assert code == 0 and "demo: The raid at Kawanaka ford" in out


def test_make_demo_runs_the_bundled_battle() -> None:
    from kassen import demo

    buffer = io.StringIO()
    with redirect_stdout(buffer):
        demo.main()
    out = buffer.getvalue()
    assert "The raid at Kawanaka ford" in out and "Summary" in out and "winner:" in out
    assert "Combat over" in out and "P(2d10 + 3 >= 12)" in out
