"""`kassen.lab.sweep`: paths into the scenario and its content, a grid of runs, its files, resuming."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import kassen
from kassen import lab
from kassen.lab import api, engine
from kassen.lab.api import write_sweep
from kassen.lab.output import MARKER
from kassen.lab.paths import parse_vary
from kassen.lab.sweeping import plan_sweep

ONE_CUT = str(Path(__file__).resolve().parent / "data" / "one-cut.yaml")
#: Two paths: one into the scenario (the Oni's own Defense), one into the content (Genzaburo's skill).
GRID = ["units.oni.overrides.defense=9,12", "catalog.creatures.genzaburo.skills.swordsmanship=1,3"]


def _attack(scenario: Path | str, seed: int = 0) -> dict[str, Any]:
    fight = kassen.open_fight(scenario, seed=seed)
    fight.autoplay()
    (attack,) = [e for e in fight.events if e.kind == "attack"]
    return dict(attack.data)


def _count_batches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    played: list[int] = []
    original = engine.play_batch

    def counting(batch: engine.Batch) -> list[engine.FightRecord]:
        played.append(len(batch.seeds))
        return original(batch)

    monkeypatch.setattr("kassen.lab.backends.play_batch", counting)
    return played


def test_a_two_path_sweep_writes_table_heatmap_and_report_and_a_rerun_skips_its_cells(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "grid"
    played = _count_batches(monkeypatch)
    result = lab.sweep(ONE_CUT, GRID, fights=12, seed=3, out=out)
    # four cells, and the scenario as written (the baseline: no cell of this grid) on the same seeds
    assert sum(played) == 5 * 12
    assert result.baseline is not None and result.baseline.index is None
    files = write_sweep(result, out)
    names = {f.name for f in files}
    assert {"sweep.csv", "fights.csv", "sweep.json", "heatmap.png", "report.html"} <= names
    png = (out / "heatmap.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    html = (out / "report.html").read_text("utf-8")
    assert "data:image/png;base64," in html and "http://" not in html and "https://" not in html
    assert "<script" not in html
    table = (out / "sweep.csv").read_text("utf-8").splitlines()
    assert len(table) == 1 + 4 and table[0].startswith("cell,units.oni.overrides.defense,")
    assert [c.resumed for c in result.cells] == [False] * 4
    # Each cell's scenario is stored, and its values really reach the fight.
    cells = sorted((out / "cells").iterdir())
    assert len(cells) == 5
    seen = set()
    for c in result.cells:  # each cell's key names its stored scenario
        attack = _attack(out / "cells" / str(c.key) / "scenario.yaml", seed=3)
        seen.add((attack["defense"], attack["modifier"]))
    assert len({d for d, _ in seen}) == 2 and len({m for _, m in seen}) == 2
    # The rerun plays nothing: every cell comes back from disk, with the same results.
    played.clear()
    again = lab.sweep(ONE_CUT, GRID, fights=12, seed=3, out=out)
    assert played == []
    assert [c.resumed for c in again.cells] == [True] * 4
    assert again.to_json() == result.to_json()
    # Other fights or seeds are other cells: played again.
    lab.sweep(ONE_CUT, GRID, fights=12, seed=4, out=out)
    assert sum(played) == 5 * 12


def test_cells_are_the_same_fights_as_the_cell_scenario_played_alone(tmp_path: Path) -> None:
    result = lab.sweep(ONE_CUT, ["units.oni.overrides.defense=9,14"], fights=6, seed=0, out=tmp_path / "o")
    for cell_dir in (tmp_path / "o" / "cells").iterdir():
        stored = json.loads((cell_dir / "fights.json").read_text("utf-8"))
        alone = lab.run(cell_dir / "scenario.yaml", fights=6, seed=0)
        cell = next(c for c in result.cells if c.result is not None and c.result.records == alone.records)
        assert len(stored["fights"]) == 6 and cell.result is not None


def test_a_cell_that_fails_to_validate_is_reported_and_skipped() -> None:
    result = lab.sweep(ONE_CUT, ["units.oni.zone=own-front,nowhere"], fights=4, seed=0)
    ok, bad = result.cells
    assert ok.result is not None and ok.result.fights == 4
    assert bad.result is None and "nowhere" in bad.error
    rows = result.rows()
    assert rows[1]["status"] == "invalid" and rows[1]["fights"] == 0


def test_one_path_draws_lines(tmp_path: Path) -> None:
    result = lab.sweep(ONE_CUT, ["units.oni.overrides.defense=8..10"], fights=4, seed=0)
    files = write_sweep(result, tmp_path / "lines")
    assert "lines.png" in {f.name for f in files}
    assert (tmp_path / "lines" / "lines.png").read_bytes()[:4] == b"\x89PNG"


def test_parquet_tables_read_back(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="the parquet extra (make test installs it)")
    result = lab.sweep(ONE_CUT, ["units.oni.overrides.defense=9,12"], fights=5, seed=0)
    write_sweep(result, tmp_path / "p", "parquet", plots=False)
    table = pq.read_table(tmp_path / "p" / "fights.parquet")
    assert table.num_rows == 10
    assert pq.read_table(tmp_path / "p" / "sweep.parquet").column(
        "units.oni.overrides.defense"
    ).to_pylist() == [9, 12]


@pytest.mark.parametrize(
    ("scenario", "vary", "field"),
    [
        # Each first value is the bundled one, each second another.
        ("sengoku/demo", "content.defense.armor.rows.heavy.defense=4,6", "defense"),
        ("sengoku/demo", "catalog.creatures.kuro.skills.ninjutsu=3,5", "ninjutsu"),
        ("l5r/kakita-vs-hida", "content.core.raises.tn_per_raise=5,10", "tn_per_raise"),
        ("arena/duel", "content.checks.contest.tie_winner=none,second", "tie_winner"),
    ],
)
def test_content_paths_change_that_value_alone(scenario: str, vary: str, field: str) -> None:
    plan = plan_sweep(scenario, [vary], fights=1)
    hashes = []
    for cell in plan.cells:
        assert cell.text is not None and cell.error == ""
        opener = api._opener(plan.base.source.name, cell.text, ())
        hashes.append(opener.content.hash)
        assert field in json.dumps(opener.content.meta()["scenario"])  # carried by the scenario's own block
    # The bundled value gives the bundled content exactly; the other value, other content.
    assert hashes[0] == plan.base.opener.content.hash != hashes[1]


def test_scenario_paths_reach_list_elements_by_name_or_slug() -> None:
    plan = plan_sweep("l5r/kakita-vs-hida", ["characters.kakita-toshiro.skills.kenjutsu=2,5"], fights=1)
    texts = [c.text or "" for c in plan.cells]
    assert "kenjutsu: 2" in texts[0] and "kenjutsu: 5" in texts[1]
    plan = plan_sweep("arena/duel", ["fighters.1.skill=9"], fights=1)
    assert "skill: 9" in (plan.cells[0].text or "")


@pytest.mark.parametrize(
    ("vary", "message"),
    [
        ("fighters.ryu.skil=10", "did you mean fighters.ryu.skill"),
        ("fighters.bob.skill=10", "no element 'bob' in fighters"),
        ("fighters.ryu.skill.x=1", "is a value"),
        ("content.nope.x=1", "no content section 'nope'"),
        ("content.checks.contest.nothing=1", "not a value of the content"),
        ("ruleset=l5r", "cannot vary the ruleset"),
        ("fighters.ryu.skill", "PATH=V1,V2"),
        ("fighters.ryu.skill=1,1", "twice"),
        ("fighters.ryu.skill=1..99", "at most 50"),
        ("fighters.ryu.skill=5..1", "must go up"),
        ("fighters..skill=1", "printable"),
    ],
)
def test_bad_paths_are_refused_with_a_reason(vary: str, message: str) -> None:
    with pytest.raises(lab.LabError, match=message.replace(".", r"\.").replace("(", r"\(")):
        plan_sweep("arena/duel", [vary], fights=1)


def test_the_issues_sengoku_examples_get_a_suggestion() -> None:
    with pytest.raises(lab.LabError, match=r"did you mean catalog\.defense\.armor\.rows\.heavy\.defense"):
        plan_sweep("sengoku/demo", ["catalog.armor.heavy.defense=3,4,5"], fights=1)
    with pytest.raises(lab.LabError, match=r"did you mean catalog\.creatures\.kuro\.skills\.ninjutsu"):
        plan_sweep("sengoku/demo", ["units.kuro.skills.ninjutsu=1,2,3"], fights=1)
    plan = plan_sweep("sengoku/demo", ["units.kuro.overrides.skills.ninjutsu=1,2,3"], fights=1)
    assert all(c.error == "" for c in plan.cells)


def test_grid_limits() -> None:
    many = [f"fighters.ryu.{k}=1..20" for k in ("skill", "dx", "ht")]
    with pytest.raises(lab.LabError, match="at most 400"):
        plan_sweep("arena/duel", many, fights=1)
    with pytest.raises(lab.LabError, match="at most 2,000,000"):
        plan_sweep("arena/duel", ["fighters.ryu.skill=1..20"], fights=200_000)
    with pytest.raises(lab.LabError, match="at most 4 paths"):
        plan_sweep(
            "arena/duel", [f"fighters.ryu.{k}=1" for k in ("skill", "dx", "ht", "st", "will")], fights=1
        )
    with pytest.raises(lab.LabError, match="varied twice"):
        plan_sweep("arena/duel", ["fighters.ryu.skill=1", "fighters.ryu.skill=2"], fights=1)


def test_values_are_read_as_yaml_scalars() -> None:
    v = parse_vary("a.b=1, 2.5 ,true,heavy,null")
    assert v.values == (1, 2.5, True, "heavy", None)
    assert parse_vary("a.b=-2..2").values == (-2, -1, 0, 1, 2)


def test_out_is_never_someone_elses_directory(tmp_path: Path) -> None:
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(lab.LabError, match="holds other files"):
        lab.sweep(ONE_CUT, ["units.oni.overrides.defense=9"], fights=1, out=foreign)
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]
    lab.sweep(ONE_CUT, ["units.oni.overrides.defense=9"], fights=1, out=tmp_path / "new")
    assert (tmp_path / "new" / MARKER).exists()


def test_the_readmes_worked_sweep_plans() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
    command = next(b for b in readme.split("```sh\n")[1:] if b.startswith("kassen lab sweep"))
    words = command.split("```")[0].replace("\\\n", " ").split()
    varies = [words[i + 1] for i, w in enumerate(words) if w == "--vary"]
    plan = plan_sweep(words[3], varies, fights=1)
    assert len(plan.cells) == 25 and all(c.error == "" for c in plan.cells)


def test_paired_intervals_are_narrower_than_unpaired_on_the_raid() -> None:
    """The raid at Kawanaka ford, heavy armour +3 and +5 against +4 (as bundled: the baseline), on the
    same seeds: one point of armour changes some fights, and the others end as they did, so the per-seed
    differences vary far less than two independent runs would."""
    result = lab.sweep(
        "sengoku/demo",
        ["content.defense.armor.rows.heavy.defense=3,4,5"],
        fights=100,
        seed=0,
        side="party",
        jobs=2,
    )
    assert result.baseline is not None and result.baseline.index == 1  # +4 is the scenario as written
    compared = [c for c in result.cells if c.index != 1]
    for cell in compared:
        assert cell.versus is not None and cell.unpaired is not None
        assert cell.versus.difference == cell.unpaired.difference
        print(
            f"\nheavy {cell.values[0][1]} vs +4, party: {cell.versus.difference:+.3f}, "
            f"paired ±{cell.versus.half_width:.3f}, unpaired ±{cell.unpaired.half_width:.3f}"
        )
        assert cell.versus.half_width < cell.unpaired.half_width
    assert result.rows()[1]["vs_baseline"] is None  # the baseline is not compared with itself


def test_a_baseline_is_a_cell_or_played_apart_and_is_checked() -> None:
    vary = ["fighters.ryu.skill=10,12", "fighters.ken.skill=11,13"]
    plan = plan_sweep("duel", vary, fights=2, baseline=["fighters.ryu.skill=12", "fighters.ken.skill=13"])
    assert plan.baseline_index == 3 and plan.baseline_text is None
    plan = plan_sweep("duel", vary, fights=2, baseline=["fighters.ryu.skill=14"])
    assert plan.baseline_index is None and plan.baseline_text is not None
    assert "skill: 14" in plan.baseline_text
    for bad, message in [
        (["fighters.ryu.dx=3"], "not a varied path"),
        (["fighters.ryu.skill=10,12"], "one value"),
        (["fighters.ryu.skill=10", "fighters.ryu.skill=12"], "twice"),
    ]:
        with pytest.raises(lab.LabError, match=message):
            plan_sweep("duel", vary, fights=2, baseline=bad)


def test_a_sweep_written_again_keeps_nothing_of_the_last(tmp_path: Path) -> None:
    out = tmp_path / "again"
    first = lab.sweep(ONE_CUT, GRID, fights=3, seed=0, out=out)
    write_sweep(first, out)
    assert (out / "heatmap.png").exists()
    old_keys = {c.key for c in first.cells}
    second = lab.sweep(ONE_CUT, ["units.oni.overrides.defense=8,10"], fights=3, seed=0, out=out)
    files = write_sweep(second, out)
    assert not (out / "heatmap.png").exists()  # the old plot went with the old sweep
    assert (out / "lines.png").exists()
    marker = json.loads((out / MARKER).read_text("utf-8"))
    assert set(marker["files"]) == {f.name for f in files}  # the sweep records what it wrote
    kept = {d.name for d in (out / "cells").iterdir()}
    new_keys = {c.key for c in second.cells} | {second.baseline.key if second.baseline else None}
    assert kept == new_keys - {None} and not kept & (old_keys - new_keys)


def test_every_cell_row_names_its_key_and_its_comparison(tmp_path: Path) -> None:
    result = lab.sweep(ONE_CUT, ["units.oni.overrides.defense=9,12"], fights=4, seed=0, out=tmp_path / "k")
    write_sweep(result, tmp_path / "k")
    header = (tmp_path / "k" / "sweep.csv").read_text("utf-8").splitlines()[0].split(",")
    assert {"key", "vs_baseline", "vs_ci95_lo", "vs_ci95_hi", "vs_significant"} <= set(header)
    data = json.loads((tmp_path / "k" / "sweep.json").read_text("utf-8"))
    for cell in data["cells"]:
        assert (tmp_path / "k" / "cells" / cell["key"] / "scenario.yaml").exists()


def test_a_numeric_path_is_drawn_to_scale_and_an_invalid_value_gets_no_slot() -> None:
    from kassen.lab.plots import line_positions

    assert line_positions([1, 2, 5, 10]) == [1.0, 2.0, 5.0, 10.0]
    assert line_positions(["light", "heavy"]) == [0.0, 1.0]
    result = lab.sweep(ONE_CUT, ["units.oni.zone=own-front,nowhere"], fights=2, seed=0)
    assert [c.values[0][1] for c in result.cells if c.result is not None] == ["own-front"]


def test_reports_open_with_one_sentence_and_show_one_decimal(tmp_path: Path) -> None:
    from kassen.lab.sentences import pct

    assert pct(0.625) == "62.5%" and pct(None) == "n/a"
    result = lab.sweep("duel", ["fighters.ryu.skill=9,14"], fights=8, seed=0)
    write_sweep(result, tmp_path / "r")
    html = (tmp_path / "r" / "report.html").read_text("utf-8")
    answer = html.split("<p class=answer>", 1)[1].split("</p>", 1)[0]
    assert answer.startswith("Ryu wins ") and answer.endswith(".") and answer.count(". ") == 0
    assert ("0.7067" not in html and "% (" in html) or "%" in answer
    assert "<div class=wrap><table>" in html  # a wide table scrolls in its box, not the page
