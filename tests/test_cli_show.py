"""``fuego show`` and the terminal drawing it uses (fuego.render.terminal)."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from fuego.cli import cli
from fuego.render.terminal import plan_plain, plan_text
from fuego.scenario.model import load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAVERN = os.path.join(ROOT, "campaigns", "tavern.yaml")
MINIMAL = os.path.join(ROOT, "tests", "scenarios", "good", "minimal.yaml")
BOX = set("─│┌┐└┘├┤┬┴┼═║█╎╌┃━╏╍┊┈≈")


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_show_draws_every_level_with_a_legend():
    result = run("show", TAVERN)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "The Gilded Goose" in out
    for level in ("upper", "ground", "cellar"):
        assert f"Level {level} (elevation" in out
    assert out.index("Level upper") < out.index("Level ground") < out.index("Level cellar")
    assert out.count("Legend:") == 3
    for name in ("Kitchen (kitchen)", "Common Room (common)", "Spirits Vault (vault)",
                 "Best Suite (suite)"):
        assert name in out
    # where each room's ways lead, by the rooms' names (the keys are the file's words)
    said = " ".join(out.split())
    assert "to Cellar Stairs: stairs; to Common Room: open; to Landing: stairs" in said
    assert "cellarfoot:" not in out
    assert "*3 fire at ground:B2: 3 Fire Dice, hot" in out
    assert "@I Isabela Soldano at ground:F4" in out
    assert "D closed door" in out and "d open door" in out and "W closed window" in out
    assert "< > stairs up, down" in out and "L ladder" in out
    assert "\x1b[" not in out  # no colour codes when not on a terminal
    assert "Traceback" not in out


def test_show_one_level_by_name_or_index():
    by_name = run("show", TAVERN, "--level", "ground")
    assert by_name.exit_code == 0
    assert "Level ground" in by_name.output and "Level upper" not in by_name.output
    by_index = run("show", TAVERN, "--level", "0", "--no-color")
    assert by_index.exit_code == 0
    assert "Level cellar" in by_index.output and "Level ground" not in by_index.output


def test_show_unknown_level_is_an_error():
    result = run("show", TAVERN, "--level", "attic")
    assert result.exit_code == 2
    assert "no level 'attic'" in result.output
    assert "Traceback" not in result.output


def test_show_broken_file_is_an_error():
    path = os.path.join(ROOT, "tests", "scenarios", "broken", "07-ragged-plan.yaml")
    result = run("show", path)
    assert result.exit_code == 2
    assert "plan row 2 is 3 characters wide" in result.output
    assert "Traceback" not in result.output


def test_ascii_drawing_of_a_small_building():
    result = run("show", MINIMAL, "--level", "ground", "--ascii")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    start = lines.index("Level ground (elevation 0, floor wooden-floor)")
    assert lines[start + 1:start + 8] == [
        "    A   B   C   D",
        "  +#######+-------+",
        "1 #*2  a2 #@A  s3 |",
        "  #       #       |",
        "2 #a2  a2L#s3  s3 |",
        "  +#######+-D-----+",
        "3  t.  t.  t.  t.",
    ]
    assert not (set(result.output) & BOX)


def test_unicode_drawing_uses_line_characters():
    scenario = load(MINIMAL)
    lines = plan_plain(scenario.build(1), "ground", symbols=scenario.symbols)
    text = "\n".join(lines)
    assert "║" in text  # the back room's stone walls
    assert "─D─" in text  # the shop door onto the street


def test_plan_text_draws_the_live_scene_and_prints_nothing(capsys):
    from fuego.engine import loop
    from fuego.engine.controllers import AutoController

    scenario = load(TAVERN)
    scene = scenario.build(seed=2)
    loop.run(scene, AutoController(), rounds=4)
    lines = plan_text(scene, "ground", symbols=scenario.symbols)
    assert capsys.readouterr().out == ""
    text = "\n".join(t.plain for t in lines)
    assert text.count("*") >= 2  # fires with their dice
    assert "fire at ground:" in text
    assert any(t.spans for t in lines)  # styled for a colour terminal
    smoky = [i for i in scene.fires if scene.smoke and scene.smoke.at(i)]
    if smoky:
        assert "~" in text or "≈" in text
    # a building without a scene draws too, with room letters of its own
    plain = plan_plain(scene.building, None)
    assert sum(1 for ln in plain if ln.startswith("Level ")) == 3


def test_a_hand_built_building_draws():
    from fuego.world.building import Building
    from fuego.world.places import BarrierKind, Room

    b = Building(title="hand")
    b.add_level("ground", 0)
    b.add_room(Room("kitchen", "Kitchen", 0))
    b.add_room(Room("hall", "Hall", 0))
    for c in range(2):
        b.add_area(c, 0, 0, "kitchen" if c == 0 else "hall", fuel=2)
    b.connect(0, 1, BarrierKind.DOOR, None, closed=False)
    lines = plan_plain(b, 0, ascii=True, legend=False)
    assert lines[-2] == "1 |k2 dh2 |"


VILLAGE = os.path.join(ROOT, "campaigns", "village.yaml")


def test_show_and_map_draw_the_scene_as_play_starts_and_refuse_what_check_refuses(tmp_path):
    # the village's fire break (column L) is cleared before round 1: drawn cleared, no fuel
    shown = run("show", VILLAGE, "--level", "ground", "--no-color")
    assert shown.exit_code == 0, shown.output
    strip = next(line for line in shown.output.splitlines() if "Edge of the Field (strip)" in line)
    assert "fuel 0" in strip
    assert "t2" not in shown.output and "t." in shown.output
    # ... and marked as the fire break, in its cells and in the legend and key
    rows = [line for line in shown.output.splitlines() if line[:2].strip().isdigit()]
    assert len(rows) == 6 and all(" t.= " in line for line in rows), rows
    said = " ".join(line.strip() for line in shown.output.splitlines())
    assert "=  fire break in the Edge of the Field: all 6 areas cleared to bare ground" in said
    assert "= fire break (cleared before the fire)" in shown.output
    # a break on ground the module cannot clear: every command says so, none draws it
    text = Path(VILLAGE).read_text(encoding="utf-8").replace(
        "strip: {name: Edge of the Field, outdoors: true,",
        "strip: {name: Edge of the Field, outdoors: false,")
    assert "outdoors: false" in text
    bad = tmp_path / "indoors.yaml"
    bad.write_text(text, encoding="utf-8")
    for args in (("check", str(bad)), ("show", str(bad)),
                 ("map", str(bad), "--out", str(tmp_path / "m.svg")),
                 ("run", str(bad), "--rounds", "1", "--quiet")):
        got = CliRunner().invoke(cli, list(args))
        assert got.exit_code == 2, (args, got.output)
        assert "is indoors; only outdoor terrain can be cleared" in got.output, (args, got.output)
    assert not (tmp_path / "m.svg").exists()


def test_a_fire_break_of_scattered_areas_is_named_area_by_area_and_wrapped():
    from fuego.cli.mapcmd import play_to
    from fuego.render.terminal import KEY_WIDTH, plan_plain
    from fuego.scenario.model import loads

    text = Path(VILLAGE).read_text(encoding="utf-8").replace(
        "crew_hours: 24", "crew_hours: 48").replace(
        "areas: {strip: clear}", "areas: {ground:L1: clear, ground:L3: clear, ground:E1: clear, "
        "ground:F2: clear, ground:G3: clear, ground:H4: clear, ground:I5: clear}")
    lines = plan_plain(play_to(loads(text), 0, 0), "ground")
    legend = lines[lines.index("Legend:"):]
    said = " ".join(line.strip() for line in legend)
    assert "fire break in the Edge of the Field: 2 of 6 areas cleared to bare ground " \
           "(ground:L1, ground:L3)" in said
    assert "fire break in the Wheat Field: 5 of 42 areas cleared to bare ground " \
           "(ground:E1, ground:F2, ground:G3, ground:H4, ground:I5)" in said
    assert max(len(line) for line in legend) <= KEY_WIDTH + 2


def test_a_room_of_one_area_is_one_area_in_the_legend(tmp_path):
    path = tmp_path / "tower.yaml"
    path.write_text("title: Tower\nrooms:\n  belfry: {fuel: 5}\n  hall: {fuel: 3}\n"
                    "legend: {b: belfry, h: hall}\nlevels:\n  - name: top\n    plan: bhh\n",
                    encoding="utf-8")
    out = run("show", str(path), "--no-color").output
    assert "Belfry (belfry): 1 area, fuel 5" in out, out  # it said "1 areas"
    assert "Hall (hall): 2 areas, fuel 6" in out, out


def test_a_hero_named_with_a_bracket_is_marked_by_the_names_first_letter(tmp_path):
    # (as the printed map's token: "[Bo] the Red" is @B there and here, not @[ or a number)
    text = Path(TAVERN).read_text(encoding="utf-8").replace("name: Isabela Soldano", "name: \"[Bo] the Red\"")
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    result = run("show", str(path))
    assert result.exit_code == 0, result.output
    assert "@B [Bo] the Red at ground:F4" in result.output


def test_an_explosive_is_marked_and_named_only_where_the_scene_has_one(tmp_path):
    # powder kegs are `g`; any other explosive (a keg of spirits, lamp gas) had no mark at all
    path = tmp_path / "store.yaml"
    path.write_text("title: Store\nrooms:\n  store: {fuel: 3}\n  shop: {fuel: 2}\n"
                    "legend: {s: store, h: shop}\nlevels:\n  - name: ground\n    plan: sshh\n"
                    "areas:\n  ground:B1: {features: [explosive]}\n", encoding="utf-8")
    for ascii in ((), ("--ascii",)):
        out = run("show", str(path), "--no-color", *ascii).output
        row = next(line for line in out.splitlines() if line.startswith("1 "))
        assert row[3:10] == "s3  s3^", row  # B1: the store, fuel 3, the explosive's mark
        assert "^ explosive (a keg of spirits, lamp gas)" in out, out
    assert "explosive" not in run("show", TAVERN, "--no-color").output
