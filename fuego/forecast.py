"""How will the fire go? Many seeded runs of one scenario with the automatic heroes, aggregated.

:func:`forecast` plays ``runs`` scenes of at most ``rounds`` rounds each, through the same
:func:`fuego.engine.rounds.play_round` as ``fuego run``, with its heroes (automatic,
:class:`fuego.engine.controllers.AutoController`; scripted where the scenario has ``actions:``, falling
back to automatic where the script is silent), and counts per round what burns and what
happens to the heroes. It prints nothing: ``fuego forecast`` shows the numbers,
:mod:`fuego.render.forecast_plot` draws them.

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

import gc
import math
import pickle
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from fuego.dice.roller import Roller
from fuego.errors import FuegoError, LimitError

if TYPE_CHECKING:
    from fuego.engine.scene import Scene
    from fuego.world.building import Building

__all__ = ["forecast", "ForecastResult", "run_seed", "MAX_RUNS", "MAX_JOBS", "STATUSES"]

MAX_RUNS = 100_000
MAX_JOBS = 64
#: Hero statuses counted at the end of every round, in this order.
STATUSES = ("active", "escaped", "knocked-out", "dead")


class Buildable(Protocol):
    settings: Any

    def build(self, seed: int) -> Scene: ...


def run_seed(seed: int, index: int) -> int:
    """The seed of run ``index`` of a forecast seeded ``seed`` (``Roller(seed).spawn(index)``)."""
    spawned = Roller(seed).spawn(index).seed
    assert spawned is not None
    return spawned


# -- counts ---------------------------------------------------------------------------------------
@dataclass
class _Counts:
    """Integer tallies over some runs; two of them add up exactly (:meth:`add`)."""

    rounds: int
    n_areas: int
    rooms: list[str]
    heroes: list[str]
    runs: int = 0
    #: [area][r] runs in which the area first burned at round r (r = 0..R); [area][R+1]: never
    area_first: list[list[int]] = field(default_factory=list)
    #: [area][r] runs in which the area burns at the end of round r
    area_burning: list[list[int]] = field(default_factory=list)
    room_first: list[list[int]] = field(default_factory=list)
    room_flash: list[list[int]] = field(default_factory=list)
    #: [r][n] runs with n areas burning at the end of round r
    burning_hist: list[list[int]] = field(default_factory=list)
    #: [r] runs after whose round r no fire burns again (R+1: still burning at the end)
    out_round: list[int] = field(default_factory=list)
    #: [hero][r][status] runs in which the hero has that status at the end of round r
    hero_status: list[list[list[int]]] = field(default_factory=list)
    #: [hero][r] total Dramatic Wounds over the runs at the end of round r
    hero_wounds: list[list[int]] = field(default_factory=list)
    #: [hero] {dramatic wounds at the end: runs}
    hero_final_wounds: list[dict[int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        r2 = self.rounds + 2
        r1 = self.rounds + 1
        if not self.area_first:
            self.area_first = [[0] * r2 for _ in range(self.n_areas)]
            self.area_burning = [[0] * r1 for _ in range(self.n_areas)]
            self.room_first = [[0] * r2 for _ in self.rooms]
            self.room_flash = [[0] * r2 for _ in self.rooms]
            self.burning_hist = [[0] * (self.n_areas + 1) for _ in range(r1)]
            self.out_round = [0] * r2
            self.hero_status = [[[0] * len(STATUSES) for _ in range(r1)] for _ in self.heroes]
            self.hero_wounds = [[0] * r1 for _ in self.heroes]
            self.hero_final_wounds = [{} for _ in self.heroes]

    def add(self, other: _Counts) -> None:
        self.runs += other.runs
        for mine, theirs in ((self.area_first, other.area_first),
                             (self.area_burning, other.area_burning),
                             (self.room_first, other.room_first),
                             (self.room_flash, other.room_flash),
                             (self.burning_hist, other.burning_hist),
                             (self.hero_wounds, other.hero_wounds)):
            for row, add in zip(mine, theirs):
                for k, v in enumerate(add):
                    if v:
                        row[k] += v
        for k, v in enumerate(other.out_round):
            self.out_round[k] += v
        for mine_h, theirs_h in zip(self.hero_status, other.hero_status):
            for row, add in zip(mine_h, theirs_h):
                for k, v in enumerate(add):
                    row[k] += v
        for mine_d, theirs_d in zip(self.hero_final_wounds, other.hero_final_wounds):
            for k, v in theirs_d.items():
                mine_d[k] = mine_d.get(k, 0) + v


# -- one run --------------------------------------------------------------------------------------
def _play(scenario: Buildable, seed: int, counts: _Counts) -> None:
    """Play one seeded run and add it to ``counts`` (per-round state read off the scene)."""
    from fuego.engine.controllers import AutoController, ScriptedController
    from fuego.engine.rounds import finished, play_round, start_scene

    R = counts.rounds
    scene = scenario.build(seed)
    scene.log = _log_for(scene)
    actions = getattr(scenario, "actions", None) or {}
    b = scene.building
    room_index = {key: k for k, key in enumerate(counts.rooms)}
    area_room = [room_index[a.room] for a in b.areas]
    controller = ScriptedController(actions) if actions else AutoController()
    first = [-1] * counts.n_areas
    room_first = [-1] * len(counts.rooms)
    room_flash = [-1] * len(counts.rooms)
    status_index = {s: k for k, s in enumerate(STATUSES)}
    heroes = {h.name: h for h in scene.heroes}
    hero_list = [heroes.get(name) for name in counts.heroes]
    last_burning = -1
    start_scene(scene)
    r = 0
    while True:
        fires = scene.fires
        if fires:
            last_burning = r
        hist_row = counts.burning_hist[r]
        n = 0
        for i in fires:
            n += 1
            counts.area_burning[i][r] += 1
            if first[i] < 0:
                first[i] = r
                k = area_room[i]
                if room_first[k] < 0:
                    room_first[k] = r
        hist_row[n] += 1
        for key in scene.flashed:
            k = room_index[key]
            if room_flash[k] < 0:
                room_flash[k] = r
        for h, hero in enumerate(hero_list):
            if hero is not None:
                counts.hero_status[h][r][status_index[hero.status.value]] += 1
                counts.hero_wounds[h][r] += hero.dramatic
        if r == R:
            break
        if finished(scene):  # over: the same state for the rounds left
            for rr in range(r + 1, R + 1):
                counts.burning_hist[rr][n] += 1
                for i in fires:
                    counts.area_burning[i][rr] += 1
                for h, hero in enumerate(hero_list):
                    if hero is not None:
                        counts.hero_status[h][rr][status_index[hero.status.value]] += 1
                        counts.hero_wounds[h][rr] += hero.dramatic
            if fires:
                last_burning = R
            break
        play_round(scene, controller)
        r += 1
    never = R + 1
    for i, f in enumerate(first):
        counts.area_first[i][f if f >= 0 else never] += 1
    for k in range(len(counts.rooms)):
        counts.room_first[k][room_first[k] if room_first[k] >= 0 else never] += 1
        counts.room_flash[k][room_flash[k] if room_flash[k] >= 0 else never] += 1
    counts.out_round[last_burning + 1 if last_burning < R else never] += 1
    for h, hero in enumerate(hero_list):
        if hero is not None:
            d = counts.hero_final_wounds[h]
            d[hero.dramatic] = d.get(hero.dramatic, 0) + 1
    counts.runs += 1


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


def _init_worker(blob: bytes, shape: tuple) -> None:
    _WORKER["scenario"] = pickle.loads(blob)
    _WORKER["shape"] = shape


def _chunk(seed: int, start: int, stop: int, scenario: Buildable | None = None,
           shape: tuple | None = None) -> tuple[int, _Counts]:
    scenario = scenario if scenario is not None else _WORKER["scenario"]
    shape = shape if shape is not None else _WORKER["shape"]
    counts = _Counts(*shape)
    # A run allocates a building, its events and caches that live until it ends, and the
    # collector would walk them over and over meanwhile (~10 % of a tavern run): collect once
    # after each run instead, which also frees the run's own cycles.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for i in range(start, stop):
            _play(scenario, run_seed(seed, i), counts)
            gc.collect(1)
    finally:
        if collecting:
            gc.enable()
    return start, counts


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


def _p(count: int, runs: int) -> float:
    return round(count / runs, 6) if runs else 0.0


def _quantile(hist: list[int], runs: int, q: float) -> int:
    """The smallest n with at least q of the runs at or below it."""
    need = math.ceil(q * runs)
    total = 0
    for n, k in enumerate(hist):
        total += k
        if total >= max(1, need):
            return n
    return len(hist) - 1


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

    # -- per area ---------------------------------------------------------------------------
    def p_burning_by(self, round_: int) -> list[float]:
        """Per area, the chance it has burned by the end of ``round_``."""
        return [_p(sum(h[: round_ + 1]), self.runs) for h in self.counts.area_first]

    def p_out_by_round(self) -> list[float]:
        """Per round, the chance that no fire burns from then on."""
        return _cumulative(self.counts.out_round, self.runs)

    def burning_areas(self) -> dict[str, list[float]]:
        c = self.counts
        hists = c.burning_hist
        mean = [round(sum(n * k for n, k in enumerate(h)) / self.runs, 6) for h in hists]
        return {
            "mean": mean,
            "p10": [_quantile(h, self.runs, 0.10) for h in hists],
            "p50": [_quantile(h, self.runs, 0.50) for h in hists],
            "p90": [_quantile(h, self.runs, 0.90) for h in hists],
        }

    def hero_curves(self) -> dict[str, dict[str, list[float]]]:
        """Per hero and round: mean Dramatic Wounds, chance of being down (KO or dead), out."""
        out = {}
        ko, dead, esc = (STATUSES.index(s) for s in ("knocked-out", "dead", "escaped"))
        for h, name in enumerate(self.counts.heroes):
            st = self.counts.hero_status[h]
            out[name] = {
                "mean_dramatic_wounds": [round(w / self.runs, 6)
                                         for w in self.counts.hero_wounds[h]],
                "p_down": [_p(row[ko] + row[dead], self.runs) for row in st],
                "p_dead": [_p(row[dead], self.runs) for row in st],
                "p_escaped": [_p(row[esc], self.runs) for row in st],
            }
        return out

    def to_dict(self) -> dict[str, Any]:
        """Every number of the forecast as plain JSON data (identical for any ``jobs``)."""
        c = self.counts
        R = self.rounds
        areas = {}
        for i, name in enumerate(self.area_names):
            hist = c.area_first[i]
            areas[name] = {
                "room": self.area_rooms[i],
                "fuel": self.area_fuel[i],
                "p_burning_by_round": _cumulative(hist, self.runs),
                "p_burning_at_round": [_p(n, self.runs) for n in c.area_burning[i]],
                "p_ever": _p(sum(hist[:-1]), self.runs),
                "median_first_round": _median_round(hist, self.runs),
                "median_first_round_when_it_burns": _conditional_median(hist),
            }
        rooms = {}
        for k, key in enumerate(c.rooms):
            hist, flash = c.room_first[k], c.room_flash[k]
            rooms[key] = {
                "name": self.room_names.get(key, key),
                "p_burning_by_round": _cumulative(hist, self.runs),
                "p_ever": _p(sum(hist[:-1]), self.runs),
                "median_first_round": _median_round(hist, self.runs),
                "median_first_round_when_it_burns": _conditional_median(hist),
                "p_flashover": _p(sum(flash[:-1]), self.runs),
                "p_flashover_by_round": _cumulative(flash, self.runs),
                "median_flashover_round_when_it_happens": _conditional_median(flash),
            }
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
            heroes[name] = {
                "p_escaped": _p(final[STATUSES.index("escaped")], self.runs),
                "p_knocked_out": _p(final[STATUSES.index("knocked-out")], self.runs),
                "p_killed": _p(final[STATUSES.index("dead")], self.runs),
                "p_still_inside": _p(final[STATUSES.index("active")], self.runs),
                "median_escape_round_when_escaping": _conditional_median(esc_hist),
                "dramatic_wounds": {str(k): _p(wounds[k], self.runs) for k in sorted(wounds)},
                "mean_dramatic_wounds": round(sum(k * v for k, v in wounds.items()) / self.runs, 6),
                **{f"{key}_by_round": value for key, value in curves[name].items()},
            }
        out = c.out_round
        return {
            "scenario": self.title,
            "seed": self.seed,
            "runs": self.runs,
            "rounds": R,
            "run_seed": "Roller(seed).spawn(i).seed = (seed * 1000003 + i) mod 2**48",
            "fire_out": {
                "p_out_by_round": self.p_out_by_round(),
                "p_still_burning": _p(out[R + 1], self.runs),
                "median_round": _median_round(out, self.runs),
                "median_round_when_out": _conditional_median(out),
                "distribution": {**{str(r): _p(n, self.runs) for r, n in enumerate(out[:-1]) if n},
                                 **({"still burning": _p(out[R + 1], self.runs)}
                                    if out[R + 1] else {})},
            },
            "burning_areas_by_round": self.burning_areas(),
            "areas": areas,
            "rooms": rooms,
            "heroes": heroes,
        }


# -- the forecast ---------------------------------------------------------------------------------
def _check(name: str, value: Any, lo: int, hi: int, tip: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FuegoError(f"{name} must be a whole number, not {value!r}", tip=tip)
    if not lo <= value <= hi:
        raise LimitError(f"{name} must be between {lo} and {hi}, not {value}", tip=tip)
    return value


def forecast(scenario: Buildable, runs: int = 1000, rounds: int | None = None, seed: int = 1,
             jobs: int = 1, progress: Callable[[int, int], None] | None = None,
             chunk: int | None = None, start_method: str | None = None) -> ForecastResult:
    """Play ``runs`` seeded runs of ``scenario`` for at most ``rounds`` rounds and count.

    ``scenario`` is anything with ``build(seed) -> Scene`` and ``settings`` (a loaded
    :class:`fuego.scenario.Scenario`). ``rounds`` defaults to the scenario's ``max_rounds``
    and may not exceed it. ``jobs`` processes share the runs (1: all in this process).
    ``progress(done, total)`` is called after each chunk of runs. ``start_method``: how worker
    processes start (``fork``, ``spawn``, ``forkserver``; default ``fork`` on Linux, else
    ``spawn``); it changes nothing in the numbers. Raises :class:`FuegoError`
    for runs outside 1..100000, rounds outside 1..max_rounds, jobs outside 1..64.
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
    if chunk is None:
        chunk = max(1, min(250, math.ceil(runs / (jobs * 8))))
    bounds = [(s, min(runs, s + chunk)) for s in range(0, runs, chunk)]
    done = 0
    if jobs == 1 or len(bounds) == 1:
        for start, stop in bounds:
            _, counts = _chunk(seed, start, stop, scenario, shape)
            total.add(counts)
            done += stop - start
            if progress:
                progress(done, runs)
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed
        from concurrent.futures.process import BrokenProcessPool

        try:
            blob = pickle.dumps(scenario)
        except Exception as exc:  # noqa: BLE001 - any pickling failure means the same thing
            raise FuegoError(f"this scenario cannot be sent to worker processes ({exc})",
                             tip="use --jobs 1") from exc
        if start_method is None:
            linux = sys.platform.startswith("linux")
            start_method = "fork" if linux and threading.active_count() == 1 else "spawn"
        ctx = multiprocessing.get_context(start_method)
        pending: dict[int, _Counts] = {}
        order = [start for start, _ in bounds]
        nxt = 0
        with ProcessPoolExecutor(max_workers=min(jobs, len(bounds)), mp_context=ctx,
                                 initializer=_init_worker, initargs=(blob, shape)) as pool:
            futures = [pool.submit(_chunk, seed, start, stop) for start, stop in bounds]
            for fut in as_completed(futures):
                try:
                    start, counts = fut.result()
                except BrokenProcessPool:
                    raise FuegoError("a worker process stopped unexpectedly (out of memory, or "
                                     "killed)", tip="try fewer --jobs, or --jobs 1") from None
                pending[start] = counts
                done += counts.runs
                # add in run-index order (integer sums: the order only keeps memory bounded)
                while nxt < len(order) and order[nxt] in pending:
                    total.add(pending.pop(order[nxt]))
                    nxt += 1
                if progress:
                    progress(done, runs)
    return ForecastResult(
        title=first.title or b.title, seed=seed, runs=runs, rounds=rounds,
        area_names=[a.name for a in b.areas], area_rooms=[a.room for a in b.areas],
        area_fuel=[a.fuel for a in b.areas],
        room_names={k: r.name for k, r in b.rooms.items()}, counts=total, building=b, jobs=jobs,
    )
