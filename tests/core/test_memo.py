"""The memo the rules remember their pure readings in (:mod:`kassen.core.memo`): bounded, keyed by value,
safe to share between threads, and per thread where a helper fills itself as it is used."""

from __future__ import annotations

import copy
import pickle
import sys
import threading
from collections.abc import Iterator

import pytest

from kassen.core.memo import Memo, PerThread


def test_a_memo_forgets_its_older_half_when_full() -> None:
    memo: Memo[int, int] = Memo(4)
    for n in range(4):
        assert memo.put(n, n * n) == n * n
    assert len(memo) == 4
    memo[4] = 16  # full: 0 and 1 go, the newest stay
    assert sorted(memo) == [2, 3, 4]
    memo[3] = 0  # a key it holds is replaced, nothing forgotten
    assert dict(memo) == {2: 4, 3: 0, 4: 16}
    with pytest.raises(ValueError):
        Memo(0)


def test_a_copy_of_a_memo_starts_empty() -> None:
    memo: Memo[str, int] = Memo(8)
    memo["a"] = 1
    for other in (copy.copy(memo), copy.deepcopy(memo), pickle.loads(pickle.dumps(memo))):
        assert isinstance(other, Memo) and len(other) == 0 and other.limit == 8
        other["b"] = 2  # with a lock of its own
    assert dict(memo) == {"a": 1}


@pytest.fixture
def switching_often() -> Iterator[None]:
    was = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(was)


def test_threads_writing_one_memo_never_see_it_half_forgotten(switching_often: None) -> None:
    # many threads fill one small memo at once, each forgetting while the others write and read: every
    # answer read is the one written for its key, and the memo stays within its bound
    memo: Memo[tuple[int, int], int] = Memo(16)
    errors: list[BaseException] = []

    def fill(t: int) -> None:
        try:
            for i in range(3000):
                key = (t, i % 40)
                found = memo.get(key)
                assert found is None or found == key[0] * 1000 + key[1]
                memo[key] = key[0] * 1000 + key[1]
                assert len(memo) <= 16
        except BaseException as exc:  # reported below, from the main thread
            errors.append(exc)

    threads = [threading.Thread(target=fill, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors


def test_per_thread_values_are_made_once_for_each_thread() -> None:
    made: list[int] = []
    scratch: PerThread[list[int]] = PerThread(lambda: made.append(threading.get_ident()) or [])
    mine = scratch.value
    assert scratch.value is mine
    seen: list[list[int]] = []
    th = threading.Thread(target=lambda: seen.append(scratch.value))
    th.start()
    th.join()
    assert seen[0] is not mine and len(made) == 2
