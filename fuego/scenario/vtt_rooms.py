"""Rooms from a map's walls, found on a raster finer than fuego's 10-ft grid.

Snapping every wall to a 10-ft edge loses what map makers draw: a cave wall of hundreds of
jittered pieces, a round tower, a diagonal wall, a room on 5-ft lines. Here the walls and
portals are drawn on a raster of :data:`PIXELS` pixels a 10-ft area (each wall an 8-connected
line of pixels, so no 4-connected step slips through it), the open pixels are labelled into
4-connected regions, and each 10-ft area goes to the region holding most of its open pixels
(:func:`vote`). A region that reaches the raster's border is open to beyond the walls: the
outside. What stands between two areas of one region is read back from the raster
(:func:`blocked`).

Pixel ``(i, j)`` is centred on the point ``(x0 + i / PIXELS, y0 + j / PIXELS)`` in area units,
so a wall on a 10-ft or 5-ft line lies on a row of pixel centres, not between two rows.
Pure numpy; the labelling joins runs of open pixels row by row (a union-find over runs, not
over pixels), so a 200 x 200 area map is a few million pixels and a fraction of a second.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Point = tuple[float, float]

#: Pixels a 10-ft area, per side: 8 puts the 5-ft lines (and every 1.25 ft) on pixel centres.
PIXELS = 8
#: Samples per pixel along a wall: two keep the drawn line 8-connected.
_STEP = 0.5


@dataclass
class Raster:
    """Walls and portals drawn on pixels, and the open space labelled into regions."""

    x0: int  # the area column of pixel 0's centre
    y0: int  # the area row of pixel 0's centre
    wall: np.ndarray  # [row, col] bool: a wall or portal passes through the pixel
    labels: np.ndarray  # [row, col] int: 0 for wall, 1.. for the open regions
    outside: np.ndarray  # [label] bool: the region reaches the raster's border

    def pixel(self, x: float, y: float) -> tuple[int, int]:
        """The (col, row) of the pixel holding the point (area units)."""
        return (int(np.floor((x - self.x0) * PIXELS + 0.5)),
                int(np.floor((y - self.y0) * PIXELS + 0.5)))


def draw(lines: list[list[Point]], x0: int, y0: int, cols: int, rows: int) -> np.ndarray:
    """A ``rows * PIXELS + 1`` by ``cols * PIXELS + 1`` mask of the pixels the polylines (in
    area units) pass through; what lies beyond the raster is left out."""
    shape = (rows * PIXELS + 1, cols * PIXELS + 1)
    wall = np.zeros(shape, dtype=bool)
    segs = [(p, q) for line in lines for p, q in zip(line, line[1:])]
    dots = [line[0] for line in lines if len(line) == 1]
    if not segs and not dots:
        return wall
    if segs:
        seg = (np.array([(p[0], p[1], q[0], q[1]) for p, q in segs], dtype=float)
               - (x0, y0, x0, y0)) * PIXELS
        ax, ay, bx, by = _clipped(seg, shape)
        n = np.ceil(np.hypot(bx - ax, by - ay) / _STEP).astype(np.int64) + 1
        idx = np.repeat(np.arange(len(seg)), n)
        t = (np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)) / np.maximum(n - 1, 1)[idx]
        xs = ax[idx] + (bx - ax)[idx] * t
        ys = ay[idx] + (by - ay)[idx] * t
    else:
        xs = ys = np.zeros(0)
    if dots:
        d = (np.array(dots, dtype=float) - (x0, y0)) * PIXELS
        xs, ys = np.concatenate([xs, d[:, 0]]), np.concatenate([ys, d[:, 1]])
    i = np.floor(xs + 0.5).astype(np.int64)
    j = np.floor(ys + 0.5).astype(np.int64)
    keep = (i >= 0) & (i < shape[1]) & (j >= 0) & (j < shape[0])
    wall[j[keep], i[keep]] = True
    return wall


def _clipped(seg: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, ...]:
    """The segments (pixel units, rows of ax, ay, bx, by) cut to a pixel beyond the raster
    (Liang-Barsky): a wall whose far end lies a million areas off the map is sampled only
    where it crosses the map, not along its whole length. A segment wholly off the raster
    keeps its first end (off the raster, so drawn nowhere); ends inside are kept exactly."""
    ax, ay, bx, by = seg.T
    dx, dy = bx - ax, by - ay
    lo, hi = -1.0, (shape[1] + 1.0, shape[0] + 1.0)
    t0, t1 = np.zeros(len(seg)), np.ones(len(seg))
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, q in ((-dx, ax - lo), (dx, hi[0] - ax), (-dy, ay - lo), (dy, hi[1] - ay)):
            r = q / p
            t0 = np.where(p < 0, np.maximum(t0, r), t0)
            t1 = np.where(p > 0, np.minimum(t1, r), t1)
            t1 = np.where((p == 0) & (q < 0), -1.0, t1)  # parallel to an edge, beyond it
    off = ~(t0 <= t1)  # wholly beyond the raster: its first end alone, which draw drops
    nax = np.where(off, ax, np.where(t0 > 0, ax + t0 * dx, ax))
    nay = np.where(off, ay, np.where(t0 > 0, ay + t0 * dy, ay))
    nbx = np.where(off, ax, np.where(t1 < 1, ax + t1 * dx, bx))
    nby = np.where(off, ay, np.where(t1 < 1, ay + t1 * dy, by))
    return nax, nay, nbx, nby


def label(open_: np.ndarray) -> tuple[np.ndarray, int]:
    """4-connected regions of the True pixels: labels 1..n (0 elsewhere), and n.

    Each row's runs of open pixels are found at once; a run joins every run of the next row it
    overlaps by a pixel (a union-find over runs), then the runs are painted back.
    """
    h, w = open_.shape
    pad = np.zeros((h, w + 2), dtype=np.int8)
    pad[:, 1:-1] = open_
    d = np.diff(pad, axis=1)
    sr, sc = np.nonzero(d == 1)  # run starts (row, col), in row-major order
    er, ec = np.nonzero(d == -1)  # run ends (exclusive), same order
    n = len(sr)
    labels = np.zeros((h, w), dtype=np.int32)
    if n == 0:
        return labels, 0
    parent = _joined_runs(n, _overlapping_runs(h, sr, sc, ec))
    roots, run_label = np.unique(parent, return_inverse=True)
    run_label = run_label + 1
    # paint the runs: +label at each start, -label at each end, summed along the row
    paint = np.zeros((h, w + 1), dtype=np.int64)
    np.add.at(paint, (sr, sc), run_label)
    np.add.at(paint, (er, ec), -run_label)
    labels[:] = np.cumsum(paint, axis=1)[:, :w]
    return labels, len(roots)


def _overlapping_runs(h: int, sr: np.ndarray, sc: np.ndarray, ec: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray] | None:
    """The pairs of runs (by number) in rows next to each other that overlap by a pixel, or
    None if no two do."""
    first = np.searchsorted(sr, np.arange(h + 1))  # runs of row r: first[r]:first[r + 1]
    pairs_a, pairs_b = [], []
    for r in range(h - 1):
        a0, a1, b0, b1 = first[r], first[r + 1], first[r + 1], first[r + 2]
        if a0 == a1 or b0 == b1:
            continue
        # run a overlaps run b when a.start < b.end and b.start < a.end
        lo = np.searchsorted(ec[b0:b1], sc[a0:a1], side="right")
        hi = np.searchsorted(sc[b0:b1], ec[a0:a1], side="left")
        count = np.maximum(hi - lo, 0)
        if not count.any():
            continue
        a = np.repeat(np.arange(a0, a1), count)
        offset = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
        pairs_a.append(a)
        pairs_b.append(b0 + np.repeat(lo, count) + offset)
    if not pairs_a:
        return None
    return np.concatenate(pairs_a), np.concatenate(pairs_b)


def _joined_runs(n: int, pairs: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
    """Union-find over ``n`` runs joined in ``pairs``: each run's root (the lowest run of its
    region)."""
    parent = np.arange(n)
    if pairs is None:
        return parent

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for x, y in zip(pairs[0].tolist(), pairs[1].tolist()):
        rx, ry = root(x), root(y)
        if rx != ry:
            parent[max(rx, ry)] = min(rx, ry)
    for x in range(n):
        parent[x] = root(x)
    return parent


def raster(lines: list[list[Point]], x0: int, y0: int, cols: int, rows: int) -> Raster:
    """The walls and portals (area units) drawn on the areas ``x0..x0 + cols`` by ``y0..y0 +
    rows``, with their open space labelled; regions touching the border are the outside."""
    wall = draw(lines, x0, y0, cols, rows)
    labels, n = label(~wall)
    outside = np.zeros(n + 1, dtype=bool)
    for edge in (labels[0], labels[-1], labels[:, 0], labels[:, -1]):
        outside[np.unique(edge)] = True
    outside[0] = False
    return Raster(x0, y0, wall, labels, outside)


#: Share of the open pixels just within the map's edge one region must hold to be the space
#: between walls drawn along that edge and the rooms (:func:`walled_edge`).
EDGE_SHARE = 0.95


def walled_edge(r: Raster, within: tuple[int, int, int, int]) -> int:
    """The region within walls that runs all along the map's edge (pixels ``within``: x0, y0,
    x1, y1) and holds another region within walls on the map: the space between walls drawn
    along the map's edge (a Foundry scene walled at its bounds) and the rooms, which is the
    outside. 0 when there is none (a building cut off at the edge meets it in several rooms,
    a hall filling the map holds no room)."""
    x0, y0, x1, y1 = within
    inset = PIXELS // 4  # 2.5 ft in: past a wall on the edge itself, short of most rooms
    ys, xs = slice(y0 + inset, y1 - inset + 1), slice(x0 + inset, x1 - inset + 1)
    ring = np.concatenate([r.labels[y0 + inset, xs], r.labels[y1 - inset, xs],
                           r.labels[ys, x0 + inset], r.labels[ys, x1 - inset]])
    ring = ring[ring > 0]
    if not len(ring) or r.outside[ring].any():
        return 0
    g = int(np.bincount(ring).argmax())
    on_map = np.unique(r.labels[y0:y1 + 1, x0:x1 + 1])
    others = [h for h in on_map if h and h != g and not r.outside[h]]
    return g if (ring == g).mean() >= EDGE_SHARE and others else 0


def vote(r: Raster, ox: int, oy: int, cols: int, rows: int) -> np.ndarray:
    """For each area ``(col, row)`` of the grid whose corner is pixel ``(ox, oy)``: the label
    of the region holding most of its open pixels ([row, col]). A tie goes to a region within
    walls over the outside (a room on 5-ft lines grows by the same half area on every side, it
    does not move), then to the lower label. An area that is all wall takes the region holding
    most of the pixels around it, half an area out. An enclosed region of half an area or more
    that wins no area (a closet straddling four areas) takes the area holding most of it, if
    the outside has it."""
    P = PIXELS
    # pixel j of an axis lies in area j // P; one on the line between two areas (j % P == 0)
    # counts half for each, so neither side of a wall on a 10-ft line is favoured
    block = r.labels[oy:oy + rows * P + 1, ox:ox + cols * P + 1].astype(np.int64)
    n = int(r.labels.max()) + 1

    def axis(count: int) -> list[tuple[np.ndarray, np.ndarray]]:
        j = np.arange(count * P + 1)
        line = j % P == 0
        return [(np.where(j // P < count, j // P, -1), np.where(line, 1, 2)),
                (np.where(line, j // P - 1, -1), np.where(line, 1, 0))]

    keys_all, weights_all = [], []
    for ay, wy in axis(rows):
        for ax, wx in axis(cols):
            w = wy[:, None] * wx[None, :]
            ok = (w > 0) & (ay[:, None] >= 0) & (ax[None, :] >= 0) & (block > 0)
            cell = ay[:, None] * cols + ax[None, :]
            keys_all.append((cell * n + block)[ok])
            weights_all.append(w[ok])
    keys, inverse = np.unique(np.concatenate(keys_all), return_inverse=True)
    counts = np.bincount(inverse, weights=np.concatenate(weights_all)).astype(np.int64)
    where, lab = keys // n, keys % n
    # the best label per area: sort by (area, score) and keep each area's last
    score = counts * 2 + ~r.outside[lab]
    order = np.lexsort((-lab, score, where))
    last = np.r_[where[order][1:] != where[order][:-1], True]
    best = np.zeros(rows * cols, dtype=np.int64)
    best[where[order][last]] = lab[order][last]
    for a in np.setdiff1d(np.arange(rows * cols), where):
        row, col = divmod(int(a), cols)
        y, x = oy + row * P, ox + col * P
        near = r.labels[max(0, y - P // 2):y + P + P // 2, max(0, x - P // 2):x + P + P // 2]
        got = np.bincount(near.ravel(), minlength=n)
        got[0] = 0
        best[a] = got.argmax() if got.any() else 0
    won = set(best.tolist())
    total = np.bincount(lab, weights=counts, minlength=n)
    for g in np.flatnonzero((total >= 4 * P * P / 2) & ~r.outside[:n]):
        if g == 0 or int(g) in won:
            continue
        mine = lab == g
        a = int(where[mine][np.argmax(counts[mine])])
        if best[a] == 0 or r.outside[best[a]]:
            best[a] = g
    return best.reshape(rows, cols)


def fit(r: Raster, ox: int, oy: int, best: np.ndarray, within: tuple[int, int, int, int]
        ) -> float:
    """How well the areas given to regions within walls cover the pixels within walls:
    intersection over union, over the pixels ``within`` (x0, y0, x1, y1: the map), of the
    grid whose corner is pixel ``(ox, oy)``."""
    P = PIXELS
    rows, cols = best.shape
    block = r.labels[oy:oy + rows * P, ox:ox + cols * P]
    inside = (block > 0) & ~r.outside[block]
    mine = np.repeat(np.repeat((best > 0) & ~r.outside[best], P, axis=0), P, axis=1)
    mine &= block > 0
    keep = np.zeros_like(mine)
    x0, y0, x1, y1 = within
    keep[max(0, y0 - oy):max(0, y1 - oy), max(0, x0 - ox):max(0, x1 - ox)] = True
    inside &= keep
    mine &= keep
    union = (inside | mine).sum()
    return float((inside & mine).sum() / union) if union else 1.0


def blocked(r: Raster, ox: int, oy: int, cols: int, rows: int
            ) -> tuple[np.ndarray, np.ndarray]:
    """How much of the line between each two neighbouring areas of the grid whose corner is
    pixel ``(ox, oy)`` a wall crosses: the share of the straight paths from one area's middle
    to the other's, one per pixel along their shared edge, that meet a wall pixel.
    ``(across[row, col], down[row, col])``: between ``(col, row)`` and ``(col + 1, row)``, and
    between ``(col, row)`` and ``(col, row + 1)``."""
    P, half = PIXELS, PIXELS // 2

    def share(wall: np.ndarray, x0: int, y0: int, n_along: int, n_across: int) -> np.ndarray:
        # paths run along axis 1 (x) from area c's middle to area c + 1's, one per pixel row
        run = np.zeros((wall.shape[0], wall.shape[1] + 1), dtype=np.int32)
        np.cumsum(wall, axis=1, out=run[:, 1:])
        start = x0 + np.arange(n_across - 1) * P + half
        hit = (run[:, start + P + 1] - run[:, start]) > 0  # [pixel row, pair]
        rows_of = y0 + np.arange(n_along)[:, None] * P + np.arange(1, P)[None, :]
        return hit[rows_of].mean(axis=1)  # [area row, pair]

    across = share(r.wall, ox, oy, rows, cols) if cols > 1 else np.zeros((rows, 0))
    down = share(r.wall.T, oy, ox, cols, rows).T if rows > 1 else np.zeros((0, cols))
    return across, down
