"""Writing the lab's results: tables (CSV, or Parquet with ``kassen[parquet]``), JSON, and a sweep's
finished cells, each file written whole or not at all.

An output directory is the lab's own: it holds the marker file :data:`MARKER`. The lab refuses to
write into a directory that has other files but no marker, so ``--out ~/Documents`` cannot scatter
files among the user's own. Every file is written to a temporary name and renamed into place; a sweep
stores each finished cell under ``cells/`` (its scenario, its fights) as soon as it finishes, keyed by
a digest of everything that decides its fights, so a rerun with the same ``--out`` skips it.
"""

from __future__ import annotations

__all__ = [
    "MARKER",
    "CellStore",
    "Format",
    "check_format",
    "prepare_out",
    "write_json",
    "write_table",
    "write_text",
]

import csv
import hashlib
import io
import json
import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from kassen.core.summary import ActionUse, Attempt, FightSummary, UnitSummary, UseKind
from kassen.i18n import _, pgettext
from kassen.lab.engine import FightRecord
from kassen.lab.limits import LabError

#: The file that marks a directory as the lab's output.
MARKER = "kassen-lab.json"
Format = Literal["csv", "parquet"]


def check_format(fmt: str) -> Format:
    """``csv`` or ``parquet`` (which needs pyarrow: ``pip install 'kassen[parquet]'``)."""
    if fmt == "csv":
        return "csv"
    if fmt == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise LabError(_("--format parquet needs pyarrow: pip install 'kassen[parquet]'")) from None
        return "parquet"
    raise LabError(_("--format is csv or parquet, not {fmt}").format(fmt=repr(str(fmt)[:20])))


def prepare_out(out: Path, kind: str) -> None:
    """Check that ``out`` can be the lab's output directory for a ``kind`` (run, sweep, odds) — nothing is
    written yet: a new directory, an empty one, or one the lab wrote for the same kind before."""
    try:
        if out.exists():
            if not out.is_dir():
                raise LabError(_("--out {out} is a file, not a directory").format(out=repr(str(out)[:120])))
            names = [p.name for p in out.iterdir()]
            if MARKER in names:
                try:
                    written = json.loads((out / MARKER).read_text(encoding="utf-8")).get("kind")
                except (OSError, ValueError, AttributeError):
                    written = None
                if written != kind:
                    raise LabError(
                        _(
                            "--out {out} holds the lab's {written} output, not a {kind}'s: give another "
                            "directory"
                        ).format(
                            out=repr(str(out)[:120]), written=written or pgettext("lab", "unknown"), kind=kind
                        )
                    )
            elif names:
                raise LabError(
                    _("--out {out} holds other files and no {marker}: give a new or empty one").format(
                        out=repr(str(out)[:120]), marker=MARKER
                    )
                )
        else:
            parent = out.parent if str(out.parent) else Path(".")
            if not parent.exists():
                raise LabError(
                    _("--out {out}: the directory {parent} does not exist").format(
                        out=repr(str(out)[:120]), parent=repr(str(parent)[:120])
                    )
                )
            if not parent.is_dir():
                raise LabError(
                    _("--out {out}: {parent} is a file, not a directory").format(
                        out=repr(str(out)[:120]), parent=repr(str(parent)[:120])
                    )
                )
            if not os.access(parent, os.W_OK):
                raise LabError(
                    _("--out {out}: cannot write in {parent}").format(
                        out=repr(str(out)[:120]), parent=repr(str(parent)[:120])
                    )
                )
        if out.exists() and not os.access(out, os.W_OK):
            raise LabError(_("--out {out} is not writable").format(out=repr(str(out)[:120])))
    except OSError as exc:
        raise LabError(
            pgettext("lab", "--out {out}: {value}").format(
                out=repr(str(out)[:120]), value=exc.strerror or exc
            )
        ) from None


def start_out(out: Path, kind: str, spec: Mapping[str, Any]) -> None:
    """Create ``out`` and write its marker (what wrote it); a LabError if the system refuses. The files
    an earlier run listed in the marker (:func:`finish_out`) are removed first, so a directory written
    again holds one run's results, never plots or tables of another seed beside them."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        for path in _listed(out):
            path.unlink(missing_ok=True)
        write_json(out / MARKER, {"kind": kind, **spec})
    except OSError as exc:
        raise LabError(
            pgettext("lab", "--out {out}: {value}").format(
                out=repr(str(out)[:120]), value=exc.strerror or exc
            )
        ) from None


def finish_out(out: Path, kind: str, spec: Mapping[str, Any], written: list[Path]) -> None:
    """Record in the marker the files a run wrote in ``out`` (removed when it is written again)."""
    names = sorted({p.name for p in written if p.parent == out and p.name != MARKER})
    try:
        write_json(out / MARKER, {"kind": kind, **spec, "files": names})
    except OSError as exc:
        raise LabError(
            pgettext("lab", "--out {out}: {value}").format(
                out=repr(str(out)[:120]), value=exc.strerror or exc
            )
        ) from None


def _listed(out: Path) -> list[Path]:
    """The files the marker in ``out`` lists (plain names inside ``out`` only; none if unreadable)."""
    try:
        data = json.loads((out / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list):
        return []
    out_paths = []
    for name in files:
        if isinstance(name, str) and name and name == Path(name).name and name not in (MARKER, ".", ".."):
            path = out / name
            if path.is_file():
                out_paths.append(path)
    return out_paths


def _atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_text(path: Path, text: str) -> Path:
    _atomic(path, text.encode("utf-8"))
    return path


def write_json(path: Path, data: Any) -> Path:
    return write_text(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def _columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    cols: dict[str, None] = {}
    for r in rows:
        for k in r:
            cols.setdefault(k, None)
    return list(cols)


def write_table(rows: Sequence[Mapping[str, Any]], path: Path, fmt: Format) -> Path:
    """``rows`` as ``path`` + ``.csv`` or ``.parquet``; returns the file written."""
    cols = _columns(rows)
    if fmt == "parquet":
        return _parquet(rows, cols, path.with_suffix(".parquet"))
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=cols, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: _cell(r.get(k)) for k in cols})
    target = path.with_suffix(".csv")
    write_text(target, buf.getvalue())
    return target


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def _parquet(rows: Sequence[Mapping[str, Any]], cols: list[str], target: Path) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    arrays = []
    for c in cols:
        values = [r.get(c) for r in rows]
        try:
            arrays.append(pa.array(values))
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # a column of mixed types: its values as text
            arrays.append(pa.array([None if v is None else str(v) for v in values]))
    table = pa.Table.from_arrays(arrays, names=cols) if cols else pa.table({})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    _atomic(target, sink.getvalue().to_pybytes())
    return target


# -- records as JSON (a sweep's stored cells) ---------------------------------------------------------
def record_json(r: FightRecord) -> list[Any]:
    s = r.summary
    summary = None
    if s is not None:
        summary = [
            s.rounds,
            [[u.id, u.side, u.standing, u.wounds_taken, u.wounds_dealt] for u in s.units],
            [[u.unit, u.action, u.kind] for u in s.uses],
            [[a.unit, a.action, a.success] for a in s.attempts],
        ]
    return [r.seed, r.status, r.winner, r.actions, r.message, summary]


def record_from_json(data: Any) -> FightRecord:
    seed, status, winner, actions, message, summary = data
    s = None
    if summary is not None:
        rounds, units, uses, attempts = summary
        s = FightSummary(
            int(rounds),
            tuple(UnitSummary(str(a), str(b), bool(c), int(d), int(e)) for a, b, c, d, e in units),
            tuple(ActionUse(str(a), str(b), _kind(k)) for a, b, k in uses),
            tuple(Attempt(str(a), str(b), bool(c)) for a, b, c in attempts),
        )
    return FightRecord(int(seed), status, winner, int(actions), str(message), s)


def _kind(kind: Any) -> UseKind:
    if kind in ("maneuver", "reaction", "special"):
        return kind  # type: ignore[no-any-return]
    raise ValueError(f"not a kind of use: {kind!r}")


class CellStore:
    """A sweep's finished cells under ``OUT/cells/KEY/``: ``scenario.yaml`` (replay any fight with
    ``kassen fight OUT/cells/KEY/scenario.yaml --seed S+i``) and ``fights.json`` (the records)."""

    def __init__(self, out: Path) -> None:
        self.root = out / "cells"

    @staticmethod
    def key(spec: Mapping[str, Any]) -> str:
        text = json.dumps(spec, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def load(self, key: str) -> list[FightRecord] | None:
        path = self.root / key / "fights.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return [record_from_json(x) for x in data["fights"]]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def save(self, key: str, text: str, spec: Mapping[str, Any], records: Sequence[FightRecord]) -> Path:
        """Store a finished cell whole: written in a temporary directory, then renamed into place."""
        self.root.mkdir(parents=True, exist_ok=True)
        final = self.root / key
        tmp = self.root / f".{key}.tmp-{os.getpid()}"
        if tmp.exists():
            shutil.rmtree(tmp)
        tmp.mkdir()
        (tmp / "scenario.yaml").write_text(text, encoding="utf-8")
        payload = {"spec": dict(spec), "fights": [record_json(r) for r in records]}
        (tmp / "fights.json").write_text(json.dumps(payload, separators=(",", ":")), encoding="utf-8")
        if final.exists():
            shutil.rmtree(final)
        os.replace(tmp, final)
        return final
