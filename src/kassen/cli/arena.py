"""``kassen arena ...``: the 3d6 arena ruleset's commands.

- ``damage``: one hit through the damage pipeline (AR.DMG.1-7) with its effects;
- ``check``: exact odds of a 3d6 check (over 216);
- ``odds``: exact odds of one attack — hit, critical, defended, stun, knock-down, KO, expected injury —
  by the functions a bout resolves it with (the same odds ``kassen play`` shows on its menus);
- ``bout``: play a YAML bout scenario (bundled name or path) from a seed, told in words (the account of
  :mod:`kassen.core.report`), or its chronicle with ``--json``;
- ``replay``: the generic ``kassen replay`` (a chronicle of any ruleset, every recorded field checked).

Options are plain strings and integers validated here into a :class:`~kassen.core.errors.KassenError`,
so bad input is one line on stderr and exit code 2.
"""

from __future__ import annotations

from kassen.core.rng import fresh_seed

__all__ = ["arena_app"]

from typing import Annotated, Any

import typer

from kassen.arena.words import word
from kassen.cli.common import NEGATIVE_NUMBERS, NegativeNumbers, console, emit_json, user_errors
from kassen.cli.fights import ContentOption, replay_command
from kassen.cli.numbers import NUMBER, SeedOption, whole
from kassen.core.errors import KassenError
from kassen.i18n import N_, _, translate_text

arena_app = typer.Typer(
    add_completion=False,  # as the top-level kassen: no command edits the shell's start-up files
    name="arena",
    help=N_("Arena (3d6 damage and injury): damage pipeline, checks and bouts."),
    no_args_is_help=True,
)

_SOURCES = ("attack", "falling", "knockback", "self")


@arena_app.command(
    "damage", help=N_("One hit through the damage pipeline, with every intermediate value and its effects.")
)
@user_errors
def damage_command(
    basic: Annotated[
        int,
        typer.Option(
            "--basic", parser=NUMBER, metavar="N", help=N_("Basic damage (the damage roll's total).")
        ),
    ],
    damage_type: Annotated[
        str, typer.Option("--type", help=N_("Attack type: cr, cut, imp, pi-, pi, pi+, pi++, burn."))
    ],
    ht: Annotated[
        int,
        typer.Option(
            "--ht", parser=NUMBER, metavar="N", help=N_("The target's HT (caps, crippling, stun thresholds).")
        ),
    ],
    location: Annotated[
        str | None, typer.Option("--location", help=N_("Hit location (default: torso, AR.DMG.1)."))
    ] = None,
    armor_dr: Annotated[
        int, typer.Option("--armor-dr", parser=NUMBER, metavar="N", help=N_("Armor hard DR."))
    ] = 0,
    bone_dr: Annotated[
        int | None,
        typer.Option(
            "--bone-dr", parser=NUMBER, metavar="N", help=N_("Bone hard DR (default: the location's).")
        ),
    ] = None,
    soft_dr: Annotated[
        int | None,
        typer.Option("--soft-dr", parser=NUMBER, metavar="N", help=N_("Soft DR (default: the location's).")),
    ] = None,
    hp: Annotated[
        int | None,
        typer.Option(
            "--hp", parser=NUMBER, metavar="N", help=N_("The target's HP before the hit (HP thresholds).")
        ),
    ] = None,
    st: Annotated[
        int | None,
        typer.Option("--st", parser=NUMBER, metavar="N", help=N_("The target's ST (knockback distance).")),
    ] = None,
    knocker_st: Annotated[
        int | None,
        typer.Option(
            "--knocker-st",
            parser=NUMBER,
            metavar="N",
            help=N_("The attacker's ST: its knockback damage, thrust (AR.KNB.3)."),
        ),
    ] = None,
    knocker_st_bonus: Annotated[
        int,
        typer.Option(
            "--knocker-st-bonus",
            parser=NUMBER,
            metavar="N",
            help=N_("ST bonuses counted in knockback damage (AR.KNB.3; 0)."),
        ),
    ] = 0,
    source: Annotated[
        str, typer.Option("--source", help=N_("attack, falling, knockback or self."))
    ] = "attack",
    painful: Annotated[
        bool, typer.Option("--painful", help=N_("The source causes pain (AR.INJ.3)."))
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of text."))] = False,
) -> None:
    """One hit through the damage pipeline, with every intermediate value and its effects."""
    from kassen.arena.damage import resolve_damage, strength_damage
    from kassen.arena.injury import hp_effects, injury_effects
    from kassen.arena.knockback import knockback_distance
    from kassen.arena.terms import DamageSource

    if basic < 0:
        raise KassenError(_("basic damage cannot be negative, got {basic}").format(basic=basic))
    if source not in _SOURCES:
        text = _("unknown damage source {source} (known: {known})")
        raise KassenError(text.format(source=repr(source), known=", ".join(_SOURCES)))
    if st is not None and st < 1:
        raise KassenError(_("ST must be at least 1, got {st}").format(st=st))
    if knocker_st is not None and knocker_st < 1:
        raise KassenError(_("--knocker-st must be at least 1, got {st}").format(st=knocker_st))
    if knocker_st is None and knocker_st_bonus:
        raise KassenError(_("--knocker-st-bonus needs --knocker-st (the ST it adds to)"))
    if hp is not None:
        from kassen.arena.content import load_rules

        # a target at -5 x HT or below is dead already (AR.HP.4): no hit to weigh; as `arena odds` says
        least = load_rules().injury.hp.dead_ht_multiple * ht
        if not least < hp <= 1000:
            text = _("--hp must be above -5 x HT ({least}) and at most {most}")
            raise KassenError(text.format(least=least, most=1000))
    result = resolve_damage(
        basic,
        damage_type,
        ht=ht,
        location=location,
        armor_dr=armor_dr,
        bone_dr=bone_dr,
        soft_dr=soft_dr,
        source=DamageSource(source),
    )
    effects = list(injury_effects(result, ht=ht, painful=painful))
    data: dict[str, Any] = {
        "basic": result.basic,
        "primary_penetration": result.primary_penetration,
        "penetrating": result.penetrating,
        "multiplier": str(result.multiplier),
        "multiplied": result.multiplied,
        "uncapped_final": result.reduced,
        "final": result.final,
        "capped": result.capped,
        "crippled": result.crippled,
        "location": result.location,
        "type": result.damage_type.value,
        "source": result.source.value,
    }
    if hp is not None:
        effects += hp_effects(hp, hp - result.final, ht)  # --hp checked before the hit was resolved
        data["hp_before"], data["hp_after"] = hp, hp - result.final
    if st is not None and result.source is DamageSource.ATTACK:
        distance, _steps = knockback_distance(
            result.basic, result.damage_type, penetrating=result.penetrating, target_st=st
        )
        data["knockback_m"] = distance
        if distance:
            effects.append(_knockback_effect(distance))
    if knocker_st is not None:
        # knockback damage: thrust for the knocker's ST, its bonuses included (AR.KNB.3), taken when the
        # knocked-back fighter falls (AR.RD.3)
        kst = knocker_st + knocker_st_bonus
        data["knockback_damage"] = {
            "st": kst,
            "st_bonus": knocker_st_bonus,
            "thrust": str(strength_damage(kst, "thrust")),
            "rule": "AR.KNB.3",
        }
    data["effects"] = [e.to_json() for e in effects]
    data["steps"] = [s.to_json() for s in result.steps]
    if as_json:
        emit_json(data)
        return
    from kassen.core.explain import format_steps

    console.print(format_steps(result.steps), markup=False, soft_wrap=True)
    final = _("final damage {final} (capped)") if result.capped else _("final damage {final}")
    console.print(final.format(final=result.final), markup=False, soft_wrap=True)
    for e in effects:
        value = f" {e.value}" if e.value is not None else ""
        console.print(f"  {_(e.effect)}{value}  [{e.rule}]", markup=False, soft_wrap=True)
    if "knockback_damage" in data:
        k = data["knockback_damage"]
        if k["st_bonus"]:
            text = _(
                "knockback damage if it falls: thrust for ST {st} ({base} {bonus} in bonuses) = {thrust}"
            ).format(
                st=k["st"], base=k["st"] - k["st_bonus"], bonus=f"{k['st_bonus']:+d}", thrust=k["thrust"]
            )
        else:
            text = _("knockback damage if it falls: thrust for ST {st} = {thrust}")
            text = text.format(st=k["st"], thrust=k["thrust"])
        console.print(f"{text}  [AR.KNB.3]", markup=False, soft_wrap=True)


def _right(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` terminal cells (a kanji takes two)."""
    from rich.cells import cell_len

    return " " * max(0, width - cell_len(text)) + text


def _knockback_effect(distance: int) -> Any:
    from kassen.arena.injury import Effect

    return Effect("knockback", "AR.KNB.1", distance)


@arena_app.command(
    "check",
    cls=NegativeNumbers,
    context_settings=NEGATIVE_NUMBERS,
    help=N_(
        "Exact odds of a 3d6 check against TARGET: success, critical success, critical failure (over 216)."
    ),
)
@user_errors
def check_command(
    target: Annotated[
        int,
        typer.Argument(
            parser=whole(-1000, 1000),
            help=N_("Effective attribute or skill (roll 3d6 at or under it), -1000..1000."),
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of text."))] = False,
) -> None:
    """Exact odds of a 3d6 check against TARGET: success, critical success, critical failure (over 216)."""
    from kassen.arena.checks import check_odds

    odds = check_odds(target)
    if as_json:
        emit_json(odds.to_json())
        return
    names = (_("success"), _("critical success"), _("critical failure"), _("failure"))
    for name, count in zip(names, odds.counts, strict=True):
        console.print(f"{_right(name, 17)}: {count:>3}/216 = {count / 216:.4%}", markup=False, soft_wrap=True)


@arena_app.command(
    "odds",
    help=N_(
        "Exact odds of one attack against a fresh target: hit, critical, defended, stun, knock-down, KO and\n"
        "the expected injury, by the functions a bout resolves it with."
    ),
)
@user_errors
def odds_command(
    skill: Annotated[
        int,
        typer.Option(
            "--skill",
            parser=NUMBER,
            metavar="N",
            help=N_("The attacker's attack skill (before the location)."),
        ),
    ],
    damage: Annotated[str, typer.Option("--damage", help=N_("The weapon's damage dice, e.g. 1d+3 or 2d-1."))],
    damage_type: Annotated[
        str, typer.Option("--type", help=N_("Attack type: cr, cut, imp, pi-, pi, pi+, pi++, burn."))
    ],
    ht: Annotated[int, typer.Option("--ht", parser=NUMBER, metavar="N", help=N_("The target's HT."))],
    defense: Annotated[
        int | None,
        typer.Option(
            "--defense",
            parser=NUMBER,
            metavar="N",
            help=N_("The target's defence (left out: it cannot defend)."),
        ),
    ] = None,
    location: Annotated[str, typer.Option("--location", help=N_("Hit location (default: torso)."))] = "torso",
    all_out: Annotated[bool, typer.Option("--all-out", help=N_("An all-out attack (AR.FTG.1)."))] = False,
    hp: Annotated[
        int | None,
        typer.Option(
            "--hp", parser=NUMBER, metavar="N", help=N_("The target's HP now (default: its HP, = ST).")
        ),
    ] = None,
    st: Annotated[
        int,
        typer.Option(
            "--st", parser=NUMBER, metavar="N", help=N_("The target's ST (its HP unless --max-hp).")
        ),
    ] = 10,
    max_hp: Annotated[
        int | None,
        typer.Option("--max-hp", parser=NUMBER, metavar="N", help=N_("The target's HP when unhurt.")),
    ] = None,
    armor_dr: Annotated[
        int,
        typer.Option(
            "--armor-dr", parser=NUMBER, metavar="N", help=N_("The target's armor DR at that location.")
        ),
    ] = 0,
    painful: Annotated[
        bool, typer.Option("--painful", help=N_("The weapon causes pain (AR.INJ.3)."))
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of text."))] = False,
) -> None:
    """Exact odds of one attack against a fresh target: hit, critical, defended, stun, knock-down, KO and
    the expected injury, by the functions a bout resolves it with."""
    from kassen.arena.table.calculator import attack_odds

    forecast = attack_odds(
        skill=skill,
        damage=damage,
        damage_type=damage_type,
        ht=ht,
        defense=defense,
        location=location,
        all_out=all_out,
        hp=hp,
        st=st,
        max_hp=max_hp,
        armor_dr=armor_dr,
        painful=painful,
    )
    odds = forecast.odds()
    if as_json:
        emit_json(
            {
                "attack": forecast.attack,
                "defense": forecast.defense,
                "location": forecast.location,
                **odds.to_json(),
            }
        )
        return
    where = word(forecast.location)
    if forecast.defense is not None:
        text = _("attack {attack} against defence {defense}, striking the {location}")
        line = text.format(attack=forecast.attack, defense=forecast.defense, location=where)
    else:
        text = _("attack {attack} against no defence, striking the {location}")
        line = text.format(attack=forecast.attack, location=where)
    console.print(line, markup=False, soft_wrap=True)
    for name, p in odds.outcomes:
        console.print(f"{_right(_(name), 12)}: {p.numerator}/{p.denominator} = {float(p):.4%}", markup=False)
    for name, v in odds.expected:
        text = _("{name}: {numerator}/{denominator} = {value} expected")
        shown = text.format(
            name=_right(_(name), 12),
            numerator=v.numerator,
            denominator=v.denominator,
            value=f"{float(v):.4f}",
        )
        console.print(shown, markup=False)


@arena_app.command(
    "bout",
    help=N_("Play a bout scenario to its end and tell it in words (or print the replayable JSON chronicle)."),
)
@user_errors
def bout_command(
    scenario: Annotated[
        str, typer.Argument(help=N_("A bundled scenario (duel, melee, knockback, pit) or a YAML path."))
    ],
    seed: SeedOption = None,
    content: ContentOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help=N_("Print the replayable chronicle as JSON."))
    ] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help=N_("Every explanation step too."))] = False,
) -> None:
    """Play a bout scenario to its end and tell it in words (or print the replayable JSON chronicle)."""
    from kassen.core.report import account
    from kassen.core.scenario import open_fight, read_scenario

    source = read_scenario(scenario, ruleset="arena")
    if seed is None and source.data.get("seed") is None:
        seed = fresh_seed()  # as --seed says: the bout's, else 64 random bits (and printed)
    fight = open_fight(source, seed=seed, content=list(content or []))
    fight.autoplay()
    if as_json:
        emit_json(fight.to_json())
        return
    scenario_title = translate_text(str(fight.meta["scenario"]))
    title = _("{scenario} (seed {seed})").format(scenario=scenario_title, seed=fight.seed)
    console.print(title, markup=False, soft_wrap=True)
    console.print(account(fight, verbose=verbose), markup=False, highlight=False, soft_wrap=True, end="")


arena_app.command(
    "replay",
    help=N_(
        "Replay a bout's chronicle (`kassen arena bout ... --json`, or - for standard input) and check "
        "every recorded field: the same as `kassen replay`."
    ),
)(user_errors(replay_command))
