"""A coin-flip duel decided by one roll, for the lab's statistical tests (the ``coinflip`` fixture
registers its ruleset)."""

from __future__ import annotations

from pathlib import Path


def one_flip(tmp: Path, faces: int = 2) -> Path:
    """A coin-flip duel decided by one roll: Ann calls heads on a die of ``faces``; heads (a 1) wins
    it for her, anything else for Bob. Ann wins with chance exactly 1/faces."""
    path = tmp / f"one-flip-{faces}.yaml"
    path.write_text(
        "ruleset: coinflip\nname: One flip\ntokens: 1\n"
        f"content:\n  coin: {{faces: {faces}, stake: 1}}\n"
        "players:\n  - {id: ann, name: Ann, side: left}\n  - {id: bob, name: Bob, side: right}\n",
        encoding="utf-8",
    )
    return path
