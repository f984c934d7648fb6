"""Every docstring example in kassen runs and gives what it shows (DESIGN principle 14). The modules
are found by walking the package, so a new module (or a new ruleset) is covered without a list to
keep; the modules whose examples document a ruleset's or the core's API must keep having some."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import kassen

_FINDER = doctest.DocTestFinder()


def _examples(name: str) -> int:
    module = importlib.import_module(name)
    return sum(len(t.examples) for t in _FINDER.find(module) if t.examples)


WALKED = sorted(
    m.name for m in pkgutil.walk_packages(kassen.__path__, "kassen.") if not m.name.endswith("__main__")
)
WITH_EXAMPLES = [name for name in ["kassen", *WALKED] if _examples(name)]

#: Modules whose examples are part of their documentation.
DOCUMENTED = {
    "kassen.core.codec",
    "kassen.core.order",
    "kassen.core.scenario",
    "kassen.core.report",
    "kassen.arena",
    "kassen.arena.checks",
    "kassen.arena.content",
    "kassen.arena.damage",
    "kassen.arena.odds",
    "kassen.arena.ruleset",
    "kassen.l5r",
    "kassen.l5r.calc",
    "kassen.l5r.content",
    "kassen.l5r.pool",
    "kassen.l5r.scenario",
    "kassen.sengoku.attack",
    "kassen.sengoku.check",
    "kassen.sengoku.death",
    "kassen.sengoku.odds",
    "kassen.sengoku.resolution",
    "kassen.sengoku.technique",
}


def test_documented_modules_keep_their_examples() -> None:
    assert set(WITH_EXAMPLES) >= DOCUMENTED, sorted(DOCUMENTED - set(WITH_EXAMPLES))


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(
        importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    assert result.attempted > 0 and result.failed == 0, (
        f"{result.failed} of {result.attempted} failed in {name}"
    )
