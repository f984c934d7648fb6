"""Reading attack tags: [Pierce N|all], [Direct N|all], [Incorporeal], [Break]."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kassen.core.errors import KassenError
from kassen.sengoku.profile import ALL, Amount, AttackTags
from kassen.sengoku.tags import TagError, check_tags, format_tags, merge_tags, parse_tag, parse_tags


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        ("Pierce 2", AttackTags(pierce=2)),
        ("[Pierce 2]", AttackTags(pierce=2)),
        ("pierce ALL", AttackTags(pierce=ALL)),
        ("  [ PIERCE   all ] ", AttackTags(pierce=ALL)),
        ("Pierce all", AttackTags(pierce=ALL)),
        ("Direct 1", AttackTags(direct=1)),
        ("[direct All]", AttackTags(direct=ALL)),
        ("Incorporeal", AttackTags(incorporeal=True)),
        ("[incorporeal]", AttackTags(incorporeal=True)),
        ("Break", AttackTags(break_=True)),
        ("[BREAK]", AttackTags(break_=True)),
    ],
)
def test_parse_tag(text: str, tags: AttackTags) -> None:
    # rule: SG.PRC.1 — [Pierce N], N a number or all; rule: SG.DIR.1 — [Direct N] likewise.
    assert parse_tag(text) == tags


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("Pierce -1", "cannot be negative"),
        ("Pierce", "needs exactly one N"),
        ("Pierce two", "needs N as a number or 'all'"),
        ("Pierce 2 3", "needs exactly one N"),
        ("Direct -3", "cannot be negative"),
        ("Smash 2", "unknown tag 'Smash'"),
        ("", "empty tag"),
        ("[Pierce 2", "unbalanced brackets"),
        ("Incorporeal 2", "takes no N"),
    ],
)
def test_bad_tags_are_clear_errors(text: str, needle: str) -> None:
    # rule: SG.PRC.1
    with pytest.raises(TagError) as info:
        parse_tag(text)
    assert needle in str(info.value)
    assert info.value.code == "sengoku.tag"
    assert isinstance(info.value, KassenError)
    assert "\n" not in str(info.value)


def test_break_takes_no_n() -> None:
    # rule: SG.BRK.1 — [Break] carries no N; it is written with [Pierce N].
    with pytest.raises(TagError, match=r"\[Break\] takes no N"):
        parse_tag("Break 3")
    assert parse_tags("[Pierce 3] + [Break]") == AttackTags(pierce=3, break_=True)


def test_defense_minus_n_is_not_a_tag() -> None:
    # rule: SG.DBF.4 — Defense −N is a target state, written without brackets; the catalog keeps it apart.
    for text in ("Defense -2", "[Defense -1]", "defense −3"):
        with pytest.raises(TagError, match=r"SG\.DBF\.4"):
            parse_tag(text)
    assert not hasattr(AttackTags(), "debuff")


def test_equipment_damage_is_not_break() -> None:
    # rule: SG.BRK.8 — corrosion/holding effects are text, not the [Break] tag.
    with pytest.raises(TagError, match=r"SG\.BRK\.8"):
        parse_tag("equipment damage 2")


def test_parse_several_tags() -> None:
    # rule: SG.PRC.1
    assert parse_tags(["Pierce all", "Direct 2", "Incorporeal"]) == AttackTags(
        pierce=ALL, direct=2, incorporeal=True
    )
    assert parse_tags("Pierce 1, Direct 1") == AttackTags(pierce=1, direct=1)
    assert parse_tags("") == AttackTags()
    with pytest.raises(TagError, match="given twice"):
        parse_tags("Pierce 1 + Pierce 2")


def test_merge_keeps_the_natural_armor_statement() -> None:
    # rule: SG.PRC.4 — the attack's statement about natural armor travels with its tags.
    merged = merge_tags(AttackTags(pierce_natural=True), parse_tag("Pierce 3"))
    assert merged == AttackTags(pierce=3, pierce_natural=True)


def test_check_tags_refuses_values_no_text_makes() -> None:
    # rule: SG.DIR.1
    check_tags(AttackTags(pierce=0, direct=ALL))
    for bad in (AttackTags(pierce=-1), AttackTags(direct=-2)):
        with pytest.raises(TagError):
            check_tags(bad)


amounts = st.one_of(st.none(), st.integers(0, 99), st.just(ALL))


@given(pierce=amounts, direct=amounts, incorporeal=st.booleans(), break_=st.booleans())
def test_format_then_parse_round_trips(
    pierce: Amount | None, direct: Amount | None, incorporeal: bool, break_: bool
) -> None:
    # rule: SG.PRC.1 — every tag set reads back as itself.
    tags = AttackTags(pierce=pierce, direct=direct, incorporeal=incorporeal, break_=break_)
    assert parse_tags(format_tags(tags)) == tags


@pytest.mark.parametrize("digits", [11, 5000])
def test_a_tag_number_past_the_bound_is_one_clear_error(digits: int) -> None:
    # rule: SG.PRC.1 — N is bounded like every number kassen reads (Python refuses to read 5,000 digits)
    with pytest.raises(TagError, match=r"at most 1,000,000,000") as caught:
        parse_tag("Pierce " + "9" * digits)
    assert len(str(caught.value)) < 200  # the input is quoted, shortened
    assert parse_tag("Pierce 1000000000") == parse_tag("[pierce 1000000000]")
