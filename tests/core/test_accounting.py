"""No silent change of state, no stranger named: for every registered ruleset (the test-only coin-flip
duel included) and every bundled scenario over several seeds, each change between consecutive states
is told by an event of that action, and no event names a unit that is not in the fight. The ruleset
says what changed and which events tell it through its ``accounting`` hook (:mod:`kassen.core.accounting`,
``docs/core.md``)."""

from __future__ import annotations

from typing import Any

import coinflip
import pytest

from kassen.core.accounting import Accounting, silent_changes, strangers
from kassen.core.ruleset import register_ruleset, registered_rulesets, unregister_ruleset
from kassen.core.scenario import bundled_scenarios, open_fight

SEEDS = (1, 2, 3)

#: Known silent changes, each to be fixed where its ruleset is worked on (strict=False: a fix passes).
#: Sengoku: its events name units by display name while unit ids are being added to every event (with
#: the silent bleed of an automatic critical); remove these once that lands.
KNOWN: dict[tuple[str, str, int], str] = {
    ("sengoku", "burning-temple", 1): (
        "Sengoku events name units by display name, not id (attack_check: 'Abe no Sayo', in "
        "attack_check, bleed, critical_hit, defenseless, fate_spent, fumble, hit, incapacitated, "
        "miss, wounds_lost), so bleeding, defenseless, incapacitated, wounds changes are told by "
        "no event naming the unit"
    ),
    ("sengoku", "burning-temple", 2): (
        "Sengoku events name units by display name, not id (attack_check: 'Abe no Sayo', in "
        "attack_check, bleed, critical_hit, defenseless, fate_spent, fumble, hit, incapacitated, "
        "miss, table_effect, wounds_lost), so bleeding, defenseless, fate_points, incapacitated, "
        "wounds changes are told by no event naming the unit"
    ),
    ("sengoku", "burning-temple", 3): (
        "Sengoku events name units by display name, not id (attack_check: 'Abe no Sayo', in "
        "attack_check, bleed, critical_hit, defenseless, fate_spent, fumble, hit, incapacitated, "
        "miss, wounds_lost), so bleeding, defenseless, incapacitated, wounds changes are told by "
        "no event naming the unit"
    ),
    ("sengoku", "count-example", 1): (
        "Sengoku events name units by display name, not id (attack_check: 'Genzaburo', in "
        "attack_check, critical_hit, fate_spent, hit, incapacitated, miss, table_effect, "
        "wounds_lost), so incapacitated, wounds changes are told by no event naming the unit"
    ),
    ("sengoku", "count-example", 2): (
        "Sengoku events name units by display name, not id (attack_check: 'Genzaburo', in "
        "attack_check, critical_hit, hit, incapacitated, wounds_lost), so incapacitated, wounds "
        "changes are told by no event naming the unit"
    ),
    ("sengoku", "count-example", 3): (
        "Sengoku events name units by display name, not id (attack_check: 'Genzaburo', in "
        "attack_check, hit, incapacitated, miss, wounds_lost), so incapacitated, wounds changes "
        "are told by no event naming the unit"
    ),
    ("sengoku", "demo", 1): (
        "Sengoku events name units by display name, not id (attack_check: 'Genzaburo', in "
        "attack_check, bleed, critical_hit, defenseless, fate_spent, fumble, hit, incapacitated, "
        "miss, table_effect, wounds_lost), so bleeding, defenseless, fate_points, incapacitated, "
        "wounds changes are told by no event naming the unit"
    ),
    ("sengoku", "demo", 2): (
        "Sengoku events name units by display name, not id (attack_check: 'Genzaburo', in "
        "attack_check, bleed, critical_hit, fate_spent, hit, incapacitated, miss, table_effect, "
        "wounds_lost), so bleeding, defenseless, incapacitated, wounds changes are told by no "
        "event naming the unit"
    ),
    ("sengoku", "demo", 3): (
        "Sengoku events name units by display name, not id (attack_check: 'Genzaburo', in "
        "attack_check, bleed, critical_hit, defenseless, fate_spent, fumble, hit, incapacitated, "
        "miss, wounds_lost), so bleeding, defenseless, incapacitated, wounds changes are told by "
        "no event naming the unit"
    ),
}


def _cases() -> list[Any]:
    # listed with the coin-flip duel registered, then forgotten: the session fixture registers it for
    # the tests, and other modules collected after this one list only the bundled rulesets
    register_ruleset(coinflip.RULESET)
    try:
        return _listed()
    finally:
        unregister_ruleset("coinflip")


def _listed() -> list[Any]:
    out = []
    for r in registered_rulesets():
        for s in bundled_scenarios(r):
            for seed in SEEDS:
                reason = KNOWN.get((r, s.name, seed))
                marks = [pytest.mark.xfail(reason=reason, strict=False)] if reason else []
                out.append(pytest.param(r, s.name, seed, id=f"{r}:{s.name}:{seed}", marks=marks))
    return out


def test_every_ruleset_tells_how_its_events_account_for_its_changes() -> None:
    from kassen.core.ruleset import find_ruleset

    for name in registered_rulesets():
        accounting = getattr(find_ruleset(name), "accounting", None)
        assert isinstance(accounting, Accounting), name
        assert accounting.told_by, name


@pytest.mark.parametrize(("ruleset", "name", "seed"), _cases())
def test_every_change_is_told_by_an_event_of_its_action(ruleset: str, name: str, seed: int) -> None:
    fight = open_fight(f"{ruleset}/{name}", seed=seed)
    fight.autoplay()
    rs = fight.ruleset
    accounting: Accounting[Any] = rs.accounting
    states = fight.states
    silent, unknown = [], []
    for i, entry in enumerate(fight.entries):
        before, after = states[i], states[i + 1]
        for change in silent_changes(accounting, before, after, entry.events):
            kinds = sorted({e.kind for e in entry.events})
            silent.append(f"action {i} ({type(entry.action).__name__}): {change} changed, events {kinds}")
        units = set(rs.units(before)) | set(rs.units(after))
        unknown += [f"action {i}: {s}" for s in strangers(accounting, entry.events, units)]
    assert not silent, "silent changes:\n" + "\n".join(silent[:12])
    assert not unknown, "events name units not in the fight:\n" + "\n".join(unknown[:12])


def test_a_change_no_event_tells_and_a_stranger_are_both_caught() -> None:
    fight = open_fight("coinflip/" + bundled_scenarios("coinflip")[0].name, seed=1)
    fight.autoplay()
    accounting: Accounting[Any] = fight.ruleset.accounting
    i = next(i for i, e in enumerate(fight.entries) if any(ev.kind == "flip" for ev in e.events))
    before, after, events = fight.states[i], fight.states[i + 1], fight.entries[i].events
    assert not silent_changes(accounting, before, after, events)
    quiet = [e for e in events if e.kind != "flip"]  # the flip that cost the tokens, left out
    assert [c.what for c in silent_changes(accounting, before, after, quiet)] == ["tokens"]
    flip = next(e for e in events if e.kind == "flip")
    other = type(flip)(
        flip.kind, {**flip.data, "player": "Somebody", "loser": "Somebody"}, flip.rule, flip.automatic
    )
    assert [c.what for c in silent_changes(accounting, before, after, [*quiet, other])] == ["tokens"]
    assert strangers(accounting, [other], fight.ruleset.units(after)) == ["flip: 'Somebody'"] * 2
