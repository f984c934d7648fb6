"""Reading a bout (pure): who decides, the penalties in force on each attribute's checks, effective skill
and defence, who can defend, act, guard, move, reach whom, or try a guts check. Every function takes the
state and the content's tables; nothing here changes anything.
"""

from __future__ import annotations

__all__ = [
    "CheckTerms",
    "active_targets",
    "attack_location",
    "attack_target",
    "attribute_modifiers",
    "can_act",
    "can_attack_someone",
    "can_defend",
    "can_guts",
    "check_terms",
    "damage_to",
    "deciding_fighter",
    "defense_target",
    "distance",
    "fighter_ht_terms",
    "free_arms",
    "guts_target",
    "held_by",
    "helpless",
    "ht_check_terms",
    "in_reach",
    "move_allowance",
    "override_effects",
    "reach_step",
    "shock_modifier",
    "struck_location",
    "weapon_damage",
]

from collections.abc import Sequence
from dataclasses import dataclass

from kassen.arena.bout.state import BoutState
from kassen.arena.checks import effective_target
from kassen.arena.damage import DamageResult, resolve_damage, strength_damage
from kassen.arena.fighter import Cause, CheckBonus, Fighter, FighterState, Guard, Shock
from kassen.arena.injury import effective_move, guts_penalties, shock_penalty, st_check_modifier
from kassen.arena.rules import ArenaRules, AudienceEffectKind, DiceSpec
from kassen.arena.terms import CheckKind, Condition, DamageSource, DamageType, Posture
from kassen.core.explain import Step
from kassen.core.fastinit import fast_init
from kassen.core.fastreplace import replace
from kassen.i18n import N_, S_


def deciding_fighter(state: BoutState) -> str | None:
    """The fighter who must decide now: the fighter of the first offer, else the fighter whose slot it
    is; None before the bout begins (the referee's Begin) and after it ends."""
    if state.result is not None or not state.started:
        return None
    if state.offers:
        return state.offers[0].fighter
    if state.slot < len(state.order):
        return state.order[state.slot]
    return None


def helpless(f: FighterState, rules: ArenaRules) -> bool:
    """At FP 1 (AR.FTG.4)."""
    return f.fp == rules.injury.fatigue.helpless_at


def shock_modifier(f: FighterState, rules: ArenaRules) -> Step | None:
    """The shock-and-pain penalty in force on DX and IQ (AR.INJ.2-4, AR.RD.1), as a modifier step."""
    return _shock_step(f.shocks, rules)


def _shock_step(in_force: tuple[Shock, ...], rules: ArenaRules) -> Step | None:
    shocks = [s.value for s in in_force if s.kind == "shock"]
    pains = [s.value for s in in_force if s.kind == "pain"]
    penalty = shock_penalty(shocks, pains, rules)
    if not penalty:
        return None
    return Step(
        -penalty,
        S_(
            "shock/pain -{penalty} on DX and IQ ({reading})",
            penalty=penalty,
            reading=rules.injury.shock.combine,
        ),
        "AR.INJ.4",
    )


def held_by(state: BoutState, f: FighterState) -> FighterState | None:
    """The fighter holding ``f`` in a grapple, if any."""
    fid = f.profile.id
    for o in state.fighters:
        if o.grappling == fid and o.profile.id != fid:
            return o
    return None


def attribute_modifiers(state: BoutState, fid: str, attribute: str, rules: ArenaRules) -> tuple[Step, ...]:
    """The penalties in force on every check based on ``attribute``: shock and pain on the attributes
    the data names (AR.INJ.2-4: DX and IQ), being held in a grapple on DX (AR.GAP.2), fatigue on ST
    (AR.FTG.2). Every check of the bout takes its attribute's modifiers from here."""
    # Remembered by what it reads (kassen.core.memo): the shocks and pains in force, FP and whether the
    # fighter is held. The policy weighs every attack of a decision asking for the attacker's and the
    # defender's modifiers, and most of a bout's fighters carry the same few (keyed by the state's or the
    # fighter's identity, nearly every lookup missed: each step of an action makes new ones).
    f = state.fighter(fid)
    held = held_by(state, f) is not None
    shocks, fp = f.shocks, f.fp
    key = (shocks, fp, held, attribute)
    memo = rules.memos.modifiers
    mods = memo.get(key)
    if mods is None:
        mods = memo.put(key, _attribute_modifiers(shocks, fp, held, attribute, rules))
    return mods


def _attribute_modifiers(
    shocks: tuple[Shock, ...], fp: int, held: bool, attribute: str, rules: ArenaRules
) -> tuple[Step, ...]:
    """attribute_modifiers from exactly what its memo is keyed by."""
    mods: list[Step] = []
    if attribute in rules.injury.shock.attributes:
        shock = _shock_step(shocks, rules)
        if shock is not None:
            mods.append(shock)
    if attribute == "dx" and held:
        mods.append(Step(rules.match.combat.grapple.dx_penalty, N_("grappled: DX"), "AR.GAP.2"))
    if attribute == "st":
        fatigue = st_check_modifier(fp, rules)
        if fatigue is not None:
            mods.append(fatigue)
    return tuple(mods)


def can_defend(f: FighterState, rules: ArenaRules) -> bool:
    """A defender rolls a defence unless incapacitated, at FP 1, or after its own all-out attack."""
    return not (f.incapacitated or f.lost or helpless(f, rules) or f.no_defense)


def attack_location(location: str | None, rules: ArenaRules) -> str:
    """Where an attack aims: ``location``, or, when it names none, the data's
    ``damage.basic.default_location`` (AR.DMG.1)."""
    return rules.damage.basic.default_location if location is None else location


def attack_target(
    state: BoutState, attacker: str, target: str, location: str | None, all_out: bool, *, rules: ArenaRules
) -> tuple[int, tuple[Step, ...]]:
    """The attacker's effective skill: skill + to-hit of the location (``None``: the data's default
    location) + posture + all-out bonus, − shock (skill is DX-based, AR.INJ.2), − grappled (AR.GAP.2)."""
    a = state.fighter(attacker)
    combat = rules.match.combat
    held = attribute_modifiers(state, a.id, combat.attack_skill_default, rules)
    # A pure function of these values and the rules (immutable): attacks repeat them all bout long
    # (remembered by the rules, kassen.core.memo).
    skill, posture = a.profile.skill, a.posture
    key = (skill, location, posture, all_out, held)
    memo = rules.memos.attack_targets
    found = memo.get(key)
    if found is None:
        found = memo.put(key, _attack_target(skill, location, posture, all_out, held, rules))
    return found


def _attack_target(
    skill: int,
    location: str | None,
    posture: Posture,
    all_out: bool,
    held: tuple[Step, ...],
    rules: ArenaRules,
) -> tuple[int, tuple[Step, ...]]:
    loc = rules.locations.find(attack_location(location, rules))
    combat = rules.match.combat
    mods = [
        Step(loc.to_hit, S_("aimed at the {location}", location=loc.name), "AR.GAP.1"),
        Step(
            combat.postures[posture].attack, S_("attacking from {posture}", posture=posture.value), "AR.GAP.2"
        ),
    ]
    if all_out:
        mods.append(Step(combat.all_out.attack_bonus, N_("all-out attack"), "AR.FTG.1"))
    mods += held
    return effective_target(skill, N_("attack skill"), mods, "AR.GAP.2")


def defense_target(state: BoutState, defender: str, *, rules: ArenaRules) -> tuple[int, tuple[Step, ...]]:
    """The defender's effective defence: defence + posture, −4 when stunned (AR.STN.1), − shock, −
    grappled (defence is DX-based: the AR.GAP.2 house default)."""
    d = state.fighter(defender)
    held = attribute_modifiers(state, d.id, "dx", rules)
    defense, posture, stunned = d.profile.defense, d.posture, d.stunned
    key = (defense, posture, stunned, held)
    memo = rules.memos.defense_targets
    found = memo.get(key)
    if found is None:
        found = memo.put(key, _defense_target(defense, posture, stunned, held, rules))
    return found


def _defense_target(
    defense: int, posture: Posture, stunned: bool, held: tuple[Step, ...], rules: ArenaRules
) -> tuple[int, tuple[Step, ...]]:
    mods = [
        Step(
            rules.match.combat.postures[posture].defense,
            S_("defending from {posture}", posture=posture.value),
            "AR.GAP.2",
        )
    ]
    if stunned:
        mods.append(Step(rules.injury.stun.defense_modifier, N_("stunned: defends at -4"), "AR.STN.1"))
    mods += held
    return effective_target(defense, N_("defence"), mods, "AR.GAP.2")


def guts_target(f: FighterState, cause: Cause, rules: ArenaRules) -> tuple[int, tuple[Step, ...]]:
    """Will with the three guts penalties (AR.GUT.2), shock if the data counts Will among the attributes
    shock penalizes (not by default: AR.INJ.2 names DX and IQ), and any audience bonus for guts checks."""
    mods = list(guts_penalties(cause.uncapped_final, cause.margin_of_loss, f.guts_checks, rules))
    shock = shock_modifier(f, rules) if "will" in rules.injury.shock.attributes else None
    if shock is not None:
        mods.append(shock)
    for b in f.check_bonuses:
        if CheckKind.GUTS in b.checks:
            mods.append(Step(b.amount, S_("audience: {source}", source=b.source), "AR.AUD.3"))
            break
    return effective_target(f.profile.will, "Will", mods, "AR.GUT.1")


def can_act(f: FighterState, rules: ArenaRules) -> bool:
    """Takes a slot: not out, not lost, not at FP 1, not aerial."""
    return not (
        f.incapacitated or f.lost or helpless(f, rules) or not rules.match.combat.postures[f.posture].can_act
    )


def active_targets(state: BoutState, actor: FighterState) -> list[FighterState]:
    """Who ``actor`` may attack or grapple: the other sides' fighters still in the bout."""
    return [
        t
        for t in state.fighters
        if t.profile.side != actor.profile.side and not t.lost and not t.has(Condition.DEAD)
    ]


def distance(state: BoutState, a: str, b: str) -> int:
    """Metres between two fighters on the line (the AR.GAP.2 position model)."""
    return abs(state.fighter(a).position - state.fighter(b).position)


def move_allowance(state: BoutState, f: FighterState, rules: ArenaRules) -> tuple[int, tuple[Step, ...]]:
    """How many metres ``f`` may move in its slot, and why: its effective Move (encumbrance, AR.HP.1,
    AR.FTG.3; 0 while rooted by a leg knockback, AR.KNB.5, until the next subturn begins), or 0 when it
    is not standing, is stunned (AR.STN.1: it may only defend) or is held in a grapple."""
    if f.stunned:
        return 0, (Step(0, N_("stunned: may only defend, cannot move"), "AR.STN.1"),)
    if not rules.match.combat.postures[f.posture].can_move:
        return 0, (Step(0, S_("{posture}: rises before moving", posture=f.posture.value), "AR.GAP.2"),)
    holder = held_by(state, f)
    if holder is not None:
        return 0, (Step(0, S_("held by {holder}: cannot move away", holder=holder.id), "AR.GAP.2"),)
    p = f.profile
    return effective_move(
        p.move,
        encumbrance=p.encumbrance,
        hp=f.hp,
        fp=f.fp,
        rooted=state.subturn <= f.rooted_until,
        rules=rules,
    )


def in_reach(state: BoutState, actor: str, target: str, rules: ArenaRules, *, grapple: bool = False) -> bool:
    """Whether ``actor`` can attack (or grapple) ``target`` from where it stands: within its weapon's
    reach (the grapple reach), plus the data's ``attack_step`` when its Move allows that step."""
    a = state.fighter(actor)
    reach = rules.match.position.grapple_reach if grapple else a.profile.reach
    return distance(state, actor, target) <= reach + reach_step(state, a, rules)


def reach_step(state: BoutState, a: FighterState, rules: ArenaRules) -> int:
    """The metres ``a`` may step with an attack (the data's ``attack_step``, as far as its Move allows),
    which :func:`in_reach` adds to its reach: the same for every target."""
    step = rules.match.position.attack_step
    return min(step, move_allowance(state, a, rules)[0]) if step else 0


def can_attack_someone(state: BoutState, f: FighterState, rules: ArenaRules) -> bool:
    """Whether ``f`` could attack an opponent now (able to act, not stunned, someone within reach)."""
    if f.stunned or not can_act(f, rules):
        return False
    return any(in_reach(state, f.id, t.id, rules) for t in active_targets(state, f))


def override_effects(f: FighterState, condition: str, rules: ArenaRules) -> list[str]:
    """Audience effects a fighter may spend on an offer of ``condition``."""
    if f.audience_points <= 0:
        return []
    effects = rules.match.audience.effects
    if condition == "helpless":
        if rules.match.fp1_override.means != "audience":
            return []
        return [k for k, e in effects.items() if e.kind is AudienceEffectKind.RECOVER_FP]
    return [
        k
        for k, e in effects.items()
        if e.kind is AudienceEffectKind.CHECK_BONUS and CheckKind.GUTS in e.checks
    ]


def can_guts(f: FighterState, rules: ArenaRules) -> bool:
    """Can pay for a guts check (AR.GUT.1) and is not dead."""
    return f.fp >= rules.injury.guts.fp_cost and not f.has(Condition.DEAD)


def free_arms(f: FighterState, rules: ArenaRules) -> list[str]:
    """The arms that can guard: locations that can guard and are not crippled."""
    return [k for k, loc in rules.locations.locations.items() if loc.can_guard and k not in f.crippled]


def damage_to(
    f: FighterState,
    basic: int,
    kind: DamageType,
    location: str,
    *,
    rules: ArenaRules,
    source: DamageSource = DamageSource.ATTACK,
) -> DamageResult:
    """``basic`` damage of ``kind`` through ``f``'s DR, reductions and HT at ``location`` (AR.DMG.1-7)."""
    dr = f.profile.dr_at(location)
    return resolve_damage(
        basic,
        kind,
        ht=f.profile.ht,
        location=location,
        armor_dr=dr.armor,
        bone_dr=dr.bone,
        soft_dr=dr.soft,
        reductions=f.profile.reductions,
        source=source,
        prior_location_damage=f.damage_at(location),
        rules=rules,
    )


@fast_init
@dataclass(frozen=True, slots=True)
class CheckTerms:
    """What a check is rolled against once its bonuses are taken: the effective ``target`` and the
    ``steps`` to it, the audience bonus it uses up (AR.AUD.3) and the FP its guts bonus costs (AR.GUT.3;
    0 without one)."""

    target: int
    steps: tuple[Step, ...]
    audience: CheckBonus | None = None
    guts_fp: int = 0

    def after(self, f: FighterState) -> FighterState:
        """``f`` once the check has taken its bonuses: the audience bonus used up, the guts bonus paid
        (what the bout does before it rolls; :meth:`BoutTurn.check`)."""
        if self.audience is not None:
            f = replace(f, check_bonuses=tuple(b for b in f.check_bonuses if b is not self.audience))
        if self.guts_fp:
            f = replace(f, fp=max(0, f.fp - self.guts_fp))
        return f


def check_terms(
    f: FighterState,
    kind: CheckKind,
    base: int,
    base_reason: str,
    mods: Sequence[Step],
    rule: str,
    *,
    ht_based: bool = False,
    rules: ArenaRules,
) -> CheckTerms:
    """The terms of ``f``'s check of ``kind``: ``base`` and ``mods``, with an audience bonus for this kind
    of check (AR.AUD.3) and, on an HT check its guts-bonus plan names while it keeps the FP the plan
    asks, the guts bonus (AR.GUT.3; one bonus per check by the data's AR.RD.6 reading). The bout rolls
    every check against these terms; the odds read them too."""
    guts_bonus = ht_based and _guts_bonus(f, kind, rules)
    if not f.check_bonuses:
        # No audience bonus: the terms are a pure function of these values and the rules, and a bout
        # rolls the same few checks again and again (HT at each death check...): remembered by the
        # rules, by them (kassen.core.memo).
        given = tuple(mods)
        key = (base, base_reason, given, rule, guts_bonus)
        memo = rules.memos.terms
        terms = memo.get(key)
        if terms is None:
            terms = memo.put(key, _terms(base, base_reason, list(given), rule, None, guts_bonus, rules))
        return terms
    audience = next((b for b in f.check_bonuses if kind in b.checks), None)
    return _terms(base, base_reason, list(mods), rule, audience, guts_bonus, rules)


def _guts_bonus(f: FighterState, kind: CheckKind, rules: ArenaRules) -> bool:
    """Whether an HT check of ``kind`` takes ``f``'s guts bonus: its plan names the kind and ``f`` keeps
    the FP the plan asks after paying (AR.GUT.3)."""
    g = rules.injury.guts
    plan = f.profile.guts_bonus
    return kind in plan.checks and f.fp - g.bonus_fp_cost >= plan.min_fp_after and f.fp >= g.bonus_fp_cost


def _terms(
    base: int,
    base_reason: str,
    mods: list[Step],
    rule: str,
    audience: CheckBonus | None,
    guts_bonus: bool,
    rules: ArenaRules,
) -> CheckTerms:
    """check_terms once the bonuses that apply are known (``mods`` is extended here)."""
    g = rules.injury.guts
    if audience is not None and guts_bonus and g.one_bonus_per_check == "any":
        if audience.amount >= g.bonus:
            guts_bonus = False
            mods.append(Step(0, N_("one bonus per check: the audience bonus, no guts bonus"), "AR.RD.6"))
        else:
            audience = None
            mods.append(
                Step(0, N_("one bonus per check: the guts bonus, the audience bonus kept"), "AR.RD.6")
            )
    if audience is not None:
        mods.append(Step(audience.amount, S_("audience: {source}", source=audience.source), "AR.AUD.3"))
    if guts_bonus:
        mods.append(
            Step(
                g.bonus,
                S_("guts bonus: {cost} FP for +{bonus}", cost=g.bonus_fp_cost, bonus=g.bonus),
                "AR.GUT.3",
            )
        )
    target, steps = effective_target(base, base_reason, mods, rule)
    return CheckTerms(target, steps, audience, g.bonus_fp_cost if guts_bonus else 0)


def ht_check_terms(
    state: BoutState, fid: str, kind: CheckKind, rule: str, rules: ArenaRules, mods: Sequence[Step] = ()
) -> CheckTerms:
    """The terms of an HT check of ``fid``: HT with the penalties in force on HT (none by default: shock
    is on DX and IQ) and the bonuses of :func:`check_terms`."""
    return fighter_ht_terms(state, state.fighter(fid), kind, rule, rules, mods)


def fighter_ht_terms(
    state: BoutState,
    f: FighterState,
    kind: CheckKind,
    rule: str,
    rules: ArenaRules,
    mods: Sequence[Step] = (),
) -> CheckTerms:
    """:func:`ht_check_terms` of ``f``, a fighter of ``state`` already found."""
    if f.check_bonuses:
        mods = (*mods, *attribute_modifiers(state, f.profile.id, "ht", rules))
        return check_terms(f, kind, f.profile.ht, "HT", mods, rule, ht_based=True, rules=rules)
    # No audience bonus: check_terms's memoized case, the penalties in force on HT found with the terms.
    # Those read only the shocks in force (being held is a DX penalty, FP an ST one: _attribute_modifiers),
    # so the terms are remembered by HT, the modifiers given, the shocks, the rule, whether the guts bonus
    # is taken and the rules (``test_ht_terms_memo_reads_what_the_terms_read`` holds every part).
    ht, shocks, given = f.profile.ht, f.shocks, tuple(mods)
    guts_bonus = _guts_bonus(f, kind, rules)
    key = (ht, given, shocks, rule, guts_bonus)
    memo = rules.memos.ht_terms
    terms = memo.get(key)
    if terms is None:
        steps = [*given, *_attribute_modifiers(shocks, 0, False, "ht", rules)]
        terms = memo.put(key, _terms(ht, "HT", steps, rule, None, guts_bonus, rules))
    return terms


def struck_location(t: FighterState, aimed: str, rules: ArenaRules) -> tuple[str, Guard | None]:
    """Where a hit aimed at ``aimed`` strikes ``t``: the arm guarding that location instead, when guards
    redirect (the data's ``combat.guards.redirect``) and the arm is not crippled (AR.GAP.2), with that
    guard; else ``aimed``."""
    guard = t.guard_on(aimed)
    if guard is not None and rules.match.combat.guards.redirect and guard.arm not in t.crippled:
        return guard.arm, guard
    return aimed, None


def weapon_damage(p: Fighter, rules: ArenaRules) -> DiceSpec:
    """The damage dice of ``p``'s weapon before its adds: thrust or swing for its ST (the CORE table), or
    the weapon's own dice (AR.DMG.1)."""
    w = p.weapon
    return DiceSpec(dice=w.dice, adds=0) if w.base == "none" else strength_damage(p.st, w.base, rules)
