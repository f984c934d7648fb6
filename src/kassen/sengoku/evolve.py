"""``evolve(record, **changes)``: the engine's quick :func:`dataclasses.replace` for the battle state, its
units and the other frozen records every action rewrites dozens of times.

It is :func:`kassen.core.fastreplace.replace` (one copier shared by every ruleset): the same record
``dataclasses.replace`` builds; a field that is not an ``__init__`` field (a reading the record keeps
of itself, such as a unit index or a cached hash) starts afresh at its default, as ``replace`` leaves it.
"""

from __future__ import annotations

__all__ = ["evolve"]

from kassen.core.fastreplace import replace as evolve
