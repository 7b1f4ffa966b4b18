"""The benchmark runner runs (issue 10). No timing is asserted here: timings belong to
``python bench/run.py`` and docs/performance.md, not to the test suite.

The runner's references (d20, Mesa) are the ``bench`` extra, not a test extra: without them the
smoke test is skipped.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "bench" / "run.py"

needs_bench_extra = pytest.mark.skipif(
    importlib.util.find_spec("d20") is None or importlib.util.find_spec("mesa") is None,
    reason="the bench extra (d20, mesa) is not installed: pip install -e .[bench]",
)


@pytest.mark.parametrize(("only", "says"), [
    ("baseline", "--only baseline needs --baseline TREE"),
    ("round,bogus", "unknown sections: bogus"),
])
def test_the_bench_refuses_sections_it_cannot_run_and_says_why(only, says):
    out = subprocess.run([sys.executable, str(RUNNER), "--only", only], capture_output=True,
                         text=True, timeout=60, cwd=ROOT)
    assert out.returncode == 2
    assert says in out.stderr


@pytest.mark.slow
@needs_bench_extra
def test_the_quick_tiny_bench_run_prints_a_json_report():
    out = subprocess.run([sys.executable, str(RUNNER), "--quick", "--tiny", "--json"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout)
    assert set(report) == {"meta", "results", "targets"}
    assert report["meta"]["mode"] == "tiny"
    assert set(report["results"]) == {"cli", "dice", "round", "sparse", "table", "forecast",
                                      "memory"}
    results = report["results"]
    assert {"fuego_ms", "bare_click_ms", "ratio"} <= set(results["cli"])
    assert {"fuego_total_us", "d20_us", "speedup"} <= set(results["dice"])
    assert {"big", "small", "mesa", "ratio", "scaling"} <= set(results["round"])
    assert {"jobs1_s", "jobs2_s", "speedup", "jobs2_s_per_1000_runs"} <= set(results["forecast"])
    assert {"fires", "per_fire_bytes", "peak"} <= set(results["memory"])
    assert {"building_mb", "peak_mb", "fires", "events"} <= set(results["memory"]["peak"])
    assert {"big", "small", "ratio"} <= set(results["sparse"])
    assert {"round_ms", "worst_ms"} <= set(results["table"])
    assert len(report["targets"]) == 10
    for target in report["targets"]:
        assert {"name", "measured", "target", "pass", "note"} <= set(target)
        assert isinstance(target["measured"], (int, float))


@pytest.mark.slow
def test_the_policy_means_table_is_what_fuego_odds_computes():
    """fuego.engine.policy reads the means of a fire's pools from a table (icepool takes ~1 s per
    process for them); it must stay exactly what fuego.dice.odds.mean gives."""
    from fuego.dice import odds
    from fuego.dice.roller import Pool
    from fuego.engine import policy
    from fuego.engine.fire import _POOLS

    if odds.EXPLODE_DEPTH != policy._FIRE_MEANS_DEPTH:
        pytest.skip("fuego.dice.odds changed its depth: the policy computes every mean itself")
    shapes = {(p.rolled, p.kept, p.bonus, p.explode) for (what, _, _), p in _POOLS.items()
              if what in ("spreading", "destruction")}
    assert shapes == set(policy._FIRE_MEANS)
    for shape, mean in policy._FIRE_MEANS.items():
        assert odds.mean(Pool(*shape)) == mean, shape
