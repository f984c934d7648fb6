"""The commands that work for every ruleset, over :func:`kassen.open_fight` and :class:`kassen.Fight`:
``scenarios``, ``fight``, ``replay``, ``validate``, ``schema``, ``rules``.

They know no ruleset by name: scenarios, rule texts and schemas come from the registry.
"""

from __future__ import annotations

__all__ = ["register"]

import sys
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer
import yaml

from kassen.cli.common import PolicyOption, emit_json, side_policies, user_errors
from kassen.cli.numbers import SeedOption
from kassen.core.errors import ContentError, KassenError
from kassen.i18n import pgettext, translate_text

ContentOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--content",
        help="A directory (or file) of YAML content merged over the bundled data; repeat for more layers.",
        metavar="DIR",
    ),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


def _out(line: str) -> None:
    """One line of plain text: never wrapped or styled, so it survives a pipe as it is."""
    sys.stdout.write(line + "\n")


def _article(word: str) -> str:
    """ "a" or "an" before ``word`` as it is said: a name with a digit is spelt out letter by letter
    ("an l5r scenario"), any other by its first letter ("a sengoku", "an arena")."""
    spelt = any(c.isdigit() for c in word)
    return "an" if word[:1].lower() in ("aefhilmnorsx" if spelt else "aeiou") else "a"


def _layers(content: list[Path] | None) -> list[Path]:
    return list(content or [])


def scenarios_command(
    ruleset: Annotated[
        str | None, typer.Option(help="Only this ruleset's scenarios.", metavar="NAME")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Every bundled scenario: its name, ruleset and title."""
    from kassen.core.ruleset import registered_rulesets
    from kassen.core.scenario import bundled_scenarios

    found: list[Any] = []
    for name in [ruleset] if ruleset is not None else registered_rulesets():
        try:
            found += bundled_scenarios(name)
        except KassenError as exc:
            if ruleset is not None:
                raise
            sys.stderr.write(f"kassen: warning: {exc}\n")  # one broken ruleset hides no other
    if as_json:
        emit_json([s.to_json() for s in found])
        return
    width = max((len(s.name) for s in found), default=0)
    for s in found:
        _out(f"{s.name:<{width}}  {s.ruleset:<8} {s.title}")


def fight_command(
    scenario: Annotated[
        str, typer.Argument(help="A bundled scenario (see `kassen scenarios`) or a YAML file.")
    ],
    seed: SeedOption = None,
    content: ContentOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the chronicle (replayable JSON).")] = False,
    brief: Annotated[bool, typer.Option("--brief", help="Only how the fight ended.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Every explanation step too.")] = False,
    policy: PolicyOption = None,
) -> None:
    """Play any ruleset's scenario to its end with its policies (or --policy SIDE=SPEC); every event
    told in words."""
    from kassen.core.report import account, outcome_text
    from kassen.core.rng import fresh_seed
    from kassen.core.scenario import open_fight, read_scenario

    policies = side_policies(policy)  # checked before the scenario is even read
    source = read_scenario(scenario)
    if seed is None and source.data.get("seed") is None:
        seed = fresh_seed()  # as --seed says: the scenario's, else 64 random bits (and printed)
    fight = open_fight(source, seed=seed, content=_layers(content), policies=policies)
    fight.autoplay()
    if as_json:
        sys.stdout.write(fight.log_json() + "\n")
        return
    if brief:
        result = fight.result
        assert result is not None
        text = outcome_text(result, fight.ruleset.names(fight.initial_state))
        title = fight.meta.get("scenario", scenario)
        _out(f"{title} (seed {fight.seed}): {text}, after {len(fight.entries)} actions")
        return
    played_by = "; ".join(f"{side}: {spec}" for side, spec in fight.policy_specs().items())
    _out(
        f"{fight.meta.get('scenario', scenario)} (seed {fight.seed})"
        + (f" [{played_by}]" if played_by else "")
    )
    sys.stdout.write(account(fight, verbose=verbose))


def _read_input(file: str) -> str | bytes:
    if file == "-":
        from kassen.core.codec import MAX_JSON_BYTES

        return sys.stdin.buffer.read(MAX_JSON_BYTES + 1)  # parse_json refuses what is over the limit
    from kassen.content.yamlio import read_text

    try:
        return read_text(file, max_bytes=64 * 1024 * 1024)
    except ContentError as exc:
        raise KassenError(str(exc)) from None


def replay_command(
    file: Annotated[
        str, typer.Argument(help="A chronicle (`kassen fight --json`), or - for standard input.")
    ],
    content: ContentOption = None,
) -> None:
    """Re-apply a chronicle of any ruleset and check every recorded field (events, dice, result, content
    hash): says "identical" and exits 0, or names the first differing log index and field and exits 2."""
    from kassen.core.codec import parse_json
    from kassen.core.fight import Fight
    from kassen.core.report import outcome_text

    data = parse_json(_read_input(file), what="the chronicle")
    fight = Fight.from_json(data, content=_layers(content))
    n = len(fight.entries)
    if fight.over:
        result = fight.result
        assert result is not None
        text = outcome_text(result, fight.ruleset.names(fight.initial_state))
        _out(f"identical: {n} actions replayed; {text}")
    else:
        names = fight.ruleset.names(fight.initial_state)
        who = fight.to_move
        shown = names.get(who.id, str(who)) if who is not None else "nobody"
        _out(f"identical: {n} actions replayed; the fight is unfinished ({shown} to decide)")


def validate_command(
    scenario: Annotated[str, typer.Argument(help="A scenario YAML file (or a bundled name).")],
    content: ContentOption = None,
) -> None:
    """Check a scenario without playing it: every error with its file, line and field."""
    from kassen.core.fight import Fight
    from kassen.core.scenario import open_fight

    fight: Fight[Any, Any] = open_fight(scenario, content=_layers(content))
    names = fight.ruleset.names(fight.initial_state)
    _out(
        f"ok: {_article(fight.ruleset.info.name)} {fight.ruleset.info.name} scenario, "
        f"{fight.meta.get('scenario')!r}: "
        f"{len(names)} named units and sides, content {fight.content.hash[:12]}"
    )


schema_app = typer.Typer(
    help="JSON Schemas of kassen's input files.", no_args_is_help=True, add_completion=False
)


@schema_app.command("scenario")
@user_errors
def schema_scenario(
    ruleset: Annotated[str, typer.Option(help="The ruleset whose scenario format to print.", metavar="NAME")],
) -> None:
    """The JSON Schema of a ruleset's scenario files (header included)."""
    from kassen.core.ruleset import find_ruleset

    rs = find_ruleset(ruleset)
    schema: dict[str, Any] = rs.info.scenario_model.model_json_schema()
    props = schema.setdefault("properties", {})
    props["ruleset"] = {"const": rs.info.name, "description": "The ruleset this scenario is for."}
    props["content"] = {
        "type": "object",
        "description": "A content layer of the scenario's own, merged over the bundled data and --content.",
    }
    schema.setdefault("required", []).insert(0, "ruleset")
    schema["title"] = f"kassen {rs.info.name} scenario"
    emit_json(schema)


@schema_app.command("chronicle")
@user_errors
def schema_chronicle(
    ruleset: Annotated[str, typer.Option(help="The ruleset whose chronicles to describe.", metavar="NAME")],
) -> None:
    """The JSON Schema of a ruleset's chronicle (kassen fight --json, Fight.to_json): each event's data
    by its kind, where the ruleset declares its event types."""
    from kassen.core.chronicle import chronicle_schema
    from kassen.core.ruleset import find_ruleset

    emit_json(chronicle_schema(find_ruleset(ruleset)))


def _rule_texts() -> dict[str, dict[str, Any]]:
    from kassen.core.ruleset import find_ruleset, registered_rulesets

    out: dict[str, dict[str, Any]] = {}
    for name in registered_rulesets():
        try:
            package, file = find_ruleset(name).info.rule_texts
        except KassenError as exc:  # one broken ruleset must not hide the others' rules
            sys.stderr.write(f"kassen: warning: {exc}\n")
            continue
        data = yaml.safe_load(resources.files(package).joinpath(file).read_text(encoding="utf-8"))
        for rid, entry in data["rules"].items():
            out[rid] = {"id": rid, "ruleset": name, **entry}
    return out


def rules_command(
    rule: Annotated[
        str | None, typer.Argument(help="A rule ID as explanations cite it, e.g. SG.CHK.1.")
    ] = None,
    ruleset: Annotated[str | None, typer.Option(help="List one ruleset's rules.", metavar="NAME")] = None,
    as_json: JsonFlag = False,
) -> None:
    """What a rule ID cited in an explanation says, in a sentence or two (or a ruleset's whole list)."""
    texts = _rule_texts()
    if rule is not None:
        key = rule.strip().upper()
        entry = texts.get(key)
        shown = rule if len(rule) <= 40 else rule[:37] + "..."
        if entry is not None and ruleset is not None and entry["ruleset"] != ruleset:
            raise KassenError(f"{entry['id']} is a rule of {entry['ruleset']}, not of {ruleset[:40]}")
        if entry is None:
            close = [
                r
                for r, e in texts.items()
                if r.startswith(key.rsplit(".", 1)[0] + ".") and (ruleset is None or e["ruleset"] == ruleset)
            ][:8]
            hint = f" (nearby: {', '.join(close)})" if close else " (see `kassen rules --ruleset NAME`)"
            raise KassenError(f"no rule {shown!r}{hint}")
        if as_json:
            emit_json(entry)
            return
        title, text = _rule_words(entry)
        _out(f"{entry['id']} {title} ({pgettext('rule kind', entry['kind'])})")
        _out(text)
        return
    chosen = [e for e in texts.values() if ruleset is None or e["ruleset"] == ruleset]
    if ruleset is not None and not chosen:
        from kassen.core.ruleset import find_ruleset

        find_ruleset(ruleset)  # names the known rulesets
    if as_json:
        emit_json(chosen)
        return
    for e in chosen:
        title, text = _rule_words(e)
        _out(f"{e['id']:<12} {title}: {text}")


def _rule_words(entry: dict[str, Any]) -> tuple[str, str]:
    """A rule's title and text in the reader's language (the data's words, from the ruleset's ``-data``
    catalog); the JSON output keeps the data's own words."""
    return translate_text(str(entry["title"])), translate_text(str(entry["text"]))


def register(app: typer.Typer) -> None:
    """Add the generic commands to ``app``."""
    app.command("scenarios")(user_errors(scenarios_command))
    app.command("fight")(user_errors(fight_command))
    app.command("replay")(user_errors(replay_command))
    app.command("validate")(user_errors(validate_command))
    app.command("rules")(user_errors(rules_command))
    app.add_typer(schema_app, name="schema")
