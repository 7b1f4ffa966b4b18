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
def _seg_edges(p: Point, q: Point, cover: dict[Edge, float]) -> None:
    """Add one wall segment (in area units) to the coverage of the area edges it runs along."""
    (x0, y0), (x1, y1) = p, q
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy)
    if length < 1e-9:
        return
    angle = math.degrees(math.atan2(abs(dy), abs(dx)))
    if angle <= SNAP_DEGREES or angle >= 90 - SNAP_DEGREES:
        horizontal = angle <= SNAP_DEGREES
        n = max(1, math.ceil(length / 0.05))
        step = length / n
        for k in range(n):
            t = (k + 0.5) / n
            x, y = x0 + dx * t, y0 + dy * t
            if horizontal:
                edge = ("h", math.floor(x), math.floor(y + 0.5))
            else:
                edge = ("v", math.floor(x + 0.5), math.floor(y))
            cover[edge] = cover.get(edge, 0.0) + step
        return
    # slanted: every grid line it crosses, the edge crossed (full weight: it must seal)
    for axis in ("v", "h"):
        a0, a1 = (x0, x1) if axis == "v" else (y0, y1)
        lo, hi = sorted((a0, a1))
        for line in range(math.ceil(lo), math.floor(hi) + 1):
            if a1 == a0:
                continue
            t = (line - a0) / (a1 - a0)
            if not 0 <= t <= 1:
                continue
            other = (y0 + dy * t) if axis == "v" else (x0 + dx * t)
            edge = (axis, line, math.floor(other))
            cover[edge] = cover.get(edge, 0.0) + 1.0


def _portal_edges(portal: Portal, k: float) -> list[Edge]:
    """The area edges a portal's span covers (at least the one at its middle)."""
    ax, ay = portal.a[0] / k, portal.a[1] / k
    bx, by = portal.b[0] / k, portal.b[1] / k
    cover: dict[Edge, float] = {}
    _seg_edges((ax, ay), (bx, by), cover)  # a zero-length span adds nothing
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
    cover: dict[Edge, float] = {}
    for line in vtt.walls:
        pts = [(x / k, y / k) for x, y in line]
        for p, q in zip(pts, pts[1:]):
            _seg_edges(p, q, cover)

    def on_map(edge: Edge) -> bool:
        (c0, r0), (c1, r1) = _edge_areas(edge)
        inside = [0 <= c < cols and 0 <= r < rows for c, r in ((c0, r0), (c1, r1))]
        return any(inside)

    walls = {e for e, c in cover.items() if c >= WALL_COVER - 1e-9 and on_map(e)}
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
            skipped.append((portal, "on the map's border or on an edge another portal took"))

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

    doors, wins = [], []
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
                        skipped, walls)


# -- writing the scenario -------------------------------------------------------------------------
def _q(text: str) -> str:
    """A YAML double-quoted string (JSON strings are valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def _span(plan: ImportedPlan, areas: list[tuple[int, int]], level: str) -> str:
    from fuego.world.building import column_letters

    cs = [c for c, _ in areas]
    rs = [r for _, r in areas]
    return (f"{column_letters(min(cs))}{min(rs) + 1}-{column_letters(max(cs))}{max(rs) + 1}")


def to_yaml(plan: ImportedPlan, *, title: str | None = None, level: str = "ground") -> str:
    """The scenario file: a checked floor plan plus comments on what the GM must add."""
    vtt = plan.vtt
    name = os.path.basename(vtt.source)
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
    if plan.skipped_portals:
        add("")
        add("# Portals not placed (add them by hand if they matter):")
        for portal, why in plan.skipped_portals:
            add(f"#   portal {portal.number} at ({portal.a[0]:g}, {portal.a[1]:g})-"
                f"({portal.b[0]:g}, {portal.b[1]:g}) squares: {why}")
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
                          any(r["outdoors"] and r["areas"] for r in plan.rooms))
    return text, report
