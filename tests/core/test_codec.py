"""The one codec: typed, strict, and every refusal names its path (issue 10, step 3)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Annotated, ClassVar, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kassen.core.codec import MAX_DEPTH, Bounds, Codec, FormatError, kind_of, parse_json


class Stance(StrEnum):
    HIGH = "high"
    LOW = "low"


@dataclass(frozen=True, slots=True)
class Use:
    maneuver: str
    target: str | None = None
    aim: Annotated[int, Bounds(0, 5)] = 0


@dataclass(frozen=True, slots=True)
class Breath:
    unit: str
    uses: tuple[Use, ...]


@dataclass(frozen=True, slots=True)
class SetGuard:
    KIND: ClassVar[str] = "guard"
    actor: str
    arm: str = ""


@dataclass(frozen=True, slots=True)
class Pass:
    unit: str


Action = Breath | SetGuard | Pass


@dataclass(frozen=True, slots=True)
class Unit:
    id: str
    wounds: int
    stance: Stance
    ratio: Fraction
    side: Literal["own", "enemy"]
    faces: tuple[int, int]


ACTIONS: Codec[Action] = Codec(Action)


def test_a_union_is_discriminated_by_kind() -> None:
    b = Breath("kuro", (Use("thrust", "oni"),))
    data = ACTIONS.dump(b)
    assert data == {
        "kind": "breath",
        "unit": "kuro",
        "uses": [{"maneuver": "thrust", "target": "oni", "aim": 0}],
    }
    assert ACTIONS.load(data) == b
    assert ACTIONS.dump(SetGuard("ryu", "left_arm"))["kind"] == "guard"  # KIND overrides the class name
    assert kind_of(Pass) == "pass"


@pytest.mark.parametrize(
    ("data", "path", "words"),
    [
        ({"kind": "breath", "unit": "kuro"}, "action.uses", "field required"),
        ({"kind": "breath", "unit": "kuro", "uses": [], "all_ou": True}, "action.all_ou", "unknown field"),
        ({"kind": "breath", "unit": 3, "uses": []}, "action.unit", "expected a string"),
        (
            {"kind": "breath", "unit": "k", "uses": [{"maneuver": "x", "aim": 9}]},
            "action.uses[0].aim",
            "out of range",
        ),
        (
            {"kind": "breath", "unit": "k", "uses": [{"maneuver": "x", "aim": True}]},
            "action.uses[0].aim",
            "integer",
        ),
        ({"kind": "jump", "unit": "k"}, "action.kind", "is not one of"),
        ({"unit": "k"}, "action.kind", "field required"),
        ([1, 2], "action", "expected"),
        (None, "action", "expected"),
    ],
)
def test_malformed_json_is_one_error_naming_its_path(data: object, path: str, words: str) -> None:
    with pytest.raises(FormatError) as info:
        ACTIONS.load(data, "action")
    assert info.value.path == path
    assert words in str(info.value)


def test_values_of_every_kind_round_trip() -> None:
    codec: Codec[Unit] = Codec(Unit)
    u = Unit("oni", 30, Stance.LOW, Fraction(3, 2), "enemy", (10, 1))
    data = codec.dump(u)
    assert data["ratio"] == "3/2" and data["stance"] == "low" and data["faces"] == [10, 1]
    assert codec.load(data) == u
    for bad, where in [
        ({**data, "stance": "middle"}, "stance"),
        ({**data, "ratio": "1/0"}, "ratio"),
        ({**data, "ratio": "0.5"}, "ratio"),
        ({**data, "side": "none"}, "side"),
        ({**data, "faces": [1, 2, 3]}, "faces"),
        ({**data, "wounds": 2**70}, "wounds"),
        ({**data, "wounds": float("nan")}, "wounds"),
    ]:
        with pytest.raises(FormatError) as info:
            codec.load(bad)
        assert info.value.path == where


def test_a_class_with_its_own_kind_field_cannot_sit_in_a_tagged_union() -> None:
    @dataclass(frozen=True)
    class Act:
        kind: str

    with pytest.raises(TypeError, match="kind"):
        Codec(Act | Pass)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[1, 2", "not valid JSON"),
        ('{"a": NaN}', "NaN"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("1" * 5000, "integer too long to read"),
        ('{"name": "a\\u0000b"}', "control character U\\+0000"),
        ('[{"a\\u0000": 1}]', "control character U\\+0000"),
        ('{"name": "R\\u001b[31mred"}', "control character U\\+001B"),
        ('{"name": "x\\u009b2J"}', "control character U\\+009B"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_hostile_json_text_is_one_error(text: str | bytes, words: str) -> None:
    with pytest.raises(FormatError, match=words):
        parse_json(text)


def test_text_that_only_reads_like_a_control_character_is_kept() -> None:
    # a backslash and "u0000" are five characters of text, not the NUL character; tab and line feed are text
    assert parse_json('{"name": "a\\\\u0000"}') == {"name": "a\\u0000"}
    assert parse_json('["a\\u0009b\\u000ac", "\\u0041"]') == ["a\tb\nc", "A"]


def test_oversized_json_text_is_refused_before_parsing() -> None:
    with pytest.raises(FormatError, match="limit"):
        parse_json("[" + "0," * 600 + "0]", max_bytes=1000)


def test_free_json_has_a_depth_limit() -> None:
    from typing import Any

    codec: Codec[Any] = Codec(dict[str, Any])
    deep: object = 1
    for _ in range(MAX_DEPTH + 2):
        deep = [deep]
    with pytest.raises(FormatError, match="deeper"):
        codec.load({"x": deep})


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda c: st.lists(c) | st.dictionaries(st.text(), c),
        max_leaves=20,
    )
)
def test_any_json_is_read_exactly_or_refused_with_a_format_error(data: object) -> None:
    try:
        action = ACTIONS.load(data)
    except FormatError as exc:
        assert exc.path.startswith(("kind", "unit", "uses", "actor", "arm", "")), exc
    else:  # whatever it accepts survives a round trip
        assert ACTIONS.load(ACTIONS.dump(action)) == action


@dataclass(frozen=True)
class Tagged:
    name: str
    notes: dict[str, int]


@dataclass
class Loose:
    name: str


def test_only_types_immutable_all_the_way_down_let_a_value_stand_for_its_round_trip() -> None:
    # frozen dataclasses, tuples, enums, literals, fractions: a remembered value can never change
    for codec in (ACTIONS, Codec(Unit), Codec(tuple[int, ...]), Codec(Stance | None)):
        assert codec._immutable, codec.tp
    # a mapping, free JSON, a plain (unfrozen) dataclass: a caller could change the value afterwards
    for codec in (Codec(Tagged), Codec(Loose), Codec(dict[str, int]), Codec(tuple[Use, Tagged])):
        assert not codec._immutable, codec.tp
    value = Loose("a")
    loose = Codec(Loose)
    loose.remember(value, loose.load(loose.dump(value)))
    assert not loose.reads_back(value)


def test_a_value_reads_back_as_itself_only_once_its_round_trip_gave_an_equal_value() -> None:
    codec: Codec[Action] = Codec(Action)
    breath = Breath("kuro", (Use("strike", "ao", 2),))
    assert not codec.reads_back(breath)
    codec.remember(breath, codec.load(codec.dump(breath)))
    assert codec.reads_back(breath)
    # an equal object is another value: not known until its own round trip
    assert not codec.reads_back(Breath("kuro", (Use("strike", "ao", 2),)))
    # a list where the type says tuple reads back as a tuple: not the value itself, never remembered
    listed = Breath("kuro", [Use("strike")])  # type: ignore[arg-type]
    loaded = codec.load(codec.dump(listed))
    assert loaded == Breath("kuro", (Use("strike"),))
    codec.remember(listed, loaded)
    assert not codec.reads_back(listed)


def test_a_value_just_like_a_remembered_round_trip_is_known_without_its_own() -> None:
    codec: Codec[Action] = Codec(Action)
    breath = Breath("kuro", (Use("strike", "ao", 1),))
    assert not codec.knows(breath)
    codec.remember(breath, codec.load(codec.dump(breath)))
    # the same breath built afresh (a script's step in the next fight): known, and from now on by identity
    again = Breath("kuro", (Use("strike", "ao", 1),))
    assert codec.knows(again)
    assert codec.reads_back(again)
    assert not codec.knows(Breath("kuro", (Use("strike", "ao", 3),)))
    # equal but not the same: True for 1 (which the codec refuses) is never let through by its equality
    sly = Breath("kuro", (Use("strike", "ao", True),))  # type: ignore[arg-type]
    assert sly == breath and hash(sly) == hash(breath)
    assert not codec.knows(sly)
    with pytest.raises(FormatError, match="aim"):
        codec.load(codec.dump(sly))
    # a list where the type says tuple: unhashable, so not known (and no error from asking)
    assert not codec.knows(Breath("kuro", [Use("strike", "ao", 1)]))  # type: ignore[arg-type]


def test_an_enum_text_or_a_number_of_another_type_is_not_known_for_the_value_it_equals() -> None:
    codec: Codec[Unit] = Codec(Unit)
    unit = Unit("ao", 3, Stance.HIGH, Fraction(1), "own", (1, 2))
    codec.remember(unit, codec.load(codec.dump(unit)))
    assert codec.knows(Unit("ao", 3, Stance.HIGH, Fraction(1), "own", (1, 2)))
    text = Unit("ao", 3, "high", Fraction(1), "own", (1, 2))  # type: ignore[arg-type]
    number = Unit("ao", 3, Stance.HIGH, 1, "own", (1, 2))  # type: ignore[arg-type]
    for other in (text, number):
        assert other == unit
        assert not codec.knows(other)
    # the number's round trip gives the typed value, not itself
    assert type(codec.load(codec.dump(number)).ratio) is Fraction


def test_what_a_codec_remembers_is_bounded() -> None:
    codec: Codec[Action] = Codec(Action)
    kept = [Pass(f"u{n}") for n in range(Codec.KNOWN + 1)]
    for p in kept:
        codec.remember(p, codec.load(codec.dump(p)))
    assert len(codec._reads_back) <= Codec.KNOWN
    assert codec.reads_back(kept[-1])
