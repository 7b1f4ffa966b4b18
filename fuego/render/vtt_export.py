"""A level of a scene as a Universal VTT map (``.dd2vtt``): for Foundry VTT (its Universal
Battlemap importer), Arkenforge, EncounterPlus and other virtual tabletops.

:func:`export_level` returns the file's JSON (a dict) for one level of a building as a scene
has it at some round; :func:`dumps` writes it. The mapping (docs/maps-and-forecasts.md,
"Exporting to a virtual tabletop"):

- **Grid.** One VTT square is 5 ft, so a 10-ft area is 2 x 2 squares; the map covers the
  level's columns and rows (its top-left area is the map's top-left), ``pixels_per_grid``
  pixels a square.
- **Image.** The level drawn by :func:`fuego.render.mapdraw.draw_level` at that round (fires,
  smoke, heroes, burned areas), without legend or labels around it, as a base64 PNG.
- **Walls** (``line_of_sight``): every intact wall between two areas, and the outline of the
  indoor areas (a room's outer wall, where the plan has no neighbour). A destroyed wall leaves
  a gap; open ground, archways and outdoor edges have no wall.
- **Portals**: every intact door and window on its area edge, with its ``closed`` state and
  its kind in ``name`` (``fuego import --windows-from-names`` reads windows back as windows).
  A broken door or window is a gap.
- **Lights**: every fire the table sees (a fire hidden from every hero only with ``gm``), at
  its area's centre; its range grows with its Fire Dice (:data:`LIGHT_RANGE`) and its colour
  follows its temperature (:data:`LIGHT_COLOUR`).

Pure: nothing is written or printed here. matplotlib is imported inside the functions only.
"""

from __future__ import annotations

import base64
import io
import math
from typing import TYPE_CHECKING, Any

from fuego.render.map_style import MapOptions, hidden_fire
from fuego.text import json as text_json
from fuego.world.building import OPENABLE, BarrierKind, Building

if TYPE_CHECKING:
    from fuego.engine.scene import Scene

__all__ = ["export_level", "dumps", "SQUARES_PER_AREA", "LIGHT_COLOUR", "light_range",
           "DEFAULT_PPG", "MAX_IMAGE_SIDE"]

FORMAT = 0.3
#: Universal VTT squares are 5 ft: a 10-ft area is 2 x 2 of them.
SQUARES_PER_AREA = 2
DEFAULT_PPG = 100
#: The picture's longest side, in pixels (larger maps are refused with a tip).
MAX_IMAGE_SIDE = 16_384
#: A fire's light colour (ARGB hex, as Universal VTT writes it) by temperature; a new flame
#: (the state before a fire takes hold) is pale yellow.
LIGHT_COLOUR = {"cold": "ffffd27f", "regular": "ffff9a3c", "hot": "ffff4a1c", "flame": "fffff2a8"}
#: A fire lights this many squares around its area's centre plus one per Fire Die.
LIGHT_RANGE = (1.0, 1.0)


def light_range(fire_dice: int) -> float:
    """Squares a fire of ``fire_dice`` Fire Dice lights: its own area's half-width (1 square)
    plus one square per die."""
    base, per_die = LIGHT_RANGE
    return base + per_die * max(0, fire_dice)


def _window(b: Building, level: int) -> tuple[int, int, int, int]:
    from fuego.render.mapdraw import level_extent

    return level_extent(b, level)


def _point(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def _edge_squares(b: Building, i: int, j: int, origin: tuple[int, int]):
    """The shared edge of side-by-side areas i and j, as two points in squares."""
    a, c = b.areas[i], b.areas[j]
    k = SQUARES_PER_AREA
    c0, r0 = origin
    if a.row == c.row:
        x = max(a.col, c.col) - c0
        return (x * k, (a.row - r0) * k), (x * k, (a.row - r0 + 1) * k)
    y = max(a.row, c.row) - r0
    return ((a.col - c0) * k, y * k), ((a.col - c0 + 1) * k, y * k)


def _merge(segments: list[tuple[tuple[float, float], tuple[float, float]]]):
    """Collinear touching segments on one grid line joined into one polyline each."""
    horizontal: dict[float, list[tuple[float, float]]] = {}
    vertical: dict[float, list[tuple[float, float]]] = {}
    for (x0, y0), (x1, y1) in segments:
        if y0 == y1:
            horizontal.setdefault(y0, []).append((min(x0, x1), max(x0, x1)))
        else:
            vertical.setdefault(x0, []).append((min(y0, y1), max(y0, y1)))
    out = []
    for line, spans, flip in [(y, s, False) for y, s in sorted(horizontal.items())] + \
            [(x, s, True) for x, s in sorted(vertical.items())]:
        spans.sort()
        lo, hi = spans[0]
        for s0, s1 in spans[1:] + [(math.inf, math.inf)]:
            if s0 <= hi:
                hi = max(hi, s1)
                continue
            out.append([(line, lo), (line, hi)] if flip else [(lo, line), (hi, line)])
            lo, hi = s0, s1
    return out


def _image(b: Building, scene: Scene | None, level: int, ppg: int, gm: bool) -> bytes:
    """The level as a PNG of exactly ``ppg`` pixels a square, nothing around the plan."""
    from matplotlib.figure import Figure

    from fuego.render.mapdraw import draw_level, drawn_words, literal_text

    c0, c1, r0, r1 = _window(b, level)
    w, h = (c1 - c0 + 1) * SQUARES_PER_AREA * ppg, (r1 - r0 + 1) * SQUARES_PER_AREA * ppg
    dpi = 100
    area_inches = SQUARES_PER_AREA * ppg / dpi
    fig = Figure(figsize=(w / dpi, h / dpi), dpi=dpi)
    ax = fig.add_axes((0, 0, 1, 1))
    literal_text(draw_level)(ax, b, level, scene,
                             MapOptions(area_inches=area_inches, legend=False, gm=gm))
    ax.set_title("")
    ax.set_axis_off()
    drawn_words(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": "fuego"})
    return buf.getvalue()


def export_level(building: Building, scene: Scene | None, level: int, *,
                 ppg: int = DEFAULT_PPG, gm: bool = False, image: bool = True) -> dict[str, Any]:
    """The Universal VTT JSON of one level (see the module docstring). ``gm``: also light the
    fires hidden from every hero; ``image``: embed the picture (tests may leave it out)."""
    b = scene.building if scene is not None else building
    c0, c1, r0, r1 = _window(b, level)
    k = SQUARES_PER_AREA
    cols, rows = (c1 - c0 + 1) * k, (r1 - r0 + 1) * k
    origin = (c0, r0)
    walls = []
    portals = []
    for barrier in b.barriers:
        a, c = b.areas[barrier.a], b.areas[barrier.b]
        if a.level != level or c.level != level or abs(a.col - c.col) + abs(a.row - c.row) != 1:
            continue
        if barrier.destroyed:
            continue  # a broken wall, door or window: a gap
        p, q = _edge_squares(b, barrier.a, barrier.b, origin)
        if barrier.kind is BarrierKind.WALL:
            walls.append((p, q))
        elif barrier.kind in OPENABLE:
            kind = "window" if barrier.kind is BarrierKind.WINDOW else "door"
            name = barrier.name
            portals.append({
                "position": _point((p[0] + q[0]) / 2, (p[1] + q[1]) / 2),
                "bounds": [_point(*p), _point(*q)],
                "rotation": 0.0 if p[1] == q[1] else math.pi / 2,
                "closed": bool(barrier.closed),
                "freestanding": False,
                "name": f"{kind}: {name}" if name else kind,
            })
    # the outline of the indoor areas: their outer walls where the plan has no neighbour
    for a in b.areas:
        if a.level != level or b.rooms[a.room].outdoors:
            continue
        x, y = (a.col - c0) * k, (a.row - r0) * k
        for dc, dr, seg in ((-1, 0, ((x, y), (x, y + k))), (1, 0, ((x + k, y), (x + k, y + k))),
                            (0, -1, ((x, y), (x + k, y))), (0, 1, ((x, y + k), (x + k, y + k)))):
            if b.at(level, a.col + dc, a.row + dr) is None:
                walls.append(seg)
    lights = []
    if scene is not None:
        for i in sorted(scene.fires):
            fire = scene.fires[i]
            a = b.areas[i]
            if a.level != level or (not gm and hidden_fire(scene, i)):
                continue
            temp = "flame" if fire.state.value == "flame" else fire.temperature.value
            lights.append({
                "position": _point((a.col - c0 + 0.5) * k, (a.row - r0 + 0.5) * k),
                "range": light_range(fire.fd),
                "intensity": round(min(1.0, 0.4 + 0.06 * fire.fd), 3),
                "color": LIGHT_COLOUR.get(temp, LIGHT_COLOUR["regular"]),
                "shadows": True,
            })
    data: dict[str, Any] = {
        "format": FORMAT,
        "software": "fuego",
        "resolution": {"map_origin": _point(0, 0), "map_size": _point(cols, rows),
                       "pixels_per_grid": ppg},
        "line_of_sight": [[_point(*pt) for pt in line] for line in _merge(walls)],
        "objects_line_of_sight": [],
        "portals": portals,
        "environment": {"baked_lighting": False, "ambient_light": "ffffffff"},
        "lights": lights,
    }
    if image:
        data["image"] = base64.b64encode(_image(b, scene, level, ppg, gm)).decode("ascii")
    return data


def dumps(data: dict[str, Any]) -> str:
    """The file's text (compact JSON; the picture makes it large)."""
    return text_json(data, separators=(",", ":"))
