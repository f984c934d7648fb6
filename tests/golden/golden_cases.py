"""Which fights the golden logs pin, and how each is played (shared by the test and the regenerator)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
SEEDS = range(10)


def cases() -> list[tuple[str, str]]:
    """(ruleset, bundled scenario) for every bundled scenario of every ruleset."""
    from kassen.core.scenario import bundled_scenarios

    return [(s.ruleset, s.name) for r in ("sengoku", "l5r", "arena") for s in bundled_scenarios(r)]


def path_of(ruleset: str, scenario: str, seed: int) -> Path:
    return HERE / ruleset / f"{scenario}.seed{seed}.json"


def play(ruleset: str, scenario: str, seed: int) -> str:
    """The fight's chronicle as canonical JSON: the bundled scenario through kassen.open_fight, played
    by its own policies."""
    from kassen.core.scenario import open_fight

    fight = open_fight(f"{ruleset}/{scenario}", seed=seed)
    fight.autoplay()
    return fight.log_json()
