"""Foundry VTT scenes: the constants of Foundry's data model fuego writes and reads, the canvas
offset as Foundry computes it, and a scene document read as a Universal VTT map.

:mod:`fuego.render.foundry_export` writes a scene with these; ``fuego import`` reads one
(:func:`as_uvtt`, called by :func:`fuego.scenario.vtt_read.parse` for a file that is a scene,
not a Universal VTT map): Foundry's walls and doors in the canvas's pixels become
``line_of_sight`` and ``portals`` in squares of the scene, every key then checked as a
Universal VTT file's is. Field names and constants follow Foundry's ``common/constants.mjs``
and ``common/documents/{scene,wall}.mjs`` (version 13; a version 9 or 0.8 scene's ``grid``
number, ``gridDistance`` and walls' ``sense`` are read too, 0.8's numbers translated).
"""

from __future__ import annotations

import math
from enum import IntEnum
from typing import Any

from fuego.errors import FuegoError
from fuego.world.places import OPENABLE, BarrierKind

#: fuego's own key: a Foundry document's ``flags.fuego`` (what a wall is in fuego), and a
#: Universal VTT portal's door state in the scenario's words (``{"closed": false}``,
#: ``{"closed": true, "locked": true}``), which that format has no field for (its ``closed``
#: says door or window). Other importers read past both.
MARK = "fuego"
#: The keys of fuego's own rooms mark (:func:`fuego.render.vtt_export.rooms_mark`): a
#: Universal VTT file's ``fuego`` key, a Foundry scene's ``flags.fuego`` beside its others.
ROOMS_KEYS = ("area", "rooms", "fuels", "materials")
#: Foundry's default padding around the scene (a fraction of its width and height).
PADDING = 0.25
#: CONST.GRID_TYPES.GRIDLESS and SQUARE (the hexagonal kinds are 2 to 5).
GRID_GRIDLESS = 0
GRID_SQUARE = 1


class Sense(IntEnum):
    """CONST.WALL_SENSE_TYPES: how a wall stops sight, light or sound."""

    NONE = 0
    LIMITED = 10
    NORMAL = 20
    PROXIMITY = 30
    DISTANCE = 40


class Move(IntEnum):
    """CONST.WALL_MOVEMENT_TYPES."""

    NONE = 0
    NORMAL = 20


class DoorType(IntEnum):
    """CONST.WALL_DOOR_TYPES."""

    NONE = 0
    DOOR = 1
    SECRET = 2


class DoorState(IntEnum):
    """CONST.WALL_DOOR_STATES."""

    CLOSED = 0
    OPEN = 1
    LOCKED = 2


def canvas_offset(width: float, height: float, grid: float,
                  padding: float = PADDING) -> tuple[int, int]:
    """Where the scene's top-left corner lies on Foundry's canvas: the padding rounded up to
    whole grid squares, as Foundry's square grid computes it (``calculateDimensions``)."""
    x = math.ceil((padding * width) * (1 / grid)) * grid
    y = math.ceil((padding * height) * (1 / grid)) * grid
    return int(x), int(y)


def is_scene(data: dict) -> bool:
    """Whether JSON read as a map is a Foundry VTT scene document (walls on a canvas, no
    ``resolution``)."""
    return "resolution" not in data and isinstance(data.get("walls"), list) and \
        "width" in data and "height" in data and ("grid" in data or "gridDistance" in data)


def _bad(source: str, message: str) -> FuegoError:
    return FuegoError(message, where=source,
                      tip="export the scene again from Foundry (the scene's Export Data), or "
                          "export the map as Universal VTT (.dd2vtt or .uvtt)")


def _num(v: Any, source: str, key: str) -> float:
    """A number of the scene (its size is checked with the map's, as a Universal VTT file's)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or math.isnan(v) \
            or math.isinf(v):
        raise _bad(source, f"{key}: expected a number, got {v!r}"[:160])
    return float(v)


def _grid(data: dict, source: str) -> tuple[float, float | None, int]:
    """The scene's grid: pixels a square, feet a square (None: not said) and its type."""
    grid = data.get("grid")
    if isinstance(grid, dict):  # version 10 and later
        size = _num(grid.get("size", 100), source, "grid.size")
        distance = grid.get("distance")
        kind = grid.get("type", GRID_SQUARE)
    else:  # version 9: grid is the size, gridDistance the feet
        size = _num(grid if grid is not None else 100, source, "grid")
        distance = data.get("gridDistance")
        kind = data.get("gridType", GRID_SQUARE)
    if not isinstance(kind, int) or kind not in (GRID_GRIDLESS, GRID_SQUARE):
        raise _bad(source, f"grid.type: {kind!r}: fuego reads scenes on a square grid (type "
                   f"{GRID_SQUARE}), not a hexagonal one")
    if not 1 <= size <= 10_000:
        raise _bad(source, f"grid.size: {size:g} is not a grid size (pixels a square)")
    feet = _num(distance, source, "grid.distance") if distance is not None else None
    return size, feet, kind


#: A fuego export's ``flags.fuego.kind`` of a door wall, read back.
OPENABLE_KINDS = {k.value: k for k in OPENABLE}


class Kind(IntEnum):
    """What a Foundry wall is in a room's plan."""

    NONE = 0  # it stops no one: sight, light or sound only
    WALL = 1
    DOOR = 2
    WINDOW = 3


def _mapping(v: Any) -> dict:
    return v if isinstance(v, dict) else {}


#: Foundry 0.7 and 0.8 numbered a wall's ``move`` and ``sense`` NONE 0, NORMAL 1, LIMITED 2;
#: version 9 renumbered them (0, 10, 20) and version 10 split ``sense`` into ``sight`` and
#: ``light``. 1 and 2 are no value of the later versions, so each value says its own version.
LEGACY_SENSE = {1: Sense.NORMAL, 2: Sense.LIMITED}
LEGACY_MOVE = {1: Move.NORMAL}


def _sight(wall: dict) -> Any:
    """How the wall stops sight, on version 13's scale: ``sight`` (version 10 and later), else
    ``sense`` (version 9 and before), Foundry 0.8's numbers translated."""
    sight = wall.get("sight", wall.get("sense", Sense.NORMAL))
    return LEGACY_SENSE.get(sight, sight) if isinstance(sight, int) else sight


def _move(wall: dict) -> Any:
    move = wall.get("move", Move.NORMAL)
    return LEGACY_MOVE.get(move, move) if isinstance(move, int) else move


#: Foundry's window preset (version 11 and later): sight passes within a distance of it.
WINDOW_SIGHT = (Sense.PROXIMITY, Sense.DISTANCE)


def wall_kind(wall: dict) -> Kind:
    """A door (``door`` DOOR or SECRET) is a door, or a window when it lets sight through
    while shut (as fuego writes a glass window; fuego's own ``flags.fuego.kind`` first); a wall
    that stops movement and lets sight through near it is a window (Foundry's window preset);
    any other wall that stops movement is a wall, a terrain wall (limited sight: the outline
    of a pillar, a statue, a thick wall's face) and an invisible one (no sight: a floor's
    edge, a railing) too, as no one opens them; one that does not stop movement is no wall
    of a room."""
    sight = _sight(wall)
    if wall.get("door", DoorType.NONE) in (DoorType.DOOR, DoorType.SECRET):
        ours = _mapping(_mapping(wall.get("flags")).get(MARK)).get("kind")
        # fuego's own export says which (a papered window hides what is beyond it)
        if isinstance(ours, str) and ours in OPENABLE_KINDS:
            return Kind.WINDOW if OPENABLE_KINDS[ours] is BarrierKind.WINDOW else Kind.DOOR
        return Kind.DOOR if sight == Sense.NORMAL else Kind.WINDOW
    if _move(wall) == Move.NONE:
        return Kind.NONE
    return Kind.WINDOW if sight in WINDOW_SIGHT else Kind.WALL


def door_state(wall: dict) -> dict[str, bool]:
    """A door wall's ``ds`` as fuego's portal mark (:data:`MARK`):
    OPEN stands open, LOCKED is locked; anything else (no ``ds``, or not one of Foundry's
    states) is shut, as Foundry reads it."""
    ds = wall.get("ds", DoorState.CLOSED)
    state = DoorState(ds) if isinstance(ds, int) and not isinstance(ds, bool) \
        and ds in set(DoorState) else DoorState.CLOSED
    return {"closed": state is not DoorState.OPEN, "locked": state is DoorState.LOCKED}


def _grid_notes(kind: int, size: float, feet: float | None) -> list[str]:
    notes = []
    if kind == GRID_GRIDLESS:
        notes.append(f"grid.type: gridless: read as squares of {size:g} pixels")
    if feet == 10:
        notes.append("grid.distance: 10 ft a square: import with --grid-feet 10")
    elif feet is not None and feet != 5:
        notes.append(f"grid.distance: {feet:g} a square: fuego reads squares of 5 ft (or 10 "
                     "with --grid-feet 10)")
    return notes


def _left_out(data: dict, skipped: list[int]) -> list[str]:
    """What of the scene is not carried over: the walls that stop no one, tokens, drawings...,
    the picture."""
    notes = []
    if skipped:
        notes.append(f"walls: {len(skipped)} ({', '.join(f'[{i}]' for i in skipped[:12])}"
                     f"{' ...' if len(skipped) > 12 else ''}): not read: they do not stop "
                     "movement (sight or sound only), so they are no walls of a room")
    for k in ("tokens", "drawings", "notes", "tiles", "sounds", "regions"):
        if data.get(k):
            notes.append(f"{k}: not read: only the walls, doors, windows and lights are")
    if _mapping(data.get("background")).get("src") or data.get("img"):
        notes.append("background: not read: fuego draws its own maps from the walls")
    return notes


def as_uvtt(data: dict, source: str) -> tuple[dict[str, Any], list[str]]:
    """A Foundry scene document as Universal VTT data (one square a grid square; the map's
    corner the scene's, its padding taken off), and what of the scene is not carried over:
    walls as ``line_of_sight``, doors and windows (:func:`wall_kind`) as portals in
    Dungeondraft's convention (a window ``closed: false``) with their door state (``ds``) as
    fuego's own mark, lights by their position."""
    size, feet, kind = _grid(data, source)
    width = _num(data["width"], source, "width")
    height = _num(data["height"], source, "height")
    padding = _num(data.get("padding", PADDING), source, "padding")
    if not 0 <= padding <= 0.5:
        raise _bad(source, f"padding: {padding:g}: Foundry pads a scene by 0 to 0.5")
    ox, oy = canvas_offset(width, height, size, padding)

    def square(x: Any, y: Any, key: str) -> dict[str, float]:
        return {"x": (_num(x, source, key + "[x]") - ox) / size,
                "y": (_num(y, source, key + "[y]") - oy) / size}

    walls, portals, skipped = [], [], []
    for i, wall in enumerate(data["walls"]):
        c = wall.get("c") if isinstance(wall, dict) else None
        if not isinstance(wall, dict) or not isinstance(c, list) or len(c) != 4:
            raise _bad(source, f"walls[{i}].c: expected the wall's ends [x0, y0, x1, y1]")
        ends = [square(c[0], c[1], f"walls[{i}].c"), square(c[2], c[3], f"walls[{i}].c")]
        what = wall_kind(wall)
        if what is Kind.NONE:
            skipped.append(i)
        elif what is Kind.WALL:
            walls.append(ends)
        else:
            name = _mapping(_mapping(wall.get("flags")).get(MARK)).get("name")
            word = "window" if what is Kind.WINDOW else "door"
            portals.append({"position": {"x": (ends[0]["x"] + ends[1]["x"]) / 2,
                                         "y": (ends[0]["y"] + ends[1]["y"]) / 2},
                            "bounds": ends, "rotation": 0.0, "closed": what is Kind.DOOR,
                            "name": f"{word}: {name}" if isinstance(name, str) and name
                            else word, MARK: door_state(wall)})
    raw_lights = data.get("lights")
    lights = [{"position": square(light["x"], light["y"], f"lights[{i}]")}
              for i, light in enumerate(raw_lights if isinstance(raw_lights, list) else [])
              if isinstance(light, dict) and "x" in light and "y" in light]
    version = _mapping(data.get("_stats")).get("coreVersion")
    # fuego's own rooms (in squares of the scene), read as a Universal VTT file's
    ours = _mapping(_mapping(data.get("flags")).get(MARK))
    rooms = {k: ours[k] for k in ROOMS_KEYS if k in ours}
    return {"format": version if isinstance(version, str) else "",
            "resolution": {"map_origin": {"x": 0, "y": 0},
                           "map_size": {"x": width / size, "y": height / size},
                           "pixels_per_grid": size},
            "line_of_sight": walls, "portals": portals, "lights": lights,
            **({MARK: rooms} if rooms else {})}, \
        _grid_notes(kind, size, feet) + _left_out(data, skipped)
