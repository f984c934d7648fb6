"""Defense −N in Sengoku (seed 000): a source takes hold on a unit (SG.DBF.1), triggers again —
accumulated or renewed by the reading SG.RD.3 — counts down at the end of a round and expires, or lasts
until removed (SG.DBF.3). :func:`kassen.sengoku.defense.compute_defense` subtracts what is left after
the floors (SG.DBF.2); the functions are re-exported by :mod:`kassen.sengoku.defense`.
"""

from __future__ import annotations

__all__ = ["end_round_debuffs", "remove_debuff", "trigger_debuff"]

from kassen.core.errors import ContentError, ContentIssue
from kassen.core.explain import Step
from kassen.core.fastreplace import replace
from kassen.i18n import S_
from kassen.sengoku.defense_rules import DebuffReading, DefenseRules, load_defense_rules
from kassen.sengoku.profile import CombatProfile, DefenseDebuff


def _debuff_text(debuff: DefenseDebuff) -> str:
    if debuff.source:
        return S_("Defense −{value} ({source})", value=debuff.value, source=debuff.source)
    return S_("Defense −{value}", value=debuff.value)


def trigger_debuff(
    target: CombatProfile, debuff: DefenseDebuff, *, rules: DefenseRules | None = None
) -> tuple[CombatProfile, tuple[Step, ...]]:
    """A Defense −N effect triggers on ``target`` (SG.DBF.1): Defense = current Defense − N.

    Distinct effects stack separately. When the same (named) source triggers again — "Defense −1 each
    round" — the reading SG.RD.3 decides: ``accumulate`` adds N to it (−1, −2, −3…), ``renew`` refreshes
    the one −N. Either way the duration is reset to the new trigger's.
    """
    rules = rules if rules is not None else load_defense_rules()
    if debuff.value < 0:
        raise ContentError(ContentIssue("debuff", "value", f"must be at least 0, got {debuff.value}"))
    same = [i for i, d in enumerate(target.debuffs) if debuff.source and d.source == debuff.source]
    if not same:
        step = Step(debuff.value, S_("{debuff} takes hold", debuff=_debuff_text(debuff)), "SG.DBF.1")
        return replace(target, debuffs=(*target.debuffs, debuff)), (step,)
    i = same[0]
    old = target.debuffs[i]
    if rules.debuffs.each_round is DebuffReading.ACCUMULATE:
        new = replace(old, value=old.value + debuff.value, rounds=debuff.rounds)
        reason = S_(
            "{source} triggers again: accumulates to Defense −{value}", source=debuff.source, value=new.value
        )
    else:
        new = replace(old, value=debuff.value, rounds=debuff.rounds)
        reason = S_(
            "{source} triggers again: renewed at Defense −{value}", source=debuff.source, value=new.value
        )
    debuffs = (*target.debuffs[:i], new, *target.debuffs[i + 1 :])
    return replace(target, debuffs=debuffs), (Step(new.value, reason, "SG.RD.3"),)


def end_round_debuffs(target: CombatProfile) -> tuple[CombatProfile, tuple[Step, ...]]:
    """A round ends: timed Defense −N count down and expire at 0; "until removed" ones stay (SG.DBF.3)."""
    kept: list[DefenseDebuff] = []
    steps: list[Step] = []
    for debuff in target.debuffs:
        if debuff.rounds is None:
            kept.append(debuff)
        elif debuff.rounds > 1:
            kept.append(replace(debuff, rounds=debuff.rounds - 1))
        else:
            steps.append(Step(0, S_("{debuff} ends", debuff=_debuff_text(debuff)), "SG.DBF.3"))
    return replace(target, debuffs=tuple(kept)), tuple(steps)


def remove_debuff(target: CombatProfile, source: str) -> CombatProfile:
    """End every Defense −N from ``source`` ("until parasitism is removed", SG.DBF.3)."""
    return replace(target, debuffs=tuple(d for d in target.debuffs if d.source != source))
