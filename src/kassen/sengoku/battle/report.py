"""A readable account of a battle from its chronicle JSON, and a summary of how it ended.

The account is built from the event log alone (what ``kassen sengoku battle --json`` prints), one
renderer per event kind: rounds and counts, who breathes and with which maneuvers, every roll with both
faces, Defense breakdowns step by step, Wounds before → after, statuses as they change, the lull, and
the end with its death checks and honor follow-ups. Each line ends with the rule that made it.
"""

from __future__ import annotations

__all__ = ["account", "summary"]

from collections.abc import Callable, Mapping
from typing import Any

from kassen.sengoku.battle.state import BattleState

Data = Mapping[str, Any]
_INDENT = "    "


class _Names:
    """Unit and maneuver names for the account (ids when unknown)."""

    def __init__(self, log: Mapping[str, Any], maneuvers: Mapping[str, str]) -> None:
        initial = log.get("initial_state", {})
        self.units: dict[str, str] = {u["id"]: u["name"] for u in initial.get("units", [])}
        self.sides: dict[str, str] = {s["id"]: s["name"] for s in initial.get("sides", [])}
        self.maneuvers = dict(maneuvers)

    def u(self, uid: Any) -> str:
        return self.units.get(str(uid), str(uid)) if uid is not None else "nobody"

    def m(self, mid: Any) -> str:
        return self.maneuvers.get(str(mid), str(mid))


def _steps(steps: Any, depth: int = 2) -> list[str]:
    out = []
    for s in steps or []:
        rule = f"  [{s['rule']}]" if s.get("rule") else ""
        out.append(f"{_INDENT * depth}{s['value']:>4}  {s['reason']}{rule}")
    return out


def _use(n: _Names, use: Data) -> str:
    text = n.m(use["maneuver"])
    if use.get("release"):
        text = f"release {text}"
    if use.get("target"):
        text += f" → {n.u(use['target'])}"
    if use.get("to"):
        text += f" → {use['to']}"
    if use.get("aim"):
        text += f" (Aim Focus +{use['aim']})"
    if use.get("squads"):
        text += f" with {', '.join(n.u(s) for s in use['squads'])}"
    return text


def _roll(faces: Any, modifier: int, total: int) -> str:
    sign = "-" if modifier < 0 else "+"
    return f"2d10 {list(faces)} {sign} {abs(modifier)} = {total}"


def _r_round(n: _Names, d: Data, v: bool) -> list[str]:
    return ["", f"== Round {d['round']} =="]


def _r_energy(n: _Names, d: Data, v: bool) -> list[str]:
    extra = []
    if d.get("overload"):
        extra.append(f"overload −{d['overload']}")
    if d.get("exhaustion"):
        extra.append(f"exhaustion −{d['exhaustion']}")
    if d.get("initiative"):
        extra.append(f"initiative +{d['initiative']} on the first breath")
    status = [f"Wounds {d['wounds']}/{d['wounds_max']}"]
    if d.get("cohesion") is not None:
        status.append(f"Cohesion {d['cohesion']}")
    if d.get("stances"):
        status.append("holds " + ", ".join(n.m(s) for s in d["stances"]))
    if d.get("routed"):
        status.append("routed")
    more = f" ({'; '.join(extra)})" if extra else ""
    return [f"  {n.u(d['unit'])} in {d['zone']}: Energy {d['energy']}{more}; {', '.join(status)}"]


def _r_count(n: _Names, d: Data, v: bool) -> list[str]:
    return [f"-- count {d['count']}: {', '.join(n.u(u) for u in d['units'])} --"]


def _r_tie(n: _Names, d: Data, v: bool) -> list[str]:
    keys = ", ".join(d["keys"])
    return [f"  tie at {d['count']}: {' before '.join(n.u(u) for u in d['order'])} ({keys})"]


def _r_breath(n: _Names, d: Data, v: bool) -> list[str]:
    uses = " + ".join(f"{_use(n, u)} ({c})" for u, c in zip(d["uses"], d["costs"], strict=True))
    over = " OVERLOAD" if d.get("overload") else ""
    lines = [f"{n.u(d['unit'])} breathes at count {d['count']}: {uses} = {d['spent']} of {d['limit']}{over}"]
    if v:
        for steps in d.get("cost_steps", []):
            if len(steps) > 1:
                lines += _steps(steps)
    return lines


def _r_spent(n: _Names, d: Data, v: bool) -> list[str]:
    return [f"  Energy {d['before']} → {d['after']}"]


def _r_attack(n: _Names, d: Data, v: bool) -> list[str]:
    who = f"{n.u(d['attacker'])}'s {d['technique']} → {n.u(d['target'])}"
    if d.get("automatic_critical"):
        lines = [f"  {who}: [Ambush] from infiltration, automatic Critical Hit with no check"]
    else:
        ambush = " (ambush: target counts as Defenseless)" if d.get("ambush") else ""
        outcome = str(d["outcome"]).replace("critical", "Critical Hit").replace("fumble", "Fumble")
        if d.get("nullified"):
            outcome += ", nullified"
        lines = [
            f"  {who}: {_roll(d['faces'], d['modifier'], d['total'])} vs Defense {d['defense']}: "
            f"{outcome}{ambush}"
        ]
        if v:
            lines += _steps(d.get("modifier_steps"))
            lines += _steps(d.get("defense_steps"))
    return lines


def _r_wounds(n: _Names, d: Data, v: bool) -> list[str]:
    return [f"    {d['unit']}: Wounds {d['before']} → {d['after']}"]


def _r_reaction_offered(n: _Names, d: Data, v: bool) -> list[str]:
    return [f"    {n.u(d['unit'])} holds a reservation against {n.u(d['attacker'])}'s {n.m(d['maneuver'])}"]


def _r_reaction(n: _Names, d: Data, v: bool) -> list[str]:
    who = f"{n.u(d['unit'])}'s {n.m(d['maneuver'])} (0 further Energy)"
    if not d.get("rolled"):
        return [f"    {who}: {d['effect']}"]
    lines = [f"    {who}: {_roll(d['faces'], d['modifier'], d['total'])} vs {d['against']}: {d['effect']}"]
    if v:
        lines += _steps(d.get("steps"), 3)
    return lines


def _r_move(n: _Names, d: Data, v: bool) -> list[str]:
    check = d.get("check") or {}
    roll = ""
    if check:
        roll = f": {_roll(check['faces'], check['modifier'], check['total'])} vs {check['target']}, " + (
            "success" if check["success"] else "failure"
        )
    where = f"{d['frm']} → {d['to']}" if d["moved"] else f"stays in {d['frm']}"
    inf = "; infiltrating" if d.get("infiltrating") else ""
    return [f"  {n.u(d['unit'])}: {n.m(d['maneuver'])} {where}{roll}{inf}"]


def _simple(template: str) -> Callable[[_Names, Data, bool], list[str]]:
    def render(n: _Names, d: Data, v: bool) -> list[str]:
        values = {
            k: (n.u(x) if k in ("unit", "attacker", "target", "pursuer", "with_unit") else x)
            for k, x in d.items()
        }
        if "maneuver" in d:
            values["maneuver"] = n.m(d["maneuver"])
        for key in ("maneuvers", "stances"):
            if isinstance(d.get(key), list):
                values[key] = ", ".join(n.m(x) for x in d[key])
        return [template.format_map(_Default(values))]

    return render


class _Default(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def _r_pursuit(n: _Names, d: Data, v: bool) -> list[str]:
    return [
        f"  pursuit ({d['zones']}, {d['reading']}): "
        f"{n.u(d['unit'])} {_roll(d['faces'], d['modifier'], d['total'])}"
        f" vs {n.u(d['pursuer'])} {_roll(d['pursuer_faces'], d['pursuer_modifier'], d['pursuer_total'])}:"
        f" the {d['winner']} wins"
    ]


def _r_check(label: str) -> Callable[[_Names, Data, bool], list[str]]:
    def render(n: _Names, d: Data, v: bool) -> list[str]:
        ok = "success" if d["success"] else "failure"
        return [
            f"  {n.u(d['unit'])}: {label} {_roll(d['faces'], d['modifier'], d['total'])}"
            f" vs {d['target']}: {ok}"
        ]

    return render


def _r_death(n: _Names, d: Data, v: bool) -> list[str]:
    fate = d["outcome"] if d["survives"] else "dies"
    return [
        f"  death check, {n.u(d['unit'])}: {_roll(d['faces'], d['modifier'], d['total'])}"
        f" vs {d['target']}: {fate}"
    ]


def _r_over(n: _Names, d: Data, v: bool) -> list[str]:
    winner = n.sides.get(d["winner"], d["winner"]) if d.get("winner") else "nobody"
    return ["", f"== Combat over in round {d['round']}: {d['reason']}; winner: {winner} =="]


def _r_yoma(n: _Names, d: Data, v: bool) -> list[str]:
    return [f"  GM rolls the Yoma Encounter Table: d100 {d['roll']}: {d['name']}: {d['effect']}"]


def _r_arrives(n: _Names, d: Data, v: bool) -> list[str]:
    n.units[d["unit"]] = d.get("name", d["unit"])
    return [f"    {n.u(d['unit'])} arrives in {d['zone']}"]


_RENDER: dict[str, Callable[[_Names, Data, bool], list[str]]] = {
    "battle_begins": _simple("Battle: {name}"),
    "round": _r_round,
    "energy_reset": _r_energy,
    "count": _r_count,
    "tie": _r_tie,
    "breath": _r_breath,
    "energy_spent": _r_spent,
    "initiative_used": _simple("  initiative +{initiative} used on the first breath: Energy is {energy}"),
    "attack": _r_attack,
    "wounds_lost": _r_wounds,
    "reaction_offered": _r_reaction_offered,
    "declined": _simple("    {unit} keeps its reservation"),
    "reaction": _r_reaction,
    "reserve": _simple("  {unit} reserves {maneuver} (prepaid)"),
    "stance": _simple("  {unit} declares {maneuver}"),
    "stance_released": _simple("  {unit} releases {stances}"),
    "move": _r_move,
    "forfeit": lambda n, d, v: [f"  {n.u(d['unit'])}'s {_use(n, d['use'])} is forfeited: {d['why']}"],
    "hold": _simple("{unit} holds: Energy {before} → {after}"),
    "pass": _simple("{unit} passes with Energy {energy}"),
    "defenseless": _simple("    {unit} is Defenseless ({cause})"),
    "defenseless_ends": _simple("  {unit} is no longer Defenseless ({when})"),
    "removed": _simple("    {unit} is Incapacitated and removed from {zone}"),
    "fumble": _simple("    Fumble!"),
    "cohesion": _simple("    {unit}: Cohesion {before} → {after} ({why})"),
    "routed": _simple("    {unit} routs"),
    "rallied": _simple("    {unit} rallies"),
    "overload_check": _r_check("overload check"),
    "energy_lost": _simple("    {unit} loses its Energy: {before} → {after}"),
    "pursuit": _r_pursuit,
    "retreat_failed": _simple(
        "    {unit}'s retreat fails: Defenseless, Energy lost, −{exhaustion} next round"
    ),
    "retreated": _simple("  {unit} leaves the battlefield from {frm}"),
    "cohesion_check": _r_check("Cohesion check"),
    "reload": _simple("  {unit} reloads"),
    "lull": _simple("-- lull phase (round {round}) --"),
    "reservations_expire": _simple("  {unit}'s reservations expire: {maneuvers}"),
    "limits_reset": _simple("  {unit}: limited maneuvers reset: {maneuvers}"),
    "upkeep": _simple("  {unit}: {maneuver} on {target}"),
    "wounds_recovered": _simple("    {unit}: Wounds {before} → {after}"),
    "ward": _simple("    {unit} cannot rout until the next lull"),
    "yoma_roll": _r_yoma,
    "arrives": _r_arrives,
    "debuff": _simple("    {unit}: Defense −{value} ({debuff})"),
    "behind": _simple("    {wounds} Wound(s) to the enemy behind: {unit}"),
    "armor_broken": _simple("    {unit}'s armor is broken: −{armor_damage} until repaired"),
    "combat_over": _r_over,
    "death_check": _r_death,
    "honor_follow_up": _simple("  honor follow-up, {unit} ({honor}): {follow_up} {penalty}"),
    "gm_set_wounds": _simple("GM sets {unit}'s Wounds {before} → {after}"),
}


def account(
    log: Mapping[str, Any], *, maneuvers: Mapping[str, str] | None = None, verbose: bool = True
) -> str:
    """The battle's account from its chronicle JSON; ``maneuvers`` maps ids to names; ``verbose`` adds
    the modifier and Defense steps of every attack and the steps of reactions and costs."""
    n = _Names(log, maneuvers or {})
    lines: list[str] = []
    for entry in log.get("log", []):
        for e in entry["events"]:
            render = _RENDER.get(e["kind"])
            if render is None:
                continue
            out = render(n, e.get("data", {}), verbose)
            if out and e.get("rule") and out[0].strip():
                out[0] = f"{out[0]}  [{e['rule']}]"
            lines += out
    return "\n".join(lines).strip() + "\n"


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
