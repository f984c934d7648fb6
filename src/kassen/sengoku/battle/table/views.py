"""What a side sees of a battle, and the count track shown above each menu.

- :func:`units`: every unit's side, by id — the core's ``units`` hook (views, ``--human``, the lab).
- :func:`visibility`: the content's ``visibility`` table (``data/catalog/visibility.yaml``, a house
  default overridable like the others): what :func:`kassen.core.view.observe` hides from a side — by
  default another side's reserved techniques (SG.RES.1) and Fate points (SG.FAT.1-2).
- :func:`status`: the lines ``kassen play`` prints above each menu — the round and the count, who
  breathes (or answers, or decides), the count track (every unit on the battlefield by the count it
  acts at, highest first: its Energy and a pending initiative, SG.CNT.1-4; then who passed and who is
  off the battlefield), and each unit with its zone, Energy, Wounds and statuses — as a viewer may see
  them (``kassen play`` shows the deciding side's, or the GM's): a field the visibility table hides from
  its side is left out (the GM sees all).
"""

from __future__ import annotations

__all__ = ["status", "units", "visibility"]

from collections.abc import Mapping, Sequence
from typing import Any

from kassen.core.fight import state_codec
from kassen.core.view import GM_VIEW, Viewer, Visibility, redact_state
from kassen.i18n import N_, _, pgettext, translate_text
from kassen.sengoku.battle.plan import acting_value
from kassen.sengoku.battle.rules import BattleRules
from kassen.sengoku.battle.state import BattleState, DecisionKind, Phase, Unit
from kassen.sengoku.words import content_word as _w


def units(state: BattleState) -> Mapping[str, str]:
    """Every unit's side, by its id."""
    return {u.id: u.side for u in state.units}


def visibility(rules: BattleRules) -> Visibility:
    """The visibility table in force (content data)."""
    return Visibility.of(rules.catalog.visibility)


def seen_state(state: BattleState, rules: BattleRules, viewer: Viewer) -> dict[str, Any]:
    """The state's JSON as ``viewer`` sees it (what the visibility table hides is null)."""
    data = state_codec(BattleState).dump(state)
    sides = units(state)
    shown: dict[str, Any] = redact_state(data, visibility(rules), viewer, lambda u: sides.get(str(u)))
    return shown


def status(state: BattleState, rules: BattleRules, viewer: Viewer = GM_VIEW) -> Sequence[str]:
    """The round, the count track and the units, as ``viewer`` may see them."""
    shown = {u["id"]: u for u in seen_state(state, rules, viewer)["units"]}
    lines = [_header(state, rules)]
    if state.phase in (Phase.COUNT, Phase.LULL):
        lines.append(_track(state, rules))
    lines += [_unit(state, rules, u, shown[u.id]) for u in state.units]
    return lines


def _name(state: BattleState, uid: str) -> str:
    return state.unit(uid).name if state.has_unit(uid) else uid


def _header(state: BattleState, rules: BattleRules) -> str:
    if state.phase is Phase.START:
        return _("before the battle: the GM begins it (round 1: every unit at its maximum Energy)")
    if state.phase is Phase.OVER:
        r = state.result
        if r is not None:
            return _("the combat is over ({reason})").format(reason=translate_text(r.reason))
        return _("the combat is over")
    d = state.decision
    if state.phase is Phase.COUNT:
        where = _("round {round}, count {count}").format(round=state.round, count=state.count)
    else:
        where = _("round {round}, lull").format(round=state.round)
    if d is None:
        return where
    who = _name(state, d.unit)
    words = {
        DecisionKind.BREATH: N_("{unit} breathes"),
        DecisionKind.REACTION: N_("{unit} may answer {attacker}'s attack"),
        DecisionKind.UPKEEP: N_("{unit}'s upkeep"),
        DecisionKind.ENVIRONMENT: N_("the GM's environment"),
        DecisionKind.FATE: N_("{unit} may spend Fate on the roll"),
        DecisionKind.LAST_BASTION: N_("{unit} may spend Fate on Last Bastion"),
        DecisionKind.FUMBLE: N_("the GM's extras on {attacker}'s fumble"),
    }
    what = _(words[d.kind]).format(unit=who, attacker=_name(state, d.attacker) if d.attacker else "")
    return f"{where}: {what}"


def _track(state: BattleState, rules: BattleRules) -> str:
    """``count track (highest first): Kuro 14 (12 +2 initiative) > Genzaburo 11 | passed: … | off: …``."""
    live = [u for u in state.units if u.on_battlefield and not u.passed]
    live.sort(key=lambda u: (-acting_value(u), rules.tie_key(state, u)))
    parts = []
    for u in live:
        at = acting_value(u)
        extra = (
            _(" ({energy} +{initiative} initiative)").format(energy=u.energy, initiative=u.initiative)
            if u.initiative
            else ""
        )
        parts.append(f"{u.name} {at}{extra}")
    track = " > ".join(parts) or _("nobody left to breathe")
    text = _("count track (highest first): {track}").format(track=track)
    passed = [u.name for u in state.units if u.on_battlefield and u.passed]
    off = [u.name for u in state.units if not u.on_battlefield]
    if passed:
        text += " | " + pgettext("sengoku", "passed: {units}").format(units=", ".join(passed))
    if off:
        text += " | " + _("off the battlefield: {units}").format(units=", ".join(off))
    return text


def _unit(state: BattleState, rules: BattleRules, u: Unit, seen: Mapping[str, Any]) -> str:
    head = f"{u.name} ({state.side(u.side).name})"
    if u.incapacitated:
        return f"{head}: " + _("Incapacitated")
    if u.retreated:
        return f"{head}: " + _("left the battlefield")
    wounds = seen.get("wounds")
    health = (
        pgettext("sengoku", "Wounds {wounds}/{wounds_max}").format(wounds=wounds, wounds_max=u.wounds_max)
        if wounds is not None
        else _("Wounds not seen")
    )
    energy = (
        [pgettext("sengoku", "Energy {energy}/{max_energy}").format(energy=u.energy, max_energy=u.max_energy)]
        if state.phase is not Phase.START
        else []
    )
    bits = [pgettext("sengoku", "in {zone}").format(zone=translate_text(u.zone or "")), *energy, health]
    if u.cohesion is not None:
        bits.append(pgettext("sengoku", "Cohesion {cohesion}").format(cohesion=u.cohesion))
    if u.stances:
        bits.append(
            pgettext("sengoku", "holds {stances}").format(
                stances=", ".join(_w(rules.maneuver(s).name) for s in u.stances)
            )
        )
    if u.defenseless:
        bits.append(_("Defenseless"))
    if u.routed:
        bits.append(_("routed"))
    if u.bleeding:
        bits.append(_("bleeding"))
    if u.debuffs:
        bits.append(", ".join(f"{_w(d.source) if d.source else _('Defense')} −{d.value}" for d in u.debuffs))
    if u.dropped:
        bits.append(_("{weapon} on the ground").format(weapon=_w(rules.catalog.weapon(u.dropped).name)))
    reserved = seen.get("reservations")
    if reserved:
        names = ", ".join(_w(rules.maneuver(r["maneuver"]).name) for r in reserved)
        bits.append(_("reserved: {maneuvers}").format(maneuvers=names))
    fate = seen.get("fate_points")
    if fate:
        bits.append(pgettext("sengoku", "Fate {fate}").format(fate=fate))
    return f"{head}: " + "; ".join(bits)
