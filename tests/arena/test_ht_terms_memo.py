"""The terms of an HT check remembered by what they read (:func:`kassen.arena.bout.reading.fighter_ht_terms`,
the bout's fast path): each answer is the rules' own (:func:`check_terms` with the penalties in force on
HT), and a change in any part of the key is a new answer."""

from __future__ import annotations

from collections.abc import Sequence

from kassen.arena.bout import BoutState, attribute_modifiers
from kassen.arena.bout.reading import CheckTerms, check_terms, fighter_ht_terms
from kassen.arena.content import load_rules
from kassen.arena.fighter import Shock
from kassen.arena.rules import ArenaRules
from kassen.arena.terms import CheckKind
from kassen.core.explain import Step

from .helpers import RULES, begun, edit, fighter

#: Shock and pain penalize HT too (the other reading of AR.INJ.2): the shocks in force change HT checks.
HT_SHOCK = load_rules({"injury": {"shock": {"attributes": ["dx", "iq", "ht"]}}})


def _rules_own(
    state: BoutState, fid: str, kind: CheckKind, rule: str, rules: ArenaRules, mods: Sequence[Step] = ()
) -> CheckTerms:
    f = state.fighter(fid)
    given = (*mods, *attribute_modifiers(state, fid, "ht", rules))
    return check_terms(f, kind, f.profile.ht, "HT", given, rule, ht_based=True, rules=rules)


def test_ht_terms_memo_reads_what_the_terms_read() -> None:
    # rule: AR.GUT.3, AR.INJ.4 — HT, the modifiers given, the shocks (under a reading where they touch HT),
    # the rule, whether the guts bonus is taken (the kind its plan names, the FP it keeps) and the rules:
    # asked in this order, leaving any of them out of the key gives an earlier, different answer
    base = begun(fighter("a", "east", hp=20), fighter("b", "west"))
    tougher = begun(fighter("a", "east", hp=20, ht=12), fighter("b", "west"))
    shocked = edit(base, "a", shocks=(Shock("shock", 3, 5), Shock("pain", 2, 5)))
    held = edit(shocked, "b", grappling="a")
    cases: list[tuple[BoutState, CheckKind, str, ArenaRules, tuple[Step, ...]]] = [
        (base, CheckKind.DEATH, "AR.HP.3", RULES, ()),
        (tougher, CheckKind.DEATH, "AR.HP.3", RULES, ()),  # HT
        (base, CheckKind.DEATH, "AR.HP.3", RULES, (Step(-2, "given", "AR.FAL.2"),)),  # the modifiers given
        (base, CheckKind.DEATH, "AR.HP.2", RULES, ()),  # the rule
        (base, CheckKind.KNOCKDOWN, "AR.HP.3", RULES, ()),  # no guts bonus: a kind its plan leaves out
        (edit(base, "a", fp=3), CheckKind.DEATH, "AR.HP.3", RULES, ()),  # none: FP 2 left, 3 asked
        (shocked, CheckKind.DEATH, "AR.HP.3", RULES, ()),  # shocks that do not touch HT: the base's
        (shocked, CheckKind.DEATH, "AR.HP.3", HT_SHOCK, ()),  # the rules: now they do
        (base, CheckKind.DEATH, "AR.HP.3", HT_SHOCK, ()),  # the shocks: none in force
        (held, CheckKind.DEATH, "AR.HP.3", HT_SHOCK, ()),  # held: a DX penalty, the same answer
    ]
    answers = []
    for state, kind, rule, rules, mods in cases:
        own = _rules_own(state, "a", kind, rule, rules, mods)
        assert fighter_ht_terms(state, state.fighter("a"), kind, rule, rules, mods) == own
        answers.append(own)
    # the test's own power: each case differs from the one whose key is the same but for its own part
    # (the FP's from the base's), but the shocks under the bundled reading and the hold
    assert all(answers[i] != answers[j] for i, j in ((1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (7, 6), (8, 7)))
    assert answers[6] == answers[0] and answers[9] == answers[7]
