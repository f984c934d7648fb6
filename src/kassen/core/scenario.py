"""Scenarios of every ruleset: one header, one loader, one bundled listing, and :func:`open_fight`.

A scenario is a YAML file whose header names its ruleset; the rest is the ruleset's own format::

    ruleset: sengoku          # sengoku | l5r | arena | any registered ruleset
    name: The raid at Kawanaka ford
    content:                  # optional: a content layer of the scenario's own, merged last
      maneuvers: [...]
    ...                       # the ruleset's body: sides, units, fighters, scripts...

:func:`read_scenario` finds it (a bundled name, ``ruleset/name``, or a path), reads it under the
content limits (size, encoding, depth, aliases, repeated keys) and splits the header from the body;
the ruleset's ``setup`` validates the body. :func:`open_fight` does the whole way to a
:class:`~kassen.core.fight.Fight`.
"""

from __future__ import annotations

__all__ = ["BundledScenario", "ScenarioSource", "bundled_scenarios", "open_fight", "read_scenario"]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from kassen.content.content import inline_layer, read_layer
from kassen.content.yamlio import line_of, parse_yaml, read_text
from kassen.core.errors import ContentError, ContentIssue, KassenError
from kassen.core.fight import Fight, check_seed
from kassen.core.policy import Policy
from kassen.core.ruleset import find_ruleset, registered_rulesets

#: Keys every scenario may have besides its ruleset's own.
HEADER = ("ruleset", "content")


@dataclass(frozen=True)
class ScenarioSource:
    """A scenario read and split: ``data`` is its body (header removed), ``node`` the YAML node tree
    of the whole file (for line numbers), ``content`` its own content layer, if any."""

    name: str
    file: str
    ruleset: str
    data: Mapping[str, Any]
    node: Any = field(default=None, compare=False, repr=False)
    content: Mapping[str, Any] | None = None
    bundled: bool = False

    def issue(self, message: str, *path: str | int) -> ContentIssue:
        """A problem at ``path`` of this scenario, with its line."""
        return ContentIssue(
            self.file, ".".join(str(p) for p in path) or "(root)", message, line_of(self.node, path)
        )


@dataclass(frozen=True, slots=True)
class BundledScenario:
    """A scenario shipped with a ruleset."""

    name: str
    ruleset: str
    title: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "ruleset": self.ruleset, "title": self.title}


def _bundled_files(ruleset: str) -> dict[str, Any]:
    package, folder = find_ruleset(ruleset).info.scenarios
    root = resources.files(package).joinpath(folder)
    return {
        f.name.rsplit(".", 1)[0]: f
        for f in sorted(root.iterdir(), key=lambda f: f.name)
        if f.name.endswith(".yaml")
    }


def bundled_scenarios(ruleset: str | None = None) -> tuple[BundledScenario, ...]:
    """Every bundled scenario (of one ruleset, or of all registered), with its title."""
    names = [ruleset] if ruleset is not None else list(registered_rulesets())
    out = []
    for r in names:
        for name in _bundled_files(r):
            src = read_scenario(f"{r}/{name}")
            title = src.data.get("name")
            out.append(BundledScenario(name, r, title if isinstance(title, str) else name))
    return tuple(out)


def _find_bundled(name: str, ruleset: str | None, broken: list[str]) -> tuple[str, str, str] | None:
    """``(ruleset, name, text)`` of a bundled scenario called ``name`` (or ``ruleset/name``). A ruleset
    that cannot load is skipped when looking through all of them (its error goes to ``broken``)."""
    if "/" in name:
        r, _, bare = name.partition("/")
        if r not in registered_rulesets() or (ruleset is not None and r != ruleset):
            return None
        candidates = [r]
        name = bare
    else:
        candidates = [ruleset] if ruleset is not None else list(registered_rulesets())
    stem = name.removesuffix(".yaml")
    for r in candidates:
        try:
            files = _bundled_files(r)
        except KassenError as exc:
            if len(candidates) == 1:
                raise
            broken.append(str(exc))
            continue
        if stem in files:
            return r, stem, files[stem].read_text(encoding="utf-8")
    return None


def _known(ruleset: str | None, broken: list[str]) -> str:
    names: list[str] = []
    for r in [ruleset] if ruleset is not None else list(registered_rulesets()):
        try:
            names += list(_bundled_files(r))
        except KassenError:
            continue
    text = f"(bundled: {', '.join(names) or 'none'})"
    return text + (f"; {'; '.join(broken)}" if broken else "")


def read_scenario(
    source: str | Path, *, ruleset: str | None = None, text: str | None = None
) -> ScenarioSource:
    """Read a scenario: ``text`` if given (named ``source`` in errors), else a bundled scenario called
    ``source`` (``demo`` or ``sengoku/demo``), else the file at the path ``source``. ``ruleset``, when
    given, is what the caller expects: a file without a header is taken as that ruleset's, a file
    naming another is refused."""
    name = str(source)
    bundled = None
    broken: list[str] = []
    if text is None:
        if (
            isinstance(source, str)
            and "\x00" not in name
            and len(name) <= 200
            and not name.endswith((".yml",))
        ):
            bundled = _find_bundled(name, ruleset, broken)
        if bundled is not None:
            r, bare, text = bundled
            package, folder = find_ruleset(r).info.scenarios
            file = f"{package.replace('.', '/')}/{folder}/{bare}.yaml"
            name = bare
        else:
            path = Path(source)
            try:
                exists = path.is_file()
            except (OSError, ValueError):
                exists = False
            if not exists:
                shown = name if len(name) <= 120 else name[:117] + "..."
                message = "no such file, and no bundled scenario of that name " + _known(ruleset, broken)
                raise ContentError(ContentIssue(shown, "(file)", message))
            text = read_text(path)
            file = str(path)
            name = path.stem
    else:
        file = name
    data, node = parse_yaml(text, file)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ContentError(ContentIssue(file, "(root)", "a scenario is a mapping of fields", 1))
    declared = data.get("ruleset")
    if declared is None:
        if ruleset is None:
            known = "|".join(registered_rulesets())
            raise ContentError(
                ContentIssue(
                    file, "ruleset", f"a scenario names its ruleset in its header: `ruleset: {known}`", 1
                )
            )
        declared = ruleset
    elif not isinstance(declared, str) or declared not in registered_rulesets():
        known = ", ".join(registered_rulesets())
        raise ContentError(
            ContentIssue(
                file, "ruleset", f"unknown ruleset {declared!r} (known: {known})", line_of(node, ("ruleset",))
            )
        )
    elif ruleset is not None and declared != ruleset:
        raise ContentError(
            ContentIssue(
                file,
                "ruleset",
                f"this is a {declared} scenario, not a {ruleset} one",
                line_of(node, ("ruleset",)),
            )
        )
    own = data.get("content")
    if own is not None and not isinstance(own, dict):
        raise ContentError(
            ContentIssue(
                file, "content", "a scenario's content is a mapping of sections", line_of(node, ("content",))
            )
        )
    body = {k: v for k, v in data.items() if k not in HEADER}
    return ScenarioSource(name, file, declared, body, node, own, bundled is not None)


def open_fight(
    scenario: str | Path | ScenarioSource,
    *,
    seed: int | None = None,
    content: Sequence[str | Path] = (),
    policy: Policy[Any, Any] | None = None,
    ruleset: str | None = None,
) -> Fight[Any, Any]:
    """A fight at the start of ``scenario`` (a bundled name, ``ruleset/name``, a path, or a read
    :class:`ScenarioSource`): its ruleset from the file's header, the ruleset's bundled content with
    each ``content`` layer and the scenario's own merged over it, ``seed`` (default: the scenario's),
    and ``policy`` (default: the scenario's policies) for :meth:`~kassen.core.fight.Fight.step` and
    :meth:`~kassen.core.fight.Fight.autoplay`.

    >>> fight = open_fight("count-example", seed=1)
    >>> fight.autoplay()
    >>> fight.over
    True
    """
    src = scenario if isinstance(scenario, ScenarioSource) else read_scenario(scenario, ruleset=ruleset)
    rs = find_ruleset(src.ruleset)
    layers = [read_layer(p, f"layer {i}") for i, p in enumerate(content, 1)]
    if src.content is not None:
        layers.append(inline_layer(src.content, src.file, src.node))
    built = rs.load_content(layers)
    setup = rs.setup(src, built)
    used = setup.seed if seed is None else check_seed(seed)
    meta = {"scenario": setup.title, "source": src.name, **setup.meta}
    return Fight(
        rs,
        built,
        setup.state,
        used,
        meta=meta,
        policy=policy or setup.policy(),
        max_actions=setup.max_actions,
    )
