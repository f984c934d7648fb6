"""Which fights the golden logs pin, and how each is played (shared by the test and the regenerator)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
SEEDS = range(10)


#: Rulesets already on the one core (issue 10): played through kassen.open_fight.
ON_THE_CORE = {"arena", "l5r"}


def cases() -> list[tuple[str, str]]:
    """(ruleset, bundled scenario) for every bundled scenario of every ruleset."""
    from kassen.core.scenario import bundled_scenarios
    from kassen.sengoku.battle import bundled_scenarios as sengoku_bundled

    return (
        [("sengoku", n) for n in sengoku_bundled()]
        + [("l5r", s.name) for s in bundled_scenarios("l5r")]
        + [("arena", s.name) for s in bundled_scenarios("arena")]
    )


def path_of(ruleset: str, scenario: str, seed: int) -> Path:
    return HERE / ruleset / f"{scenario}.seed{seed}.json"


def play(ruleset: str, scenario: str, seed: int) -> str:
    """The fight's chronicle as canonical JSON."""
    if ruleset in ON_THE_CORE:
        from kassen.core.scenario import open_fight

        fight = open_fight(f"{ruleset}/{scenario}", seed=seed)
        fight.autoplay()
        return fight.log_json()
    if ruleset == "sengoku":
        from kassen.sengoku.battle import load_scenario, run_battle

        return run_battle(load_scenario(scenario), seed).log_json()
    raise AssertionError(f"no player for {ruleset}")
