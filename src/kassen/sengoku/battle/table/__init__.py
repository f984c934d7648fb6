"""Playing a Sengoku battle at the table: what the ruleset's optional hooks answer.

- :mod:`~kassen.sengoku.battle.table.menus`: every decision built step by step (``choices``,
  ``decision``), a breath maneuver by maneuver (:mod:`~kassen.sengoku.battle.table.breath`);
- :mod:`~kassen.sengoku.battle.table.preview`: the exact odds of an attack at its point of a breath;
- :mod:`~kassen.sengoku.battle.table.gm`: the GM's own moves (``gm_actions``, ``label``);
- :mod:`~kassen.sengoku.battle.table.views`: what a side may see (``units``, ``visibility``) and the
  count track above each menu (``status``);
- :mod:`~kassen.sengoku.battle.table.check`: asking the rules whether an action is allowed, rolling
  nothing.
"""
