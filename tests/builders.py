"""Small buildings and scenes built in code, for engine tests that need exact control.

Scenario files are the way a GM builds; these helpers exist so engine tests can place a wall or
a door exactly where a rule needs it without going through the loader.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping
from typing import Any, Required, TypedDict

from fuego.dice.roller import Pool, Roller
from fuego.engine.fire import Fire
from fuego.engine.scene import Cause, Scene
from fuego.rules.charts import Structure
from fuego.rules.settings import Settings
from fuego.world.building import Building
from fuego.world.places import Barrier, BarrierKind, Room


class RoomSpec(TypedDict, total=False):
    """A plan character's room: its key, whether it is outdoors, each of its areas' fuel."""

    key: Required[str]
    outdoors: bool
    fuel: int


#: A barrier between two named areas: (kind, structure) or (kind, structure, closed).
Edge = tuple[BarrierKind, Structure | None] | tuple[BarrierKind, Structure | None, bool]


def grid(levels: list[tuple[str, int, list[str]]], rooms: Mapping[str, RoomSpec], *,
         edges: Mapping[tuple[str, str], Edge] | None = None,
         links: Mapping[str, BarrierKind] | None = None,
         wall: Structure = Structure.WOODEN_WALL) -> Building:
    """Build from plans: each char of a plan is a room key in ``rooms`` (``.`` = no area).

    ``rooms[ch]`` takes ``key``, ``outdoors``, ``fuel``; ``edges`` overrides the barrier between
    two named areas with ``(kind, structure[, closed])``; ``links`` opens a vertical link (stairs,
    hole) above the named area.
    """
    b = Building(title="test")
    _plans(b, levels, rooms)
    between = {_pair(b, x, y): v for (x, y), v in (edges or {}).items()}
    link_at = {_index(b, k): v for k, v in (links or {}).items()}
    for area in b.areas:
        for dc, dr in ((1, 0), (0, 1)):
            j = b.at(area.level, area.col + dc, area.row + dr)
            if j is not None:
                _side(b, area.index, j, between.get((min(area.index, j), max(area.index, j))),
                      wall)
        above = [lv for lv in b.levels if lv.elevation == b.levels[area.level].elevation + 1]
        j = b.at(above[0].index, area.col, area.row) if above else None
        if j is not None:
            kind = link_at.get(area.index, BarrierKind.FLOOR)
            b.connect(area.index, j, kind,
                      Structure.WOODEN_FLOOR if kind is BarrierKind.FLOOR else None)
    return b


def _plans(b: Building, levels: list[tuple[str, int, list[str]]],
           rooms: Mapping[str, RoomSpec]) -> None:
    """The levels, rooms and areas of the plans."""
    for name, elevation, _ in levels:
        b.add_level(name, elevation)
    for spec in rooms.values():
        if spec["key"] not in b.rooms:
            b.add_room(Room(spec["key"], spec["key"].title(), 0,
                            outdoors=spec.get("outdoors", False)))
    for li, (_, _, plan) in enumerate(levels):
        for r, line in enumerate(plan):
            for c, ch in enumerate(line):
                if ch != ".":
                    spec = rooms[ch]
                    b.add_area(c, r, li, spec["key"], fuel=spec.get("fuel", 3))


def _side(b: Building, i: int, j: int, edge: Edge | None, wall: Structure) -> None:
    """The barrier between two side-by-side areas: the one asked for; open within a room (or
    between outdoor ones); else a wall."""
    if edge is not None:
        b.connect(i, j, edge[0], edge[1], closed=edge[2] if len(edge) == 3 else True)
    elif b.areas[i].room == b.areas[j].room or (b.rooms[b.areas[i].room].outdoors
                                                and b.rooms[b.areas[j].room].outdoors):
        b.connect(i, j, BarrierKind.OPEN)
    else:
        b.connect(i, j, BarrierKind.WALL, wall)


def _index(b: Building, name: str) -> int:
    i = b.find(name)
    assert i is not None, f"no area {name!r} in the plan"
    return i


def _pair(b: Building, x: str, y: str) -> tuple[int, int]:
    i, j = _index(b, x), _index(b, y)
    return min(i, j), max(i, j)


def barrier_between(b: Building, x: int | str, y: int | str) -> Barrier:
    """The barrier between two neighbouring areas, by index or name (the test's map has it)."""
    found = b.between(b.area(x).index, b.area(y).index)
    assert found is not None, f"{x} and {y} are not neighbours"
    return found


def lit(s: Scene, area: int, fd: int, cause: Cause = Cause.GM, **kw: Any) -> Fire:
    """``Scene.start_fire`` where the test's map has fuel: the fire it started (or merged into)."""
    fire = s.start_fire(area, fd, cause, **kw)
    assert fire is not None, f"nothing burns in {s.area_name(area)}"
    return fire


def scene(building: Building, seed: int = 1, **settings: Any) -> Scene:
    return Scene(building, Settings(**settings), Roller(seed))


class LoadedRoller(Roller):
    """A roller whose next totals are given: forces a success or a failure in a rule test.

    Queued totals are used by ``total`` and ``totals`` (every engine roll, one at a time or a
    batch); once empty it rolls normally.
    """

    def __init__(self, seed: int = 0, totals: Iterable[int] = ()) -> None:
        super().__init__(seed)
        self.queue = deque(totals)

    def load(self, *totals: int) -> None:
        self.queue.extend(totals)

    def total(self, pool: Pool, dice: list[int] | None = None) -> int:  # noqa: D102
        if self.queue:
            return self.queue.popleft()
        return super().total(pool, dice)

    def totals(self, pools: list[Pool]) -> list[int]:  # noqa: D102
        return [self.total(pool) for pool in pools]


TWO_ROOMS: dict[str, RoomSpec] = {
    "k": {"key": "kitchen", "fuel": 5},
    "h": {"key": "hall", "fuel": 3},
    "s": {"key": "street", "outdoors": True, "fuel": 0},
    "e": {"key": "empty", "fuel": 0},
}


def field_scene(cols: int, rows: int, seed: int = 1, fd: int = 3, fuel: int = 5,
                gaps: Collection[tuple[int, int]] = (), **settings: Any) -> Scene:
    """One open room of ``cols`` x ``rows`` fuelled areas, a ``fd``-dice fire in each but the
    ``gaps`` (column, row): a big fire whose fires are nearly all boxed in by fire."""
    from fuego.engine.scene import Cause

    b = Building(title="field")
    b.add_level("ground", 0)
    b.add_room(Room("field", "Field", 0))
    for r in range(rows):
        for c in range(cols):
            b.add_area(c, r, 0, "field", fuel=fuel)
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            if c + 1 < cols:
                b.connect(i, i + 1, BarrierKind.OPEN)
            if r + 1 < rows:
                b.connect(i, i + cols, BarrierKind.OPEN)
    s = scene(b, seed, **settings)
    for i in range(len(b.areas)):
        if (i % cols, i // cols) not in gaps:
            s.start_fire(i, fd, Cause.START)
    return s
