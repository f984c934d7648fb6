"""Settings shared by the whole suite: the fuzz suite's Hypothesis profiles (tests/fuzz).

``fuzz-quick`` runs in ``make test`` (a few examples per target, the whole fuzz suite well under a
minute); ``fuzz-long`` runs behind the ``slow`` marker (``make test-slow``), at least 20,000 generated
inputs over every target. ``KASSEN_FUZZ_EXAMPLES=N`` overrides the long run's examples per target.
Other property tests keep Hypothesis's default profile.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

#: No deadline per example (a fight takes its time; the fuzz suite checks its own 2 s bound and counts
#: what passes it), no database (each run generates afresh, nothing written under the project).
_COMMON = {
    "deadline": None,
    "database": None,
    "derandomize": False,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
}
settings.register_profile("fuzz-quick", max_examples=12, **_COMMON)  # type: ignore[arg-type]
settings.register_profile(
    "fuzz-long",
    max_examples=int(os.environ.get("KASSEN_FUZZ_EXAMPLES", "0")) or 2_500,
    **_COMMON,  # type: ignore[arg-type]
)
