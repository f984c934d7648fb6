"""Campaigns: a roster of characters whose lasting state goes from fight to fight.

- :mod:`kassen.campaign.hooks` — what a ruleset supplies (its lasting state, its between-fight rules);
- :mod:`kassen.campaign.build` — sheets checked by the scenario loader, fights cast from a template;
- :mod:`kassen.campaign.schema` — the tables, in the fight store's database;
- :mod:`kassen.campaign.roster` — :class:`~kassen.campaign.roster.Campaigns`: the operations (a roster,
  fights started, aftermaths proposed, confirmed and undone), each one transaction.

See ``docs/campaign.md``.
"""
