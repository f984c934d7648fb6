"""``kassen l5r ...``: the roll-and-keep ruleset's commands.

- ``odds XkY --tn T [--raises R] [--unskilled] [--json]``: the exact chance to reach T + 5 x R.
- ``attack [...] [--seed N] [--json]``: one attack with its raises, resolved and explained.
- ``duel SCENARIO [--seed N] [--json] [--verbose] [--as SIDE]``: a whole duel, as an account or the
  chronicle JSON; ``--as SIDE`` tells it (or gives its view, with ``--json``) as that side sees it.
- ``aftermath CHRONICLE [--into NEXT] [--recover]``: what each character carries into the next fight.
- ``scenarios``, ``defaults``: the bundled duels, the house defaults in force.

``--tables DIR`` is a content layer merged over the bundled tables (:mod:`kassen.l5r.content`); a duel's
chronicle records it, and ``kassen replay`` takes it back as ``--content DIR``. Accounts come from the
ruleset's renderers (:mod:`kassen.core.report`). Options are plain text validated here, so a bad value is
one line on stderr and exit code 2.
"""

from __future__ import annotations

__all__ = ["l5r_app"]

import re
from typing import Annotated

import typer
from rich.markup import escape

from kassen.cli.common import console, emit_json, user_errors
from kassen.cli.numbers import COUNT, NUMBER, SeedOption
from kassen.cli.render import probability_text
from kassen.core.errors import DiceLimitError, DiceSyntaxError, KassenError
from kassen.core.explain import format_steps
from kassen.core.report import account, render_event
from kassen.core.rng import Rng, fresh_seed
from kassen.core.scenario import bundled_scenarios
from kassen.i18n import N_, _, translate_text
from kassen.l5r.actions import Attack
from kassen.l5r.aftermath import aftermath, carried_yaml, carry
from kassen.l5r.calc import attack_once, roll_odds
from kassen.l5r.character import Character, FighterId, Weapon
from kassen.l5r.content import content_for
from kassen.l5r.pool import parse_pool
from kassen.l5r.ruleset import RULESET
from kassen.l5r.say import say, say_declaration, say_steps
from kassen.l5r.scenario import load_scenario, run_duel
from kassen.l5r.tables import L5Tables, Location, SpecialAttackName

l5r_app = typer.Typer(
    add_completion=False,  # as the top-level kassen: no command edits the shell's start-up files
    name="l5r",
    help=N_("Roll-and-keep (raises, called shots, special attacks): odds, attacks and duels."),
    no_args_is_help=True,
)

TablesOption = Annotated[
    str | None,
    typer.Option(
        "--tables",
        help=N_(
            "A directory (or YAML file) of table overrides (core.yaml, called_shots.yaml, "
            "special_attacks.yaml), merged over the bundled tables."
        ),
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of text."))]


#: The names ``kassen l5r attack`` gives its two characters and their weapon (kept as they are in the
#: events; said in the reader's language, as every word of the catalog is).
_ATTACK_NAMES = (N_("attacker"), N_("target"), N_("weapon"))

#: The most dice a pool's XkY may name (the pool notation's four digits; the ten dice rule turns any
#: pool past 10k10 into a bonus, L5.CORE.1).
MAX_POOL_DICE = 9999
_POOL_COUNTS = re.compile(r"\s*(\d+)\s*[kK]\s*(\d+)")


def _pool_limit(text: str, option: str) -> str:
    """``text`` unchanged; a DiceSyntaxError for a digit that is not ASCII, or a DiceLimitError naming
    the limit (worded like ``kassen roll``'s) when it rolls or keeps more dice than a pool may name."""
    for i, c in enumerate(text):
        if c.isdigit() and not c.isascii():  # the pool parser's \d would read '３' as 3
            raise DiceSyntaxError(
                _("{option}: numbers are written with ASCII digits 0-9").format(option=option), text, i + 1
            )
    m = _POOL_COUNTS.match(text)
    if m is not None:
        for digits in m.groups():
            if len(digits.lstrip("0")) > len(str(MAX_POOL_DICE)) or int(digits) > MAX_POOL_DICE:
                shown = digits if len(digits) <= 12 else _("a {n}-digit number of").format(n=len(digits))
                raise DiceLimitError(
                    _("{option}: {shown} dice in one pool; the limit is {limit}").format(
                        option=option, shown=shown, limit=MAX_POOL_DICE
                    ),
                    text,
                    limit="pool",
                )
    return text


def _tables(directory: str | None) -> L5Tables:
    return content_for(directory or None).tables


def _choice(value: str | None, enum: type[Location] | type[SpecialAttackName], what: str) -> str | None:
    if value is None:
        return None
    key = value.strip().lower().replace("-", "_")
    known = [e.value for e in enum]
    if key not in known:
        raise KassenError(
            _("unknown {what} {value} (known: {known})").format(
                what=_(what), value=repr(value), known=", ".join(known)
            )
        )
    return key


@l5r_app.command(
    "odds", help=N_("The exact chance that POOL reaches TN + 5 x RAISES (L5.CORE.1-3), as a fraction.")
)
@user_errors
def odds_command(
    pool: Annotated[str, typer.Argument(help=N_("Roll-and-keep pool XkY, e.g. 6k3 (10s explode)."))],
    tn: Annotated[int, typer.Option("--tn", parser=NUMBER, metavar="N", help=N_("Target number."))],
    raises: Annotated[
        int,
        typer.Option("--raises", parser=COUNT, metavar="N", help=N_("Declared raises: +5 to the TN each.")),
    ] = 0,
    unskilled: Annotated[
        bool, typer.Option("--unskilled", help=N_("Unskilled: 10s do not explode, no raises."))
    ] = False,
    tables: TablesOption = None,
    as_json: JsonOption = False,
) -> None:
    """The exact chance that POOL reaches TN + 5 x RAISES (L5.CORE.1-3), as a fraction."""
    result = roll_odds(
        _pool_limit(pool, "POOL"), tn, raises=raises, unskilled=unskilled, tables=_tables(tables)
    )
    if as_json:
        emit_json(result.to_json())
        return
    console.print(
        f"P({result.pool.expression()} >= {result.target}) = {probability_text(result.fraction)}"
        + ("" if result.pool.explode else "  [dim]" + _("unskilled: 10s do not explode") + "[/dim]")
    )
    console.print(format_steps(say_steps(result.steps)), markup=False, soft_wrap=True)


@l5r_app.command(
    "attack",
    help=N_("One attack with its declared raises: the exact chance to hit, the rolls, and every step."),
)
@user_errors
def attack_command(
    agility: Annotated[int, typer.Option(parser=NUMBER, metavar="N", help=N_("Attacker's Agility."))] = 3,
    skill: Annotated[
        int, typer.Option(parser=NUMBER, metavar="N", help=N_("Attacker's weapon skill (0: unskilled)."))
    ] = 3,
    strength: Annotated[int, typer.Option(parser=NUMBER, metavar="N", help=N_("Attacker's Strength."))] = 2,
    void: Annotated[
        int, typer.Option(parser=NUMBER, metavar="N", help=N_("Attacker's Void (the raise limit)."))
    ] = 2,
    weapon: Annotated[str, typer.Option(help=N_("Weapon damage XkY."))] = "3k2",
    damage_raises: Annotated[
        int,
        typer.Option("--damage-raises", parser=COUNT, metavar="N", help=N_("Raises for damage (+1k0 each).")),
    ] = 0,
    called_shot: Annotated[
        str | None, typer.Option("--called-shot", help=N_("torso, arm, leg, foot, hand, head."))
    ] = None,
    special: Annotated[
        str | None,
        typer.Option(
            help=N_("bind, clipping, corps-a-corps, disarm, drive, foul, mark, point-to-throat, subdue.")
        ),
    ] = None,
    injury: Annotated[
        str | None, typer.Option(help=N_("Injury to choose if a called shot hits (e.g. critical)."))
    ] = None,
    full_attack: Annotated[
        bool, typer.Option("--full-attack", help=N_("Declare a Full Attack (+2k1)."))
    ] = False,
    free_raises: Annotated[
        int, typer.Option("--free-raises", parser=COUNT, metavar="N", help=N_("Free Raises available."))
    ] = 0,
    unskilled: Annotated[
        bool, typer.Option("--unskilled", help=N_("The attacker has no weapon skill."))
    ] = False,
    target_reflexes: Annotated[int, typer.Option("--target-reflexes", parser=NUMBER, metavar="N")] = 2,
    target_armor: Annotated[str, typer.Option("--target-armor", help=N_("none, light or heavy."))] = "none",
    target_earth: Annotated[int, typer.Option("--target-earth", parser=NUMBER, metavar="N")] = 2,
    target_skill: Annotated[
        int,
        typer.Option(
            "--target-skill",
            parser=NUMBER,
            metavar="N",
            help=N_("The target's weapon skill (resists a Disarm)."),
        ),
    ] = 2,
    target_tn: Annotated[
        int | None,
        typer.Option("--target-tn", parser=NUMBER, metavar="N", help=N_("The target's own TN to be hit.")),
    ] = None,
    target_wounds: Annotated[
        int,
        typer.Option("--target-wounds", parser=COUNT, metavar="N", help=N_("Wounds the target already has.")),
    ] = 0,
    seed: SeedOption = None,
    tables: TablesOption = None,
    as_json: JsonOption = False,
) -> None:
    """One attack with its declared raises: the exact chance to hit, the rolls, and every step."""
    t = _tables(tables)
    for name, value in (
        ("agility", agility),
        ("strength", strength),
        ("void", void),
        ("target-reflexes", target_reflexes),
        ("target-earth", target_earth),
    ):
        if value < 1:
            raise KassenError(_("--{name} must be at least 1 (got {value})").format(name=name, value=value))
    if min(skill, damage_raises, free_raises, target_wounds, target_skill) < 0:
        raise KassenError(_("skill, raises and wounds cannot be negative"))
    dmg = parse_pool(_pool_limit(weapon, "--weapon"))
    if dmg.bonus or dmg.kept > dmg.rolled:
        raise KassenError(
            _("a weapon's damage is XkY with Y <= X (got {weapon})").format(weapon=repr(weapon))
        )
    w = Weapon("weapon", dmg.rolled, dmg.kept, "weapon")
    skills = () if unskilled or skill == 0 else (("weapon", skill),)
    attacker = Character(
        FighterId("attacker"),
        side="attacker",
        agility=agility,
        strength=strength,
        void=void,
        skills=skills,
        weapon=w,
    )
    target = Character(
        FighterId("target"),
        w,
        side="target",
        skills=(("weapon", target_skill),) if target_skill else (),
        reflexes=target_reflexes,
        stamina=target_earth,
        willpower=target_earth,
        armor=target_armor,
        tn_to_be_hit=target_tn,
    )
    loc = _choice(called_shot, Location, N_("location"))
    sp = _choice(special, SpecialAttackName, N_("special attack"))
    attack = Attack(
        target.name,
        damage_raises,
        Location(loc) if loc else None,
        SpecialAttackName(sp) if sp else None,
        full_attack,
    )
    used_seed = seed if seed is not None else fresh_seed()
    outcome = attack_once(
        attacker,
        target,
        attack,
        Rng(used_seed),
        tables=t,
        free_raises=free_raises,
        target_wounds=target_wounds,
        injury=injury,
    )
    if as_json:
        emit_json(
            {
                "seed": used_seed,
                "hit": outcome.hit,
                "tn": outcome.tn,
                "chance": float(outcome.chance),
                "fraction": f"{outcome.chance.numerator}/{outcome.chance.denominator}",
                "events": [e.to_json() for e in outcome.events],
            }
        )
        return
    console.print(
        _("{attack}: TN {tn}, chance to hit {chance}").format(
            attack=say_declaration(attack.describe()), tn=outcome.tn, chance=probability_text(outcome.chance)
        )
    )
    names = RULESET.names(outcome.state)
    lines = [line for e in outcome.events for line in render_event(RULESET, e.to_json(), names, verbose=True)]
    console.print("\n".join(lines).strip("\n"), markup=False, soft_wrap=True)
    if seed is None:
        console.print("[dim]" + _("(seed {seed})").format(seed=used_seed) + "[/dim]")


@l5r_app.command(
    "duel",
    help=N_("Play a duel to its end: a readable account, or the chronicle JSON (replayable from its seed)."),
)
@user_errors
def duel_command(
    scenario: Annotated[str, typer.Argument(help=N_("A scenario YAML file, or a bundled duel's name."))],
    seed: SeedOption = None,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help=N_("Show every explanation step."))
    ] = False,
    tables: TablesOption = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print the replayable chronicle JSON."))] = False,
    side: Annotated[
        str | None,
        typer.Option(
            "--as",
            help=N_(
                "Tell it as this side sees it: another side's exact Wounds hidden (the visibility table); "
                "with --json, that side's view."
            ),
            metavar="SIDE",
        ),
    ] = None,
) -> None:
    """Play a duel to its end: a readable account, or the chronicle JSON (replayable from its seed)."""
    from kassen.core.view import Viewer

    src = load_scenario(scenario)
    own = src.data.get("seed")
    used_seed = seed if seed is not None else own if isinstance(own, int) else fresh_seed()
    fight = run_duel(src, used_seed, content=[tables] if tables else [])
    viewer = Viewer(side) if side is not None else None
    if side is not None and side not in fight.sides():
        raise KassenError(
            _("no side {side} in this duel (sides: {sides})").format(
                side=repr(side[:40]), sides=", ".join(fight.sides())
            )
        )
    if as_json:
        emit_json(fight.to_json() if viewer is None else fight.view(viewer))
        return
    title = translate_text(str(fight.meta.get("scenario", src.name)))
    console.print(_("{title}  (seed {seed})").format(title=f"[bold]{escape(title)}[/bold]", seed=used_seed))
    console.print(account(fight, verbose=verbose, viewer=viewer), markup=False, end="", soft_wrap=True)


@l5r_app.command(
    "aftermath",
    help=N_(
        "What each character carries out of a duel: Wounds and the maims' lasting disadvantages (L5.CS.3),\nas YAML for a scenario's characters, or the next scenario with them carried in (--into)."  # noqa: E501
    ),
)
@user_errors
def aftermath_command(
    chronicle: Annotated[
        str, typer.Argument(help=N_("A finished duel's chronicle (`kassen l5r duel --json`)."))
    ],
    into: Annotated[
        str | None,
        typer.Option(
            "--into", help=N_("The next scenario: print it with the survivors' Wounds and disadvantages.")
        ),
    ] = None,
    recover: Annotated[
        bool,
        typer.Option("--recover", help=N_("The Wounds were healed in between (only they can be, L5.CS.3).")),
    ] = False,
    tables: TablesOption = None,
    as_json: JsonOption = False,
) -> None:
    """What each character carries out of a duel: Wounds and the maims' lasting disadvantages (L5.CS.3),
    as YAML for a scenario's characters, or the next scenario with them carried in (--into)."""
    from kassen.content.yamlio import read_text
    from kassen.core.codec import parse_json
    from kassen.core.fight import Fight

    data = parse_json(read_text(chronicle, max_bytes=64 * 1024 * 1024), what=_("the chronicle"))
    fight = Fight.from_json(data, content=[tables] if tables else [])
    if fight.ruleset is not RULESET:
        raise KassenError(
            _("{chronicle} is a fight of the {ruleset} ruleset, not a roll-and-keep duel").format(
                chronicle=chronicle, ruleset=fight.ruleset.info.name
            )
        )
    if not fight.over:
        raise KassenError(
            _("{chronicle}: the duel is not over; play it to its end first").format(chronicle=chronicle)
        )
    carried = aftermath(fight.state, fight.tables, recover=recover)
    if into is not None:
        next_fight = carry(load_scenario(into), carried)
        if as_json:
            emit_json({"ruleset": next_fight.ruleset, **next_fight.data})
            return
        console.print(carried_yaml(next_fight), markup=False, end="", soft_wrap=True)
        return
    if as_json:
        emit_json([c.to_json() for c in carried])
        return
    title = fight.meta.get("scenario", fight.state.name)
    lines = [
        "# "
        + _("after {title} (seed {seed}): only the Wounds can be recovered (L5.CS.3)").format(
            title=translate_text(str(title)), seed=fight.seed
        ),
        "characters:",
    ]
    for c in carried:
        if c.dead:
            lines.append("  # " + _("{name} died: {cause}").format(name=c.name, cause=say(c.death)))
            continue
        listed = ", ".join(c.disadvantages)
        lines += [f"  - name: {c.name}", f"    wounds: {c.wounds}", f"    disadvantages: [{listed}]"]
    console.print("\n".join(lines), markup=False, soft_wrap=True)


@l5r_app.command("scenarios", help=N_("List the bundled duels."))
@user_errors
def scenarios_command() -> None:
    """List the bundled duels."""
    for found in bundled_scenarios("l5r"):
        console.print(f"{found.name}: {translate_text(found.title)}", markup=False)


@l5r_app.command(
    "defaults", help=N_("The house defaults in force (GAP, RD and CORE defaults), each with its rationale.")
)
@user_errors
def defaults_command(tables: TablesOption = None, as_json: JsonOption = False) -> None:
    """The house defaults in force (GAP, RD and CORE defaults), each with its rationale."""
    rows = _tables(tables).house_defaults()
    if as_json:
        emit_json(
            [{"table": p, "rule": h.rule, "rationale": h.rationale, "alternative": a} for p, h, a in rows]
        )
        return
    for path, h, alt in rows:
        console.print(f"[bold]{h.rule}[/bold] ({path})")
        console.print(f"  {translate_text(h.rationale)}", markup=False)
        console.print("  " + _("alternative: {text}").format(text=translate_text(alt)), markup=False)
