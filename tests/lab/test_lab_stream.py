"""A run's fights are counted as they finish and dropped (kassen.lab.stream): the aggregates are those
of the fights kept, for any number of jobs; the per-fight rows written as they come are the rows of the
fights kept; and a run imports only the ruleset of the scenario it plays."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kassen.core.ruleset import find_ruleset
from kassen.core.scenario import _bundled_files, _unloaded_folder
from kassen.lab.api import execute_run, plan_run, run_spec, write_run
from kassen.lab.output import write_table
from kassen.lab.stream import RunRows


@pytest.mark.parametrize(
    ("scenario", "jobs"), [("arena/duel", 1), ("l5r/first-blood", 2), ("sengoku/count-example", 1)]
)
def test_streamed_aggregates_and_rows_are_those_of_the_fights_kept(
    scenario: str, jobs: int, tmp_path: Path
) -> None:
    plan = plan_run(scenario, fights=24, seed=3, jobs=jobs)
    kept = execute_run(plan, keep_records=True)
    rows = RunRows(tmp_path / "out", "csv", run_spec(plan))
    streamed = execute_run(plan, keep_records=False, rows=rows)
    assert streamed.records == () and len(kept.records) == 24
    assert streamed.to_json() == kept.to_json()
    assert streamed.first_errors == kept.first_errors
    written = write_run(streamed, tmp_path / "out", "csv", plots=False, rows=rows)
    assert {p.name for p in written} >= {"fights.csv", "unit_fights.csv", "summary.json"}
    for name in ("fights", "unit_fights"):
        expected = write_table(kept.table(name), tmp_path / f"expected-{name}", "csv")  # type: ignore[arg-type]
        got = (tmp_path / "out" / f"{name}.csv").read_text(encoding="utf-8")
        assert got == expected.read_text(encoding="utf-8"), name


def test_scenario_folders_are_found_without_loading_the_ruleset() -> None:
    # the kassen.scenarios entry points name the very folders the rulesets' own info names
    for name in ("sengoku", "l5r", "arena"):
        package, folder = find_ruleset(name).info.scenarios
        assert _unloaded_folder(name) is None  # loaded now: its info is read
        from importlib import resources

        listed = sorted(p.name for p in resources.files(package).joinpath(folder).iterdir())
        assert [f"{n}.yaml" for n in sorted(_bundled_files(name))] == [
            n for n in listed if n.endswith(".yaml")
        ]


def test_a_lab_run_imports_only_the_ruleset_it_plays() -> None:
    code = (
        "import sys\n"
        "sys.argv = ['kassen', 'lab', 'run', 'first-blood', '--fights', '2', '--json']\n"
        "from kassen.cli.main import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "parts = {m.split('.')[1] for m in sys.modules if m.startswith('kassen.')}\n"
        "print(sorted(parts), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = done.stderr.strip().splitlines()[-1]
    assert "'l5r'" in loaded and "'sengoku'" not in loaded and "'arena'" not in loaded, loaded
