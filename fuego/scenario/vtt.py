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
   ``closed`` is kept.
4. **Rooms** are the regions of areas joined across edges with no wall, door or window (flood
   fill). A region that runs off the map through an edge without a wall is the outside: one
   outdoor room, a way out (``exit``), nothing to burn.

:func:`convert` returns the scenario as YAML text with comments telling the GM what to fill in
(materials, fuel, heroes, fires); it always passes ``fuego check``.
Reading and checking the file is :mod:`fuego.scenario.vtt_read`.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field

from fuego.errors import FuegoError, LimitError
from fuego.scenario.vtt_read import (  # noqa: F401  (checked where read; importable here too)
    MARGIN,
    MAX_FILE_BYTES,
    MAX_LIGHTS,
    MAX_MAP_SQUARES,
    MAX_POINTS,
    MAX_POINTS_PER_POLYLINE,
    MAX_POLYLINES,
    MAX_PORTALS,
    Point,
    Portal,
    VttMap,
    parse,
    read,
)
from fuego.text import terminal

#: Largest plan fuego accepts, in areas per side (fuego.scenario.limits).
MAX_PLAN_AREAS = 200
#: An area edge is a wall when wall segments cover at least this much of it.
WALL_COVER = 1 / 3
#: Segments within this many degrees of horizontal or vertical snap along a grid line.
SNAP_DEGREES = 25.0
GRID_FEET = (5, 10)
#: Legend characters for rooms, in order ('#' and space mean no area; 'o' is the outside).
ROOM_CHARS = ("abcdefghijklmnpqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
              "+*=%&@$!?~^<>()[]{}/;:,.'`|-_")
OUTSIDE_CHAR = "o"

#: An area edge: ("v", x, row) is the vertical line x between columns x-1 and x on ``row``;
#: ("h", col, y) the horizontal line y between rows y-1 and y on ``col``.
Edge = tuple[str, int, int]


# -- snapping -------------------------------------------------------------------------------------
#: Pieces expanded at once by :func:`_cover` (bounds the memory of one numpy step).
_CHUNK = 1 << 21


def _cover(segments: list[tuple[Point, Point]]) -> dict[Edge, float]:
    """How much of each area edge the wall segments (in area units) cover.

    A segment within ``SNAP_DEGREES`` of horizontal runs along the nearest horizontal grid
    line: each stretch of it counts, by its length, for the edge ``("h", floor(x),
    floor(y + 0.5))`` it runs beside (likewise vertical). A slanted segment counts in full for
    every edge it crosses (a sealed staircase). Computed exactly and for all segments at once
    in numpy arrays over the grid (identical segments merged), so a long wall costs no Python
    work per square it crosses.
    """
    import numpy as np

    if not segments:
        return {}
    seg = np.array([(p[0], p[1], q[0], q[1]) for p, q in segments], dtype=float)
    seg, count = np.unique(seg, axis=0, return_counts=True)
    x0, y0, x1, y1 = seg.T
    dx, dy = x1 - x0, y1 - y0
    length = np.hypot(dx, dy)
    angle = np.degrees(np.arctan2(np.abs(dy), np.abs(dx)))
    real = length >= 1e-9
    horizontal = real & (angle <= SNAP_DEGREES)
    vertical = real & (angle >= 90 - SNAP_DEGREES) & ~horizontal
    slanted = real & ~horizontal & ~vertical
    # the grid's cells on each axis: [across, along], just big enough (a portal is a few cells)
    xlo, ylo = int(np.floor(min(x0.min(), x1.min()))) - 2, int(np.floor(min(y0.min(), y1.min()))) - 2
    nx = int(np.ceil(max(x0.max(), x1.max()))) + 3 - xlo
    ny = int(np.ceil(max(y0.max(), y1.max()))) + 3 - ylo
    low = {"h": (ylo, xlo), "v": (xlo, ylo)}
    grid = {"h": np.zeros((ny, nx)), "v": np.zeros((nx, ny))}
    # along x: u = x, w = y (edges "h"); along y: u = y, w = x (edges "v")
    for axis, pick, u0, w0, u1, w1 in (("h", horizontal, x0, y0, x1, y1),
                                       ("v", vertical, y0, x0, y1, x1)):
        idx = np.flatnonzero(pick)
        n = np.abs(np.floor(w1[idx] + 0.5) - np.floor(w0[idx] + 0.5)).astype(np.int64) + 1
        for part in _chunks(idx, n):
            _along(grid[axis], low[axis], u0[part], w0[part], u1[part], w1[part], count[part])
    idx = np.flatnonzero(slanted)
    for axis, a0, a1, b0, b1 in (("v", x0, x1, y0, y1), ("h", y0, y1, x0, x1)):
        n = np.maximum(np.floor(np.maximum(a0[idx], a1[idx]))
                       - np.ceil(np.minimum(a0[idx], a1[idx])) + 1, 0).astype(np.int64)
        for part in _chunks(idx, n):
            _crossings(grid[axis], low[axis], a0[part], a1[part], b0[part], b1[part],
                       count[part])
    cover: dict[Edge, float] = {}
    for axis, g in grid.items():
        for j, c in zip(*np.nonzero(g > 1e-9)):
            v = float(g[j, c])
            j, c = int(j) + low[axis][0], int(c) + low[axis][1]
            cover[(axis, c, j) if axis == "h" else (axis, j, c)] = v
    return cover


def _chunks(idx, n):
    """``idx`` in runs whose pieces (``n`` each) add up to about ``_CHUNK``."""
    import numpy as np

    ends = np.cumsum(n)
    start = 0
    while start < len(idx):
        stop = max(start + 1, int(np.searchsorted(ends, ends[start] - n[start] + _CHUNK)))
        yield idx[start:stop]
        start = stop


def _expand(n):
    """For pieces ``n`` per segment: each piece's segment and its number within it."""
    import numpy as np

    seg = np.repeat(np.arange(len(n)), n)
    return seg, np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)


def _along(grid, low: tuple[int, int], u0, w0, u1, w1, count) -> None:
    """Add segments running along ``u`` (``w`` across) to ``grid[band, cell]``."""
    import numpy as np

    flip = u1 < u0
    u0, u1 = np.where(flip, u1, u0), np.where(flip, u0, u1)
    w0, w1 = np.where(flip, w1, w0), np.where(flip, w0, w1)
    slope = (w1 - w0) / (u1 - u0)
    per_u = np.hypot(1.0, slope) * count  # length along the segment per unit of u
    # split each segment where it passes from one band (nearest grid line) to the next
    j0, j1 = np.floor(w0 + 0.5), np.floor(w1 + 0.5)
    n = np.abs(j1 - j0).astype(np.int64) + 1
    seg, k = _expand(n)
    step = np.sign(j1 - j0)[seg]
    band = j0[seg] + step * k
    s_u0, s_u1, s_w0, s_sl = u0[seg], u1[seg], w0[seg], slope[seg]
    with np.errstate(divide="ignore", invalid="ignore"):  # a flat segment has one band
        # going up, band j is entered at w = j - 0.5 and left at w = j + 0.5
        cut_in = np.where(k == 0, s_u0, s_u0 + (band - step * 0.5 - s_w0) / s_sl)
        cut_out = np.where(k == n[seg] - 1, s_u1, s_u0 + (band + step * 0.5 - s_w0) / s_sl)
    a, b = np.clip(cut_in, s_u0, s_u1), np.clip(cut_out, s_u0, s_u1)
    weight = per_u[seg]
    rows = band.astype(np.int64) - low[0]
    size = grid.shape[1]
    direct = np.zeros(grid.size)
    ramp = np.zeros(grid.size + 1)
    # the overlap of [a, b] with each cell [c, c + 1): a ramp up at a, minus a ramp at b
    for end, sign in ((a, 1.0), (b, -1.0)):
        cell = np.floor(end).astype(np.int64) - low[1]
        direct += np.bincount(rows * size + cell, sign * weight * (cell + low[1] + 1 - end),
                              minlength=grid.size)
        ramp += np.bincount(rows * size + cell + 1, sign * weight, minlength=grid.size + 1)
    grid += direct.reshape(grid.shape) + np.cumsum(
        ramp[:-1].reshape(grid.shape), axis=1)


def _crossings(grid, low: tuple[int, int], a0, a1, b0, b1, count) -> None:
    """Every grid line ``a = L`` a slanted segment crosses marks the edge it crosses:
    ``grid[L, floor(b)]``."""
    import numpy as np

    n = np.maximum(np.floor(np.maximum(a0, a1)) - np.ceil(np.minimum(a0, a1)) + 1,
                   0).astype(np.int64)
    seg, k = _expand(n)
    line = np.ceil(np.minimum(a0, a1))[seg] + k
    t = (line - a0[seg]) / (a1[seg] - a0[seg])
    other = np.floor(b0[seg] + (b1[seg] - b0[seg]) * t).astype(np.int64)
    flat = (line.astype(np.int64) - low[0]) * grid.shape[1] + (other - low[1])
    grid += np.bincount(flat, count[seg].astype(float), minlength=grid.size).reshape(grid.shape)


def _portal_edges(portal: Portal, k: float) -> list[Edge]:
    """The area edges a portal's span covers (at least the one at its middle)."""
    ax, ay = portal.a[0] / k, portal.a[1] / k
    bx, by = portal.b[0] / k, portal.b[1] / k
    cover = _cover([((ax, ay), (bx, by))])  # a zero-length span adds nothing
    mx, my = (ax + bx) / 2, (ay + by) / 2
    angle = math.degrees(math.atan2(abs(by - ay), abs(bx - ax)))
    middle: Edge = (("h", math.floor(mx), math.floor(my + 0.5)) if angle <= 45
                    else ("v", math.floor(mx + 0.5), math.floor(my)))
    edges = [e for e, c in cover.items() if c >= 0.5 - 1e-9]
    if middle not in edges:
        edges.append(middle)
    return sorted(set(edges))


def _edge_areas(edge: Edge) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two areas (col, row) an edge separates."""
    axis, u, v = edge
    if axis == "v":
        return (u - 1, v), (u, v)
    return (u, v - 1), (u, v)


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
    walls: set[Edge] = field(default_factory=set)
    #: one outdoor area added on every side for the portals in the map's outer wall (column A
    #: and row 1 are then that strip, and the map's squares start at column B, row 2)
    strip: bool = False
    #: wall pieces that did not become walls: (edge, how much of it they cover)
    short_walls: list[tuple[Edge, float]] = field(default_factory=list)

    def area_name(self, col: int, row: int, level: str) -> str:
        from fuego.world.building import column_letters

        return f"{level}:{column_letters(col)}{row + 1}"


def to_plan(vtt: VttMap, *, grid_feet: int = 5, windows: tuple[int, ...] = (),
            windows_from_names: bool = False, outside: bool = True) -> ImportedPlan:
    """Snap walls and portals to 10-ft area edges and find the rooms."""
    if grid_feet not in GRID_FEET:
        raise FuegoError(f"--grid-feet must be 5 or 10, not {grid_feet}",
                         tip="one VTT square is 5 ft on most battle maps")
    k = 10 / grid_feet  # squares per area
    cols, rows = math.ceil(vtt.width / k - 1e-9), math.ceil(vtt.height / k - 1e-9)
    if cols > MAX_PLAN_AREAS or rows > MAX_PLAN_AREAS:
        raise LimitError(f"the map is {cols} x {rows} areas; fuego plans are at most "
                         f"{MAX_PLAN_AREAS} areas a side", where=vtt.source,
                         tip="with --grid-feet 10 each square is a whole area: try 5")
    bad = [n for n in windows if not 1 <= n <= len(vtt.portals)]
    if bad:
        raise FuegoError(f"--window {bad[0]}: the map has {len(vtt.portals)} portals "
                         f"(numbered 1 to {len(vtt.portals)})")
    strip = outside and _on_border(vtt, k, cols, rows) and max(cols, rows) + 2 <= MAX_PLAN_AREAS
    if strip:  # the doors and windows of the outer wall open onto an outdoor strip
        vtt = _shifted(vtt, k)
        cols, rows = cols + 2, rows + 2
    segments: list[tuple[Point, Point]] = []
    for line in vtt.walls:
        pts = [(x / k, y / k) for x, y in line]
        segments += zip(pts, pts[1:])
    cover = _cover(segments)

    def on_map(edge: Edge) -> bool:
        (c0, r0), (c1, r1) = _edge_areas(edge)
        inside = [0 <= c < cols and 0 <= r < rows for c, r in ((c0, r0), (c1, r1))]
        return any(inside)

    walls = {e for e, c in cover.items() if c >= WALL_COVER - 1e-9 and on_map(e)}
    short = sorted((e, c) for e, c in cover.items() if c < WALL_COVER - 1e-9 and on_map(e))
    portal_edges: dict[Edge, Portal] = {}
    skipped: list[tuple[Portal, str]] = []
    for portal in vtt.portals:
        placed = False
        for edge in _portal_edges(portal, k):
            (c0, r0), (c1, r1) = _edge_areas(edge)
            if not (0 <= c0 < cols and 0 <= r0 < rows and 0 <= c1 < cols and 0 <= r1 < rows):
                continue
            if edge in portal_edges:
                continue
            portal_edges[edge] = portal
            walls.discard(edge)
            placed = True
        if not placed:
            skipped.append((portal, "on the map's border (no outdoor strip: --no-outside, or "
                                    f"the map is already {MAX_PLAN_AREAS} areas a side) or on "
                                    "an edge another portal took"))

    # flood fill across edges with no wall and no portal
    region = [[-1] * cols for _ in range(rows)]
    blocked = walls | set(portal_edges)
    n_regions = 0
    leaks: list[bool] = []
    for r in range(rows):
        for c in range(cols):
            if region[r][c] >= 0:
                continue
            stack = [(c, r)]
            region[r][c] = n_regions
            leak = False
            while stack:
                x, y = stack.pop()
                for edge, (nx, ny) in ((("v", x, y), (x - 1, y)), (("v", x + 1, y), (x + 1, y)),
                                       (("h", x, y), (x, y - 1)), (("h", x, y + 1), (x, y + 1))):
                    if edge in blocked:
                        continue
                    if not (0 <= nx < cols and 0 <= ny < rows):
                        leak = True  # open to beyond the map: the outside
                        continue
                    if region[ny][nx] < 0:
                        region[ny][nx] = n_regions
                        stack.append((nx, ny))
            leaks.append(leak)
            n_regions += 1

    # rooms in reading order; every region open to beyond the map is one outside room
    outside_regions = {i for i, leak in enumerate(leaks) if leak}
    number: dict[int, int] = {}
    rooms: list[dict] = []
    outside_room: int | None = None
    for r in range(rows):
        for c in range(cols):
            g = region[r][c]
            if g in number:
                continue
            if g in outside_regions:
                if outside_room is None:
                    outside_room = len(rooms)
                    rooms.append({"key": "outside", "name": "Outside", "outdoors": True,
                                  "areas": []})
                number[g] = outside_room
            else:
                n = sum(1 for room in rooms if not room["outdoors"]) + 1
                number[g] = len(rooms)
                rooms.append({"key": f"room{n}", "name": f"Room {n}", "outdoors": False,
                              "areas": []})
    for r in range(rows):
        for c in range(cols):
            region[r][c] = number[region[r][c]]
            rooms[region[r][c]]["areas"].append((c, r))
    if not outside and outside_room is not None:
        for c, r in rooms[outside_room]["areas"]:
            region[r][c] = -1
        rooms[outside_room]["areas"] = []
    if len([room for room in rooms if room["areas"]]) > len(ROOM_CHARS) + 1:
        raise LimitError(f"the walls make {len(rooms)} rooms; fuego names at most "
                         f"{len(ROOM_CHARS) + 1} in one imported plan", where=vtt.source,
                         tip="try --grid-feet 10 off, or remove tiny enclosed shapes (pillars)")

    doors: list[tuple[Edge, Portal]] = []
    wins: list[tuple[Edge, Portal]] = []
    for edge in sorted(portal_edges):
        portal = portal_edges[edge]
        (c0, r0), (c1, r1) = _edge_areas(edge)
        if region[r0][c0] < 0 or region[r1][c1] < 0:
            skipped.append((portal, "between the outside and nothing (--no-outside)"))
            continue
        is_window = portal.number in windows or (
            windows_from_names and "window" in portal.hint.lower())
        (wins if is_window else doors).append((edge, portal))
    inner = []
    for edge in sorted(walls):
        (c0, r0), (c1, r1) = _edge_areas(edge)
        if not (0 <= c0 < cols and 0 <= r0 < rows and 0 <= c1 < cols and 0 <= r1 < rows):
            continue
        if region[r0][c0] >= 0 and region[r0][c0] == region[r1][c1]:
            inner.append(edge)
    return ImportedPlan(vtt, grid_feet, cols, rows, region, rooms, doors, wins, inner,
                        skipped, walls, strip, short)


def _on_border(vtt: VttMap, k: float, cols: int, rows: int) -> bool:
    """Whether a portal lies on the map's outer edge (one side of it beyond the map)."""
    for portal in vtt.portals:
        for edge in _portal_edges(portal, k):
            inside = [0 <= c < cols and 0 <= r < rows for c, r in _edge_areas(edge)]
            if inside.count(True) == 1:
                return True
    return False


def _shifted(vtt: VttMap, k: float) -> VttMap:
    """The map with one area (``k`` squares) of room added on every side."""
    from dataclasses import replace

    def move(p: Point) -> Point:
        return p[0] + k, p[1] + k

    return replace(vtt, width=vtt.width + 2 * k, height=vtt.height + 2 * k,
                   walls=[[move(p) for p in line] for line in vtt.walls],
                   portals=[replace(p, a=move(p.a), b=move(p.b)) for p in vtt.portals],
                   lights=[move(p) for p in vtt.lights])


def dropped(plan: ImportedPlan, level: str = "ground", most: int = 20) -> list[str]:
    """Everything of the map the scenario does not carry, one line each: where, and why."""
    def edge_text(edge: Edge) -> str:
        (c0, r0), (c1, r1) = _edge_areas(edge)
        return f"{plan.area_name(c0, r0, level)}-{plan.area_name(c1, r1, level)}"

    lines = [f"portal {p.number} at ({p.a[0]:g}, {p.a[1]:g})-({p.b[0]:g}, {p.b[1]:g}) squares: "
             f"not placed: {why}" for p, why in plan.skipped_portals]
    shorts = [f"wall pieces along {edge_text(e)}: {c:.0%} of the 10-ft edge (less than "
              f"{WALL_COVER:.0%}): no wall there" for e, c in plan.short_walls]
    if len(shorts) > most:
        shorts = shorts[:most] + [f"... and {len(shorts) - most} more short wall pieces"]
    return lines + shorts + list(plan.vtt.ignored)


# -- writing the scenario -------------------------------------------------------------------------
def _q(text: str) -> str:
    """A YAML double-quoted string (JSON strings are valid YAML); a control character from
    the map's file shows as its escape (``fuego check`` refuses the character itself)."""
    return json.dumps(terminal(text), ensure_ascii=False)


def _span(plan: ImportedPlan, areas: list[tuple[int, int]], level: str) -> str:
    from fuego.world.building import column_letters

    cs = [c for c, _ in areas]
    rs = [r for _, r in areas]
    return (f"{column_letters(min(cs))}{min(rs) + 1}-{column_letters(max(cs))}{max(rs) + 1}")


def to_yaml(plan: ImportedPlan, *, title: str | None = None, level: str = "ground") -> str:
    """The scenario file: a checked floor plan plus comments on what the GM must add."""
    from fuego.scenario.vtt_read import plain

    vtt = plan.vtt
    name = plain(os.path.basename(vtt.source))  # a file name may hold a newline: not in a comment
    title = title or os.path.splitext(name)[0].replace("_", " ").replace("-", " ").strip() \
        or "Imported map"
    title = title[:80]
    per = 10 // plan.grid_feet
    sq = f"{per} x {per} squares make" if per > 1 else "each square is"
    rooms = [r for r in plan.rooms if r["areas"]]
    chars: dict[str, str] = {}
    pool = iter(ROOM_CHARS)
    for room in rooms:
        chars[room["key"]] = OUTSIDE_CHAR if room["outdoors"] else next(pool)
    L: list[str] = []
    add = L.append
    add(f"# Imported from {name} by `fuego import` (Universal VTT format {vtt.version}).")
    add(f"# Grid scale assumed: one VTT square = {plan.grid_feet} ft, so {sq} one 10-ft area;")
    add(f"# the {vtt.width:g} x {vtt.height:g} square map is {plan.cols} x {plan.rows} areas "
        "(columns A.., rows 1..).")
    if plan.strip:
        add("# The outer wall has doors or windows: a 10-ft outdoor strip was added around the")
        add("# map for them to open onto (column A, row 1 and the last column and row; the map's")
        add("# squares start at column B, row 2). It is the outside, a way out.")
    add("# Walls were moved to the nearest 10-ft grid line; rooms are the spaces they enclose.")
    add("# fuego check accepts this file as it is, but it is only a floor plan. TO DO:")
    add("#   1. rooms: give each room its name, its fuel (Resolve 0-9, or paper, paper-stack,")
    add("#      beams-small, log-pile, beams, or your own under fuels:) and, where it is not the")
    add("#      default, its wall (paper-wall, thin-wooden-wall, wooden-wall, thick-wooden-wall,")
    add("#      thin-stone-wall, stone-wall, thick-stone-wall); wet: true for damp stores;")
    add("#   2. doors: material thin-wooden-door, wooden-door or thick-wooden-door; windows:")
    add("#      papered-window or glass-window; turn a door into a window by moving its line;")
    add("#   3. areas: features per area (oil, gunpowder, wooden-beam, stone-beam, exit);")
    add("#   4. routes: runs of carpet, curtains, hangings or spilt oil the fire follows;")
    add("#   5. heroes: and fires: (who is where, and where the fire starts);")
    add("#   6. more levels (cellar, upper floor) and links: (stairs, ladders) by hand.")
    add("# See docs/scenario-format.md and docs/maps-and-forecasts.md.")
    add("format: 1")
    add(f"title: {_q(title)}")
    add(f"description: {_q('Imported from ' + name + '. Describe the place here.')}")
    add("")
    add("defaults:")
    add("  wall: wooden-wall        # TO DO: the walls between rooms unless a room says otherwise")
    add("  door: wooden-door        # TO DO: every door below unless it names its material")
    add("  window: glass-window")
    add("  floor: wooden-floor")
    add("  fuel: 0                  # TO DO: nothing burns until you give the rooms fuel")
    add("")
    add("rooms:")
    for room in rooms:
        n = len(room["areas"])
        span = _span(plan, room["areas"], level)
        where = f"{n} area{'s' if n != 1 else ''}, {span}"
        if room["outdoors"]:
            add(f"  {room['key']}: {{name: {_q(room['name'])}, outdoors: true, fuel: none, "
                f"features: [exit]}}   # {where}: beyond the walls, a way out")
        else:
            add(f"  {room['key']}: {{name: {_q(room['name'])}, fuel: 0}}   # TO DO name, fuel,"
                f" wall; {where}")
    add("")
    add("legend:")
    for room in rooms:
        add(f"  {_q(chars[room['key']])}: {room['key']}")
    add("")
    add("levels:")
    add(f"  - name: {level}")
    add("    elevation: 0")
    add("    plan: |")
    for r in range(plan.rows):
        row = "".join("#" if plan.region[r][c] < 0 else chars[plan.rooms[plan.region[r][c]]["key"]]
                      for c in range(plan.cols))
        add("      " + row)

    def edge_text(edge: Edge) -> str:
        (c0, r0), (c1, r1) = _edge_areas(edge)
        return f"{plan.area_name(c0, r0, level)}-{plan.area_name(c1, r1, level)}"

    def portal_line(edge: Edge, portal: Portal, what: str) -> str:
        closed = "" if portal.closed else ", closed: false"
        hint = f" {_q(portal.hint)}" if portal.hint else ""
        return (f"  - {{at: {edge_text(edge)}{closed}}}   # portal {portal.number}{hint}: "
                f"TO DO material ({what})")

    if plan.doors:
        add("")
        add("doors:")
        for edge, portal in plan.doors:
            add(portal_line(edge, portal, "thin-wooden-door, wooden-door, thick-wooden-door"))
    if plan.windows:
        add("")
        add("windows:")
        for edge, portal in plan.windows:
            add(portal_line(edge, portal, "papered-window or glass-window"))
    if plan.inner_walls:
        add("")
        add("walls:                      # walls that stand inside one room (partitions, stubs)")
        for edge in plan.inner_walls:
            add(f"  - {{at: {edge_text(edge)}, material: wooden-wall}}   # TO DO material")
    lost = dropped(plan, level)
    if lost:
        add("")
        add("# Not carried over from the map (add them by hand if they matter):")
        for line in lost:
            add("#   " + line)
    if vtt.lights:
        add("")
        add("# Lights on the map (lamps, candles, hearths: places a fire might start):")
        k = 10 / plan.grid_feet
        seen = []
        for x, y in vtt.lights:
            c, r = min(plan.cols - 1, max(0, int(x // k))), min(plan.rows - 1, max(0, int(y // k)))
            name = plan.area_name(c, r, level)
            if name not in seen:
                seen.append(name)
        add("#   " + ", ".join(seen[:60]) + (" ..." if len(seen) > 60 else ""))
        add(f"# fires:\n#   - {{area: {seen[0]}, fd: 3}}   # e.g. a lamp knocked over")
    add("")
    add("heroes: []                  # TO DO: - {name: ..., start: " +
        f"{plan.area_name(0, 0, level)}, traits: {{brawn: 2, finesse: 2, wits: 2, "
        "resolve: 2, panache: 2}}")
    add("fires: []                   # TO DO: - {area: ..., fd: 3}")
    add("")
    add("rules:")
    add("  max_rounds: 40")
    return "\n".join(L) + "\n"


@dataclass
class ImportReport:
    cols: int
    rows: int
    rooms: int
    doors: int
    windows: int
    inner_walls: int
    skipped_portals: int
    outside: bool
    #: the outdoor strip added for the doors and windows of the outer wall
    strip: bool = False
    #: what the scenario does not carry over, one line each (where, and why)
    dropped: list[str] = field(default_factory=list)


def convert(path: str | os.PathLike, *, grid_feet: int = 5, windows: tuple[int, ...] = (),
            windows_from_names: bool = False, outside: bool = True, title: str | None = None,
            level: str = "ground") -> tuple[str, ImportReport]:
    """Read a VTT file and return (scenario YAML, report); the YAML is checked by the loader."""
    from fuego.scenario import loads

    vtt = read(path)
    plan = to_plan(vtt, grid_feet=grid_feet, windows=windows,
                   windows_from_names=windows_from_names, outside=outside)
    if not any(room["areas"] for room in plan.rooms):
        raise FuegoError("the map has no area left to import", where=vtt.source,
                         tip="keep the outside (drop --no-outside) or check the walls")
    text = to_yaml(plan, title=title, level=level)
    loads(text, source=f"{vtt.source} (imported)")  # raises if fuego would not accept it
    report = ImportReport(plan.cols, plan.rows,
                          sum(1 for r in plan.rooms if r["areas"] and not r["outdoors"]),
                          len(plan.doors), len(plan.windows), len(plan.inner_walls),
                          len(plan.skipped_portals),
                          any(r["outdoors"] and r["areas"] for r in plan.rooms), plan.strip,
                          dropped(plan, level))
    return text, report
