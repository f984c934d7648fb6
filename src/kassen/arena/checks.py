"""3d6 roll-under checks (AR.CORE.1) and quick contests (AR.CORE.2), rolled or as exact odds.

Resolving is separate from rolling: :func:`resolve_check` is a pure function of the three faces, so
tests, the odds calculator and a GM typing in table dice all use the same code; :func:`roll_check` only
draws the faces from a :class:`DieSource` (the injected :class:`~kassen.core.rng.Rng`, or
:class:`ScriptedDice`). The exact odds walk every outcome through the same resolving functions
(:func:`check_outcomes` resolves each total with :func:`resolve_check`; :func:`contest_odds` compares
them with :func:`resolve_contest`), so the odds can never drift from the engine (DESIGN principle 4).

>>> c = resolve_check((2, 3, 5), 12)
>>> c.roll, c.success, c.margin
(10, True, 2)
>>> check_odds(10).success
Fraction(1, 2)
"""

from __future__ import annotations

__all__ = [
    "AttackOutcome",
    "CheckOdds",
    "CheckResult",
    "ContestOdds",
    "ContestResult",
    "DieSource",
    "ScriptedDice",
    "check_is_critical",
    "check_odds",
    "check_outcomes",
    "check_succeeds",
    "contest_odds",
    "effective_target",
    "resolve_attack",
    "resolve_check",
    "resolve_contest",
    "roll_check",
    "roll_distribution",
    "success_chance",
]

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from kassen.arena.content import load_rules
from kassen.arena.rules import CheckRules, Criticals, TieWinner
from kassen.core.errors import KassenError
from kassen.core.explain import Step, steps_to_json
from kassen.core.fastinit import fast_init
from kassen.core.fastreplace import replacer
from kassen.core.rng import DieSource, ScriptedDice
from kassen.dice import enumerate_faces
from kassen.i18n import N_, S_, _

#: A check's outcome in words (success, critical, a margin or none): one sentence shape each.
_OUTCOMES = {
    (True, False, True): N_("{roll} against {target}: success (margin by {by})"),
    (True, False, False): N_("{roll} against {target}: success (margin exactly)"),
    (True, True, True): N_("{roll} against {target}: critical success (margin by {by})"),
    (True, True, False): N_("{roll} against {target}: critical success (margin exactly)"),
    (False, False, True): N_("{roll} against {target}: failure (failed by {by})"),
    (False, False, False): N_("{roll} against {target}: failure (failed exactly)"),
    (False, True, True): N_("{roll} against {target}: critical failure (failed by {by})"),
    (False, True, False): N_("{roll} against {target}: critical failure (failed exactly)"),
}


@fast_init
@dataclass(frozen=True, slots=True)
class CheckResult:
    """A resolved check: ``success`` when the roll is at most the target (AR.CORE.1); ``margin`` is
    signed, target − roll (a failure by 3 is −3); criticals per the data's CORE defaults."""

    faces: tuple[int, ...]
    roll: int
    target: int
    success: bool
    margin: int
    critical: bool
    label: str = "check"

    @property
    def steps(self) -> tuple[Step, ...]:
        """The roll and its outcome explained (AR.CORE.1), built when read: the bout rolls a score of
        checks a battle and only its log shows their words, so they are not written at every roll."""
        faces, roll, target, margin = self.faces, self.roll, self.target, self.margin
        template = _OUTCOMES[self.success, self.critical, bool(margin)]
        return (
            Step(
                roll,
                S_("{label}: 3d6 = {faces}", label=self.label, faces=" + ".join(map(str, faces))),
                "AR.CORE.1",
            ),
            Step(margin, S_(template, roll=roll, target=target, by=abs(margin)), "AR.CORE.1"),
        )

    @property
    def critical_success(self) -> bool:
        return self.critical and self.success

    @property
    def critical_failure(self) -> bool:
        return self.critical and not self.success

    @property
    def margin_of_failure(self) -> int:
        """失敗度: how much the check failed by (0 on a success)."""
        return 0 if self.success else max(0, self.roll - self.target)

    def to_json(self) -> dict[str, Any]:
        return {
            "faces": list(self.faces),
            "roll": self.roll,
            "target": self.target,
            "success": self.success,
            "margin": self.margin,
            "critical": self.critical,
            "steps": steps_to_json(self.steps),
        }


def effective_target(
    base: int, base_reason: str, modifiers: Sequence[Step], rule: str = "AR.CORE.1"
) -> tuple[int, tuple[Step, ...]]:
    """The base attribute or skill plus each modifier (each a :class:`Step` whose value is the
    modifier); returns the total and the steps that explain it."""
    total = base
    steps = [Step(base, base_reason, rule)]
    for m in modifiers:
        if m.value:
            total += m.value
            steps.append(m if type(m) is Step else Step(m.value, m.reason, m.rule))  # immutable: shared
    if len(steps) > 1:
        steps.append(Step(total, N_("effective target"), rule))
    return total, tuple(steps)


def check_succeeds(roll: int, target: int, c: Criticals) -> bool:
    """Whether ``roll`` succeeds against ``target``: 3-4 always, 17-18 never, else roll <= target."""
    if roll <= c.automatic_success_at_most:
        return True
    if roll >= c.automatic_failure_at_least:
        return False
    return roll <= target


def check_is_critical(roll: int, target: int, success: bool, c: Criticals) -> bool:
    """Whether the roll is a critical (success or failure, as ``success`` says) under the data's rows."""
    if success:
        return any(
            roll <= row.roll_at_most and (row.min_target is None or target >= row.min_target)
            for row in c.success
        )
    by_roll = any(
        roll >= row.roll_at_least and (row.max_target is None or target <= row.max_target)
        for row in c.failure
    )
    return by_roll or roll - target >= c.failure_by_margin


def resolve_check(
    faces: Sequence[int], target: int, *, rules: CheckRules | None = None, label: str = "check"
) -> CheckResult:
    """Resolve a 3d6 check of ``faces`` against ``target`` (AR.CORE.1).

    >>> resolve_check((1, 1, 2), 3).critical_success
    True
    >>> resolve_check((6, 6, 5), 16).critical_failure
    False
    """
    r = rules or load_rules().checks
    if len(faces) != r.dice or not all(1 <= f <= r.sides for f in faces):
        text = _("a check needs {dice} faces in 1..{sides}, got {faces}")
        raise KassenError(text.format(dice=r.dice, sides=r.sides, faces=list(faces)))
    return _resolved(tuple(faces), target, r, label)


def _resolved(faces: tuple[int, ...], target: int, r: CheckRules, label: str) -> CheckResult:
    """:func:`resolve_check` of faces known to fit the dice: a pure function of the faces, the target,
    the label and the check rules (immutable). The outcome depends on the faces only through their
    total, so whether it succeeds and whether it is critical are remembered by the check rules, by the
    total and the target (kassen.core.memo); the record itself is written afresh, cheaper than
    remembering it by its faces (216 face tuples for 16 totals: with a fight's new dice most were never
    asked again, yet kept)."""
    roll = faces[0] + faces[1] + faces[2] if len(faces) == 3 else sum(faces)
    key = (roll, target)
    memo = r.memos.judged
    judged = memo.get(key)
    if judged is None:
        success = check_succeeds(roll, target, r.criticals)
        critical = check_is_critical(roll, target, success, r.criticals)
        memo[key] = (success, critical)
    else:
        success, critical = judged
    return _check_result(_CHECK, faces, roll, target, success, target - roll, critical, label)


#: A check result of every field given, written once for the class (kassen.core.fastreplace.replacer:
#: plain stores, where CheckResult(...) goes through the class call and a descriptor call for each of
#: its seven fields; a score of checks a battle), over :data:`_CHECK`, whose fields it all replaces.
_check_result = replacer(CheckResult, "faces", "roll", "target", "success", "margin", "critical", "label")
_CHECK = CheckResult((), 0, 0, False, 0, False)


def roll_check(
    target: int, dice: DieSource, *, rules: CheckRules | None = None, label: str = "check"
) -> CheckResult:
    """Roll 3d6 from ``dice`` and resolve against ``target`` (AR.CORE.1)."""
    r = rules or load_rules().checks
    die, sides = dice.die, r.sides
    if r.dice != 3:
        return resolve_check(tuple([die(sides) for _ in range(r.dice)]), target, rules=r, label=label)
    # three dice, the check of the rules as bundled: resolve_check's test of the faces, unrolled
    a, b, c = die(sides), die(sides), die(sides)
    if not (0 < a <= sides and 0 < b <= sides and 0 < c <= sides):
        text = _("a check needs {dice} faces in 1..{sides}, got {faces}")
        raise KassenError(text.format(dice=r.dice, sides=sides, faces=[a, b, c]))
    return _resolved((a, b, c), target, r, label)


@fast_init
@dataclass(frozen=True, slots=True)
class ContestResult:
    """A quick contest (AR.CORE.2): ``winner`` is ``"first"``, ``"second"`` or ``None`` (a tie), and
    ``margin_of_loss`` is the difference of the two margins (0 on a tie)."""

    first: CheckResult
    second: CheckResult
    winner: str | None
    margin_of_loss: int
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "first": self.first.to_json(),
            "second": self.second.to_json(),
            "winner": self.winner,
            "margin_of_loss": self.margin_of_loss,
            "steps": steps_to_json(self.steps),
        }


def resolve_contest(
    first: CheckResult, second: CheckResult, *, rules: CheckRules | None = None
) -> ContestResult:
    """Compare the two margins: the higher wins, the loser's margin of loss is the difference
    (AR.CORE.2); a tie goes to the data's ``contest.tie_winner`` (house default: nobody).

    >>> a = resolve_check((3, 3, 3), 12)   # margin +3
    >>> b = resolve_check((4, 4, 4), 10)   # margin -2
    >>> resolve_contest(a, b).winner, resolve_contest(a, b).margin_of_loss
    ('first', 5)
    """
    r = rules or load_rules().checks
    diff = first.margin - second.margin
    if diff > 0:
        winner: str | None = "first"
    elif diff < 0:
        winner = "second"
    else:
        tie = r.contest.tie_winner
        winner = None if tie is TieWinner.NONE else tie.value
    loss = abs(diff)
    margins = {"first": f"{first.margin:+d}", "second": f"{second.margin:+d}"}
    if winner and loss:
        reason = S_(
            "margins {first} vs {second}: the {winner} side wins by {loss}",
            **margins,
            winner=winner,
            loss=loss,
        )
    elif winner:
        reason = S_("margins {first} vs {second}: a tie, the {winner} side wins", **margins, winner=winner)
    else:
        reason = S_("margins {first} vs {second}: a tie, nobody wins", **margins)
    return ContestResult(first, second, winner, loss, (Step(loss, reason, "AR.CORE.2"),))


@fast_init
@dataclass(frozen=True, slots=True)
class AttackOutcome:
    """Whether an attack check hits (the AR.GAP.2 house default), why in words, and the quick contest
    when the defender rolled (AR.CORE.2)."""

    hit: bool
    reason: str
    contest: ContestResult | None = None


def resolve_attack(
    attack: CheckResult,
    defend: Callable[[], CheckResult] | None,
    *,
    rules: CheckRules | None = None,
    undefended: str = N_("the target cannot defend"),
) -> AttackOutcome:
    """An attack (or a grapple) check against a defence: a failed roll misses; a critical success hits
    with no defence; a defender that cannot defend (``defend`` is None; ``undefended`` says why) is hit
    by any success; otherwise ``defend()`` rolls the defence and the attack hits when it wins the quick
    contest (AR.CORE.2, with the data's tie reading). A defender's critical success is compared by margin
    like any success, or wins outright, by the data's AR.RD.9 reading (``contest.defender_critical``).
    ``defend`` is called only when a defence is rolled.

    >>> a = resolve_check((3, 3, 3), 14)
    >>> resolve_attack(a, lambda: resolve_check((4, 4, 4), 8)).hit
    True
    >>> resolve_attack(resolve_check((6, 6, 6), 14), None).reason
    'the attack roll failed'
    """
    r = rules or load_rules().checks
    if not attack.success:
        return AttackOutcome(False, N_("the attack roll failed"))
    if attack.critical_success:
        return AttackOutcome(True, N_("critical success: no defence"))
    if defend is None:
        return AttackOutcome(True, undefended)
    defence = defend()
    if defence.critical_success and r.contest.defender_critical == "wins_outright":
        return AttackOutcome(False, N_("the defence is a critical success: it wins outright"))
    contest = resolve_contest(attack, defence, rules=r)
    return AttackOutcome(contest.winner == "first", contest.steps[0].reason, contest)


# -- exact odds (principle 4): every outcome resolved by the functions above ------------------------------
@lru_cache(maxsize=4)
def roll_distribution(dice: int = 3, sides: int = 6) -> dict[int, int]:
    """How many of the equally likely face tuples (216 for 3d6) give each total."""
    counts: dict[int, int] = {}
    for faces in enumerate_faces(dice, sides):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    return counts


@lru_cache(maxsize=4)
def _representatives(dice: int, sides: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """One face tuple for each total, with how many face tuples give that total."""
    first: dict[int, tuple[int, ...]] = {}
    for faces in enumerate_faces(dice, sides):
        first.setdefault(sum(faces), tuple(faces))
    dist = roll_distribution(dice, sides)
    return tuple((first[total], dist[total]) for total in sorted(first))


def check_outcomes(target: int, *, rules: CheckRules | None = None) -> tuple[tuple[CheckResult, int], ...]:
    """Every outcome of a check against ``target``, each resolved by :func:`resolve_check`, with how
    many of the 216 face tuples give it (a check depends on the faces only through their total, so one
    face tuple stands for each total).

    >>> sum(n for _, n in check_outcomes(10)), sum(n for c, n in check_outcomes(10) if c.success)
    (216, 108)
    """
    r = rules or load_rules().checks
    # A pure function of the target and the check rules (immutable): every exact table the heuristic
    # builds for a new attack/defence pair asks for the outcomes of both targets again.
    memo = r.memos.outcomes
    found = memo.get(target)
    return found if found is not None else memo.put(target, _check_outcomes(target, r))


def _check_outcomes(target: int, r: CheckRules) -> tuple[tuple[CheckResult, int], ...]:
    return tuple((resolve_check(faces, target, rules=r), n) for faces, n in _representatives(r.dice, r.sides))


@dataclass(frozen=True, slots=True)
class CheckOdds:
    """Exact probabilities of a check's outcomes (each a fraction over 216; ``counts`` are the
    numerators over 216)."""

    target: int
    success: Fraction
    critical_success: Fraction
    critical_failure: Fraction
    failure: Fraction
    counts: tuple[int, int, int, int]

    def to_json(self) -> dict[str, Any]:
        names = ("success", "critical_success", "critical_failure", "failure")
        out: dict[str, Any] = {"target": self.target, "denominator": sum(self.counts[0::3])}
        for name, count in zip(names, self.counts, strict=True):
            p: Fraction = getattr(self, name)
            out[name] = {
                "over_216": count,
                "fraction": f"{p.numerator}/{p.denominator}",
                "probability": float(p),
            }
        return out


def check_odds(target: int, *, rules: CheckRules | None = None) -> CheckOdds:
    """Exact odds of a check against ``target``: every outcome of :func:`check_outcomes` (AR.CORE.1).

    >>> o = check_odds(10)
    >>> o.counts
    (108, 4, 4, 108)
    """
    r = rules or load_rules().checks
    # A pure function of the target and the check rules (immutable): the heuristic asks it on every
    # stun and offer (remembered by the check rules, kassen.core.memo).
    memo = r.memos.odds
    found = memo.get(target)
    return found if found is not None else memo.put(target, _check_odds(target, r))


def success_chance(target: int, *, rules: CheckRules | None = None) -> Fraction:
    """``check_odds(target).success`` (AR.CORE.1), read at the nearest target with the same chance: a
    roll at most ``automatic_success_at_most`` always succeeds and one at least
    ``automatic_failure_at_least`` always fails (:func:`check_succeeds`), so every target below the
    first (above the last but one) succeeds as often as that one. A guts check's target falls far below
    (AR.GUT.2): each new one would have its whole odds worked out for the same chance."""
    r = rules or load_rules().checks
    c = r.criticals
    low, high = c.automatic_success_at_most, c.automatic_failure_at_least - 1
    if low <= high:
        target = low if target < low else high if target > high else target
    return check_odds(target, rules=r).success


def _check_odds(target: int, rules: CheckRules) -> CheckOdds:
    succ = crit_s = crit_f = outcomes = 0
    for c, n in check_outcomes(target, rules=rules):
        outcomes += n
        succ += n if c.success else 0
        crit_s += n if c.critical_success else 0
        crit_f += n if c.critical_failure else 0
    fail = outcomes - succ
    return CheckOdds(
        target,
        Fraction(succ, outcomes),
        Fraction(crit_s, outcomes),
        Fraction(crit_f, outcomes),
        Fraction(fail, outcomes),
        (succ, crit_s, crit_f, fail),
    )


@dataclass(frozen=True, slots=True)
class ContestOdds:
    """Exact odds of a quick contest: the first side wins, the second wins, nobody wins."""

    first: Fraction
    second: Fraction
    tie: Fraction


def contest_odds(first_target: int, second_target: int, *, rules: CheckRules | None = None) -> ContestOdds:
    """Exact odds that each side wins a quick contest (AR.CORE.2), over 216 × 216 outcomes, each
    resolved by :func:`resolve_contest` (so a tie goes where the data's ``contest.tie_winner`` says).

    >>> contest_odds(10, 10).first == contest_odds(10, 10).second
    True
    """
    r = rules or load_rules().checks
    wins: dict[str | None, int] = {"first": 0, "second": 0, None: 0}
    for a, na in check_outcomes(first_target, rules=r):
        for b, nb in check_outcomes(second_target, rules=r):
            wins[resolve_contest(a, b, rules=r).winner] += na * nb
    total = sum(wins.values())
    return ContestOdds(
        Fraction(wins["first"], total), Fraction(wins["second"], total), Fraction(wins[None], total)
    )
