"""The rolls of a roll-and-keep fight, as pure functions: which pool, against which TN, and why.

Each function returns its value with the explanation steps (value, reason, rule ID) that produced it.
They read a :class:`~kassen.l5r.state.Fighter` (a character and its injuries) and the tables; they never
roll: rolling is :func:`kassen.l5r.pool.roll_pool` with the injected RNG.
"""

from __future__ import annotations

__all__ = [
    "AttackPool",
    "RaisePlan",
    "attack_pool",
    "attack_tn",
    "damage_pool",
    "defense_tn",
    "dice_change",
    "full_defense_pool",
    "hand_to_hand",
    "initiative_pool",
    "is_blacked_out",
    "plan_raises",
    "raise_cost",
    "raise_limit",
    "rank",
    "skill_pool",
    "wound_penalty",
]

from collections.abc import Iterable
from dataclasses import dataclass

from kassen.core.errors import IllegalActionError
from kassen.core.explain import Step
from kassen.core.fastinit import fast_init
from kassen.i18n import S_
from kassen.l5r.actions import Attack
from kassen.l5r.character import Character, earth, tn_to_be_hit_base
from kassen.l5r.pool import Pool, ten_dice
from kassen.l5r.state import Fighter, Status
from kassen.l5r.tables import L5Tables, Location, RollKind, SpecialAttackName
from kassen.l5r.wounds import RankState, wound_rank

# The readings below are remembered by the tables (``L5Tables.memos``, kassen.core.memo): legal actions
# and the heuristic ask for the same pools and TNs of the same fighters hundreds of times per decision.
# Each public function takes the values its reading needs out of the fighter, and hands exactly those
# (its memo key, ``*key``) and the tables to a private function of plain values: the private function
# has nothing else to read, so a rule that comes to read one more value must add it to the key.
# The explanation steps come with each result.


def rank(fighter: Fighter, tables: L5Tables, wounds: int | None = None) -> RankState:
    """The fighter's wound rank (L5.CORE.6); ``wounds`` overrides the current Wounds."""
    # the Wounds, death (when not overridden) and the character: not the fighter (a new one after any
    # change), so it is worked out once per rank
    key = (fighter.wounds if wounds is None else wounds, fighter.dead and wounds is None, fighter.character)
    memo = tables.memos.ranks
    found = memo.get(key)
    return found if found is not None else memo.put(key, _rank(*key, tables))


def _rank(wounds: int, dead: bool, character: Character, tables: L5Tables) -> RankState:
    state = wound_rank(wounds, earth(character, tables), tables)
    if dead:
        return RankState(state.wounds, "Dead", 0, False, True)
    return state


def wound_penalty(
    fighter: Fighter, tables: L5Tables, wounds: int | None = None
) -> tuple[int, tuple[Step, ...]]:
    """The TN penalty of the fighter's wound rank, added to the TN of its rolls (L5.CORE.6)."""
    # not remembered itself (that gained under 2% an action): the rank it reads is
    r = rank(fighter, tables, wounds)
    if r.tn_penalty == 0:
        return 0, ()
    return r.tn_penalty, (
        Step(
            r.tn_penalty,
            S_("{name} is {rank}: +{penalty} TN", name=fighter.name, rank=r.name, penalty=r.tn_penalty),
            "L5.CORE.6",
        ),
    )


def dice_change(fighter: Fighter, turn: int, kinds: Iterable[RollKind]) -> tuple[int, tuple[Step, ...]]:
    """Dice added or lost on a roll of these kinds by the fighter's injuries (L5.TOR.1 painful,
    L5.ARM.1/L5.HND.1 deep gash, L5.LEG.1 weak leg, L5.FOT.1 no weight)."""
    return _dice_change(active_now(fighter, turn), kinds)


def _dice_change(active: tuple[Status, ...], kinds: Iterable[RollKind]) -> tuple[int, tuple[Step, ...]]:
    """:func:`dice_change` from the statuses active on the roll's turn."""
    wanted = set(kinds)
    total = 0
    steps: list[Step] = []
    for s in _of(active, "dice"):
        if s.applies_to in wanted:
            total += s.amount
            steps.append(
                Step(
                    s.amount,
                    S_(
                        "{source}: {amount} die on {kind} rolls",
                        source=s.source,
                        amount=f"{s.amount:+d}",
                        kind=s.applies_to,
                    ),
                    s.rule,
                )
            )
    return total, tuple(steps)


def active_now(fighter: Fighter, turn: int) -> tuple[Status, ...]:
    """The fighter's statuses active on ``turn`` (compared by value): all that the pools and the TN to be
    hit read of its statuses and the turn, where none reads a fading amount (``Status.amount_on``)."""
    statuses = fighter.statuses
    if not statuses:
        return statuses
    return tuple(s for s in statuses if s.active(turn))


def _of(active: tuple[Status, ...], kind: str) -> tuple[Status, ...]:
    """The statuses of one kind among those active (``Fighter.active`` of the statuses active now)."""
    return tuple(s for s in active if s.kind == kind)


def is_blacked_out(fighter: Fighter, turn: int) -> bool:
    """Blackout: loses the next action, may not declare Full Defense, normal TN (L5.HED.1)."""
    return any(s.amount > 0 for s in fighter.active("blackout", turn))


def skill_pool(
    fighter: Fighter,
    tables: L5Tables,
    turn: int,
    *,
    trait: int,
    trait_name: str,
    skill: int,
    skill_name: str,
    kinds: Iterable[RollKind],
    keep_skill: bool = False,
) -> tuple[Pool, tuple[Step, ...]]:
    """Trait + Skill dice, keep Trait (L5.CORE.9); ``keep_skill`` keeps the skill instead (Disarm's
    stated exception, L5.DSM.1). No skill: an unskilled roll that does not explode (L5.CORE.1)."""
    kept = skill if keep_skill else trait
    steps = [
        Step(trait, f"{trait_name} {trait}", "L5.CORE.9"),
        Step(
            skill,
            S_("{skill} {value} (unskilled: 10s do not explode)", skill=skill_name, value=skill)
            if skill == 0
            else f"{skill_name} {skill}",  # a word and a number: kassen.l5r.say says it
            "L5.CORE.9" if skill else "L5.CORE.1",
        ),
    ]
    change, change_steps = dice_change(fighter, turn, kinds)
    steps += change_steps
    pool = Pool(trait + skill + change, kept, explode=skill > 0).normalized()
    pool, ten = ten_dice(pool, tables.core.ten_dice)
    steps += ten
    text = (
        S_(
            "roll {pool} ({trait} + {skill}, keep {skill_again})",
            pool=pool,
            trait=trait_name,
            skill=skill_name,
            skill_again=skill_name,
        )
        if keep_skill
        else S_(
            "roll {pool} ({trait} + {skill}, keep {trait_again})",
            pool=pool,
            trait=trait_name,
            skill=skill_name,
            trait_again=trait_name,
        )
    )
    steps.append(Step(pool.rolled, text, "L5.CORE.9"))
    return pool, tuple(steps)


def hand_to_hand(fighter: Fighter, tables: L5Tables) -> tuple[str, int]:
    """The best Hand-to-Hand skill ("any type", L5.CAC.1)."""
    names = tables.core.skills.hand_to_hand
    best = max(names, key=lambda n: (fighter.character.skill(n), -names.index(n)))
    return best, fighter.character.skill(best)


def full_defense_pool(fighter: Fighter, tables: L5Tables, turn: int) -> tuple[Pool, tuple[Step, ...]]:
    """Agility + Defense, keep Agility (L5.CORE.7 house default); a weak leg rolls one less (L5.LEG.1)."""
    c = fighter.character
    name = tables.core.skills.defense
    return skill_pool(
        fighter,
        tables,
        turn,
        trait=c.agility,
        trait_name="Agility",
        skill=c.skill(name),
        skill_name=name,
        kinds=("full_defense", "skill"),
    )


def initiative_pool(fighter: Fighter, tables: L5Tables, turn: int) -> tuple[Pool, int, tuple[Step, ...]]:
    """Insight Rank + Reflexes, keep Reflexes (L5.CORE.8 house default), and the flat change from
    injuries this turn (L5.HED.1 dazed, L5.TOR.1 stunned)."""
    c = fighter.character
    rule = tables.core.initiative
    rolled = sum(c.stat(s) for s in rule.rolled)
    kept = sum(c.stat(s) for s in rule.kept)
    steps = [
        Step(rolled, S_("initiative: roll {stats}", stats=" + ".join(rule.rolled)), "L5.CORE.8"),
        Step(kept, S_("keep {stats}", stats=" + ".join(rule.kept)), "L5.CORE.8"),
    ]
    pool, ten = ten_dice(Pool(rolled, kept).normalized(), tables.core.ten_dice)
    steps += ten
    change = 0
    for s in fighter.active("initiative", turn):
        amount = s.amount_on(turn)
        if amount:
            change += amount
            steps.append(
                Step(
                    amount,
                    S_("{source}: {amount} initiative", source=s.source, amount=f"{amount:+d}"),
                    s.rule,
                )
            )
    return pool, change, tuple(steps)


def defense_tn(target: Fighter, tables: L5Tables, turn: int) -> tuple[int, tuple[Step, ...]]:
    """The target's TN to be hit this turn: base (L5.CORE.2), Full Defense bonus and Full Attack
    (L5.CORE.7), blood in eyes (L5.HED.1), prone (L5.FOT.1, L5.GAP.1)."""
    # the character, the statuses active this turn, the Full Defense bonus and a declared Full Attack:
    # not the fighter (a new one after any change) nor the turn, so it is worked out once for them
    declared = target.declared
    full = isinstance(declared, Attack) and declared.full_attack
    key = (target.character, active_now(target, turn), target.full_defense_bonus, full)
    memo = tables.memos.defense_tns
    found = memo.get(key)
    return found if found is not None else memo.put(key, _defense_tn(*key, tables))


def _defense_tn(
    character: Character,
    active: tuple[Status, ...],
    full_defense_bonus: int,
    full_attack: bool,
    tables: L5Tables,
) -> tuple[int, tuple[Step, ...]]:
    tn, base_steps = tn_to_be_hit_base(character, tables)
    steps = list(base_steps)
    if full_defense_bonus:
        if any(s.amount > 0 for s in _of(active, "blackout")):  # is_blacked_out
            steps.append(Step(0, S_("blackout: normal TN to be hit, no Full Defense bonus"), "L5.HED.1"))
        else:
            tn += full_defense_bonus
            steps.append(
                Step(full_defense_bonus, S_("Full Defense: half the Agility + Defense roll"), "L5.CORE.7")
            )
    if full_attack:
        change = tables.core.full_attack.tn_to_be_hit_change
        tn += change
        steps.append(Step(change, S_("{name} declared a Full Attack", name=character.name), "L5.CORE.7"))
    for s in _of(active, "tn_to_be_hit"):
        tn += s.amount
        steps.append(Step(s.amount, f"{s.source}", s.rule))
    prone = _of(active, "prone")
    if prone:
        tn = tables.called_shots.conditions.prone_tn_to_be_hit
        steps.append(
            Step(
                tn, S_("prone ({source}): TN to be hit is {tn}", source=prone[0].source, tn=tn), prone[0].rule
            )
        )
    steps.append(Step(tn, S_("{name}'s TN to be hit this turn", name=character.name), "L5.CORE.2"))
    return tn, tuple(steps)


@fast_init
@dataclass(frozen=True, slots=True)
class AttackPool:
    """The attack roll's pool and whether the attacker is unskilled on it (no raises, L5.CORE.3)."""

    pool: Pool
    unskilled: bool
    unskilled_rule: str
    steps: tuple[Step, ...]


def attack_pool(attacker: Fighter, tables: L5Tables, turn: int, *, full_attack: bool) -> AttackPool:
    """Agility + weapon skill, keep Agility (L5.CORE.9), with Full Attack's +2k1 (L5.CORE.7) and the
    injuries and binds that touch attack rolls (L5.ARM.1, L5.HND.1, L5.TOR.1, L5.BND.1)."""
    # the character and the statuses active this turn (as defense_tn)
    key = (attacker.character, active_now(attacker, turn), full_attack)
    memo = tables.memos.attack_pools
    found = memo.get(key)
    return found if found is not None else memo.put(key, _attack_pool(*key, tables))


def _attack_pool(c: Character, active: tuple[Status, ...], full_attack: bool, tables: L5Tables) -> AttackPool:
    skill = c.weapon_skill
    steps = [
        Step(c.agility, f"Agility {c.agility}", "L5.CORE.9"),
        Step(skill, f"{c.weapon.skill} {skill}", "L5.CORE.9"),
    ]
    unskilled_rule = "L5.CORE.3"
    for s in _of(active, "bound"):
        skill = max(0, skill - s.amount)
        steps.append(
            Step(
                -s.amount,
                S_(
                    "bound by {other}: skill -{amount}, now {skill}",
                    other=s.other,
                    amount=s.amount,
                    skill=skill,
                ),
                "L5.BND.1",
            )
        )
        unskilled_rule = "L5.BND.1"
    unskilled = skill == 0
    if unskilled and unskilled_rule == "L5.CORE.3":
        steps.append(Step(0, S_("no weapon skill: unskilled (no raises, 10s do not explode)"), "L5.CORE.1"))
    numb = _of(active, "unskilled")
    if numb:
        unskilled = True
        unskilled_rule = numb[0].rule
        steps.append(
            Step(
                0,
                S_("{source}: unskilled on attacks (no raises, no exploding 10s)", source=numb[0].source),
                numb[0].rule,
            )
        )
    skill_dice = skill
    grip = _of(active, "no_skill_dice")
    if grip:
        skill_dice = 0
        steps.append(
            Step(-skill, S_("{source}: no skill dice on attacks", source=grip[0].source), grip[0].rule)
        )
    explode = not unskilled
    tens = _of(active, "no_reroll_tens")
    if tens:
        explode = False
        steps.append(
            Step(0, S_("{source}: no re-rolling 10s on attack rolls", source=tens[0].source), tens[0].rule)
        )
    rolled, kept = c.agility + skill_dice, c.agility
    if full_attack:
        fa = tables.core.full_attack
        rolled, kept = rolled + fa.attack_rolled, kept + fa.attack_kept
        steps.append(
            Step(
                fa.attack_rolled,
                S_("Full Attack: +{dice}", dice=f"{fa.attack_rolled}k{fa.attack_kept}"),
                "L5.CORE.7",
            )
        )
    change, change_steps = _dice_change(active, ("attack", "skill"))
    steps += change_steps
    pool, ten = ten_dice(Pool(rolled + change, kept, explode).normalized(), tables.core.ten_dice)
    steps += ten
    steps.append(Step(pool.rolled, S_("attack roll {pool}", pool=pool), "L5.CORE.9"))
    return AttackPool(pool, unskilled, unskilled_rule, tuple(steps))


def raise_limit(fighter: Fighter, tables: L5Tables) -> int | None:
    """How many raises one roll may carry (L5.CORE.3 house default: Void); ``None``: no limit."""
    r = tables.core.raises
    c = fighter.character
    base = {"void": c.void, "insight_rank": c.insight_rank, "weapon_skill": c.weapon_skill}.get(r.limit)
    return None if base is None else base + r.limit_bonus


def raise_cost(attack: Attack, tables: L5Tables) -> tuple[int, tuple[Step, ...]]:
    """Raises the declared effects need: damage (L5.DMG.1), called shot (L5.CS.1), special (L5.SPC.1)."""
    return _raise_cost(attack.damage_raises, attack.called_shot, attack.special, tables)


def _raise_cost(
    damage_raises: int, called_shot: Location | None, special: SpecialAttackName | None, tables: L5Tables
) -> tuple[int, tuple[Step, ...]]:
    steps: list[Step] = []
    total = 0
    if damage_raises:
        total += damage_raises
        steps.append(Step(damage_raises, S_("raises for damage"), "L5.DMG.1"))
    if called_shot is not None:
        row = tables.location(called_shot)
        total += row.raises
        steps.append(
            Step(row.raises, S_("called shot to the {location}", location=called_shot.value), "L5.CS.1")
        )
    if special is not None:
        sp = tables.special(special)
        total += sp.raises
        steps.append(Step(sp.raises, special.value.replace("_", "-"), sp.rule))
    return total, tuple(steps)


@dataclass(frozen=True, slots=True)
class RaisePlan:
    """How the raises are paid (L5.CORE.3, L5.CORE.4): Free Raises first, the rest paid in TN."""

    needed: int
    free_used: int
    paid: int
    free_unused: int
    tn_change: int
    steps: tuple[Step, ...]


def plan_raises(
    attack: Attack,
    attacker: Fighter,
    tables: L5Tables,
    *,
    free: int,
    unskilled: bool,
    unskilled_rule: str = "L5.CORE.3",
) -> RaisePlan:
    """Pay for the declared raises; raises :class:`IllegalActionError` for more raises than allowed
    (L5.CORE.3) or any raise while unskilled (L5.CORE.3, L5.HND.1, L5.BND.1)."""
    # of the attacker only its raise limit and its name (in a refusal): not the character, so a plan is
    # remembered from one fight of a scenario to the next
    key = (
        attack.damage_raises,
        attack.called_shot,
        attack.special,
        raise_limit(attacker, tables),
        attacker.name,
        free,
        unskilled,
        unskilled_rule,
    )
    memo = tables.memos.plans
    plan = memo.get(key)
    if plan is None:
        plan = memo.put(key, _plan_or_refusal(*key, tables))
    if isinstance(plan, RaisePlan):
        return plan
    raise IllegalActionError(plan[0], rule=plan[1])  # a fresh error each time, as before


def _plan_or_refusal(
    damage_raises: int,
    called_shot: Location | None,
    special: SpecialAttackName | None,
    limit: int | None,
    name: str,
    free: int,
    unskilled: bool,
    unskilled_rule: str,
    tables: L5Tables,
) -> RaisePlan | tuple[str, str]:
    """The plan, or the refusal's message and rule (kept in the memo instead of the exception)."""
    needed, steps_list = _raise_cost(damage_raises, called_shot, special, tables)
    steps = list(steps_list)
    per = tables.core.raises.tn_per_raise
    if unskilled and needed:
        return (
            S_("{name} is unskilled on this attack and may not raise ({n} declared)", name=name, n=needed),
            unskilled_rule,
        )
    free_used = min(free, needed)
    paid = needed - free_used
    if limit is not None and paid > limit:
        said = dict(name=name, limit=limit, stat=tables.core.raises.limit, paid=paid, free=free_used)
        return (
            S_(
                "{name} may carry at most {limit} raise(s) on one roll ({stat}); {paid} declared beyond {free} Free",  # noqa: E501
                **said,
            )
            if free_used
            else S_(
                "{name} may carry at most {limit} raise(s) on one roll ({stat}); {paid} declared", **said
            ),
            "L5.CORE.3",
        )
    unused = free - free_used
    lower = tables.core.free_raises.unused_lowers_tn_by
    if free_used:
        steps.append(Step(free_used, S_("paid by Free Raises (no TN increase, not counted)"), "L5.CORE.4"))
    if paid:
        steps.append(Step(paid * per, S_("{n} raise(s): +{per} TN each", n=paid, per=per), "L5.CORE.3"))
    if unused and lower:
        steps.append(
            Step(
                -unused * lower,
                S_("{n} unused Free Raise(s): -{lower} TN each", n=unused, lower=lower),
                "L5.CORE.4",
            )
        )
    return RaisePlan(needed, free_used, paid, unused, paid * per - unused * lower, tuple(steps))


def attack_tn(
    attacker: Fighter,
    target: Fighter,
    plan: RaisePlan,
    tables: L5Tables,
    turn: int,
    *,
    attacker_wounds: int | None = None,
) -> tuple[int, tuple[Step, ...]]:
    """TN of the attack roll: the target's TN to be hit, +5 per paid raise, -5 per unused Free Raise
    (L5.CORE.3, L5.CORE.4), plus the attacker's wound penalty (L5.CORE.6)."""
    tn, steps = defense_tn(target, tables, turn)
    penalty, penalty_steps = wound_penalty(attacker, tables, attacker_wounds)
    total = tn + plan.tn_change + penalty
    all_steps = (*steps, *plan.steps, *penalty_steps, Step(total, S_("TN of the attack roll"), "L5.CORE.3"))
    return total, all_steps


def damage_pool(
    attacker: Fighter, attack: Attack, tables: L5Tables, turn: int, *, damage_raises: int
) -> tuple[Pool, tuple[Step, ...]]:
    """Weapon XkY with Strength added to the dice rolled (L5.CORE.5), +1k0 per raise for damage
    (L5.DMG.1), one less die per deep gash (L5.ARM.1, L5.HND.1), Subdue -1k0 (L5.SUB.1)."""
    # not remembered (that gained under 2% an action): worked out from what it reads alone
    return _damage_pool(attacker.character, active_now(attacker, turn), attack.special, damage_raises, tables)


def _damage_pool(
    c: Character,
    active: tuple[Status, ...],
    special: SpecialAttackName | None,
    damage_raises: int,
    tables: L5Tables,
) -> tuple[Pool, tuple[Step, ...]]:
    w = c.weapon
    steps = [
        Step(w.rolled, f"{w.name} {w.damage}", "L5.CORE.5"),
        Step(c.strength, S_("Strength {value} added to the dice rolled", value=c.strength), "L5.CORE.5"),
    ]
    rolled = w.rolled + c.strength
    per = tables.core.raises.damage_rolled_per_raise
    if damage_raises:
        rolled += damage_raises * per
        steps.append(
            Step(
                damage_raises * per,
                S_("{n} raise(s) for damage: +{per}k0 each", n=damage_raises, per=per),
                "L5.DMG.1",
            )
        )
    change, change_steps = _dice_change(active, ("damage",))
    rolled += change
    steps += change_steps
    if special is not None:
        sp = tables.special(special)
        if sp.damage_rolled:
            rolled += sp.damage_rolled
            steps.append(
                Step(
                    sp.damage_rolled,
                    S_("{special}: {dice}k0", special=special.value, dice=f"{sp.damage_rolled:+d}"),
                    sp.rule,
                )
            )
    pool, ten = ten_dice(Pool(rolled, w.kept).normalized(), tables.core.ten_dice)
    steps += ten
    steps.append(Step(pool.rolled, S_("damage roll {pool}", pool=pool), "L5.CORE.5"))
    return pool, tuple(steps)
