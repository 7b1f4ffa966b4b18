"""Small buildings and scenes built in code, for engine tests that need exact control.

Scenario files are the way a GM builds; these helpers exist so engine tests can place a wall or
a door exactly where a rule needs it without going through the loader.
"""

from __future__ import annotations

from collections import deque

from fuego.dice.roller import Roller
from fuego.engine.scene import Scene
from fuego.rules.charts import Structure
from fuego.rules.settings import Settings
from fuego.world.building import Building
from fuego.world.places import BarrierKind, Room


def grid(levels: list[tuple[str, int, list[str]]], rooms: dict[str, dict], *,  # noqa: C901
         edges: dict[tuple[str, str], tuple] | None = None,
         links: dict[str, BarrierKind] | None = None,
         wall: Structure = Structure.WOODEN_WALL) -> Building:
    """Build from plans: each char of a plan is a room key in ``rooms`` (``.`` = no area).

    ``rooms[ch]`` takes ``key``, ``outdoors``, ``fuel``; ``edges`` overrides the barrier between
    two named areas with ``(kind, structure[, closed])``; ``links`` opens a vertical link (stairs,
    hole) above the named area.
    """
    b = Building(title="test")
    for name, elevation, _ in levels:
        b.add_level(name, elevation)
    for spec in rooms.values():
        if spec["key"] not in b.rooms:
            b.add_room(Room(spec["key"], spec["key"].title(), 0, outdoors=spec.get("outdoors", False)))
    for li, (_, _, plan) in enumerate(levels):
        for r, line in enumerate(plan):
            for c, ch in enumerate(line):
                if ch == ".":
                    continue
                spec = rooms[ch]
                b.add_area(c, r, li, spec["key"], fuel=spec.get("fuel", 3))
    edges = {tuple(sorted((b.find(x), b.find(y)))): v for (x, y), v in (edges or {}).items()}
    links = {b.find(k): v for k, v in (links or {}).items()}
    for area in b.areas:
        for dc, dr in ((1, 0), (0, 1)):
            j = b.at(area.level, area.col + dc, area.row + dr)
            if j is None:
                continue
            key = tuple(sorted((area.index, j)))
            if key in edges:
                kind, structure, *closed = edges[key]
                b.connect(area.index, j, kind, structure, closed=closed[0] if closed else True)
            elif area.room == b.areas[j].room or (b.rooms[area.room].outdoors
                                                  and b.rooms[b.areas[j].room].outdoors):
                b.connect(area.index, j, BarrierKind.OPEN)
            else:
                b.connect(area.index, j, BarrierKind.WALL, wall)
        above = [lv for lv in b.levels if lv.elevation == b.levels[area.level].elevation + 1]
        if above:
            j = b.at(above[0].index, area.col, area.row)
            if j is not None:
                kind = links.get(area.index, BarrierKind.FLOOR)
                b.connect(area.index, j, kind, Structure.WOODEN_FLOOR if kind is BarrierKind.FLOOR else None)
    return b


def scene(building: Building, seed: int = 1, **settings) -> Scene:
    return Scene(building, Settings(**settings), Roller(seed))


class LoadedRoller(Roller):
    """A roller whose next totals are given: forces a success or a failure in a rule test.

    Queued totals are used by ``total`` (every engine roll); once empty it rolls normally.
    """

    def __init__(self, seed: int = 0, totals=()):
        super().__init__(seed)
        self.queue = deque(totals)

    def load(self, *totals: int) -> None:
        self.queue.extend(totals)

    def total(self, pool):  # noqa: D102
        if self.queue:
            return self.queue.popleft()
        return super().total(pool)


TWO_ROOMS = {
    "k": {"key": "kitchen", "fuel": 5},
    "h": {"key": "hall", "fuel": 3},
    "s": {"key": "street", "outdoors": True, "fuel": 0},
    "e": {"key": "empty", "fuel": 0},
}


def field_scene(cols: int, rows: int, seed: int = 1, fd: int = 3, fuel: int = 5,
                gaps: list[tuple[int, int]] = (), **settings) -> Scene:
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
