"""Map styles and the legend: how a printable map looks and what its key says.

The colours and line widths by material, route, fire and hero (:data:`WALL_STYLE`,
:data:`ROUTE_STYLE`, ...), the drawing options (:class:`MapOptions`) and the legend of exactly
what a map shows. :mod:`fuego.render.mapdraw` draws the plan with them. matplotlib is imported
inside the functions only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from fuego.rules.charts import Structure, Temperature
from fuego.world.building import Building
from fuego.world.places import (
    ALWAYS_OPEN,
    BEAM_STRUCTURE,
    OPENABLE,
    Area,
    Barrier,
    BarrierKind,
    Feature,
    RouteKind,
)

if TYPE_CHECKING:
    from fuego.engine.fire import Fire
    from fuego.engine.scene import Scene
    from fuego.engine.sight import PlayersSight

# -- styles ---------------------------------------------------------------------------------------
#: Wall line width (points at 1 inch per area) and colour, by material.
WALL_STYLE: dict[Structure | None, tuple[float, str, str]] = {
    Structure.PAPER_WALL: (1.2, "#c9b27c", "paper wall"),
    Structure.THIN_WOODEN_WALL: (2.0, "#b07a45", "thin wooden wall"),
    Structure.WOODEN_WALL: (3.2, "#8b5a2b", "wooden wall"),
    Structure.THICK_WOODEN_WALL: (5.0, "#5e3714", "thick wooden wall"),
    Structure.THIN_STONE_WALL: (3.2, "#9a9a9a", "thin stone wall"),
    Structure.STONE_WALL: (5.0, "#5f5f5f", "stone wall"),
    Structure.THICK_STONE_WALL: (7.0, "#2f2f2f", "thick stone wall"),
    Structure.WOODEN_FLOOR: (3.2, "#8b5a2b", "wooden floor"),
    Structure.STONE_FLOOR: (5.0, "#5f5f5f", "stone floor"),
    None: (2.5, "#444444", "wall"),
}
DOOR_COLOUR = {
    Structure.THIN_WOODEN_DOOR: "#c8935a",
    Structure.WOODEN_DOOR: "#8b5a2b",
    Structure.THICK_WOODEN_DOOR: "#5e3714",
}
WINDOW_COLOUR = {Structure.GLASS_WINDOW: "#9fd3f0", Structure.PAPERED_WINDOW: "#f3e6c4"}
BROKEN = "#c0392b"
ROUTE_STYLE: dict[RouteKind, dict[str, Any]] = {
    RouteKind.CARPET: dict(color="#b03a2e", lw=6.0, alpha=0.45, ls="-"),
    RouteKind.CURTAINS: dict(color="#7d3c98", lw=2.5, alpha=0.8, ls="--"),
    RouteKind.HANGINGS: dict(color="#7d3c98", lw=2.5, alpha=0.8, ls="-."),
    RouteKind.OIL: dict(color="#111111", lw=3.0, alpha=0.85, ls=":"),
    RouteKind.FUSE: dict(color="#555555", lw=1.5, alpha=0.9, ls=(0, (6, 2, 1, 2))),
    RouteKind.OTHER: dict(color="#b7950b", lw=2.5, alpha=0.7, ls="-"),
}
FIRE_COLOUR = {"regular": "#e67e22", "hot": "#c0392b", "cold": "#f5b041", "flame": "#f7dc6f"}
HERO_COLOUR = {"active": "#2e86c1", "knocked-out": "#7f8c8d", "dead": "#111111",
               "escaped": "#aed6f1"}
OUTDOOR = "#eaf4e4"
WRECK_STYLE: dict[str, Any] = dict(facecolor="#4a2c17", edgecolor=FIRE_COLOUR["regular"], lw=1.6)
EXIT_COLOUR = "#1e8449"
#: A fire break (module fire-breaks) by the class it was cleared to: bare earth stippled brown
#: (``clear``), or the fuel's shade stippled sparser (``light``, thinned to scrub): dots, so
#: smoke's diagonal hatching over it never reads as thicker smoke; the words the legends say
#: (the printed map's and ``fuego show``'s).
FIRE_BREAK_STYLE: dict[str, dict[str, Any]] = {
    "clear": dict(facecolor="#eee0c6", edgecolor="#8a5a2e", hatch=".."),
    "light": dict(facecolor="none", edgecolor="#8a5a2e", hatch="."),
}
FIRE_BREAK_WORDS = {"clear": "cleared to bare ground", "light": "thinned to scrub"}
BURNED = "#3b3b3b"
#: The 10-ft grid, drawn over the fills at a weight that prints (points at 1 inch per area),
#: and the 5-ft sub-grid of ``--subgrid``.
GRID = "#6f6f6f"
GRID_LW = 0.6
SUBGRID = "#a3a3a3"
SUBGRID_LW = 0.35
HIDDEN_FIRE = "#8e44ad"
#: What is not part of the building (solid rock, open air, beyond the plan's ragged edge): grey,
#: hatched, so nobody takes it for an empty room.
VOID: dict[str, Any] = dict(facecolor="#d6d6d6", edgecolor="#8f8f8f", hatch="////", lw=0)
#: The plan's edge where an outdoor area meets it (the street goes on): a thin grey line.
PLAN_EDGE = "#9a9a9a"
#: No text on a printed map is smaller than this (points at print size).
MIN_PT = 8.0
#: From this many inches per 10-ft area (a 5-ft square 0.75 in or more) ``fuego map`` draws
#: the 5-ft grid unless told not to: at 1 in per 5 ft that is the 1-inch grid of battle mats.
SUBGRID_FROM = 1.5
#: Tiled pages share a strip this wide (inches, about 6 mm) with their neighbours.
OVERLAP = 0.25

#: Paper sizes (portrait inches) for ``--paper``; the printable area keeps MARGIN all round.
PAPER: dict[str, tuple[float, float]] = {"letter": (8.5, 11.0), "a4": (8.27, 11.69)}
PAPER_MARGIN = 0.4
#: Territories that print on Letter (LC_PAPER / LANG ``xx_US.UTF-8``); A4 everywhere else.
LETTER_TERRITORIES = frozenset({"US", "CA", "MX", "PH", "CL", "CO", "VE", "PR", "GT", "CR",
                                "PA", "SV", "DO", "NI", "BZ"})


def subgrid_default(area_inches: float) -> bool:
    """Whether ``fuego map`` draws the 5-ft grid when neither ``--subgrid`` nor
    ``--no-subgrid`` is given."""
    return area_inches >= SUBGRID_FROM - 1e-9


def default_paper(environ: dict[str, str] | None = None) -> str:
    """``letter`` where the locale's territory prints on Letter (LC_ALL, LC_PAPER, LANG in
    that order), else ``a4``."""
    import os

    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_PAPER", "LANG"):
        value = env.get(var)
        if not value:
            continue
        territory = value.split(".")[0].split("@")[0].partition("_")[2].upper()
        return "letter" if territory in LETTER_TERRITORIES else "a4"
    return "a4"


@dataclass(frozen=True)
class MapOptions:
    """How to draw. ``levels``: level indices to draw (None: all, in elevation order).

    ``layout``: ``"side"`` (one figure, levels side by side: SVG, PNG) or ``"pages"`` (one
    figure per level: PDF). ``heat``: area index -> 0..1 to shade instead of fuel (forecasts).
    """

    levels: tuple[int, ...] | None = None
    area_inches: float = 1.0
    layout: str = "side"
    fuel: bool = True
    legend: bool = True
    subgrid: bool = False
    title: str | None = None
    subtitle: str = ""
    heat: dict[int, float] | None = None
    heat_label: str = "probability"
    #: ``letter`` or ``a4``: with ``layout="pages"`` every page is that paper and a level
    #: larger than a page is tiled across pages; None: one page per level at its own size.
    paper: str | None = None
    #: draw fires hidden from every hero in play (the GM's map); else they are left out
    gm: bool = True
    #: the heroes' tokens (a battle map for a virtual tabletop leaves them to its own tokens)
    tokens: bool = True
    #: room names and the way-out marks
    labels: bool = True
    #: what the players see (:func:`fuego.engine.sight.players_sight`): fires, smoke, burned-out
    #: areas and burning wrecks only where they see at all (clearly or as shapes); None: all
    sight: PlayersSight | None = None

    def shows(self, area: int, fire: bool = False) -> bool:
        """Is what burns or smokes in ``area`` drawn? (``fire``: a fire there, seen as a fire.)"""
        if self.sight is None:
            return True
        return area in (self.sight.fires if fire else self.sight.in_view)


# -- small helpers --------------------------------------------------------------------------------
def drawn_levels(building: Building, options: MapOptions) -> list[int]:
    if options.levels is not None:
        return list(options.levels)
    used = {a.level for a in building.areas}
    return [lv.index for lv in sorted(building.levels, key=lambda lv: (lv.elevation, lv.index))
            if lv.index in used]


def level_extent(building: Building, level: int) -> tuple[int, int, int, int]:
    """``(col_min, col_max, row_min, row_max)`` of a level's areas (inclusive)."""
    cols = [a.col for a in building.areas if a.level == level]
    rows = [a.row for a in building.areas if a.level == level]
    if not cols:
        return 0, 0, 0, 0
    return min(cols), max(cols), min(rows), max(rows)


#: The four sides of an area: (column step, row step) to the neighbour across it.
SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))


def void_cells(building: Building, level: int) -> list[tuple[int, int]]:
    """The squares of a level's plan that are no area (``#``, a space, past a short line):
    solid rock, open air, nothing of the building."""
    c0, c1, r0, r1 = level_extent(building, level)
    if not any(a.level == level for a in building.areas):
        return []
    return [(c, r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)
            if building.at(level, c, r) is None]


def outer_sides(building: Building, level: int) -> list[tuple[int, tuple[int, int]]]:
    """``(area, side)`` for every side of a level's areas with no area across it (the plan's
    edge, or a square that is no area): an indoor area's outer wall; an outdoor area's edge of
    the plan."""
    b = building
    return [(a.index, (dc, dr)) for a in b.areas if a.level == level for dc, dr in SIDES
            if b.at(level, a.col + dc, a.row + dr) is None]


def outer_walls(building: Building, levels) -> set[Structure]:
    """The materials of the outer walls of these levels' indoor rooms (for the legend)."""
    b = building
    return {b.rooms[b.areas[i].room].wall for lv in levels for i, _ in outer_sides(b, lv)
            if not b.rooms[b.areas[i].room].outdoors}


def exit_runs(building: Building, level: int) -> list[list[int]]:
    """The level's ways out as runs: each run the exit areas joined side to side (a street
    along the front is one run; two gates apart are two), in plan order; one EXIT mark each."""
    import networkx as nx

    b = building
    exits = [a for a in b.areas if a.level == level and b.is_exit(a.index)]
    grid = nx.Graph()
    grid.add_nodes_from(a.index for a in exits)
    for a in exits:
        for dc, dr in ((1, 0), (0, 1)):
            j = b.at(level, a.col + dc, a.row + dr)
            if j is not None and j in grid:
                grid.add_edge(a.index, j)
    key = lambda i: (b.areas[i].row, b.areas[i].col)  # noqa: E731
    runs = [sorted(c, key=key) for c in nx.connected_components(grid)]
    return sorted(runs, key=lambda run: key(run[0]))


class Drawn(str, Enum):
    """A barrier's state as a map draws it, and as its ids and the players' page name it."""

    OPEN = "open"
    CLOSED = "closed"
    BROKEN = "broken"
    INTACT = "intact"  # a wall or floor standing
    UNSEEN = "unseen"  # the players' page: where it is, not how it stands


def barrier_state(barrier: Barrier) -> Drawn:
    if barrier.destroyed:
        return Drawn.BROKEN
    if barrier.kind in OPENABLE:
        return Drawn.CLOSED if barrier.closed else Drawn.OPEN
    if barrier.kind in ALWAYS_OPEN:
        return Drawn.OPEN
    return Drawn.INTACT


def fires_drawn(scene: Scene, options: MapOptions) -> dict[int, bool]:
    """The fires a map draws, by area, each with whether it is marked hidden (003's hidden
    fires: a players' hero looks and none sees it, :meth:`fuego.engine.sight.PlayersSight.hides`,
    the one sight every players' output reads). The GM's map (``gm``) draws every fire, the
    players' only those their heroes see; with every hero down none is hidden from anyone, and
    the GM's map draws each as it burns."""
    from fuego.engine.sight import players_sight

    sight = players_sight(scene)
    out: dict[int, bool] = {}
    for i in scene.fires:
        if not options.shows(i, fire=True):
            continue
        if options.gm:
            out[i] = sight.hides(i)
        elif i in sight.fires:
            out[i] = False
    return out


class Legend(str, Enum):
    """An entry of a printed map's legend, in the legend's order; a key is a tuple that begins
    with one (``(Legend.DOOR, Drawn.CLOSED)``, ``(Legend.HERO, 2)``)."""

    FUEL = "fuel"
    OUTDOORS = "outdoors"
    VOID = "void"
    WALL = "wall"
    DOOR = "door"
    WINDOW = "window"
    BROKEN = "broken"
    STAIRS = "stairs"
    LADDER = "ladder"
    HOLE = "hole"
    COLLAPSED = "collapsed"
    ROUTE = "route"
    FEATURE = "feature"
    EXIT = "exit"
    FIRE_BREAK = "fire-break"
    FIRE = "fire"
    WRECK = "wreck"
    SMOKE = "smoke"
    BURNED = "burned"
    HERO = "hero"


class FireMark(str, Enum):
    """How a map marks a fire (its legend entry's second word; ``FIRE_COLOUR``'s keys)."""

    REGULAR = "regular"
    HOT = "hot"
    COLD = "cold"
    FLAME = "flame"
    HIDDEN = "hidden"  # no players' hero sees it (GM only)


def fire_mark(fire: Fire) -> FireMark:
    """How a map colours a fire: a new flame, or by its temperature (hot, cold, regular);
    the GM's mark for a fire no hero sees keeps it, in a dashed outline."""
    from fuego.engine.fire import FireState

    if fire.state is FireState.FLAME:
        return FireMark.FLAME
    return {Temperature.HOT: FireMark.HOT, Temperature.COLD: FireMark.COLD}.get(
        fire.temperature, FireMark.REGULAR)


#: The GM's mark for a fire no players' hero sees: its own colour in a dashed purple outline
#: (its kind still shows; a fire they see has a thin solid one).
HIDDEN_STYLE: dict[str, Any] = dict(edgecolor=HIDDEN_FIRE, lw=1.8, ls=(0, (3, 2)))


#: The features a map marks by a word: those that burn like no other fuel (hot, and oil
#: runs), in the order an area's words are placed, and the beams (:data:`BEAM_MARK`, any kind).
WORD_FEATURES = (Feature.OIL, Feature.GUNPOWDER, Feature.EXPLOSIVE)
BEAM_MARK = "beam"
#: What the map writes in an area for each feature, and its colour (the legend shows the same).
FEATURE_MARK: dict[str, tuple[str, str]] = {
    Feature.OIL.value: ("oil", "#111111"),
    Feature.GUNPOWDER.value: ("powder", "#7b241c"),
    Feature.EXPLOSIVE.value: ("blast", "#b03a2e"),
    BEAM_MARK: ("beam", "#5e3714"),
}
FEATURE_LABEL = {Feature.OIL.value: "oil (spilt or stored)",
                 Feature.GUNPOWDER.value: "gunpowder",
                 Feature.EXPLOSIVE.value: "explosive (a keg of spirits, lamp gas)",
                 BEAM_MARK: "beam (may fall when burned)"}


def feature_marks(area: Area) -> list[str]:
    """The words (:data:`FEATURE_MARK`'s keys) an area's features are marked by, in order:
    oil, gunpowder, explosive, then one for its beams."""
    keys = [f.value for f in WORD_FEATURES if f in area.features]
    if area.features & BEAM_STRUCTURE.keys():
        keys.append(BEAM_MARK)
    return keys


#: A numbered note's number, as the map draws it.
NOTE_INK = "#1b1b1b"


class _Word:
    """A legend handle that is a word, drawn as the map draws it (see :func:`_word_handler`)."""

    def __init__(self, word: str, colour: str) -> None:
        self.word, self.colour = word, colour


def _word_handler():
    from matplotlib.legend_handler import HandlerBase
    from matplotlib.text import Text

    class HandlerWord(HandlerBase):
        def create_artists(self, legend, orig_handle, xdescent, ydescent, width, height,
                           fontsize, trans):
            text = Text(width / 2 - xdescent, height / 2 - ydescent, orig_handle.word,
                        ha="center", va="center", fontsize=fontsize, fontweight="bold",
                        color=orig_handle.colour, transform=trans, usetex=False)
            text.set_parse_math(False)
            return [text]

    return HandlerWord()


def shows_routes(options: MapOptions) -> bool:
    """Routes of fuel are fuel marks (``--no-fuel`` hides them); a heat map keeps them, as the
    way its fire runs."""
    return options.fuel or options.heat is not None


def wall_style(structure: Structure | None) -> tuple[float, str, str]:
    return WALL_STYLE.get(structure, WALL_STYLE[None])


def token_words(name: str) -> list[str]:
    """The words of a name that a token's letters come from: each word's letters and digits,
    a word with none left out (``Bo [red]``: Bo, red; a bracket is not a letter to draw)."""
    kept = ("".join(c for c in word if c.isalnum()) for word in name.split())
    return [word for word in kept if word]


def initials(name: str) -> str:
    """A token's letters: the first of the name's first two words (``Isabela Soldano`` IS)."""
    return "".join(w[0] for w in token_words(name)[:2]).upper() or "?"


# -- the legend -----------------------------------------------------------------------------------
def legend_keys(building: Building, scene: Scene | None, levels: list[int],
                options: MapOptions) -> list[tuple]:
    """What the legend will list (computed before drawing, so the figure can be sized)."""
    b = building
    on = set(levels)
    keys: set[tuple] = set()
    for area in b.areas:
        if area.level in on:
            keys |= _area_keys(b, area, options)
    for barrier in b.barriers:
        key = _barrier_key(barrier)
        if key is not None and (b.areas[barrier.a].level in on or b.areas[barrier.b].level in on):
            keys.add(key)
    keys |= {(Legend.WALL, w) for w in outer_walls(b, on)}
    if any(void_cells(b, lv) for lv in on):
        keys.add((Legend.VOID,))
    for route in b.routes:
        if shows_routes(options) and any(b.areas[i].level in on for i in route.areas):
            keys.add((Legend.ROUTE, route.kind))
    if scene is not None:
        keys |= _scene_keys(b, scene, on, options)
    order = list(Legend)
    return sorted(keys, key=lambda k: (order.index(k[0]), k[1] if k[0] is Legend.HERO else 0,
                                       str(k[1:])))


def _area_keys(b: Building, area: Area, options: MapOptions) -> set[tuple]:
    """What one area shows: fuel, the open air (where no fuel shade covers it), a way out, oil,
    gunpowder, explosives or beams (not on a heat map or with --no-fuel), burned out."""
    keys: set[tuple] = set()
    fuel_marks = options.heat is None and options.fuel
    if fuel_marks and area.fuel > 0:
        keys.add((Legend.FUEL,))
    if b.rooms[area.room].outdoors and not (fuel_marks and area.fuel > 0):
        keys.add((Legend.OUTDOORS,))  # drawn pale green (a street with fuel is shaded by it)
    if b.is_exit(area.index) and options.labels:
        keys.add((Legend.EXIT,))
    if fuel_marks:  # --no-fuel: no feature marks at all
        keys |= {(Legend.FEATURE, word) for word in feature_marks(area)}
    if area.burned_out and options.shows(area.index):
        keys.add((Legend.BURNED,))
    return keys


def _barrier_key(barrier: Barrier) -> tuple | None:
    """How a barrier is drawn: a collapsed floor, a gap, a wall by its material, a door or
    window by its state, stairs, a ladder or a hole (None: an intact floor or an opening,
    nothing of its own)."""
    kind = barrier.kind
    if barrier.destroyed and kind is BarrierKind.FLOOR:
        return (Legend.COLLAPSED,)
    if barrier.destroyed:
        return (Legend.BROKEN,)
    if kind is BarrierKind.WALL:
        return (Legend.WALL, barrier.structure)
    if kind in OPENABLE:
        return (Legend(kind.value), barrier_state(barrier))
    if kind in (BarrierKind.STAIRS, BarrierKind.LADDER, BarrierKind.HOLE):
        return (Legend(kind.value),)
    return None


def _scene_keys(b: Building, scene: Scene, on: set[int], options: MapOptions) -> set[tuple]:
    """What the scene shows on the levels drawn: fires (hot, regular, or hidden on the GM's
    map), smoke by density, the heroes' tokens, burning wrecks, the fire break."""
    from fuego.engine.smoke import SMOKE_WORDS
    from fuego.modules.fire_breaks import cleared_by_area
    from fuego.modules.wrecks import burning_wrecks
    from fuego.rules.charts import Density

    keys = _fire_keys(b, scene, on, options)
    if options.heat is None:
        keys |= {(Legend.FIRE_BREAK, klass) for i, klass in cleared_by_area(scene).items()
                 if b.areas[i].level in on}
    if scene.smoke is not None:
        for i, d in scene.smoke.density.items():
            if b.areas[i].level in on and int(d) and options.shows(i):
                keys.add((Legend.SMOKE, SMOKE_WORDS[Density(int(d))]))
    for k, hero in enumerate(scene.heroes if options.tokens else ()):
        if b.areas[hero.area].level in on:
            keys.add((Legend.HERO, k))
    if any(b.areas[w.area].level in on and options.shows(w.area) for w in burning_wrecks(scene)):
        keys.add((Legend.WRECK,))
    return keys


def _fire_keys(b: Building, scene: Scene, on: set[int], options: MapOptions) -> set[tuple]:
    """The fires shown: hot or regular; one hidden from every hero only on the GM's map."""
    keys: set[tuple] = set()
    for i, hidden in fires_drawn(scene, options).items():
        if b.areas[i].level in on:
            if not hidden:
                keys.add((Legend.FIRE, FireMark.HOT if scene.fires[i].temperature is
                          Temperature.HOT else FireMark.REGULAR))
            else:  # the GM's: hidden, of its kind
                keys.add((Legend.FIRE, FireMark.HIDDEN, fire_mark(scene.fires[i])))
    return keys


def legend_rows(n: int, width: float) -> tuple[int, int]:
    # a column fits the longest entry ("broken wall, door or window (a gap)") at MIN_PT
    ncol = max(1, min(5, int((width - 0.3) // 3.2)))
    return ncol, math.ceil(n / ncol) if n else 0


#: Of a legend's column, the em (at MIN_PT) that are not its entries' words: the handle
#: (``handlelength``), the pad after it, the frame's pad each side and the space to the next.
LEGEND_HANDLE_EM = 3.6 + 0.8 + 2 * 0.4 + 1.2


def legend_text_width(width: float) -> float:
    """The inches an entry's words may take in a legend ``width`` inches wide
    (:func:`legend_rows`' columns): longer, they wrap, or the legend would run off the page."""
    ncol, _ = legend_rows(1, width)
    return (width - 0.3) / ncol - LEGEND_HANDLE_EM * MIN_PT / 72


#: The legend as matplotlib lays it out at MIN_PT, in points: each line of an entry and the
#: frame's padding at 72 dpi (a PDF's, the tallest: a PNG's at 150 dpi is a point a line
#: shorter), a little over (an accent or a fallback font's letter adds a fraction of a
#: point); and the gap between its anchor and its frame (``borderaxespad``, in em).
LEGEND_LINE_PT, LEGEND_PAD_PT, LEGEND_AXESPAD = 13.2, 3.0, 0.2


def legend_columns(lines: Sequence[int], ncol: int) -> list[list[int]]:
    """Entries (their lines each) in ``ncol`` columns as matplotlib sets them: in order, the
    first columns one longer where they do not divide evenly."""
    size, more = divmod(len(lines), ncol)
    out, k = [], 0
    for c in range(ncol):
        n = size + (1 if c < more else 0)
        out.append(list(lines[k:k + n]))
        k += n
    return [col for col in out if col]


def legend_height(lines: Sequence[int], width: float) -> float:
    """The height in inches of a legend ``width`` inches wide of entries of these many lines
    each, from its anchor to its frame's far edge: as tall as its tallest column
    (:func:`legend_rows`, :func:`legend_columns`); 0 for no entries. Never shorter than the
    legend draws, so what is sized round it is never overlapped."""
    if not lines:
        return 0.0
    ncol, _ = legend_rows(len(lines), width)
    tallest = max(sum(col) for col in legend_columns(lines, ncol))
    return (LEGEND_AXESPAD * MIN_PT + LEGEND_PAD_PT + LEGEND_LINE_PT * tallest) / 72


def draw_legend(fig, b: Building, scene: Scene | None, levels: list[int], options: MapOptions,
                width: float, height: float, top: float,
                notes: Sequence[tuple[int | None, str]] = ()) -> None:
    """The legend, ``width`` inches wide at most (its columns: :func:`legend_rows`), centred,
    hanging from ``top`` inches above the figure's foot (the room :func:`legend_height` says
    under it): what the map shows, then ``notes``, the numbered
    notes of the words that had no room on the plan (``1  Powder Magazine``: the 1 at the
    room; one with no number says where its thing is)."""
    import matplotlib
    from matplotlib.patches import Patch

    handles: list[Any] = []
    labels: list[str] = []
    for key in legend_keys(b, scene, levels, options):
        entry = _LEGEND[key[0]](key, scene)
        if entry is not None:
            handles.append(entry[0])
            labels.append(entry[1])
    if options.heat is not None:
        handles.append(Patch(facecolor=matplotlib.colormaps["inferno_r"](0.5),
                             edgecolor="#999999"))
        labels.append(options.heat_label)
    for number, words in notes:
        handles.append(_Word(str(number) if number is not None else "-", NOTE_INK))
        labels.append(words)
    if not handles:
        return
    ncol, _ = legend_rows(len(handles), width)
    leg = fig.legend(handles, labels, loc="upper center", ncol=ncol, fontsize=MIN_PT,
                     frameon=True, bbox_to_anchor=(0.5, top / height), handlelength=3.6,
                     columnspacing=1.2, borderaxespad=LEGEND_AXESPAD,
                     handler_map={_Word: _word_handler()})
    for text in leg.get_texts():  # names are text, never mathtext
        text.set_parse_math(False)
    leg.set_gid("legend")


# Each legend entry's handle and words, from its key (and the scene, for a hero's).
def _patch(**style: Any) -> Any:
    from matplotlib.patches import Patch

    return Patch(**style)


def _line(**style: Any) -> Any:
    from matplotlib.lines import Line2D

    return Line2D([], [], **style)


def _fuel_entry(key: tuple, scene: Scene | None) -> tuple[Any, str]:
    import matplotlib

    return (_patch(facecolor=matplotlib.colormaps["YlOrBr"](0.08 + 0.62 * 5 / 9),
                   edgecolor="#999999"), "fuel (shade and number: Resolve 1-9)")


def _wall_entry(key: tuple, scene: Scene | None) -> tuple[Any, str]:
    lw, colour, label = wall_style(key[1])
    return _line(color=colour, lw=lw), label


def _opening_entry(key: tuple, scene: Scene | None) -> tuple[Any, str]:
    kind, state = key
    shut = "#8b5a2b" if kind is Legend.DOOR else "#9fd3f0"
    return (_patch(facecolor=shut if state is Drawn.CLOSED else "white", edgecolor="#222222"),
            f"{kind.value} ({state.value})")


def _route_entry(key: tuple, scene: Scene | None) -> tuple[Any, str]:
    style = ROUTE_STYLE.get(key[1], ROUTE_STYLE[RouteKind.OTHER])
    return (_line(color=style["color"], lw=style["lw"], alpha=style["alpha"], ls=style["ls"]),
            f"{key[1].value} (fire runs along it)")


def _feature_entry(key: tuple, scene: Scene | None) -> tuple[Any, str]:
    word, colour = FEATURE_MARK[key[1]]
    return _Word(word, colour), FEATURE_LABEL[key[1]]


def _fire_entry(key: tuple, scene: Scene | None) -> tuple[Any, str]:
    if key[1] is FireMark.HIDDEN:
        kind = key[2]
        what = {FireMark.FLAME: "flame", FireMark.HOT: "hot fire", FireMark.COLD: "cold fire"
                }.get(kind, "fire")
        return (_patch(facecolor=FIRE_COLOUR[kind.value], **HIDDEN_STYLE),
                f"{what} no hero sees (GM only: its colour, dashed)")
    hot = key[1] is FireMark.HOT
    return (_line(lw=0, marker="o", ms=10, markerfacecolor=FIRE_COLOUR[key[1].value],
                  markeredgecolor="#7b241c"),
            "hot fire (flashover)" if hot else "fire (number: Fire Dice)")


def _fire_break_entry(key: tuple, scene: Scene | None) -> tuple[Any, str]:
    return _patch(**FIRE_BREAK_STYLE[key[1]]), f"fire break: {FIRE_BREAK_WORDS[key[1]]}"


def _smoke_entry(key: tuple, scene: Scene | None) -> tuple[Any, str]:
    from fuego.engine.smoke import SMOKE_WORDS
    from fuego.rules.charts import Density

    thick = key[1] == SMOKE_WORDS[Density.THICK]
    return (_patch(facecolor="white", edgecolor="#404040" if thick else "#8c8c8c",
                   hatch="xxx" if thick else "//"), f"{key[1]} smoke")


def _hero_entry(key: tuple, scene: Scene | None) -> tuple[Any, str] | None:
    from fuego.engine.heroes import Status

    if scene is None:
        return None
    hero = scene.heroes[key[1]]
    label = f"{initials(hero.name)} {hero.name}"
    if hero.status is not Status.ACTIVE:
        label += f" ({hero.status.value})"
    return (_line(lw=0, marker="o", ms=9,
                  markerfacecolor=HERO_COLOUR.get(hero.status.value, "#2e86c1"),
                  markeredgecolor="#0b2e4a"), label)


def _fixed(make: Callable[[], Any], label: str) -> Callable[[tuple, Scene | None], tuple]:
    """An entry that is always drawn the same."""
    return lambda key, scene: (make(), label)


_LEGEND: dict[Legend, Callable[[tuple, Scene | None], tuple[Any, str] | None]] = {
    Legend.FUEL: _fuel_entry,
    Legend.OUTDOORS: _fixed(lambda: _patch(facecolor=OUTDOOR, edgecolor="#999999"), "outdoors"),
    Legend.VOID: _fixed(lambda: _patch(facecolor=VOID["facecolor"], edgecolor=VOID["edgecolor"],
                                       hatch=VOID["hatch"]),
                        "not part of the building (rock, air...)"),
    Legend.WALL: _wall_entry,
    Legend.DOOR: _opening_entry,
    Legend.WINDOW: _opening_entry,
    Legend.BROKEN: _fixed(lambda: _line(color=BROKEN, lw=1.4, ls=(0, (3, 2))),
                          "broken wall, door or window (a gap)"),
    Legend.STAIRS: _fixed(lambda: _patch(facecolor="#f4f1ea", edgecolor="#444444", hatch="---"),
                          "stairs (up/down)"),
    Legend.LADDER: _fixed(lambda: _line(color="#6e4b2a", lw=1.4, marker="|", ms=8),
                          "ladder (up/down)"),
    Legend.HOLE: _fixed(lambda: _line(color="#555555", lw=0, marker="o", ms=8),
                        "hole or hatch in the floor (up/down)"),
    Legend.COLLAPSED: _fixed(lambda: _line(lw=0, marker="o", ms=9, markerfacecolor="#555555",
                                           markeredgecolor=BROKEN), "collapsed floor (hole)"),
    Legend.ROUTE: _route_entry,
    Legend.FEATURE: _feature_entry,
    Legend.EXIT: _fixed(lambda: _patch(facecolor="none", edgecolor=EXIT_COLOUR, lw=1.6),
                        "way out (EXIT)"),
    Legend.FIRE_BREAK: _fire_break_entry,
    Legend.FIRE: _fire_entry,
    Legend.WRECK: _fixed(lambda: _patch(**WRECK_STYLE), "burning wreck (cart, wagon, boat...)"),
    Legend.SMOKE: _smoke_entry,
    Legend.BURNED: _fixed(lambda: _patch(facecolor=BURNED, alpha=0.7), "burned out (fuel gone)"),
    Legend.HERO: _hero_entry,
}


def legend_labels(building: Building, scene: Scene | None = None,
                  options: MapOptions | None = None) -> list[tuple]:
    """The legend's entries for every level drawn (for tests and tools)."""
    options = options or MapOptions()
    return legend_keys(building, scene, drawn_levels(building, options), options)
