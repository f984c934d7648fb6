"""kassen.arena: the 3d6 damage-and-injury arena ruleset (seed 004, ledger ``AR.*``)."""
