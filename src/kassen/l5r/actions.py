"""Typed actions of a roll-and-keep duel: what a player (or a policy) decides.

Every decision is one of these frozen objects; :data:`~kassen.l5r.ruleset.RULESET` validates it and
resolves it, and the core drains what follows automatically until the next decision is needed. They are
written as JSON by the core's codec (:mod:`kassen.core.codec`), each with its ``kind``: the snake-case
class name (``declare``, ``choose_injury``...; a declaration is an ``attack`` or an ``act``).

- :class:`Begin` starts the duel (rolls the first initiative).
- :class:`Declare` is one character's declaration for the turn (L5.CORE.7, L5.CORE.8): an
  :class:`Attack` (with its raises: for damage, a called shot, a special attack; Normal or Full Attack)
  or an :class:`Act` (Full Defense, regaining grip, clearing the eyes, struggling in a Corps-a-Corps...).
- :class:`ChooseInjury`, :class:`ChooseCorps`, :class:`ChooseDrive` and :class:`ThroatStrike` answer a
  choice the rules hand to a character in the middle of a resolution.
"""

from __future__ import annotations

__all__ = [
    "Act",
    "ActKind",
    "Action",
    "Attack",
    "Begin",
    "ChooseCorps",
    "ChooseDrive",
    "ChooseInjury",
    "Declaration",
    "Declare",
    "ThroatStrike",
]

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, TypeAlias

from kassen.i18n import N_, S_
from kassen.l5r.character import FighterId
from kassen.l5r.tables import Location, SpecialAttackName


class ActKind(StrEnum):
    """Declarations other than an attack (and ``attack`` itself, for Point-to-throat triggers)."""

    ATTACK = "attack"
    FULL_DEFENSE = "full_defense"  # L5.CORE.7
    WAIT = "wait"
    YIELD = "yield"  # give up the duel (a point at the throat: "a good time to talk", L5.PTT.1)
    REGAIN_GRIP = "regain_grip"  # L5.ARM.1 loose grip
    REGAIN_FOOTING = "regain_footing"  # prone: L5.FOT.1 fall, L5.GAP.1
    CLEAR_VISION = "clear_vision"  # L5.HED.1 blood in eyes (a full turn)
    FREE_WEAPON = "free_weapon"  # L5.BND.1
    REMOVE_WEAPON = "remove_weapon"  # L5.FOT.1 pinned
    RECOVER_WEAPON = "recover_weapon"  # L5.DSM.1, L5.HND.1 no grip
    MEDICAL_AID = "medical_aid"  # L5.CS.4, L5.GAP.1
    HOLD_POINT = "hold_point"  # L5.PTT.1
    RELEASE_BIND = "release_bind"  # L5.BND.1
    STRUGGLE = "struggle"  # L5.CAC.1, locked
    DISENGAGE = "disengage"  # L5.CAC.1, locked
    CLOSE = "close"  # the whole action spent moving toward an opponent (L5.GAP.1 position model)
    RETREAT = "retreat"  # ... away from the nearest opponent (L5.GAP.1 position model)


@dataclass(frozen=True, slots=True)
class Attack:
    """An attack on ``target`` with its declared raises (L5.CORE.3): ``damage_raises`` (+1k0 each,
    L5.DMG.1), a ``called_shot`` location (L5.CS.1), a ``special`` attack (L5.SPC.1), as a Full Attack
    or not (L5.CORE.7). A Foul names the opponent it ``obstructs`` (L5.FOL.1)."""

    target: FighterId
    damage_raises: int = 0
    called_shot: Location | None = None
    special: SpecialAttackName | None = None
    full_attack: bool = False
    obstructs: FighterId | None = None

    @property
    def do(self) -> ActKind:
        """What the declaration does: attack (as :attr:`Act.do` for the other declarations)."""
        return ActKind.ATTACK

    def describe(self) -> str:
        """The declaration in words (English, kept in the chronicle; :func:`kassen.i18n.translate_text`
        gives it in the reader's language): one template per count of details, each detail a phrase."""
        parts: list[str] = []
        if self.damage_raises:
            parts.append(S_("{n} raise(s) for damage", n=self.damage_raises))
        if self.called_shot is not None:
            parts.append(S_("called shot to the {location}", location=self.called_shot.value))
        if self.special is not None:
            parts.append(self.special.value.replace("_", "-"))
        if self.obstructs is not None:
            parts.append(S_("obstructing {other}", other=self.obstructs))
        forms = _FULL_ATTACK_FORMS if self.full_attack else _ATTACK_FORMS
        return S_(forms[len(parts)], target=self.target, **{f"d{i + 1}": p for i, p in enumerate(parts)})


#: An attack's words by its count of details (raises for damage, a called shot, a special, whom a Foul
#: obstructs): one template each, so a translation may order them as its language does.
_ATTACK_FORMS = (
    N_("attack on {target}"),
    N_("attack on {target}, {d1}"),
    N_("attack on {target}, {d1}, {d2}"),
    N_("attack on {target}, {d1}, {d2}, {d3}"),
    N_("attack on {target}, {d1}, {d2}, {d3}, {d4}"),
)
_FULL_ATTACK_FORMS = (
    N_("Full Attack on {target}"),
    N_("Full Attack on {target}, {d1}"),
    N_("Full Attack on {target}, {d1}, {d2}"),
    N_("Full Attack on {target}, {d1}, {d2}, {d3}"),
    N_("Full Attack on {target}, {d1}, {d2}, {d3}, {d4}"),
)


@dataclass(frozen=True, slots=True)
class Act:
    """A declaration that is not an attack: what it ``do``-es (``do: KIND`` in a scenario script);
    ``target`` only for medical aid (whom) and closing (on whom)."""

    do: ActKind
    target: FighterId | None = None

    def describe(self) -> str:
        text = self.do.value.replace("_", " ")
        if self.target and self.do is ActKind.MEDICAL_AID:
            return S_("medical aid ({target})", target=self.target)
        if self.target and self.do is ActKind.CLOSE:
            return S_("close ({target})", target=self.target)
        return f"{text} ({self.target})" if self.target else text


Declaration: TypeAlias = Attack | Act


@dataclass(frozen=True, slots=True)
class Begin:
    """Start the duel: the first turn's initiative is rolled."""


@dataclass(frozen=True, slots=True)
class Declare:
    """``actor``'s declaration for the turn. ``skipped``: the scripted declarations a scenario's script
    passes over because they are no longer possible now (each must be illegal; the duel logs why, with
    the rule that stops it), left empty by everyone else."""

    actor: FighterId
    act: Declaration
    skipped: tuple[Declaration, ...] = ()


@dataclass(frozen=True, slots=True)
class ChooseInjury:
    """The attacker's injury for a called shot that hit (L5.CS.2), or a maim (L5.CS.3); ``None`` for
    no injury."""

    actor: FighterId
    injury: str | None


@dataclass(frozen=True, slots=True)
class ChooseCorps:
    """The defender's answer to a Corps-a-Corps (L5.CAC.1)."""

    actor: FighterId
    choice: Literal["disengage", "struggle"]


@dataclass(frozen=True, slots=True)
class ChooseDrive:
    """A defender aware of danger behind gives way or refuses (L5.DRV.1)."""

    actor: FighterId
    choice: Literal["give_way", "refuse"]


@dataclass(frozen=True, slots=True)
class ThroatStrike:
    """The Point-to-throat holder's extra attack, with its Free Raises (L5.PTT.1)."""

    actor: FighterId
    attack: Attack


Action: TypeAlias = Begin | Declare | ChooseInjury | ChooseCorps | ChooseDrive | ThroatStrike
