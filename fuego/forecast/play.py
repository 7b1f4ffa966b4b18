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
from fuego.engine.events import EventLog
from fuego.forecast.counts import DOWN, STATUSES, Counts, Run
from fuego.forecast.levers import Watch

if TYPE_CHECKING:
    from fuego.engine.heroes import Hero
    from fuego.engine.loop import Outcome
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


STATUS_INDEX = {s: k for k, s in enumerate(STATUSES)}
ACTIVE, OUTSIDE, ABSENT = (STATUS_INDEX[s] for s in ("active", "outside", "absent"))


def _hero_row(hero: Hero | None, outdoors: list[bool]) -> tuple[int, int]:
    """A hero's (status index, Dramatic Wounds) at a round's end: absent until they come,
    in the open when standing outdoors (not still inside)."""
    if hero is None:
        return ABSENT, 0
    status = STATUS_INDEX[hero.status.value]
    if status == ACTIVE and outdoors[hero.area]:
        status = OUTSIDE
    return status, hero.dramatic


def play_run(scenario: Buildable, seed: int, counts: Counts,
             plans: HeroPlans | None = None) -> Run:
    """Play one seeded run through the scene loop (:func:`fuego.engine.loop.run`) and return
    what it adds to ``counts``: the state read off at every round boundary, and how it ended."""
    from fuego.engine.loop import run as play

    scene = scenario.build(seed)
    scene.log = log_for(scene)
    actions = getattr(scenario, "actions", None) or {}
    tally = _Tally(scene, counts)
    controller = _controller(actions, plans)
    outcome = play(scene, controller, tally.observe, counts.rounds)
    run = tally.finish(scene, outcome, counts.rounds)
    run.skipped = list(getattr(controller, "skipped", ()))  # (scripted actions refused)
    return run


class _Tally:
    """One run's counts, read off the scene at every round boundary: when each area and room
    first burned and each fire's span, the fires burning, flashovers, every hero's row (those
    the script brings in later too: absent until they come) and the levers they went through."""

    def __init__(self, scene: Scene, counts: Counts) -> None:
        b = scene.building
        self.counts = counts
        self.room_index = {key: k for k, key in enumerate(counts.rooms)}
        self.area_room = [self.room_index[a.room] for a in b.areas]
        self.outdoors = [b.room_of(a.index).outdoors for a in b.areas]
        self.run = Run()
        self.run.heroes = [[] for _ in counts.heroes]
        self.cast = -1
        self.hero_list: list = []
        self.watch = Watch(scene, len(counts.heroes), self.room_index, self.area_room)
        self.started: dict[int, int] = {}  # area -> the round its current fire began
        self.last_burning = -1

    def observe(self, scene: Scene) -> None:
        """The state at the end of round ``r`` (0: as the scene starts), counted."""
        r = scene.round
        self._fires(scene.fires, r)
        for key in scene.flashed:
            self.run.room_flash.setdefault(self.room_index[key], r)
        self._heroes(scene)
        self.watch.look(scene, r, self.hero_list)

    def _fires(self, fires: dict, r: int) -> None:
        """Fires begun this round (an area's and a room's first), spans of those gone out, and
        how many burn."""
        run, started = self.run, self.started
        if fires:
            self.last_burning = r
        for i in fires:
            if i not in started:
                started[i] = r
                if i not in run.area_first:
                    run.area_first[i] = r
                    run.room_first.setdefault(self.area_room[i], r)
        for i in [i for i in started if i not in fires]:
            run.spans.append((i, started.pop(i), r))
        run.burning.append(len(fires))

    def _heroes(self, scene: Scene) -> None:
        """Each counted hero's row for this round (the cast read again when someone came in)."""
        if len(scene.heroes) != self.cast:
            self.cast = len(scene.heroes)
            by_name = {h.name: h for h in scene.heroes}
            self.hero_list = [by_name.get(name) for name in self.counts.heroes]
        for rows, hero in zip(self.run.heroes, self.hero_list):
            if rows is not None:
                rows.append(_hero_row(hero, self.outdoors))

    def finish(self, scene: Scene, outcome: Outcome, R: int) -> Run:
        """The run once the scene is over: how it ended, the spans of fires still burning, the
        round the fire was out (never: R + 1), and each hero's levers."""
        run = self.run
        run.ending, run.ended = outcome.why, outcome.round
        if outcome.round < R and scene.fires:  # over early: the same state for the rounds left
            self.last_burning = R
        for i, start in self.started.items():
            run.spans.append((i, start, R + 1))
        never = R + 1
        run.out = self.last_burning + 1 if self.last_burning < R else never
        run.levers = [None if not rows or rows[-1][0] == ABSENT
                      else self.watch.levers(h, rows[-1][0] in DOWN)
                      for h, rows in enumerate(run.heroes)]
        return run


class ScriptReads(EventLog):
    """A forecast's log: nobody reads its events but the script, so it keeps only the kinds the
    script reads and drops the rest as they come (the engine logs every event alike)."""

    __slots__ = ()

    def __init__(self, kinds: frozenset) -> None:
        super().__init__(kinds=kinds)


def log_for(scene: Scene) -> EventLog:
    """Where a forecast run's events go: all of them (the scene's own log) where a rule module
    or the script may read any; otherwise only those its script reads (none without one)."""
    reads = scene.script.reads if scene.script is not None else frozenset()
    if scene.modules or reads is None:
        return scene.log
    sink = ScriptReads(reads)
    for event in scene.log:  # what the build logged (the starting fires) goes through it too
        sink.append(event)
    return sink
