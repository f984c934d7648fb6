"""A terminal game over a fight whose hidden values are sentinels (run in a pseudo-terminal by
test_terminal.py): ``python planted_session.py SCENARIO SEED SIDE ACTIONS OUT``.

The fight is played ``ACTIONS`` actions by its policies; then every value the ruleset's visibility table
hides from ``SIDE`` — in the state and in the events of the log — is replaced by a sentinel number no
fight produces (as the web's hidden-value test does), the sentinels are written to ``OUT`` (JSON), and
the game goes on at this terminal exactly as ``kassen play --human SIDE`` runs it."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

SENTINEL = 987_650_000


def _hidden_paths(gm: Any, side: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Where the side's view has null and the GM's has a value."""
    if isinstance(gm, dict) and isinstance(side, dict):
        return [p for k in gm for p in _hidden_paths(gm[k], side.get(k), (*path, k))]
    if isinstance(gm, list) and isinstance(side, list):
        return [
            p for i, (a, b) in enumerate(zip(gm, side, strict=False)) for p in _hidden_paths(a, b, (*path, i))
        ]
    return [path] if side is None and gm is not None else []


class Planter:
    def __init__(self) -> None:
        self.planted: dict[str, int] = {}

    def ints(self, node: Any, name: str) -> Any:
        if isinstance(node, bool):
            return node
        if isinstance(node, int):
            self.planted[name] = SENTINEL + len(self.planted)
            return self.planted[name]
        if isinstance(node, list):
            return [self.ints(x, f"{name}[{i}]") for i, x in enumerate(node)]
        if isinstance(node, dict):
            return {k: self.ints(v, f"{name}.{k}") for k, v in node.items()}
        return node


def plant(fight: Any, side: str) -> dict[str, int]:
    from kassen.core.engine import Snapshot
    from kassen.core.fight import state_codec
    from kassen.core.view import GM_VIEW, Viewer, visibility_of

    planter = Planter()
    codec = state_codec(fight.ruleset.info.state_type)
    data = codec.dump(fight.state)
    for path in _hidden_paths(fight.view(GM_VIEW)["state"], fight.view(Viewer(side))["state"]):
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = planter.ints(parent[path[-1]], ".".join(map(str, path)))
    fight._snapshots[-1] = Snapshot(codec.load(data), fight.snapshot.rng)
    fight._legal = None
    rules = visibility_of(fight.ruleset, fight.tables)
    for i, entry in enumerate(fight._entries):
        events = []
        for e in entry.events:
            d = copy.deepcopy(dict(e.data))
            for rule in rules.events:
                owner = d.get(rule.owner)
                if rule.kind not in ("*", e.kind) or owner is None or fight.side_of(owner) == side:
                    continue
                for name in d if "*" in rule.fields else rule.fields:
                    if name in d and name != rule.owner:
                        d[name] = planter.ints(d[name], f"log[{i}].{e.kind}.{name}")
            events.append(type(e)(e.kind, d, e.rule, e.automatic))
        fight._entries[i] = type(entry)(
            entry.index, entry.action, entry.actor, tuple(events), entry.faces, entry.out_of_turn
        )
    return planter.planted


def main() -> None:
    scenario, seed, side, actions, out = sys.argv[1:6]
    import kassen
    from kassen.cli.play import _session

    fight = kassen.open_fight(scenario, seed=int(seed))
    for _ in range(int(actions)):
        fight.step()
    planted = plant(fight, side)
    Path(out).write_text(json.dumps(planted), encoding="utf-8")
    # the earlier actions are told as the terminal would have told them, then the game goes on
    from kassen.core.report import narrate
    from kassen.core.view import Viewer

    for entry in fight.entries:
        for line in narrate(fight, entry.events, Viewer(side)):
            print(line)
    _session(fight, [side], None, "planted")


if __name__ == "__main__":
    main()
