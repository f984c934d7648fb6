"""Issue 14's file reproducers through the commands a user types: every hostile file is one clear
message, exit 2, within a couple of seconds, whichever command reads it (a scenario, a content layer,
a rules override, a chronicle)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import kassen
from kassen.cli.main import app


def _laughs(levels: int = 9) -> str:
    text = 'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
    for i in range(levels):
        text += f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 9) + "]\n"
    return text


HOSTILE: dict[str, bytes] = {
    "deep.yaml": ("a: " + "[" * 400 + "]" * 400 + "\n").encode(),
    "latin1.yaml": "name: caf\xe9\n".encode("latin-1"),
    "self.yaml": b"a: &a [*a]\n",
    "laughs.yaml": _laughs().encode(),
    "twice.yaml": b"ruleset: arena\nname: a\nname: b\nfighters: []\n",
    "huge.yaml": b"ruleset: arena\nname: a\nseed: " + b"9" * 5000 + b"\n",
}
WORDS = {
    "deep.yaml": "nested deeper than",
    "latin1.yaml": "not UTF-8",
    "self.yaml": "an alias that contains itself",
    "laughs.yaml": "once aliases are expanded",
    "twice.yaml": "given twice",
    "huge.yaml": "too long to read",
}


def run(args: list[str]) -> tuple[int, str, float]:
    start = time.perf_counter()
    result = CliRunner().invoke(app, args, input="")
    took = time.perf_counter() - start
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr, took


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize(
    "command",
    [
        ["validate", "{}"],
        ["fight", "{}"],
        ["fight", "l5r/first-blood", "--content", "{}"],
        ["content", "validate", "{}"],
    ],
)
def test_a_hostile_file_is_one_clear_error(tmp_path: Path, name: str, command: list[str]) -> None:
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])
    code, err, took = run([w.replace("{}", str(path)) for w in command])
    assert code == 2 and "Traceback" not in err
    assert "kassen: error: " in err and (WORDS[name] in err or "unknown section" in err), err
    assert took < 2.0


@pytest.mark.parametrize(
    "where",
    [lambda d: d / ("n" * 300 + ".yaml"), lambda d: d, lambda d: d / "missing.yaml"],
    ids=["name-too-long", "a-directory", "missing"],
)
def test_a_path_that_cannot_be_read_is_one_line(tmp_path: Path, where: object) -> None:
    path = where(tmp_path)  # type: ignore[operator]
    for args in (
        ["validate", str(path)],
        ["sengoku", "odds", "--modifier", "3", "--defense", "12", "--rules", str(path)],
    ):
        code, err, _ = run(args)
        assert code == 2 and err.count("\n") == 1 and err.startswith("kassen: error: "), err


def _chronicle() -> dict[str, object]:
    fight = kassen.open_fight("l5r/first-blood", seed=1)
    fight.autoplay()
    data: dict[str, object] = fight.to_json()
    return data


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d.pop("seed"),
        lambda d: d.pop("initial_state"),
        lambda d: d.pop("ruleset"),
        lambda d: d.update(seed="seven"),
        lambda d: d.update(seed=-1),
        lambda d: d.update(ruleset="arena"),
        lambda d: d.update(initial_state=[]),
    ],
    ids=[
        "no-seed",
        "no-initial-state",
        "no-ruleset",
        "seed-text",
        "seed-negative",
        "relabelled",
        "state-list",
    ],
)
def test_a_malformed_chronicle_is_refused_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: object
) -> None:
    data = _chronicle()
    edit(data)  # type: ignore[operator]
    (tmp_path / "c.json").write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for args in (["replay", "c.json"], ["resume", "c.json", "--save", "after.json"]):
        code, err, took = run(args)
        assert code == 2 and err.startswith("kassen: error: ") and took < 2.0, err
    assert not (tmp_path / "after.json").exists()


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"seed": NaN}', "", "\xff"])
def test_a_chronicle_that_is_not_json_kassen_reads_is_refused(tmp_path: Path, text: str) -> None:
    (tmp_path / "c.json").write_text(text, encoding="utf-8", errors="surrogateescape")
    code, err, took = run(["replay", str(tmp_path / "c.json")])
    assert code == 2 and err.startswith("kassen: error: ") and took < 2.0, err
