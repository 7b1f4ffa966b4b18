"""A forecast read as a GM reads it (issue 31): the report on paper with nothing cut off and no
key over a curve.
"""

from __future__ import annotations

import json
import os
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
        if os.environ.get("CI"):  # (.ci/run installs it: a skip there would hide the tests)
            pytest.fail("CI needs Debian's poppler-utils (pdfinfo): .ci/run installs it")
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


@pytest.mark.parametrize("layout", ["side", "pages"])
def test_every_report_says_the_forecast_in_words_clear_of_the_plans_and_curves(
        long_result, layout):
    from fuego.render.forecast_plot import plot_forecast
    from fuego.render.forecast_words import in_short

    lines = in_short(long_result.summary())
    assert lines  # (one hero: at risk, or never down)
    figures = plot_forecast(long_result, layout=layout, paper="letter")
    fig = figures[-1]  # (a PDF says it over its curves; an image under its title)
    short, = [t for t in fig.texts if t.get_gid() == "forecast-in-short"]
    drawn = short.get_text().replace("\n   ", " ")
    assert drawn.split("\n") == [f"- {line}" for line in lines]
    renderer, _ = _extents(fig)
    box = short.get_window_extent(renderer)
    for ax in fig.axes:  # the heat maps and the panels, their titles and ticks, under it
        drawn_box = ax.get_tightbbox(renderer)
        assert drawn_box is not None and not box.overlaps(drawn_box), ax.get_gid()
    for text in fig.texts:
        if text.get_gid() in ("forecast-title", "forecast-subtitle"):
            assert text.get_window_extent(renderer).y0 > box.y1


def test_a_wrapped_title_is_drawn_on_lines_not_as_an_escape(tmp_path):
    out = tmp_path / "map.svg"
    path = tmp_path / "scene.yaml"
    path.write_text(LONG, encoding="utf-8")
    r = CliRunner().invoke(cli, ["map", str(path), "--out", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "\\x0a" not in text and "Candle-Makers" in text


# -- what matters -----------------------------------------------------------------------------
#: Ana holds in the Nook behind thick stone; the only way in for the fire is the thin door from
#: the Far side, itself behind stone from the fire. Without smoke, nothing can hurt her but
#: fire in the Nook: every run in which she goes down is one in which she stood in the Nook
#: while it burned, and the fire reaches it late or never in many of the others.
NOOK = """
format: 1
title: The Nook
defaults: {wall: thick-stone-wall}
rooms:
  a: {name: Fire side, fuel: 9}
  b: {name: Far side, fuel: 9}
  c: {name: Nook, fuel: 9}
legend: {a: a, b: b, c: c}
levels:
  - name: ground
    elevation: 0
    plan: |
      abc
doors:
  - {at: ground:B1-ground:C1, name: the nook door, material: thin-wooden-door}
heroes:
  - {name: Ana, start: ground:C1, plan: hold}
fires:
  - {area: ground:A1, fd: 2}
rules: {smoke: false, max_rounds: 9}
"""


@pytest.fixture(scope="module")
def nook():
    scenario = loads(NOOK)
    return forecast(scenario, runs=120, seed=3, plans=scenario.plans)


def test_what_matters_finds_the_room_the_downs_pass_through(nook):
    ana = nook.summary()["heroes"]["Ana"]
    runs = ana["what_matters_runs"]
    assert runs["down"] >= 3 and runs["rest"] >= 3 and runs["down"] + runs["rest"] == 120
    top = ana["what_matters"][0]
    assert (top["lever"], top["room"], top["words"]) == ("burning", "c", "in Nook while it burned")
    assert top["p_among_down"] == 1.0 and top["p_among_rest"] < 1.0
    assert top["difference_ci95"][0] > 0
    assert top["difference"] == round(1.0 - top["p_among_rest"], 6)
    assert "Nook on fire by then" in top["alike"]  # the same runs: one line
    assert top["median_round_among_down"] is not None
    # the starting fire's room burned in every run, downs and rest alike: no lever
    said = [lever["words"] for lever in ana["what_matters"]]
    said += [words for lever in ana["what_matters"] for words in lever["alike"]]
    assert "Fire side on fire by then" not in said


def test_what_matters_is_the_same_whatever_plays_the_runs(nook):
    again = forecast(loads(NOOK), runs=120, seed=3, plans=loads(NOOK).plans, jobs=2, chunk=25)
    assert again.to_dict()["heroes"] == nook.to_dict()["heroes"]


def test_the_summary_says_who_is_at_risk_first_and_what_matters(tmp_path):
    path = tmp_path / "nook.yaml"
    path.write_text(NOOK, encoding="utf-8")
    r = CliRunner().invoke(cli, ["forecast", str(path), "--runs", "120", "--seed", "3"],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    short = lines.index("In short:")
    assert short < next(k for k, line in enumerate(lines) if line.startswith("The fire:"))
    assert lines[short + 1].startswith("  Ana (hold) is ")
    assert "killed in" in lines[short + 1] and "down by round" in lines[short + 1]
    matters = lines.index(next(line for line in lines if line.startswith("What matters")))
    assert lines[matters + 1].startswith("  Ana: down in ")
    assert lines[matters + 2].startswith("    in Nook while it burned: 100% (")
    assert "of the downs" in lines[matters + 2] and "of the rest, by round" in lines[matters + 2]
    assert lines[matters + 3] == "      (as often: Nook on fire by then)"


# -- where the heroes are at the end ------------------------------------------------------------
YARD = """
format: 1
title: The Yard
rooms:
  a: {name: Shed, fuel: 9}
  y: {name: Yard, outdoors: true, fuel: none}
legend: {a: a, y: y}
levels:
  - name: ground
    elevation: 0
    plan: |
      ayy
heroes:
  - {name: Tomas, start: ground:C1, plan: hold}
  - {name: Lucia, start: ground:A1, plan: hold, fire_resistant: true}
fires:
  - {area: ground:A1, fd: 1}
rules: {smoke: false, max_rounds: 3}
"""


def test_a_hero_standing_in_the_open_is_not_still_inside(tmp_path):
    path = tmp_path / "yard.yaml"
    path.write_text(YARD, encoding="utf-8")
    runner = CliRunner()
    r = runner.invoke(cli, ["forecast", str(path), "--runs", "5", "--json"],
                      catch_exceptions=False)
    heroes = json.loads(r.stdout)["heroes"]
    tomas, lucia = heroes["Tomas"], heroes["Lucia"]
    assert (tomas["p_outside"], tomas["p_still_inside"]) == (1.0, 0.0)
    assert tomas["p_outside_ci95"][0] > 0.5
    assert (lucia["p_outside"], lucia["p_still_inside"]) == (0.0, 1.0)  # in the shed
    for hero in heroes.values():  # the shares of where a hero ends add up
        assert sum(hero[k] for k in ("p_escaped", "p_knocked_out", "p_killed",
                                     "p_still_inside", "p_outside", "p_not_arrived")) == 1.0
    r = runner.invoke(cli, ["forecast", str(path), "--runs", "5"], catch_exceptions=False)
    assert "In the open at the end (outdoors, not gone by a way out): Tomas 100%." in r.output
    assert "still inside     in the open" in r.output
