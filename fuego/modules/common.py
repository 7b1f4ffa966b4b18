"""What the optional modules share: option checking, compass geometry, terrain, collapse.

Not a module itself. Every table here cites its seed (``000`` ASL B25 Fire, ``001`` Alpha Strike
fire, ``002`` ASL Prepared Fire Zone, ``003`` 7th Sea; files in ``shared/seeds/``).

Scale (docs/modules.md, "Scale"): one ASL hex = one Alpha Strike inch = one fuego area (10 ft).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, overload

from fuego.engine.events import EventKind
from fuego.errors import FuegoError, suggest
from fuego.rules.charts import Structure
from fuego.world.building import Building

if TYPE_CHECKING:
    from fuego.engine.scene import Scene


# -- options ------------------------------------------------------------------------------------
class OptionError(FuegoError):
    """A bad module option; ``key`` is its path below ``rules.modules.<module>``."""

    def __init__(self, module: str, key: str, message: str):
        self.module = module
        self.key = key
        where = f"rules.modules.{module}" + (f".{key}" if key else "")
        super().__init__(message, where=where)


def _norm(value: Any) -> Any:
    if isinstance(value, str):
        return value.strip().lower().replace("_", "-").replace(" ", "-")
    return value


class Options:
    """Reads one module's options; every problem raises :class:`OptionError` with its key."""

    def __init__(self, module: str, options: Any):
        if options is None or options is True:
            options = {}
        if not isinstance(options, dict):
            raise OptionError(module, "", f"expected a mapping of options, got {options!r}")
        self.module = module
        self.raw = dict(options)
        self.seen: set[str] = set()

    def error(self, key: str, message: str) -> OptionError:
        return OptionError(self.module, key, message)

    def get(self, key: str, default: Any = None) -> Any:
        self.seen.add(key)
        value = self.raw.get(key, default)
        return default if value is None else value

    def choice(self, key: str, choices: Iterable[str], default: str) -> str:
        choices = tuple(choices)
        value = self.get(key, default)
        norm = _norm(value)
        if norm not in choices:
            raise self.error(key, f"expected one of {', '.join(choices)}, got {value!r}")
        return norm

    @overload
    def integer(self, key: str, default: int, lo: int, hi: int) -> int: ...

    @overload
    def integer(self, key: str, default: None, lo: int, hi: int) -> int | None: ...

    def integer(self, key: str, default: int | None, lo: int, hi: int) -> int | None:
        value = self.get(key, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.error(key, f"expected a whole number from {lo} to {hi}, got {value!r}")
        return value

    def boolean(self, key: str, default: bool) -> bool:
        value = self.get(key, default)
        if not isinstance(value, bool):
            raise self.error(key, f"expected true or false, got {value!r}")
        return value

    def mapping(self, key: str) -> dict[str, Any]:
        value = self.get(key, {})
        if not isinstance(value, dict):
            raise self.error(key, f"expected a mapping (room or area: value), got {value!r}")
        for k in value:
            if not isinstance(k, str) or not k:
                raise self.error(key, f"expected room keys or area names, got {k!r}")
        return dict(value)

    def names(self, key: str) -> list[str]:
        value = self.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.error(key, f"expected a list of names, got {value!r}")
        return list(value)

    def terrain(self, key: str = "terrain") -> dict[str, str]:
        """A ``{room key or area name: terrain}`` mapping, terrains checked against TERRAINS."""
        out = {}
        for k, v in self.mapping(key).items():
            t = _norm(v)
            if not isinstance(t, str) or t not in TERRAINS:
                raise self.error(f"{key}.{k}", f"expected one of {', '.join(TERRAINS)}, got {v!r}")
            out[k] = t
        return out

    def done(self) -> None:
        """Refuse options this module does not know (typos must not pass silently)."""
        unknown = sorted(set(self.raw) - self.seen, key=str)
        if unknown:
            hint = suggest(unknown[0], sorted(self.seen))
            raise self.error(str(unknown[0]), f"unknown option{hint}; {self.module} takes "
                             f"{', '.join(sorted(self.seen)) or 'no options'}")


def resolve_refs(building: Building, refs: dict[str, Any], module: str, key: str) -> dict[int, Any]:
    """``{room key or area name: value}`` -> ``{area index: value}``; an area's own entry wins
    over its room's. Unknown names raise with their key path."""
    out: dict[int, Any] = {}
    per_area: dict[int, Any] = {}
    for ref, value in refs.items():
        if ref in building.rooms:
            for i in building.room_areas(ref):
                out[i] = value
            continue
        found = building.find(ref)
        if found is None:
            hint = suggest(ref, building.rooms)
            raise OptionError(module, f"{key}.{ref}", f"no room or area of that name{hint}; "
                              f"rooms: {', '.join(sorted(building.rooms))}; areas are named "
                              "like ground:C4")
        per_area[found] = value
    out.update(per_area)
    return out


# -- events ------------------------------------------------------------------------------------
def note(scene: Scene, module: str, text: str, area: int | None = None, actor: str | None = None,
         kind: EventKind = EventKind.MODULE, **data: Any) -> None:
    """A module's event: ``text`` says it in words (the narrator prints it), ``data`` holds the
    dice and numbers. Data keys never shadow the event's own (kind, round, phase, actor, area)."""
    scene.emit(kind, actor, area, module=module, text=text, **data)


def dr_text(dice: tuple[int, int], mod: int = 0) -> str:
    a, b = dice
    return f"{a}+{b}" + (f"{mod:+d}" if mod else "")


# -- the compass on a square grid ------------------------------------------------------------------
#: The 8 compass points, clockwise from north. North is the top of a plan (row 1), east its
#: right (column A -> B): a square grid's 8 neighbours stand in for ASL's 6 hex-grain
#: directions (000, 25.64; docs/modules.md, "Directions").
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
#: (columns, rows) one step toward each point.
VECTORS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
           "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}
BEARING = {d: 45 * k for k, d in enumerate(DIRECTIONS)}


def turn(direction: str, steps: int) -> str:
    """``steps`` compass points clockwise (negative: counter-clockwise)."""
    return DIRECTIONS[(DIRECTIONS.index(direction) + steps) % len(DIRECTIONS)]


def opposite(direction: str) -> str:
    return turn(direction, 4)


def bearing(dx: int, dy: int) -> float:
    """Degrees clockwise from north of a step of ``dx`` columns and ``dy`` rows."""
    return math.degrees(math.atan2(dx, -dy)) % 360


def off_wind(dx: int, dy: int, blowing_to: str) -> float:
    """Angle between a step and the way the wind blows, 0-180 degrees."""
    diff = abs(bearing(dx, dy) - BEARING[blowing_to]) % 360
    return min(diff, 360 - diff)


#: Alpha Strike's downwind arc is 120 degrees (001, Spreading Fires): within 60 degrees either
#: side of the wind is downwind; fuego reads 120 degrees or more off the wind as upwind (the
#: mirror arc) and the rest as crosswind.
DOWNWIND_HALF_ARC = 60
UPWIND_FROM = 120


class WindSide(str, Enum):
    """Where a step from a fire lies against the wind."""

    HERE = "here"
    DOWNWIND = "downwind"
    CROSSWIND = "crosswind"
    UPWIND = "upwind"


def side(dx: int, dy: int, blowing_to: str) -> WindSide:
    """Downwind, crosswind or upwind for a step from a fire."""
    if dx == 0 and dy == 0:
        return WindSide.HERE
    a = off_wind(dx, dy, blowing_to)
    if a <= DOWNWIND_HALF_ARC + 1e-9:
        return WindSide.DOWNWIND
    if a >= UPWIND_FROM - 1e-9:
        return WindSide.UPWIND
    return WindSide.CROSSWIND


def step(b: Building, i: int, dx: int, dy: int) -> int | None:
    a = b.areas[i]
    return b.at(a.level, a.col + dx, a.row + dy)


def around(b: Building, i: int) -> list[tuple[int, int, int]]:
    """The (up to) 8 areas around ``i`` on its level, as ``(area, dx, dy)``."""
    out = []
    for d in DIRECTIONS:
        dx, dy = VECTORS[d]
        j = step(b, i, dx, dy)
        if j is not None:
            out.append((j, dx, dy))
    return out


def delta(b: Building, i: int, j: int) -> tuple[int, int]:
    a, c = b.areas[i], b.areas[j]
    return c.col - a.col, c.row - a.row


def outdoors(b: Building, i: int) -> bool:
    return b.rooms[b.areas[i].room].outdoors


def above(b: Building, i: int, levels: int) -> list[int]:
    """The areas straight above area ``i`` (same square) on the next ``levels`` levels up."""
    a = b.areas[i]
    here = b.levels[a.level].elevation
    ups = sorted((lv for lv in b.levels if lv.elevation > here), key=lambda lv: lv.elevation)
    out = []
    for lv in ups[:levels]:
        j = b.at(lv.index, a.col, a.row)
        if j is not None:
            out.append(j)
    return out


def unlit(scene: Scene, i: int) -> bool:
    return scene.building.areas[i].burnable and i not in scene.fires


def line(dx: int, dy: int) -> list[tuple[int, int]]:
    """Grid steps strictly between (0, 0) and (dx, dy) (Bresenham's line)."""
    n = max(abs(dx), abs(dy))
    return [(round(dx * k / n), round(dy * k / n)) for k in range(1, n)]


# -- terrain ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Terrain:
    """One outdoor terrain (or building kind) as the three texts see it.

    ``asl``: its row of the ASL spreading DR table (000, 25.6), None where ASL cannot set it
    afire (000, 25.1: only burnable terrain burns). ``alpha``: its column of the Alpha Strike
    fire-starting table (001) and ``alpha_mod`` a condition modifier the terrain carries.
    ``fuel_class``: heavy, light or clear for prepared fire zones (002, 36.21-36.22), None where
    PFZ factors cannot convert it. ``heavy_smoke``: Alpha Strike's heavy-smoke fuels (001).
    ``fuel``: a Resolve the terrain holds when a fire break thins it (003 fuel table).
    """

    asl: str | None
    alpha: str
    alpha_mod: int = 0
    fuel_class: str | None = None
    heavy_smoke: bool = False
    fuel: int | None = None


#: fuego's terrains. Which rows and columns of the texts each one uses is fuego's reading where
#: the texts do not name it (brush, orchard and woods-road take Alpha Strike's woods column;
#: grain and vineyard its clear column with Planted Fields -2; docs/modules.md, "Terrain").
TERRAINS: dict[str, Terrain] = {
    "clear": Terrain(None, "clear", fuel_class="clear", fuel=0),  # open ground
    "paved": Terrain(None, "paved"),  # roads, squares, quays (001: NA)
    "water": Terrain(None, "water"),
    "rough": Terrain(None, "rough"),  # rocks, rubble-strewn slopes (001: 12/12)
    "grain": Terrain("grain", "clear", -2, fuel_class="light", fuel=2),
    "brush": Terrain("brush", "woods", fuel_class="light", fuel=3),
    "vineyard": Terrain(None, "clear", -2, fuel_class="light", fuel=2),  # 000 25.1: not burnable
    "orchard": Terrain("orchard", "woods", fuel_class="light", fuel=5),
    "woods": Terrain("woods", "woods", fuel_class="heavy", fuel=7),
    "light-woods": Terrain("woods", "woods", fuel_class="heavy", fuel=5),
    "heavy-woods": Terrain("woods", "woods", fuel_class="heavy", heavy_smoke=True, fuel=9),
    "woods-road": Terrain("woods-road", "woods", fuel_class="heavy", fuel=5),
    "jungle": Terrain("woods", "jungle", fuel_class="heavy", fuel=7),
    "heavy-jungle": Terrain("woods", "jungle", fuel_class="heavy", heavy_smoke=True, fuel=9),
    "wooden-building": Terrain("wooden-building", "building"),
    "stone-building": Terrain("stone-building", "building"),
    "heavy-building": Terrain("stone-building", "building", heavy_smoke=True),
    "hardened-building": Terrain("stone-building", "building", heavy_smoke=True),
    "industrial": Terrain("wooden-building", "industrial"),  # workshops, tar and pitch yards
}

_STONE = {Structure.THIN_STONE_WALL, Structure.STONE_WALL, Structure.THICK_STONE_WALL}


def default_terrain(b: Building, i: int) -> str:
    """An area nobody named: a building by its room's walls; outdoors brush if it holds fuel,
    else open ground."""
    area = b.areas[i]
    room = b.rooms[area.room]
    if not room.outdoors:
        return "stone-building" if room.wall in _STONE else "wooden-building"
    return "brush" if area.fuel > 0 else "clear"


def terrain_maps(scene: Scene) -> list[dict[int, str]]:
    """The ``terrain:`` options of the modules that are on, resolved to area indexes."""
    return [m.terrain_by_area(scene.building) for m in scene.modules
            if isinstance(m, TerrainOption)]


def natural_terrain(scene: Scene, i: int) -> str:
    """An area's terrain before any fire break: its own ``terrain`` (the scenario), else a
    module's ``terrain:`` option (area name before room key), else :func:`default_terrain`.
    (``fuego.modules.terrain.terrain_of`` adds what a fire break made of it.)"""
    own = getattr(scene.building.areas[i], "terrain", "")
    if own:
        return own
    for resolved in terrain_maps(scene):
        if i in resolved:
            return resolved[i]
    return default_terrain(scene.building, i)


class TerrainOption:
    """Mixin for modules that accept ``terrain: {room or area: terrain}``."""

    name = "module"
    terrain: dict[str, str]
    _terrain_cache: tuple[int, dict[int, str]] | None = None

    def terrain_by_area(self, b: Building) -> dict[int, str]:
        if self._terrain_cache is None or self._terrain_cache[0] != id(b):
            self._terrain_cache = (id(b), resolve_refs(b, self.terrain, self.name, "terrain"))
        return self._terrain_cache[1]


# -- collapse -------------------------------------------------------------------------------------


def collapse(scene: Scene, i: int, fd: int, why: str, module: str, *, upward: bool = False) -> None:
    """A building location gives way (001 structures at CF 0; 000 25.66 on a gust): its beams
    fail, its floor drops whoever stands on it to the level below, and the floor above comes
    down on it (with ``upward``, every level above in the column as well). Debris and falls use
    the core rules (``fuego.engine.structure.collapse`` does it; RULES-NOTES)."""
    from fuego.engine import structure

    note(scene, module, f"{scene.building.areas[i].name} collapses ({why})", i, what="collapse",
         why=why)
    structure.collapse(scene, i, fd, module, upward=upward)
