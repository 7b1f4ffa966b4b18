"""Printable maps (issue 8): ``fuego map`` and :mod:`fuego.render.mapdraw`.

Every shipped campaign is rendered to SVG, PNG and PDF and the files are read back: the SVG's
ids (every room labelled, barriers counted by kind and state), the PNG's header (its size is
exact: inches per area x dpi), the PDF's pages (one per level).
"""

from __future__ import annotations

import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import make_building, make_scene, room

from fuego.cli import cli
from fuego.engine.heroes import Hero, Status
from fuego.engine.scene import Cause
from fuego.render.map_style import MapOptions, exit_runs
from fuego.render.mapdraw import count_drawn, draw_map, figure_size
from fuego.world.places import ALWAYS_OPEN, BarrierKind, Feature, RouteKind

ROOT = Path(__file__).resolve().parents[1]
CAMPAIGNS = sorted((ROOT / "campaigns").glob("*.yaml"))
SVG = "{http://www.w3.org/2000/svg}"
BARRIER_ID = re.compile(r"^barrier-([a-z]+)-([a-z]+)-(\d+)$")


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def svg_ids(path: Path) -> dict[str, ET.Element]:
    root = ET.parse(path).getroot()
    return {el.attrib["id"]: el for el in root.iter() if el.get("id")}


def svg_texts(el: ET.Element) -> str:
    return " ".join(t for t in el.itertext()).strip()


def barrier_ids(ids) -> dict[str, list[tuple[str, int]]]:
    out: dict[str, list[tuple[str, int]]] = {}
    for name in ids:
        m = BARRIER_ID.match(name)
        if m:
            out.setdefault(m.group(1), []).append((m.group(2), int(m.group(3))))
    return out


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def expected_counts(b) -> dict[str, int]:
    """Barriers a map must show, counted from the building without the renderer's help."""
    out: dict[str, int] = {}
    for x in b.barriers:
        a, c = b.areas[x.a], b.areas[x.b]
        if a.level == c.level:
            if abs(a.col - c.col) + abs(a.row - c.row) != 1:
                continue
            if x.kind in ALWAYS_OPEN and a.room == c.room:
                continue
        elif x.kind is BarrierKind.FLOOR and not x.destroyed:
            continue
        out[x.kind.value] = out.get(x.kind.value, 0) + 1
    return out


@pytest.fixture(scope="module", params=[p.name for p in CAMPAIGNS] or ["none"])
def campaign(request):
    if request.param == "none":
        pytest.skip("no campaigns shipped yet")
    from fuego.scenario.model import load

    path = ROOT / "campaigns" / request.param
    return path, load(path)


# -- every shipped campaign -----------------------------------------------------------------------
def test_campaign_svg_labels_every_room_and_counts_barriers(campaign, tmp_path):
    path, scenario = campaign
    out = tmp_path / "map.svg"
    result = invoke("map", str(path), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output
    ids = svg_ids(out)
    b = scenario.build(0).building
    for key, room_ in b.rooms.items():
        if not b.room_areas(key):
            continue
        assert f"room-{key}" in ids, f"room {key} not labelled"
        # (a name wrapped onto two lines to stay inside its room is the same words)
        assert room_.name in " ".join(svg_texts(ids[f"room-{key}"]).split())
    drawn = barrier_ids(ids)
    counts = {kind: len(v) for kind, v in drawn.items()}
    assert counts == expected_counts(b) == count_drawn(b)
    summary = b.summary()
    assert counts.get("door", 0) == summary["doors"]
    assert counts.get("window", 0) == summary["windows"]
    # every door and window shows its state at the start
    for kind in ("door", "window"):
        for state, index in drawn.get(kind, []):
            barrier = b.barriers[index]
            assert barrier.kind.value == kind
            assert state == ("closed" if barrier.closed else "open")
    for area in b.areas:
        assert f"area-{area.name}" in ids
    # the ways out: one outline and one EXIT a run of exit squares, the runs covering them all
    runs = [run for lv in {a.level for a in b.areas} for run in exit_runs(b, lv)]
    assert sorted(i for run in runs for i in run) == [a.index for a in b.areas
                                                      if b.is_exit(a.index)]
    assert {n for n in ids if n.startswith("exit-") and not n.startswith("exit-label-")} == {
        f"exit-{b.areas[run[0]].name}" for run in runs}
    assert {n for n in ids if n.startswith("exit-label-")} <= {
        f"exit-label-{b.areas[run[0]].name}" for run in runs}
    for hero in scenario.build(0).heroes:
        assert f"hero-{hero.name.replace(' ', '-')}" in ids
    assert "legend" in ids
    # the grid's letters and numbers are the engine's area names
    texts = {t.text for t in ET.parse(out).getroot().iter(f"{SVG}text")}
    cols = {a.name.split(":")[1].rstrip("0123456789") for a in b.areas}
    assert cols <= texts


def test_campaign_png_has_the_exact_size(campaign, tmp_path):
    path, scenario = campaign
    out = tmp_path / "map.png"
    result = invoke("map", str(path), "--out", str(out), "--dpi", "40")
    assert result.exit_code == 0, result.output
    b = scenario.build(0).building
    scene = scenario.build(0)
    (w, h), = figure_size(b, scene, MapOptions(subtitle="as the scene starts"))
    assert png_size(out) == (round(w * 40), round(h * 40))
    # 1 inch per 10-ft area: the plan of the widest level is at least that wide
    assert png_size(out)[0] >= max(a.col for a in b.areas) * 40


def test_campaign_pdf_has_one_page_per_level(campaign, tmp_path):
    path, scenario = campaign
    out = tmp_path / "map.pdf"
    # small enough that every level and its key fit one A4 page
    result = invoke("map", str(path), "--out", str(out), "--scale", "0.4", "--paper", "a4")
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page\b", data))
    levels = {a.level for a in scenario.build(0).building.areas}
    assert pages == len(levels)
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert boxes and all(sorted((float(w), float(h))) == pytest.approx([595.44, 841.68])
                         for w, h in boxes)


def test_campaign_after_rounds_shows_the_scene_of_that_seed(campaign, tmp_path):
    from fuego.engine import loop
    from fuego.engine.controllers import AutoController, ScriptedController
    from fuego.rules.charts import Density

    path, scenario = campaign
    out = tmp_path / "r3.svg"
    result = invoke("map", str(path), "--round", "3", "--seed", "7", "--out", str(out))
    assert result.exit_code == 0, result.output
    scene = scenario.build(7)  # the run fuego run --seed 7 --rounds 3 plays
    actions = scenario.actions
    loop.run(scene, ScriptedController(actions) if actions else AutoController(), rounds=3)
    ids = svg_ids(out)
    b = scene.building
    # a scenario's map is the GM's: every fire, those no hero sees drawn as hidden ones
    fires = {name[5:].removeprefix("hidden-") for name in ids if name.startswith("fire-")}
    assert fires == {b.areas[i].name for i in scene.fires}
    smoke = scene.smoke.density if scene.smoke else {}
    for kind, density in (("thin", Density.THIN), ("thick", Density.THICK)):
        want = {b.areas[i].name for i, d in smoke.items() if d is density}
        assert {n[len(f"smoke-{kind}-"):] for n in ids if n.startswith(f"smoke-{kind}-")} == want
    burned = {a.name for a in b.areas if a.burned_out}
    assert {n[7:] for n in ids if n.startswith("burned-")} == burned
    broken = {x.index for x in b.barriers if x.destroyed}
    drawn_broken = {i for v in barrier_ids(ids).values() for s, i in v if s == "broken"}
    assert drawn_broken <= broken
    assert "after round 3 (seed 7)" in result.output


# -- built buildings: every kind of mark ----------------------------------------------------------
def _house():
    b = make_building(
        plans={"ground": (0, ["kkkhhs", "kkkhhs"]), "upper": (1, ["bbbcc.", "bbbcc."])},
        rooms={"k": room("kitchen", "Kitchen", fuel=5), "h": room("hall", "Hall", fuel=2),
               "s": room("street", "Street", outdoors=True),
               "b": room("bedroom", "Bedroom", fuel=4), "c": room("corridor", fuel=1)},
        doors={("ground:C1", "ground:D1"): True, ("ground:E2", "ground:F2"): False},
        windows={("ground:A1", "ground:A2"): True, ("upper:C2", "upper:D2"): False},
        stairs=[("ground:E1", "upper:E1")],
        features={"ground:B2": {Feature.OIL}, "upper:A1": {Feature.WOODEN_BEAM}},
        routes=[(RouteKind.CARPET, ["upper:A2", "upper:B2", "upper:C2"]),
                (RouteKind.OIL, ["ground:A2", "ground:B2"])],
        title="A small house")
    return b


def test_every_mark_carries_an_id(tmp_path):
    import matplotlib

    b = _house()  # the window at A1|A2 sits inside the kitchen: a window is a window
    scene = make_scene(b, fires={"ground:B1": 4},
                       heroes=[Hero("Ana Maria", b.find("ground:A1")),
                               Hero("Bo", b.find("upper:D1"), )])
    floor = b.between(b.find("ground:B2"), b.find("upper:B2"))
    b.destroy_barrier(floor)
    wall = b.between(b.find("ground:C2"), b.find("ground:D2"))
    b.destroy_barrier(wall)
    scene.heroes[1].status = Status.KNOCKED_OUT
    fig, = draw_map(b, scene, MapOptions(subtitle="test"))
    out = tmp_path / "house.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig.savefig(out)
    ids = svg_ids(out)
    drawn = barrier_ids(ids)
    assert sorted(drawn["door"]) == sorted([("closed", b.between(b.find("ground:C1"),
                                                                 b.find("ground:D1")).index),
                                            ("open", b.between(b.find("ground:E2"),
                                                               b.find("ground:F2")).index)])
    assert {s for s, _ in drawn["window"]} == {"closed", "open"}
    assert ("broken", wall.index) in drawn["wall"]
    assert drawn["floor"] == [("broken", floor.index)]
    stairs = b.between(b.find("ground:E1"), b.find("upper:E1"))
    assert drawn["stairs"] == [("open", stairs.index)]
    assert f"link-stairs-{stairs.index}" in ids  # the same stairs on the upper level
    assert f"link-floor-{floor.index}" in ids
    assert {"route-carpet-0", "route-oil-1"} <= set(ids)
    assert {"fire-ground:B1", "hero-Ana-Maria", "hero-Bo", "feature-oil-ground:B2",
            "feature-beam-upper:A1", "room-kitchen", "room-corridor", "exit-ground:F1"} <= set(ids)
    assert svg_texts(ids["room-corridor"]) == "Corridor"
    text = " ".join(svg_texts(el) for el in ids.values() if el.get("id") == "legend")
    for word in ("door (closed)", "door (open)", "window", "stairs", "broken wall",
                 "collapsed floor", "carpet", "oil", "AM Ana Maria", "B Bo (knocked-out)",
                 "fire"):
        assert word in text, word


def test_a_fire_break_is_marked_and_keyed_on_every_map(tmp_path):
    # the village's strip (column L) is cleared before round 1: hatched bare earth, and the
    # legend says so, on the players' map too (they see cleared ground); the field is not
    village = ROOT / "campaigns" / "village.yaml"
    for extra in ((), ("--no-fuel",), ("--round", "2", "--seed", "3")):
        out = tmp_path / f"v{len(extra)}.svg"
        got = invoke("map", str(village), "--level", "ground", "--out", str(out), *extra)
        assert got.exit_code == 0, got.output
        ids = svg_ids(out)
        marked = {i.removeprefix("firebreak-clear-") for i in ids if i.startswith("firebreak")}
        assert marked == {f"ground:L{r}" for r in range(1, 7)}, (extra, marked)
        legend = svg_texts(ids["legend"])
        assert "fire break: cleared to bare ground" in legend, extra
        assert "thinned" not in legend


def test_a_thinned_fire_break_keeps_its_fuel_shade_and_says_so(tmp_path):
    import matplotlib
    from test_modules_support import field, scene_with

    b = field(["ww"])
    scene = scene_with(b, {"fire-breaks": {"factors": 1, "areas": {"ground:B1": "light"},
                                           "terrain": {"woods": "woods"}}})
    fig, = draw_map(b, scene, MapOptions(subtitle="test"))  # (the plan: before round 1)
    out = tmp_path / "woods.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig.savefig(out)
    ids = svg_ids(out)
    assert "firebreak-light-ground:B1" in ids and not any("ground:A1" in i and "break" in i
                                                            for i in ids)
    assert "fire break: thinned to scrub" in svg_texts(ids["legend"])


def test_the_legend_says_outdoors_only_where_the_map_draws_it_pale_green():
    # the wagon's street has fuel (spilt hay): shaded by it, never pale green; on the
    # players' map (no fuel shown) it is pale green, and the legend says so
    from fuego.render.map_style import Legend, legend_labels
    from fuego.scenario.model import load

    b = load(ROOT / "campaigns" / "wagon.yaml").build(0).building
    assert all(b.areas[i].fuel > 0 for k in b.rooms if b.rooms[k].outdoors
               for i in b.room_areas(k))
    assert (Legend.OUTDOORS,) not in legend_labels(b, None, MapOptions())
    assert (Legend.OUTDOORS,) in legend_labels(b, None, MapOptions(fuel=False))
    village = load(ROOT / "campaigns" / "village.yaml").build(0).building  # a bare barnyard
    assert (Legend.OUTDOORS,) in legend_labels(village, None, MapOptions())


def test_pages_layout_gives_one_figure_per_level_at_scale():
    b = _house()
    figs = draw_map(b, None, MapOptions(layout="pages", area_inches=2.0))
    assert len(figs) == 2
    sizes = figure_size(b, None, MapOptions(layout="pages", area_inches=2.0))
    assert [tuple(f.get_size_inches()) for f in figs] == [pytest.approx(s) for s in sizes]
    ax = figs[0].axes[0]
    # the ground plan (6 x 2 areas) is exactly 12 x 4 inches at 2 inches per area
    bbox = ax.get_position()
    w, h = figs[0].get_size_inches()
    assert bbox.width * w == pytest.approx(12.0) and bbox.height * h == pytest.approx(4.0)
    labels = [t.get_text() for t in ax.get_xticklabels()]  # top and bottom
    assert list(dict.fromkeys(labels)) == list("ABCDEF")
    assert list(dict.fromkeys(t.get_text() for t in ax.get_yticklabels())) == ["1", "2"]


def test_drawing_changes_nothing_and_the_svg_is_reproducible(tmp_path):
    from fuego.cli.mapcmd import save_figures
    from fuego.files import Output

    b = _house()
    scene = make_scene(b, fires={"ground:A1": 3}, heroes=[Hero("Ana", b.find("ground:D2"))])
    before = scene.snapshot()
    outs = []
    for k in range(2):
        out = tmp_path / f"m{k}.svg"
        save_figures(draw_map(scene.building, scene), Output(out, what="map"), "svg", 72)
        outs.append(out.read_bytes())
    assert scene.snapshot() == before
    assert outs[0] == outs[1]


def test_started_fire_after_a_burn_through_shows_its_dice(tmp_path):
    b = _house()
    scene = make_scene(b, fires={"ground:A1": 6})
    scene.start_fire(b.find("ground:D1"), 2, Cause.GM)
    fig, = draw_map(b, scene)
    labels = {t.get_text() for ax in fig.axes for t in ax.texts}
    assert {"6", "2"} <= labels


# -- the command's errors -------------------------------------------------------------------------
def test_map_errors_are_clear(tmp_path):
    if not CAMPAIGNS:
        pytest.skip("no campaigns shipped yet")
    path = str(CAMPAIGNS[0])
    r = invoke("map", path, "--out", str(tmp_path / "x.gif"))
    assert r.exit_code == 2 and ".svg, .png or .pdf" in r.output
    r = invoke("map", path, "--level", "attic", "--out", str(tmp_path / "x.svg"))
    assert r.exit_code == 2 and "no level 'attic'" in r.output
    r = invoke("map", path, "--round", "100000", "--seed", "1", "--out", str(tmp_path / "x.svg"))
    assert r.exit_code == 2 and "--round must be between 0 and" in r.output
    r = invoke("map", path, "--scale", "4", "--dpi", "600", "--out", str(tmp_path / "x.png"))
    assert r.exit_code == 2 and "pixels" in r.output
    r = invoke("map", path, "--out", str(tmp_path / "missing" / "x.svg"))
    assert r.exit_code == 2 and "cannot write" in r.output


def test_level_option_draws_only_that_level(tmp_path):
    if not CAMPAIGNS:
        pytest.skip("no campaigns shipped yet")
    from fuego.scenario.model import load

    scenario = load(CAMPAIGNS[0])
    b = scenario.build(0).building
    level = b.levels[-1]
    out = tmp_path / "one.svg"
    r = invoke("map", str(CAMPAIGNS[0]), "--level", level.name, "--out", str(out))
    assert r.exit_code == 0, r.output
    ids = svg_ids(out)
    areas = {n[5:] for n in ids if n.startswith("area-")}
    assert areas == {a.name for a in b.areas if a.level == level.index}
    r = invoke("map", str(CAMPAIGNS[0]), "--level", "0", "--out", str(out), "--force")
    assert r.exit_code == 0, r.output
    assert {n[5:] for n in svg_ids(out) if n.startswith("area-")} == {
        a.name for a in b.areas if a.level == 0}


# -- start-up cost --------------------------------------------------------------------------------
def test_cli_and_command_modules_do_not_import_matplotlib():
    code = ("import sys, fuego.cli, fuego.cli.mapcmd, fuego.cli.forecast, fuego.cli.importcmd, "
            "fuego.render.mapdraw, fuego.render.forecast_plot, fuego.forecast, fuego.scenario.vtt;"
            "bad = [m for m in ('matplotlib', 'numpy') if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    timing = subprocess.run([sys.executable, "-X", "importtime", "-c", "import fuego.cli"],
                            capture_output=True, text=True, check=True)
    assert "matplotlib" not in timing.stderr


def test_an_explosive_is_a_word_on_the_map_and_in_its_legend_only_where_one_is(tmp_path):
    import matplotlib

    from fuego.render.map_style import Legend, legend_keys

    b = make_building(plans={"ground": (0, ["ssh"])},
                      rooms={"s": room("store", "Store", fuel=3), "h": room("shop", fuel=2)},
                      features={"ground:B1": {Feature.EXPLOSIVE}})
    keys = legend_keys(b, None, [0], MapOptions())
    assert (Legend.FEATURE, Feature.EXPLOSIVE.value) in keys
    fig, = draw_map(b, None, MapOptions())
    out = tmp_path / "store.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig.savefig(out)
    ids = svg_ids(out)
    assert svg_texts(ids["feature-blast-ground:B1"]) == "blast"
    legend = " ".join(svg_texts(el) for el in ids.values() if el.get("id") == "legend")
    assert "explosive (a keg of spirits, lamp gas)" in legend
    b.remove_feature(b.area("ground:B1").index, Feature.EXPLOSIVE)
    assert not [k for k in legend_keys(b, None, [0], MapOptions()) if k[0] is Legend.FEATURE]


def test_a_one_area_rooms_long_name_goes_beside_it_with_a_leader_short_ones_inside():
    # a closet's long name used to shrink to the smallest size, or sit across its walls
    # over the next room; now it keeps its size beside the room, a line leading to it
    import numpy as np

    from fuego.render.map_style import MIN_PT

    b = make_building(plans={"ground": (0, ["chhhd", "hhhhh"])},
                      rooms={"c": room("closet", "Wardrobe of the Lady Abbess Ines", fuel=2),
                             "d": room("den", "Den", fuel=2),
                             "h": room("hall", "Great Hall", fuel=3)})
    fig, = draw_map(b, None, MapOptions())
    ax = fig.axes[0]
    texts = {t.get_gid(): t for t in ax.texts if t.get_gid()}
    leaders = {ln.get_gid(): ln for ln in ax.lines if (ln.get_gid() or "").startswith("room-")}
    assert set(leaders) == {"room-leader-closet"}
    line = leaders["room-leader-closet"]
    x, y = (float(np.asarray(v, dtype=float)[1]) for v in (line.get_xdata(), line.get_ydata()))
    # the dot: in the closet, ground:A1
    assert 0 < x < 1 and 0 < y < 1
    closet = texts["room-closet"]
    assert float(closet.get_fontsize()) > MIN_PT and "Abbess" in closet.get_text()
    cx, cy = closet.get_position()
    assert not (0 <= cx <= 1 and 0 <= cy <= 1)  # beside, not over the closet
    dx, dy = texts["room-den"].get_position()
    assert 4 < dx < 5 and 0 < dy < 1  # the den's short name stays in the den


def test_a_feature_with_no_room_in_its_area_stands_beside_it_with_a_leader_never_left_out():
    # a closet full of its name had no spot left for its words: they were left out while
    # the legend still named them; now each stands beside the area, a line leading to it
    import numpy as np

    from fuego.render.map_style import MIN_PT

    b = make_building(plans={"ground": (0, ["lhhh", "hhhh"])},
                      rooms={"l": room("lamp", "Lamp Store", fuel=2),
                             "h": room("hall", "Great Hall", fuel=3)},
                      features={"ground:A1": {Feature.OIL, Feature.GUNPOWDER,
                                              Feature.EXPLOSIVE}})
    fig, = draw_map(b, None, MapOptions(area_inches=0.5))
    ax = fig.axes[0]
    texts = {t.get_gid(): t for t in ax.texts if t.get_gid()}
    leaders = {ln.get_gid(): ln for ln in ax.lines
               if (ln.get_gid() or "").startswith("feature-leader-")}
    for word in ("oil", "powder", "blast"):
        text = texts[f"feature-{word}-ground:A1"]
        assert text.get_text() == word and float(text.get_fontsize()) >= MIN_PT
        x, y = text.get_position()
        if 0 <= x <= 1 and 0 <= y <= 1:
            continue  # found a spot in its area after all
        line = leaders[f"feature-leader-{word}-ground:A1"]
        dx, dy = (float(np.asarray(v, dtype=float)[1]) for v in (line.get_xdata(),
                                                                  line.get_ydata()))
        assert 0 < dx < 1 and 0 < dy < 1  # the dot: in the lamp store, ground:A1
    assert leaders  # (the name fills the store: at least one word stands beside it)
