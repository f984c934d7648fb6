"""kassen (合戦): a rules engine that runs tabletop-RPG combat exactly as written, explains every number
it produces and gives exact odds.

One import for a fight of any ruleset::

    import kassen
    fight = kassen.open_fight("demo", seed=3)   # a bundled scenario, "ruleset/name", or a YAML path
    fight.autoplay()
    print(fight.result)

The core lives in :mod:`kassen.core` (the fight, snapshots, the codec, the engine skeleton, policies,
errors, the RNG) and :mod:`kassen.dice` (notation, rolls, exact distributions); each ruleset is its own
package, imported only when a fight needs it.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `kassen roll` starts fast
if TYPE_CHECKING:
    from kassen.core.errors import KassenError
    from kassen.core.explain import Step
    from kassen.core.fight import Fight
    from kassen.core.rng import Rng
    from kassen.core.scenario import bundled_scenarios, open_fight

__all__ = ["Fight", "KassenError", "Rng", "Step", "__version__", "bundled_scenarios", "open_fight"]
__version__ = "0.2.0"

_LAZY = {
    "KassenError": "kassen.core.errors",
    "Rng": "kassen.core.rng",
    "Step": "kassen.core.explain",
    "Fight": "kassen.core.fight",
    "open_fight": "kassen.core.scenario",
    "bundled_scenarios": "kassen.core.scenario",
}


def __getattr__(name: str) -> object:
    # Everything is loaded on first use (the fight API pulls in pydantic and YAML), so that `kassen roll`
    # and `import kassen.dice` import none of it.
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kassen' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
