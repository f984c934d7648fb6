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


def _m(ctx: Narration, mid: Any) -> str:
    return ctx.names.get(f"maneuver:{mid}", str(mid))


def _use(ctx: Narration, use: Data) -> str:
    text = _m(ctx, use["maneuver"])
    if use.get("weapon"):
        text += f" ({str(use['weapon']).replace('-', ' ')})"
    if use.get("release"):
        text = f"release {text}"
    if use.get("target"):
        text += f" → {ctx.name(use['target'])}"
    if use.get("to"):
        text += f" → {use['to']}"
    if use.get("aim"):
        text += f" (Aim Focus +{use['aim']})"
    if use.get("squads"):
        text += f" with {', '.join(ctx.name(s) for s in use['squads'])}"
    return text


def _roll(faces: Any, modifier: int, total: int) -> str:
    sign = "-" if modifier < 0 else "+"
    return f"2d10 {list(faces)} {sign} {abs(modifier)} = {total}"


def _line(ctx: Narration, text: str, indent: int = 0, *, heading: bool = False) -> Line:
    return Line(text, ctx.rule, indent=indent, heading=heading)


class _Said:
    """A renderer from a template: ``{unit}``-like keys become names, ``{maneuver}`` the maneuver's. A
    value another side may not see is null in its view: the ``hidden`` template says the event without
    it (else the value reads "(not seen)"). ``fields`` are the data keys the templates read (a test holds
    them to the kind's declared data)."""

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
            k: ("(not seen)" if x is None else ctx.name(x) if k in _PEOPLE else x) for k, x in d.items()
        }
        if d.get("maneuver") is not None:
            values["maneuver"] = _m(ctx, d["maneuver"])
        for key in ("maneuvers", "stances"):
            if isinstance(d.get(key), list):
                values[key] = ", ".join(_m(ctx, x) for x in d[key])
        if isinstance(d.get("ended"), list):
            values["ended"] = "; ".join(str(x) for x in d["ended"])
        return _line(ctx, self.text.format_map(_Default(values)), self.indent)


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
        extra.append(f"overload −{d['overload']}")
    if d.get("exhaustion"):
        extra.append(f"exhaustion −{d['exhaustion']}")
    if d.get("initiative"):
        extra.append(f"initiative +{d['initiative']} on the first breath")
    status = [f"Wounds {d['wounds']}/{d['wounds_max']}" if d.get("wounds") is not None else "Wounds not seen"]
    if d.get("cohesion") is not None:
        status.append(f"Cohesion {d['cohesion']}")
    if d.get("stances"):
        status.append("holds " + ", ".join(_m(ctx, s) for s in d["stances"]))
    if d.get("routed"):
        status.append("routed")
    more = f" ({'; '.join(extra)})" if extra else ""
    who = f"{ctx.name(d['unit'])} in {d['zone']}: Energy {d['energy']}{more}; {', '.join(status)}"
    armor = ctx.steps(d, "armor")
    return Line(who, ctx.rule, armor if len(armor) > 1 else (), indent=1)


def _r_count(ctx: Narration, d: ev.Count) -> Line:
    return _line(ctx, f"-- count {d['count']}: {', '.join(ctx.name(u) for u in d['units'])} --")


def _r_tie(ctx: Narration, d: ev.Tie) -> Line:
    order = " before ".join(ctx.name(u) for u in d["order"])
    return _line(ctx, f"tie at {d['count']}: {order} ({', '.join(d['keys'])})", 1)


def _r_breath(ctx: Narration, d: ev.Breath) -> Line:
    over = " OVERLOAD" if d.get("overload") else ""
    who = f"{ctx.name(d['unit'])} breathes at count {d['count']}"
    if d.get("uses") is None or d.get("costs") is None:  # another side's: its maneuvers show as they resolve
        return Line(f"{who}: spends {d['spent']} Energy (limit {d['limit']}){over}", ctx.rule)
    uses = " + ".join(f"{_use(ctx, u)} ({c})" for u, c in zip(d["uses"], d["costs"], strict=True))
    text = f"{who}: {uses} = {d['spent']} of {d['limit']}{over}"
    costs = [c for c in d.get("cost_steps", []) if len(c) > 1]  # a bare price says nothing more
    steps = tuple(s for c in costs for s in ctx.steps({"s": c}, "s"))
    return Line(text, ctx.rule, steps)


def _r_over(ctx: Narration, d: ev.CombatOver) -> Line:
    winner = ctx.name(d["winner"]) if d.get("winner") else "nobody"
    text = f"== Combat over in round {d['round']}: {d['reason']}; winner: {winner} =="
    return _line(ctx, text, heading=True)


def _r_death(ctx: Narration, d: ev.DeathCheck) -> Line:
    fate = d["outcome"] if d["survives"] else "dies"
    roll = _roll(d["faces"], d["modifier"], d["total"])
    return Line(
        f"death check, {ctx.name(d['unit'])}: {roll} vs {d['target']}: {fate}",
        ctx.rule,
        ctx.steps(d),
        indent=1,
    )


def _r_honor(ctx: Narration, d: ev.HonorFollowUp) -> Line:
    text = f"honor follow-up, {ctx.name(d['unit'])} ({d['honor']}): {d['follow_up']}"
    if d.get("penalty"):
        text += f" {d['penalty']}"
    check = d.get("check")
    if isinstance(check, Mapping):
        text += f" (a {check.get('attribute')} check against {check.get('target')})"
    if d.get("when"):
        text += f", {d['when']}"
    return _line(ctx, text, 1)


# ------------------------------------------------------------------------------------------ attacks


def _r_attack(ctx: Narration, d: ev.Attack) -> Line:
    who = f"{ctx.name(d['attacker'])}'s {d['technique']} → {ctx.name(d['target'])}"
    if d.get("automatic_critical"):
        text = f"{who}: [Ambush] from infiltration, automatic Critical Hit with no check"
        return Line(text, ctx.rule, ctx.steps(d), indent=1)
    if d.get("weapon"):
        who = f"{ctx.name(d['attacker'])}'s {d['technique']} ({str(d['weapon']).replace('-', ' ')})" + (
            f" → {ctx.name(d['target'])}"
        )
    ambush = " (ambush: target Defenseless)" if d.get("ambush") else ""
    outcome = str(d["outcome"]).replace("critical", "Critical Hit").replace("fumble", "Fumble")
    if d.get("last_bastion"):
        outcome += " (Last Bastion: the hit check misses)"
    if d.get("nullified"):
        outcome += ", nullified"
    roll = _roll(d["faces"], d["modifier"], d["total"])
    fate = " (Fate moved a die)" if d.get("fate_die") is not None else ""
    text = f"{who}: {roll}{fate} vs Defense {d['defense']}: {outcome}{ambush}"
    steps = (*ctx.steps(d, "aim_steps"), *ctx.steps(d, "modifier_steps"), *ctx.steps(d, "defense_steps"))
    return Line(text, ctx.rule, steps, indent=1)


def _r_attack_check(ctx: Narration, d: ev.AttackCheck) -> Line | None:
    if not ctx.verbose:
        return None  # the attack's own line says it
    roll = _roll(d["faces"], d["modifier"], d["total"])
    return _line(ctx, f"the attack check: {roll} against Defense {d['defense']}: {d['outcome']}", 2)


def _r_reaction(ctx: Narration, d: ev.Reaction) -> Line:
    who = f"{ctx.name(d['unit'])}'s {_m(ctx, d['maneuver'])} (0 further Energy)"
    if not d.get("rolled"):
        return _line(ctx, f"{who}: {d['effect']}", 2)
    roll = _roll(d["faces"], d["modifier"], d["total"])
    return Line(f"{who}: {roll} vs {d['against']}: {d['effect']}", ctx.rule, ctx.steps(d), indent=2)


def _r_table(ctx: Narration, d: ev.TableRow) -> Line:
    table = str(d.get("table", "")).replace("_", " ")
    return _line(ctx, f"d100 {d['roll']} on the {table} table: {d['name']}: {d['effect']}", 2)


def _r_table_effect(ctx: Narration, d: ev.TableEffect) -> Line:
    return _line(ctx, f"→ {d['text']}", 3)


def _r_debuff(ctx: Narration, d: ev.Debuff) -> Line:
    """The battle puts a Defense −N source on the unit (the attack resolution's own word of it, naming
    the target, stays out of the battle's log)."""
    name = d.get("name") or str(d["debuff"]).replace("-", " ")
    total = d.get("total")
    more = f", Defense −{total} in all" if total is not None and total != d["value"] else ""
    return _line(ctx, f"{ctx.name(d['unit'])}: Defense −{d['value']} ({name}){more}", 2)


def _r_blow(label: str) -> Render:
    def render(ctx: Narration, d: ev.Blow) -> Line:
        wounds = int(d.get("wounds", 0))
        took = f"{wounds} Wound(s)" if wounds else "no Wounds (the blow's effect is all it does)"
        return _line(ctx, f"{label} on {ctx.name(d['target'])}: {took}", 2)

    return render


def _offered(ctx: Narration, d: ev.Offered, attacker: str) -> str:
    """The roll an attack waits on (SG.FAT.1-2), said in full."""
    who = f"{ctx.name(attacker)}'s {d['technique']} → {ctx.name(d['target'])}"
    roll = _roll(d["faces"], d["modifier"], d["total"])
    outcome = str(d["outcome"]).replace("critical", "Critical Hit").replace("success", "hit")
    return f"{who}: {roll} vs Defense {d['defense']}: {outcome}"


def _r_fate_offered(ctx: Narration, d: ev.FateOffered) -> Line:
    """The attacker (``unit``) may move a die with Fate (SG.FAT.1)."""
    dies = " or ".join(str(int(x) + 1) for x in d["dies"])
    who = ctx.name(d["unit"])
    text = f"{_offered(ctx, d, d['unit'])}; {who} may spend Fate to move die {dies} (a Critical Hit)"
    return _line(ctx, text, 1)


def _r_last_bastion_offered(ctx: Narration, d: ev.LastBastionOffered) -> Line:
    """The target (``unit``) may make the hit check miss with Last Bastion (SG.FAT.2)."""
    left = f" ({d['wounds']} of {d['wounds_now']})" if d.get("wounds_now") is not None else ""
    text = (
        f"{_offered(ctx, d, d['attacker'])}; it would take {ctx.name(d['unit'])}'s last Wounds{left}: "
        "Last Bastion may make it miss"
    )
    return _line(ctx, text, 1)


def _r_fate_intervention(ctx: Narration, d: ev.FateIntervention) -> Line:
    return _line(ctx, f"{ctx.name(d['unit'])} calls on Fate: die {int(d['die']) + 1} moves", 1)


def _r_last_bastion(ctx: Narration, d: ev.OfUnit) -> Line:
    return _line(ctx, f"{ctx.name(d['unit'])} calls on Fate: Last Bastion", 1)


def _r_fate_declined(ctx: Narration, d: ev.OfUnit) -> Line:
    what = "Last Bastion" if ctx.rule == "SG.FAT.2" else "Fate Intervention"
    return _line(ctx, f"{ctx.name(d['unit'])} spends no Fate (no {what})", 1)


def _weapon(ctx: Narration, d: ev.Weapon, verb: str) -> str:
    return f"{ctx.name(d['unit'])}'s {str(d['weapon'] or 'weapon').replace('-', ' ')} {verb}"


def _r_weapon(verb: str) -> Render:
    def render(ctx: Narration, d: ev.Weapon) -> Line:
        return _line(ctx, _weapon(ctx, d, verb), 2)

    return render


def _r_weapon_dropped(ctx: Narration, d: ev.WeaponDropped) -> Line:
    text = _weapon(ctx, d, "falls to the ground")
    if d.get("pickup_cost") is not None:
        text += f": picking it up costs {d['pickup_cost']} Energy"
    return _line(ctx, text, 2)


def _r_weapon_kept(ctx: Narration, d: ev.WeaponKept) -> Line:
    return _line(ctx, _weapon(ctx, d, "stays in hand") + (f" ({d['why']})" if d.get("why") else ""), 2)


def _r_lost_to(ctx: Narration, d: ev.LostTo) -> Line:
    count = f": {d['before']} → {d['after']}" if d.get("after") is not None else ""
    return _line(ctx, f"{ctx.name(d['unit'])} loses Wounds to {d['cause']}{count}", 2)


def _r_change(ctx: Narration, d: ev.BattlefieldChange) -> Line:
    until = f" (until the lull of round {d['until']})" if d.get("until") else ""
    return _line(ctx, f"GM: {d['name']} in {d['zone']}{until}: {d['effect']}", 1)


def _r_env_skipped(ctx: Narration, d: ev.EnvironmentSkipped) -> Line:
    what = [
        w
        for w, on in (("roll for yoma", d.get("yoma", True)), ("change the battlefield", d.get("changes")))
        if on
    ]
    return _line(ctx, f"The GM does not {' or '.join(what) or 'act'} this lull", 1)


def _r_fate(ctx: Narration, d: ev.FateSpent) -> Line:
    purpose = {"intervention": "Fate Intervention", "last_bastion": "Last Bastion"}.get(
        str(d.get("purpose")), str(d.get("purpose"))
    )
    text = f"{ctx.name(d['unit'])} spends {d['points']} Fate point(s) on {purpose}"
    if d.get("faces_after"):
        text += f": the dice {d.get('faces_before')} become {d['faces_after']}"
    return _line(ctx, text, 2)


def _source(d: ev.ArmorBroken | ev.ArmorHolds) -> str:
    """A weapon's stated [Break] names its source and blow (SG.BRK.4): " (Muramasa on a Critical Hit)"."""
    return f" ({d['source']})" if d.get("source") else ""


def _r_armor_broken(ctx: Narration, d: ev.ArmorBroken) -> Line:
    return _line(
        ctx,
        f"[Break]{_source(d)}: {ctx.name(d['unit'])}'s armor loses {d['lost']} point(s) until repaired"
        f" (−{d['armor_damage']} in all)",
        2,
    )


def _r_armor_holds(ctx: Narration, d: ev.ArmorHolds) -> Line:
    return _line(ctx, f"[Break]{_source(d)}: {ctx.name(d['unit'])}'s armor holds ({d['why']})", 2)


def _r_behind(ctx: Narration, d: ev.Behind) -> Line:
    count = f", Wounds {d['before']} → {d['after']}" if d.get("after") is not None else ""
    hit = f"{ctx.name(d['unit'])}{count}" if d.get("unit") else "nobody there"
    return _line(ctx, f"{d['wounds']} Wound(s) to the enemy behind {ctx.name(d['target'])}: {hit}", 2)


# ------------------------------------------------------------------------------------------ moves


def _r_move(ctx: Narration, d: ev.Moved) -> Line:
    check = d.get("check") or {}
    roll = ""
    if check:
        result = "success" if check["success"] else "failure"
        roll = f": {_roll(check['faces'], check['modifier'], check['total'])} vs {check['target']}, {result}"
    where = f"{d['frm']} → {d['to']}" if d["moved"] else f"stays in {d['frm']}"
    inf = "; infiltrating" if d.get("infiltrating") else ""
    text = f"{ctx.name(d['unit'])}: {_m(ctx, d['maneuver'])} {where}{roll}{inf}"
    return Line(text, ctx.rule, ctx.steps(check) if check else (), indent=1)


def _r_forfeit(ctx: Narration, d: ev.Forfeit) -> Line:
    what = _use(ctx, d["use"]) if isinstance(d.get("use"), Mapping) else "maneuver"
    return _line(ctx, f"{ctx.name(d['unit'])}'s {what} is forfeited: {d['why']}", 1)


def _r_gm_status(ctx: Narration, d: ev.GmStatus) -> Line:
    status = {"defenseless": "Defenseless", "bleeding": "bleeding"}.get(str(d["status"]), str(d["status"]))
    verb = "rules" if d.get("on") else "ends"
    text = (
        f"GM {verb} {ctx.name(d['unit'])} {status}"
        if d.get("on")
        else f"GM: {ctx.name(d['unit'])} is no longer {status}"
    )
    return _line(ctx, text)


def _r_gm_debuff(ctx: Narration, d: ev.GmDebuff) -> Line:
    name = d.get("name") or str(d["debuff"]).replace("-", " ")
    if d.get("on"):
        text = f"GM puts {name} on {ctx.name(d['unit'])}: Defense −{d['value']}"
    else:
        text = f"GM takes {name} off {ctx.name(d['unit'])}"
    total = d.get("total")
    return _line(ctx, text + (f" (Defense −{total} in all)" if total else ""))


def _r_pursuit(ctx: Narration, d: ev.Pursuit) -> Line:
    mine = _roll(d["faces"], d["modifier"], d["total"])
    theirs = _roll(d["pursuer_faces"], d["pursuer_modifier"], d["pursuer_total"])
    text = (
        f"pursuit ({d['zones']}, {d['reading']}): {ctx.name(d['unit'])} {mine}"
        f" vs {ctx.name(d['pursuer'])} {theirs}: the {d['winner']} wins"
    )
    return _line(ctx, text, 1)


def _check(label: str) -> Render:
    def render(ctx: Narration, d: ev.UnitCheck) -> Line:
        ok = "success" if d["success"] else "failure"
        roll = _roll(d["faces"], d["modifier"], d["total"])
        text = f"{ctx.name(d['unit'])}: {label} {roll} vs {d['target']}: {ok}"
        return Line(text, ctx.rule, ctx.steps(d), indent=1)

    return render


# ------------------------------------------------------------------------------------------ the lull


def _r_yoma(ctx: Narration, d: ev.YomaRoll) -> Line:
    text = f"GM rolls the Yoma Encounter Table: d100 {d['roll']}: {d['name']}: {d['effect']}"
    return _line(ctx, text, 1)


def _r_arrives(ctx: Narration, d: ev.Arrives) -> Line:
    return _line(ctx, f"{d.get('name') or ctx.name(d['unit'])} arrives in {d['zone']}", 2)


def _r_upkeep(ctx: Narration, d: ev.Upkeep) -> Line:
    text = f"{ctx.name(d['unit'])}: {_m(ctx, d['maneuver'])}"
    if d.get("target") is not None:
        text += f" on {ctx.name(d['target'])}"
    if d.get("choice"):
        text += f" ({d['choice']})"
    if d.get("effect"):
        text += f": {d['effect']}"
    return _line(ctx, text, 1)


def _r_round(ctx: Narration, d: ev.Round) -> Line:
    return _line(ctx, f"== Round {d['round']} ==", heading=True)


def _r_hold(ctx: Narration, d: ev.Hold) -> Line:
    collapse = f" (stance collapse +{d['surcharge']})" if d.get("surcharge") else ""
    return _line(ctx, f"{ctx.name(d['unit'])} holds: Energy {d['before']} → {d['after']}{collapse}")


def _r_energy_changed(ctx: Narration, d: ev.EnergyChanged) -> Line:
    who = ctx.name(d["unit"])
    if d["before"] != d["after"]:
        return _line(ctx, f"{who}: Energy {d['before']} → {d['after']}", 3)
    return _line(ctx, f"{who}: Energy stays at {d['after']} ({d['cause']}: nothing to change)", 3)


def _r_ambush(ctx: Narration, d: ev.Ambush) -> Line:
    caught = (
        "is caught Defenseless"
        if d.get("status")
        else f"counts as Defenseless against {ctx.name(d['attacker'])}"
    )
    return _line(ctx, f"ambush ({d['condition']}): {ctx.name(d['target'])} {caught}", 2)


def _r_change_check(ctx: Narration, d: ev.ChangeCheck) -> Line:
    roll = _roll(d["faces"], d["modifier"], d["total"])
    outcome = "clear" if d["success"] else "caught"
    text = (
        f"{ctx.name(d['unit'])} tries to get clear of the {d['change']}: {roll} vs {d['target']}: {outcome}"
    )
    return Line(text, ctx.rule, ctx.steps(d), indent=1)


RENDERERS: dict[str, Render] = {
    # the round and the count
    "battle_begins": _said("Battle: {name}"),
    "round": _r_round,
    "energy_reset": _r_energy,
    "count": _r_count,
    "tie": _r_tie,
    "breath": _r_breath,
    "energy_spent": _said("Energy {before} → {after}", 1),
    "initiative_used": _said("{unit}'s initiative +{initiative} is used: Energy is {energy}", 1),
    "hold": _r_hold,
    "pass": _said("{unit} passes with Energy {energy}"),
    "overload_check": _check("overload check"),
    "energy_lost": _said("{unit} loses Energy: {before} → {after}", 2),
    # attacks and reactions
    "attack": _r_attack,
    "attack_check": _r_attack_check,
    "hit": _r_blow("a hit"),
    "critical_hit": _r_blow("a Critical Hit"),
    "miss": _said("it misses {target}", 2),
    "wounds_lost": _said("{unit}: Wounds {before} → {after}", 2, hidden="{unit} loses Wounds"),
    "wounds_behind": _said("{wounds} Wound(s) to the enemy behind {behind}", 2),
    "effect": _said("for the GM, on {target}: {text}", 2),
    "debuff": _r_debuff,
    "bleed": _said("{unit} bleeds: {effect}", 2),
    "bleeds": _said("{unit} bleeds: Wounds {before} → {after}", 1, hidden="{unit} bleeds"),
    "wound_bound": _said("{unit} binds {target}'s wound: the bleeding stops", 1),
    "fumble": _said("Fumble! {attacker} stumbles", 2),
    "fumble_offered": _said(
        "the GM may add a fumble's extras on {unit} (drop weapon, stance collapse, foot slip)", 2
    ),
    "fumble_extra": _said("the GM's extra on {unit}'s Fumble: {effect}", 2),
    "fumble_extras_none": _said("the GM adds nothing to {unit}'s Fumble", 2),
    "forced_move": _said("{unit} slips from {frm} to {to}", 2),
    "weapon_dropped": _r_weapon_dropped,
    "weapon_broken": _r_weapon("breaks: lost for the rest of the combat"),
    "weapon_kept": _r_weapon_kept,
    "weapon_picked_up": _r_weapon("is picked up again"),
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
    "ambush_immune": _said("{target} cannot be ambushed by {attacker} ({condition})", 2),
    "reaction_offered": _said("{unit} holds a reservation against {attacker}'s {maneuver}", 2),
    "declined": _said("{unit} lets {attacker}'s attack through and keeps its reservation", 2),
    "reaction": _r_reaction,
    "behind": _r_behind,
    "armor_broken": _r_armor_broken,
    "armor_holds": _r_armor_holds,
    # statuses
    "defenseless": _said("{unit} is Defenseless ({cause})", 2),
    "defenseless_ends": _said("{unit} is no longer Defenseless ({when})", 1),
    "incapacitated": _said("{unit} is Incapacitated", 2),
    "removed": _said("{unit} is removed from {zone}: {why}", 2),
    "cohesion_loss": _said("a Lord has fallen: the squads of {faction} lose {amount} Cohesion ({scope})", 2),
    "cohesion": _said("{unit}: Cohesion {before} → {after} ({why})", 2),
    "routed": _said("{unit} routs", 2),
    "rallied": _said("{unit} rallies", 2),
    "ward_holds": _said("{unit}'s ward holds: Cohesion stays at {cohesion}", 2),
    # other maneuvers
    "reserve": _said("{unit} reserves {maneuver} (prepaid)", 1, hidden="{unit} reserves a defense (prepaid)"),
    "stance": _said("{unit} declares {maneuver}", 1),
    "stance_released": _said("{unit} releases {stances}", 1),
    "kata": _said("{unit} performs {maneuver}: {effect}", 1),
    "move": _r_move,
    "forfeit": _r_forfeit,
    "pursuit": _r_pursuit,
    "retreat_failed": _said("{unit}'s retreat fails: Defenseless, Energy lost, −{exhaustion} next round", 2),
    "retreated": _said("{unit} leaves the battlefield from {frm}", 1),
    "cohesion_check": _check("Cohesion check"),
    "reload": _said("{unit} reloads", 1),
    # the lull
    "lull": _said("-- lull phase (round {round}) --"),
    "reservations_expire": _said(
        "{unit}'s reservations expire: {maneuvers}", 1, hidden="{unit}'s reservations expire"
    ),
    "limits_reset": _said("{unit}: limited maneuvers reset: {maneuvers}", 1),
    "debuffs_count_down": _said("{unit}: {ended}", 1),
    "ward_ends": _said("{unit}'s Cohesion ward ends", 1),
    "upkeep": _r_upkeep,
    "upkeep_done": _said("{unit} ends its upkeep", 1),
    "wounds_recovered": _said("{unit}: Wounds {before} → {after}", 2, hidden="{unit} recovers Wounds"),
    "ward": _said("{unit} cannot rout until the next lull", 2),
    "yoma_roll": _r_yoma,
    "arrives": _r_arrives,
    "environment_skipped": _r_env_skipped,
    "battlefield_change": _r_change,
    "change_check": _r_change_check,
    "change_ends": _said("the {change} in {zone} is over", 1),
    "wounds_lost_to": _r_lost_to,
    "shikigami_moved": _said("{unit} is sent from {frm} to {to}", 2),
    # the end and the GM
    "combat_over": _r_over,
    "death_check": _r_death,
    "honor_follow_up": _r_honor,
    "gm_set_wounds": _said("GM sets {unit}'s Wounds {before} → {after}", hidden="GM sets {unit}'s Wounds"),
    "gm_status": _r_gm_status,
    "gm_debuff": _r_gm_debuff,
}


def summary(state: BattleState) -> str:
    """Who won, who is left standing with how many Wounds, who fell (and their death checks), who left."""
    r = state.result
    lines = ["Summary"]
    if r is not None:
        winner = state.side(r.winner).name if r.winner else "nobody"
        lines.append(f"  winner: {winner} (round {r.round}: {r.reason})")
    deaths = {d.unit: d for d in state.deaths}
    honor = {h.unit: h for h in state.honor}
    for side in state.sides:
        lines.append(f"  {side.name}:")
        for u in state.units:
            if u.side != side.id:
                continue
            if u.incapacitated:
                d = deaths.get(u.id)
                fate = "" if d is None else (" — survives, seriously injured" if d.survives else " — dies")
                text = f"Incapacitated{fate}"
            elif u.retreated:
                h = honor.get(u.id)
                text = "retreated" + (f" (honor follow-up: {h.follow_up})" if h is not None else "")
            else:
                text = f"Wounds {u.wounds}/{u.wounds_max} in {u.zone}" + (", routed" if u.routed else "")
                if u.cohesion is not None:
                    text += f", Cohesion {u.cohesion}"
            lines.append(f"    {u.name}: {text}")
    return "\n".join(lines) + "\n"
