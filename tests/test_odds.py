"""Exact odds (fuego.dice.odds) against brute force, hand-known values, and the seeded roller."""

from __future__ import annotations

import bisect
import itertools
import math
import random
import subprocess
import sys
import time
from fractions import Fraction
from statistics import NormalDist

import pytest

from fuego.dice import odds
from fuego.dice.roller import Plain, Pool, Roller, parse, parse_pool
from fuego.errors import DiceError, LimitError
from fuego.rules.formulas import fire_tn, raise_bonus, with_raises


# -- an independent brute force -------------------------------------------------------------------
def chain(depth: int) -> list[tuple[int, Fraction]]:
    """One d10 with ten again, the chain cut after ``depth`` extra rolls (the cut keeps its value)."""
    out = [(face, Fraction(1, 10)) for face in range(1, 10)]
    if depth == 0:
        return out + [(10, Fraction(1, 10))]
    return out + [(10 + v, p / 10) for v, p in chain(depth - 1)]


def brute_distribution(rolled: int, kept: int, *, explode: bool, depth: int = 3) -> dict[int, Fraction]:
    """Every combination of faces (chains cut at ``depth``), the highest ``kept`` summed."""
    faces = chain(depth) if explode else [(f, Fraction(1, 10)) for f in range(1, 11)]
    dist: dict[int, Fraction] = {}
    for combo in itertools.product(faces, repeat=rolled):
        total = sum(sorted((v for v, _ in combo), reverse=True)[:kept])
        dist[total] = dist.get(total, Fraction(0)) + math.prod(p for _, p in combo)
    return dist


def brute_chance(dist: dict[int, Fraction], target: int) -> float:
    return float(sum(p for total, p in dist.items() if total >= target))


@pytest.mark.parametrize(("rolled", "kept"), [(1, 1), (2, 1), (2, 2), (3, 2), (3, 1), (3, 0)])
def test_chance_matches_brute_force_with_ten_again(rolled: int, kept: int) -> None:
    pool = Pool(rolled, kept)
    dist = brute_distribution(rolled, kept, explode=True)
    assert sum(dist.values()) == 1
    for target in range(0, 45):
        expected = brute_chance(dist, target)
        # The brute force cuts chains after 3 extra rolls: it is off by at most 3e-4 per die.
        assert odds.chance(pool, target) == pytest.approx(expected, abs=1e-3), target


@pytest.mark.parametrize(("rolled", "kept"), [(1, 1), (2, 1), (3, 2), (4, 2), (4, 4)])
def test_chance_is_exact_without_ten_again(rolled: int, kept: int) -> None:
    pool = Pool(rolled, kept, explode=False)
    dist = brute_distribution(rolled, kept, explode=False)
    assert {t: float(p) for t, p in dist.items()} == pytest.approx(odds.distribution(pool), abs=1e-12)
    for target in range(0, 42):
        expected = brute_chance(dist, target)
        assert odds.chance(pool, target) == pytest.approx(expected, abs=1e-12), target


def test_hand_known_values() -> None:
    assert odds.chance(Pool(1, 1), 11) == pytest.approx(0.1, abs=1e-9)  # first die a 10
    assert odds.chance(Pool(1, 1), 10) == pytest.approx(0.1, abs=1e-9)
    assert odds.chance(Pool(1, 1), 21) == pytest.approx(0.01, abs=1e-9)  # 10, 10, anything
    assert odds.chance(Pool(1, 1, explode=False), 11) == 0.0
    assert odds.chance(Pool(1, 1, explode=False), 10) == pytest.approx(0.1)
    assert odds.chance(Pool(2, 1, explode=False), 10) == pytest.approx(0.19)  # 1 - 0.9**2
    assert odds.chance(Pool(2, 2, explode=False), 20) == pytest.approx(0.01)
    assert odds.chance(Pool(5, 3), 0) == 1.0
    assert odds.chance(Pool(3, 0), 1) == 0.0 and odds.chance(Pool(3, 0, 4), 4) == 1.0
    # One die with ten again averages 5.5 / 0.9.
    assert odds.mean(Pool(1, 1)) == pytest.approx(5.5 / 0.9, abs=1e-6)
    assert odds.mean(Pool(10, 10, 50)) == pytest.approx(10 * 5.5 / 0.9 + 50, abs=1e-5)
    assert odds.mean(Pool(5, 5, explode=False)) == pytest.approx(27.5)


def test_raises_add_five_each() -> None:
    assert with_raises(20, 2) == 30 and raise_bonus(3) == 15
    assert with_raises(fire_tn(4), 1) == 25  # slip past a 4-die fire with a raise called


@pytest.mark.parametrize("expr", ["12k6", "15k10", "11k11", "3k0", "7k4", "5k3!", "2k1", "4k2+5"])
def test_distribution_is_a_distribution(expr: str) -> None:
    pool = parse_pool(expr)
    dist = odds.distribution(pool)
    assert math.fsum(dist.values()) == pytest.approx(1.0, abs=1e-9)
    assert all(p > 0 for p in dist.values())
    assert list(dist) == sorted(dist)
    # The ten-dice rule is applied: the folded pool has the same distribution.
    assert dist == odds.distribution(pool.normalized())
    assert odds.mean(pool) == pytest.approx(sum(t * p for t, p in dist.items()))
    last = 1.0
    for target in range(min(dist) - 1, max(dist) + 2):
        now = odds.chance(pool, target)
        assert now <= last + 1e-12
        last = now


def test_keeping_zero_is_the_bonus() -> None:
    assert odds.distribution(Pool(3, 0)) == {0: 1.0}
    assert odds.distribution(Pool(3, 0, 7)) == {7: 1.0}
    assert odds.distribution(Pool(0, 0, -2)) == {-2: 1.0}


def test_distribution_is_a_copy_and_cached() -> None:
    first = odds.distribution(Pool(5, 3))
    first[999] = 1.0
    assert 999 not in odds.distribution(Pool(5, 3))
    start = time.perf_counter()
    for _ in range(2000):
        odds.chance(Pool(5, 3), 25)
    assert time.perf_counter() - start < 0.5


def test_huge_pools_fold_and_are_cheap() -> None:
    start = time.perf_counter()
    pool = parse("1000k1000+10000")
    assert odds.chance(pool, 1000) == 1.0
    assert odds.mean(pool) == pytest.approx(10 * 5.5 / 0.9 + 29_800, abs=1e-4)
    assert odds.chance(parse("1000k3"), 60) == odds.chance(Pool(10, 10, 9930), 60)
    assert time.perf_counter() - start < 5


def test_plain_dice() -> None:
    assert odds.distribution(Plain(2, 6))[7] == pytest.approx(6 / 36)
    assert odds.chance(Plain(2, 6), 8) == pytest.approx(15 / 36)
    assert odds.chance(Plain(1, 10, 1), 11) == pytest.approx(0.1)
    assert odds.mean(Plain(3, 6, 2)) == pytest.approx(12.5)
    with pytest.raises(LimitError):
        odds.distribution(Plain(1000, 1000))


def test_not_a_pool() -> None:
    with pytest.raises(DiceError):
        odds.distribution("5k3")  # type: ignore[arg-type]


def test_icepool_is_imported_only_when_needed() -> None:
    code = (
        "import sys, fuego.dice.odds, fuego.cli, fuego.cli.roll, fuego.cli.odds, fuego.cli.firestats\n"
        "assert 'icepool' not in sys.modules, 'icepool imported at start'\n"
        "assert 'rich' not in sys.modules, 'rich imported at start'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# -- the roller's samples follow the exact distribution ----------------------------------------
def chi_square_check(samples: list[int], dist: dict[int, float],
                     alpha: float = 1e-3) -> tuple[float, float, bool]:
    """Chi-square goodness of fit, adjacent totals merged until every bin expects >= 5.

    Returns (statistic, critical value at ``alpha``, passed). The critical value uses the
    Wilson-Hilferty approximation, so no scipy is needed.
    """
    n = len(samples)
    totals = sorted(dist)
    uppers: list[int] = []  # bin i holds totals <= uppers[i] (and > uppers[i-1])
    expected: list[float] = []
    acc = 0.0
    for t in totals:
        acc += dist[t] * n
        if acc >= 5:
            uppers.append(t)
            expected.append(acc)
            acc = 0.0
    if not expected:
        return 0.0, 0.0, all(s == totals[0] for s in samples) and len(totals) == 1
    expected[-1] += acc  # the thin tail joins the last bin, which reaches +infinity
    uppers[-1] = sys.maxsize
    observed = [0] * len(expected)
    for s in samples:
        observed[bisect.bisect_left(uppers, s)] += 1
    df = len(expected) - 1
    if df == 0:
        return 0.0, 0.0, True
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected))
    z = NormalDist().inv_cdf(1 - alpha)
    k = 2 / (9 * df)
    critical = df * (1 - k + z * math.sqrt(k)) ** 3
    return stat, critical, stat <= critical


N_SAMPLES = 20_000
STAT_POOLS = ["12k6", "15k10", "11k11", "3k0", "7k4", "5k3!", "2k1"]


@pytest.mark.parametrize("expr", STAT_POOLS)
def test_roller_matches_exact_distribution(expr: str) -> None:
    pool = parse_pool(expr)
    roller = Roller(20240601)
    samples = [roller.total(pool) for _ in range(N_SAMPLES)]
    stat, critical, ok = chi_square_check(samples, odds.distribution(pool))
    assert ok, f"{expr}: chi-square {stat:.1f} > {critical:.1f}"


@pytest.mark.parametrize("expr", ["7k4", "10k10+5", "4k2!", "1k1"])
def test_a_batch_matches_exact_distribution(expr: str) -> None:
    # one batch of many rolls at once (Roller.pools), as a burning city draws them
    pool = parse(expr)
    assert isinstance(pool, Pool)
    samples = Roller(99).pools(pool, N_SAMPLES).totals.tolist()
    stat, critical, ok = chi_square_check(samples, odds.distribution(pool))
    assert ok, f"{expr}: chi-square {stat:.1f} > {critical:.1f}"


def test_action_dice_faces_are_uniform() -> None:
    # the phases: each face 1-10 equally likely, the dice of a roll independent
    roller = Roller(5)
    faces = [f for _ in range(4000) for f in roller.action_dice(3)]
    dist = {f: 0.1 for f in range(1, 11)}
    stat, critical, ok = chi_square_check(faces, dist)
    assert ok, f"chi-square {stat:.1f} > {critical:.1f}"


# Deliberately wrong rollers: the same check must reject each of them.
def wrong_d20_style(rng: random.Random, rolled: int, kept: int, bonus: int) -> int:
    """A 10 adds a *new* die to the pool instead of adding to the same die."""
    values, to_roll = [], rolled
    while to_roll:
        to_roll -= 1
        face = rng.randint(1, 10)
        values.append(face)
        if face == 10:
            to_roll += 1
    return sum(sorted(values, reverse=True)[:kept]) + bonus


def wrong_no_explode(rng: random.Random, rolled: int, kept: int, bonus: int) -> int:
    return sum(sorted((rng.randint(1, 10) for _ in range(rolled)), reverse=True)[:kept]) + bonus


def wrong_reroll_replaces(rng: random.Random, rolled: int, kept: int, bonus: int) -> int:
    """A 10 is rolled again, but the new face replaces the 10 instead of adding to it."""
    values = []
    for _ in range(rolled):
        face = rng.randint(1, 10)
        while face == 10:
            face = rng.randint(1, 10)
            if face != 10:
                break
        values.append(face)
    return sum(sorted(values, reverse=True)[:kept]) + bonus


@pytest.mark.parametrize(
    ("expr", "wrong"),
    [
        ("7k4", wrong_d20_style),
        ("2k1", wrong_no_explode),
        ("7k4", wrong_no_explode),
        ("5k3", wrong_reroll_replaces),
        ("2k1", wrong_d20_style),
    ],
    ids=lambda v: getattr(v, "__name__", v),
)
def test_check_rejects_wrong_rollers(expr: str, wrong) -> None:
    pool = parse_pool(expr)
    rng = random.Random(20240601)
    samples = [wrong(rng, pool.rolled, pool.kept, pool.bonus) for _ in range(N_SAMPLES)]
    _, _, ok = chi_square_check(samples, odds.distribution(pool))
    assert not ok


def test_check_rejects_a_roller_without_the_ten_dice_rule() -> None:
    # 12k6 kept as 12k6 (not folded to 10k8) totals far less.
    rng = random.Random(7)
    samples = []
    for _ in range(N_SAMPLES):
        values = []
        for _ in range(12):
            value = face = rng.randint(1, 10)
            while face == 10:
                face = rng.randint(1, 10)
                value += face
            values.append(value)
        samples.append(sum(sorted(values, reverse=True)[:6]))
    _, _, ok = chi_square_check(samples, odds.distribution(Pool(12, 6)))
    assert not ok
