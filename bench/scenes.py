"""Buildings and scenes generated in code for the benchmarks (and the determinism check).

- :func:`field`: one enclosed room of ``cols`` x ``rows`` areas, every area fuelled, joined by
  openings (the 100 x 100 field of the round benchmark: 10,000 areas).
- :func:`manor`: a 1,000-area building: two levels of 25 x 20 areas cut into 5 x 5 rooms by
  wooden walls, a door in most walls (some open), stairs, a carpet route per level, beams,
  windows onto a street along the ground floor's south side; seeded, so always the same.
- :func:`ablaze`: a scene with a fire of ``fd`` dice in every area that can burn.
"""

from __future__ import annotations

import random

from fuego.dice.roller import Roller
from fuego.engine.heroes import Hero
from fuego.engine.scene import Cause, Scene
from fuego.rules.charts import Structure
from fuego.rules.settings import Settings
from fuego.world.building import Building
from fuego.world.places import BarrierKind, Feature, Room, RouteKind


def field(cols: int = 100, rows: int = 100, fuel: int = 5) -> Building:
    """A single enclosed room, ``cols`` x ``rows`` areas of fuel ``fuel``, all open to each other."""
    b = Building(title=f"field {cols}x{rows}")
    b.add_level("ground", 0)
    b.add_room(Room("field", "Field", 0))
    for r in range(rows):
        for c in range(cols):
            b.add_area(c, r, 0, "field", fuel=fuel, fuel_name="brush")
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            if c + 1 < cols:
                b.connect(i, i + 1, BarrierKind.OPEN)
            if r + 1 < rows:
                b.connect(i, i + cols, BarrierKind.OPEN)
    return b


MANOR_COLS, MANOR_ROWS, MANOR_ROOM = 25, 20, 5


def manor(seed: int = 1) -> Building:
    """A 1,000-area, two-level building of 5 x 5 rooms (see the module docstring)."""
    rnd = random.Random(seed)  # (one stream: the areas' draws, then the barriers')
    b = Building(title="manor")
    b.add_level("ground", 0)
    b.add_level("upper", 1)
    b.add_room(Room("street", "Street", 0, outdoors=True))
    for key, lv in _manor_rooms():
        b.add_room(Room(key, key, lv))
    room_fuel = {key: rnd.choice((0, 3, 4, 5, 5, 6, 7, 9)) for key in b.rooms if key != "street"}
    for lv in (0, 1):
        for r in range(MANOR_ROWS):
            for c in range(MANOR_COLS):
                _manor_area(b, rnd, lv, c, r, room_fuel)
    doors: dict[frozenset, bool] = {}
    for lv in (0, 1):
        for r in range(MANOR_ROWS):
            for c in range(MANOR_COLS):
                i = b.at(lv, c, r)
                assert i is not None
                for dc, dr in ((1, 0), (0, 1)):
                    j = b.at(lv, c + dc, r + dr)
                    if j is not None:
                        _manor_side(b, rnd, i, j, c, r, dc, dr, doors)
    _manor_floors_and_carpets(b)
    return b


def _manor_floors_and_carpets(b: Building) -> None:
    """Wooden floors between the levels (two stairs), and a carpet along row 8 of each."""
    for r in range(MANOR_ROWS - 1):
        for c in range(MANOR_COLS):
            i, j = b.at(0, c, r), b.at(1, c, r)
            assert i is not None and j is not None
            kind = BarrierKind.STAIRS if (c, r) in ((2, 2), (22, 12)) else BarrierKind.FLOOR
            b.connect(i, j, kind, Structure.WOODEN_FLOOR if kind is BarrierKind.FLOOR else None)
    for lv in (0, 1):
        run = [b.at(lv, c, 7) for c in range(3, 22)]
        carpet = [i for i in run if i is not None]
        assert len(carpet) == len(run)
        b.add_route(RouteKind.CARPET, carpet)


def _manor_rooms() -> list[tuple[str, int]]:
    """The rooms' keys (g or u for the level, then the room's row and column) and levels."""
    return [(f"{'gu'[lv]}{rr}{rc}", lv) for lv in (0, 1)
            for rr in range(MANOR_ROWS // MANOR_ROOM) for rc in range(MANOR_COLS // MANOR_ROOM)]


def _manor_area(b: Building, rnd: random.Random, lv: int, c: int, r: int,
                room_fuel: dict[str, int]) -> None:
    """One area: the street's bare row on the ground, else its room's fuel, now and then a
    beam, oil or a wet floor."""
    if lv == 0 and r == MANOR_ROWS - 1:
        b.add_area(c, r, 0, "street", fuel=0)
        return
    key = f"{'gu'[lv]}{r // MANOR_ROOM}{c // MANOR_ROOM}"
    feats = set()
    if rnd.random() < 0.03:
        feats.add(Feature.WOODEN_BEAM)
    if rnd.random() < 0.01:
        feats.add(Feature.OIL)
    b.add_area(c, r, lv, key, fuel=room_fuel[key], wet=rnd.random() < 0.02,
               features=frozenset(feats))


def _manor_side(b: Building, rnd: random.Random, i: int, j: int, c: int, r: int, dc: int,
                dr: int, doors: dict[frozenset, bool]) -> None:
    """The barrier between two side-by-side areas: open within a room; a window or a stone
    wall onto the street; a door between rooms (one per pair, open or shut), or a wall."""
    ra, rb = b.areas[i].room, b.areas[j].room
    if ra == rb:
        b.connect(i, j, BarrierKind.OPEN)
    elif "street" in (ra, rb):
        if c % 5 == 2:
            b.connect(i, j, BarrierKind.WINDOW, Structure.GLASS_WINDOW, closed=rnd.random() < 0.5)
        else:
            b.connect(i, j, BarrierKind.WALL, Structure.STONE_WALL)
    elif (c % 5 == 2 and dr) or (r % 5 == 2 and dc):
        pair = frozenset((ra, rb))
        if pair not in doors:
            doors[pair] = rnd.random() < 0.6
        b.connect(i, j, BarrierKind.DOOR, Structure.WOODEN_DOOR, closed=doors[pair])
    else:
        b.connect(i, j, BarrierKind.WALL, Structure.WOODEN_WALL)


def ablaze(building: Building, fd: int = 3, seed: int = 1, **settings) -> Scene:
    """A scene with a ``fd``-dice fire in every area that can burn."""
    scene = Scene(building, Settings(**settings), Roller(seed))
    for i, area in enumerate(building.areas):
        if area.burnable:
            scene.start_fire(i, fd, Cause.START)
    return scene


def kindled(building: Building, spots: list[int], fd: int = 3, seed: int = 1,
            heroes: int = 0, **settings) -> Scene:
    """A scene with fires at ``spots`` and ``heroes`` automatic heroes spread over the map."""
    scene = Scene(building, Settings(**settings), Roller(seed))
    step = max(1, len(building.areas) // (heroes + 1))
    for k in range(heroes):
        scene.heroes.append(Hero(f"Hero{k + 1}", (k + 1) * step % len(building.areas),
                                 brawn=3, finesse=3, wits=2, resolve=3, panache=3,
                                 knacks={"sprinting": 2}))
    for i in spots:
        scene.start_fire(i, fd, Cause.START)
    return scene
