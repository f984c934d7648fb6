"""What the lab's commands print, in the reader's language: a run's and a sweep's tables, the answers
under several policies, an exact table; and the checks of ``--out``/``--format`` before anything runs.
Columns are padded by the width a terminal gives the text (a Japanese character takes two)."""

from __future__ import annotations

__all__ = [
    "ci_text",
    "mean_text",
    "pad_text",
    "pct_text",
    "prepare",
    "print_run",
    "print_sweep",
    "report_policies",
    "say",
    "show_table",
    "text_width",
    "wrote",
]

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kassen.cli.common import emit_json
from kassen.i18n import _, pgettext, translate_text, use_language
from kassen.lab.limits import LabError

if TYPE_CHECKING:
    from kassen.lab.grid import SweepResult
    from kassen.lab.odds import ExactTable
    from kassen.lab.output import Format
    from kassen.lab.results import RunResult


def say(line: str = "") -> None:
    sys.stdout.write(line + "\n")


def pct_text(x: float | None) -> str:
    return pgettext("lab", "n/a") if x is None else f"{x:.1%}"


def mean_text(mean: float | None, ci: tuple[float, float] | None) -> str:
    if mean is None:
        return pgettext("lab", "n/a")
    return f"{mean:.2f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")


def ci_text(ci: tuple[float, float]) -> str:
    return f"[{ci[0]:.1%}, {ci[1]:.1%}]"


# -- checks before anything runs --------------------------------------------------------------------------
def prepare(out: Path | None, fmt: str, plots: bool, kind: str) -> Format:
    from kassen.lab.output import check_format, prepare_out

    chosen = check_format(fmt)
    if out is not None:
        prepare_out(out, kind)
        if plots:
            from kassen.lab.plots import check_matplotlib

            check_matplotlib()
            _font_warning()
    return chosen


def _font_warning() -> None:
    """One line on stderr when the plots cannot be worded in the reader's language (no Japanese font),
    instead of Python's warning from each plot."""
    import warnings

    from kassen.lab.plots import FontWarning, font_problem

    problem = font_problem()
    if problem is not None:
        sys.stderr.write(_("kassen: warning: {problem}").format(problem=problem) + "\n")
        warnings.simplefilter("ignore", FontWarning)


def wrote(out: Path, files: Sequence[Path]) -> None:
    say(pgettext("lab", "wrote {out}: {files}").format(out=out, files=", ".join(f.name for f in files)))


# -- run ------------------------------------------------------------------------------------------------
def print_run(result: RunResult, source: str) -> None:
    from kassen.lab.words import outcome_label
    from kassen.lab.writing import action_label, kind_label, policies_text

    last = result.seed + result.fights - 1
    say(
        _("{scenario} ({ruleset}): {fights} fights, seeds {first}..{last}").format(
            scenario=translate_text(result.scenario),
            ruleset=result.ruleset,
            fights=f"{result.fights:,}",
            first=result.seed,
            last=last,
        )
    )
    say(pgettext("lab", "policies: {policies}").format(policies=policies_text(result.policies)))

    def who(name: str, side: str) -> str:
        return pgettext("lab", "{name} ({side})").format(name=translate_text(name), side=side)

    width = max([text_width(who(s.name, s.id)) for s in result.sides] + [10])
    wins = pgettext("lab", "wins")
    for s in result.sides:
        name = who(s.name, s.id) if s.name != s.id else s.id
        say(
            f"  {pad_text(name, width)}  {wins} {s.wins.count:>7,}  {pct_text(s.wins.rate):>6}  "
            f"95% {ci_text(s.wins.ci95)}"
        )
    d, t, e = result.draws, result.timeouts, result.errors
    blank = " " * text_width(wins)
    say(
        f"  {pad_text(outcome_label('draws'), width)}  {blank} {d.count:>7,}  {pct_text(d.rate):>6}  "
        f"95% {ci_text(d.ci95)}"
    )
    if t.count or e.count:
        say(
            _("  time-outs {timeouts}, errors {errors} (counted apart from draws)").format(
                timeouts=f"{t.count:,}", errors=f"{e.count:,}"
            )
        )
    r = result.rounds
    if r.count:
        q = dict(r.quantiles)
        say(
            _("rounds: mean {mean}, median {median}, 5%..95% {low}..{high}, min {min}, max {max}").format(
                mean=f"{r.mean:.2f}", median=q[50], low=q[5], high=q[95], min=r.minimum, max=r.maximum
            )
        )
    if result.units:
        say(_("units (over the fights that ended; per fight with 95% intervals):"))
        uw = max(text_width(who(u.name, u.side)) for u in result.units)
        for u in result.units:
            say(
                _("  {unit}  standing {standing} {interval}  Wounds dealt {dealt}, taken {taken}").format(
                    unit=pad_text(who(u.name, u.side), uw),
                    standing=f"{pct_text(u.standing.rate):>6}",
                    interval=ci_text(u.standing.ci95),
                    dealt=mean_text(u.dealt.mean, u.dealt.ci95),
                    taken=mean_text(u.taken.mean, u.taken.ci95),
                )
            )
    if result.unit_actions:
        say(_("actions per unit (success intervals clustered by fight):"))
        names = {u.id: translate_text(u.name) for u in result.units}

        def label_of(a: Any) -> str:
            return f"{names.get(a.unit or '', a.unit)}: {action_label(a.action)}"

        aw = max(text_width(label_of(a)) for a in result.unit_actions)
        for a in result.unit_actions:
            per = (
                f"{a.per_fight:6.2f}"
                if a.per_fight is not None
                else pad_text(pgettext("lab", "n/a"), 6, True)
            )
            values = {"action": pad_text(label_of(a), aw), "per": per, "kind": kind_label(a.kind)}
            ok = a.success
            if ok is not None:
                values |= {
                    "rate": pct_text(ok.rate),
                    "attempts": f"{ok.attempts:,}",
                    "interval": ci_text(ok.ci95),
                }
                if a.kind != "maneuver":
                    line = _("  {action}  {per} per fight ({kind}), success {rate} of {attempts} {interval}")
                else:
                    line = _("  {action}  {per} per fight, success {rate} of {attempts} {interval}")
            elif a.kind != "maneuver":
                line = _("  {action}  {per} per fight ({kind})")
            else:
                line = _("  {action}  {per} per fight")
            say(line.format(**values))
    if result.first_errors:
        seed, message = result.first_errors[0]
        say(_("first error (seed {seed}): {message}").format(seed=seed, message=translate_text(message)))
    from kassen.lab.sentences import run_sentence
    from kassen.lab.writing import replay_text

    say(
        pgettext("lab", "replay: {replay}").format(
            replay=replay_text(source, result.seed, result.fights, result.policies)
        )
    )
    say(run_sentence(result, result.sequential.side if result.sequential else None))


def text_width(text: str) -> int:
    """Columns ``text`` takes on a terminal (a Japanese character takes two)."""
    from rich.cells import cell_len

    return cell_len(text)


def pad_text(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` terminal columns (left-aligned, or right)."""
    fill = " " * max(0, width - text_width(text))
    return fill + text if right else text + fill


# -- sweep ----------------------------------------------------------------------------------------------
def print_sweep(result: SweepResult, side: str | None) -> None:
    from kassen.lab.sentences import verdict_word

    say(
        _("{scenario} ({ruleset}): {cells} cells x {fights} fights, seeds {first}..{last} in each").format(
            scenario=translate_text(result.scenario),
            ruleset=result.ruleset,
            cells=len(result.cells),
            fights=f"{result.fights:,}",
            first=result.seed,
            last=result.seed + result.fights - 1,
        )
    )
    sides = [side] if side else list(result.sides)
    names = {k: translate_text(v) for k, v in result.side_names().items()}
    head = "  ".join(
        [
            *(f"{p[-24:]:>12}" for p in result.paths),
            *(pad_text(names.get(s, s)[:18], 24, True) for s in sides),
        ]
    )
    compared = names.get(result.side or "", result.side)
    versus = ""
    if result.baseline is not None:
        versus = "  " + pad_text(pgettext("lab", "{side} vs baseline").format(side=compared)[:30], 30, True)
    columns = [pgettext("lab", "draws"), pgettext("lab", "rounds"), pgettext("lab", "fights")]
    say(
        f"{head}{versus}  {pad_text(columns[0], 6, True)}  {pad_text(columns[1], 6, True)}  "
        f"{pad_text(columns[2], 7, True)}"
    )
    for c in result.cells:
        vals = "  ".join(f"{str(v)[:12]:>12}" for _p, v in c.values)
        if c.result is None:
            say(
                _("{values}  invalid, skipped: {error}").format(
                    values=vals, error=translate_text(c.error)[:150]
                )
            )
            continue
        cols = []
        for s in sides:
            st = next((x for x in c.result.sides if x.id == s), None)
            cols.append(f"{pct_text(st.wins.rate) + ' ' + ci_text(st.wins.ci95) if st else '-':>24}")
        mean = c.result.rounds.mean
        rounds = f"{mean:6.2f}" if mean is not None else "     -"
        tag = "  " + _("(resumed)") if c.resumed else ""
        seq = c.result.sequential
        if seq is not None:
            stopped = (
                verdict_word(seq.verdict) if seq.verdict else
                (pgettext("lab", "met") if seq.met else pgettext("lab", "at limit"))
            )  # fmt: skip
            tag += f"  ({stopped})"
        vs = ""
        if result.baseline is not None:
            d = c.versus
            text = pgettext("lab", "baseline") if result.baseline.index == c.index else "-"
            if d is not None:
                text = f"{100 * d.difference:+.1f} [{100 * d.ci95[0]:+.1f}, {100 * d.ci95[1]:+.1f}]"
                text += " *" if d.significant else "  "
            vs = "  " + pad_text(text, 30, True)
        fights = f"{c.result.fights:>7,}"
        say(f"{vals}  {'  '.join(cols)}{vs}  {pct_text(c.result.draws.rate):>6}  {rounds}  {fights}{tag}")
    from kassen.lab.sentences import sweep_sentence

    if result.baseline is not None:
        say(
            _("baseline: {baseline}; * the paired 95% interval excludes 0").format(
                baseline=translate_text(result.baseline.label())
            )
        )
    say(sweep_sentence(result))


def report_policies(
    kind: str, results: dict[str, Any], side: str | None, out: Path | None, as_json: bool
) -> None:
    """Each policy's answer, and every conclusion that changes between them (printed, and with --out a
    report.html over the policies' own folders)."""
    from kassen.lab.policies import compare_runs, compare_sweeps
    from kassen.lab.sentences import run_sentence, sweep_sentence

    def conclusions() -> tuple[list[str], dict[str, str], str]:
        if kind == "sweep":
            flags = compare_sweeps(results, side or "")
            answers = {spec: sweep_sentence(r) for spec, r in results.items()}
        else:
            flags = compare_runs(results)
            answers = {spec: run_sentence(r) for spec, r in results.items()}
        if flags:
            verdict = _("Conclusions that change with the policy: {changes}.").format(
                changes=" / ".join(flags)
            )
        elif kind == "sweep":
            verdict = _(
                "No conclusion changes between {policies}: the same side is favoured, the same cell is best "
                "and the 50% line stays."
            ).format(policies=", ".join(results))
        else:
            verdict = _("No conclusion changes between {policies}: the same side is favoured.").format(
                policies=", ".join(results)
            )
        return flags, answers, verdict

    flags, answers, verdict = conclusions()
    if out is not None:
        _policies_report(kind, results, answers, verdict, out)
    if as_json:
        with use_language("en"):  # the JSON's words are the same in every language
            flags, _answers, verdict = conclusions()
        each = {s: r.to_json() for s, r in results.items()}
        emit_json({"policies": each, "changes": flags, "answer": verdict})
        return
    for spec, text in answers.items():
        say(f"{spec}: {text}")
    say(verdict)
    if out is not None:
        folders = ", ".join(f"policy-{k}/" for k in range(1, len(results) + 1))
        say(pgettext("lab", "wrote {out}: {files}").format(out=out, files=f"report.html, {folders}"))


def _policies_report(
    kind: str, results: dict[str, Any], answers: dict[str, str], verdict: str, out: Path
) -> None:
    from kassen.lab.output import finish_out, start_out, write_text
    from kassen.lab.report import html_report

    spec = {"compares": list(results)}
    start_out(out, "policies", spec)
    sections = []
    for k, (name, text) in enumerate(answers.items(), 1):
        folder = out / f"policy-{k}"
        images = [
            (pgettext("lab", "under {policy}").format(policy=name), p.read_bytes())
            for p in sorted(folder.glob("*.png"))[:2]
        ]
        sections.append(
            (
                pgettext("lab", "Under {policy}").format(policy=name),
                None,
                images,
                _("{answer} (all files in {folder}/)").format(answer=text, folder=f"policy-{k}"),
            )
        )
    if kind == "sweep":
        title = _("kassen lab sweep under {count} policies").format(count=len(results))
    else:
        title = _("kassen lab run under {count} policies").format(count=len(results))
    meta = [
        (
            pgettext("lab", "Policies"),
            pgettext("lab sentence", "; ").join(
                _("{folder}: {policy} (every side)").format(folder=f"policy-{k}", policy=s)
                for k, s in enumerate(results, 1)
            ),
        )
    ]
    write_text(out / "report.html", html_report(title, meta, sections, verdict))
    finish_out(out, "policies", spec, [out / "report.html"])


# -- odds -----------------------------------------------------------------------------------------------
def show_table(
    table: ExactTable, metric: str | None, as_json: bool, out: Path | None, fmt: str, plots: bool
) -> None:
    from kassen.lab.api import write_odds

    chosen = prepare(out, fmt, plots, "odds")
    if metric is not None and metric not in table.metric_names:
        raise LabError(
            _("--metric {metric} is not one of {metrics}").format(
                metric=repr(metric[:30]), metrics=", ".join(table.metric_names)
            )
        )
    files = write_odds(table, out, chosen, plots=plots) if out is not None else []
    if as_json:
        emit_json(table.to_json())
        return
    name = metric or table.metric_names[0]
    grid = table.metric(name)
    from kassen.lab.words import axis_label, metric_label

    shown = metric_label(name)
    say(f"{translate_text(table.title)}: {name.replace('_', ' ') if shown == name else shown}")
    scale = name.startswith("expected")
    row_name, column_name = (
        axis_label(table.row_name, table.ruleset),
        axis_label(table.column_name, table.ruleset),
    )
    if table.column_name:
        corner = f"{row_name} \\ {column_name}"
        rw = max(text_width(corner), *(len(r) for r in table.rows))
        say(pad_text(corner, rw + 2) + "".join(f"{c:>7}" for c in table.columns))
        for r, row in zip(table.rows, grid, strict=True):
            cells = "".join(f"{_cell(v, scale):>7}" for v in row)
            say(f"{r:<{rw + 2}}{cells}")
    else:
        for r, row in zip(table.rows, grid, strict=True):
            say(f"{row_name} {r:>4}: {_cell(row[0], scale)}")
    if out is not None:
        wrote(out, files)


def _cell(value: Any, scale: bool) -> str:
    if value is None:
        return "-"
    return f"{float(value):.2f}" if scale else f"{float(value):.1%}"
