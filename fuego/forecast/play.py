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


def play_run(scenario: Buildable, seed: int, counts: Counts,  # noqa: C901
             plans: HeroPlans | None = None) -> Run:
    """Play one seeded run through the scene loop (:func:`fuego.engine.loop.run`) and return
    what it adds to ``counts``: the state read off at every round boundary, and how it ended."""
    from fuego.engine.loop import run as play

    R = counts.rounds
    scene = scenario.build(seed)
    scene.log = log_for(scene)
    actions = getattr(scenario, "actions", None) or {}
    b = scene.building
    room_index = {key: k for k, key in enumerate(counts.rooms)}
    area_room = [room_index[a.room] for a in b.areas]
    run = Run()
    outdoors = [b.room_of(a.index).outdoors for a in b.areas]
    # every hero counted, those the script brings in later too (absent until they come)
    cast = -1
    hero_list: list = []
    run.heroes = [[] for _ in counts.heroes]
    watch = Watch(scene, len(counts.heroes), room_index, area_room)
    started: dict[int, int] = {}  # area -> the round its current fire began
    last_burning = -1

    def observe(scene: Scene) -> None:
        """The state at the end of round ``r`` (0: as the scene starts), counted."""
        nonlocal last_burning, cast, hero_list
        r = scene.round
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
            if rows is not None:
                rows.append(_hero_row(hero, outdoors))
        watch.look(scene, r, hero_list)

    outcome = play(scene, _controller(actions, plans), observe, R)
    run.ending, run.ended = outcome.why, outcome.round
    if outcome.round < R and scene.fires:  # over early: the same state for the rounds left
        last_burning = R
    for i, start in started.items():
        run.spans.append((i, start, R + 1))
    never = R + 1
    run.out = last_burning + 1 if last_burning < R else never
    run.levers = [None if not rows or rows[-1][0] == ABSENT
                  else watch.levers(h, rows[-1][0] in DOWN)
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
