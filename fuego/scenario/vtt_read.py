"""Reading Universal VTT files (``.dd2vtt``, ``.uvtt``): the JSON checked key by key.

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
from dataclasses import dataclass, field
from typing import Any

from fuego.errors import FuegoError, LimitError

#: Largest file read (the embedded picture makes them big).
MAX_FILE_BYTES = 50 * 1024 * 1024
#: Largest map, in VTT squares per side.
MAX_MAP_SQUARES = 400
MAX_POLYLINES = 20_000
MAX_POINTS_PER_POLYLINE = 10_000
MAX_POINTS = 200_000
MAX_PORTALS = 5_000
MAX_LIGHTS = 5_000
#: Coordinates may stray this many squares off the map (walls drawn on its border).
MARGIN = 2.0

Point = tuple[float, float]


@dataclass(frozen=True)
class Portal:
    number: int  # 1-based, in file order
    a: Point
    b: Point
    closed: bool
    rotation: float
    hint: str  # a name, label or type the exporter gave it ("" when none)


@dataclass
class VttMap:
    """What fuego reads from a Universal VTT file (coordinates in squares, origin removed)."""

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


def _point(v: Any, source: str, key: str, origin: Point, w: float, h: float) -> Point:
    if not isinstance(v, dict) or "x" not in v or "y" not in v:
        raise _bad(source, f"{key}: expected a point {{\"x\": ..., \"y\": ...}}, got {_type(v)}")
    x = _number(v["x"], source, key + ".x") - origin[0]
    y = _number(v["y"], source, key + ".y") - origin[1]
    if not (-MARGIN <= x <= w + MARGIN and -MARGIN <= y <= h + MARGIN):
        raise _bad(source, f"{key}: the point ({x:g}, {y:g}) is off the {w:g} x {h:g} map",
                   tip="coordinates are in grid squares from the map's top left corner")
    return x, y


def _check(data: dict, source: str) -> VttMap:
    res = data.get("resolution")
    if not isinstance(res, dict):
        raise _bad(source, "resolution: missing or not an object (this does not look like a "
                   "Universal VTT export)")
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
    if not isinstance(origin_raw, dict):
        raise _bad(source, "resolution.map_origin: expected {\"x\": ..., \"y\": ...}")
    origin = (_number(origin_raw.get("x", 0), source, "resolution.map_origin.x"),
              _number(origin_raw.get("y", 0), source, "resolution.map_origin.y"))

    los = data.get("line_of_sight", [])
    if los is None:
        los = []
    if not isinstance(los, list):
        raise _bad(source, f"line_of_sight: expected a list of wall polylines, got {_type(los)}")
    if len(los) > MAX_POLYLINES:
        raise LimitError(f"line_of_sight: {len(los)} wall polylines; fuego reads at most "
                         f"{MAX_POLYLINES}", where=source)
    walls: list[list[Point]] = []
    total = 0
    for i, line in enumerate(los):
        key = f"line_of_sight[{i}]"
        if not isinstance(line, list):
            raise _bad(source, f"{key}: expected a list of points, got {_type(line)}")
        if len(line) > MAX_POINTS_PER_POLYLINE:
            raise LimitError(f"{key}: {len(line)} points; at most {MAX_POINTS_PER_POLYLINE} a "
                             "polyline", where=source)
        total += len(line)
        if total > MAX_POINTS:
            raise LimitError(f"line_of_sight: more than {MAX_POINTS} wall points", where=source)
        walls.append([_point(p, source, f"{key}[{k}]", origin, w, h) for k, p in enumerate(line)])

    portals_raw = data.get("portals", [])
    if portals_raw is None:
        portals_raw = []
    if not isinstance(portals_raw, list):
        raise _bad(source, f"portals: expected a list, got {_type(portals_raw)}")
    if len(portals_raw) > MAX_PORTALS:
        raise LimitError(f"portals: {len(portals_raw)}; fuego reads at most {MAX_PORTALS}",
                         where=source)
    portals = []
    for i, p in enumerate(portals_raw):
        key = f"portals[{i}]"
        if not isinstance(p, dict):
            raise _bad(source, f"{key}: expected an object, got {_type(p)}")
        bounds = p.get("bounds")
        if not isinstance(bounds, list) or len(bounds) != 2:
            raise _bad(source, f"{key}.bounds: expected two points (the ends of the door)")
        a = _point(bounds[0], source, f"{key}.bounds[0]", origin, w, h)
        b = _point(bounds[1], source, f"{key}.bounds[1]", origin, w, h)
        if "position" in p:
            _point(p["position"], source, f"{key}.position", origin, w, h)
        closed = p.get("closed", True)
        if not isinstance(closed, bool):
            raise _bad(source, f"{key}.closed: expected true or false, got {_type(closed)}")
        rotation = _number(p.get("rotation", 0.0), source, f"{key}.rotation")
        hints = [p.get(k) for k in ("name", "label", "type", "kind")]
        hint = plain(" ".join(h for h in hints if isinstance(h, str)))
        if p.get("window") is True:
            hint = (hint + " window").strip()
        portals.append(Portal(i + 1, a, b, closed, rotation, hint))

    ignored: list[str] = []  # every part of the map not carried over: where, and why
    lights_raw = data.get("lights", [])
    lights: list[Point] = []
    if isinstance(lights_raw, list):
        for i, light in enumerate(lights_raw[:MAX_LIGHTS]):
            if not (isinstance(light, dict) and "position" in light):
                ignored.append(f"lights[{i}]: skipped: it has no position")
                continue
            try:
                lights.append(_point(light["position"], source, f"lights[{i}].position",
                                     origin, w, h))
            except FuegoError as exc:  # a light is only a hint: a broken one is skipped
                ignored.append(f"lights[{i}]: skipped: {exc.message}")
        if len(lights_raw) > MAX_LIGHTS:
            ignored.append(f"lights[{MAX_LIGHTS}:]: {len(lights_raw) - MAX_LIGHTS} lights after "
                           f"the first {MAX_LIGHTS} skipped")
    elif lights_raw:
        ignored.append("lights: skipped: not a list")
    why = {"objects_line_of_sight": "walls of objects (tables, pillars) are not walls of rooms",
           "environment": "lighting and weather of the picture are not fuego's weather"}
    ignored += [f"{k}: not read: {reason}" for k, reason in why.items() if data.get(k)]
    if data.get("image"):
        ignored.append("the picture: not read: fuego draws its own maps from the walls")
    version = data.get("format")
    return VttMap(source, w, h, ppg, plain(str(version), 20) if isinstance(version, (int, float, str))
                  else "?", walls, portals, lights, ignored)
