"""One run of a forecast: the scene built with the run's seed, played round by round with the
heroes following their plans, and read off into a :class:`~fuego.forecast.counts.Run`.

Run ``i`` (0-based) of a forecast seeded ``seed`` plays the scene built with seed
:func:`run_seed` ``(seed, i)`` = ``Roller(seed).spawn(i).seed`` = ``(seed * 1_000_003 + i) mod
2**48``, and nothing else: which process or machine plays it, and which runs share a work unit,
do not matter. :func:`play_run` is the loop that plays it; the rest of the package only counts
and distributes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from fuego.dice.roller import Roller
from fuego.forecast.counts import DOWN, STATUSES, Counts, Run
from fuego.forecast.levers import Watch

if TYPE_CHECKING:
    from fuego.engine.plans import HeroPlans
    from fuego.engine.scene import Scene

__all__ = ["Buildable", "run_seed", "play_run", "ScriptReads", "log_for"]


class Buildable(Protocol):
    """What a forecast plays: a loaded :class:`fuego.scenario.model.Scenario`, or anything that
    builds a scene from a seed and has ``settings``."""

    @property
    def settings(self) -> Any: ...

    def build(self, seed: int) -> Scene: ...


def run_seed(seed: int, index: int) -> int:
    """The seed of run ``index`` of a forecast seeded ``seed`` (``Roller(seed).spawn(index)``)."""
    spawned = Roller(seed).spawn(index).seed
    assert spawned is not None
    return spawned


def _controller(actions: dict, plans: HeroPlans | None):
    from fuego.engine.controllers import AutoController, ScriptedController
    from fuego.engine.plans import PlanController

    base = PlanController(plans) if plans is not None else AutoController()
    return ScriptedController(actions, fallback=base) if actions else base


def play_run(scenario: Buildable, seed: int, counts: Counts,
             plans: HeroPlans | None = None) -> Run:
    """Play one seeded run and return what it adds to ``counts`` (read off the scene)."""
    from fuego.engine.rounds import finished, play_round, start_scene

    R = counts.rounds
    scene = scenario.build(seed)
    scene.log = log_for(scene)
    actions = getattr(scenario, "actions", None) or {}
    b = scene.building
    room_index = {key: k for k, key in enumerate(counts.rooms)}
    area_room = [room_index[a.room] for a in b.areas]
    controller = _controller(actions, plans)
    run = Run()
    status_index = {s: k for k, s in enumerate(STATUSES)}
    active, outside, absent = (status_index[s] for s in ("active", "outside", "absent"))
    outdoors = [b.room_of(a.index).outdoors for a in b.areas]
    # every hero counted, those the script brings in later too (absent until they come)
    cast = -1
    hero_list: list = []
    run.heroes = [[] for _ in counts.heroes]
    watch = Watch(scene, len(counts.heroes), room_index, area_room)
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
        if len(scene.heroes) != cast:  # someone came in
            cast = len(scene.heroes)
            by_name = {h.name: h for h in scene.heroes}
            hero_list = [by_name.get(name) for name in counts.heroes]
        for rows, hero in zip(run.heroes, hero_list):
            if rows is None:
                continue
            if hero is None:
                rows.append((absent, 0))
                continue
            status = status_index[hero.status.value]
            if status == active and outdoors[hero.area]:  # standing in the open: not inside
                status = outside
            rows.append((status, hero.dramatic))
        watch.look(scene, r, hero_list)
        if r == R:
            break
        if finished(scene):  # over: the same state for the rounds left
            if fires:
                last_burning = R
            break
        play_round(scene, controller)
        r += 1
    for i, start in started.items():
        run.spans.append((i, start, R + 1))
    never = R + 1
    run.out = last_burning + 1 if last_burning < R else never
    run.levers = [None if not rows or rows[-1][0] == absent
                  else watch.levers(h, rows[-1][0] in DOWN)
                  for h, rows in enumerate(run.heroes)]
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


def log_for(scene: Scene) -> list:
    """Where a forecast run's events go: all of them (the scene's own log) where a rule module
    or the script may read any; otherwise only those its script reads (none without one)."""
    reads = scene.script.reads if scene.script is not None else frozenset()
    if scene.modules or reads is None:
        return scene.log
    sink = ScriptReads(reads)
    for event in scene.log:  # what the build logged (the starting fires) goes through it too
        sink.append(event)
    return sink
