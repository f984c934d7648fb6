"""``kassen sengoku odds`` and ``kassen sengoku attack``: exact odds, and one attack explained.

Options are plain text validated here, so every bad input is one line on stderr and exit 2 (through
:func:`~kassen.cli.common.user_errors`), with every problem of the command line reported at once.
"""

from __future__ import annotations

__all__ = ["attack_command", "odds_command"]

import secrets
from collections.abc import Mapping
from fractions import Fraction
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from kassen.cli.common import OptionIssues, console, emit_json, user_errors
from kassen.cli.content import CONTENT_HELP, catalog_from_options
from kassen.cli.numbers import MAX_OPTION, seed_problem, whole_problem
from kassen.cli.sengoku import sengoku_app
from kassen.cli.sengoku_defense import print_released, profile_from_options, release_stances
from kassen.core.errors import ContentError, ContentIssue, KassenError
from kassen.core.explain import Step, steps_to_json
from kassen.core.fastreplace import replace
from kassen.core.rng import Rng
from kassen.i18n import N_, S_, _, pgettext, translate_text
from kassen.sengoku.attack import Attack, AttackResult, attack
from kassen.sengoku.catalog import Catalog
from kassen.sengoku.check import DieSource, ScriptedDice
from kassen.sengoku.odds import ODDS_KEYS, attack_odds
from kassen.sengoku.profile import AttackTags, Attributes, CombatProfile, DefenseBonus, Grade
from kassen.sengoku.resolution import ResolutionRules, load_resolution
from kassen.sengoku.table_effects import describe
from kassen.sengoku.tags import format_tags, shown_tags
from kassen.sengoku.technique import Technique
from kassen.sengoku.words import content_word
from kassen.sengoku.wounds import AddedWound


def _int(
    issues: OptionIssues, option: str, text: str | None, *, low: int | None = None, high: int | None = None
) -> int | None:
    """A whole number read as every command reads one (:mod:`kassen.cli.numbers`: ASCII digits, a sign
    unless ``low`` >= 0, within ``low .. high``, by default ±:data:`MAX_OPTION`), or ``None`` when not
    given or refused (the problem is added to ``issues``)."""
    if text is None:
        return None
    low = -MAX_OPTION if low is None else low
    high = MAX_OPTION if high is None else high
    value, why = whole_problem(text, low, high)
    if value is None:
        issues.add(option, why)
    return value


def _faces(issues: OptionIssues, text: str | None, sides: int) -> list[int]:
    if text is None:
        return []
    parts = [p for p in text.replace(" ", ",").split(",") if p]
    # one problem for the option, naming the die's own range (not each part's against any number)
    faces = [whole_problem(p, 1, sides)[0] for p in parts]
    if len(parts) != 2 or any(f is None for f in faces):
        shown = text if len(text) <= 40 else text[:37] + "..."
        issues.add(
            "--faces",
            _("expected two d{sides} faces (1 to {sides}) like 4,5, got {shown}").format(
                sides=sides, shown=f"{shown!r}"
            ),
        )
        return []
    return [f for f in faces if f is not None]


def _fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _resolution(catalog: Catalog, rules: str | None) -> ResolutionRules:
    """``--rules FILE`` replaces the resolution data; otherwise the catalog's (with its patches)."""
    return load_resolution(rules) if rules is not None else catalog.resolution


# -------------------------------------------------------------------------------------------- odds


@sengoku_app.command(
    "odds",
    help=N_(
        "Exact chances of 2d10 + MODIFIER >= DEFENSE: hit, Critical Hit, Fumble, the d100 tables, and the\n"
        "expected Wounds (SG.CHK.1, SG.CRT.1, SG.FUM.1)."
    ),
)
@user_errors
def odds_command(
    modifier: Annotated[
        str | None, typer.Option(metavar="N", help=N_("Attack modifier (attribute + skill + bonus)."))
    ] = None,
    defense: Annotated[str | None, typer.Option(metavar="N", help=N_("The target's Defense."))] = None,
    weapon: Annotated[
        str, typer.Option(help=N_("Weapon or technique for the expected Wounds (default: a base attack)."))
    ] = "strike",
    rules: Annotated[str | None, typer.Option(help=N_("Your own resolution.yaml."))] = None,
    content: Annotated[list[str] | None, typer.Option(help=CONTENT_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of text."))] = False,
) -> None:
    """Exact chances of 2d10 + MODIFIER >= DEFENSE: hit, Critical Hit, Fumble, the d100 tables, and the
    expected Wounds (SG.CHK.1, SG.CRT.1, SG.FUM.1)."""
    issues = OptionIssues()
    m = _int(issues, "--modifier", modifier)
    d = _int(issues, "--defense", defense)
    for option, given in (("--modifier", modifier), ("--defense", defense)):
        if given is None:
            issues.add(option, _("is required"))
    issues.raise_any()
    assert m is not None and d is not None
    catalog = catalog_from_options(content)
    data = _resolution(catalog, rules)
    tech = catalog.technique(weapon)
    odds = attack_odds(m, d, rules=data, technique=tech, defense_rules=catalog.defense, grades=catalog.grades)
    if as_json:
        emit_json(odds.to_json())
        return
    console.print(
        _("[bold]2d10 {modifier} >= {defense}[/bold]  (exact; {technique})").format(
            modifier=f"{m:+d}", defense=d, technique=escape(content_word(tech.name))
        )
    )
    table = Table(show_header=True, header_style="dim", box=None, pad_edge=False)
    table.add_column("")
    table.add_column(_("fraction"), justify="right")
    table.add_column(_("chance"), justify="right")
    labels = {
        "hit": _("hit (Critical Hits included)"),
        "critical": _("Critical Hit"),
        "fumble": _("Fumble"),
        "heavenly_mandate": _("Heavenly Mandate (double 10)"),
        "karmic_retribution": _("Karmic Retribution (double 1)"),
    }
    fractions = odds.fractions()
    for key in ODDS_KEYS[:-1]:
        p = fractions[key]
        table.add_row(labels[key], _fraction_text(p), f"{float(p):.2%}")
    ew = odds.expected_wounds
    table.add_row(_("expected Wounds"), _fraction_text(ew), f"{float(ew):.3f}")
    console.print(table)


# ------------------------------------------------------------------------------------------ attack


def _step_rows(title: str, steps: tuple[Step, ...]) -> None:
    table = Table(title=title, title_justify="left", show_header=False, box=None, pad_edge=False)
    table.add_column(justify="right")
    table.add_column()
    table.add_column(style="dim")
    for s in steps:
        table.add_row(str(s.value), translate_text(s.reason), s.rule)
    console.print(table)


def _render(result: AttackResult, tags: AttackTags, seed: int | None, released: tuple[Step, ...]) -> None:
    a, b = result.faces_rolled
    check = result.check
    against = shown_tags(tags)
    attacker, target = f"[bold]{result.attacker.name}[/bold]", f"[bold]{result.target.name}[/bold]"
    technique = content_word(result.technique.name)
    if against:
        console.print(
            _("{attacker} attacks {target} with {technique} {tags}").format(
                attacker=attacker, target=target, technique=technique, tags=against
            )
        )
    else:
        console.print(
            _("{attacker} attacks {target} with {technique}").format(
                attacker=attacker, target=target, technique=technique
            )
        )
    print_released(released)
    _step_rows(_("Defense"), result.defense_steps)
    faces = f"[{a}, {b}]" + (
        _(" → [{first}, {second}] (Fate)").format(first=check.faces[0], second=check.faces[1])
        if check.faces != (a, b)
        else ""
    )
    roll = _(
        "roll: 2d10 {modifier}: {faces} {modifier_again} = [bold]{total}[/bold] vs Defense {defense}"
    ).format(
        modifier=f"{check.modifier:+d}",
        faces=faces,
        modifier_again=f"{check.modifier:+d}",
        total=check.total,
        defense=result.defense,
    )
    console.print(roll + (_("  [bold]double[/bold]") if check.double else ""))
    outcome = {
        "critical": _("[bold]Critical Hit[/bold]"),
        "hit": _("[bold]hit[/bold]"),
        "miss": _("miss"),
        "fumble": _("[bold]Fumble[/bold]"),
    }[result.outcome.value]
    console.print(pgettext("sengoku", "outcome: {outcome}").format(outcome=outcome))
    if result.wounds_before == result.wounds_after and not result.incapacitated:
        lost = _("no Wounds lost") if result.hit else _("unhurt")
        console.print(_("Wounds: {wounds} ({lost})").format(wounds=result.wounds_after, lost=lost))
    else:
        console.print(
            _("Wounds: {before} → {after}").format(before=result.wounds_before, after=result.wounds_after)
            + (_("  [bold]Incapacitated[/bold]") if result.incapacitated else "")
        )
    if result.wounds_behind:
        console.print(_("the enemy behind loses {wounds} Wound(s)").format(wounds=result.wounds_behind))
    for e in result.events:
        if e.kind == "armor_broken":
            said = _("{tag}{source}: {target}'s armor loses {lost} point(s) until repaired").format(
                tag=escape(translate_text("[Break]")),
                source=_source(e.data),
                target=result.target.name,
                lost=e.data["lost"],
            )
            console.print(f"{said}  [dim]{e.rule}[/dim]")
        elif e.kind == "armor_holds":
            why = escape(translate_text(str(e.data["why"])))
            console.print(f"{escape(translate_text('[Break]'))}{_source(e.data)}: {why}  [dim]{e.rule}[/dim]")
        elif e.kind == "bleed":
            said = pgettext("sengoku", "{unit} bleeds: {effect}").format(
                unit=result.target.name, effect=translate_text(str(e.data["effect"]))
            )
            console.print(f"{said}  [dim]{e.rule}[/dim]")
        elif e.kind == "debuff":
            console.print(
                _("{unit}: {debuff} (Defense −N, SG.DBF.1)").format(
                    unit=result.target.name, debuff=translate_text(str(e.data["debuff"]))
                )
            )
    if result.attacker.defenseless and result.outcome.value == "fumble":
        console.print(_("{unit} is Defenseless").format(unit=result.attacker.name))
    if result.table is not None:
        t = result.table
        console.print(
            _("d100 {roll} on the {table} table: [bold]{name}[/bold]: {effect}").format(
                roll=t.roll,
                table=translate_text(t.table.replace("_", " ")),
                name=content_word(t.name),
                effect=translate_text(t.effect),
            )
        )
        for e in result.events:
            if e.kind == "table_effect":
                console.print(f"  {translate_text(str(e.data['text']))}  [dim]{e.rule}[/dim]")
        for p in result.pending:
            said = _("in a battle, {effect}").format(
                effect=translate_text(describe(p, hit_wounds=result.hit_wounds))
            )
            console.print(f"  {said}  [dim]{t.rule}[/dim]")
    _step_rows(_("Resolution"), tuple(s for s in result.steps if s not in result.defense_steps))
    if seed is not None:
        console.print("[dim]" + pgettext("sengoku", "(seed {seed})").format(seed=seed) + "[/dim]")


def _source(data: Mapping[str, Any]) -> str:
    """A weapon's stated [Break] names its source and blow (SG.BRK.4)."""
    return f" ({escape(translate_text(str(data['source'])))})" if data.get("source") else ""


_TARGET_BUILD = {
    "--target-grade": "veteran",
    "--target-armor": "none",
    "--target-natural-armor": "0",
    "--target-exorcism": "none",
}


def _attacker(
    issues: OptionIssues,
    catalog: Catalog,
    unit: str | None,
    given: dict[str, str | None],
) -> CombatProfile | None:
    """The attacker from the catalog (``--attacker ID``); its build options must then stay unset."""
    if unit is None:
        return None
    for option, value in given.items():
        if value is not None:
            issues.add(option, _("give --attacker ID or the attacker's numbers, not both"))
    try:
        return catalog.profile(unit)
    except KassenError as exc:
        issues.add("--attacker", translate_text(str(exc)))
        return None


def _technique(
    issues: OptionIssues, catalog: Catalog, weapon: str | None, unit: str | None
) -> Technique | None:
    """``--weapon`` (a maneuver or a weapon id), with the attacker's weapon when one is given."""
    try:
        if unit is not None and unit.strip().lower() in catalog.creatures:
            return catalog.technique_for(unit, weapon)
        return catalog.technique(weapon or "strike")
    except KassenError as exc:  # names the known weapons
        issues.add("--weapon", translate_text(str(exc)))
        return None


def _target(
    issues: OptionIssues,
    catalog: Catalog,
    unit: str | None,
    stances: list[str],
    build: dict[str, str | bool | None],
) -> CombatProfile | None:
    """The target from the catalog (``--target ID``), holding ``--target-stance`` stances."""
    if unit is None:
        return None
    for option, value in build.items():
        if value not in (None, False):
            issues.add(option, _("give --target ID or the target's build options, not both"))
    try:
        return catalog.profile(unit, stances=stances)
    except KassenError as exc:
        issues.add("--target", translate_text(str(exc)))
        return None


def _stance_bonuses(issues: OptionIssues, catalog: Catalog, stances: list[str]) -> tuple[DefenseBonus, ...]:
    out: list[DefenseBonus] = []
    for key in stances:
        try:
            out.append(catalog.stance_bonus(key))
        except KassenError as exc:
            issues.add("--target-stance", translate_text(str(exc)))
    return tuple(out)


@sengoku_app.command(
    "attack",
    help=N_(
        "One attack between two units: the roll, the Defense breakdown, the outcome and the Wounds.\n"
        "\n"
        "The units are either catalog entries (--attacker ID, --target ID, with --content DIR for your own)\n"
        "or built from the options."
    ),
)
@user_errors
def attack_command(
    weapon: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "Weapon or technique: strike, uchigatana, thrust, nodachi, teppo, ... "
                "(default: the attacker's weapon, or strike)."
            )
        ),
    ] = None,
    attacker: Annotated[
        str | None, typer.Option(help=N_("The attacker as a catalog unit (genzaburo, kuro, oni, ...)."))
    ] = None,
    target: Annotated[
        str | None, typer.Option(help=N_("The target as a catalog unit (oni, samurai, lord, ...)."))
    ] = None,
    target_stance: Annotated[
        list[str] | None, typer.Option(help=N_("A stance the target maintains (immovable-formation, ...)."))
    ] = None,
    modifier: Annotated[
        str | None,
        typer.Option(metavar="N", help=N_("Attack modifier; default: --attribute + --skill + the bonus.")),
    ] = None,
    attribute: Annotated[
        str | None,
        typer.Option(metavar="N", help=N_("The attacker's modifier in the weapon's attribute (default 0).")),
    ] = None,
    skill: Annotated[
        str | None,
        typer.Option(metavar="N", help=N_("The attacker's rank in the weapon's skill (default 0).")),
    ] = None,
    technique_wounds: Annotated[
        str | None, typer.Option(metavar="N", help=N_("Wounds of a hit, overriding the weapon's (SG.WND.3)."))
    ] = None,
    tag: Annotated[
        list[str] | None,
        typer.Option(help=N_('Attack tags, replacing the weapon\'s: "Pierce N|all", "Direct N|all", ...')),
    ] = None,
    extra_wounds: Annotated[
        str,
        typer.Option(metavar="N", help=N_("Added Wound effects after the check (weakness, divine item).")),
    ] = "0",
    attacker_name: Annotated[str | None, typer.Option(help=N_("The attacker's name."))] = None,
    attacker_grade: Annotated[
        str | None, typer.Option(help=N_("mob, minion, veteran, elite, lord or pc (default pc)."))
    ] = None,
    fate_points: Annotated[
        str | None, typer.Option(metavar="N", help=N_("The attacker's Fate points."))
    ] = None,
    fate_die: Annotated[
        str | None,
        typer.Option(metavar="N", help=N_("Fate Intervention: move die 1 or 2 onto the other (SG.FAT.1).")),
    ] = None,
    fumble_extra: Annotated[
        list[str] | None,
        typer.Option(help=N_("GM's extra on a fumble: drop-weapon, stance-collapse, foot-slip.")),
    ] = None,
    target_name: Annotated[str | None, typer.Option(help=N_("The target's name."))] = None,
    target_grade: Annotated[
        str | None, typer.Option(help=N_("mob, minion, veteran, elite, lord or pc (default veteran)."))
    ] = None,
    target_armor: Annotated[
        str | None, typer.Option(help=N_("none, light, heavy or heavy-battle (default none)."))
    ] = None,
    target_shield: Annotated[
        bool, typer.Option("--target-shield", help=N_("The target carries a shield."))
    ] = False,
    target_natural_armor: Annotated[
        str | None, typer.Option(metavar="N", help=N_("Natural armor +N."))
    ] = None,
    target_bonus: Annotated[
        list[str] | None, typer.Option(help=N_("Non-armor bonus KIND=N (stance, barrier, terrain, ...)."))
    ] = None,
    target_debuff: Annotated[
        list[str] | None, typer.Option(help=N_("Defense −N status on the target."))
    ] = None,
    target_defenseless: Annotated[
        bool, typer.Option("--target-defenseless", help=N_("The target is Defenseless."))
    ] = False,
    target_exorcism: Annotated[
        str | None, typer.Option(help=N_("none, novice, licensed, master or saint (default none)."))
    ] = None,
    target_wounds: Annotated[
        str | None, typer.Option(metavar="N", help=N_("The target's Wounds now (default: its grade's)."))
    ] = None,
    target_fate_points: Annotated[
        str | None, typer.Option(metavar="N", help=N_("The target's Fate points."))
    ] = None,
    last_bastion: Annotated[
        bool, typer.Option("--last-bastion", help=N_("The target spends Fate to make a fatal hit miss."))
    ] = False,
    seed: Annotated[
        str | None,
        typer.Option(
            metavar="SEED", help=N_("Seed for a reproducible attack, 0 .. 2**64-1 (default: random).")
        ),
    ] = None,
    faces: Annotated[
        str | None, typer.Option(metavar="A,B", help=N_("Use these two d10 faces (table dice), e.g. 4,5."))
    ] = None,
    d100: Annotated[
        str | None,
        typer.Option(metavar="N", help=N_("With --faces: the d100 for a table, if one is needed.")),
    ] = None,
    rules: Annotated[str | None, typer.Option(help=N_("Your own resolution.yaml."))] = None,
    content: Annotated[list[str] | None, typer.Option(help=CONTENT_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of text."))] = False,
) -> None:
    """One attack between two units: the roll, the Defense breakdown, the outcome and the Wounds.

    The units are either catalog entries (--attacker ID, --target ID, with --content DIR for your own)
    or built from the options."""
    issues = OptionIssues()
    catalog = catalog_from_options(content)
    data = _resolution(catalog, rules)
    stances = list(target_stance or [])
    from_catalog = _attacker(
        issues,
        catalog,
        attacker,
        {"--attribute": attribute, "--skill": skill, "--attacker-grade": attacker_grade},
    )
    tech = _technique(issues, catalog, weapon, attacker)
    m = _int(issues, "--modifier", modifier)
    attr = _int(issues, "--attribute", attribute or "0")
    rank = _int(issues, "--skill", skill or "0")
    own_wounds = _int(issues, "--technique-wounds", technique_wounds, low=0)
    extra = _int(issues, "--extra-wounds", extra_wounds, low=0)
    points = _int(issues, "--fate-points", fate_points, low=0)
    die = _int(issues, "--fate-die", fate_die, low=1, high=2)
    grades = [g.value for g in Grade]
    a_grade = (attacker_grade or "pc").strip().lower()
    if a_grade not in grades:
        issues.add(
            "--attacker-grade",
            _("unknown value {attacker_grade}; choose one of {value}").format(
                attacker_grade=f"{attacker_grade!r}", value=", ".join(grades)
            ),
        )
    wounds_now = _int(issues, "--target-wounds", target_wounds, low=0)
    t_points = _int(issues, "--target-fate-points", target_fate_points, low=0)
    extras = [x.strip().lower() for x in fumble_extra or []]
    for x in extras:
        if x not in data.fumble.extras:
            issues.add(
                "--fumble-extra",
                _("unknown value {x}; choose one of {value}").format(
                    x=f"{x!r}", value=", ".join(data.fumble.extras)
                ),
            )
    scripted = _faces(issues, faces, data.check.sides)
    roll_100 = _int(issues, "--d100", d100, low=1, high=100)
    if roll_100 is not None and not faces:
        issues.add("--d100", _("needs --faces (a seeded roll draws its own d100)"))
    used_seed, seed_why = seed_problem(seed) if seed is not None else (None, "")
    if seed_why:
        issues.add("--seed", seed_why)
    if seed is not None and faces is not None:
        issues.add("--seed", _("give --seed or --faces, not both"))
    build: dict[str, str | bool | None] = {
        "--target-grade": target_grade,
        "--target-armor": target_armor,
        "--target-shield": target_shield,
        "--target-natural-armor": target_natural_armor,
        "--target-exorcism": target_exorcism,
    }
    catalog_target = _target(issues, catalog, target, stances, build)
    try:
        built, tags = profile_from_options(
            grade=target_grade or _TARGET_BUILD["--target-grade"],
            armor=target_armor or _TARGET_BUILD["--target-armor"],
            shield=target_shield,
            natural_armor=target_natural_armor or _TARGET_BUILD["--target-natural-armor"],
            bonuses=target_bonus,
            debuffs=target_debuff,
            defenseless=target_defenseless,
            exorcism=target_exorcism or _TARGET_BUILD["--target-exorcism"],
            tags=tag,
        )
    except ContentError as exc:
        issues.items.extend(
            ContentIssue(
                i.file, "--target-" + i.field.lstrip("-") if i.field != "--tag" else i.field, i.message
            )
            for i in exc.issues
        )
        built, tags = CombatProfile(), AttackTags()
    held = _stance_bonuses(issues, catalog, stances) if catalog_target is None else ()
    issues.raise_any()
    assert tech is not None and attr is not None and rank is not None and extra is not None

    if own_wounds is not None:
        tech = replace(tech, wounds=own_wounds)
    if from_catalog is not None:
        attacker_profile = replace(from_catalog, name=attacker_name or from_catalog.name)
        if points is not None:
            attacker_profile = replace(attacker_profile, fate_points=points)
        default_modifier = None
    else:
        attributes = Attributes(**{tech.attribute: attr}) if tech.attribute else Attributes()
        attacker_profile = CombatProfile(
            name=attacker_name or "attacker",
            grade=Grade(a_grade),
            attributes=attributes,
            skills=((tech.skill, rank),) if tech.skill else (),
            fate_points=points or 0,
        )
        default_modifier = None if tech.attribute or tech.skill else attr + rank + tech.bonus
    if catalog_target is not None:
        target_profile = replace(
            catalog_target,
            bonuses=catalog_target.bonuses + built.bonuses,
            debuffs=catalog_target.debuffs + built.debuffs,
            defenseless=catalog_target.defenseless or built.defenseless,
        )
    else:
        target_profile = replace(built, name="target", bonuses=built.bonuses + held)
    target_profile = replace(
        target_profile,
        name=target_name or target_profile.name,
        fate_points=t_points if t_points is not None else target_profile.fate_points,
        wounds=wounds_now,
    )
    target_profile, released = release_stances(target_profile, catalog.defense)
    action = Attack(
        technique=tech,
        modifier=m if m is not None else default_modifier,
        tags=tags if tag else None,
        added_wounds=(AddedWound(extra, S_("added Wound effect")),) if extra else (),
        fate_die=None if die is None else die - 1,
        last_bastion=last_bastion,
        fumble_extras=tuple(extras),
    )
    dice: DieSource
    shown_seed: int | None = None
    if scripted:
        dice = ScriptedDice(
            [*scripted, *([roll_100] if roll_100 is not None else [])], hint="give it with --d100 N"
        )
    else:
        shown_seed = used_seed if used_seed is not None else secrets.randbits(32)
        dice = Rng(shown_seed)
    result = attack(
        attacker_profile,
        target_profile,
        action,
        dice,
        rules=data,
        grades=catalog.grades,
        defense_rules=catalog.defense,
    )
    # the GM's extras are "added to a fumble" (SG.FUM.2): on any other outcome they do nothing, and say so
    unused = list(extras) if result.outcome.value != "fumble" else []
    if as_json:
        out = result.to_json()
        out["fumble_extras_not_applied"] = unused
        out["seed"] = shown_seed
        out["tags"] = format_tags(action.attack_tags)
        out["released"] = steps_to_json(released)
        emit_json(out)
        return
    _render(result, action.attack_tags, shown_seed if seed is None else None, released)
    if unused:
        said = _("--fumble-extra {extras}: not applied (a {outcome}, not a Fumble)").format(
            extras=", ".join(unused), outcome=translate_text(result.outcome.value)
        )
        console.print(f"{said}  [dim]SG.FUM.2[/dim]")
