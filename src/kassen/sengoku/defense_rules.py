"""The numbers of Sengoku's Defense (seed 000) as data: the typed models of ``data/defense.yaml`` —
armor and shield additions and their Energy penalties (SG.DEF.2, SG.DEF.7), the Energy readings, the
reductions after the floors (Defenseless −4 SG.DFL.2, the minimum SG.DBF.2), the Defense −N readings
(SG.RD.3), natural armor, equipment grades, patching and repair (SG.BRK.*), the Exorcism ranks and
[Incorporeal] (SG.INC.*), Aim Focus's breath limit (SG.BRT.1) — each with its house default, and their
loading (the bundled file once, cached, or a user's). :mod:`kassen.sengoku.defense` computes Defense
from them and re-exports them.
"""

from __future__ import annotations

__all__ = [
    "AimFocusRules",
    "ArmorRow",
    "ArmorTable",
    "DebuffReading",
    "DebuffRules",
    "DefenseRules",
    "EnergyRules",
    "EquipmentGrades",
    "Exemption",
    "ExorcismRow",
    "ExorcismTable",
    "IncorporealRules",
    "NaturalArmorRules",
    "PatchRules",
    "ReductionRules",
    "RepairRow",
    "RepairRules",
    "load_defense_rules",
]

from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from kassen.content.yamlio import HouseDefault, StrictModel, load_model, load_package_model, require_every
from kassen.sengoku.profile import ArmorKind, BonusKind, ExorcismRank

Restore = Annotated[int, Field(ge=1, le=40)] | Literal["all"]


class ArmorRow(StrictModel):
    defense: int = Field(ge=0, le=40, description="Armor addition on top of the grade base (SG.DEF.2).")
    energy_penalty: int = Field(ge=0, le=30, description="Maximum Energy lost while worn (SG.DEF.7).")
    label: str


class ArmorTable(StrictModel):
    house_default: HouseDefault
    rows: dict[ArmorKind, ArmorRow]
    shield: int = Field(ge=0, le=40, description="Shield addition, part of armor for every rule (SG.DEF.2).")

    @model_validator(mode="after")
    def _every_row(self) -> ArmorTable:
        require_every(ArmorKind, self.rows, "armor rows")
        return self


class EnergyRules(StrictModel):
    house_default: HouseDefault
    penalty_can_become_bonus: bool
    negative_physique_deepens: bool


class ReductionRules(StrictModel):
    defenseless: int = Field(ge=0, le=40, description="Defense lost while Defenseless (SG.DFL.2).")
    minimum: int = Field(ge=0, le=40, description="Lowest final Defense (SG.DBF.2).")
    house_default: HouseDefault
    minimum_covers_defenseless: bool
    override_lowers_floors: bool


class DebuffReading(StrEnum):
    """SG.RD.3: a "Defense −N each round" effect that triggers again."""

    ACCUMULATE = "accumulate"
    RENEW = "renew"


class DebuffRules(StrictModel):
    house_default: HouseDefault
    each_round: DebuffReading


class NaturalArmorRules(StrictModel):
    house_default: HouseDefault
    pierce_default: bool


class EquipmentGrades(StrictModel):
    house_default: HouseDefault
    ranks: dict[str, Annotated[int, Field(ge=-20, le=20)]]

    @field_validator("ranks")
    @classmethod
    def _lower_names(cls, ranks: dict[str, int]) -> dict[str, int]:
        if not ranks:
            raise ValueError("at least one equipment grade is needed")
        return {name.strip().lower(): rank for name, rank in ranks.items()}


class PatchRules(StrictModel):
    restores: Restore


class RepairRow(StrictModel):
    restores: Restore
    resets_patch: bool


class RepairRules(StrictModel):
    house_default: HouseDefault
    emergency_patch: PatchRules
    camp: RepairRow
    forge: RepairRow


class Exemption(StrEnum):
    """What an Exorcism rank does to an [Incorporeal] attack when it sets no target number (SG.INC.2)."""

    IMMUNE = "immune"  # the attack cannot affect the defender
    PHYSICAL = "physical"  # the [Incorporeal] tag is void: roll against physical Defense


class ExorcismRow(StrictModel):
    target_number: Annotated[int, Field(ge=0, le=40)] | Exemption
    evasion_exempt: bool


class ExorcismTable(StrictModel):
    house_default: HouseDefault
    ranks: dict[ExorcismRank, ExorcismRow]

    @model_validator(mode="after")
    def _every_rank(self) -> ExorcismTable:
        require_every(ExorcismRank, self.ranks, "Exorcism ranks")
        return self


class IncorporealRules(StrictModel):
    house_default: HouseDefault
    counted_bonus_kinds: tuple[BonusKind, ...]
    sources: tuple[str, ...]


class AimFocusRules(StrictModel):
    house_default: HouseDefault
    breath_limit: int = Field(ge=0, le=30, description="The base one-breath limit (SG.BRT.1).")


class DefenseRules(StrictModel):
    """Everything in ``data/defense.yaml``: tables, house defaults and switchable readings."""

    armor: ArmorTable
    energy: EnergyRules
    reductions: ReductionRules
    debuffs: DebuffRules
    natural_armor: NaturalArmorRules
    equipment_grades: EquipmentGrades
    repair: RepairRules
    exorcism: ExorcismTable
    incorporeal: IncorporealRules
    aim_focus: AimFocusRules

    def house_defaults(self) -> tuple[HouseDefault, ...]:
        """Every house default and reading in the file, in file order (for docs and the CLI)."""
        return tuple(
            getattr(self, name).house_default
            for name in type(self).model_fields
            if hasattr(getattr(self, name), "house_default")
        )


@lru_cache(maxsize=1)
def _bundled() -> DefenseRules:
    return load_package_model("kassen.sengoku.data", "defense.yaml", DefenseRules)


def load_defense_rules(path: str | Path | None = None) -> DefenseRules:
    """The bundled Defense data (cached), or the one at ``path`` (errors name file, line and field)."""
    return _bundled() if path is None else load_model(path, DefenseRules)
