"""Modules from a scenario file: terrain per room and area, option problems, fuego check's note."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from test_modules_support import module_of

from fuego.engine import loop
from fuego.engine.controllers import AutoController
from fuego.errors import ScenarioError
from fuego.modules.registry import check_note
from fuego.modules.terrain import terrain_of
from fuego.modules.wind import Wind
from fuego.scenario.model import loads

ORCHARD = """
format: 1
title: Orchard fire
rooms:
  orchard: {outdoors: true, fuel: 5, terrain: orchard}
  lane: {outdoors: true, terrain: paved}
  barn: {fuel: 7}
levels:
  - name: ground
    plan: |
      oooLbb
      oooLbb
    legend: {o: orchard, L: lane, b: barn}
areas:
  ground:A1: {terrain: heavy-woods}
heroes:
  - {name: Ana, start: ground:C1}
fires:
  - {area: ground:A2, fd: 3}
rules:
  modules:
    weather: {ec: dry}
    wind: {force: mild-breeze, direction: W}
    flame-and-blaze: {}
    ignition: {}
    firefighting: {}
    structures: {}
    drifting-smoke: {}
    fire-breaks: {factors: 2, areas: {ground:B2: clear}}
"""


def test_terrain_per_room_and_per_area_reaches_the_areas():
    s = loads(ORCHARD).build(seed=1)
    b = s.building
    got = {a.name: terrain_of(s, a.index) for a in b.areas}
    assert got["ground:A1"] == "heavy-woods"  # the area's own
    assert got["ground:C2"] == "orchard" and got["ground:D1"] == "paved"
    assert got["ground:E1"] == "wooden-building"  # no terrain: by default
    assert b.areas[b.area("E1").index].terrain == ""


def test_terrain_round_trips_through_yaml():
    sc = loads(ORCHARD)
    again = loads(sc.to_yaml())
    assert [a.terrain for a in again.building().areas] == [a.terrain for a in sc.building().areas]


def test_a_scenario_with_every_module_plays():
    s = loads(ORCHARD).build(seed=4)
    assert [m.name for m in s.modules][:2] == ["weather", "wind"]
    loop.run(s, AutoController(), rounds=8)
    assert s.round == 8 or not s.fires
    assert s.building.areas[s.building.area("B2").index].fuel == 0  # the fire break


def test_bad_terrain_and_bad_module_options_are_scenario_problems():
    bad = ORCHARD.replace("terrain: paved", "terrain: cobbles").replace(
        "{force: mild-breeze, direction: W}", "{force: gale}")
    with pytest.raises(ScenarioError) as exc:
        loads(bad)
    text = str(exc.value)
    assert "rooms.lane.terrain" in text and "'cobbles'" in text
    assert "rules.modules.wind" in text and "force: expected one of none, mild-breeze" in text


def test_fuego_check_reports_the_fire_break_spend():
    sc = loads(ORCHARD)
    assert check_note(sc) == (" Fire breaks: 1 of 2 factors spent on 1 area "
                              "(ground:B2 orchard -> clear).")
    over = loads(ORCHARD.replace("factors: 2", "factors: 0"))
    with pytest.raises(ScenarioError) as exc:
        check_note(over)
    assert "costs 1 factor, more than the 0 available" in str(exc.value)
    assert check_note(loads(ORCHARD.replace("    fire-breaks: {factors: 2, areas: "
                                            "{ground:B2: clear}}\n", ""))) == ""


def test_the_check_command_prints_it(tmp_path):
    from fuego.cli.check import check

    path = tmp_path / "orchard.yaml"
    path.write_text(ORCHARD)
    result = CliRunner().invoke(check, [str(path)])
    assert result.exit_code == 0 and "Fire breaks: 1 of 2 factors spent" in result.output
    path.write_text(ORCHARD.replace("factors: 2", "factors: 0"))
    result = CliRunner().invoke(check, [str(path)])
    assert result.exit_code == 2


def test_weather_direction_reaches_the_wind_modules_unless_they_name_their_own():
    text = ORCHARD.replace("wind: {force: mild-breeze, direction: W}", "wind: {force: mild-breeze}")
    text = text.replace("rules:\n", "weather: {direction: NE}\nrules:\n", 1)
    scene = loads(text).build(1)
    assert module_of(scene, Wind).origin == "NE"
    own = loads(ORCHARD.replace("rules:\n", "weather: {direction: NE}\nrules:\n", 1)).build(1)
    assert module_of(own, Wind).origin == "W"
