"""The forecast benchmark's stand-in, for a tree without fuego.forecast or the tavern campaign.

A loop of ``engine.loop.run`` over a small building made with ``tests/builders.py`` (a kitchen, a hall
and the street, three heroes), one seeded scene per run, shared out to a process pool by chunks.
``bench/run.py`` uses it only when ``fuego.forecast.runner.forecast``, ``fuego.scenario.model.load`` or
``campaigns/tavern.yaml`` is missing, and says so in its report.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAN = ["kkkkkkhhhhhhhsss",
        "kkkkkkhhhhhhhsss",
        "kkkkkkhhhhhhhsss",
        "kkkkkkhhhhhhhsss",
        "kkkkkkhhhhhhhsss"]


def _scene(seed: int):
    sys.path.insert(0, str(ROOT / "tests"))
    from builders import TWO_ROOMS, grid, scene

    from fuego.engine.heroes import Hero
    from fuego.engine.scene import Cause
    from fuego.rules.charts import Structure
    from fuego.world.places import BarrierKind

    b = grid([("ground", 0, PLAN)], TWO_ROOMS,
             edges={("F3", "G3"): (BarrierKind.DOOR, Structure.WOODEN_DOOR, True),
                    ("M3", "N3"): (BarrierKind.DOOR, Structure.WOODEN_DOOR, False)})
    s = scene(b, seed=seed)
    for k, ref in enumerate(("A1", "H5", "L2")):
        s.heroes.append(Hero(f"Hero{k + 1}", b.area(ref).index, brawn=3, finesse=3, wits=2,
                             resolve=3, panache=3, knacks={"sprinting": 2}))
    s.start_fire(b.area("B3").index, 3, Cause.START)
    return s


def _chunk(args: tuple[int, int, int, int]) -> int:
    """Play runs ``start..stop`` of a stand-in forecast; returns the areas that burned."""
    from fuego.dice.roller import Roller
    from fuego.engine import loop
    from fuego.engine.controllers import AutoController

    seed, start, stop, rounds = args
    burned = 0
    for i in range(start, stop):
        spawned = Roller(seed).spawn(i).seed
        assert spawned is not None  # a spawned roller always has its seed
        s = _scene(spawned)
        loop.run(s, AutoController(), rounds=rounds)
        burned += sum(1 for a in s.building.areas if a.burned_out) + len(s.fires)
    return burned


def forecast(runs: int, rounds: int, seed: int = 1, jobs: int = 1) -> int:
    """``runs`` seeded runs of ``rounds`` rounds in ``jobs`` processes (1: in this one)."""
    chunk = max(1, min(250, -(-runs // (jobs * 8))))
    parts = [(seed, s, min(runs, s + chunk), rounds) for s in range(0, runs, chunk)]
    if jobs == 1:
        return sum(_chunk(p) for p in parts)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        return sum(pool.map(_chunk, parts))
