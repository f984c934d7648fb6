"""The lab's statistics (:mod:`kassen.lab.stats`) against known values and simulated truths."""

from __future__ import annotations

import random

from kassen import lab
from kassen.lab.stats import Decide, clustered, confidence_sequence, mean_interval, paired, unpaired, wilson


def test_wilson_known_values() -> None:
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    assert wilson(0, 0) == (0.0, 1.0)


def test_clustered_attempts_that_move_together_count_as_fewer() -> None:
    # 20 fights of 5 attempts each, every fight all hits or all misses: 100 attempts worth 20 fights
    attempts, successes = 100, 50
    ci, deff = clustered(attempts, successes, 20, 20 * 25, 10 * 25, 10 * 25)
    assert 4.9 < deff < 5.4  # the cluster size, times n/(n-1)
    assert ci[1] - ci[0] > 1.8 * (wilson(50, 100)[1] - wilson(50, 100)[0])
    # independent attempts (one per fight): the naive interval
    ci1, deff1 = clustered(100, 50, 100, 100, 50, 50)
    assert deff1 < 1.02  # 1 but for the small-sample factor n/(n-1)
    assert abs(ci1[0] - wilson(50, 100)[0]) < 0.002


def test_clustered_intervals_cover_where_pooled_ones_do_not() -> None:
    """Fights whose hit chance differs (a wounded fighter, a stance): attempts within one fight are
    correlated. Over 400 simulated runs the clustered interval covers the true rate about 95% of the
    time; the pooled Wilson interval, which takes the attempts as independent, covers far less."""
    rng = random.Random(7)
    runs, fights, truth = 400, 60, 0.5
    covered = pooled = 0
    for _ in range(runs):
        a = s = aa = ss = cross = 0
        for _ in range(fights):
            p = rng.choice((0.2, 0.8))  # the fight's own chance; 0.5 on average
            n = rng.randint(2, 8)
            k = sum(rng.random() < p for _ in range(n))
            a, s, aa, ss, cross = a + n, s + k, aa + n * n, ss + k * k, cross + n * k
        (lo, hi), _ = clustered(a, s, fights, aa, ss, cross)
        covered += lo <= truth <= hi
        plo, phi = wilson(s, a)
        pooled += plo <= truth <= phi
    print(f"clustered covered {covered}/{runs}, pooled {pooled}/{runs}")
    assert covered >= 0.92 * runs
    assert pooled < 0.85 * runs


def test_the_mean_per_fight_has_a_normal_interval() -> None:
    mean, ci = mean_interval(30, 30 * 3 + 10, 10)  # values 3 on average, some spread
    assert mean == 3.0 and ci is not None and ci[0] < 3.0 < ci[1]
    assert mean_interval(0, 0, 0) == (None, None)
    assert mean_interval(4, 16, 1) == (4.0, None)


def test_paired_differences_are_narrower_when_seeds_are_shared() -> None:
    rng = random.Random(3)
    a, b = [], []
    for _ in range(400):  # the same dice decide most of both outcomes
        u = rng.random()
        a.append(float(u < 0.55))
        b.append(float(u < 0.50))
    p, q = paired(a, b), unpaired(a, b)
    assert p is not None and q is not None
    assert p.difference == q.difference
    assert p.half_width < q.half_width / 2
    assert p.significant and not q.significant


def test_the_confidence_sequence_contains_the_wilson_interval_and_shrinks() -> None:
    lo, hi = confidence_sequence(50, 100)
    wlo, whi = wilson(50, 100)
    assert lo < wlo and hi > whi  # wider: it holds at every look, not one
    assert confidence_sequence(500, 1000)[1] - confidence_sequence(500, 1000)[0] < hi - lo
    assert confidence_sequence(0, 10)[0] == 0.0 and confidence_sequence(10, 10)[1] == 1.0


def test_decide_never_decides_a_coin_but_rarely_under_many_looks() -> None:
    """The anytime guarantee on a fair coin with a look after every 10 flips up to 3,000: deciding at
    all is an error, and happens at most alpha of the time."""
    rng = random.Random(11)
    test = Decide(0.5)
    wrong = 0
    runs = 300
    for _ in range(runs):
        k = n = 0
        while n < 3000:
            k += sum(rng.random() < 0.5 for _ in range(10))
            n += 10
            if test.verdict(k, n) is not None:
                wrong += 1
                break
    print(f"decided a fair coin in {wrong} of {runs} runs (alpha 5%)")
    assert wrong <= 0.05 * runs


def test_interval_rates_over_nothing_are_not_zero() -> None:
    iv = lab.Interval.of(0, 0)
    assert iv.rate is None and iv.share == 0.0
