"""A printed map's layout: the legend under its plans, a gap between them in proportion to
the scale, never over a plan, never off the page.

Tested on the layout the map computes (:func:`fuego.render.mapdraw.map_pages`) and on the
extents matplotlib lays the drawn legend and plans out at (a PDF's 72 dpi and a PNG's 150),
not on pixels.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from helpers import make_building, room

from fuego.render.map_style import PAPER, MapOptions, legend_height
from fuego.render.mapdraw import LEGEND_GAP_MIN, draw_map, legend_drop, map_pages

ROOT = Path(__file__).resolve().parents[1]
CAMPAIGNS = sorted(p.name for p in (ROOT / "campaigns").glob("*.yaml"))


def _scene(name: str):
    from fuego.cli.mapcmd import play_to
    from fuego.scenario.model import load

    return play_to(load(ROOT / "campaigns" / name), 7, 0)


def _extents(fig, dpi: float):
    """(the legend's frame, each plan's box with its letters and level name), in inches from
    the figure's bottom left, as laid out at ``dpi``: (x0, y0, x1, y1) each."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig.set_dpi(dpi)
    renderer = FigureCanvasAgg(fig).get_renderer()

    def inches(bbox):
        return bbox.x0 / dpi, bbox.y0 / dpi, bbox.x1 / dpi, bbox.y1 / dpi

    legend = inches(fig.legends[0].get_window_extent(renderer)) if fig.legends else None
    plans = [inches(ax.get_tightbbox(renderer)) for ax in fig.axes
             if ax.get_gid() != "page-index"]
    return legend, plans


def _check(fig, page, scale: float, foot: float) -> None:
    """The drawn legend lies where the layout said: under every plan, in the gap the layout
    keeps (the letters, then at most half an area, at least LEGEND_GAP_MIN), above the foot
    (``foot``: the page's margin), centred, inside the figure's width."""
    width, height = page.size
    for dpi in (72, 150):
        legend, plans = _extents(fig, dpi)
        assert legend is not None
        x0, y0, x1, y1 = legend
        assert y1 <= page.legend_top + 1e-3, dpi
        assert y0 >= foot - 1e-3, (dpi, y0, foot)  # (never cut off)
        assert x0 >= 0 and x1 <= width, dpi
        lowest = min(p[1] for p in plans) if plans else height
        for p in plans:  # no plan's letters over the legend, nor the legend over a plan
            assert not (p[0] < x1 and x0 < p[2] and p[1] < y1 and y0 < p[3]), (dpi, p, legend)
        if plans:
            blank = lowest - y1  # under the letters, to the legend's frame
            assert 0.1 <= blank <= max(LEGEND_GAP_MIN, 0.5 * scale) + 0.1, (dpi, scale, blank)


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_the_legend_stands_under_the_plans_a_gap_in_proportion_to_the_scale(name):
    """Every campaign side by side (a PNG) at 2, 1, 0.5, 0.4 and 0.3 in per square: the figure
    is the header, the plans, the gap and the legend, and nothing more; the gap under the
    plans' letters half an area (at least 0.2 in, at most 0.5); the legend's foot at most
    a quarter inch over the figure's edge. (The legend's height was reckoned at 0.225 in a
    row, a PDF's is under 0.19, and at 0.3 in a square a narrow figure's legend has 14 rows:
    the tavern at 0.3 had a blank band 1.2 in tall between its plans and its legend.)"""
    scene = _scene(name)
    for scale in (2.0, 1.0, 0.5, 0.4, 0.3):
        options = MapOptions(area_inches=scale, subtitle="as the scene starts")
        page, = map_pages(scene.building, scene, options)
        fig, = draw_map(scene.building, scene, options)
        bottom = min(y for _, (_, y, _, _), _ in page.placed)
        assert bottom - page.legend_top == pytest.approx(legend_drop(options))
        legend, _ = _extents(fig, 72)
        assert legend is not None and legend[1] <= 0.25, (scale, legend)
        _check(fig, page, scale, 0.0)


@pytest.mark.parametrize("paper", sorted(PAPER))
def test_on_paper_the_legend_stands_under_its_plan_never_off_the_page(paper):
    """The tavern and the ship on Letter and A4 at 1 and 0.3 in per square: a page's legend
    stands under its plan (it stood at the page's foot, a small plan's legend half a page
    under it), over the page's margin; a tiled page's under its tile; the key page's under
    its title."""
    for name, scale in itertools.product(("tavern.yaml", "ship.yaml"), (1.0, 0.3)):
        scene = _scene(name)
        options = MapOptions(area_inches=scale, layout="pages", paper=paper,
                             subtitle="as the scene starts")
        pages = map_pages(scene.building, scene, options)
        figures = draw_map(scene.building, scene, options)
        assert len(pages) == len(figures)
        drawn = 0
        for page, fig in zip(pages, figures):
            if page.legend:
                _check(fig, page, scale, page.margin)
                drawn += 1
        assert drawn


def test_a_legend_of_names_on_two_lines_is_sized_for_every_line():
    """A note whose name has a line break is two lines in the legend: the figure keeps room
    for both (one line a note, it would run over the plan)."""
    long = "Wardrobe of the Lady Abbess\nInes de Castillo"
    b = make_building(plans={"ground": (0, ["ab"])},
                      rooms={"a": room("a", long, fuel=2), "b": room("b", "Box", fuel=2)})
    options = MapOptions(area_inches=0.3)
    page, = map_pages(b, None, options)
    assert any(words == long for lv in page.labels for _, words in page.labels[lv].notes)
    fig, = draw_map(b, None, options)
    _check(fig, page, 0.3, 0.0)
    legend, _ = _extents(fig, 72)
    assert legend is not None
    # taller than as many entries of one line each
    n = len(fig.legends[0].get_texts())
    assert legend[3] - legend[1] > legend_height([1] * n, page.size[0]) - 0.05


def test_a_long_name_in_the_legend_wraps_to_the_figure_never_off_it():
    """A note for an 80-letter name on a map 4.5 in wide: its words wrap onto more lines in
    the legend, which stays inside the figure (it ran a third of an inch off each side)."""
    long = "Wardrobe of the Lady Abbess Ines de Castillo y Mendoza, the Younger, of Seville"
    b = make_building(plans={"ground": (0, ["ab"])},
                      rooms={"a": room("a", long, fuel=2), "b": room("b", "Box", fuel=2)})
    options = MapOptions(area_inches=0.3)
    page, = map_pages(b, None, options)
    fig, = draw_map(b, None, options)
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any("\n" in t and t.replace("\n", " ") == long for t in texts)
    _check(fig, page, 0.3, 0.0)  # (inside the figure's width, over its foot)
