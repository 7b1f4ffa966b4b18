"""A what-if sweep on the process pool and on a Dask LocalCluster, side by side.

    python bench/sweep_dask.py [--variants 20] [--runs 200] [--rounds 40] [--workers 2] [--json]

The tavern (``campaigns/tavern.yaml``) and ``--variants`` variants of it (the starting fire
moved, doors opened or closed, the wind, the fire's temperament, the heroes' plans), each
played ``--runs`` times: once with ``--jobs W`` worker processes, once on a
``distributed.LocalCluster`` of W single-threaded workers (started before the clock; its start
is timed apart). Both must give the same numbers (checked). Reported: wall seconds, runs per
second, and Dask's overhead per run, ``(dask - pool) / runs``: what a cluster costs beyond
the play itself (scheduling, sending units and counts), the figure that says how much work a
variant needs before more machines pay. The Dask sweep is timed on a warm cluster (its second
sweep: the workers have imported fuego); the first sweep, with the workers' imports and
warm-up, is shown apart, as is the cluster's start. docs/maps-and-forecasts.md ("Scaling out") has a run.
Needs ``pip install -e '.[dask]'``.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: The variants, in order; --variants N takes the first N.
CHANGES = [
    "fire=ground:G4", "fire=upper:B1", "fire=cellar:B2", "fire=ground:A5", "fire=upper:G5",
    "door kitchen door=closed", "door front door=open", "door back door=open",
    "door balcony door=open", "window upper:F5-upper:F6=closed",
    "wind=strong", "wind=gale E", "wind=calm", "rules temperament=patient",
    "rules temperament=wild", "plan=fight", "plan=hold", "plan Gaston=rescue:Mother Hettie",
    "fuel hall=6", "fire+=upper:E5 2",
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", type=int, default=20)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    import distributed

    from fuego.forecast.cluster import DaskCluster
    from fuego.forecast.sweep import parse_vary, sweep
    from fuego.scenario.model import load

    scenario = load(str(ROOT / "campaigns" / "tavern.yaml"))
    variants = [parse_vary(c) for c in (CHANGES * 10)[: max(0, args.variants - 1)]]
    n = len(variants) + 1
    total = n * args.runs
    common = dict(runs=args.runs, rounds=args.rounds, seed=args.seed)

    t = time.perf_counter()
    pool = sweep(scenario, variants, jobs=args.workers, **common)
    pool_s = time.perf_counter() - t

    t = time.perf_counter()
    with distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=logging.ERROR) as c:
        start_s = time.perf_counter() - t
        t = time.perf_counter()
        dask = sweep(scenario, variants, executor=DaskCluster(c.scheduler_address), **common)
        cold_s = time.perf_counter() - t
        # again on the same cluster: its workers have imported fuego and warmed up, as a
        # cluster kept running does for every sweep after its first
        t = time.perf_counter()
        warm = sweep(scenario, variants, executor=DaskCluster(c.scheduler_address), **common)
        dask_s = time.perf_counter() - t
    same = pool.to_dict() == dask.to_dict() == warm.to_dict()
    out = {
        "variants": n, "runs_each": args.runs, "runs": total, "rounds": pool.rounds,
        "workers": args.workers, "pool_s": round(pool_s, 2), "dask_s": round(dask_s, 2),
        "cluster_start_s": round(start_s, 2), "dask_first_sweep_s": round(cold_s, 2),
        "pool_runs_per_s": round(total / pool_s, 2), "dask_runs_per_s": round(total / dask_s, 2),
        "dask_overhead_ms_per_run": round((dask_s - pool_s) / total * 1e3, 2),
        "same_numbers": same,
    }
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"sweep of the tavern: {n} variants x {args.runs} runs (up to {pool.rounds} "
              f"rounds), {args.workers} workers")
        print(f"{'':28}{'process pool':>14}{'Dask LocalCluster':>20}")
        print(f"{'wall seconds (warm)':28}{pool_s:>14.1f}{dask_s:>20.1f}")
        print(f"{'runs per second':28}{total / pool_s:>14.1f}{total / dask_s:>20.1f}")
        print(f"{'cluster start (s, apart)':28}{'-':>14}{start_s:>20.1f}")
        print(f"{'first sweep on it (s)':28}{'-':>14}{cold_s:>20.1f}")
        print(f"Dask's overhead per run: {(dask_s - pool_s) / total * 1e3:+.1f} ms "
              f"(same numbers: {'yes' if same else 'NO'})")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
