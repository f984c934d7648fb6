"""One self-contained HTML report: the tables and the plots (embedded as ``data:`` URIs), inline CSS,
no script and nothing fetched — it opens offline from a mail attachment or a USB stick."""

from __future__ import annotations

__all__ = ["html_report"]

import base64
import html
from collections.abc import Mapping, Sequence
from typing import Any

from kassen.i18n import _, current_language, pgettext

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK JP",sans-serif;margin:2em auto;
max-width:70em;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.8em;border-bottom:1px solid #ddd}
.wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0}
th,td{border:1px solid #ddd;padding:.2em .5em;text-align:right;white-space:nowrap}th{background:#f4f4f4}
.answer{font-size:1.1em;background:#f3f7fb;border-left:4px solid #4e79a7;padding:.6em .9em}
code{font-size:.9em;background:#f4f4f4;padding:0 .2em}
td.t,th.t{text-align:left}img{max-width:100%;margin:.5em 0;border:1px solid #eee}
.meta{color:#555;font-size:.9em}.note{color:#555;font-size:.85em}
"""

#: Most rows of one table shown in the report (the files hold them all).
MAX_ROWS = 500


def _fmt(value: Any) -> tuple[str, bool]:
    """A cell's text, and whether it is text (left-aligned)."""
    if value is None:
        return "", True
    if isinstance(value, bool):
        return (pgettext("lab", "yes") if value else pgettext("lab", "no")), True
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.0f}", False
    if isinstance(value, int):
        return f"{value:,}", False
    return str(value), True


def _table(rows: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        none = pgettext("lab", "(none)")
        return f"<p class=note>{html.escape(none)}</p>"
    cols: dict[str, None] = {}
    for r in rows:
        for k in r:
            cols.setdefault(k, None)
    head = "".join(f"<th class=t>{html.escape(str(c))}</th>" for c in cols)
    body = []
    for r in rows[:MAX_ROWS]:
        cells = []
        for c in cols:
            text, left = _fmt(r.get(c))
            cells.append(f"<td{' class=t' if left else ''}>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    more = ""
    if len(rows) > MAX_ROWS:
        text = _("{rows} more rows in the files.").format(rows=f"{len(rows) - MAX_ROWS:,}")
        more = f"<p class=note>{html.escape(text)}</p>"
    return f"<div class=wrap><table><tr>{head}</tr>{''.join(body)}</table></div>{more}"


def _image(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def html_report(
    title: str,
    meta: Sequence[tuple[str, str]],
    sections: Sequence[tuple[str, Sequence[Mapping[str, Any]] | None, Sequence[tuple[str, bytes]], str]],
    answer: str = "",
) -> str:
    """The report: a title, the ``answer`` in one sentence, ``meta`` lines (label, text), then sections
    of (heading, table rows or None, plots as (alt text, PNG bytes), a note)."""
    parts = [
        f"<!doctype html><html lang={current_language()}><head><meta charset=utf-8>",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p class=answer>{html.escape(answer)}</p>" if answer else "",
        "<p class=meta>"
        + "<br>".join(
            "<b>" + html.escape(_("{label}:").format(label=k)) + f"</b> {html.escape(v)}" for k, v in meta
        )
        + "</p>",
    ]
    for heading, rows, images, note in sections:
        parts.append(f"<h2>{html.escape(heading)}</h2>")
        if note:
            parts.append(f"<p class=note>{html.escape(note)}</p>")
        for alt, png in images:
            parts.append(_image(png, alt))
        if rows is not None:
            parts.append(_table(rows))
    written = _("Written by kassen lab.")
    parts.append(f"<p class=note>{html.escape(written)}</p></body></html>\n")
    return "\n".join(parts)
