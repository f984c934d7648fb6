"""Start-up benchmark: what `kassen roll` and `kassen odds` cost before the first die, and that they
import no ruleset (the ruleset commands load lazily from entry points, issue 10).

Each figure is the median CPU time (user + system, ``resource.getrusage`` of the children) of fresh
interpreters; ``import icepool`` is the baseline measured in the same run.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys

REPEATS = 7
RULESETS = ("kassen.sengoku", "kassen.l5r", "kassen.arena")


def cpu_ms(code: str) -> float:
    """Median CPU milliseconds of ``python -c code`` in a fresh interpreter."""
    times = []
    for _ in range(REPEATS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
    return statistics.median(times)


_CLI = "from kassen.cli.main import main\ntry:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
_IMPORTED = (
    "import sys\nfrom kassen.cli.main import main\ntry:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
    "print(sorted(m for m in sys.modules if m.startswith({prefixes!r})))"
)


def imported_rulesets(argv: list[str]) -> list[str]:
    code = _IMPORTED.format(argv=argv, prefixes=RULESETS)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return [m for m in eval(out.strip().splitlines()[-1]) if m.count(".") == 1]


def main() -> None:
    rows = [
        ("python -c pass", cpu_ms("pass")),
        ("import icepool (baseline)", cpu_ms("import icepool")),
        ("import kassen.dice", cpu_ms("import kassen.dice")),
        ("kassen roll 2d10 --seed 1", cpu_ms(_CLI.format(argv=["roll", "2d10", "--seed", "1"]))),
        ("kassen odds 2d10 --at-least 11", cpu_ms(_CLI.format(argv=["odds", "2d10", "--at-least", "11"]))),
        ("kassen scenarios (imports all)", cpu_ms(_CLI.format(argv=["scenarios"]))),
    ]
    width = max(len(n) for n, _ in rows)
    print(f"kassen start-up (median CPU time of {REPEATS} fresh interpreters)")
    for name, ms in rows:
        print(f"{name:<{width}}  {ms:>8.1f} ms")
    base = rows[1][1]
    print(f"{'kassen roll / import icepool':<{width}}  {rows[3][1] / base:>8.2f} x")
    for argv in (["roll", "2d10", "--seed", "1"], ["odds", "2d10", "--at-least", "11"]):
        loaded = imported_rulesets(argv)
        print(f"kassen {' '.join(argv)} imports rulesets: {', '.join(loaded) or 'none'}")
        if loaded:
            sys.exit(f"start-up regression: `kassen {argv[0]}` imports {loaded}")


if __name__ == "__main__":
    main()
