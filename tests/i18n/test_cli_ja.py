"""The command line in Japanese: help (Typer's own words included), usage errors, the CLI's own output,
and `--lang` itself. Only words change: English is as it was, and JSON output is the same in both."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from typer import rich_utils
from typer.testing import CliRunner

from kassen.cli.helptext import TYPER_WORDS
from kassen.cli.main import app
from kassen.i18n import use_language

from .leaks import assert_japanese, english_left

runner = CliRunner()

#: What a user types stays as it is in Japanese help: option names, command names, the values an option
#: takes (policy names, dice modes, kinds), file formats and tools.
_TYPED = re.compile(
    r"``[^`]*``|`[^`]*`|kassen(?: [a-z][a-z-]*)+|(?<![\w-])--?[a-z][a-z0-9-]*|\[[a-z|]+\]|"
    r"[a-z]+:[a-zA-Z_=.0-9]+|"
    r"\b[a-z]+(?:-[a-z]+)+\b|sqlite:///\S+|postgresql://\S+|\b\w+\.\w+(?:\.\w+)*\(?\)?|\w+=\S+"
)
TYPED_WORDS = (
    "auto table scenario heuristic random search first-legal kassen gm save undo back quit sengoku l5r "
    "arena weapon armor shield maneuver attack defense movement stance kata upkeep creature trait debuff "
    "house-default thrust oni o-yoroi wounds true false Fight to_json Ctrl-C"
)


def invoke(*args: str, env: dict[str, str] | None = None, input: str | None = None) -> tuple[int, str, str]:
    env = {"COLUMNS": "250", **(env or {})}  # help on one line a row: no word cut by the wrapping
    result = runner.invoke(app, list(args), env=env, input=input)
    return result.exit_code, result.stdout, result.stderr


def _typed_left_out(text: str) -> str:
    return _TYPED.sub(" ", text)


def _commands(group: typer.Typer | None = None) -> list[list[str]]:
    """Every command path under ``kassen`` that the core and the CLI define (the ruleset, lab and web
    groups are their own engineers')."""
    ctx = typer.Context(typer.main.get_command(app))
    root = ctx.command
    own = {"roll", "odds", "fight", "replay", "validate", "scenarios", "rules", "play", "resume"}
    groups = {"schema", "content", "roster", "campaign"}
    paths: list[list[str]] = [[name] for name in sorted(own)]
    for name in sorted(groups):
        sub = root.get_command(ctx, name)  # type: ignore[attr-defined]
        assert sub is not None, name
        paths.append([name])
        paths += [[name, c] for c in sorted(sub.commands)]
    return paths


@pytest.mark.parametrize("path", _commands(), ids=lambda p: " ".join(p))
def test_every_help_of_the_core_and_cli_is_japanese(path: list[str]) -> None:
    code, out, err = invoke(*path, "--help", "--lang", "ja")
    assert code == 0, err
    assert "使い方:" in out and "オプション" in out and "このヘルプを表示して終了する。" in out
    root = typer.main.get_command(app)
    group = root.get_command(typer.Context(root), path[0])  # type: ignore[attr-defined]
    names = [*path, *TYPED_WORDS.split(), *getattr(group, "commands", {})]
    assert_japanese(_typed_left_out(out), allow=names, where=f"kassen {' '.join(path)} --help")


def test_the_top_level_help_is_japanese_for_the_commands_of_the_core() -> None:
    code, out, _ = invoke("--help", "--lang", "ja")
    assert code == 0
    assert "使い方: kassen [オプション] コマンド [引数]..." in out
    assert "╭─ コマンド" in out and "╭─ オプション" in out
    for line in out.splitlines():
        cells = line.strip("│ ").split(maxsplit=1)
        if cells and cells[0] in {"roll", "odds", "fight", "play", "resume", "replay", "validate", "rules"}:
            words = _typed_left_out(cells[1] if len(cells) > 1 else "")
            assert not english_left(words, allow=TYPED_WORDS.split()), line


def test_english_help_is_unchanged_and_nothing_is_left_changed_between_invocations() -> None:
    before = {name: getattr(rich_utils, name) for name in TYPER_WORDS}
    make_text = rich_utils._make_rich_text
    first = invoke("fight", "--help")[1]
    japanese = invoke("fight", "--help", "--lang", "ja")[1]
    again = invoke("fight", "--help")[1]
    assert first == again  # the Japanese screen in between changed nothing
    assert japanese != first
    assert "Usage: kassen fight [OPTIONS]" in first and "使い方: kassen fight [オプション]" in japanese
    assert "╭─ Arguments" in first and "╭─ Options" in first and "[required]" in first
    assert "Show this message and exit." in first and "Every explanation step too." in first
    assert {name: getattr(rich_utils, name) for name in TYPER_WORDS} == before
    assert rich_utils._make_rich_text is make_text
    # the command itself keeps its English help: only a translated copy was shown
    fight = typer.main.get_command(app).get_command(typer.Context(typer.main.get_command(app)), "fight")  # type: ignore[attr-defined]
    assert fight.help.startswith("Play any ruleset's scenario")


def test_help_switches_language_back_and_forth_in_one_process() -> None:
    outs = [invoke("roll", "--help", "--lang", lang)[1] for lang in ("ja", "en", "ja", "en")]
    assert outs[0] == outs[2] and outs[1] == outs[3] and outs[0] != outs[1]
    assert "ダイスを振り" in outs[0] and "Roll dice and show every die" in outs[1]


@pytest.mark.parametrize(
    ("args", "english", "japanese"),
    [
        (
            ["fight", "duel", "--seeed", "3"],
            "No such option: --seeed (Possible options: --seed)",
            "そのようなオプション",
        ),
        (["roll"], "Missing argument 'EXPRESSION'.", "引数 '式' がない"),
        (["nosuch"], "No such command 'nosuch'.", "そのようなコマンドはない"),
        (
            ["fight", "duel", "--seed", "x"],
            "command line: --seed: must be a whole number",
            "コマンドライン: --seed: 整数",
        ),
        (["roll", "2d10+"], "expected a number or dice term at column 6 in '2d10+'", "数かダイスの項が必要"),
        (["fight", "nosuch"], "no such file, and no bundled scenario of that name", "同梱シナリオもない"),
        (
            ["play", "duel", "--dice", "cards"],
            "--dice is auto or table, not 'cards'",
            "--dice は auto か table",
        ),
        (
            ["fight", "duel", "--policy", "nobody=search"],
            "no side 'nobody' in this fight",
            "陣営'nobody'はない",
        ),
        (["rules", "SG.XYZ.9"], "no rule 'SG.XYZ.9'", "ルール'SG.XYZ.9'はない"),
    ],
)
def test_errors_are_one_line_exit_2_in_either_language(args: list[str], english: str, japanese: str) -> None:
    code, _out, err = invoke(*args)
    assert code == 2 and english in err and err.startswith("kassen: error: ") and err.count("\n") == 1, err
    code, _out, err = invoke(*args, "--lang", "ja")
    assert code == 2 and err.startswith("kassen: エラー: ") and err.count("\n") == 1, err
    assert japanese in err, err
    typed = [a for a in args if not a.startswith("-")] + [
        "seeed",
        "cards",
        "nobody",
        "search",
        "east",
        "west",
    ]
    bundled = "crusher duel knockback melee pit bridge-ambush first-blood kakita-vs-hida lame-veteran demo"
    assert_japanese(_typed_left_out(err), allow=[*typed, *bundled.split(), *TYPED_WORDS.split()])


def test_content_problems_are_listed_one_a_line_in_japanese(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: arena\ntitel: x\nfighters: 3\n", encoding="utf-8")
    code, _, err_en = invoke("validate", str(bad))
    code_ja, _, err = invoke("validate", str(bad), "--lang", "ja")
    assert code == code_ja == 2
    assert err_en.count("\n") == err.count("\n")  # the same problems, one a line
    assert err.startswith("kassen: エラー: ")
    assert "必須の項目がない" in err and "未知の項目（形式にない）" in err
    # the YAML keys a user writes stay as they are (the format's own words)
    keys = "name description format ground seed max_actions start_distance fighters titel arena"
    assert_japanese(_typed_left_out(err.replace(str(bad), "")), allow=keys.split())


def test_lang_after_any_subcommand_and_from_the_environment() -> None:
    for args in (
        ["fight", "duel", "--brief", "--seed", "3", "--lang", "ja"],
        ["--lang", "ja", "fight", "duel", "--brief", "--seed", "3"],
        ["fight", "--lang=ja", "duel", "--brief", "--seed", "3"],
    ):
        code, out, err = invoke(*args)
        assert code == 0 and "（シード 3）" in out and "手で決着" in out, (args, out, err)
    code, out, _ = invoke("fight", "duel", "--brief", "--seed", "3", env={"KASSEN_LANG": "ja"})
    assert code == 0 and "手で決着" in out
    code, out, _ = invoke(
        "fight", "duel", "--brief", "--seed", "3", "--lang", "en", env={"KASSEN_LANG": "ja"}
    )
    assert code == 0 and "(seed 3)" in out and "after" in out  # the option wins over the environment


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["fight", "duel", "--lang", "de"], None),
        (["--lang"], None),
        (["roll", "2d6", "--lang", "ja", "--lang", "en"], None),
        (["roll", "2d6"], {"KASSEN_LANG": "klingon"}),
    ],
)
def test_a_bad_language_is_one_line_and_exit_2(args: list[str], env: dict[str, str] | None) -> None:
    code, out, err = invoke(*args, env=env)
    assert code == 2 and err.startswith("kassen: error: ") and err.count("\n") == 1 and not out, err


@pytest.mark.parametrize(
    "args",
    [
        ["roll", "4d6kh3+2", "--seed", "9", "--json"],
        ["odds", "7k3", "--at-least", "25", "--json"],
        ["fight", "duel", "--seed", "3", "--json"],
        ["fight", "l5r/kakita-vs-hida", "--seed", "5", "--json"],
        ["fight", "sengoku/demo", "--seed", "2", "--json"],
        ["scenarios", "--json"],
        ["rules", "SG.CHK.1", "--json"],
        ["schema", "chronicle", "--ruleset", "arena"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_json_output_is_the_same_in_both_languages(args: list[str]) -> None:
    en = invoke(*args, "--lang", "en")
    ja = invoke(*args, "--lang", "ja")
    assert en[0] == ja[0] == 0
    assert en[1] == ja[1]
    json.loads(en[1])


def test_the_cli_own_output_in_japanese() -> None:
    chronicle = invoke("fight", "sengoku/demo", "--seed", "2", "--json")[1]
    outputs = {
        "roll": invoke("roll", "2d10+3", "--lang", "ja")[1],
        "odds": invoke("odds", "2d10", "--at-least", "11", "--lang", "ja")[1],
        "replay": invoke("replay", "-", "--lang", "ja", input=chronicle)[1],
        "validate": invoke("validate", "duel", "--lang", "ja")[1],
        "brief": invoke("fight", "duel", "--seed", "3", "--brief", "--lang", "ja")[1],
    }
    assert (
        "（シード " in outputs["roll"]
        and "厳密" in outputs["odds"]
        and outputs["replay"].startswith("一致: ")
    )
    assert outputs["validate"].startswith("問題なし: arenaのシナリオ")
    # the core's own words; the scenario titles and the rulesets' reasons are the data's and rulesets'
    framing = "\n".join(
        [
            outputs["roll"],
            outputs["odds"],
            outputs["validate"].split("'")[0],
            outputs["replay"].split("。")[0],
        ]
    )
    assert_japanese(framing, allow=["arena"])
    with use_language("en"):
        assert invoke("odds", "2d10", "--at-least", "11")[1].endswith("exact\n")


def test_a_game_at_the_terminal_speaks_japanese(tmp_path: Path) -> None:
    """The play loop's own words (the header, refused answers, `?`, undo, save, the result); the menus'
    and accounts' words are the ruleset's (their own tests)."""
    save = tmp_path / "game.json"
    answers = ["1", "hello", "?", "1", "undo", "undo", "undo", f"save {save}", "zzz"] + ["1"] * 200
    code, out, err = invoke(
        "play", "l5r/kakita-vs-hida", "--seed", "4", "--lang", "ja", input="\n".join(answers) + "\n"
    )
    assert code == 0, err
    code_en, out_en, _ = invoke("play", "l5r/kakita-vs-hida", "--seed", "4", input="\n".join(answers) + "\n")
    assert code_en == 0 and "Result: winner:" in out_en
    lines = out.splitlines()
    # the scenario's title is the data catalog's words (対 for "vs"), the names as written
    assert lines[0].startswith("Kakita Toshiro 対 Hida Kuroda（シード 4、ダイス: 自動）。回答: 番号")
    mine = [
        line
        for line in lines
        if line.startswith(
            ("kassen:", "（Ctrl-C", "取り消し:", "結果:", "  このメニュー", "保存", "ダイス待ち")
        )
        or "に保存した" in line
    ]
    said = "\n".join(mine).replace(str(Path.cwd()), "").replace(str(save), "")
    assert "kassen: 'hello' はここでは使えない" in said and "取り消し: " in said and "に保存した" in said
    result = next(line for line in lines if line.startswith("結果: 勝者: "))
    said = said.replace(result, result.split("（")[0])  # the reason is the ruleset's words
    assert len(out_en.splitlines()) == len(lines)  # the same game, line for line
    header = lines[0].split("。", 1)[1]
    names = ["hello", "zzz", "Crane", "Crab", "Kakita", "Toshiro", "Hida", "Kuroda", *TYPED_WORDS.split()]
    assert_japanese(_typed_left_out(header + "\n" + said), allow=names)


def test_table_dice_prompts_in_japanese() -> None:
    answers = ["1", "5", "7", "3", "99", "x"] + ["auto"] * 80 + ["1"] * 80
    code, out, err = invoke(
        "play",
        "l5r/kakita-vs-hida",
        "--seed",
        "4",
        "--dice",
        "table",
        "--lang",
        "ja",
        input="\n".join(answers) + "\n",
    )
    assert code == 0, err
    prompts = [line for line in out.splitlines() if line.endswith(": 出目、または auto")]
    assert prompts and all("を振る" in p and "残り" in p for p in prompts)
    assert "kassen: 'x' は出目ではない" in out


def test_the_sengoku_catalog_commands_frame_their_output_in_japanese() -> None:
    code, out, _ = invoke("content", "list", "--lang", "ja")
    assert code == 0 and out.splitlines()[0].split() == ["種類", "ID", "名前", "概要"]
    kinds = {line.split()[0] for line in out.splitlines()[1:] if line[:1].strip()}
    assert kinds <= {"武器", "鎧", "盾", "行動", "戦闘者", "弱体", "特徴", "表", "ハウス既定"}, kinds
    english = invoke("content", "list")[1]
    assert english.splitlines()[0].split() == ["kind", "id", "name", "summary"]
    assert "house-default" in english and "weapon" in english
    code, out, _ = invoke("content", "show", "SG.WND.5", "--lang", "ja")
    assert code == 0 and "ハウス既定 SG.WND.5" in out and "根拠:" in out


@pytest.mark.parametrize(
    ("args", "listed"),
    [
        (("fight", "nope"), "crusher, duel, knockback, melee, pit"),
        (
            ("arena", "damage", "--basic", "10", "--type", "cut", "--ht", "10", "--location", "tail"),
            "skull, face, left_eye, right_eye, neck, torso, vitals",
        ),
        (("play", "duel", "--human", "nobody"), "east, west, ryu, ken, gm"),
    ],
)
def test_the_names_an_error_lists_stay_as_typed_in_japanese(args: tuple[str, ...], listed: str) -> None:
    """The names a refusal lists are what the user may type: none translated (knockback, skull), none
    joined differently halfway through the list."""
    code, _out, err = invoke("--lang", "ja", *args)
    assert code == 2 and "エラー" in err, err
    assert listed in err, err


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("a: &a [*a]\n", "自分自身を含むエイリアス"),
        ("[" * 200 + "]" * 200, "入れ子が"),
    ],
)
def test_a_yaml_limit_is_said_in_japanese(tmp_path: Path, text: str, said: str) -> None:
    hostile = tmp_path / "hostile.yaml"
    hostile.write_text(text, "utf-8")
    code, _out, err = invoke("--lang", "ja", "validate", str(hostile))
    assert code == 2 and said in err, err
    assert_japanese(err.split("(yaml): ", 1)[1])


def test_a_file_that_is_not_json_is_said_in_japanese(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": 3,, }', "utf-8")
    code, _out, err = invoke("--lang", "ja", "replay", str(broken))
    assert code == 2 and "正しいJSONではない" in err and "1行" in err, err
    assert "Expecting" not in err and "column" not in err


def test_a_value_of_the_wrong_kind_in_a_chronicle_is_said_in_japanese(tmp_path: Path) -> None:
    code, out, err = invoke("fight", "count-example", "--seed", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    data["initial_state"]["count"] = "x"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data), "utf-8")
    code, _out, err = invoke("--lang", "ja", "replay", str(edited))
    assert code == 2 and "initial_state.count: 整数でなければならない（文字列だった）" in err, err


def test_a_kind_that_is_not_one_of_the_kinds_is_said_in_japanese_with_the_kinds_as_typed(
    tmp_path: Path,
) -> None:
    code, out, err = invoke("fight", "count-example", "--seed", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    data["log"][1]["action"]["kind"] = "brath"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data), "utf-8")
    code, _out, err = invoke("--lang", "ja", "replay", str(edited))
    assert code == 2 and "'brath'は次のいずれでもない: begin, breath, hold, pass" in err, err
    assert "'breath'のことか？" in err and "one of" not in err


def test_a_chronicle_of_another_format_is_said_in_japanese(tmp_path: Path) -> None:
    code, out, err = invoke("fight", "count-example", "--seed", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    data["format"] = 99
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data), "utf-8")
    code, _out, err = invoke("--lang", "ja", "replay", str(edited))
    assert code == 2 and "このファイルは形式99" in err and "play the fight" not in err, err
