"""The arena's own short words as they appear inside text kept in the data (an explanation step's reason,
an event's ``reason``) and in accounts: the values of its enumerations and readings (postures, facings,
tiers, conditions, kinds of check, rounding, the house readings' names), marked for the catalog.

:func:`kassen.i18n.translate_text` translates a value inside a step's reason by looking the value itself
up in the catalog, so each value a template may carry is listed here once; :func:`word` gives any of them
(or a content name) in the reader's language. English text is never changed by them.
"""

from __future__ import annotations

__all__ = ["CHECK_LABELS", "EFFECTS", "MULTIPLIERS", "VALUES", "raw", "word"]

from kassen.i18n import N_, translate_text

#: Each kind of check's label in its explanation step (``knockdown check: 3d6 = ...``).
CHECK_LABELS = (
    N_("check"),
    N_("attack check"),
    N_("defense check"),
    N_("stun_recovery check"),
    N_("zero_hp check"),
    N_("death check"),
    N_("knockdown check"),
    N_("vital check"),
    N_("fall_stun check"),
    N_("knockback check"),
    N_("limb_knockback check"),
    N_("guts check"),
    N_("popularity check"),
    N_("grapple check"),
)

#: Values of the arena's enumerations and readings that text in the data carries.
VALUES = (
    # postures, facings, tiers (AR.GAP.2, AR.KNB.7)
    N_("standing"),
    N_("sitting"),
    N_("lying"),
    N_("aerial"),
    N_("face up"),
    N_("face down"),
    N_("upper"),
    N_("middle"),
    N_("lower"),
    # conditions
    N_("stunned"),
    N_("unconscious"),
    N_("dead"),
    N_("gave up"),
    N_("lost will"),
    N_("gave_up"),
    N_("lost_will"),
    N_("helpless"),
    # match formats
    N_("match"),
    N_("fight"),
    # rounding and the house readings named in steps
    N_("down"),
    N_("up"),
    N_("nearest"),
    N_("full"),
    N_("started"),
    N_("per_hit"),
    N_("cumulative"),
    N_("one_max"),
    N_("max_each_summed"),
    N_("first_hit"),
    N_("latest_hit"),
    N_("sign_aware"),
    N_("literal"),
    N_("magnitude"),
    N_("ever_won"),
    N_("holds_title"),
    N_("higher"),
    N_("choice"),
    # grounds (falling.yaml)
    N_("hard"),
    N_("sand"),
    N_("deep_straw"),
    # sides of a quick contest
    N_("first"),
    N_("second"),
    # attributes
    N_("Will"),
    N_("Per"),
    N_("HT"),
    N_("DX"),
    N_("ST"),
    N_("PER"),
    # sources of damage, kinds of penalty
    N_("falling"),
    N_("shock"),
    N_("pain"),
    # attack types by their abbreviations (damage.yaml); cr and pi read as they are in English
    N_("cr"),
    N_("cut"),
    N_("imp"),
    N_("pi-"),
    N_("pi"),
    N_("pi+"),
    N_("pi++"),
    N_("burn"),
)

#: The effects ``kassen arena damage`` lists (kassen.arena.injury.Effect) and the odds a forecast gives
#: (kassen.arena.bout.forecast: their keys stay English in JSON, the words are translated when shown).
EFFECTS = (
    N_("shock"),
    N_("pain"),
    N_("crippled"),
    N_("stun"),
    N_("knockdown_check"),
    N_("unconscious_check"),
    N_("unconscious"),
    N_("fall_stun_check"),
    N_("move_halved"),
    N_("ht_check_each_subturn"),
    N_("dead"),
    N_("death_check"),
    N_("knockback"),
    N_("hit"),
    N_("critical"),
    N_("defended"),
    N_("knock-down"),
    N_("KO"),
    N_("injury"),
    N_("held"),
    N_("overrides"),
)

#: An attack type's multiplier step (``crushing x1``), one per bundled type: a template needs 3 letters of
#: its own to be found again in a step's reason (kassen.i18n.translate_text).
MULTIPLIERS = (
    N_("crushing x{multiplier}"),
    N_("cutting x{multiplier}"),
    N_("impaling x{multiplier}"),
    N_("small piercing x{multiplier}"),
    N_("piercing x{multiplier}"),
    N_("large piercing x{multiplier}"),
    N_("huge piercing x{multiplier}"),
    N_("burning x{multiplier}"),
)


def raw(value: object) -> str:
    """A value of the arena's shown as it is in English (``gave_up``), and in words in another language
    (the catalog's translation of the value, or of the value with spaces for underscores)."""
    text = str(value)
    found = translate_text(text)
    if found != text:
        return found
    spaced = text.replace("_", " ")
    found = translate_text(spaced)
    return found if found != spaced else text


def word(value: object) -> str:
    """A value of the arena's (``face_down``, ``left_arm``, a content name) as words in the reader's
    language: underscores read as spaces, then the catalog's translation where it has one."""
    return translate_text(str(value).replace("_", " "))
