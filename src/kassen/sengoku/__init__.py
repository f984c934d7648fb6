"""kassen.sengoku: the Sengoku wounds-and-breath ruleset (seeds 000 and 002, ledger ``SG.*``).

The battle ruleset is :data:`kassen.sengoku.battle.ruleset.RULESET`, found by name through the
``kassen.rulesets`` entry point (``kassen.core.ruleset.find_ruleset("sengoku")``); importing this
package imports nothing else. The attack resolution, Defense, odds and catalog live beside it.
"""
