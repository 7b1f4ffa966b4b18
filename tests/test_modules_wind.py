"""wind: force, direction, change check, gusts, collapse (ASL 25.63-25.66); Alpha Strike's arc
and jumps."""

from __future__ import annotations

import pytest
from test_modules_support import Dice, area, field, module_events, module_of, scene_with

from fuego.engine.events import EventKind
from fuego.engine.fire_actions import ActionKind, candidates
from fuego.engine.heroes import Hero
from fuego.engine.scene import Cause
from fuego.errors import FuegoError
from fuego.modules import common
from fuego.modules import wind as W
from fuego.world.places import BarrierKind

# -- the tables against the text (000 ASL 25.63, 25.65, 25.651; 001 Spreading Fires) -----------------


def test_wind_force_dr_table():
    text = {1: "none", 2: "none", 3: "none", 4: "mild-breeze", 5: "mild-breeze", 6: "heavy-winds"}
    assert text == W.WIND_FORCE_DR


def test_wind_change_table():
    # dr 1: one hex cw, 2: two cw, 3: one ccw, 4: two ccw, 5: force +1, 6: force -1
    assert W.WIND_CHANGE == {1: ("direction", 1), 2: ("direction", 2), 3: ("direction", -1),
                             4: ("direction", -2), 5: ("force", 1), 6: ("force", -1)}
    assert (W.CHANGE_ON, W.GUSTS_ON) == (2, 12)


def test_force_beyond_either_end_becomes_a_mild_breeze():
    none, breeze, heavy = W.WindForce.NONE, W.WindForce.MILD_BREEZE, W.WindForce.HEAVY_WINDS
    assert W.force_change(heavy, +1) == breeze
    assert W.force_change(none, -1) == breeze
    assert W.force_change(none, +1) == breeze
    assert W.force_change(breeze, +1) == heavy


def test_alpha_strike_numbers():
    assert common.DOWNWIND_HALF_ARC * 2 == 120  # the 120-degree downwind arc
    assert (W.SPREAD_MODIFIER, W.JUMP_AREAS_PER_FORCE, W.JUMP_MODIFIER_PER_2) == (1, 2, 3)
    assert W.WIND_TARGET_MODIFIER[2] == 1 and W.WIND_TARGET_MODIFIER[3] == 2
    assert W.WIND_TARGET_MODIFIER[4] == 4


@pytest.mark.parametrize("to", common.DIRECTIONS)
def test_three_neighbours_downwind_three_upwind_two_crosswind(to):
    sides = [common.side(*common.VECTORS[d], to) for d in common.DIRECTIONS]
    assert sides.count(common.WindSide.DOWNWIND) == 3 and sides.count(common.WindSide.UPWIND) == 3
    assert sides.count(common.WindSide.CROSSWIND) == 2
    assert common.side(*common.VECTORS[to], to) == "downwind"
    assert common.side(*common.VECTORS[common.opposite(to)], to) == "upwind"


# -- set-up and the change check -------------------------------------------------------------------------
def test_force_and_direction_rolled_after_setup():
    s = scene_with(field(["bbb"]), {"wind": {}}, faces=[5, 7])  # dr 5: mild breeze; d8 7: W
    module_of(s, W.Wind).scene_start(s)
    w = module_of(s, W.Wind)
    assert (w.force, w.origin, w.blowing_to) == ("mild-breeze", "W", "E")
    e = [e for e in s.log if e.kind is EventKind.WIND][-1]
    assert (e.data["force_dr"], e.data["direction_d8"]) == (5, 7)


def test_no_wind_no_direction():
    s = scene_with(field(["bbb"]), {"wind": {}}, faces=[2])
    module_of(s, W.Wind).scene_start(s)
    assert module_of(s, W.Wind).force == "none" and module_of(s, W.Wind).blowing_to is None


@pytest.mark.parametrize("faces,force,origin", [
    ([1, 1, 1], "mild-breeze", "NW"),  # one point clockwise: W -> NW
    ([1, 1, 4], "mild-breeze", "S"),  # two points counter-clockwise
    ([1, 1, 5], "heavy-winds", "W"),
    ([1, 1, 6], "none", None),  # dropping to no wind forgets the direction
    ([3, 4], "mild-breeze", "W"),  # 7: no change
])
def test_change_check(faces, force, origin):
    s = scene_with(field(["bbb"]), {"wind": {"force": "mild-breeze", "direction": "W"}},
                   faces=faces)
    s.round = 1
    module_of(s, W.Wind).round_start(s)
    assert (module_of(s, W.Wind).force, module_of(s, W.Wind).origin) == (force, origin)


def test_direction_change_does_nothing_without_wind():
    s = scene_with(field(["bbb"]), {"wind": {"force": "none"}}, faces=[1, 1, 2])
    s.round = 1
    module_of(s, W.Wind).round_start(s)
    assert (module_of(s, W.Wind).force, module_of(s, W.Wind).origin) == ("none", None)


# -- fire in the wind --------------------------------------------------------------------------------------
def _tns(s, fire):
    return {a.target: a.tn for a in candidates(s, fire) if a.kind is ActionKind.LEAP}


def test_mild_breeze_helps_downwind_and_hinders_upwind_leaps_with_arc_only_off():
    plan = ["bbbbb"]
    calm = scene_with(field(plan), {})
    breeze = scene_with(field(plan), {"wind": {"force": "mild-breeze", "direction": "W",
                                               "arc_only": False}})
    for s in (calm, breeze):
        s.start_fire(area(s, "C1"), 6, Cause.GM)
    c, b = _tns(calm, calm.fires[2]), _tns(breeze, breeze.fires[2])
    assert b[area(calm, "E1")] == c[area(calm, "E1")] - 5  # downwind (east)
    assert b[area(calm, "A1")] == c[area(calm, "A1")] + 5  # upwind


def test_heavy_winds_forbid_spreading_upwind_or_across():
    s = scene_with(field(["bbbbb", "bbbbb", "bbbbb"]),
                   {"wind": {"force": "heavy-winds", "direction": "W"}})
    fire = s.start_fire(area(s, "C2"), 6, Cause.GM)
    targets = {s.area_name(j) for j in _tns(s, fire)}
    assert targets and all(name[-2] in "DE" for name in targets)  # only east of the fire


def test_wind_does_not_act_indoors():
    plan = ["hhhhh"]
    calm, heavy = scene_with(field(plan), {}), scene_with(field(plan), {
        "wind": {"force": "heavy-winds", "direction": "W"}})
    for s in (calm, heavy):
        s.start_fire(area(s, "C1"), 6, Cause.GM)
    assert _tns(calm, calm.fires[2]) == _tns(heavy, heavy.fires[2])


def test_heavy_winds_carry_a_blaze_to_the_three_areas_downwind():
    s = scene_with(field(["bbb", "bbb", "bbb"]),
                   {"wind": {"force": "heavy-winds", "direction": "W", "changes": False}})
    s.start_fire(area(s, "B2"), 3, Cause.START)  # born in round 0
    s.round = 1
    w = module_of(s, W.Wind)
    w.round_start(s)
    w.end_of_round(s)
    lit = {s.area_name(i) for i in s.fires}
    assert lit == {"ground:B2", "ground:C1", "ground:C2", "ground:C3"}
    new = [e for e in s.log if e.kind is EventKind.FIRE_STARTED and e.data["cause"] == "module"]
    assert all(e.data["fd"] == 1 and e.data["module"] == "wind" for e in new)


def test_a_fire_placed_this_round_is_not_carried():
    s = scene_with(field(["bbb"]), {"wind": {"force": "heavy-winds", "direction": "W",
                                             "changes": False}})
    s.round = 1
    w = module_of(s, W.Wind)
    w.round_start(s)
    s.start_fire(area(s, "A1"), 3, Cause.GM)  # appears during round 1
    w.end_of_round(s)
    assert set(s.fires) == {area(s, "A1")}


def test_gusts_spread_a_blaze_two_areas_downwind():
    # the change check 6+6 brings gusts; the random selection dr 1+2 (not doubles)
    s = scene_with(field(["bbbbb"]), {"wind": {"force": "mild-breeze", "direction": "W",
                                               "jumps": False}}, faces=[6, 6, 1, 2])
    s.start_fire(area(s, "A1"), 3, Cause.START)
    s.round = 1
    w = module_of(s, W.Wind)
    w.round_start(s)
    assert w.gust_round == 1
    w.end_of_round(s)
    assert {s.area_name(i) for i in s.fires} == {"ground:A1", "ground:B1", "ground:C1"}


def test_gusts_bring_down_a_burning_building_location_and_the_levels_above():
    levels = [("ground", 0, ["hh"]), ("upper", 1, ["uu"])]
    b = field(None, levels=levels)
    s = scene_with(b, {"wind": {"force": "none"}}, faces=[6, 6])
    s.start_fire(area(s, "ground:A1"), 4, Cause.START)
    hero = Hero("Ana", area(s, "upper:A1"), brawn=3)
    s.heroes.append(hero)
    s.round = 1
    module_of(s, W.Wind).round_start(s)
    floor = b.between(area(s, "ground:A1"), area(s, "upper:A1"))
    assert floor is not None
    assert floor.kind is BarrierKind.FLOOR and floor.destroyed
    assert hero.area == area(s, "ground:A1")  # fell into the burning rubble
    assert area(s, "ground:A1") in s.fires
    assert any(e.data.get("what") == "collapse" for e in module_events(s, "wind"))


def test_a_fire_jumps_a_road_on_the_wind():
    # A1 brush burns; B1 is road; C1 brush: 2 areas away, inside a mild breeze's reach (2 x 1).
    # Target: woods column intentional 6 + 1 spreading + 3 jump + 0 force = 10; 6+6 catches.
    s = scene_with(field(["brb"]), {"wind": {"force": "mild-breeze", "direction": "W",
                                             "changes": False}}, faces=[6, 6])
    fire = s.start_fire(area(s, "A1"), 2, Cause.START)
    assert fire is not None
    w = module_of(s, W.Wind)
    assert w.jump_target(s, fire, "E") == (area(s, "C1"), 1)
    s.round = 1
    w.round_start(s)
    w.end_of_round(s)
    e = module_events(s, "wind")[-1]
    assert (e.data["need"], e.data["success"]) == (10, True)
    assert e.data["text"].startswith("the fire tries to jump 1 area on the wind to ")
    assert area(s, "C1") in s.fires


def test_no_jump_where_fuel_lies_on_the_way_or_beyond_reach():
    s = scene_with(field(["bbb", "brr"]), {"wind": {"force": "mild-breeze",
                                                          "direction": "W"}})
    fire = s.start_fire(area(s, "A1"), 2, Cause.START)
    assert fire is not None
    assert module_of(s, W.Wind).jump_target(s, fire, "E") is None  # B1 burns first
    far = scene_with(field(["brrb"]), {"wind": {"force": "mild-breeze", "direction": "W"}})
    fire = far.start_fire(area(far, "A1"), 2, Cause.START)
    assert fire is not None
    assert module_of(far, W.Wind).jump_target(far, fire, "E") is None  # 3 areas: beyond 2 x 1


def test_the_scripts_wind_words_map_onto_asl_forces():
    s = scene_with(field(["bbb"]), {"wind": {"force": "none"}})
    w = module_of(s, W.Wind)
    w.set_wind(s, strength="gale", direction="ne", why="storm")
    assert (w.force, w.origin, w.blowing_to) == ("heavy-winds", "NE", "SW")
    w.set_wind(s, strength="calm")
    assert w.force == "none" and w.blowing_to is None
    with pytest.raises(FuegoError):
        w.set_wind(s, direction="up")


def test_the_wind_is_worded_by_the_scenarios_word_and_the_modules_force_alike():
    # (the village's storm set the wind to moderate, and both screens said "mild breeze")
    from fuego.render.players import say
    from fuego.rules.charts import Wind as CoreWind
    from fuego.scenario.script.effects import set_wind

    s = scene_with(field(["bbb"]), {"wind": {"force": "heavy-winds", "direction": "W"}},
                   wind=CoreWind.STRONG, faces=[1, 1, 6])  # change check 1+1, dr 6: force -1
    w = module_of(s, W.Wind)
    set_wind(s, "moderate", None, "the storm breaks")  # the script's effect, settings first
    e = [e for e in s.log if e.kind is EventKind.WIND][-1]
    assert e.data["text"] == "The wind: moderate (mild breeze) from the W"
    assert say(e, s.building) == "The wind: moderate (mild breeze) from the W"
    set_wind(s, "strong", None, "the wind rises")
    w.round_start(s)  # the module's own roll: the scene's word follows it ("strong" -> light)
    e = [e for e in s.log if e.kind is EventKind.WIND][-1]
    assert e.data["text"] == ("The wind changes (1+1, dr 6): strong (heavy winds) from the W -> "
                              "light (mild breeze) from the W")
    assert say(e, s.building) == "The wind: light (mild breeze) from the W"
    assert W.wind_words("none", "calm") is None and W.wind_words(None, "light") == "light"


@pytest.mark.parametrize("word,faces,force,after", [
    ("calm", [6, 7], "heavy-winds", "strong"),  # set-up's dr 6: heavy winds on a calm day
    ("calm", [2], "none", "calm"),  # dr 2: no wind, the word stays
    ("gale", [6, 7], "heavy-winds", "gale"),  # a gale is heavy winds: it stays a gale
    ("strong", [4, 7], "mild-breeze", "light"),
])
def test_the_scenes_wind_word_follows_a_force_the_module_rolls(word, faces, force, after):
    """The core's smoke clears by the scene's wind word (003's table: 5 rounds calm ... 1 a
    gale): a force the module rolls (or changes) gives the word its own, so heavy winds blow
    the smoke away in two rounds, not in a calm day's five."""
    from fuego.rules.charts import SMOKE_DISSIPATE_ROUNDS
    from fuego.rules.charts import Wind as CoreWind

    s = scene_with(field(["bbb"]), {"wind": {}}, wind=CoreWind(word), faces=faces)
    module_of(s, W.Wind).scene_start(s)
    assert module_of(s, W.Wind).force == force
    assert s.settings.wind is CoreWind(after)
    assert SMOKE_DISSIPATE_ROUNDS[s.settings.wind] == {
        "calm": 5, "light": 4, "strong": 2, "gale": 1}[after]


def test_bad_force_names_its_key():
    with pytest.raises(FuegoError) as exc:
        W.Wind({"force": "gale"})
    assert str(exc.value) == ("rules.modules.wind.force: expected one of none, mild-breeze, "
                              "heavy-winds, random, settings, got 'gale'")
    assert W.Wind.check_options({"direction": "up"}) == [
        "direction: expected one of N, NE, E, SE, S, SW, W, NW or random, got 'up'"]


def test_wind_state_round_trips():
    s = scene_with(field(["bbb"]), {"wind": {"force": "heavy-winds", "direction": "S"}},
                   faces=[6, 6])
    s.start_fire(0, 2, Cause.START)
    s.round = 1
    module_of(s, W.Wind).round_start(s)
    other = W.Wind({})
    other.load_state(module_of(s, W.Wind).state())
    assert other.state() == module_of(s, W.Wind).state() and other.gust_round == 1
    assert isinstance(s.roller, Dice)


# -- issue 18: readings against the text ---------------------------------------------------------------
def test_gusts_carry_a_blaze_inside_a_building_too():
    # 000 25.63: "Wind Force [EXC: Gusts] does not affect Fire spreading within a building";
    # 25.651: a terrain Blaze "will spread two hexes"; 25.1: a building is Burnable Terrain.
    def gusty(**opts):
        s = scene_with(field(["hhhhh"]), {"wind": {"force": "mild-breeze", "direction": "W",
                                                   "collapse": False, **opts}},
                       faces=[6, 6, 1, 2])
        s.start_fire(area(s, "A1"), 3, Cause.START)
        s.round = 1
        module_of(s, W.Wind).round_start(s)
        module_of(s, W.Wind).end_of_round(s)
        return {s.area_name(i) for i in s.fires}

    assert gusty() == {"ground:A1", "ground:B1", "ground:C1"}
    # the old reading, gusts outdoors only, is kept as a setting
    assert gusty(gusts_indoors=False) == {"ground:A1"}


def test_a_gust_carries_fire_through_openings_not_through_walls():
    # 25.651's two hexes, read for a building's walls: a gust fans a Blaze on through an open
    # door, but a wall or a closed door stops it (fuego's reading, docs/modules.md)
    from fuego.rules.charts import Structure

    def gusty(closed: bool) -> set[str]:
        b = field(["hhhhh"], edges={("ground:B1", "ground:C1"):
                                    (BarrierKind.DOOR, Structure.WOODEN_DOOR, closed)})
        s = scene_with(b, {"wind": {"force": "mild-breeze", "direction": "W",
                                    "collapse": False}}, faces=[6, 6, 1, 2])
        s.start_fire(area(s, "A1"), 3, Cause.START)
        s.round = 1
        module_of(s, W.Wind).round_start(s)
        module_of(s, W.Wind).end_of_round(s)
        return {s.area_name(i) for i in s.fires}

    assert gusty(closed=False) == {"ground:A1", "ground:B1", "ground:C1"}
    assert gusty(closed=True) == {"ground:A1", "ground:B1"}


def test_heavy_winds_give_a_downwind_leap_no_direction_drm():
    # 000 25.63's table: the Wind Direction DRM is a "Mild Breeze" result; "Heavy Winds" is
    # "Automatic Spread Downwind; None Upwind". A leap downwind keeps its TN (20, not 15).
    plan = ["bbbbb"]
    calm = scene_with(field(plan), {})
    heavy = scene_with(field(plan), {"wind": {"force": "heavy-winds", "direction": "W"}})
    old = scene_with(field(plan), {"wind": {"force": "heavy-winds", "direction": "W",
                                            "heavy_drm": True}})
    for s in (calm, heavy, old):
        s.start_fire(area(s, "C1"), 6, Cause.GM)
    east = area(calm, "E1")
    c, h, o = (_tns(s, s.fires[2]) for s in (calm, heavy, old))
    assert h[east] == c[east] == 20
    assert o[east] == 15  # the old reading, as a setting
    assert area(calm, "A1") not in h  # and still nothing upwind
