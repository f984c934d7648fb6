"""The roll-and-keep duel in Japanese: every word a user reads in its accounts (with every explanation
step), menus, views and ``kassen l5r`` commands, with the usual L5R terms (レイズ, 傷, 目標値, 空, 敏捷...),
while the chronicle, the JSON output and English stay exactly as they are.

Words left in Latin letters are the characters' and sides' names as the scenarios write them, rule IDs,
dice notation, the games' abbreviations (tests/i18n/leaks.py), and the words of the bundled YAML data
that the data catalog (l5r-data.po) does not translate yet (those are the data's words, not this
ruleset's code's: they become Japanese when that catalog does, and the checks here grow stricter then).
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.core.events import Event
from kassen.core.report import account, narrate, render_event
from kassen.core.scenario import bundled_scenarios, open_fight
from kassen.core.view import Viewer
from kassen.i18n import translate_text, use_language
from kassen.l5r.content import bundled_tables
from kassen.l5r.events import EVENT_TYPES
from kassen.l5r.report import KIND_WORDS
from kassen.l5r.ruleset import RULESET
from kassen.l5r.say import say
from kassen.l5r.scenario import load_scenario, run_duel
from kassen.l5r.words import WORDS

from .leaks import assert_japanese, english_left

LOCALE = Path(__file__).resolve().parents[2] / "src" / "kassen" / "locale" / "ja" / "LC_MESSAGES"
DUELS = [s.name for s in bundled_scenarios("l5r")]
SEEDS = (0, 1, 2)
runner = CliRunner()
LANGS = ("ja", "en")


@cache
def _untranslated_data() -> tuple[re.Pattern[str], frozenset[str]]:
    """The words of the bundled YAML data the data catalog has no Japanese for yet: each whole text (a
    pattern that finds them) and the names among them (one or two words: a weapon, a title's name)."""
    with (LOCALE / "l5r-data.po").open("rb") as handle:
        catalog = read_po(handle, locale="ja")
    texts = sorted(
        (m.id for m in catalog if m.id and isinstance(m.id, str) and not m.string), key=len, reverse=True
    )
    pattern = re.compile("|".join(rf"(?<![A-Za-z]){re.escape(t)}(?![A-Za-z])" for t in texts) or "(?!)")
    return pattern, frozenset(texts)


def _without_data(text: str) -> str:
    """``text`` with the data's untranslated texts taken out (they are the data catalog's to translate)."""
    return _untranslated_data()[0].sub(" ", text)


def _every_name() -> set[str]:
    """The characters of every bundled duel (their names are written as the scenarios write them)."""
    return {f.name for d in DUELS for f in open_fight(f"l5r/{d}", seed=1).initial_state.fighters}


def _allowed(fight: object) -> set[str]:
    """The names of the characters and sides."""
    state = fight.initial_state  # type: ignore[attr-defined]
    return {f.character.name for f in state.fighters} | set(fight.sides())  # type: ignore[attr-defined]


def _played(name: str, seed: int, *, lang: str = "ja") -> object:
    with use_language(lang):
        return run_duel(load_scenario(name), seed)


# -- the account of every bundled duel -------------------------------------------------------------------
@pytest.mark.parametrize("name", DUELS)
def test_every_bundled_duel_is_told_in_japanese_with_every_step(name: str) -> None:
    # rule: L5.CORE.8 — every event of the duel (initiative, declarations, attacks, damage, injuries...)
    for seed in SEEDS:
        fight = _played(name, seed)
        with use_language("ja"):
            lines = narrate(fight, [e.to_json() for e in fight.events], verbose=True)  # type: ignore[attr-defined]
            reason = fight.result.reason  # type: ignore[attr-defined]
            said = translate_text(reason)
        text = "\n".join(lines)
        assert_japanese(_without_data(text), allow=_allowed(fight), where=f"{name} seed {seed}")
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text)
        # the outcome's reason (the core's closing line says it) is in the catalog too
        assert said != reason and not english_left(said), (reason, said)


@pytest.mark.parametrize("name", DUELS)
def test_a_sides_view_of_the_duel_is_japanese_and_hides_what_it_hid(name: str) -> None:
    """Another side's exact Wounds are hidden (the visibility table): the lines that say what is left
    ("詳細は見えない" and the rank alone) are Japanese too, and show no hidden number."""
    fight = _played(name, 1)
    for side in fight.sides():  # type: ignore[attr-defined]
        with use_language("ja"):
            told = account(fight, verbose=True, viewer=Viewer(side))  # type: ignore[arg-type]
        with use_language("en"):
            english = account(fight, verbose=True, viewer=Viewer(side))  # type: ignore[arg-type]
        body = told.rsplit("\n\n", 1)[0]  # the closing line is the core's
        assert_japanese(_without_data(body), allow=_allowed(fight), where=f"{name} as {side}")
        assert "None" not in told
        assert len(told.splitlines()) == len(english.splitlines())


def test_the_turn_heading_and_hidden_details_read_in_japanese() -> None:
    fight = _played("kakita-vs-hida", 3)
    with use_language("ja"):
        text = account(fight)
    assert "== 第1ターン ==" in text
    ctx_line = render_event(RULESET, {"kind": "attack", "data": {"attacker": "Kakita"}}, {}, verbose=False)
    with use_language("ja"):
        hidden = render_event(RULESET, {"kind": "attack", "data": {"attacker": "Kakita"}}, {}, verbose=False)
        wounds = render_event(
            RULESET, {"kind": "wounds", "data": {"fighter": "Hida", "rank": "Hurt"}}, {}, verbose=False
        )
    assert ctx_line == ["Kakita: an attack (details not seen)"]
    assert hidden == ["Kakita：攻撃（詳細は見えない）"]
    assert wounds[0].startswith("Hidaは傷を受ける：")


# -- every event kind --------------------------------------------------------------------------------------
def _every_kind() -> Iterator[Event]:
    import importlib

    made = importlib.import_module("l5r.test_every_kind")  # tests/l5r, the every-kind fixtures
    for events in (made._gm_and_endings(), made._point(), made._skipped(), made._played()):
        yield from events


def test_every_event_kind_renders_in_japanese_and_english_is_unchanged() -> None:
    # rule: L5.CORE.8 — each kind the ruleset declares, from real duels (tests/l5r/test_every_kind.py)
    names = {f.name for f in open_fight("l5r/kakita-vs-hida", seed=3).initial_state.fighters}
    allowed: set[str] = set()
    seen: dict[str, int] = {}
    for event in _every_kind():
        if seen.get(event.kind, 0) >= 6:  # a few of each kind (the random duels log thousands)
            continue
        data = event.to_json()
        fighters = {str(v) for k, v in event.data.items() if isinstance(v, str) and k in _NAMED}
        allow = allowed | names | fighters | {"A", "B"} | _every_name()
        with use_language("en"):
            english = render_event(RULESET, data, {}, verbose=True)
        text = event.data.get("text")
        if isinstance(text, str):
            assert text in english[0] or event.kind in ("turn", "over"), (event.kind, english)
        with use_language("ja"):
            japanese = render_event(RULESET, data, {}, verbose=True)
        assert_japanese(_without_data("\n".join(japanese)), allow=allow, where=event.kind)
        assert len(japanese) == len(english)
        seen[event.kind] = seen.get(event.kind, 0) + 1
    assert set(seen) == set(EVENT_TYPES), sorted(set(EVENT_TYPES) - set(seen))
    assert set(KIND_WORDS) == set(EVENT_TYPES)  # a hidden event of any kind is said by its kind too


_NAMED = ("fighter", "attacker", "target", "chooser", "winner")


# -- menus and views at the table --------------------------------------------------------------------------
def _menus(fight: object) -> Iterable[str]:
    """The menus of one decision: each step's prompt and every option's label, following the first
    option of every kind of step (attacks first: targets, special attacks, called shots, raises)."""
    path: list[str] = []
    for _ in range(8):
        menu = fight.menu(path)  # type: ignore[attr-defined]
        yield menu.prompt
        yield from (o.label for o in menu.options)
        going = [o for o in menu.options if not o.complete]
        if not going:
            return
        path.append(going[0].id)


def test_menus_and_views_at_each_decision_of_a_table_duel_are_japanese() -> None:
    # rule: L5.CORE.3 — the raises left, called shots and special attacks with their raises, the odds
    for name in ("kakita-vs-hida", "bridge-ambush"):
        fight = open_fight(f"l5r/{name}", seed=5)
        allowed = _allowed(fight)
        for _ in range(25):
            if fight.over:
                break
            with use_language("ja"):
                words = list(_menus(fight))
                status = list(fight.status())
                gm = list(_menus_gm(fight))
            shown = "\n".join(words + status + gm)
            assert_japanese(_without_data(shown), allow=allowed, where=f"{name} turn {fight.state.turn}")
            fight.step()
        assert fight.state.turn >= 2


def _menus_gm(fight: object) -> Iterable[str]:
    """The GM's menus' labels (their prompts are the core's, which derives the GM's menus)."""
    menu = fight.menu([], gm=True)  # type: ignore[attr-defined]
    for option in menu.options:
        yield option.label
        sub = fight.menu([option.id], gm=True)  # type: ignore[attr-defined]
        yield from (o.label for o in sub.options)


def test_a_refusal_at_the_table_is_said_in_japanese() -> None:
    # rule: L5.CORE.3 — more raises than Void on one roll
    fight = open_fight("l5r/kakita-vs-hida", seed=5)
    fight.choose(["begin"])
    with use_language("ja"), pytest.raises(Exception) as caught:
        fight.menu(["no-such-choice"])
    message = str(caught.value)
    assert "選択肢" in message


# -- the commands -----------------------------------------------------------------------------------------
def _cli(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.output, result.stderr)
    return result.stdout


def test_kassen_l5r_commands_speak_japanese_with_lang_ja() -> None:
    # rule: L5.CORE.1 — odds; L5.CS.1 — a called shot's attack; L5.CORE.8 — a duel
    odds = _cli("--lang", "ja", "l5r", "odds", "6k3", "--tn", "20", "--raises", "1")
    assert_japanese(odds, where="l5r odds")
    assert "レイズ1" in odds
    attack = _cli("--lang", "ja", "l5r", "attack", "--called-shot", "torso", "--seed", "4")
    assert_japanese(_without_data(attack), where="l5r attack")
    fight = _played("bridge-ambush", 2)
    duel = _cli("--lang", "ja", "l5r", "duel", "bridge-ambush", "--seed", "2", "-v")
    body = duel.rsplit("\n\n", 1)[0]  # the closing line is the core's
    assert_japanese(_without_data(body), allow=_allowed(fight), where="l5r duel")
    scenarios = _cli("--lang", "ja", "l5r", "scenarios")
    assert_japanese(
        _without_data(scenarios), allow=set(DUELS) | {w for d in DUELS for w in d.split("-")} | _every_name()
    )
    defaults = _cli("--lang", "ja", "l5r", "defaults")
    assert "別の解釈：" in defaults
    helped = _cli("--lang", "ja", "l5r", "--help")
    assert "odds" in helped  # the help text's words are the core CLI's to translate when shown


def test_kassen_l5r_aftermath_in_japanese(tmp_path: Path) -> None:
    # rule: L5.CS.3 — what a character carries out of a duel
    chronicle = tmp_path / "duel.json"
    chronicle.write_text(_cli("l5r", "duel", "kakita-vs-hida", "--seed", "3", "--json"), encoding="utf-8")
    said = _cli("--lang", "ja", "l5r", "aftermath", str(chronicle))
    assert said.startswith("# 決闘") or "の後（シード3）" in said


def test_the_same_duel_is_the_same_chronicle_and_json_in_japanese_and_english() -> None:
    for name in DUELS:
        ja = _played(name, 4, lang="ja").to_json()  # type: ignore[attr-defined]
        en = _played(name, 4, lang="en").to_json()  # type: ignore[attr-defined]
        assert json.dumps(ja, sort_keys=True) == json.dumps(en, sort_keys=True)
    both = [
        _cli("--lang", lang, "l5r", "duel", "first-blood", "--seed", "7", "--json") for lang in ("ja", "en")
    ]
    assert both[0] == both[1]
    odds = [_cli("--lang", lang, "l5r", "odds", "5k2", "--tn", "15", "--json") for lang in LANGS]
    assert odds[0] == odds[1]


def test_english_is_unchanged_by_the_catalog() -> None:
    fight = _played("kakita-vs-hida", 3, lang="en")
    with use_language("en"):
        text = account(fight, verbose=True)  # type: ignore[arg-type]
        assert say("kenjutsu 4") == "kenjutsu 4"
    assert (
        "Kakita Toshiro: attack on Hida Kuroda, called shot to the torso - rolls 58 against TN 20: hit"
        in text
    )
    assert "  4  kenjutsu 4  [L5.CORE.9]" in text


# -- the catalog ------------------------------------------------------------------------------------------
def _fields(text: str) -> list[str]:
    return sorted(name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None)


def test_the_l5r_catalog_is_complete_and_keeps_each_placeholder() -> None:
    with (LOCALE / "l5r.po").open("rb") as handle:
        catalog = read_po(handle, locale="ja")
    count = 0
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        assert all(strings), f"untranslated: {message.id!r}"
        for translated in strings:
            assert _fields(translated) == _fields(ids[-1]), (message.id, translated)
        count += 1
    assert count > 700


def test_every_word_of_the_bundled_tables_is_marked() -> None:
    """Locations, injuries (as keys and as words), special attacks, skills, conditions: each named by the
    stored texts, each in the catalog."""
    t = bundled_tables()
    words = set(WORDS)
    for loc, row in t.called_shots.locations.items():
        assert loc in words
        for injury in row.injuries:
            assert {injury, injury.replace("_", " "), f"{loc}: {injury.replace('_', ' ')}"} <= words
        assert row.distinctive_death in words
    assert set(t.core.skills.known) <= words
    assert set(t.called_shots.disadvantages.effects) <= words
    assert {s.replace("_", "-") for s in ("corps_a_corps", "point_to_throat")} <= words
    with use_language("ja"):
        assert say("kenjutsu 4") == "剣術 4"
        assert say("torso: losing blood") == "胴：失血"
