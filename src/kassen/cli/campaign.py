"""``kassen roster ...`` and ``kassen campaign ...``: a campaign's roster and its fights, at the terminal.

Both read and write the store ``kassen serve`` uses (``--db``, default ``sqlite:///kassen.db``). A
character file (``roster export``, ``roster import``) is YAML::

    ruleset: sengoku
    id: hatamoto
    name: Takeda hatamoto
    owner: ayumi            # optional: the player it belongs to
    sheet: {creature: samurai, overrides: {fate_points: 1}}
    lasting: {armor_damage: 3}   # optional: what it carries (the ruleset's lasting state)

A fight: ``campaign start-fight C TEMPLATE --cast ID:SIDE ...`` builds it (``campaign scenario C``
prints it as YAML: it validates with ``kassen validate`` and plays with ``kassen fight`` or ``kassen
play --save FILE``); ``campaign aftermath C CHRONICLE [--take ID:RECOVERY]`` proposes what it leaves;
``campaign confirm C`` writes it; ``campaign undo C`` takes it back until the next fight starts.
"""

from __future__ import annotations

__all__ = ["campaign_app", "roster_app"]

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
import yaml
from rich.markup import escape

from kassen.cli.common import console, emit_json, user_errors
from kassen.cli.numbers import SeedOption, whole
from kassen.content.yamlio import parse_yaml, read_text
from kassen.core.errors import ContentError, ContentIssue, KassenError
from kassen.i18n import N_, S_, _, translate_text

roster_app = typer.Typer(
    help=N_("A campaign's roster: characters and their lasting state."), no_args_is_help=True
)
campaign_app = typer.Typer(
    help=N_("Campaigns: fights cast from the roster, and their aftermath."), no_args_is_help=True
)

Db = Annotated[
    str,
    typer.Option(
        "--db", help=N_("The store: sqlite:///PATH or postgresql://USER@HOST/DB."), metavar=N_("URL")
    ),
]
Json = Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of text."))]
CampaignArg = Annotated[str, typer.Argument(help=N_("The campaign's id."), metavar=N_("CAMPAIGN"))]
DEFAULT_DB = "sqlite:///kassen.db"
#: A chronicle file's size limit (as the web table's import).
MAX_CHRONICLE_BYTES = 8 * 1024 * 1024


@contextmanager
def _campaigns(db: str, *, create: bool = False) -> Iterator[Any]:
    """The campaigns of the store ``db``; a SQLite file that is not there is refused (nothing is
    written) unless ``create`` (``campaign new``, the first command of a campaign)."""
    try:
        from kassen.campaign.roster import Campaigns
        from kassen.web.store import Store
    except ImportError as exc:  # the roster lives in the fight store, which needs the web extra
        raise KassenError(
            S_(
                "campaigns keep their roster in the fight store, which needs the web extra: pip install "
                "'kassen[web]' ({name} missing)",
                name=exc.name,
            )
        ) from None

    if not create and db.startswith("sqlite:///") and db != "sqlite:///:memory:":
        where = Path(db.removeprefix("sqlite:///"))
        if not where.exists():
            raise KassenError(
                S_(
                    "--db {db}: no store there yet (kassen campaign new CAMPAIGN --db ... creates it)",
                    db=db[:200],
                )
            )
    store = Store(db)
    try:
        yield Campaigns(store)
    finally:
        store.close()


def _pair(value: str, what: str) -> tuple[str, str]:
    left, sep, right = value.partition(":")
    if not sep or not left or not right:
        raise KassenError(
            S_(
                "{what} is ID:{value}, not {value2}",
                what=what,
                value="SIDE" if what == "--cast" else "RECOVERY",
                value2=repr(value[:60]),
            )
        )
    return left, right


def _character_file(path: Path) -> dict[str, Any]:
    from kassen.campaign.library import read_character

    return read_character(read_text(path, max_bytes=256 * 1024), str(path))


#: A campaign fight's status, as ``campaign fights`` and ``aftermath`` show it.
STATUS_WORDS = {
    "started": N_("started"),
    "proposed": N_("proposed"),
    "settled": N_("settled"),
    "abandoned": N_("abandoned"),
}


def _show(ch: Any) -> None:
    from kassen.campaign.hooks import campaign_rules

    if ch.owner:
        about = _("{id}, {ruleset}, {owner}'s").format(id=ch.id, ruleset=ch.ruleset, owner=ch.owner)
    else:
        about = _("{id}, {ruleset}").format(id=ch.id, ruleset=ch.ruleset)
    console.print(f"[bold]{escape(ch.name)}[/bold] ({escape(about)})")
    for line in campaign_rules(ch.ruleset).sheet(ch):
        console.print(f"  {escape(translate_text(line))}")


@roster_app.command("list", help=N_("Every character of the campaign, alive or dead."))
@user_errors
def roster_list(campaign: CampaignArg, db: Db = DEFAULT_DB, as_json: Json = False) -> None:
    with _campaigns(db) as c:
        found = c.characters(campaign)
    if as_json:
        emit_json([ch.to_json() for ch in found])
        return
    if not found:
        console.print(_("(no characters: kassen roster add)"))
    for ch in found:
        state = _("dead") if ch.dead else _("alive")
        console.print(
            escape(f"{ch.id}  {ch.name}  [{ch.ruleset}, {state}{', ' + ch.owner if ch.owner else ''}]")
        )


@roster_app.command(
    "show", help=N_("A character's sheet: its lasting state in words, and the fights it took part in.")
)
@user_errors
def roster_show(
    campaign: CampaignArg,
    character: Annotated[str, typer.Argument(help=N_("The character's id."))],
    db: Db = DEFAULT_DB,
    as_json: Json = False,
) -> None:
    with _campaigns(db) as c:
        ch = c.character(campaign, character)
        fights = c.history(campaign, character)
    if as_json:
        emit_json({**ch.to_json(), "fights": fights})
        return
    _show(ch)
    console.print("  " + _("fights: {fights}").format(fights=", ".join(map(str, fights)) or _("none yet")))


@roster_app.command(
    "add",
    help=N_(
        "Add a character from its sheet (checked by the ruleset's scenario loader; nothing stored if not)."
    ),
)
@user_errors
def roster_add(
    campaign: CampaignArg,
    ruleset: Annotated[str, typer.Option(help=N_("sengoku, l5r, arena..."))],
    character: Annotated[str, typer.Option("--id", help=N_("The character's id (lower-case, hyphens)."))],
    name: Annotated[str, typer.Option(help=N_("The character's name."))],
    sheet: Annotated[
        Path, typer.Option(help=N_("A YAML file: the character's scenario entry."), metavar=N_("FILE"))
    ],
    owner: Annotated[str | None, typer.Option(help=N_("The player it belongs to."))] = None,
    db: Db = DEFAULT_DB,
) -> None:
    data, _node = parse_yaml(read_text(sheet, max_bytes=256 * 1024), str(sheet))
    if not isinstance(data, dict):
        raise ContentError(ContentIssue(str(sheet), "(root)", S_("a sheet is a mapping (a scenario entry)")))
    with _campaigns(db) as c:
        ch = c.add(campaign, ruleset, character, name, data, owner=owner)
    console.print(_("added {name} ({id})").format(name=ch.name, id=ch.id))


@roster_app.command(
    "edit", help=N_("Change a character: its name, sheet, owner, or lasting state (checked again).")
)
@user_errors
def roster_edit(
    campaign: CampaignArg,
    character: Annotated[str, typer.Argument(help=N_("The character's id."))],
    name: Annotated[str | None, typer.Option(help=N_("A new name."))] = None,
    sheet: Annotated[
        Path | None, typer.Option(help=N_("A new sheet (YAML file)."), metavar=N_("FILE"))
    ] = None,
    owner: Annotated[str | None, typer.Option(help=N_("A new owner ('' : the GM's)."))] = None,
    lasting: Annotated[
        list[str] | None,
        typer.Option(
            "--set", help=N_("A lasting-state field, FIELD=YAML-VALUE (repeat): wounds=3."), metavar=N_("F=V")
        ),
    ] = None,
    db: Db = DEFAULT_DB,
) -> None:
    data = None
    if sheet is not None:
        data, _node = parse_yaml(read_text(sheet, max_bytes=256 * 1024), str(sheet))
        if not isinstance(data, dict):
            raise ContentError(
                ContentIssue(str(sheet), "(root)", S_("a sheet is a mapping (a scenario entry)"))
            )
    changes: dict[str, Any] = {}
    for item in lasting or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise KassenError(S_("--set is FIELD=VALUE, not {item}", item=repr(item[:60])))
        changes[key], _node = parse_yaml(value, "--set")
    if name is None and data is None and owner is None and not changes:
        raise KassenError(S_("nothing to change: give --name, --sheet, --owner or --set"))
    with _campaigns(db) as c:
        ch = c.edit(campaign, character, name=name, sheet=data, owner=owner, lasting=changes or None)
    _show(ch)


@roster_app.command(
    "export", help=N_("A character as YAML (``roster import`` reads it back, into this campaign or another).")
)
@user_errors
def roster_export(
    campaign: CampaignArg,
    character: Annotated[str, typer.Argument(help=N_("The character's id."))],
    db: Db = DEFAULT_DB,
) -> None:
    with _campaigns(db) as c:
        ch = c.character(campaign, character)
    data = {k: v for k, v in ch.to_json().items() if k not in ("dead", "version")}
    if data["owner"] is None:
        del data["owner"]
    sys.stdout.write(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100))


@roster_app.command("import", help=N_("Add a character exported with ``roster export``."))
@user_errors
def roster_import(
    campaign: CampaignArg,
    file: Annotated[Path, typer.Argument(help=N_("A character file (roster export)."))],
    db: Db = DEFAULT_DB,
) -> None:
    data = _character_file(file)
    with _campaigns(db) as c:
        ch = c.add(
            campaign,
            data["ruleset"],
            data["id"],
            data["name"],
            data["sheet"],
            owner=data.get("owner"),
            lasting=data.get("lasting"),
        )
    console.print(_("imported {name} ({id})").format(name=ch.name, id=ch.id))


@campaign_app.command("new", help=N_("A new campaign: prints its GM token (kept only as a hash: note it)."))
@user_errors
def campaign_new(
    campaign: CampaignArg,
    name: Annotated[str, typer.Option(help=N_("The campaign's title."))] = "",
    db: Db = DEFAULT_DB,
) -> None:
    with _campaigns(db, create=True) as c:
        token = c.new(campaign, name)
    console.print(_("campaign {campaign}: GM token {token}").format(campaign=campaign, token=token))


@campaign_app.command("list", help=N_("The campaigns in the store."))
@user_errors
def campaign_list(db: Db = DEFAULT_DB, as_json: Json = False) -> None:
    with _campaigns(db) as c:
        found = c.listing()
    if as_json:
        emit_json(found)
        return
    for row in found:
        console.print(f"{row['id']}  {row['name']}")


@campaign_app.command(
    "player", help=N_("A token for a player: it shows only the characters the player owns.")
)
@user_errors
def campaign_player(
    campaign: CampaignArg,
    player: Annotated[str, typer.Argument(help=N_("The player's name (as characters' owner)."))],
    db: Db = DEFAULT_DB,
) -> None:
    with _campaigns(db) as c:
        token = c.player_token(campaign, player)
    console.print(_("{player}: token {token}").format(player=player, token=token))


@campaign_app.command(
    "start-fight",
    help=N_("Start the next fight: TEMPLATE cast with roster characters, their lasting state applied."),
)
@user_errors
def campaign_start(
    campaign: CampaignArg,
    template: Annotated[str, typer.Argument(help=N_("A scenario: a bundled name or a YAML file."))],
    cast: Annotated[
        list[str], typer.Option("--cast", help=N_("A roster character and its side, ID:SIDE (repeat)."))
    ],
    out: Annotated[
        Path | None, typer.Option(help=N_("Also write the built scenario here."), metavar=N_("FILE"))
    ] = None,
    abandon: Annotated[bool, typer.Option(help=N_("Leave the last fight unsettled."))] = False,
    db: Db = DEFAULT_DB,
) -> None:
    from kassen.core.scenario import read_scenario

    pairs = [_pair(item, "--cast") for item in cast]
    source = read_scenario(template)
    with _campaigns(db) as c:
        record = c.start_fight(campaign, source, pairs, abandon=abandon)
    if out is not None:
        try:
            out.write_text(record.scenario, encoding="utf-8")
        except OSError as exc:
            raise KassenError(S_("cannot write {out}: {value}", out=out, value=exc.strerror or exc)) from None
    console.print(
        _("fight {seq} started ({ruleset}, {n} from the roster)").format(
            seq=record.seq, ruleset=record.ruleset, n=len(pairs)
        )
    )


@campaign_app.command(
    "scenario",
    help=N_("A fight's scenario as built, YAML (``kassen validate`` and ``kassen fight`` read it)."),
)
@user_errors
def campaign_scenario(
    campaign: CampaignArg,
    fight: Annotated[
        int | None,
        typer.Option(help=N_("The fight's number (default: the last)."), parser=whole(1), metavar=N_("N")),
    ] = None,
    db: Db = DEFAULT_DB,
) -> None:
    with _campaigns(db) as c:
        records = c.fights(campaign)
    if fight is None:
        chosen = records[-1] if records else None
    else:
        chosen = next((r for r in records if r.seq == fight), None)
    if chosen is None:
        raise KassenError(
            S_("no fight {value} in campaign {campaign}", value=fight or "", campaign=repr(campaign))
        )
    sys.stdout.write(chosen.scenario)


@campaign_app.command("fights", help=N_("The campaign's fights: number, template, cast, status."))
@user_errors
def campaign_fights(campaign: CampaignArg, db: Db = DEFAULT_DB, as_json: Json = False) -> None:
    with _campaigns(db) as c:
        records = c.fights(campaign)
    if as_json:
        emit_json([r.to_json() for r in records])
        return
    for r in records:
        who = ", ".join(f"{ch}:{side}" for ch, side in r.cast)
        console.print(escape(f"{r.seq}  {r.template}  [{_(STATUS_WORDS.get(r.status, r.status))}]  {who}"))


def _print_aftermath(record: Any, as_json: bool) -> None:
    if as_json:
        emit_json(record.to_json())
        return
    status = _(STATUS_WORDS.get(record.status, record.status))
    console.print(escape(_("fight {seq}: aftermath [{status}]").format(seq=record.seq, status=status)))
    for entry in record.aftermath:
        console.print(f"[bold]{escape(entry.character)}[/bold]")
        for note in entry.notes:
            console.print(f"  {escape(translate_text(note.text))} [dim]({note.rule})[/dim]")
        changed = {k: (entry.before.get(k), v) for k, v in entry.after.items() if entry.before.get(k) != v}
        for key, (was, now) in changed.items():
            console.print(escape(f"  {translate_text(key)}: {was} → {now}"))


@campaign_app.command(
    "aftermath",
    help=N_("Propose the aftermath of the last fight (for review: ``campaign confirm`` writes it)."),
)
@user_errors
def campaign_aftermath(
    campaign: CampaignArg,
    chronicle: Annotated[
        Path | None,
        typer.Argument(help=N_("The played fight's chronicle (kassen fight --json, kassen play --save).")),
    ] = None,
    take: Annotated[
        list[str] | None, typer.Option("--take", help=N_("A recovery for a character, ID:RECOVERY (repeat)."))
    ] = None,
    autoplay: Annotated[
        bool, typer.Option(help=N_("No chronicle: let the scenario's policies play it."))
    ] = False,
    seed: SeedOption = None,
    db: Db = DEFAULT_DB,
    as_json: Json = False,
) -> None:
    from kassen.core.rng import fresh_seed

    chosen: dict[str, list[str]] = {}
    for item in take or []:
        who, what = _pair(item, "--take")
        chosen.setdefault(who, []).append(what)
    if (chronicle is None) == (not autoplay):
        raise KassenError(S_("give the fight's CHRONICLE, or --autoplay"))
    with _campaigns(db) as c:
        if chronicle is not None:
            text = read_text(chronicle, max_bytes=MAX_CHRONICLE_BYTES)
            try:
                played: Any = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ContentError(
                    ContentIssue(
                        str(chronicle),
                        "(file)",
                        S_("not JSON: {msg} (line {lineno})", msg=exc.msg, lineno=exc.lineno),
                    )
                ) from None
            if not isinstance(played, dict):
                raise ContentError(ContentIssue(str(chronicle), "(root)", S_("a chronicle is a JSON object")))
        else:
            played = c.open(campaign, seed=seed if seed is not None else fresh_seed())
            played.autoplay()
        record = c.propose(campaign, played, chosen)
    _print_aftermath(record, as_json)


@campaign_app.command("confirm", help=N_("Write the proposed aftermath to the roster."))
@user_errors
def campaign_confirm(campaign: CampaignArg, db: Db = DEFAULT_DB, as_json: Json = False) -> None:
    with _campaigns(db) as c:
        record = c.confirm(campaign)
    _print_aftermath(record, as_json)


@campaign_app.command(
    "undo", help=N_("Take back the last confirmed aftermath (until the next fight starts).")
)
@user_errors
def campaign_undo(campaign: CampaignArg, db: Db = DEFAULT_DB, as_json: Json = False) -> None:
    with _campaigns(db) as c:
        record = c.undo(campaign)
    _print_aftermath(record, as_json)
