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
