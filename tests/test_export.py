"""``fuego export``: levels as Universal VTT maps (issue 20), read back by ``fuego import``.

The round trip is the test of the mapping: each level of the tavern exported, then imported,
has the same areas, the same walls and the same doors and windows (with their state) as that
level of the scenario, edge by edge.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fuego.cli import cli
from fuego.render.vtt_export import LIGHT_COLOUR, export_level, light_range
from fuego.scenario import load
from fuego.world.building import BarrierKind

ROOT = Path(__file__).resolve().parents[1]
TAVERN = ROOT / "campaigns" / "tavern.yaml"


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def passages(b, level: int) -> tuple[set, dict]:
    """A level's areas (from its top-left corner) and what stands on each edge between two
    of them: a wall, a door or window (open or closed), or nothing."""
    c0 = min(a.col for a in b.areas if a.level == level)
    r0 = min(a.row for a in b.areas if a.level == level)
    cells = {(a.col - c0, a.row - r0) for a in b.areas if a.level == level}
    edges = {}
    for a in b.areas:
        if a.level != level:
            continue
        for dc, dr in ((1, 0), (0, 1)):
            j = b.at(level, a.col + dc, a.row + dr)
            if j is None:
                continue
            x = b.between(a.index, j)
            if x is None or x.destroyed or x.kind in (BarrierKind.OPEN,):
                what = "open"
            elif x.kind in (BarrierKind.DOOR, BarrierKind.WINDOW):
                what = f"{x.kind.value} {'closed' if x.closed else 'open'}"
            else:
                what = x.kind.value
            edges[(a.col - c0, a.row - r0, dc, dr)] = what
    return cells, edges


@pytest.mark.parametrize("level", ["cellar", "ground", "upper"])
def test_each_tavern_level_round_trips_through_import(tmp_path, level):
    out = tmp_path / f"{level}.dd2vtt"
    result = invoke("export", str(TAVERN), "--level", level, "--out", str(out),
                    "--pixels-per-grid", "40")
    assert result.exit_code == 0, result.output
    b = load(TAVERN).build(0).building
    k = next(lv.index for lv in b.levels if lv.name == level)
    outdoors = any(b.rooms[a.room].outdoors for a in b.areas if a.level == k)
    back = tmp_path / f"{level}.yaml"
    args = ["import", str(out), "--windows-from-names", "--level", level, "--out", str(back)]
    if not outdoors:  # what lies beyond a level without outdoor areas is no area
        args.append("--no-outside")
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert "not placed" not in result.output
    imported = load(back).build(0).building
    # a door's or window's state is not in the file (Dungeondraft's convention: `closed` says
    # door or window): doors and windows come back closed, each on its edge
    def kinds(got):
        return got[0], {e: what.split(" ")[0] for e, what in got[1].items()}

    assert kinds(passages(imported, 0)) == kinds(passages(b, k))


def test_the_file_holds_the_picture_walls_portals_and_lights_of_that_round(tmp_path):
    out = tmp_path / "t.dd2vtt"
    result = invoke("export", str(TAVERN), "--round", "4", "--seed", "3", "--out", str(out),
                    "--pixels-per-grid", "30")
    assert result.exit_code == 0, result.output
    from fuego.cli.mapcmd import play_to

    scene = play_to(load(TAVERN), 3, 4)
    b = scene.building
    for lv in b.levels:
        data = json.loads((tmp_path / f"t-{lv.name}.dd2vtt").read_text(encoding="utf-8"))
        cols = {a.col for a in b.areas if a.level == lv.index}
        rows = {a.row for a in b.areas if a.level == lv.index}
        assert data["resolution"]["map_size"] == {"x": 2 * len(cols), "y": 2 * len(rows)}
        png = base64.b64decode(data["image"])
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert (w, h) == (2 * len(cols) * 30, 2 * len(rows) * 30)
        fires = {i: f for i, f in scene.fires.items() if b.areas[i].level == lv.index}
        assert len(data["lights"]) == len(fires)
        c0, r0 = min(cols), min(rows)
        for light, (i, fire) in zip(data["lights"], sorted(fires.items())):
            a = b.areas[i]
            assert light["position"] == {"x": 2 * (a.col - c0) + 1, "y": 2 * (a.row - r0) + 1}
            assert light["range"] == light_range(fire.fd)
            temp = "flame" if fire.state.value == "flame" else fire.temperature.value
            assert light["color"] == LIGHT_COLOUR[temp]
    assert scene.fires  # the test is about something


def test_a_destroyed_barrier_leaves_a_gap_and_portals_keep_their_state():
    scene = load(TAVERN).build(0)
    b = scene.building
    ground = next(lv.index for lv in b.levels if lv.name == "ground")
    before = export_level(b, scene, ground, image=False)
    door = next(x for x in b.barriers if x.kind is BarrierKind.DOOR and x.name == "front door")
    wall = next(x for x in b.barriers if x.kind is BarrierKind.WALL
                and b.areas[x.a].level == ground == b.areas[x.b].level)
    portals = {p["name"]: p for p in before["portals"]}
    assert portals["door: front door"]["closed"] is True
    assert portals["door: kitchen door"]["closed"] is False

    def wall_squares(data):
        out = 0.0
        for line in data["line_of_sight"]:
            for p, q in zip(line, line[1:]):
                out += abs(p["x"] - q["x"]) + abs(p["y"] - q["y"])
        return out

    b.destroy_barrier(door)
    b.destroy_barrier(wall)
    after = export_level(b, scene, ground, image=False)
    assert "door: front door" not in {p["name"] for p in after["portals"]}
    assert wall_squares(after) == wall_squares(before) - 2  # the wall's 10 ft (2 squares) gone


def test_a_saved_session_exports_the_table_at_its_round(tmp_path):
    from test_map_print import _saved_session

    save = _saved_session(tmp_path, 2)
    out = tmp_path / "s.dd2vtt"
    result = invoke("export", str(save), "--level", "ground", "--out", str(out),
                    "--pixels-per-grid", "20")
    assert result.exit_code == 0, result.output
    assert "round 2" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    from fuego.cli.mapcmd import session_scene

    scene = session_scene(str(save))
    b = scene.building
    ground = next(lv.index for lv in b.levels if lv.name == "ground")
    assert data == export_level(b, scene, ground, ppg=20) | {"image": data["image"]}
    # without --gm, only the fires the players' heroes see are lit (fuego.engine.sight)
    from fuego.engine.sight import players_sight

    seen = players_sight(scene).fires
    assert len(data["lights"]) == sum(1 for i in seen if b.areas[i].level == ground)


def test_export_never_replaces_a_file_unless_forced(tmp_path):
    out = tmp_path / "g.dd2vtt"
    out.write_text("old", encoding="utf-8")
    args = ["export", str(TAVERN), "--level", "ground", "--out", str(out),
            "--pixels-per-grid", "20"]
    result = invoke(*args)
    assert result.exit_code == 2 and "exists already" in result.output
    assert out.read_text(encoding="utf-8") == "old"
    assert invoke(*args, "--force").exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8"))["format"] == 0.3
