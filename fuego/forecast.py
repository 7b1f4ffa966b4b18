"""How will the fire go? Many seeded runs of one scenario with heroes following a plan, aggregated.

:func:`forecast` plays ``runs`` scenes of at most ``rounds`` rounds each, through the same
:func:`fuego.engine.rounds.play_round` as ``fuego run``, with its heroes following the GM's
plans (:mod:`fuego.engine.plans`: flee, the automatic heroes of ``fuego run``, unless told
otherwise; scripted where the scenario has ``actions:``, the plan where the script is
silent), and counts per round what burns and what happens to the heroes. It prints nothing:
``fuego forecast`` shows the numbers, :mod:`fuego.render.forecast_plot` draws them.

Memory does not grow with areas x rounds: a run is recorded as what happened in it
(:class:`_Run`) and added to sparse totals (:class:`_Counts`) when it ends; the summary and the
JSON stream are computed an area at a time. Ctrl-C stops every worker at once; the runs
finished come back in :class:`ForecastInterrupted`.

Reproducible, whatever the number of processes:

- run ``i`` (0-based) plays the scene built with seed ``Roller(seed).spawn(i).seed``, that is
  ``(seed * 1_000_003 + i) mod 2**48``, and nothing else: which process plays it, and which
  runs share a chunk, do not matter;
- every statistic is kept as integer counts (histograms), added chunk by chunk in run-index
  order; the probabilities are those counts divided by ``runs`` at the very end, so ``--jobs 1``
  and ``--jobs 8`` give the same numbers to the last bit.

Worker processes are forked on Linux (fast, and they inherit the warmed-up caches; ``fuego
forecast`` runs no thread while they start: its progress bar refreshes by hand) and spawned
elsewhere; each receives the scenario once, pickled. ``start_method`` overrides the choice.

Definitions (docs/maps-and-forecasts.md, "Reading a forecast"):

- round 0 is the scene as it starts; round ``r`` is the state at the end of round ``r``;
- an area is *burning by round r* when a fire has burned in it at the end of some round
  ``<= r`` (it may have burned out since); *burning at round r* when it burns then;
- a room burns when any of its areas burns; its flashover counts at the end of the round it
  happens;
- a run that ends early (no fire, no smoke) keeps its last state for the remaining rounds;
- the *median round* of an event is the first round by which it has happened in at least half
  of the runs, or None when it happens in fewer than half;
- the fire is *out* at the end of the first round after which no fire burns for the rest of
  the run; runs still burning at ``rounds`` are counted as ``still burning``.
"""

from __future__ import annotations

import contextlib
import gc
import math
import pickle
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from fuego.dice.roller import Roller
from fuego.errors import FuegoError, LimitError, Stopped
from fuego.stats import mean_interval, runs_for, wilson

if TYPE_CHECKING:
    from fuego.engine.plans import HeroPlans
    from fuego.engine.scene import Scene
    from fuego.world.building import Building

__all__ = ["forecast", "ForecastResult", "ForecastInterrupted", "run_seed", "MAX_RUNS",
           "MAX_JOBS", "STATUSES"]

MAX_RUNS = 100_000
MAX_JOBS = 64
#: Numbers the JSON's per-area and per-room series may hold in all (a few MB); past it they
#: are cut at their last change, then left out (ForecastResult.trimmed, with a note).
MAX_SERIES_VALUES = 500_000
#: After Ctrl-C, how long to wait for the workers' finished runs before stopping them.
STOP_WAIT = 0.6
#: Hero statuses counted at the end of every round, in this order.
STATUSES = ("active", "escaped", "knocked-out", "dead")


class Buildable(Protocol):
    @property
    def settings(self) -> Any: ...

    def build(self, seed: int) -> Scene: ...


def run_seed(seed: int, index: int) -> int:
    """The seed of run ``index`` of a forecast seeded ``seed`` (``Roller(seed).spawn(index)``)."""
    spawned = Roller(seed).spawn(index).seed
    assert spawned is not None
    return spawned


# -- counts ---------------------------------------------------------------------------------------
def _bump(d: dict[int, int], key: int, by: int = 1) -> None:
    d[key] = d.get(key, 0) + by


@dataclass
class _Run:
    """What one run adds to the counts: its events by round, never a table of areas x rounds
    (a run's memory grows with what happened in it)."""

    #: area -> the round it first burned
    area_first: dict[int, int] = field(default_factory=dict)
    #: (area, first round burning, first round not burning; R+1: burning to the end)
    spans: list[tuple[int, int, int]] = field(default_factory=list)
    room_first: dict[int, int] = field(default_factory=dict)
    room_flash: dict[int, int] = field(default_factory=dict)
    #: areas burning at the end of each round played (the last value holds to round R)
    burning: list[int] = field(default_factory=list)
    out: int = 0
    #: per hero (None: not in this scene): per round played, (status index, Dramatic Wounds)
    heroes: list[list[tuple[int, int]] | None] = field(default_factory=list)


@dataclass
class _Counts:
    """Integer tallies over some runs; two of them add up exactly (:meth:`add`).

    Per area and room the tallies are sparse histograms over rounds (``{round: runs}``), and
    an area's burning rounds are kept as the changes of its count (``+1`` where a run's fire
    starts, ``-1`` where it stops), so memory grows with what happened, not with areas x
    rounds. Per round: the distribution of areas burning, the fire's end, the heroes."""

    rounds: int
    n_areas: int
    rooms: list[str]
    heroes: list[str]
    runs: int = 0
    #: [area] {r: runs in which the area first burned at round r}
    area_first: list[dict[int, int]] = field(default_factory=list)
    #: [area] {r: change at round r of the runs in which the area burns}
    area_burning: list[dict[int, int]] = field(default_factory=list)
    room_first: list[dict[int, int]] = field(default_factory=list)
    room_flash: list[dict[int, int]] = field(default_factory=list)
    #: [r] {n: runs with n areas burning at the end of round r}
    burning_hist: list[dict[int, int]] = field(default_factory=list)
    #: [r] runs after whose round r no fire burns again (R+1: still burning at the end)
    out_round: list[int] = field(default_factory=list)
    #: [hero][r][status] runs in which the hero has that status at the end of round r
    hero_status: list[list[list[int]]] = field(default_factory=list)
    #: [hero][r] total Dramatic Wounds over the runs at the end of round r
    hero_wounds: list[list[int]] = field(default_factory=list)
    #: [hero] {dramatic wounds at the end: runs}
    hero_final_wounds: list[dict[int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        r1 = self.rounds + 1
        if not self.area_first:
            self.area_first = [{} for _ in range(self.n_areas)]
            self.area_burning = [{} for _ in range(self.n_areas)]
            self.room_first = [{} for _ in self.rooms]
            self.room_flash = [{} for _ in self.rooms]
            self.burning_hist = [{} for _ in range(r1)]
            self.out_round = [0] * (self.rounds + 2)
            self.hero_status = [[[0] * len(STATUSES) for _ in range(r1)] for _ in self.heroes]
            self.hero_wounds = [[0] * r1 for _ in self.heroes]
            self.hero_final_wounds = [{} for _ in self.heroes]

    def add_run(self, run: _Run) -> None:
        R = self.rounds
        for i, r in run.area_first.items():
            _bump(self.area_first[i], r)
        for i, start, stop in run.spans:
            _bump(self.area_burning[i], start)
            if stop <= R:
                _bump(self.area_burning[i], stop, -1)
        for k, r in run.room_first.items():
            _bump(self.room_first[k], r)
        for k, r in run.room_flash.items():
            _bump(self.room_flash[k], r)
        last = len(run.burning) - 1
        for r in range(R + 1):
            _bump(self.burning_hist[r], run.burning[min(r, last)])
        self.out_round[run.out] += 1
        for h, rows in enumerate(run.heroes):
            if rows is None:
                continue
            status, wounds = self.hero_status[h], self.hero_wounds[h]
            end = len(rows) - 1
            for r in range(R + 1):
                st, dw = rows[min(r, end)]
                status[r][st] += 1
                wounds[r] += dw
            _bump(self.hero_final_wounds[h], rows[end][1])
        self.runs += 1

    def add(self, other: _Counts) -> None:
        self.runs += other.runs
        for mine_l, theirs_l in ((self.area_first, other.area_first),
                                 (self.area_burning, other.area_burning),
                                 (self.room_first, other.room_first),
                                 (self.room_flash, other.room_flash),
                                 (self.burning_hist, other.burning_hist),
                                 (self.hero_final_wounds, other.hero_final_wounds)):
            for mine_d, theirs_d in zip(mine_l, theirs_l):
                for k, v in theirs_d.items():
                    _bump(mine_d, k, v)
        for k, v in enumerate(other.out_round):
            self.out_round[k] += v
        for mine_w, theirs_w in zip(self.hero_wounds, other.hero_wounds):
            for k, v in enumerate(theirs_w):
                mine_w[k] += v
        for mine_h, theirs_h in zip(self.hero_status, other.hero_status):
            for row, add in zip(mine_h, theirs_h):
                for k, v in enumerate(add):
                    row[k] += v


def _dense(hist: dict[int, int], rounds: int, runs: int) -> list[int]:
    """A sparse first-round histogram as a list over rounds 0..R and 'never' (R+1)."""
    out = [0] * (rounds + 2)
    for r, n in hist.items():
        out[r] += n
    out[rounds + 1] = runs - sum(out[: rounds + 1])
    return out


def _burning_at(changes: dict[int, int], rounds: int) -> list[int]:
    """Runs burning at each round 0..R from the changes of their count."""
    out, now = [], 0
    for r in range(rounds + 1):
        now += changes.get(r, 0)
        out.append(now)
    return out


# -- one run --------------------------------------------------------------------------------------
def _controller(actions: dict, plans: HeroPlans | None):
    from fuego.engine.controllers import AutoController, ScriptedController
    from fuego.engine.plans import PlanController

    base = PlanController(plans) if plans is not None else AutoController()
    return ScriptedController(actions, fallback=base) if actions else base


def _play(scenario: Buildable, seed: int, counts: _Counts,
          plans: HeroPlans | None = None) -> _Run:
    """Play one seeded run and return what it adds to ``counts`` (read off the scene)."""
    from fuego.engine.loop import ending
    from fuego.engine.rounds import play_round, start_scene

    R = counts.rounds
    scene = scenario.build(seed)
    scene.log = _log_for(scene)
    actions = getattr(scenario, "actions", None) or {}
    b = scene.building
    room_index = {key: k for k, key in enumerate(counts.rooms)}
    area_room = [room_index[a.room] for a in b.areas]
    controller = _controller(actions, plans)
    run = _Run()
    status_index = {s: k for k, s in enumerate(STATUSES)}
    heroes = {h.name: h for h in scene.heroes}
    hero_list = [heroes.get(name) for name in counts.heroes]
    run.heroes = [[] if hero is not None else None for hero in hero_list]
    started: dict[int, int] = {}  # area -> the round its current fire began
    last_burning = -1
    start_scene(scene)
    r = 0
    while True:
        fires = scene.fires
        if fires:
            last_burning = r
        for i in fires:
            if i not in started:
                started[i] = r
                if i not in run.area_first:
                    run.area_first[i] = r
                    run.room_first.setdefault(area_room[i], r)
        for i in [i for i in started if i not in fires]:
            run.spans.append((i, started.pop(i), r))
        run.burning.append(len(fires))
        for key in scene.flashed:
            run.room_flash.setdefault(room_index[key], r)
        for rows, hero in zip(run.heroes, hero_list):
            if rows is not None and hero is not None:
                rows.append((status_index[hero.status.value], hero.dramatic))
        if r == R:
            break
        if ending(scene) is not None:  # over: the same state for the rounds left
            if fires:
                last_burning = R
            break
        play_round(scene, controller)
        r += 1
    for i, start in started.items():
        run.spans.append((i, start, R + 1))
    never = R + 1
    run.out = last_burning + 1 if last_burning < R else never
    return run


class ScriptReads(list):
    """A forecast's log: nobody reads its events but the script, so it keeps only the kinds the
    script reads and drops the rest as they come (the engine appends every event alike)."""

    __slots__ = ("kinds",)

    def __init__(self, kinds: frozenset) -> None:
        super().__init__()
        self.kinds = kinds

    def append(self, event: Any) -> None:
        if event.kind in self.kinds:
            super().append(event)


def _log_for(scene: Scene) -> list:
    """Where a forecast run's events go: all of them (the scene's own log) where a rule module
    or the script may read any; otherwise only those its script reads (none without one)."""
    reads = scene.script.reads if scene.script is not None else frozenset()
    if scene.modules or reads is None:
        return scene.log
    sink = ScriptReads(reads)
    for event in scene.log:  # what the build logged (the starting fires) goes through it too
        sink.append(event)
    return sink


# -- workers --------------------------------------------------------------------------------------
_WORKER: dict[str, Any] = {}


def _on_interrupt(signum: int, frame: Any) -> None:
    """A worker's Ctrl-C: stop taking runs; a run being played stops at once (it is not
    counted), while adding a finished run to the counts it waits until that is done."""
    _WORKER["stop"] = True
    if _WORKER.get("playing"):
        raise KeyboardInterrupt


def _init_worker(blob: bytes, shape: tuple, plans: HeroPlans | None, done: Any) -> None:
    import signal

    signal.signal(signal.SIGINT, _on_interrupt)
    # a worker dies at once of SIGTERM (the pool's terminate) and SIGHUP, whatever its parent
    # installed before forking, and dies with its parent however that ends (kill -9 too)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    _die_with_parent()
    _WORKER["stop"] = _WORKER["playing"] = False
    _WORKER["scenario"] = pickle.loads(blob)
    _WORKER["shape"] = shape
    _WORKER["plans"] = plans
    _WORKER["done"] = done


def _die_with_parent() -> None:
    """Linux: the kernel sends this worker SIGKILL when its parent dies (``PR_SET_PDEATHSIG``),
    so no worker outlives a forecast killed without a chance to stop them."""
    import os

    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        return
    import multiprocessing

    parent = multiprocessing.parent_process()
    if parent is not None and os.getppid() != parent.pid:  # it died before the call
        os._exit(1)


def _chunk(seed: int, start: int, stop: int, scenario: Buildable | None = None,
           shape: tuple | None = None, plans: HeroPlans | None = None,
           each: Callable[[], None] | None = None,
           counts: _Counts | None = None) -> tuple[int, _Counts]:
    worker = scenario is None
    scenario = scenario if scenario is not None else _WORKER["scenario"]
    shape = shape if shape is not None else _WORKER["shape"]
    if worker:
        plans = _WORKER["plans"]
        done = _WORKER["done"]

        def each() -> None:
            with done.get_lock():
                done.value += 1

    counts = counts if counts is not None else _Counts(*shape)
    # A run allocates a building, its events and caches that live until it ends, and the
    # collector would walk them over and over meanwhile (~10 % of a tavern run): collect once
    # after each run instead, which also frees the run's own cycles.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for i in range(start, stop):
            if worker:
                if _WORKER["stop"]:
                    break  # Ctrl-C: send back the runs finished
                _WORKER["playing"] = True
                try:
                    run = _play(scenario, run_seed(seed, i), counts, plans)
                except KeyboardInterrupt:
                    break
                finally:
                    _WORKER["playing"] = False
            else:
                run = _play(scenario, run_seed(seed, i), counts, plans)
            counts.add_run(run)  # only whole runs are counted (an interrupted one is not)
            del run
            gc.collect(1)
            if each is not None:
                each()
    finally:
        if collecting:
            gc.enable()
    return start, counts


def _chunk_args(args: tuple) -> tuple[int, _Counts]:
    return _chunk(*args)


class ForecastInterrupted(Exception):
    """Ctrl-C during a forecast: ``result`` holds the runs finished before it (any order)."""

    def __init__(self, result: ForecastResult) -> None:
        super().__init__(f"interrupted after {result.runs} runs")
        self.result = result


# -- results --------------------------------------------------------------------------------------
def _median_round(hist: list[int], runs: int) -> int | None:
    """First round by which at least half the runs have seen it (the last bin is 'never')."""
    total = 0
    for r, n in enumerate(hist[:-1]):
        total += n
        if 2 * total >= runs and total:
            return r
    return None


def _conditional_median(hist: list[int]) -> int | None:
    """Median round among the runs in which it happened at all."""
    seen = sum(hist[:-1])
    if not seen:
        return None
    total = 0
    for r, n in enumerate(hist[:-1]):
        total += n
        if 2 * total >= seen:
            return r
    return None


def _cumulative(hist: list[int], runs: int) -> list[float]:
    out, total = [], 0
    for n in hist[:-1]:
        total += n
        out.append(_p(total, runs))
    return out


def _until_last_change(changes: dict[int, int], runs: int, cumulative: bool) -> list[float]:
    """A per-round chance from sparse counts, up to its last change only (the last value holds
    to the end): a round-by-round list whose length follows what happened, not the rounds."""
    last = max((r for r, n in changes.items() if n), default=0)
    out, total = [], 0
    for r in range(last + 1):
        total += changes.get(r, 0)
        out.append(_p(total, runs))
    return out


def _p(count: int, runs: int) -> float:
    return round(count / runs, 6) if runs else 0.0


def _ci(count: int, runs: int) -> list[float]:
    """The 95 % Wilson interval of a share, as JSON's ``[low, high]``."""
    return [round(x, 6) for x in wilson(count, runs)]


def _mean_ci(hist: dict[int, int], runs: int) -> list[float]:
    """The 95 % normal interval of a mean from its histogram, as ``[low, high]``."""
    return [round(x, 6) for x in mean_interval(hist, runs)]


def _quantile(hist: dict[int, int], runs: int, q: float) -> int:
    """The smallest n with at least q of the runs at or below it."""
    need = math.ceil(q * runs)
    total = 0
    for n in sorted(hist):
        total += hist[n]
        if total >= max(1, need):
            return n
    return max(hist, default=0)


@dataclass
class ForecastResult:
    """Counts from :func:`forecast` and what to call things; :meth:`to_dict` for the numbers."""

    title: str
    seed: int
    runs: int
    rounds: int
    area_names: list[str]
    area_rooms: list[str]
    area_fuel: list[int]
    room_names: dict[str, str]
    counts: _Counts
    building: Building | None = None  # the building as it starts (for heat maps)
    jobs: int = 1  # not part of the numbers: they do not depend on it
    #: hero -> the plan the forecast played ("flee", "fight", "rescue:NAME", "hold")
    plans: dict[str, str] = field(default_factory=dict)
    #: the runs asked for, when Ctrl-C stopped the forecast before all were played
    asked: int | None = None

    # -- per area ---------------------------------------------------------------------------
    @property
    def trimmed(self) -> bool:
        """Whether the JSON's per-area and per-room series are cut at their last change: when
        written whole they would hold more than :data:`MAX_SERIES_VALUES` numbers."""
        per_round = 2 * (len(self.area_names) + len(self.counts.rooms)) * (self.rounds + 1)
        return per_round > MAX_SERIES_VALUES

    def p_burning_by(self, round_: int) -> list[float]:
        """Per area, the chance it has burned by the end of ``round_``."""
        return [_p(sum(n for r, n in h.items() if r <= round_), self.runs)
                for h in self.counts.area_first]

    def half_fuel_round(self) -> int:
        """The first round by which, on average over the runs, areas holding half the fuel
        have caught fire (the heat map's default round); the last round if never."""
        total = sum(max(0, f) for f in self.area_fuel)
        if not total or not self.runs:
            return self.rounds
        caught = [0.0] * (self.rounds + 1)
        for fuel, hist in zip(self.area_fuel, self.counts.area_first):
            if fuel > 0:
                for r, n in hist.items():
                    caught[r] += fuel * n
        so_far = 0.0
        for r, amount in enumerate(caught):
            so_far += amount
            if 2 * so_far >= total * self.runs:
                return r
        return self.rounds

    def half_fuel_reached(self) -> bool:
        """Whether :meth:`half_fuel_round` is a round by which half the fuel caught fire on
        average (False: it never did, and the round is the last as a fallback)."""
        total = sum(max(0, f) for f in self.area_fuel)
        caught = sum(max(0, fuel) * n for fuel, hist in zip(self.area_fuel,
                                                            self.counts.area_first)
                     for n in hist.values())
        return bool(total and self.runs) and 2 * caught >= total * self.runs

    def p_out_by_round(self) -> list[float]:
        """Per round, the chance that no fire burns from then on."""
        return _cumulative(self.counts.out_round, self.runs)

    def burning_areas(self) -> dict[str, list[Any]]:
        c = self.counts
        hists = c.burning_hist
        runs = max(1, self.runs)
        mean = [round(sum(n * k for n, k in h.items()) / runs, 6) for h in hists]
        return {
            "mean": mean,
            "mean_ci95": [_mean_ci(h, self.runs) for h in hists],
            "p10": [_quantile(h, self.runs, 0.10) for h in hists],
            "p50": [_quantile(h, self.runs, 0.50) for h in hists],
            "p90": [_quantile(h, self.runs, 0.90) for h in hists],
        }

    def bands(self) -> dict[str, Any]:
        """95 % intervals of the curves over rounds (for plots): ``fire_out`` and
        ``burning_mean`` as lists of ``(low, high)`` per round, and per hero ``p_down`` and
        ``p_escaped`` (Wilson for the shares, normal for the mean)."""
        c, n = self.counts, self.runs
        ko, dead, esc = (STATUSES.index(s) for s in ("knocked-out", "dead", "escaped"))
        total = 0
        out = []
        for k in c.out_round[:-1]:
            total += k
            out.append(wilson(total, n))
        heroes = {}
        for h, name in enumerate(c.heroes):
            st = c.hero_status[h]
            heroes[name] = {"p_down": [wilson(row[ko] + row[dead], n) for row in st],
                            "p_escaped": [wilson(row[esc], n) for row in st]}
        return {"fire_out": out,
                "burning_mean": [mean_interval(h, n) for h in c.burning_hist],
                "heroes": heroes}

    def confidence(self) -> dict[str, Any]:
        """How sure the numbers are: the intervals' method, the widest a share's 95 % interval
        can be with these runs, and the runs that would give a share to +/- 1, 2, 5 points."""
        worst = wilson(self.runs // 2, self.runs) if self.runs else (0.0, 1.0)
        return {
            "level": 0.95,
            "shares": "Wilson score interval (each *_ci95: [low, high])",
            "means": "normal interval of the mean (sample variance)",
            "widest_half_width": round((worst[1] - worst[0]) / 2, 6),
            "runs_for_half_width": {f"{h:g}": runs_for(h) for h in (0.01, 0.02, 0.05)},
        }

    def hero_curves(self) -> dict[str, dict[str, list[float]]]:
        """Per hero and round: mean Dramatic Wounds, chance of being down (KO or dead), out."""
        out = {}
        ko, dead, esc = (STATUSES.index(s) for s in ("knocked-out", "dead", "escaped"))
        for h, name in enumerate(self.counts.heroes):
            st = self.counts.hero_status[h]
            out[name] = {
                "mean_dramatic_wounds": [round(w / max(1, self.runs), 6)
                                         for w in self.counts.hero_wounds[h]],
                "p_down": [_p(row[ko] + row[dead], self.runs) for row in st],
                "p_dead": [_p(row[dead], self.runs) for row in st],
                "p_escaped": [_p(row[esc], self.runs) for row in st],
            }
        return out

    def _area(self, i: int, left: list[int] | None = None) -> dict[str, Any]:
        c, R = self.counts, self.rounds
        hist = _dense(c.area_first[i], R, self.runs) if left is None else None
        first = c.area_first[i]
        if left is None:
            assert hist is not None
            by: list[float] | None = _cumulative(hist, self.runs)
            at: list[float] | None = [_p(n, self.runs)
                                      for n in _burning_at(c.area_burning[i], R)]
        else:  # a huge forecast: the series up to their last change, while the budget lasts
            by = _until_last_change(first, self.runs, True)
            at = _until_last_change(c.area_burning[i], self.runs, False)
            by, at = _spend(left, by), _spend(left, at)
            hist = _dense(first, max(first, default=0), self.runs)  # medians: the same
        return {
            "room": self.area_rooms[i],
            "fuel": self.area_fuel[i],
            "p_burning_by_round": by,
            "p_burning_at_round": at,
            "p_ever": _p(sum(hist[:-1]), self.runs),
            "median_first_round": _median_round(hist, self.runs),
            "median_first_round_when_it_burns": _conditional_median(hist),
        }

    def _room(self, k: int, per_round: bool = True,
              left: list[int] | None = None) -> dict[str, Any]:
        c, R = self.counts, self.rounds
        key = c.rooms[k]
        # trimmed, the histograms stop at their last round (the medians are the same)
        ends = ((R, R) if left is None else
                (max(c.room_first[k], default=0), max(c.room_flash[k], default=0)))
        hist = _dense(c.room_first[k], ends[0], self.runs)
        flash = _dense(c.room_flash[k], ends[1], self.runs)
        by_round: Callable[[list[int], dict[int, int]], list[float] | None] = (
            (lambda dense, _sparse: _cumulative(dense, self.runs)) if left is None else
            (lambda _dense, sparse: _spend(left, _until_last_change(sparse, self.runs, True))))
        out = {
            "name": self.room_names.get(key, key),
            "p_burning_by_round": by_round(hist, c.room_first[k]) if per_round else None,
            "p_ever": _p(sum(hist[:-1]), self.runs),
            "median_first_round": _median_round(hist, self.runs),
            "median_first_round_when_it_burns": _conditional_median(hist),
            "p_flashover": _p(sum(flash[:-1]), self.runs),
            "p_flashover_by_round": by_round(flash, c.room_flash[k]) if per_round else None,
            "median_flashover_round_when_it_happens": _conditional_median(flash),
        }
        if not per_round:
            del out["p_burning_by_round"], out["p_flashover_by_round"]
        out["p_ever_ci95"] = _ci(sum(hist[:-1]), self.runs)
        out["p_flashover_ci95"] = _ci(sum(flash[:-1]), self.runs)
        return out

    def _heroes(self) -> dict[str, Any]:
        c, R = self.counts, self.rounds
        heroes = {}
        curves = self.hero_curves()
        for h, name in enumerate(c.heroes):
            final = c.hero_status[h][R]
            wounds = c.hero_final_wounds[h]
            esc_hist = [0] * (R + 2)
            prev = 0
            esc = STATUSES.index("escaped")
            for r in range(R + 1):
                now = c.hero_status[h][r][esc]
                esc_hist[r] = now - prev
                prev = now
            esc_hist[R + 1] = self.runs - prev
            runs = max(1, self.runs)
            heroes[name] = {
                "plan": self.plans.get(name, "flee"),
                "p_escaped": _p(final[STATUSES.index("escaped")], self.runs),
                "p_knocked_out": _p(final[STATUSES.index("knocked-out")], self.runs),
                "p_killed": _p(final[STATUSES.index("dead")], self.runs),
                "p_still_inside": _p(final[STATUSES.index("active")], self.runs),
                **{f"{key}_ci95": _ci(final[STATUSES.index(status)], self.runs)
                   for key, status in (("p_escaped", "escaped"),
                                       ("p_knocked_out", "knocked-out"),
                                       ("p_killed", "dead"), ("p_still_inside", "active"))},
                "median_escape_round_when_escaping": _conditional_median(esc_hist),
                "dramatic_wounds": {str(k): _p(wounds[k], self.runs) for k in sorted(wounds)},
                "mean_dramatic_wounds": round(sum(k * v for k, v in wounds.items()) / runs, 6),
                "mean_dramatic_wounds_ci95": _mean_ci(wounds, self.runs),
                **{f"{key}_by_round": value for key, value in curves[name].items()},
            }
        return heroes

    def _head(self) -> dict[str, Any]:
        out = self.counts.out_round
        R = self.rounds
        head: dict[str, Any] = {
            "scenario": self.title,
            "seed": self.seed,
            "runs": self.runs,
            "rounds": R,
            "run_seed": "Roller(seed).spawn(i).seed = (seed * 1000003 + i) mod 2**48",
        }
        if self.asked is not None:
            head["interrupted"] = {"runs_asked": self.asked, "runs_finished": self.runs}
        if self.trimmed:
            head["per_round_series"] = (
                "trimmed: each area's and room's per-round series stops at its last change "
                f"(its last value holds to round {R}); past {MAX_SERIES_VALUES:,} numbers in "
                "all, the rest are null (fewer --rounds, or fewer areas, give them whole)")
        head["fire_out"] = {
            "p_out_by_round": self.p_out_by_round(),
            "p_still_burning": _p(out[R + 1], self.runs),
            "median_round": _median_round(out, self.runs),
            "median_round_when_out": _conditional_median(out),
            "distribution": {**{str(r): _p(n, self.runs) for r, n in enumerate(out[:-1]) if n},
                             **({"still burning": _p(out[R + 1], self.runs)}
                                if out[R + 1] else {})},
        }
        head["fire_out"]["p_still_burning_ci95"] = _ci(out[R + 1], self.runs)
        head["burning_areas_by_round"] = self.burning_areas()
        head["confidence"] = self.confidence()
        head["half_fuel_round"] = self.half_fuel_round()
        return head

    def summary(self) -> dict[str, Any]:
        """The numbers the terminal summary shows: no per-area or per-round table (its size
        does not grow with areas x rounds)."""
        return {**self._head(),
                "rooms": {key: self._room(k, per_round=False)
                          for k, key in enumerate(self.counts.rooms)},
                "heroes": self._heroes()}

    def _budget(self) -> list[int] | None:
        """The numbers the trimmed series may still spend (None: the series are whole)."""
        return [MAX_SERIES_VALUES] if self.trimmed else None

    def to_dict(self) -> dict[str, Any]:
        """Every number of the forecast as plain JSON data (identical for any ``jobs``)."""
        left = self._budget()
        return {**self._head(),
                "areas": {name: self._area(i, left) for i, name in enumerate(self.area_names)},
                "rooms": {key: self._room(k, left=left)
                          for k, key in enumerate(self.counts.rooms)},
                "heroes": self._heroes()}

    def json_chunks(self):
        """:meth:`to_dict` as compact JSON text, an area or room at a time (the same bytes as
        ``json.dumps(self.to_dict(), separators=(",", ":"))``, without holding it whole)."""
        import json

        def dump(value: Any) -> str:
            return json.dumps(value, separators=(",", ":"))

        left = self._budget()
        yield dump(self._head())[:-1]
        for key, items in (("areas", ((n, lambda i=i: self._area(i, left))
                                      for i, n in enumerate(self.area_names))),
                           ("rooms", ((n, lambda k=k: self._room(k, left=left))
                                      for k, n in enumerate(self.counts.rooms)))):
            yield f",{dump(key)}:{{"
            for n, (name, entry) in enumerate(items):
                yield ("," if n else "") + f"{dump(name)}:{dump(entry())}"
            yield "}"
        yield f",{dump('heroes')}:{dump(self._heroes())}}}"


def _spend(left: list[int], series: list[float]) -> list[float] | None:
    """``series`` if the budget ``left[0]`` still holds it (and take it), else None."""
    if len(series) > left[0]:
        left[0] = 0
        return None
    left[0] -= len(series)
    return series


# -- the forecast ---------------------------------------------------------------------------------
def _check(name: str, value: Any, lo: int, hi: int, tip: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FuegoError(f"{name} must be a whole number, not {value!r}", tip=tip)
    if not lo <= value <= hi:
        raise LimitError(f"{name} must be between {lo} and {hi}, not {value}", tip=tip)
    return value


def forecast(scenario: Buildable, runs: int = 1000, rounds: int | None = None, seed: int = 1,
             jobs: int = 1, progress: Callable[[int, int], None] | None = None,
             chunk: int | None = None, start_method: str | None = None,
             plans: HeroPlans | None = None, tick: float = 0.1) -> ForecastResult:
    """Play ``runs`` seeded runs of ``scenario`` for at most ``rounds`` rounds and count.

    ``scenario`` is anything with ``build(seed) -> Scene`` and ``settings`` (a loaded
    :class:`fuego.scenario.Scenario`). ``rounds`` defaults to the scenario's ``max_rounds``
    and may not exceed it. ``jobs`` processes share the runs (1: all in this process).
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
    settings = getattr(scenario, "settings", None)
    limit = getattr(settings, "max_rounds", None) or 60
    _check("runs", runs, 1, MAX_RUNS, f"a forecast plays 1 to {MAX_RUNS} runs")
    if rounds is None:
        rounds = limit
    _check("rounds", rounds, 1, limit,
           f"the scenario stops a run after {limit} rounds (rules.max_rounds)")
    _check("jobs", jobs, 1, MAX_JOBS, f"use 1 to {MAX_JOBS} processes")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0 or seed >= 2**48:
        raise FuegoError(f"seed must be a whole number from 0 to 2**48-1, not {seed!r}")

    first = scenario.build(run_seed(seed, 0))
    b = first.building
    rooms = list(b.rooms)
    heroes = [h.name for h in first.heroes]
    shape = (rounds, len(b.areas), rooms, heroes)
    total = _Counts(*shape)
    plan_names = (plans.describe(first.heroes) if plans is not None
                  else {h.name: "flee" for h in first.heroes})
    actions = getattr(scenario, "actions", None) or {}
    scripted = {name.lower() for name in actions}
    plan_names = {n: (p + " (scripted actions first)" if n.lower() in scripted else p)
                  for n, p in plan_names.items()}
    scenario_title = first.title or b.title
    del first

    def result(counts: _Counts, asked: int | None = None) -> ForecastResult:
        return ForecastResult(
            title=scenario_title, seed=seed, runs=counts.runs, rounds=rounds,
            area_names=[a.name for a in b.areas], area_rooms=[a.room for a in b.areas],
            area_fuel=[a.fuel for a in b.areas],
            room_names={k: r.name for k, r in b.rooms.items()}, counts=counts, building=b,
            jobs=jobs, plans=plan_names, asked=asked)

    if chunk is None:
        chunk = max(1, min(250, math.ceil(runs / (jobs * 8))))
    bounds = [(s, min(runs, s + chunk)) for s in range(0, runs, chunk)]
    if jobs == 1 or len(bounds) == 1:
        done = 0

        def each() -> None:
            nonlocal done
            done += 1
            if progress:
                progress(done, runs)

        try:
            for start, stop in bounds:
                # a chunk's counts join the total only when whole; an interrupted chunk's
                # finished runs are kept by adding them as they are
                part = _Counts(*shape)
                try:
                    _, part = _chunk(seed, start, stop, scenario, shape, plans, each, part)
                finally:
                    total.add(part)
        except KeyboardInterrupt:
            raise ForecastInterrupted(result(total, runs)) from None
        return result(total)
    return result(_in_workers(scenario, seed, runs, jobs, bounds, shape, plans, total,
                              progress, start_method, tick, result), None)


def _in_workers(scenario: Buildable, seed: int, runs: int, jobs: int, bounds: list,
                shape: tuple, plans: HeroPlans | None, total: _Counts,
                progress: Callable[[int, int], None] | None, start_method: str | None,
                tick: float, result: Callable[..., ForecastResult]) -> _Counts:
    """The chunks played by ``jobs`` worker processes; their counts added in run order."""
    import multiprocessing

    try:
        blob = pickle.dumps(scenario)
    except Exception as exc:  # noqa: BLE001 - any pickling failure means the same thing
        raise FuegoError(f"this scenario cannot be sent to worker processes ({exc})",
                         tip="use --jobs 1") from exc
    if start_method is None:
        linux = sys.platform.startswith("linux")
        start_method = "fork" if linux and threading.active_count() == 1 else "spawn"
    ctx = multiprocessing.get_context(start_method)
    done = ctx.Value("q", 0)
    pending: dict[int, _Counts] = {}
    order = [start for start, _ in bounds]
    nxt = 0
    finished = 0
    before = set(multiprocessing.active_children())
    pool = ctx.Pool(min(jobs, len(bounds)), initializer=_init_worker,
                    initargs=(blob, shape, plans, done))
    workers = [p for p in multiprocessing.active_children() if p not in before]
    try:
        results = pool.imap_unordered(_chunk_args, [(seed, a, z) for a, z in bounds])
        while finished < len(bounds):
            try:
                start, counts = results.next(timeout=tick)
            except multiprocessing.TimeoutError:
                # a worker killed mid-chunk (out of memory, kill -9) loses its chunk for
                # good: the pool would wait for it forever
                if any(p.exitcode not in (None, 0) for p in workers):
                    raise FuegoError("a worker process stopped unexpectedly (out of memory, "
                                     "or killed)", tip="try fewer --jobs, or --jobs 1") from None
                if progress:
                    progress(min(done.value, runs), runs)
                continue
            pending[start] = counts
            finished += 1
            # add in run-index order (integer sums: the order only keeps memory bounded)
            while nxt < len(order) and order[nxt] in pending:
                total.add(pending.pop(order[nxt]))
                nxt += 1
            if progress:
                progress(min(done.value, runs), runs)
        pool.close()
    except KeyboardInterrupt:
        # Every worker stops its run now and sends back the runs it finished (a terminal's
        # Ctrl-C reaches them too; a SIGINT to this process alone is passed on); what has not
        # come back within STOP_WAIT seconds is dropped with the workers.
        import os
        import signal

        for child in multiprocessing.active_children():
            with contextlib.suppress(OSError):
                os.kill(child.pid or 0, signal.SIGINT)
        deadline = time.monotonic() + STOP_WAIT
        try:
            while finished < len(bounds) and time.monotonic() < deadline:
                try:
                    start, counts = results.next(timeout=max(0.01,
                                                             deadline - time.monotonic()))
                except multiprocessing.TimeoutError:
                    break
                except Exception:  # noqa: BLE001 - a worker stopped between runs: nothing
                    finished += 1
                    continue
                finished += 1
                pending[start] = counts
        except KeyboardInterrupt:
            pass  # a second Ctrl-C: stop waiting
        pool.terminate()
        pool.join()
        for counts in pending.values():
            total.add(counts)
        raise ForecastInterrupted(result(total, runs)) from None
    except Stopped:  # SIGTERM or SIGHUP: the workers go with the forecast, at once
        pool.terminate()
        pool.join()
        raise
    except Exception as exc:
        pool.terminate()
        pool.join()
        if isinstance(exc, FuegoError):
            raise
        raise FuegoError(f"a worker process stopped unexpectedly ({type(exc).__name__}: "
                         f"{exc})", tip="try fewer --jobs, or --jobs 1") from exc
    pool.join()
    if total.runs < runs:  # the workers were stopped (a Ctrl-C this process did not see)
        raise ForecastInterrupted(result(total, runs))
    return total
