"""kassen.sengoku: the Sengoku wounds-and-breath ruleset (seeds 000 and 002, ledger ``SG.*``).

Importing the package registers the battle ruleset as ``"sengoku"`` (so ``Chronicle.replay`` and
``find_ruleset("sengoku")`` find it); the engine itself is :mod:`kassen.sengoku.battle`.
"""

from kassen.sengoku.battle import ruleset as _ruleset  # noqa: F401  (registers "sengoku")
