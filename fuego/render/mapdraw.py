"""Printable encounter maps: a pure function of (building, scene or None, options) -> Figures.

:func:`draw_map` draws every level (or the chosen ones) of a building on a 10-ft grid whose
column letters and row numbers are the area names the engine uses (``ground:C4`` is column C,
row 4 of the ``ground`` plan). Nothing is saved or shown here: the ``fuego map`` command saves
the figures (SVG, PNG, or a multipage PDF).

What is drawn, bottom to top:

- each area shaded by its fuel (Resolve 0-9; outdoor areas pale green), or a forecast's
  heat map when ``options.heat`` is given; squares of the plan that are no area (rock, water,
  air) grey and hatched; burned-out areas dark; smoke hatched (thin ``//``, thick ``xx``);
- the 10-ft grid where the building is (optionally the 5-ft grid: at 1 in per 5 ft the 1-inch
  squares of a battle mat);
- walls by material (line width and colour: paper, thin/regular/thick wood, thin/regular/thick
  stone), a room's own wall on every side that meets the plan's edge or no area, doors and
  windows with their open/closed state, broken barriers dashed red;
  stairs, ladders, holes and collapsed floors marked on both levels they join;
- routes of fuel (carpet, curtains, hangings, spilt oil, powder trails) as lines through the
  areas' centres; oil, gunpowder and beams as small words in their areas, once a room for
  the same in several of its areas (one with no room there beside it, with a leader line;
  none of it with ``fuel=False``);
  exits outlined green, one outline and one EXIT a run of way-out squares;
- room names, each inside its room (a name too long for it beside the room, with a leader
  line); fires with their Fire Dice; heroes with their initials;
- a legend of exactly what the map shows, then its numbered notes: a room's name or a
  feature's word with no free spot in or beside its thing is a small number there, its words
  in the note (no word is drawn over another, no leader line crosses another).

Every word is placed before anything is drawn (:func:`level_labels`, a pure function of the
building, the scene and the options; :func:`map_labels` for a whole map), so the legend's
notes are known when the figure is sized.

Every artist a test or a tool may look for carries a ``gid`` that the SVG writes as an
``id``: ``area-ground:C4``, ``room-kitchen``, ``barrier-door-closed-12`` (``barrier-<kind>-
<state>-<index>``, state ``closed``/``open`` for doors and windows, ``intact``/``broken`` for
walls, ``open`` for stairs, ladders and holes, ``broken`` for a collapsed floor; vertical links
carry it on their lower level and ``link-<kind>-<index>`` on the upper one), ``route-carpet-0``,
``exit-ground:A1`` (a run, by its first square), ``outer-wall-ground:A1-n``, ``void-cellar:B5``,
``room-leader-kitchen``, ``note-1-room-anchor`` (a number standing for a note),
``feature-oil-ground:C4`` (and ``feature-leader-oil-ground:C4`` when
the word stands beside its area; a room's one word for several areas: by the first, row then
column), ``fire-ground:C4``, ``smoke-thin-ground:C4``, ``burned-ground:C4``,
``hero-Isabela``, ``heat-ground:C4``.

The figure's size is exact: one area is ``options.area_inches`` inches (default 1: a 10-ft
square per inch; 2 gives the 1 inch = 5 ft of battle mats), so a PDF printed at 100% is to
scale; no text is under 8 pt. A level larger than a paper page is tiled: the pages share a
quarter-inch strip with alignment crosses, have crop marks at the plan's corners, and everything
is placed as on one big sheet and clipped to the page. matplotlib is imported inside the
functions only. The colour and line tables, :class:`MapOptions` and the legend are
:mod:`fuego.render.map_style`.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar

from fuego.render.map_style import (
    BROKEN,
    BURNED,
    DOOR_COLOUR,
    EXIT_COLOUR,
    FEATURE_MARK,
    FIRE_BREAK_STYLE,
    FIRE_COLOUR,
    GRID,
    GRID_LW,
    HERO_COLOUR,
    HIDDEN_STYLE,
    MIN_PT,
    NOTE_INK,
    OUTDOOR,
    OVERLAP,
    PAPER,
    PAPER_MARGIN,
    PLAN_EDGE,
    ROUTE_STYLE,
    SUBGRID,
    SUBGRID_LW,
    VOID,
    WINDOW_COLOUR,
    WRECK_STYLE,
    FireMark,
    MapOptions,
    barrier_state,
    draw_legend,
    drawn_levels,
    exit_runs,
    feature_marks,
    fire_mark,
    fires_drawn,
    initials,
    legend_height,
    legend_keys,
    legend_text_width,
    level_extent,
    outer_sides,
    shows_routes,
    void_cells,
    wall_style,
)
from fuego.rules.charts import Structure
from fuego.world.building import Building
from fuego.world.places import (
    ALWAYS_OPEN,
    OPENABLE,
    Barrier,
    BarrierKind,
    Feature,
    RouteKind,
    column_letters,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from fuego.engine.scene import Scene

__all__ = ["draw_map", "draw_level", "figure_size", "map_pages", "barrier_gid", "map_labels",
           "level_labels", "legend_drop"]

# -- layout (inches) ------------------------------------------------------------------------------
LEFT, RIGHT, GAP, BOTTOM = 0.55, 0.45, 0.75, 0.45
MIN_WIDTH = 4.5
#: The header, top down: the title's lines, the subtitle, a tiled page's index line(s), then
#: the plan's own head (its level's name and column letters; only the letters on a tile).
TITLE_AT, TITLE_LINE, TITLE_PT, SUB_LINE, INDEX_LINE = 0.2, 0.225, 13.0, 0.25, 0.175
#: The subtitle's size, and each line more of a long subtitle (it wraps: nothing is cut off).
SUB_PT, SUB_MORE = 9.0, 0.15
AX_HEAD, TILE_HEAD = 0.525, 0.3
#: A tiled page: row numbers each side and column letters below, in narrower margins.
TILE_SIDE, TILE_BOTTOM = 0.38, 0.32
#: The small map of the tiles at a tiled page's top right, at most this wide and high.
INDEX_W, INDEX_H = 1.3, 0.6
#: A tiled page's margin: narrower than a single page's (home printers print to 0.25 in).
TILE_MARGIN = 0.3
#: The column letters' distance from the plan (points).
TICK_PAD = 2.0
#: Under a plan with its legend: the column letters, a blank of half an area (at least
#: LEGEND_GAP_MIN, at most LEGEND_GAP_MAX inches: a small map's legend stays by its plan),
#: the legend, then LEGEND_FOOT inches to the figure's edge (past a page's margin).
LEGEND_GAP, LEGEND_GAP_MIN, LEGEND_GAP_MAX, LEGEND_FOOT = 0.5, 0.2, 0.5, 0.08


# -- small helpers --------------------------------------------------------------------------------
_F = TypeVar("_F", bound=Callable)


def literal_text(draw: _F) -> _F:
    """Names are text: ``$`` in a room, title or hero name is drawn as ``$``, never parsed as
    mathtext (every Text made while ``draw`` runs keeps ``parse_math=False``); and a letter
    DejaVu Sans lacks (a Japanese room name) is drawn from an installed font that has it
    (:func:`font_families`)."""
    @functools.wraps(draw)
    def literally(*args, **kwargs):
        import matplotlib

        with matplotlib.rc_context({"text.parse_math": False,
                                    "font.family": font_families()}):
            return draw(*args, **kwargs)

    return literally  # type: ignore[return-value]


#: Fonts with the letters DejaVu Sans lacks (CJK, more scripts and symbols), in the order a
#: letter is looked for in them; those installed are used (matplotlib's font fallback).
FALLBACK_FONTS = ("Noto Sans CJK JP", "Noto Sans CJK SC", "Noto Sans CJK TC",
                  "Noto Sans CJK KR", "Noto Sans", "Noto Sans Symbols", "Noto Sans Symbols 2",
                  "WenQuanYi Zen Hei", "Droid Sans Fallback", "Arial Unicode MS", "Symbola")


@functools.cache
def font_families() -> list[str]:
    """DejaVu Sans (matplotlib's own: every layout here is measured in it), then the
    :data:`FALLBACK_FONTS` this machine has (named only if installed: matplotlib warns of a
    family it cannot find)."""
    from matplotlib import font_manager

    have = {f.name for f in font_manager.fontManager.ttflist}
    return ["DejaVu Sans", *(name for name in FALLBACK_FONTS if name in have)]


def drawn_words(fig) -> None:
    """Every word and id on a figure, whoever drew it, through :func:`fuego.text.drawn` (a
    control character from a name shows as its escape: SVG stays XML, a PDF or PNG draws no
    missing glyph). Called just before a figure is saved. A text's line breaks stay: they are
    the layout's (a title or subtitle wrapped to its page), never an escape on the page."""
    from matplotlib.text import Text

    from fuego.text import drawn

    for artist in fig.findobj(Text):
        artist.set_text("\n".join(drawn(line) for line in artist.get_text().split("\n")))
    for artist in fig.findobj(lambda a: isinstance(a.get_gid(), str)):
        artist.set_gid(drawn(artist.get_gid()))


def _safe(text: str) -> str:
    """An id-friendly form of a name (no spaces or quotes)."""
    return "".join(ch if ch.isalnum() or ch in "-_:.@" else "-" for ch in text)


def barrier_gid(barrier: Barrier) -> str:
    return f"barrier-{barrier.kind.value}-{barrier_state(barrier).value}-{barrier.index}"


#: What one plan on a page shows, in areas: ``(x0, x1, y0, y1)``, column ``c`` spanning
#: ``c..c+1`` and row ``r`` spanning ``r..r+1``; a tile of a tiled level may start and end
#: inside a square.
Window = tuple[float, float, float, float]


def level_window(building: Building, level: int) -> Window:
    """The whole of a level's plan as a :data:`Window`."""
    c0, c1, r0, r1 = level_extent(building, level)
    return float(c0), float(c1 + 1), float(r0), float(r1 + 1)


def _level_box(building: Building, level: int, s: float) -> tuple[float, float]:
    c0, c1, r0, r1 = level_extent(building, level)
    return (c1 - c0 + 1) * s, (r1 - r0 + 1) * s


def wrap_words(text: str, width: float, fontsize: float) -> str:
    """``text`` broken at spaces into lines that fit ``width`` inches at ``fontsize``, each
    line measured as every drawn word is (:func:`text_inches`: DejaVu Sans Bold's widths, so
    never narrower than it prints, bold or not); a word
    longer than a line keeps its line."""
    lines: list[str] = []
    for word in text.split():
        wider = f"{lines[-1]} {word}" if lines else word
        if lines and text_inches(wider, fontsize) <= width:
            lines[-1] = wider
        else:
            lines.append(word)
    return "\n".join(lines) or text


@dataclass
class MapPage:
    """One figure: its size, and per level drawn its box (inches from the bottom left) and the
    window of the plan it shows; ``tile``: (level, index, all windows) when a level is tiled
    across pages; ``title``: the title as wrapped to the page."""

    size: tuple[float, float]
    placed: list[tuple[int, tuple[float, float, float, float], Window]]
    tile: tuple[int, int, list[Window]] | None = None
    #: the legend of these levels is drawn on this page (a key page has nothing else)
    legend: list[int] | None = None
    title: str = ""
    #: inches from the paper's top edge to the top of the title (its margin on paper)
    margin: float = 0.0
    #: the subtitle as wrapped to the page
    subtitle: str = ""
    #: every drawn level's labels as placed (:func:`level_labels`), by level
    labels: dict[int, LevelLabels] = field(default_factory=dict)
    #: inches from the figure's foot to the top of its legend (under the plans)
    legend_top: float = 0.0


def figure_size(building: Building, scene: Scene | None = None,
                options: MapOptions | None = None) -> list[tuple[float, float]]:
    """The size in inches of each figure :func:`draw_map` makes (exact: no tight cropping)."""
    return [page.size for page in map_pages(building, scene, options)]


def map_pages(building: Building, scene: Scene | None = None,
              options: MapOptions | None = None) -> list[MapPage]:
    """Each figure :func:`draw_map` makes as laid out: its size, its plans' boxes, where its
    legend hangs (for tests and tools: the layout, not the pixels)."""
    if scene is not None:
        building = scene.building
    return _layouts(building, scene, options or MapOptions())


def map_labels(building: Building, scene: Scene | None = None,
               options: MapOptions | None = None) -> dict[int, LevelLabels]:
    """Every drawn level's words as :func:`draw_map` places them, with the numbered notes its
    legend lists (for tests and tools: the placement, not the pixels)."""
    pages = map_pages(building, scene, options)
    return pages[0].labels if pages else {}


def _title(building: Building, options: MapOptions) -> str:
    return options.title if options.title is not None else (building.title or "fuego map")


def wrap_subtitle(subtitle: str, width: float) -> str:
    """A subtitle broken into lines that fit ``width`` inches (at :data:`SUB_PT`)."""
    return wrap_words(subtitle, width, SUB_PT) if subtitle else ""


def subtitle_height(subtitle: str) -> float:
    """The height of a subtitle already wrapped (0 for none)."""
    return SUB_LINE + SUB_MORE * subtitle.count("\n") if subtitle else 0.0


def _title_foot(title: str, subtitle: str, margin: float) -> float:
    """Inches from a page's top edge to the foot of its title and subtitle (wrapped)."""
    return margin + TITLE_AT + TITLE_LINE * (title.count("\n") + 1) + subtitle_height(subtitle)


def _header(title: str, subtitle: str, tiled: bool) -> float:
    """The height of a page's header (see TITLE_AT) for a title and subtitle already wrapped."""
    lines = title.count("\n") + 1
    head = TITLE_AT + TITLE_LINE * lines + subtitle_height(subtitle)
    return head + (2 * INDEX_LINE + TILE_HEAD if tiled else AX_HEAD)


def _legend_lines(building: Building, scene: Scene | None, group: list[int],
                  options: MapOptions, labels: dict[int, LevelLabels],
                  width: float) -> list[int]:
    """The lines of each entry of these levels' legend ``width`` inches wide, in its order
    (:func:`draw_legend`): one a mark, one the heat map's, then each numbered note's (a
    name's line breaks are drawn, a long name wraps)."""
    if not options.legend:
        return []
    heat = [1] if options.heat is not None else []
    return [1] * len(legend_keys(building, scene, group, options)) + heat + [
        words.count("\n") + 1 for _, words in _notes_of(group, labels, width)]


def _tick_pt(options: MapOptions) -> float:
    """The size of a plan's column letters and row numbers."""
    return _fs(options, 8, 11)


def legend_drop(options: MapOptions) -> float:
    """Inches from a plan's lower edge to the top of the legend under it: the column letters
    (their pad and a line), then a blank of :data:`LEGEND_GAP` areas within its bounds."""
    letters = (TICK_PAD + 1.25 * _tick_pt(options)) / 72
    return letters + min(LEGEND_GAP_MAX, max(LEGEND_GAP_MIN, LEGEND_GAP * options.area_inches))


def _under_plan(options: MapOptions, legend_h: float) -> float:
    """Inches a page keeps under its plans: the column letters and a margin; with a legend
    (``legend_h`` inches tall), the letters, the gap, the legend and its foot."""
    if not legend_h:
        return BOTTOM
    return legend_drop(options) + legend_h + LEGEND_FOOT


def _notes_of(group: list[int], labels: dict[int, LevelLabels], width: float) -> list[Note]:
    """The numbered notes of these levels' legend, each once, by number, as a legend
    ``width`` inches wide lists them: a long name wrapped to its column
    (:func:`legend_text_width`; its own line breaks kept)."""
    notes = {note for lv in group if lv in labels for note in labels[lv].notes}
    most = legend_text_width(width)
    return [(n, "\n".join(wrap_words(line, most, MIN_PT) for line in words.split("\n")))
            for n, words in sorted(notes, key=lambda note: (note[0] is None, note[0] or 0,
                                                            note[1]))]


def _layouts(building: Building, scene: Scene | None, options: MapOptions) -> list[MapPage]:
    """The figures to draw: levels side by side, one page per level, or paper pages."""
    s = options.area_inches
    levels = drawn_levels(building, options)
    # the map's notes are numbered on from level to level (a legend lists several levels')
    notes = Notes() if options.legend else None
    labels: dict[int, LevelLabels] = {}
    if options.layout == "pages" and options.paper is not None:
        pages = [page for lv in levels
                 for page in _paper_pages(building, scene, lv, options, labels, notes)]
        keyless = [lv for lv in levels  # (a legend of any width: whether it has entries)
                   if _legend_lines(building, scene, [lv], options, labels, MIN_WIDTH)
                   and not any(page.legend for page in pages if page.placed[0][0] == lv)]
        if keyless:  # the keys that fit no page of their level share one page at the end
            last = next(page for page in reversed(pages) if page.placed[0][0] == keyless[-1])
            # the legend under the title and the line that says whose keys they are
            top = last.size[1] - _title_foot(last.title, last.subtitle, last.margin) - 0.5
            pages.append(MapPage(last.size, [], None, keyless, last.title, last.margin,
                                 last.subtitle, legend_top=top))
        for page in pages:
            page.labels = labels
        return pages
    labels.update((lv, level_labels(building, lv, scene, options, notes=notes))
                  for lv in levels)
    groups = [[lv] for lv in levels] if options.layout == "pages" else [levels]
    out = []
    for group in groups:
        boxes = [_level_box(building, lv, s) for lv in group]
        content_w = sum(w for w, _ in boxes) + GAP * max(0, len(boxes) - 1)
        width = max(MIN_WIDTH, LEFT + content_w + RIGHT)
        title = wrap_words(_title(building, options), width - 0.5, TITLE_PT)
        sub = wrap_subtitle(options.subtitle, width - 0.5)
        lines = _legend_lines(building, scene, group, options, labels, width)
        legend_h = legend_height(lines, width)
        content_h = max((h for _, h in boxes), default=0.0)
        under = _under_plan(options, legend_h)
        height = _header(title, sub, False) + content_h + under
        x = LEFT + (width - LEFT - RIGHT - content_w) / 2
        placed = []
        for lv, (w, h) in zip(group, boxes):
            y = under + (content_h - h)  # top-aligned
            placed.append((lv, (x, y, w, h), level_window(building, lv)))
            x += w + GAP
        out.append(MapPage((width, height), placed, None, group, title, subtitle=sub,
                         labels=labels, legend_top=under - legend_drop(options)))
    return out


def tile_spans(lo: float, hi: float, room: float, s: float) -> list[tuple[float, float]]:
    """Cover ``lo..hi`` (areas, ``s`` inches each) with as few spans of at most ``room``
    inches as can be, all the same length, neighbours sharing :data:`OVERLAP` inches."""
    span = (hi - lo) * s
    if span <= room + 1e-9:
        return [(lo, hi)]
    n = math.ceil((span - OVERLAP) / (room - OVERLAP) - 1e-9)
    length = ((span - OVERLAP) / n + OVERLAP) / s
    step = (span - OVERLAP) / n / s
    return [(lo + k * step, min(hi, lo + k * step + length)) for k in range(n)]


def fit_scale(building: Building, options: MapOptions, most: float = 1.0) -> float:
    """The largest ``area_inches`` (at most ``most``) at which each level drawn fits one page
    of ``options.paper`` with its key, in the better orientation: a report's plan (a forecast's
    heat map) on one page a level, all at one scale, rather than a battle map tiled to scale.
    The key is counted without numbered notes (they depend on the scale sought): a key that
    then fits no page of its level gets a page of its own."""
    pw, ph = PAPER[options.paper or "a4"]
    scale = most
    for lv in drawn_levels(building, options):
        x0, x1, y0, y1 = level_window(building, lv)
        best = 0.0
        for width, height in ((pw, ph), (ph, pw)):
            inner = width - 2 * PAPER_MARGIN
            keys = _legend_lines(building, None, [lv], options, {}, inner)  # (no notes: above)
            title = wrap_words(_title(building, options), inner - 0.2, TITLE_PT)
            sub = wrap_subtitle(options.subtitle, inner - 0.2)
            avail_w = inner - LEFT - RIGHT
            # (the gap under the plan at the most scale: it only narrows below)
            avail_h = (height - 2 * PAPER_MARGIN - _header(title, sub, False)
                       - _under_plan(replace(options, area_inches=most),
                                     legend_height(keys, inner)))
            best = max(best, min(avail_w / (x1 - x0), avail_h / (y1 - y0)))
        scale = min(scale, best)
    # a hair under the exact fit, so rounding never tips a level onto a second page
    return max(0.05, scale * 0.999)


def _paper_pages(building: Building, scene: Scene | None, lv: int, options: MapOptions,
                 labels: dict[int, LevelLabels], notes: Notes | None) -> list[MapPage]:
    """A level on pages of ``options.paper``, at ``area_inches`` per area, tiled when larger
    than one page (in the orientation that needs fewest pages; portrait on a tie); its
    labels placed into ``labels``."""
    s = options.area_inches
    x0, x1, y0, y1 = level_window(building, lv)
    pw, ph = PAPER[options.paper or "a4"]
    best = None
    for width, height in ((pw, ph), (ph, pw)):
        inner = width - 2 * PAPER_MARGIN
        whole = wrap_words(_title(building, options), inner - 0.2, TITLE_PT)
        sub = wrap_subtitle(options.subtitle, inner - 0.2)
        avail_w = inner - LEFT - RIGHT
        avail_h = height - 2 * PAPER_MARGIN - _header(whole, sub, False) - BOTTOM
        margin = PAPER_MARGIN
        if (x1 - x0) * s <= avail_w + 1e-9 and (y1 - y0) * s <= avail_h + 1e-9:
            cols, rows, title = [(x0, x1)], [(y0, y1)], whole
            head = _header(whole, sub, False)
        else:  # tiles: narrower margins, the title beside the small map of the tiles
            margin = TILE_MARGIN
            inner = width - 2 * margin
            title = wrap_words(_title(building, options), inner - 2 * INDEX_W - 0.3, TITLE_PT)
            sub = wrap_subtitle(options.subtitle, inner - 2 * INDEX_W - 0.3)
            head = _header(title, sub, True)
            cols = tile_spans(x0, x1, inner - 2 * TILE_SIDE, s)
            rows = tile_spans(y0, y1, height - 2 * margin - head - TILE_BOTTOM, s)
        if best is None or len(cols) * len(rows) < best[0]:
            best = (len(cols) * len(rows), (width, height), cols, rows, title, head, margin,
                    sub)
    assert best is not None
    _, (width, height), cols, rows, title, head, margin, sub = best
    windows = [(a, b_, c, d) for c, d in rows for a, b_ in cols]
    tiled = len(windows) > 1
    labels[lv] = level_labels(building, lv, scene, options, windows if tiled else None, notes)
    legend_h = legend_height(
        _legend_lines(building, scene, [lv], options, labels, width - 2 * margin),
        width - 2 * margin)
    tallest = max((d - c) * s for _, _, c, d in windows)
    room = height - 2 * margin - head - tallest
    # under the plan, else the key gets a page of its own
    on_page = legend_h > 0 and _under_plan(options, legend_h) <= room + 1e-9
    pages = []
    for k, (a, b_, c, d) in enumerate(windows):
        w, h = (b_ - a) * s, (d - c) * s
        x = (width - w) / 2
        y = height - margin - head - h
        tile = (lv, k, windows) if tiled else None
        pages.append(MapPage((width, height), [(lv, (x, y, w, h), (a, b_, c, d))], tile,
                           [lv] if on_page else None, title, margin, sub,
                           legend_top=y - legend_drop(options)))
    return pages


# -- the drawing ----------------------------------------------------------------------------------
@literal_text
def draw_map(building: Building, scene: Scene | None = None,
             options: MapOptions | None = None) -> list[Figure]:
    """Figures of the building (and the scene's fires, smoke and heroes when given).

    One figure with the levels side by side (``layout="side"``) or one per level
    (``layout="pages"``; with ``options.paper`` every page is that paper, and a level larger
    than a page is tiled across pages that share a strip a quarter-inch wide, with crop and
    alignment marks and a page index). Pure: nothing is saved, nothing in the scene changes.
    """
    from matplotlib.figure import Figure

    options = options or MapOptions()
    if scene is not None:
        building = scene.building
    figures = []
    for page in _layouts(building, scene, options):
        width, height = page.size
        fig = Figure(figsize=(width, height))
        top = page.margin
        _text(fig, 0.5, 1 - (top + TITLE_AT) / height, page.title, ha="center", va="top",
              fontsize=TITLE_PT, fontweight="bold", linespacing=1.15, gid="map-title")
        below = _title_foot(page.title, "", top)
        if page.subtitle:
            _text(fig, 0.5, 1 - (below + 0.04) / height, page.subtitle, ha="center",
                  va="top", fontsize=SUB_PT, color="#444444", linespacing=1.2,
                  gid="map-subtitle")
            below = _title_foot(page.title, page.subtitle, top)
        for lv, (x, y, w, h), window in page.placed:
            ax = fig.add_axes((x / width, y / height, w / width, h / height))
            draw_level(ax, building, lv, scene, options, window=window,
                       tiles=page.tile[2] if page.tile is not None else None,
                       labels=page.labels[lv])
            if page.tile is not None:
                ax.set_title("")
                _crop_marks(fig, (x, y, w, h))
        if page.tile is not None:
            _page_index(fig, building, page, below + 0.02)
        if options.legend and page.legend:
            if not page.placed:  # a key page: the legend under the title
                names = ", ".join(building.levels[lv].name for lv in page.legend)
                _text(fig, 0.5, 1 - (below + 0.05) / height, f"key: {names}", ha="center",
                      va="top", fontsize=10, gid="key-page")
            across = width - 2 * page.margin  # (the legend's width, as laid out)
            draw_legend(fig, building, scene, page.legend, options, across, height,
                        top=page.legend_top,
                        notes=_notes_of(page.legend, page.labels, across))
        figures.append(fig)
    return figures


def _text(target, x: float, y: float, text: str, **kw):
    """Text drawn literally: names are never parsed as mathtext."""
    artist = target.text(x, y, text, **kw)
    artist.set_parse_math(False)
    return artist


def _crop_marks(fig, box: tuple[float, float, float, float]) -> None:
    """Corner marks in the margin at the plan's edges: trim a tiled page along them."""
    from matplotlib.lines import Line2D

    width, height = fig.get_size_inches()
    x, y, w, h = box
    gap, length = 0.06, 0.22
    for cx, sx in ((x, -1), (x + w, 1)):
        for cy, sy in ((y, -1), (y + h, 1)):
            for (ax0, ay0), (ax1, ay1) in (((cx + sx * gap, cy), (cx + sx * (gap + length), cy)),
                                           ((cx, cy + sy * gap), (cx, cy + sy * (gap + length)))):
                fig.add_artist(Line2D([ax0 / width, ax1 / width], [ay0 / height, ay1 / height],
                                      color="#111111", lw=0.5, gid="crop-mark"))


def _page_index(fig, building: Building, page: MapPage, top: float) -> None:
    """Which part of the level this page shows: a line of words and a small map of the tiles,
    this page's filled."""
    from matplotlib.patches import Rectangle

    lv, k, windows = page.tile  # type: ignore[misc]
    width, height = page.size
    a, b, c, d = windows[k]
    name = building.levels[lv].name
    cols = (column_letters(math.floor(a + 1e-9)), column_letters(math.ceil(b - 1e-9) - 1))
    rows = (math.floor(c + 1e-9) + 1, math.ceil(d - 1e-9))
    words = (f"{name}: page {k + 1} of {len(windows)} (columns {cols[0]}-{cols[1]}, rows "
             f"{rows[0]}-{rows[1]}). Trim at the corner marks; lay the pages' blue strips one "
             "on the other, crosses on crosses.")
    _text(fig, 0.5, 1 - top / height,
          wrap_words(words, width - 2 * page.margin - 2 * INDEX_W - 0.3, MIN_PT),
          ha="center", va="top", fontsize=MIN_PT, color="#222222", linespacing=1.1,
          gid="page-index-text")
    c0 = min(w[0] for w in windows)
    c1 = max(w[1] for w in windows)
    r0 = min(w[2] for w in windows)
    r1 = max(w[3] for w in windows)
    scale = min(INDEX_W / (c1 - c0), INDEX_H / (r1 - r0))
    iw, ih = scale * (c1 - c0), scale * (r1 - r0)
    ax = fig.add_axes(((width - page.margin - iw) / width,
                       (height - page.margin - ih) / height, iw / width, ih / height),
                      gid="page-index")
    ax.set_xlim(c0, c1)
    ax.set_ylim(r1, r0)
    ax.set_axis_off()
    for n, (wa, wb, wc, wd) in enumerate(windows):
        ax.add_patch(Rectangle((wa, wc), wb - wa, wd - wc, lw=0.6, clip_on=False,
                               edgecolor="#222222", facecolor="#f5b041" if n == k else "none",
                               alpha=0.9))
        if min(wb - wa, wd - wc) * scale >= 0.14:
            _text(ax, (wa + wb) / 2, (wc + wd) / 2, str(n + 1), ha="center", va="center",
                  fontsize=MIN_PT, color="#111111")


#: A forecast's heat map is a report's small picture of the plan, not a map to play on: its
#: words may shrink below MIN_PT to stay clear of the percentages.
HEAT_MIN_PT = 5.0


def _min_pt(options: MapOptions) -> float:
    return MIN_PT if options.heat is None else HEAT_MIN_PT


def _fs(options: MapOptions, base: float, hi: float = 14.0) -> float:
    """A font size that grows with the scale up to ``hi``, never under :data:`MIN_PT` at print
    size (a heat map's: :data:`HEAT_MIN_PT`)."""
    return max(_min_pt(options), min(hi, base * options.area_inches))


class _Placer:
    """Labels placed so that none overlaps another, a token (fire, hero) or a leader line:
    each label tries its candidate spots in order and takes the first whose box (estimated
    from the font size and the text's length, in areas) is free. A leader line, from a word
    set beside its area to a dot in it, is reserved too, and crosses no label or token."""

    def __init__(self, area_inches: float, bounds: tuple[float, float, float, float]) -> None:
        self.s = area_inches
        self.bounds = bounds  # x0, y0, x1, y1 of the drawing (the axes' window)
        self.boxes: list[tuple[float, float, float, float]] = []
        #: the boxes no leader line may cross: labels (area None) and tokens (their area: a
        #: leader to that area ends under its token)
        self.solid: list[tuple[tuple[float, float, float, float], int | None]] = []
        #: the leader lines placed, (x0, y0, x1, y1) each: no label goes over one
        self.leaders: list[tuple[float, float, float, float]] = []
        #: strips a label had better not cross (the seams of tiled pages): tried first
        self.avoid: list[tuple[float, float, float, float]] = []

    def block(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """Keep labels off this box (a door's swing); a leader line may cross it."""
        self.boxes.append((x0, y0, x1, y1))

    def take(self, box: tuple[float, float, float, float], area: int | None = None) -> None:
        """A label's box (or, with ``area``, a token's in that area): nothing over it, no
        leader line across it."""
        self.boxes.append(box)
        self.solid.append((box, area))

    def size(self, text: str, fs: float) -> tuple[float, float]:
        lines = text.split("\n")
        w = max(text_inches(line, fs) for line in lines) / self.s
        h = len(lines) * 1.25 * fs / 72 / self.s  # a line of DejaVu Sans is about 1.2 em
        return w, h

    def box(self, text: str, fs: float, x: float, y: float, ha: str, va: str, pad: float = 0.0):
        w, h = self.size(text, fs)
        x0 = x - w / 2 if ha == "center" else (x - w if ha == "right" else x)
        y0 = y - h / 2 if va == "center" else (y - h if va == "bottom" else y)
        return x0 - pad, y0 - pad, x0 + w + pad, y0 + h + pad

    def free(self, box, strict: bool = False) -> bool:
        bx0, by0, bx1, by1 = self.bounds
        if box[0] < bx0 - 1e-9 or box[1] < by0 - 1e-9 or box[2] > bx1 + 1e-9 \
                or box[3] > by1 + 1e-9:
            return False
        if any(crosses(line, box) for line in self.leaders):
            return False
        return not any(box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3]
                       for o in self.boxes + (self.avoid if strict else []))

    def crossed(self, line: tuple[float, float, float, float], area: int
                ) -> tuple[int, int, int]:
        """What a leader line to ``area`` would cross: the labels, the other leader lines,
        the tokens (but those of ``area``, where it ends)."""
        labels = tokens = 0
        for box, owner in self.solid:
            if owner != area and crosses(line, box):
                if owner is None:
                    labels += 1
                else:
                    tokens += 1
        return labels, sum(1 for other in self.leaders if meet(line, other)), tokens

    def spot_for(self, text: str, fs: float, spots, pad: float = 0.02,
                 where: Callable[[Box], bool] | None = None):
        """The first free spot ``(x, y, ha, va)`` whose box is ``where`` asks (a spot off the
        seams first), and that box: ((x, y, ha, va), box), taken; or None."""
        for strict in ((True, False) if self.avoid else (False,)):
            for x, y, ha, va in spots:
                box = self.box(text, fs, x, y, ha, va, pad)
                if (where is None or where(box)) and self.free(box, strict):
                    self.take(box)
                    return (x, y, ha, va), box
        return None


#: The advance of each printable ASCII character (space to ``~``) in DejaVu Sans Bold, in
#: em: a word's width is estimated from these (a fixed table, so placement is the same on
#: every machine), never narrower than it prints, bold or not; any other character is
#: taken as :data:`WIDE_EM`.
GLYPH_EMS = dict(zip(map(chr, range(32, 127)), (
    0.35, 0.46, 0.53, 0.84, 0.7, 1.0, 0.87, 0.32, 0.47, 0.47, 0.52, 0.85, 0.38, 0.41, 0.38,
    0.37, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.4, 0.4, 0.84, 0.85, 0.84, 0.59,
    1.0, 0.77, 0.76, 0.73, 0.82, 0.68, 0.68, 0.82, 0.83, 0.36, 0.37, 0.77, 0.64, 0.99, 0.83,
    0.85, 0.73, 0.85, 0.77, 0.72, 0.69, 0.8, 0.77, 1.1, 0.77, 0.72, 0.73, 0.46, 0.37, 0.46,
    0.84, 0.5, 0.5, 0.68, 0.71, 0.59, 0.71, 0.68, 0.44, 0.71, 0.71, 0.33, 0.33, 0.66, 0.33,
    1.04, 0.71, 0.68, 0.71, 0.71, 0.49, 0.6, 0.47, 0.71, 0.65, 0.92, 0.65, 0.65, 0.58, 0.71,
    0.37, 0.72, 0.85)))
WIDE_EM = 0.85


def text_ems(line: str) -> float:
    """A line's estimated width in em (:data:`GLYPH_EMS`)."""
    return sum(GLYPH_EMS.get(ch, WIDE_EM) for ch in line)


def text_inches(line: str, fontsize: float) -> float:
    """A line's estimated width in inches at ``fontsize`` points (:func:`text_ems`)."""
    return text_ems(line) * fontsize / 72


def meet(one: tuple[float, float, float, float], other: tuple[float, float, float, float]
         ) -> bool:
    """Whether two segments (x0, y0, x1, y1) cross (each one's ends strictly on either side
    of the other)."""
    def side(p, q, r) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    a, b, c, d = one[:2], one[2:], other[:2], other[2:]
    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def crosses(line: tuple[float, float, float, float], box) -> bool:
    """Whether the segment ``line`` (x0, y0, x1, y1) passes through the inside of ``box``
    (x0, y0, x1, y1): clipped to the box (Liang-Barsky), something of it is left."""
    px, py, qx, qy = line
    dx, dy = qx - px, qy - py
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, px - box[0]), (dx, box[2] - px), (-dy, py - box[1]), (dy, box[3] - py)):
        if abs(p) < 1e-12:
            if q <= 0:
                return False
        elif p < 0:
            lo = max(lo, q / p)
        else:
            hi = min(hi, q / p)
    return hi - lo > 1e-9


def _area_spots(col: int, row: int):
    """Where a small mark may sit in an area, in order of preference."""
    m = 0.05
    return [(col + 0.5, row + m, "center", "top"), (col + 0.5, row + 1 - m, "center", "bottom"),
            (col + m, row + m, "left", "top"), (col + 1 - m, row + m, "right", "top"),
            (col + m, row + 1 - m, "left", "bottom"),
            (col + 1 - m, row + 1 - m, "right", "bottom"),
            (col + m, row + 0.5, "left", "center"), (col + 1 - m, row + 0.5, "right", "center")]


def _exit_spots(a) -> list[tuple[float, float, str, str]]:
    """Where an EXIT may sit in a square of its run: inside the run's green outline."""
    c, r = a.col, a.row
    return [(c + 0.5, r + 0.14, "center", "top"), (c + 0.5, r + 0.86, "center", "bottom"),
            (c + 0.5, r + 0.5, "center", "center")]


#: A word to place in an area: (area, text, font size, style; the style may carry placement
#: hints: ``also`` (an EXIT's other squares), ``corner`` (a fuel number), ``under`` and ``at``).
Mark = tuple[int, str, float, dict]


class _Plan:
    """One level's plan drawn into one axes: the part of the level it shows (its window)."""

    def __init__(self, ax: Axes, building: Building, level: int, options: MapOptions,
                 window: Window | None, tiles: list[Window] | None) -> None:
        self.ax, self.b, self.level, self.options = ax, building, level, options
        self.tiles = tiles
        self.s = options.area_inches
        self.lw_scale = max(0.5, min(2.0, self.s))
        whole = level_window(building, level)
        self.window = window if window is not None else whole
        self.clip = window is not None and any(abs(p - q) > 1e-9 for p, q in zip(window, whole))
        #: (words are placed by :func:`level_labels`; this only measures them)
        self.measure = _Placer(self.s, (whole[0], whole[2], whole[1], whole[3]))
        self.areas = [a for a in building.areas if a.level == level]

    def shown(self, box: tuple[float, float, float, float]) -> bool:
        """Whether a box (x0, y0, x1, y1) reaches into this page's window (a tile draws only
        what it shows; placement still covers the whole level)."""
        x0, x1, y0, y1 = self.window
        return box[0] < x1 and box[2] > x0 and box[1] < y1 and box[3] > y0

    def square_shown(self, col: int, row: int) -> bool:
        """Whether the square (col, row) reaches into this page's window."""
        return self.shown((col, row, col + 1, row + 1))

    def text(self, x: float, y: float, words: str, **kw):
        """Words drawn literally at (x, y), unless a tile does not show where they sit."""
        if self.clip and not self.shown(self.measure.box(
                words, kw.get("fontsize", MIN_PT), x, y, kw.get("ha", "left"),
                kw.get("va", "baseline"), 0.5)):
            return None
        return _text(self.ax, x, y, words, **kw)


# -- the words, placed before anything is drawn ---------------------------------------------------
Box = tuple[float, float, float, float]
Line = tuple[float, float, float, float]
#: A numbered note of the legend: (its number, the words it stands for). Number None: a word
#: with no room on its level even as a number; the note says where it is instead.
Note = tuple[int | None, str]
#: A hero's disc, in areas.
HERO_R = 0.15
#: Where a number may stand in an area once the usual spots are taken, (dx, dy) in areas.
NUMBER_SPOTS = ((0.5, 0.5), (0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75),
                (0.5, 0.2), (0.5, 0.8), (0.2, 0.5), (0.8, 0.5))


@dataclass(frozen=True, eq=False)
class Placed:
    """A word the placer set on a level, in areas (x right, y down): ``text`` drawn at
    (x, y) aligned ``ha``/``va`` with ``style`` (its size, colour, gid...); ``box`` the space
    it keeps (estimated from the font, padded: no other word's box overlaps it); ``leader``
    the line from a word set beside its area to a dot in it (x0, y0, x1, y1, the dot last),
    drawn with gid ``leader_gid``; ``room``: a room's name (or its number), in a white box."""

    text: str
    x: float
    y: float
    ha: str
    va: str
    box: Box
    style: dict[str, Any]
    leader: Line | None = None
    leader_gid: str = ""
    room: bool = False

    @property
    def gid(self) -> str:
        """The id the word is drawn with ("" for a fuel number, ``up``/``down``)."""
        return self.style.get("gid") or ""


@dataclass
class LevelLabels:
    """A level's words as placed (:func:`level_labels`) and the numbered notes its numbers
    stand for."""

    words: list[Placed] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)


class Notes:
    """The numbered notes of one map, numbered in the order they are needed, level after
    level: the same words share a number (powder in five areas with no room for the word: one
    note, its number in each)."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}

    def number(self, words: str) -> int:
        return self.numbers.setdefault(words, len(self.numbers) + 1)


def level_labels(building: Building, level: int, scene: Scene | None, options: MapOptions,
                 tiles: list[Window] | None = None, notes: Notes | None = None
                 ) -> LevelLabels:
    """Every word of a level's plan, placed: room names, ``EXIT``, ``up``/``down``, feature
    words, fuel numbers, heroes' names, each where no other word, token or leader line is
    (a pure function of its arguments, the same on every machine: sizes come from a fixed
    table). Placed as on the whole level, a tiled level's words off the strips its pages
    share where they can be. ``notes``: the map's numbered notes (its legend lists them): a
    word with no free spot in or beside its thing is a number there, its words in a note;
    without (no legend), it goes over whatever is there."""
    b, s = building, options.area_inches
    x0, x1, y0, y1 = level_window(b, level)
    placer = _Placer(s, (x0, y0, x1, y1))
    if tiles:
        placer.avoid = _seams(tiles)
    for _, words, size, x, y in _heat_words(b, level, options) if options.heat else ():
        placer.take(placer.box(words, size, x, y, "center", "center"))
    for box in _door_swings(b, level):
        placer.block(*box)
    marks = _exit_words(b, level, options) + _link_words(b, level, options) \
        + _fuel_words(b, level, options)
    if scene is not None:
        for box, area in _token_boxes(b, level, scene, options):
            placer.take(box, area)
        if options.tokens:
            marks += _hero_names(b, level, scene, options)
    lay = _Labels(b, level, options, placer, notes, LevelLabels(), _min_pt(options))
    if options.labels:
        _room_labels(lay, scene)
    _place_marks(lay, marks)
    return lay.out


@dataclass
class _Labels:
    """One level's words being placed: where they go (``out``), the placer, the map's
    notes."""

    b: Building
    level: int
    options: MapOptions
    placer: _Placer
    notes: Notes | None
    out: LevelLabels
    least: float

    def room_pad(self, size: float) -> float:
        """The space kept round a room's name: its white box (0.15 em), at least 0.03 areas."""
        return max(0.03, 0.15 * size / 72 / self.options.area_inches)

    def room(self, key: str, words: str, size: float, x: float, y: float, box: Box,
             leader: Line | None = None, gid: str = "", leader_gid: str = "") -> None:
        room = self.b.rooms[key]
        style = dict(fontsize=size, fontstyle="italic" if room.outdoors else "normal",
                     color=EXIT_COLOUR if room.outdoors else "#1b1b1b", zorder=10,
                     bbox=dict(boxstyle="round,pad=0.15", facecolor="white", alpha=0.75,
                               edgecolor="none"),
                     gid=gid or f"room-{_safe(key)}")
        self.out.words.append(Placed(words, x, y, "center", "center", box, style, leader,
                                     leader_gid or f"room-leader-{_safe(key)}", room=True))

    def mark(self, words: str, size: float, x: float, y: float, ha: str, va: str, box: Box,
             style: dict, leader: Line | None = None, leader_gid: str = "") -> None:
        self.out.words.append(Placed(words, x, y, ha, va, box,
                                     {"zorder": 9, **style, "fontsize": size}, leader,
                                     leader_gid))

    def number(self, words: str, areas: list[int], cells: set[tuple[int, int]], spots,
               room: str = "", gid: str = "", leader_gid: str = "") -> bool:
        """A word with no free spot in or beside its thing (a room's name, a feature's word):
        its note's number at the first free spot of ``spots`` or of its ``areas`` (over
        ``cells`` only where it can), else beside them with a leader line (crossing no label
        or leader); the words in the legend's note. With no room even for that, a note that
        says where the thing is. False with no notes to keep (no legend)."""
        if self.notes is None:
            return False
        n = self.notes.number(words)
        digits, size = str(n), self.least
        pad = self.room_pad(size)
        more = [(self.b.areas[i].col + dx, self.b.areas[i].row + dy, "center", "center")
                for i in areas for dx, dy in NUMBER_SPOTS]
        found = self.placer.spot_for(digits, size, [*spots, *more], pad,
                                     lambda box: _within(box, cells)) \
            or self.placer.spot_for(digits, size, [*spots, *more], pad)
        line = None
        if found is None:
            beside = _beside(self, areas, [(digits, size, reach) for reach in FEATURE_REACH],
                             lambda _: pad, lambda box: _crowding(self.b, self.level, box))
            if beside is None:
                self.out.notes.append((None, f"{words} at {self.b.areas[areas[0]].name}"))
                return True
            _, _, x, y, box, line = beside
            found = (x, y, "center", "center"), box
        (x, y, ha, va), box = found
        if (n, words) not in self.out.notes:
            self.out.notes.append((n, words))
        if room:
            self.room(room, digits, size, x, y, box, line, f"note-{n}-room-{_safe(room)}",
                      f"note-{n}-room-leader-{_safe(room)}")
        else:
            self.mark(digits, size, x, y, ha, va, box,
                      dict(color=NOTE_INK, fontweight="bold", zorder=10, gid=f"note-{n}-{gid}",
                           bbox=dict(boxstyle="round,pad=0.15", facecolor="white",
                                     alpha=0.75, edgecolor="none")),
                      line, f"note-{n}-{leader_gid}")
        return True


def draw_level(ax: Axes, building: Building, level: int, scene: Scene | None,
               options: MapOptions, window: Window | None = None,
               tiles: list[Window] | None = None, labels: LevelLabels | None = None) -> None:
    """Draw one level's plan into ``ax`` (used by maps, forecast heat maps and VTT pictures).

    ``window``: the part of the plan to show (a :data:`Window`; default: the whole level);
    ``tiles``: every window of a level tiled across pages, to mark the strips this page shares
    with its neighbours. Everything is placed as on the whole level (a label sits where it
    would on one big sheet) and clipped to the window, so neighbouring tiles agree.
    ``labels``: the level's words as :func:`level_labels` placed them (default: placed here,
    with no numbered notes: there is no legend to hold them)."""
    p = _Plan(ax, building, level, options, window, tiles)
    if labels is None:
        labels = level_labels(building, level, scene, options, tiles)
    _axes(p)
    _void(p)  # (add_artist: the limits are set, no need to grow them patch by patch)
    if options.heat is not None:
        _heat_fills(p, options.heat)
    else:
        _fuel_fills(p)
        if scene is not None:
            _fire_breaks(p, scene)
    if scene is not None and scene.smoke is not None:
        _smoke(p, scene)
    _grids(p)
    _exits(p)
    _outline(ax, building, level, p.lw_scale)
    _barriers(p)
    if shows_routes(options):
        _routes(ax, building, level, p.lw_scale)
    if scene is not None:
        _fires(p, scene)
        _wrecks(p, scene)
        if options.tokens:
            _heroes(p, scene)
    _draw_labels(p, labels)
    if p.clip:  # a tile: tokens, numbers and names end at the page's edge with everything else
        for artist in ax.texts:
            artist.set_clip_on(True)


def _axes(p: _Plan) -> None:
    """The axes: the window's limits, column letters and row numbers round it, the level's
    name (and elevation) over it."""
    ax, options = p.ax, p.options
    x0, x1, y0, y1 = p.window
    c0, c1, r0, r1 = level_extent(p.b, p.level)
    lv = p.b.levels[p.level]
    ax.set_xlim(x0, x1)
    ax.set_ylim(y1, y0)
    ax.set_aspect("equal", adjustable="box")
    fs_tick = _tick_pt(options)
    cols = [c for c in range(c0, c1 + 1) if x0 - 1e-9 <= c + 0.5 <= x1 + 1e-9]
    rows = [r for r in range(r0, r1 + 1) if y0 - 1e-9 <= r + 0.5 <= y1 + 1e-9]
    ax.set_xticks([c + 0.5 for c in cols])
    ax.set_xticklabels([column_letters(c) for c in cols], fontsize=fs_tick)
    ax.set_yticks([r + 0.5 for r in rows])
    ax.set_yticklabels([str(r + 1) for r in rows], fontsize=fs_tick)
    ax.tick_params(length=0, pad=TICK_PAD, labeltop=True, labelright=True)
    for spine in ax.spines.values():
        spine.set_visible(False)
    where = f"{lv.name} (elevation {lv.elevation:+d})" if lv.elevation else lv.name
    title = ax.set_title(where, fontsize=max(MIN_PT, _fs(options, 10, 12)), pad=fs_tick + 8,
                         gid=f"level-{_safe(lv.name)}")
    title.set_parse_math(False)


def _void(p: _Plan) -> None:
    """The squares of the plan that are no area, grey: nobody stands or burns there."""
    from matplotlib.patches import Rectangle

    name = _safe(p.b.levels[p.level].name)
    for c, r in void_cells(p.b, p.level):
        if p.square_shown(c, r):
            p.ax.add_artist(Rectangle((c, r), 1, 1, zorder=2, **VOID,
                                      gid=f"void-{name}:{column_letters(c)}{r + 1}"))


def _heat_fills(p: _Plan, heat: dict[int, float]) -> None:
    """A forecast's heat map: each area shaded by its chance, the chance written in it."""
    import matplotlib
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle

    cmap = matplotlib.colormaps["inferno_r"]
    norm = Normalize(0.0, 1.0)
    colour: Any
    for a in p.areas:
        chance = heat.get(a.index)
        if chance is None or (a.fuel <= 0 and not chance):  # nothing to burn here
            colour = OUTDOOR if p.b.rooms[a.room].outdoors else "#ffffff"
        else:
            colour = cmap(0.08 + 0.8 * norm(chance))
        if p.square_shown(a.col, a.row):
            p.ax.add_artist(Rectangle((a.col, a.row), 1, 1, facecolor=colour, edgecolor="none",
                                      zorder=2, gid=f"heat-{_safe(a.name)}"))
    for i, label, size, x, y in _heat_words(p.b, p.level, p.options):
        p.text(x, y, label, ha="center", va="center", fontsize=size,
               color="white" if heat[i] > 0.55 else "black", zorder=9)


def _heat_words(b: Building, level: int, options: MapOptions
                ) -> list[tuple[int, str, float, float, float]]:
    """A heat map's chances as written in their areas: (area, words, size, x, y) each."""
    heat = options.heat or {}
    size = _fs(options, 7, 10)
    return [(a.index, f"{round(100 * heat[a.index])}%", size, a.col + 0.5, a.row + 0.5)
            for a in b.areas if a.level == level and heat.get(a.index) is not None
            and (a.fuel > 0 or heat[a.index] > 0)]


def _fuel_fills(p: _Plan) -> None:
    """Each area shaded by its fuel (the open air pale green), a burned-out area darkened."""
    import matplotlib
    from matplotlib.patches import Rectangle

    cmap = matplotlib.colormaps["YlOrBr"]
    colour: Any
    for a in p.areas:
        if not p.square_shown(a.col, a.row):
            continue
        if p.options.fuel and a.fuel > 0:
            colour = cmap(0.08 + 0.62 * min(a.fuel, 9) / 9)
        elif p.b.rooms[a.room].outdoors:
            colour = OUTDOOR
        else:
            colour = "#ffffff"
        p.ax.add_artist(Rectangle((a.col, a.row), 1, 1, facecolor=colour, edgecolor="none",
                                  zorder=2, gid=f"area-{_safe(a.name)}"))
        if a.burned_out and p.options.shows(a.index):
            p.ax.add_artist(Rectangle((a.col, a.row), 1, 1, facecolor=BURNED, alpha=0.7,
                                      edgecolor="none", zorder=3, gid=f"burned-{_safe(a.name)}"))


def _fire_breaks(p: _Plan, scene: Scene) -> None:
    """The fire break the heroes cleared (module fire-breaks): bare earth stippled brown, or a
    thinned area's fuel stippled sparser (``FIRE_BREAK_STYLE``); every map shows it, the
    players' too (they can see cleared ground)."""
    from matplotlib.patches import Rectangle

    from fuego.modules.fire_breaks import cleared_by_area

    for i, klass in cleared_by_area(scene).items():
        a = p.b.areas[i]
        if a.level == p.level and p.square_shown(a.col, a.row):
            p.ax.add_patch(Rectangle((a.col, a.row), 1, 1, linewidth=0, zorder=2.5,
                                     **FIRE_BREAK_STYLE[klass],
                                     gid=f"firebreak-{klass}-{_safe(a.name)}"))


def _smoke(p: _Plan, scene: Scene) -> None:
    """Smoke hatched over the fills: thin ``//``, thick ``xxx``."""
    from matplotlib.patches import Rectangle

    assert scene.smoke is not None
    for i in sorted(scene.smoke.density):
        d = int(scene.smoke.density[i])
        a = p.b.areas[i]
        if a.level != p.level or not d or not p.options.shows(i) \
                or not p.square_shown(a.col, a.row):
            continue
        thick = d == 2
        p.ax.add_patch(Rectangle((a.col, a.row), 1, 1, fill=False, linewidth=0,
                                 hatch="xxx" if thick else "//",
                                 edgecolor="#404040" if thick else "#8c8c8c", zorder=4,
                                 gid=f"smoke-{'thick' if thick else 'thin'}-{_safe(a.name)}"))


def _grids(p: _Plan) -> None:
    """The grid over the fills and the smoke (miniatures stand on it), under walls and marks,
    only where the building is (rock has no squares); the 5-ft grid if asked; a tile's shared
    strips."""
    from matplotlib.collections import LineCollection

    p.ax.add_collection(LineCollection(_grid_lines(p.b, p.level, 1.0), colors=GRID,
                                       linewidths=GRID_LW * p.lw_scale, zorder=4.5, gid="grid"))
    if p.options.subgrid:
        p.ax.add_collection(LineCollection(_grid_lines(p.b, p.level, 0.5, inner=True),
                                           colors=SUBGRID, linewidths=SUBGRID_LW * p.lw_scale,
                                           zorder=4.4, gid="subgrid"))
    if p.tiles:
        _overlap_marks(p.ax, p.window, p.tiles, p.s)


def _exits(p: _Plan) -> None:
    """The ways out: one green outline a run of exit squares (its EXIT: :func:`_exit_words`)."""
    from matplotlib.collections import LineCollection

    b = p.b
    for run in exit_runs(b, p.level) if p.options.labels else ():
        first = b.areas[run[0]]
        p.ax.add_collection(LineCollection(
            _run_outline(b, p.level, run, 0.06), colors=EXIT_COLOUR,
            linewidths=1.6 * p.lw_scale, capstyle="projecting", zorder=5,
            gid=f"exit-{_safe(first.name)}"))


def _exit_words(b: Building, level: int, options: MapOptions) -> list[Mark]:
    """Each run of exit squares' EXIT (at its middle square), for the placer."""
    marks: list[Mark] = []
    for run in exit_runs(b, level) if options.labels else ():
        first = b.areas[run[0]]
        if options.heat is None and (options.area_inches >= 0.75 or any(
                Feature.EXIT in b.areas[i].features for i in run)):
            mx = sum(b.areas[i].col for i in run) / len(run)
            my = sum(b.areas[i].row for i in run) / len(run)
            middle = sorted(run, key=lambda i: ((b.areas[i].col - mx) ** 2
                                                + (b.areas[i].row - my) ** 2, i))
            marks.append((middle[0], "EXIT", _fs(options, 6, 9),
                          dict(color=EXIT_COLOUR, fontweight="bold",
                               gid=f"exit-label-{_safe(first.name)}", also=middle[1:])))
    return marks


def _barriers(p: _Plan) -> None:
    """Walls, doors and windows on their edges, stairs and holes in their squares (their
    ``up``/``down``: :func:`_link_words`)."""
    b = p.b
    for barrier in b.barriers:
        la, lb = b.areas[barrier.a].level, b.areas[barrier.b].level
        if la != p.level and lb != p.level:
            continue
        if la != lb:
            _vertical_mark(p.ax, b, barrier, p.level, p.lw_scale, p.options)
            continue
        _edge(p.ax, b, barrier, p.lw_scale)


def _door_swings(b: Building, level: int) -> list[tuple[float, float, float, float]]:
    """The boxes no word may go over: each door's and window's edge on the level (its leaf
    swings 0.6 in)."""
    out = []
    for barrier in b.barriers:
        if barrier.kind not in OPENABLE or b.areas[barrier.a].level != level \
                or b.areas[barrier.b].level != level:
            continue
        geo = _edge_geometry(b, barrier)
        if geo is not None:
            (px, py), (qx, qy), _ = geo
            pad = 0.12
            out.append((min(px, qx) - pad, min(py, qy) - pad, max(px, qx) + pad,
                        max(py, qy) + pad))
    return out


def _link_words(b: Building, level: int, options: MapOptions) -> list[Mark]:
    """The ``up``/``down`` of each stair, ladder and hole on the level, for the placer."""
    marks: list[Mark] = []
    for barrier in b.barriers:
        la, lb = b.areas[barrier.a].level, b.areas[barrier.b].level
        end = _link_end(b, barrier, level) if la != lb and level in (la, lb) else None
        if end is not None:
            marks.append((end[0], "up" if end[1] else "down", _fs(options, 6, 9),
                          dict(color="#222222")))
    return marks


def _link_end(b: Building, barrier: Barrier, level: int) -> tuple[int, bool] | None:
    """A vertical link's area on ``level`` and whether it leads up from there (None: an intact
    floor, never drawn)."""
    if barrier.kind is BarrierKind.FLOOR and not barrier.destroyed:
        return None  # every area has a floor: only its loss is marked
    here = barrier.a if b.areas[barrier.a].level == level else barrier.b
    there = barrier.other(here)
    return here, b.levels[b.areas[there].level].elevation > b.levels[level].elevation


def _fuel_words(b: Building, level: int, options: MapOptions) -> list[Mark]:
    """Oil, gunpowder and beams, and each area's fuel number (from 0.5 in a square), unless
    the map shows no fuel (--no-fuel) or is a heat map."""
    if options.heat is not None or not options.fuel:
        return []
    areas = [a for a in b.areas if a.level == level]
    marks = _features(b, areas, options)
    if options.area_inches >= 0.5:
        marks.extend((a.index, str(a.fuel), _fs(options, 6, 9),
                      dict(color="#7a5230", corner=True)) for a in areas if a.fuel > 0)
    return marks


def _draw_labels(p: _Plan, labels: LevelLabels) -> None:
    """Each word as placed, and its leader line."""
    for word in labels.words:
        if word.room:  # (clipped to a tile, never left out: a room's name may span pages)
            artist = _text(p.ax, word.x, word.y, word.text, ha=word.ha, va=word.va,
                           **word.style)
            if p.clip:
                artist.set_clip_on(True)
        else:
            p.text(word.x, word.y, word.text, ha=word.ha, va=word.va, **word.style)
        if word.leader is not None:
            _leader(p.ax, word.leader, word.leader_gid)


def _place_marks(lay: _Labels, marks: list[Mark]) -> None:
    """Each word at the first free spot of its area. None left: a feature's word
    (``leader`` in its style) as :func:`_mark_beside` says (a feature is never lost); any
    other word is left to the legend, which still says what it would mark."""
    for i, words, size, style in marks:
        style = dict(style)
        leader = style.pop("leader", None)
        if "group" in style:
            _group_word(lay, style.pop("group"), words, size, style, leader)
            continue
        spots = _mark_spots(lay.b, i, style)
        found = lay.placer.spot_for(words, size, spots)
        if found is not None:
            (x, y, ha, va), box = found
            lay.mark(words, size, x, y, ha, va, box, style)
        elif leader is not None:
            _mark_beside(lay, [i], words, size, spots, style, leader)


def _group_word(lay: _Labels, areas: list[int], words: str, size: float, style: dict,
                leader: str) -> None:
    """A feature in several areas of one room (the magazine's kegs): one word for them all,
    placed as a room's name is: inside, over those areas only, nearest their centre, at its
    size, then at the smallest; else as a word with no room in its area
    (:func:`_mark_beside`), beside them, or a number among them."""
    b = lay.b
    near, spots = _spots_among(b, b.centre_of(areas))
    spots += [spot for i in near for spot in _area_spots(b.areas[i].col, b.areas[i].row)]
    cells = {(b.areas[i].col, b.areas[i].row) for i in near}
    tries = [(words, fs) for fs in dict.fromkeys((size, lay.least))]
    placed = _place_inside(lay.placer, tries, spots, cells, lambda _: 0.02)
    if placed is not None:
        text, fs, (x, y, ha, va), box = placed
        lay.mark(text, fs, x, y, ha, va, box, style)
        return
    _mark_beside(lay, near, words, size, spots, style, leader, cells)


def _mark_beside(lay: _Labels, near: list[int], words: str, size: float, spots, style: dict,
                 leader: str, cells: set[tuple[int, int]] | None = None) -> None:
    """A feature's word that found no free spot at its size in its area (``near``: the
    area, or a room's areas that hold it, nearest their centre first; ``cells``: theirs, when
    the word must lie over them only): a spot there at the smallest size; else beside them,
    over their own room where it can (nearest first), with a leader line (gid ``leader``) to
    a dot in one; else a number there and the word in the legend's numbered notes; with no
    legend, the first spot, over whatever is there."""
    b, placer, least = lay.b, lay.placer, lay.least
    if least < size:
        found = placer.spot_for(words, least, spots,
                                where=None if cells is None else lambda box: _within(box, cells))
        if found is not None:
            (x, y, ha, va), box = found
            lay.mark(words, least, x, y, ha, va, box, style)
            return
    a = b.areas[near[0]]
    own = {(c.col, c.row) for c in (b.areas[j] for j in b.room_areas(a.room))
           if c.level == lay.level}
    # just off the area, then half an area and an area further (every neighbour full)
    tries = [(words, fs, reach) for fs, reach in
             itertools.product(dict.fromkeys((size, least)), FEATURE_REACH)]
    beside = _beside(lay, near, tries, lambda _: 0.02,
                     lambda box: (not _within(box, own), _crowding(b, lay.level, box)))
    if beside is not None:
        _, fs, x, y, box, line = beside
        lay.mark(words, fs, x, y, "center", "center", box, style, line, leader)
        return
    home = cells if cells is not None else {(a.col, a.row)}
    if lay.number(words, near, home, spots, gid=style.get("gid", "")):
        return
    x, y, ha, va = spots[0]
    box = placer.box(words, size, x, y, ha, va, 0.02)
    placer.take(box)
    lay.mark(words, size, x, y, ha, va, box, style)


def _mark_spots(b: Building, i: int, style: dict) -> list[tuple[float, float, str, str]]:
    """The spots a word may take in area ``i``, best first (its style's placement hints are
    taken out of it)."""
    a = b.areas[i]
    spots = _area_spots(a.col, a.row)
    if "also" in style:  # EXIT: inside the run's outline, its middle square first
        spots = [spot for j in [i, *style.pop("also")] for spot in _exit_spots(b.areas[j])]
    if style.pop("corner", False):  # a fuel number: a corner, bottom right first
        spots = [spots[5], spots[3], spots[4], spots[2]] + spots
    if style.pop("under", False):
        x, y = style.pop("at")
        spots = [(x, y, "center", "top"), (x, y - 0.36, "center", "bottom")] + spots
    return spots


def _grid_lines(b: Building, level: int, step: float, inner: bool = False):
    """Grid segments ``step`` areas apart along every side of the level's areas (``inner``:
    only the lines inside an area, the 5-ft grid), none over squares that are no area."""
    segs: set[tuple[tuple[float, float], tuple[float, float]]] = set()
    n = round(1 / step)
    for a in b.areas:
        if a.level != level:
            continue
        for k in range(1, n) if inner else range(n + 1):
            t = k * step
            segs.add(((a.col + t, a.row), (a.col + t, a.row + 1)))
            segs.add(((a.col, a.row + t), (a.col + 1, a.row + t)))
    return sorted(segs)


def _run_outline(b: Building, level: int, run: list[int], inset: float):
    """The outline of a run of squares, ``inset`` areas inside its edge (corners met)."""
    cells = {(b.areas[i].col, b.areas[i].row) for i in run}
    segs = []
    for c, r in sorted(cells):
        # each side: its start and end corner, its direction along, its normal inwards
        for (px, py), (tx, ty), (nx, ny) in (((c, r), (1, 0), (0, 1)),
                                             ((c + 1, r + 1), (-1, 0), (0, -1)),
                                             ((c, r + 1), (0, -1), (1, 0)),
                                             ((c + 1, r), (0, 1), (-1, 0))):
            if (c - nx, r - ny) in cells:
                continue  # not an edge of the run

            d0, d1 = (_corner(cells, (c + k * tx, r + k * ty), (nx, ny), inset)
                      for k in (-1, 1))
            qx, qy = px + tx, py + ty
            segs.append(((px + nx * inset - tx * d0, py + ny * inset - ty * d0),
                         (qx + nx * inset + tx * d1, qy + ny * inset + ty * d1)))
    return segs


def _seams(tiles: list[Window]) -> list[tuple[float, float, float, float]]:
    """The strips neighbouring tiles share, as placer boxes ``(x0, y0, x1, y1)``."""
    xs = sorted({(t[0], t[1]) for t in tiles})
    ys = sorted({(t[2], t[3]) for t in tiles})
    lo_x, hi_x = xs[0][0], xs[-1][1]
    lo_y, hi_y = ys[0][0], ys[-1][1]
    out = [(b[0], lo_y, a[1], hi_y) for a, b in zip(xs, xs[1:])]
    return out + [(lo_x, b[0], hi_x, a[1]) for a, b in zip(ys, ys[1:])]


def _corner(cells, along: tuple[int, int], normal: tuple[int, int], inset: float) -> float:
    """How far an inset side runs on past its corner, the square ``along`` being its
    neighbour on the side: stops short at an outer corner, runs on at an inner one."""
    if along not in cells:
        return -inset
    if (along[0] - normal[0], along[1] - normal[1]) in cells:
        return inset
    return 0.0


def _overlap_marks(ax, window: Window, tiles: list[Window], s: float) -> None:
    """Tint the strips this page shares with its neighbours and put alignment crosses in their
    middles, at the same places of the plan on both pages."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Rectangle

    x0, x1, y0, y1 = window
    eps = 1e-6
    bands = []  # (x0, x1, y0, y1) of each shared strip
    for t in tiles:
        if t == window:
            continue
        if abs(t[2] - y0) < eps and x0 + eps < t[0] < x1 - eps:
            bands.append((t[0], x1, y0, y1))  # the next page to the right starts here
        if abs(t[2] - y0) < eps and x0 + eps < t[1] < x1 - eps:
            bands.append((x0, t[1], y0, y1))
        if abs(t[0] - x0) < eps and y0 + eps < t[2] < y1 - eps:
            bands.append((x0, x1, t[2], y1))
        if abs(t[0] - x0) < eps and y0 + eps < t[3] < y1 - eps:
            bands.append((x0, x1, y0, t[3]))
    r = 0.07 / s  # the cross: a circle 0.14 in across, its arms 0.12 in out
    arm = 0.12 / s
    for k, (bx0, bx1, by0, by1) in enumerate(bands):
        ax.add_patch(Rectangle((bx0, by0), bx1 - bx0, by1 - by0, facecolor="#5dade2",
                               alpha=0.22, edgecolor="none", zorder=4.6, gid=f"overlap-{k}"))
        vertical = (bx1 - bx0) < (by1 - by0)
        length = (by1 - by0) if vertical else (bx1 - bx0)
        count = max(2, round(length * s / 3))
        for n in range(count):
            frac = (n + 0.5) / count
            cx = (bx0 + bx1) / 2 if vertical else bx0 + frac * (bx1 - bx0)
            cy = by0 + frac * (by1 - by0) if vertical else (by0 + by1) / 2
            ax.add_patch(Circle((cx, cy), r, fill=False, edgecolor="#111111", lw=0.6,
                                zorder=15, gid=f"align-{k}-{n}"))
            for (ux, uy) in ((1, 0), (0, 1)):
                ax.add_line(Line2D([cx - ux * arm, cx + ux * arm], [cy - uy * arm, cy + uy * arm],
                                   color="#111111", lw=0.6, zorder=15))


def _outline(ax, b: Building, level: int, lw_scale: float) -> None:
    """The plan's outline: an indoor area's outer wall (its room's wall) on every side with no
    area across it, at the plan's edge or against rock; a thin grey edge where an outdoor area
    meets the plan's end (the street goes on); a thin line between neighbours not joined."""
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    edges, loose = [], []
    for i, (dc, dr) in outer_sides(b, level):
        a = b.areas[i]
        seg = _side(a.col, a.row, dc, dr)
        room = b.rooms[a.room]
        if room.outdoors:
            edges.append(seg)
            continue
        lw, colour, _ = wall_style(room.wall)
        side = {(-1, 0): "w", (1, 0): "e", (0, -1): "n", (0, 1): "s"}[(dc, dr)]
        (px, py), (qx, qy) = seg
        ax.add_line(Line2D([px, qx], [py, qy], color=colour, lw=lw * lw_scale,
                           solid_capstyle="projecting", zorder=7,
                           gid=f"outer-wall-{_safe(a.name)}-{side}"))
    for a in b.areas:
        if a.level != level:
            continue
        for dc, dr in ((1, 0), (0, 1)):
            j = b.at(level, a.col + dc, a.row + dr)
            if j is not None and b.between(a.index, j) is None:
                loose.append(_side(a.col, a.row, dc, dr))
    if edges:
        ax.add_collection(LineCollection(edges, colors=PLAN_EDGE, linewidths=0.8 * lw_scale,
                                         zorder=6, capstyle="projecting", gid="plan-edge"))
    if loose:
        ax.add_collection(LineCollection(loose, colors="#222222", linewidths=1.0 * lw_scale,
                                         zorder=6, capstyle="projecting"))


def _side(col: int, row: int, dc: int, dr: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """The side of square (col, row) towards (col + dc, row + dr)."""
    if dc:
        x = col + (1 if dc > 0 else 0)
        return (x, row), (x, row + 1)
    y = row + (1 if dr > 0 else 0)
    return (col, y), (col + 1, y)


def _edge_geometry(b: Building, barrier: Barrier):
    """The shared edge of two side-by-side areas (``Building.shared_edge``): (p0, p1, normal
    towards a), or None."""
    edge = b.shared_edge(barrier.a, barrier.b)
    if edge is None:
        return None
    a, c = b.areas[barrier.a], b.areas[barrier.b]
    return edge[0], edge[1], (a.col - c.col, a.row - c.row)


def _surround_wall(b: Building, barrier: Barrier) -> Structure | None:
    """The wall a door or window sits in: the sturdier of the two rooms' walls (indoors)."""
    rooms = [b.rooms[b.areas[i].room] for i in (barrier.a, barrier.b)]
    walls = [r.wall for r in rooms if not r.outdoors] or [rooms[0].wall]
    return max(walls, key=lambda w: wall_style(w)[0])


def _edge(ax, b: Building, barrier: Barrier, lw_scale: float) -> None:
    """A barrier between two areas side by side, on their shared edge: an archway, a wall (or
    its breach), or a door or window in its wall."""
    from matplotlib.lines import Line2D

    geo = _edge_geometry(b, barrier)
    if geo is None:
        return
    (x0, y0), (x1, y1), _ = geo
    gid = barrier_gid(barrier)
    kind = barrier.kind
    if kind is BarrierKind.OPEN or kind in ALWAYS_OPEN:
        if b.areas[barrier.a].room != b.areas[barrier.b].room:  # an archway between rooms
            ax.add_line(Line2D([x0, x1], [y0, y1], color="#7f7f7f", lw=1.0 * lw_scale,
                               ls=(0, (1, 2)), zorder=6, gid=gid))
        return
    if kind is BarrierKind.WALL or kind is BarrierKind.FLOOR:
        lw, colour, _ = wall_style(barrier.structure)
        if barrier.destroyed:
            ax.add_line(Line2D([x0, x1], [y0, y1], color=BROKEN, lw=1.4 * lw_scale,
                               ls=(0, (3, 2)), zorder=7, gid=gid))
        else:
            ax.add_line(Line2D([x0, x1], [y0, y1], color=colour, lw=lw * lw_scale,
                               solid_capstyle="projecting", zorder=7, gid=gid))
        return
    _opening(ax, b, barrier, geo, lw_scale)


def _opening(ax, b: Building, barrier: Barrier, geo, lw_scale: float) -> None:
    """A door or a window in a wall: stubs of the wall, then the opening in the middle 60%
    (broken: dashed red; closed: filled, a window with its glazing bar; open: its leaf)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Polygon

    (x0, y0), (x1, y1), (nx, ny) = geo
    gid = barrier_gid(barrier)
    lw, colour, _ = wall_style(_surround_wall(b, barrier))
    ux, uy = x1 - x0, y1 - y0

    def at(t: float, off: float = 0.0) -> tuple[float, float]:
        return x0 + ux * t + nx * off, y0 + uy * t + ny * off

    for t0, t1 in ((0.0, 0.2), (0.8, 1.0)):
        p, q = at(t0), at(t1)
        ax.add_line(Line2D([p[0], q[0]], [p[1], q[1]], color=colour, lw=lw * lw_scale,
                           solid_capstyle="butt", zorder=7))
    door = barrier.kind is BarrierKind.DOOR
    half = 0.06 if door else 0.045
    corners = [at(0.2, -half), at(0.8, -half), at(0.8, half), at(0.2, half)]
    if barrier.destroyed:
        ax.add_patch(Polygon(corners, closed=True, fill=False, edgecolor=BROKEN,
                             lw=1.2 * lw_scale, ls=(0, (3, 2)), zorder=8, gid=gid))
        return
    fill = _opening_fill(barrier)
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


def _opening_fill(barrier: Barrier) -> str:
    """A door's colour by its wood, a window's by its glass."""
    if barrier.kind is BarrierKind.DOOR:
        return DOOR_COLOUR.get(barrier.structure, "#8b5a2b") if barrier.structure else "#8b5a2b"
    return WINDOW_COLOUR.get(barrier.structure, "#9fd3f0") if barrier.structure else "#9fd3f0"


def _vertical_mark(ax, b: Building, barrier: Barrier, level: int, lw_scale: float,
                   options: MapOptions) -> None:
    """Stairs, ladders, holes, trapdoors and collapsed floors, on both levels they join (their
    ``up``/``down``: :func:`_link_words`)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Rectangle

    kind = barrier.kind
    end = _link_end(b, barrier, level)
    if end is None:
        return
    here, up = end
    a = b.areas[here]
    # the barrier's own gid goes on the lower of its two levels
    gid = barrier_gid(barrier) if up else f"link-{kind.value}-{barrier.index}"
    x, y = a.col, a.row
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


def _features(b: Building, areas, options: MapOptions) -> list[tuple[int, str, float, dict]]:
    """Oil, gunpowder, explosives and beams as the words the legend shows, for the label
    placer: one an area, or one for a room's areas that hold the same (``group`` in its
    style: those areas), named by its first square (row, then column)."""
    fs = _fs(options, 6, 9)
    held: dict[tuple[str, str], list[int]] = {}
    for a in areas:
        for key in feature_marks(a):
            held.setdefault((a.room, key), []).append(a.index)
    out = []
    for a in areas:
        for key in feature_marks(a):
            group = held[(a.room, key)]
            first = min(group, key=lambda i: (b.areas[i].row, b.areas[i].col))
            if a.index != group[0]:
                continue  # (the group's word: once, where its first area comes)
            word, colour = FEATURE_MARK[key]
            name = _safe(b.areas[first].name)
            style: dict[str, Any] = dict(color=colour, fontweight="bold",
                                         gid=f"feature-{word}-{name}",
                                         leader=f"feature-leader-{word}-{name}")
            if len(group) > 1:
                style["group"] = group
            out.append((first, word, fs, style))
    return out


def _wrap(text: str) -> str:
    """A long name on two lines, broken at the space nearest its middle."""
    spaces = [k for k, ch in enumerate(text) if ch == " "]
    if not spaces:
        return text
    k = min(spaces, key=lambda k: (abs(2 * k - len(text)), k))
    return text[:k] + "\n" + text[k + 1:]


#: A room's name inside the room is at least this share of its full size; smaller, it goes
#: beside the room with a leader line instead (a closet's long name stays legible).
INSIDE_SHARE = 0.8
#: Inches between a name set beside its room and the room's edge (the leader line crosses it).
LEADER_GAP = 0.04
#: How far (areas, beyond the gap) a feature's word with no room in its area may stand from
#: it, tried in order: a crowded level (oil in every area) has room further out.
FEATURE_REACH = (0.0, 0.5, 1.0, 1.5, 2.0)


def _room_spots(b: Building, key: str, level: int) -> tuple[list[int], list[tuple]]:
    """A room's areas on the level, nearest its centre first, and the spots its name may
    take among them, best first (:func:`_spots_among`)."""
    return _spots_among(b, b.room_centre(key, level))


def _spots_among(b: Building, centre: tuple[float, float, list[int]]
                 ) -> tuple[list[int], list[tuple]]:
    """Areas of one room (all of them on a level, or those with a feature) as
    :meth:`Building.centre_of` gives them, nearest their centre first, and the spots a word
    for them all may take among them, best first."""
    cx, cy, near = centre
    if not near:
        return [], []
    centres = []
    a = b.areas[near[0]]
    inside = len(near) > 1 and abs(a.col + 0.5 - cx) < 0.01 and abs(a.row + 0.5 - cy) < 0.01
    if inside or len(near) == 1:
        centres.append((cx, cy))
    centres += [(b.areas[i].col + 0.5, b.areas[i].row + 0.5) for i in near]
    # below the centre first, so a fire or hero there stays readable; then across the
    # line between two of the room's areas (between two tokens), then off-centre
    spots = [(x, y + dy, "center", "center") for x, y in centres for dy in (0.3, -0.3, 0.0)]
    cells = {(b.areas[i].col, b.areas[i].row) for i in near}
    spots += [(c + 0.5, r + 1.0, "center", "center") for c, r in
              ((b.areas[i].col, b.areas[i].row) for i in near) if (c, r + 1) in cells]
    spots += [(c + 1.0, r + 0.5 + dy, "center", "center") for c, r in
              ((b.areas[i].col, b.areas[i].row) for i in near) if (c + 1, r) in cells
              for dy in (0.3, -0.3)]
    spots += [(x + dx, y + dy, "center", "center") for x, y in centres
              for dy in (0.38, -0.38) for dx in (-0.2, 0.2)]
    return near, spots


def _within(box: tuple[float, float, float, float], cells: set[tuple[int, int]]) -> bool:
    """Whether a box (areas) lies over the room's areas only."""
    x0, y0, x1, y1 = box
    return all((c, r) in cells
               for c in range(math.floor(x0 + 1e-9), math.floor(x1 - 1e-9) + 1)
               for r in range(math.floor(y0 + 1e-9), math.floor(y1 - 1e-9) + 1))


def _place_inside(placer: _Placer, words: list[tuple[str, float]], spots: list[tuple],
                  cells: set[tuple[int, int]], pad: Callable[[float], float]):
    """The first of ``words`` (text, size) at the first free spot whose box lies over the
    room's areas only (and take it): (text, size, spot, box), or None."""
    for text, size in words:
        for x, y, ha, va in spots:
            box = placer.box(text, size, x, y, ha, va, pad(size))
            if _within(box, cells) and placer.free(box):
                placer.take(box)
                return text, size, (x, y, ha, va), box
    return None


def _leader_spots(b: Building, near: list[int], placer: _Placer, text: str,
                  size: float, reach: float = 0.0) -> list[tuple[float, float, int]]:
    """Where a name that fits no spot inside its room may stand beside it: its box just off
    each side and corner of the room's areas nearest the centre (``reach`` areas further
    out), beyond a short leader; (x, y, area) each, the nearest first."""
    w, h = placer.size(text, size)
    gap = 2 * LEADER_GAP / placer.s + 0.1 + reach
    dx, dy = 0.5 + w / 2 + gap, 0.5 + h / 2 + gap
    centres = [(b.areas[i].col + 0.5, b.areas[i].row + 0.5, i) for i in near[:4]]
    out = [(x + sx * dx, y + sy * dy, i) for x, y, i in centres
           for sx, sy in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1))]
    # then slid along each side to the area's ends (a neighbour's free corner)
    ax, ay = max(0.0, 0.5 - w / 2), max(0.0, 0.5 - h / 2)
    out += [(x + side, y + sy * dy, i) for x, y, i in centres for sy in (1, -1)
            for side in (-ax, ax) if ax]
    out += [(x + sx * dx, y + side, i) for x, y, i in centres for sx in (1, -1)
            for side in (-ay, ay) if ay]
    return out


#: Where a leader line's dot may sit in its area, best first: ``(distance, None)`` that far
#: short of the area's middle towards the word (a quarter area: a fire's or a hero's token
#: there stays whole over it; then nearer the word), else ``(dx, dy)`` an inner corner (off
#: the middle, to keep the line off what else is in the area); in areas.
LEADER_ENDS: tuple[tuple[float, float | None], ...] = (
    (0.25, None), (0.4, None), (-0.35, -0.35), (0.35, -0.35), (-0.35, 0.35), (0.35, 0.35))


def leader_line(b: Building, i: int, box, end: tuple[float, float | None] = LEADER_ENDS[0]
                ) -> tuple[float, float, float, float]:
    """The leader line from a word's box set beside area ``i`` to the dot in it (at ``end``,
    one of :data:`LEADER_ENDS`): from the box's point nearest the dot; (x0, y0, x1, y1), the
    dot at the end."""
    a = b.areas[i]
    x, y = a.col + 0.5, a.row + 0.5
    x0, y0, x1, y1 = box
    if end[1] is not None:
        qx, qy = x + end[0], y + end[1]
        return min(max(qx, x0), x1), min(max(qy, y0), y1), qx, qy
    px, py = min(max(x, x0), x1), min(max(y, y0), y1)
    d = math.hypot(x - px, y - py) or 1.0
    return px, py, x + (px - x) * end[0] / d, y + (py - y) * end[0] / d


def _beside(lay: _Labels, near: list[int], tries, pad: Callable[[float], float],
            rank: Callable[[tuple[float, float, float, float]], Any]):
    """Where a word with no room in its area (or room) stands beside it, with a leader line
    to a dot in one of ``near`` (nearest the centre first). Of ``tries`` (text, size, reach)
    in order, the first with a free box whose leader crosses no label, leader or token, the
    best there by ``rank(box)``, then the nearest; failing that, the first whose leader
    crosses no label or leader, crossing the fewest tokens. With no numbered notes to fall
    back on (no legend), then the first whose leader crosses no label, then the fewest. The
    box and the line are taken (no later word goes over either); returns (text, size, x, y,
    box, line), or None."""
    found = [_beside_spots(lay, near, text, size, reach, pad(size), rank)
             for text, size, reach in tries]
    tiers: list[Callable[[tuple[int, int, int]], bool]] = [
        lambda c: c == (0, 0, 0), lambda c: c[:2] == (0, 0)]
    if lay.notes is None:
        tiers += [lambda c: c[0] == 0, lambda c: True]
    for clear in tiers:
        for (text, size, _), spots in zip(tries, found):
            free = [spot for spot in spots if clear(spot[0])]
            if free:
                *_, x, y, box, line = min(free)
                lay.placer.take(box)
                lay.placer.leaders.append(line)
                return text, size, x, y, box, line
    return None


def _beside_spots(lay: _Labels, near: list[int], text: str, size: float, reach: float,
                  pad: float, rank):
    """Each free spot beside ``near`` for ``text`` at ``size`` and each end of its leader:
    (what the leader crosses, rank, spot's order, end's order, x, y, box, line)."""
    placer, b = lay.placer, lay.b
    out = []
    for n, (x, y, i) in enumerate(_leader_spots(b, near, placer, text, size, reach)):
        box = placer.box(text, size, x, y, "center", "center", pad)
        if not placer.free(box):
            continue
        for k, end in enumerate(LEADER_ENDS):
            line = leader_line(b, i, box, end)
            out.append((placer.crossed(line, i), rank(box), n, k, x, y, box, line))
    return out


def _leader(ax, line: tuple[float, float, float, float], gid: str) -> None:
    """A thin line from a word's box to the area it names, with a dot there
    (:func:`leader_line`)."""
    from matplotlib.lines import Line2D

    px, py, qx, qy = line
    ax.add_line(Line2D([px, qx], [py, qy], color="#1b1b1b", lw=0.6, zorder=10, gid=gid,
                       marker="o", markevery=[1], ms=2.5))
    # (clipped to the axes, so a tile's page ends it with the rest)


def _room_labels(lay: _Labels, scene: Scene | None) -> None:
    """Each room's name: inside the room at a legible size where it can be; a name that
    cannot (a closet's long name) beside the room, with a leader line to it, once every other
    room has its place (:func:`_room_beside`)."""
    b, options = lay.b, lay.options
    fs = _fs(options, 9, 14)
    later: list[tuple[str, str, list[int], list[tuple]]] = []
    for key, room in b.rooms.items():
        near, spots = _room_spots(b, key, lay.level)
        if not near:
            continue
        name = room.name or key
        if scene is not None and key in scene.flashed:
            name += " (flashover)"
        cells = {(b.areas[i].col, b.areas[i].row) for i in near}
        big = list(dict.fromkeys((w, max(lay.least, z)) for w, z in
                                 ((name, fs), (_wrap(name), fs),
                                  (_wrap(name), fs * INSIDE_SHARE))))
        placed = _place_inside(lay.placer, big, spots, cells, lay.room_pad)
        if placed is None:
            later.append((key, name, near, spots))
            continue
        words, size, (x, y, ha, va), box = placed
        lay.room(key, words, size, x, y, box)
    for key, name, near, spots in later:
        _room_beside(lay, key, name, near, spots, fs)


def _crowding(b: Building, level: int, box) -> tuple[bool, bool]:
    """How badly a name set beside its room sits: across walls (over more than one room, or
    off the areas), then over a small room (under 3 areas: its own name would be taken for
    this one's)."""
    x0, y0, x1, y1 = box
    rooms = set()
    for c in range(math.floor(x0 + 1e-9), math.floor(x1 - 1e-9) + 1):
        for r in range(math.floor(y0 + 1e-9), math.floor(y1 - 1e-9) + 1):
            i = b.at(level, c, r)
            rooms.add(None if i is None else b.areas[i].room)
    small = any(k is None or len(b.room_areas(k)) < 3 for k in rooms)
    return len(rooms) != 1, small


def _room_beside(lay: _Labels, key: str, name: str, near: list[int], spots, fs: float) -> None:
    """A name that fits no spot inside its room: beside it with a leader line, at a legible
    size, where it crowds least (:func:`_crowding`), the nearest spot of those, its leader
    clear of every label and leader (:func:`_beside`); else as small as it must be in the
    room; else a number in the room and the name in the legend's numbered notes
    (:meth:`_Labels.number`)."""
    b, placer, least = lay.b, lay.placer, lay.least
    tries = list(dict.fromkeys((w, max(least, z), 0.0) for w, z in (
        (name, fs), (_wrap(name), fs), (_wrap(name), fs * INSIDE_SHARE))))
    beside = _beside(lay, near, tries, lay.room_pad, lambda box: _crowding(b, lay.level, box))
    if beside is not None:
        words, size, x, y, box, line = beside
        lay.room(key, words, size, x, y, box, line)
        return
    tries_in = [(_wrap(name), fs * 0.65), (name, fs * 0.55), (_wrap(name), fs * 0.55)]
    for words, size in dict.fromkeys((w, max(least, z)) for w, z in tries_in):
        found = placer.spot_for(words, size, spots, lay.room_pad(size))
        if found is not None:
            (x, y, _, _), box = found
            lay.room(key, words, size, x, y, box)
            return
    cells = {(b.areas[i].col, b.areas[i].row) for i in near}
    if lay.number(name, near, cells, spots, room=key):
        return
    # no legend to hold a note: the centre, over whatever is there (and taken)
    words, size = _wrap(name), max(least, fs * 0.65)
    x, y, ha, va = spots[0]
    box = placer.box(words, size, x, y, ha, va, lay.room_pad(size))
    placer.take(box)
    lay.room(key, words, size, x, y, box)


def _fires(p: _Plan, scene: Scene) -> None:
    from matplotlib.patches import Circle

    fs = _fs(p.options, 9, 14)
    for i, x, y, r, hidden in _fire_spots(p.b, p.level, scene, p.options):
        fire = scene.fires[i]
        name = _safe(p.b.areas[i].name)
        mark = fire_mark(fire)
        colour = FIRE_COLOUR[mark.value]
        if hidden:  # the GM's: its own colour in a dashed outline (its kind shows)
            p.ax.add_patch(Circle((x, y), r, facecolor=colour, **HIDDEN_STYLE, zorder=11,
                                  gid=f"fire-hidden-{name}"))
        else:
            p.ax.add_patch(Circle((x, y), r, facecolor=colour, edgecolor="#7b241c", lw=1.0,
                                  zorder=11, gid=f"fire-{name}"))
        colour_text = "#7b241c" if mark is FireMark.FLAME else "white"
        _text(p.ax, x, y, str(fire.fd), ha="center", va="center", fontsize=fs,
              fontweight="bold", color=colour_text, zorder=12)


def _fire_spots(b: Building, level: int, scene: Scene, options: MapOptions
                ) -> list[tuple[int, float, float, float, bool]]:
    """The fires drawn on the level (the players' map: what the table sees): (area, x, y,
    radius, hidden from every hero) each."""
    drawn = fires_drawn(scene, options)
    return [(i, b.areas[i].col + 0.5, b.areas[i].row + 0.45, 0.2 + 0.018 * scene.fires[i].fd,
             drawn[i]) for i in sorted(drawn) if b.areas[i].level == level]


def _wrecks(p: _Plan, scene: Scene) -> None:
    """A burning wreck (module wrecks): a dark cart body with a flame-coloured rim, low in its
    area (a fire there keeps the middle)."""
    from matplotlib.patches import FancyBboxPatch

    for i in _wreck_areas(p.b, p.level, scene, p.options):
        a = p.b.areas[i]
        p.ax.add_patch(FancyBboxPatch((a.col + 0.22, a.row + 0.66), 0.56, 0.2,
                                      boxstyle="round,pad=0.02", **WRECK_STYLE, zorder=11,
                                      gid=f"wreck-{_safe(a.name)}"))


def _wreck_areas(b: Building, level: int, scene: Scene, options: MapOptions) -> list[int]:
    from fuego.modules.wrecks import burning_wrecks

    return [w.area for w in burning_wrecks(scene)
            if b.areas[w.area].level == level and options.shows(w.area)]


def _heroes(p: _Plan, scene: Scene) -> None:
    """Hero tokens, their initials on them."""
    from matplotlib.patches import Circle

    from fuego.engine.heroes import Status

    fs = _fs(p.options, 7, 11)
    for hero, x, y, _ in _hero_spots(p.b, p.level, scene):
        escaped = hero.status is Status.ESCAPED
        colour = HERO_COLOUR.get(hero.status.value, HERO_COLOUR[Status.ACTIVE.value])
        p.ax.add_patch(Circle((x, y), HERO_R, facecolor=colour, edgecolor="#0b2e4a", lw=1.0,
                              ls="--" if escaped else "-", zorder=13,
                              gid=f"hero-{_safe(hero.name)}"))
        _text(p.ax, x, y, initials(hero.name), ha="center", va="center", fontsize=fs,
              color="white" if not escaped else "#0b2e4a", fontweight="bold",
              zorder=14)


def _hero_spots(b: Building, level: int, scene: Scene) -> list[tuple[Any, float, float, bool]]:
    """Each hero's token on the level: (hero, x, y, alone in the area) each, up to four in an
    area at its corners."""
    spots = [(0.22, 0.22), (0.78, 0.22), (0.22, 0.78), (0.78, 0.78)]
    count: dict[int, int] = {}
    crowd: dict[int, int] = {}
    out = []
    for hero in scene.heroes:
        crowd[hero.area] = crowd.get(hero.area, 0) + 1
    for hero in scene.heroes:
        a = b.areas[hero.area]
        if a.level != level:
            continue
        n = count.get(hero.area, 0)
        count[hero.area] = n + 1
        dx, dy = spots[n % 4]
        out.append((hero, a.col + dx, a.row + dy, crowd[hero.area] == 1))
    return out


def _hero_names(b: Building, level: int, scene: Scene, options: MapOptions) -> list[Mark]:
    """A hero's name under its token when alone in its area at a scale with room for it, for
    the placer (one that finds no room is left to the legend, which names every hero)."""
    fs = _fs(options, 7, 11)
    return [(hero.area, hero.name, max(MIN_PT, fs - 1.5),
             dict(color="#0b2e4a", zorder=14, under=True, at=(x, y + 0.16)))
            for hero, x, y, alone in _hero_spots(b, level, scene)
            if alone and options.area_inches >= 0.75]


def _token_boxes(b: Building, level: int, scene: Scene, options: MapOptions
                 ) -> list[tuple[tuple[float, float, float, float], int]]:
    """The space each token on the level keeps from words, (box, its area) each: a fire's
    disc, a wreck's body, a hero's disc or its initials where they are wider (at a small
    scale the letters outgrow the disc)."""
    out = [((x - r, y - r, x + r, y + r), i)
           for i, x, y, r, _ in _fire_spots(b, level, scene, options)]
    out += [((b.areas[i].col + 0.2, b.areas[i].row + 0.64, b.areas[i].col + 0.8,
              b.areas[i].row + 0.88), i) for i in _wreck_areas(b, level, scene, options)]
    if options.tokens:
        measure = _Placer(options.area_inches, (0.0, 0.0, 0.0, 0.0))
        fs = _fs(options, 7, 11)
        for hero, x, y, _ in _hero_spots(b, level, scene):
            w, h = measure.size(initials(hero.name), fs)
            rx, ry = max(HERO_R, w / 2), max(HERO_R, h / 2)
            out.append(((x - rx, y - ry, x + rx, y + ry), hero.area))
    return out


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
