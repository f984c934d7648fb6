"""kassen.sengoku: the Sengoku wounds-and-breath ruleset (seeds 000 and 002, ledger ``SG.*``)."""
