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


def test_a_mean_count_has_no_negative_bound() -> None:
    # 3 Wounds taken in one fight of 30: the normal interval reaches -0.10, a count's mean cannot
    mean, ci = mean_interval(3, 9, 30)
    assert mean == 0.1 and ci is not None
    assert ci[0] == 0.0 and 0.29 < ci[1] < 0.30
    # away from 0 the interval is the normal one, untouched
    _mean, wide = mean_interval(30, 30 * 3 + 10, 10)
    assert wide is not None and 0 < wide[0] < 3 < wide[1]


def test_differences_of_win_rates_stay_within_100_points() -> None:
    # every fight changed: the cell lost every fight the baseline won (the Wald interval said -113.9)
    for diff in (paired([0.0] * 10, [1.0] * 10), unpaired([0.0] * 10, [1.0] * 10)):
        assert diff is not None and diff.difference == -1.0
        assert diff.ci95[0] == -1.0 and -1.0 < diff.ci95[1] < 0 and diff.significant
    # every table of outcomes on up to 8 seeds: the interval holds the difference, within -1..1
    for n in range(1, 9):
        for both in range(n + 1):
            for only_a in range(n + 1 - both):
                for only_b in range(n + 1 - both - only_a):
                    neither = n - both - only_a - only_b
                    a = [1.0] * both + [1.0] * only_a + [0.0] * only_b + [0.0] * neither
                    b = [1.0] * both + [0.0] * only_a + [1.0] * only_b + [0.0] * neither
                    for diff in (paired(a, b), unpaired(a, b)):
                        assert diff is not None
                        lo, hi = diff.ci95
                        assert -1.0 <= lo <= diff.difference <= hi <= 1.0, (n, both, only_a, only_b)


def test_paired_intervals_cover_the_true_difference() -> None:
    """Outcomes that share their dice (a change turns some fights, in either direction): the paired
    interval covers the true difference about 95% of the time (as often as the normal interval of the
    per-seed differences did: 94% over 4000 runs, while never leaving -1..1)."""
    rng = random.Random(11)
    runs, covered = 1000, 0
    for _ in range(runs):
        a, b = [], []
        for _ in range(100):
            u, v = rng.random(), rng.random()
            base = u < 0.5
            turned = v < 0.15  # 15% of the fights change hands: 2/3 of them to a
            a.append(float((not base) if turned and (v < 0.10) == (not base) else base))
            b.append(float(base))
        # truth: P(a) - P(b) = P(turned to a win) - P(turned to a loss) = 0.5 * 0.10 - 0.5 * 0.05
        truth = 0.5 * 0.10 - 0.5 * 0.05
        diff = paired(a, b)
        assert diff is not None
        covered += diff.ci95[0] <= truth <= diff.ci95[1]
    print(f"paired covered {covered}/{runs}")
    assert covered >= 0.92 * runs
