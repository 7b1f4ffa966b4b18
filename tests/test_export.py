"""``fuego export``: levels as Universal VTT maps and Foundry VTT scenes (issues 20 and 25).

The round trip is the test of the Universal VTT mapping: each level of the tavern exported,
then imported, has the same areas, walls, doors and windows as that level of the scenario,
edge by edge. The Foundry scene is held to Foundry's own schema (tests/foundry_schema.py) and
its doors and windows to what they must stop. What the players see comes from the engine's
sight: a players' export never shows a fire hidden from every hero.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from foundry_schema import Scene as FoundryScene
from pydantic import ValidationError

from fuego.cli import cli
from fuego.engine.sight import players_sight
from fuego.errors import FuegoError
from fuego.render import foundry_export
from fuego.render.vtt_export import (
    LIGHT_COLOUR,
    Shown,
    export_level,
    light_range,
    map_options,
)
from fuego.rules.charts import Structure
from fuego.scenario.foundry_scene import DoorState, DoorType, Move, Sense, canvas_offset
from fuego.scenario.model import load
from fuego.world.places import OPENABLE, BarrierKind, Feature

ROOT = Path(__file__).resolve().parents[1]
TAVERN = ROOT / "campaigns" / "tavern.yaml"
CAMPAIGNS = sorted((ROOT / "campaigns").glob("*.yaml"))


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def passages(b, level: int) -> tuple[set, dict]:
    """A level's areas (from its top-left corner) and what stands on each edge between two
    of them: a wall, a door or a window and how it stands (open, closed, locked), or
    nothing."""
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
            gap = x is None or x.destroyed or x.kind is BarrierKind.OPEN
            state = ("" if x is None or x.kind not in OPENABLE else " locked" if x.locked
                     else " closed" if x.closed else " open")
            made = f" of {x.structure.value}" if x is not None and x.structure else ""
            edges[(a.col - c0, a.row - r0, dc, dr)] = "open" if gap else \
                x.kind.value + state + made
    return cells, edges


def rooms_on(b, level: int) -> set[tuple]:
    """A level's rooms, each as its areas (from the level's top-left corner), whether it is
    outdoors, its name, key, fuel (Resolve and name), wall, and the areas with a fuel of
    their own, with that fuel."""
    c0 = min(a.col for a in b.areas if a.level == level)
    r0 = min(a.row for a in b.areas if a.level == level)
    cells: dict[str, set] = {}
    own: dict[str, set] = {}
    for a in b.areas:
        if a.level == level:
            cells.setdefault(a.room, set()).add((a.col - c0, a.row - r0))
            if a.own_fuel is not None:
                own.setdefault(a.room, set()).add((a.col - c0, a.row - r0, a.own_fuel))
    return {(frozenset(v), b.rooms[k].outdoors, b.rooms[k].name, k, b.rooms[k].fuel,
             b.rooms[k].fuel_name, b.rooms[k].wall, frozenset(own.get(k, ())))
            for k, v in cells.items()}


def exits_on(b, level: int) -> set[tuple[int, int]]:
    c0 = min(a.col for a in b.areas if a.level == level)
    r0 = min(a.row for a in b.areas if a.level == level)
    return {(a.col - c0, a.row - r0) for a in b.areas
            if a.level == level and Feature.EXIT in a.features}


def lit_areas(b, lv: int, data: dict) -> set[int]:
    """The areas a Universal VTT file's lights stand in (at their centres, 2 squares an area)."""
    c0 = min(a.col for a in b.areas if a.level == lv)
    r0 = min(a.row for a in b.areas if a.level == lv)
    at = {(2 * (a.col - c0) + 1, 2 * (a.row - r0) + 1): a.index for a in b.areas
          if a.level == lv}
    return {at[(p["position"]["x"], p["position"]["y"])] for p in data["lights"]}


def unseen_fire(scene) -> int:
    """A fire no players' hero sees, on a level where they see another (the engine's sight)."""
    b = scene.building
    seen = players_sight(scene).fires
    levels = {b.areas[i].level for i in seen}
    unseen = sorted(i for i in scene.fires if i not in seen and b.areas[i].level in levels)
    assert unseen, "the test needs a fire out of the players' sight"
    return unseen[0]


# -- Universal VTT ----------------------------------------------------------------------------------
CAMPAIGN_LEVELS = [(path, lv.name) for path in CAMPAIGNS
                   for lv in load(path).build(0).building.levels]


@pytest.mark.slow
@pytest.mark.parametrize("ext", ["dd2vtt", "json"])
@pytest.mark.parametrize(("path", "level"), CAMPAIGN_LEVELS,
                         ids=[f"{p.stem}-{lv}" for p, lv in CAMPAIGN_LEVELS])
def test_each_campaign_level_round_trips_through_import(tmp_path, path, level, ext):
    """Exported (Universal VTT, or a Foundry scene), then imported: the same areas, walls,
    doors and windows, edge by edge, and the same rooms by their areas, names and ways out
    (fuego's own key carries them: a wall inside a room would split it, an opening join two).
    On an open level whose plan is no rectangle (the ship's deck), the importer makes the
    empty corners outside: those extra areas are outdoors, and the rest is the same."""
    out = tmp_path / f"{level}.{ext}"
    result = invoke("export", str(path), "--level", level, "--out", str(out),
                    "--pixels-per-grid", "20")
    assert result.exit_code == 0, result.output
    b = load(path).build(0).building
    k = next(lv.index for lv in b.levels if lv.name == level)
    outdoors = any(b.rooms[a.room].outdoors for a in b.areas if a.level == k)
    back = tmp_path / f"{level}.yaml"
    args = ["import", str(out), "--level", level, "--out", str(back)]
    if not outdoors:  # what lies beyond a level without outdoor areas is no area
        args.append("--no-outside")
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert "not placed" not in result.output
    imported = load(back).build(0).building
    cells, edges = passages(b, k)
    got_cells, got_edges = passages(imported, 0)
    extra = got_cells - cells
    assert cells <= got_cells and (not extra or outdoors)
    c0 = min(a.col for a in imported.areas)
    r0 = min(a.row for a in imported.areas)
    for c, r in extra:
        i = imported.at(0, c + c0, r + r0)
        assert i is not None and imported.rooms[imported.areas[i].room].outdoors
    assert {e: w for e, w in got_edges.items() if e[:2] in cells
            and (e[0] + e[2], e[1] + e[3]) in cells} == edges
    # (the imported plan starts where the level does: its areas were the map's)
    assert {room for room in rooms_on(imported, 0) if not room[0] <= extra} == rooms_on(b, k)
    assert exits_on(imported, 0) == exits_on(b, k)
    # (the first outdoor room is drawn with the outside's own character, not a room's letter)
    assert ('",": ' in back.read_text(encoding="utf-8")) is outdoors


PUBLIC_MAPS = sorted((ROOT / "tests" / "data").glob("*.dd2vtt"))


@pytest.mark.slow
@pytest.mark.parametrize("ext", ["dd2vtt", "json"])
@pytest.mark.parametrize("path", PUBLIC_MAPS, ids=[p.stem for p in PUBLIC_MAPS])
def test_an_imported_map_exported_and_imported_again_is_the_same_building(tmp_path, path,
                                                                           ext):
    """A GM who imports a public map, exports it and imports that gets the same building
    back: the same rooms (areas and names), ways out, walls, doors and windows, edge by edge.
    The Red Tower's three walls inside rooms made 8 rooms of its 5 before fuego's own key
    carried the rooms."""
    first = tmp_path / "first.yaml"
    result = invoke("import", str(path), "--out", str(first))
    assert result.exit_code == 0, result.output
    out = tmp_path / f"map.{ext}"
    result = invoke("export", str(first), "--out", str(out), "--pixels-per-grid", "20")
    assert result.exit_code == 0, result.output
    again = tmp_path / "again.yaml"
    result = invoke("import", str(out), "--out", str(again))
    assert result.exit_code == 0, result.output
    assert "not placed" not in result.output
    a, b = load(first).build(0).building, load(again).build(0).building
    assert passages(b, 0) == passages(a, 0)
    assert rooms_on(b, 0) == rooms_on(a, 0)
    assert exits_on(b, 0) == exits_on(a, 0) or not exits_on(a, 0)


@pytest.mark.parametrize("ext", ["dd2vtt", "json"])
def test_fuel_walls_materials_and_keys_come_back_as_the_scenario_had_them(tmp_path, ext):
    """The tavern's ground floor with areas of a fuel of their own (one named ``yes``, which
    YAML would read as true unquoted), a wall between two rooms that is not their walls' and
    a partition inside the common room: exported and imported, every room has its key, name,
    fuel and wall again, each area its own fuel, each wall, door and window its material, and
    the street (outdoors) the outside's own plan character. The import then writes no TO DO
    for what it was told."""
    text = TAVERN.read_text(encoding="utf-8").replace(
        "  ale: 5 ", '  ale: 5\n  "yes": 2 ').replace(
        "areas:                      # what the plan cannot say, area by area\n",
        "walls:\n  - {between: [kitchen, bar], material: thick-stone-wall}\n"
        "  - {at: ground:E1-ground:F1, material: thin-wooden-wall}\n"
        "areas:\n  ground:G2: {fuel: 7}\n  ground:H1: {fuel: \"yes\"}\n"
        "  ground:A1: {fuel: furniture}\n")
    scenario = tmp_path / "tavern.yaml"
    scenario.write_text(text, encoding="utf-8")
    before = load(scenario).build(0).building
    k = next(lv.index for lv in before.levels if lv.name == "ground")
    assert {before.areas[i].own_fuel for i in range(len(before.areas))} == {
        None, (7, ""), (2, "yes"), (4, "furniture")}
    out = tmp_path / f"ground.{ext}"
    assert invoke("export", str(scenario), "--level", "ground", "--out", str(out),
                  "--pixels-per-grid", "20").exit_code == 0
    back = tmp_path / "back.yaml"
    result = invoke("import", str(out), "--level", "ground", "--out", str(back))
    assert result.exit_code == 0, result.output
    assert "fuego.materials" not in result.output and "fuego.fuels" not in result.output
    imported = load(back).build(0).building
    assert rooms_on(imported, 0) == rooms_on(before, k)
    assert passages(imported, 0) == passages(before, k)
    assert "thick-stone-wall" in {x.structure.value for x in imported.barriers if x.structure}
    yaml_text = back.read_text(encoding="utf-8")
    assert '",": street' in yaml_text and "TO DO material" not in yaml_text
    assert "TO DO fuel" not in yaml_text and 'fuel: "yes"' in yaml_text
    assert invoke("check", str(back)).exit_code == 0


def test_a_second_map_with_a_key_already_taken_gets_another():
    # two levels from two scenarios that both have a "street": the second is street-2
    from fuego.scenario.vtt import to_plan, to_yaml
    from fuego.scenario.vtt_read import parse

    scene = load(TAVERN).build(0)
    b = scene.building
    ground = next(lv.index for lv in b.levels if lv.name == "ground")
    data = json.dumps(export_level(b, scene, ground, image=False))
    plans = [(to_plan(parse(data, "a.dd2vtt")), "ground"),
             (to_plan(parse(data, "b.dd2vtt")), "upper")]
    for plan, _ in plans:
        assert sorted(r["mark"].key for r in plan.rooms if "mark" in r) == sorted(
            r[3] for r in rooms_on(b, ground))
    text = to_yaml(plans)
    assert "\n  street: {" in text and "\n  street-2: {" in text
    assert "\n  kitchen-2: {" in text


@pytest.mark.parametrize("ext", ["dd2vtt", "json"])
def test_doors_come_back_open_shut_or_locked_as_exported(tmp_path, ext):
    """The tavern's kitchen door stands open and its front door is locked here: exported
    (Universal VTT keeps the state in fuego's own mark, a Foundry scene in its door state) and
    imported, each comes back as it stood, and the shut doors shut."""
    text = TAVERN.read_text(encoding="utf-8")
    text = text.replace("name: front door}", "name: front door, locked: true}")
    assert "locked: true" in text
    scenario = tmp_path / "tavern.yaml"
    scenario.write_text(text, encoding="utf-8")
    out = tmp_path / f"ground.{ext}"
    assert invoke("export", str(scenario), "--level", "ground", "--out", str(out),
                  "--pixels-per-grid", "20").exit_code == 0
    back = tmp_path / "back.yaml"
    result = invoke("import", str(out), "--out", str(back))
    assert result.exit_code == 0, result.output
    imported = load(back).build(0).building

    def doors(b) -> dict:  # each door by its two areas (the import keeps the areas' names)
        return {(b.areas[x.a].name, b.areas[x.b].name): (x.closed, x.locked)
                for x in b.barriers if x.kind is BarrierKind.DOOR}

    before = load(scenario).build(0).building
    states = {ab: v for ab, v in doors(before).items() if ab[0].startswith("ground:")}
    kitchen, front = (next((before.areas[x.a].name, before.areas[x.b].name)
                           for x in before.barriers if x.label == name)
                      for name in ("kitchen door", "front door"))
    assert states[kitchen] == (False, False) and states[front] == (True, True)
    assert doors(imported) == states
    assert "locked: true}" in back.read_text() and "closed: false}" in back.read_text()


def test_a_portals_state_is_read_from_fuegos_mark_or_foundrys_door_state():
    # a door: the mark's state, or (none) closed: false makes an open door; a window: only the
    # mark opens it (closed: false says window), and no window is locked
    from fuego.scenario.foundry_scene import DoorState, door_state
    from fuego.scenario.vtt import portal_state
    from fuego.scenario.vtt_read import parse

    def portal(**keys):
        data = {"resolution": {"map_size": {"x": 4, "y": 4}},
                "portals": [{"bounds": [{"x": 1, "y": 1}, {"x": 1, "y": 3}], **keys}]}
        return parse(json.dumps(data)).portals[0]

    assert portal_state(portal(closed=True), window=False) == (False, False)
    assert portal_state(portal(closed=False), window=False) == (True, False)
    assert portal_state(portal(closed=False), window=True) == (False, False)
    assert portal_state(portal(closed=False, fuego={"closed": False}), window=True) == \
        (True, False)
    assert portal_state(portal(closed=True, fuego={"closed": True, "locked": True}),
                        window=False) == (False, True)
    assert portal_state(portal(closed=True, fuego={"locked": True}), window=True) == \
        (False, False)
    assert door_state({"ds": DoorState.OPEN}) == {"closed": False, "locked": False}
    assert door_state({"ds": DoorState.LOCKED}) == {"closed": True, "locked": True}
    assert door_state({}) == door_state({"ds": 7}) == {"closed": True, "locked": False}
    with pytest.raises(FuegoError, match=r"portals\[0\]\.fuego\.closed: expected true or"):
        portal(fuego={"closed": "open"})


def test_portals_follow_the_dungeondraft_convention_whatever_their_state():
    """closed: true is a door, closed: false a window, open or shut (Foundry's Universal
    Battlemap Importer and uvtt2fgu read them so)."""
    scene = load(TAVERN).build(0)
    b = scene.building
    ground = next(lv.index for lv in b.levels if lv.name == "ground")
    doors = [x for x in b.barriers if x.kind is BarrierKind.DOOR and b.areas[x.a].level == ground]
    windows = [x for x in b.barriers if x.kind is BarrierKind.WINDOW
               and b.areas[x.a].level == ground]
    assert doors and windows
    for states in ((True, False), (False, True)):  # doors shut and windows open, then turned
        for x in doors:
            (b.close_barrier if states[0] else b.open_barrier)(x)
        for x in windows:
            (b.close_barrier if states[1] else b.open_barrier)(x)
        data = export_level(b, scene, ground, image=False)
        closed = {p["name"]: p["closed"] for p in data["portals"]}
        assert len(closed) == len(doors) + len(windows)
        for x in doors:
            assert closed[f"door: {x.name}" if x.name else "door"] is True
        assert [v for k, v in closed.items() if k.startswith("window")] == [False] * len(windows)



@pytest.mark.parametrize("level", ["ground", "upper"])
def test_a_shut_papered_window_is_written_as_a_door_the_importers_stop_sight_at(tmp_path,
                                                                              level):
    """A shut papered window hides what is beyond it (nothing clear: fuego's sight); written
    ``closed: false`` it was a window every importer sees through. It goes ``closed: true``
    (a shut door to Foundry's importer, uvtt2fgu and Owlbear alike), an open one and a glass
    one ``closed: false``; fuego's own mark says each is a window, so ``fuego import`` brings
    them back as windows, shut or open as they stood."""
    text = TAVERN.read_text(encoding="utf-8").replace("window: glass-window",
                                                      "window: papered-window")
    assert "papered-window" in text
    scenario = tmp_path / "papered.yaml"
    scenario.write_text(text, encoding="utf-8")
    out = tmp_path / f"{level}.dd2vtt"
    assert invoke("export", str(scenario), "--level", level, "--out", str(out),
                  "--pixels-per-grid", "20").exit_code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    windows = [p for p in data["portals"] if p["fuego"]["kind"] == "window"]
    assert windows
    for p in windows:
        assert p["name"].startswith("window") and p["closed"] is p["fuego"]["closed"]
    assert all(p["closed"] for p in data["portals"] if p["fuego"]["kind"] == "door")
    b = load(scenario).build(0).building
    k = next(lv.index for lv in b.levels if lv.name == level)
    back = tmp_path / f"{level}.yaml"
    result = invoke("import", str(out), "--level", level, "--out", str(back))
    assert result.exit_code == 0, result.output
    _, edges = passages(b, k)
    _, got = passages(load(back).build(0).building, 0)
    assert sorted(w for w in got.values() if w.startswith("window")) == sorted(
        w for w in edges.values() if w.startswith("window"))
    glass = load(TAVERN).build(0).building
    assert all(not p["closed"] for p in export_level(glass, None, k, image=False)["portals"]
               if p["fuego"]["kind"] == "window")


def test_a_destroyed_barrier_is_gone_from_the_file():
    scene = load(TAVERN).build(0)
    b = scene.building
    ground = next(lv.index for lv in b.levels if lv.name == "ground")
    before = export_level(b, scene, ground, image=False)
    door = next(x for x in b.barriers if x.kind is BarrierKind.DOOR and x.name == "front door")
    wall = next(x for x in b.barriers if x.kind is BarrierKind.WALL
                and b.areas[x.a].level == ground == b.areas[x.b].level)

    def wall_squares(data):
        out = 0.0
        for line in data["line_of_sight"]:
            for p, q in zip(line, line[1:]):
                out += abs(p["x"] - q["x"]) + abs(p["y"] - q["y"])
        return out

    assert "door: front door" in {p["name"] for p in before["portals"]}
    b.destroy_barrier(door)
    b.destroy_barrier(wall)
    after = export_level(b, scene, ground, image=False)
    assert "door: front door" not in {p["name"] for p in after["portals"]}
    assert wall_squares(after) == wall_squares(before) - 2  # the wall's 10 ft (2 squares) gone


@pytest.mark.slow
def test_the_file_holds_the_picture_walls_portals_and_lights_of_that_round(tmp_path):
    out = tmp_path / "t.dd2vtt"
    result = invoke("export", str(TAVERN), "--round", "4", "--seed", "3", "--out", str(out),
                    "--pixels-per-grid", "30", "--gm")
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
        assert len(data["lights"]) == len(fires)  # the GM's export: every fire
        c0, r0 = min(cols), min(rows)
        for light, (i, fire) in zip(data["lights"], sorted(fires.items())):
            a = b.areas[i]
            assert light["position"] == {"x": 2 * (a.col - c0) + 1, "y": 2 * (a.row - r0) + 1}
            assert light["range"] == light_range(fire.fd)
            temp = "flame" if fire.state.value == "flame" else fire.temperature.value
            assert light["color"] == LIGHT_COLOUR[temp]
    assert scene.fires  # the test is about something


def test_a_players_export_lights_only_the_fires_they_see_and_the_gms_every_fire():
    from fuego.cli.mapcmd import play_to

    scene = play_to(load(TAVERN), 3, 4)
    b = scene.building
    hidden = unseen_fire(scene)
    seen = players_sight(scene).fires
    lit_anywhere = set()
    for lv in {b.areas[i].level for i in scene.fires}:
        here = {i for i in scene.fires if b.areas[i].level == lv}
        players = lit_areas(b, lv, export_level(b, scene, lv, image=False))
        assert players == here & seen
        assert lit_areas(b, lv, export_level(b, scene, lv, image=False,
                                             shown=Shown(gm=True))) == here
        lit_anywhere |= players
    assert hidden not in lit_anywhere


@pytest.mark.slow
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
    seen = players_sight(scene).fires
    assert len(data["lights"]) == sum(1 for i in scene.fires
                                      if b.areas[i].level == ground and i in seen)


@pytest.mark.slow
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


def test_a_building_of_one_level_is_written_to_the_file_named(tmp_path):
    """An imported map is one level: --out is the file, as it is with --level (the picture
    of a Foundry scene beside it by the same name)."""
    one = tmp_path / "tower.yaml"
    result = invoke("import", str(ROOT / "tests" / "data" / "academy-red-tower.dd2vtt"),
                    "--out", str(one))
    assert result.exit_code == 0, result.output
    result = invoke("export", str(one), "--out", str(tmp_path / "m.dd2vtt"))
    assert result.exit_code == 0, result.output
    result = invoke("export", str(one), "--out", str(tmp_path / "m.json"))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.dd2vtt", "m.json", "m.png",
                                                          "tower.yaml"]
    assert "upload the picture to fuego/m.png" in result.output


def test_the_format_follows_the_name_or_is_asked_for(tmp_path):
    result = invoke("export", str(TAVERN), "--out", str(tmp_path / "t.vtt"))
    assert result.exit_code == 2 and "cannot tell the format" in result.output
    result = invoke("export", str(TAVERN), "--out", str(tmp_path / "t.dd2vtt"),
                    "--format", "foundry")
    assert result.exit_code == 2 and "writes .json files" in result.output
    assert not list(tmp_path.iterdir())


# -- the picture ------------------------------------------------------------------------------------
def drawn(scene, level: int, shown: Shown) -> set[str]:
    """The ids of what the export's picture draws on ``level``."""
    from matplotlib.figure import Figure

    from fuego.render.mapdraw import draw_level

    ax = Figure().add_axes((0, 0, 1, 1))
    draw_level(ax, scene.building, level, scene, map_options(scene, 20, shown))
    return {gid for a in [*ax.patches, *ax.texts, *ax.lines, *ax.collections]
            if (gid := a.get_gid())}


@pytest.mark.slow
def test_the_picture_is_a_clean_battle_map_of_what_the_players_see():
    from fuego.cli.mapcmd import play_to

    scene = play_to(load(TAVERN), 3, 4)
    b = scene.building
    hidden = unseen_fire(scene)
    sight = players_sight(scene)
    ground = b.areas[hidden].level
    clean = drawn(scene, ground, Shown())
    name = lambda i: b.areas[i].name  # noqa: E731
    fires = {g for g in clean if g.startswith("fire-")}
    assert fires == {f"fire-{name(i)}" for i in sight.fires if b.areas[i].level == ground}
    assert not {f"fire-{name(hidden)}", f"fire-hidden-{name(hidden)}"} & clean and fires
    smoky = {i for i, d in scene.smoke.density.items() if int(d) and b.areas[i].level == ground}
    smoke = {g.split("-", 2)[2] for g in clean if g.startswith("smoke-")}
    assert smoke == {name(i) for i in smoky & sight.in_view} and smoky - sight.in_view
    for prefix in ("hero-", "feature-", "route-", "room-", "exit-"):
        assert not {g for g in clean if g.startswith(prefix)}, prefix
    assert len({g for g in clean if g.startswith("area-")}) == sum(
        1 for a in b.areas if a.level == ground)  # the floor is drawn
    everything = drawn(scene, ground, Shown(gm=True, tokens=True, fuel=True, labels=True))
    assert {f"fire-{name(hidden)}", f"fire-hidden-{name(hidden)}"} & everything
    for prefix in ("hero-", "room-", "exit-", "route-"):
        assert {g for g in everything if g.startswith(prefix)}, prefix
    assert {g for g in everything if g.startswith("smoke-")} > \
        {g for g in clean if g.startswith("smoke-")}


@pytest.mark.slow
@pytest.mark.parametrize("rnd", [0, 4, 12])
def test_the_exported_picture_early_mid_and_late(tmp_path, rnd):
    """A picture of the plan's exact size at each stage of a fire (looked at by eye too)."""
    out = tmp_path / "g.json"
    result = invoke("export", str(TAVERN), "--round", str(rnd), "--seed", "3", "--level",
                    "ground", "--out", str(out), "--pixels-per-grid", "25")
    assert result.exit_code == 0, result.output
    png = (tmp_path / "g.png").read_bytes()
    doc = json.loads(out.read_text(encoding="utf-8"))
    w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (w, h) == (doc["width"], doc["height"])


# -- Foundry VTT ------------------------------------------------------------------------------------
def foundry(scene, level: int, gm: bool = False, ppg: int = 50) -> dict:
    return foundry_export.scene_document(scene.building, scene, level, ppg=ppg,
                                         image_src="fuego/x.png", shown=Shown(gm=gm))


@pytest.mark.parametrize("path", CAMPAIGNS, ids=lambda p: p.stem)
def test_every_campaign_exports_foundry_scenes_that_fit_foundrys_schema(path):
    from fuego.cli.mapcmd import play_to

    for rnd in (0, 5):
        scene = play_to(load(path), 3, rnd)
        for lv in {a.level for a in scene.building.areas}:
            for gm in (False, True):
                FoundryScene.model_validate(foundry(scene, lv, gm))


def test_the_schema_refuses_what_foundry_refuses():
    from fuego.cli.mapcmd import play_to

    good = foundry(play_to(load(TAVERN), 3, 4), 1, gm=True)
    FoundryScene.model_validate(good)
    assert good["lights"] and good["drawings"]
    for where, value in ((("walls", 0, "sight"), 15), (("walls", 0, "c"), [0, 0, 1.5, 2]),
                         (("lights", 0, "config", "animation", "intensity"), 0),
                         (("grid", "size"), 10), (("padding",), 0.7),
                         (("background", "src"), "data:image/png;base64,AAAA"),
                         (("walls", 0, "_id"), "short"), (("walls", 0, "doorSond"), "x"),
                         (("drawings", 0, "fillAlpha"), 0)):
        bad = json.loads(json.dumps(good))
        target = bad
        for key in where[:-1]:
            target = target[key]
        target[where[-1]] = value
        with pytest.raises(ValidationError):
            FoundryScene.model_validate(bad)


def test_foundry_doors_and_windows_stop_what_they_should():
    """A door stops everything while closed; a window is a door too (a hero opens it) that
    stops only movement and some sound: a glass one lets sight and light through, a papered
    one light only. Their states travel; a broken one is gone."""
    scene = load(TAVERN).build(0)
    b = scene.building
    ground = next(lv.index for lv in b.levels if lv.name == "ground")
    window = next(x for x in b.barriers if x.kind is BarrierKind.WINDOW
                  and b.areas[x.a].level == ground)
    b.open_barrier(window)
    broken = next(x for x in b.barriers if x.kind is BarrierKind.DOOR and x.name == "front door")
    b.destroy_barrier(broken)
    doc = foundry(scene, ground)
    FoundryScene.model_validate(doc)
    portals = {w["flags"]["fuego"]["name"] or w["_id"]: w for w in doc["walls"] if w["door"]}
    expected = [x for x in b.barriers if x.kind in (BarrierKind.DOOR, BarrierKind.WINDOW)
                and b.areas[x.a].level == ground == b.areas[x.b].level and not x.destroyed]
    assert len(portals) == len(expected) and broken.name not in portals
    by_kind = {"door": 0, "window": 0}
    for w in doc["walls"]:
        if not w["door"]:
            assert (w["move"], w["sight"], w["light"], w["sound"]) == (20, 20, 20, 20)
            continue
        kind = w["flags"]["fuego"]["kind"]
        by_kind[kind] += 1
        assert w["door"] == DoorType.DOOR and w["move"] == Move.NORMAL
        x = next(x for x in expected if x.kind.value == kind
                 and (x.name or None) == (w["flags"]["fuego"]["name"] or None))
        assert w["ds"] == (DoorState.LOCKED if x.locked else DoorState.CLOSED if x.closed
                           else DoorState.OPEN)
        if kind == "door":
            assert (w["sight"], w["light"], w["sound"]) == (Sense.NORMAL,) * 3
        elif x.structure is Structure.PAPERED_WINDOW:
            assert (w["sight"], w["light"]) == (Sense.NORMAL, Sense.LIMITED)
        else:
            assert (w["sight"], w["light"]) == (Sense.NONE, Sense.NONE)
    assert by_kind["door"] and by_kind["window"]
    assert any(w["ds"] == DoorState.OPEN for w in doc["walls"] if w["door"])


def test_foundry_walls_and_lights_sit_on_the_picture_as_in_universal_vtt():
    from fuego.cli.mapcmd import play_to

    scene = play_to(load(TAVERN), 3, 4)
    b = scene.building
    for lv in {a.level for a in b.areas}:
        ppg = 40
        doc = foundry(scene, lv, gm=True, ppg=ppg)
        uvtt = export_level(b, scene, lv, ppg=ppg, image=False, shown=Shown(gm=True))
        ox, oy = canvas_offset(doc["width"], doc["height"], ppg)
        assert ox % ppg == 0 and ox >= doc["width"] / 4
        walls = sorted(tuple(w["c"]) for w in doc["walls"] if not w["door"])
        lines = sorted(tuple(round(v) for p in line for v in (ox + p["x"] * ppg,
                                                              oy + p["y"] * ppg))
                       for line in uvtt["line_of_sight"])
        assert walls == lines
        assert sorted((x["x"], x["y"]) for x in doc["lights"]) == sorted(
            (ox + p["position"]["x"] * ppg, oy + p["position"]["y"] * ppg)
            for p in uvtt["lights"])


def test_foundry_hides_from_the_players_what_no_hero_sees():
    from fuego.cli.mapcmd import play_to

    scene = play_to(load(TAVERN), 3, 4)
    b = scene.building
    hidden = unseen_fire(scene)
    sight = players_sight(scene)
    lv = b.areas[hidden].level
    players, gm = foundry(scene, lv), foundry(scene, lv, gm=True)
    area = lambda d: d["flags"]["fuego"]["area"]  # noqa: E731
    assert b.areas[hidden].name not in {area(x) for x in players["lights"]}
    assert not any(x["hidden"] for x in [*players["lights"], *players["drawings"]])
    assert {area(x) for x in players["lights"]} == {
        b.areas[i].name for i in sight.fires if b.areas[i].level == lv}
    lights = {area(x): x for x in gm["lights"]}
    assert lights[b.areas[hidden].name]["hidden"] is True
    assert {a for a, x in lights.items() if not x["hidden"]} == {area(x) for x in players["lights"]}
    assert {area(x) for x in gm["drawings"] if not x["hidden"]} == \
        {area(x) for x in players["drawings"]}
    hot = max(gm["lights"], key=lambda x: x["flags"]["fuego"]["fire_dice"])
    cool = min(gm["lights"], key=lambda x: x["flags"]["fuego"]["fire_dice"])
    if hot["flags"]["fuego"]["fire_dice"] > cool["flags"]["fuego"]["fire_dice"]:
        assert hot["config"]["dim"] > cool["config"]["dim"]
        assert hot["config"]["luminosity"] >= cool["config"]["luminosity"]
    assert all(x["config"]["animation"]["type"] == "flame" for x in gm["lights"])


@pytest.mark.slow
def test_foundry_export_writes_the_scene_and_its_picture(tmp_path):
    out = tmp_path / "t.json"
    result = invoke("export", str(TAVERN), "--round", "3", "--seed", "2", "--out", str(out),
                    "--pixels-per-grid", "30", "--foundry-folder", "worlds/w/fuego")
    assert result.exit_code == 0, result.output
    for lv in ("cellar", "ground", "upper"):
        doc = json.loads((tmp_path / f"t-{lv}.json").read_text(encoding="utf-8"))
        FoundryScene.model_validate(doc)
        assert doc["background"]["src"] == f"worlds/w/fuego/t-{lv}.png"
        assert (tmp_path / f"t-{lv}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert doc["name"] == f"The Gilded Goose — {lv}"
    assert "upload the picture to worlds/w/fuego/t-ground.png" in result.output
    # the same export twice is the same file: ids are stable
    again = tmp_path / "u.json"
    invoke("export", str(TAVERN), "--round", "3", "--seed", "2", "--out", str(again),
           "--pixels-per-grid", "30", "--foundry-folder", "worlds/w/fuego", "--level", "ground")
    a = json.loads((tmp_path / "t-ground.json").read_text(encoding="utf-8"))
    b = json.loads(again.read_text(encoding="utf-8"))
    assert a["walls"] == b["walls"] and a["lights"] == b["lights"]


def test_a_papered_window_comes_back_a_window_from_the_foundry_scene():
    # closed, a papered window stops sight like a door: fuego's own flags say it is a window
    from fuego.scenario.vtt_read import parse

    scene = load(TAVERN).build(0)
    b = scene.building
    ground = next(lv.index for lv in b.levels if lv.name == "ground")
    windows = [x for x in b.barriers if x.kind is BarrierKind.WINDOW
               and b.areas[x.a].level == ground == b.areas[x.b].level]
    for x in windows:
        x.structure = Structure.PAPERED_WINDOW
    doc = foundry(scene, ground)
    assert all(w["sight"] == Sense.NORMAL for w in doc["walls"] if w["door"])
    back = parse(json.dumps(doc), "ground.json")
    assert sum(not p.closed for p in back.portals) == len(windows)
    assert sum(p.closed for p in back.portals) == len(doc["walls"]) - len(windows) - len(
        [w for w in doc["walls"] if not w["door"]])


def test_fuegos_rooms_key_is_read_or_refused_by_its_key():
    # the rooms fuego wrote come back as written; a broken key is an error naming it
    from fuego.scenario.vtt_read import parse

    scene = load(TAVERN).build(0)
    b = scene.building
    ground = next(lv.index for lv in b.levels if lv.name == "ground")
    data = export_level(b, scene, ground, image=False)
    names = {r.name for r in parse(json.dumps(data), "g.dd2vtt").rooms}
    assert names == {r[2] for r in rooms_on(b, ground)}
    for bad, where in (({"rooms": 3}, "fuego.rooms"),
                       ({"rooms": [{"areas": [[0]]}]}, "fuego.rooms[0].areas[0]"),
                       ({"rooms": [{"areas": [], "outdoors": "yes"}]},
                        "fuego.rooms[0].outdoors")):
        with pytest.raises(FuegoError, match=where.replace("[", r"\[").replace("]", r"\]")):
            parse(json.dumps({**data, "fuego": bad}), "g.dd2vtt")


def room(**keys):
    return {"areas": [[0, 0]], **keys}


#: fuego's rooms key broken part by part, and the message that names the part.
BROKEN_MARKS = [
    ({"rooms": [room(fuel="gold")]}, r"fuego.rooms\[0\].fuel: unknown fuel 'gold'"),
    ({"rooms": [room(fuel=12)]}, r"fuego.rooms\[0\].fuel: expected a fuel .* got 12"),
    ({"rooms": [room(fuel=True)]}, r"fuego.rooms\[0\].fuel: expected a fuel .* got true/false"),
    ({"rooms": [room(fuel=[1])]}, r"fuego.rooms\[0\].fuel: expected a fuel .* got a list"),
    ({"rooms": [room(wall="cardboard")]}, r"fuego.rooms\[0\].wall: expected a wall .* 'cardboard'"),
    ({"rooms": [room(wall={"a": 1})]}, r"fuego.rooms\[0\].wall: expected a wall .* an object"),
    ({"rooms": [room(key="1st")]}, r"fuego.rooms\[0\].key: expected a room key"),
    ({"rooms": [room(key=7)]}, r"fuego.rooms\[0\].key: expected a room key .* a number"),
    ({"rooms": [room(key="bar"), room(key="bar")]},
     r"fuego.rooms\[1\].key: 'bar' is the key of fuego.rooms\[0\] too"),
    ({"rooms": [], "fuels": {"gold": "lots"}}, "fuego.fuels.gold: expected a Resolve 0-9"),
    ({"rooms": [], "fuels": {"gold": 10}}, "fuego.fuels.gold: expected a Resolve 0-9, got 10"),
    ({"rooms": [], "fuels": {"paper": 5}}, "fuego.fuels.paper: a built-in fuel is Resolve 1"),
    ({"rooms": [], "fuels": {"Gold": 3}}, "fuego.fuels: not a fuel name: 'Gold'"),
    ({"rooms": [], "fuels": [3]}, "fuego.fuels: expected .* got a list"),
    ({"rooms": [room(area_fuel=[{"area": [0, 0]}])]}, r"fuego.rooms\[0\].area_fuel\[0\]: "),
    ({"rooms": [room(area_fuel=[{"area": [0, 0], "fuel": "gold"}])]},
     r"fuego.rooms\[0\].area_fuel\[0\].fuel: unknown fuel 'gold'"),
    ({"rooms": [room(area_fuel=[{"area": "A1", "fuel": 3}])]},
     r"fuego.rooms\[0\].area_fuel\[0\].area: expected an area's corner"),
    ({"rooms": [room(area_fuel={})]}, r"fuego.rooms\[0\].area_fuel: expected a list"),
    ({"rooms": [], "materials": [{"areas": [[0, 0], [2, 0]], "material": "steel"}]},
     r"fuego.materials\[0\].material: expected .* 'steel'"),
    ({"rooms": [], "materials": [{"areas": [[0, 0], [2, 0]], "material": ["x"]}]},
     r"fuego.materials\[0\].material: expected .* a list"),
    ({"rooms": [], "materials": [{"areas": [[0, 0]], "material": "stone-wall"}]},
     r"fuego.materials\[0\]: expected"),
    ({"rooms": [], "materials": {"a": 1}}, "fuego.materials: expected a list"),
    # the caps: no file asks for more areas, fuels or materials than a map can hold
    ({"rooms": [room(areas=[[0, 0]] * 100_000,
                     area_fuel=[{"area": [0, 0], "fuel": 1}] * 60_001)]},
     "fuego.rooms: more than 160,000 areas"),
    ({"rooms": [], "fuels": {f"f{i}": 1 for i in range(1001)}},
     "fuego.fuels: 1001 fuels; at most 1000"),
    ({"rooms": [], "materials": [{}] * 320_001}, "fuego.materials: more than 320,000"),
]


@pytest.mark.parametrize(("bad", "message"), BROKEN_MARKS,
                         ids=[m.split(":")[0] + f"-{i}" for i, (_, m) in enumerate(BROKEN_MARKS)])
@pytest.mark.parametrize("ext", ["dd2vtt", "json"])
def test_a_broken_fuel_wall_key_or_material_in_fuegos_key_is_refused_naming_it(bad, message,
                                                                               ext):
    """A fuego key whose fuels, walls, room keys or materials are wrong, or more than the
    importer reads, is refused with one line that names the part, in a Universal VTT file
    and in a Foundry scene's flags.fuego alike."""
    from fuego.scenario.vtt_read import parse

    scene = load(TAVERN).build(0)
    b = scene.building
    ground = next(lv.index for lv in b.levels if lv.name == "ground")
    if ext == "json":
        data = foundry_export.scene_document(b, scene, ground, ppg=20, image_src="g.png")
        data["flags"]["fuego"] = {**data["flags"]["fuego"], "fuels": {}, "materials": [],
                                  **bad}
    else:
        data = {**export_level(b, scene, ground, image=False), "fuego": bad}
    with pytest.raises(FuegoError, match=message) as caught:
        parse(json.dumps(data), f"g.{ext}")
    assert "\n" not in caught.value.message


def test_a_material_that_fits_no_barrier_on_the_plan_is_said_and_left_to_fill_in():
    # a door given a wall's material, and a material between areas not side by side: each
    # one line among what is not carried over; that door's material is the GM's to give
    from fuego.scenario.vtt import dropped, to_plan, to_yaml
    from fuego.scenario.vtt_read import parse

    scene = load(TAVERN).build(0)
    b = scene.building
    ground = next(lv.index for lv in b.levels if lv.name == "ground")
    data = export_level(b, scene, ground, image=False)
    marked = data["fuego"]["materials"]
    door = next(m for m in marked if m["material"] == "thick-wooden-door")
    door["material"] = "stone-wall"
    marked.append({"areas": [[0, 0], [4, 4]], "material": "stone-wall"})
    plan = to_plan(parse(json.dumps(data), "g.dd2vtt"))
    lost = dropped(plan)
    assert f"fuego.materials[{marked.index(door)}]: stone-wall is no door's material (the " \
           "plan has a door there): not read" in lost
    assert f"fuego.materials[{len(marked) - 1}]: its two areas are no two areas side by side " \
           "on the plan: not read" in lost
    text = to_yaml(plan)
    assert text.count("TO DO material") == 1 and "material: thick-wooden-door" not in text


def test_a_map_without_fuegos_key_imports_as_before(tmp_path):
    """A map no fuego export wrote: rooms room1..., the outside drawn ',' and every material
    and fuel to fill in (what the import always wrote)."""
    from fuego.scenario.vtt import convert

    text, _ = convert(ROOT / "tests" / "data" / "sample.dd2vtt", windows_from_names=True)
    assert "\n  room1: {" in text and '",": outside' in text and "\nfuels:" not in text
    assert "TO DO material" in text and "TO DO name, fuel" in text
