"""ignition: Alpha Strike fire-starting targets, incendiaries, ASL's spreading DR table."""

from __future__ import annotations

import pytest
from test_modules_support import area, field, module_events, module_of, scene_with

from fuego.engine.events import EventKind
from fuego.engine.hero_actions import options, read_action
from fuego.engine.hero_actions import perform as hero_perform
from fuego.engine.heroes import Hero
from fuego.engine.scene import Cause
from fuego.errors import FuegoError
from fuego.modules import common, terrain
from fuego.modules import ignition as I
from fuego.rules.charts import Temperature

# 001, Fire Starting Base Target (Intentional/Unintentional), as printed.
TEXT_BASE_TARGET = {"water": None, "clear": (11, 11), "paved": None, "rough": (12, 12),
                    "jungle": (7, 10), "woods": (6, 9), "building": (9, 10),
                    "industrial": (4, 6), "magma": (4, 6)}
# 000 ASL 25.6, "Final DR Needed to Spread" and its DRM column.
TEXT_SPREAD = {"stone-building": 9, "orchard": 9, "wooden-building": 8, "woods-road": 8,
               "woods": 7, "grain": 6, "brush": 6}


def test_alpha_strike_base_targets_match_the_text():
    assert terrain.ALPHA_BASE_TARGET == TEXT_BASE_TARGET


def test_asl_spreading_table_matches_the_text():
    assert I.ASL_SPREAD_NEEDED == TEXT_SPREAD
    assert I.ASL_SPREAD_DRM == {"not-attached": -2, "fortified": -1, "lower": -1, "higher": 1}


def test_every_terrain_points_at_real_rows():
    for name, t in common.TERRAINS.items():
        assert t.alpha in terrain.ALPHA_BASE_TARGET, name
        assert t.asl is None or t.asl in I.ASL_SPREAD_NEEDED, name


def test_the_asl_example_25_62():
    # EC moderate, no wind: the adjacent wooden building (not directly attached) needs >= 10,
    # the stone building >= 11, the directly connected woods >= 7, woods not connected >= 9.
    s = scene_with(field(["wh", "ww"]), {"ignition": {"terrain": {"woods": "woods"}}})
    ig = module_of(s, I.Ignition)
    src = area(s, "A1")

    def final(dst: str, attached: bool) -> int:
        found = ig.spread_need(s, src, area(s, dst), attached)
        assert found is not None, dst
        need, drm = found
        return need - drm

    assert final("B1", attached=False) == 10  # wooden building behind its wall
    s.building.areas[area(s, "B1")].terrain = "stone-building"
    assert final("B1", attached=False) == 11
    assert final("A2", attached=True) == 7
    assert final("B2", attached=False) == 9
    targets = dict(ig.targets(s, src))
    assert targets == {area(s, "B1"): False, area(s, "A2"): True, area(s, "B2"): False}


def test_elevation_and_fortified_drms():
    levels = [("ground", 0, ["b"]), ("upper", 1, ["b"])]
    s = scene_with(field(None, levels=levels), {"ignition": {"fortified": ["upper:A1"]}})
    ig = module_of(s, I.Ignition)
    up, down = area(s, "upper:A1"), area(s, "ground:A1")
    assert ig.spread_need(s, down, up, True) == (6, +1 - 1)
    assert ig.spread_need(s, up, down, True) == (6, -1)


def test_a_hero_sets_a_fire_on_purpose():
    s = scene_with(field(["ww"]), {"ignition": {"terrain": {"woods": "woods"}}},
                   faces=[1, 4, 3, 3])
    hero = Hero("Zorro", 0)
    s.heroes.append(hero)
    act = read_action(s, hero, "set-fire ground:A1")
    assert act.text(s) == "set-fire ground:A1"
    hero_perform(s, hero, act)  # 1+4 = 5 < 6 (woods, intentional)
    assert not s.fires
    hero_perform(s, hero, act)  # 3+3 = 6
    fire = s.fires[0]
    assert fire.fd == 1
    started = [e for e in s.log if e.kind is EventKind.FIRE_STARTED][-1]
    assert (started.data["cause"], started.data["by"], started.data["intentional"]) == \
        ("module", "Zorro", True)
    assert not [a for a in options(s, hero) if a.kind is I.IgnitionAction.SET_FIRE]


def test_the_wind_and_weather_modify_kindling():
    s = scene_with(field(["ww"]), {"ignition": {"terrain": {"woods": "woods"}},
                                   "weather": {"ec": "dry", "rain": "torrential"},
                                   "wind": {"force": "heavy-winds", "direction": "N"}},
                   faces=[3, 3])
    assert I.kindle(s, 0, intentional=True, why="test") is None
    e = module_events(s, "ignition")[-1]
    assert (e.data["need"], e.data["drm"]) == (6 + 1, 1 - 2)  # +1 heavy winds; dry +1, rain -2


def test_accidents_use_the_unintentional_target_and_na_terrain_never_burns():
    b = field(["hr"])
    s = scene_with(b, {"ignition": {"terrain": {"road": "paved"}}}, faces=[5, 4])
    b.set_fuel(1, 2)  # a cart of straw on the cobbles: paved is still NA
    assert I.accidental_ignition(s, "ground:B1", "a dropped lantern") is None
    assert module_events(s, "ignition")[-1].data["success"] is False
    fire = I.accidental_ignition(s, "ground:A1", "a dropped lantern")  # 9 < building 10
    assert fire is None and module_events(s, "ignition")[-1].data["need"] == 10


def test_incendiaries_always_catch_hot_and_run_out():
    s = scene_with(field(["bbr"]), {"ignition": {"incendiaries": {"zorro": 1}}})
    hero = Hero("Zorro", 0)
    s.heroes.append(hero)
    throws = [a for a in options(s, hero) if a.kind is I.IgnitionAction.THROW_INCENDIARY]
    assert [a.target for a in throws] == [0, 1]  # not the road: nothing to burn
    before = s.roller.getstate()
    hero_perform(s, hero, throws[1])
    fire = s.fires[1]
    assert (fire.fd, fire.temperature) == (4, Temperature.HOT)
    assert s.roller.getstate() == before  # no roll
    assert module_of(s, I.Ignition).is_incendiary(fire)
    assert not [a for a in options(s, hero) if a.kind is I.IgnitionAction.THROW_INCENDIARY]


def test_blazes_spread_outdoors_by_the_table_at_the_round_end():
    s = scene_with(field(["bbb", "bbb"]), {"ignition": {}}, faces=[3, 3, 1, 1, 6, 6, 1, 1, 2, 2])
    s.start_fire(area(s, "A1"), 2, Cause.START)
    s.round = 1
    ig = module_of(s, I.Ignition)
    ig.round_start(s)
    ig.end_of_round(s)
    rolls = module_events(s, "ignition")
    # neighbours of A1 in area order: B1 (attached: 6 vs 6), A2 (2 vs 6), B2 (corner: 12-2 vs 6)
    assert [(e.data["to"], e.data["drm"], e.data["success"]) for e in rolls] == [
        ("ground:B1", 0, True), ("ground:A2", 0, False), ("ground:B2", -2, True)]
    assert {s.area_name(i) for i in s.fires} == {"ground:A1", "ground:B1", "ground:B2"}
    new = s.fires[area(s, "B1")]
    assert new.fd == 1 and new.born == 1
    ig.end_of_round(s)  # the new fires did not burn at the round's start: only A1 again
    assert {e.data["to"] for e in module_events(s, "ignition")[3:]} == {"ground:A2"}


def test_no_table_spreading_inside_a_building():
    s = scene_with(field(["hh", "hh"]), {"ignition": {}})
    s.start_fire(0, 3, Cause.START)
    s.round = 1
    ig = module_of(s, I.Ignition)
    ig.round_start(s)
    before = s.roller.getstate()
    ig.end_of_round(s)
    assert s.roller.getstate() == before and len(s.fires) == 1


def test_heavy_winds_leave_the_table_to_the_wind():
    s = scene_with(field(["bbb"]), {"ignition": {}, "wind": {"force": "heavy-winds",
                                                             "direction": "W"}})
    ig = module_of(s, I.Ignition)
    assert ig.spread_need(s, 1, 2, True) is None and ig.spread_need(s, 1, 0, True) is None


@pytest.mark.parametrize("options,message", [
    ({"terrain": {"woods": "swamp"}}, "rules.modules.ignition.terrain.woods: expected one of "),
    ({"incendiaries": {"zorro": -1}}, "rules.modules.ignition.incendiaries.zorro: expected a "
                                      "count from 0 to 99, got -1"),
    ({"fd": 0}, "rules.modules.ignition.fd: expected a whole number from 1 to 10, got 0"),
])
def test_bad_options(options, message):
    with pytest.raises(FuegoError) as exc:
        I.Ignition(options)
    assert str(exc.value).startswith(message)


def test_unknown_terrain_keys_fail_before_round_one():
    s = scene_with(field(["bb"]), {"ignition": {"terrain": {"orchard": "orchard"}}})
    with pytest.raises(FuegoError) as exc:
        module_of(s, I.Ignition).scene_start(s)
    assert str(exc.value).startswith(
        "rules.modules.ignition.terrain.orchard: no room or area of that name; rooms: brush, ")
