"""A run's fights as they finish: counted into its aggregates and written to its per-fight tables, in seed
order, then dropped (:class:`InOrder`, :class:`RunRows`), so memory stays flat however many fights run.

Batches finish in any order on several workers; :class:`InOrder` holds a finished batch only until every
earlier one is in, then hands each fight on in seed order, so the aggregates and the rows are the same
for any ``--jobs`` and backend. :class:`RowFile` writes a table row by row (CSV, or Parquet a row group
per batch) under a temporary name, renamed into place when the run ends: a file is whole or absent.
"""

from __future__ import annotations

__all__ = ["InOrder", "RowFile", "RunRows"]

import csv
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from kassen.lab.engine import Batch, FightRecord
from kassen.lab.output import Format, start_out
from kassen.lab.results import FIGHT_COLUMNS, UNIT_FIGHT_COLUMNS, fight_row, unit_fight_rows


class InOrder:
    """Hands each finished batch's fights to ``take`` in batch order (``put`` in any order)."""

    def __init__(self, take: Callable[[FightRecord], None]) -> None:
        self._take = take
        self._next = 0
        self._waiting: dict[int, list[FightRecord]] = {}

    def put(self, batch: Batch, records: list[FightRecord]) -> None:
        self._waiting[batch.index] = records
        while self._next in self._waiting:
            for r in self._waiting.pop(self._next):
                self._take(r)
            self._next += 1

    @property
    def waiting(self) -> int:
        """Batches finished but not handed on yet (an earlier one is still running)."""
        return len(self._waiting)


#: The Parquet type of each per-fight column (declared: a column of no values has a type all the same).
_TYPES = {
    "fight": "int64",
    "seed": "int64",
    "status": "string",
    "winner": "string",
    "rounds": "int64",
    "actions": "int64",
    "reason": "string",
    "unit": "string",
    "side": "string",
    "standing": "bool_",
    "wounds_dealt": "int64",
    "wounds_taken": "int64",
}


class RowFile:
    """One table of ``columns`` written row by row to ``path`` + ``.csv`` or ``.parquet``, under a
    temporary name until :meth:`close`."""

    #: Rows a Parquet row group gathers before it is written.
    GROUP = 4096

    def __init__(self, path: Path, fmt: Format, columns: Sequence[str]) -> None:
        self.columns = tuple(columns)
        self.path = path.with_suffix(f".{fmt}")
        self._tmp = self.path.with_name(f".{self.path.name}.tmp-{os.getpid()}")
        self._rows: list[Mapping[str, Any]] = []
        self._csv: IO[str] | None = None
        self._writer: Any = None
        if fmt == "csv":
            self._csv = self._tmp.open("w", encoding="utf-8", newline="")
            self._writer = csv.writer(self._csv, lineterminator="\n")
            self._writer.writerow(self.columns)
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            self._schema = pa.schema([(c, getattr(pa, _TYPES.get(c, "string"))()) for c in self.columns])
            self._writer = pq.ParquetWriter(str(self._tmp), self._schema)

    def write(self, rows: Sequence[Mapping[str, Any]]) -> None:
        if self._csv is not None:
            self._writer.writerows([_cell(r.get(c)) for c in self.columns] for r in rows)
            return
        self._rows.extend(rows)
        if len(self._rows) >= self.GROUP:
            self._flush()

    def _flush(self) -> None:
        if self._rows:
            import pyarrow as pa

            arrays = [
                pa.array([r.get(c) for r in self._rows], type=f.type)
                for c, f in zip(self.columns, self._schema, strict=True)
            ]
            self._writer.write_table(pa.Table.from_arrays(arrays, schema=self._schema))
            self._rows = []

    def close(self) -> Path:
        """Finish the file and put it in place."""
        if self._csv is not None:
            self._csv.close()
        else:
            self._flush()
            self._writer.close()
        os.replace(self._tmp, self.path)
        return self.path

    def discard(self) -> None:
        """Drop the unfinished file (the run broke off)."""
        if self._csv is not None:
            self._csv.close()
        elif self._writer is not None:
            self._writer.close()
        self._tmp.unlink(missing_ok=True)


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


class RunRows:
    """A run's per-fight tables in its ``--out`` (``fights`` and ``unit_fights``), written as its fights
    finish. Opening it starts the output directory (:func:`~kassen.lab.output.start_out`)."""

    def __init__(self, out: Path, fmt: Format, spec: Mapping[str, Any]) -> None:
        start_out(out, "run", spec)
        self.fights = RowFile(out / "fights", fmt, FIGHT_COLUMNS)
        self.unit_fights = RowFile(out / "unit_fights", fmt, UNIT_FIGHT_COLUMNS)
        self._next = 0

    def add(self, r: FightRecord) -> None:
        """The rows of the next fight of the run (in seed order)."""
        i = self._next
        self._next += 1
        self.fights.write([fight_row(i, r)])
        self.unit_fights.write(unit_fight_rows(i, r))

    def close(self) -> list[Path]:
        return [self.fights.close(), self.unit_fights.close()]

    def discard(self) -> None:
        self.fights.discard()
        self.unit_fights.discard()
