"""The core's words in Japanese: the account's framing (how a fight ended), the menus' derived words,
the dice prompts, and every error the core, the dice and the content checks raise — kept in English in
the exception (the API, the logs) and said in the reader's language where it is shown. Only words
change: chronicles, menus' JSON and events are the same in both languages."""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass
from fractions import Fraction
from string import Formatter
from typing import Any

import pytest
from babel.messages.pofile import read_po

import kassen
from kassen.cli.common import error_text
from kassen.core.engine import Actor
from kassen.core.errors import KassenError
from kassen.core.menu import Odds, build_menu
from kassen.core.report import account, outcome_text
from kassen.core.rolls import Roll
from kassen.core.scenario import bundled_scenarios, open_fight
from kassen.i18n import translate_text, use_language
from kassen.i18n.extract import SRC, extract

from .leaks import assert_japanese

CORE_PO = SRC / "locale" / "ja" / "LC_MESSAGES" / "core.po"


def _fields(text: str) -> set[str]:
    return {name for _t, name, _s, _c in Formatter().parse(text) if name is not None}


def test_every_string_of_the_core_and_the_cli_has_its_japanese_words() -> None:
    """Extraction finds no string of the ``core`` catalog without a translation, and each translation
    keeps exactly its English placeholders (a translation may reorder them, never drop or add one)."""
    with CORE_PO.open("rb") as handle:
        catalog = read_po(handle, locale="ja", domain="core")
    found = {f.msgid if isinstance(f.msgid, str) else f.msgid[0] for f in extract() if f.domain == "core"}
    assert len(found) > 500
    untranslated = []
    for msgid in sorted(found):
        message = catalog.get(msgid) or next(
            (m for m in catalog if m.id and (m.id if isinstance(m.id, str) else m.id[0]) == msgid), None
        )
        strings = () if message is None else message.string
        strings = (strings,) if isinstance(strings, str) else strings
        if not strings or not all(strings):
            untranslated.append(msgid)
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)  # type: ignore[union-attr]
        for string in strings:
            assert _fields(string) == _fields(ids[-1]), (msgid, string)
    assert not untranslated, untranslated[:20]


def _fights() -> list[Any]:
    out = []
    for scenario in bundled_scenarios():
        for seed in (1, 2):
            fight = open_fight(f"{scenario.ruleset}/{scenario.name}", seed=seed)
            fight.autoplay()
            out.append(fight)
    return out


FIGHTS = _fights()


@pytest.mark.parametrize(
    "fight", FIGHTS, ids=lambda f: f"{f.ruleset.info.name}-{f.meta.get('scenario')}-{f.seed}"
)
def test_how_a_fight_ended_is_said_in_japanese_and_english_is_unchanged(fight: Any) -> None:
    names = fight.ruleset.names(fight.initial_state)
    with use_language("en"):
        english = account(fight)
        said_en = outcome_text(fight.result, names)
    with use_language("ja"):
        japanese = account(fight)
        said_ja = outcome_text(fight.result, names)
    assert english.rstrip().splitlines()[-1] == f"Result: {said_en}."
    assert said_en.startswith(("winner: ", "no winner ("))
    last = japanese.rstrip().splitlines()[-1]
    assert last == f"結果: {said_ja}。" and said_ja.startswith(("勝者: ", "勝者なし（"))
    # the framing is the core's; the winner's name and the reason are the scenario's and the ruleset's
    # (a side is named by its id and its fighters' names: the scenario's words, allowed)
    assert_japanese(
        last.split("（")[0].replace(names.get(fight.result.winner, "") or "", ""),
        allow=[*fight.sides(), *names.values()],
    )
    with use_language("ja"):
        again = json.dumps(fight.to_json(), sort_keys=True)
    with use_language("en"):
        assert json.dumps(fight.to_json(), sort_keys=True) == again  # only words change


def test_an_unfinished_fight_says_who_decides_in_japanese() -> None:
    fight = open_fight("arena/duel", seed=3)
    fight.step()
    who = fight.ruleset.names(fight.initial_state).get(fight.to_move.id, "")
    with use_language("ja"):
        last = account(fight).rstrip().splitlines()[-1]
    with use_language("en"):
        assert account(fight).rstrip().splitlines()[-1] == f"The fight goes on: {who} to decide."
    assert last == f"戦闘は続く: {who}の手番。"


@dataclass(frozen=True)
class _Strike:
    actor: str
    target: str
    feint: bool


class _Derived:
    """Just enough of a ruleset for the core to derive its menus (no ``choices`` hook of its own)."""

    def to_move(self, state: Any) -> Actor:
        return Actor("unit", "ryu", "red")

    def legal_actions(self, state: Any, tables: Any) -> list[_Strike]:
        return [_Strike("ryu", t, f) for t in ("ken", "gou") for f in (False, True)]

    def names(self, state: Any) -> dict[str, str]:
        return {"ryu": "Ryu", "ken": "Ken", "gou": "Gou"}


def test_derived_menus_are_english_in_the_data_and_japanese_when_shown() -> None:
    with use_language("ja"):
        first = build_menu(_Derived(), None, None)
        second = build_menu(_Derived(), None, None, ["ken"])
    assert first.prompt == "Ryu: choose the target" and second.prompt == "Ryu: choose the feint"
    assert [o.label for o in second.options] == ["no feint", "feint"]  # the data: English in any language
    with use_language("ja"):
        # the field's word is translated where some catalog knows it ("target"), else left as it is
        shown = translate_text(first.prompt)
        assert shown.startswith("Ryu: ") and shown.endswith("を選ぶ") and "choose" not in shown
        assert translate_text(second.options[0].label) == "feintなし"
        with pytest.raises(KassenError) as refused:
            build_menu(_Derived(), None, None, ["ken", "yes", "again"])
        assert error_text(refused.value).startswith("決定は2つの選択で完了している")


def test_dice_prompts_and_odds_in_japanese() -> None:
    roll = Roll(sides=6, count=3, typed=1, kind="damage_roll", roller="Ryu")
    with use_language("en"):
        assert roll.words() == "Ryu: roll 3d6 for the damage roll (2 dice left, 1 in)"
        odds = Odds((("hit", Fraction(18, 25)),), (("Wounds", Fraction(27, 20)),))
        assert odds.text() == "hit 72.0%; expected Wounds 1.35"
    with use_language("ja"):
        said = roll.words()
        assert said.startswith("Ryu: 3d6を振る") and "（残り2個、1個入力済み）" in said
        assert "の期待値 1.35" in odds.text()
    assert_japanese(said.replace("damage roll", ""), allow=["Ryu"])


def _raised(call: Any) -> KassenError:
    try:
        call()
    except KassenError as exc:
        return exc
    raise AssertionError("no error")


ERRORS: list[tuple[str, Any, str, list[str]]] = [
    ("dice syntax", lambda: kassen.dice.parse("2d10+"), "expected a number or dice term at column 6", []),
    ("no dice", lambda: kassen.dice.parse("0d6"), "roll at least one die", []),
    ("keep", lambda: kassen.dice.parse("2d6k3"), "cannot keep 3 of 2 dice", []),
    ("one side", lambda: kassen.dice.parse("1d1!"), "a one-sided die would explode forever", []),
    ("limit", lambda: kassen.dice.parse("9999d6"), "dice in one roll; the limit is", []),
    ("scenario", lambda: open_fight("no-such-scenario"), "no such file, and no bundled scenario", []),
    ("policy", lambda: open_fight("arena/duel", policies={"nobody": "random"}), "no side 'nobody'", []),
    ("policy name", lambda: kassen.core.named.parse_policy("cleverest"), "unknown policy 'cleverest'", []),
    ("seed", lambda: open_fight("arena/duel", seed=-1), "a seed is between 0 and 2**64 - 1", []),
    (
        "undo",
        lambda: open_fight("arena/duel", seed=1).undo(),
        "nothing to undo: the fight is at its start",
        [],
    ),
    (
        "no dice waiting",
        lambda: open_fight("arena/duel", seed=1).roll([3]),
        "no action is waiting for dice",
        [],
    ),
    ("menu", lambda: open_fight("arena/duel", seed=1).menu(["nonsense"]), "is not a choice here", []),
]


@pytest.mark.parametrize(("what", "call", "english", "names"), ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_keep_english_and_are_said_in_japanese(
    what: str, call: Any, english: str, names: list[str]
) -> None:
    with use_language("ja"):
        exc = _raised(call)  # raised while the reader speaks Japanese: the exception keeps English
    assert english in str(exc), str(exc)
    with use_language("en"):
        assert error_text(exc) == str(exc)
    with use_language("ja"):
        said = error_text(exc)
    assert said != str(exc)
    # what the user gave, the names of arguments, fields and choices (ids): as typed
    values = [
        "nobody",
        "cleverest",
        "nonsense",
        "no-such-scenario",
        "random",
        "search",
        "seed",
        "begin",
        "east",
        "west",
    ]
    bundled = [s.name for s in bundled_scenarios()]
    assert_japanese(
        said, allow=[*names, *values, *bundled, "first-legal", "heuristic", "scenario"], where=what
    )


def test_the_demo_speaks_japanese() -> None:
    from kassen.demo import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main(["--lang", "ja"])
    text = out.getvalue() + err.getvalue()
    for heading in (
        "kassen デモ",
        "1つの中核、3つのルールセット",
        "ダイスと厳密な確率",
        "同じ判定をシード7で振る:",
    ):
        assert heading in text
    assert "kassen: エラー: " in text  # the bad expression, said in Japanese
    assert "P(2d10 >= 11) = 55.000000% (11/20)  厳密" in text  # rule: SG.CHK.2 (the odds it shows)
