"""A battle grown for measuring: a scenario's units copied ``k`` times (the speed issue's 1×–8× demo).

:func:`copied_units` reads a Sengoku scenario (a bundled name or a path, as
:func:`~kassen.core.scenario.read_scenario` does) and returns its source with every unit listed ``k``
times: the first copy as written, copy ``i`` (2..k) with ``-i`` added to its id and `` i`` to its name,
each on its own side and in its own zone. Scripts name units by id, so a scripted scenario's copies
would all follow the first copy's targets: only units without a script are copied
(:class:`~kassen.core.errors.ContentError` otherwise). Open the result with
:func:`kassen.core.scenario.open_fight` like any scenario::

    fight = open_fight(copied_units("demo", 8), seed=3)   # 72 units
"""

from __future__ import annotations

__all__ = ["copied_units"]

from pathlib import Path
from typing import Any

from kassen.core.errors import ContentError, ContentIssue
from kassen.core.fastreplace import replace
from kassen.core.scenario import ScenarioSource, read_scenario

#: The most copies (the core refuses a fight of more than ``max_units`` anyway).
MAX_COPIES = 64


def copied_units(scenario: str | Path | ScenarioSource, k: int) -> ScenarioSource:
    """``scenario`` with each of its units copied ``k`` times (see the module notes)."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_COPIES:
        raise ContentError(ContentIssue("(copies)", "k", f"copies are 1 to {MAX_COPIES}, not {k!r}"))
    src = scenario if isinstance(scenario, ScenarioSource) else read_scenario(scenario, ruleset="sengoku")
    if k == 1:
        return src
    units = src.data.get("units")
    if not isinstance(units, list) or not all(isinstance(u, dict) for u in units):
        raise ContentError(src.issue("units are a list of mappings", "units"))
    copies: list[dict[str, Any]] = []
    for i in range(1, k + 1):
        for at, unit in enumerate(units):
            if unit.get("script"):
                raise ContentError(src.issue("a scripted unit names its targets: not copied", "units", at))
            copy = dict(unit)
            if i > 1:
                copy["id"] = f"{unit.get('id') or unit.get('creature')}-{i}"
                if unit.get("name"):
                    copy["name"] = f"{unit['name']} {i}"
            copies.append(copy)
    # the line numbers of the file no longer match its units: errors name fields only
    return replace(src, data={**src.data, "units": copies}, node=None)
