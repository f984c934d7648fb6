"""A battle told in words: a renderer for every event kind the battle logs, names, and a summary.

:data:`RENDERERS` is the ruleset's table for :func:`kassen.core.report.account` (``kassen sengoku
battle`` and ``kassen fight`` both tell a battle through it): rounds and counts, who breathes and with
which maneuvers, every roll with both faces, Wounds before → after, statuses as they change, the lull,
the end with its death checks and honor follow-ups, and what the attack resolution logs (hits, Critical
Hits, Fumbles, the d100 tables, Fate). Each line ends with the rule that made it; with ``--verbose``
the explanation steps follow (an attack's modifier and the target's Defense step by step, a reaction's
check, a breath's Energy costs). The attack check is also logged on its own by the resolution; the
attack's line already says it, so its own line is shown only with ``--verbose``.

:func:`names` gives display names by id: units, sides, maneuvers (``maneuver:ID``) and the yoma the
Yoma Encounter Table brings (``oni-1`` → "Oni 1"). :func:`summary` is the state at the end: who won,
who stands with how many Wounds, who fell and who left.
"""

from __future__ import annotations

__all__ = ["RENDERERS", "BattleNames", "names", "summary"]

from collections.abc import Callable, Iterator, Mapping
from string import Formatter
from typing import Any

from kassen.core.report import Line, Narration
from kassen.i18n import N_, SOURCE, _, current_language, gettext, ngettext, pgettext, translate_text
from kassen.sengoku.battle import events as ev
from kassen.sengoku.battle.state import BattleState
from kassen.sengoku.catalog import load_catalog

Data = Mapping[str, Any]
#: A renderer of one kind's data: typed by its TypedDict (kassen.sengoku.battle.events), or a template.
Render = Callable[[Narration, Any], Line | None]


class BattleNames(Mapping[str, str]):
    """Display names by id: the battle's units and sides (what it iterates and counts); besides them,
    maneuvers as ``maneuver:ID`` and the yoma that arrive in the lull (``ID-N`` of a catalog creature →
    its name and N)."""

    def __init__(
        self, known: Mapping[str, str], maneuvers: Mapping[str, str], creatures: Mapping[str, str]
    ) -> None:
        self._known = dict(known)
        self._maneuvers = maneuvers
        self._creatures = creatures

    def __getitem__(self, key: str) -> str:
        found = self._known.get(key)
        if found is not None:
            return found
        kind, _, mid = key.partition(":")
        if kind == "maneuver" and mid in self._maneuvers:
            return self._maneuvers[mid]
        base, _, n = key.rpartition("-")
        if n.isdigit() and base in self._creatures:
            return f"{self._creatures[base]} {n}"
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._known)

    def __len__(self) -> int:
        return len(self._known)


def names(state: BattleState) -> BattleNames:
    """Display names of the battle's units and sides, maneuvers and arriving yoma (by id). Maneuver and
    creature names are the bundled catalog's (an entry only a user's layer defines shows its id)."""
    catalog = load_catalog()
    known = {u.id: u.name for u in state.units}
    known.update({s.id: s.name for s in state.sides})
    return BattleNames(
        known,
        {k: m.name for k, m in catalog.maneuvers.items()},
        {k: c.name for k, c in catalog.creatures.items()},
    )


# ------------------------------------------------------------------------------------------ pieces


def _t(value: Any) -> str:
    """A word kept in English in the data (an outcome, a cause, a table's effect, a zone) in the reader's
    language."""
    return translate_text(str(value))


def _name(text: str) -> str:
    """A name from the content (a maneuver's, a weapon's) in the reader's language: the catalog's word
    for exactly that name, else the name as it is."""
    return _lookup(text)


_lookup = gettext  # an exact look-up of a content word (the data catalogs), not a template to match


def _m(ctx: Narration, mid: Any) -> str:
    return _name(ctx.names.get(f"maneuver:{mid}", str(mid)))


def _weapon_word(wid: Any) -> str:
    """A weapon's id said as words (``short-sword`` → "short sword"); in another language, the catalog's
    name of the weapon, translated."""
    english = str(wid).replace("-", " ")
    if current_language() == SOURCE:
        return english
    found = load_catalog().weapons.get(str(wid))
    return _name(found.name) if found is not None else translate_text(english)


def _change_word(cid: Any) -> str:
    """A battlefield change by its id (``fire``); in another language, its catalog name, translated."""
    if current_language() == SOURCE:
        return str(cid)
    from kassen.sengoku.house import YomaEncounters

    found = next((c for c in load_catalog().default(YomaEncounters).changes if c.id == cid), None)
    return _name(found.name) if found is not None else translate_text(str(cid))


def _use(ctx: Narration, use: Data) -> str:
    text = _m(ctx, use["maneuver"])
    if use.get("weapon"):
        text = pgettext("sengoku", "{maneuver} ({weapon})").format(
            maneuver=text, weapon=_weapon_word(use["weapon"])
        )
    if use.get("release"):
        text = pgettext("sengoku", "release {maneuver}").format(maneuver=text)
    if use.get("target"):
        text += f" → {ctx.name(use['target'])}"
    if use.get("to"):
        text += f" → {_t(use['to'])}"
    if use.get("aim"):
        text = _("{maneuver} (Aim Focus +{aim})").format(maneuver=text, aim=use["aim"])
    if use.get("squads"):
        squads = ", ".join(ctx.name(s) for s in use["squads"])
        text = pgettext("sengoku", "{maneuver} with {squads}").format(maneuver=text, squads=squads)
    return text


def _roll(faces: Any, modifier: int, total: int) -> str:
    sign = "-" if modifier < 0 else "+"
    return f"2d10 {list(faces)} {sign} {abs(modifier)} = {total}"


def _line(ctx: Narration, text: str, indent: int = 0, *, heading: bool = False) -> Line:
    return Line(text, ctx.rule, indent=indent, heading=heading)


def _ok(success: Any) -> str:
    return _("success") if success else _("failure")


#: The outcome words an attack logs (``hit``, ``critical``...), as its line says them.
_OUTCOMES: dict[str, str] = {
    "critical": N_("Critical Hit"),
    "fumble": N_("Fumble"),
    "hit": N_("hit"),
    "success": N_("hit"),
    "miss": N_("miss"),
}
#: The zones of the house layout (SG.ZON.2), said by their ids in English.
ZONE_WORDS = (
    N_("own-rear"),
    N_("own-front"),
    N_("own-flank"),
    N_("core"),
    N_("enemy-front"),
    N_("enemy-flank"),
    N_("enemy-rear"),
)


def _outcome(value: Any, *, success: str = "success") -> str:
    """An attack's outcome word: in English as the log has always said it (``critical`` → "Critical
    Hit", ``fumble`` → "Fumble", ``success`` → ``success`` or "hit"), else in the reader's language."""
    word = str(value)
    if current_language() == SOURCE:
        english = word.replace("critical", "Critical Hit").replace("fumble", "Fumble")
        return english.replace("success", success) if success != "success" else english
    found = _OUTCOMES.get(word)
    return _(found) if found is not None else _t(word)


class _Said:
    """A renderer from a template: ``{unit}``-like keys become names, ``{maneuver}`` the maneuver's. A
    value another side may not see is null in its view: the ``hidden`` template says the event without
    it (else the value reads "(not seen)"). ``fields`` are the data keys the templates read (a test holds
    them to the kind's declared data). The templates are marked for the catalog and said in the reader's
    language; the data's own words (a cause, an effect, a zone) are translated as they are shown."""

    __slots__ = ("fields", "indent", "other", "shown", "text")

    def __init__(self, text: str, indent: int = 0, *, hidden: str = "") -> None:
        self.text = text
        self.indent = indent
        self.other = _Said(hidden, indent) if hidden else None
        self.shown = shown = frozenset(_fields(text))
        #: the data keys the templates read
        self.fields: frozenset[str] = shown | self.other.fields if self.other is not None else shown

    def __call__(self, ctx: Narration, d: Data) -> Line | None:
        if self.other is not None and any(d.get(k) is None for k in self.shown if k in d):
            return self.other(ctx, d)
        values: dict[str, Any] = {
            k: (_("(not seen)") if x is None else ctx.name(x) if k in _PEOPLE else _said_value(x))
            for k, x in d.items()
        }
        if d.get("maneuver") is not None:
            values["maneuver"] = _m(ctx, d["maneuver"])
        for key in ("maneuvers", "stances"):
            if isinstance(d.get(key), list):
                values[key] = ", ".join(_m(ctx, x) for x in d[key])
        if isinstance(d.get("ended"), list):
            values["ended"] = "; ".join(_t(x) for x in d["ended"])
        return _line(ctx, _(self.text).format_map(_Default(values)), self.indent)


def _said_value(value: Any) -> Any:
    return _t(value) if isinstance(value, str) else value


_said = _Said
#: Data keys a template shows as a unit's (or a side's) name.
_PEOPLE = ("unit", "attacker", "target", "pursuer", "with_unit", "behind", "faction")


def _fields(template: str) -> list[str]:
    return [name for _, name, _, _ in Formatter().parse(template) if name]


class _Default(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


# ------------------------------------------------------------------------------------------ the round


def _r_energy(ctx: Narration, d: ev.EnergyReset) -> Line:
    extra = []
    if d.get("overload"):
        extra.append(_("overload −{n}").format(n=d["overload"]))
    if d.get("exhaustion"):
        extra.append(_("exhaustion −{n}").format(n=d["exhaustion"]))
    if d.get("initiative"):
        extra.append(_("initiative +{n} on the first breath").format(n=d["initiative"]))
    status = [
        pgettext("sengoku", "Wounds {wounds}/{wounds_max}").format(
            wounds=d["wounds"], wounds_max=d["wounds_max"]
        )
        if d.get("wounds") is not None
        else _("Wounds not seen")
    ]
    if d.get("cohesion") is not None:
        status.append(pgettext("sengoku", "Cohesion {cohesion}").format(cohesion=d["cohesion"]))
    if d.get("stances"):
        status.append(
            pgettext("sengoku", "holds {stances}").format(stances=", ".join(_m(ctx, s) for s in d["stances"]))
        )
    if d.get("routed"):
        status.append(_("routed"))
    more = f" ({'; '.join(extra)})" if extra else ""
    who = _("{unit} in {zone}: Energy {energy}{more}; {status}").format(
        unit=ctx.name(d["unit"]), zone=_t(d["zone"]), energy=d["energy"], more=more, status=", ".join(status)
    )
    armor = ctx.steps(d, "armor")
    return Line(who, ctx.rule, armor if len(armor) > 1 else (), indent=1)


def _r_count(ctx: Narration, d: ev.Count) -> Line:
    units = ", ".join(ctx.name(u) for u in d["units"])
    return _line(ctx, _("-- count {count}: {units} --").format(count=d["count"], units=units))


#: The tie-break keys a tie names (SG.CNT.4), said in words.
_TIE_KEYS = (N_("finesse"), N_("max-energy"), N_("physique"), N_("allies-first"), N_("setup-order"))


def _r_tie(ctx: Narration, d: ev.Tie) -> Line:
    order = _(" before ").join(ctx.name(u) for u in d["order"])
    keys = ", ".join(_t(k) for k in d["keys"])
    return _line(
        ctx, _("tie at {count}: {order} ({keys})").format(count=d["count"], order=order, keys=keys), 1
    )


def _r_breath(ctx: Narration, d: ev.Breath) -> Line:
    over = _(" OVERLOAD") if d.get("overload") else ""
    who = _("{unit} breathes at count {count}").format(unit=ctx.name(d["unit"]), count=d["count"])
    if d.get("uses") is None or d.get("costs") is None:  # another side's: its maneuvers show as they resolve
        text = _("{who}: spends {spent} Energy (limit {limit}){over}").format(
            who=who, spent=d["spent"], limit=d["limit"], over=over
        )
        return Line(text, ctx.rule)
    uses = " + ".join(f"{_use(ctx, u)} ({c})" for u, c in zip(d["uses"], d["costs"], strict=True))
    text = pgettext("sengoku", "{who}: {uses} = {spent} of {limit}{over}").format(
        who=who, uses=uses, spent=d["spent"], limit=d["limit"], over=over
    )
    costs = [c for c in d.get("cost_steps", []) if len(c) > 1]  # a bare price says nothing more
    steps = tuple(s for c in costs for s in ctx.steps({"s": c}, "s"))
    return Line(text, ctx.rule, steps)


def _winner(ctx: Narration, winner: Any) -> str:
    return ctx.name(winner) if winner else _("nobody")


def _r_over(ctx: Narration, d: ev.CombatOver) -> Line:
    text = _("== Combat over in round {round}: {reason}; winner: {winner} ==").format(
        round=d["round"], reason=_t(d["reason"]), winner=_winner(ctx, d.get("winner"))
    )
    return _line(ctx, text, heading=True)


def _r_death(ctx: Narration, d: ev.DeathCheck) -> Line:
    fate = _t(d["outcome"]) if d["survives"] else _("dies")
    roll = _roll(d["faces"], d["modifier"], d["total"])
    return Line(
        _("death check, {unit}: {roll} vs {target}: {fate}").format(
            unit=ctx.name(d["unit"]), roll=roll, target=d["target"], fate=fate
        ),
        ctx.rule,
        ctx.steps(d),
        indent=1,
    )


def _r_honor(ctx: Narration, d: ev.HonorFollowUp) -> Line:
    text = _("honor follow-up, {unit} ({honor}): {follow_up}").format(
        unit=ctx.name(d["unit"]), honor=_t(d["honor"]), follow_up=_t(d["follow_up"])
    )
    if d.get("penalty"):
        text += f" {_t(d['penalty'])}"
    check = d.get("check")
    if isinstance(check, Mapping):
        text += _(" (a {attribute} check against {target})").format(
            attribute=_t(check.get("attribute")), target=check.get("target")
        )
    if d.get("when"):
        text += f", {_t(d['when'])}"
    return _line(ctx, text, 1)


# ------------------------------------------------------------------------------------------ attacks


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


def _debuff_name(d: Data) -> str:
    return _t(d.get("name") or str(d["debuff"]).replace("-", " "))


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


def _r_lost_to(ctx: Narration, d: ev.LostTo) -> Line:
    count = f": {d['before']} → {d['after']}" if d.get("after") is not None else ""
    text = _("{unit} loses Wounds to {cause}{count}").format(
        unit=ctx.name(d["unit"]), cause=_t(d["cause"]), count=count
    )
    return _line(ctx, text, 2)


def _r_change(ctx: Narration, d: ev.BattlefieldChange) -> Line:
    until = _(" (until the lull of round {round})").format(round=d["until"]) if d.get("until") else ""
    text = _("GM: {name} in {zone}{until}: {effect}").format(
        name=_t(d["name"]), zone=_t(d["zone"]), until=until, effect=_t(d["effect"])
    )
    return _line(ctx, text, 1)


def _r_env_skipped(ctx: Narration, d: ev.EnvironmentSkipped) -> Line:
    yoma, changes = bool(d.get("yoma", True)), bool(d.get("changes"))
    if yoma and changes:
        text = _("The GM does not roll for yoma or change the battlefield this lull")
    elif yoma:
        text = _("The GM does not roll for yoma this lull")
    elif changes:
        text = _("The GM does not change the battlefield this lull")
    else:
        text = _("The GM does not act this lull")
    return _line(ctx, text, 1)


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


# ------------------------------------------------------------------------------------------ moves


def _r_move(ctx: Narration, d: ev.Moved) -> Line:
    check = d.get("check") or {}
    roll = ""
    if check:
        roll = pgettext("sengoku", ": {roll} vs {target}, {result}").format(
            roll=_roll(check["faces"], check["modifier"], check["total"]),
            target=check["target"],
            result=_ok(check["success"]),
        )
    if d["moved"]:
        where = f"{_t(d['frm'])} → {_t(d['to'])}"
    else:
        where = pgettext("sengoku", "stays in {zone}").format(zone=_t(d["frm"]))
    inf = _("; infiltrating") if d.get("infiltrating") else ""
    text = f"{ctx.name(d['unit'])}: {_m(ctx, d['maneuver'])} {where}{roll}{inf}"
    return Line(text, ctx.rule, ctx.steps(check) if check else (), indent=1)


def _r_forfeit(ctx: Narration, d: ev.Forfeit) -> Line:
    what = _use(ctx, d["use"]) if isinstance(d.get("use"), Mapping) else _("maneuver")
    text = _("{unit}'s {what} is forfeited: {why}").format(
        unit=ctx.name(d["unit"]), what=what, why=_t(d["why"])
    )
    return _line(ctx, text, 1)


_STATUSES = {"defenseless": N_("Defenseless"), "bleeding": N_("bleeding")}


def _r_gm_status(ctx: Narration, d: ev.GmStatus) -> Line:
    found = _STATUSES.get(str(d["status"]))
    status = _(found) if found is not None else _t(d["status"])
    if d.get("on"):
        text = _("GM rules {unit} {status}").format(unit=ctx.name(d["unit"]), status=status)
    else:
        text = _("GM: {unit} is no longer {status}").format(unit=ctx.name(d["unit"]), status=status)
    return _line(ctx, text)


def _r_gm_debuff(ctx: Narration, d: ev.GmDebuff) -> Line:
    name = _debuff_name(d)
    if d.get("on"):
        text = _("GM puts {name} on {unit}: Defense −{value}").format(
            name=name, unit=ctx.name(d["unit"]), value=d.get("value")
        )
    else:
        text = _("GM takes {name} off {unit}").format(name=name, unit=ctx.name(d["unit"]))
    total = d.get("total")
    return _line(ctx, text + (_(" (Defense −{total} in all)").format(total=total) if total else ""))


def _r_pursuit(ctx: Narration, d: ev.Pursuit) -> Line:
    mine = _roll(d["faces"], d["modifier"], d["total"])
    theirs = _roll(d["pursuer_faces"], d["pursuer_modifier"], d["pursuer_total"])
    text = _("pursuit ({zones}, {reading}): {unit} {mine} vs {pursuer} {theirs}: the {winner} wins").format(
        zones=_t(d["zones"]),
        reading=_t(d["reading"]),
        unit=ctx.name(d["unit"]),
        mine=mine,
        pursuer=ctx.name(d["pursuer"]),
        theirs=theirs,
        winner=_t(d["winner"]),
    )
    return _line(ctx, text, 1)


def _check(label: str) -> Render:
    def render(ctx: Narration, d: ev.UnitCheck) -> Line:
        roll = _roll(d["faces"], d["modifier"], d["total"])
        text = pgettext("sengoku", "{unit}: {label} {roll} vs {target}: {result}").format(
            unit=ctx.name(d["unit"]), label=_(label), roll=roll, target=d["target"], result=_ok(d["success"])
        )
        return Line(text, ctx.rule, ctx.steps(d), indent=1)

    return render


# ------------------------------------------------------------------------------------------ the lull


def _r_yoma(ctx: Narration, d: ev.YomaRoll) -> Line:
    text = _("GM rolls the Yoma Encounter Table: d100 {roll}: {name}: {effect}").format(
        roll=d["roll"], name=_t(d["name"]), effect=_t(d["effect"])
    )
    return _line(ctx, text, 1)


def _r_arrives(ctx: Narration, d: ev.Arrives) -> Line:
    who = _t(d["name"]) if d.get("name") else ctx.name(d["unit"])
    return _line(ctx, _("{unit} arrives in {zone}").format(unit=who, zone=_t(d["zone"])), 2)


def _r_upkeep(ctx: Narration, d: ev.Upkeep) -> Line:
    text = f"{ctx.name(d['unit'])}: {_m(ctx, d['maneuver'])}"
    if d.get("target") is not None:
        text = pgettext("sengoku", "{text} on {target}").format(text=text, target=ctx.name(d["target"]))
    if d.get("choice"):
        text += f" ({_t(d['choice'])})"
    if d.get("effect"):
        text += f": {_t(d['effect'])}"
    return _line(ctx, text, 1)


def _r_round(ctx: Narration, d: ev.Round) -> Line:
    return _line(ctx, _("== Round {round} ==").format(round=d["round"]), heading=True)


def _r_hold(ctx: Narration, d: ev.Hold) -> Line:
    collapse = (
        _(" (stance collapse +{surcharge})").format(surcharge=d["surcharge"]) if d.get("surcharge") else ""
    )
    text = _("{unit} holds: Energy {before} → {after}{collapse}").format(
        unit=ctx.name(d["unit"]), before=d["before"], after=d["after"], collapse=collapse
    )
    return _line(ctx, text)


def _r_energy_changed(ctx: Narration, d: ev.EnergyChanged) -> Line:
    who = ctx.name(d["unit"])
    if d["before"] != d["after"]:
        return _line(
            ctx,
            _("{unit}: Energy {before} → {after}").format(unit=who, before=d["before"], after=d["after"]),
            3,
        )
    text = _("{unit}: Energy stays at {energy} ({cause}: nothing to change)").format(
        unit=who, energy=d["after"], cause=_t(d["cause"])
    )
    return _line(ctx, text, 3)


def _r_ambush(ctx: Narration, d: ev.Ambush) -> Line:
    if d.get("status"):
        text = _("ambush ({condition}): {target} is caught Defenseless")
    else:
        text = _("ambush ({condition}): {target} counts as Defenseless against {attacker}")
    text = text.format(
        condition=_t(d["condition"]), target=ctx.name(d["target"]), attacker=ctx.name(d["attacker"])
    )
    return _line(ctx, text, 2)


def _r_change_check(ctx: Narration, d: ev.ChangeCheck) -> Line:
    roll = _roll(d["faces"], d["modifier"], d["total"])
    outcome = _("clear") if d["success"] else _("caught")
    text = _("{unit} tries to get clear of the {change}: {roll} vs {target}: {outcome}").format(
        unit=ctx.name(d["unit"]),
        change=_change_word(d["change"]),
        roll=roll,
        target=d["target"],
        outcome=outcome,
    )
    return Line(text, ctx.rule, ctx.steps(d), indent=1)


def _r_change_ends(ctx: Narration, d: ev.ChangeEnds) -> Line:
    text = _("the {change} in {zone} is over").format(change=_change_word(d["change"]), zone=_t(d["zone"]))
    return _line(ctx, text, 1)


RENDERERS: dict[str, Render] = {
    # the round and the count
    "battle_begins": _said(N_("Battle: {name}")),
    "round": _r_round,
    "energy_reset": _r_energy,
    "count": _r_count,
    "tie": _r_tie,
    "breath": _r_breath,
    "energy_spent": _said(N_("Energy {before} → {after}"), 1),
    "initiative_used": _said(N_("{unit}'s initiative +{initiative} is used: Energy is {energy}"), 1),
    "hold": _r_hold,
    "pass": _said(N_("{unit} passes with Energy {energy}")),
    "overload_check": _check(N_("overload check")),
    "energy_lost": _said(N_("{unit} loses Energy: {before} → {after}"), 2),
    # attacks and reactions
    "attack": _r_attack,
    "attack_check": _r_attack_check,
    "hit": _r_blow(N_("a hit")),
    "critical_hit": _r_blow(N_("a Critical Hit")),
    "miss": _said(N_("it misses {target}"), 2),
    "wounds_lost": _said(N_("{unit}: Wounds {before} → {after}"), 2, hidden=N_("{unit} loses Wounds")),
    "wounds_behind": _said(N_("{wounds} Wound(s) to the enemy behind {behind}"), 2),
    "effect": _said(N_("for the GM, on {target}: {text}"), 2),
    "debuff": _r_debuff,
    "bleed": _said(N_("{unit} bleeds: {effect}"), 2),
    "bleeds": _said(N_("{unit} bleeds: Wounds {before} → {after}"), 1, hidden=N_("{unit} bleeds")),
    "wound_bound": _said(N_("{unit} binds {target}'s wound: the bleeding stops"), 1),
    "fumble": _said(N_("Fumble! {attacker} stumbles"), 2),
    "fumble_offered": _said(
        N_("the GM may add a fumble's extras on {unit} (drop weapon, stance collapse, foot slip)"), 2
    ),
    "fumble_extra": _said(N_("the GM's extra on {unit}'s Fumble: {effect}"), 2),
    "fumble_extras_none": _said(N_("the GM adds nothing to {unit}'s Fumble"), 2),
    "forced_move": _said(N_("{unit} slips from {frm} to {to}"), 2),
    "weapon_dropped": _r_weapon_dropped,
    "weapon_broken": _r_weapon(N_("{unit}'s {weapon} breaks: lost for the rest of the combat")),
    "weapon_kept": _r_weapon_kept,
    "weapon_picked_up": _r_weapon(N_("{unit}'s {weapon} is picked up again")),
    "energy_changed": _r_energy_changed,
    "decisive_moment": _r_table,
    "critical_mistake": _r_table,
    "table_effect": _r_table_effect,
    "fate_spent": _r_fate,
    "fate_offered": _r_fate_offered,
    "last_bastion_offered": _r_last_bastion_offered,
    "fate_intervention": _r_fate_intervention,
    "last_bastion": _r_last_bastion,
    "fate_declined": _r_fate_declined,
    "ambush": _r_ambush,
    "ambush_immune": _said(N_("{target} cannot be ambushed by {attacker} ({condition})"), 2),
    "reaction_offered": _said(N_("{unit} holds a reservation against {attacker}'s {maneuver}"), 2),
    "declined": _said(N_("{unit} lets {attacker}'s attack through and keeps its reservation"), 2),
    "reaction": _r_reaction,
    "behind": _r_behind,
    "armor_broken": _r_armor_broken,
    "armor_holds": _r_armor_holds,
    # statuses
    "defenseless": _said(N_("{unit} is Defenseless ({cause})"), 2),
    "defenseless_ends": _said(N_("{unit} is no longer Defenseless ({when})"), 1),
    "incapacitated": _said(N_("{unit} is Incapacitated"), 2),
    "removed": _said(N_("{unit} is removed from {zone}: {why}"), 2),
    "cohesion_loss": _said(
        N_("a Lord has fallen: the squads of {faction} lose {amount} Cohesion ({scope})"), 2
    ),
    "cohesion": _said(N_("{unit}: Cohesion {before} → {after} ({why})"), 2),
    "routed": _said(N_("{unit} routs"), 2),
    "rallied": _said(N_("{unit} rallies"), 2),
    "ward_holds": _said(N_("{unit}'s ward holds: Cohesion stays at {cohesion}"), 2),
    # other maneuvers
    "reserve": _said(
        N_("{unit} reserves {maneuver} (prepaid)"), 1, hidden=N_("{unit} reserves a defense (prepaid)")
    ),
    "stance": _said(N_("{unit} declares {maneuver}"), 1),
    "stance_released": _said(N_("{unit} releases {stances}"), 1),
    "kata": _said(N_("{unit} performs {maneuver}: {effect}"), 1),
    "move": _r_move,
    "forfeit": _r_forfeit,
    "pursuit": _r_pursuit,
    "retreat_failed": _said(
        N_("{unit}'s retreat fails: Defenseless, Energy lost, −{exhaustion} next round"), 2
    ),
    "retreated": _said(N_("{unit} leaves the battlefield from {frm}"), 1),
    "cohesion_check": _check(N_("Cohesion check")),
    "reload": _said(N_("{unit} reloads"), 1),
    # the lull
    "lull": _said(N_("-- lull phase (round {round}) --")),
    "reservations_expire": _said(
        N_("{unit}'s reservations expire: {maneuvers}"), 1, hidden=N_("{unit}'s reservations expire")
    ),
    "limits_reset": _said(N_("{unit}: limited maneuvers reset: {maneuvers}"), 1),
    "debuffs_count_down": _said(N_("{unit}: {ended}"), 1),
    "ward_ends": _said(N_("{unit}'s Cohesion ward ends"), 1),
    "upkeep": _r_upkeep,
    "upkeep_done": _said(N_("{unit} ends its upkeep"), 1),
    "wounds_recovered": _said(
        N_("{unit}: Wounds {before} → {after}"), 2, hidden=N_("{unit} recovers Wounds")
    ),
    "ward": _said(N_("{unit} cannot rout until the next lull"), 2),
    "yoma_roll": _r_yoma,
    "arrives": _r_arrives,
    "environment_skipped": _r_env_skipped,
    "battlefield_change": _r_change,
    "change_check": _r_change_check,
    "change_ends": _r_change_ends,
    "wounds_lost_to": _r_lost_to,
    "shikigami_moved": _said(N_("{unit} is sent from {frm} to {to}"), 2),
    # the end and the GM
    "combat_over": _r_over,
    "death_check": _r_death,
    "honor_follow_up": _r_honor,
    "gm_set_wounds": _said(
        N_("GM sets {unit}'s Wounds {before} → {after}"), hidden=N_("GM sets {unit}'s Wounds")
    ),
    "gm_status": _r_gm_status,
    "gm_debuff": _r_gm_debuff,
}


def summary(state: BattleState) -> str:
    """Who won, who is left standing with how many Wounds, who fell (and their death checks), who left."""
    r = state.result
    lines = [_("Summary")]
    if r is not None:
        winner = state.side(r.winner).name if r.winner else _("nobody")
        lines.append(
            "  "
            + _("winner: {winner} (round {round}: {reason})").format(
                winner=winner, round=r.round, reason=_t(r.reason)
            )
        )
    deaths = {d.unit: d for d in state.deaths}
    honor = {h.unit: h for h in state.honor}
    for side in state.sides:
        lines.append(f"  {side.name}:")
        for u in state.units:
            if u.side != side.id:
                continue
            if u.incapacitated:
                d = deaths.get(u.id)
                if d is None:
                    text = _("Incapacitated")
                elif d.survives:
                    text = _("Incapacitated — survives, seriously injured")
                else:
                    text = _("Incapacitated — dies")
            elif u.retreated:
                h = honor.get(u.id)
                text = (
                    _("retreated (honor follow-up: {follow_up})").format(follow_up=_t(h.follow_up))
                    if h is not None
                    else _("retreated")
                )
            else:
                text = _("Wounds {wounds}/{wounds_max} in {zone}").format(
                    wounds=u.wounds, wounds_max=u.wounds_max, zone=_t(u.zone)
                ) + (_(", routed") if u.routed else "")
                if u.cohesion is not None:
                    text += _(", Cohesion {cohesion}").format(cohesion=u.cohesion)
            lines.append(f"    {u.name}: {text}")
    return "\n".join(lines) + "\n"
