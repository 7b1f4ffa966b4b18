"""A level of a scene for virtual tabletops: what every export shares, and the Universal VTT
file (``.dd2vtt``) for Foundry VTT's Universal Battlemap Importer, Fantasy Grounds (uvtt2fgu),
Owlbear Rodeo, Arkenforge, EncounterPlus and others.

Shared by both formats (:mod:`fuego.render.foundry_export` is the other):

- **Grid.** One VTT square is 5 ft, so a 10-ft area is 2 x 2 squares; the map covers the
  level's columns and rows (its top-left area is the map's top-left).
- **Geometry** (:func:`geometry`): every intact wall between two areas, and the outline of the
  indoor areas (a room's outer wall, where the plan has no neighbour), merged into polylines;
  every intact door and window on its area edge. A destroyed or burned-through barrier is
  gone: no wall, no portal. Open ground, archways and outdoor edges have no wall.
- **Picture** (:func:`picture`): a clean battle map of that round: floor, walls, doors,
  windows, and fire, smoke, burned-out areas and burning wrecks *as the players see them*
  (:func:`fuego.engine.sight.players_sight`). No hero tokens (the VTT has its own), no fuel
  shading, numbers or marks, no labels, nothing the players do not see; :class:`Shown` brings
  each back (``gm`` shows everything, hidden fires in their GM colour).
- **Fires** (:func:`lit_fires`): the fires the players see; with ``gm`` every fire, those the
  players do not see marked hidden. A fire's light reaches :func:`light_range` squares and
  its colour follows its temperature (:data:`LIGHT_COLOUR`).

The Universal VTT file (:func:`export_level`): the picture as base64 PNG, walls as
``line_of_sight``, doors and windows as ``portals`` in the Dungeondraft convention that
Foundry's and Fantasy Grounds' importers read (``closed: true`` a door, ``closed: false`` a
window, whatever its state now: the format has no field for an open door; a shut papered
window, which hides what is beyond it, is written ``closed: true`` so that the importers stop
sight there; fuego's own key ``fuego`` holds what each is and its state, open, shut or
locked, for ``fuego import``), fires as ``lights``; the file's own ``fuego`` key holds the
level's rooms (:func:`rooms_mark`), which ``fuego import`` takes over the walls' reading. Owlbear
Rodeo's importer makes a window a door standing open, which no other mark would mend without
breaking the others (docs/maps-and-forecasts.md).

Pure: nothing is written or printed here. matplotlib is imported inside the functions only.
"""

from __future__ import annotations

import base64
import io
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fuego.render.map_style import MapOptions
from fuego.rules.charts import FUEL_RESOLVE
from fuego.scenario.barriers import wall_between
from fuego.scenario.foundry_scene import MARK
from fuego.text import json as text_json
from fuego.world.building import Building
from fuego.world.places import OPENABLE, Barrier, BarrierKind, Feature

if TYPE_CHECKING:
    from fuego.engine.fire import Fire
    from fuego.engine.scene import Scene

__all__ = ["export_level", "dumps", "SQUARES_PER_AREA", "LIGHT_COLOUR", "light_range",
           "DEFAULT_PPG", "MAX_IMAGE_SIDE", "Shown", "Geometry", "Portal", "Lit", "geometry",
           "picture", "lit_fires", "PLAYERS", "fire_colour", "level_squares", "rooms_mark"]

FORMAT = 0.3
#: Universal VTT squares are 5 ft: a 10-ft area is 2 x 2 of them.
SQUARES_PER_AREA = 2
#: Feet in one VTT square.
SQUARE_FEET = 5
DEFAULT_PPG = 100
#: The picture's longest side, in pixels (larger maps are refused with a tip).
MAX_IMAGE_SIDE = 16_384
#: A fire's light colour (ARGB hex, as Universal VTT writes it) by temperature; a new flame
#: (the state before a fire takes hold) is pale yellow.
LIGHT_COLOUR = {"cold": "ffffd27f", "regular": "ffff9a3c", "hot": "ffff4a1c", "flame": "fffff2a8"}
#: A fire lights this many squares around its area's centre plus one per Fire Die.
LIGHT_RANGE = (1.0, 1.0)

Point = tuple[int, int]


@dataclass(frozen=True)
class Shown:
    """What an export shows besides the plan (all off: the players' clean battle map).

    ``gm``: everything, hidden fires too; ``tokens``: the heroes' discs; ``fuel``: fuel shading
    and numbers, oil, gunpowder, beams and the routes fire runs along; ``labels``: room names
    and the way-out marks."""

    gm: bool = False
    tokens: bool = False
    fuel: bool = False
    labels: bool = False


#: The players' clean battle map: nothing added.
PLAYERS = Shown()


@dataclass(frozen=True)
class Portal:
    """An intact door or window on its area edge, from ``p`` to ``q`` (squares)."""

    barrier: Barrier
    p: Point
    q: Point

    @property
    def window(self) -> bool:
        return self.barrier.kind is BarrierKind.WINDOW

    @property
    def blocks_sight(self) -> bool:
        """Whether a Universal VTT file writes it as a door (``closed: true``, which the
        importers make stop sight): a door, and a shut papered window (nothing clear comes
        through it); any other window is written as one (``closed: false``), seen through."""
        return not self.window or self.barrier.blurs


@dataclass(frozen=True)
class Geometry:
    """A level in VTT squares: its size, its walls (polylines) and its doors and windows."""

    level: int
    origin: tuple[int, int]  # the column and row of the map's top-left area
    size: tuple[int, int]  # squares across and down
    walls: list[list[Point]]
    portals: list[Portal]

    def centre(self, area) -> tuple[float, float]:
        """An area's centre, in squares."""
        k = SQUARES_PER_AREA
        return (area.col - self.origin[0] + 0.5) * k, (area.row - self.origin[1] + 0.5) * k

    def corner(self, area) -> Point:
        """An area's top-left corner, in squares."""
        k = SQUARES_PER_AREA
        return (area.col - self.origin[0]) * k, (area.row - self.origin[1]) * k


@dataclass(frozen=True)
class Lit:
    """A fire an export lights; ``hidden``: one the players do not see (only with ``gm``)."""

    area: int
    fire: Fire
    hidden: bool


def light_range(fire_dice: int) -> float:
    """Squares a fire of ``fire_dice`` Fire Dice lights: its own area's half-width (1 square)
    plus one square per die."""
    base, per_die = LIGHT_RANGE
    return base + per_die * max(0, fire_dice)


def fire_colour(fire: Fire) -> str:
    """The fire's light colour as RGB hex (``ff9a3c``), by temperature (a new flame pale)."""
    from fuego.engine.fire import FireState  # (transitions: loaded with the fire, not the export)

    temp = "flame" if fire.state is FireState.FLAME else fire.temperature.value
    return LIGHT_COLOUR.get(temp, LIGHT_COLOUR["regular"])[2:]


def level_squares(b: Building, level: int) -> tuple[int, int]:
    """The level's map size in VTT squares (across, down)."""
    from fuego.render.map_style import level_extent

    c0, c1, r0, r1 = level_extent(b, level)
    return (c1 - c0 + 1) * SQUARES_PER_AREA, (r1 - r0 + 1) * SQUARES_PER_AREA


def _edge_squares(b: Building, i: int, j: int, origin: tuple[int, int]) -> tuple[Point, Point]:
    """The shared edge of side-by-side areas i and j (``Building.shared_edge``), as two points
    in squares from the level's ``origin`` area."""
    edge = b.shared_edge(i, j)
    assert edge is not None, "only areas side by side on one level share an edge"
    k = SQUARES_PER_AREA
    c0, r0 = origin
    (x0, y0), (x1, y1) = edge
    return ((x0 - c0) * k, (y0 - r0) * k), ((x1 - c0) * k, (y1 - r0) * k)


def _merge(segments: list[tuple[Point, Point]]) -> list[list[Point]]:
    """Collinear touching segments on one grid line joined into one polyline each."""
    horizontal: dict[int, list[tuple[int, int]]] = {}
    vertical: dict[int, list[tuple[int, int]]] = {}
    for (x0, y0), (x1, y1) in segments:
        if y0 == y1:
            horizontal.setdefault(y0, []).append((min(x0, x1), max(x0, x1)))
        else:
            vertical.setdefault(x0, []).append((min(y0, y1), max(y0, y1)))
    out = []
    for line, spans, flip in [(y, s, False) for y, s in sorted(horizontal.items())] + \
            [(x, s, True) for x, s in sorted(vertical.items())]:
        runs: list[list[int]] = []
        for s0, s1 in sorted(spans):
            if runs and s0 <= runs[-1][1]:
                runs[-1][1] = max(runs[-1][1], s1)
            else:
                runs.append([s0, s1])
        for lo, hi in runs:
            out.append([(line, lo), (line, hi)] if flip else [(lo, line), (hi, line)])
    return out


def geometry(b: Building, level: int) -> Geometry:
    """The level's walls and portals as they stand now (see the module docstring)."""
    from fuego.render.map_style import level_extent

    c0, _, r0, _ = level_extent(b, level)
    origin = (c0, r0)
    k = SQUARES_PER_AREA
    walls: list[tuple[Point, Point]] = []
    portals = []
    for barrier in b.barriers:
        if b.areas[barrier.a].level != level or b.shared_edge(barrier.a, barrier.b) is None:
            continue
        if barrier.destroyed:
            continue  # broken or burned through: a gap
        p, q = _edge_squares(b, barrier.a, barrier.b, origin)
        if barrier.kind is BarrierKind.WALL:
            walls.append((p, q))
        elif barrier.kind in OPENABLE:
            portals.append(Portal(barrier, p, q))
    # the outline of the indoor areas: their outer walls where the plan has no neighbour
    for a in b.areas:
        if a.level != level or b.rooms[a.room].outdoors:
            continue
        x, y = (a.col - c0) * k, (a.row - r0) * k
        for dc, dr, seg in ((-1, 0, ((x, y), (x, y + k))), (1, 0, ((x + k, y), (x + k, y + k))),
                            (0, -1, ((x, y), (x + k, y))), (0, 1, ((x, y + k), (x + k, y + k)))):
            if b.at(level, a.col + dc, a.row + dr) is None:
                walls.append(seg)
    return Geometry(level, origin, level_squares(b, level), _merge(walls), portals)


def rooms_mark(b: Building, geo: Geometry) -> dict[str, Any]:
    """fuego's own key for the level's rooms: each room's key, name, whether it is outdoors,
    its fuel and wall as the scenario gives them, its areas' top-left corners in squares
    (``area`` squares a side), those that are ways out (``exits``) and those with a fuel of
    their own (``area_fuel``), when any; the named fuels of the scenario's own these use
    (``fuels``, by Resolve); and the material of every door, window and wall on the level
    but the walls between rooms that the rooms' walls give (``materials``, each by its two
    areas' corners). So ``fuego import`` gives back the rooms themselves. The walls alone
    cannot say them: a wall inside a room (a partition, a stub) is drawn across its whole
    area edge and would enclose a room of its own, and an opening between two rooms is no
    wall at all."""
    rooms: dict[str, dict[str, Any]] = {}
    fuels: dict[str, int] = {}

    def fuel(resolve: int, name: str) -> int | str:
        if name and name not in FUEL_RESOLVE:
            fuels[name] = resolve
        return name or resolve

    for a in b.areas:
        if a.level != geo.level:
            continue
        room = b.rooms[a.room]
        entry = rooms.get(a.room)
        if entry is None:
            entry = rooms[a.room] = {"key": room.key, "name": room.name,
                                     "outdoors": room.outdoors,
                                     "fuel": fuel(room.fuel, room.fuel_name),
                                     "wall": room.wall.value, "areas": []}
        entry["areas"].append(list(geo.corner(a)))
        if Feature.EXIT in a.features:
            entry.setdefault("exits", []).append(list(geo.corner(a)))
        if a.own_fuel is not None:
            entry.setdefault("area_fuel", []).append({"area": list(geo.corner(a)),
                                                      "fuel": fuel(*a.own_fuel)})
    materials = _materials(b, geo)
    return {"area": SQUARES_PER_AREA, "rooms": list(rooms.values()),
            **({"fuels": fuels} if fuels else {}),
            **({"materials": materials} if materials else {})}


def _materials(b: Building, geo: Geometry) -> list[dict[str, Any]]:
    """The material of every intact door, window and wall between two areas of the level,
    each by its two areas' corners, but the walls between two rooms that the rooms' walls
    give (:func:`fuego.scenario.barriers.wall_between`: the import writes those walls)."""
    out = []
    for x in b.barriers:
        one, two = b.areas[x.a], b.areas[x.b]
        if one.level != geo.level or x.destroyed or x.structure is None or \
                x.kind not in (BarrierKind.WALL, *OPENABLE) or b.shared_edge(x.a, x.b) is None:
            continue
        if x.kind is BarrierKind.WALL and one.room != two.room and \
                x.structure is wall_between(b.rooms[one.room], b.rooms[two.room]):
            continue
        out.append({"areas": [list(geo.corner(one)), list(geo.corner(two))],
                    "material": x.structure.value})
    return out


def lit_fires(scene: Scene | None, level: int, gm: bool) -> list[Lit]:
    """The level's fires an export lights, in area order: those the players see; with ``gm``
    every fire, those the players do not see marked ``hidden``."""
    if scene is None:
        return []
    from fuego.engine.sight import players_sight

    seen = players_sight(scene).fires
    b = scene.building
    return [Lit(i, scene.fires[i], i not in seen) for i in sorted(scene.fires)
            if b.areas[i].level == level and (gm or i in seen)]


def map_options(scene: Scene | None, ppg: int, shown: Shown) -> MapOptions:
    """How :func:`picture` draws: at ``ppg`` pixels a square, no legend, what ``shown`` asks;
    fires, smoke and burned areas as the players see them unless ``gm``."""
    from fuego.engine.sight import players_sight

    sight = players_sight(scene) if scene is not None and not shown.gm else None
    return MapOptions(area_inches=SQUARES_PER_AREA * ppg / 100, legend=False, gm=shown.gm,
                      fuel=shown.fuel, tokens=shown.tokens,
                      labels=shown.labels, sight=sight)


def picture(b: Building, scene: Scene | None, level: int, ppg: int, shown: Shown) -> bytes:
    """The level as a PNG of exactly ``ppg`` pixels a square, nothing around the plan."""
    from matplotlib.figure import Figure

    from fuego.render.mapdraw import draw_level, drawn_words, literal_text

    w, h = (n * ppg for n in level_squares(b, level))
    dpi = 100
    fig = Figure(figsize=(w / dpi, h / dpi), dpi=dpi)
    ax = fig.add_axes((0, 0, 1, 1))
    literal_text(draw_level)(ax, b, level, scene, map_options(scene, ppg, shown))
    ax.set_title("")
    ax.set_axis_off()
    drawn_words(fig)  # a control character in a name: its escape, not a missing glyph
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": "fuego"})
    return buf.getvalue()


def _point(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def export_level(building: Building, scene: Scene | None, level: int, *,
                 ppg: int = DEFAULT_PPG, shown: Shown = PLAYERS,
                 image: bool = True) -> dict[str, Any]:
    """The Universal VTT JSON of one level (see the module docstring). ``shown``: what the
    picture and the lights add to the players' view; ``image``: embed the picture (tests may
    leave it out)."""
    b = scene.building if scene is not None else building
    geo = geometry(b, level)
    portals = []
    for portal in geo.portals:
        (px, py), (qx, qy) = portal.p, portal.q
        kind = "window" if portal.window else "door"
        name = portal.barrier.name
        portals.append({
            "position": _point((px + qx) / 2, (py + qy) / 2),
            "bounds": [_point(px, py), _point(qx, qy)],
            "rotation": 0.0 if py == qy else math.pi / 2,
            # Dungeondraft's convention, read so by every importer: a window is a portal that
            # does not block light ("closed": false), a door one that does, open or shut; a
            # shut papered window hides what is beyond it, so it goes as a shut door, which
            # every importer makes stop sight (a window they see through)
            "closed": portal.blocks_sight,
            "freestanding": False,
            "name": f"{kind}: {name}" if name else kind,
            # what it is and its state, which the format has no field for, in fuego's own key
            # (read back by fuego import; other importers read past it)
            MARK: {"kind": portal.barrier.kind.value, "closed": portal.barrier.closed,
                   "locked": portal.barrier.locked},
        })
    lights = []
    for lit in lit_fires(scene, level, shown.gm):
        x, y = geo.centre(b.areas[lit.area])
        lights.append({
            "position": _point(x, y),
            "range": light_range(lit.fire.fd),
            "intensity": round(min(1.0, 0.4 + 0.06 * lit.fire.fd), 3),
            "color": "ff" + fire_colour(lit.fire),
            "shadows": True,
        })
    cols, rows = geo.size
    data: dict[str, Any] = {
        "format": FORMAT,
        "software": "fuego",
        "resolution": {"map_origin": _point(0, 0), "map_size": _point(cols, rows),
                       "pixels_per_grid": ppg},
        "line_of_sight": [[_point(*pt) for pt in line] for line in geo.walls],
        "objects_line_of_sight": [],
        "portals": portals,
        "environment": {"baked_lighting": False, "ambient_light": "ffffffff"},
        "lights": lights,
        MARK: rooms_mark(b, geo),
    }
    if image:
        data["image"] = base64.b64encode(picture(b, scene, level, ppg, shown)).decode("ascii")
    return data


def dumps(data: dict[str, Any]) -> str:
    """The file's text (compact JSON; the picture makes it large)."""
    return text_json(data, separators=(",", ":"))
