"""Which fights the golden logs pin, and how each is played (shared by the test and the regenerator)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
SEEDS = range(10)


#: Rulesets already on the one core (issue 10): played through kassen.open_fight.
ON_THE_CORE = {"arena"}


def cases() -> list[tuple[str, str]]:
    """(ruleset, bundled scenario) for every bundled scenario of every ruleset."""
    from kassen.core.scenario import bundled_scenarios
    from kassen.l5r import bundled_scenarios as l5r_bundled
    from kassen.sengoku.battle import bundled_scenarios as sengoku_bundled

    return (
        [("sengoku", n) for n in sengoku_bundled()]
        + [("l5r", n) for n in l5r_bundled()]
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
    if ruleset == "l5r":
        from kassen.l5r import load_scenario, run_duel

        return run_duel(load_scenario(scenario), seed).log_json()
    raise AssertionError(f"no player for {ruleset}")
