"""A forecast read as a GM reads it (issue 31): the report on paper with nothing cut off and no
key over a curve.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from fuego.cli import cli
from fuego.forecast.runner import forecast
from fuego.scenario.model import loads

#: Two rooms and a long title: the report's title and subtitles must wrap to the page.
LONG = """
format: 1
title: The Long-Named Warehouse of the Candle-Makers, by the River Gate, at Midnight
defaults: {wall: thin-wooden-wall}
rooms:
  a: {name: Dipping Room, fuel: 9}
  b: {name: Wick Store, fuel: 9}
legend: {a: a, b: b}
levels:
  - name: ground
    elevation: 0
    plan: |
      aabbb
      aabbb
fires:
  - {area: ground:A1, fd: 2}
heroes:
  - {name: Corentin the Chandler's Apprentice, start: ground:E2}
rules: {smoke: false, max_rounds: 6}
"""


@pytest.fixture(scope="module")
def long_result():
    return forecast(loads(LONG), runs=12, rounds=4, seed=5)


def _page_sizes(path) -> list[tuple[float, float]]:
    """Each page's size in points, read by poppler's pdfinfo."""
    if shutil.which("pdfinfo") is None:
        pytest.skip("pdfinfo (poppler-utils) is not installed")
    out = subprocess.run(["pdfinfo", "-f", "1", "-l", "999", str(path)], check=True,
                         capture_output=True, text=True).stdout
    return [(float(w), float(h)) for w, h in
            re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts", out)]


@pytest.mark.parametrize("paper, size", [("letter", (612.0, 792.0)), ("a4", (595.0, 842.0))])
def test_every_page_of_the_pdf_report_is_on_the_paper_asked(tmp_path, paper, size):
    path = tmp_path / "scene.yaml"
    path.write_text(LONG, encoding="utf-8")
    out = tmp_path / "report.pdf"
    r = CliRunner().invoke(cli, ["forecast", str(path), "--runs", "6", "--rounds", "3",
                                 "--out", str(out), "--paper", paper], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    pages = _page_sizes(out)
    assert len(pages) == 2  # the one level's heat map, then the curves
    for w, h in pages:  # portrait or landscape, always the sheet itself
        assert sorted((round(w), round(h))) == sorted(round(v) for v in size)
    assert f"(2 {'Letter' if paper == 'letter' else 'A4'} pages)" in r.output


def test_paper_is_for_a_pdf_report(tmp_path):
    path = tmp_path / "scene.yaml"
    path.write_text(LONG, encoding="utf-8")
    r = CliRunner().invoke(cli, ["forecast", str(path), "--runs", "2", "--paper", "a4",
                                 "--out", str(tmp_path / "r.png")])
    assert r.exit_code == 2 and "--paper sets the pages of a PDF report" in r.output
    assert not (tmp_path / "r.png").exists()


def _extents(fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    renderer = fig.canvas.get_renderer()
    return renderer, fig.bbox


@pytest.mark.parametrize("layout", ["side", "pages"])
def test_no_word_leaves_the_page_and_no_key_covers_a_curve(long_result, layout):
    from fuego.render.forecast_plot import plot_forecast

    figures = plot_forecast(long_result, layout=layout, paper="letter")
    for fig in figures:
        renderer, page = _extents(fig)
        for text in fig.texts:  # the title and the subtitle, wrapped
            box = text.get_window_extent(renderer)
            assert page.x0 - 1 <= box.x0 and box.x1 <= page.x1 + 1, text.get_text()
        keys = [leg for leg in fig.legends if str(leg.get_gid()).startswith("key-")]
        panels = [ax for ax in fig.axes if str(ax.get_gid()).startswith("panel-")]
        for leg in keys:
            box = leg.get_window_extent(renderer)
            assert page.x0 <= box.x0 and box.x1 <= page.x1 and page.y0 <= box.y0
            for ax in panels:  # under its panel, never over any panel's data
                assert not box.overlaps(ax.get_window_extent(renderer)), leg.get_gid()
    curves = figures[-1]
    assert {leg.get_gid() for leg in curves.legends} >= {
        "key-panel-burning", "key-panel-fire-out", "key-panel-heroes"}
    if layout == "pages":  # too long for one line of a Letter page: wrapped, not cut
        subtitle, = [t for t in figures[0].texts if t.get_gid() == "map-subtitle"]
        assert "\n" in subtitle.get_text()


def test_a_wrapped_title_is_drawn_on_lines_not_as_an_escape(tmp_path):
    out = tmp_path / "map.svg"
    path = tmp_path / "scene.yaml"
    path.write_text(LONG, encoding="utf-8")
    r = CliRunner().invoke(cli, ["map", str(path), "--out", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "\\x0a" not in text and "Candle-Makers" in text
