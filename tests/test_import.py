"""Universal VTT import (issue 8): ``fuego import`` and :mod:`fuego.scenario.vtt`.

``tests/data/sample.dd2vtt`` was written for these tests: a 16 x 10 square battle map (5-ft
squares) with a cottage whose walls enclose squares (2,2)-(14,8), a partition at x = 8 with a
door (portal 1, "parlour door") and a window in the north wall at x = 4-6 (portal 2, "kitchen
window"), one light and a tiny image.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fuego.cli import cli
from fuego.errors import FuegoError, LimitError
from fuego.scenario.model import loads
from fuego.scenario.vtt import convert, convert_levels, to_plan
from fuego.scenario.vtt_read import parse
from fuego.world.building import Building
from fuego.world.places import BarrierKind

SAMPLE = Path(__file__).parent / "data" / "sample.dd2vtt"


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def vtt(walls=(), portals=(), size=(8, 8), **extra) -> str:
    data = {"format": 0.3,
            "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": size[0], "y": size[1]},
                           "pixels_per_grid": 50},
            "line_of_sight": [[{"x": x, "y": y} for x, y in line] for line in walls],
            "portals": [{"position": {"x": (a[0] + b[0]) / 2, "y": (a[1] + b[1]) / 2},
                         "bounds": [{"x": a[0], "y": a[1]}, {"x": b[0], "y": b[1]}],
                         "rotation": 0, "closed": True} for a, b in portals]}
    data.update(extra)
    return json.dumps(data)


def barrier(building, x: str, y: str):
    return building.between(building.find(x), building.find(y))


def test_the_plan_characters_imported_are_the_ones_show_draws(tmp_path):
    # a room drawn with a mark's character (b beam, d open door, o oil...) is redrawn with
    # another by show and the GM's screen: an import never picks one while others are free
    from fuego.render.terminal import plan_plain, room_symbols
    from fuego.world.places import PLAN_MARKS

    text, _ = convert(str(Path(__file__).parent / "data" / "lich-tomb.dd2vtt"))
    scenario = loads(text)
    b = scenario.build(0).building
    assert len(scenario.symbols) == 7 and not set(scenario.symbols.values()) & PLAN_MARKS
    assert room_symbols(b, scenario.symbols) == scenario.symbols
    plan_rows = text.split("plan: |")[1].split("\n\n")[0].split()
    drawn = plan_plain(b, 0, symbols=scenario.symbols, ascii=True, legend=False,
                       title=False)[2::2]  # the rows of cells
    for row, line in zip(plan_rows, drawn, strict=True):  # each cell's first character
        assert "".join(line[4 + 4 * c] for c in range(len(row))) == row, (row, line)


# -- the sample -----------------------------------------------------------------------------------
def test_sample_imports_to_a_scenario_fuego_check_accepts(tmp_path):
    out = tmp_path / "cottage.yaml"
    r = invoke("import", str(SAMPLE), "--out", str(out), "--windows-from-names")
    assert r.exit_code == 0, r.output
    assert "8 x 5 areas at 5 ft a square; 2 rooms and the outside, 1 door, 1 window" in r.output
    r = invoke("check", str(out))
    assert r.exit_code == 0, r.output
    assert "1 level (ground), 3 rooms, 40 areas" in r.output
    text = out.read_text()
    assert "one VTT square = 5 ft, so 2 x 2 squares make one 10-ft area" in text
    assert "TO DO" in text and "image" not in text.split("format: 1")[1]
    scenario = loads(text)
    b = scenario.build(0).building
    assert sorted(b.rooms) == ["outside", "room1", "room2"]
    cols = {key: sorted(b.areas[i].name for i in b.room_areas(key)) for key in b.rooms}
    assert cols["room1"] == sorted(f"ground:{c}{r}" for c in "BCD" for r in (2, 3, 4))
    assert cols["room2"] == sorted(f"ground:{c}{r}" for c in "EFG" for r in (2, 3, 4))
    assert len(cols["outside"]) == 40 - 18
    assert b.rooms["outside"].outdoors and all(b.is_exit(i) for i in b.room_areas("outside"))
    door = barrier(b, "ground:D3", "ground:E3")
    assert door.kind is BarrierKind.DOOR and door.closed
    window = barrier(b, "ground:C1", "ground:C2")
    assert window.kind is BarrierKind.WINDOW and window.closed
    assert b.summary()["doors"] == 1 and b.summary()["windows"] == 1
    # the rest of the partition and the outer walls are walls
    assert barrier(b, "ground:D2", "ground:E2").kind is BarrierKind.WALL
    assert barrier(b, "ground:B1", "ground:B2").kind is BarrierKind.WALL
    assert barrier(b, "ground:A3", "ground:B3").kind is BarrierKind.WALL
    assert barrier(b, "ground:C3", "ground:D3").kind is BarrierKind.OPEN


def test_portals_are_doors_unless_named_or_numbered_windows():
    text, report = convert(SAMPLE)
    assert (report.doors, report.windows) == (2, 0)
    assert 'portal 2 "kitchen window"' in text
    b = loads(text).build(0).building
    assert barrier(b, "ground:C1", "ground:C2").kind is BarrierKind.DOOR
    by_number, report = convert(SAMPLE, windows=(2,))
    assert (report.doors, report.windows) == (1, 1)
    by_name, _ = convert(SAMPLE, windows_from_names=True)
    assert by_number == by_name


def test_ten_foot_squares_make_one_area_each():
    text, report = convert(SAMPLE, grid_feet=10, windows=(2,))
    assert (report.cols, report.rows, report.rooms) == (16, 10, 2)
    assert "one VTT square = 10 ft, so each square is one 10-ft area" in text
    b = loads(text).build(0).building
    assert len(b.room_areas("room1")) == 6 * 6 and len(b.room_areas("room2")) == 6 * 6
    # the 10-ft door and window are two area edges each
    assert report.doors == 2 and report.windows == 2
    assert barrier(b, "ground:H5", "ground:I5").kind is BarrierKind.DOOR
    assert barrier(b, "ground:H6", "ground:I6").kind is BarrierKind.DOOR


def test_stdout_lights_and_the_imported_map_renders(tmp_path):
    r = invoke("import", str(SAMPLE))
    assert r.exit_code == 0
    assert r.stdout.startswith("# Imported from sample.dd2vtt")
    assert "# Lights on the map" in r.stdout and "ground:C3" in r.stdout
    path = tmp_path / "c.yaml"
    path.write_text(r.stdout)
    r = invoke("map", str(path), "--out", str(tmp_path / "c.svg"))
    assert r.exit_code == 0, r.output
    svg = (tmp_path / "c.svg").read_text()
    for gid in ("room-room1", "room-room2", "room-outside"):
        assert f'id="{gid}"' in svg


def test_out_is_not_overwritten_without_force(tmp_path):
    out = tmp_path / "x.yaml"
    out.write_text("keep me")
    r = invoke("import", str(SAMPLE), "--out", str(out))
    assert r.exit_code == 2 and "exists already" in r.output and out.read_text() == "keep me"
    r = invoke("import", str(SAMPLE), "--out", str(out), "--force")
    assert r.exit_code == 0 and out.read_text().startswith("# Imported")


# -- snapping -------------------------------------------------------------------------------------
def test_walls_off_the_grid_snap_to_the_nearest_10ft_line():
    # a square room whose walls wobble by up to 1.5 ft around the 10-ft lines x,y = 2 and 6
    text, report = convert_text(vtt(walls=[[(1.8, 2.2), (6.1, 1.9), (5.8, 6.2), (2.1, 5.9),
                                            (1.8, 2.2)]]))
    b = loads(text).build(0).building
    room1 = sorted(b.areas[i].name for i in b.room_areas("room1"))
    assert room1 == sorted(f"ground:{c}{r}" for c in "BC" for r in (2, 3))


def test_a_wall_running_far_off_the_map_is_cut_at_its_edge():
    # a fuzzed file's wall ran 650 million squares off the map: drawn whole on the fine raster
    # it asked for 39 GiB; cut at the map's edge it reads as the same wall ending just beyond
    room = [(2, 2), (6, 2), (6, 6), (2, 6), (2, 2)]
    far = convert_text(vtt(walls=[room, [(4, 2), (4, -654919057)]]))[0]
    near = convert_text(vtt(walls=[room, [(4, 2), (4, -1)]]))[0]
    assert far == near


def test_a_slanted_wall_seals_its_rooms():
    # a diagonal wall across a walled square splits it in two: nothing leaks across it
    walls = [[(0, 0), (8, 0), (8, 8), (0, 8), (0, 0)], [(0, 0), (8, 8)]]
    text, report = convert_text(vtt(walls=walls))
    assert report.rooms == 2 and not report.outside
    b = loads(text).build(0).building
    for key in b.rooms:
        for i in b.room_areas(key):
            for j in b.open_neighbours(i):
                assert b.areas[j].room == key


def test_a_wall_inside_a_room_is_listed_as_a_wall():
    # a stub partition that does not close: one room, one wall inside it
    walls = [[(0, 0), (8, 0), (8, 8), (0, 8), (0, 0)], [(4, 0), (4, 2)]]
    text, report = convert_text(vtt(walls=walls))
    assert report.rooms == 1 and report.inner_walls == 1
    b = loads(text).build(0).building
    assert barrier(b, "ground:B1", "ground:C1").kind is BarrierKind.WALL
    assert barrier(b, "ground:B2", "ground:C2").kind is BarrierKind.OPEN


def test_portal_on_the_border_opens_onto_an_outdoor_strip():
    # issue 20: a window in the outer wall opens onto an outdoor strip added around the map,
    # the outside, marked as an exit (on main it was "not placed: on the map's border")
    walls = [[(0, 0), (8, 0), (8, 8), (0, 8), (0, 0)]]
    text, report = convert_text(vtt(walls=walls, portals=[((2, 0), (4, 0))]), windows=(1,))
    assert report.skipped_portals == 0 and report.windows == 1 and report.strip
    assert report.outside and (report.cols, report.rows) == (6, 6)
    b = loads(text).build(0).building
    window = barrier(b, "ground:C1", "ground:C2")
    assert window.kind is BarrierKind.WINDOW
    assert b.areas[b.area("ground:C1").index].room == "outside"
    assert b.is_exit(b.area("ground:C1").index)
    assert b.areas[b.area("ground:C2").index].room == "room1"


def test_portal_on_the_border_without_an_outside_is_reported_where_and_why():
    walls = [[(0, 0), (8, 0), (8, 8), (0, 8), (0, 0)]]
    text, report = convert_text(vtt(walls=walls, portals=[((2, 0), (4, 0))]), outside=False)
    assert report.skipped_portals == 1 and not report.strip
    assert "Not carried over" in text
    assert any(line.startswith("portal 1 at (2, 0)-(4, 0) squares: not placed: on the map's "
                               "border") for line in report.dropped)


def convert_text(text: str, **kw):
    """convert() on text, through a temporary file."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "m.uvtt"
        path.write_text(text)
        return convert(path, **kw)


# -- malformed files ------------------------------------------------------------------------------
SIZE8 = '"resolution": {"map_size": {"x": 8, "y": 8}}'
TWO = '[{"x": 1, "y": 1}, {"x": 2, "y": 1}]'


@pytest.mark.parametrize("text,words", [
    ("not json", "invalid JSON at line 1"),
    ("[1, 2]", "expected a JSON object, got a list"),
    ("{}", "resolution: missing"),
    ('{"walls": [], "width": 100}', "nor a Foundry VTT scene with walls, width, height and grid"),
    ('{"resolution": {"map_size": {"x": 10}}}', "resolution.map_size: expected"),
    ('{"resolution": {"map_size": {"x": "10", "y": 5}}}',
     "map_size.x: expected a number, got text"),
    ('{"resolution": {"map_size": {"x": 401, "y": 5}}}', "1 to 400 squares a side"),
    ('{"resolution": {"map_size": {"x": 0, "y": 5}}}', "1 to 400 squares a side"),
    ('{"resolution": {"map_size": {"x": NaN, "y": 5}}}', "NaN is not a number"),
    ('{"resolution": {"map_size": {"x": 8, "y": 8}, "pixels_per_grid": -3}}',
     "not a grid size"),
    ("{" + SIZE8 + ', "line_of_sight": {}}', "expected a list of wall polylines"),
    ("{" + SIZE8 + ', "line_of_sight": [3]}', "line_of_sight[0]: expected a list of points"),
    ("{" + SIZE8 + ', "line_of_sight": [[{"x": 1}]]}', "line_of_sight[0][0]: expected a point"),
    ("{" + SIZE8 + ', "line_of_sight": [[{"x": 1, "y": 90}]]}',
     "every wall and portal is beyond the 8 x 8 square map"),
    ("{" + SIZE8 + ', "portals": 5}', "portals: expected a list"),
    ("{" + SIZE8 + ', "portals": [{"bounds": [{"x": 1, "y": 1}]}]}',
     "portals[0].bounds: expected two points"),
    ("{" + SIZE8 + ', "portals": [{"bounds": ' + TWO + ', "closed": "yes"}]}',
     "portals[0].closed: expected true or false"),
    ("[" * 100_000 + "]" * 100_000, "not a Universal VTT file"),
])
def test_malformed_files_give_clear_errors(text, words):
    with pytest.raises(FuegoError) as info:
        parse(text, "m.uvtt")
    assert words in info.value.render()
    assert info.value.render().startswith("m.uvtt: ")


def test_too_many_polylines_and_oversized_files_are_refused(tmp_path):
    many = json.dumps({"resolution": {"map_size": {"x": 8, "y": 8}},
                       "line_of_sight": [[] for _ in range(20_001)]})
    with pytest.raises(LimitError, match="at most 20000"):
        parse(many, "m.uvtt")
    big = tmp_path / "big.dd2vtt"
    with open(big, "wb") as fh:
        fh.truncate(50 * 1024 * 1024 + 1)  # sparse: nothing is written
    r = invoke("import", str(big))
    # the size and the limit, honestly (on main: "the file is 50 MiB")
    assert r.exit_code == 2 and ("the file is 52,428,801 bytes (50 MiB + 1 byte); a VTT map may "
                                 "be at most 52,428,800 bytes (50 MiB)") in r.output
    r = invoke("import", str(tmp_path / "missing.uvtt"))
    assert r.exit_code == 2 and "missing.uvtt: no such file" in r.output
    binary = tmp_path / "bin.uvtt"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    r = invoke("import", str(binary))
    assert r.exit_code == 2 and "not UTF-8" in r.output


def test_the_image_is_never_decoded(monkeypatch):
    import base64

    def boom(*a, **k):
        raise AssertionError("the image was decoded")

    monkeypatch.setattr(base64, "b64decode", boom)
    text = vtt(walls=[[(0, 0), (8, 0), (8, 8), (0, 8), (0, 0)]], image="!!! not base64 !!!")
    out, report = convert_text(text)
    assert report.rooms == 1


def test_plans_larger_than_fuego_reads_are_refused():
    text = vtt(size=(400, 10))
    with pytest.raises(LimitError, match="at most 200 areas a side"):
        to_plan(parse(text), grid_feet=10)
    plan = to_plan(parse(text), grid_feet=5)
    assert (plan.cols, plan.rows) == (200, 5)


# -- what map makers export (issue 25) -------------------------------------------------------------
import vttgen  # noqa: E402  (tests/ is on the path: the generators beside these tests)
import vttmeasure  # noqa: E402


def write(tmp_path, name: str, data: dict) -> Path:
    path = tmp_path / f"{name}.dd2vtt"
    path.write_text(json.dumps(data))
    return path


def rooms_of(text: str) -> tuple[Building, dict[str, str]]:
    """The imported building, and each area's room by the area's name."""
    b = loads(text).build(0).building
    return b, {a.name: a.room for a in b.areas}


@pytest.mark.parametrize("kind", ["crop", "cave", "jagged_circle", "tower", "cross",
                                  "five_foot", "windows"])
def test_each_kind_meets_the_bar_against_the_walls_enclosed_space(tmp_path, kind):
    # fuego's indoor areas against the space the walls enclose, drawn independently with
    # Pillow at 16 pixels a square: intersection over union, rooms, windows
    m = vttmeasure.measure(write(tmp_path, kind, getattr(vttgen, kind)()))
    assert m.iou >= vttmeasure.IOU_BAR, m
    assert m.rooms_ok and m.windows_ok, m


def test_a_crop_reads_map_origin_and_cuts_what_lies_beyond(tmp_path):
    text, report = convert(write(tmp_path, "crop", vttgen.crop()))
    assert (report.cols, report.rows, report.rooms) == (10, 6, 3)
    assert any("cut at the map's edge" in line for line in report.clipped)
    assert any(line.startswith("portals: 1 ([2]): wholly beyond") for line in report.clipped)
    b, room = rooms_of(text)
    # the hall (squares 2-10 across), the study (10-18) and its closet (14-18 x 2-6)
    hall = {f"ground:{c}{r}" for c in "BCDE" for r in "2345"}
    closet = {f"ground:{c}{r}" for c in "HI" for r in "23"}
    study = {f"ground:{c}{r}" for c in "FGHI" for r in "2345"} - closet
    for part in (hall, study, closet):
        assert len({room[a] for a in part}) == 1
    assert len({room[next(iter(p))] for p in (hall, study, closet)}) == 3
    assert b.rooms[room["ground:A1"]].outdoors and b.rooms[room["ground:J6"]].outdoors
    # the door at squares 5-7 down straddles rows 3 and 4: it stands on one of them
    assert sum(barrier(b, f"ground:E{r}", f"ground:F{r}").kind is BarrierKind.DOOR
               for r in "2345") == 1
    assert "# Cut to the map's rectangle" in text and "export region" in text


def test_nothing_on_the_map_is_refused_with_the_reason(tmp_path):
    data = vttgen.crop()
    data["resolution"]["map_origin"] = {"x": 500, "y": 500}
    r = invoke("import", str(write(tmp_path, "far", data)))
    assert r.exit_code == 2
    assert "far.dd2vtt: nothing of the map lies on it" in r.output and "map_origin" in r.output


def test_rooms_on_odd_5ft_lines_stay_where_they_are(tmp_path):
    text, report = convert(write(tmp_path, "five", vttgen.five_foot()))
    assert report.phase == (1, 1) and report.rooms == 2
    b, room = rooms_of(text)
    # squares 3-9 and 9-15 across, 3-11 down: the grid starts 5 ft out, so areas C-E and F-H,
    # rows 3-6, exactly
    west = {f"ground:{c}{r}" for c in "CDE" for r in "3456"}
    east = {f"ground:{c}{r}" for c in "FGH" for r in "3456"}
    inside = {a for a, k in room.items() if not b.rooms[k].outdoors}
    assert inside == west | east
    assert len({room[a] for a in west}) == 1 and len({room[a] for a in east}) == 1
    assert room["ground:C3"] != room["ground:F3"]
    assert sum(barrier(b, f"ground:E{r}", f"ground:F{r}").kind is BarrierKind.DOOR
               for r in "3456") == 1
    assert "the 10-ft grid starts 5 ft left and up" in text


def test_a_round_tower_split_by_a_diagonal_wall_is_two_rooms(tmp_path):
    text, report = convert(write(tmp_path, "tower", vttgen.tower()))
    assert report.rooms == 2 and report.doors == 1
    b, room = rooms_of(text)
    # areas either side of the diagonal x = y (squares), well inside the circle
    assert room["ground:F3"] == room["ground:H5"] != room["ground:C6"] == room["ground:E8"]
    assert b.rooms[room["ground:A1"]].outdoors and not b.rooms[room["ground:F6"]].outdoors
    # the table (7-8, 13-14) and the bench (14-16, 8-9) are noted where they stand
    assert "# Objects on the map that block sight" in text
    assert "#   ground:D7: 1 object (5 x 5 ft)" in text
    assert "#   ground:H5: 1 object (10 x 5 ft)" in text
    assert report.objects == 2


def test_cave_walls_of_hundreds_of_jittered_points_enclose_their_chambers(tmp_path):
    data = vttgen.cave()
    assert len(data["line_of_sight"][0]) > 400
    text, report = convert(write(tmp_path, "cave", data))
    assert report.rooms == 2 and report.doors >= 1  # the 15-ft door may take two edges
    b, room = rooms_of(text)
    assert room["ground:B2"] == room["ground:H7"] != room["ground:L3"] == room["ground:Q8"]
    assert not b.rooms[room["ground:E4"]].outdoors and b.rooms[room["ground:A9"]].outdoors


def test_a_jagged_circle_is_a_room_and_a_cross_stays_one(tmp_path):
    _, report = convert(write(tmp_path, "circle", vttgen.jagged_circle()))
    assert report.rooms == 1  # on main: 0 (the snapped pieces no longer closed)
    text, report = convert(write(tmp_path, "cross", vttgen.cross()))
    assert report.rooms == 1
    b, room = rooms_of(text)
    arms = ["ground:E2", "ground:E9", "ground:B5", "ground:I5", "ground:E5"]
    assert len({room[a] for a in arms}) == 1 and not b.rooms[room["ground:E5"]].outdoors
    assert b.rooms[room["ground:B2"]].outdoors


def test_closed_false_portals_are_windows_and_overrides_win(tmp_path):
    path = write(tmp_path, "win", vttgen.windows())
    text, report = convert(path)
    assert (report.doors, report.windows) == (1, 3)
    b = loads(text).build(0).building
    for x, y in (("ground:C1", "ground:C2"), ("ground:F1", "ground:F2"),
                 ("ground:G3", "ground:H3")):
        w = barrier(b, x, y)
        assert w.kind is BarrierKind.WINDOW and w.closed
    assert barrier(b, "ground:D5", "ground:D6").kind is BarrierKind.DOOR
    _, report = convert(path, doors=(2,), windows=(1,))
    assert (report.doors, report.windows) == (1, 3)
    text, report = convert(path, doors=(2, 3))
    assert (report.doors, report.windows) == (3, 1)
    # made doors, the portals that say closed: false stand open; the file's door stays shut
    b = loads(text).build(0).building
    assert not barrier(b, "ground:C1", "ground:C2").closed
    assert not barrier(b, "ground:F1", "ground:F2").closed
    assert barrier(b, "ground:D5", "ground:D6").closed


def test_several_maps_are_the_levels_of_one_building(tmp_path):
    ground, upper = vttgen.levels()
    g, u = write(tmp_path, "ground", ground), write(tmp_path, "upper", upper)
    out = tmp_path / "house.yaml"
    r = invoke("import", str(g), str(u), "--out", str(out))
    assert r.exit_code == 0, r.output
    assert "fuego import: ground: 8 x 6 areas" in r.output and "fuego import: upper:" in r.output
    b = loads(out.read_text()).build(0).building
    assert [lv.name for lv in b.levels] == ["ground", "upper"]
    assert barrier(b, "upper:F1", "upper:F2").kind is BarrierKind.WINDOW
    assert barrier(b, "ground:D3", "ground:E3").kind is BarrierKind.DOOR
    # beyond the upper floor's walls is open air, not a way out
    assert not b.is_exit(b.area("upper:A1").index) and b.is_exit(b.area("ground:A1").index)
    r = invoke("import", str(g), str(u), "--level", "cellar", "--level", "cellar")
    assert r.exit_code == 2 and "same --level name" in r.output


def test_a_mistyped_portal_number_is_said_before_any_map_is_drawn(tmp_path, monkeypatch):
    from fuego.scenario import vtt

    ground, upper = vttgen.levels()
    g, u = write(tmp_path, "ground", ground), write(tmp_path, "upper", upper)
    portals = len(json.loads(g.read_text())["portals"])

    def drawn(*args, **kwargs):  # (drawing the walls is the slow part of a big map's import)
        raise AssertionError("the maps were drawn before the typo was said")

    monkeypatch.setattr(vtt, "_fitted", drawn)
    r = invoke("import", str(g), str(u), "--window", str(portals + 7))
    assert r.exit_code == 2 and f"--window {portals + 7}: the map has {portals} portals" in r.output
    assert str(g) in r.output and "portals of the first map" in r.output


def _rooms_by_level(b) -> dict[str, set[str]]:
    """Each indoor room's areas by name."""
    return {key: {b.areas[i].name for i in b.room_areas(key)} for key, room in b.rooms.items()
            if not room.outdoors}


@pytest.mark.parametrize("origin, size, moved", [
    ((4, 2), (8, 8), "moved 2 areas right and 1 down"),
    ((5, 3), (8, 8), "moved 2 areas right and 1 down"),
    ((0, 0), (16, 12), "")])
def test_levels_exported_with_other_regions_stand_one_over_the_other(tmp_path, origin, size,
                                                                     moved):
    ground, upper = vttgen.cropped_levels(origin, size)
    g, u = write(tmp_path, "ground", ground), write(tmp_path, "upper", upper)
    out = tmp_path / "house.yaml"
    r = invoke("import", str(g), str(u), "--out", str(out))
    assert r.exit_code == 0, r.output
    assert (moved in r.output) if moved else ("to stand over" not in r.output)
    b = loads(out.read_text()).build(0).building
    rooms = _rooms_by_level(b)
    house, = (a for a in rooms.values() if "ground:B2" in a)
    roof, = (a for a in rooms.values() if any(name.startswith("upper:") for name in a))
    # the house is squares 2-14 x 2-10 of the drawing: columns B-G, rows 2-5; the roof room,
    # squares 6-10 x 4-8, is then columns D-E, rows 3-4, over it (an odd corner moves the
    # grid 5 ft, onto the house's lines)
    assert house == {f"ground:{c}{r}" for c in "BCDEFG" for r in "2345"}
    assert roof == {f"upper:{c}{r}" for c in "DE" for r in "34"}
    for name in roof:  # the roof room's floor is the house's ceiling
        floor = barrier(b, name, name.replace("upper", "ground"))
        assert floor is not None and floor.kind is BarrierKind.FLOOR
    assert barrier(b, "upper:D2", "upper:D3").kind is BarrierKind.WINDOW


def test_one_grid_over_all_levels_is_the_one_that_fits_their_walls_best(tmp_path):
    # the ground is a yard with no wall (any grid fits it); the floor above is the house on
    # the odd 5-ft lines: its lines decide for both, though the yard is the first map
    yard = vttgen.uvtt(18, 14, [])
    g, u = write(tmp_path, "yard", yard), write(tmp_path, "house", vttgen.five_foot())
    text, reports = convert_levels([g, u], levels=("ground", "upper"))
    assert [r.phase for r in reports] == [(1, 1), (1, 1)]
    # the yard's grid lies on the house's lines, which costs it nothing: said, not warned of
    assert [(r.shared_grid, r.grid_worse) for r in reports] == [(True, False), (False, False)]
    assert "on the lines it has on the other levels." in text and "check its rooms' edges" \
        not in text
    b, room = rooms_of(text)
    inside = {a for a, k in room.items() if not b.rooms[k].outdoors}
    assert inside == {f"upper:{c}{r}" for c in "CDEFGH" for r in "3456"}


def test_a_level_a_fraction_of_an_area_off_keeps_its_corner_and_says_so(tmp_path):
    ground, upper = vttgen.cropped_levels((4.5, 2))
    g, u = write(tmp_path, "ground", ground), write(tmp_path, "upper", upper)
    out = tmp_path / "house.yaml"
    r = invoke("import", str(g), str(u), "--out", str(out))
    assert r.exit_code == 0, r.output
    assert ("upper: not put over the other levels: its corner (map_origin 4.5, 2) is not a "
            "whole number of 10-ft areas from the first map's") in r.output
    assert "# Not put over the other levels: its corner (map_origin 4.5, 2)" in out.read_text()
    loads(out.read_text()).build(0)


def test_broken_walls_and_portals_are_skipped_and_said_when_the_rest_is_usable(tmp_path):
    data = json.loads(SAMPLE.read_text())
    data["portals"] += [{"bounds": [{"x": 0, "y": 0}]}, "junk"]
    data["line_of_sight"].append([{"x": "a", "y": 1}])
    r = invoke("import", str(write(tmp_path, "broken", data)))
    assert r.exit_code == 0, r.output
    assert "not carried over: portals[2]: skipped: portals[2].bounds: expected two points" \
        in r.output
    assert "portals[3]: skipped: portals[3]: expected an object, got text" in r.output
    assert "line_of_sight[3]: skipped: line_of_sight[3][0].x: expected a number" in r.output


# Real Dungeondraft exports from github.com/dnd-apps/vtt-maps (CC0 1.0: public domain), with
# their pictures taken out: two export-region crops of the Stone Resolve Academy (a round
# tower; the north rooms), walls in the drawing's coordinates far beyond each crop; the lich's
# tomb (rooms on odd and even 5-ft lines, cave walls); a cross-shaped spire room.
REAL = ["academy-red-tower.dd2vtt", "academy-north-rooms.dd2vtt", "lich-tomb.dd2vtt",
        "spire-fire-room.dd2vtt"]


@pytest.mark.parametrize("name", REAL)
def test_real_exports_meet_the_bar(name):
    m = vttmeasure.measure(SAMPLE.parent / name)
    assert m.iou >= vttmeasure.IOU_BAR and m.rooms_ok and m.windows_ok, m


def test_the_tower_crop_keeps_its_rooms_where_the_picture_has_them():
    text, report = convert(SAMPLE.parent / "academy-red-tower.dd2vtt")
    assert report.cols == 5 and report.rows == 6
    b, room = rooms_of(text)
    hall = room["ground:C4"]  # the tower's floor, and its neck running on beyond the crop
    assert not b.rooms[hall].outdoors
    assert all(room[a] == hall for a in ("ground:B2", "ground:D2", "ground:B5", "ground:C6"))
    # beyond the curve of its wall, in the crop's corners, is the outside
    assert all(b.rooms[room[a]].outdoors for a in ("ground:A1", "ground:E1", "ground:A6"))


def test_the_towers_double_door_is_counted_as_one_door_of_two_leaves_not_a_portal_lost():
    # portals 6 and 7 are the two 5-ft leaves of one door: the summary said "1 portal not
    # placed" of portal 7, then "not carried over: portal 7 ... not placed" while the summary
    # counted it in its door; it is said to be part of its door, and nothing is said lost
    r = CliRunner().invoke(cli, ["import", str(SAMPLE.parent / "academy-red-tower.dd2vtt")])
    assert r.exit_code == 0, r.output
    summary = r.stderr.splitlines()[0]
    assert "3 doors (1 double door of two leaves)" in summary, summary
    assert "not placed" not in r.stderr and "portal 7" not in r.stderr
    assert "fuego import: double door: portals 6 and 7 at (4, 2)-(6, 2) squares: the two " \
           "leaves of one door across the 10-ft area edge ground:C1-ground:C2" in r.stderr
    text = r.stdout
    assert "# portal 6 and portal 7 (closed: true, a double door of two leaves)" in text
    assert "Not carried over" not in text.split("environment")[0].split("doors:")[1]


def test_a_double_door_round_trips_as_one_door_across_its_whole_edge(tmp_path):
    """Imported (two 5-ft leaves on one 10-ft edge), exported, imported again: the exported
    portal spans the whole 10-ft edge where the two leaves stood (2 squares), and it comes
    back one door on that edge, nothing left out."""
    tower = tmp_path / "tower.yaml"
    r = CliRunner().invoke(cli, ["import", str(SAMPLE.parent / "academy-red-tower.dd2vtt"),
                                 "--out", str(tower)])
    assert r.exit_code == 0, r.output
    out = tmp_path / "tower.dd2vtt"
    r = CliRunner().invoke(cli, ["export", str(tower), "--out", str(out),
                                 "--pixels-per-grid", "20"])
    assert r.exit_code == 0, r.output
    portals = json.loads(out.read_text(encoding="utf-8"))["portals"]
    # the leaves stood at (4, 2)-(5, 2) and (5, 2)-(6, 2) squares of the map
    double = [p for p in portals if {(q["x"], q["y"]) for q in p["bounds"]} == {(4, 2), (6, 2)}]
    assert len(double) == 1 and double[0]["closed"] is True
    back = tmp_path / "back.yaml"
    r = CliRunner().invoke(cli, ["import", str(out), "--out", str(back)])
    assert r.exit_code == 0, r.output
    assert "not placed" not in r.stderr and "double door" not in r.stderr
    b = loads(back.read_text(encoding="utf-8")).build(0).building
    assert barrier(b, "ground:C1", "ground:C2").kind is BarrierKind.DOOR
    assert sum(x.kind is BarrierKind.DOOR for x in b.barriers) == 3


def test_a_hall_that_meets_itself_only_beyond_the_crop_is_two_rooms():
    # the north rooms' crop: the hall west of the middle room and the hall east of it are one
    # space in the drawing, joined beyond the crop; on this plan they never touch, so they
    # are two rooms (one flashover must not take both)
    text, report = convert(SAMPLE.parent / "academy-north-rooms.dd2vtt")
    assert report.rooms == 3
    b, room = rooms_of(text)
    west, middle, east = room["ground:A1"], room["ground:G1"], room["ground:K1"]
    assert len({west, middle, east}) == 3
    assert all(room[f"ground:{c}{r}"] == west for c in "ABCDEF" for r in range(1, 6))
    assert all(room[f"ground:{c}{r}"] == east for c in "KLMNOP" for r in range(1, 6))


def test_one_default_fuel_fills_every_imported_room_and_never_the_outside():
    # the GM's first edit: defaults.fuel, as its TO DO says; a room given its own keeps it
    text, _ = convert(SAMPLE)
    assert "  fuel: 0                  # TO DO: every room's fuel unless it gives its own" in text
    text = text.replace("  fuel: 0                  # TO DO", "  fuel: 3                  # TO DO")
    text = text.replace('room2: {name: "Room 2"}', 'room2: {name: "Room 2", fuel: 6}')
    b, room = rooms_of(text)
    fuel = {b.rooms[k].key: {a.fuel for a in b.areas if a.room == k} for k in b.rooms}
    assert fuel == {"room1": {3}, "room2": {6}, "outside": {0}}


def test_a_big_dungeon_of_a_hundred_rooms_imports(tmp_path):
    # more rooms than ASCII has plan characters (91): Greek and Cyrillic letters follow
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import import_speed

    text, report = convert(write(tmp_path, "big", import_speed.make_map(120)))
    assert report.rooms == 102
    b = loads(text).build(0).building
    assert len([k for k in b.rooms if not b.rooms[k].outdoors]) == 102


# -- Foundry VTT scenes -----------------------------------------------------------------------------
def foundry_scene(walls: list[dict], *, v9: bool = False, grid_type: int = 1,
                  padding: float = 0.25) -> dict:
    """A scene of 10 x 8 squares of 50 pixels, its walls given in squares (placed on the padded
    canvas as Foundry places them: 150 and 100 pixels in at padding 0.25)."""
    ox, oy = (150, 100) if padding == 0.25 else (0, 0)
    out = [{**w, "c": [ox + 50 * w["c"][0], oy + 50 * w["c"][1], ox + 50 * w["c"][2],
                       oy + 50 * w["c"][3]]} for w in walls]
    scene: dict = {"name": "Hut", "width": 500, "height": 400, "padding": padding,
                   "walls": out, "lights": [{"x": ox + 50 * 3, "y": oy + 50 * 3}],
                   "tokens": [{"name": "a goblin"}]}
    if v9:
        scene.update(grid=50, gridDistance=5, gridType=grid_type)
    else:
        scene["grid"] = {"type": grid_type, "size": 50, "distance": 5, "units": "ft"}
    return scene


HUT: list[dict[str, Any]] = [
       {"c": [2, 4, 2, 6]}, {"c": [2, 6, 6, 6]}, {"c": [6, 6, 6, 2]}, {"c": [2, 2, 4, 2]},
       {"c": [2, 2, 2, 4], "door": 1},                  # a door in the west wall
       {"c": [4, 2, 6, 2], "sight": 30, "light": 30},   # Foundry's window preset
       {"c": [4, 2, 4, 6], "move": 0, "sound": 20}]     # a sound-only wall: no wall of a room


@pytest.mark.parametrize("v9", [False, True])
def test_a_foundry_scene_imports_its_walls_doors_and_windows(tmp_path, v9):
    path = tmp_path / "hut.json"
    path.write_text(json.dumps(foundry_scene(HUT, v9=v9)))
    out = tmp_path / "hut.yaml"
    r = invoke("import", str(path), "--out", str(out))
    assert r.exit_code == 0, r.output
    assert "5 x 4 areas at 5 ft a square; 1 room and the outside, 1 door, 1 window" in r.output
    assert "walls: 1 ([6]): not read: they do not stop movement" in r.output
    assert "tokens: not read" in r.output
    text = out.read_text()
    assert "(a Foundry VTT scene)" in text and "ground:B2" in text.split("Lights on the map")[1]
    b, room = rooms_of(text)
    assert sorted(n for n, k in room.items() if not b.rooms[k].outdoors) == [
        "ground:B2", "ground:B3", "ground:C2", "ground:C3"]
    assert barrier(b, "ground:A2", "ground:B2").kind is BarrierKind.DOOR
    assert barrier(b, "ground:C1", "ground:C2").kind is BarrierKind.WINDOW
    assert barrier(b, "ground:B1", "ground:B2").kind is BarrierKind.WALL
    assert barrier(b, "ground:B2", "ground:C2").kind is BarrierKind.OPEN


# The hut as Foundry 0.8 and version 9 wrote it: ``sense`` for sight, and in 0.8 the numbers
# NONE 0, NORMAL 1, LIMITED 2 (for ``move`` NONE 0, NORMAL 1); version 9's are 0, 10, 20.
def _old_hut(normal: int, limited: int, move: int) -> list[dict[str, Any]]:
    wall = {"move": move, "sense": normal}
    return [{**wall, "c": [2, 4, 2, 6]}, {**wall, "c": [2, 6, 6, 6]},
            {**wall, "c": [6, 6, 6, 2]}, {**wall, "c": [2, 2, 4, 2]},
            {**wall, "c": [2, 2, 2, 4], "door": 1},                # a door in the west wall
            {"move": move, "sense": 0, "c": [4, 2, 6, 2], "door": 1},  # bars: a window
            {"move": 0, "sense": normal, "c": [4, 2, 4, 6]},       # sight only: no wall
            {"move": move, "sense": limited, "c": [2.5, 2.5, 3, 3]}]  # a statue's outline


@pytest.mark.parametrize(("normal", "limited", "move"), [(1, 2, 1), (20, 10, 20)])
def test_a_foundry_0_8_or_9_scene_reads_its_walls_by_sense(tmp_path, normal, limited, move):
    # Foundry 0.8's move 1 and sense 1 were read as version 10's, so a wall that stops only
    # sight was a wall and a see-through door a door; now each is what its sense says
    path = tmp_path / "old.json"
    path.write_text(json.dumps(foundry_scene(_old_hut(normal, limited, move), v9=True)))
    text, report = convert(path)
    assert (report.rooms, report.doors, report.windows) == (1, 1, 1)
    b, room = rooms_of(text)
    assert barrier(b, "ground:A2", "ground:B2").kind is BarrierKind.DOOR
    assert barrier(b, "ground:C1", "ground:C2").kind is BarrierKind.WINDOW
    assert barrier(b, "ground:B2", "ground:C2").kind is BarrierKind.OPEN
    assert any("walls: 1 ([6]): not read" in line for line in report.dropped)


@pytest.mark.parametrize("sight", [0, 10])
def test_an_invisible_or_terrain_wall_is_a_wall_not_a_window(sight):
    # they stop movement and no one opens them (a floor's edge, a statue's outline): reading
    # them as windows gave an open ballroom 94 windows and each statue four
    hut = [dict(w) for w in HUT]
    hut[5] = {"c": [4, 2, 6, 2], "sight": sight, "light": sight}
    vtt_map = parse(json.dumps(foundry_scene(hut)), "hut.json")
    assert [p.closed for p in vtt_map.portals] == [True]  # the door alone
    plan = to_plan(vtt_map)
    assert len(plan.doors) == 1 and not plan.windows


def _walled_scene(walls: list[dict]) -> dict:
    """The hut in a scene walled along its bounds (10 x 8 squares), as many Foundry GMs
    wall a scene so that no token leaves it."""
    bounds = [{"c": [0, 0, 10, 0]}, {"c": [10, 0, 10, 8]}, {"c": [10, 8, 0, 8]},
              {"c": [0, 8, 0, 0]}]
    return foundry_scene(walls + bounds)


def test_walls_along_a_scene_s_bounds_leave_the_space_around_the_rooms_outside(tmp_path):
    # the walls on the edge enclosed everything: the ground around the hut was a room, the
    # hut inside it, and no way out
    path = tmp_path / "walled.json"
    path.write_text(json.dumps(_walled_scene(HUT)))
    text, report = convert(path)
    assert report.rooms == 1
    b, room = rooms_of(text)
    assert b.rooms[room["ground:A1"]].outdoors and b.rooms[room["ground:E4"]].outdoors
    assert not b.rooms[room["ground:B2"]].outdoors
    assert any("the walls along the map's edge: not read" in line for line in report.dropped)
    assert "walls along the map's edge" in text
    assert not [e for e in to_plan(parse(path.read_text(), "w.json")).inner_walls]


def test_a_hall_filling_its_map_stays_a_room_though_its_walls_are_the_map_s_edge():
    # the walls on the edge are its own: no other room inside it says they are the bounds
    text, report = convert_text(vtt([[(0, 0), (8, 0), (8, 8), (0, 8), (0, 0)]]))
    assert report.rooms == 1
    b, room = rooms_of(text)
    assert not b.rooms[room["ground:B2"]].outdoors


def test_a_door_midway_between_two_grid_lines_stands_on_one_edge_not_two():
    # at 10 ft a square the wall at y 3.5 lies midway in row 4: the door's two points chose
    # the lines above and below it, one door behind another
    walls = [[(0, 0), (6, 0), (6, 6), (0, 6), (0, 0)], [(0, 3.5), (1.7, 3.5)],
             [(3.2, 3.5), (6, 3.5)]]
    text, report = convert_text(vtt(walls, portals=[((1.7, 3.5), (3.2, 3.5))], size=(6, 6)),
                                grid_feet=10)
    assert report.doors == 1
    doors = loads(text).build(0).building
    assert len([x for x in doors.barriers if x.kind is BarrierKind.DOOR]) == 1


def test_a_foundry_scene_that_is_not_on_squares_or_broken_is_refused(tmp_path):
    hexes = foundry_scene(HUT, grid_type=2)
    short, word = foundry_scene(HUT), foundry_scene(HUT)
    short["walls"][0]["c"] = [1, 2, 3]
    word["walls"][0]["c"][2] = "x"
    for scene, words in ((hexes, "grid.type: 2: fuego reads scenes on a square grid"),
                         (short, "walls[0].c: expected the wall's ends [x0, y0, x1, y1]"),
                         (word, "walls[0].c[x]: expected a number, got 'x'")):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(scene))
        r = CliRunner().invoke(cli, ["import", str(path)])
        assert r.exit_code == 2 and words in r.output, r.output


def test_a_foundry_scene_with_odd_values_where_fuego_reads_flags_still_reads():
    # a door's flags.fuego.kind that is no word, lights that are no list: read past, not a crash
    scene = foundry_scene(HUT)
    scene["walls"][4]["flags"] = {"fuego": {"kind": [1], "name": {"x": 1}}}
    scene["lights"] = 5
    vtt = parse(json.dumps(scene), "odd.json")
    assert vtt.foundry and [p.closed for p in vtt.portals] == [True, False]
    assert vtt.lights == []


def test_a_foundry_scene_not_on_5_ft_squares_says_so():
    for distance, words in ((10, "grid.distance: 10 ft a square: import with --grid-feet 10"),
                            (1.5, "grid.distance: 1.5 a square: fuego reads squares of 5 ft")):
        scene = foundry_scene(HUT)
        scene["grid"]["distance"] = distance
        assert any(words in line for line in parse(json.dumps(scene), "m.json").ignored)


def test_many_lights_are_listed_on_comment_lines_that_stay_short(tmp_path):
    # a lamp in every square of a 16 x 10 map: 40 areas named, wrapped, every one in a comment
    lights = [{"position": {"x": x + 0.5, "y": y + 0.5}, "range": 3} for x in range(16)
              for y in range(10)]
    data = json.loads(vtt([[(0, 0), (16, 0), (16, 10), (0, 10), (0, 0)]], size=(16, 10),
                          lights=lights))
    text, _ = convert(write(tmp_path, "lamps", data))
    block = text.split("# Lights on the map")[1].split("# fires:")[0].splitlines()[1:]
    assert len(block) > 1 and all(line.startswith("#   ") and len(line) <= 100 for line in block)
    named = " ".join(block).replace("#", " ").replace(",", " ").split()
    assert sorted(named) == sorted(f"ground:{c}{r}" for c in "ABCDEFGH" for r in range(1, 6))
    loads(text)  # still a scenario fuego reads


@pytest.mark.parametrize(("second", "windows", "said"), [
    # two 5-ft doors side by side on one 10-ft edge: one door, said to be a double door
    (((4, 3), (4, 4)), (), "portals 1 and 2 at (4, 2)-(4, 4) squares: the two leaves of one "
                           "door across the 10-ft area edge ground:B2-ground:C2"),
    # a window beside the door is no leaf of it; nor is a second door laid over the first
    (((4, 3), (4, 4)), (2,), "its 10-ft edge already holds portal 1 (two portals in one area "
                             "edge are one door or window)"),
    (((4, 2), (4, 3)), (), "its 10-ft edge already holds portal 1"),
])
def test_two_portals_on_one_area_edge_are_one_door_and_a_double_door_is_called_so(
        second, windows, said):
    walls = [[(0, 0), (8, 0), (8, 8), (0, 8), (0, 0)], [(4, 0), (4, 8)]]
    text, report = convert_text(vtt(walls=walls, portals=[((4, 2), (4, 3)), second]),
                                windows=windows)
    # a double door's second leaf is part of its door, not a portal left out
    double = "two leaves" in said
    assert report.doors == 1 and report.skipped_portals == (0 if double else 1)
    assert report.double_doors == (1 if double else 0)
    b = loads(text).build(0).building
    door = barrier(b, "ground:B2", "ground:C2")
    assert door is not None and door.kind is BarrierKind.DOOR
    if double:  # said as a double door, not as a portal left out
        assert report.double_door_lines == [said]
        assert not [line for line in report.dropped if line.startswith("portal")]
        assert "# portal 1 and portal 2 (closed: true, a double door of two leaves)" in text
        return
    why = [line for line in report.dropped if line.startswith("portal 2 ")]
    assert why and f"not placed: {said}" in why[0], why
    assert f"#   {why[0]}" in text  # the scenario's comments say it too


def test_the_docs_show_what_the_red_tower_import_prints(tmp_path, monkeypatch):
    """docs/maps-and-forecasts.md's step by step shows the import's output and the plan it
    makes: run as its caption gives, the command prints those lines today."""
    import re
    import shutil

    docs = (Path(__file__).resolve().parents[1] / "docs" / "maps-and-forecasts.md").read_text(
        encoding="utf-8")
    command = 'fuego import academy-red-tower.dd2vtt --title "Red Tower" --out tower.yaml'
    after = docs.split(f"`{command}`", 1)[1]
    shown, plan = (textwrap.dedent(block).strip().splitlines()
                   for block in re.findall(r"```text\n(.*?)```", after, re.S)[:2])
    shutil.copy(SAMPLE.parent / "academy-red-tower.dd2vtt", tmp_path)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["import", "academy-red-tower.dd2vtt", "--title", "Red Tower",
                                 "--out", "tower.yaml"])
    assert r.exit_code == 0, r.output
    assert shown == r.stderr.splitlines() + r.stdout.splitlines()
    text = (tmp_path / "tower.yaml").read_text(encoding="utf-8")
    assert textwrap.indent("\n".join(plan), "      ") in text
