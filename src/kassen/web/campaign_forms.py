"""The character builder's fields, for each ruleset: what the form shows, where each field goes in the
sheet (the ruleset's scenario entry), and each loader error put back beside the field it names.

A sheet is checked by nothing here: the form's values become a sheet, and the sheet is checked by the
scenario loader's own validators (:func:`kassen.campaign.build.check_sheet`), whose messages are shown
as they are. The form only reads what it cannot hand over as typed (``kenjutsu=3`` pairs, lists), and
says so in its own words when that fails. Choices come from the ruleset's bundled catalog (creatures,
grades, weapons, armor and techniques of Sengoku; the roll-and-keep weapons, armor and skills; the
arena's damage types).
"""

from __future__ import annotations

__all__ = ["FormField", "field_errors", "form_fields", "sheet_from", "values_from"]

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from kassen.campaign.build import _bundled_content
from kassen.core.errors import ContentIssue
from kassen.i18n import N_, S_

Kind = Literal["int", "text", "select", "list", "pairs", "ints"]
#: The most characters a form field takes (a sheet is one fighter).
MAX_VALUE = 2000
_PAIR = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_-]*)\s*[=:]\s*(-?\d{1,4})\s*$")
_INT = re.compile(r"^-?\d{1,9}$")
_UNKNOWN = re.compile(r"^unknown (\w+?)s? ")


@dataclass(frozen=True, slots=True)
class FormField:
    """One field of the builder: its form name, label, where it goes in the sheet, how it is read, the
    catalog's choices (a select's first choice, ``""``, leaves the field out), a hint."""

    name: str
    label: str
    path: tuple[str, ...]
    kind: Kind
    choices: tuple[str, ...] = ()
    hint: str = ""
    group: str = ""

    @property
    def dotted(self) -> str:
        return ".".join(self.path)


def _sengoku() -> tuple[FormField, ...]:
    cat: Any = _bundled_content("sengoku").tables.catalog
    creatures = tuple(sorted(cat.creatures))
    grades = ("", *sorted(str(g) for g in _grade_names(cat)))
    weapons = ", ".join(sorted(cat.weapons)[:12])
    out = [
        FormField(
            "creature",
            N_("Creature"),
            ("creature",),
            "select",
            creatures,
            N_("the catalog's template"),
            "who",
        ),
        FormField(
            "grade", N_("Grade"), ("overrides", "grade"), "select", grades, N_("blank: the creature's"), "who"
        ),
    ]
    for attr in ("physique", "finesse", "courage", "presence", "fate"):
        out.append(
            FormField(
                attr,
                attr.capitalize(),
                ("overrides", "attributes", attr),
                "int",
                hint=N_("blank: the creature's"),
                group="attributes",
            )
        )
    out += [
        FormField(
            "skills",
            N_("Skills"),
            ("overrides", "skills"),
            "pairs",
            hint=N_("swordsmanship=2, archery=1 (added to the creature's)"),
            group="skills",
        ),
        FormField(
            "weapons",
            N_("Weapons"),
            ("overrides", "weapons"),
            "list",
            hint=S_("the first in hand; the catalog's: {weapons}...", weapons=weapons),
            group="gear",
        ),
        FormField(
            "armor",
            N_("Armour"),
            ("overrides", "armor"),
            "select",
            ("", *sorted(cat.armor)),
            N_("blank: the creature's"),
            "gear",
        ),
        FormField(
            "maneuvers",
            N_("Techniques"),
            ("overrides", "maneuvers"),
            "list",
            hint=N_("known beyond its weapons' (parry, walk...)"),
            group="gear",
        ),
        FormField(
            "fate_points",
            N_("Fate points"),
            ("overrides", "fate_points"),
            "int",
            hint=N_("0 to 20"),
            group="lasting",
        ),
        FormField(
            "max_energy",
            N_("Max Energy"),
            ("overrides", "max_energy"),
            "int",
            hint=N_("blank: the grade's"),
            group="lasting",
        ),
    ]
    return tuple(out)


def _grade_names(cat: Any) -> list[str]:
    return [str(g) for g in cat.grades.grades] if hasattr(cat.grades, "grades") else []


def _l5r() -> tuple[FormField, ...]:
    tables: Any = _bundled_content("l5r").tables
    core = tables.core
    out = [
        FormField(ring, ring.capitalize(), ("rings", ring), "int", hint=N_("1 to 10"), group="rings")
        for ring in core.rings
    ]
    skills = ", ".join(core.skills.known[:8])
    out += [
        FormField("void", N_("Void"), ("void",), "int", hint=N_("default 2"), group="rings"),
        FormField(
            "insight_rank", N_("Insight Rank"), ("insight_rank",), "int", hint=N_("default 1"), group="rings"
        ),
        FormField(
            "skills",
            N_("Skills"),
            ("skills",),
            "pairs",
            hint=S_("kenjutsu=3 ({skills}...)", skills=skills),
            group="skills",
        ),
        FormField(
            "weapon",
            N_("Weapon"),
            ("weapon",),
            "select",
            ("", *sorted(core.weapons)),
            N_("blank: katana"),
            "gear",
        ),
        FormField(
            "armor",
            N_("Armour"),
            ("armor",),
            "select",
            ("", *core.tn_to_be_hit.armor),
            N_("blank: none"),
            "gear",
        ),
        FormField(
            "disadvantages",
            N_("Disadvantages"),
            ("disadvantages",),
            "list",
            hint=N_("Lame, Missing Limb..."),
            group="gear",
        ),
    ]
    return tuple(out)


def _arena() -> tuple[FormField, ...]:
    from kassen.arena.terms import DamageType

    out = [
        FormField(a, a.upper(), (a,), "int", hint=N_("default 10"), group="attributes")
        for a in ("st", "dx", "iq", "ht", "per", "will")
    ]
    out += [
        FormField("skill", N_("Weapon skill"), ("skill",), "int", hint=N_("blank: DX"), group="skills"),
        FormField(
            "defense", N_("Defence"), ("defense",), "int", hint=N_("blank: (DX+HT)/4+3"), group="skills"
        ),
        FormField(
            "weapon_name",
            N_("Weapon"),
            ("weapon", "name"),
            "text",
            hint=N_("a name (default fist)"),
            group="gear",
        ),
        FormField(
            "weapon_base",
            N_("Damage base"),
            ("weapon", "base"),
            "select",
            ("", "thrust", "swing", "none"),
            group="gear",
        ),
        FormField(
            "weapon_dice", N_("Damage dice"), ("weapon", "dice"), "int", hint=N_("+dice"), group="gear"
        ),
        FormField(
            "weapon_adds", N_("Damage adds"), ("weapon", "adds"), "int", hint=N_("+adds"), group="gear"
        ),
        FormField(
            "weapon_type",
            N_("Damage type"),
            ("weapon", "type"),
            "select",
            ("", *(t.value for t in DamageType)),
            group="gear",
        ),
        FormField(
            "armor_all", N_("Armour DR"), ("armor", "all"), "int", hint=N_("DR everywhere"), group="gear"
        ),
        FormField(
            "age", N_("Age"), ("age",), "int", hint=N_("years (popularity: 19 or under)"), group="lasting"
        ),
        FormField(
            "matches",
            N_("Matches fought"),
            ("matches",),
            "int",
            hint=N_("before the campaign"),
            group="lasting",
        ),
        FormField(
            "reactions", N_("Reaction modifiers"), ("reactions",), "ints", hint=N_("-2, 1"), group="lasting"
        ),
    ]
    return tuple(out)


#: The words of the labels made from the rulesets' own names (``physique`` -> Physique, ``earth`` -> Earth).
LABEL_WORDS = (
    N_("Physique"),
    N_("Finesse"),
    N_("Courage"),
    N_("Presence"),
    N_("Fate"),
    N_("Earth"),
    N_("Air"),
    N_("Fire"),
    N_("Water"),
    N_("PER"),
    N_("WILL"),
)
#: The builder's groups of fields, in words.
GROUP_WORDS = {
    "who": N_("Who"),
    "attributes": N_("Attributes"),
    "skills": N_("Skills"),
    "gear": N_("Gear"),
    "lasting": N_("Lasting"),
    "rings": N_("Rings"),
}

_BUILDERS = {"sengoku": _sengoku, "l5r": _l5r, "arena": _arena}


@cache
def form_fields(ruleset: str) -> tuple[FormField, ...]:
    """The builder's fields for ``ruleset`` (none for a ruleset without a form: its sheet as YAML)."""
    build = _BUILDERS.get(ruleset)
    return build() if build is not None else ()


def _put(target: dict[str, Any], path: Sequence[str], value: Any) -> None:
    for key in path[:-1]:
        target = target.setdefault(key, {})
    target[path[-1]] = value


def _get(source: Mapping[str, Any], path: Sequence[str]) -> Any:
    value: Any = source
    for key in path:
        if not isinstance(value, Mapping) or key not in value:
            return None
        value = value[key]
    return value


def sheet_from(
    ruleset: str, values: Mapping[str, str], base: Mapping[str, Any] | None = None
) -> tuple[dict[str, Any], dict[str, str]]:
    """The sheet the form's ``values`` give (over ``base``: what the form does not show stays), and
    the fields the form could not read (name → words)."""
    sheet: dict[str, Any] = _without(dict(base or {}), form_fields(ruleset))
    problems: dict[str, str] = {}
    for f in form_fields(ruleset):
        raw = values.get(f.name, "")
        if not isinstance(raw, str):
            problems[f.name] = S_("a text value")
            continue
        raw = raw.strip()
        if len(raw) > MAX_VALUE:
            problems[f.name] = S_("at most {n} characters", n=MAX_VALUE)
            continue
        if raw == "":
            continue
        if f.kind == "int":
            # kept as typed when it is no whole number: the loader's validator says what is wrong
            _put(sheet, f.path, int(raw) if _INT.match(raw) else raw)
        elif f.kind in ("text", "select"):
            _put(sheet, f.path, raw)
        elif f.kind == "list":
            _put(sheet, f.path, [p.strip() for p in raw.split(",") if p.strip()])
        elif f.kind == "ints":
            parts = [p.strip() for p in raw.split(",") if p.strip()]
            if not all(_INT.match(p) for p in parts):
                problems[f.name] = S_("whole numbers separated by commas (-2, 1)")
                continue
            _put(sheet, f.path, [int(p) for p in parts])
        else:
            pairs: dict[str, int] = {}
            for part in (p for p in raw.split(",") if p.strip()):
                match = _PAIR.match(part)
                if match is None:
                    problems[f.name] = S_(
                        "write each as name=rank (kenjutsu=3), not {given}", given=repr(part.strip()[:30])
                    )
                    break
                pairs[match[1]] = int(match[2])
            else:
                _put(sheet, f.path, pairs)
    return sheet, problems


def _without(sheet: dict[str, Any], fields: Sequence[FormField]) -> dict[str, Any]:
    """``sheet`` with every field the form shows taken out (the form's values replace them)."""
    out: dict[str, Any] = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in sheet.items()}
    for f in fields:
        target: Any = out
        for key in f.path[:-1]:
            inner = target.get(key) if isinstance(target, dict) else None
            if not isinstance(inner, Mapping):
                target = None
                break
            target[key] = dict(inner)
            target = target[key]
        if isinstance(target, dict):
            target.pop(f.path[-1], None)
    for key in [k for k, v in out.items() if v == {}]:
        del out[key]
    return out


def values_from(ruleset: str, sheet: Mapping[str, Any]) -> dict[str, str]:
    """The form's values for a sheet (what the form does not show is kept by :func:`sheet_from`)."""
    out: dict[str, str] = {}
    for f in form_fields(ruleset):
        value = _get(sheet, f.path)
        if value is None:
            out[f.name] = ""
        elif f.kind == "pairs" and isinstance(value, Mapping):
            out[f.name] = ", ".join(f"{k}={v}" for k, v in value.items())
        elif f.kind in ("list", "ints") and isinstance(value, list | tuple):
            out[f.name] = ", ".join(str(v) for v in value)
        else:
            out[f.name] = str(value)
    return out


def field_errors(ruleset: str, issues: Sequence[ContentIssue]) -> tuple[dict[str, str], list[ContentIssue]]:
    """Each loader issue beside the field it names (the field whose sheet path is the longest prefix of
    the issue's), and those no field of the form shows."""
    fields = sorted(form_fields(ruleset), key=lambda f: -len(f.path))
    beside: dict[str, str] = {}
    rest: list[ContentIssue] = []
    for issue in issues:
        where = issue.field.split(".")
        found = next((f for f in fields if where[: len(f.path)] == list(f.path)), None)
        unknown = _UNKNOWN.match(issue.message)
        if unknown is not None and found is None:
            # "unknown weapon 'katana'" said of the whole entry: beside the field that names it
            found = next((f for f in fields if f.name.startswith(unknown[1])), found)
        if found is None:
            rest.append(issue)
        else:
            beside[found.name] = "; ".join(x for x in (beside.get(found.name), issue.message) if x)
    return beside, rest
