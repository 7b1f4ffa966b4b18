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
    """Every action open to ``fire`` now (:func:`candidates_all` for a batch of one)."""
    return candidates_all(scene, [fire], fuel_only=fuel_only)[0]


def candidates_all(scene: Scene, fires: list[Fire], *,
                   fuel_only: bool = False) -> list[list[FireAction]]:
    """Every action open to each of ``fires`` now, with its TN after module adjustments, in one
    order: grow, spread along its routes, burn through or destroy the barriers around it,
    destroy its beams, leap. The walls and the leaps of all of them come from the building's
    owner in one ask each (``Paths.walls_all``, ``Paths.leaps_all``): a pass asks for a whole
    run of fires at once.

    ``fuel_only``: leave out breaking a barrier with no unlit fuel behind it (the grow, the
    actions that reach fuel and the beams are all a ``hungry`` fire ever picks from)."""
    b = scene.building
    areas, paths = b.areas, b.paths
    heres = [fire.area for fire in fires]
    walls = paths.walls_all(heres)
    leaps = paths.leaps_all(heres, scene.settings.max_leap_areas, scene.fires)
    modules = scene.modules
    out: list[list[FireAction]] = []
    for fire, here, around, reach in zip(fires, heres, walls, leaps):
        adjust = _adjuster(scene, fire) if modules else None
        acts: list[FireAction] = []
        if fire.fd < MAX_FIRE_DICE:
            tn = fire.grow_tn if adjust is None else adjust(fire.grow_tn, here, ActionKind.GROW)
            if tn is not None:
                acts.append(_new(FireAction, (_GROW, tn, here, None, (), None, 0)))
        area = areas[here]
        if area.routes:
            _spreads(scene, fire, acts)
        if around:
            _through_barriers(scene, around, adjust, fuel_only, acts)
        if area.features:
            _beams(scene, fire, acts)
        if reach:
            _leaps(scene, fire, reach, adjust, acts)
        out.append(acts)
    return out


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


def _through_barriers(scene: Scene, walls: list[tuple[int, int, int | None, int | None]],
                      adjust: Adjust | None, fuel_only: bool, acts: list[FireAction]) -> None:
    """For each barrier around the fire that it cannot pass (``walls``: ``Paths.walls``):
    burning through it to the unlit fuel beyond, and destroying it."""
    fires, areas = scene.fires, scene.building.areas
    for j, barrier, tn, dtn in walls:
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


def _leaps(scene: Scene, fire: Fire, leaps: list[tuple[int, int, int]], adjust: Adjust | None,
           acts: list[FireAction]) -> None:
    """Leaping to each unlit fuel within reach (``leaps``: ``Paths.leaps``, the areas within
    ``settings.max_leap_areas`` moves through open space and their TNs); a fire of one or two
    dice only to adjacent areas (003)."""
    here, areas = fire.area, scene.building.areas
    small = fire.fd <= ADJACENT_ONLY_MAX_FD
    for j, moves, tn in leaps:
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
    """Carry out an action; returns whether it succeeded (:func:`perform_all` for a batch of
    one)."""
    return perform_all(scene, [fire], [act])[0]


def perform_all(scene: Scene, fires: list[Fire], acts: list[FireAction]) -> list[bool]:
    """Carry out each fire's action in turn; returns whether each succeeded. Every roll is
    logged as it is made.

    Every rolled action is one roll of the fire's pool (Destruction to destroy, Spreading for
    the rest) against the action's TN: a failure is logged alike for all of them. The rolls of
    consecutive actions are drawn together (``Roller.totals``, the same draws as one by one),
    each grow and failure logged as a row; a batch ends at an action that may change the scene
    (anything but a grow), carried out before the next roll is drawn, since what it does may
    draw too. So the draws, the results and the log are those of one action after another."""
    done: list[bool] = []
    n, start = len(acts), 0
    while start < n:
        end = start
        while end < n and acts[end].kind is _GROW:
            end += 1
        if end < n and acts[end].tn is not None:
            end += 1  # (a rolled action that may change the scene: the last of its batch)
        if end == start:  # spreading along a route: no roll
            done.append(_spread(scene, fires[start], acts[start]))
            start += 1
            continue
        done += _rolled(scene, fires[start:end], acts[start:end])
        start = end
    return done


def _spread(scene: Scene, fire: Fire, act: FireAction) -> bool:
    """Along a route: a two-dice fire on each unlit area on the way, half the Fire Dice at its
    end (003)."""
    for i in act.path[:-1]:
        if _unlit(scene, i):
            scene.start_fire(i, ROUTE_WAYPOINT_FD, Cause.ROUTE, source=fire, via="on the way")
    new = scene.start_fire(act.path[-1], new_fire_dice(fire.fd), Cause.ROUTE, source=fire)
    scene.emit(EventKind.FIRE_SPREAD, scene.fire_name(fire), fire.area,
               to=scene.area_name(act.path[-1]), path=[scene.area_name(i) for i in act.path],
               fd=new.fd if new else 0)
    return new is not None


def _rolled(scene: Scene, fires: list[Fire], acts: list[FireAction]) -> list[bool]:
    """Rolled actions, all drawn at once; all but the last are grows (:func:`perform_all`)."""
    pools = [fire.destruction_pool() if act.kind is _DESTROY else fire.spreading_pool()
             for fire, act in zip(fires, acts)]
    totals = scene.roller.totals(pools)
    fire_names, area_names = scene.names()
    rnd, phase = scene.round, scene.phase
    # (a forecast's log keeps only what its script reads: the rest is not made at all)
    failed_logged, grew_logged = scene.logs(_FAILED.kind), scene.logs(_GREW.kind)
    rows: list[tuple] = []
    add = rows.append
    done: list[bool] = []
    for fire, act, pool, total in zip(fires, acts, pools, totals):
        tn = act.tn
        assert tn is not None  # (every action but spreading along a route is rolled)
        kind, area = act.kind, fire.area
        if total < tn:
            if failed_logged:
                target = area_names[act.target] if act.target is not None else None
                add((_FAILED, rnd, phase, fire_names[area], area_names[area], _KIND_VALUE[kind],
                     target, pool.notation, tn, total, False))
            done.append(False)
        elif kind is _GROW:  # one more die (candidates offer it below ten dice only)
            before = fire.fd
            fire.fd = min(before + 1, MAX_FIRE_DICE)
            if grew_logged:
                add((_GREW, rnd, phase, fire_names[area], area_names[area], fire.fd, before,
                     "grow", pool.notation, tn, total, True))
            done.append(True)
        else:
            scene.emit_rows(rows)
            rows = []
            _succeeded(scene, fire, act, pool.notation, total)
            done.append(True)
    scene.emit_rows(rows)
    return done


def _succeeded(scene: Scene, fire: Fire, act: FireAction, pool: str, total: int) -> None:
    """A leap, burn-through or destruction that rolled its TN: what it does to the scene."""
    kind, name = act.kind, scene.fire_name(fire)
    detail = {"pool": pool, "tn": act.tn, "total": total, "success": True}
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
