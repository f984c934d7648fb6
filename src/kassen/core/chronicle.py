"""Reading chronicles and snapshots back: every recorded field checked, nothing trusted.

A chronicle (:meth:`~kassen.core.fight.Fight.to_json`) is replayed from its seed, initial state and
actions, and each recorded field is compared with what the replay gives: the content (every digest, not
only the hash), each action's events and the state id after it (so a changed initial state, seed or
RNG position is caught even where no event shows it), typed dice, and the result. The first difference
is named with its log index and field. A chronicle of format 3 records its ``end`` — how many actions
its log holds and a digest of the log — checked before anything is replayed, so one cut short (its
last entries and result gone) is refused rather than replayed as an unfinished fight; format 2 has no
end and is read as before. A snapshot is checked against its own state id.

Policies continue too: the resumed fight gets the given policy, else that of the given scenario, else
that of the bundled scenario the chronicle names (when its initial state is the chronicle's).
"""

from __future__ import annotations

__all__ = ["META_KEYS", "read_chronicle", "read_snapshot", "read_start"]

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kassen.content.content import Content, Layer, inline_layer, read_layer
from kassen.core.codec import Codec, FormatError
from kassen.core.engine import GM
from kassen.core.errors import IllegalActionError, KassenError, TypedDiceError
from kassen.core.events import canonical_json, check_event
from kassen.core.fight import (
    FORMAT,
    READS,
    Fight,
    ReplayError,
    check_faces,
    check_seed,
    log_digest,
    state_codec,
)
from kassen.core.policy import Policy
from kassen.core.ruleset import Ruleset, find_ruleset
from kassen.i18n import S_

#: What a chronicle's meta may hold: the scenario's title and source name, the content's digests, and
#: ``notes`` — free JSON of the user's own (a table's name, a campaign), kept but never interpreted; and
#: ``dice`` — how the table rolled when it saved the fight (``auto`` or ``table``), which a resumed game
#: keeps (a replay reads the typed faces from the log, whatever it says); ``humans`` — the sides and
#: units played at the terminal that saved it (``--human``), whose view a resumed game keeps.
META_KEYS = ("scenario", "source", "content", "notes", "policies", "dice", "humans")
_FREE: Codec[Any] = Codec(dict[str, Any])

_CHRONICLE = (
    {"format", "ruleset", "seed", "meta", "initial_state", "state_id", "log"},
    {"result", "rng", "played", "end"},
)
_END = ({"actions", "digest"}, set[str]())
_SNAPSHOT: tuple[set[str], set[str]] = (
    {"format", "snapshot", "ruleset", "seed", "meta", "state", "rng", "played", "state_id"},
    set(),
)
_ENTRY = ({"index", "action", "events", "state_id"}, {"dice", "by"})


def read_chronicle(
    data: Any,
    *,
    content: Sequence[str | Path] | str | Path = (),
    policy: Policy[Any, Any] | None = None,
    scenario: Any = None,
) -> Fight[Any, Any]:
    """See :meth:`kassen.core.fight.Fight.from_json`."""
    _format(data, "a chronicle")
    top = _object(data, "", *_CHRONICLE)
    _end(top)
    fight = _start(top, content)
    log = top["log"]
    for i, item in enumerate(log):
        where = f"log[{i}]"
        entry = _object(item, where, *_ENTRY)
        if type(entry["index"]) is not int or entry["index"] != i:
            raise FormatError(f"{where}.index", f"expected {i}, got {entry['index']!r}"[:80])
        action = fight.action(entry["action"], f"{where}.action")
        faces = check_faces(entry["dice"], f"{where}.dice") if "dice" in entry else None
        if "by" in entry and entry["by"] != "gm":
            raise FormatError(
                f"{where}.by", S_("expected gm (the only actor recorded apart from whoever was to move)")
            )
        try:
            events = fight.apply(action, dice=faces, by=GM if "by" in entry else None)
        except (IllegalActionError, TypedDiceError) as exc:
            raise ReplayError(
                S_("{where}.action: not possible at this point of the replay: {exc}", where=where, exc=exc)
            ) from None
        _typed_events(fight.ruleset.info.event_types, entry["events"], f"{where}.events")
        _same(entry["events"], json.loads(canonical_json([e.to_json() for e in events])), f"{where}.events")
        if entry["state_id"] != fight.state_id:
            raise ReplayError(
                S_("{where}.state_id: the state after this action is not the one recorded", where=where)
            )
    result = fight.result
    if "result" in top:
        if result is None:
            raise ReplayError(S_("result: the log claims a result, but its actions do not end the fight"))
        _same(top["result"], result.to_json(), "result")
    elif result is not None:
        raise ReplayError(S_("result: the fight is over after these actions, but the log records no result"))
    _digest(top)
    fight.policy, fight.max_actions = _policy(
        fight.ruleset, fight.content, fight.meta, fight.initial_state, policy, scenario
    )
    _side_policies(fight, policy)
    return fight


def read_start(
    data: Any,
    *,
    content: Sequence[str | Path] | str | Path = (),
) -> Fight[Any, Any]:
    """The fight at the start of a chronicle, read from its header alone (its log, result and end are
    not read): the format, ruleset, seed, meta with the content, initial state and its state id, and the
    actions played before a resumed snapshot. A store that keeps the header and the actions apart (the
    web table) opens a fight with it, then applies the actions it kept."""
    _format(data, "a chronicle")
    top = _object(data, "", _CHRONICLE[0] - {"log"}, _CHRONICLE[1] | {"log"})
    return _start(top, content)


def _end(top: Mapping[str, Any]) -> None:
    """A format-3 chronicle's end: its count of actions checked against its log before anything is
    replayed (a chronicle cut short is said to be, not replayed as an unfinished fight)."""
    log = top["log"]
    if not isinstance(log, list):
        raise FormatError("log", S_("expected a list, got {name}", name=type(log).__name__))
    if top["format"] < 3:
        if "end" in top:
            raise FormatError("end", S_("a chronicle of format 2 has no end (format 3 records it)"))
        return
    if "end" not in top:
        raise ReplayError(
            S_(
                "end: field required: a chronicle of format 3 records how many actions its log holds "
                "(a file cut short loses it with its last entries)"
            )
        )
    end = _object(top["end"], "end", *_END)
    actions, digest = end["actions"], end["digest"]
    if type(actions) is not int or actions < 0:
        raise FormatError("end.actions", S_("expected a whole number of actions"))
    if not isinstance(digest, str):
        raise FormatError("end.digest", S_("expected the log's digest (text)"))
    if len(log) != actions:
        raise ReplayError(
            S_(
                "log: {n_log} actions, but the chronicle records {actions}: it was cut short or added to",
                n_log=len(log),
                actions=actions,
            )
        )


def _digest(top: Mapping[str, Any]) -> None:
    """A format-3 chronicle's digest, checked once every entry replayed (an entry changed is named by
    the replay first, with its index and field)."""
    if "end" in top and log_digest(top["log"]) != top["end"]["digest"]:
        raise ReplayError(
            S_("end.digest: not the digest of this log: the log was changed after it was written")
        )


def _start(top: Mapping[str, Any], content: Sequence[str | Path] | str | Path) -> Fight[Any, Any]:
    """The fight at the chronicle's start (its header read and checked)."""
    ruleset, built, meta = _content(top, content)
    seed = check_seed(top["seed"])
    rng = check_seed(top["rng"], "rng") if "rng" in top else None
    state = state_codec(ruleset.info.state_type).load(top["initial_state"], "initial_state")
    fight: Fight[Any, Any] = Fight(ruleset, built, state, seed, meta=meta, rng=rng)
    prior = _played(fight, top.get("played", []))
    if prior:
        fight = Fight(ruleset, built, state, seed, meta=meta, rng=rng, history=prior)
    if fight.state_id != top["state_id"]:
        raise ReplayError(
            S_(
                "state_id: the initial state, seed or RNG position is not the one the chronicle was "
                "played from"
            )
        )
    return fight


def chronicle_schema(ruleset: Any) -> dict[str, Any]:
    """The JSON Schema of ``ruleset``'s chronicles (format :data:`~kassen.core.fight.FORMAT`): the
    header, the log's entries, and each event's data by its kind (``info.event_types``; free JSON for a
    ruleset that declares none)."""
    from kassen.core.fight import FORMAT
    from kassen.core.jsondata import json_schema

    info = ruleset.info
    kinds = [
        {
            "type": "object",
            "properties": {
                "kind": {"const": kind},
                "data": json_schema(tp),
                "rule": {"type": "string"},
                "automatic": {"const": True},
            },
            "required": ["kind", "data"],
            "additionalProperties": False,
        }
        for kind, tp in sorted(info.event_types.items())
    ]
    event: dict[str, Any] = {"oneOf": kinds} if kinds else {"type": "object"}
    entry = {
        "type": "object",
        "properties": {
            "index": {"type": "integer", "minimum": 0},
            "action": {"type": "object", "description": f"a {info.name} action, as its codec writes it"},
            "events": {"type": "array", "items": event},
            "state_id": {"type": "string"},
            "dice": {"type": "array", "items": {"type": ["integer", "null"]}},
            "by": {"const": "gm"},
        },
        "required": ["index", "action", "events", "state_id"],
        "additionalProperties": False,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"kassen {info.name} chronicle",
        "type": "object",
        "properties": {
            "format": {"const": FORMAT},
            "ruleset": {"const": info.name},
            "seed": {"type": "integer", "minimum": 0},
            "meta": {"type": "object"},
            "initial_state": {"type": "object", "description": f"the {info.name} state, as its codec writes"},
            "state_id": {"type": "string"},
            "log": {"type": "array", "items": entry},
            "rng": {"type": "integer"},
            "played": {"type": "array"},
            "result": {
                "type": "object",
                "properties": {"winner": {"type": ["string", "null"]}, "reason": {"type": "string"}},
                "required": ["winner", "reason"],
            },
            "end": {
                "type": "object",
                "description": "how many actions the log holds and its digest (format 3)",
                "properties": {
                    "actions": {"type": "integer", "minimum": 0},
                    "digest": {"type": "string"},
                },
                "required": ["actions", "digest"],
                "additionalProperties": False,
            },
        },
        "required": ["format", "ruleset", "seed", "meta", "initial_state", "state_id", "log", "end"],
        "additionalProperties": False,
    }


def _typed_events(types: Any, recorded: Any, where: str) -> None:
    """Each recorded event's data is what its kind carries (the ruleset's ``event_types``, when it
    declares them): a clear error naming the field, before the replay compares the events."""
    if not types or not isinstance(recorded, list):
        return
    for j, event in enumerate(recorded):
        if isinstance(event, dict) and isinstance(event.get("kind"), str) and "data" in event:
            check_event(types, event["kind"], event["data"], f"{where}[{j}].data")


def read_snapshot(
    data: Any,
    *,
    content: Sequence[str | Path] | str | Path = (),
    policy: Policy[Any, Any] | None = None,
    scenario: Any = None,
) -> Fight[Any, Any]:
    """See :meth:`kassen.core.fight.Fight.from_snapshot`."""
    _format(data, "a snapshot")
    top = _object(data, "", *_SNAPSHOT)
    if top["snapshot"] is not True:
        raise FormatError("snapshot", S_("expected true"))
    ruleset, built, meta = _content(top, content)
    seed = check_seed(top["seed"])
    rng = check_seed(top["rng"], "rng")
    state = state_codec(ruleset.info.state_type).load(top["state"], "state")
    probe: Fight[Any, Any] = Fight(ruleset, built, state, seed, meta=meta, rng=rng)
    prior = _played(probe, top["played"])
    fight: Fight[Any, Any] = Fight(ruleset, built, state, seed, meta=meta, rng=rng, history=prior)
    if top["state_id"] != fight.state_id:
        raise ReplayError(S_("state_id: the snapshot's state is not the one its id was made of"))
    fight.policy, fight.max_actions = _policy(ruleset, built, meta, None, policy, scenario)
    _side_policies(fight, policy)
    return fight


def _format(data: Any, what: str) -> None:
    if not isinstance(data, dict):
        raise FormatError(
            "", S_("expected {what} (a JSON object), got {name}", what=what, name=type(data).__name__)
        )
    if "format" not in data:
        raise FormatError(
            "format",
            S_(
                "no format version: {what} of kassen 0.1 (format 1), which this kassen ({format}) does not "
                "read; play the fight again to write it anew",
                what=what,
                format=FORMAT,
            ),
        )
    if type(data["format"]) is not int or data["format"] not in READS:
        raise FormatError(
            "format",
            S_(
                "this file is format {given}; this kassen reads formats {formats}: play the fight again to "
                "write it anew",
                given=repr(data["format"])[:40],
                formats=", ".join(map(str, READS)),
            ),
        )


def _object(data: Any, path: str, required: set[str], optional: set[str]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise FormatError(path, S_("expected an object, got {name}", name=type(data).__name__))
    for key in data:
        if key not in required and key not in optional:
            where = f"{path}.{key}" if path else str(key)
            raise FormatError(
                where[:80],
                S_("unknown field (fields: {items})", items=", ".join(sorted(required | optional))),
            )
    for key in sorted(required):
        if key not in data:
            raise FormatError(f"{path}.{key}" if path else key, S_("field required"))
    return data


def _content(
    top: Mapping[str, Any], content: Sequence[str | Path] | str | Path
) -> tuple[Ruleset[Any, Any, Any], Content[Any], dict[str, Any]]:
    """The ruleset, the content rebuilt from ``content`` and the recorded scenario block (checked
    against every recorded digest), and the meta without its content."""
    ruleset = find_ruleset(top["ruleset"])
    meta = _FREE.load(top["meta"], "meta")
    for key, value in meta.items():
        if key not in META_KEYS:
            raise FormatError(
                f"meta.{key}"[:80], S_("unknown field (fields: {items})", items=", ".join(META_KEYS))
            )
        if key in ("scenario", "source") and not isinstance(value, str):
            raise FormatError(f"meta.{key}", S_("expected a string"))
        if key == "dice" and value not in ("auto", "table"):
            raise FormatError("meta.dice", S_("expected 'auto' or 'table'"))
        if key == "humans" and (
            not isinstance(value, list)
            or len(value) > 1000
            or not all(isinstance(h, str) and 0 < len(h) <= 200 for h in value)
        ):
            raise FormatError("meta.humans", S_("expected a list of side and unit ids"))
    recorded = meta.get("content")
    if not isinstance(recorded, dict):
        raise FormatError("meta.content", S_("field required (the content the fight was played on)"))
    layers: list[Layer] = [read_layer(p, f"layer {i}") for i, p in enumerate(layer_paths(content), 1)]
    inline = recorded.get("scenario")
    if inline is not None:
        if not isinstance(inline, dict):
            raise FormatError("meta.content.scenario", S_("expected an object"))
        layers.append(inline_layer(inline))
    built = ruleset.load_content(layers)
    built.check(recorded)
    return ruleset, built, {k: v for k, v in meta.items() if k != "content"}


def layer_paths(content: Any) -> list[str | Path]:
    """``--content`` layers as given through the API: one path, or a list of paths."""
    if isinstance(content, str | Path):
        return [content]
    if not isinstance(content, list | tuple) or not all(isinstance(p, str | Path) for p in content):
        raise KassenError(S_("content layers are a path or a list of paths (directories or YAML files)"))
    return list(content)


def _played(fight: Fight[Any, Any], data: Any) -> list[Any]:
    if not isinstance(data, list):
        raise FormatError("played", S_("expected a list of actions, got {name}", name=type(data).__name__))
    return [fight.action(a, f"played[{i}]") for i, a in enumerate(data)]


def _policy(
    ruleset: Ruleset[Any, Any, Any],
    content: Content[Any],
    meta: Mapping[str, Any],
    initial: Any,
    policy: Policy[Any, Any] | None,
    scenario: Any,
) -> tuple[Policy[Any, Any] | None, int]:
    """The resumed fight's policy and action limit (see the module notes)."""
    from kassen.core.fight import DEFAULT_MAX_ACTIONS
    from kassen.core.scenario import ScenarioSource, bundled_names, read_scenario

    if policy is not None:
        return policy, DEFAULT_MAX_ACTIONS
    src: ScenarioSource | None = None
    if scenario is not None:
        src = (
            scenario
            if isinstance(scenario, ScenarioSource)
            else read_scenario(scenario, ruleset=ruleset.info.name)
        )
    elif isinstance(meta.get("source"), str) and meta["source"] in bundled_names(ruleset.info.name):
        src = read_scenario(f"{ruleset.info.name}/{meta['source']}")
    if src is None:
        return None, DEFAULT_MAX_ACTIONS
    setup = ruleset.setup(src, content)
    same = setup.title == meta.get("scenario") and (initial is None or setup.state == initial)
    if not same:
        if scenario is not None:
            raise KassenError(S_("{file} is not the scenario this fight was played from", file=src.file))
        return None, DEFAULT_MAX_ACTIONS
    return setup.policy(), setup.max_actions


def _side_policies(fight: Fight[Any, Any], given: Policy[Any, Any] | None) -> None:
    """The named policies the chronicle records for its sides (``meta.policies``), over the resumed
    fight's own; a policy given to the reader replaces them all."""
    fight.base_policy = fight.policy
    recorded = fight.meta.get("policies")
    if recorded is None:
        return
    if not isinstance(recorded, dict):
        raise FormatError("meta.policies", S_("expected an object of side -> policy spec"))
    if given is None:
        try:
            fight.use_policies(recorded)
        except KassenError as exc:
            raise FormatError("meta.policies", str(exc)) from None


def _same(recorded: Any, replayed: Any, path: str) -> None:
    """Raise :class:`ReplayError` at the first place ``recorded`` and ``replayed`` JSON differ."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in sorted(set(recorded) | set(replayed), key=str):
            if key not in recorded:
                raise ReplayError(
                    S_("{path}.{key}: the replay gives a field the log does not record", path=path, key=key)
                )
            if key not in replayed:
                raise ReplayError(f"{path}.{key}"[:80] + ": recorded, but the replay does not give it")
            _same(recorded[key], replayed[key], f"{path}.{key}")
        return
    if isinstance(recorded, list) and isinstance(replayed, list):
        for i, (r, p) in enumerate(zip(recorded, replayed, strict=False)):
            _same(r, p, f"{path}[{i}]")
        if len(recorded) != len(replayed):
            raise ReplayError(
                S_(
                    "{path}: {n_recorded} recorded, the replay gives {n_replayed}",
                    path=path,
                    n_recorded=len(recorded),
                    n_replayed=len(replayed),
                )
            )
        return
    if type(recorded) is not type(replayed) or recorded != replayed:
        raise ReplayError(
            S_(
                "{path}: recorded {short}, the replay gives {short2}",
                path=path,
                short=_short(recorded),
                short2=_short(replayed),
            )
        )


def _short(value: Any) -> str:
    text = canonical_json(value) if isinstance(value, dict | list) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
