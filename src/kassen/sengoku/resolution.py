"""The data of attack resolution (``data/resolution.yaml``), as typed, validated, frozen models.

Everything tabular the resolution reads lives in the YAML: Wounds of a hit and a Critical Hit and the
SG.RD.1 reading, the double-edge readings (SG.RD.4), the fumble extras (SG.FUM.2), the two d100 tables
(SG.CRT.4, SG.FUM.3), Fate costs (SG.FAT.1-2), the death check (SG.INP.3), a Lord's fall (SG.INP.2,
SG.RD.9). Gaps and readings carry a ``house_default`` block. The attacks themselves (weapons, techniques)
are catalog entries: :mod:`kassen.sengoku.catalog`.

>>> rules = load_resolution()
>>> rules.wounds.critical, rules.death_check.target
(2, 11)
"""

from __future__ import annotations

__all__ = [
    "CriticalReading",
    "DoubleOneSuccess",
    "DoubleTenFailure",
    "DoublesScope",
    "EffectKind",
    "FumbleExtraKind",
    "LordFallScope",
    "ResolutionRules",
    "TableEffect",
    "TableEffectKind",
    "TableRow",
    "TableWho",
    "load_resolution",
]

from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, model_validator

from kassen.content.yamlio import HouseDefault, StrictModel, load_model, load_package_model
from kassen.core.errors import KassenError
from kassen.i18n import S_


class CriticalReading(StrEnum):
    """SG.RD.1: how a Critical Hit scores with a technique that has its own Wounds."""

    PLUS_ONE = "plus_one"
    DOUBLE = "double"
    FLAT = "flat"


class DoublesScope(StrEnum):
    """SG.RD.4: which checks can be Critical Hits and Fumbles."""

    ATTACK = "attack"
    EVERY_CHECK = "every_check"


class DoubleTenFailure(StrEnum):
    """SG.RD.4: a double 10 on a failed check."""

    FUMBLE = "fumble"
    MISS = "miss"


class DoubleOneSuccess(StrEnum):
    """SG.RD.4: a double 1 on a successful check."""

    CRITICAL = "critical"
    KARMIC_RETRIBUTION = "karmic_retribution"


class LordFallScope(StrEnum):
    """SG.RD.9: which squads lose Cohesion when their Lord falls."""

    FACTION = "faction"
    ONE_SQUAD = "one_squad"


class EffectKind(StrEnum):
    """What an attack's extra effect does (SG.CRT.3, SG.WND.6)."""

    EXTRA_WOUNDS = "extra_wounds"  # added Wound reduction on the target after the check
    WOUNDS_BEHIND = "wounds_behind"  # Wounds to the enemy behind the target
    NOTE = "note"  # text for the GM ([Break] on a critical...)
    DEBUFF = "debuff"  # a Defense −N source from the catalog put on the target (SG.DBF.1)
    BLEED = "bleed"  # the target bleeds (Pierce the Vitals, SG.AIM.5; resolution.yaml bleed)


class CheckData(StrictModel):
    dice: int = Field(ge=1, le=10)
    sides: int = Field(ge=2, le=100)
    doubles_scope: DoublesScope
    house_default: HouseDefault

    @model_validator(mode="after")
    def _two_dice(self) -> CheckData:
        if self.dice != 2:
            raise ValueError("a Sengoku check rolls exactly 2 dice (SG.CHK.1, SG.CHK.2)")
        return self


class WoundsData(StrictModel):
    hit: int = Field(ge=0, le=20, description="Wounds a hit reduces (SG.WND.1).")
    critical: int = Field(ge=0, le=20, description="Wounds a base Critical Hit reduces (SG.WND.2, SG.CRT.1).")
    critical_reading: CriticalReading
    house_default: HouseDefault


class DoublesData(StrictModel):
    heavenly_mandate_face: int = Field(ge=1, le=100)
    karmic_retribution_face: int = Field(ge=1, le=100)
    double_ten_failure: DoubleTenFailure
    double_one_success: DoubleOneSuccess
    house_default: HouseDefault


class FumbleExtraKind(StrEnum):
    """What a GM's fumble extra does (SG.FUM.2): the weapon falls (``energy`` to pick it up), the next
    action costs ``energy`` more, or the roller is moved one zone (the GM names it)."""

    DROP_WEAPON = "drop-weapon"
    NEXT_ACTION_COST = "next-action-cost"
    FORCED_MOVE = "forced-move"


class FumbleExtraData(StrictModel):
    name: str
    does: FumbleExtraKind
    energy: int = Field(ge=0, le=30)
    effect: str


class FumbleData(StrictModel):
    defenseless: bool
    extras: dict[str, FumbleExtraData]
    gm_auto_play: tuple[str, ...] = Field(
        description="The extras the GM adds to every fumble when the battle plays itself (SG.FUM.2)."
    )
    house_default: HouseDefault

    @model_validator(mode="after")
    def _auto_play_names_extras(self) -> FumbleData:
        unknown = [x for x in self.gm_auto_play if x not in self.extras]
        if unknown:
            raise ValueError(f"gm_auto_play names unknown extras: {', '.join(unknown)}")
        return self


class TableEffectKind(StrEnum):
    """What one effect of a d100 row does (SG.CRT.4, SG.FUM.3)."""

    ENERGY = "energy"  # +amount Energy (never above the round's maximum, never below 0)
    FATE = "fate"  # +amount Fate points (never below 0)
    DEFENSELESS = "defenseless"  # the unit becomes Defenseless (SG.DFL.1-2)
    WOUNDS = "wounds"  # the unit loses `amount` Wounds (0: the attack's hit Wounds)
    INCAPACITATE = "incapacitate"  # Wounds to 0 at once (a Lord loses `lord_wounds` instead, if set)
    BREAK_ARMOR = "break-armor"  # [Pierce amount] + [Break] on the unit's armor (SG.BRK.2-3 grades)
    COHESION = "cohesion"  # +amount Cohesion (squads)
    DROP_WEAPON = "drop-weapon"  # the weapon used falls; picking it up costs `amount` Energy
    BREAK_WEAPON = "break-weapon"  # the weapon used is destroyed for the rest of the combat


class TableWho(StrEnum):
    """Whom a d100 row's effect touches."""

    ATTACKER = "attacker"  # the roller
    TARGET = "target"
    ANOTHER_ENEMY = "another-enemy"  # another unit of the target's side in the target's zone (first)
    NEAREST_ALLY = "nearest-ally"  # another unit of the roller's side in the roller's zone (first)
    ENEMY_SQUADS = "enemy-squads"  # every squad of the target's side in the target's zone


class TableEffect(StrictModel):
    """One effect of a d100 row, applied by the resolution (attacker and target) and the battle (other
    units, Energy, weapons). ``fallback`` is whom it touches when ``who`` finds nobody (a Friendly Blow
    with no ally near falls on the roller)."""

    kind: TableEffectKind
    who: TableWho
    amount: int = Field(default=0, ge=-20, le=20)
    lord_wounds: int | None = Field(default=None, ge=0, le=20)
    fallback: TableWho | None = None

    @model_validator(mode="after")
    def _amount_fits_kind(self) -> TableEffect:
        signed = (TableEffectKind.ENERGY, TableEffectKind.FATE, TableEffectKind.COHESION)
        if self.kind in signed and self.amount == 0:
            raise ValueError(f"a {self.kind.value} effect changes something: give a non-zero `amount`")
        if self.kind not in signed and self.amount < 0:
            raise ValueError(f"a {self.kind.value} effect's `amount` is at least 0")
        if self.kind is TableEffectKind.BREAK_ARMOR and self.amount < 1:
            raise ValueError("a break-armor effect names the [Pierce N] it breaks with: `amount` >= 1")
        if self.lord_wounds is not None and self.kind is not TableEffectKind.INCAPACITATE:
            raise ValueError("`lord_wounds` goes with an incapacitate effect only")
        return self


class TableRow(StrictModel):
    """One row of a d100 table: the rolls ``low..high`` give ``name``; ``effect`` says it in words and
    ``effects`` is what it does (applied, never only logged)."""

    low: int = Field(ge=1, le=100)
    high: int = Field(ge=1, le=100)
    name: str
    effect: str
    effects: tuple[TableEffect, ...] = Field(min_length=1)


class D100Table(StrictModel):
    die: int = Field(ge=2, le=100)
    house_default: HouseDefault
    rows: tuple[TableRow, ...]

    @model_validator(mode="after")
    def _covers_every_roll_once(self) -> D100Table:
        expected = 1
        for row in sorted(self.rows, key=lambda r: r.low):
            if row.low != expected or row.high < row.low:
                raise ValueError(f"rows must cover 1..{self.die} once each; problem at {row.low}-{row.high}")
            expected = row.high + 1
        if expected != self.die + 1:
            raise ValueError(f"rows must cover 1..{self.die} once each; they stop at {expected - 1}")
        return self

    def row(self, roll: int) -> TableRow:
        """The row for ``roll`` (1..die)."""
        for r in self.rows:
            if r.low <= roll <= r.high:
                return r
        raise ValueError(f"roll {roll} is outside 1..{self.die}")


class FateData(StrictModel):
    intervention_cost: int = Field(ge=0, le=20)
    max_shift: int = Field(ge=0, le=10)
    last_bastion_cost: int = Field(ge=0, le=20)
    #: When a battle offers Fate Intervention to the attacker after its roll: only when a shift makes a
    #: Critical Hit (a double on a success), or whenever a shift can make a double at all.
    intervention_offered: Literal["when-it-makes-a-critical", "whenever-a-double-can-be-made"]
    house_default: HouseDefault


class TextEntry(StrictModel):
    name: str
    effect: str


class BleedData(StrictModel):
    """Bleed (GAP, named by Pierce the Vitals): Wounds lost in each lull until bound or the combat ends."""

    name: str
    effect: str
    wounds_per_lull: int = Field(ge=0, le=20)
    bound_by: str = Field(description="The maneuver an ally spends Energy on to bind the wound.")


class DeathCheckData(StrictModel):
    target: int = Field(ge=-40, le=40)
    serious_injury: TextEntry
    bleed: BleedData
    house_default: HouseDefault


class LordFallData(StrictModel):
    cohesion_loss: int = Field(ge=0, le=20)
    scope: LordFallScope
    house_default: HouseDefault


class DecisiveBlow(StrEnum):
    """What "a decisive blow" is for a source that states "[Pierce N] + [Break] on a decisive blow"
    (SG.BRK.4, a reading): a Critical Hit on the Heavenly Mandate's double (the seed's decisive moment,
    SG.CRT.4), any Critical Hit, or a hit that Incapacitates the target."""

    HEAVENLY_MANDATE = "heavenly-mandate"
    CRITICAL = "critical"
    FELLING_BLOW = "felling-blow"


class StatedBreakData(StrictModel):
    """When a source's stated [Break] on a decisive blow fires (SG.BRK.4)."""

    decisive_blow: DecisiveBlow
    house_default: HouseDefault


class FallenData(StrictModel):
    """What a d100 row does to a unit the same attack already felled (SG.INP.1 with SG.CRT.4, SG.FUM.3):
    ``equipment_takes_effect``: an armor [Break] and a weapon dropped or broken still happen to its gear
    (Wounds, Defenseless and Energy find nobody in the zone either way)."""

    equipment_takes_effect: bool
    house_default: HouseDefault


class ResolutionRules(StrictModel):
    """The whole of ``resolution.yaml``."""

    check: CheckData
    wounds: WoundsData
    doubles: DoublesData
    fumble: FumbleData
    decisive_moment: D100Table
    critical_mistake: D100Table
    stated_break: StatedBreakData
    fallen: FallenData
    fate: FateData
    death_check: DeathCheckData
    lord_fall: LordFallData

    @model_validator(mode="after")
    def _faces_on_the_die(self) -> ResolutionRules:
        for name in ("heavenly_mandate_face", "karmic_retribution_face"):
            if getattr(self.doubles, name) > self.check.sides:
                raise ValueError(f"doubles.{name} is not a face of a d{self.check.sides}")
        return self

    def override(self, section: str, **values: Any) -> ResolutionRules:
        """A copy with ``values`` replaced in ``section``, validated like the file (switch a reading:
        ``rules.override("wounds", critical_reading="double")``)."""
        data = self.model_dump(by_alias=True)
        if section not in data or not isinstance(data[section], dict):
            raise KassenError(S_("no section {section} in the resolution data", section=f"{section!r}"))
        data[section].update(values)
        try:
            return ResolutionRules.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise KassenError(
                S_("bad resolution override {where}: {msg}", where=where, msg=first["msg"])
            ) from None


@lru_cache(maxsize=1)
def _bundled() -> ResolutionRules:
    return load_package_model("kassen.sengoku.data", "resolution.yaml", ResolutionRules)


def load_resolution(path: str | Path | None = None) -> ResolutionRules:
    """The bundled resolution data (cached), or the file at ``path`` (validated; every error at once,
    each naming file, line and field)."""
    return _bundled() if path is None else load_model(path, ResolutionRules)
