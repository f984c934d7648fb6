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

__all__ = [
    "BundledScenario",
    "ScenarioSource",
    "bundled_names",
    "bundled_scenarios",
    "open_fight",
    "read_scenario",
]

import importlib.machinery
import importlib.util
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from kassen.content.content import inline_layer, read_layer
from kassen.content.yamlio import MAX_YAML_BYTES, line_of, parse_yaml, read_text
from kassen.core.errors import ContentError, ContentIssue, KassenError
from kassen.core.fight import Fight, check_seed
from kassen.core.policy import Policy
from kassen.core.rng import fresh_seed
from kassen.core.ruleset import find_ruleset, loaded_rulesets, registered_rulesets
from kassen.i18n import S_

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
    root: Any = _unloaded_folder(ruleset)
    if root is None:
        package, folder = find_ruleset(ruleset).info.scenarios
        root = resources.files(package).joinpath(folder)
    return {
        f.name.rsplit(".", 1)[0]: f
        for f in sorted(root.iterdir(), key=lambda f: f.name)
        if f.name.endswith(".yaml")
    }


@cache
def _scenario_folders() -> dict[str, str]:
    from importlib import metadata  # on first use: importing the core stays cheap

    return {ep.name: ep.value for ep in metadata.entry_points(group="kassen.scenarios")}


def _unloaded_folder(ruleset: str) -> Path | None:
    """The folder of an installed ruleset's bundled scenarios, as its ``kassen.scenarios`` entry point
    names it (``package:folder``), found without importing the ruleset (nor its package's
    ``__init__``): a scenario named without its ruleset is looked for in every ruleset, and loading
    them all took a lab run a second before its first fight. None when the ruleset is loaded already
    (its ``info.scenarios`` says), names no folder, or the folder is not a plain directory."""
    value = _scenario_folders().get(ruleset)
    if value is None or ruleset in loaded_rulesets():
        return None
    package, _, folder = value.partition(":")
    parts = package.split(".")
    try:
        spec = importlib.util.find_spec(parts[0])
        for part in parts[1:]:
            places = spec.submodule_search_locations if spec is not None else None
            spec = importlib.machinery.PathFinder.find_spec(part, list(places or []))
    except (ImportError, ValueError):
        return None
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    root = Path(places[0]) / folder if places else None
    return root if root is not None and root.is_dir() else None


def bundled_names(ruleset: str) -> tuple[str, ...]:
    """The names of one ruleset's bundled scenarios."""
    return tuple(_bundled_files(ruleset))


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
    """``(ruleset, name, text)`` of a bundled scenario called ``name`` (or ``ruleset/name``). Looking
    through all rulesets, one that cannot load is skipped (its error goes to ``broken``), and a name two
    rulesets bundle is refused as ambiguous."""
    if "/" in name:
        r, _, bare = name.partition("/")
        if r not in registered_rulesets() or (ruleset is not None and r != ruleset):
            return None
        candidates = [r]
        name = bare
    else:
        candidates = [ruleset] if ruleset is not None else list(registered_rulesets())
    found: list[tuple[str, str, Any]] = []
    for r in candidates:
        try:
            files = _bundled_files(r)
        except KassenError as exc:
            if len(candidates) == 1:
                raise
            broken.append(str(exc))
            continue
        if name in files:
            found.append((r, name, files[name]))
    if len(found) > 1:
        which = ", ".join(f"{r}/{n}" for r, n, _ in found)
        raise ContentError(
            ContentIssue(
                name, "(name)", S_("bundled by more than one ruleset: say which ({which})", which=which)
            )
        )
    if not found:
        return None
    r, bare, file = found[0]
    return r, bare, file.read_text(encoding="utf-8")


def _known(ruleset: str | None, broken: list[str]) -> str:
    names: list[str] = []
    for r in [ruleset] if ruleset is not None else list(registered_rulesets()):
        try:
            names += list(_bundled_files(r))
        except KassenError:
            continue
    text = S_("(bundled: {names})", names=", ".join(names) or "none")
    return text + (f"; {'; '.join(broken)}" if broken else "")


def _path_of(source: str | Path) -> Path | None:
    """``source`` as the path of an existing file, if it is one."""
    try:
        path = Path(source)
        return path if path.is_file() else None
    except (OSError, ValueError):
        return None


def read_scenario(
    source: str | Path, *, ruleset: str | None = None, text: str | None = None
) -> ScenarioSource:
    """Read a scenario: ``text`` if given (named ``source`` in errors); else the file at the path
    ``source`` if there is one (a file always wins over a bundled name; ``-`` reads standard input);
    else a bundled scenario called ``source`` (``demo`` or ``sengoku/demo``). ``ruleset``, when given,
    is what the caller expects: a file without a header is taken as that ruleset's, a file naming
    another is refused."""
    if not isinstance(source, str | Path):
        raise KassenError(S_("a scenario is a name or a path, not {name}", name=type(source).__name__))
    name = str(source)
    shown = name if len(name) <= 120 else name[:117] + "..."
    bundled = None
    if text is not None:
        file = shown
    elif name == "-":
        text = _stdin_text()
        file = name = "(standard input)"
    elif (path := _path_of(source)) is not None:
        text = read_text(path)
        file = str(path)
        name = path.stem
    else:
        broken: list[str] = []
        if isinstance(source, str) and not name.endswith((".yaml", ".yml")) and len(name) <= 200:
            bundled = _find_bundled(name, ruleset, broken)
        if bundled is None:
            if not name.strip():
                why = S_("an empty name: give a file or a bundled name")
                raise ContentError(ContentIssue("(scenario)", "(file)", why))
            try:
                is_dir = Path(source).is_dir()
                other = not is_dir and Path(source).exists()  # a device, a pipe, a socket
            except (OSError, ValueError):
                is_dir = other = False
            if other:
                raise ContentError(
                    ContentIssue(shown, "(file)", S_("not a regular file (a device or a pipe?)"))
                )
            if is_dir:
                why = S_("a directory, not a scenario file")
            elif name.endswith((".yaml", ".yml")):
                why = S_("no such file {known}", known=_known(ruleset, broken))
            else:
                why = S_(
                    "no such file, and no bundled scenario of that name {known}",
                    known=_known(ruleset, broken),
                )
            raise ContentError(ContentIssue(shown, "(file)", why))
        r, name, text = bundled
        package, folder = find_ruleset(r).info.scenarios
        file = f"{package.replace('.', '/')}/{folder}/{name}.yaml"
    data, node = parse_yaml(text, file)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ContentError(ContentIssue(file, "(root)", S_("a scenario is a mapping of fields"), 1))
    declared = data.get("ruleset")
    if declared is None:
        if ruleset is None:
            known = "|".join(registered_rulesets())
            message = S_("a scenario names its ruleset in its header: `ruleset: {known}`", known=known)
            raise ContentError(ContentIssue(file, "ruleset", message, 1))
        declared = ruleset
    elif not isinstance(declared, str) or declared not in registered_rulesets():
        known = ", ".join(registered_rulesets())
        message = S_("unknown ruleset {shown} (known: {known})", shown=repr(str(declared)[:40]), known=known)
        raise ContentError(ContentIssue(file, "ruleset", message, line_of(node, ("ruleset",))))
    elif ruleset is not None and declared != ruleset:
        message = S_("this is a {declared} scenario, not a {ruleset} one", declared=declared, ruleset=ruleset)
        raise ContentError(ContentIssue(file, "ruleset", message, line_of(node, ("ruleset",))))
    own = data.get("content")
    if own is not None and not isinstance(own, dict):
        message = S_("a scenario's content is a mapping of sections")
        raise ContentError(ContentIssue(file, "content", message, line_of(node, ("content",))))
    body = {k: v for k, v in data.items() if k not in HEADER}
    return ScenarioSource(name, file, declared, body, node, own, bundled is not None)


def _stdin_text() -> str:
    raw = sys.stdin.buffer.read(MAX_YAML_BYTES + 1)
    if len(raw) > MAX_YAML_BYTES:
        raise ContentError(
            ContentIssue(
                "(standard input)",
                "(file)",
                S_("larger than {max_yaml_bytes} bytes", max_yaml_bytes=MAX_YAML_BYTES),
            )
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(
            ContentIssue("(standard input)", "(file)", S_("not UTF-8 (byte {start})", start=exc.start))
        ) from None


def open_fight(
    scenario: str | Path | ScenarioSource,
    *,
    seed: int | None = None,
    content: Sequence[str | Path] | str | Path = (),
    policy: Policy[Any, Any] | None = None,
    ruleset: str | None = None,
    dice: Literal["auto", "table"] = "auto",
    policies: Mapping[str, Any] | None = None,
) -> Fight[Any, Any]:
    """A fight at the start of ``scenario`` (a bundled name, ``ruleset/name``, a path, or a read
    :class:`ScenarioSource`): its ruleset from the file's header, the ruleset's bundled content with
    each ``content`` layer and the scenario's own merged over it, ``seed`` (default: the seed the
    scenario states, a designer's run reproducible by name; else 64 random bits, :func:`fresh_seed`:
    give ``seed=fresh_seed()`` for a table, where a seed others may know would give every roll away),
    ``policy`` (default: the scenario's policies) for :meth:`~kassen.core.fight.Fight.step` and
    :meth:`~kassen.core.fight.Fight.autoplay`, ``dice``: ``auto`` (the seeded RNG) or ``table``
    (:meth:`~kassen.core.fight.Fight.play` asks for every die the players roll), and ``policies``: a
    named policy for each side it names (``{"party": "search:iterations=800"}``,
    :mod:`kassen.core.named`; the other sides and the GM keep the scenario's).

    >>> fight = open_fight("count-example", seed=1)
    >>> fight.autoplay()
    >>> fight.over
    True
    """
    from kassen.core.chronicle import layer_paths

    src = scenario if isinstance(scenario, ScenarioSource) else read_scenario(scenario, ruleset=ruleset)
    rs = find_ruleset(src.ruleset)
    layers = [read_layer(p, f"layer {i}") for i, p in enumerate(layer_paths(content), 1)]
    if src.content is not None:
        layers.append(inline_layer(src.content, src.file, src.node))
    built = rs.load_content(layers)
    setup = rs.setup(src, built)
    used = check_seed(seed) if seed is not None else setup.seed if setup.seed is not None else fresh_seed()
    meta = {"scenario": setup.title, "source": src.name}
    fight: Fight[Any, Any] = Fight(
        rs,
        built,
        setup.state,
        used,
        meta=meta,
        policy=policy or setup.policy(),
        max_actions=setup.max_actions,
        dice=dice,
    )
    if policies:
        fight.use_policies(policies)
    return fight
