"""Universal VTT maps (``.dd2vtt``, ``.uvtt``) -> a fuego scenario floor plan to annotate.

A Universal VTT file is JSON: ``resolution.map_size`` (``{x, y}`` in grid squares),
``resolution.pixels_per_grid``, ``line_of_sight`` (wall polylines: lists of ``{x, y}`` in grid
squares), ``portals`` (doors: ``position``, two ``bounds`` points, ``rotation``, ``closed``),
optionally ``lights`` and ``image`` (the picture, base64: never decoded here).

The conversion (docs/maps-and-forecasts.md, "Importing a VTT map"):

1. **Scale.** One VTT square is ``grid_feet`` feet (5 by default, the usual battle-map square),
   so ``10 / grid_feet`` squares make one 10-ft fuego area (2 x 2 squares at 5 ft; one square at
   10 ft). A map of 16 x 10 squares at 5 ft is 8 x 5 areas; an odd number of squares gives a
   last half area, kept as a whole one.
2. **Walls snap to the 10-ft grid.** Each wall segment is sampled; a segment within 25 degrees
   of horizontal (or vertical) votes, per sample, for the nearest horizontal (vertical) area edge;
   a slanted one marks every area edge it crosses (a sealed staircase). An area edge is a wall
   when wall segments cover at least a third of it.
3. **Portals** become doors (or windows: by name with ``windows_from_names``, or by number with
   ``windows``) on the area edge nearest their span; a portal replaces the wall on its edge.
   An open or locked door comes in so (:func:`portal_state`).
4. **Rooms** are the regions of areas joined across edges with no wall, door or window (flood
   fill). A region that runs off the map through an edge without a wall is the outside: one
   outdoor room, a way out (``exit``), nothing to burn.

:func:`convert` returns the scenario as YAML text with comments telling the GM what to fill in
(materials, fuel, heroes, fires); it always passes ``fuego check``.
Reading and checking the file is :mod:`fuego.scenario.vtt_read`.
"""

from __future__ import annotations

import functools
import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from fuego.errors import FuegoError, LimitError
from fuego.scenario.foundry_scene import MARK
from fuego.scenario.limits import MAX_AREAS
from fuego.scenario.vtt_read import (
    Point,
    Portal,
    VttMap,
    read,
)
from fuego.text import terminal
from fuego.words import plural
from fuego.world.places import PLAN_MARKS

#: Largest plan fuego accepts, in areas per side (fuego.scenario.limits).
MAX_PLAN_AREAS = 200
#: Two areas of one room have a wall between them when walls cross at least this share of the
#: paths from one's middle to the other's (a partition, a stub, a pillar's side).
WALL_SHARE = 0.5
#: The walls beyond a crop that still enclose its rooms are read this many areas out, at most.
BEYOND = 50
GRID_FEET = (5, 10)
#: How far apart (areas) two portals' ends may lie and still be one double door's leaves, end
#: to end on one line: a map maker's doors meet on the grid, or nearly.
LEAF_SLACK = 0.1
#: Legend characters for rooms, in order ('#' and space mean no area): those no text plan
#: draws as a mark first (:data:`PLAN_MARKS`: ``fuego show`` draws the room with the file's own
#: character), the marks only when those run out.
_ALL_CHARS = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
              "+*=%&@$!?~^<>()[]{}/;:,.'`|-_"
              # then Greek and Cyrillic letters, one column wide like the rest: a big dungeon
              + "".join(chr(c) for c in range(0x3b1, 0x3ca) if c != 0x3c2)
              + "".join(chr(c) for c in range(0x391, 0x3aa) if c != 0x3a2)
              + "".join(chr(c) for c in range(0x430, 0x450)) + "".join(chr(c) for c in
                                                                   range(0x410, 0x430)))
#: The outside's character: light on the page, so the rooms stand out, and no mark.
OUTSIDE_CHAR = ","
ROOM_CHARS = "".join([c for c in _ALL_CHARS if c not in PLAN_MARKS and c != OUTSIDE_CHAR]
                     + [c for c in _ALL_CHARS if c in PLAN_MARKS])

#: An area edge: ("v", x, row) is the vertical line x between columns x-1 and x on ``row``;
#: ("h", col, y) the horizontal line y between rows y-1 and y on ``col``.
Edge = tuple[str, int, int]


def _edge_areas(edge: Edge) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two areas (col, row) an edge separates."""
    axis, u, v = edge
    if axis == "v":
        return (u - 1, v), (u, v)
    return (u, v - 1), (u, v)


# -- the grid -------------------------------------------------------------------------------------
# -- the plan -------------------------------------------------------------------------------------
@dataclass
class ImportedPlan:
    """A VTT map on fuego's 10-ft grid: rooms, doors, windows and the walls inside rooms."""

    vtt: VttMap
    grid_feet: int
    cols: int
    rows: int
    region: list[list[int]]  # [row][col] -> room number (0-based), -1 for no area
    rooms: list[dict]  # {"key", "name", "outdoors", "areas": [(col, row)]}
    doors: list[tuple[Edge, Portal]]
    windows: list[tuple[Edge, Portal]]
    inner_walls: list[Edge]  # walls between two areas of one room
    skipped_portals: list[tuple[Portal, str]]
    #: one outdoor area added on every side for the portals in the map's outer wall (column A
    #: and row 1 are then that strip, and the map's squares start at column B, row 2)
    strip: bool = False
    #: where area (0, 0) starts, in squares left of and above the map's corner
    shift: tuple[float, float] = (0.0, 0.0)
    #: 5-ft squares the grid was moved by to keep walls on its lines (0 or 1 each way)
    phase: tuple[int, int] = (0, 0)
    #: areas added left of and above the map so that it stands over the building's other
    #: levels (:func:`aligned`; their exports' ``map_origin`` differ)
    offset: tuple[int, int] = (0, 0)
    #: why the level could not be put over the others, when it could not
    unaligned: str = ""
    #: the grid lies as on the building's other levels, not where this map alone would have
    #: it; and its walls fit it worse for that (not only a tie broken)
    shared_grid: bool = False
    grid_worse: bool = False
    #: each double door's second leaf and the door it is part of (two 5-ft doors side by
    #: side on one 10-ft edge: one door across the edge, which holds one), neither placed
    #: apart nor lost: not among ``skipped_portals``
    leaves: list[tuple[Portal, Portal]] = field(default_factory=list)
    #: edges between two rooms (not both outdoors) that nothing stands on: only on a map
    #: whose rooms fuego's own export wrote (elsewhere the walls make the rooms)
    openings: list[Edge] = field(default_factory=list)
    #: the material of each door, window and wall fuego's own export said, by its edge
    materials: dict[Edge, str] = field(default_factory=dict)
    #: the walls between two rooms that their rooms' walls do not give (fuego's export said
    #: their material): each an entry of ``walls:``
    room_walls: list[Edge] = field(default_factory=list)
    #: what of fuego's own key the plan does not take, one line each (where, and why)
    unread: list[str] = field(default_factory=list)

    def leaves_of(self, door: Portal) -> list[Portal]:
        """The second leaves of ``door`` (a double door's), if any."""
        return [leaf for leaf, of in self.leaves if of.number == door.number]

    def area_name(self, col: int, row: int, level: str) -> str:
        from fuego.world.places import column_letters

        return f"{level}:{column_letters(col)}{row + 1}"

    def area_at(self, x: float, y: float) -> tuple[int, int]:
        """The (col, row) of the area holding the map point (squares), kept on the plan."""
        k = 10 / self.grid_feet
        c, r = math.floor((x + self.shift[0]) / k), math.floor((y + self.shift[1]) / k)
        return min(self.cols - 1, max(0, c)), min(self.rows - 1, max(0, r))


@dataclass
class _Layout:
    """The 10-ft grid laid on the map one way: where it starts (``shift`` squares left of and
    above the map's corner), its size in areas, whether it has the outdoor strip, where its
    corner falls on the raster (``ox``, ``oy`` pixels) and each area's room vote."""

    k: float  # squares per area
    shift: tuple[float, float]
    cols: int
    rows: int
    strip: bool
    ox: int
    oy: int
    votes: Any

    def area_units(self, p: Point) -> Point:
        """A map point (squares) in areas from the grid's corner."""
        return (p[0] + self.shift[0]) / self.k, (p[1] + self.shift[1]) / self.k


#: Said when walls along the map's edge enclose every room (:func:`vtt_rooms.walled_edge`).
WALLED_EDGE = ("line_of_sight: the walls along the map's edge: not read: they bound the scene, "
               "not a room (they enclosed every room); beyond the rooms is the outside")
#: What a moved grid gives up against one at the map's corner, to break a tie between them.
_FIT_TIE = 0.002


@dataclass
class _Fitted:
    """A map rastered once (``grid``: its walls drawn in areas) and the 10-ft grid laid on it
    every way it may start: per phase, how well its areas cover the rooms, and the layout."""

    grid: Any
    fits: dict[tuple[int, int], tuple[float, _Layout]]

    def cover(self, phase: tuple[int, int]) -> float:
        """How well the areas of the grid laid at ``phase`` cover the rooms (the tie-break
        taken off)."""
        return self.fits[phase][0] + _FIT_TIE * any(phase)

    def best(self) -> tuple[int, int]:
        """The phase whose areas cover the rooms best (the first of equals)."""
        return max(self.fits, key=lambda p: (self.fits[p][0], -list(self.fits).index(p)))


def _fitted(vtt: VttMap, grid_feet: int, outside: bool) -> _Fitted:
    """At 5 ft a square the grid may start 5 ft in, either way (a house drawn on the odd 5-ft
    lines keeps its walls on the grid's lines): every phase's layout and fit."""
    from fuego.scenario import vtt_rooms

    _check_size(vtt, grid_feet, outside)
    k = 10 / grid_feet  # squares per area
    grid, x0, y0 = _raster(vtt, k)
    P = vtt_rooms.PIXELS
    on_map = (-x0 * P, -y0 * P, round((vtt.width / k - x0) * P), round((vtt.height / k - y0) * P))
    if vtt_rooms.walled_edge(grid, on_map):
        # walls along the scene's bounds (Foundry scenes often have them) enclose no room:
        # drawn without them, beyond the rooms is the outside; if some stand off the edge,
        # the space they enclose is the outside all the same
        grid, x0, y0 = _raster(vtt, k, _off_edge(vtt))
        edge = vtt_rooms.walled_edge(grid, on_map)
        grid.outside[edge] = bool(edge)
        if WALLED_EDGE not in vtt.ignored:
            vtt.ignored.append(WALLED_EDGE)
    fits: dict[tuple[int, int], tuple[float, _Layout]] = {}
    # (a moved grid only where it fits better: a plain map stays on its corner)
    for phase in [(0, 0), (1, 0), (0, 1), (1, 1)] if k == 2 else [(0, 0)]:
        lay = _layout(vtt, grid, k, x0, y0, phase, outside)
        if lay.cols <= MAX_PLAN_AREAS and lay.rows <= MAX_PLAN_AREAS:
            fits[phase] = (vtt_rooms.fit(grid, lay.ox, lay.oy, lay.votes, on_map)
                           - _FIT_TIE * any(phase), lay)
    return _Fitted(grid, fits)


def to_plan(vtt: VttMap, *, grid_feet: int = 5, windows: tuple[int, ...] = (),
            doors: tuple[int, ...] = (), windows_from_names: bool = False,
            outside: bool = True, phase: tuple[int, int] | None = None,
            fitted: _Fitted | None = None) -> ImportedPlan:
    """Find the rooms the walls enclose (:mod:`fuego.scenario.vtt_rooms`) and put them, their
    doors, windows and inner walls on fuego's 10-ft grid (``phase``: the 5-ft squares it is
    moved by, as the building's other levels have it; else the best for this map's walls;
    ``fitted``: the map's layouts, made already)."""
    fitted = fitted or _fitted(vtt, grid_feet, outside)
    _check_portals(vtt, windows, doors)
    best = fitted.best()
    if phase not in fitted.fits:  # (none asked for, or one too big for a plan)
        phase = best
    grid, lay = fitted.grid, fitted.fits[phase][1]
    # fuego's own export says its rooms: taken as written (the walls would split a room at a
    # wall inside it, and join two rooms an opening joins)
    region, rooms = _marked_regions(vtt, lay) if vtt.rooms else _regions(grid, lay)
    if not outside:
        _drop_outside(region, rooms)
    if len([room for room in rooms if room["areas"]]) > len(ROOM_CHARS) + 1:
        raise LimitError(f"the walls make {len(rooms)} rooms; fuego names at most "
                         f"{len(ROOM_CHARS) + 1} in one imported plan", where=vtt.source,
                         tip="try --grid-feet 10 off, or remove tiny enclosed shapes (pillars)")
    room_of = functools.partial(_room_of, region, lay.cols, lay.rows)
    taken: dict[Edge, Portal] = {}
    door_list, win_list, skipped, leaves = _place_portals(vtt, lay, room_of, taken, windows,
                                                          doors, windows_from_names)
    inner, gaps = _inner_walls(grid, lay, taken, room_of, rooms)
    plan = ImportedPlan(vtt, grid_feet, lay.cols, lay.rows, region, rooms, sorted(door_list),
                        sorted(win_list), sorted(inner), skipped, lay.strip, lay.shift, phase,
                        shared_grid=phase != best,
                        grid_worse=fitted.cover(best) > fitted.cover(phase) + 1e-9,
                        leaves=leaves, openings=sorted(gaps) if vtt.rooms else [])
    if vtt.rooms:
        _place_materials(plan, lay, room_of)
    return plan


def _check_size(vtt: VttMap, grid_feet: int, outside: bool) -> None:
    """The grid scale is 5 or 10 ft, and the plan within fuego's limits."""
    if grid_feet not in GRID_FEET:
        raise FuegoError(f"--grid-feet must be 5 or 10, not {grid_feet}",
                         tip="one VTT square is 5 ft on most battle maps")
    k = 10 / grid_feet
    cols0 = math.ceil(vtt.width / k - 1e-9)
    rows0 = math.ceil(vtt.height / k - 1e-9)
    if cols0 > MAX_PLAN_AREAS or rows0 > MAX_PLAN_AREAS:
        raise LimitError(f"the map is {cols0} x {rows0} areas; fuego plans are at most "
                         f"{MAX_PLAN_AREAS} areas a side", where=vtt.source,
                         tip="with --grid-feet 10 each square is a whole area: try 5")
    if outside and cols0 * rows0 > MAX_AREAS:  # before the work: fuego check would refuse it
        raise LimitError(f"the map is {cols0} x {rows0} areas: more than {MAX_AREAS:,} areas "
                         "in the building; that is the limit", where=vtt.source,
                         tip="import a region of the map (Dungeondraft's export region), or "
                             "--grid-feet 10 if its squares are 10 ft")


def _check_portals(vtt: VttMap, windows: tuple[int, ...], doors: tuple[int, ...]) -> None:
    """Every ``--window`` and ``--door`` number is one of the map's portals."""
    for flag, numbers in (("--window", windows), ("--door", doors)):
        bad = [n for n in numbers if not 1 <= n <= vtt.portals_read]
        if bad:
            raise FuegoError(f"{flag} {bad[0]}: the map has {vtt.portals_read} portals "
                             f"(numbered 1 to {vtt.portals_read})", where=vtt.source,
                             tip="--window and --door number the portals of the first map "
                                 "given, in the file's order")


#: How near the map's edge (squares) a wall along it lies to be one of the scene's bounds.
EDGE_NEAR = 0.25


def _off_edge(vtt: VttMap) -> list[list[Point]]:
    """The file's walls and portals without the pieces that run along the map's edge."""
    def along(p: Point, q: Point) -> bool:
        return any(abs(p[i] - e) <= EDGE_NEAR and abs(q[i] - e) <= EDGE_NEAR
                   for i, size in ((0, vtt.width), (1, vtt.height)) for e in (0.0, size))

    return [[p, q] for line in vtt.everywhere for p, q in zip(line, line[1:])
            if not along(p, q)] + [line for line in vtt.everywhere if len(line) == 1]


def _raster(vtt: VttMap, k: float, lines_sq: list[list[Point]] | None = None
            ) -> tuple[Any, int, int]:
    """Every wall and portal of the file (or ``lines_sq``, in squares) drawn once, in areas
    from the map's corner, BEYOND areas out at most (they enclose rooms even beyond a crop);
    returns the raster and the area its corner stands for."""
    from fuego.scenario import vtt_rooms

    cols0 = math.ceil(vtt.width / k - 1e-9)
    rows0 = math.ceil(vtt.height / k - 1e-9)
    lines = [[(x / k, y / k) for x, y in line]
             for line in (vtt.everywhere if lines_sq is None else lines_sq)]
    xs = [x for line in lines for x, _ in line]
    ys = [y for line in lines for _, y in line]
    x0 = min(max(-BEYOND, math.floor(min(xs, default=0))), 0) - 3
    y0 = min(max(-BEYOND, math.floor(min(ys, default=0))), 0) - 3
    x1 = max(min(cols0 + BEYOND, math.ceil(max(xs, default=0))), cols0) + 3
    y1 = max(min(rows0 + BEYOND, math.ceil(max(ys, default=0))), rows0) + 3
    return vtt_rooms.raster(lines, x0, y0, x1 - x0, y1 - y0), x0, y0


def _layout(vtt: VttMap, grid, k: float, x0: int, y0: int, phase: tuple[int, int],
            outside: bool) -> _Layout:
    """The grid started ``phase`` squares left of and above the map's corner (with an outdoor
    strip round it when the outer wall has portals and the plan has room for it)."""
    from fuego.scenario import vtt_rooms

    P = vtt_rooms.PIXELS
    lay = _Layout(k, (float(phase[0]), float(phase[1])), 0, 0, False, 0, 0, None)
    lay.cols = math.ceil((vtt.width + lay.shift[0]) / k - 1e-9)
    lay.rows = math.ceil((vtt.height + lay.shift[1]) / k - 1e-9)
    on_border = any(_off_plan(e, lay.cols, lay.rows) == 1 for p in vtt.portals
                    for e in _portal_edges(p, lay.area_units)[:1])
    lay.strip = outside and on_border and max(lay.cols, lay.rows) + 2 <= MAX_PLAN_AREAS
    if lay.strip:  # the doors and windows of the outer wall open onto an outdoor strip
        lay.shift = (lay.shift[0] + k, lay.shift[1] + k)
        lay.cols, lay.rows = lay.cols + 2, lay.rows + 2
    lay.ox = round((-x0 - lay.shift[0] / k) * P)
    lay.oy = round((-y0 - lay.shift[1] / k) * P)
    lay.votes = vtt_rooms.vote(grid, lay.ox, lay.oy, lay.cols, lay.rows)
    if lay.strip:
        lay.votes[0, :] = lay.votes[-1, :] = lay.votes[:, 0] = lay.votes[:, -1] = 0
    return lay


def _pieces(grid, lay: _Layout) -> list[list[int]]:
    """Each area's piece of its indoor region: the region its vote names, cut where its areas
    do not touch on the plan, side or corner (a hall that meets itself only beyond a crop is
    two rooms here, so a flashover in one half never takes the other); 0 for the outside."""
    piece = [[0] * lay.cols for _ in range(lay.rows)]
    n = 0
    for r0 in range(lay.rows):
        for c0 in range(lay.cols):
            g = int(lay.votes[r0, c0])
            if piece[r0][c0] or g == 0 or grid.outside[g]:
                continue
            n += 1
            piece[r0][c0] = n
            todo = [(c0, r0)]
            while todo:
                c, r = todo.pop()
                for cc, rr in ((c + dc, r + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)):
                    if 0 <= cc < lay.cols and 0 <= rr < lay.rows and not piece[rr][cc] \
                            and int(lay.votes[rr, cc]) == g:
                        piece[rr][cc] = n
                        todo.append((cc, rr))
    return piece


def _regions(grid, lay: _Layout) -> tuple[list[list[int]], list[dict]]:
    """Rooms in reading order, each area in the room its vote names (one room a piece that
    touches on the plan: :func:`_pieces`); every region open to beyond the walls is the one
    outside room. Returns the plan's room numbers and the rooms."""
    number: dict[int, int] = {}
    rooms: list[dict] = []
    outside_room: int | None = None
    region = [[-1] * lay.cols for _ in range(lay.rows)]
    piece = _pieces(grid, lay)
    for r in range(lay.rows):
        for c in range(lay.cols):
            g = piece[r][c]
            if not g:
                if outside_room is None:
                    outside_room = len(rooms)
                    rooms.append({"key": "outside", "name": "Outside", "outdoors": True,
                                  "areas": []})
                region[r][c] = outside_room
            else:
                if g not in number:
                    n = sum(1 for room in rooms if not room["outdoors"]) + 1
                    number[g] = len(rooms)
                    rooms.append({"key": f"room{n}", "name": f"Room {n}", "outdoors": False,
                                  "areas": []})
                region[r][c] = number[g]
            rooms[region[r][c]]["areas"].append((c, r))
    return region, rooms


def _marked_regions(vtt: VttMap, lay: _Layout) -> tuple[list[list[int]], list[dict]]:
    """The rooms fuego's export wrote (:attr:`VttMap.rooms`), each area in the room that
    holds its middle; an area in none (beyond the building, the outdoor strip) is the
    outside. The same shape as :func:`_regions`; a marked room keeps its name (``named``)."""
    rooms: list[dict] = []
    number: dict[int, int] = {}
    region = [[-1] * lay.cols for _ in range(lay.rows)]
    for r in range(lay.rows):
        for c in range(lay.cols):
            x, y = (c + 0.5) * lay.k - lay.shift[0], (r + 0.5) * lay.k - lay.shift[1]
            m = next((i for i, room in enumerate(vtt.rooms) if room.holds(x, y)), -1)
            if m not in number:
                number[m] = len(rooms)
                if m < 0:
                    rooms.append({"key": "outside", "name": "Outside", "outdoors": True,
                                  "areas": []})
                else:
                    n = sum(1 for room in rooms if "named" in room) + 1
                    rooms.append({"key": f"room{n}", "name": f"Room {n}",
                                  "outdoors": vtt.rooms[m].outdoors, "areas": [],
                                  "named": vtt.rooms[m].name, "mark": vtt.rooms[m]})
            region[r][c] = number[m]
            rooms[number[m]]["areas"].append((c, r))
            if m < 0:
                continue
            if vtt.rooms[m].exit_at(x, y):
                rooms[number[m]].setdefault("exits", []).append((c, r))
            own = vtt.rooms[m].fuel_at(x, y)
            if own is not None:
                rooms[number[m]].setdefault("area_fuel", {})[(c, r)] = own
    return region, rooms


def _place_materials(plan: ImportedPlan, lay: _Layout, room_of) -> None:
    """The materials fuego's own export said (``fuego.materials``) on the plan's edges: each
    on the door, window or wall of its edge, if it is one of that kind's; a wall between two
    rooms is one of ``room_walls``. What finds no such barrier is ``unread``, with why."""
    from fuego.scenario.spec import DOORS, WALLS, WINDOWS

    kinds = {**{e: ("door", DOORS) for e, _ in plan.doors},
             **{e: ("window", WINDOWS) for e, _ in plan.windows},
             **{e: ("wall", WALLS) for e in plan.inner_walls}}
    gaps = set(plan.openings)
    for m in plan.vtt.materials:
        where = f"{MARK}.materials[{m.number}]"
        cells = [_cell_at(lay, (x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in (m.one, m.two)]
        edge = _edge_of(*cells)
        if edge is None or any(room_of(cell) < 0 for cell in cells):
            plan.unread.append(f"{where}: its two areas are no two areas side by side on the "
                               "plan: not read")
            continue
        what, allowed = kinds.get(edge, ("wall", WALLS))
        if edge not in kinds and (room_of(cells[0]) == room_of(cells[1]) or edge in gaps):
            plan.unread.append(f"{where}: {m.material}: nothing stands on its edge on the "
                               "plan: not read")
            continue
        if m.material not in allowed:
            plan.unread.append(f"{where}: {m.material} is no {what}'s material (the plan has "
                               f"a {what} there): not read")
            continue
        plan.materials[edge] = m.material
        if edge not in kinds:
            plan.room_walls.append(edge)
    plan.room_walls.sort()


def _cell_at(lay: _Layout, x: float, y: float) -> tuple[int, int]:
    """The (col, row) of the area holding the map point (squares); off the plan it may be
    beyond its columns and rows."""
    return math.floor((x + lay.shift[0]) / lay.k), math.floor((y + lay.shift[1]) / lay.k)


def _edge_of(a: tuple[int, int], b: tuple[int, int]) -> Edge | None:
    """The edge between two areas side by side on one level, or None."""
    (c0, r0), (c1, r1) = sorted((a, b))
    if r0 == r1 and c1 == c0 + 1:
        return "v", c1, r0
    if c0 == c1 and r1 == r0 + 1:
        return "h", c0, r1
    return None


def _drop_outside(region: list[list[int]], rooms: list[dict]) -> None:
    """--no-outside: the outside's areas are no areas."""
    for room in rooms:
        if room["outdoors"]:
            for c, r in room["areas"]:
                region[r][c] = -1
            room["areas"] = []


def _room_of(region: list[list[int]], cols: int, rows: int, cell: tuple[int, int]) -> int:
    """The room of an area; -1 for no area (--no-outside), -2 beyond the plan."""
    c, r = cell
    return region[r][c] if 0 <= c < cols and 0 <= r < rows else -2


def _place_portals(vtt: VttMap, lay: _Layout, room_of, taken: dict[Edge, Portal],
                   windows: tuple[int, ...], doors: tuple[int, ...], from_names: bool
                   ) -> tuple[list[tuple[Edge, Portal]], list[tuple[Edge, Portal]],
                              list[tuple[Portal, str]], list[tuple[Portal, Portal]]]:
    """Each portal on the edges nearest its span, where the rooms on either side differ
    (``taken`` gathers the edges held); returns the doors, the windows, the portals left
    out with why, and the double doors' second leaves with their doors."""
    skipped: list[tuple[Portal, str]] = []
    leaves: list[tuple[Portal, Portal]] = []
    door_list: list[tuple[Edge, Portal]] = []
    win_list: list[tuple[Edge, Portal]] = []
    for portal in vtt.portals:
        placed: list[Edge] = []
        for choices in _portal_choices(portal, lay.area_units):
            # one edge a column (a row for an upright portal): two points of a portal lying
            # midway between two grid lines would stack it on both, one door behind another
            pick = [e for e in _portal_edge(choices, taken, room_of)
                    if not any(_alongside(e, f) for f in placed)]
            placed += pick
            for e in pick:
                taken[e] = portal
        if not placed:
            def is_window(p: Portal) -> bool:
                return _is_window(p, windows, doors, from_names)

            door = _leaf_of(portal, lay.area_units, taken, is_window)
            if door is not None:  # part of that door, which stands across the whole edge
                leaves.append((portal, door))
                continue
            skipped.append((portal, _why_not(portal, lay.area_units, taken, room_of,
                                             lay.strip)))
            continue
        window = _is_window(portal, windows, doors, from_names)
        (win_list if window else door_list).extend((e, portal) for e in placed)
    return door_list, win_list, skipped, leaves


def _alongside(e: Edge, f: Edge) -> bool:
    """Whether two area edges are parallel in one column (flat ones) or row (upright ones):
    one lies from the other straight across it."""
    (a0, a1), b1 = _edge_areas(e), _edge_areas(f)[1]
    across = (a1[0] - a0[0], a1[1] - a0[1])
    off = (b1[0] - a1[0], b1[1] - a1[1])
    return e[0] == f[0] and off[0] * across[1] == off[1] * across[0]


def _held(portal: Portal, units, taken: dict) -> list[Portal]:
    """The portals already on the edges this one would stand on, by number."""
    edges = [e for choices in _portal_choices(portal, units) for e in choices]
    return [p for _, p in sorted({taken[e].number: taken[e] for e in edges if e in taken}.items())]


def _leaf_of(portal: Portal, units, taken: dict, window: Callable[[Portal], bool]
             ) -> Portal | None:
    """The door whose edge this unplaced door shares as its second leaf (two 5-ft doors side
    by side on one 10-ft edge: one double door), or None."""
    held = _held(portal, units, taken)
    if held and not window(portal) and not window(held[0]) and _leaves(portal, held[0], units):
        return held[0]
    return None


def _portal_edge(choices: list[Edge], taken: dict[Edge, Portal], room_of) -> list[Edge]:
    """The first free edge of ``choices`` between two areas, one between two rooms first
    (none: an empty list)."""
    usable = [e for e in choices if e not in taken
              and all(room_of(cell) >= 0 for cell in _edge_areas(e))]
    apart = [e for e in usable if room_of(_edge_areas(e)[0]) != room_of(_edge_areas(e)[1])]
    return (apart or usable)[:1]


def _inner_walls(grid, lay: _Layout, taken: dict[Edge, Portal], room_of, rooms: list[dict]
                 ) -> tuple[list[Edge], list[Edge]]:
    """The edges between two areas of one room that walls block (a partition, a stub), where
    no portal stands; and the edges between two rooms, not both outdoors, that no wall or
    portal blocks (an opening)."""
    from fuego.scenario import vtt_rooms

    inner, gaps = [], []
    across, down = vtt_rooms.blocked(grid, lay.ox, lay.oy, lay.cols, lay.rows)
    for r in range(lay.rows):
        for c in range(lay.cols):
            for e, other, share in ((("v", c + 1, r), (c + 1, r), across, ),
                                    (("h", c, r + 1), (c, r + 1), down)):
                one, two = room_of((c, r)), room_of(other)
                if e in taken or one < 0 or two < 0:
                    continue
                walled = share[r, c] >= WALL_SHARE
                if one == two and walled:
                    inner.append(e)
                elif one != two and not walled and not (
                        rooms[one]["outdoors"] and rooms[two]["outdoors"]):
                    gaps.append(e)
    return inner, gaps


def _why_not(portal: Portal, units, taken: dict, room_of, strip: bool) -> str:
    """Why a portal found no edge to stand on (a double door's second leaf does: its door's),
    in the words of the YAML's comment."""
    edges = [e for choices in _portal_choices(portal, units) for e in choices]
    held = _held(portal, units, taken)
    if held:
        number = held[0].number
        return (f"its 10-ft edge already holds portal {number} (two portals in one area "
                "edge are one door or window)")
    cells = [cell for e in edges for cell in _edge_areas(e)]
    if any(room_of(cell) == -2 for cell in cells) and not strip:
        return ("on the map's border, with nothing beyond it (--no-outside, or the map is "
                f"already {MAX_PLAN_AREAS} areas a side)")
    if any(room_of(cell) == -1 for cell in cells):
        return "between a room and the outside that --no-outside dropped"
    return "no area edge near it"


def _leaves(p: Portal, q: Portal, units) -> bool:
    """Are two portals the leaves of one double door: on one line, end to end, no longer
    together than an area's edge (two 5-ft doors side by side)?"""
    (ax, ay), (bx, by) = units(p.a), units(p.b)
    (cx, cy), (dx, dy) = units(q.a), units(q.b)
    ends = [(ax, ay), (bx, by), (cx, cy), (dx, dy)]
    xs, ys = [x for x, _ in ends], [y for _, y in ends]
    span = max(max(xs) - min(xs), max(ys) - min(ys))
    one_line = min(max(xs) - min(xs), max(ys) - min(ys)) <= LEAF_SLACK
    touch = min(math.dist(e, f) for e in ends[:2] for f in ends[2:]) <= LEAF_SLACK
    side_by_side = math.dist(*ends[:2]) + math.dist(*ends[2:]) <= span + LEAF_SLACK  # no overlap
    return one_line and touch and side_by_side and span <= 1 + LEAF_SLACK


def _is_window(portal: Portal, windows: tuple[int, ...], doors: tuple[int, ...],
               from_names: bool) -> bool:
    """``--window N`` and ``--door N`` first, then fuego's own mark (``"kind"``: what
    ``fuego export`` wrote; a shut papered window goes ``closed: true``), then (with
    ``--windows-from-names``) a name that says window or door, then the Dungeondraft
    convention: ``closed: false`` is a window."""
    if portal.number in windows:
        return True
    if portal.number in doors:
        return False
    if portal.window is not None:
        return portal.window
    if from_names:
        hint = portal.hint.lower()
        if "window" in hint:
            return True
        if "door" in hint:
            return False
    return not portal.closed


def portal_state(portal: Portal, window: bool) -> tuple[bool, bool]:
    """(stands open, locked) of a portal imported as a door or a window. The state the file
    gives apart from ``closed`` (fuego's own mark, a Foundry scene's door state) first; else
    a door whose portal says ``closed: false`` (made a door by ``--door N`` or its name)
    stands open, and a window is shut (by Dungeondraft's convention ``closed: false`` says
    window, not open). Only a door is locked."""
    if portal.shut is not None:
        return not portal.shut, portal.locked and not window
    return not window and not portal.closed, False


def _samples(portal: Portal, units) -> list[Point]:
    """Points along a portal's span (area units), one for each area of its length."""
    (ax, ay), (bx, by) = units(portal.a), units(portal.b)
    n = max(1, round(math.hypot(bx - ax, by - ay)))
    return [(ax + (bx - ax) * (i + 0.5) / n, ay + (by - ay) * (i + 0.5) / n) for i in range(n)]


def _portal_choices(portal: Portal, units) -> list[list[Edge]]:
    """For each point along the portal: the area edges it may stand on, best first: the grid
    line nearest it across the portal's run; the next line, when the point lies near the
    middle between the two (a door on a curved or jagged wall); the lines the other way when
    the portal runs slantwise."""
    (ax, ay), (bx, by) = units(portal.a), units(portal.b)
    angle = math.degrees(math.atan2(abs(by - ay), abs(bx - ax)))
    out = []
    for x, y in _samples(portal, units):
        def lines(v: float) -> list[int]:
            near = round(v)
            other = near + (1 if v > near else -1)
            return [near] + ([other] if abs(other - v) <= 0.75 else [])

        h = [("h", math.floor(x), j) for j in lines(y)]
        v = [("v", i, math.floor(y)) for i in lines(x)]
        first, second = (h, v) if angle <= 45 else (v, h)
        out.append(first + (second if 25 <= angle <= 65 else []))
    return out


def _portal_edges(portal: Portal, units) -> list[Edge]:
    """The edge each point along the portal stands on first."""
    return [choices[0] for choices in _portal_choices(portal, units)]


def _off_plan(edge: Edge, cols: int, rows: int) -> int:
    """How many of the edge's two areas lie beyond the plan."""
    return sum(1 for c, r in _edge_areas(edge) if not (0 <= c < cols and 0 <= r < rows))


def _squares(points: list[Point]) -> str:
    """``(4, 2)-(6, 2)``: the span of these points, in squares."""
    lo, hi = min(points), max(points)
    return f"({lo[0]:g}, {lo[1]:g})-({hi[0]:g}, {hi[1]:g})"


def double_doors_said(plan: ImportedPlan, level: str) -> list[str]:
    """Each double door, one line: ``portals 6 and 7 at (4, 2)-(6, 2) squares: the two leaves
    of one door, ground:C1-ground:C2``."""
    out: list[str] = []
    seen: set[int] = set()
    for edge, door in plan.doors:
        leaves = plan.leaves_of(door)
        if leaves and door.number not in seen:
            seen.add(door.number)
            ends = [door.a, door.b] + [p for leaf in leaves for p in (leaf.a, leaf.b)]
            numbers = " and ".join(str(p.number) for p in [door, *leaves])
            out.append(f"portals {numbers} at {_squares(ends)} squares: the two leaves of one "
                       f"door across the 10-ft area edge {_edge_text(plan, level, edge)}")
    return out


def dropped(plan: ImportedPlan) -> list[str]:
    """Everything of the map the scenario does not carry, one line each: where, and why."""
    lines = [f"portal {p.number} at ({p.a[0]:g}, {p.a[1]:g})-({p.b[0]:g}, {p.b[1]:g}) squares: "
             f"not placed: {why}" for p, why in plan.skipped_portals]
    return lines + list(plan.vtt.ignored) + plan.unread


# -- writing the scenario -------------------------------------------------------------------------
def _q(text: str) -> str:
    """A YAML double-quoted string (JSON strings are valid YAML); a control character from
    the map's file shows as its escape (``fuego check`` refuses the character itself)."""
    return json.dumps(terminal(text), ensure_ascii=False)


def _span(plan: ImportedPlan, areas: list[tuple[int, int]], level: str) -> str:
    from fuego.world.places import column_letters

    cs = [c for c, _ in areas]
    rs = [r for _, r in areas]
    return (f"{column_letters(min(cs))}{min(rs) + 1}-{column_letters(max(cs))}{max(rs) + 1}")


def _placed(offset: tuple[int, int]) -> str:
    """``Moved 2 areas right and 1 down``: where a level was put over the others."""
    dc, dr = offset
    ways = [f"{plural(n, 'area')} {way}" if not k else f"{n} {way}"
            for k, (n, way) in enumerate(w for w in ((dc, "right"), (dr, "down")) if w[0])]
    return "Moved " + " and ".join(ways)


def _level_head(plan: ImportedPlan, level: str, add, named: bool) -> None:
    """The comments on how one map became one level."""
    from fuego.scenario.vtt_read import plain
    from fuego.world.places import column_letters

    vtt = plan.vtt
    name = plain(os.path.basename(vtt.source))  # a file name may hold a newline: not in a comment
    per = 10 // plan.grid_feet
    sq = f"{per} x {per} squares make" if per > 1 else "each square is"
    of = (f"a Foundry VTT scene{', version ' + vtt.version if vtt.version else ''}"
          if vtt.foundry else f"Universal VTT format {vtt.version}")
    add(f"# {'Level ' + level + ': imported' if named else 'Imported'} from {name} by "
        f"`fuego import` ({of}).")
    add(f"# Grid scale assumed: one VTT square = {plan.grid_feet} ft, so {sq} one 10-ft area;")
    dc, dr = plan.offset
    add(f"# the {vtt.width:g} x {vtt.height:g} square map is {plan.cols - dc} x "
        f"{plan.rows - dr} areas (columns {column_letters(dc)}.., rows {dr + 1}..).")
    if vtt.origin != (0.0, 0.0):
        add(f"# The map is an export region: its corner is at square ({vtt.origin[0]:g}, "
            f"{vtt.origin[1]:g}) of the drawing, and")
        add("# walls and portals were cut to it (the walls beyond still enclose its rooms).")
    moved = " and ".join(w for w, p in (("left", plan.phase[0]), ("up", plan.phase[1])) if p)
    if plan.shared_grid:
        add(f"# The 10-ft grid {'starts 5 ft ' + moved + ' of' if moved else 'starts at'} the "
            "map's corner, on the lines it has on the other levels"
            + ("" if plan.grid_worse else "."))
        if plan.grid_worse:
            add("# (this map's walls alone would have it 5 ft over: check its rooms' edges).")
    elif any(plan.phase):
        add(f"# The walls stand on the odd 5-ft lines: the 10-ft grid starts 5 ft {moved} of the "
            "map's corner,")
        add("# so every wall stays on a grid line and no room moves.")
    if plan.strip:
        add("# The outer wall has doors or windows: a 10-ft outdoor strip was added around the")
        add(f"# map for them to open onto (column {column_letters(dc)}, row {dr + 1} and the "
            "last column and row; the map's")
        add(f"# squares start at column {column_letters(dc + 1)}, row {dr + 2}). It is the "
            "outside, a way out.")
    if any(plan.offset):
        add(f"# {_placed(plan.offset)} to stand over the other levels (the exports' "
            "map_origin differ):")
        add("# the columns and rows before it (#) are not on this map.")
    if plan.unaligned:
        add(f"# Not put over the other levels: {plan.unaligned}.")


def to_yaml(plans: ImportedPlan | list[tuple[ImportedPlan, str]], *, title: str | None = None,
            level: str = "ground") -> str:
    """The scenario file: a checked floor plan, one level per map, plus comments on what the
    GM must add."""
    from fuego.scenario.vtt_read import plain

    levels = [(plans, level)] if isinstance(plans, ImportedPlan) else list(plans)
    first = levels[0][0].vtt
    name = plain(os.path.basename(first.source))
    title = title or os.path.splitext(name)[0].replace("_", " ").replace("-", " ").strip() \
        or "Imported map"
    title = title[:80]
    keys, chars = _room_keys(levels)
    L: list[str] = []
    add = L.append
    for plan, lv in levels:
        _level_head(plan, lv, add, len(levels) > 1)
    _to_do(add, len(levels) > 1)
    add("format: 1")
    add(f"title: {_q(title)}")
    add(f"description: {_q('Imported from ' + name + '. Describe the place here.')}")
    L.extend(_fuels_lines(levels))
    add("")
    L.extend(DEFAULTS_YAML)
    add("")
    add("rooms:")
    L.extend(_room_lines(levels, keys))
    add("")
    add("legend:")
    for li_ri, key in keys.items():
        add(f"  {_q(chars[li_ri])}: {key}")
    add("")
    add("levels:")
    L.extend(_plan_lines(levels, chars))
    L.extend(_barrier_sections(levels))
    for plan, lv in levels:
        _notes(plan, lv, add, len(levels) > 1)
    add("")
    plan0, lv0 = levels[0]
    add("heroes: []                  # TO DO: - {name: ..., start: " +
        f"{plan0.area_name(0, 0, lv0)}, traits: {{brawn: 2, finesse: 2, wits: 2, "
        "resolve: 2, panache: 2}}")
    add("fires: []                   # TO DO: - {area: ..., fd: 3}")
    add("")
    add("rules:")
    add("  max_rounds: 40")
    return "\n".join(L) + "\n"


def _room_keys(levels: list[tuple[ImportedPlan, str]]
               ) -> tuple[dict[tuple[int, int], str], dict[tuple[int, int], str]]:
    """Each (level, room) with areas: its key and legend character, shared by every level of
    the building. A room fuego's export wrote keeps the scenario's key (one a second map
    gives again gets a number); the others are ``room1``, ``room2``..., the first outside
    ``outside``. The first outdoor room is drawn with the outside's own character."""
    chars: dict[tuple[int, int], str] = {}
    keys: dict[tuple[int, int], str] = {}
    pool = iter(ROOM_CHARS)
    taken = {room["mark"].key for plan, _ in levels for room in plan.rooms
             if room["areas"] and "mark" in room and room["mark"].key}
    used: set[str] = set()

    def free(key: str, own: bool) -> str:
        # the key, unless a room has it already (or, made up, a marked room will): key-2...
        out, n = key, 1
        while out in used or (out in taken and not (own and out == key)):
            n += 1
            out = f"{key[:36]}-{n}"
        used.add(out)
        return out

    n_rooms = outsides = 0
    outside_char = False
    for li, (plan, lv) in enumerate(levels):
        for ri, room in enumerate(plan.rooms):
            if not room["areas"]:
                continue
            mark = room.get("mark")
            if mark is not None and mark.key:
                keys[(li, ri)] = free(mark.key, True)
            elif room["outdoors"] and mark is None:
                outsides += 1
                keys[(li, ri)] = free("outside" if outsides == 1 else f"outside-{lv}", False)
            else:
                n_rooms += 1
                keys[(li, ri)] = free(f"room{n_rooms}", False)
            if room["outdoors"] and not outside_char:
                chars[(li, ri)], outside_char = OUTSIDE_CHAR, True
            else:
                chars[(li, ri)] = next(pool)
    return keys, chars


def _to_do(add, several: bool) -> None:
    """The comments on how the rooms were found and what the GM must fill in."""
    add("# Rooms are the spaces the walls enclose, found 8 pixels to a 10-ft area; each area")
    add("# belongs to the room that holds most of it. Portals that Dungeondraft exports with")
    add("# `closed: false` are windows, the others doors (as Foundry's Universal Battlemap")
    add("# Importer and uvtt2fgu read them).")
    add("# fuego check accepts this file as it is, but it is only a floor plan. TO DO:")
    add("#   1. rooms: give each room its name, its fuel (Resolve 0-9, or paper, paper-stack,")
    add("#      beams-small, log-pile, beams, or your own under fuels:) and, where it is not the")
    add("#      default, its wall (paper-wall, thin-wooden-wall, wooden-wall, thick-wooden-wall,")
    add("#      thin-stone-wall, stone-wall, thick-stone-wall); wet: true for damp stores;")
    add("#   2. doors: material thin-wooden-door, wooden-door or thick-wooden-door; windows:")
    add("#      papered-window or glass-window; move a line between doors: and windows: to")
    add("#      change which it is;")
    add("#   3. areas: features per area (oil, gunpowder, wooden-beam, stone-beam, exit);")
    add("#   4. routes: runs of carpet, curtains, hangings or spilt oil the fire follows;")
    add("#   5. heroes: and fires: (who is where, and where the fire starts);")
    if several:
        add("#   6. links: the stairs, ladders and holes between the levels, by hand.")
    else:
        add("#   6. more levels (cellar, upper floor) and links: (stairs, ladders) by hand.")
    add("# See docs/scenario-format.md and docs/maps-and-forecasts.md.")


#: The imported scenario's defaults: what a room's wall, a door and a window are unless the
#: file says otherwise (the lines below write them).
DEFAULTS = {"wall": "wooden-wall", "door": "wooden-door", "window": "glass-window"}
#: The imported scenario's defaults section, with what the GM should set.
DEFAULTS_YAML = (
    "defaults:",
    f"  wall: {DEFAULTS['wall']:<19}# TO DO: the walls between rooms unless a room says "
    "otherwise",
    f"  door: {DEFAULTS['door']:<19}# TO DO: every door below unless it names its material",
    f"  window: {DEFAULTS['window']}",
    "  floor: wooden-floor",
    "  fuel: 0                  # TO DO: every room's fuel unless it gives its own (0: nothing burns)",
)


def _room_lines(levels: list[tuple[ImportedPlan, str]],
                keys: dict[tuple[int, int], str]) -> list[str]:
    """The rooms section's entries: the outside (a way out on the ground, open air above it)
    and each room to name, each with how many areas it has and where."""
    out = []
    for li, (plan, lv) in enumerate(levels):
        for ri, room in enumerate(plan.rooms):
            if (li, ri) not in keys:
                continue
            n = len(room["areas"])
            where = f"{plural(n, 'area')}, {lv} {_span(plan, room['areas'], lv)}"
            key = keys[(li, ri)]
            if "named" in room:  # as fuego's export wrote it: its name, indoors or out
                out.append(_marked_room_line(room, key, where))
            elif room["outdoors"] and li == 0 and plan.vtt.rooms:
                out.append(f"  {key}: {{name: \"Outside\", outdoors: true, fuel: none}}   "
                           f"# {where}: beyond the building's areas")
            elif room["outdoors"] and li == 0:
                out.append(f"  {key}: {{name: \"Outside\", outdoors: true, fuel: none, "
                           f"features: [exit]}}   # {where}: beyond the walls, a way out")
            elif room["outdoors"]:
                out.append(f"  {key}: {{name: {_q('Open air (' + lv + ')')}, outdoors: true, "
                           f"fuel: none}}   # {where}: beyond the walls of a level above the "
                           "ground: no way out; smoke and fire leave by its windows")
            else:
                # no fuel of its own: defaults.fuel (0) until the GM gives one, here or there
                out.append(f"  {key}: {{name: {_q('Room ' + key[4:])}}}   # TO DO name, fuel "
                           f"(else defaults.fuel), wall; {where}")
    return out


def _marked_room_line(room: dict, key: str, where: str) -> str:
    """A room as fuego's export wrote it: its name, whether it is outdoors, its fuel and wall
    (where they are not the defaults' and the file says them) and whether it is a way out."""
    mark = room["mark"]
    made_up = key.startswith("room") and key[4:].isdigit()
    name = _q(room["named"] or ("Room " + key[4:] if made_up else key))
    parts = [f"name: {name}"] + (["outdoors: true"] if room["outdoors"] else [])
    if mark.wall is not None and mark.wall != DEFAULTS["wall"]:
        parts.append(f"wall: {mark.wall}")
    if mark.fuel is not None or room["outdoors"]:
        parts.append(f"fuel: {_fuel_text('none' if mark.fuel is None else mark.fuel)}")
    if len(room.get("exits", [])) == len(room["areas"]):
        parts.append("features: [exit]")
    missing = [w for w, v in (("fuel (else defaults.fuel)", mark.fuel), ("wall", mark.wall))
               if v is None and not room["outdoors"]]
    return (f"  {key}: {{{', '.join(parts)}}}   # "
            + (f"TO DO {', '.join(missing)}; " if missing else "") + where)


#: Fuel names YAML would read as something else (``no`` as false): written quoted.
_YAML_WORDS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null"})


def _fuel_text(fuel: int | str) -> str:
    """A fuel as the YAML writes it: a number, or its name (quoted where YAML would read it
    as a truth or null: a fuel may be named ``no``)."""
    return str(fuel) if isinstance(fuel, int) else _q(fuel) if fuel in _YAML_WORDS else fuel


def _plan_lines(levels: list[tuple[ImportedPlan, str]],
                chars: dict[tuple[int, int], str]) -> list[str]:
    """The levels section: each level's name, elevation and plan drawn in room characters."""
    out = []
    for li, (plan, lv) in enumerate(levels):
        out += [f"  - name: {lv}", f"    elevation: {li}", "    plan: |"]
        for r in range(plan.rows):
            out.append("      " + "".join("#" if plan.region[r][c] < 0
                                          else chars[(li, plan.region[r][c])]
                                          for c in range(plan.cols)))
    return out


def _edge_text(plan: ImportedPlan, lv: str, edge: Edge) -> str:
    """An edge as the scenario names it: its two areas."""
    (c0, r0), (c1, r1) = _edge_areas(edge)
    return f"{plan.area_name(c0, r0, lv)}-{plan.area_name(c1, r1, lv)}"


def _barrier_sections(levels: list[tuple[ImportedPlan, str]]) -> list[str]:
    """The doors, windows and walls sections (each only if it has an entry), every entry with
    the material to fill in."""
    several = len(levels) > 1

    def portal_line(plan: ImportedPlan, lv: str, edge: Edge, portal: Portal, what: str,
                    window: bool) -> str:
        hint = f" {_q(portal.hint)}" if portal.hint else ""
        of = f" of {lv}" if several else ""
        closed = "closed: true" if portal.closed else "closed: false"
        stands_open, locked = portal_state(portal, window)
        state = ", closed: false" if stands_open else ", locked: true" if locked else ""
        # the state said apart from `closed` (fuego's mark, Foundry's door state), where it is
        note = "" if portal.shut is None else (
            "; open in the file" if stands_open else "; locked in the file" if locked
            else "; locked in the file, but fuego locks doors only" if portal.locked else "")
        leaves = "".join(f" and portal {leaf.number}" for leaf in plan.leaves_of(portal))
        double = ", a double door of two leaves" if leaves else ""
        # the material fuego's export said, where it is not the defaults'; else one to give
        material = plan.materials.get(edge)
        given = "" if material in (None, DEFAULTS["window" if window else "door"]) \
            else f", material: {material}"
        to_do = f": TO DO material ({what})" if material is None else ""
        return (f"  - {{at: {_edge_text(plan, lv, edge)}{state}{given}}}   # portal "
                f"{portal.number}{leaves}{of}{hint} ({closed}{note}{double}){to_do}")

    out: list[str] = []
    for section, pick, what, window in (
            ("doors", lambda p: p.doors, "thin-wooden-door, wooden-door, thick-wooden-door",
             False),
            ("windows", lambda p: p.windows, "papered-window or glass-window", True)):
        lines = [portal_line(plan, lv, e, portal, what, window)
                 for plan, lv in levels for e, portal in pick(plan)]
        if lines:
            out += ["", f"{section}:", *lines]

    def wall_line(plan: ImportedPlan, lv: str, e: Edge, why: str) -> str:
        material = plan.materials.get(e)
        return (f"  - {{at: {_edge_text(plan, lv, e)}, material: {material or DEFAULTS['wall']}}}"
                + ("   # TO DO material" if material is None else f"   # {why}"))

    inner = [wall_line(plan, lv, e, "inside the room")
             for plan, lv in levels for e in plan.inner_walls]
    inner += [wall_line(plan, lv, e, "between two rooms, not their walls' material")
              for plan, lv in levels for e in plan.room_walls]
    if inner:
        out += ["", "walls:                      # walls that stand inside one room (partitions, "
                "stubs)" + (", and others of their own" if any(p.room_walls for p, _ in levels)
                            else ""), *inner]
    gaps = [f"  - {{at: {_edge_text(plan, lv, e)}}}" for plan, lv in levels for e in plan.openings]
    if gaps:
        out += ["", "openings:                   # nothing between the two rooms (an archway, a "
                "gap)", *gaps]
    return out + _area_lines(levels)


def _area_lines(levels: list[tuple[ImportedPlan, str]]) -> list[str]:
    """The ``areas:`` section: the ways out of a room that has others too, and the areas with
    a fuel of their own, as fuego's export wrote them."""
    out: list[str] = []
    areas: dict[tuple[int, int, int], list[str]] = {}
    for li, (plan, _) in enumerate(levels):
        for room in plan.rooms:
            for (c, r), fuel in room.get("area_fuel", {}).items():
                areas.setdefault((li, r, c), []).append(f"fuel: {_fuel_text(fuel)}")
            if 0 < len(room.get("exits", [])) < len(room["areas"]):
                for c, r in room["exits"]:
                    areas.setdefault((li, r, c), []).append("features: [exit]")
    if areas:
        out += ["", "areas:"] + [f"  {levels[li][0].area_name(c, r, levels[li][1])}: "
                                 f"{{{', '.join(parts)}}}"
                                 for (li, r, c), parts in sorted(areas.items())]
    return out


def _fuels_lines(levels: list[tuple[ImportedPlan, str]]) -> list[str]:
    """The ``fuels:`` section: the scenario's own fuel names its rooms and areas use, by
    Resolve, as fuego's export wrote them (a name a later map gives another Resolve keeps
    the first's, and is said among what is not carried over)."""
    fuels: dict[str, int] = {}
    for plan, _ in levels:
        for name, value in plan.vtt.fuels.items():
            said = (f"{MARK}.fuels.{name}: Resolve {value}, but an earlier map gives it "
                    f"{fuels.get(name)}: that one kept")
            if fuels.setdefault(name, value) != value and said not in plan.unread:
                plan.unread.append(said)
    if not fuels:
        return []
    return ["", "fuels:                      # the scenario's own fuel names (Resolve 0-9)",
            *(f"  {_fuel_text(name)}: {value}" for name, value in fuels.items())]


def objects_by_area(plan: ImportedPlan, level: str) -> list[tuple[str, list[str]]]:
    """``objects_line_of_sight`` by area: each area's name and the sizes of the objects whose
    middle lies in it (``5 x 5 ft``), in reading order."""
    found: dict[tuple[int, int], list[str]] = {}
    for line in plan.vtt.objects:
        xs, ys = [x for x, _ in line], [y for _, y in line]
        mx, my = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        ft = plan.grid_feet
        size = f"{(max(xs) - min(xs)) * ft:.0f} x {(max(ys) - min(ys)) * ft:.0f} ft"
        c, r = plan.area_at(mx, my)
        if plan.region[r][c] >= 0:
            found.setdefault((r, c), []).append(size)
    return [(plan.area_name(c, r, level), sizes) for (r, c), sizes in sorted(found.items())]


def _notes(plan: ImportedPlan, level: str, add, named: bool) -> None:
    """The comments after the plan: what was cut, what was not carried, objects and lights."""
    of = f" ({level})" if named else ""
    vtt = plan.vtt
    if vtt.clipped:
        add("")
        add(f"# Cut to the map's rectangle{of} (what lay beyond it is not on this plan):")
        for line in vtt.clipped:
            add("#   " + line)
    lost = dropped(plan)
    if lost:
        add("")
        add(f"# Not carried over from the map{of} (add them by hand if they matter):")
        for line in lost:
            add("#   " + line)
    _object_notes(plan, level, add, of)
    if vtt.lights:
        _light_notes(plan, level, add, of)


def _object_notes(plan: ImportedPlan, level: str, add, of: str) -> None:
    """The objects that block sight, by area (the first 60 areas)."""
    objects = objects_by_area(plan, level)
    if not objects:
        return
    add("")
    add(f"# Objects on the map that block sight{of} (objects_line_of_sight: pillars, "
        "furniture, rubble).")
    add("# They are not walls of rooms: give what burns a fuel, or a feature such as "
        "wooden-beam:")
    for area, sizes in objects[:60]:
        add(f"#   {area}: {plural(len(sizes), 'object')} "
            f"({', '.join(sizes[:6])}{', ...' if len(sizes) > 6 else ''})")
    if len(objects) > 60:
        add(f"#   ... and objects in {len(objects) - 60} more areas")


def _light_notes(plan: ImportedPlan, level: str, add, of: str) -> None:
    """The areas with the map's lights (places a fire might start), and a fire to copy."""
    add("")
    add(f"# Lights on the map{of} (lamps, candles, hearths: places a fire might start):")
    seen = []
    for x, y in plan.vtt.lights:
        c, r = plan.area_at(x, y)
        name = plan.area_name(c, r, level)
        if name not in seen and plan.region[r][c] >= 0:
            seen.append(name)
    if seen:
        rows = [""]
        for k, name in enumerate(seen[:60]):  # wrapped: one comment line of 60 names is a wall
            word = name + ("," if k < min(len(seen), 60) - 1 else "")
            if rows[-1] and len(rows[-1]) + 1 + len(word) > 92:
                rows.append(word)
            else:
                rows[-1] = f"{rows[-1]} {word}".strip()
        rows[-1] += " ..." if len(seen) > 60 else ""
        for row in rows:
            add("#   " + row)
        add(f"# fires:\n#   - {{area: {seen[0]}, fd: 3}}   # e.g. a lamp knocked over")


@dataclass
class ImportReport:
    cols: int
    rows: int
    rooms: int
    doors: int
    windows: int
    inner_walls: int
    #: portals left out (a double door's second leaf is not one: it is part of its door)
    skipped_portals: int
    outside: bool
    #: the outdoor strip added for the doors and windows of the outer wall
    strip: bool = False
    #: what the scenario does not carry over, one line each (where, and why)
    dropped: list[str] = field(default_factory=list)
    #: what was cut to the map's rectangle, one line each
    clipped: list[str] = field(default_factory=list)
    #: objects_line_of_sight on the plan (listed in the YAML's comments)
    objects: int = 0
    #: the level's name
    level: str = "ground"
    #: the grid moved by 5 ft (left, up) to keep the walls on its lines
    phase: tuple[int, int] = (0, 0)
    #: areas (right, down) the level was moved by to stand over the others
    offset: tuple[int, int] = (0, 0)
    #: why it could not be put over the others, when it could not
    unaligned: str = ""
    #: the grid lies as on the other levels, not where this map alone would have it; and its
    #: walls fit it worse for that
    shared_grid: bool = False
    grid_worse: bool = False
    #: doors of two leaves (two 5-ft portals on one 10-ft edge, made one door)
    double_doors: int = 0
    #: each of them, one line: its portals, where, and the door on the plan
    double_door_lines: list[str] = field(default_factory=list)

    @property
    def placed(self) -> str:
        """``Moved 2 areas right and 1 down`` (to stand over the other levels), or ""."""
        return _placed(self.offset) if any(self.offset) else ""


def report_of(plan: ImportedPlan, level: str) -> ImportReport:
    return ImportReport(plan.cols - plan.offset[0], plan.rows - plan.offset[1],
                        sum(1 for r in plan.rooms if r["areas"] and not r["outdoors"]),
                        len(plan.doors), len(plan.windows), len(plan.inner_walls),
                        len(plan.skipped_portals),
                        any(r["outdoors"] and r["areas"] for r in plan.rooms), plan.strip,
                        dropped(plan), list(plan.vtt.clipped),
                        sum(len(s) for _, s in objects_by_area(plan, level)), level, plan.phase,
                        plan.offset, plan.unaligned, plan.shared_grid, plan.grid_worse,
                        len(plan.leaves), double_doors_said(plan, level))


# -- levels over one another ----------------------------------------------------------------------
def _corner(plan: ImportedPlan) -> Point:
    """Where the plan's area (0, 0) starts in the drawing's squares: the export's corner
    (``map_origin``) less the squares the grid starts before it."""
    return plan.vtt.origin[0] - plan.shift[0], plan.vtt.origin[1] - plan.shift[1]


def _phases(maps: list[VttMap], fitted: list[_Fitted]) -> list[tuple[int, int] | None]:
    """Each level's 5-ft phase, all on the same 10-ft lines of the drawing (levels exported
    with other regions start on other squares): of the ways to lay one grid over them all,
    the one whose areas cover the rooms of every level best, summed. A level whose corner is
    a fraction of a square off the first's, or that one grid does not fit, gets its own best
    (None)."""
    first = maps[0].origin
    moved: list[tuple[int, int] | None] = []
    for vtt in maps:
        d = [vtt.origin[a] - first[a] for a in (0, 1)]
        whole = all(abs(m - round(m)) <= _ALIGN_SLACK for m in d)
        moved.append((round(d[0]), round(d[1])) if whole else None)

    def phase_of(i: int, p0: tuple[int, int]) -> tuple[int, int] | None:
        m = moved[i]
        if m is None or len(fitted[i].fits) == 1:  # (10-ft squares: a grid of one phase)
            return None
        return (p0[0] + m[0]) % 2, (p0[1] + m[1]) % 2

    def total(p0: tuple[int, int]) -> float:
        return sum(f.fits[p][0] if (p := phase_of(i, p0)) in f.fits else -1.0
                   for i, f in enumerate(fitted) if moved[i] is not None)

    ways = list(fitted[0].fits)
    p0 = max(ways, key=lambda p: (total(p), -ways.index(p)))
    return [phase_of(i, p0) for i in range(len(maps))]


#: Squares by which two levels' corners may miss the grid and still be one above the other
#: (a crop's corner written as 12.000001).
_ALIGN_SLACK = 0.01


def aligned(plans: list[ImportedPlan]) -> list[ImportedPlan]:
    """The levels of one building on one grid: each export's ``map_origin`` says where its
    corner lies in the drawing, and a level cropped further in is moved right and down by
    whole areas, so an area stands over the one it is above in the drawing (what the floor
    between levels and the GM's links join). A level whose corner misses the grid by part
    of an area keeps its own corner and says why (``unaligned``)."""
    if len(plans) < 2:
        return plans
    k = 10 / plans[0].grid_feet
    corners = [_corner(p) for p in plans]
    moves = [tuple((c[a] - corners[0][a]) / k for a in (0, 1)) for c in corners]
    whole = [all(abs(m - round(m)) <= _ALIGN_SLACK / k for m in move) for move in moves]
    placed = [tuple(round(m) for m in move) for move, ok in zip(moves, whole) if ok]
    least = (min(m[0] for m in placed), min(m[1] for m in placed))
    out = []
    for plan, move, ok in zip(plans, moves, whole):
        if not ok:
            out.append(replace(plan, unaligned=(
                f"its corner (map_origin {plan.vtt.origin[0]:g}, {plan.vtt.origin[1]:g}) is "
                f"not a whole number of {plan.grid_feet * k:g}-ft areas from the first "
                "map's, so it keeps its own corner: check the floors between the levels")))
            continue
        out.append(_moved(plan, round(move[0]) - least[0], round(move[1]) - least[1]))
    return out


def _moved(plan: ImportedPlan, dc: int, dr: int) -> ImportedPlan:
    """The plan with ``dc`` columns and ``dr`` rows of no area added left of and above it."""
    if not dc and not dr:
        return plan
    if plan.cols + dc > MAX_PLAN_AREAS or plan.rows + dr > MAX_PLAN_AREAS:
        raise LimitError(f"over the other levels this map would be {plan.cols + dc} x "
                         f"{plan.rows + dr} areas; fuego plans are at most {MAX_PLAN_AREAS} "
                         "areas a side", where=plan.vtt.source,
                         tip="export the levels with the same region (Dungeondraft's "
                             "export region), or import them one by one")

    def edge(e: Edge) -> Edge:
        axis, u, v = e
        return axis, u + dc, v + dr

    k = 10 / plan.grid_feet
    region = [[-1] * (plan.cols + dc) for _ in range(dr)]
    region += [[-1] * dc + row for row in plan.region]
    def moved(room: dict) -> dict:
        out = {**room, "areas": [(c + dc, r + dr) for c, r in room["areas"]]}
        if "exits" in room:
            out["exits"] = [(c + dc, r + dr) for c, r in room["exits"]]
        if "area_fuel" in room:
            out["area_fuel"] = {(c + dc, r + dr): f for (c, r), f in room["area_fuel"].items()}
        return out

    return replace(plan, cols=plan.cols + dc, rows=plan.rows + dr, region=region,
                   rooms=[moved(room) for room in plan.rooms],
                   doors=[(edge(e), p) for e, p in plan.doors],
                   windows=[(edge(e), p) for e, p in plan.windows],
                   inner_walls=[edge(e) for e in plan.inner_walls],
                   openings=[edge(e) for e in plan.openings],
                   materials={edge(e): m for e, m in plan.materials.items()},
                   room_walls=[edge(e) for e in plan.room_walls],
                   shift=(plan.shift[0] + dc * k, plan.shift[1] + dr * k), offset=(dc, dr))


def level_names(paths: list[str], given: tuple[str, ...] = ()) -> list[str]:
    """A level name for each map: those given, in order; then ``ground`` for one map, or each
    map's file name made a level name (letters, digits, - and _; at most 20)."""
    import re

    names = list(given[:len(paths)])
    if len(paths) == 1 and not names:
        return ["ground"]
    for path in paths[len(names):]:
        stem = os.path.splitext(os.path.basename(path))[0].lower()
        name = re.sub(r"[^a-z0-9_-]+", "-", stem).strip("-_")[:20].strip("-_")
        if not name or not name[0].isalpha():
            name = f"level{len(names) + 1}"
        while name in names:
            name = f"{name[:17]}-{len(names) + 1}"
        names.append(name)
    return names


def convert(path: str | os.PathLike | list, *, grid_feet: int = 5,
            windows: tuple[int, ...] = (), doors: tuple[int, ...] = (),
            windows_from_names: bool = False, outside: bool = True, title: str | None = None,
            level: str | tuple[str, ...] = "ground") -> tuple[str, ImportReport]:
    """Read one VTT file (or several, the levels of one building from the ground up) and
    return (scenario YAML, report of the first level); the YAML is checked by the loader.
    ``--window``/``--door`` numbers apply to the first map. Beyond the walls of a level
    above the first is open air: outdoors, but no way out."""
    text, reports = convert_levels([path] if not isinstance(path, list) else path,
                                   grid_feet=grid_feet, windows=windows, doors=doors,
                                   windows_from_names=windows_from_names, outside=outside,
                                   title=title, levels=(level,) if isinstance(level, str)
                                   else tuple(level))
    return text, reports[0]


def convert_levels(paths: list, *, grid_feet: int = 5, windows: tuple[int, ...] = (),
                   doors: tuple[int, ...] = (), windows_from_names: bool = False,
                   outside: bool = True, title: str | None = None,
                   levels: tuple[str, ...] = ()) -> tuple[str, list[ImportReport]]:
    """Several VTT files as the levels of one building: (scenario YAML, a report per level)."""
    from fuego.scenario.model import loads

    sources = [os.fspath(p) for p in paths]
    names = level_names(sources, levels)
    maps = [read(source) for source in sources]
    _check_portals(maps[0], windows, doors)  # (before the maps are drawn: a typo is said at once)
    fitted = [_fitted(vtt, grid_feet, outside) for vtt in maps]
    found: list[ImportedPlan] = []
    for i, (vtt, phase) in enumerate(zip(maps, _phases(maps, fitted))):
        plan = to_plan(vtt, grid_feet=grid_feet, windows=windows if i == 0 else (),
                       doors=doors if i == 0 else (), windows_from_names=windows_from_names,
                       outside=outside, phase=phase, fitted=fitted[i])
        if not any(room["areas"] for room in plan.rooms):
            raise FuegoError("the map has no area left to import", where=vtt.source,
                             tip="keep the outside (drop --no-outside) or check the walls")
        found.append(plan)
    plans = list(zip(aligned(found), names))
    text = to_yaml(plans, title=title)
    loads(text, source=f"{sources[0]} (imported)")  # raises if fuego would not accept it
    return text, [report_of(plan, lv) for plan, lv in plans]
