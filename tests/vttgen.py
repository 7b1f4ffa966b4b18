"""Universal VTT maps made like real Dungeondraft exports, with what makes those hard to read.

Each generator returns the file's JSON as a dict (coordinates in squares, 5 ft each):

- :func:`crop`: an export region of a bigger drawing (``map_origin`` far from 0, 0; walls
  and portals of the whole building kept in absolute coordinates, far beyond the crop);
- :func:`cave`: chambers walled by polylines of hundreds of tiny jittered segments;
- :func:`tower`: a round tower drawn as a smooth polygon, split by a diagonal wall with a door;
- :func:`cross`: a cross-shaped chamber;
- :func:`five_foot`: a house whose walls all stand on the odd 5-ft lines;
- :func:`windows`: a house whose windows are ``closed: false`` portals in its walls;
- :func:`levels`: two maps, a ground floor and an upper floor, of one building;
- :func:`cropped_levels`: a house and the room on its roof, each level exported with its own
  region of the drawing (``map_origin`` differ).

The seeded jitter makes each map the same every run.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from typing import Any

Point = tuple[float, float]
#: A wall or an object's outline: its points in order.
Line = Sequence[Point]
#: A door (``closed``) or a window (open) between two points.
Portal = tuple[Point, Point, bool]


def uvtt(w: int, h: int, walls: Sequence[Line], portals: Iterable[Portal] = (),
         origin: Point = (0, 0), objects: Sequence[Line] = ()) -> dict[str, Any]:
    return {"format": 0.3,
            "resolution": {"map_origin": {"x": origin[0], "y": origin[1]},
                           "map_size": {"x": w, "y": h}, "pixels_per_grid": 50},
            "line_of_sight": [[{"x": x, "y": y} for x, y in line] for line in walls],
            "objects_line_of_sight": [[{"x": x, "y": y} for x, y in line] for line in objects],
            "portals": [portal(a, b, closed) for a, b, closed in portals],
            "environment": {"baked_lighting": True}, "lights": []}


def portal(a: Point, b: Point, closed: bool = True) -> dict[str, Any]:
    return {"position": {"x": (a[0] + b[0]) / 2, "y": (a[1] + b[1]) / 2},
            "bounds": [{"x": a[0], "y": a[1]}, {"x": b[0], "y": b[1]}],
            "rotation": math.atan2(b[1] - a[1], b[0] - a[0]), "closed": closed,
            "freestanding": False}


def box(x0: float, y0: float, x1: float, y1: float) -> list[Point]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]


def jagged(points: Sequence[Point], per_square: float, jitter: float, seed: int) -> list[Point]:
    """A closed outline cut into ``per_square`` segments a square, each point moved up to
    ``jitter`` squares: how Dungeondraft exports a cave wall."""
    rnd = random.Random(seed)
    out = []
    for (ax, ay), (bx, by) in zip(points, [*points[1:], *points[:1]]):
        pieces = max(1, round(math.dist((ax, ay), (bx, by)) * per_square))
        for i in range(pieces):
            t = i / pieces
            out.append((ax + (bx - ax) * t + rnd.uniform(-jitter, jitter),
                        ay + (by - ay) * t + rnd.uniform(-jitter, jitter)))
    return out + out[:1]


def circle(cx: float, cy: float, r: float, n: int, jitter: float = 0.0,
           seed: int = 0) -> list[Point]:
    rnd = random.Random(seed)
    pts = [(cx + (r + rnd.uniform(-jitter, jitter)) * math.cos(2 * math.pi * i / n),
            cy + (r + rnd.uniform(-jitter, jitter)) * math.sin(2 * math.pi * i / n))
           for i in range(n)]
    return pts + pts[:1]


def crop() -> dict[str, Any]:
    """A 20 x 12 square crop at (40, 30) of a drawing with three rooms in the crop (a hall, a
    study behind a door, a closet) and a second building far off, and a wall that runs on
    beyond the crop's east edge."""
    ox, oy = 40, 30
    walls: list[Line] = [
        box(ox + 2, oy + 2, ox + 18, oy + 10),  # the house in the crop
        [(ox + 10, oy + 2), (ox + 10, oy + 5)], [(ox + 10, oy + 7), (ox + 10, oy + 10)],
        box(ox + 14, oy + 2, ox + 18, oy + 6),  # the closet, corner of the study
        [(ox + 18, oy + 11), (ox + 60, oy + 11)],  # a garden wall running far east
        box(0, 0, 30, 20), [(15, 0), (15, 20)]]  # another building, far off
    portals = [((ox + 10, oy + 5), (ox + 10, oy + 7), True),  # hall - study
               ((ox + 14, oy + 4), (ox + 14, oy + 6), True),  # study - closet
               ((15, 8), (15, 10), True)]  # in the far building
    return uvtt(20, 12, walls, portals, origin=(ox, oy))


def cave() -> dict[str, Any]:
    """Two cave chambers joined by a tunnel with a door across it: one outline of about 450
    jittered points (as Dungeondraft draws a cave), on a 36 x 18 square map."""
    outline = [(2, 2), (16, 2), (16, 7), (22, 7), (22, 4), (34, 4), (34, 16), (22, 16),
               (22, 9), (16, 9), (16, 14), (2, 14)]
    return uvtt(36, 18, [jagged(outline, 4, 0.3, seed=1)], [((19, 6.4), (19, 9.6), True)])


def jagged_circle() -> dict[str, Any]:
    """A round cave of 300 jittered points (radius 7 squares) on a 20 x 20 square map."""
    return uvtt(20, 20, [circle(10, 10, 7, 300, jitter=0.3, seed=4)])


def tower() -> dict[str, Any]:
    """A round tower (radius 8 squares, 72 points) split by a diagonal wall with a door, in a
    24 x 24 square map; a table and a pillar as objects."""
    ring = circle(12, 12, 8, 72)
    walls = [ring, [(6.34, 6.34), (11.3, 11.3)], [(12.7, 12.7), (17.66, 17.66)]]
    objects = [box(7, 13, 8, 14), box(14, 8, 16, 9)]
    return uvtt(24, 24, walls, [((11.3, 11.3), (12.7, 12.7), True)], objects=objects)


def cross() -> dict[str, Any]:
    """A cross-shaped chamber: arms 4 squares wide and 16 long, on a 20 x 20 square map."""
    outline = [(8, 2), (12, 2), (12, 8), (18, 8), (18, 12), (12, 12), (12, 18), (8, 18),
               (8, 12), (2, 12), (2, 8), (8, 8), (8, 2)]
    return uvtt(20, 20, [outline])


def five_foot() -> dict[str, Any]:
    """A house on the odd 5-ft lines: x 3..15, y 3..11, a partition at x = 9 with a door."""
    walls: list[Line] = [box(3, 3, 15, 11), [(9, 3), (9, 6)], [(9, 8), (9, 11)]]
    return uvtt(18, 14, walls, [((9, 6), (9, 8), True)])


def windows() -> dict[str, Any]:
    """A house with a door in its south wall and three windows (``closed: false``): two in the
    north wall, one in the east wall."""
    walls = [box(2, 2, 14, 10)]
    portals = [((6, 10), (8, 10), True), ((4, 2), (6, 2), False), ((10, 2), (12, 2), False),
               ((14, 4), (14, 6), False)]
    return uvtt(16, 12, walls, portals)


def levels() -> tuple[dict[str, Any], dict[str, Any]]:
    """A ground floor (two rooms, a door between them, a door out) and an upper floor (one
    room with a window), both 16 x 12 squares."""
    ground = uvtt(16, 12, [box(2, 2, 14, 10), [(8, 2), (8, 4)], [(8, 6), (8, 10)]],
                  [((8, 4), (8, 6), True), ((4, 10), (6, 10), True)])
    upper = uvtt(16, 12, [box(2, 2, 14, 10)], [((10, 2), (12, 2), False)])
    return ground, upper


def cropped_levels(origin: Point = (4, 2), size: tuple[int, int] = (8, 8)
                   ) -> tuple[dict[str, Any], dict[str, Any]]:
    """A house (squares 2-14 x 2-10 of the drawing, a door out) exported whole, and the room
    on its roof (squares 6-10 x 4-8, a window) exported as a region with its corner at
    ``origin``, ``size`` squares: Dungeondraft writes each level's walls in the drawing's squares and the
    region's corner as ``map_origin``."""
    ground = uvtt(16, 12, [box(2, 2, 14, 10)], [((4, 10), (6, 10), True)])
    ox, oy = origin
    upper = uvtt(*size, [box(6, 4, 10, 8)], [((6, 4), (8, 4), False)], origin=(ox, oy))
    return ground, upper
