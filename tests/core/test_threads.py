"""Fights on threads: ``kassen serve`` plays its fights on a thread pool in one process, so whatever the
rules remember between fights (the content's memos) is shared by every thread. Fights of every bundled
scenario of every registered ruleset (the coin-flip duel included), played on 8 threads at once with the
interpreter switching threads as often as it can, must give exactly the logs they give one at a time."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import coinflip
import pytest

from kassen.core.ruleset import register_ruleset

register_ruleset(coinflip.RULESET)  # collected before the session fixture runs

from test_fight_conformance import CASES  # noqa: E402  (needs the coin-flip duel registered)

from kassen.core.scenario import open_fight  # noqa: E402

#: Seeds each scenario is played with; every fight is played twice on the threads, in a shuffled order.
SEEDS = range(4)
THREADS = 8
NAMES = [f"{c.values[0]}/{c.values[1]}" for c in CASES]


def _log(name: str, seed: int) -> str:
    fight = open_fight(name, seed=seed)
    fight.autoplay()
    return fight.log_json()


@pytest.fixture
def switching_often() -> Iterator[None]:
    was = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # a thread switch every few bytecodes: a race shows up within a few fights
    try:
        yield
    finally:
        sys.setswitchinterval(was)


def test_fights_on_threads_give_the_logs_they_give_alone(switching_often: None) -> None:
    alone = {(name, seed): _log(name, seed) for name in NAMES for seed in SEEDS}
    jobs = [key for key in alone for _ in range(2)]
    random.Random(36).shuffle(jobs)
    with ThreadPoolExecutor(THREADS) as pool:
        logs = list(pool.map(lambda job: _log(*job), jobs))
    played = zip(jobs, logs, strict=True)
    differ = [f"{name} seed {seed}" for (name, seed), log in played if log != alone[name, seed]]
    assert not differ, f"played on threads, these fights gave other logs: {', '.join(differ)}"
