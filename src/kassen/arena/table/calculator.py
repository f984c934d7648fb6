"""The single-attack calculator of ``kassen arena odds``: the odds of one attack between two fighters
given by their numbers, by the very forecast the menus of a bout show
(:func:`~kassen.arena.bout.forecast.attack_forecast`): the two stand within reach in a fight that has
begun, the target otherwise unhurt (the data's defaults for what is not given, AR.GAP.2).

>>> f = attack_odds(skill=14, damage="1d+3", damage_type="cut", ht=12, defense=8, hp=13, st=13)
>>> f.attack, f.defense, round(float(f.rolls.hit), 4)
(14, 8, 0.8543)
"""

from __future__ import annotations

__all__ = ["attack_odds"]


from pydantic import TypeAdapter, ValidationError

from kassen.arena.bout import Attack, initial_state
from kassen.arena.bout.forecast import AttackForecast, attack_forecast
from kassen.arena.content import load_rules
from kassen.arena.fighter import LocationDR, Weapon, build_fighter
from kassen.arena.rules import ArenaRules, Dice6, DiceSpec
from kassen.arena.terms import DamageType, MatchFormat
from kassen.core.errors import KassenError
from kassen.core.fastreplace import replace
from kassen.i18n import _

_DICE: TypeAdapter[DiceSpec] = TypeAdapter(Dice6)


def attack_odds(
    *,
    skill: int,
    damage: str,
    damage_type: str,
    ht: int,
    defense: int | None = None,
    location: str = "torso",
    all_out: bool = False,
    hp: int | None = None,
    st: int = 10,
    max_hp: int | None = None,
    armor_dr: int = 0,
    painful: bool = False,
    rules: ArenaRules | None = None,
) -> AttackForecast:
    """The forecast of an attack at ``skill`` with a weapon of ``damage`` dice (``1d+3``) of
    ``damage_type`` on a target of HT ``ht`` (defence ``defense``; None: it cannot defend), ``hp`` HP now
    (default: unhurt) of ``max_hp`` (default: ``st``), with ``armor_dr`` at ``location``."""
    r = rules or load_rules()
    for name, value in (("skill", skill), ("ht", ht), ("st", st), ("armor-dr", armor_dr)):
        if not (0 if name == "armor-dr" else 1) <= value <= 100:
            text = _("--{name} must be between {least} and 100, got {value}")
            raise KassenError(text.format(name=name, least=0 if name == "armor-dr" else 1, value=value))
    try:
        kind = DamageType(damage_type)
    except ValueError:
        known = ", ".join(t.value for t in DamageType)
        text = _("unknown attack type {given} (known: {known})")
        raise KassenError(text.format(given=repr(damage_type[:20]), known=known)) from None
    try:
        dice = _DICE.validate_python(damage)
    except ValidationError:
        text = _("--damage is dice like 1d+3 or 2d-1, not {given}")
        raise KassenError(text.format(given=repr(damage[:20]))) from None
    if not 0 < dice.dice <= 20 or abs(dice.adds) > 100:
        text = _("--damage is 1 to 20 dice with adds within 100, not {given}")
        raise KassenError(text.format(given=repr(damage)))
    loc = r.locations.find(location)
    most = max_hp if max_hp is not None else st
    now = hp if hp is not None else most
    if not 1 <= most <= 1000 or not r.injury.hp.dead_ht_multiple * ht < now <= most:
        text = _("--hp must be above -5 x HT ({least}) and at most {most}")
        raise KassenError(text.format(least=r.injury.hp.dead_ht_multiple * ht, most=most))
    attacker = build_fighter(
        "attacker",
        "a",
        rules=r,
        skill=skill,
        weapon=Weapon("weapon", "none", dice.dice, dice.adds, kind, painful),
    )
    target = build_fighter(
        "target",
        "b",
        rules=r,
        st=st,
        ht=ht,
        hp=most,
        defense=defense if defense is not None else 0,
        dr=(LocationDR(loc.key, armor_dr),),
    )
    state = initial_state(
        [attacker, target], r, format=MatchFormat.FIGHT, positions={"attacker": 0, "target": 0}
    )
    state = replace(state, started=True, subturn=1)
    t = replace(state.fighter("target"), hp=now, no_defense=defense is None)
    state = replace(state, fighters=(state.fighters[0], t), order=("attacker", "target"))
    return attack_forecast(state, Attack("attacker", "target", loc.key, all_out), r)
