"""The bundled scenarios a client may name (``demo``, ``sengoku/demo``), read from the packages only:
the server never reads a file a client names."""

from __future__ import annotations

__all__ = ["POSTED", "Bundled", "Catalog", "bundled_source"]

import threading
from dataclasses import dataclass
from importlib import resources

from kassen.core.errors import KassenError
from kassen.core.ruleset import find_ruleset, registered_rulesets
from kassen.core.scenario import ScenarioSource, bundled_names, read_scenario
from kassen.i18n import S_
from kassen.web.problems import Problem

#: The name a posted scenario text goes by (in errors and in the chronicle's ``meta.source``).
POSTED = "posted"


@dataclass(frozen=True, slots=True)
class Bundled:
    """A bundled scenario, listed for the new-fight screen."""

    ruleset: str
    name: str
    title: str

    @property
    def ident(self) -> str:
        return f"{self.ruleset}/{self.name}"


def _bundled_text(ruleset: str, name: str) -> str:
    package, folder = find_ruleset(ruleset).info.scenarios
    return resources.files(package).joinpath(folder).joinpath(f"{name}.yaml").read_text(encoding="utf-8")


def bundled_source(ident: str) -> ScenarioSource:
    """A bundled scenario by ``ruleset/name``, read from the package (never from a path on disk)."""
    ruleset, _, name = ident.partition("/")
    return read_scenario(name, text=_bundled_text(ruleset, name), ruleset=ruleset)


class Catalog:
    """The bundled scenarios of every registered ruleset (read once)."""

    def __init__(self) -> None:
        self._items: tuple[Bundled, ...] | None = None
        self._sides: dict[str, tuple[str, ...]] = {}
        self._lock = threading.Lock()

    def sides(self, ident: str) -> tuple[str, ...]:
        """The sides of a bundled scenario, in the order its units come (read once; none when it does
        not open)."""
        with self._lock:
            found = self._sides.get(ident)
        if found is not None:
            return found
        try:
            from kassen.core.scenario import open_fight

            found = open_fight(bundled_source(ident)).sides()
        except KassenError:
            found = ()
        with self._lock:
            self._sides[ident] = found
        return found

    def items(self) -> tuple[Bundled, ...]:
        with self._lock:
            if self._items is None:
                out = []
                for ruleset in registered_rulesets():
                    try:
                        names = bundled_names(ruleset)
                    except KassenError:
                        continue
                    for name in names:
                        title = bundled_source(f"{ruleset}/{name}").data.get("name")
                        out.append(Bundled(ruleset, name, title if isinstance(title, str) else name))
                self._items = tuple(out)
            return self._items

    def find(self, text: str) -> str | None:
        """``ruleset/name`` of the bundled scenario ``text`` names (``demo`` or ``sengoku/demo``)."""
        wanted = text.strip()
        exact = [b for b in self.items() if b.ident == wanted]
        if exact:
            return exact[0].ident
        bare = [b for b in self.items() if b.name == wanted]
        if len(bare) > 1:
            which = ", ".join(b.ident for b in bare)
            raise Problem(
                422,
                "content",
                S_(
                    "{name} is bundled by more than one ruleset: say which ({which})",
                    name=repr(wanted),
                    which=which,
                ),
            )
        return bare[0].ident if bare else None
