"""The pieces a Sengoku battle's renderers are made of (:mod:`kassen.sengoku.battle.report` puts them
together in its table): names and words in the reader's language (a maneuver's, a weapon's, a battlefield
change's, an attack's outcome, the house layout's zones, SG.ZON.2), a check's roll as it is said
(``2d10 [faces] + modifier = total``), a line with its rule, and the renderer made from a template
(``{unit}``-like keys become names; a value another side may not see reads as the template says without
it).
"""

from __future__ import annotations

__all__ = ["ZONE_WORDS", "Data", "Render"]

from collections.abc import Callable, Mapping
from string import Formatter
from typing import Any

from kassen.core.report import Line, Narration
from kassen.i18n import N_, SOURCE, _, current_language, gettext, pgettext, translate_text
from kassen.sengoku.catalog import load_catalog

Data = Mapping[str, Any]
#: A renderer of one kind's data: typed by its TypedDict (kassen.sengoku.battle.events), or a template.
Render = Callable[[Narration, Any], Line | None]


def _t(value: Any) -> str:
    """A word kept in English in the data (an outcome, a cause, a table's effect, a zone) in the reader's
    language."""
    return translate_text(str(value))


def _name(text: str) -> str:
    """A name from the content (a maneuver's, a weapon's) in the reader's language: the catalog's word
    for exactly that name, else the name as it is."""
    return _lookup(text)


_lookup = gettext  # an exact look-up of a content word (the data catalogs), not a template to match


def _m(ctx: Narration, mid: Any) -> str:
    return _name(ctx.names.get(f"maneuver:{mid}", str(mid)))


def _weapon_word(wid: Any) -> str:
    """A weapon's id said as words (``short-sword`` → "short sword"); in another language, the catalog's
    name of the weapon, translated."""
    english = str(wid).replace("-", " ")
    if current_language() == SOURCE:
        return english
    found = load_catalog().weapons.get(str(wid))
    return _name(found.name) if found is not None else translate_text(english)


def _change_word(cid: Any) -> str:
    """A battlefield change by its id (``fire``); in another language, its catalog name, translated."""
    if current_language() == SOURCE:
        return str(cid)
    from kassen.sengoku.house import YomaEncounters

    found = next((c for c in load_catalog().default(YomaEncounters).changes if c.id == cid), None)
    return _name(found.name) if found is not None else translate_text(str(cid))


def _use(ctx: Narration, use: Data) -> str:
    text = _m(ctx, use["maneuver"])
    if use.get("weapon"):
        text = pgettext("sengoku", "{maneuver} ({weapon})").format(
            maneuver=text, weapon=_weapon_word(use["weapon"])
        )
    if use.get("release"):
        text = pgettext("sengoku", "release {maneuver}").format(maneuver=text)
    if use.get("target"):
        text += f" → {ctx.name(use['target'])}"
    if use.get("to"):
        text += f" → {_t(use['to'])}"
    if use.get("aim"):
        text = _("{maneuver} (Aim Focus +{aim})").format(maneuver=text, aim=use["aim"])
    if use.get("squads"):
        squads = ", ".join(ctx.name(s) for s in use["squads"])
        text = pgettext("sengoku", "{maneuver} with {squads}").format(maneuver=text, squads=squads)
    return text


def _roll(faces: Any, modifier: int, total: int) -> str:
    sign = "-" if modifier < 0 else "+"
    return f"2d10 {list(faces)} {sign} {abs(modifier)} = {total}"


def _line(ctx: Narration, text: str, indent: int = 0, *, heading: bool = False) -> Line:
    return Line(text, ctx.rule, indent=indent, heading=heading)


def _ok(success: Any) -> str:
    return _("success") if success else _("failure")


#: The outcome words an attack logs (``hit``, ``critical``...), as its line says them.
_OUTCOMES: dict[str, str] = {
    "critical": N_("Critical Hit"),
    "fumble": N_("Fumble"),
    "hit": N_("hit"),
    "success": N_("hit"),
    "miss": N_("miss"),
}
#: The zones of the house layout (SG.ZON.2), said by their ids in English.
ZONE_WORDS = (
    N_("own-rear"),
    N_("own-front"),
    N_("own-flank"),
    N_("core"),
    N_("enemy-front"),
    N_("enemy-flank"),
    N_("enemy-rear"),
)


def _outcome(value: Any, *, success: str = "success") -> str:
    """An attack's outcome word: in English as the log has always said it (``critical`` → "Critical
    Hit", ``fumble`` → "Fumble", ``success`` → ``success`` or "hit"), else in the reader's language."""
    word = str(value)
    if current_language() == SOURCE:
        english = word.replace("critical", "Critical Hit").replace("fumble", "Fumble")
        return english.replace("success", success) if success != "success" else english
    found = _OUTCOMES.get(word)
    return _(found) if found is not None else _t(word)


class _Said:
    """A renderer from a template: ``{unit}``-like keys become names, ``{maneuver}`` the maneuver's. A
    value another side may not see is null in its view: the ``hidden`` template says the event without
    it (else the value reads "(not seen)"). ``fields`` are the data keys the templates read (a test holds
    them to the kind's declared data). The templates are marked for the catalog and said in the reader's
    language; the data's own words (a cause, an effect, a zone) are translated as they are shown."""

    __slots__ = ("fields", "indent", "other", "shown", "text")

    def __init__(self, text: str, indent: int = 0, *, hidden: str = "") -> None:
        self.text = text
        self.indent = indent
        self.other = _Said(hidden, indent) if hidden else None
        self.shown = shown = frozenset(_fields(text))
        #: the data keys the templates read
        self.fields: frozenset[str] = shown | self.other.fields if self.other is not None else shown

    def __call__(self, ctx: Narration, d: Data) -> Line | None:
        if self.other is not None and any(d.get(k) is None for k in self.shown if k in d):
            return self.other(ctx, d)
        values: dict[str, Any] = {
            k: (_("(not seen)") if x is None else ctx.name(x) if k in _PEOPLE else _said_value(x))
            for k, x in d.items()
        }
        if d.get("maneuver") is not None:
            values["maneuver"] = _m(ctx, d["maneuver"])
        for key in ("maneuvers", "stances"):
            if isinstance(d.get(key), list):
                values[key] = ", ".join(_m(ctx, x) for x in d[key])
        if isinstance(d.get("ended"), list):
            values["ended"] = "; ".join(_t(x) for x in d["ended"])
        return _line(ctx, _(self.text).format_map(_Default(values)), self.indent)


def _said_value(value: Any) -> Any:
    return _t(value) if isinstance(value, str) else value


_said = _Said
#: Data keys a template shows as a unit's (or a side's) name.
_PEOPLE = ("unit", "attacker", "target", "pursuer", "with_unit", "behind", "faction")


def _fields(template: str) -> list[str]:
    return [name for _, name, _, _ in Formatter().parse(template) if name]


class _Default(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def _debuff_name(d: Data) -> str:
    return _t(d.get("name") or str(d["debuff"]).replace("-", " "))
