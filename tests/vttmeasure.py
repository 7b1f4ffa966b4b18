"""How well ``fuego import`` finds the rooms of a Universal VTT map, measured independently.

The reference is the walls' enclosed space drawn with Pillow, not with fuego's raster: every
wall polyline and portal of the file (beyond a crop too) is drawn as a one-pixel line at
``per_square`` pixels a square (16: four times finer than fuego's), the space outside is
flood-filled from the image's corner (Pillow's 4-connected fill), and what stays unfilled is
enclosed. Then, over the map's rectangle (wall pixels left out):

- ``iou``: the indoor areas fuego finds (its rooms but the outside) against the enclosed
  space, intersection over union;
- ``rooms`` and ``reference_rooms``: fuego's rooms, and the enclosed regions holding at least
  half a 10-ft area of the map, each piece on its own (a hall joined to itself only beyond a
  crop is two: fuego makes two rooms of it);
- ``windows_ok``: every ``closed: false`` portal fuego placed on a wall is a window.

The bar (issue 25): ``iou >= 0.85``, rooms within a quarter of the reference, windows right.

    python tests/vttmeasure.py MAP.dd2vtt [...] [--png DIR]   # a table; an overlay per map
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

IOU_BAR = 0.85
ROOMS_BAR = 0.25


@dataclass
class Measure:
    name: str
    iou: float
    rooms: int
    reference_rooms: int
    windows: int  # closed: false portals placed
    windows_ok: bool
    seconds: float = 0.0

    @property
    def rooms_ok(self) -> bool:
        return abs(self.rooms - self.reference_rooms) <= ROOMS_BAR * self.reference_rooms

    @property
    def ok(self) -> bool:
        return self.iou >= IOU_BAR and self.rooms_ok and self.windows_ok


def reference(data: dict, per_square: int = 16, k: float = 2.0):
    """(enclosed, wall, labels, n) over the map's rectangle, from the raw JSON: the enclosed
    space, the wall pixels, the enclosed regions labelled 1..n (Pillow fills, one a region)."""
    res = data["resolution"]
    ox, oy = res.get("map_origin", {}).get("x", 0), res.get("map_origin", {}).get("y", 0)
    w, h = res["map_size"]["x"], res["map_size"]["y"]
    lines = [[(p["x"] - ox, p["y"] - oy) for p in line]
             for line in data.get("line_of_sight") or []]
    lines += [[(p["bounds"][0]["x"] - ox, p["bounds"][0]["y"] - oy),
               (p["bounds"][1]["x"] - ox, p["bounds"][1]["y"] - oy)]
              for p in data.get("portals") or []]
    xs = [x for line in lines for x, _ in line] + [0, w]
    ys = [y for line in lines for _, y in line] + [0, h]
    reach = 50 * k  # as far beyond the map as fuego reads walls
    x0 = math.floor(max(min(xs), -reach)) - 2
    y0 = math.floor(max(min(ys), -reach)) - 2
    x1 = math.ceil(min(max(xs), w + reach)) + 2
    y1 = math.ceil(min(max(ys), h + reach)) + 2
    img = Image.new("I", ((x1 - x0) * per_square, (y1 - y0) * per_square), 0)
    pen = ImageDraw.Draw(img)
    for line in lines:
        pts = [((x - x0) * per_square, (y - y0) * per_square) for x, y in line]
        if len(pts) > 1:
            pen.line(pts, fill=1, width=1)
    ImageDraw.floodfill(img, (0, 0), 2)
    full, _ = _fill_each(img, 3)
    # (a Foundry scene's size is any number of pixels: a fraction of a square)
    crop = full[-y0 * per_square:round((h - y0) * per_square),
                -x0 * per_square:round((w - x0) * per_square)]
    enclosed = crop >= 3
    labels, n = pieces(enclosed)
    return enclosed, crop == 1, labels, n


def pieces(enclosed: np.ndarray) -> tuple[np.ndarray, int]:
    """The enclosed space's pieces as they lie on the map, labelled 1..n (Pillow fills of
    the crop alone: a region that meets itself only beyond a crop is one piece per side)."""
    img = Image.fromarray(np.where(enclosed, 0, 1).astype(np.int32), mode="I")
    full, n = _fill_each(img, 2)
    return np.where(full >= 2, full - 1, 0), n


def _fill_each(img: Image.Image, first: int) -> tuple[np.ndarray, int]:
    """Flood each still-0 region of ``img`` with its own value from ``first`` on, in reading
    order; returns the filled pixels and how many regions there were."""
    n = 0
    while True:
        full = np.array(img, dtype=np.int64)
        zeros = np.flatnonzero(full == 0)
        if not len(zeros):
            return full, n
        y, x = divmod(int(zeros[0]), full.shape[1])
        ImageDraw.floodfill(img, (x, y), first + n)
        n += 1


def fuego_indoor(plan, per_square: int = 16) -> np.ndarray:
    """fuego's indoor areas as pixels over the map's rectangle."""
    k = 10 / plan.grid_feet
    w, h = plan.vtt.width, plan.vtt.height
    out = np.zeros((int(round(h * per_square)), int(round(w * per_square))), dtype=bool)
    for r in range(plan.rows):
        for c in range(plan.cols):
            g = plan.region[r][c]
            if g < 0 or plan.rooms[g]["outdoors"]:
                continue
            xa = max(0, round((c * k - plan.shift[0]) * per_square))
            xb = max(0, round(((c + 1) * k - plan.shift[0]) * per_square))
            ya = max(0, round((r * k - plan.shift[1]) * per_square))
            yb = max(0, round(((r + 1) * k - plan.shift[1]) * per_square))
            out[ya:yb, xa:xb] = True
    return out


def measure(path: str | Path, per_square: int = 16, png: Path | None = None,
            **kw) -> Measure:
    import time

    from fuego.scenario.vtt import to_plan
    from fuego.scenario.vtt_read import read

    data = json.loads(Path(path).read_text(encoding="utf-8"))
    t = time.perf_counter()
    plan = to_plan(read(path), **kw)
    seconds = time.perf_counter() - t
    k = 10 / plan.grid_feet
    enclosed, wall, labels, n = reference(data, per_square, k)
    mine = fuego_indoor(plan, per_square)[:enclosed.shape[0], :enclosed.shape[1]]
    keep = ~wall
    union = (enclosed | mine) & keep
    iou = float((enclosed & mine & keep).sum() / union.sum()) if union.any() else 1.0
    least = (k * k / 2) * per_square ** 2
    sizes = np.bincount(labels.ravel(), minlength=n + 1)[1:]
    ref_rooms = int((sizes >= least).sum())
    rooms = sum(1 for r in plan.rooms if r["areas"] and not r["outdoors"])
    on_wall = {p.number for _, p in plan.doors + plan.windows if not p.closed}
    as_window = {p.number for _, p in plan.windows}
    if png is not None:
        picture = np.zeros(enclosed.shape + (3,), dtype=np.uint8) + 255
        picture[enclosed & ~mine] = (250, 170, 170)  # enclosed, fuego says outside
        picture[mine & ~enclosed] = (170, 170, 250)  # fuego says inside, not enclosed
        picture[enclosed & mine] = (200, 235, 200)
        picture[wall] = (0, 0, 0)
        Image.fromarray(picture).save(png)
    return Measure(Path(path).name, iou, rooms, ref_rooms, len(on_wall),
                   on_wall <= as_window, seconds)


def main(argv: list[str]) -> int:
    png_dir = None
    if "--png" in argv:
        i = argv.index("--png")
        png_dir = Path(argv[i + 1])
        png_dir.mkdir(parents=True, exist_ok=True)
        argv = argv[:i] + argv[i + 2:]
    print(f"{'map':60} {'IoU':>5} {'rooms':>5} {'ref':>4} {'win':>4}  ok")
    bad = 0
    for path in argv:
        png = png_dir / (Path(path).stem + ".png") if png_dir else None
        m = measure(path, png=png)
        bad += not m.ok
        print(f"{m.name[:60]:60} {m.iou:5.2f} {m.rooms:5d} {m.reference_rooms:4d} "
              f"{m.windows:4d}  {'yes' if m.ok else 'NO'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    raise SystemExit(main(sys.argv[1:]))
