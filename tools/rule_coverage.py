#!/usr/bin/env python3
"""Rule coverage: which rule IDs of kassen's own ledger are cited by its tests (``make coverage``).

The ledger is the package data every clone has: each ruleset's ``rules.yaml`` (the texts
``kassen rules ID`` prints). A citation is the ID appearing in a test file (a ``# rule: SG.CHK.1``
comment, a name, a docstring). Citing is not testing: the test must exercise the rule.

Usage, from the project's root: ``python tools/rule_coverage.py [--tests DIR] [--list]``. Prints one line
per ruleset and the uncited IDs; exits 1 if any ID is uncited. Contributors with the shared workspace can
cross-check against the numbered rules themselves: ``python3 ../shared/tools/rule_coverage.py``.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
ID = re.compile(r"\b(?:SG|L5|AR)\.[A-Z0-9]+\.\d+\b")
SUFFIXES = {".py", ".yaml", ".yml", ".json", ".feature", ".md"}


def ledger(src: Path) -> dict[str, list[str]]:
    """Every ruleset's rule IDs, from its ``data/rules.yaml`` (``{ruleset: ..., rules: {ID: ...}}``)."""
    out: dict[str, list[str]] = {}
    for path in sorted(src.glob("*/data/rules.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        rules = data.get("rules") or {}
        out[str(data.get("ruleset") or path.parent.parent.name)] = [k for k in rules if ID.fullmatch(k)]
    return out


def cited(tests: Path) -> set[str]:
    found: set[str] = set()
    for f in tests.rglob("*"):
        if f.is_file() and f.suffix in SUFFIXES and "golden" not in f.parts:
            found.update(ID.findall(f.read_text(encoding="utf-8", errors="replace")))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    package = str(ROOT / "src" / "kassen")
    parser.add_argument("--src", default=package, help="the package (its */data/rules.yaml)")
    parser.add_argument("--tests", default=str(ROOT / "tests"))
    parser.add_argument("--list", action="store_true", help="list every uncited ID")
    args = parser.parse_args(argv)
    book = ledger(Path(args.src))
    if not book:
        print(f"no rules.yaml under {args.src}", file=sys.stderr)
        return 2
    seen = cited(Path(args.tests))
    total = covered = 0
    for name, ids in book.items():
        missing = [i for i in ids if i not in seen]
        total += len(ids)
        covered += len(ids) - len(missing)
        shown = ", ".join(missing if args.list else missing[:8])
        more = " ..." if len(missing) > 8 and not args.list else ""
        tail = f"; uncited: {shown}{more}" if missing else ""
        print(f"{name}: {len(ids) - len(missing)}/{len(ids)} cited{tail}")
    print(f"rule coverage: {covered}/{total}")
    return 0 if covered == total else 1


if __name__ == "__main__":
    sys.exit(main())
