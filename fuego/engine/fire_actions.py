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

from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, NamedTuple

from fuego.engine import structure
from fuego.engine.events import EventKind
from fuego.engine.events import shape as event_shape
from fuego.engine.fire import Fire, new_fire_dice
from fuego.engine.scene import Cause
from fuego.rules.charts import (
    ADJACENT_ONLY_MAX_FD,
    DESTRUCTION_TN,
    LEAP_NEW_FD,
    MAX_FIRE_DICE,
    ROUTE_WAYPOINT_FD,
)
from fuego.world.places import BEAM_STRUCTURE, Feature

if TYPE_CHECKING:
    from fuego.engine.scene import Scene


class ActionKind(str, Enum):
    GROW = "grow"
    SPREAD = "spread"
    LEAP = "leap"
    BURN_THROUGH = "burn-through"
    DESTROY = "destroy"


class FireAction(NamedTuple):
    """One thing a fire could do now (a tuple: candidates makes thousands a round, some from
    the fields in this order)."""

    kind: ActionKind
    tn: int | None = None  # None: no roll (spreading along a route)
    target: int | None = None  # area set alight, or the area holding a beam
    barrier: int | None = None  # barrier index for burn-through and destroy
    path: tuple[int, ...] = ()  # route spreading: the areas in order, target last
    beam: Feature | None = None
    fuel_behind: int = 0  # unlit fuel this action opens up (for policies)


def adjacent(scene: Scene, src: int, dst: int, moves: int) -> bool:
    """Is ``dst`` adjacent to ``src`` for a small fire (003: "A one or two dice fire can only
    start fires in adjacent areas")? The next area through an opening (side by side, or above
    or below), or one whose corner touches on the same level with open space straight there
    (fuego's reading: a 0-ft gap, as for :func:`fuego.rules.formulas.leap_tn`)."""
    if moves == 1:
        return True
    a, c = scene.building.areas[src], scene.building.areas[dst]
    return (moves == 2 and a.level == c.level and abs(a.col - c.col) == 1
            and abs(a.row - c.row) == 1)


def _unlit(scene: Scene, i: int) -> bool:
    return scene.building.areas[i].burnable and i not in scene.fires


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


def candidates(scene: Scene, fire: Fire, *, fuel_only: bool = False) -> list[FireAction]:
    """Every action open to ``fire`` now, with its TN after module adjustments, in one order:
    grow, spread along its routes, burn through or destroy the barriers around it, destroy its
    beams, leap.

    ``fuel_only``: leave out breaking a barrier with no unlit fuel behind it (the grow, the
    actions that reach fuel and the beams are all a ``hungry`` fire ever picks from)."""
    b, here = scene.building, fire.area
    adjust = _adjuster(scene, fire) if scene.modules else None
    acts: list[FireAction] = []
    if fire.fd < MAX_FIRE_DICE:
        tn = fire.grow_tn if adjust is None else adjust(fire.grow_tn, here, ActionKind.GROW)
        if tn is not None:
            acts.append(_new(FireAction, (_GROW, tn, here, None, (), None, 0)))
    if b.routes_at(here):
        _spreads(scene, fire, acts)
    _through_barriers(scene, fire, adjust, fuel_only, acts)
    if b.areas[here].features:
        _beams(scene, fire, acts)
    _leaps(scene, fire, adjust, acts)
    return acts


#: A FireAction made from its fields in order, without the keyword machinery of its class:
#: candidates makes thousands a round, and a forecast millions.
_new = tuple.__new__
_GROW, _LEAP = ActionKind.GROW, ActionKind.LEAP
_BURN_THROUGH, _DESTROY = ActionKind.BURN_THROUGH, ActionKind.DESTROY


#: A module's say on an action's TN: (TN, target area, which action) -> TN, or None: forbidden.
Adjust = Callable[[int, int, ActionKind], int | None]


def _adjuster(scene: Scene, fire: Fire) -> Adjust:
    """The modules' adjustments of ``fire``'s TNs, in their order (``RuleModule.spread_tn``)."""
    mods = scene.modules

    def adjust(tn: int, target: int, how: ActionKind) -> int | None:
        for m in mods:
            changed = m.spread_tn(scene, fire, target, tn, how)
            if changed is None:  # a module forbids it (e.g. upwind in heavy winds)
                return None
            tn = changed
        return tn

    return adjust


def _spreads(scene: Scene, fire: Fire, acts: list[FireAction]) -> None:
    """Spreading along each route to its farthest unlit fuel (no roll)."""
    areas = scene.building.areas
    for path in route_paths(scene, fire):
        fuel = sum(areas[i].fuel for i in path if _unlit(scene, i))
        acts.append(FireAction(ActionKind.SPREAD, None, path[-1], path=path, fuel_behind=fuel))


def _through_barriers(scene: Scene, fire: Fire, adjust: Adjust | None, fuel_only: bool,
                      acts: list[FireAction]) -> None:
    """For each barrier around the fire that it cannot pass: burning through it to the unlit
    fuel beyond, and destroying it."""
    b, fires = scene.building, scene.fires
    areas = b.areas
    for j, barrier, tn, dtn in b.paths.walls(fire.area):
        area = areas[j]
        behind = area.fuel if j not in fires and area.burnable else 0
        if fuel_only and not behind:
            continue
        if tn is not None and behind:
            if adjust is not None:
                tn = adjust(tn, j, _BURN_THROUGH)
            if tn is not None:
                acts.append(_new(FireAction, (_BURN_THROUGH, tn, j, barrier, (), None, behind)))
        if dtn is not None:
            acts.append(_new(FireAction, (_DESTROY, dtn, j, barrier, (), None, behind)))


def _beams(scene: Scene, fire: Fire, acts: list[FireAction]) -> None:
    """Destroying each structural beam in the fire's area."""
    features = scene.building.areas[fire.area].features
    for feature, built in BEAM_STRUCTURE.items():
        if feature in features:
            acts.append(FireAction(ActionKind.DESTROY, DESTRUCTION_TN[built], fire.area,
                                   beam=feature))


def _leaps(scene: Scene, fire: Fire, adjust: Adjust | None, acts: list[FireAction]) -> None:
    """Leaping to each unlit fuel within reach (``settings.max_leap_areas`` moves through open
    space: the building's paths keep them and their TNs); a fire of one or two dice only to
    adjacent areas (003)."""
    b, here = scene.building, fire.area
    areas = b.areas
    small = fire.fd <= ADJACENT_ONLY_MAX_FD
    for j, moves, tn in b.paths.leaps(here, scene.settings.max_leap_areas, scene.fires):
        if small and moves > 1 and not adjacent(scene, here, j, moves):
            continue
        if adjust is not None:
            adjusted = adjust(tn, j, _LEAP)
            if adjusted is None:
                continue
            tn = adjusted
        acts.append(_new(FireAction, (_LEAP, tn, j, None, (), None, areas[j].fuel)))


#: The shapes of the events an action logs most (a grow, a failed roll): logged as rows.
_FAILED = event_shape(EventKind.FIRE_ACTION_FAILED,
                      ("action", "target", "pool", "tn", "total", "success"))
_GREW = event_shape(EventKind.FIRE_GREW, ("fd", "before", "why", "pool", "tn", "total", "success"))
_KIND_VALUE = {kind: kind.value for kind in ActionKind}  # (an enum's .value is a descriptor call)


def perform(scene: Scene, fire: Fire, act: FireAction) -> bool:
    """Carry out an action; returns whether it succeeded. Every roll is logged as it is made.

    Every rolled action is one roll of the fire's pool (Destruction to destroy, Spreading for
    the rest) against the action's TN: a failure is logged alike for all of them."""
    kind = act.kind
    fire_names, area_names = scene.names()
    name = fire_names[fire.area]
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
    if total < tn:
        target = area_names[act.target] if act.target is not None else None
        scene.emit_row(_FAILED, name, area_names[fire.area], _KIND_VALUE[kind], target,
                       pool.notation, tn, total, False)
        return False
    if kind is ActionKind.GROW:  # one more die (candidates offer it below ten dice only)
        before = fire.fd
        fire.fd = min(before + 1, MAX_FIRE_DICE)
        scene.emit_row(_GREW, name, area_names[fire.area], fire.fd, before, "grow",
                       pool.notation, tn, total, True)
        return True
    detail = {"pool": pool.notation, "tn": tn, "total": total, "success": True}
    if kind is ActionKind.LEAP:
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
