"""fire-breaks: spending Prepared Fire Zone factors to clear fuel before play (ASL 36)."""

from __future__ import annotations

from typing import Any

import pytest
from builders import barrier_between
from test_modules_support import area, field, module_of, scene_with

from fuego.engine.scene import Scene
from fuego.errors import FuegoError
from fuego.modules import fire_breaks as FB
from fuego.modules.terrain import terrain_of
from fuego.world.places import RouteKind

WOODS = {"terrain": {"woods": "woods"}}


def _plan(s: Scene) -> dict[str, Any]:
    """The fire-break spend of a scene the test turned the module on in."""
    plan = FB.summary(s)
    assert plan is not None, "fire-breaks is off"
    return plan


def test_one_factor_a_step_woods_to_vineyard_to_open_ground():
    # 002, 36.21: woods -> vineyard for one factor; 36.22: vineyard, brush, orchard, grain ->
    # Open Ground for one.
    assert FB.FUEL_CLASSES == ("heavy", "light", "clear") and FB.COST_PER_STEP == 1
    assert FB.CONVERTED_TERRAIN == {"light": "vineyard", "clear": "clear"}


@pytest.mark.parametrize("orders,cost", [
    # 36.22 EX: four factors buy four woods -> vineyard, or two vineyards and one open ground
    # from three woods, or two woods -> open ground.
    ({"A1": "light", "B1": "light", "C1": "light", "D1": "light"}, 4),
    ({"A1": "light", "B1": "light", "C1": "clear"}, 4),
    ({"A1": "clear", "B1": "clear"}, 4),
])
def test_the_texts_examples_cost_four_factors(orders, cost):
    s = scene_with(field(["wwww"]), {"fire-breaks": {"factors": 4, "areas": orders, **WOODS}})
    plan = _plan(s)
    assert (plan["spent"], plan["left"], plan["problems"]) == (cost, 0, [])


def test_summary_for_the_check_command():
    s = scene_with(field(["wwbh"]), {"fire-breaks": {"factors": 1, "crew_hours": 9,
                                                     "areas": {"woods": "light",
                                                               "ground:C1": "clear"}, **WOODS}})
    plan = _plan(s)
    assert (plan["factors"], plan["granted"], plan["from_crew_hours"]) == (3, 1, 2)
    assert plan["spent"] == 3 and plan["left"] == 0
    assert plan["areas"][0] == {"area": "ground:A1", "from": "woods", "to": "vineyard",
                                "class": "light", "cost": 1, "fuel": [7, 2]}
    assert plan["areas"][2]["from"] == "brush" and plan["areas"][2]["fuel"] == [3, 0]
    assert FB.summary_line(s) == ("fire breaks: 3 of 3 factors spent on 3 areas (ground:A1 "
                                  "woods -> vineyard, ground:B1 woods -> vineyard, ground:C1 "
                                  "brush -> clear)")
    assert FB.summary(scene_with(field(["w"]), {})) is None


def test_problems_are_reported_not_spent():
    s = scene_with(field(["wwh"]), {"fire-breaks": {"factors": 1, "areas": {
        "woods": "clear", "house": "light", "ground:Z9": "clear"}, **WOODS}})
    problems = _plan(s)["problems"]
    assert any("no room or area of that name" in p for p in problems)
    assert any("ground:C1 is indoors" in p for p in problems)
    assert any("costs 4 factors, more than the 1 available" in p for p in problems)
    with pytest.raises(FuegoError):
        module_of(s, FB.FireBreaks).scene_start(s)


def test_clearing_lowers_fuel_changes_terrain_and_cuts_paths():
    b = field(["wwwww"])
    b.add_route(RouteKind.OTHER, [0, 1, 2, 3, 4], "dry undergrowth")
    s = scene_with(b, {"fire-breaks": {"factors": 3, "areas": {"B1": "clear", "E1": "light"},
                                       **WOODS}})
    assert FB.cleared_areas(s) == {"ground:B1": "clear", "ground:E1": "light"}  # the plan
    module_of(s, FB.FireBreaks).scene_start(s)
    assert [a.fuel for a in b.areas] == [7, 0, 7, 7, 2]
    assert not b.areas[1].burnable
    assert terrain_of(s, 1) == "clear" and terrain_of(s, 4) == "vineyard"
    assert terrain_of(s, 0) == "woods"
    assert [r.areas for r in b.routes] == [(2, 3)]  # A1 alone is no run; B1, E1 cleared
    assert not b.routes_at(0) and b.routes_at(2)[0].name == "dry undergrowth"
    assert FB.cleared_areas(s) == {"ground:B1": "clear", "ground:E1": "light"}
    assert module_of(s, FB.FireBreaks).paths_cut == ["dry undergrowth"]
    assert barrier_between(b, 0, 1).kind.value == "open"  # walls and openings untouched


def test_a_starting_fire_cannot_be_cleared():
    from fuego.engine.scene import Cause

    s = scene_with(field(["ww"]), {"fire-breaks": {"factors": 2, "areas": {"A1": "light"},
                                                   **WOODS}})
    s.start_fire(area(s, "A1"), 2, Cause.START)
    assert "holds a starting fire" in _plan(s)["problems"][0]


def test_bad_orders():
    assert FB.FireBreaks.check_options({"areas": {"woods": "bare"}}) == [
        "areas.woods: expected one of light, clear (or vineyard, open-ground), got 'bare'"]
    assert FB.FireBreaks.check_options({"factors": -1}) == [
        "factors: expected a whole number from 0 to 999, got -1"]


def test_no_orders_no_spend_and_no_event():
    s = scene_with(field(["ww"]), {"fire-breaks": {}})
    module_of(s, FB.FireBreaks).scene_start(s)
    assert not s.log and FB.cleared_areas(s) == {}
