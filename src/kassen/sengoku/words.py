"""The Sengoku words a step names by a key from the data: attributes and the bundled skills.

A check's modifier step reads "Physique +2" or "Swordsmanship +1" (SG.CHK.1). The English is the key
capitalized, as it always was; each known key has its own template here so the catalog can say the
step in another language (:func:`kassen.i18n.translate_text` needs a template with words of its own).
A skill only a user's content names keeps the plain ``"{name} {value}"`` form, shown as it is.
"""

from __future__ import annotations

__all__ = ["DATA_WORDS", "content_word", "modifier_reason"]

from kassen.i18n import N_, S_, gettext

#: "<Key> {value}" for each attribute (SG.CHK.1) and each skill of the bundled catalog.
_STEPS: dict[str, str] = {
    "physique": N_("Physique {value}"),
    "finesse": N_("Finesse {value}"),
    "courage": N_("Courage {value}"),
    "presence": N_("Presence {value}"),
    "fate": N_("Fate {value}"),
    "archery": N_("Archery {value}"),
    "brawling": N_("Brawling {value}"),
    "chain-weapons": N_("Chain-weapons {value}"),
    "curses": N_("Curses {value}"),
    "exorcism": N_("Exorcism {value}"),
    "gunnery": N_("Gunnery {value}"),
    "heavy-weapons": N_("Heavy-weapons {value}"),
    "infiltration": N_("Infiltration {value}"),
    "ninjutsu": N_("Ninjutsu {value}"),
    "onmyodo": N_("Onmyodo {value}"),
    "performance": N_("Performance {value}"),
    "spear": N_("Spear {value}"),
    "spirit": N_("Spirit {value}"),
    "swordsmanship": N_("Swordsmanship {value}"),
    "throwing": N_("Throwing {value}"),
}


def modifier_reason(key: str, value: int) -> str:
    """``"Physique +2"``: an attribute's or a skill's part of a check's modifier, in English (kept in the
    step), from a template the catalog knows where the key is a bundled one."""
    template = _STEPS.get(key)
    if template is not None:
        return S_(template, value=f"{value:+d}")
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


_lookup = gettext  # an exact look-up in the catalogs, never a template match


def content_word(name: str) -> str:
    """A name from the content (a maneuver's, a weapon's, a battlefield change's) in the reader's
    language: the data catalog's word for exactly that name, else the name as it is (a name of one's
    own content that happens to start like a catalog template is left whole)."""
    return _lookup(name)
