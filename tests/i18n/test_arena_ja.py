"""The arena in Japanese, in the seed's own words (seed 004 is written in Japanese: 基本ダメージ,
一次貫通ダメージ, 剛的防護点, 柔的防護点, 朦朧, 気絶, 転倒, 根性判定, 観客ポイント, 人気度, サブターン...).

What a user reads of a bout has no English left: every bundled bout autoplayed, its account with every
explanation step; every event kind the arena declares; the menus, labels and status lines at each decision
of a table fight; the ``kassen arena ...`` commands. Only words change: the same fight gives the same
chronicle and JSON in Japanese and English, and English is what it always was.

The content's own words (a weapon's or a location's name, a scenario's title: ``arena-data.po``, the data
catalog) are allowed while that catalog has not translated them, so these tests hold the arena's own
catalog; once the data words are translated the allowance is empty and they hold everything.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from string import Formatter
from typing import Any

import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from kassen.arena.content import load_rules
from kassen.arena.events import EVENT_TYPES
from kassen.arena.report import RENDERERS, names
from kassen.arena.ruleset import RULESET
from kassen.arena.table.menus import gm_label
from kassen.cli.main import app
from kassen.core.fight import Fight
from kassen.core.policy import RandomPolicy
from kassen.core.report import narrate, render_event
from kassen.core.scenario import bundled_scenarios, open_fight
from kassen.i18n import translate_text, use_language
from kassen.i18n.extract import SRC

from .leaks import assert_japanese, english_left

SCENARIOS = [s.name for s in bundled_scenarios("arena")]
CATALOG = SRC / "locale" / "ja" / "LC_MESSAGES" / "arena.po"
DATA_CATALOG = SRC / "locale" / "ja" / "LC_MESSAGES" / "arena-data.po"
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@cache
def _untranslated_data_words() -> tuple[str, ...]:
    """The content's words the data catalog does not translate yet (another part's catalog)."""
    if not DATA_CATALOG.exists():
        return ()
    with DATA_CATALOG.open("rb") as handle:
        catalog = read_po(handle, locale="ja")
    return tuple(str(m.id) for m in catalog if m.id and isinstance(m.id, str) and not m.string)


def _allowed(fight: Fight[Any, Any]) -> list[str]:
    """Names as the scenario writes them (fighters, their ids and sides), and the untranslated data words."""
    state = fight.initial_state
    own = [f.profile.name for f in state.fighters] + [f.id for f in state.fighters]
    own += [f.profile.side for f in state.fighters]
    return own + list(_untranslated_data_words())


def _played(name: str, seed: int, random: bool) -> Fight[Any, Any]:
    fight = open_fight(f"arena/{name}", seed=seed)
    if random:
        fight = open_fight(f"arena/{name}", seed=seed, policies={s: "random" for s in fight.sides()})
    fight.autoplay(max_actions=3000)
    return fight


# -- the catalog ---------------------------------------------------------------------------------------------
def test_the_arena_catalog_is_complete_and_keeps_every_placeholder() -> None:
    """Every string of the arena (accounts, steps, menus, errors, the commands) has its Japanese, with
    exactly the placeholders of its English (a translation reorders them, never drops or adds one)."""
    with CATALOG.open("rb") as handle:
        catalog = read_po(handle, locale="ja", domain="arena")
    messages = [m for m in catalog if m.id]
    assert len(messages) > 400
    for m in messages:
        ids = (m.id,) if isinstance(m.id, str) else tuple(m.id)
        strings = (m.string,) if isinstance(m.string, str) else tuple(m.string)
        assert all(strings), f"untranslated: {m.id!r}"
        wanted = {name for _t, name, _s, _c in Formatter().parse(ids[-1]) if name is not None}
        for s in strings:
            got = {name for _t, name, _s, _c in Formatter().parse(s) if name is not None}
            assert got == wanted, (m.id, s)


def test_the_seed_terms_are_the_catalog_words() -> None:
    # rule: AR.DMG.3, AR.DMG.4, AR.INJ.5, AR.GUT.1, AR.AUD.2 — the seed's own terms, not new coinages
    with use_language("ja"):
        assert (
            translate_text("primary penetration = 9 - armor hard DR 2")
            == "一次貫通ダメージ = 9 - 防具の剛的防護点 2"
        )
        assert translate_text("penetrating = 7 - soft DR 1 - bone hard DR 2") == (
            "二次貫通ダメージ = 7 - 柔的防護点 1 - 骨の剛的防護点 2"
        )
        assert translate_text("final damage") == "最終ダメージ"
        assert translate_text("stunned") == "朦朧"
        assert translate_text("guts check") == "根性判定"
        assert translate_text("popularity") == "人気度"
        assert translate_text("lost the quick contest by 3") == "即決勝負の失敗差 3"


# -- accounts ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", SCENARIOS)
def test_every_bundled_bout_told_with_its_steps_in_japanese_has_no_english_left(name: str) -> None:
    # rule: AR.CORE.3 — the whole account of a bout, every explanation step too, in the seed's words
    for seed in (0, 1, 2):
        for random in (False, True):
            fight = _played(name, seed, random)
            with use_language("ja"):
                lines = narrate(fight, fight.events, verbose=True)
                assert fight.result is not None
                reason = translate_text(fight.result.reason)
            text = "\n".join(lines)
            assert_japanese(text, _allowed(fight), where=f"arena/{name} seed {seed}")
            assert_japanese(reason, _allowed(fight), where=f"the outcome of arena/{name} seed {seed}")
            assert _CJK.search(text) and _CJK.search(reason)


def _events() -> Iterator[tuple[dict[str, Any], dict[str, str]]]:
    """Real events of every kind the arena declares, with display names (the report test's fixtures: the
    bundled bouts, the referee's moves and the readings only a switched table brings about)."""
    from arena.test_report import _events as every_kind  # tests/ is on the path (rootdir packages)

    yield from every_kind()


def test_every_event_kind_the_arena_declares_renders_in_japanese_and_english_is_unchanged() -> None:
    # rule: AR.GAP.2 — every kind of event in words, in both languages, and its hidden-field form too
    table = RULESET.info.event_types or {}
    hidden: dict[str, set[str]] = {}
    for rule in load_rules().visibility.events:
        hidden.setdefault(rule.kind, set()).update(rule.fields)
    seen: set[str] = set()
    worded: set[str] = set()
    for event, who in _events():
        kind = event["kind"]
        # the fixtures' own fighters and weapons ("a", "b", "g"; "maul", "ram") are names too
        allow = [*who, *who.values(), "a", "b", "c", "g", "maul", "ram", *_untranslated_data_words()]
        variants = [event]
        fields = hidden.get(kind, set()) & set(event["data"])
        if fields:  # what another side reads: the hidden numbers are null
            variants.append({**event, "data": {**event["data"], **dict.fromkeys(fields)}})
        for shown in variants:
            english = "\n".join(render_event(RULESET, shown, who, verbose=True))
            with use_language("en"):
                assert "\n".join(render_event(RULESET, shown, who, verbose=True)) == english
            with use_language("ja"):
                japanese = "\n".join(render_event(RULESET, shown, who, verbose=True))
            assert not _CJK.search(english), english
            assert_japanese(japanese, allow, where=kind)
            if _CJK.search(japanese):
                worded.add(kind)
        seen.add(kind)
    assert set(table) == set(EVENT_TYPES) == set(RENDERERS)
    assert seen == set(EVENT_TYPES), sorted(set(EVENT_TYPES) - seen)
    # every kind says something in Japanese (an injury as another side reads it: ``Ryu loses 5 HP``)
    assert worded == set(EVENT_TYPES), sorted(set(EVENT_TYPES) - worded)


# -- the table -----------------------------------------------------------------------------------------------
def _walk(fight: Fight[Any, Any], path: tuple[str, ...] = ()) -> Iterator[Any]:
    """Every menu a decision shows, down every path (what is not allowed is shown with its reason)."""
    menu = fight.menu(path)
    yield menu
    for option in menu.options:
        if option.allowed and not option.complete:
            yield from _walk(fight, (*path, option.id))


def _menu_text(menu: Any) -> str:
    lines = [menu.prompt]
    for o in menu.options:
        lines.append(o.label)
        if o.odds is not None:
            lines += [translate_text(k) for k, _p in o.odds.outcomes]
            lines += [translate_text(k) for k, _v in o.odds.expected]
        if not o.allowed:
            lines.append(o.why)
    return "\n".join(lines)


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_menus_labels_and_status_at_each_decision_of_a_table_fight_are_japanese(name: str) -> None:
    # rule: AR.GUT.1, AR.AUD.3, AR.STN.1 — every decision's menu (offers, guards, moves, the referee's)
    fight = open_fight(f"arena/{name}", seed=4)
    policy: RandomPolicy[Any, Any] = RandomPolicy(salt=4)
    allow = _allowed(fight)
    decisions = 0
    while not fight.over and decisions < 60:
        with use_language("ja"):
            texts = [_menu_text(m) for m in _walk(fight)]
            # the referee's menu: its options are the arena's words (the prompt is the core's)
            texts += [o.label for o in fight.menu(gm=True).options]
            texts += list(fight.status())
        for text in texts:
            assert_japanese(text, allow, where=f"arena/{name} decision {decisions}")
        decisions += 1
        fight.step(policy)
    assert decisions > 3
    with use_language("ja"):
        labels = [gm_label(fight.state, "winner", None), gm_label(fight.state, "condition", "lost_will")]
        labels += [gm_label(fight.state, "kind", k) for k in ("gm_set_hp", "gm_end_bout")]
        status = list(fight.status())
    assert_japanese("\n".join(str(x) for x in labels + status), allow, where="the referee's labels")


def test_a_refusal_names_its_rule_in_japanese() -> None:
    # rule: AR.STN.1 — a choice refused says why, in the reader's language (the rule ID stays)
    from kassen.core.errors import IllegalActionError

    fight = open_fight("arena/duel", seed=1)
    fight.step()
    with use_language("ja"), pytest.raises(IllegalActionError) as refused:
        fight.choose(["move", "-900"])
    assert_japanese(refused.value.message, _allowed(fight))


# -- the commands -------------------------------------------------------------------------------------------
runner = CliRunner()


@pytest.mark.parametrize(
    "args",
    [
        ["arena", "damage", "--basic", "14", "--type", "cut", "--ht", "10", "--location", "left_arm",
         "--hp", "10", "--st", "10", "--knocker-st", "12", "--knocker-st-bonus", "2"],
        ["arena", "damage", "--basic", "9", "--type", "cr", "--ht", "10", "--source", "falling"],
        ["arena", "check", "12"],
        ["arena", "odds", "--skill", "14", "--damage", "1d+3", "--type", "cr", "--ht", "10",
         "--defense", "9"],
        ["arena", "odds", "--skill", "14", "--damage", "2d", "--type", "imp", "--ht", "10",
         "--location", "skull"],
        ["arena", "bout", "duel", "--seed", "3", "-v"],
        ["arena", "bout", "knockback", "--seed", "1"],
    ],
)  # fmt: skip
def test_kassen_arena_commands_speak_japanese_with_lang_ja(args: list[str]) -> None:
    # rule: AR.DMG.5, AR.CORE.1 — the commands' words in Japanese, English as it was without --lang
    result = runner.invoke(app, ["--lang", "ja", *args])
    assert result.exit_code == 0, result.output
    english = runner.invoke(app, ["--lang", "en", *args])
    assert english.exit_code == 0 and not _CJK.search(english.stdout)
    assert _CJK.search(result.stdout)
    allow = ["Ryu", "Ken", "Tetsu", "Bo", *_untranslated_data_words()]
    # the account's closing line ("Result: ...") is the core's words; the arena's part of it, the outcome's
    # reason, is checked with the bouts above
    shown = "\n".join(line for line in result.stdout.splitlines() if not line.startswith("Result: "))
    assert_japanese(shown, allow, where=" ".join(args))


@pytest.mark.parametrize(
    "args",
    [
        ["arena", "damage", "--basic", "-1", "--type", "cut", "--ht", "10"],
        ["arena", "damage", "--basic", "5", "--type", "cut", "--ht", "10", "--knocker-st-bonus", "2"],
        ["arena", "odds", "--skill", "14", "--damage", "1x", "--type", "cr", "--ht", "10"],
        ["arena", "odds", "--skill", "14", "--damage", "1d", "--type", "zzz", "--ht", "10"],
    ],
)
def test_kassen_arena_errors_are_one_japanese_line(args: list[str]) -> None:
    result = runner.invoke(app, ["--lang", "ja", *args])
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1 and _CJK.search(line), line
    # what stays Latin: the program's name, the options and values the user typed
    typed = ["knocker-st-bonus", "knocker-st", "damage", "zzz", "cut", "imp", "pi-", "burn"]  # as typed
    left = english_left(line.removeprefix("kassen: error:"), typed)
    assert not left, line


def test_the_arena_help_texts_are_in_the_catalog() -> None:
    """Help is translated when shown (the CLI's job): every help text of ``kassen arena`` has its Japanese."""
    import typer.main

    from kassen.cli.arena import arena_app

    group = typer.main.get_command(arena_app)
    texts = [group.help or ""]
    shared = {"seed", "content"}  # options every fight command shares: the core's catalog
    for command in group.commands.values():  # type: ignore[attr-defined]
        texts.append(command.help or "")
        if command.name == "replay":  # the generic replay command, the core's
            continue
        texts += [p.help or "" for p in command.params if getattr(p, "help", None) and p.name not in shared]
    with use_language("ja"):
        for text in filter(None, texts):
            assert _CJK.search(translate_text(text)), text


# -- only words change --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", SCENARIOS)
def test_the_same_fight_gives_the_same_chronicle_and_json_in_japanese_and_english(name: str) -> None:
    # rule: AR.CORE.3 — a replay is identical whatever the language; the golden logs hold English
    logs = {}
    for lang in ("ja", "en"):
        with use_language(lang):
            fight = _played(name, 5, random=True)
            logs[lang] = (fight.log_json(), json.dumps(fight.to_json(), sort_keys=True))
    assert logs["ja"] == logs["en"]
    result = runner.invoke(app, ["--lang", "ja", "arena", "bout", name, "--seed", "2", "--json"])
    english = runner.invoke(app, ["--lang", "en", "arena", "bout", name, "--seed", "2", "--json"])
    assert result.exit_code == english.exit_code == 0
    assert result.stdout == english.stdout


def test_english_accounts_do_not_change_with_the_catalog() -> None:
    """The English account of a bout is its English, with or without a Japanese catalog loaded first."""
    fight = _played("knockback", 3, random=False)
    with use_language("en"):
        before = narrate(fight, fight.events, verbose=True)
    with use_language("ja"):
        narrate(fight, fight.events, verbose=True)
    with use_language("en"):
        assert narrate(fight, fight.events, verbose=True) == before
    assert "Tetsu takes" in "\n".join(before)
    assert names(fight.initial_state)
