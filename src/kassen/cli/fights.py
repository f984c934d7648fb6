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

from kassen.cli.common import PolicyOption, emit_json, side_policies, user_errors, warning_line
from kassen.cli.numbers import SeedOption
from kassen.core.errors import ContentError, KassenError
from kassen.i18n import N_, S_, _, ngettext, pgettext, translate_text

ContentOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--content",
        help=N_(
            "A directory (or file) of YAML content merged over the bundled data; repeat for more layers."
        ),
        metavar=N_("DIR"),
    ),
]
JsonFlag = Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of text."))]


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
        str | None, typer.Option(help=N_("Only this ruleset's scenarios."), metavar=N_("NAME"))
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    from kassen.core.ruleset import registered_rulesets
    from kassen.core.scenario import bundled_scenarios

    found: list[Any] = []
    for name in [ruleset] if ruleset is not None else registered_rulesets():
        try:
            found += bundled_scenarios(name)
        except KassenError as exc:
            if ruleset is not None:
                raise
            sys.stderr.write(warning_line(exc))  # one broken ruleset hides no other
    if as_json:
        emit_json([s.to_json() for s in found])
        return
    width = max((len(s.name) for s in found), default=0)
    for s in found:
        _out(f"{s.name:<{width}}  {s.ruleset:<8} {translate_text(s.title)}")


def fight_command(
    scenario: Annotated[
        str, typer.Argument(help=N_("A bundled scenario (see `kassen scenarios`) or a YAML file."))
    ],
    seed: SeedOption = None,
    content: ContentOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help=N_("Print the chronicle (replayable JSON)."))
    ] = False,
    brief: Annotated[bool, typer.Option("--brief", help=N_("Only how the fight ended."))] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help=N_("Every explanation step too."))] = False,
    policy: PolicyOption = None,
) -> None:
    from kassen.core.report import account, outcome_text
    from kassen.core.rng import fresh_seed
    from kassen.core.scenario import open_fight, read_scenario

    chosen = [name for name, on in (("--json", as_json), ("--brief", brief), ("--verbose", verbose)) if on]
    if len(chosen) > 1:  # one output: which would win is nobody's guess
        raise KassenError(
            S_("{first} and {second} ask for two outputs: give one", first=chosen[0], second=chosen[1])
        )
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
        title = translate_text(str(fight.meta.get("scenario", scenario)))
        n = len(fight.entries)
        _out(
            ngettext(
                "{title} (seed {seed}): {outcome}, after {n} action",
                "{title} (seed {seed}): {outcome}, after {n} actions",
                n,
            ).format(title=title, seed=fight.seed, outcome=text, n=n)
        )
        return
    played_by = "; ".join(f"{side}: {spec}" for side, spec in fight.policy_specs().items())
    title = translate_text(str(fight.meta.get("scenario", scenario)))
    _out(
        _("{title} (seed {seed})").format(title=title, seed=fight.seed)
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
        str, typer.Argument(help=N_("A chronicle (`kassen fight --json`), or - for standard input."))
    ],
    content: ContentOption = None,
) -> None:
    from kassen.core.codec import parse_json
    from kassen.core.fight import Fight
    from kassen.core.report import outcome_text

    data = parse_json(_read_input(file), what=S_("the chronicle"))
    fight = Fight.from_json(data, content=_layers(content))
    n = len(fight.entries)
    if fight.over:
        result = fight.result
        assert result is not None
        text = outcome_text(result, fight.ruleset.names(fight.initial_state))
        _out(
            ngettext(
                "identical: {n} action replayed; {outcome}", "identical: {n} actions replayed; {outcome}", n
            ).format(n=n, outcome=text)
        )
    else:
        names = fight.ruleset.names(fight.initial_state)
        who = fight.to_move
        shown = names.get(who.id, str(who)) if who is not None else _("nobody")
        _out(
            ngettext(
                "identical: {n} action replayed; the fight is unfinished ({who} to decide)",
                "identical: {n} actions replayed; the fight is unfinished ({who} to decide)",
                n,
            ).format(n=n, who=shown)
        )


def validate_command(
    scenario: Annotated[str, typer.Argument(help=N_("A scenario YAML file (or a bundled name)."))],
    content: ContentOption = None,
) -> None:
    from kassen.core.fight import Fight
    from kassen.core.scenario import open_fight

    fight: Fight[Any, Any] = open_fight(scenario, content=_layers(content))
    names = fight.ruleset.names(fight.initial_state)
    title = fight.meta.get("scenario")
    values = {
        "ruleset": fight.ruleset.info.name,
        "title": repr(translate_text(title) if isinstance(title, str) else title),
        "n": len(names),
        "content": fight.content.hash[:12],
    }
    if _article(fight.ruleset.info.name) == "an":
        line = _("ok: an {ruleset} scenario, {title}: {n} named units and sides, content {content}")
    else:
        line = _("ok: a {ruleset} scenario, {title}: {n} named units and sides, content {content}")
    _out(line.format(**values))


schema_app = typer.Typer(
    help=N_("JSON Schemas of kassen's input files."), no_args_is_help=True, add_completion=False
)


@schema_app.command("scenario", help=N_("The JSON Schema of a ruleset's scenario files (header included)."))
@user_errors
def schema_scenario(
    ruleset: Annotated[
        str, typer.Option(help=N_("The ruleset whose scenario format to print."), metavar=N_("NAME"))
    ],
) -> None:
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


@schema_app.command(
    "chronicle",
    help=N_(
        "The JSON Schema of a ruleset's chronicle (kassen fight --json, Fight.to_json): each event's data "
        "by its kind, where the ruleset declares its event types."
    ),
)
@user_errors
def schema_chronicle(
    ruleset: Annotated[
        str, typer.Option(help=N_("The ruleset whose chronicles to describe."), metavar=N_("NAME"))
    ],
) -> None:
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
            sys.stderr.write(warning_line(exc))
            continue
        data = yaml.safe_load(resources.files(package).joinpath(file).read_text(encoding="utf-8"))
        for rid, entry in data["rules"].items():
            out[rid] = {"id": rid, "ruleset": name, **entry}
    return out


def rules_command(
    rule: Annotated[
        str | None, typer.Argument(help=N_("A rule ID as explanations cite it, e.g. SG.CHK.1."))
    ] = None,
    ruleset: Annotated[
        str | None, typer.Option(help=N_("List one ruleset's rules."), metavar=N_("NAME"))
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    texts = _rule_texts()
    if rule is not None:
        key = rule.strip().upper()
        entry = texts.get(key)
        shown = rule if len(rule) <= 40 else rule[:37] + "..."
        if entry is not None and ruleset is not None and entry["ruleset"] != ruleset:
            raise KassenError(
                S_(
                    "{id} is a rule of {ruleset}, not of {ruleset2}",
                    id=entry["id"],
                    ruleset=entry["ruleset"],
                    ruleset2=ruleset[:40],
                )
            )
        if entry is None:
            close = [
                r
                for r, e in texts.items()
                if r.startswith(key.rsplit(".", 1)[0] + ".") and (ruleset is None or e["ruleset"] == ruleset)
            ][:8]
            if close:
                raise KassenError(
                    S_("no rule {rule} (nearby: {close})", rule=repr(shown), close=", ".join(close))
                )
            raise KassenError(S_("no rule {rule} (see `kassen rules --ruleset NAME`)", rule=repr(shown)))
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
    app.command("scenarios", help=N_("Every bundled scenario: its name, ruleset and title."))(
        user_errors(scenarios_command)
    )
    app.command(
        "fight",
        help=N_(
            "Play any ruleset's scenario to its end with its policies (or --policy SIDE=SPEC); every "
            "event told in words."
        ),
    )(user_errors(fight_command))
    app.command(
        "replay",
        help=N_(
            "Re-apply a chronicle of any ruleset and check every recorded field (events, dice, result, "
            'content hash): says "identical" and exits 0, or names the first differing log index and '
            "field and exits 2."
        ),
    )(user_errors(replay_command))
    app.command(
        "validate", help=N_("Check a scenario without playing it: every error with its file, line and field.")
    )(user_errors(validate_command))
    app.command(
        "rules",
        help=N_(
            "What a rule ID cited in an explanation says, in a sentence or two (or a ruleset's whole list)."
        ),
    )(user_errors(rules_command))
    app.add_typer(schema_app, name="schema")
