"""The forecast itself: its arguments checked, the scenario read once for what to count, the
runs cut into work units, handed to an executor, and the counts turned into a result.

Reproducible, whatever plays the runs: run ``i`` plays seed :func:`~fuego.forecast.play.run_seed`
``(seed, i)`` only, and every statistic is an integer count, so ``--jobs 1``, ``--jobs 8`` and
a Dask cluster give the same numbers to the last bit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fuego.errors import FuegoError, LimitError
from fuego.forecast.counts import Counts
from fuego.forecast.executors import Executor, InProcess, chunk_size
from fuego.forecast.play import Buildable, run_seed
from fuego.forecast.pool import ProcessPool
from fuego.forecast.result import ForecastInterrupted, ForecastResult
from fuego.forecast.units import Variant, units_of

if TYPE_CHECKING:
    from fuego.engine.plans import HeroPlans
    from fuego.world.building import Building

__all__ = ["forecast", "MAX_RUNS", "MAX_JOBS"]

MAX_RUNS = 100_000
MAX_JOBS = 64


def check_number(name: str, value: Any, lo: int, hi: int, tip: str) -> int:
    """``value`` if it is a whole number in ``lo..hi``, else a :class:`FuegoError` saying so."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise FuegoError(f"{name} must be a whole number, not {value!r}", tip=tip)
    if not lo <= value <= hi:
        raise LimitError(f"{name} must be between {lo} and {hi}, not {value}", tip=tip)
    return value


def check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0 or seed >= 2**48:
        raise FuegoError(f"seed must be a whole number from 0 to 2**48-1, not {seed!r}")
    return seed


def rounds_for(scenario: Buildable, rounds: int | None) -> int:
    """``rounds``, checked against the scenario's ``max_rounds`` (its default)."""
    settings = getattr(scenario, "settings", None)
    limit = getattr(settings, "max_rounds", None) or 60
    if rounds is None:
        rounds = limit
    return check_number("rounds", rounds, 1, limit,
                        f"the scenario stops a run after {limit} rounds (rules.max_rounds)")


@dataclass
class Setup:
    """One scenario made ready to forecast: the :class:`Variant` the workers play, and what
    the result calls things (read from the scene as it starts, built once here)."""

    variant: Variant
    seed: int
    title: str
    building: Building
    plan_names: dict[str, str]
    #: the NPCs the script brings in later
    arrivals: list[str]

    @classmethod
    def of(cls, scenario: Buildable, rounds: int, seed: int,
           plans: HeroPlans | None = None) -> Setup:
        first = scenario.build(run_seed(seed, 0))
        b = first.building
        # the NPCs the script brings in later are counted too (absent until they come)
        present = {h.name.lower() for h in first.heroes}
        later = [n for n in getattr(scenario, "arrivals", None) or []
                 if n.lower() not in present]
        shape = (rounds, len(b.areas), list(b.rooms), [h.name for h in first.heroes] + later)
        plan_names = (plans.describe(first.heroes, later) if plans is not None
                      else {n: "flee" for n in shape[3]})
        actions = getattr(scenario, "actions", None) or {}
        scripted = {name.lower() for name in actions}
        plan_names = {n: (p + " (scripted actions first)" if n.lower() in scripted else p)
                      for n, p in plan_names.items()}
        return cls(Variant(scenario, shape, plans), seed, first.title or b.title, b, plan_names,
                   later)

    def result(self, counts: Counts, jobs: int = 1, asked: int | None = None) -> ForecastResult:
        b = self.building
        return ForecastResult(
            title=self.title, seed=self.seed, runs=counts.runs, rounds=self.variant.shape[0],
            area_names=[a.name for a in b.areas], area_rooms=[a.room for a in b.areas],
            area_fuel=[a.fuel for a in b.areas],
            room_names={k: r.name for k, r in b.rooms.items()}, counts=counts, building=b,
            jobs=jobs, plans=self.plan_names, asked=asked, arrivals=self.arrivals)


def executor_for(jobs: int, start_method: str | None = None, tick: float = 0.1) -> Executor:
    """The embedded executor: this process for one job, a process pool for more."""
    return InProcess() if jobs == 1 else ProcessPool(jobs, start_method, tick)


def forecast(scenario: Buildable, runs: int = 1000, rounds: int | None = None, seed: int = 1,
             jobs: int = 1, progress: Callable[[int, int], None] | None = None,
             chunk: int | None = None, start_method: str | None = None,
             plans: HeroPlans | None = None, tick: float = 0.1,
             executor: Executor | None = None) -> ForecastResult:
    """Play ``runs`` seeded runs of ``scenario`` for at most ``rounds`` rounds and count.

    ``scenario`` is anything with ``build(seed) -> Scene`` and ``settings`` (a loaded
    :class:`fuego.scenario.model.Scenario`). ``rounds`` defaults to the scenario's ``max_rounds``
    and may not exceed it. ``jobs`` processes share the runs (1: all in this process), unless
    ``executor`` plays them (:mod:`fuego.forecast.executors`: a Dask cluster, say).
    ``plans``: what each hero tries (:mod:`fuego.engine.plans`; default: all flee); the
    scenario's ``actions:`` win where given. ``progress(done, total)`` is called after each
    run (and, with workers, every ``tick`` seconds meanwhile, so a clock can tick).
    ``start_method``: how worker processes start (``fork``, ``spawn``, ``forkserver``; default
    ``fork`` on Linux, else ``spawn``); it changes nothing in the numbers.

    Ctrl-C (:class:`KeyboardInterrupt`) stops every worker at once and raises
    :class:`ForecastInterrupted` carrying the runs finished so far. Raises
    :class:`FuegoError` for runs outside 1..100000, rounds outside 1..max_rounds, jobs
    outside 1..64.
    """
    check_number("runs", runs, 1, MAX_RUNS, f"a forecast plays 1 to {MAX_RUNS} runs")
    rounds = rounds_for(scenario, rounds)
    check_number("jobs", jobs, 1, MAX_JOBS, f"use 1 to {MAX_JOBS} processes")
    check_seed(seed)
    setup = Setup.of(scenario, rounds, seed, plans)
    if executor is None:
        units = units_of(0, seed, runs, chunk or chunk_size(runs, jobs))
        executor = executor_for(jobs if len(units) > 1 else 1, start_method, tick)
    else:
        units = units_of(0, seed, runs, chunk or executor.unit_runs(runs))
    total = setup.variant.counts()
    try:
        executor.run([setup.variant], units, [total], progress)
    except KeyboardInterrupt:
        raise ForecastInterrupted(setup.result(total, jobs, runs)) from None
    return setup.result(total, jobs)
