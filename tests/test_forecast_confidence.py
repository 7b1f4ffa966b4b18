"""How sure a forecast is (issue 31): Wilson intervals against published binomial cases, the
means' intervals, the runs a precision needs, and the intervals in the JSON, the terminal and
the plots."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_forecast import WALL

from fuego.cli import cli
from fuego.forecast.counts import STATUSES
from fuego.forecast.runner import forecast
from fuego.scenario.model import loads
from fuego.stats import Z95, mean_interval, newcombe, runs_for, wilson

ROOT = Path(__file__).resolve().parents[1]
TAVERN = ROOT / "campaigns" / "tavern.yaml"


# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Statistics in
# Medicine 17, table I, method 3 (the Wilson score interval without continuity correction),
# and the textbook 8 of 10 and 50 of 100, to 4 decimals.
@pytest.mark.parametrize("k, n, low, high", [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (8, 10, 0.4902, 0.9433),
    (50, 100, 0.4038, 0.5962),
])
def test_wilson_matches_the_published_intervals(k, n, low, high):
    lo, hi = wilson(k, n)
    assert round(lo, 4) == low and round(hi, 4) == high


@pytest.mark.parametrize("k, n", [(0, 7), (3, 7), (7, 7), (1, 1000), (999, 1000)])
def test_wilson_ends_are_where_the_score_test_just_accepts(k, n):
    # the interval's ends solve |k/n - p| = z * sqrt(p (1 - p) / n): a different computation
    p_hat = k / n
    for end in wilson(k, n):
        if end in (0.0, 1.0):
            assert end == (0.0 if k == 0 else 1.0)
            continue
        assert math.isclose(abs(p_hat - end), Z95 * math.sqrt(end * (1 - end) / n),
                            rel_tol=1e-9)
    lo, hi = wilson(k, n)
    assert 0 <= lo <= p_hat <= hi <= 1
    assert wilson(k, n) == pytest.approx(tuple(1 - x for x in reversed(wilson(n - k, n))))


def test_no_runs_say_nothing_and_impossible_counts_are_refused():
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(5, 4)


def test_the_mean_interval_is_the_normal_one_and_stays_in_the_values_seen():
    # 0, 1, 2 wounds in 2, 4, 4 runs: mean 1.2, sample variance 0.6222
    hist = {0: 2, 1: 4, 2: 4}
    lo, hi = mean_interval(hist, 10)
    var = (2 * 1.2 ** 2 + 4 * 0.2 ** 2 + 4 * 0.8 ** 2) / 9
    assert (lo + hi) / 2 == pytest.approx(1.2)
    assert (hi - lo) / 2 == pytest.approx(Z95 * math.sqrt(var / 10))
    assert mean_interval({3: 5}, 5) == (3.0, 3.0)
    assert mean_interval({0: 99, 1: 1}, 100)[0] == 0.0  # never below the fewest wounds


def test_runs_for_a_precision():
    assert runs_for(0.05) == 385 and runs_for(0.02) == 2401 and runs_for(0.01) == 9604
    assert runs_for(0.05, p=0.1) == 139
    # with that many runs the worst-case interval is indeed that narrow (or very nearly)
    lo, hi = wilson(385 // 2, 385)
    assert (hi - lo) / 2 <= 0.0501


@pytest.fixture(scope="module")
def hero_wall():
    text = WALL.replace("fires:", "heroes:\n  - {name: Ana, start: ground:B1}\nfires:")
    return forecast(loads(text), runs=60, rounds=3, seed=5)


def test_the_json_carries_the_interval_of_every_headline_share(hero_wall):
    data = hero_wall.to_dict()
    n = data["runs"]
    for name, h in data["heroes"].items():
        final = hero_wall.counts.hero_status[hero_wall.counts.heroes.index(name)][3]
        for key, status in (("p_escaped", "escaped"), ("p_killed", "dead"),
                            ("p_knocked_out", "knocked-out"), ("p_still_inside", "active")):
            assert h[key + "_ci95"] == [round(x, 6)
                                        for x in wilson(final[STATUSES.index(status)], n)]
            lo, hi = h[key + "_ci95"]
            assert lo <= h[key] <= hi
        lo, hi = h["mean_dramatic_wounds_ci95"]
        assert lo <= h["mean_dramatic_wounds"] <= hi
    for room in data["rooms"].values():
        assert room["p_ever_ci95"][0] <= room["p_ever"] <= room["p_ever_ci95"][1]
        assert room["p_flashover_ci95"][0] <= room["p_flashover"] <= room["p_flashover_ci95"][1]
    assert data["confidence"]["runs_for_half_width"] == {"0.01": 9604, "0.02": 2401,
                                                         "0.05": 385}
    assert data["confidence"]["widest_half_width"] == pytest.approx(
        (wilson(30, 60)[1] - wilson(30, 60)[0]) / 2, abs=1e-6)
    means = data["burning_areas_by_round"]
    for m, (lo, hi) in zip(means["mean"], means["mean_ci95"]):
        assert lo <= m <= hi
    # streamed the same
    assert json.loads("".join(hero_wall.json_chunks())) == data


def test_the_terminal_shows_the_intervals_and_the_runs_needed():
    r = CliRunner().invoke(cli, ["forecast", str(TAVERN), "--runs", "10", "--rounds", "2"],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "95% intervals in brackets (Wilson)" in r.output
    assert "+/-5 needs 385 runs" in r.output
    # a share of 0 in 10 runs reads 0% (0-28): the Wilson upper end 27.75 % rounded outwards
    assert "0% (0-28)" in r.output


def test_the_plots_shade_the_intervals(hero_wall):
    from fuego.render.forecast_plot import plot_forecast

    fig, = plot_forecast(hero_wall)
    out_ax = [ax for ax in fig.axes if ax.get_title() == "Chance the fire is out"][0]
    assert any(c.get_gid() == "band-fire-out" for c in out_ax.collections)
    key, = [leg for leg in fig.legends if leg.get_gid() == "key-panel-burning"]
    assert "mean, 95% interval" in [t.get_text() for t in key.get_texts()]


def test_the_subtitle_says_when_half_the_fuel_never_burns():
    from fuego.render.forecast_plot import plot_forecast

    # a third room of three areas: in one round at most the first two burn (18 of 45 fuel)
    text = (WALL.replace("legend: {a: a, b: b}", "  c: {name: Store, fuel: 9}\n"
                         "legend: {a: a, b: b, c: c}").replace("      ab\n", "      abccc\n"))
    result = forecast(loads(text), runs=4, rounds=1, seed=2)
    assert not result.half_fuel_reached()
    fig, = plot_forecast(result)
    texts = " ".join(t.get_text().replace("\n", " ") for t in fig.texts)
    assert "half the fuel alight" not in texts
    assert "never held half the fuel" in texts


# Newcombe (1998), "Interval estimation for the difference between independent proportions",
# Statistics in Medicine 17, table II, method 10 (the hybrid score interval), to 4 decimals.
@pytest.mark.parametrize("k1, n1, k2, n2, low, high", [
    (56, 70, 48, 80, 0.0524, 0.3339),
    (9, 10, 3, 10, 0.1705, 0.8090),
    (5, 56, 0, 29, -0.0381, 0.1926),
    (0, 10, 0, 20, -0.1611, 0.2775),
    (0, 10, 0, 10, -0.2775, 0.2775),
    (10, 10, 0, 20, 0.6791, 1.0),
    (10, 10, 0, 10, 0.6075, 1.0),
])
def test_the_difference_of_two_shares_matches_newcombes_intervals(k1, n1, k2, n2, low, high):
    lo, hi = newcombe(k1, n1, k2, n2)
    assert round(lo, 4) == low and round(hi, 4) == high
