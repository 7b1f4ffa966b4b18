"""A level of a scene as a Foundry VTT scene document (Foundry VTT version 13, data schema
13.341), for Foundry's "Import Data" on a scene.

Field names, value ranges and constants follow Foundry's own data model (``common/constants.mjs``
and ``common/documents/{scene,wall,ambient-light,drawing}.mjs`` of version 13); the tests hold
the document to that schema (tests/foundry_schema.py). The mapping
(docs/maps-and-forecasts.md, "Foundry VTT"):

- **Scene.** A square grid of ``ppg`` pixels a 5-ft square (Foundry's ``grid.distance`` 5,
  ``units`` ft); ``width`` x ``height`` the picture's size; Foundry's default padding around
  it. The background is the picture of :func:`fuego.render.vtt_export.picture` (the players'
  view: fires, smoke and burned areas they see; no tokens, fuel or labels unless asked), as a
  file path in Foundry's user data (``image_src``): a scene document cannot hold the picture
  itself, so the command writes it beside the JSON for the GM to upload.
- **Walls**: every wall segment blocks movement, sight, light and sound. A **door** is a door
  (``door`` DOOR) that blocks everything when closed, with its state (``ds`` OPEN, CLOSED
  or LOCKED).
  A **window** is a door too, since a hero can open it, but one that blocks only movement and
  (partly) sound when closed: a glass window lets sight and light through; a papered window
  blocks the view and lets light through dimly. A destroyed or burned-through barrier is gone.
  fuego has no secret doors, so ``door`` is never SECRET.
- **Lights**: every fire the players see, at its area's centre: a flame animation, radius
  (``dim``; ``bright`` half of it) by :func:`fuego.render.vtt_export.light_range`, colour by
  temperature, and luminosity, opacity and animation intensity growing with its Fire Dice.
  With ``gm``, every other fire too as a *hidden* light (Foundry shows it to the GM only, off
  until the GM turns it on when a hero spots it).
- **Smoke**: a grey rectangle Drawing over each smoky area the players see (thick smoke
  darker); with ``gm``, the smoke out of their sight as hidden Drawings.

Every embedded document gets a stable 16-character ``_id`` (same export, same ids). Pure:
nothing is written here.
"""

from __future__ import annotations

import hashlib
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from fuego.render.vtt_export import (
    PLAYERS,
    SQUARE_FEET,
    SQUARES_PER_AREA,
    Lit,
    Portal,
    Shown,
    fire_colour,
    geometry,
    light_range,
    lit_fires,
    rooms_mark,
)
from fuego.rules.charts import Structure
from fuego.scenario.foundry_scene import (
    GRID_SQUARE,
    MARK,
    PADDING,
    DoorState,
    DoorType,
    Move,
    Sense,
    canvas_offset,
)
from fuego.text import json as text_json

if TYPE_CHECKING:
    from fuego.engine.scene import Scene
    from fuego.world.building import Building

__all__ = ["FOUNDRY_VERSION", "scene_document", "dumps", "FillType", "SMOKE_STYLE"]

#: The Foundry VTT generation and data schema this document is written for.
FOUNDRY_VERSION = "13.341"
class FillType(IntEnum):
    """CONST.DRAWING_FILL_TYPES."""

    NONE = 0
    SOLID = 1
    PATTERN = 2


#: A smoke Drawing's fill colour and opacity by density (1 thin, 2 thick).
SMOKE_STYLE = {1: ("#8c8c8c", 0.35), 2: ("#3d3d3d", 0.6)}

#: What a closed window stops: (sight, light, sound); it always stops movement.
WINDOW_SENSES = {
    Structure.PAPERED_WINDOW: (Sense.NORMAL, Sense.LIMITED, Sense.LIMITED),
    None: (Sense.NONE, Sense.NONE, Sense.LIMITED),  # glass, or a window of no stated pane
}


def doc_id(*parts: object) -> str:
    """A stable Foundry document id (16 letters and digits) for these parts."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).digest()
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    n = int.from_bytes(digest, "big")
    out = []
    for _ in range(16):
        n, r = divmod(n, len(alphabet))
        out.append(alphabet[r])
    return "".join(out)


def _wall(wid: str, c: list[int], *, move: Move = Move.NORMAL, sight: Sense = Sense.NORMAL,
          light: Sense = Sense.NORMAL, sound: Sense = Sense.NORMAL,
          door: DoorType = DoorType.NONE, ds: DoorState = DoorState.CLOSED,
          flags: dict | None = None) -> dict[str, Any]:
    return {
        "_id": wid, "c": c, "light": int(light), "move": int(move), "sight": int(sight),
        "sound": int(sound), "dir": 0, "door": int(door), "ds": int(ds),
        "threshold": {"light": None, "sight": None, "sound": None, "attenuation": False},
        "animation": None, "flags": flags or {},
    }


def _portal_wall(wid: str, c: list[int], portal: Portal) -> dict[str, Any]:
    barrier = portal.barrier
    ds = DoorState.LOCKED if barrier.locked else DoorState.CLOSED if barrier.closed \
        else DoorState.OPEN
    flags = {MARK: {"kind": barrier.kind.value, "name": barrier.name}}
    if not portal.window:
        return _wall(wid, c, door=DoorType.DOOR, ds=ds, flags=flags)
    sight, light, sound = WINDOW_SENSES.get(barrier.structure, WINDOW_SENSES[None])
    return _wall(wid, c, door=DoorType.DOOR, ds=ds, sight=sight, light=light, sound=sound,
                 flags=flags)


def _light(lid: str, x: int, y: int, lit: Lit, area_name: str) -> dict[str, Any]:
    fd = lit.fire.fd
    dim = light_range(fd) * SQUARE_FEET
    return {
        "_id": lid, "x": x, "y": y, "elevation": 0, "rotation": 0, "walls": True,
        "vision": False, "hidden": lit.hidden,
        "config": {
            "negative": False, "priority": 0,
            "alpha": round(min(0.9, 0.3 + 0.05 * fd), 3), "angle": 360,
            "bright": round(dim / 2, 2), "dim": round(dim, 2),
            "color": "#" + fire_colour(lit.fire), "coloration": 1, "attenuation": 0.5,
            "luminosity": round(min(1.0, 0.4 + 0.06 * fd), 3), "saturation": 0, "contrast": 0,
            "shadows": 0,
            "animation": {"type": "flame", "speed": min(10, 3 + fd // 2),
                          "intensity": max(1, min(10, 2 + fd)), "reverse": False},
            "darkness": {"min": 0, "max": 1},
        },
        "flags": {MARK: {"area": area_name, "fire_dice": fd,
                            "temperature": lit.fire.temperature.value,
                            "hidden_from_players": lit.hidden}},
    }


def _smoke(did: str, x: int, y: int, side: int, density: int, hidden: bool,
           area_name: str) -> dict[str, Any]:
    colour, alpha = SMOKE_STYLE[density]
    return {
        "_id": did, "shape": {"type": "r", "width": side, "height": side, "radius": None,
                              "points": []},
        "x": x, "y": y, "elevation": 0, "sort": 0, "rotation": 0, "bezierFactor": 0,
        "fillType": int(FillType.SOLID), "fillColor": colour, "fillAlpha": alpha,
        "strokeWidth": 0, "strokeColor": colour, "strokeAlpha": 0, "texture": None, "text": "",
        "fontFamily": "Signika", "fontSize": 48, "textColor": "#ffffff", "textAlpha": 1,
        "hidden": hidden, "locked": True, "interface": False,
        "flags": {MARK: {"area": area_name, "smoke": "thick" if density == 2 else "thin"}},
    }


def scene_document(building: Building, scene: Scene | None, level: int, *, ppg: int,
                   image_src: str, shown: Shown = PLAYERS, name: str = "") -> dict[str, Any]:
    """The Foundry VTT scene document of one level (see the module docstring). ``image_src``:
    the picture's path in Foundry's user data; ``shown``: what the GM asked for besides the
    players' view (``gm``: hidden lights and smoke drawings, the picture stays the players')."""
    from fuego.engine.sight import players_sight

    b = scene.building if scene is not None else building
    geo = geometry(b, level)
    cols, rows = geo.size
    width, height = cols * ppg, rows * ppg
    ox, oy = canvas_offset(width, height, ppg)
    lv = b.levels[level]

    def px(point: tuple[float, float]) -> list[int]:
        return [round(ox + point[0] * ppg), round(oy + point[1] * ppg)]

    walls = []
    for n, line in enumerate(geo.walls):
        for k, (p, q) in enumerate(zip(line, line[1:])):
            walls.append(_wall(doc_id(lv.name, "wall", n, k), px(p) + px(q)))
    for portal in geo.portals:
        walls.append(_portal_wall(doc_id(lv.name, "portal", portal.barrier.index),
                                  px(portal.p) + px(portal.q), portal))
    lights = []
    for lit in lit_fires(scene, level, shown.gm):
        a = b.areas[lit.area]
        x, y = px(geo.centre(a))
        lights.append(_light(doc_id(lv.name, "fire", a.name), x, y, lit, a.name))
    drawings = []
    if scene is not None and scene.smoke is not None:
        seen = players_sight(scene).in_view
        for i in sorted(scene.smoke.density):
            density = int(scene.smoke.density[i])
            a = b.areas[i]
            if a.level != level or not density or not (shown.gm or i in seen):
                continue
            x, y = px(geo.corner(a))
            drawings.append(_smoke(doc_id(lv.name, "smoke", a.name), x, y,
                                   SQUARES_PER_AREA * ppg, density, i not in seen, a.name))
    return {
        "name": name or lv.name,
        "navigation": True,
        "navName": "",
        "background": {"src": image_src, "anchorX": 0, "anchorY": 0, "offsetX": 0,
                       "offsetY": 0, "fit": "fill", "scaleX": 1, "scaleY": 1, "rotation": 0,
                       "tint": "#ffffff", "alphaThreshold": 0},
        "width": width,
        "height": height,
        "padding": PADDING,
        "initial": {"x": None, "y": None, "scale": None},
        "backgroundColor": "#999999",
        "grid": {"type": GRID_SQUARE, "size": ppg, "style": "solidLines", "thickness": 1,
                 "color": "#000000", "alpha": 0.2, "distance": SQUARE_FEET, "units": "ft"},
        "tokenVision": True,
        "fog": {"exploration": True, "overlay": None,
                "colors": {"explored": None, "unexplored": None}},
        "walls": walls,
        "lights": lights,
        "drawings": drawings,
        # the rooms, in squares of the scene (fuego import reads them over the walls')
        "flags": {MARK: {"level": lv.name, "round": scene.round if scene else 0,
                            "foundry": FOUNDRY_VERSION, "gm": shown.gm,
                            **rooms_mark(b, geo)}},
    }


def dumps(data: dict[str, Any]) -> str:
    """The file's text (indented JSON: a GM may read it)."""
    return text_json(data, indent=1) + "\n"
