"""PNG plots of the lab's results (matplotlib, Agg backend: no screen needed).

Each function returns the PNG as bytes, so the caller writes it whole and the HTML report embeds the
same bytes. Plots need matplotlib (``pip install 'kassen[lab]'``); :func:`check_matplotlib` says so in
one line before anything runs.

The plots' words are in the reader's language. Japanese needs a font that has its glyphs: the first of
:data:`JAPANESE_FONTS` matplotlib's font manager knows by family name (Debian's ``fonts-noto-cjk``
gives Noto Sans CJK JP; a font installed after matplotlib cached its font list is found by scanning
the system's fonts once). Without one the plots are worded in English, after one warning
(:class:`FontWarning`) naming the package to install — never boxes in place of the missing glyphs.
"""

from __future__ import annotations

__all__ = [
    "FONT_PACKAGE",
    "JAPANESE_FONTS",
    "FontWarning",
    "check_matplotlib",
    "exact_heatmap",
    "font_problem",
    "japanese_font",
    "run_plots",
    "sensitivity_plot",
    "solve_plot",
    "sweep_heatmap",
    "sweep_lines",
]

import io
import math
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from kassen.i18n import _, current_language, pgettext, translate_text, use_language
from kassen.lab.limits import LabError
from kassen.lab.words import axis_label, metric_label, outcome_label, wins_label

if TYPE_CHECKING:
    from kassen.lab.grid import SweepResult
    from kassen.lab.odds import ExactTable
    from kassen.lab.results import RunResult

#: Colours of the sides, in order (the Tableau palette, readable in grey too).
PALETTE = ("#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#76b7b2", "#edc948", "#b07aa1", "#9c755f")
DPI = 110
#: Font families with Japanese glyphs, best first, by the names matplotlib's font manager knows them by
#: (Debian: fonts-noto-cjk, fonts-ipaexfont-gothic, fonts-ipafont-gothic, fonts-takao-gothic, fonts-vlgothic).
JAPANESE_FONTS = (
    "Noto Sans CJK JP",
    "Noto Serif CJK JP",
    "IPAexGothic",
    "IPAGothic",
    "TakaoGothic",
    "VL Gothic",
)
#: The Debian package that gives the first of them (``.ci/run`` installs it when missing).
FONT_PACKAGE = "fonts-noto-cjk"


class FontWarning(UserWarning):
    """No font with the reader's language's glyphs: the plots are worded in English instead."""


def _known_families() -> set[str]:
    from matplotlib import font_manager

    return {f.name for f in font_manager.fontManager.ttflist}


@lru_cache(maxsize=1)
def japanese_font() -> str | None:
    """The family name of the first of :data:`JAPANESE_FONTS` matplotlib can use (None: none). Fonts
    installed after matplotlib cached its font list are found by scanning the system's fonts once."""
    from matplotlib import font_manager

    known = _known_families()
    found = next((name for name in JAPANESE_FONTS if name in known), None)
    if found is not None:
        return found
    listed = {f.fname for f in font_manager.fontManager.ttflist}
    for path in font_manager.findSystemFonts():
        if path not in listed:
            try:
                font_manager.fontManager.addfont(path)
            except (OSError, RuntimeError, ValueError):  # a file FreeType cannot read: not a font for us
                continue
    known = _known_families()
    return next((name for name in JAPANESE_FONTS if name in known), None)


def font_problem() -> str | None:
    """Why the plots cannot be worded in the reader's language (one line naming the package to
    install), or None when they can."""
    if current_language() != "ja" or japanese_font() is not None:
        return None
    return _(
        "no Japanese font for the plots (install Debian's {package}): their words are in English"
    ).format(package=FONT_PACKAGE)


@contextmanager
def _words() -> Iterator[None]:
    """A plot drawn in the reader's language with a font that has its glyphs; in English after one
    :class:`FontWarning` when the machine has no such font."""
    import matplotlib

    if current_language() != "ja":
        yield
        return
    family = japanese_font()
    if family is None:
        warnings.warn(font_problem() or "", FontWarning, stacklevel=3)
        with use_language("en"):
            yield
        return
    fonts = [family, *matplotlib.rcParams["font.sans-serif"]]
    with matplotlib.rc_context({"font.family": "sans-serif", "font.sans-serif": fonts}):
        yield


def check_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise LabError("plots need matplotlib: pip install 'kassen[lab]' (or leave out --out)") from None


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight", metadata={"Software": None})
    _pyplot().close(fig)
    return buf.getvalue()


def _short(text: str, n: int = 28) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _bar_labels(ax: Any, ys: Sequence[float], rates: Sequence[float], highs: Sequence[float]) -> None:
    """Each bar's share as text: inside a long bar (white), else past its interval's end."""
    for y, r, hi in zip(ys, rates, highs, strict=True):
        if r > 0.8:
            ax.text(r - 0.04, y, f"{r:.1%}", va="center", ha="right", color="white")
        else:
            ax.text(hi + 0.02, y, f"{r:.1%}", va="center", ha="left")


def run_plots(result: RunResult) -> dict[str, bytes]:
    """A run's plots: ``outcomes`` (win rates with 95% intervals), ``rounds`` (histogram), ``units``
    (survival per unit)."""
    with _words():
        return _run_plots(result)


def _run_plots(result: RunResult) -> dict[str, bytes]:
    plt = _pyplot()
    out: dict[str, bytes] = {}
    labels, rates, lo, hi, colors = [], [], [], [], []
    for i, s in enumerate(result.sides):
        labels.append(_short(wins_label(s.name)))
        rates.append(s.wins.share)
        lo.append(s.wins.share - s.wins.ci95[0])
        hi.append(s.wins.ci95[1] - s.wins.share)
        colors.append(PALETTE[i % len(PALETTE)])
    for name, iv in (("draws", result.draws), ("time-outs", result.timeouts), ("errors", result.errors)):
        if iv.count or name == "draws":
            labels.append(outcome_label(name))
            rates.append(iv.share)
            lo.append(iv.share - iv.ci95[0])
            hi.append(iv.ci95[1] - iv.share)
            colors.append("#bab0ac")
    fig, ax = plt.subplots(figsize=(6.4, 0.6 + 0.45 * len(labels)))
    y = list(range(len(labels)))[::-1]
    ax.barh(y, rates, xerr=[lo, hi], color=colors, capsize=4)
    _bar_labels(ax, y, rates, [r + h for r, h in zip(rates, hi, strict=True)])
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1)
    ax.set_xlabel(_("share of fights (bars: 95% Wilson interval)"))
    ax.set_title(
        pgettext("lab", "{scenario}: {fights} fights").format(
            scenario=_short(translate_text(result.scenario), 50), fights=f"{result.fights:,}"
        )
    )
    out["outcomes"] = _png(fig)

    hist = result.rounds.histogram
    if hist:
        fig, ax = plt.subplots(figsize=(6.4, 3.2))
        ax.bar([r for r, _ in hist], [n for _, n in hist], color=PALETTE[0])
        ax.set_xlabel(_("rounds to the end"))
        ax.set_ylabel(pgettext("lab", "fights"))
        mean = result.rounds.mean
        ax.set_title(
            _("Rounds to the end (mean {mean})").format(mean=f"{mean:.2f}")
            if mean is not None
            else pgettext("lab", "Rounds to the end")
        )
        ax.xaxis.get_major_locator().set_params(integer=True)
        out["rounds"] = _png(fig)

    if result.units:
        sides = {s.id: i for i, s in enumerate(result.sides)}
        fig, ax = plt.subplots(figsize=(6.4, 0.6 + 0.4 * len(result.units)))
        units = result.units
        y = list(range(len(units)))[::-1]
        rates = [u.standing.share for u in units]
        err = [
            [u.standing.share - u.standing.ci95[0] for u in units],
            [u.standing.ci95[1] - u.standing.share for u in units],
        ]
        colors = [PALETTE[sides.get(u.side, 0) % len(PALETTE)] for u in units]
        ax.barh(y, rates, xerr=err, color=colors, capsize=3)
        _bar_labels(ax, y, rates, [u.standing.ci95[1] for u in units])
        ax.set_yticks(
            y,
            [
                _short(pgettext("lab", "{name} ({side})").format(name=translate_text(u.name), side=u.side))
                for u in units
            ],
        )
        ax.set_xlim(0, 1)
        ax.set_xlabel(_("still standing at the end (share of fights that ended)"))
        ax.set_title(_("Survival per unit"))
        out["units"] = _png(fig)
    return out


def _axis_label(path: str) -> str:
    return _short(path, 40)


def _numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def line_positions(values: Sequence[Any]) -> list[float]:
    """Where each value of a one-path sweep stands on the x axis: at its value when every value is a
    number (1, 2, 5, 10 spaced as numbers), else one slot each in order."""
    return [float(v) for v in values] if _numeric(values) else [float(i) for i in range(len(values))]


def sweep_lines(result: SweepResult) -> bytes:
    """One varied path: each side's win rate (and draws) against the path's values, 95% bands; a
    numeric path is drawn to scale (1, 2, 5, 10 where they lie), an invalid cell has no point; a ring
    marks a cell that differs significantly from the baseline (paired on the same seeds)."""
    with _words():
        return _sweep_lines(result)


def _sweep_lines(result: SweepResult) -> bytes:
    plt = _pyplot()
    done = [c for c in result.cells if c.result is not None]
    values = [c.values[0][1] for c in done]
    numeric = _numeric(values)
    x = line_positions(values)
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    names = result.side_names()
    for i, side in enumerate(result.sides):
        ys, los, his = [], [], []
        for c in done:
            assert c.result is not None
            s = next((t for t in c.result.sides if t.id == side), None)
            ys.append(s.wins.share if s else 0.0)
            los.append(s.wins.ci95[0] if s else 0.0)
            his.append(s.wins.ci95[1] if s else 0.0)
        color = PALETTE[i % len(PALETTE)]
        ax.plot(x, ys, marker="o", color=color, label=wins_label(_short(names.get(side, side))))
        ax.fill_between(x, los, his, color=color, alpha=0.2)
        if side == result.side:
            marked = [
                (xi, y) for xi, y, c in zip(x, ys, done, strict=True) if c.versus and c.versus.significant
            ]
            if marked:
                ax.scatter(
                    [m[0] for m in marked], [m[1] for m in marked], s=140, facecolors="none",
                    edgecolors="black", linewidths=1.2, zorder=5, label=_("differs from the baseline"),
                )  # fmt: skip
    draws = [c.result.draws.share for c in done if c.result is not None]
    if any(d > 0 for d in draws):
        ax.plot(x, draws, marker=".", color="#9c9c9c", linestyle="--", label=outcome_label("draws"))
    ax.axhline(0.5, color="#777777", linewidth=0.8, linestyle=":")
    if numeric:
        ax.set_xticks(x, [str(v) for v in values]) if len(x) <= 20 else None
    else:
        ax.set_xticks(x, [str(v) for v in values])
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(_percent())
    ax.set_xlabel(_axis_label(result.paths[0]))
    ax.set_ylabel(_("win rate (bands: 95% Wilson)"))
    ax.set_title(
        pgettext("lab", "{scenario}: {fights} per value").format(
            scenario=_short(translate_text(result.scenario), 50), fights=_fights_label(result)
        )
    )
    ax.legend(loc="best", fontsize="small")
    ax.grid(alpha=0.3)
    return _png(fig)


def _percent() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0, decimals=0)


def _fights_label(result: SweepResult) -> str:
    played = [c.result.fights for c in result.cells if c.result is not None]
    if played and min(played) != max(played):
        return pgettext("lab", "{low} to {high} fights").format(
            low=f"{min(played):,}", high=f"{max(played):,}"
        )
    return pgettext("lab", "{fights} fights").format(fights=f"{result.fights:,}")


def _heat(
    ax: Any,
    grid: Sequence[Sequence[float | None]],
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    vmin: float,
    vmax: float,
    cmap: str,
    fmt: str,
) -> Any:
    data = [[math.nan if v is None else float(v) for v in row] for row in grid]
    im = ax.imshow(data, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto", origin="lower")  # NaN: no colour
    ax.set_facecolor("#d9d9d9")
    ax.set_xticks(range(len(cols)), cols)
    ax.set_yticks(range(len(rows)), rows)
    if len(rows) * len(cols) <= 400:
        for i in range(len(rows)):
            for j in range(len(cols)):
                v = data[i][j]
                if math.isnan(v):
                    ax.text(
                        j,
                        i,
                        pgettext("lab", "invalid"),
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="#555555",
                    )
                    continue
                r, g, b, _alpha = im.cmap(im.norm(v))
                dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5  # white text on a dark cell
                ax.text(
                    j,
                    i,
                    format(v, fmt),
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if dark else "black",
                )
    return im


def sweep_heatmap(result: SweepResult, side: str) -> bytes:
    """Two varied paths: ``side``'s win rate over the grid (first path up, second across), the 50%
    contour, and a black frame round each cell that differs significantly from the baseline (a
    dashed one round the baseline itself)."""
    with _words():
        return _sweep_heatmap(result, side)


def _sweep_heatmap(result: SweepResult, side: str) -> bytes:
    plt = _pyplot()
    rows = [str(v) for v in result.values[0]]
    cols = [str(v) for v in result.values[1]]
    grid: list[list[float | None]] = [[None] * len(cols) for _ in rows]
    for c in result.cells:
        i, j = divmod(c.index, len(cols))
        if c.result is not None:
            s = next((t for t in c.result.sides if t.id == side), None)
            grid[i][j] = s.wins.share if s else 0.0
    fig, ax = plt.subplots(figsize=(1.6 + 0.75 * max(4, len(cols)), 1.4 + 0.45 * max(4, len(rows))))
    im = _heat(ax, grid, rows, cols, vmin=0.0, vmax=1.0, cmap="RdBu", fmt=".1%")
    lined = False  # the 50% contour is drawn only where the grid crosses it
    if len(rows) > 1 and len(cols) > 1:
        data = [[math.nan if v is None else v for v in row] for row in grid]
        lo = min(v for row in data for v in row if not math.isnan(v)) if any(
            not math.isnan(v) for row in data for v in row) else 0.5  # fmt: skip
        hi = max((v for row in data for v in row if not math.isnan(v)), default=0.5)
        if lo < 0.5 < hi:
            ax.contour(range(len(cols)), range(len(rows)), data, levels=[0.5], colors="black", linewidths=2)
            lined = True
    from matplotlib.patches import Rectangle

    framed = dashed = False
    for c in result.cells:
        i, j = divmod(c.index, len(cols))
        if c.versus is not None and c.versus.significant:
            ax.add_patch(Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False, edgecolor="black", lw=1.6))
            framed = True
        if result.baseline is not None and result.baseline.index == c.index:
            ax.add_patch(
                Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False, edgecolor="black", lw=1.2, ls="--")
            )
            dashed = True
    name = _short(translate_text(result.side_names().get(side, side)))
    fig.colorbar(im, ax=ax, label=pgettext("lab", "{name} win rate").format(name=name), format=_percent())
    ax.set_ylabel(_axis_label(result.paths[0]))
    ax.set_xlabel(_axis_label(result.paths[1]))
    title = _("{name} win rate, {fights} per cell").format(name=name, fights=_fights_label(result))
    ax.set_title(_heatmap_title(title, lined, framed, dashed), fontsize=10)
    return _png(fig)


def _heatmap_title(title: str, lined: bool, framed: bool, dashed: bool) -> str:
    """The title, and a note of each mark the map shows — only of those it shows."""
    notes = []
    if lined:
        notes.append(_("line: 50%"))
    if framed:
        notes.append(_("framed: differs from the baseline") + (_(" (dashed)") if dashed else ""))
    elif dashed:
        notes.append(_("dashed: the baseline"))
    return f"{title}\n({'; '.join(notes)})" if notes else title


def solve_plot(result: Any) -> bytes:
    """``kassen lab solve``: the side's win rate at each value tried (95% Wilson bars), the target, and
    the answer with its interval (a band)."""
    with _words():
        return _solve_plot(result)


def _solve_plot(result: Any) -> bytes:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    xs = [p.value for p in result.points]
    ys = [p.rate for p in result.points]
    err = [[p.rate - p.ci95[0] for p in result.points], [p.ci95[1] - p.rate for p in result.points]]
    who = wins_label(_short(result.side_name))
    ax.errorbar(xs, ys, yerr=err, marker="o", color=PALETTE[0], capsize=3, label=who)
    goal = pgettext("lab", "target {rate}").format(rate=f"{result.target:.1%}")
    ax.axhline(result.target, color=PALETTE[1], linestyle="--", linewidth=1, label=goal)
    if result.answer is not None:
        if result.interval is not None:
            ax.axvspan(*result.interval, color=PALETTE[1], alpha=0.15, label=_("answer, 95% interval"))
        ax.axvline(result.answer, color=PALETTE[1], linewidth=1.5)
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(_percent())
    ax.set_xlabel(_axis_label(result.path))
    ax.set_ylabel(_("win rate (bars: 95% Wilson)"))
    ax.set_title(
        _("{scenario}: {fights} fights per value tried").format(
            scenario=_short(translate_text(result.scenario), 40), fights=f"{result.fights:,}"
        )
    )
    ax.legend(loc="best", fontsize="small")
    ax.grid(alpha=0.3)
    return _png(fig)


def sensitivity_plot(result: Any) -> bytes:
    """``kassen lab sensitivity``: each path's effect as a bar, the most important on top (Morris
    ``mu_star`` with its 95% interval, or Sobol' ``ST`` beside ``S1``)."""
    with _words():
        return _sensitivity_plot(result)


def _sensitivity_plot(result: Any) -> bytes:
    plt = _pyplot()
    side = _short(translate_text(result.side_name))
    effects = list(result.effects)
    fig, ax = plt.subplots(figsize=(6.4, 0.9 + 0.45 * len(effects)))
    y = list(range(len(effects)))[::-1]
    labels = [_short(e.path, 40) for e in effects]
    if result.method == "morris":
        sizes = [e.mu_star or 0.0 for e in effects]
        ax.barh(y, sizes, xerr=[e.mu_star_conf or 0.0 for e in effects], color=PALETTE[0], capsize=3)
        ax.set_xlabel(_("change in {side}'s win rate across the path's range (Morris mu*)").format(side=side))
        ax.xaxis.set_major_formatter(_percent())
    else:
        st, s1 = [e.st or 0.0 for e in effects], [e.s1 or 0.0 for e in effects]
        ax.barh([v + 0.2 for v in y], st, height=0.4, color=PALETTE[0], label="ST")
        ax.barh([v - 0.2 for v in y], s1, height=0.4, color=PALETTE[2], label="S1")
        ax.set_xlabel(_("share of the variance of {side}'s win rate (Sobol')").format(side=side))
        ax.legend(loc="best", fontsize="small")
    ax.set_yticks(y, labels)
    ax.set_title(
        _("{scenario}: what moves {side}'s win rate").format(
            scenario=_short(translate_text(result.scenario), 40), side=side
        )
    )
    ax.grid(alpha=0.3, axis="x")
    return _png(fig)


def exact_heatmap(table: ExactTable, metric: str) -> bytes:
    """One metric of an exact table as a heat map (a one-axis table as bars)."""
    with _words():
        return _exact_heatmap(table, metric)


def _metric_words(metric: str) -> str:
    shown = metric_label(metric)
    return metric.replace("_", " ") if shown == metric else shown


def _exact_heatmap(table: ExactTable, metric: str) -> bytes:
    plt = _pyplot()
    title = translate_text(table.title)
    grid = [[float(v) if v is not None else None for v in row] for row in table.metric(metric)]
    top = max((v for row in grid for v in row if v is not None), default=1.0) or 1.0
    expected = metric.startswith("expected")
    # Rare outcomes (fumbles, critical failures) get a scale they can be read on.
    vmax = top if expected else next((c for c in (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5) if top <= c), 1.0)
    if not table.column_name:
        fig, ax = plt.subplots(figsize=(6.4, 3.4))
        ax.bar(list(table.rows), [row[0] or 0.0 for row in grid], color=PALETTE[0])
        ax.set_xlabel(axis_label(table.row_name, table.ruleset))
        ax.set_ylabel(_metric_words(metric))
        ax.set_ylim(0, vmax)
        ax.set_title(_short(title, 70))
        return _png(fig)
    width = 1.6 + 0.42 * max(6, len(table.columns))
    height = 1.4 + 0.32 * max(6, len(table.rows))
    fig, ax = plt.subplots(figsize=(min(width, 22), min(height, 22)))
    fmt = ".2f" if expected else (".1%" if vmax <= 0.1 else ".0%")
    im = _heat(ax, grid, table.rows, table.columns, vmin=0.0, vmax=vmax, cmap="viridis", fmt=fmt)
    fig.colorbar(im, ax=ax, label=_metric_words(metric))
    ax.set_ylabel(axis_label(table.row_name, table.ruleset))
    ax.set_xlabel(axis_label(table.column_name, table.ruleset))
    ax.set_title(_("{title}: {metric}").format(title=_short(title, 60), metric=_metric_words(metric)))
    return _png(fig)
