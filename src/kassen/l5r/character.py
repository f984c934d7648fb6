"""A character as the roll-and-keep rules read it: Traits and Rings, Insight Rank, skills, weapon, armor.

Static: a duel keeps the character unchanged and tracks Wounds and injuries in
:class:`~kassen.l5r.state.Fighter`. Rings are derived (the lower of their two Traits; L5.CORE.6 reads
Earth); table numbers (armor, TN to be hit) come from :class:`~kassen.l5r.tables.L5Tables`.
"""

from __future__ import annotations

__all__ = ["Character", "FighterId", "Weapon", "earth", "ring", "tn_to_be_hit_base"]

import dataclasses
from dataclasses import dataclass, field
from typing import NewType

from kassen.core.errors import KassenError
from kassen.core.explain import Step
from kassen.i18n import S_
from kassen.l5r.tables import L5Tables, RingName, StatName

#: A fighter's id in a duel: its character's (unique) name.
FighterId = NewType("FighterId", str)


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon: damage ``rolled``k``kept`` (L5.CORE.5), the skill that wields it, and the feet it
    reaches (``None``: the tables' ``core.movement.reach``)."""

    name: str
    rolled: int
    kept: int
    skill: str
    reach: int | None = None

    @property
    def damage(self) -> str:
        return f"{self.rolled}k{self.kept}"


@dataclass(frozen=True, slots=True)
class Character:
    """The weapon (its damage comes from the tables or the scenario: L5.CORE.5), Traits (each 1+),
    Void, Insight Rank, skills ``(name, rank)`` and armor.

    ``tn_to_be_hit`` replaces the table's formula for this character when set (L5.CORE.2);
    ``hazard_behind`` marks dangerous ground behind, which lets the character refuse a Drive (L5.DRV.1).
    """

    name: FighterId
    weapon: Weapon
    side: str = ""
    stamina: int = 2
    willpower: int = 2
    strength: int = 2
    perception: int = 2
    agility: int = 2
    intelligence: int = 2
    reflexes: int = 2
    awareness: int = 2
    void: int = 2
    insight_rank: int = 1
    skills: tuple[tuple[str, int], ...] = ()
    armor: str = "none"
    tn_to_be_hit: int | None = None
    hazard_behind: bool = False
    # The hash, worked out once: the character keys the content's memos of its pools and TNs (by value,
    # a score of lookups a decision), and never changes in a duel (0: not yet; never pickled, as a
    # string's hash differs between processes).
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        h = self._hash
        if not h:
            h = hash(self._values()) or 1
            object.__setattr__(self, "_hash", h)
        return h

    def __reduce__(self) -> tuple[type[Character], tuple[object, ...]]:
        return (Character, self._values())

    def _values(self) -> tuple[object, ...]:
        """Every field the character is made of, in order (what equality compares)."""
        return tuple(getattr(self, f.name) for f in dataclasses.fields(self) if f.init)

    def stat(self, name: StatName) -> int:
        """A Trait, the Void Ring or the Insight Rank by its name."""
        value: int = getattr(self, name)
        return value

    def skill(self, name: str) -> int:
        """The skill's rank; 0 when the character lacks it (unskilled)."""
        return dict(self.skills).get(name, 0)

    @property
    def weapon_skill(self) -> int:
        return self.skill(self.weapon.skill)


def ring(character: Character, name: RingName, tables: L5Tables) -> int:
    """A Ring is the lower of its two Traits."""
    a, b = tables.core.rings[name]
    return min(character.stat(a), character.stat(b))


def earth(character: Character, tables: L5Tables) -> int:
    """The Earth Ring: sizes the wound ranks (L5.CORE.6) and the maim thresholds (L5.CS.3)."""
    return ring(character, "earth", tables)


def tn_to_be_hit_base(character: Character, tables: L5Tables) -> tuple[int, tuple[Step, ...]]:
    """TN to be hit before this turn's modifiers: Reflexes x 5 + armor (L5.CORE.2 house default),
    or the character's own value."""
    if character.tn_to_be_hit is not None:
        return character.tn_to_be_hit, (
            Step(character.tn_to_be_hit, S_("{name}'s own TN to be hit", name=character.name), "L5.CORE.2"),
        )
    t = tables.core.tn_to_be_hit
    if character.armor not in t.armor:
        known = ", ".join(sorted(t.armor))
        raise KassenError(
            S_("unknown armor {armor} (known: {known})", armor=repr(character.armor), known=known)
        )
    armor = t.armor[character.armor]
    value = t.base + character.reflexes * t.reflexes_multiplier + armor
    steps = [
        Step(
            character.reflexes * t.reflexes_multiplier,
            S_("Reflexes {n} x {multiple}", n=character.reflexes, multiple=t.reflexes_multiplier),
            "L5.CORE.2",
        )
    ]
    if t.base:
        steps.append(Step(t.base, S_("base TN to be hit"), "L5.CORE.2"))
    if armor:
        steps.append(Step(armor, S_("{armor} armor", armor=character.armor), "L5.CORE.2"))
    steps.append(Step(value, S_("{name}'s TN to be hit", name=character.name), "L5.CORE.2"))
    return value, tuple(steps)
