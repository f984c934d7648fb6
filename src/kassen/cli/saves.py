"""Saving a game played at the terminal: through a temporary file beside the save (never a half-written
file), checked before the game starts, and kept somewhere else when the save itself fails at the end."""

from __future__ import annotations

__all__ = ["autosave_path", "check_save", "fallback_save", "shown", "write_chronicle"]

import os
from pathlib import Path
from typing import Any

from kassen.core.errors import KassenError
from kassen.i18n import S_


def shown(path: Path | str) -> str:
    text = str(path)
    return text if len(text) <= 120 else text[:117] + "..."


def _temporary(path: Path) -> Path:
    """The file a save is written to before it replaces ``path``: beside it (a rename within one
    folder is atomic), with a short name of its own (``path``'s name may be near the longest allowed)."""
    return path.with_name(f".{path.name[:40]}.{os.getpid()}.part")


def write_chronicle(fight: Any, path: Path) -> None:
    """Write ``fight``'s chronicle to ``path`` through a temporary file beside it; anything that stops
    it is one :class:`KassenError` naming the file, and ``path`` is then as it was."""
    import json

    text = json.dumps(fight.to_json(), ensure_ascii=False, indent=1) + "\n"
    try:
        tmp = _temporary(path)
        try:
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
        finally:
            tmp.unlink(missing_ok=True)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise KassenError(
            S_("cannot save to {path}: {reason}", path=repr(shown(path)), reason=reason)
        ) from None


def fallback_save(fight: Any) -> Path | None:
    """Where a save that failed goes instead: ``kassen-save-<time>.json`` in the current folder, else in
    the system's temporary folder; None if neither can be written."""
    import tempfile
    import time

    name = f"kassen-save-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.json"
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        try:
            write_chronicle(fight, folder / name)
        except (KassenError, OSError):
            continue
        return folder / name
    return None


def check_save(save: Path | None) -> None:
    """``--save``'s file can be written: checked before the game starts, so a session is never played
    to its end to find it cannot be kept. A folder that is not there, a directory, a name too long, a
    read-only or special file system (``/proc``), no permission: each is found by writing there for
    real — the temporary file a save goes through, and the file itself when it does not exist yet —
    then removing what was written (an existing file is left untouched: a save replaces it by a rename
    in its folder, which writing the temporary file proved possible)."""
    if save is None:
        return
    where = shown(save)
    try:
        if save.is_dir():
            raise KassenError(S_("--save {where} is a directory, not a file", where=repr(where)))
        parent = save.parent if str(save.parent) else Path(".")
        if not parent.is_dir():
            raise KassenError(
                S_(
                    "--save {where}: the directory {parent} does not exist",
                    where=repr(where),
                    parent=repr(shown(parent)),
                )
            )
        probes = [_temporary(save)] + ([] if save.exists() else [save])
        for probe in probes:
            fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                os.write(fd, b"{}")
            finally:
                os.close(fd)
                os.unlink(probe)
    except OSError as exc:
        raise KassenError(
            S_("--save {where}: cannot write there ({value})", where=repr(where), value=exc.strerror or exc)
        ) from None
    except ValueError as exc:  # a NUL byte in the name
        raise KassenError(S_("--save {where}: {exc}", where=repr(where), exc=exc)) from None


def autosave_path() -> Path:
    """Where Ctrl-C or a hang-up saves a game played without ``--save``: ``kassen-autosave-<time>.json``
    in the current folder if it can be written there, else in the system's temporary folder."""
    import tempfile
    import time

    name = f"kassen-autosave-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.json"
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        try:
            check_save(folder / name)
        except (KassenError, OSError):
            continue
        return folder / name
    return Path(name)
