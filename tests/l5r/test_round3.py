"""Roll-and-keep readings stated once, round 3: when death comes past Out, and an unobstructed Foul."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.l5r.content import bundled_tables
from kassen.l5r.wounds import wound_rank

DOCS = Path(__file__).resolve().parents[2] / "docs" / "l5r" / "house-defaults.md"


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_death_past_out_is_said_once_as_the_program_reckons_it() -> None:
    # rule: L5.CORE.6, L5.RD.4 — Wounds past Out fill the Dead rank (Earth x 2 boxes); its last kills
    t = bundled_tables()
    assert wound_rank(38, 2, t).out and not wound_rank(38, 2, t).dying
    for wounds in (39, 40, 41):
        state = wound_rank(wounds, 2, t)
        assert state.dying and not state.dead, wounds
    assert wound_rank(42, 2, t).dead
    # the docs and the text `kassen l5r defaults` prints say the same, and nowhere "beyond Out is Dead"
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `(core\.[a-z_]+)` .*$", DOCS.read_text(), re.M)}
    code, printed = _cli("l5r", "defaults")
    assert code == 0
    for text in (rows["core.wound_ranks"], rows["core.dead_rank"], printed):
        flat = " ".join(text.split())
        assert not re.search(r"(one|a) Wound beyond Out is Dead", flat), flat
    assert "from 39 to 41 Wounds and dies at 42" in rows["core.wound_ranks"]
    assert "the 42nd kills" in rows["core.dead_rank"]
    assert "from 39 to 41 Wounds, dead at 42" in " ".join(printed.split())


def test_an_unobstructed_foul_is_shown_as_ineffective_not_refused() -> None:
    # rule: L5.FOL.1 — "at least one opponent must come after the attack in the initiative order for
    # this action to be effective": with nobody else acting it is a plain blow that obstructs no one
    for seed in ("1", "2", "3", "4"):
        code, out = _cli("l5r", "attack", "--special", "foul", "--void", "4", "--seed", seed)
        assert code == 0, out
        assert "the Foul obstructs no one and has no effect" in out and "[L5.FOL.1]" in out
        code, out = _cli("l5r", "attack", "--special", "foul", "--void", "4", "--seed", seed, "--json")
        data = json.loads(out)
        [foul] = [e for e in data["events"] if e["kind"] == "foul"]
        assert foul["rule"] == "L5.FOL.1" and "no effect" in foul["data"]["text"]
