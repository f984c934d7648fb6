"""The README's Python example runs as written (its first ```python block)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_python_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text("utf-8"), flags=re.S)
    assert blocks, "the README shows the Python API"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    fight = namespace["fight"]
    assert fight.over and namespace["data"]["format"] == 3  # type: ignore[attr-defined,index]


def test_the_readme_first_screen_gives_the_two_commands() -> None:
    head = README.read_text("utf-8").split("---", 1)[0]
    assert "make demo" in head and "make test" in head


def test_the_first_screen_gives_exactly_the_two_commands_and_the_commands_follow() -> None:
    text = README.read_text("utf-8")
    head = text.split("---", 1)[0]
    fenced = re.findall(r"```\w*\n(.*?)```", head, flags=re.S)
    commands = [
        line.split("#", 1)[0].strip() for block in fenced for line in block.splitlines() if line.strip()
    ]
    assert commands == ["make demo", "make test"]
    # after `make demo`: how to run kassen, the terminal and browser tables listed with the other
    # commands, and where each is told in full
    assert ".venv/bin/kassen" in text and "source .venv/bin/activate" in text
    table = text[text.index("| command | does |") :]
    for command in ("`kassen play ", "`kassen resume ", "`kassen serve ", "`kassen fight "):
        assert command in table.split("\n\n", 1)[0], f"the README's command table lacks {command}"
    assert "(docs/play.md)" in text and "(docs/web.md)" in text
    for doc in ("docs/play.md", "docs/web.md"):
        assert (README.parent / doc).is_file()
