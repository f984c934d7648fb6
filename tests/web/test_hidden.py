"""No hidden value in any response to a side's token (issue 12), for each ruleset.

A fight of each ruleset is played part way through the API; then, in the server's live fight, every
value the ruleset's visibility table hides from a side — in the state and in the events of the log —
is replaced by a sentinel number no fight produces. Every response the other side's token can get is
then searched for the sentinels: views, menus, narration, the screens and their partials, the event
stream, the refusals, the fight list and an action's reply. The GM's view must hold every sentinel
(else the test would prove nothing). A second test plays Sengoku with table dice and looks for the
reserved technique's name itself while the action that reserves it waits for dice.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from kassen.core.engine import Snapshot
from kassen.core.fight import state_codec
from kassen.core.view import GM_VIEW, Viewer, visibility_of

from .conftest import FIGHTS, Table, open_table

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

    def value(self, name: str) -> int:
        self.planted[name] = SENTINEL + len(self.planted)
        return self.planted[name]

    def ints(self, node: Any, name: str) -> Any:
        """``node`` with every integer in it replaced by a new sentinel."""
        if isinstance(node, bool):
            return node
        if isinstance(node, int):
            return self.value(name)
        if isinstance(node, list):
            return [self.ints(x, f"{name}[{i}]") for i, x in enumerate(node)]
        if isinstance(node, dict):
            return {k: self.ints(v, f"{name}.{k}") for k, v in node.items()}
        return node


def plant(fight: Any, side: str) -> dict[str, int]:
    """Sentinels in every value ``side`` may not see (see the module notes); returns them by name."""
    planter = Planter()
    codec = state_codec(fight.ruleset.info.state_type)
    data = codec.dump(fight.state)
    gm_state = fight.view(GM_VIEW)["state"]
    side_state = fight.view(Viewer(side))["state"]
    for path in _hidden_paths(gm_state, side_state):
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


def side_responses(client: Any, t: Table, side: str) -> list[tuple[str, str]]:
    """Every response ``side``'s token can get now (name, body)."""
    token = t.join[side]
    h = t.headers(token)
    out: list[tuple[str, str]] = []

    def get(url: str, **params: Any) -> Any:
        r = client.get(url, headers=h, params=params)
        out.append((f"GET {url} {params}", r.text))
        return r

    base = f"/api/fights/{t.id}"
    view = get(base).json()
    get(base, log="false")
    get(f"{base}/narration")
    get(f"{base}/narration", verbose="true")
    for where in ("/log", "/links"):
        get(base + where)
    get(f"{base}/choices", gm="true")
    r = get(f"{base}/choices")
    if r.status_code == 200:  # the side's own turn: every menu along the first path
        path: list[str] = []
        while True:
            option = next(o for o in r.json()["options"] if o.get("allowed", True))
            path.append(option["id"])
            if option["complete"]:
                break
            r = get(f"{base}/choices", path=",".join(path))
    get(f"/ui/fights/{t.id}/screen")
    get(f"/ui/fights/{t.id}/links")
    for i in range(len(view["log"])):
        get(f"/ui/fights/{t.id}/entries/{i}")
    get("/api/fights")
    get("/")
    get(f"/join/{t.id}")
    for where, body in (("/undo", {"state_id": view["state_id"]}), ("/fork", {"at": view["state_id"]})):
        r = client.post(base + where, headers=h, json=body)
        out.append((f"POST {where}", r.text))
    with client.stream("GET", f"{base}/stream", headers=h) as stream:
        lines = []
        for line in stream.iter_lines():
            lines.append(line)
            if line.startswith("data:"):
                break
        out.append(("stream", "\n".join(lines)))
    return out


def _play(t: Table, actions: int) -> None:
    for _ in range(actions):
        if t.view(log=False)["over"]:
            return
        t.act({"auto": True})


@pytest.mark.parametrize("ruleset", sorted(FIGHTS))
def test_no_hidden_value_in_any_response_to_a_side(client: Any, ruleset: str) -> None:
    tables = client.app.state.tables
    checked = 0
    for side in open_table(client, FIGHTS[ruleset]).join:
        t = open_table(client, FIGHTS[ruleset], seed=4)  # a fight of its own for each side looking
        _play(t, 3 if ruleset == "l5r" else 5)
        with tables.reading(t.id) as live:
            planted = plant(live.fight, side)
        gm_text = t.get("", t.gm).text
        assert planted, f"{ruleset}: nothing hidden from {side}: the test would prove nothing"
        for name, value in planted.items():
            assert str(value) in gm_text, f"the GM's view lost {name}"
        for where, body in side_responses(client, t, side):
            for name, value in planted.items():
                assert str(value)[:7] not in body, f"{side} reads {name} in {where}"
            checked += 1
        if t.view(t.join[side], log=False)["may_decide"]:  # an action's reply, on the planted state
            reply = t.act({"auto": True}, t.join[side])
            for name, value in planted.items():
                assert str(value)[:7] not in reply.text, f"{side} reads {name} in its action's reply"
    assert checked > 30


def test_a_reservation_waiting_for_dice_stays_behind_the_gms_screen(client: Any) -> None:
    # Sengoku, table dice: Genzaburo (the party) reserves Parry in a breath that waits for its dice.
    t = open_table(client, "sengoku/count-example", seed=4, dice="table")
    t.act({"choices": ["begin"]})
    while t.view(log=False)["to_move"]["id"] != "genzaburo":
        if t.view(log=False)["pending"]:
            t.act({"dice": [5, 5]})
        else:
            t.act({"auto": True})
    menu = t.get("/choices", t.gm).json()
    cut = next(o["id"] for o in menu["options"] if "Horizontal Cut" in o["label"])
    target = t.get("/choices", t.gm, path=cut).json()["options"][0]["id"]
    after = t.get("/choices", t.gm, path=f"{cut},{target}").json()
    parry = next(o["id"] for o in after["options"] if o["label"].startswith("Parry"))
    end = t.get("/choices", t.gm, path=f"{cut},{target},{parry}").json()
    finish = next(o["id"] for o in end["options"] if o["complete"])
    waiting = t.act({"choices": [cut, target, parry, finish]}, t.join["party"]).json()
    assert waiting["applied"] is False and waiting["view"]["pending"]
    gm_view = t.get("", t.gm).text
    assert "parry" in gm_view.lower()  # the GM sees what waits
    for where, body in side_responses(client, t, "yoma"):
        assert "parry" not in body.lower(), f"the Oni's side reads the reserved Parry in {where}"
    for _ in range(10):  # the dice come; the reservation stays hidden until it answers an attack
        if not t.view(log=False)["pending"]:
            break
        t.act({"dice": [4, 4]}, t.join["party"])
    assert not t.view(log=False)["pending"]
    log = json.loads(t.get("", t.join["yoma"]).text)["log"]
    assert "parry" not in json.dumps(log).lower()


@pytest.mark.parametrize("ruleset", sorted(FIGHTS))
def test_a_side_never_reads_the_state_id_to_try_hidden_values_on(client: Any, ruleset: str) -> None:
    # The state id hashes the whole state: a side that knows the seed could try hidden values until
    # one matches it. A side reads its own view's id instead (Fight.view_id) and chooses on it.
    t = open_table(client, FIGHTS[ruleset], seed=4)
    _play(t, 3)
    state_id = t.now()  # the GM's
    for side in t.join:
        own = t.now(t.join[side])
        assert own != state_id
        for where, body in side_responses(client, t, side):
            assert state_id not in body, f"{side} reads the state id in {where}"
    mover = t.side_of_turn()
    if mover is not None and t.view(t.join[mover], log=False)["may_decide"]:
        stale = t.post("/actions", t.join[mover], {"state_id": state_id, "auto": True})
        assert stale.status_code == 409 and stale.json()["state_id"] == t.now(t.join[mover])
        assert t.act({"auto": True}, t.join[mover]).status_code == 200  # on its own view's id
