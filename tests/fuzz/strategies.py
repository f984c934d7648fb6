"""Hypothesis strategies of hostile input: dice notation, command lines, YAML and JSON mutations."""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from hypothesis import strategies as st

from kassen.cli.main import app

# -- dice notation ------------------------------------------------------------------------------------
_NUMBERS = st.one_of(
    st.integers(0, 12).map(str),
    st.sampled_from(["20", "100", "999", "1000", "1001", "999999999", "9" * 12, "0", "00", "-1"]),
)
_DIE = st.builds(
    lambda n, s, mod: f"{n}d{s}{mod}",
    st.one_of(st.just(""), _NUMBERS),
    st.one_of(_NUMBERS, st.just("%")),
    st.sampled_from(["", "!", "kh1", "k2", "kl1", "kh3", "!kh2", "k", "kh", "!!", "kh0", "k99"]),
)
_TERM = st.one_of(_DIE, _NUMBERS, st.builds(lambda a, b: f"{a}k{b}", _NUMBERS, _NUMBERS))


@st.composite
def dice_texts(draw: st.DrawFn) -> str:
    """Expressions near the grammar (terms joined by + and -, spaces, a leading sign) and, a quarter of
    the time, arbitrary text (unicode digits, stray symbols)."""
    if draw(st.integers(0, 3)) == 0:
        return draw(st.text(alphabet=st.characters(codec="utf-8"), max_size=30))
    terms = draw(st.lists(_TERM, min_size=1, max_size=5))
    ops = draw(
        st.lists(
            st.sampled_from(["+", "-", " + ", " - ", "*", "++"]), min_size=len(terms), max_size=len(terms)
        )
    )
    text = "".join(op + t for op, t in zip(ops, terms, strict=True))
    return text[1:] if text[0] == "+" and draw(st.booleans()) else text


# -- command lines --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Param:
    name: str  # "--seed", or "" for an argument
    flag: bool
    kind: str  # int, text, path, bool


@dataclass(frozen=True)
class Command:
    path: tuple[str, ...]
    params: tuple[Param, ...]


#: Commands left out: `serve` runs a server until stopped; `lab run`/`lab sweep` are fuzzed with their
#: fight counts kept small (below), not left to chance.
_SKIP = {("serve",)}
#: Commands that play whole fights or build large tables: their own (smaller) target.
_FIGHTS = {"fight", "play", "resume", "replay", "battle", "duel", "bout", "run", "sweep", "aftermath", "odds"}


def _kind(param: Any) -> str:
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    text = str(annotation)
    if "int" in text and "str" not in text:
        return "int"
    if "Path" in text:
        return "path"
    return "text"


def _walk(command: Any, ctx: Any, path: tuple[str, ...]) -> Iterator[Command]:
    subs = getattr(command, "list_commands", None)
    if subs is not None:
        for name in subs(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                yield from _walk(sub, ctx, (*path, name))
        return
    if path in _SKIP:
        return
    params = []
    for p in command.params:
        flag = bool(getattr(p, "is_flag", False))
        name = "" if p.param_type_name == "argument" else max(p.opts, key=len)
        params.append(Param(name, flag, "bool" if flag else _kind(p)))
    yield Command(path, tuple(params))


def all_commands() -> tuple[Command, ...]:
    root = typer.main.get_command(app)
    ctx = typer.Context(root)
    return tuple(_walk(root, ctx, ()))


COMMANDS = all_commands()
FAST = tuple(c for c in COMMANDS if not _FIGHTS & set(c.path))
FIGHTS = tuple(c for c in COMMANDS if _FIGHTS & set(c.path))

_INTS = [
    "0", "1", "2", "3", "7", "-1", "-3", "12", "100", "1000", "-1000", "+4", " 5", "5.0", "1_0", "0x10",
    "1e3", "３", "٣", "", "x", "99999999999999999999999", "9" * 300, str(2**64), str(2**64 - 1), "-0", "−2",
]  # fmt: skip
_TEXTS = [
    "demo", "count-example", "burning-temple", "sengoku/demo", "duel", "arena/duel", "l5r/first-blood",
    "first-blood", "kakita-vs-hida", "knockback", "oni", "samurai", "kuro", "thrust", "katana", "heavy-blow",
    "2d6", "-1d4+5", "7k3", "99999k3", "6k3", "12k4", "1d+3", "2d-1", "cut", "cr", "pi++", "torso",
    "skull", "head", "light", "heavy", "none", "veteran", "mob", "Pierce 2", "Direct all", "stance=2",
    "SG.CHK.1", "L5.CORE.1", "AR.DMG.1", "XX.Y.1", "sengoku", "l5r", "arena", "csv", "parquet", "local",
    "auto", "table", "party", "Crane", "east", "fighters.ryu.skill=10..12", "-2..8", "3k2..4k3", "6..18",
    "", " ", "-", "--", "--json", "-v", "ＡＢＣ", "\u202e", "a" * 300, "x" * 20000,
]  # fmt: skip
_FILES = [
    "ok.yaml", "laughs.yaml", "latin1.yaml", "deep.yaml", "chronicle.json", "bad.json", "dir", "missing.yaml",
    "n" * 300 + ".yaml", "-",
]  # fmt: skip
#: Options whose large values are legitimately slow (many fights, many workers, a Ray cluster).
_SMALL = {
    "--fights": ["1", "2", "0", "-1", "x", "200001"],
    "--jobs": ["1", "0", "x", "300"],
    "--backend": ["local", "x"],
    "--address": ["x"],
    "--out": ["out"],
    "--format": ["csv", "x"],
}


_SANE_INTS = ["0", "1", "2", "3", "5", "7", "10", "12", "14", "-1", "-2"]
_SANE_TEXTS = _TEXTS[: _TEXTS.index("6..18") + 1]


def _value(draw: st.DrawFn, param: Param, sane: bool) -> str:
    if param.name in _SMALL:
        return draw(st.sampled_from(_SMALL[param.name]))
    if sane:  # a value such as a user means to type: the command gets past its checks more often
        return draw(st.sampled_from(_SANE_INTS if param.kind == "int" else _SANE_TEXTS))
    pools = {"int": _INTS, "path": _FILES, "text": _TEXTS + _FILES}
    choice = draw(st.integers(0, 9))
    if choice == 0:
        return draw(st.text(max_size=12))
    pool = pools.get(param.kind, _TEXTS)
    return draw(st.sampled_from(pool if choice > 2 else _INTS + _TEXTS))


@st.composite
def command_lines(draw: st.DrawFn, commands: tuple[Command, ...]) -> list[str]:
    """A command and a random selection of its options and arguments, with hostile values, in a random
    order, sometimes with an extra token or an option given twice."""
    command = draw(st.sampled_from(commands))
    sane = draw(st.booleans())
    parts: list[list[str]] = []
    for param in command.params:
        if param.name == "--help" or (param.name and not draw(st.booleans())):
            continue
        if param.flag:
            parts.append([param.name])
        elif param.name:
            parts.append([param.name, _value(draw, param, sane)])
        else:
            parts.append([_value(draw, param, sane)])
    parts = draw(st.permutations(parts)) if draw(st.booleans()) else parts
    args = [*command.path, *(w for p in parts for w in p)]
    if draw(st.integers(0, 5)) == 0:
        args.insert(draw(st.integers(len(command.path), len(args))), draw(st.sampled_from(_INTS + _TEXTS)))
    return args


def write_fixtures(root: Path) -> None:
    """The files the generated command lines name: a valid scenario, hostile YAML, a chronicle, a
    directory, text that is not UTF-8."""
    (root / "ok.yaml").write_text(
        "ruleset: arena\nname: fuzz\nfighters:\n  - {id: a, side: x, skill: 12}\n  - {id: b, side: y}\n",
        encoding="utf-8",
    )
    laughs = 'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
    for i in range(8):
        laughs += f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 9) + "]\n"
    (root / "laughs.yaml").write_text(laughs, encoding="utf-8")
    (root / "latin1.yaml").write_bytes("name: caf\xe9\n".encode("latin-1"))
    (root / "deep.yaml").write_text("a: " + "[" * 500 + "]" * 500 + "\n", encoding="utf-8")
    (root / "bad.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (root / "chronicle.json").write_text(json.dumps(CHRONICLE), encoding="utf-8")
    (root / "dir").mkdir(exist_ok=True)


# -- YAML and JSON mutations ------------------------------------------------------------------------------
_TOKENS = [
    "", "x", "0", "-1", "1000000000000", "9" * 5000, "３", "yes", "no", "null", "~", "[]", "{}", "&a [*a]",
    "*a", "!!python/object:os.system", "'\\ud800'", '"\\ud800"', "1.5", ".nan", ".inf", "[1, [2, [3]]]",
    "{a: 1}",
    "kenjutsuu", "swordmanship", "skulll", "heavy-blw", "own-flnk", "oni", "torso", "party", "Crane",
]  # fmt: skip


@st.composite
def yaml_mutations(draw: st.DrawFn, text: str) -> str:
    """``text`` with one to three edits: a line dropped, duplicated or cut; a value or key replaced by a
    hostile token; a line indented wrong; a key misspelt."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        kind = draw(st.integers(0, 6))
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, line)
        elif kind == 2:
            lines[i] = line[: draw(st.integers(0, len(line)))]
        elif kind == 3 and ":" in line:
            key, _, _ = line.partition(":")
            lines[i] = f"{key}: {draw(st.sampled_from(_TOKENS))}"
        elif kind == 4 and ":" in line:
            key, sep, rest = line.partition(":")
            stripped = key.strip(" -")
            if stripped:
                cut = draw(st.integers(0, len(stripped) - 1))
                lines[i] = key.replace(stripped, stripped[:cut] + stripped[cut + 1 :] + "x", 1) + sep + rest
        elif kind == 5:
            lines[i] = " " * draw(st.integers(1, 5)) + line
        else:
            lines.insert(i, f"{draw(st.sampled_from(['zz', 'seed', 'name', 'units', 'rounds']))}: "
                            f"{draw(st.sampled_from(_TOKENS))}")  # fmt: skip
    return "\n".join(lines) + "\n"


def _paths(data: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield here
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, (*here, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, (*here, i))


_JSON_VALUES = [
    None, True, False, 0, -1, 1.5, math.nan, math.inf, 2**64, -(2**64), 10**400, "", "x", "sengoku", "arena",
    [], {}, [[[[]]]], {"kind": "x"}, "\ud800",
]  # fmt: skip


@st.composite
def json_mutations(draw: st.DrawFn, data: Any) -> Any:
    """``data`` (a chronicle) with one to three edits: a key removed, a value replaced by a hostile one,
    a list shortened or doubled, the ruleset relabelled."""
    out = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(out) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = out
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        kind = draw(st.integers(0, 3))
        if kind == 0 and isinstance(parent, dict):
            del parent[last]
        elif kind == 1 and isinstance(parent[last], list):
            parent[last] = parent[last][: draw(st.integers(0, len(parent[last])))] * draw(st.integers(1, 2))
        elif kind == 2 and isinstance(parent, dict) and last == "ruleset":
            parent[last] = draw(st.sampled_from(["sengoku", "l5r", "arena", "x"]))
        else:
            parent[last] = draw(st.sampled_from(_JSON_VALUES))
    return out


def _chronicle() -> dict[str, Any]:
    import kassen

    fight = kassen.open_fight("l5r/first-blood", seed=1)
    fight.autoplay()
    data: dict[str, Any] = fight.to_json()
    return data


CHRONICLE = _chronicle()
