"""Acting on the building's structure: every opening, closing, breaking, burning through,
beam failing and collapse in play, with its event (003, Crunchy Rules for Fire Spreading).

Heroes (``hero_actions``), fires (``fire_actions``), explosions (``explosion``), scripts, the
GM's hand and the optional modules all come here, so each act changes the ``Building`` through
its own method and is logged once, the same way whoever does it.

- **Open / close** a door or window: the event only when something changed.
- **Break** a wall, door, window or floor (a fire's Destruction, a script, the GM, a blast): it
  becomes an opening; debris threatens everyone beside it on both sides; a floor collapses and
  drops whoever stands on it to the level below (``bystanders=False``: an explosion hits each
  character once itself, so no debris; a floor still drops whoever stands on it).
- **Burn through** a barrier: the barrier stands; a fire of half the Fire Dice on the far side.
- **A beam fails**: the floor it held above comes down (fuego's reading), or debris where there
  is none.
- **Collapse** (001 structures at CF 0; 000 25.66 on a gust): the area's beams fail, its floor
  drops whoever stands on it, the floor above comes down on it (``upward``: every floor above).
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

from fuego.engine.events import EventKind
from fuego.engine.fire import new_fire_dice
from fuego.engine.injury import debris, fall
from fuego.rules.charts import AREA_FEET
from fuego.world.places import Barrier, BarrierKind, Feature

if TYPE_CHECKING:
    from fuego.engine.fire import Fire
    from fuego.engine.scene import Scene



class BarrierAct(str, Enum):
    """What a script or the GM does to a barrier by name (``open_barrier``, ``close_barrier``,
    ``break_barrier``): its value is the word they write."""

    OPEN = "open"
    CLOSE = "close"
    BREAK = "break"


#: The structural features a collapse brings down, in the order they fail.
BEAMS = (Feature.WOODEN_BEAM, Feature.STONE_BEAM, Feature.LARGE_STONE_BEAM)


def open_barrier(scene: Scene, barrier: Barrier, by: str | None, at: int | None = None,
                 **detail: Any) -> bool:
    """Open a door or window (``at``: where the event is logged, the barrier's first side
    unless given); returns whether anything changed."""
    changed = scene.building.open_barrier(barrier)
    if changed:
        scene.emit(EventKind.BARRIER_OPENED, by, barrier.a if at is None else at,
                   barrier=barrier.name, what=barrier.describe(), **detail)
    return changed


def close_barrier(scene: Scene, barrier: Barrier, by: str | None, at: int | None = None,
                  **detail: Any) -> bool:
    """Close a door or window; returns whether anything changed."""
    changed = scene.building.close_barrier(barrier)
    if changed:
        scene.emit(EventKind.BARRIER_CLOSED, by, barrier.a if at is None else at,
                   barrier=barrier.name, what=barrier.describe(), **detail)
    return changed


def break_barrier(scene: Scene, barrier: Barrier, fd: int, by: str | None,
                  detail: dict | None = None, *, bystanders: bool = True) -> bool:
    """A barrier gives way: it becomes an opening, debris of ``fd`` dice falls both sides, a
    floor drops people; returns whether it stood until now."""
    b = scene.building
    what = barrier.describe()
    if not b.destroy_barrier(barrier):
        return False
    scene.emit(EventKind.STRUCTURE_DESTROYED, by, barrier.a, structure=what,
               barrier=barrier.name, **(detail or {}))
    sides = (barrier.a, barrier.b)
    if barrier.kind is BarrierKind.FLOOR:
        upper, lower = sorted(sides, key=lambda i: b.levels[b.areas[i].level].elevation,
                              reverse=True)
        scene.emit(EventKind.FLOOR_COLLAPSED, by, upper, below=scene.area_name(lower))
        below = scene.heroes_in(lower)  # those already there, not those who fall on them
        for hero in scene.heroes_in(upper):
            fall(scene, hero, AREA_FEET, lower)
        for hero in below if bystanders else ():
            debris(scene, hero, fd, what)
        return True
    for i in sides if bystanders else ():
        for hero in scene.heroes_in(i):
            debris(scene, hero, fd, what)
    return True


def burn_through(scene: Scene, fire: Fire, barrier: Barrier, to: int, detail: dict) -> None:
    """``fire`` burns through ``barrier`` into area ``to``: the barrier stands, the far side
    catches with half the Fire Dice."""
    from fuego.engine.scene import Cause

    scene.emit(EventKind.FIRE_BURNED_THROUGH, scene.fire_name(fire), fire.area,
               to=scene.area_name(to), barrier=barrier.describe(), **detail)
    scene.start_fire(to, new_fire_dice(fire.fd), Cause.BURN_THROUGH, source=fire,
                     barrier=barrier.name)


def destroy_beam(scene: Scene, i: int, beam: Feature, fd: int, by: str | None,
                 detail: dict) -> None:
    """A structural beam or post in area ``i`` fails: the floor it held above comes down
    (fuego's reading); with no floor above, its debris falls on whoever is there."""
    b = scene.building
    b.remove_feature(i, beam)
    scene.emit(EventKind.STRUCTURE_DESTROYED, by, i, structure=beam.value, **detail)
    above = b.vertical_neighbour(i, up=True)
    if above is not None and above[1].kind is BarrierKind.FLOOR:
        break_barrier(scene, above[1], fd, by)
    else:
        for hero in scene.heroes_in(i):
            debris(scene, hero, fd, beam.value)


def collapse(scene: Scene, i: int, fd: int, by: str, *, upward: bool = False) -> None:
    """Area ``i`` gives way: its beams fail, its floor drops whoever stands on it, the floor
    above comes down on it (``upward``: every floor above in the column); on a single storey
    the roof comes in on whoever is there. Debris and falls of ``fd`` dice."""
    b = scene.building
    for beam in BEAMS:
        if beam in b.areas[i].features:
            b.remove_feature(i, beam)
    fell = False
    below = b.vertical_neighbour(i, up=False)
    if below is not None and below[1].kind is BarrierKind.FLOOR and not below[1].destroyed:
        break_barrier(scene, below[1], fd, by)
        fell = True
    k = i
    while True:
        above = b.vertical_neighbour(k, up=True)
        if above is None or above[1].kind is not BarrierKind.FLOOR or above[1].destroyed:
            break
        break_barrier(scene, above[1], fd, by)
        fell = True
        if not upward:
            break
        k = above[0]
    if not fell:
        for hero in scene.heroes_in(i):
            debris(scene, hero, fd, "collapsing roof")
