"""What a hit does to the body (AR.INJ.*), HP and FP thresholds (AR.HP.*, AR.FTG.*), Move, shock and
pain (AR.RD.1) and the guts penalties (AR.GUT.2). Pure functions of numbers; the bout applies them.

>>> from kassen.arena.damage import resolve_damage
>>> hit = resolve_damage(8, "cr", ht=10, location="skull")
>>> [e.effect for e in injury_effects(hit, ht=10)]
['shock', 'stun', 'knockdown_check', 'unconscious']
"""

from __future__ import annotations

__all__ = [
    "Effect",
    "death_thresholds",
    "effective_move",
    "guts_penalties",
    "hp_effects",
    "injury_effects",
    "shock_penalty",
    "st_check_modifier",
]

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from kassen.arena.content import load_rules
from kassen.arena.damage import DamageResult, divide_ht, round_ratio
from kassen.arena.rules import ArenaRules
from kassen.arena.terms import DamageSource, DamageType
from kassen.core.explain import Step
from kassen.core.fastinit import fast_init
from kassen.i18n import N_, S_


@fast_init
@dataclass(frozen=True, slots=True)
class Effect:
    """One consequence of a hit: ``effect`` is its name (shock, pain, stun, knockdown_check, crippled,
    unconscious_check, unconscious, fall_stun_check, move_halved, ht_check_each_subturn, death_check,
    dead), ``rule`` the ledger ID, ``value`` a number where it has one (a penalty, a threshold)."""

    effect: str
    rule: str
    value: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"effect": self.effect, "rule": self.rule}
        if self.value is not None:
            out["value"] = self.value
        return out


def injury_effects(
    hit: DamageResult,
    *,
    ht: int,
    painful: bool = False,
    prior_head_damage: int = 0,
    already_crippled: bool = False,
    rules: ArenaRules | None = None,
) -> tuple[Effect, ...]:
    """The effects of one hit's final damage, in the order the bout resolves them.

    Shock (AR.INJ.2) and pain (AR.INJ.3) of the final damage; crippling (AR.DMG.6) stuns (AR.INJ.7);
    HT/2 or more from one hit stuns (AR.INJ.5) and calls for a knockdown HT check (AR.INJ.6); crushing
    primary penetration to a vital organ calls for an HT check against unconsciousness (AR.INJ.8);
    HT or more to the head knocks out (AR.INJ.9, AR.RD.5); falling damage calls for a stun check
    (AR.FAL.2).
    """
    r = rules or load_rules()
    # A pure function of what it reads of the hit, four values and the rules, remembered by the rules
    # (kassen.core.memo): a bout's hits repeat the same few.
    key = (
        hit.location,
        hit.final,
        hit.crippled,
        hit.damage_type,
        hit.primary_penetration,
        hit.source,
        ht,
        painful,
        prior_head_damage,
        already_crippled,
    )
    memo = r.memos.effects
    effects = memo.get(key)
    if effects is None:
        effects = memo.put(key, _injury_effects(*key, r))
    return effects


def _injury_effects(
    location: str,
    final: int,
    crippled: bool,
    damage_type: DamageType,
    primary_penetration: int,
    source: DamageSource,
    ht: int,
    painful: bool,
    prior_head_damage: int,
    already_crippled: bool,
    r: ArenaRules,
) -> tuple[Effect, ...]:
    """:func:`injury_effects` from exactly what its memo is keyed by (what it reads of the hit)."""
    loc = r.locations.locations[location]
    out: list[Effect] = []
    if final >= 1:
        out.append(Effect("shock", "AR.INJ.2", final))
        if painful:
            out.append(Effect("pain", "AR.INJ.3", final))
    if crippled and not already_crippled:
        out.append(Effect("crippled", "AR.DMG.6"))
        out.append(Effect("stun", "AR.INJ.7"))
    half = divide_ht(ht, r.injury.stun.ht_divisor, r)
    if final >= half:
        out.append(Effect("stun", "AR.INJ.5", half))
        out.append(Effect("knockdown_check", "AR.INJ.6", half))
    if loc.vital_organ and damage_type is DamageType.CRUSHING and primary_penetration >= 1:
        out.append(Effect("unconscious_check", "AR.INJ.8"))
    if loc.head:
        head = final + (prior_head_damage if r.injury.head_blow.reading == "cumulative" else 0)
        if final >= 1 and head >= ht:
            out.append(Effect("unconscious", "AR.INJ.9", ht))
    fall = r.falling.falling.stun_check
    falls = source in (DamageSource.FALLING, DamageSource.KNOCKBACK)
    if falls and (final >= 1 or not fall.only_when_damaged):
        out.append(Effect("fall_stun_check", "AR.FAL.2", final))
    return tuple(out)


def death_thresholds(
    hp_before: int,
    hp_after: int,
    ht: int,
    rules: ArenaRules | None = None,
    *,
    last_check_hp: int | None = None,
) -> tuple[int, ...]:
    """The death checks a loss of HP from ``hp_before`` to ``hp_after`` calls for, each named by the
    threshold it passed, stopping above the automatic death of AR.HP.4: the first at −HT (AR.HP.3),
    then, by the data's AR.RD.8 reading, at the fixed thresholds −HT−5, −HT−10 … (``fixed_thresholds``)
    or after every 5 HP lost since ``last_check_hp``, the HP at which the last check was rolled
    (``since_last_check``: each further check's threshold is that HP − 5k).

    >>> death_thresholds(3, -21, 10)
    (-10, -15, -20)
    >>> since = load_rules({"injury": {"hp": {"further_checks": "since_last_check"}}})
    >>> [death_thresholds(-12, hp, 10, since, last_check_hp=-12) for hp in (-16, -17)]
    [(), (-17,)]
    """
    r = rules or load_rules()
    hp = r.injury.hp
    first = hp.death_check_ht_multiple * ht
    dead = hp.dead_ht_multiple * ht
    if hp.further_checks == "since_last_check":
        if last_check_hp is None:
            return (first,) if hp_before > first >= hp_after and first > dead else ()
        out = []
        level = last_check_hp - hp.death_check_every
        while level > dead and level >= hp_after:
            out.append(level)
            level -= hp.death_check_every
        return tuple(out)
    out = []
    level = first
    while level > dead and level >= hp_after:
        if level < hp_before:
            out.append(level)
        level -= hp.death_check_every
    return tuple(out)


def hp_effects(hp_before: int, hp_after: int, ht: int, rules: ArenaRules | None = None) -> tuple[Effect, ...]:
    """HP thresholds after a hit: Move halved at 3 or less (AR.HP.1), an HT check every subturn at 0
    or less (AR.HP.2), death checks (AR.HP.3), death at −5 × HT (AR.HP.4)."""
    r = rules or load_rules()
    hp = r.injury.hp
    out: list[Effect] = []
    if hp_after <= hp.move_halved_at_or_below:
        out.append(Effect("move_halved", "AR.HP.1", hp_after))
    if hp_after <= hp.ht_check_at_or_below:
        out.append(Effect("ht_check_each_subturn", "AR.HP.2", hp_after))
    if hp_after <= hp.dead_ht_multiple * ht:
        out.append(Effect("dead", "AR.HP.4", hp.dead_ht_multiple * ht))
    else:
        out.extend(Effect("death_check", "AR.HP.3", t) for t in death_thresholds(hp_before, hp_after, ht, r))
    return tuple(out)


def shock_penalty(shocks: Sequence[int], pains: Sequence[int], rules: ArenaRules | None = None) -> int:
    """The DX and IQ penalty (a positive number) from the shocks and pains in force: one maximum over
    both kinds (AR.INJ.4, AR.RD.1 house default), or the largest of each summed (the alternative).

    >>> shock_penalty([3, 5], [4])
    5
    """
    r = rules or load_rules()
    if r.injury.shock.combine == "one_max":
        return max((*shocks, *pains), default=0)
    return max(shocks, default=0) + max(pains, default=0)


def _halve_move(move: int, rules: ArenaRules) -> int:
    return round_ratio(Fraction(move, 2), rules.injury.move.halving_rounding)


def effective_move(
    move: int,
    *,
    encumbrance: int = 0,
    hp: int,
    fp: int,
    rooted: bool = False,
    rules: ArenaRules | None = None,
) -> tuple[int, tuple[Step, ...]]:
    """Move after encumbrance (AR.GAP.2), injury (HP 3 or less halves it, AR.HP.1) and fatigue (FP 3 or
    less halves it unless injury already did, AR.FTG.3); 0 while a leg knockback holds it (AR.KNB.5).

    >>> effective_move(5, hp=3, fp=3)[0]
    3
    """
    r = rules or load_rules()
    # A pure function of five numbers and the rules, asked whenever a slot's moves are listed or
    # checked: remembered by the rules (kassen.core.memo), by its arguments.
    key = (move, encumbrance, hp, fp, rooted)
    memo = r.memos.moves
    found = memo.get(key)
    if found is None:
        found = memo.put(key, _effective_move(move, encumbrance, hp, fp, rooted, r))
    return found


def _effective_move(
    move: int, encumbrance: int, hp: int, fp: int, rooted: bool, r: ArenaRules
) -> tuple[int, tuple[Step, ...]]:
    factors = r.match.encumbrance.move_factors
    level = min(max(encumbrance, 0), len(factors) - 1)
    value = max(1, round_ratio(move * factors[level], "down")) if move > 0 else 0
    steps = [
        Step(
            value,
            S_(
                "Move {move} at encumbrance level {level} (x{factor})",
                move=move,
                level=level,
                factor=factors[level],
            ),
            "AR.GAP.2",
        )
    ]
    if hp <= r.injury.hp.move_halved_at_or_below:
        value = _halve_move(value, r)
        steps.append(Step(value, S_("HP {hp}: Move halved, rounded up", hp=hp), "AR.HP.1"))
    elif fp <= r.injury.fatigue.move_halved_at_or_below:
        value = _halve_move(value, r)
        steps.append(Step(value, S_("FP {fp}: Move halved, rounded up", fp=fp), "AR.FTG.3"))
    if hp <= r.injury.hp.move_halved_at_or_below and fp <= r.injury.fatigue.move_halved_at_or_below:
        steps.append(Step(value, N_("FP halving ignored: injury already halved Move"), "AR.FTG.3"))
    if rooted:
        value = 0
        steps.append(Step(0, N_("cannot move until the next subturn (leg knockback)"), "AR.KNB.5"))
    return value, tuple(steps)


def st_check_modifier(fp: int, rules: ArenaRules | None = None) -> Step | None:
    """−3 on ST checks at FP 5 or less (AR.FTG.2), as a modifier step (None when it does not apply)."""
    r = rules or load_rules()
    f = r.injury.fatigue
    if fp <= f.st_penalty_at_or_below:
        return Step(
            f.st_penalty,
            S_("FP {fp}: {penalty} on ST checks", fp=fp, penalty=format(f.st_penalty, "+d")),
            "AR.FTG.2",
        )
    return None


def guts_penalties(
    uncapped_final: int, margin_of_loss: int, checks_made: int, rules: ArenaRules | None = None
) -> tuple[Step, ...]:
    """The three guts-check penalties (AR.GUT.2): −1 per full 5 points of the final damage that caused
    the state (pass-through ignored), −(margin of loss of the quick contest that caused it), −1 per guts
    check already made in this combat. Each a modifier :class:`Step` (zeros left out).

    >>> [s.value for s in guts_penalties(12, 3, 1)]
    [-2, -3, -1]
    """
    r = rules or load_rules()
    g = r.injury.guts
    steps = []
    per_damage = uncapped_final // g.damage_per_penalty
    if per_damage:
        steps.append(
            Step(
                -per_damage,
                S_(
                    "final damage {final} (pass-through ignored): -1 per {per}",
                    final=uncapped_final,
                    per=g.damage_per_penalty,
                ),
                "AR.GUT.2",
            )
        )
    if margin_of_loss:
        steps.append(
            Step(-margin_of_loss, S_("lost the quick contest by {margin}", margin=margin_of_loss), "AR.GUT.2")
        )
    if checks_made:
        steps.append(
            Step(-checks_made, S_("{n} guts check(s) already made this combat", n=checks_made), "AR.GUT.2")
        )
    return tuple(steps)
