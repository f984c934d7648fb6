"""Sengoku in Japanese: what a battle says (every account line, every explanation step), what the table
shows at each decision (prompts, labels, why a choice is refused, the header and the count track), and
what ``kassen sengoku ...`` prints, all in Japanese with the seeds' kanji terms (戰力 Wounds, 防備
Defense, 體 Physique, 運 Fate...); while the chronicles and JSON stay the same in every language.

What may stay in Latin letters is what :mod:`tests.i18n.leaks` allows (rule IDs, dice, the games'
abbreviations) and the names a scenario gives its units and sides. The words of the bundled YAML data
(a maneuver's name, a d100 row's effect) belong to the data catalog (``sengoku-data.po``) and its own
test: a content text that catalog does not translate yet is taken out of the text before the check, so
what is checked here is every word the Sengoku code says.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.core.events import Event
from kassen.core.report import account, render_event
from kassen.core.scenario import bundled_scenarios, open_fight
from kassen.i18n import gettext, translate_text, use_language
from kassen.sengoku.battle.events import EVENT_TYPES
from kassen.sengoku.battle.report import RENDERERS, BattleNames, summary
from kassen.sengoku.battle.ruleset import RULESET
from kassen.sengoku.catalog import load_catalog

from .leaks import assert_japanese, english_left

SENGOKU_DATA = Path(__file__).resolve().parents[2] / "src" / "kassen" / "sengoku" / "data"
SCENARIOS = [s.name for s in bundled_scenarios("sengoku")]
SEEDS = (0, 1, 2)


# ------------------------------------------------------------------------------------------ helpers


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, Mapping):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for item in node:
            yield from _strings(item)


@cache
def _content_left() -> tuple[str, ...]:
    """The bundled Sengoku data's texts the data catalog does not translate yet (longest first)."""
    found: set[str] = set()
    for path in SENGOKU_DATA.rglob("*.yaml"):
        for text in _strings(yaml.safe_load(path.read_text(encoding="utf-8"))):
            text = " ".join(text.split())
            if len(text) > 2 and any(c.isalpha() for c in text):
                found.add(text)
    with use_language("ja"):
        left = {t for t in found if gettext(t) == t}  # the data catalog's own word for exactly that text
    return tuple(sorted(left, key=len, reverse=True))


def _without_content(text: str) -> str:
    for words in _content_left():
        if words in text:
            text = text.replace(words, " ")
    return text


def _names(fight: Any) -> list[str]:
    state = fight.initial_state
    return [u.name for u in state.units] + [s.name for s in state.sides] + [fight.state.units[0].name]


#: The account's closing line is the core's (kassen.core.report: "Result: winner: ..."); what Sengoku puts
#: in it, the outcome's reason, is checked on its own.
_CORE_LINES = ("Result: ", "The fight goes on: ")


def _check(text: str, allow: Iterable[str], where: str) -> None:
    kept = "\n".join(line for line in text.splitlines() if not line.startswith(_CORE_LINES))
    assert_japanese(_without_content(kept), allow=allow, where=where)


def _played(name: str, seed: int) -> Any:
    fight = open_fight(f"sengoku/{name}", seed=seed)
    fight.autoplay()
    return fight


# ------------------------------------------------------------------------------------------ accounts


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_bundled_battle_told_in_japanese_with_its_steps(name: str) -> None:
    # rule: SG.RND.2 — the battle told event by event (with every explanation step: SG.CHK.1's modifier,
    # SG.DEF.5's Defense, SG.BRT.1's costs...) and its summary, in Japanese, for a few seeds
    for seed in SEEDS:
        fight = _played(name, seed)
        allow = _names(fight) + [u.name for u in fight.state.units]
        with use_language("ja"):
            text = account(fight, verbose=True) + summary(fight.state)
        _check(text, allow, f"{name} seed {seed}")
        if fight.result is not None:
            with use_language("ja"):
                _check(translate_text(fight.result.reason), allow, f"{name} seed {seed}: the outcome")
        assert "戰力" in text and "防備" in text and "気力" in text  # the seeds' terms, not a transliteration
        english = account(fight, verbose=True)
        assert english != text and "Wounds" in english  # English stays English


def test_the_same_battle_has_the_same_chronicle_in_japanese_and_english() -> None:
    # rule: SG.RND.2 — only words change: the chronicle, its JSON and the golden log are the same
    golden = Path(__file__).resolve().parents[1] / "golden" / "sengoku"
    for seed in SEEDS:
        with use_language("ja"):
            ja = _played("burning-temple", seed)
            account(ja, verbose=True)  # telling it changes nothing
            ja_log, ja_json = ja.log_json(), json.dumps(ja.to_json(), sort_keys=True)
        with use_language("en"):
            en = _played("burning-temple", seed)
            en_log, en_json = en.log_json(), json.dumps(en.to_json(), sort_keys=True)
        assert ja_log == en_log and ja_json == en_json
        pinned = golden / f"burning-temple.seed{seed}.json"
        if pinned.exists():
            assert json.loads(ja_log) == json.loads(pinned.read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------------------ every kind


def _every_kind(tmp_path: Path) -> Iterator[Event]:
    # the every-kind battles of the Sengoku tests (tests/ is on the path as pytest runs the suite)
    kinds = importlib.import_module("sengoku.battle.test_every_kind")
    yield from kinds._own_catalog(tmp_path)
    yield from kinds._squads()
    yield from kinds._fumbles()
    yield from kinds._played()


#: Data keys that name a unit, a side or a maneuver by id (shown as the id when no name is known).
_ID_KEYS = frozenset(
    {"unit", "attacker", "target", "pursuer", "with_unit", "behind", "faction", "maneuver", "units", "order",
     "squads", "stances", "maneuvers", "uses", "use"}
)  # fmt: skip


#: The words of the small catalog the every-kind battles write for themselves (a Kata "Still Mind",
#: "Calm."; a "Marked Cut" whose hit leaves the note "marked"): content, not Sengoku's words.
_OWN_CONTENT = ("Still Mind", "Calm", "Marked Cut", "marked")


def _ids(data: Mapping[str, Any]) -> Iterator[str]:
    for key, value in data.items():
        if key not in _ID_KEYS:
            continue
        if isinstance(value, str):
            yield value
        elif isinstance(value, Mapping):  # a use: its maneuver, its target
            yield from _ids(value)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, str):
                    yield item
                elif isinstance(item, Mapping):
                    yield from _ids(item)


def test_every_event_kind_a_battle_declares_is_said_in_japanese(tmp_path: Path) -> None:
    # rule: SG.RND.2 — every kind of event (kassen.sengoku.battle.events) has its words in both
    # languages: rendered verbose in Japanese with no English left, and differently from English
    catalog = load_catalog()
    names = BattleNames(
        {},
        {k: m.name for k, m in catalog.maneuvers.items()},
        {k: c.name for k, c in catalog.creatures.items()},
    )
    assert set(RENDERERS) == set(EVENT_TYPES)
    seen: dict[str, int] = {}
    for event in _every_kind(tmp_path):
        data = event.to_json()
        ids = list(_ids(data.get("data") or {}))
        with use_language("ja"):
            ja = "\n".join(render_event(RULESET, data, names, verbose=True))
        with use_language("en"):
            en = "\n".join(render_event(RULESET, data, names, verbose=True))
        # a unit a battle brings on is named after its creature as the catalog writes it (Gaki 1)
        allow = [*ids, *(n.replace("-", " ") for n in ids), *_OWN_CONTENT, "Gaki"]
        if event.kind == "attack_check":
            assert ja == en == "" or ja != en
        elif ja:
            _check(ja, allow, event.kind)
            assert ja != en, event.kind
        seen[event.kind] = seen.get(event.kind, 0) + 1
    assert set(seen) == set(EVENT_TYPES), sorted(set(EVENT_TYPES) - set(seen))


# ------------------------------------------------------------------------------------------ the table


def _menu_texts(fight: Any, path: tuple[str, ...] = (), depth: int = 0) -> Iterator[str]:
    """The prompt, labels and refusals of the menu after ``path``, and of each allowed option's next
    menu (two levels down: maneuver → target / zone / aim)."""
    menu = fight.menu(path, gm=False)
    yield menu.prompt
    for option in menu.options:
        yield option.label
        if option.why:
            yield option.why
        if option.allowed and not option.complete and depth < 2:
            yield from _menu_texts(fight, (*path, option.id), depth + 1)


@pytest.mark.parametrize("name", SCENARIOS)
def test_each_decision_of_a_table_battle_is_shown_in_japanese(name: str) -> None:
    # rule: SG.BRT.1 — the breath's menus (maneuver, target with its odds, zone, aim), a reaction's
    # (SG.RES.1), the lull's upkeep and environment (SG.LUL.2-3), Fate (SG.FAT.1-2): each prompt, label
    # and refusal, with the table's header and count track, in Japanese
    fight = open_fight(f"sengoku/{name}", seed=1)
    allow = _names(fight)
    decisions = 0
    while not fight.over and decisions < 40:
        with use_language("ja"):
            texts = [*_menu_texts(fight), *fight.status()]
            gm = fight.menu((), gm=True)  # its prompt is the core's; its labels are Sengoku's (gm_label)
            texts += [o.label for o in gm.options]
        _check("\n".join(texts), allow, f"{name}, decision {decisions}")
        decisions += 1
        fight.step()
    assert decisions >= 5


def test_gm_menus_and_odds_words_in_japanese() -> None:
    # rule: SG.WND.4 — the GM's own moves (set Wounds, statuses, Defense −N, end the combat) and the
    # attack preview's words at the table
    fight = open_fight("sengoku/burning-temple", seed=0)
    fight.step()  # the GM begins the battle
    allow = _names(fight)
    with use_language("ja"):
        gm = fight.menu((), gm=True)  # the prompts of the GM's menus are the core's
        texts = [o.label for o in gm.options]
        for option in gm.options[:6]:
            if option.allowed and not option.complete:
                sub = fight.menu((option.id,), gm=True)
                texts += [o.label for o in sub.options[:12]]
    _check("\n".join(texts), allow, "the GM's menus")


# ------------------------------------------------------------------------------------------ the CLI

runner = CliRunner()


def _run(*args: str) -> Any:
    return runner.invoke(app, list(args))


@pytest.mark.parametrize(
    "args",
    [
        ("sengoku", "defense", "--armor", "heavy", "--tag", "Pierce 2", "--bonus", "stance=2"),
        ("sengoku", "defense", "--armor", "light", "--defenseless", "--tag", "Direct all"),
        ("sengoku", "odds", "--modifier", "5", "--defense", "12"),
        ("sengoku", "attack", "--attacker", "genzaburo", "--target", "oni", "--seed", "3"),
        ("sengoku", "attack", "--attacker", "genzaburo", "--target", "oni", "--faces", "9,9", "--d100", "50"),
        ("sengoku", "attack", "--attacker", "genzaburo", "--target", "oni", "--faces", "1,1", "--d100", "50"),
        ("sengoku", "battle", "burning-temple", "--seed", "4"),
        ("sengoku", "battle", "count-example", "--seed", "1", "--brief"),
        ("sengoku", "battles"),
    ],
)
def test_kassen_sengoku_commands_speak_japanese(args: tuple[str, ...]) -> None:
    # rule: SG.DEF.5 — the Defense step by step, the odds (SG.CHK.1), one attack (SG.CRT.1, SG.FUM.1)
    # and a whole battle, as the commands print them with --lang ja
    ja = _run("--lang", "ja", *args)
    en = _run("--lang", "en", *args)
    assert ja.exit_code == 0 == en.exit_code, ja.output
    allow = ["Genzaburo", "Oni", "Basic", "strike", "demo", "count-example", "burning-temple"]
    for s in bundled_scenarios("sengoku"):
        fight = open_fight(f"sengoku/{s.name}", seed=0)
        allow += _names(fight)
    _check(ja.output, allow, " ".join(args))
    if args[-1] != "battles":  # the list of battles is all data: their titles are the data catalog's
        assert ja.output != en.output


def test_kassen_sengoku_errors_speak_japanese() -> None:
    # rule: SG.DEF.1 — an option's error is one clear line (exit 2) in the reader's language
    ja = _run("--lang", "ja", "sengoku", "defense", "--grade", "hero")
    assert ja.exit_code == 2
    assert "不明な値" in ja.output


def test_kassen_sengoku_json_is_the_same_in_every_language() -> None:
    # rule: SG.RND.2 — JSON output is data: the same whatever the language
    for args in (
        ("sengoku", "battle", "burning-temple", "--seed", "2", "--json"),
        ("sengoku", "odds", "--modifier", "4", "--defense", "13", "--json"),
        ("sengoku", "attack", "--attacker", "kuro", "--target", "oni", "--seed", "5", "--json"),
        ("sengoku", "defense", "--armor", "heavy", "--tag", "Pierce all", "--json"),
    ):
        ja, en = _run("--lang", "ja", *args), _run("--lang", "en", *args)
        assert ja.exit_code == 0 == en.exit_code
        assert json.loads(ja.stdout) == json.loads(en.stdout)


def test_english_left_check_sees_what_it_should() -> None:
    # the check itself: an English account line is caught, its Japanese is not
    line = "  GenzaburoのThrust → Oni: 2d10 [8, 1] + 3 = 12 対 防備 13: 外れ  [SG.CHK.1]"
    assert english_left(line, ["Genzaburo", "Oni"]) == ["Thrust"]
    with use_language("ja"):
        assert translate_text("double 5s on a failure: Fumble") == "失敗時の5のゾロ目: 失着"
        assert translate_text("Wounds 3 - 1 = 2") == "戰力 3 - 1 = 2"
