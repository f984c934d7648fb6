"""The Sengoku words a step names by a key from the data: attributes and the bundled skills.

A check's modifier step reads "Physique +2" or "Swordsmanship +1" (SG.CHK.1). The English is the key
capitalized, as it always was; each known key has its own template here so the catalog can say the
step in another language (:func:`kassen.i18n.translate_text` needs a template with words of its own).
A skill only a user's content names keeps the plain ``"{name} {value}"`` form, shown as it is.
"""

from __future__ import annotations

__all__ = ["DATA_WORDS", "NAMES", "bonus_reason", "content_word", "modifier_reason"]

from kassen.i18n import N_, S_, gettext

#: "<Key> +{value}" and "<Key> -{value}" for each attribute (SG.CHK.1) and each skill of the bundled
#: catalog: the sign is part of the template, so a name that starts with the same word ("Spear Sweep")
#: is never taken for a modifier.
_STEPS: dict[str, tuple[str, str]] = {
    "physique": (N_("Physique +{value}"), N_("Physique -{value}")),
    "finesse": (N_("Finesse +{value}"), N_("Finesse -{value}")),
    "courage": (N_("Courage +{value}"), N_("Courage -{value}")),
    "presence": (N_("Presence +{value}"), N_("Presence -{value}")),
    "fate": (N_("Fate +{value}"), N_("Fate -{value}")),
    "archery": (N_("Archery +{value}"), N_("Archery -{value}")),
    "brawling": (N_("Brawling +{value}"), N_("Brawling -{value}")),
    "chain-weapons": (N_("Chain-weapons +{value}"), N_("Chain-weapons -{value}")),
    "curses": (N_("Curses +{value}"), N_("Curses -{value}")),
    "exorcism": (N_("Exorcism +{value}"), N_("Exorcism -{value}")),
    "gunnery": (N_("Gunnery +{value}"), N_("Gunnery -{value}")),
    "heavy-weapons": (N_("Heavy-weapons +{value}"), N_("Heavy-weapons -{value}")),
    "infiltration": (N_("Infiltration +{value}"), N_("Infiltration -{value}")),
    "ninjutsu": (N_("Ninjutsu +{value}"), N_("Ninjutsu -{value}")),
    "onmyodo": (N_("Onmyodo +{value}"), N_("Onmyodo -{value}")),
    "performance": (N_("Performance +{value}"), N_("Performance -{value}")),
    "spear": (N_("Spear +{value}"), N_("Spear -{value}")),
    "spirit": (N_("Spirit +{value}"), N_("Spirit -{value}")),
    "swordsmanship": (N_("Swordsmanship +{value}"), N_("Swordsmanship -{value}")),
    "throwing": (N_("Throwing +{value}"), N_("Throwing -{value}")),
}


#: The same attributes and skills named alone (a step may name one as the condition of a bonus:
#: "own flank: Infiltration +2" reads as "{name}: {when} +{bonus}" too).
NAMES = (
    N_("Physique"),
    N_("Finesse"),
    N_("Courage"),
    N_("Presence"),
    N_("Fate"),
    N_("Archery"),
    N_("Brawling"),
    N_("Chain-weapons"),
    N_("Curses"),
    N_("Exorcism"),
    N_("Gunnery"),
    N_("Heavy-weapons"),
    N_("Infiltration"),
    N_("Ninjutsu"),
    N_("Onmyodo"),
    N_("Performance"),
    N_("Spear"),
    N_("Spirit"),
    N_("Swordsmanship"),
    N_("Throwing"),
)


def modifier_reason(key: str, value: int) -> str:
    """``"Physique +2"``: an attribute's or a skill's part of a check's modifier, in English (kept in the
    step), from a template the catalog knows where the key is a bundled one."""
    templates = _STEPS.get(key)
    if templates is not None:
        return S_(templates[0] if value >= 0 else templates[1], value=abs(value))
    return S_("{name} {value}", name=key.capitalize(), value=f"{value:+d}")


#: Words the battle keeps in its log by their data names (ambush conditions, honor classes and their
#: follow-ups, pursuit readings, Lord-fall scopes, bonus kinds, grades, equipment grades, readings...):
#: marked here so the catalog says them in another language when an account shows them.
DATA_WORDS: tuple[str, ...] = (
    # ambush conditions (SG.AMB.1-3)
    N_("infiltrating"),
    N_("unseen-from-the-flank"),
    # honor classes and follow-ups (SG.RET.4)
    N_("honor"),
    N_("conditional-honor"),
    N_("external-discipline"),
    N_("non-honor"),
    N_("check"),
    N_("penalty"),
    N_("none"),
    # pursuit (SG.RET.3, SG.RD.9)
    N_("adjacent"),
    N_("same-and-adjacent"),
    N_("retreater"),
    N_("pursuer"),
    N_("first"),
    N_("second"),
    # a Lord's fall (SG.INP.2)
    N_("faction"),
    N_("one_squad"),
    N_("its faction"),
    # non-armor bonus kinds (SG.DEF.4)
    N_("stance"),
    N_("barrier"),
    N_("terrain"),
    N_("spell"),
    N_("evasion"),
    # grades (SG.DEF.1) and equipment grades (SG.BRK.3)
    N_("Mob"),
    N_("Minion"),
    N_("Veteran"),
    N_("Elite"),
    N_("Lord"),
    N_("supply"),
    N_("ordinary"),
    N_("masterwork"),
    N_("divine"),
    # Exorcism ranks (SG.INC.2), as a step names them
    N_("Novice"),
    N_("Licensed"),
    N_("Master"),
    N_("Saint"),
    # tags, checks, readings, limits
    N_("all"),
    N_("attack"),
    N_("death"),
    N_("cohesion"),
    N_("pursuit"),
    N_("other"),
    N_("plus_one"),
    N_("double"),
    N_("flat"),
    N_("breath"),
    N_("round"),
    N_("combat"),
    N_("fumble"),
    N_("serious injury"),
    N_("emergency"),
    N_("full"),
    # zone kinds (SG.ZON.2)
    N_("front"),
    N_("rear"),
    N_("flank"),
    N_("high ground"),
    # what an upkeep restores (SG.LUL.2)
    N_("wounds"),
)


#: A non-armor Defense bonus as a step says it (SG.DEF.4): "+2 stance (Immovable Formation)" where it is
#: added, "stance +2 (...)" where it is named; one template per kind (a bare "+{value} {kind}" has too few
#: words of its own for the catalog to find it).
_BONUS: dict[str, tuple[str, str, str, str]] = {
    "stance": (
        N_("+{value} stance ({source})"),
        N_("+{value} stance"),
        N_("stance +{value} ({source})"),
        N_("stance +{value}"),
    ),
    "barrier": (
        N_("+{value} barrier ({source})"),
        N_("+{value} barrier"),
        N_("barrier +{value} ({source})"),
        N_("barrier +{value}"),
    ),
    "terrain": (
        N_("+{value} terrain ({source})"),
        N_("+{value} terrain"),
        N_("terrain +{value} ({source})"),
        N_("terrain +{value}"),
    ),
    "spell": (
        N_("+{value} spell ({source})"),
        N_("+{value} spell"),
        N_("spell +{value} ({source})"),
        N_("spell +{value}"),
    ),
    "evasion": (
        N_("+{value} evasion ({source})"),
        N_("+{value} evasion"),
        N_("evasion +{value} ({source})"),
        N_("evasion +{value}"),
    ),
}


def bonus_reason(kind: str, value: int, source: str, *, added: bool) -> str:
    """``+2 stance (Immovable Formation)`` (``added``) or ``stance +2 (Immovable Formation)``, in English
    (kept in the step), from a template the catalog knows."""
    templates = _BONUS.get(kind)
    if templates is None:
        shown = f"+{value} {kind}" if added else f"{kind} +{value}"
        return f"{shown} ({source})" if source else shown
    with_source, bare = (templates[0], templates[1]) if added else (templates[2], templates[3])
    return S_(with_source, value=value, source=source) if source else S_(bare, value=value)


_lookup = gettext  # an exact look-up in the catalogs, never a template match


def content_word(name: str) -> str:
    """A name from the content (a maneuver's, a weapon's, a battlefield change's) in the reader's
    language: the data catalog's word for exactly that name, else the name as it is (a name of one's
    own content that happens to start like a catalog template is left whole)."""
    return _lookup(name)
