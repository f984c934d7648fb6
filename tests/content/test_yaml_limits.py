"""YAML is read once, under limits, and every hostile shape is one ContentError naming the file: alias
bombs, self-referring aliases, deep nesting, repeated keys, unpaired surrogates, integers too long to
read, oversized text; and a number is never read from true/false."""

from __future__ import annotations

import pytest

from kassen.content.yamlio import MAX_YAML_BYTES, MAX_YAML_DEPTH, parse_yaml
from kassen.core.errors import ContentError


def _laughs(levels: int) -> str:
    text = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    for i in range(levels):
        prev, name = chr(97 + i), chr(98 + i)
        text += f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]\n"
    return text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (_laughs(8), "once aliases are expanded"),
        ("a: &a [*a]\n", "an alias that contains itself"),
        ("[" * (MAX_YAML_DEPTH + 5) + "]" * (MAX_YAML_DEPTH + 5), "nested deeper"),
        ("a: 1\nb: 2\na: 3\n", "given twice (first at line 1)"),
        ('a: "\\ud800"\n', "unpaired surrogate|invalid Unicode character escape"),
        ("a: \ud800\n", "unpaired surrogate"),
        ("a: " + "9" * 5000 + "\n", "integer too long to read (over 4,300 digits)"),
        ('name: "Arena\\0duel"\n', "the control character U+0000"),
        ('- ["a", {"b": "c\\x00"}]\n', "the control character U+0000"),
        ('name: "R\\e[31mred\\a"\n', "the control character U+001B"),
        ("name: " + "a" * 100_000 + "\n", "a text of 100,000 characters is longer than the limit of 10,000"),
        ('name: "P\\e]0;pwned\\a"\n', "the control character U+001B"),
        ("a: [1, 2\n", "invalid YAML"),
        ("x" * (MAX_YAML_BYTES + 1), "larger than the limit"),
    ],
)
def test_hostile_yaml_is_one_error_naming_the_file(text: str, words: str) -> None:
    with pytest.raises(ContentError) as info:
        parse_yaml(text, "hostile.yaml")
    assert any(w in str(info.value) for w in words.split("|")) and str(info.value).startswith("hostile.yaml")


def test_plain_yaml_reads_once_with_its_node_tree() -> None:
    data, node = parse_yaml("a: [1, 2]\nb: {c: x}\n", "ok.yaml")
    assert data == {"a": [1, 2], "b": {"c": "x"}} and node.start_mark.line == 0


def test_a_number_is_never_read_from_true_or_false() -> None:
    from kassen.arena.content import load_rules

    with pytest.raises(ContentError, match=r"points_on_success: expected a number, got true"):
        load_rules({"match": {"audience": {"points_on_success": True}}})
    assert load_rules({"match": {"audience": {"points_on_success": 2}}}).match.audience.points_on_success == 2


def test_too_many_values_are_refused_before_any_node_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 2.9 MB file of 200,000 keys used to be built whole (3 s CPU) before the count refused it: the
    parser's events are counted first, and the nodes are never built."""
    import yaml

    from kassen.content import yamlio

    text = "\n".join(f"k{i}: {i}" for i in range(200_000)) + "\n"
    assert len(text.encode()) > 2_900_000

    def never(*args: object) -> None:
        raise AssertionError("the node tree was built")

    monkeypatch.setattr(yamlio._LOADER, "get_single_node", never)
    with pytest.raises(ContentError, match=r"more than 200,000 values"):
        parse_yaml(text, "big.yaml")
    # the same shapes within the limits still read (the count is of values, aliases expanded)
    monkeypatch.undo()
    assert yamlio._LOADER is getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data, _ = parse_yaml("a: &x [1, 2, {b: 3}]\nc: *x\nd: *x\n", "ok.yaml")
    assert data["d"] == [1, 2, {"b": 3}]
    with pytest.raises(ContentError, match="once aliases are expanded"):
        parse_yaml(_laughs(5), "laughs.yaml")  # 9**5 * 9 values from a few lines
