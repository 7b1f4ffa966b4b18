"""Reading Universal VTT files (``.dd2vtt``, ``.uvtt``; a Foundry VTT scene's ``.json`` is
read as one first, :mod:`fuego.scenario.foundry_scene`): the JSON checked key by key.

:func:`read` checks the file's size, then :func:`parse` its JSON and every key fuego uses
(``resolution``, ``line_of_sight``, ``portals``, ``lights``) within the limits below, and returns a
:class:`VttMap` in grid squares from the map's top left corner; the picture is never decoded.
Every problem is a :class:`~fuego.errors.FuegoError` naming the key. Converting the map to a
scenario is :mod:`fuego.scenario.vtt`.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field, replace
from typing import Any

from fuego.errors import FuegoError, LimitError
from fuego.rules.charts import FUEL_RESOLVE, MAX_RESOLVE
from fuego.scenario import foundry_scene
from fuego.scenario.spec import DOORS, FUEL_RE, ROOM_KEY_RE, WALLS, WINDOWS
from fuego.words import plural
from fuego.world.places import BarrierKind

#: Largest file read (the embedded picture makes them big).
MAX_FILE_BYTES = 50 * 1024 * 1024
#: Largest map, in VTT squares per side.
MAX_MAP_SQUARES = 400
MAX_POLYLINES = 20_000
MAX_POINTS_PER_POLYLINE = 10_000
MAX_POINTS = 200_000
MAX_PORTALS = 5_000
MAX_LIGHTS = 5_000

Point = tuple[float, float]
#: The materials a door, window or wall of fuego's rooms key may have.
MATERIALS = frozenset(WALLS + DOORS + WINDOWS)


@dataclass(frozen=True)
class Portal:
    number: int  # 1-based, in file order
    a: Point
    b: Point
    closed: bool  # the file's ``closed``: by Dungeondraft's convention, false is a window
    rotation: float
    hint: str  # a name, label or type the exporter gave it ("" when none)
    #: whether the door or window stands shut, when the file says so apart from ``closed``
    #: (fuego's own mark, ``"fuego": {"closed": ...}``, or a Foundry scene's door state);
    #: None: not said
    shut: bool | None = None
    #: a locked door (fuego's mark ``"locked": true``, or Foundry's door state LOCKED)
    locked: bool = False
    #: whether it is a window, when fuego's own mark says (``"kind": "window"`` or
    #: ``"door"``: a shut papered window is written ``closed: true``); None: not said
    window: bool | None = None


@dataclass
class VttMap:
    """What fuego reads from a Universal VTT file (coordinates in squares, origin removed;
    ``walls`` and ``portals`` cut to the map's rectangle, as the public importers keep what
    crosses a Dungeondraft export region)."""

    source: str
    width: float
    height: float
    pixels_per_grid: float | None
    version: str
    walls: list[list[Point]]
    portals: list[Portal]
    lights: list[Point]
    #: what the import does not carry over, one line each: ``where: what happened and why``
    ignored: list[str] = field(default_factory=list)
    #: ``resolution.map_origin``: where the map's top left corner lies in the file's squares
    origin: Point = (0.0, 0.0)
    #: every wall polyline and portal span of the file, uncut: what encloses the rooms, even
    #: beyond a crop
    everywhere: list[list[Point]] = field(default_factory=list)
    #: portals in the file, whether on the map or not (``--window N`` counts them all)
    portals_read: int = 0
    #: ``objects_line_of_sight`` on the map: pillars, furniture (not walls of rooms)
    objects: list[list[Point]] = field(default_factory=list)
    #: what reached beyond the map's rectangle and was cut to it, one line each
    clipped: list[str] = field(default_factory=list)
    #: read from a Foundry VTT scene document (:mod:`fuego.scenario.foundry_scene`);
    #: ``version`` is then Foundry's
    foundry: bool = False
    #: the rooms fuego's own export wrote (its ``fuego`` key): empty for any other map
    rooms: list[MarkedRoom] = field(default_factory=list)
    #: the named fuels of the scenario's own its rooms use, by Resolve (``fuego.fuels``)
    fuels: dict[str, int] = field(default_factory=dict)
    #: the materials of its doors, windows and walls (``fuego.materials``), each by the squares
    #: of its two areas
    materials: list[Material] = field(default_factory=list)


#: An area in fuego's rooms key: its squares (left, top, right, bottom) from the map's corner.
Square = tuple[float, float, float, float]


@dataclass(frozen=True)
class Material:
    """What a door, window or wall is made of, as fuego's export wrote it: its two areas
    and the material (``stone-wall``); ``number``: its place in ``fuego.materials``."""

    number: int
    one: Square
    two: Square
    material: str


@dataclass(frozen=True)
class MarkedRoom:
    """A room as fuego's export wrote it: its name, whether it is outdoors, and its areas as
    squares (left, top, right, bottom) from the map's top left corner."""

    name: str
    outdoors: bool
    areas: tuple[Square, ...]
    #: the areas that are ways out (the same squares)
    exits: tuple[Square, ...] = ()
    #: the scenario's room key ("" when not said)
    key: str = ""
    #: its fuel as the scenario gives it, a Resolve or a fuel's name (None: not said)
    fuel: int | str | None = None
    #: its wall's material (None: not said)
    wall: str | None = None
    #: the areas with a fuel of their own, and that fuel
    area_fuel: tuple[tuple[Square, int | str], ...] = ()

    def holds(self, x: float, y: float) -> bool:
        return any(x0 <= x < x1 and y0 <= y < y1 for x0, y0, x1, y1 in self.areas)

    def exit_at(self, x: float, y: float) -> bool:
        return any(x0 <= x < x1 and y0 <= y < y1 for x0, y0, x1, y1 in self.exits)

    def fuel_at(self, x: float, y: float) -> int | str | None:
        """The fuel of its own of the area holding the point, if it has one."""
        return next((fuel for (x0, y0, x1, y1), fuel in self.area_fuel
                     if x0 <= x < x1 and y0 <= y < y1), None)


# -- reading --------------------------------------------------------------------------------------
def _bad(source: str, message: str, tip: str | None = None) -> FuegoError:
    return FuegoError(message, where=source, tip=tip or "export the map again as Universal VTT "
                      "(.dd2vtt or .uvtt) and check the file is complete")


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a number")


def read(path: str | os.PathLike) -> VttMap:
    """Read and check a ``.dd2vtt``/``.uvtt`` file (:func:`fuego.files.read_bytes`: a regular
    file of at most ``MAX_FILE_BYTES``), then its JSON and every key."""
    from fuego.files import read_bytes

    source = os.fspath(path)
    try:
        raw = read_bytes(source, limit=MAX_FILE_BYTES, what="a VTT map")
    except LimitError as exc:
        raise LimitError(exc.message, where=exc.where,
                         tip="export it with a smaller image (the walls do not need it)") \
            from None
    return parse(raw, source)


def parse(raw: bytes | str, source: str = "<vtt>") -> VttMap:
    """Check Universal VTT JSON text; every problem is a :class:`FuegoError` naming the key."""
    from fuego.files import decode, size_text

    if isinstance(raw, (bytes, bytearray)):
        if len(raw) > MAX_FILE_BYTES:
            raise LimitError(f"the file is {size_text(len(raw))}; a VTT map may be at most "
                             f"{size_text(MAX_FILE_BYTES)}", where=source)
        try:
            text = decode(bytes(raw), source, "a Universal VTT file (JSON)", lines=False)
        except FuegoError as exc:
            raise _bad(source, exc.message) from None
    else:
        text = raw
    try:
        data = json.loads(text, parse_constant=_reject_constant, parse_int=_int)
    except json.JSONDecodeError as exc:
        raise _bad(source, f"not a Universal VTT file: invalid JSON at line {exc.lineno}, "
                   f"column {exc.colno} ({exc.msg})") from None
    except (ValueError, RecursionError) as exc:
        raise _bad(source, f"not a Universal VTT file: {exc}") from None
    if not isinstance(data, dict):
        raise _bad(source, f"not a Universal VTT file: expected a JSON object, got "
                   f"{_type(data)}")
    if foundry_scene.is_scene(data):  # a Foundry VTT scene (fuego export writes them too)
        uvtt, notes = foundry_scene.as_uvtt(data, source)
        vtt = _check(uvtt, source)
        vtt.foundry, vtt.ignored = True, notes + vtt.ignored
        return vtt
    return _check(data, source)


#: Numbers beyond this are not coordinates or sizes of any map (and would overflow a float).
MAX_NUMBER = 1e9


def _int(text: str) -> int | float:
    """A JSON integer; one with more digits than any map needs becomes infinity (reported as
    too large where it is used) instead of a 4,300-digit limit or an overflow."""
    return int(text) if len(text) <= 18 else math.copysign(math.inf, -1 if text[0] == "-" else 1)


def plain(text: str, limit: int = 80) -> str:
    """Text from the file made safe to print on one line: control characters and halves of
    surrogate pairs become ``?`` (names are text, but a comment ends at a newline)."""
    out = "".join(c if c.isprintable() and not "\ud800" <= c <= "\udfff" else "?"
                  for c in text[:limit])
    return out


def _type(v: Any) -> str:
    if v is None:
        return "null"
    return {bool: "true/false", int: "a number", float: "a number", str: "text",
            list: "a list", dict: "an object"}.get(type(v), type(v).__name__)


def _number(v: Any, source: str, key: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise _bad(source, f"{key}: expected a number, got {_type(v)}")
    if math.isnan(v):
        raise _bad(source, f"{key}: expected a number, got NaN")
    if not abs(v) <= MAX_NUMBER:
        raise _bad(source, f"{key}: the number is too large (at most {MAX_NUMBER:,.0f} either "
                   "side of 0 here)" if math.isfinite(v) else
                   f"{key}: the number is too large to be a coordinate or a size (it is "
                   f"{'-' if v < 0 else ''}infinite as a float)")
    return float(v)


def _point(v: Any, source: str, key: str, origin: Point) -> Point:
    """A point in squares from the map's top left corner (``map_origin`` subtracted)."""
    if not isinstance(v, dict) or "x" not in v or "y" not in v:
        raise _bad(source, f"{key}: expected a point {{\"x\": ..., \"y\": ...}}, got {_type(v)}")
    x = _number(v["x"], source, key + ".x") - origin[0]
    y = _number(v["y"], source, key + ".y") - origin[1]
    return x, y


def clip(p: Point, q: Point, w: float, h: float) -> tuple[Point, Point] | None:
    """The part of the segment ``p``-``q`` inside the rectangle ``[-EDGE, w + EDGE] x [-EDGE,
    h + EDGE]`` (Liang-Barsky), or None when none of it is."""
    lo_x, lo_y, hi_x, hi_y = -EDGE, -EDGE, w + EDGE, h + EDGE
    dx, dy = q[0] - p[0], q[1] - p[1]
    t0, t1 = 0.0, 1.0
    for d, low, high, v in ((dx, lo_x, hi_x, p[0]), (dy, lo_y, hi_y, p[1])):
        if d == 0:
            if not low <= v <= high:
                return None
            continue
        a, b = (low - v) / d, (high - v) / d
        if a > b:
            a, b = b, a
        t0, t1 = max(t0, a), min(t1, b)
        if t0 > t1:
            return None
    return ((p[0] + t0 * dx, p[1] + t0 * dy), (p[0] + t1 * dx, p[1] + t1 * dy))


def clip_line(line: list[Point], w: float, h: float) -> list[list[Point]]:
    """A polyline cut to the map's rectangle: the pieces of it inside, in order."""
    if len(line) == 1:
        x, y = line[0]
        return [list(line)] if -EDGE <= x <= w + EDGE and -EDGE <= y <= h + EDGE else []
    pieces: list[list[Point]] = []
    for p, q in zip(line, line[1:]):
        part = clip(p, q, w, h)
        if part is None:
            continue
        a, b = part
        if pieces and pieces[-1][-1] == a:
            pieces[-1].append(b)
        else:
            pieces.append([a, b])
    return pieces


def _polylines(raw: Any, source: str, key: str, origin: Point, broken: list[FuegoError],
               ignored: list[str], total: list[int]) -> list[list[Point]]:
    """``line_of_sight`` or ``objects_line_of_sight``: each polyline's points; a polyline that
    is not one is skipped (and listed), as the public importers skip it."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise _bad(source, f"{key}: expected a list of wall polylines, got {_type(raw)}")
    if len(raw) > MAX_POLYLINES:
        raise LimitError(f"{key}: {len(raw)} wall polylines; fuego reads at most "
                         f"{MAX_POLYLINES}", where=source)
    lines: list[list[Point]] = []
    for i, line in enumerate(raw):
        where = f"{key}[{i}]"
        if isinstance(line, list) and len(line) > MAX_POINTS_PER_POLYLINE:
            raise LimitError(f"{where}: {len(line)} points; at most {MAX_POINTS_PER_POLYLINE} "
                             "a polyline", where=source)
        try:
            if not isinstance(line, list):
                raise _bad(source, f"{where}: expected a list of points, got {_type(line)}")
            total[0] += len(line)
            if total[0] > MAX_POINTS:
                raise LimitError(f"{key}: more than {MAX_POINTS} wall points", where=source)
            lines.append([_point(p, source, f"{where}[{k}]", origin) for k, p in enumerate(line)])
        except LimitError:
            raise
        except FuegoError as exc:
            broken.append(exc)
            ignored.append(f"{where}: skipped: {exc.message}")
    return lines


def _clipped(lines: list[list[Point]], key: str, w: float, h: float,
             clipped: list[str]) -> list[list[Point]]:
    """Every polyline cut to the map; each one that reached beyond it named in ``clipped``."""
    inside: list[list[Point]] = []
    cut: list[int] = []
    gone: list[int] = []
    for i, line in enumerate(lines):
        pieces = clip_line(line, w, h)
        inside += pieces
        if not pieces and line:
            gone.append(i)
        elif sum(len(p) for p in pieces) != len(line) or len(pieces) > 1 or (
                pieces and (pieces[0][0] != line[0] or pieces[-1][-1] != line[-1])):
            cut.append(i)
    if cut:
        clipped.append(f"{key}: {_numbers(cut)}: cut at the map's edge (the parts beyond it "
                       "dropped)")
    if gone:
        clipped.append(f"{key}: {_numbers(gone)}: wholly beyond the map: dropped")
    return inside


def _numbers(idx: list[int], most: int = 12) -> str:
    """``3 polylines ([0], [4], [9])``, the first ``most`` of them named."""
    names = ", ".join(f"[{i}]" for i in idx[:most]) + (" ..." if len(idx) > most else "")
    return f"{plural(len(idx), 'polyline')} ({names})"


#: What may stray beyond the map's rectangle and still count as on it (a wall drawn along the
#: border a hair outside), in squares.
EDGE = 0.25


def _check(data: dict, source: str) -> VttMap:
    """The file's JSON read into a :class:`VttMap`: its size and origin, walls, portals and
    lights cut to the map, and every part not carried over listed with why."""
    w, h, ppg, origin = _resolution(data, source)
    ignored: list[str] = []  # every part of the map not carried over: where, and why
    clipped: list[str] = []  # what reached beyond the map's rectangle and was cut to it
    broken: list[FuegoError] = []
    total = [0]
    everywhere = _polylines(data.get("line_of_sight", []), source, "line_of_sight", origin,
                            broken, ignored, total)
    walls = _clipped(everywhere, "line_of_sight", w, h, clipped)
    objects_all = _polylines(data.get("objects_line_of_sight", []), source,
                             "objects_line_of_sight", origin, [], ignored, [0])
    objects = _clipped(objects_all, "objects_line_of_sight", w, h, [])
    portals_raw = _portal_list(data, source)
    portals, spans = _portals(portals_raw, source, origin, w, h, broken, ignored, clipped)
    # the walls are what a map is: a file that has some, none of them on the map, is refused,
    # as is one with only portals, none of them on it (a map with neither is open ground)
    if (data.get("line_of_sight") and not walls) or (
            not data.get("line_of_sight") and portals_raw and not portals):
        if broken:
            raise broken[0]
        raise _bad(source, f"nothing of the map lies on it: every wall and portal is beyond "
                   f"the {w:g} x {h:g} square map (map_origin {origin[0]:g}, {origin[1]:g})",
                   tip="export the map again with its region over the building, or check "
                       "resolution.map_origin and resolution.map_size")
    lights = _lights(data.get("lights", []), source, origin, w, h, ignored)
    why = {"environment": "lighting and weather of the picture are not fuego's weather"}
    ignored += [f"{k}: not read: {reason}" for k, reason in why.items() if data.get(k)]
    if data.get("image"):
        ignored.append("the picture: not read: fuego draws its own maps from the walls")
    version = data.get("format")
    return VttMap(source, w, h, ppg, plain(str(version), 20)
                  if isinstance(version, (int, float, str)) else "?", walls, portals, lights,
                  ignored, origin=origin, everywhere=everywhere + spans, objects=objects,
                  clipped=clipped, portals_read=len(portals_raw),
                  **_marked(data.get(foundry_scene.MARK), source, origin))


#: Most named fuels, and doors, windows and walls with a material, in fuego's rooms key.
MAX_MARKED_FUELS = 1_000
MAX_MATERIALS = 2 * MAX_MAP_SQUARES ** 2


def _marked(mark: Any, source: str, origin: Point) -> dict[str, Any]:
    """fuego's own key of the file (:func:`fuego.render.vtt_export.rooms_mark`), checked:
    ``{"area": 2, "rooms": [{"key", "name", "outdoors", "fuel", "wall", "areas": [[x, y],
    ...], "exits", "area_fuel"}], "fuels": {...}, "materials": [...]}`` read into the
    :class:`VttMap`'s ``rooms``, ``fuels`` and ``materials``; none when the file has no such
    key. Every part but ``rooms`` and the areas may be missing (an older export's)."""
    key = foundry_scene.MARK
    if mark is None or (isinstance(mark, dict) and "rooms" not in mark):
        return {}
    if not isinstance(mark, dict) or not isinstance(mark["rooms"], list):
        raise _bad(source, f"{key}.rooms: expected a list of rooms, got "
                   f"{_type(mark.get('rooms') if isinstance(mark, dict) else mark)}")
    side = _number(mark.get("area", 2), source, f"{key}.area")
    if not 0 < side <= MAX_MAP_SQUARES:
        raise _bad(source, f"{key}.area: expected the squares of an area's side (2), got "
                   f"{side:g}")
    fuels = _fuels(mark.get("fuels", {}), source, f"{key}.fuels")
    reader = _RoomReader(source, origin, side, fuels)
    rooms = [reader.room(room, f"{key}.rooms[{i}]") for i, room in enumerate(mark["rooms"])]
    return {"rooms": rooms, "fuels": fuels,
            "materials": _materials(mark.get("materials", []), source, f"{key}.materials",
                                    origin, side)}


def _said(v: Any) -> str:
    """A value from the file as a message quotes it: text as text, else its type."""
    return repr(plain(v, 40)) if isinstance(v, str) else _type(v)


@dataclass
class _RoomReader:
    """Reads the rooms of fuego's rooms key one by one: every room's areas, exits and areas'
    fuels together are capped (a file cannot ask for millions), and keys are one room's."""

    source: str
    origin: Point
    side: float
    fuels: dict[str, int]
    total: int = 0
    keys: dict[str, str] = field(default_factory=dict)

    def corners(self, room: dict, word: str, where: str) -> list:
        given = room.get(word, [])
        if not isinstance(given, list):
            raise _bad(self.source, f"{where}.{word}: expected a list, got {_type(given)}")
        self.total += len(given)
        if self.total > MAX_MAP_SQUARES ** 2:
            raise _bad(self.source, f"{foundry_scene.MARK}.rooms: more than "
                       f"{MAX_MAP_SQUARES ** 2:,} areas")
        return given

    def square(self, corner: Any, where: str) -> Square:
        return _square(corner, self.source, where, self.origin, self.side)

    def room(self, room: Any, where: str) -> MarkedRoom:
        source = self.source
        if not isinstance(room, dict) or not isinstance(room.get("areas"), list):
            raise _bad(source, f"{where}: expected a room {{\"name\", \"outdoors\", \"areas\"}}, "
                       f"got {_type(room)}")
        squares = [self.square(c, f"{where}.areas[{n}]")
                   for n, c in enumerate(self.corners(room, "areas", where))]
        ways = [self.square(c, f"{where}.exits[{n}]")
                for n, c in enumerate(self.corners(room, "exits", where))]
        area_fuel = [self.area_fuel(entry, f"{where}.area_fuel[{n}]")
                     for n, entry in enumerate(self.corners(room, "area_fuel", where))]
        name, outdoors = room.get("name"), room.get("outdoors", False)
        if not isinstance(outdoors, bool):
            raise _bad(source, f"{where}.outdoors: expected true or false, got "
                       f"{_type(outdoors)}")
        wall, fuel = room.get("wall"), room.get("fuel")
        if wall is not None and (not isinstance(wall, str) or wall not in WALLS):
            raise _bad(source, f"{where}.wall: expected a wall ({', '.join(WALLS)}), got "
                       f"{_said(wall)}")
        return MarkedRoom(plain(name, 60).strip() if isinstance(name, str) else "",
                          outdoors, tuple(squares), tuple(ways), self.key(room, where),
                          None if fuel is None else _fuel(fuel, self.fuels, source,
                                                          f"{where}.fuel"),
                          wall, tuple(area_fuel))

    def key(self, room: dict, where: str) -> str:
        key = room.get("key", "")
        if not isinstance(key, str) or (key and not ROOM_KEY_RE.match(key)):
            raise _bad(self.source, f"{where}.key: expected a room key (a letter, then "
                       f"letters, digits, - or _), got {_said(key)}")
        if key in self.keys:
            raise _bad(self.source, f"{where}.key: {key!r} is the key of {self.keys[key]} too")
        if key:
            self.keys[key] = where
        return key

    def area_fuel(self, entry: Any, where: str) -> tuple[Square, int | str]:
        if not isinstance(entry, dict) or "area" not in entry or "fuel" not in entry:
            raise _bad(self.source, f"{where}: expected {{\"area\": [x, y], \"fuel\": ...}}, "
                       f"got {_type(entry)}")
        return (self.square(entry["area"], f"{where}.area"),
                _fuel(entry["fuel"], self.fuels, self.source, f"{where}.fuel"))


def _fuels(raw: Any, source: str, key: str) -> dict[str, int]:
    """``fuego.fuels``: the scenario's own fuel names and their Resolve."""
    if not isinstance(raw, dict):
        raise _bad(source, f"{key}: expected {{\"name\": Resolve, ...}}, got {_type(raw)}")
    if len(raw) > MAX_MARKED_FUELS:
        raise _bad(source, f"{key}: {len(raw)} fuels; at most {MAX_MARKED_FUELS}")
    fuels = {}
    for name, value in raw.items():
        if not FUEL_RE.match(name):
            raise _bad(source, f"{key}: not a fuel name: {plain(name, 40)!r} (lowercase "
                       "letters, digits and -)")
        if not _whole(value) or not 0 <= value <= MAX_RESOLVE:
            raise _bad(source, f"{key}.{name}: expected a Resolve 0-{MAX_RESOLVE}, got "
                       f"{_said(value) if not _whole(value) else value}")
        if FUEL_RESOLVE.get(name, value) != value:
            raise _bad(source, f"{key}.{name}: a built-in fuel is Resolve "
                       f"{FUEL_RESOLVE[name]}, not {value}")
        fuels[name] = value
    return fuels


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _fuel(v: Any, fuels: dict[str, int], source: str, key: str) -> int | str:
    """A fuel in fuego's rooms key: a Resolve, a built-in fuel's name or one of ``fuels``."""
    if _whole(v) and 0 <= v <= MAX_RESOLVE:
        return v
    if isinstance(v, str) and (v in FUEL_RESOLVE or v in fuels):
        return v
    if isinstance(v, str):
        raise _bad(source, f"{key}: unknown fuel {plain(v, 40)!r}: neither built in "
                   f"({', '.join(FUEL_RESOLVE)}) nor in {foundry_scene.MARK}.fuels")
    raise _bad(source, f"{key}: expected a fuel (a Resolve 0-{MAX_RESOLVE} or a fuel's name), "
               f"got {v if _whole(v) else _type(v)}")


def _materials(raw: Any, source: str, key: str, origin: Point, side: float) -> list[Material]:
    """``fuego.materials``: each door's, window's and wall's two areas and material."""
    if not isinstance(raw, list):
        raise _bad(source, f"{key}: expected a list, got {_type(raw)}")
    if len(raw) > MAX_MATERIALS:
        raise _bad(source, f"{key}: more than {MAX_MATERIALS:,} doors, windows and walls")
    out = []
    for i, entry in enumerate(raw):
        where = f"{key}[{i}]"
        areas = entry.get("areas") if isinstance(entry, dict) else None
        if not isinstance(areas, list) or len(areas) != 2:
            raise _bad(source, f"{where}: expected {{\"areas\": [[x, y], [x, y]], \"material\": "
                       f"...}}, got {_type(entry)}")
        material = entry.get("material")
        if not isinstance(material, str) or material not in MATERIALS:
            raise _bad(source, f"{where}.material: expected a wall's, door's or window's "
                       f"material such as stone-wall, got {_said(material)}")
        one, two = (_square(c, source, f"{where}.areas[{n}]", origin, side)
                    for n, c in enumerate(areas))
        out.append(Material(i, one, two, material))
    return out


def _square(corner: Any, source: str, key: str, origin: Point, side: float
            ) -> tuple[float, float, float, float]:
    """An area's corner ``[x, y]`` in fuego's rooms key, as its squares (left, top, right,
    bottom) from the map's corner."""
    if not isinstance(corner, list) or len(corner) != 2:
        raise _bad(source, f"{key}: expected an area's corner [x, y], got {_type(corner)}")
    x, y = (_number(v, source, key) - o for v, o in zip(corner, origin))
    return x, y, x + side, y + side


def _resolution(data: dict, source: str) -> tuple[float, float, float | None, Point]:
    """``resolution``: the map's size in squares (within fuego's limits), its pixels per
    square (if given) and its origin in the file's squares."""
    res = data.get("resolution")
    if not isinstance(res, dict):
        raise _bad(source, "resolution: missing or not an object (this does not look like a "
                   "Universal VTT export, nor a Foundry VTT scene with walls, width, height "
                   "and grid)")
    size = res.get("map_size")
    if not isinstance(size, dict) or "x" not in size or "y" not in size:
        raise _bad(source, "resolution.map_size: expected {\"x\": squares, \"y\": squares}")
    w = _number(size["x"], source, "resolution.map_size.x")
    h = _number(size["y"], source, "resolution.map_size.y")
    if not (0 < w <= MAX_MAP_SQUARES and 0 < h <= MAX_MAP_SQUARES):
        raise LimitError(f"resolution.map_size: {w:g} x {h:g} squares; fuego imports maps of "
                         f"1 to {MAX_MAP_SQUARES} squares a side", where=source)
    ppg = res.get("pixels_per_grid")
    if ppg is not None:
        ppg = _number(ppg, source, "resolution.pixels_per_grid")
        if not 0 < ppg <= 10_000:
            raise _bad(source, f"resolution.pixels_per_grid: {ppg:g} is not a grid size")
    origin_raw = res.get("map_origin", {"x": 0, "y": 0})
    if origin_raw is None:
        origin_raw = {}
    if not isinstance(origin_raw, dict):
        raise _bad(source, "resolution.map_origin: expected {\"x\": ..., \"y\": ...}")
    origin = (_number(origin_raw.get("x", 0), source, "resolution.map_origin.x"),
              _number(origin_raw.get("y", 0), source, "resolution.map_origin.y"))
    return w, h, ppg, origin


def _portal_list(data: dict, source: str) -> list:
    """``portals``: a list (none: empty) of at most MAX_PORTALS."""
    portals_raw = data.get("portals", [])
    if portals_raw is None:
        portals_raw = []
    if not isinstance(portals_raw, list):
        raise _bad(source, f"portals: expected a list, got {_type(portals_raw)}")
    if len(portals_raw) > MAX_PORTALS:
        raise LimitError(f"portals: {len(portals_raw)}; fuego reads at most {MAX_PORTALS}",
                         where=source)
    return portals_raw


def _portals(portals_raw: list, source: str, origin: Point, w: float, h: float,
             broken: list[FuegoError], ignored: list[str], clipped: list[str]
             ) -> tuple[list[Portal], list[list[Point]]]:
    """Each portal read and cut to the map (a broken one skipped, one beyond the map
    dropped, each listed); returns those on the map and every portal's whole span."""
    portals = []
    spans: list[list[Point]] = []
    beyond: list[int] = []
    cut: list[int] = []
    for i, p in enumerate(portals_raw):
        key = f"portals[{i}]"
        try:
            portal = _portal(p, source, key, i + 1, origin)
        except FuegoError as exc:
            broken.append(exc)
            ignored.append(f"{key}: skipped: {exc.message}")
            continue
        spans.append([portal.a, portal.b])
        part = clip(portal.a, portal.b, w, h)
        if part is None:
            beyond.append(i)
            continue
        if part != (portal.a, portal.b):
            cut.append(i)
            portal = replace(portal, a=part[0], b=part[1])
        portals.append(portal)
    for idx, what in ((cut, "cut at the map's edge"), (beyond, "wholly beyond the map: dropped")):
        if idx:
            clipped.append(f"portals: {len(idx)} ({', '.join(f'[{i}]' for i in idx[:12])}"
                           f"{' ...' if len(idx) > 12 else ''}): {what}")
    return portals, spans


def _lights(lights_raw: Any, source: str, origin: Point, w: float, h: float,
            ignored: list[str]) -> list[Point]:
    """The first MAX_LIGHTS lights on the map (a light is only a hint: a broken one is
    skipped and listed)."""
    lights: list[Point] = []
    if not isinstance(lights_raw, list):
        if lights_raw:
            ignored.append("lights: skipped: not a list")
        return lights
    for i, light in enumerate(lights_raw[:MAX_LIGHTS]):
        if not (isinstance(light, dict) and "position" in light):
            ignored.append(f"lights[{i}]: skipped: it has no position")
            continue
        try:
            x, y = _point(light["position"], source, f"lights[{i}].position", origin)
            if not (-EDGE <= x <= w + EDGE and -EDGE <= y <= h + EDGE):
                continue  # a light of the building beyond the crop: not on this map
            lights.append((x, y))
        except FuegoError as exc:
            ignored.append(f"lights[{i}]: skipped: {exc.message}")
    if len(lights_raw) > MAX_LIGHTS:
        ignored.append(f"lights[{MAX_LIGHTS}:]: {len(lights_raw) - MAX_LIGHTS} lights after "
                       f"the first {MAX_LIGHTS} skipped")
    return lights


def _portal(p: Any, source: str, key: str, number: int, origin: Point) -> Portal:
    if not isinstance(p, dict):
        raise _bad(source, f"{key}: expected an object, got {_type(p)}")
    bounds = p.get("bounds")
    if not isinstance(bounds, list) or len(bounds) != 2:
        raise _bad(source, f"{key}.bounds: expected two points (the ends of the door)")
    a = _point(bounds[0], source, f"{key}.bounds[0]", origin)
    b = _point(bounds[1], source, f"{key}.bounds[1]", origin)
    if "position" in p:
        _point(p["position"], source, f"{key}.position", origin)
    closed = p.get("closed", True)
    if not isinstance(closed, bool):
        raise _bad(source, f"{key}.closed: expected true or false, got {_type(closed)}")
    rotation = _number(p.get("rotation", 0.0), source, f"{key}.rotation")
    hints = [p.get(k) for k in ("name", "label", "type", "kind")]
    hint = plain(" ".join(h for h in hints if isinstance(h, str)))
    if p.get("window") is True:
        hint = (hint + " window").strip()
    mark = foundry_scene.MARK
    shut, locked = _state(p.get(mark), source, f"{key}.{mark}")
    return Portal(number, a, b, closed, rotation, hint, shut, locked,
                  _kind(p.get(mark), source, f"{key}.{mark}.kind"))


def _kind(mark: Any, source: str, key: str) -> bool | None:
    """Whether a portal's ``fuego`` mark says it is a window (``"kind"``): None when it does
    not say (the mark already checked to be an object, or none)."""
    kind = mark.get("kind") if isinstance(mark, dict) else None
    if kind is None:
        return None
    if kind not in (BarrierKind.DOOR.value, BarrierKind.WINDOW.value):
        raise _bad(source, f"{key}: expected \"door\" or \"window\", got {_type(kind)}")
    return kind == BarrierKind.WINDOW.value


def _state(mark: Any, source: str, key: str) -> tuple[bool | None, bool]:
    """(shut, locked) from a portal's ``fuego`` mark: (None, False) when it has none."""
    if mark is None:
        return None, False
    if not isinstance(mark, dict):
        raise _bad(source, f"{key}: expected an object such as {{\"closed\": false}}, got "
                   f"{_type(mark)}")
    said = []
    for word in ("closed", "locked"):
        v = mark.get(word)
        if v is not None and not isinstance(v, bool):
            raise _bad(source, f"{key}.{word}: expected true or false, got {_type(v)}")
        said.append(v)
    closed, locked = said
    return (None if closed is None and not locked else bool(closed) or bool(locked),
            bool(locked))
