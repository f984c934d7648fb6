"""``kassen sengoku defense``: a target's Defense against an attack's tags, step by step.

Options are read as plain text and validated here, so every bad input is one line on stderr and exit 2
(through :func:`~kassen.cli.common.user_errors`), with every problem of the command line reported at once.
"""

from __future__ import annotations

__all__ = ["defense_command", "profile_from_options"]

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from kassen.cli.common import OptionIssues, console, emit_json, user_errors
from kassen.cli.content import CONTENT_HELP, catalog_from_options
from kassen.cli.numbers import MAX_OPTION, whole_problem
from kassen.cli.sengoku import sengoku_app
from kassen.core.errors import KassenError
from kassen.core.explain import Step, steps_to_json
from kassen.core.fastreplace import replace
from kassen.i18n import N_, _, translate_text
from kassen.sengoku.catalog import Catalog
from kassen.sengoku.defense import (
    DefenseResult,
    DefenseRules,
    compute_defense,
    grade_label,
    load_defense_rules,
)
from kassen.sengoku.defenseless import make_defenseless
from kassen.sengoku.profile import (
    ArmorKind,
    AttackTags,
    BonusKind,
    CombatProfile,
    DefenseBonus,
    DefenseDebuff,
    ExorcismRank,
    Grade,
)
from kassen.sengoku.tags import TagError, merge_tags, parse_tag, shown_tags


def _choice(issues: OptionIssues, option: str, text: str, choices: list[str]) -> str | None:
    key = "-".join(text.strip().lower().replace("_", " ").split())
    if key in choices:
        return key
    issues.add(
        option,
        _("unknown value {text}; choose one of {value}").format(text=f"{text!r}", value=", ".join(choices)),
    )
    return None


def _count(issues: OptionIssues, option: str, text: str) -> int:
    """A whole number from 0 to :data:`MAX_OPTION` (read as every command reads one)."""
    value, why = whole_problem(text, 0, MAX_OPTION)
    if value is None:
        issues.add(option, why)
        return 0
    return value


def _bonus(issues: OptionIssues, text: str) -> DefenseBonus | None:
    """``KIND=N`` or ``KIND=N:source``."""
    kind_text, sep, rest = text.partition("=")
    value_text, _sep, source = rest.partition(":")
    kinds = [k.value for k in BonusKind]
    if not sep:
        issues.add(
            "--bonus",
            _("expected KIND=N (KIND one of {value}), got {text}").format(
                value=", ".join(kinds), text=f"{text!r}"
            ),
        )
        return None
    kind = kind_text.strip().lower()
    if kind not in kinds:
        issues.add(
            "--bonus",
            _("unknown bonus kind {kind_text}; choose one of {value}").format(
                kind_text=f"{kind_text.strip()!r}", value=", ".join(kinds)
            ),
        )
        return None
    before = len(issues.items)
    value = _count(issues, "--bonus", value_text)
    return None if len(issues.items) > before else DefenseBonus(BonusKind(kind), value, source.strip())


def _debuff(issues: OptionIssues, text: str) -> DefenseDebuff | None:
    """``N``, ``-N`` (Defense −N; the sign is optional) or either with ``:source``."""
    value_text, _sep, source = text.partition(":")
    stripped = value_text.strip()
    value, why = whole_problem(stripped[1:] if stripped.startswith(("-", "−")) else stripped, 0, MAX_OPTION)
    if value is None:
        issues.add("--debuff", _("N for Defense −N: {why}").format(why=why))
        return None
    return DefenseDebuff(value, source.strip())


def profile_from_options(
    *,
    grade: str = "veteran",
    armor: str = "none",
    shield: bool = False,
    natural_armor: str = "0",
    armor_bonus: str = "0",
    armor_damage: str = "0",
    stat_defense: str | None = None,
    bonuses: list[str] | None = None,
    debuffs: list[str] | None = None,
    defenseless: bool = False,
    exorcism: str = "none",
    incorporeal_defense: str = "0",
    tags: list[str] | None = None,
    pierce_natural: bool = False,
) -> tuple[CombatProfile, AttackTags]:
    """Validate the command's options into a profile and tags (one ContentError listing every problem)."""
    issues = OptionIssues()
    grade_key = _choice(issues, "--grade", grade, [g.value for g in Grade])
    armor_key = _choice(issues, "--armor", armor, [a.value for a in ArmorKind])
    rank_key = _choice(issues, "--exorcism", exorcism, [r.value for r in ExorcismRank])
    natural = _count(issues, "--natural-armor", natural_armor)
    bonus_points = _count(issues, "--armor-bonus", armor_bonus)
    damage = _count(issues, "--armor-damage", armor_damage)
    aptitude = _count(issues, "--incorporeal-defense", incorporeal_defense)
    override = None if stat_defense is None else _count(issues, "--stat-defense", stat_defense)
    parsed_bonuses = [b for b in (_bonus(issues, t) for t in bonuses or []) if b is not None]
    parsed_debuffs = [d for d in (_debuff(issues, t) for t in debuffs or []) if d is not None]
    attack = AttackTags(pierce_natural=True) if pierce_natural else AttackTags()
    for text in tags or []:
        try:
            attack = merge_tags(attack, parse_tag(text))
        except TagError as exc:
            issues.add("--tag", translate_text(str(exc)))
    issues.raise_any()
    assert grade_key and armor_key and rank_key  # else raise_any() raised
    profile = CombatProfile(
        name="target",
        grade=Grade(grade_key),
        armor=ArmorKind(armor_key),
        shield=shield,
        natural_armor=natural,
        armor_bonus=bonus_points,
        armor_damage=damage,
        defense_override=override,
        bonuses=tuple(parsed_bonuses),
        debuffs=tuple(parsed_debuffs),
        defenseless=defenseless,
        exorcism=ExorcismRank(rank_key),
        incorporeal_defense=aptitude,
    )
    return profile, attack


def release_stances(profile: CombatProfile, rules: DefenseRules) -> tuple[CombatProfile, tuple[Step, ...]]:
    """A Defenseless target as the battle has it: its maintained [stance] released at once (SG.DFL.2),
    through the resolution's own :func:`~kassen.sengoku.defenseless.make_defenseless` under ``rules``
    (the Defense data in force: ``--rules``, else the catalog's with its ``--content`` patches); the steps
    say what was released (empty when the target is not Defenseless or holds no stance)."""
    if not profile.defenseless:
        return profile, ()
    return make_defenseless(profile, rules=rules)


def print_released(released: tuple[Step, ...]) -> None:
    for step in released:
        said = _("{step}, Defenseless").format(step=translate_text(step.reason))
        console.print(f"{escape(said)}  [dim]{step.rule}[/dim]")


def _render(
    profile: CombatProfile, tags: AttackTags, result: DefenseResult, released: tuple[Step, ...]
) -> None:
    against = shown_tags(tags) or _("an attack with no tags")
    grade = f"[bold]{escape(translate_text(grade_label(profile.grade)))}[/bold]"
    console.print(_("{grade} target against {against}").format(grade=grade, against=escape(against)))
    print_released(released)
    table = Table(show_header=True, header_style="dim", box=None, pad_edge=False)
    table.add_column(_("Defense"), justify="right")
    table.add_column(_("step"))
    table.add_column(_("rule"), style="dim")
    for step in result.steps:
        table.add_row(
            "—" if result.immune else str(step.value), escape(translate_text(step.reason)), step.rule
        )
    console.print(table)
    if result.immune:
        console.print(_("[bold]Immune[/bold]: the attack cannot affect this target (no check)."))
    else:
        console.print(
            _("[bold]Defense {defense}[/bold]  (hit on 2d10 + modifier ≥ {defense_again})").format(
                defense=result.defense, defense_again=result.defense
            )
        )


def _from_catalog(
    catalog: Catalog, unit: str | None, stances: list[str], profile: CombatProfile, build: dict[str, bool]
) -> CombatProfile:
    """``--unit ID`` (a catalog template) holding ``--stance`` stances, with the state options on top;
    without ``--unit``, the built profile holding the stances."""
    issues = OptionIssues()
    for option, given in build.items():
        if unit is not None and given:
            issues.add(option, _("give --unit ID or the unit's build options, not both"))
    base = profile
    held: tuple[DefenseBonus, ...] = ()
    try:
        if unit is not None:
            base = catalog.profile(unit, stances=stances)
        else:
            held = tuple(catalog.stance_bonus(s) for s in stances)
    except KassenError as exc:
        issues.add("--unit" if unit is not None else "--stance", translate_text(str(exc)))
    issues.raise_any()
    if unit is None:
        return replace(profile, bonuses=profile.bonuses + held)
    return replace(
        base,
        bonuses=base.bonuses + profile.bonuses,
        debuffs=base.debuffs + profile.debuffs,
        defenseless=base.defenseless or profile.defenseless,
        armor_damage=profile.armor_damage,
    )


@sengoku_app.command(
    "defense",
    help=N_(
        "The Defense an attack rolls against (SG.DEF.5): base, armor, bonuses, tags, then debuffs.\n"
        "\n"
        "The target is built from the options, or is a catalog unit (--unit ID, --content DIR)."
    ),
)
@user_errors
def defense_command(
    unit: Annotated[
        str | None, typer.Option(help=N_("The target as a catalog unit (samurai, oni, tetsu-kame, ...)."))
    ] = None,
    stance: Annotated[
        list[str] | None,
        typer.Option(help=N_("A stance the target maintains (catalog id: immovable-formation).")),
    ] = None,
    grade: Annotated[str, typer.Option(help=N_("mob, minion, veteran, elite, lord or pc."))] = "veteran",
    armor: Annotated[str, typer.Option(help=N_("none, light, heavy or heavy-battle."))] = "none",
    shield: Annotated[
        bool, typer.Option("--shield", help=N_("Carries a shield (+1, part of armor)."))
    ] = False,
    natural_armor: Annotated[
        str, typer.Option(metavar="N", help=N_("Natural armor +N (scales, shell)."))
    ] = "0",
    armor_bonus: Annotated[
        str, typer.Option(metavar="N", help=N_("Defense from techniques attached to armor."))
    ] = "0",
    armor_damage: Annotated[
        str, typer.Option(metavar="N", help=N_("Armor points lost to [Break], until repaired."))
    ] = "0",
    stat_defense: Annotated[
        str | None,
        typer.Option(
            metavar="N", help=N_("A stat block's own Defense, used when lower than the grade base.")
        ),
    ] = None,
    bonus: Annotated[
        list[str] | None,
        typer.Option(
            metavar="KIND=N",
            help=N_("Non-armor bonus KIND=N[:source]; KIND: stance, barrier, terrain, spell, evasion."),
        ),
    ] = None,
    debuff: Annotated[
        list[str] | None, typer.Option(metavar="N", help=N_("Defense −N status (N[:source])."))
    ] = None,
    defenseless: Annotated[
        bool, typer.Option("--defenseless", help=N_("The target is Defenseless (−4)."))
    ] = False,
    tag: Annotated[
        list[str] | None,
        typer.Option(help=N_('Attack tag: "Pierce N|all", "Direct N|all", Incorporeal, Break.')),
    ] = None,
    pierce_natural: Annotated[
        bool,
        typer.Option("--pierce-natural", help=N_("The attack states that [Pierce] reaches natural armor.")),
    ] = False,
    exorcism: Annotated[str, typer.Option(help=N_("none, novice, licensed, master or saint."))] = "none",
    incorporeal_defense: Annotated[
        str,
        typer.Option(
            metavar="N", help=N_("Incorporeal Defense +N (an aptitude of masterwork or divine armor).")
        ),
    ] = "0",
    rules: Annotated[
        str | None, typer.Option(help=N_("Your own defense.yaml instead of the bundled one."))
    ] = None,
    content: Annotated[list[str] | None, typer.Option(help=CONTENT_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of text."))] = False,
) -> None:
    """The Defense an attack rolls against (SG.DEF.5): base, armor, bonuses, tags, then debuffs.

    The target is built from the options, or is a catalog unit (--unit ID, --content DIR)."""
    profile, tags = profile_from_options(
        grade=grade,
        armor=armor,
        shield=shield,
        natural_armor=natural_armor,
        armor_bonus=armor_bonus,
        armor_damage=armor_damage,
        stat_defense=stat_defense,
        bonuses=bonus,
        debuffs=debuff,
        defenseless=defenseless,
        exorcism=exorcism,
        incorporeal_defense=incorporeal_defense,
        tags=tag,
        pierce_natural=pierce_natural,
    )
    build = {
        "--grade": grade != "veteran",
        "--armor": armor != "none",
        "--shield": shield,
        "--natural-armor": natural_armor != "0",
        "--armor-bonus": armor_bonus != "0",
        "--stat-defense": stat_defense is not None,
        "--exorcism": exorcism != "none",
        "--incorporeal-defense": incorporeal_defense != "0",
    }
    catalog = catalog_from_options(content) if (unit or stance or content) else None
    if catalog is not None:
        profile = _from_catalog(catalog, unit, list(stance or []), profile, build)
    data = load_defense_rules(rules) if rules is not None or catalog is None else catalog.defense
    profile, released = release_stances(profile, data)
    result = compute_defense(profile, tags, rules=data, grades=catalog.grades if catalog else None)
    if as_json:
        emit_json({**result.to_json(), "released": steps_to_json(released)})
        return
    _render(profile, tags, result, released)
