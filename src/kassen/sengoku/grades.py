"""Grade table: base Defense (SG.DEF.1) and Wounds by grade (SG.WND.5 house default), as data."""

from __future__ import annotations

__all__ = ["GradeRow", "GradeTable", "load_grades"]

from functools import lru_cache
from pathlib import Path

from pydantic import Field, model_validator

from kassen.content.yamlio import HouseDefault, StrictModel, load_model, load_package_model, require_every
from kassen.sengoku.profile import Grade


class GradeRow(StrictModel):
    defense: int = Field(ge=0, le=40, description="Unarmored base Defense of the grade (SG.DEF.1).")
    wounds: int = Field(ge=1, le=20, description="Wounds a unit of this grade starts with (SG.WND.5).")


class GradeTable(StrictModel):
    house_default: HouseDefault
    #: The reading of the anchors (SG.RD.8: is an ashigaru a Mob or a Minion, is a Veteran 3 or 4).
    reading: HouseDefault | None = None
    grades: dict[Grade, GradeRow]

    @model_validator(mode="after")
    def _every_grade(self) -> GradeTable:
        require_every(Grade, self.grades, "grades")
        return self

    def row(self, grade: Grade) -> GradeRow:
        return self.grades[grade]


@lru_cache(maxsize=8)
def _bundled() -> GradeTable:
    return load_package_model("kassen.sengoku.data", "grades.yaml", GradeTable)


def load_grades(path: str | Path | None = None) -> GradeTable:
    """The bundled grade table, or the one at ``path`` (validated; errors name file, line, field)."""
    return _bundled() if path is None else load_model(path, GradeTable)
