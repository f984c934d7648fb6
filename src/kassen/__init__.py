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

from typing import TYPE_CHECKING, Any

from kassen.core import KassenError, Rng, Step

if TYPE_CHECKING:
    from kassen.core.fight import Fight
    from kassen.core.scenario import bundled_scenarios, open_fight

__all__ = ["Fight", "KassenError", "Rng", "Step", "__version__", "bundled_scenarios", "open_fight"]
__version__ = "0.2.0"

_LAZY = {
    "Fight": "kassen.core.fight",
    "open_fight": "kassen.core.scenario",
    "bundled_scenarios": "kassen.core.scenario",
}


def __getattr__(name: str) -> Any:
    # The fight API pulls in pydantic and YAML: loaded on first use, so `kassen roll` starts fast.
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kassen' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
