"""Fighters: the profile a scenario gives (attributes, weapon, DR per location) and the state a bout
changes (HP, FP, posture, conditions, shocks, guards...). Frozen, slotted, updated with ``replace()``.

A :class:`Fighter` holds every value resolved; :func:`build_fighter` makes one, taking what is left out
(HP, FP, Move, weight, skill, defence, the guts-bonus plan) from the data's ``match.fighter_defaults``
and ``match.combat`` defaults (AR.GAP.2), so a rules override changes them.

>>> f = build_fighter("ryu", "east", name="Ryu", st=12)
>>> s = FighterState.fresh(f)
>>> s.hp, s.fp, s.posture.value
(12, 10, 'standing')
"""

from __future__ import annotations

__all__ = [
    "Cause",
    "CheckBonus",
    "Fall",
    "Fighter",
    "FighterState",
    "Guard",
    "GutsBonusPlan",
    "LocationDR",
    "Shock",
    "Weapon",
    "build_fighter",
]

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from kassen.arena.content import load_rules
from kassen.arena.damage import Reduction
from kassen.arena.rules import ArenaRules, DefenseDefault
from kassen.arena.terms import CheckKind, Condition, DamageType, Facing, Posture
from kassen.core.fastinit import fast_init
from kassen.core.fastreplace import replace, replacer


@fast_init
@dataclass(frozen=True, slots=True)
class Weapon:
    """What a fighter strikes with: ``base`` thrust or swing for its ST (CORE table) or ``dice`` alone,
    plus ``adds``; ``painful`` sources cause pain (AR.INJ.3); ``reach`` in metres (None: the data's
    ``match.position.default_reach``, filled in by :func:`build_fighter`)."""

    name: str = "fist"
    base: Literal["thrust", "swing", "none"] = "thrust"
    dice: int = 0
    adds: int = 0
    damage_type: DamageType = DamageType.CRUSHING
    painful: bool = False
    reach: int | None = None


@fast_init
@dataclass(frozen=True, slots=True)
class LocationDR:
    """DR at one location (AR.DMG.2): armor hard DR, and bone hard DR and soft DR when they differ from
    the location table's natural values (None: the table's)."""

    location: str
    armor: int = 0
    bone: int | None = None
    soft: int | None = None


@fast_init
@dataclass(frozen=True, slots=True)
class GutsBonusPlan:
    """When a fighter spends 1 FP for +3 on an automatic HT check (AR.GUT.3): on these kinds of check,
    if it keeps at least ``min_fp_after`` FP. Automatic checks cannot wait for a decision, so the plan is
    declared in advance; :meth:`default` is the data's (``match.fighter_defaults.guts_bonus``)."""

    checks: tuple[CheckKind, ...]
    min_fp_after: int

    @classmethod
    def default(cls, rules: ArenaRules | None = None) -> GutsBonusPlan:
        """The plan a fighter gets when its scenario names none (AR.GAP.2 house default, in data)."""
        g = (rules or load_rules()).match.fighter_defaults.guts_bonus
        return cls(tuple(g.checks), g.min_fp_after)


@fast_init
@dataclass(frozen=True, slots=True, kw_only=True)
class Fighter:
    """A fighter's profile: ST, DX, IQ, HT, Per, Will, HP, FP, Move, weight, encumbrance level, attack
    skill and defence (AR.GAP.2), weapon, DR by location, damage reductions, what popularity reads
    (AR.AUD.1), and ``st_bonus``: the ST bonuses (各種ボーナス) counted in the ST of its knockback damage
    (AR.KNB.3), 0 unless given.

    Every value is resolved: the ones with a data default (HP, FP, Move, weight, skill, defence, the
    guts-bonus plan) have none here. Build a fighter with :func:`build_fighter`, which takes them from
    the rules in force."""

    id: str
    name: str
    side: str
    st: int
    dx: int
    iq: int
    ht: int
    per: int
    will: int
    hp: int
    fp: int
    move: int
    weight_kg: int
    encumbrance: int = 0
    skill: int
    defense: int
    weapon: Weapon = Weapon()
    dr: tuple[LocationDR, ...] = ()
    reductions: tuple[Reduction, ...] = ()
    champion: bool = False
    holds_title: bool = False
    matches: int = 0
    age: int | None = None
    reactions: tuple[int, ...] = ()
    guts_bonus: GutsBonusPlan
    st_bonus: int = 0

    @property
    def knockback_st(self) -> int:
        """The ST its knockback damage is thrust for: ST with its bonuses (AR.KNB.3)."""
        return self.st + self.st_bonus

    @property
    def reach(self) -> int:
        """Its weapon's reach in metres (resolved by :func:`build_fighter`; 1 if built by hand)."""
        return self.weapon.reach if self.weapon.reach is not None else 1

    def dr_at(self, location: str) -> LocationDR:
        """The DR entry for ``location`` (no armor when none is listed)."""
        for entry in self.dr:
            if entry.location == location:
                return entry
        # no armor there: one immutable record per location name, not a new one at every hit weighed
        found = _NO_ARMOR.get(location)
        if found is None:
            if len(_NO_ARMOR) >= 256:
                _NO_ARMOR.clear()
            found = _NO_ARMOR[location] = LocationDR(location)
        return found

    def attribute(self, name: str) -> int:
        return int(getattr(self, name))


#: The no-armor DR of each location name asked for (bounded).
_NO_ARMOR: dict[str, LocationDR] = {}


def _from_attributes(formula: DefenseDefault, attrs: dict[str, int]) -> int:
    """(sum of the named attributes) / divisor, rounded down, + add: the data's default formulas."""
    return sum(attrs[a] for a in formula.attributes) // formula.divisor + formula.add


def build_fighter(
    id: str,
    side: str,
    *,
    name: str | None = None,
    rules: ArenaRules | None = None,
    st: int = 10,
    dx: int = 10,
    iq: int = 10,
    ht: int = 10,
    per: int = 10,
    will: int = 10,
    hp: int | None = None,
    fp: int | None = None,
    move: int | None = None,
    weight_kg: int | None = None,
    skill: int | None = None,
    defense: int | None = None,
    guts_bonus: GutsBonusPlan | None = None,
    **profile: Any,
) -> Fighter:
    """A :class:`Fighter` whose left-out values (``None``) come from ``rules`` (default: the bundled
    data): HP and FP from the attributes ``match.fighter_defaults`` names, Move by its formula, weight
    and the guts-bonus plan from it too, skill and defence by ``match.combat`` (``attack_skill_default``,
    ``defense_default``): the AR.GAP.2 house defaults. ``profile`` passes the other :class:`Fighter`
    fields (weapon, dr, encumbrance...) through; ``name`` defaults to ``id``.

    >>> f = build_fighter("ken", "west", dx=12, ht=12)
    >>> f.move, f.defense, f.skill
    (6, 9, 12)
    """
    r = rules or load_rules()
    fd, combat = r.match.fighter_defaults, r.match.combat
    attrs = {"st": st, "dx": dx, "iq": iq, "ht": ht, "per": per, "will": will}
    weapon = profile.pop("weapon", Weapon())
    if weapon.reach is None:
        weapon = replace(weapon, reach=r.match.position.default_reach)
    return Fighter(
        id=id,
        name=name if name is not None else id,
        side=side,
        st=st,
        dx=dx,
        iq=iq,
        ht=ht,
        per=per,
        will=will,
        hp=hp if hp is not None else attrs[fd.hp],
        fp=fp if fp is not None else attrs[fd.fp],
        move=move if move is not None else _from_attributes(fd.move, attrs),
        weight_kg=weight_kg if weight_kg is not None else fd.weight_kg,
        skill=skill if skill is not None else attrs[combat.attack_skill_default],
        defense=defense if defense is not None else _from_attributes(combat.defense_default, attrs),
        guts_bonus=guts_bonus if guts_bonus is not None else GutsBonusPlan.default(r),
        weapon=weapon,
        **profile,
    )


@fast_init
@dataclass(frozen=True, slots=True)
class Shock:
    """A shock (AR.INJ.2) or pain (AR.INJ.3) penalty of ``value`` that ends with subturn ``until``."""

    kind: Literal["shock", "pain"]
    value: int
    until: int


@fast_init
@dataclass(frozen=True, slots=True)
class Guard:
    """An arm covering a location (庇い, AR.GAP.2 house default)."""

    arm: str
    location: str


@fast_init
@dataclass(frozen=True, slots=True)
class Cause:
    """What brought a state about, for the guts penalties (AR.GUT.2): the final damage before the
    pass-through caps and the margin of loss of the quick contest, the hit (for AR.INJ.10) and the
    location it struck (for the facing of a fall, AR.RD.9; empty when no hit caused it)."""

    uncapped_final: int = 0
    margin_of_loss: int = 0
    hit_id: int = 0
    location: str = ""


@fast_init
@dataclass(frozen=True, slots=True)
class CheckBonus:
    """A bonus bought with an audience point (AR.AUD.3), used up by the next check of these kinds."""

    source: str
    amount: int
    checks: tuple[CheckKind, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class Fall:
    """A pending landing of an aerial fighter at the end of the subturn (AR.KNB.2, AR.KNB.6).

    ``falls`` is a fall over (lands lying, ``facing`` by AR.KNB.7); otherwise a knocked-back fighter
    that kept its feet returns to ``land_posture``. ``location`` takes the landing's damage (the brain
    after a failed knockback DX check). ``knocker_st`` (with its bonuses, ``knocker_st_bonus`` of them)
    and ``knockback_factor`` give knockback damage (AR.KNB.3-4); ``from_posture`` is the posture before
    the fighter went aerial."""

    falls: bool
    facing: Facing
    land_posture: Posture
    location: str
    from_posture: Posture
    knocker_st: int | None = None
    knockback_factor: Fraction = Fraction(0)
    knocker_st_bonus: int = 0


@fast_init
@dataclass(frozen=True, slots=True)
class FighterState:
    """What a bout changes about a fighter. ``position`` is where it stands on the line, in metres (the
    AR.GAP.2 position model); ``last_death_check_hp`` the HP at which its last death check was rolled
    (AR.RD.8's other reading counts from it)."""

    profile: Fighter
    hp: int
    fp: int
    posture: Posture = Posture.STANDING
    facing: Facing | None = None
    altitude: Fraction = Fraction(0)
    conditions: tuple[Condition, ...] = ()
    stun_cause: Cause = Cause()
    crippled: tuple[str, ...] = ()
    location_damage: tuple[tuple[str, int], ...] = ()
    head_damage: int = 0
    shocks: tuple[Shock, ...] = ()
    guards: tuple[Guard, ...] = ()
    grappling: str | None = None
    rooted_until: int = 0
    no_defense: bool = False
    guts_checks: int = 0
    audience_points: int = 0
    check_bonuses: tuple[CheckBonus, ...] = ()
    death_checks_done: tuple[int, ...] = ()
    idle_slots: int = 0
    lost: bool = False
    fall: Fall | None = None
    position: int = 0
    last_death_check_hp: int | None = None

    @classmethod
    def fresh(
        cls,
        profile: Fighter,
        *,
        posture: Posture = Posture.STANDING,
        altitude: Fraction = Fraction(0),
        position: int = 0,
    ) -> FighterState:
        return cls(profile, profile.hp, profile.fp, posture=posture, altitude=altitude, position=position)

    @property
    def id(self) -> str:
        return self.profile.id

    def has(self, condition: Condition) -> bool:
        return condition in self.conditions

    @property
    def incapacitated(self) -> bool:
        """Unconscious, dead, gave up or lost the will to fight (AR.OUT.1): any condition but a stun."""
        conditions = self.conditions
        # read many times an action, of fighters that mostly have no condition: no generator made then
        return bool(conditions) and any(c.incapacitating for c in conditions)

    @property
    def stunned(self) -> bool:
        return Condition.STUNNED in self.conditions

    def with_condition(self, condition: Condition) -> FighterState:
        if condition in self.conditions:
            return self
        return _with_conditions(self, tuple(sorted((*self.conditions, condition))))

    def without_condition(self, condition: Condition) -> FighterState:
        return _with_conditions(self, tuple(c for c in self.conditions if c is not condition))

    def damage_at(self, location: str) -> int:
        for where, damage in self.location_damage:
            if where == location:
                return damage
        return 0

    def guard_on(self, location: str) -> Guard | None:
        for g in self.guards:
            if g.location == location:
                return g
        return None


#: A fighter's conditions, copied for that one field (kassen.core.fastreplace.replacer): a stun, a fall
#: and its end change them a few times a battle.
_with_conditions = replacer(FighterState, "conditions")
