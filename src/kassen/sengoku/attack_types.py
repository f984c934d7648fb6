"""What one Sengoku attack is and what it gives (seed 000; :mod:`kassen.sengoku.attack` resolves it):
the attack action (technique, modifier, tags, added Wound effects SG.WND.6, the attacker's Fate
Intervention SG.FAT.1, the target's Last Bastion SG.FAT.2, the GM's Fumble extras SG.FUM.2), its outcome
(Critical Hit, hit, miss or Fumble: SG.CHK.2, SG.CRT.1, SG.FUM.1), the target's Defense as the attack
reads it (a fixed number, or a ``DefenseResult`` with the armor its [Pierce] removed, SG.BRK.2), a d100
table consulted (SG.CRT.4, SG.FUM.3) and everything the attack did. All are re-exported by
:mod:`kassen.sengoku.attack`.
"""

from __future__ import annotations

__all__ = ["Attack", "AttackOutcome", "AttackResult", "DefenseLike", "FixedDefense", "TableResult"]

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from kassen.core.events import Event
from kassen.core.explain import Step, steps_to_json
from kassen.core.fastinit import fast_init
from kassen.sengoku.check import CheckOutcome, CheckResult, Faces
from kassen.sengoku.profile import AttackTags, CombatProfile
from kassen.sengoku.resolution import TableEffect, TableRow
from kassen.sengoku.technique import BASE_ATTACK, Technique
from kassen.sengoku.wounds import AddedWound


class AttackOutcome(StrEnum):
    """Critical Hit, hit, miss or Fumble."""

    CRITICAL = "critical"
    HIT = "hit"
    MISS = "miss"
    FUMBLE = "fumble"

    @property
    def hit(self) -> bool:
        return self in (AttackOutcome.CRITICAL, AttackOutcome.HIT)


_FROM_CHECK = {
    CheckOutcome.CRITICAL: AttackOutcome.CRITICAL,
    CheckOutcome.SUCCESS: AttackOutcome.HIT,
    CheckOutcome.FAILURE: AttackOutcome.MISS,
    CheckOutcome.FUMBLE: AttackOutcome.FUMBLE,
}


class DefenseLike(Protocol):
    """The target's Defense for this attack, the steps that made it and the armor points its [Pierce]
    removed (a ``DefenseResult``; a [Break] keeps those, SG.BRK.2)."""

    @property
    def defense(self) -> int: ...

    @property
    def steps(self) -> tuple[Step, ...]: ...

    @property
    def pierce_removed(self) -> int: ...


@dataclass(frozen=True, slots=True)
class FixedDefense:
    """A Defense value known in advance (a stat block, a GM's number, a test)."""

    defense: int
    steps: tuple[Step, ...] = ()
    pierce_removed: int = 0


@fast_init
@dataclass(frozen=True, slots=True)
class Attack:
    """One attack action.

    ``modifier`` overrides the technique's attribute + skill + bonus. ``tags`` override the technique's
    (after Aim Focus, say). ``added_wounds`` are weakness/divine-item effects (SG.WND.6). ``fate_die``
    (0 first, 1 second) asks for the attacker's Fate Intervention on that die (SG.FAT.1);
    ``last_bastion`` is the target's Last Bastion (SG.FAT.2). ``fumble_extras`` are the GM's optional
    extras if the attack fumbles (keys of ``fumble.extras``: drop-weapon, stance-collapse, foot-slip).
    """

    technique: Technique = BASE_ATTACK
    modifier: int | None = None
    tags: AttackTags | None = None
    added_wounds: tuple[AddedWound, ...] = ()
    fate_die: int | None = None
    last_bastion: bool = False
    fumble_extras: tuple[str, ...] = ()

    @property
    def attack_tags(self) -> AttackTags:
        return self.tags if self.tags is not None else self.technique.tags


@dataclass(frozen=True, slots=True)
class TableResult:
    """A d100 table consulted: decisive moment (SG.CRT.4) or critical mistake (SG.FUM.3), and its row."""

    table: str
    roll: int
    name: str
    effect: str
    rule: str
    row: TableRow | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "roll": self.roll,
            "name": self.name,
            "effect": self.effect,
            "rule": self.rule,
        }


@fast_init
@dataclass(frozen=True, slots=True)
class AttackResult:
    """Everything one attack did. ``attacker`` and ``target`` are the profiles *after* the attack."""

    attacker: CombatProfile
    target: CombatProfile
    technique: Technique
    defense: int
    defense_steps: tuple[Step, ...]
    faces_rolled: Faces
    check: CheckResult
    outcome: AttackOutcome
    wounds_before: int
    wounds_after: int
    incapacitated: bool
    wounds_behind: int
    table: TableResult | None
    events: tuple[Event, ...]
    steps: tuple[Step, ...]
    #: The d100 row's effects the resolution cannot apply to the two profiles (Energy, Cohesion,
    #: weapons, other units): a battle applies them (:mod:`kassen.sengoku.battle`).
    pending: tuple[TableEffect, ...] = ()
    #: The blow makes the target bleed (Bleed, SG.AIM.5): a battle marks the unit.
    bleeds: bool = False
    #: The hit's Wounds (before any added effect): what a Friendly Blow takes (SG.FUM.3 house table).
    hit_wounds: int = 0

    @property
    def hit(self) -> bool:
        return self.outcome.hit

    @property
    def wounds_lost(self) -> int:
        return self.wounds_before - self.wounds_after

    def to_json(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker.name,
            "target": self.target.name,
            "technique": self.technique.name,
            "modifier": self.check.modifier,
            "defense": self.defense,
            "defense_steps": steps_to_json(self.defense_steps),
            "faces_rolled": list(self.faces_rolled),
            "faces": list(self.check.faces),
            "total": self.check.total,
            "double": self.check.double,
            "outcome": self.outcome.value,
            "wounds_before": self.wounds_before,
            "wounds_after": self.wounds_after,
            "incapacitated": self.incapacitated,
            "wounds_behind": self.wounds_behind,
            "attacker_defenseless": self.attacker.defenseless,
            "table": self.table.to_json() if self.table else None,
            "pending": [e.model_dump(mode="json", exclude_defaults=True) for e in self.pending],
            "bleeds": self.bleeds,
            "armor_damage": self.target.armor_damage,
            "events": [e.to_json() for e in self.events],
            "steps": steps_to_json(self.steps),
        }
