"""kassen.l5r: the roll-and-keep raises ruleset (seed 003, ledger ``L5.*``)."""
