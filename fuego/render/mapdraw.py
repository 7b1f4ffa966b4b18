"""Printable encounter maps: a pure function of (building, scene or None, options) -> Figures.

:func:`draw_map` draws every level (or the chosen ones) of a building on a 10-ft grid whose
column letters and row numbers are the area names the engine uses (``ground:C4`` is column C,
row 4 of the ``ground`` plan). Nothing is saved or shown here: the ``fuego map`` command saves
the figures (SVG, PNG, or a multipage PDF).

What is drawn, bottom to top:

- the 10-ft grid (optionally a dotted 5-ft sub-grid for miniatures);
- each area shaded by its fuel (Resolve 0-9; outdoor areas pale green), or a forecast's
  heat map when ``options.heat`` is given; burned-out areas dark; smoke hatched (thin ``//``,
  thick ``xx``);
- walls by material (line width and colour: paper, thin/regular/thick wood, thin/regular/thick
  stone), doors and windows with their open/closed state, broken barriers dashed red;
  stairs, ladders, holes and collapsed floors marked on both levels they join;
- routes of fuel (carpet, curtains, hangings, spilt oil, powder trails) as lines through the
  areas' centres; oil, gunpowder and beams as small marks; exits outlined green;
- room names; fires with their Fire Dice; heroes with their initials;
- a legend of exactly what the map shows.

Every artist a test or a tool may look for carries a ``gid`` that the SVG writes as an
``id``: ``area-ground:C4``, ``room-kitchen``, ``barrier-door-closed-12`` (``barrier-<kind>-
<state>-<index>``, state ``closed``/``open`` for doors and windows, ``intact``/``broken`` for
walls, ``open`` for stairs, ladders and holes, ``broken`` for a collapsed floor; vertical links
carry it on their lower level and ``link-<kind>-<index>`` on the upper one), ``route-carpet-0``,
``exit-ground:A1``, ``fire-ground:C4``, ``smoke-thin-ground:C4``, ``burned-ground:C4``,
``hero-Isabela``, ``heat-ground:C4``.

The figure's size is exact: one area is ``options.area_inches`` inches (default 1: a 10-ft
square per inch; 2 gives the 1 inch = 5 ft of battle mats), so a PDF printed at 100% is to
scale. matplotlib is imported inside the functions only. The colour and line tables,
:class:`MapOptions` and the legend are :mod:`fuego.render.map_style`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from fuego.render.map_style import (  # noqa: F401  (importable here)
    BROKEN,
    BURNED,
    DOOR_COLOUR,
    EXIT_COLOUR,
    FIRE_COLOUR,
    GRID,
    HERO_COLOUR,
    OUTDOOR,
    ROUTE_STYLE,
    WALL_STYLE,
    WINDOW_COLOUR,
    WRECK_STYLE,
    MapOptions,
    _initials,
    _legend,
    _legend_height,
    _legend_keys,
    _legend_rows,
    _levels,
    _wall_style,
    barrier_state,
    legend_labels,
)
from fuego.rules.tables import Structure
from fuego.world.building import (
    ALWAYS_OPEN,
    OPENABLE,
    Barrier,
    BarrierKind,
    Building,
    Feature,
    RouteKind,
    column_letters,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from fuego.engine.scene import Scene

__all__ = ["MapOptions", "draw_map", "draw_level", "figure_size", "level_extent",
           "barrier_gid", "WALL_STYLE"]

# -- layout (inches) ------------------------------------------------------------------------------
LEFT, RIGHT, GAP, TOP, BOTTOM = 0.55, 0.45, 0.75, 0.95, 0.45
MIN_WIDTH = 4.5


# -- small helpers --------------------------------------------------------------------------------
_F = TypeVar("_F", bound=Callable)


def literal_text(draw: _F) -> _F:
    """Names are text: ``$`` in a room, title or hero name is drawn as ``$``, never parsed as
    mathtext (every Text made while ``draw`` runs keeps ``parse_math=False``)."""
    @functools.wraps(draw)
    def literally(*args, **kwargs):
        import matplotlib

        with matplotlib.rc_context({"text.parse_math": False}):
            return draw(*args, **kwargs)

    return literally  # type: ignore[return-value]


def _safe(text: str) -> str:
    """An id-friendly form of a name (no spaces or quotes)."""
    return "".join(ch if ch.isalnum() or ch in "-_:.@" else "-" for ch in text)


def barrier_gid(barrier: Barrier) -> str:
    return f"barrier-{barrier.kind.value}-{barrier_state(barrier)}-{barrier.index}"


def level_extent(building: Building, level: int) -> tuple[int, int, int, int]:
    """``(col_min, col_max, row_min, row_max)`` of a level's areas (inclusive)."""
    cols = [a.col for a in building.areas if a.level == level]
    rows = [a.row for a in building.areas if a.level == level]
    if not cols:
        return 0, 0, 0, 0
    return min(cols), max(cols), min(rows), max(rows)


def _level_box(building: Building, level: int, s: float) -> tuple[float, float]:
    c0, c1, r0, r1 = level_extent(building, level)
    return (c1 - c0 + 1) * s, (r1 - r0 + 1) * s


def figure_size(building: Building, scene: Scene | None = None,
                options: MapOptions | None = None) -> list[tuple[float, float]]:
    """The size in inches of each figure :func:`draw_map` makes (exact: no tight cropping)."""
    return [size for size, _ in _layouts(building, scene, options or MapOptions())]


def _layouts(building: Building, scene: Scene | None, options: MapOptions):
    """Per figure: ((width, height), [(level, (x, y, w, h) in inches from the bottom left)])."""
    s = options.area_inches
    levels = _levels(building, options)
    groups = [[lv] for lv in levels] if options.layout == "pages" else [levels]
    out = []
    for group in groups:
        boxes = [_level_box(building, lv, s) for lv in group]
        content_w = sum(w for w, _ in boxes) + GAP * max(0, len(boxes) - 1)
        width = max(MIN_WIDTH, LEFT + content_w + RIGHT)
        n = len(_legend_keys(building, scene, group, options)) if options.legend else 0
        if options.heat is not None and options.legend:
            n += 1
        legend_h = _legend_height(n, width)
        content_h = max((h for _, h in boxes), default=0.0)
        top = TOP + (0.25 if options.subtitle else 0.0)
        height = top + content_h + BOTTOM + legend_h
        x = LEFT + (width - LEFT - RIGHT - content_w) / 2
        placed = []
        for lv, (w, h) in zip(group, boxes):
            y = BOTTOM + legend_h + (content_h - h)  # top-aligned
            placed.append((lv, (x, y, w, h)))
            x += w + GAP
        out.append(((width, height), placed))
    return out


# -- the drawing ----------------------------------------------------------------------------------
@literal_text
def draw_map(building: Building, scene: Scene | None = None,
             options: MapOptions | None = None) -> list[Figure]:
    """Figures of the building (and the scene's fires, smoke and heroes when given).

    One figure with the levels side by side (``layout="side"``) or one per level
    (``layout="pages"``). Pure: nothing is saved, nothing in the scene changes.
    """
    from matplotlib.figure import Figure

    options = options or MapOptions()
    if scene is not None:
        building = scene.building
    figures = []
    for (width, height), placed in _layouts(building, scene, options):
        fig = Figure(figsize=(width, height))
        title = options.title if options.title is not None else (building.title or "fuego map")
        fig.text(0.5, 1 - 0.22 / height, title, ha="center", va="top", fontsize=13,
                 fontweight="bold", gid="map-title")
        if options.subtitle:
            fig.text(0.5, 1 - 0.48 / height, options.subtitle, ha="center", va="top",
                     fontsize=9, color="#444444", gid="map-subtitle")
        for lv, (x, y, w, h) in placed:
            ax = fig.add_axes((x / width, y / height, w / width, h / height))
            draw_level(ax, building, lv, scene, options)
        if options.legend:
            group = [lv for lv, _ in placed]
            _legend(fig, building, scene, group, options, width, height)
        figures.append(fig)
    return figures


def _fs(options: MapOptions, base: float, lo: float = 5.0, hi: float = 14.0) -> float:
    return max(lo, min(hi, base * options.area_inches))


def draw_level(ax: Axes, building: Building, level: int, scene: Scene | None,
               options: MapOptions) -> None:
    """Draw one level's plan into ``ax`` (used by maps and by forecast heat maps)."""
    import matplotlib
    from matplotlib.collections import LineCollection
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle

    b = building
    s = options.area_inches
    lw_scale = max(0.5, min(2.0, s))
    c0, c1, r0, r1 = level_extent(b, level)
    lv = b.levels[level]
    ax.set_xlim(c0, c1 + 1)
    ax.set_ylim(r1 + 1, r0)
    ax.set_aspect("equal", adjustable="box")
    fs_tick = _fs(options, 8, 5, 11)
    ax.set_xticks([c + 0.5 for c in range(c0, c1 + 1)])
    ax.set_xticklabels([column_letters(c) for c in range(c0, c1 + 1)], fontsize=fs_tick)
    ax.set_yticks([r + 0.5 for r in range(r0, r1 + 1)])
    ax.set_yticklabels([str(r + 1) for r in range(r0, r1 + 1)], fontsize=fs_tick)
    ax.tick_params(length=0, pad=2, labeltop=True, labelright=True)
    for spine in ax.spines.values():
        spine.set_visible(False)
    where = f"{lv.name} (elevation {lv.elevation:+d})" if lv.elevation else lv.name
    ax.set_title(where, fontsize=_fs(options, 10, 8, 12), pad=fs_tick + 8,
                 gid=f"level-{_safe(lv.name)}")

    # grid
    gx = [[(c, r0), (c, r1 + 1)] for c in range(c0, c1 + 2)]
    gy = [[(c0, r), (c1 + 1, r)] for r in range(r0, r1 + 2)]
    ax.add_collection(LineCollection(gx + gy, colors=GRID, linewidths=0.5, zorder=1))
    if options.subgrid:
        sx = [[(c + 0.5, r0), (c + 0.5, r1 + 1)] for c in range(c0, c1 + 1)]
        sy = [[(c0, r + 0.5), (c1 + 1, r + 0.5)] for r in range(r0, r1 + 1)]
        ax.add_collection(LineCollection(sx + sy, colors=GRID, linewidths=0.4,
                                         linestyles=":", zorder=1))

    areas = [a for a in b.areas if a.level == level]
    fuel_cmap = matplotlib.colormaps["YlOrBr"]
    heat_cmap = matplotlib.colormaps["inferno_r"]
    heat_norm = Normalize(0.0, 1.0)
    fs_small = _fs(options, 6, 4.5, 9)
    for a in areas:
        outdoors = b.rooms[a.room].outdoors
        if options.heat is not None:
            p = options.heat.get(a.index)
            if p is None or (a.fuel <= 0 and not p):  # nothing to burn here
                colour = OUTDOOR if outdoors else "#ffffff"
            else:
                colour = heat_cmap(0.08 + 0.8 * heat_norm(p))
            rect = Rectangle((a.col, a.row), 1, 1, facecolor=colour, edgecolor="none", zorder=2,
                             gid=f"heat-{_safe(a.name)}")
            ax.add_patch(rect)
            if p is not None and (a.fuel > 0 or p > 0):
                ax.text(a.col + 0.5, a.row + 0.5, f"{round(100 * p)}%", ha="center",
                        va="center", fontsize=_fs(options, 7, 4.5, 10),
                        color="white" if p > 0.55 else "black", zorder=9)
            continue
        if options.fuel and a.fuel > 0:
            colour = fuel_cmap(0.08 + 0.62 * min(a.fuel, 9) / 9)
        elif outdoors:
            colour = OUTDOOR
        else:
            colour = "#ffffff"
        ax.add_patch(Rectangle((a.col, a.row), 1, 1, facecolor=colour, edgecolor="none",
                               zorder=2, gid=f"area-{_safe(a.name)}"))
        if options.fuel and a.fuel > 0 and s >= 0.5:
            ax.text(a.col + 0.94, a.row + 0.94, str(a.fuel), ha="right", va="bottom",
                    fontsize=fs_small, color="#7a5230", zorder=3)
        if a.burned_out:
            ax.add_patch(Rectangle((a.col, a.row), 1, 1, facecolor=BURNED, alpha=0.7,
                                   edgecolor="none", zorder=3, gid=f"burned-{_safe(a.name)}"))
    if scene is not None and scene.smoke is not None:
        for i in sorted(scene.smoke.density):
            d = int(scene.smoke.density[i])
            a = b.areas[i]
            if a.level != level or not d:
                continue
            thick = d == 2
            ax.add_patch(Rectangle((a.col, a.row), 1, 1, fill=False, linewidth=0,
                                   hatch="xxx" if thick else "//",
                                   edgecolor="#404040" if thick else "#8c8c8c", zorder=4,
                                   gid=f"smoke-{'thick' if thick else 'thin'}-{_safe(a.name)}"))

    # exits
    for a in areas:
        if b.is_exit(a.index):
            ax.add_patch(Rectangle((a.col + 0.06, a.row + 0.06), 0.88, 0.88, fill=False,
                                   edgecolor=EXIT_COLOUR, linewidth=1.6 * lw_scale, zorder=5,
                                   gid=f"exit-{_safe(a.name)}"))
            if options.heat is None and (Feature.EXIT in a.features or s >= 0.75):
                ax.text(a.col + 0.5, a.row + 0.1, "EXIT", ha="center", va="top",
                        fontsize=fs_small, color=EXIT_COLOUR, fontweight="bold", zorder=9)

    _outline(ax, b, level, areas, lw_scale)
    for barrier in b.barriers:
        la, lb = b.areas[barrier.a].level, b.areas[barrier.b].level
        if la != level and lb != level:
            continue
        if la != lb:
            _vertical_mark(ax, b, barrier, level, lw_scale, options)
        else:
            _edge(ax, b, barrier, lw_scale)

    _routes(ax, b, level, lw_scale)
    if options.heat is None:  # a heat map keeps to the plan and its numbers
        _features(ax, b, areas, options)
    _room_labels(ax, b, level, scene, options)
    if scene is not None:
        _fires(ax, b, level, scene, options)
        _wrecks(ax, b, level, scene)
        _heroes(ax, b, level, scene, options)


def _outline(ax, b: Building, level: int, areas, lw_scale: float) -> None:
    """Edges where an area has no neighbour (or is not joined to it): the plan's outline."""
    from matplotlib.collections import LineCollection

    segs = []
    for a in areas:
        for dc, dr, seg in ((-1, 0, [(a.col, a.row), (a.col, a.row + 1)]),
                            (1, 0, [(a.col + 1, a.row), (a.col + 1, a.row + 1)]),
                            (0, -1, [(a.col, a.row), (a.col + 1, a.row)]),
                            (0, 1, [(a.col, a.row + 1), (a.col + 1, a.row + 1)])):
            j = b.at(level, a.col + dc, a.row + dr)
            if j is None or b.between(a.index, j) is None:
                segs.append(seg)
    if segs:
        ax.add_collection(LineCollection(segs, colors="#222222", linewidths=1.0 * lw_scale,
                                         zorder=6, capstyle="projecting"))


def _edge_geometry(b: Building, barrier: Barrier):
    """The shared edge of two side-by-side areas: (p0, p1, normal towards a), or None."""
    a, c = b.areas[barrier.a], b.areas[barrier.b]
    dc, dr = c.col - a.col, c.row - a.row
    if abs(dc) + abs(dr) != 1:
        return None
    if dc:
        x = max(a.col, c.col)
        return (x, a.row), (x, a.row + 1), (-dc, 0)
    y = max(a.row, c.row)
    return (a.col, y), (a.col + 1, y), (0, -dr)


def _surround_wall(b: Building, barrier: Barrier) -> Structure | None:
    """The wall a door or window sits in: the sturdier of the two rooms' walls (indoors)."""
    rooms = [b.rooms[b.areas[i].room] for i in (barrier.a, barrier.b)]
    walls = [r.wall for r in rooms if not r.outdoors] or [rooms[0].wall]
    return max(walls, key=lambda w: _wall_style(w)[0])


def _edge(ax, b: Building, barrier: Barrier, lw_scale: float) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Polygon

    geo = _edge_geometry(b, barrier)
    if geo is None:
        return
    (x0, y0), (x1, y1), (nx, ny) = geo
    gid = barrier_gid(barrier)
    kind = barrier.kind
    if kind is BarrierKind.OPEN or kind in ALWAYS_OPEN:
        if b.areas[barrier.a].room != b.areas[barrier.b].room:  # an archway between rooms
            ax.add_line(Line2D([x0, x1], [y0, y1], color="#7f7f7f", lw=1.0 * lw_scale,
                               ls=(0, (1, 2)), zorder=6, gid=gid))
        return
    if kind is BarrierKind.WALL or kind is BarrierKind.FLOOR:
        lw, colour, _ = _wall_style(barrier.structure)
        if barrier.destroyed:
            ax.add_line(Line2D([x0, x1], [y0, y1], color=BROKEN, lw=1.4 * lw_scale,
                               ls=(0, (3, 2)), zorder=7, gid=gid))
        else:
            ax.add_line(Line2D([x0, x1], [y0, y1], color=colour, lw=lw * lw_scale,
                               solid_capstyle="projecting", zorder=7, gid=gid))
        return
    # a door or a window in a wall: stubs of the wall, then the opening in the middle 60%
    lw, colour, _ = _wall_style(_surround_wall(b, barrier))
    ux, uy = x1 - x0, y1 - y0

    def at(t: float, off: float = 0.0) -> tuple[float, float]:
        return x0 + ux * t + nx * off, y0 + uy * t + ny * off

    for t0, t1 in ((0.0, 0.2), (0.8, 1.0)):
        p, q = at(t0), at(t1)
        ax.add_line(Line2D([p[0], q[0]], [p[1], q[1]], color=colour, lw=lw * lw_scale,
                           solid_capstyle="butt", zorder=7))
    door = kind is BarrierKind.DOOR
    half = 0.06 if door else 0.045
    corners = [at(0.2, -half), at(0.8, -half), at(0.8, half), at(0.2, half)]
    if barrier.destroyed:
        ax.add_patch(Polygon(corners, closed=True, fill=False, edgecolor=BROKEN,
                             lw=1.2 * lw_scale, ls=(0, (3, 2)), zorder=8, gid=gid))
        return
    if door:
        fill = DOOR_COLOUR.get(barrier.structure, "#8b5a2b")
    else:
        fill = WINDOW_COLOUR.get(barrier.structure, "#9fd3f0")
    if barrier.closed:
        ax.add_patch(Polygon(corners, closed=True, facecolor=fill, edgecolor="#222222",
                             lw=0.8 * lw_scale, zorder=8, gid=gid))
        if not door:  # the glazing bar of a closed window
            p, q = at(0.2), at(0.8)
            ax.add_line(Line2D([p[0], q[0]], [p[1], q[1]], color="#222222", lw=0.6 * lw_scale,
                               zorder=8))
        return
    ax.add_patch(Polygon(corners, closed=True, facecolor="white", edgecolor="#222222",
                         lw=0.8 * lw_scale, zorder=8, gid=gid))
    # the leaf swung open into area a's side: a door by 90 degrees, a window by a short sash
    length = 0.6 if door else 0.3
    p = at(0.2)
    q = (p[0] + nx * length, p[1] + ny * length)
    ax.add_line(Line2D([p[0], q[0]], [p[1], q[1]], color=fill if not door else "#222222",
                       lw=(2.2 if door else 1.6) * lw_scale, zorder=8))


def _vertical_mark(ax, b: Building, barrier: Barrier, level: int, lw_scale: float,
                   options: MapOptions) -> None:
    """Stairs, ladders, holes, trapdoors and collapsed floors, on both levels they join."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Rectangle

    kind = barrier.kind
    if kind is BarrierKind.FLOOR and not barrier.destroyed:
        return  # every area has a floor: only its loss is marked
    here = barrier.a if b.areas[barrier.a].level == level else barrier.b
    there = barrier.other(here)
    a = b.areas[here]
    up = b.levels[b.areas[there].level].elevation > b.levels[a.level].elevation
    # the barrier's own gid goes on the lower of its two levels
    gid = barrier_gid(barrier) if up else f"link-{kind.value}-{barrier.index}"
    x, y = a.col, a.row
    fs = _fs(options, 6, 4.5, 9)
    if kind is BarrierKind.STAIRS:
        rect = Rectangle((x + 0.12, y + 0.12), 0.76, 0.76,
                         facecolor="#f4f1ea" if options.heat is None else "none",
                         edgecolor="#444444", lw=0.8 * lw_scale, zorder=5, gid=gid)
        ax.add_patch(rect)
        for k in range(1, 6):
            yy = y + 0.12 + 0.76 * k / 6
            ax.add_line(Line2D([x + 0.12, x + 0.88], [yy, yy], color="#444444",
                               lw=0.7 * lw_scale, zorder=5))
    elif kind is BarrierKind.LADDER:
        ax.add_line(Line2D([x + 0.35, x + 0.35], [y + 0.1, y + 0.9], color="#6e4b2a",
                           lw=1.4 * lw_scale, zorder=5, gid=gid))
        ax.add_line(Line2D([x + 0.65, x + 0.65], [y + 0.1, y + 0.9], color="#6e4b2a",
                           lw=1.4 * lw_scale, zorder=5))
        for k in range(1, 5):
            yy = y + 0.1 + 0.8 * k / 5
            ax.add_line(Line2D([x + 0.35, x + 0.65], [yy, yy], color="#6e4b2a",
                               lw=1.0 * lw_scale, zorder=5))
    else:  # a hole, an open hatch, a trapdoor, a collapsed floor
        broken = barrier.destroyed
        closed = kind in OPENABLE and barrier.closed and not broken
        ax.add_patch(Circle((x + 0.5, y + 0.5), 0.3, facecolor="#d5d0c8" if closed else "#555555",
                            alpha=0.8, edgecolor=BROKEN if broken else "#222222",
                            lw=1.2 * lw_scale, ls=(0, (3, 2)) if broken else "-", zorder=5,
                            gid=gid))
    label = "up" if up else "down"
    ax.text(x + 0.5, y + 0.08, label, ha="center", va="top", fontsize=fs, color="#222222",
            zorder=9)


def _routes(ax, b: Building, level: int, lw_scale: float) -> None:
    from matplotlib.lines import Line2D

    for route in b.routes:
        first_level = b.areas[route.areas[0]].level if route.areas else level
        runs: list[list[tuple[float, float]]] = []
        current: list[tuple[float, float]] = []
        for i in route.areas:
            a = b.areas[i]
            if a.level == level:
                current.append((a.col + 0.5, a.row + 0.5))
            elif current:
                runs.append(current)
                current = []
        if current:
            runs.append(current)
        style = ROUTE_STYLE.get(route.kind, ROUTE_STYLE[RouteKind.OTHER])
        for n, run in enumerate(runs):
            gid = f"route-{route.kind.value}-{route.index}"
            if level != first_level or n:
                gid += f"-{_safe(b.levels[level].name)}-{n}"
            xs, ys = zip(*run)
            if len(run) == 1:
                ax.plot(xs, ys, marker="o", ms=5 * lw_scale, color=style["color"],
                        alpha=style["alpha"], zorder=6, gid=gid)
                continue
            ax.add_line(Line2D(xs, ys, color=style["color"], lw=style["lw"] * lw_scale,
                               alpha=style["alpha"], ls=style["ls"], solid_capstyle="round",
                               zorder=6, gid=gid))


def _features(ax, b: Building, areas, options: MapOptions) -> None:
    fs = _fs(options, 6, 4.5, 9)
    for a in areas:
        marks = []
        if Feature.OIL in a.features:
            marks.append(("oil", "#111111"))
        if Feature.GUNPOWDER in a.features:
            marks.append(("powder", "#7b241c"))
        if a.features & {Feature.WOODEN_BEAM, Feature.STONE_BEAM, Feature.LARGE_STONE_BEAM}:
            marks.append(("beam", "#5e3714"))
        for k, (word, colour) in enumerate(marks):
            ax.text(a.col + 0.06, a.row + 0.06 + 0.16 * k, word, ha="left", va="top",
                    fontsize=fs, color=colour, fontweight="bold", zorder=9,
                    gid=f"feature-{word}-{_safe(a.name)}")


def _room_labels(ax, b: Building, level: int, scene: Scene | None, options: MapOptions) -> None:
    fs = _fs(options, 9, 6, 14)
    for key, room in b.rooms.items():
        idx = [i for i in b.room_areas(key) if b.areas[i].level == level]
        if not idx:
            continue
        cx = sum(b.areas[i].col + 0.5 for i in idx) / len(idx)
        cy = sum(b.areas[i].row + 0.5 for i in idx) / len(idx)
        # the room's own area nearest its centre (an L-shaped room keeps its label inside)
        best = min(idx, key=lambda i: ((b.areas[i].col + 0.5 - cx) ** 2
                                      + (b.areas[i].row + 0.5 - cy) ** 2, i))
        a = b.areas[best]
        inside = len(idx) > 1 and abs(a.col + 0.5 - cx) < 0.01 and abs(a.row + 0.5 - cy) < 0.01
        x, y = (cx, cy) if inside or len(idx) == 1 else (a.col + 0.5, a.row + 0.5)
        text = room.name or key
        if scene is not None and key in scene.flashed:
            text += " (flashover)"
        # below the centre so a fire or hero there stays readable
        ax.text(x, y + 0.3, text, ha="center", va="center", fontsize=fs,
                fontstyle="italic" if room.outdoors else "normal",
                color=EXIT_COLOUR if room.outdoors else "#1b1b1b", zorder=10,
                bbox=dict(boxstyle="round,pad=0.15", facecolor="white", alpha=0.75,
                          edgecolor="none"),
                gid=f"room-{_safe(key)}")


def _fires(ax, b: Building, level: int, scene: Scene, options: MapOptions) -> None:
    from matplotlib.patches import Circle

    fs = _fs(options, 9, 5, 14)
    for i in sorted(scene.fires):
        fire = scene.fires[i]
        a = b.areas[i]
        if a.level != level:
            continue
        state = fire.state.value
        if state == "flame":
            colour = FIRE_COLOUR["flame"]
        else:
            colour = FIRE_COLOUR.get(fire.temperature.value, FIRE_COLOUR["regular"])
        r = 0.2 + 0.018 * fire.fd
        ax.add_patch(Circle((a.col + 0.5, a.row + 0.45), r, facecolor=colour, edgecolor="#7b241c",
                            lw=1.0, zorder=11, gid=f"fire-{_safe(a.name)}"))
        ax.text(a.col + 0.5, a.row + 0.45, str(fire.fd), ha="center", va="center", fontsize=fs,
                fontweight="bold", color="white" if state != "flame" else "#7b241c", zorder=12)


def _wrecks(ax, b: Building, level: int, scene: Scene) -> None:
    """A burning wreck (module wrecks): a dark cart body with a flame-coloured rim, low in its
    area (a fire there keeps the middle)."""
    from matplotlib.patches import FancyBboxPatch

    from fuego.modules.wrecks import burning_wrecks

    for wreck in burning_wrecks(scene):
        a = b.areas[wreck.area]
        if a.level == level:
            ax.add_patch(FancyBboxPatch((a.col + 0.22, a.row + 0.66), 0.56, 0.2,
                                        boxstyle="round,pad=0.02", **WRECK_STYLE, zorder=11,
                                        gid=f"wreck-{_safe(a.name)}"))


def _heroes(ax, b: Building, level: int, scene: Scene, options: MapOptions) -> None:
    from matplotlib.patches import Circle

    fs = _fs(options, 7, 4.5, 11)
    spots = [(0.22, 0.22), (0.78, 0.22), (0.22, 0.78), (0.78, 0.78)]
    count: dict[int, int] = {}
    crowd: dict[int, int] = {}
    for hero in scene.heroes:
        crowd[hero.area] = crowd.get(hero.area, 0) + 1
    for hero in scene.heroes:
        a = b.areas[hero.area]
        if a.level != level:
            continue
        n = count.get(hero.area, 0)
        count[hero.area] = n + 1
        dx, dy = spots[n % 4]
        status = hero.status.value
        colour = HERO_COLOUR.get(status, HERO_COLOUR["active"])
        x, y = a.col + dx, a.row + dy
        ax.add_patch(Circle((x, y), 0.15, facecolor=colour, edgecolor="#0b2e4a", lw=1.0,
                            ls="--" if status == "escaped" else "-", zorder=13,
                            gid=f"hero-{_safe(hero.name)}"))
        ax.text(x, y, _initials(hero.name), ha="center", va="center", fontsize=fs,
                color="white" if status != "escaped" else "#0b2e4a", fontweight="bold", zorder=14)
        if crowd[hero.area] == 1 and options.area_inches >= 0.75:  # else the legend names them
            ax.text(x, y + 0.2, hero.name, ha="center", va="top", fontsize=max(4.5, fs - 1.5),
                    color="#0b2e4a", zorder=14)


def count_drawn(building: Building, levels: Iterable[int] | None = None) -> dict[str, int]:
    """How many ``barrier-<kind>-*`` gids a map of these levels carries, by kind.

    Walls, doors and windows between two areas of a drawn level, archways between rooms, and
    vertical links (stairs, ladders, holes, trapdoors, collapsed floors) whose lower level is
    drawn. Intact floors are not drawn.
    """
    b = building
    on = set(levels) if levels is not None else {lv.index for lv in b.levels}
    out: dict[str, int] = {}
    for barrier in b.barriers:
        la, lb = b.areas[barrier.a].level, b.areas[barrier.b].level
        if la == lb:
            if la not in on or _edge_geometry(b, barrier) is None:
                continue
            if barrier.kind in ALWAYS_OPEN and b.areas[barrier.a].room == b.areas[barrier.b].room:
                continue
        else:
            if barrier.kind is BarrierKind.FLOOR and not barrier.destroyed:
                continue
            low = min((barrier.a, barrier.b), key=lambda i: b.levels[b.areas[i].level].elevation)
            if b.areas[low].level not in on:
                continue
        out[barrier.kind.value] = out.get(barrier.kind.value, 0) + 1
    return out
