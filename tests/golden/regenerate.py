"""Write the golden logs: every bundled scenario of every ruleset, seeds 0-9, as chronicle JSON.

Run ``python tests/golden/regenerate.py`` only in a commit that says why the logs changed (a format
version, a rules fix): every other change must leave them byte-identical (``test_golden.py``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from golden_cases import SEEDS, cases, path_of, play  # noqa: E402


def main() -> None:
    written = 0
    for ruleset, scenario in cases():
        for seed in SEEDS:
            data = json.loads(play(ruleset, scenario, seed))
            path = path_of(ruleset, scenario, seed)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n", "utf-8")
            written += 1
    print(f"wrote {written} golden logs under {HERE}")


if __name__ == "__main__":
    main()
