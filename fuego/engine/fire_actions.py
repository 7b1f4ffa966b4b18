"""What a fire can do with an action (003, Crunchy Rules for Fire Spreading).

- **Grow**: Spreading against 5 x Fire Dice; success adds one die (at most 10).
- **Spread** along a route of fuel (carpet, curtains, hangings, spilt oil): no roll. The next
  area gets a fire of half the Fire Dice; going farther, every area on the way gets a two-dice
  fire. A fire of one or two dice reaches only the next area.
- **Leap**: Spreading against 5 x the gap in yards (2 x yards going up or down); a one-die fire.
  A fire of one or two dice leaps only to adjacent areas (corners touching count).
- **Burn through** a wall, door, window or floor: Spreading against the pass-through TN; a fire of
  half the Fire Dice on the far side. The barrier stands.
- **Destroy** a wall, door, window, floor or structural beam: Destruction against its TN. The
  barrier becomes an opening; debris threatens everyone beside it on both sides; a floor (or the
  floor a beam held) collapses and drops whoever stands on it.

:func:`candidates` lists what a fire could do now; a policy (``fuego.engine.policy``) picks one;
:func:`perform` rolls it through the scene's roller and changes the scene (its acts on the
structure through ``fuego.engine.structure``).
"""

from __future__ import annotations

import math
from enum import Enum
from itertools import islice
from typing import TYPE_CHECKING, NamedTuple

from fuego.engine import structure
from fuego.engine.events import EventKind
from fuego.engine.fire import Fire, new_fire_dice
from fuego.rules.charts import (
    ADJACENT_ONLY_MAX_FD,
    AREA_FEET,
    DESTRUCTION_TN,
    LEAP_NEW_FD,
    LEAP_TN_PER_YARD,
    MAX_FIRE_DICE,
    ROUTE_WAYPOINT_FD,
)
from fuego.world.places import BEAM_STRUCTURE, Change, Feature

if TYPE_CHECKING:
    from fuego.engine.scene import Scene


class ActionKind(str, Enum):
    GROW = "grow"
    SPREAD = "spread"
    LEAP = "leap"
    BURN_THROUGH = "burn-through"
    DESTROY = "destroy"


class FireAction(NamedTuple):
    """One thing a fire could do now (a tuple: candidates makes thousands a round)."""

    kind: ActionKind
    tn: int | None = None  # None: no roll (spreading along a route)
    target: int | None = None  # area set alight, or the area holding a beam
    barrier: int | None = None  # barrier index for burn-through and destroy
    path: tuple[int, ...] = ()  # route spreading: the areas in order, target last
    beam: Feature | None = None
    fuel_behind: int = 0  # unlit fuel this action opens up (for policies)


def yards(feet: float) -> int:
    """Feet to whole yards, rounding up, at least one (a leap is never free)."""
    return max(1, math.ceil(feet / 3 - 1e-9))


def leap_tn(scene: Scene, src: int, dst: int, moves: int) -> int:
    """5 x yards across the gap, plus 2 x yards up or down (003).

    The gap is geometric, edge to edge (:meth:`Building.gap_feet`): areas whose sides or only
    corners touch are 0 ft apart, one yard (a leap is never free: TN 5). That holds where open
    space runs straight there (``moves``, the walk through open space, is no longer than the
    squares and levels between); a leap that must go around a wall counts its walk, 10 ft for
    each area between (fuego's reading, docs/rules.md)."""
    b = scene.building
    a, c = b.areas[src], b.areas[dst]
    dc, dr = abs(a.col - c.col), abs(a.row - c.row)
    rise = abs(b.levels[c.level].elevation - b.levels[a.level].elevation)
    per_yard = LEAP_TN_PER_YARD["horizontal"], LEAP_TN_PER_YARD["vertical"]  # (house rules)
    key = (dc, dr, rise, moves, per_yard)
    tn = _LEAP_TNS.get(key)
    if tn is None:
        if moves <= dc + dr + rise:  # straight across: the geometric gap
            across = bool(dc or dr)
            feet = b.gap_feet(src, dst)[0]
        else:  # around a wall: the walk's areas between
            flat = max(0, moves - rise)
            across, feet = bool(flat), max(0, flat - 1) * AREA_FEET
        tn = LEAP_TN_PER_YARD["horizontal"] * yards(feet) if across else 0
        if rise:
            tn += LEAP_TN_PER_YARD["vertical"] * yards(rise * AREA_FEET)
        _LEAP_TNS[key] = tn
    return tn


_LEAP_TNS: dict[tuple, int] = {}  # (columns, rows, levels, moves, TN per yard) -> TN: a few dozen


def adjacent(scene: Scene, src: int, dst: int, moves: int) -> bool:
    """Is ``dst`` adjacent to ``src`` for a small fire (003: "A one or two dice fire can only
    start fires in adjacent areas")? The next area through an opening (side by side, or above
    or below), or one whose corner touches on the same level with open space straight there
    (fuego's reading: a 0-ft gap, as for :func:`leap_tn`)."""
    if moves == 1:
        return True
    a, c = scene.building.areas[src], scene.building.areas[dst]
    return (moves == 2 and a.level == c.level and abs(a.col - c.col) == 1
            and abs(a.row - c.row) == 1)


def _unlit(scene: Scene, i: int) -> bool:
    return scene.building.areas[i].burnable and i not in scene.fires


class _LeapCache:
    """What is known of unlit fuel within a leap (``max_leap_areas`` moves through the open
    graph, :meth:`fuego.world.paths.Paths.reach`), so fires with none near need not search
    (docs/performance.md).

    Unlit fuel only ever goes away while no area is given fuel that may burn (a fire put out
    early, a script's spilt oil): changes that only take fuel away (an area burned out) keep
    the cache and move ``version`` on; a barrier change starts a new one that keeps what was
    known of the areas whose reach stands; fuel given back starts over. ``near``: when the
    scene has many more fires than unlit areas, the areas within a leap of any unlit fuel
    (found once, from the fuel); every other area is calm. Otherwise ``calm`` fills fire by
    fire. ``live``: per area, the targets that were unlit when last looked at: an area that
    burns or burns out never becomes unlit again while the cache stands, so each look starts
    from the last one's. ``made``: per area, the reach's area
    order it was made from and the leap actions made from there so far (area -> action, its
    TN before modules): the same while the reach is.
    """

    __slots__ = ("version", "steps", "near", "calm", "live", "made")

    def __init__(self, scene: Scene, steps: int, made: dict[int, tuple],
                 kept: tuple | None = None) -> None:
        b, fires = scene.building, scene.fires
        self.version = b.version
        self.steps = steps
        self.made = made
        self.near: set[int] | None = None
        self.live: dict[int, list[int]]
        self.calm: set[int]
        self.live, self.calm = kept or ({}, set())
        if len(fires) * 8 < len(b.areas):
            return
        # (stop looking once there are too many: the usual case while a fire is young)
        most = len(fires) // 8
        unlit = list(islice((i for i, a in enumerate(b.areas) if a.burnable and i not in fires),
                            most + 1))
        if len(unlit) > most:
            return
        self.near = b.paths.near(unlit, steps)


def _leap_cache(scene: Scene) -> _LeapCache:
    cache = scene.leap_cache
    b, steps = scene.building, scene.settings.max_leap_areas
    if cache is not None and cache.steps == steps:
        if cache.version == b.version:  # (asked by every fire's every action)
            return cache
        changes = b.changes_since(cache.version)
        if changes is not None:
            areas, fires = b.areas, scene.fires
            if not any(what is Change.AREA and areas[i].burnable and i not in fires
                       for what, i in changes):
                # No fuel came back: only barriers changed, or fuel went away.
                sides = {i for what, k in changes if what is Change.BARRIER
                         for i in (b.barriers[k].a, b.barriers[k].b)}
                if not sides:
                    cache.version = b.version
                    return cache
                # Where an area's reach stands (the paths kept it), what was known of it holds.
                made, reaches = cache.made, b.paths.kept_reaches()

                def same(i: int) -> bool:
                    known, now = made.get(i), reaches.get(i)
                    return known is not None and now is not None and now[2] is known[0]

                calm = {i for i in cache.calm if same(i)}
                kept = ({i: live for i, live in cache.live.items() if same(i)}, calm)
                cache = scene.leap_cache = _LeapCache(scene, steps, made, kept)
                return cache
    made = cache.made if cache is not None and cache.steps == steps else {}
    cache = scene.leap_cache = _LeapCache(scene, steps, made)
    return cache


def route_paths(scene: Scene, fire: Fire) -> list[tuple[int, ...]]:
    """For each route through the fire's area and each direction: the run to the farthest
    unlit fuel it can reach (stopping at barriers that are not passable)."""
    b = scene.building
    out = []
    for route in b.routes_at(fire.area):
        areas = route.areas
        pos = areas.index(fire.area)
        for step in (1, -1):
            path: list[int] = []
            k, prev = pos + step, fire.area
            while 0 <= k < len(areas):
                nxt = areas[k]
                barrier = b.between(prev, nxt)
                if barrier is None or not barrier.passable:
                    break
                path.append(nxt)
                prev, k = nxt, k + step
            if fire.fd <= ADJACENT_ONLY_MAX_FD:
                path = path[:1]
            # The farthest unlit area on the run is the target; burning ones on the way are fine.
            last = max((n for n, i in enumerate(path) if _unlit(scene, i)), default=-1)
            if last >= 0:
                out.append(tuple(path[: last + 1]))
    return out


def candidates(scene: Scene, fire: Fire, *, fuel_only: bool = False) -> list[FireAction]:  # noqa: C901
    """Every action open to ``fire`` now, with its TN after module adjustments.

    ``fuel_only``: leave out breaking a barrier with no unlit fuel behind it (the grow, the
    actions that reach fuel and the beams are all a ``hungry`` fire ever picks from)."""
    b = scene.building
    mods = scene.modules
    acts: list[FireAction] = []
    here = fire.area

    if mods:
        def adjust(tn: int, target: int, how: ActionKind) -> int | None:
            for m in mods:
                changed = m.spread_tn(scene, fire, target, tn, how)
                if changed is None:  # a module forbids it (e.g. upwind in heavy winds)
                    return None
                tn = changed
            return tn

    if fire.fd < MAX_FIRE_DICE:
        tn = adjust(fire.grow_tn, here, ActionKind.GROW) if mods else fire.grow_tn
        if tn is not None:
            acts.append(FireAction(ActionKind.GROW, tn, here))
    if b.routes_at(here):
        for path in route_paths(scene, fire):
            fuel = sum(b.areas[i].fuel for i in path if _unlit(scene, i))
            acts.append(FireAction(ActionKind.SPREAD, None, path[-1], path=path,
                                   fuel_behind=fuel))
    cache = _leap_cache(scene)
    areas, fires = b.areas, scene.fires
    for j, barrier, tn, dtn in b.paths.walls(here):
        area = areas[j]
        behind = area.fuel if j not in fires and area.burnable else 0
        if fuel_only and not behind:
            continue
        if tn is not None and behind and mods:
            tn = adjust(tn, j, ActionKind.BURN_THROUGH)
        if tn is not None and behind:
            acts.append(FireAction(ActionKind.BURN_THROUGH, tn, j, barrier, fuel_behind=behind))
        if dtn is not None:
            acts.append(FireAction(ActionKind.DESTROY, dtn, j, barrier, fuel_behind=behind))
    features = b.areas[here].features
    for feature, built in BEAM_STRUCTURE.items() if features else ():
        if feature in features:
            acts.append(FireAction(ActionKind.DESTROY, DESTRUCTION_TN[built], here,
                                   beam=feature))
    if (cache.near is not None and here not in cache.near) or here in cache.calm:
        return acts
    reach, order = b.paths.reach(here, cache.steps)
    known = cache.made.get(here)
    if known is None or known[0] is not order:  # (a barrier changed the reach: made anew)
        if len(cache.made) >= 4096:  # a bound on what a huge front may leave behind
            cache.made.clear()
        known = cache.made[here] = (order, {})
    made = known[1]
    still: list[int] = []  # the targets unlit now, for the next look
    small = fire.fd <= ADJACENT_ONLY_MAX_FD  # (003: adjacent areas only; the rest stay known)
    for j in cache.live.get(here, order):
        if j in fires:  # (the fire's own area among them)
            continue
        area = areas[j]
        if not area.burnable:
            continue
        still.append(j)
        if small and not adjacent(scene, here, j, reach[j]):
            continue
        act = made.get(j)  # the same leap as last time while the fuel there is the same
        if act is None:
            act = made[j] = FireAction(ActionKind.LEAP, leap_tn(scene, here, j, reach[j]), j,
                                       fuel_behind=area.fuel)
        elif act.fuel_behind != area.fuel:  # (the gap, and so the TN, is the same)
            act = made[j] = FireAction(ActionKind.LEAP, act.tn, j, fuel_behind=area.fuel)
        if mods:
            tn = adjust(act.tn, j, ActionKind.LEAP)
            if tn is not None:
                acts.append(FireAction(ActionKind.LEAP, tn, j, fuel_behind=area.fuel))
            continue
        acts.append(act)
    cache.live[here] = still
    if not still:
        cache.calm.add(here)
    return acts


def perform(scene: Scene, fire: Fire, act: FireAction) -> bool:
    """Carry out an action; returns whether it succeeded. Every roll is logged as it is made.

    Every rolled action is one roll of the fire's pool (Destruction to destroy, Spreading for
    the rest) against the action's TN: a failure is logged alike for all of them."""
    from fuego.engine.scene import Cause

    name = scene.fire_name(fire)
    kind = act.kind
    if kind is ActionKind.SPREAD:
        for i in act.path[:-1]:
            if _unlit(scene, i):
                scene.start_fire(i, ROUTE_WAYPOINT_FD, Cause.ROUTE, source=fire, via="on the way")
        new = scene.start_fire(act.path[-1], new_fire_dice(fire.fd), Cause.ROUTE, source=fire)
        scene.emit(EventKind.FIRE_SPREAD, name, fire.area, to=scene.area_name(act.path[-1]),
                   path=[scene.area_name(i) for i in act.path], fd=new.fd if new else 0)
        return new is not None
    pool = fire.destruction_pool() if kind is ActionKind.DESTROY else fire.spreading_pool()
    total = scene.roller.total(pool)
    tn = act.tn
    assert tn is not None  # (every action but spreading along a route is rolled)
    ok = total >= tn
    if not ok:
        target = scene.area_name(act.target) if act.target is not None else None
        scene.emit(EventKind.FIRE_ACTION_FAILED, name, fire.area, action=kind.value,
                   target=target, pool=pool.notation, tn=tn, total=total, success=False)
        return False
    detail = {"pool": pool.notation, "tn": tn, "total": total, "success": True}
    if kind is ActionKind.GROW:  # one more die (candidates offer it below ten dice only)
        before = fire.fd
        fire.fd = min(before + 1, MAX_FIRE_DICE)
        scene.emit(EventKind.FIRE_GREW, name, fire.area, fd=fire.fd, before=before, why="grow",
                   **detail)
    elif kind is ActionKind.LEAP:
        assert act.target is not None
        scene.emit(EventKind.FIRE_LEAPT, name, fire.area, to=scene.area_name(act.target), **detail)
        scene.start_fire(act.target, LEAP_NEW_FD, Cause.LEAP, source=fire)
    elif kind is ActionKind.BURN_THROUGH:
        assert act.target is not None and act.barrier is not None
        structure.burn_through(scene, fire, scene.building.barriers[act.barrier], act.target,
                               detail)
    elif kind is ActionKind.DESTROY:
        if act.beam is not None:
            structure.destroy_beam(scene, fire.area, act.beam, fire.fd, name, detail)
        else:
            assert act.barrier is not None
            structure.break_barrier(scene, scene.building.barriers[act.barrier], fire.fd, name,
                                    detail)
    return True
