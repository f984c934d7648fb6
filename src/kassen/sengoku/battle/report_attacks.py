"""A Sengoku battle's attacks told in words (renderers for :data:`kassen.sengoku.battle.report.RENDERERS`):
the attack with both faces of its check against the target's Defense step by step (SG.CHK.1-2), the
attack check itself (shown only with ``--verbose``), reactions (SG.RES.*), the d100 tables a Critical
Hit or a Fumble rolls on (SG.CRT.3, SG.FUM.3) and their effects, Defense −N sources, hits and Critical
Hits with their Wounds, the Fate offers and choices (SG.FAT.1-2), weapons dropped, broken, kept and
picked up, Fate spent, [Break] on armor (SG.BRK.4) and Wounds to the enemy behind.
"""

from __future__ import annotations

__all__: list[str] = []  # the renderers are read by the table of kassen.sengoku.battle.report


from kassen.core.report import Line, Narration
from kassen.i18n import N_, SOURCE, _, current_language, ngettext, pgettext
from kassen.sengoku.battle import events as ev
from kassen.sengoku.battle.report_pieces import (
    Render,
    _debuff_name,
    _line,
    _m,
    _name,
    _outcome,
    _roll,
    _t,
    _weapon_word,
)


def _r_attack(ctx: Narration, d: ev.Attack) -> Line:
    attacker, target, technique = ctx.name(d["attacker"]), ctx.name(d["target"]), _name(d["technique"])
    if d.get("automatic_critical"):
        text = _(
            "{attacker}'s {technique} → {target}: [Ambush] from infiltration,"
            " automatic Critical Hit with no check"
        )
        text = text.format(attacker=attacker, technique=technique, target=target)
        return Line(text, ctx.rule, ctx.steps(d), indent=1)
    if d.get("weapon"):
        who = pgettext("sengoku", "{attacker}'s {technique} ({weapon}) → {target}").format(
            attacker=attacker, technique=technique, weapon=_weapon_word(d["weapon"]), target=target
        )
    else:
        who = pgettext("sengoku", "{attacker}'s {technique} → {target}").format(
            attacker=attacker, technique=technique, target=target
        )
    ambush = _(" (ambush: target Defenseless)") if d.get("ambush") else ""
    outcome = _outcome(d["outcome"])
    if d.get("last_bastion"):
        outcome += _(" (Last Bastion: the hit check misses)")
    if d.get("nullified"):
        outcome += _(", nullified")
    roll = _roll(d["faces"], d["modifier"], d["total"])
    fate = _(" (Fate moved a die)") if d.get("fate_die") is not None else ""
    text = _("{who}: {roll}{fate} vs Defense {defense}: {outcome}{ambush}").format(
        who=who, roll=roll, fate=fate, defense=d["defense"], outcome=outcome, ambush=ambush
    )
    steps = (*ctx.steps(d, "aim_steps"), *ctx.steps(d, "modifier_steps"), *ctx.steps(d, "defense_steps"))
    return Line(text, ctx.rule, steps, indent=1)


def _r_attack_check(ctx: Narration, d: ev.AttackCheck) -> Line | None:
    if not ctx.verbose:
        return None  # the attack's own line says it
    roll = _roll(d["faces"], d["modifier"], d["total"])
    text = _("the attack check: {roll} against Defense {defense}: {outcome}").format(
        roll=roll,
        defense=d["defense"],
        outcome=_t(d["outcome"]) if current_language() == SOURCE else _outcome(d["outcome"]),
    )
    return _line(ctx, text, 2)


def _r_reaction(ctx: Narration, d: ev.Reaction) -> Line:
    who = _("{unit}'s {maneuver} (0 further Energy)").format(
        unit=ctx.name(d["unit"]), maneuver=_m(ctx, d["maneuver"])
    )
    if not d.get("rolled"):
        return _line(ctx, f"{who}: {_t(d['effect'])}", 2)
    roll = _roll(d["faces"], d["modifier"], d["total"])
    text = pgettext("sengoku", "{who}: {roll} vs {against}: {effect}").format(
        who=who, roll=roll, against=_t(d["against"]), effect=_t(d["effect"])
    )
    return Line(text, ctx.rule, ctx.steps(d), indent=2)


#: The d100 tables an attack rolls on (SG.CRT.3, SG.FUM.3), by the name the log gives them.
_TABLES = (N_("decisive moment"), N_("critical mistake"))


def _r_table(ctx: Narration, d: ev.TableRow) -> Line:
    table = str(d.get("table", "")).replace("_", " ")
    text = _("d100 {roll} on the {table} table: {name}: {effect}").format(
        roll=d["roll"], table=_t(table), name=_t(d["name"]), effect=_t(d["effect"])
    )
    return _line(ctx, text, 2)


def _r_table_effect(ctx: Narration, d: ev.TableEffect) -> Line:
    return _line(ctx, f"→ {_t(d['text'])}", 3)


def _r_debuff(ctx: Narration, d: ev.Debuff) -> Line:
    """The battle puts a Defense −N source on the unit (the attack resolution's own word of it, naming
    the target, stays out of the battle's log)."""
    total = d.get("total")
    more = (
        _(", Defense −{total} in all").format(total=total)
        if total is not None and total != d["value"]
        else ""
    )
    text = _("{unit}: Defense −{value} ({name}){more}").format(
        unit=ctx.name(d["unit"]), value=d["value"], name=_debuff_name(d), more=more
    )
    return _line(ctx, text, 2)


def _r_blow(label: str) -> Render:
    def render(ctx: Narration, d: ev.Blow) -> Line:
        wounds = int(d.get("wounds", 0))
        took = (
            ngettext("{n} Wound(s)", "{n} Wound(s)", wounds).format(n=wounds)
            if wounds
            else _("no Wounds (the blow's effect is all it does)")
        )
        text = pgettext("sengoku", "{label} on {target}: {took}").format(
            label=_(label), target=ctx.name(d["target"]), took=took
        )
        return _line(ctx, text, 2)

    return render


def _offered(ctx: Narration, d: ev.Offered, attacker: str) -> str:
    """The roll an attack waits on (SG.FAT.1-2), said in full."""
    roll = _roll(d["faces"], d["modifier"], d["total"])
    return _("{attacker}'s {technique} → {target}: {roll} vs Defense {defense}: {outcome}").format(
        attacker=ctx.name(attacker),
        technique=_name(d["technique"]),
        target=ctx.name(d["target"]),
        roll=roll,
        defense=d["defense"],
        outcome=_outcome(d["outcome"], success="hit"),
    )


def _r_fate_offered(ctx: Narration, d: ev.FateOffered) -> Line:
    """The attacker (``unit``) may move a die with Fate (SG.FAT.1)."""
    dies = _(" or ").join(str(int(x) + 1) for x in d["dies"])
    text = _("{offered}; {unit} may spend Fate to move die {dies} (a Critical Hit)").format(
        offered=_offered(ctx, d, d["unit"]), unit=ctx.name(d["unit"]), dies=dies
    )
    return _line(ctx, text, 1)


def _r_last_bastion_offered(ctx: Narration, d: ev.LastBastionOffered) -> Line:
    """The target (``unit``) may make the hit check miss with Last Bastion (SG.FAT.2)."""
    left = (
        pgettext("sengoku", " ({wounds} of {wounds_now})").format(
            wounds=d["wounds"], wounds_now=d["wounds_now"]
        )
        if d.get("wounds_now") is not None
        else ""
    )
    text = _("{offered}; it would take {unit}'s last Wounds{left}: Last Bastion may make it miss").format(
        offered=_offered(ctx, d, d["attacker"]), unit=ctx.name(d["unit"]), left=left
    )
    return _line(ctx, text, 1)


def _r_fate_intervention(ctx: Narration, d: ev.FateIntervention) -> Line:
    text = _("{unit} calls on Fate: die {die} moves").format(unit=ctx.name(d["unit"]), die=int(d["die"]) + 1)
    return _line(ctx, text, 1)


def _r_last_bastion(ctx: Narration, d: ev.OfUnit) -> Line:
    return _line(ctx, _("{unit} calls on Fate: Last Bastion").format(unit=ctx.name(d["unit"])), 1)


def _r_fate_declined(ctx: Narration, d: ev.OfUnit) -> Line:
    what = _("Last Bastion") if ctx.rule == "SG.FAT.2" else _("Fate Intervention")
    return _line(ctx, _("{unit} spends no Fate (no {what})").format(unit=ctx.name(d["unit"]), what=what), 1)


def _weapon(ctx: Narration, d: ev.Weapon, verb: str) -> str:
    weapon = _weapon_word(d["weapon"]) if d["weapon"] else _("weapon")
    return _(verb).format(unit=ctx.name(d["unit"]), weapon=weapon)


def _r_weapon(verb: str) -> Render:
    def render(ctx: Narration, d: ev.Weapon) -> Line:
        return _line(ctx, _weapon(ctx, d, verb), 2)

    return render


def _r_weapon_dropped(ctx: Narration, d: ev.WeaponDropped) -> Line:
    text = _weapon(ctx, d, N_("{unit}'s {weapon} falls to the ground"))
    if d.get("pickup_cost") is not None:
        text = _("{text}: picking it up costs {cost} Energy").format(text=text, cost=d["pickup_cost"])
    return _line(ctx, text, 2)


def _r_weapon_kept(ctx: Narration, d: ev.WeaponKept) -> Line:
    text = _weapon(ctx, d, N_("{unit}'s {weapon} stays in hand"))
    return _line(ctx, text + (f" ({_t(d['why'])})" if d.get("why") else ""), 2)


#: What Fate is spent on (SG.FAT.1-2), by the log's word.
_PURPOSES = {"intervention": N_("Fate Intervention"), "last_bastion": N_("Last Bastion")}


def _r_fate(ctx: Narration, d: ev.FateSpent) -> Line:
    found = _PURPOSES.get(str(d.get("purpose")))
    purpose = _(found) if found is not None else _t(d.get("purpose"))
    points = int(d["points"])
    text = ngettext(
        "{unit} spends {points} Fate point(s) on {purpose}",
        "{unit} spends {points} Fate point(s) on {purpose}",
        points,
    ).format(unit=ctx.name(d["unit"]), points=d["points"], purpose=purpose)
    if d.get("faces_after"):
        text += _(": the dice {before} become {after}").format(
            before=d.get("faces_before"), after=d["faces_after"]
        )
    return _line(ctx, text, 2)


def _source(d: ev.ArmorBroken | ev.ArmorHolds) -> str:
    """A weapon's stated [Break] names its source and blow (SG.BRK.4): " (Muramasa on a Critical Hit)"."""
    return f" ({_t(d['source'])})" if d.get("source") else ""


def _r_armor_broken(ctx: Narration, d: ev.ArmorBroken) -> Line:
    text = _(
        "[Break]{source}: {unit}'s armor loses {lost} point(s) until repaired (−{damage} in all)"
    ).format(source=_source(d), unit=ctx.name(d["unit"]), lost=d["lost"], damage=d["armor_damage"])
    return _line(ctx, text, 2)


def _r_armor_holds(ctx: Narration, d: ev.ArmorHolds) -> Line:
    text = _("[Break]{source}: {unit}'s armor holds ({why})").format(
        source=_source(d), unit=ctx.name(d["unit"]), why=_t(d["why"])
    )
    return _line(ctx, text, 2)


def _r_behind(ctx: Narration, d: ev.Behind) -> Line:
    count = (
        _(", Wounds {before} → {after}").format(before=d["before"], after=d["after"])
        if d.get("after") is not None
        else ""
    )
    hit = f"{ctx.name(d['unit'])}{count}" if d.get("unit") else _("nobody there")
    text = _("{wounds} Wound(s) to the enemy behind {target}: {hit}").format(
        wounds=d["wounds"], target=ctx.name(d["target"]), hit=hit
    )
    return _line(ctx, text, 2)
