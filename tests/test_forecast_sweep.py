"""What-if sweeps (issue 31): variants of one scenario side by side, the difference each change
makes with its interval, the same numbers whatever plays them, and sweep files' errors."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fuego.cli import cli
from fuego.errors import FuegoError
from fuego.forecast.runner import forecast
from fuego.forecast.sweep import (
    ChangeKind,
    apply_changes,
    parse_change,
    parse_vary,
    read_sweep_file,
    sweep,
)
from fuego.scenario.model import load
from fuego.stats import mean_difference, newcombe

ROOT = Path(__file__).resolve().parents[1]
TAVERN = ROOT / "campaigns" / "tavern.yaml"


@pytest.fixture(scope="module")
def tavern():
    return load(TAVERN)


# -- the difference of two shares -----------------------------------------------------------------
@pytest.mark.parametrize(("k1", "n1", "k2", "n2", "low", "high"), [
    # Newcombe (1998), Statistics in Medicine 17:873-890, table II, method 10
    (56, 70, 48, 80, 0.0524, 0.3339),
    (9, 10, 3, 10, 0.1705, 0.8090),
    (5, 56, 0, 29, -0.0381, 0.1926),
    (0, 10, 0, 20, -0.1611, 0.2775),
    (10, 10, 0, 20, 0.6791, 1.0000),
])
def test_the_difference_of_two_shares_is_newcombes_interval(k1, n1, k2, n2, low, high):
    lo, hi = newcombe(k1, n1, k2, n2)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def test_the_difference_of_two_means_is_normal():
    # wounds 0 or 2 in half the runs each (mean 1, sd sqrt(4/3)) against always 0
    d, lo, hi = mean_difference({0: 5, 2: 5}, 10, {0: 10}, 10)
    assert d == 1.0
    assert hi - d == pytest.approx(1.959964 * (10 / 9) ** 0.5 / 10 ** 0.5, abs=1e-6)
    assert d - lo == pytest.approx(hi - d)


# -- changes in words -----------------------------------------------------------------------------
def test_changes_read_as_written():
    a, b = parse_change("door front door=open", "x"), parse_change(" door front door = open ", "x")
    assert (a.kind, a.target, a.value) == (b.kind, b.target, b.value) == (
        ChangeKind.DOOR, "front door", "open")
    c = parse_change("fire=ground:E3 4", "x")
    assert (c.kind, c.target, c.value) == (ChangeKind.FIRE, None, "ground:E3 4")
    c = parse_change("plan Gaston=rescue:Mother Hettie", "x")
    assert (c.kind, c.target, c.value) == (ChangeKind.PLAN, "Gaston", "rescue:Mother Hettie")
    v = parse_vary("wind=strong E; fuel hall=6")
    assert v.name == "wind=strong E; fuel hall=6" and len(v.changes) == 2


@pytest.mark.parametrize("text", ["smoke=thick", "door=open", "door front door=ajar",
                                  "fire", "wind strong=E", "fuel=6"])
def test_a_change_fuego_cannot_read_says_what_a_change_is(text):
    with pytest.raises(FuegoError) as err:
        parse_change(text, "--vary")
    assert err.value.where == "--vary"


@pytest.mark.parametrize(("vary", "words"), [
    ("bogus", "not a change: expected one of fire, fire+, door"),
    ("door=open", "say which door to change"),
    ("wind ground=strong", "wind= takes no name before '=', not 'ground'"),
    ("fire=", "nothing after '='"),
    ("door front door=ajar", "a door can be made open, closed, locked or broken, not 'ajar'"),
    ("fire=ground:E3 x", "the Fire Dice after the area are a number, not 'x'"),
    ("door cellar hatch=open", "no door 'cellar hatch'"),
    ("fuel nowhere=3", "no room 'nowhere'"),
    ("rules nosuch=1", "no rule 'nosuch'"),
    ("plan=dance", "not a plan: 'dance'"),
    (";", "no change in it"),
])
def test_a_bad_vary_is_one_line_naming_it_once_with_a_tip(vary, words):
    # (it read "--vary 'bogus': 'bogus' is not a change", "--vary 'plan=dance': variant
    # 'plan=dance': not a plan: 'dance'")
    r = CliRunner().invoke(cli, ["forecast", str(TAVERN), "--runs", "2", "--rounds", "2",
                                 "--vary", vary])
    assert r.exit_code == 2, r.output
    line, = r.output.strip().splitlines()
    assert line.startswith(f"fuego: error: --vary {vary!r}: {words}"), line
    assert line.count(repr(vary)) == 1, line
    assert "(tip: " in line


def test_a_bad_change_among_several_is_named_and_a_bad_plan_blames_the_plan():
    r = CliRunner().invoke(cli, ["forecast", str(TAVERN), "--runs", "2", "--rounds", "2",
                                 "--vary", "wind=strong; bogus"])
    assert r.exit_code == 2
    assert "--vary 'wind=strong; bogus': 'bogus': not a change" in r.output  # (which of them)
    r = CliRunner().invoke(cli, ["forecast", str(TAVERN), "--runs", "2", "--rounds", "2",
                                 "--plan", "dance", "--vary", "wind=strong"])
    # (it read "the scenario: variant 'as written': not a plan")
    assert r.exit_code == 2 and "fuego: error: --plan: not a plan: 'dance'" in r.output


def test_a_variant_is_the_scenario_as_if_the_file_said_so(tavern):
    varied = apply_changes(tavern, parse_vary(
        "fire=ground:G4 5; fire+=upper:B1; door front door=open; fuel hall=6; wind=strong E; "
        "rules temperament=patient"))
    assert [(f.area, f.fd) for f in varied.fires] == [("ground:G4", 5), ("upper:B1", 3)]
    assert [d.closed for d in varied.spec.doors if d.name == "front door"] == [False]
    assert varied.spec.rooms["hall"].fuel == 6
    assert (varied.weather.wind, varied.weather.direction) == ("strong", "E")
    assert varied.rules.temperament == "patient"
    assert tavern.spec.rooms["hall"].fuel == 2  # the scenario itself is untouched
    with pytest.raises(FuegoError) as err:
        apply_changes(tavern, parse_vary("door cellar hatch=open"))
    assert "front door" in (err.value.tip or "")  # the doors it has
    with pytest.raises(FuegoError) as err:
        apply_changes(tavern, parse_vary("fire=ground:Z9"))
    assert "ground:Z9" in str(err.value)


# -- the sweep ------------------------------------------------------------------------------------
#: A cell whose one door opens on the yard, a fire in its corner and Ana inside.
CELL = """\
format: 1
title: The Locked Cell
rooms:
  cell: {name: Cell, fuel: 4}
  yard: {name: Yard, outdoors: true, fuel: none, features: [exit]}
legend: {c: cell, y: yard}
levels:
  - name: ground
    plan: |
      ccc
      ccc
      yyy
doors:
  - {at: ground:B2-ground:B3, name: cell door}
heroes:
  - name: Ana Varga
    traits: {brawn: 2, finesse: 2, wits: 2, resolve: 2, panache: 2}
    start: ground:B1
fires:
  - {area: ground:A1, fd: 3}
rules: {max_rounds: 10}
"""


def test_a_locked_door_that_traps_a_hero_shows_as_the_difference():
    """Ana opens the cell door and walks out into the yard in every run; with the door locked
    she cannot, and the fire gets her: the sweep shows the difference, with an interval that
    leaves out 0, and an open door changes nothing for her."""
    from fuego.scenario.model import loads

    cell = loads(CELL, "cell.yaml")
    result = sweep(cell, [parse_vary("door cell door=locked"), parse_vary("door cell door=open")],
                   runs=12, rounds=10, seed=3)
    assert result.shares(0)["Ana Varga: p_escaped"] == (12, 12)
    assert result.shares(1)["Ana Varga: p_escaped"] == (0, 12)
    assert result.shares(1)["Ana Varga: p_down"] == (12, 12)
    d, lo, hi = result.difference(1)["Ana Varga: p_down"]
    assert d == 1.0 and lo > 0.5
    d, lo, hi = result.difference(2)["Ana Varga: p_escaped"]
    assert d == 0 and lo < 0 < hi
    # each variant's numbers are those of a forecast of it alone
    assert result.results[0].to_dict() == forecast(cell, runs=12, rounds=10, seed=3).to_dict()
    locked = apply_changes(cell, parse_vary("door cell door=locked"))
    assert result.results[1].to_dict() == forecast(locked, runs=12, rounds=10, seed=3).to_dict()


def test_a_locked_door_is_written_back_and_opened_only_by_the_gm():
    from fuego.engine import structure
    from fuego.scenario.model import loads

    locked = apply_changes(loads(CELL, "cell.yaml"), parse_vary("door cell door=locked"))
    again = loads(locked.to_yaml(), "again.yaml")
    scene = again.build(1)
    door = next(b for b in scene.building.barriers if b.name == "cell door")
    assert (door.locked, door.closed, door.describe()) == (True, True, "locked wooden-door")
    structure.open_barrier(scene, door, "the GM", door.a)
    assert not door.locked and not door.closed
    with pytest.raises(FuegoError):
        loads(CELL.replace("name: cell door}", "name: cell door, locked: true, closed: false}"),
              "bad.yaml")


def test_a_sweep_gives_the_same_numbers_whatever_the_jobs(tavern):
    variants = [parse_vary("fire=ground:G4"), parse_vary("plan=hold")]
    one = sweep(tavern, variants, runs=6, rounds=4, seed=5, jobs=1).to_dict()
    two = sweep(tavern, variants, runs=6, rounds=4, seed=5, jobs=2).to_dict()
    assert one == two
    assert [v["name"] for v in one["variants"]] == ["as written", "fire=ground:G4", "plan=hold"]
    assert "difference" not in one["variants"][0]
    assert set(one["variants"][1]["difference"]) >= {"fire_still_burning",
                                                     "Isabela Soldano: p_down"}


@pytest.mark.slow
def test_the_sweep_on_the_command_line_side_by_side_and_as_json(tmp_path):
    sweep_file = tmp_path / "sweep.yaml"
    sweep_file.write_text("variants:\n"
                          "  - name: Bjorn stays below\n"
                          "    change: plan Bjorn=hold\n", encoding="utf-8")
    args = ["forecast", str(TAVERN), "--runs", "8", "--rounds", "6", "--sweep",
            str(sweep_file), "--vary", "door front door=open; wind=strong"]
    r = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "a sweep of 3 variants" in r.output
    assert "1. Bjorn stays below" in r.output and "2. door front door=open; wind=strong" in r.output
    assert "What each change does" in r.output
    r = CliRunner().invoke(cli, [*args, "--json"], catch_exceptions=False)
    data = json.loads(r.stdout)
    assert [v["name"] for v in data["variants"]] == [
        "as written", "Bjorn stays below", "door front door=open; wind=strong"]
    assert data["variants"][1]["changes"] == ["plan Bjorn=hold"]
    assert data["variants"][1]["forecast"]["heroes"]["Bjorn Haraldsson"]["plan"] == "hold"


# -- the sweep drawn -------------------------------------------------------------------------------
def test_the_sweep_is_drawn_as_its_table_the_difference_coloured_and_marked():
    from matplotlib.colors import to_hex

    from fuego.render.sweep_plot import HIGHER, SAME, WRITTEN, plot_sweep
    from fuego.scenario.model import loads
    from fuego.stats import wilson

    cell = loads(CELL, "cell.yaml")
    # (names are drawn as written)
    named = dataclasses.replace(parse_vary("door cell door=locked"), name="$locked$ <door>")
    result = sweep(cell, [named, parse_vary("door cell door=open")], runs=12, rounds=10, seed=3)
    fig, = plot_sweep(result)
    panels = {ax.get_title(): ax for ax in fig.axes}
    assert list(panels) == ["fire burning at round 10", "Ana Varga down"]
    ana = panels["Ana Varga down"]
    bars = {line.get_gid(): to_hex(line.get_color()) for line in ana.lines if line.get_gid()}
    # locked in, she is down in every run: higher, told apart, marked; open changes nothing
    assert bars == {"sweep-bar-0": WRITTEN, "sweep-bar-1": HIGHER, "sweep-bar-2": SAME}
    star, = ana.texts  # (beside the bar that reaches 100 %: left of it, not over it)
    assert star.get_text() == "*" and star.get_position()[0] < 100 * wilson(12, 12)[0]
    labels = [t.get_text() for t in panels["fire burning at round 10"].get_yticklabels()]
    assert labels == ["0. as written", "1. $locked$ <door>", "2. door cell door=open"]
    assert all(not t.get_text() for t in ana.get_yticklabels())  # (once a row of panels)


@pytest.mark.parametrize("paper", [None, "a4", "letter"])
def test_no_word_of_a_drawn_sweep_leaves_its_page_or_covers_a_panel(tavern, paper):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from fuego.render.sweep_plot import plot_sweep

    long = dataclasses.replace(parse_vary("plan=hold"), name="everyone waits upstairs for "
                               "the fire brigade, which never comes")
    result = sweep(tavern, [long, parse_vary("door front door=locked")], runs=2, rounds=2,
                   seed=1)
    fig, = plot_sweep(result, paper)
    renderer = FigureCanvasAgg(fig).get_renderer()
    page = fig.bbox
    boxes = [ax.get_tightbbox(renderer) for ax in fig.axes]  # a panel, its title and labels
    assert len(boxes) == 5  # the fire and the four heroes
    for k, box in enumerate(boxes):
        assert box is not None and page.x0 <= box.x0 and box.x1 <= page.x1 + 1
        assert page.y0 <= box.y0 and box.y1 <= page.y1
        assert not any(box.overlaps(other) for other in boxes[k + 1:] if other is not None)
    for text in fig.texts:  # the title and the subtitle, above every panel
        box = text.get_window_extent(renderer)
        assert page.x0 <= box.x0 and box.x1 <= page.x1
        assert all(b is not None and box.y0 > b.y1 for b in boxes)


def test_a_sweep_of_many_variants_takes_pages_each_led_by_the_scenario_as_written():
    from fuego.render.map_style import PAPER
    from fuego.render.sweep_plot import plot_sweep
    from fuego.scenario.model import loads

    cell = loads(CELL, "cell.yaml")
    variants = [dataclasses.replace(parse_vary("door cell door=open"), name=f"open {k}")
                for k in range(1, 61)]
    result = sweep(cell, variants, runs=2, rounds=2, seed=1)
    pages = plot_sweep(result, "letter")
    assert len(pages) > 1
    seen = []
    for fig in pages:
        assert tuple(fig.get_size_inches()) == PAPER["letter"]
        labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
        assert labels[0] == "0. as written"
        seen += labels[1:]
    assert seen == [f"{k}. open {k}" for k in range(1, 61)]  # each once, in order
    assert len(plot_sweep(result)) == 1  # (a picture: one, as tall as it needs)


def test_a_sweep_is_written_to_out_as_a_picture_or_on_paper(tmp_path):
    scene = tmp_path / "cell.yaml"
    scene.write_text(CELL, encoding="utf-8")
    out = tmp_path / "sweep.svg"
    args = ["forecast", str(scene), "--runs", "4", "--rounds", "4",
            "--vary", "door cell door=locked"]
    r = CliRunner().invoke(cli, [*args, "--out", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "a sweep of 2 variants" in r.output and f"fuego forecast: wrote {out}" in r.output
    svg = out.read_text(encoding="utf-8")
    assert "What-if sweep: The Locked Cell" in svg and "1. door cell door=locked" in svg
    r = CliRunner().invoke(cli, [*args, "--out", str(out)])
    assert r.exit_code == 2 and "exists already" in r.output  # (never replaced unasked)
    r = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "s.png"), "--paper", "a4"])
    assert r.exit_code == 2 and "--paper sets the pages of a PDF report" in r.output
    pdf = tmp_path / "sweep.pdf"
    r = CliRunner().invoke(cli, [*args, "--out", str(pdf), "--paper", "letter"],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert f"fuego forecast: wrote {pdf} (1 Letter page)" in r.output
    assert pdf.read_bytes().startswith(b"%PDF") and b"/MediaBox [ 0 0 612 792 ]" in \
        pdf.read_bytes()


# -- sweep files ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "where", "words"), [
    ("variants: 3\n", "sweep.yaml", "a list"),
    ("variants:\n  - name: x\n", "sweep.yaml:2: variants.0", "change"),
    ("variants:\n  - change: door=open\n", "sweep.yaml:2: variants.0.change.0", "door"),
    ("variants:\n  - change: wind=calm\n    wnid: 3\n", "sweep.yaml:3: variants.0.wnid",
     "unknown key"),
    ("runs: 4\nvariants: []\n", "sweep.yaml:1: runs", "unknown key"),
])
def test_a_bad_sweep_file_names_its_line_and_key(tmp_path, text, where, words):
    path = tmp_path / "sweep.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FuegoError) as err:
        read_sweep_file(str(path))
    assert err.value.where == str(tmp_path / where)
    assert words in err.value.message and err.value.tip


def test_a_sweep_file_reads_its_variants(tmp_path):
    path = tmp_path / "sweep.yaml"
    path.write_text("variants:\n"
                    "  - name: the front door open\n"
                    "    change: door front door=open\n"
                    "  - change: [fire=ground:E3, wind=strong]\n", encoding="utf-8")
    first, second = read_sweep_file(str(path))
    assert first.name == "the front door open" and len(first.changes) == 1
    assert second.name == "fire=ground:E3; wind=strong"
    assert second.where == f"{path}:4: variants.1"
