"""kassen (合戦): a rules engine that runs tabletop-RPG combat exactly as written, explains every number
it produces and gives exact odds.

The shared core lives in :mod:`kassen.core` (errors, explanation steps, the injected RNG) and
:mod:`kassen.dice` (notation, rolls, exact distributions); each ruleset is its own package.
"""

from kassen.core import KassenError, Rng, Step

__all__ = ["KassenError", "Rng", "Step", "__version__"]
__version__ = "0.1.0"
