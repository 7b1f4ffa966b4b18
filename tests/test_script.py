"""Scripted set pieces (issue 7): every trigger, every effect, validation, saves."""

from __future__ import annotations

import json
from typing import Any

import pytest
from builders import LoadedRoller
from helpers import make_building, make_scene, room

from fuego.engine import loop
from fuego.engine.controllers import AutoController, Controller
from fuego.engine.events import EventKind, EventLog
from fuego.engine.fire_actions import ActionKind, candidates
from fuego.engine.hero_actions import HeroActionKind, move
from fuego.engine.heroes import Hero
from fuego.engine.injury import add_dramatic
from fuego.engine.rounds import check_flashover, play_round, start_scene
from fuego.engine.scene import Cause, Scene
from fuego.engine.script import When
from fuego.engine.structure import break_barrier
from fuego.errors import ScenarioError
from fuego.modules.weather import Weather as WeatherModule
from fuego.modules.wind import Wind as WindModule
from fuego.rules.charts import Temperature, Wind
from fuego.rules.settings import Settings
from fuego.scenario.script.cues import Script
from fuego.scenario.script.effects import say_text
from fuego.scenario.script.parse import build_script, parse_script
from fuego.table import gm
from fuego.world.places import Feature, RouteKind

PLANS = {
    "ground": (0, ["kkkhhhs",
                   "kkkhhhs",
                   "kkkhhhs"]),
    "upper": (1, ["bbb",
                  "bbb"]),
}
ROOMS = {"k": room("kitchen", fuel=5), "h": room("hall", fuel=3),
         "s": room("street", outdoors=True), "b": room("bedroom", fuel=4)}


def world(seed: int = 7, *, fires=None, heroes=None, settings=None, **kw):
    """Kitchen, hall and street; a bedroom over the kitchen (stairs at C2); a closed door
    between kitchen and hall at row 2; an open door to the street; gunpowder at ground:F1."""
    kw.setdefault("doors", {("ground:C2", "ground:D2"): True, ("ground:F2", "ground:G2"): False})
    kw.setdefault("stairs", [("ground:C2", "upper:C2")])
    kw.setdefault("features", {"ground:F1": [Feature.GUNPOWDER]})
    b = make_building(plans=PLANS, rooms=ROOMS, **kw)
    if heroes is None:
        heroes = [Hero("Isabela", b.area("ground:A1").index, brawn=3, finesse=3, resolve=3, panache=3),
                  Hero("Tomas", b.area("upper:B1").index, brawn=2, resolve=2)]
    return make_scene(b, seed=seed, heroes=heroes, fires=fires or {},
                      settings=settings or Settings(smoke=False, burning_clothes=False))


def scripted(cues, **kw):
    s = world(**kw)
    s.script = build_script(cues, s)
    return s


def of(s, kind, **data):
    return [e for e in s.log if e.kind is kind
            and all(e.data.get(k) == v for k, v in data.items())]


def fired(s, cue):
    return [e for e in of(s, EventKind.SCRIPT, cue=cue) if "times" in e.data]


def said(s):
    return [e.data["text"] for e in s.log if e.kind is EventKind.READ_ALOUD]


def area(s, name):
    return s.building.find(name)


class Waiter(Controller):
    def choose(self, scene, hero, legal):
        return next(a for a in legal if a.kind is HeroActionKind.WAIT)


def problems(cues, s=None, **kw):
    s = s or world()
    with pytest.raises(ScenarioError) as err:
        build_script(cues, s, **kw)
    return [p.render() for p in err.value.problems]


# -- triggers ------------------------------------------------------------------------------
def test_round_trigger_fires_at_the_start_of_that_round_once():
    s = scripted([{"name": "bell", "when": {"round": 2}, "do": [{"say": "Round {round}: the bell"}]}],
                 fires={"ground:A2": 2})
    play_round(s, Waiter())
    assert not fired(s, "bell")
    play_round(s, Waiter())
    play_round(s, Waiter())
    assert len(fired(s, "bell")) == 1
    event = fired(s, "bell")[0]
    assert event.round == 2 and event.phase == 0
    assert said(s) == ["Round 2: the bell"]


def test_fire_reaches_an_area_and_fire_in_room():
    s = scripted([
        {"name": "hall", "when": {"fire-reaches": "ground:E2"},
         "do": {"say": "{area} in {room}, FD {fd}"}},
        {"name": "room", "when": {"fire-in-room": "bedroom"}, "do": {"say": "upstairs: {area}"}},
    ])
    s.script.check(s, When.PHASE)
    assert not said(s)
    s.start_fire(area(s, "ground:E2"), 3, Cause.GM)
    s.script.check(s, When.PHASE)
    assert said(s) == ["ground:E2 in the Hall, FD 3"]
    s.start_fire(area(s, "upper:A1"), 1, Cause.LEAP)
    s.script.check(s, When.END)
    assert said(s)[-1] == "upstairs: upper:A1"


def test_fire_reaches_a_starting_fire_at_scene_start():
    s = scripted([{"name": "lit", "when": {"fire-reaches": "ground:A2"}, "do": {"say": "lit"}}],
                 fires={"ground:A2": 2})
    start_scene(s)
    assert said(s) == ["lit"]


def test_fire_dice_counts_a_fire_that_grows_past_the_mark_in_its_room():
    s = scripted([{"name": "big", "when": {"fire-dice": {"at_least": 5, "in": "kitchen"}},
                   "do": {"say": "{fd} dice in {area}"}}])
    fire = s.start_fire(area(s, "ground:B2"), 4, Cause.GM)
    hall = s.start_fire(area(s, "ground:E2"), 6, Cause.GM)  # too big, but not in the kitchen
    s.script.check(s, When.PHASE)
    assert not said(s)
    s.set_fire_dice(fire, 5, "test")
    s.script.check(s, When.PHASE)
    assert said(s) == ["5 dice in ground:B2"]
    assert hall.fd == 6


def test_fire_dice_anywhere_and_in_one_area():
    s = scripted([{"name": "any", "when": {"fire-dice": {"at_least": 3}}, "do": {"say": "any"}},
                  {"name": "one", "when": {"fire-dice": {"at_least": 2, "in": "ground:A3"}},
                   "do": {"say": "one"}}])
    s.start_fire(area(s, "ground:E1"), 3, Cause.GM)
    s.script.check(s, When.PHASE)
    assert said(s) == ["any"]
    s.start_fire(area(s, "ground:A3"), 2, Cause.GM)
    s.script.check(s, When.PHASE)
    assert said(s) == ["any", "one"]


def test_hero_enters_an_area_a_room_and_a_named_hero():
    s = scripted([
        {"name": "area", "when": {"hero-enters": "ground:B1"}, "do": {"say": "{hero} at {area}"}},
        {"name": "room", "when": {"hero-enters": {"room": "hall", "hero": "tomas"}},
         "do": {"say": "Tomas in {room}"}},
    ])
    isabela, tomas = s.heroes
    move(s, isabela, area(s, "ground:B1"))
    s.script.check(s, When.PHASE)
    assert said(s) == ["Isabela at ground:B1"]
    move(s, isabela, area(s, "ground:D1"))  # the hall, but not Tomas
    s.script.check(s, When.PHASE)
    assert said(s) == ["Isabela at ground:B1"]
    move(s, tomas, area(s, "ground:D1"))
    s.script.check(s, When.PHASE)
    assert said(s)[-1] == "Tomas in the Hall"


def test_a_fall_counts_as_entering():
    s = scripted([{"name": "fell", "when": {"hero-enters": "kitchen"}, "do": {"say": "{hero} drops in"}}])
    floor = s.building.vertical_neighbour(area(s, "upper:B1"), up=False)[1]
    break_barrier(s, floor, 3, None)
    s.script.check(s, When.PHASE)
    assert said(s) == ["Tomas drops in"]


def test_hero_knocked_out_any_and_named():
    s = scripted([{"name": "any", "when": {"hero-knocked-out": True}, "do": {"say": "{hero} is down"}},
                  {"name": "tomas", "when": {"hero-knocked-out": "Tomas"}, "do": {"say": "Tomas!"}}])
    isabela, tomas = s.heroes
    add_dramatic(s, isabela, 6, "test")
    s.script.check(s, When.END)
    assert said(s) == ["Isabela is down"]
    add_dramatic(s, tomas, 4, "test")
    s.script.check(s, When.END)
    assert said(s) == ["Isabela is down", "Tomas!"]  # "any" is a once cue


def test_barrier_opens_and_barrier_destroyed():
    s = scripted([
        {"name": "opened", "when": {"barrier-opens": "ground:C2-ground:D2"}, "do": {"say": "open {barrier}"}},
        {"name": "broken", "when": {"barrier-destroyed": ["ground:C1", "ground:D1"]},
         "do": {"say": "broken"}},
    ])
    door = s.building.between(area(s, "ground:C2"), area(s, "ground:D2"))
    s.building.open_barrier(door)
    s.emit(EventKind.BARRIER_OPENED, "Isabela", door.a, barrier=door.name, what=door.describe())
    s.script.check(s, When.PHASE)
    assert said(s) == ["open ground:C2|ground:D2"]
    wall = s.building.between(area(s, "ground:C1"), area(s, "ground:D1"))
    break_barrier(s, wall, 4, "fire@ground:C1")
    s.script.check(s, When.PHASE)
    assert said(s) == ["open ground:C2|ground:D2", "broken"]


def test_barrier_opens_fires_when_a_door_is_destroyed_too():
    s = scripted([{"name": "opened", "when": {"barrier-opens": "ground:C2|ground:D2"},
                   "do": {"say": "gone"}}])
    gm.barrier(s, "ground:C2 ground:D2", "break")
    s.script.check(s, When.PHASE)
    assert said(s) == ["gone"]


def test_flashover_anywhere_and_in_a_room():
    s = scripted([{"name": "any", "when": {"flashover": True}, "do": {"say": "flash in {room}"}},
                  {"name": "bed", "when": {"flashover": "bedroom"}, "do": {"say": "bedroom"}}])
    for name in ("upper:A1", "upper:B1", "upper:C1", "upper:A2", "upper:B2", "upper:C2"):
        s.start_fire(area(s, name), 2, Cause.GM)
    s.round = 1  # all-burning: a round after the fires started
    check_flashover(s)
    s.script.check(s, When.END)
    assert said(s) == ["flash in the Bedroom", "bedroom"]


def test_last_fire_out():
    s = scripted([{"name": "out", "when": {"last-fire-out": True},
                   "do": {"say": "the last embers die in {area}"}}])
    a = s.start_fire(area(s, "ground:A1"), 2, Cause.GM)
    b = s.start_fire(area(s, "ground:E1"), 2, Cause.GM)
    s.extinguish(a, "test", burned_out=False)
    s.script.check(s, When.END)
    assert not said(s)
    s.extinguish(b, "test", burned_out=False)
    s.script.check(s, When.END)
    assert said(s) == ["the last embers die in ground:E1"]


def test_all_remembers_each_part_until_the_last_and_any_needs_one():
    s = scripted([
        {"name": "both", "when": {"all": [{"hero-enters": "hall"}, {"fire-reaches": "ground:F3"}]},
         "do": {"say": "{hero} sees the fire at {area}"}},
        {"name": "either", "when": {"any": [{"round": 9}, {"fire-in-room": "hall"}]},
         "do": {"say": "either"}},
    ])
    isabela = s.heroes[0]
    move(s, isabela, area(s, "ground:D1"))
    s.script.check(s, When.PHASE)
    assert said(s) == []
    s.start_fire(area(s, "ground:F3"), 2, Cause.GM)
    s.script.check(s, When.PHASE)
    assert said(s) == ["Isabela sees the fire at ground:D1", "either"]


def test_every_cue_fires_each_time_and_resets_its_all():
    s = scripted([{"name": "spark", "every": True,
                   "when": {"all": [{"fire-in-room": "hall"}, {"hero-enters": "kitchen"}]},
                   "do": {"say": "spark"}}])
    isabela = s.heroes[0]
    s.start_fire(area(s, "ground:E1"), 2, Cause.GM)
    move(s, isabela, area(s, "ground:B1"))
    s.script.check(s, When.PHASE)
    move(s, isabela, area(s, "ground:A1"))  # only one part happened again
    s.script.check(s, When.PHASE)
    assert said(s) == ["spark"]
    s.start_fire(area(s, "ground:E3"), 2, Cause.GM)
    s.script.check(s, When.PHASE)
    assert said(s) == ["spark", "spark"]


def test_once_false_is_every_and_once_is_the_default():
    s = scripted([{"name": "a", "once": False, "when": {"fire-in-room": "hall"}, "do": {"say": "a"}},
                  {"name": "b", "when": {"fire-in-room": "hall"}, "do": {"say": "b"}}])
    for name in ("ground:D1", "ground:E1"):
        s.start_fire(area(s, name), 2, Cause.GM)
        s.script.check(s, When.PHASE)
    assert said(s) == ["a", "b", "a"]


def test_unless_bars_a_cue_once_it_has_happened_and_the_bar_is_saved():
    cues = [{"name": "afloat", "when": {"last-fire-out": True},
             "unless": {"fire-in-room": "hall"}, "do": {"say": "she floats"}},
            {"name": "wrecked", "when": {"all": [{"last-fire-out": True},
                                                 {"fire-in-room": "hall"}]},
             "do": {"say": "she sinks"}},
            {"name": "kept", "every": True, "when": {"fire-in-room": "kitchen"},
             "unless": {"fire-in-room": "hall"}, "do": {"say": "kitchen"}}]
    s = scripted(cues)
    s.start_fire(area(s, "ground:A1"), 2, Cause.GM)
    s.script.check(s, When.PHASE)
    s.start_fire(area(s, "ground:E1"), 2, Cause.GM)
    s.script.check(s, When.PHASE)
    state = json.loads(json.dumps(s.script.state()))
    fresh = world()
    fresh.log = EventLog(s.log)
    fresh.script = build_script(cues, fresh)
    fresh.script.load_state(state, fresh)
    for scene in (s, fresh):  # (the bar survives a save)
        scene.start_fire(area(scene, "ground:B1"), 2, Cause.GM)  # the kitchen again: barred
        for f in list(scene.fires.values()):
            scene.extinguish(f, "test", burned_out=False)
        scene.script.check(scene, When.END)
    assert said(s) == ["kitchen", "she sinks"]
    assert said(fresh) == ["kitchen", "she sinks"]

    calm = scripted(cues)  # the hall never burned: the unless never happened
    f = calm.start_fire(area(calm, "ground:A1"), 2, Cause.GM)
    calm.script.check(calm, When.PHASE)
    calm.extinguish(f, "test", burned_out=False)
    calm.script.check(calm, When.END)
    assert said(calm) == ["kitchen", "she floats"]


def test_unless_is_checked_like_when_and_gives_say_no_context():
    found = problems([
        {"when": {"round": 1}, "unless": {"fire-reaches": "ground:Z9"}, "do": {"say": "x"}},
        {"when": {"round": 1}, "unless": {"hero-enters": "hall"}, "do": {"say": "{hero}"}},
    ])
    text = "\n".join(found)
    assert "script[0].unless.fire-reaches: no area 'ground:Z9'" in text
    assert "script[1].do.say: the trigger gives no {hero}" in text
    assert len(found) == 2


def test_cues_fire_in_file_order_and_one_cue_sets_off_the_next_in_the_same_check():
    s = scripted([
        {"name": "second", "when": {"fire-reaches": "ground:E1"}, "do": {"say": "second"}},
        {"name": "first", "when": {"round": 1},
         "do": [{"say": "first"}, {"fire": {"at": "ground:E1", "fd": 2}}]},
        {"name": "third", "when": {"round": 1}, "do": {"say": "third"}},
    ])
    s.round = 1
    s.script.check(s, When.START)
    assert said(s) == ["first", "third", "second"]


# -- effects -------------------------------------------------------------------------------
def test_fire_effect_starts_a_script_fire_and_raises_or_adds_dice():
    s = scripted([{"name": "go", "when": {"round": 1},
                   "do": [{"fire": {"at": ["ground:A1", "ground:B1"], "fd": 3, "temperature": "hot"}},
                          {"fire": {"at": "ground:A1", "add": 2}},
                          {"fire": {"at": "ground:A3", "add": 2}}]}])
    s.round = 1
    s.script.check(s, When.START)
    started = of(s, EventKind.FIRE_STARTED)
    assert [e.data["cause"] for e in started] == [Cause.SCRIPT] * 3
    assert started[0].data["cue"] == "go"
    assert s.fires[area(s, "ground:A1")].fd == 5
    assert s.fires[area(s, "ground:B1")].temperature is Temperature.HOT
    assert s.fires[area(s, "ground:A3")].fd == 2


def test_fire_and_explode_may_act_on_the_triggers_own_area():
    s = scripted([{"name": "flare", "when": {"fire-in-room": "hall"},
                   "do": [{"fire": {"at": "{area}", "add": 2, "temperature": "hot"}},
                          {"explode": {"at": "{area}", "fd": 2, "radius": 0}}]}])
    fire = s.start_fire(area(s, "ground:E3"), 1, Cause.LEAP)
    s.script.check(s, When.PHASE)
    assert fire.fd == 3 and fire.temperature is Temperature.HOT
    assert of(s, EventKind.FIRE_GREW)[0].data["why"] == "script: flare"
    assert of(s, EventKind.SCRIPT, effect="explode")[0].area == "ground:E3"
    found = "\n".join(problems([{"when": {"round": 1}, "do": {"fire": {"at": "{area}"}}}]))
    assert "script[0].do.fire.at: the trigger gives no {area}" in found


def test_spill_oil_adds_a_route_oil_and_fuel_and_fire_runs_along_it():
    s = scripted([{"name": "lamp", "when": {"round": 1},
                   "do": [{"spill-oil": {"areas": ["ground:C1", "ground:D1", "ground:E1"], "fuel": 6}},
                          {"fire": {"at": "ground:C1", "fd": 4}}]}],
                 doors={("ground:C1", "ground:D1"): False})
    s.round = 1
    s.script.check(s, When.START)
    b = s.building
    route = b.routes[-1]
    assert route.kind is RouteKind.OIL
    assert [b.areas[i].name for i in route.areas] == ["ground:C1", "ground:D1", "ground:E1"]
    for name in ("ground:C1", "ground:D1", "ground:E1"):
        a = b.area(name)
        assert Feature.OIL in a.features and a.fuel == 6
    fire = s.fires[area(s, "ground:C1")]
    assert fire.temperature is Temperature.HOT  # oil burns hot
    spread = [a for a in candidates(s, fire) if a.kind is ActionKind.SPREAD]
    assert spread and spread[0].target == area(s, "ground:E1")
    assert of(s, EventKind.SCRIPT, effect="spill-oil")


def test_explode_as_debris_the_older_reading_breaks_what_it_can_and_drops_debris_once_each():
    from fuego.rules.settings import ExplosionRule

    heroes = [Hero("Isabela", 0, brawn=3), Hero("Far", 0, brawn=3)]
    s = world(heroes=heroes)
    s.settings.explosions = ExplosionRule.DEBRIS
    b = s.building
    heroes[0].area = area(s, "ground:C2")  # beside the closed door, one area from the blast
    heroes[1].area = area(s, "ground:A3")
    s.script = build_script([{"name": "boom", "when": {"round": 1},
                              "do": {"explode": {"at": "ground:D2", "fd": 6, "radius": 1, "scatter": 2}}}], s)
    s.roller = LoadedRoller(totals=[0, 10, 30])  # Isabela fails to avoid, 10 damage, passes
    s.round = 1
    s.script.check(s, When.START)
    fire = s.fires[area(s, "ground:D2")]
    assert fire.fd == 6 and fire.temperature is Temperature.HOT
    door = b.between(area(s, "ground:C2"), area(s, "ground:D2"))
    assert door.destroyed  # wooden door, TN 15 <= 30
    assert len(of(s, EventKind.DEBRIS)) == 1 and of(s, EventKind.DEBRIS)[0].actor == "Isabela"
    assert heroes[1].flesh == 0
    # scattered two-dice fires in the reached burnable areas
    assert s.fires[area(s, "ground:E2")].fd == 2 and s.fires[area(s, "ground:C2")].fd == 2
    assert of(s, EventKind.SCRIPT, effect="explode")


def test_blast_stops_at_what_it_cannot_break_and_removes_the_powder():
    s = world()
    b = s.building
    reached, broken = b.paths.blast(area(s, "ground:F2"), 20, 2)  # 4 FD: stone walls (35) hold
    assert area(s, "ground:G2") in reached  # through the open door
    assert all(b.barriers[k].structure.value != "stone-wall" for k in broken)
    s.script = build_script([{"when": {"round": 1}, "do": {"explode": {"at": "ground:F1", "fd": 8}}}], s)
    s.round = 1
    s.script.check(s, When.START)
    assert Feature.GUNPOWDER not in b.area("ground:F1").features


def test_open_close_and_break_barriers():
    s = scripted([{"name": "doors", "when": {"round": 1},
                   "do": [{"open": "ground:C2-ground:D2"}, {"close": "ground:F2|ground:G2"},
                          {"break": {"barrier": ["ground:A1", "upper:A1"], "fd": 4}}]}])
    s.round = 1
    s.script.check(s, When.START)
    b = s.building
    assert not b.between(area(s, "ground:C2"), area(s, "ground:D2")).closed
    assert b.between(area(s, "ground:F2"), area(s, "ground:G2")).closed
    assert b.between(area(s, "ground:A1"), area(s, "upper:A1")).destroyed
    assert of(s, EventKind.BARRIER_OPENED, cue="doors") and of(s, EventKind.BARRIER_CLOSED, cue="doors")
    assert of(s, EventKind.FLOOR_COLLAPSED)


def test_break_names_who_does_it_and_debris_falls_beside_it():
    s = scripted([{"name": "axes", "when": {"round": 1},
                   "do": {"break": {"barrier": "ground:A1-upper:A1", "fd": 2, "by": "the crew's axes"}}}])
    s.roller = LoadedRoller(totals=[0, 4, 20])  # Isabela (A1) fails to avoid, 4 damage
    s.round = 1
    s.script.check(s, When.START)
    destroyed = of(s, EventKind.STRUCTURE_DESTROYED)
    assert destroyed and destroyed[0].actor == "the crew's axes" and destroyed[0].data["cue"] == "axes"
    assert [e.actor for e in of(s, EventKind.DEBRIS)] == ["Isabela"]


def test_collapse_a_floor_and_a_room_drops_whoever_stands_there():
    s = scripted([{"name": "floor", "when": {"round": 1}, "do": {"collapse": {"floor": "upper:A2"}}},
                  {"name": "room", "when": {"round": 2}, "do": {"collapse": "bedroom"}}])
    tomas = s.heroes[1]
    s.round = 1
    s.script.check(s, When.START)
    assert len(of(s, EventKind.FLOOR_COLLAPSED)) == 1 and tomas.area == area(s, "upper:B1")
    s.round = 2
    s.script.check(s, When.START)
    assert tomas.area == area(s, "ground:B1")
    assert of(s, EventKind.HERO_FELL) and of(s, EventKind.HERO_FELL)[0].actor == "Tomas"
    # every floor of the bedroom is down, but the stairs were never a floor
    assert len(of(s, EventKind.FLOOR_COLLAPSED)) == 5


def test_wind_changes_the_settings_and_calls_the_wind_module():
    calls = []

    class Wind_(WindModule):  # found by its type, as the real one
        def set_wind(self, scene: Scene, strength: str | None = None,
                     direction: str | None = None, why: str = "") -> None:
            calls.append((strength, direction, why))

    s = scripted([{"name": "gust", "when": {"round": 1},
                   "do": {"wind": {"strength": "strong", "direction": "NW"}}}])
    s.modules.append(Wind_())
    s.round = 1
    s.script.check(s, When.START)
    assert s.settings.wind is Wind.STRONG
    assert calls == [("strong", "NW", "script: gust")]  # the module announces the new wind


def test_weather_calls_the_weather_module_and_sets_the_wind():
    calls = []

    class Weather_(WeatherModule):
        def set_weather(self, scene: Scene, why: str = "", **values: Any) -> None:
            calls.append(values)

    s = scripted([{"name": "rain", "when": {"round": 1},
                   "do": {"weather": {"rain": "heavy", "wind": "gale"}}}],
                 settings=Settings(smoke=False, modules={"weather": {}}))
    s.modules.append(Weather_())
    s.round = 1
    s.script.check(s, When.START)
    assert calls == [{"rain": "heavy"}]
    assert s.settings.wind is Wind.GALE
    assert of(s, EventKind.WIND, strength="gale")  # no wind module: the script says it


def test_wind_without_the_module_sets_the_settings_and_says_so():
    s = scripted([{"when": {"round": 1}, "do": [{"wind": "light"}, {"wind": "SE"}]}])
    s.round = 1
    s.script.check(s, When.START)
    assert s.settings.wind is Wind.LIGHT
    assert [e.data["text"] for e in of(s, EventKind.WIND)] == [
        "The wind changes: light", "The wind turns: it blows from the SE"]


def test_weather_words_need_the_weather_module_and_its_words():
    found = "\n".join(problems([{"when": {"round": 1}, "do": {"weather": {"rain": "heavy"}}}]))
    assert "script[0].do.weather.rain: rain is the weather module's" in found
    s = world(settings=Settings(smoke=False, modules={"weather": {}}))
    found = "\n".join(problems([{"when": {"round": 1}, "do": {"weather": {"rain": "drizzle"}}}], s))
    assert "script[0].do.weather.rain: no rain 'drizzle'" in found


def test_npc_appears_and_moves():
    s = scripted([
        {"name": "cook", "when": {"round": 1},
         "do": [{"npc": {"name": "Old Marta", "at": "ground:E1", "traits": {"panache": 1},
                         "knacks": {"sprinting": 1}}},
                {"say": "Marta stumbles out of the pantry"}]},
        {"name": "runs", "when": {"round": 2}, "do": {"move": {"who": "Old Marta", "to": "ground:E2"}}},
    ])
    s.round = 1
    s.script.check(s, When.START)
    marta = s.hero("old marta")
    assert marta.npc and marta.panache == 1 and marta.knack("sprinting") == 1
    assert marta.area == area(s, "ground:E1") and s.npcs_added == ["Old Marta"]
    s.round = 2
    s.script.check(s, When.START)
    assert marta.area == area(s, "ground:E2")
    assert of(s, EventKind.HERO_MOVED)[-1].data["why"] == "script: runs"


def test_say_formats_the_context_and_leaves_unknown_fields():
    assert say_text("{hero} in {area} ({fd})", {"hero": "Ana", "area": "g:A1", "fd": 3}) == "Ana in g:A1 (3)"
    assert say_text("{hero} {{literal}}", {}) == "{hero} {literal}"


def test_say_keeps_the_texts_own_article_and_capitalises_a_sentences_first_room():
    """{room} brings its "the" (the Kitchen); a text written as "in the {room}" does not read
    "the the Kitchen", and a sentence that starts with it takes the capital."""
    kitchen, lane = {"room": "the Kitchen"}, {"room": "Goose Lane"}
    assert say_text("Smoke in {room}.", kitchen) == "Smoke in the Kitchen."
    assert say_text("Smoke in the {room}.", kitchen) == "Smoke in the Kitchen."
    assert say_text("{room} burns. {room} falls!", kitchen) == "The Kitchen burns. The Kitchen falls!"
    assert say_text("The {room} burns", kitchen) == "The Kitchen burns"
    assert say_text("{room} burns in {room}", lane) == "Goose Lane burns in Goose Lane"
    assert say_text("{room} {{room}}", kitchen) == "The Kitchen {room}"


def test_events_reach_the_json_log_and_narration():
    Narrator = pytest.importorskip("fuego.render.narrate").Narrator  # noqa: N806

    s = scripted([{"name": "lamp", "when": {"round": 1},
                   "do": [{"say": "The lamp shatters!"}, {"fire": {"at": "ground:B2", "fd": 2}}]}])
    play_round(s, Waiter())
    lines = [json.loads(e.to_json()) for e in s.log]
    kinds = [d["kind"] for d in lines]
    assert "script" in kinds and "read-aloud" in kinds
    text = "\n".join(line for e in s.log for line in Narrator(building=s.building).feed(e))
    assert 'Read aloud: "The lamp shatters!"' in text


# -- the round scheduler -------------------------------------------------------------------
def test_a_scene_with_no_fire_yet_waits_for_a_round_cue():
    s = scripted([{"name": "lamp", "when": {"round": 2}, "do": {"fire": {"at": "ground:B2", "fd": 3}}}])
    assert loop.ending(s) is None
    loop.run(s, AutoController(), rounds=4)
    assert fired(s, "lamp") and s.round >= 2


def test_a_full_run_is_deterministic():
    cues = [{"name": "lamp", "when": {"round": 1},
             "do": [{"fire": {"at": "ground:B2", "fd": 3}},
                    {"spill-oil": {"areas": ["ground:B2", "ground:C2", "ground:D2"]}}]},
            {"name": "powder", "when": {"fire-in-room": "hall"},
             "do": {"explode": {"at": "ground:F1", "fd": 6}}}]

    def run():
        s = scripted(cues, seed=11)
        loop.run(s, AutoController(), rounds=12)
        return [e.to_json() for e in s.log]

    assert run() == run()


# -- saves ---------------------------------------------------------------------------------
def test_state_round_trips_and_a_restored_script_does_not_fire_again():
    cues = [{"name": "npc", "when": {"round": 1},
             "do": [{"npc": {"name": "Marta", "at": "ground:E1"}},
                    {"spill-oil": ["ground:E2", "ground:E3"]}]},
            {"name": "both", "when": {"all": [{"round": 2}, {"fire-in-room": "kitchen"}]},
             "do": {"say": "both"}}]
    s = scripted(cues)
    play_round(s, Waiter())
    play_round(s, Waiter())
    state = json.loads(json.dumps(s.script.state()))
    assert state["fired"][0] == 1 and state["latches"][1]  # round 2 is remembered

    fresh = world()
    fresh.log = EventLog(s.log)
    fresh.round = s.round
    fresh.script = build_script(cues, fresh)
    fresh.script.load_state(state, fresh)
    assert fresh.hero("Marta").npc
    assert Feature.OIL in fresh.building.area("ground:E3").features
    fresh.start_fire(area(fresh, "ground:A1"), 2, Cause.GM)
    fresh.script.check(fresh, When.PHASE)
    assert said(fresh) == ["both"]
    assert len(fired(fresh, "npc")) == 1


# -- validation ----------------------------------------------------------------------------
def test_every_problem_is_reported_with_its_key_path():
    found = problems([
        {"when": {"fire-reaches": "ground:Z9"}, "do": {"say": "x"}},
        {"when": {"round": 0}, "do": {"say": "x"}},
        {"when": {"fire-dice": {"at_least": 11}}, "do": {"say": "x"}},
        {"when": {"hero-enters": {"room": "attic"}}, "do": {"say": "x"}},
        {"when": {"hero-knocked-out": "Nobody"}, "do": {"say": "x"}},
        {"when": {"fire-reach": "ground:A1"}, "do": {"say": "x"}},
        {"when": {"round": 1}, "do": [{"explod": {"at": "ground:A1"}}, {"open": "ground:A1-ground:B1"}]},
        {"when": {"round": 1}, "do": {"collapse": "kitchen"}},
        {"when": {"round": 1}, "do": {"say": "{hero} arrives"}},
        {"when": {"round": 1}, "do": {"move": {"who": "Ghost", "to": "ground:A1"}}},
        {"when": {"round": 1}, "do": {"fire": {"at": "ground:G1", "fd": 3}}},
        {"when": {"round": 1, "flashover": True}, "do": {"say": "x"}},
        {"when": {"barrier-opens": "ground:A1-ground:C1"}, "do": {"say": "x"}},
    ])
    text = "\n".join(found)
    expected = [
        "script[0].when.fire-reaches: no area 'ground:Z9'",
        "script[1].when.round: rounds start at 1, not 0",
        "script[2].when.fire-dice.at_least: Fire Dice must be 1-10, not 11",
        "script[3].when.hero-enters.room: no room 'attic'",
        "script[4].when.hero-knocked-out: no character named 'Nobody'",
        "script[5].when.fire-reach: unknown trigger 'fire-reach' (did you mean 'fire-reaches'?)",
        "script[6].do[0].explod: unknown effect 'explod' (did you mean 'explode'?)",
        "script[6].do[1].open: the opening at ground:A1|ground:B1 cannot open",
        "script[7].do.collapse.room: room 'kitchen' has no floor over another level",
        "script[8].do.say: the trigger gives no {hero}",
        "script[9].do.move.who: no character named 'Ghost'",
        "script[10].do.fire.at: nothing burns in ground:G1",
        "script[11].when: one trigger per 'when'",
        "script[12].when.barrier-opens: ground:A1 and ground:C1 are not neighbours",
    ]
    for line in expected:
        assert line in text, (line, text)
    assert len(found) == len(expected)


def test_a_script_names_a_character_as_the_table_does_by_a_word_that_names_one():
    """``Isa`` or ``Soldano`` for Isabela Soldano, as the GM types them at the prompts (the
    script asked for the full name, which the table's screens never show in full); a word two
    characters answer to is an error listing them."""
    from fuego.engine.heroes import Hero

    def cast(b):
        return [Hero("Isabela Soldano", b.area("ground:A1").index, brawn=3, resolve=3),
                Hero("Isabela Vaz", b.area("ground:B1").index, brawn=2, resolve=2),
                Hero("Tomas", b.area("upper:B1").index, brawn=2, resolve=2)]

    b = make_building(plans=PLANS, rooms=ROOMS)
    s = make_scene(b, seed=7, heroes=cast(b), fires={},
                   settings=Settings(smoke=False, burning_clothes=False))
    script = build_script([{"name": "down", "when": {"hero-knocked-out": "Soldano"},
                            "do": {"say": "{hero} is down"}},
                           {"name": "walk", "when": {"round": 1},
                            "do": {"move": {"who": "isa s", "to": "ground:A2"}}}], s)
    s.script = script
    play_round(s, Waiter())
    assert s.hero("Isabela Soldano").area == b.area("ground:A2").index  # (the move's "isa s")
    found = problems([{"when": {"hero-knocked-out": "Isabela"}, "do": {"say": "x"}}],
                     make_scene(b, seed=7, heroes=cast(b), fires={}))
    assert found == ["script: script[0].when.hero-knocked-out: 'Isabela' names 2 characters: "
                     "Isabela Soldano, Isabela Vaz (tip: name the one you mean in full, e.g. "
                     "Isabela Soldano)"]


def test_more_problems():
    found = "\n".join(problems([
        {"when": {"round": 1}},
        "not a cue",
        {"name": "a", "when": {"round": 1}, "do": {"say": "{nope}"}},
        {"name": "a", "when": {"round": 2}, "do": {"spill-oil": ["ground:A1", "ground:C1"]}},
        {"when": {"flashover": "street"}, "do": {"say": "x"}},
        {"when": {"all": []}, "do": {"say": "x"}},
        {"when": {"round": 1}, "do": {"npc": {"name": "Isabela", "at": "ground:A1"}}},
        {"when": {"round": 1}, "do": {"npc": {"name": "Bob", "at": "ground:A1", "traits": {"brawn": 99}}}},
        {"when": {"round": 1}, "every": True, "once": True, "do": {"say": "x"}},
        {"when": {"round": 1}, "do": {"wind": "hurricane"}},
        {"when": {"round": 1}, "do": {"explode": {"at": "ground:A1", "radius": 99}}},
    ]))
    for line in [
        "script[0]: missing required key 'do'",
        "script[1]: expected a mapping",
        "script[2].do.say: unknown placeholder {nope}",
        "script[3].name: two cues are named 'a'",
        "script[3].do.spill-oil.areas[1]: ground:C1 is not next to ground:A1",
        "script[4].when.flashover: 'street' is outdoors",
        "script[5].when.all: expected a list of triggers",
        "script[6].do.npc.name: the npc 'Isabela' has the name of the hero 'Isabela'",
        "script[7].do.npc.traits.brawn",
        "script[8].every: 'once' and 'every' contradict each other",
        "script[9].do.wind: no wind 'hurricane'",
        "script[10].do.explode.radius: the radius (areas) must be 0-10, not 99",
    ]:
        assert line in found, (line, found)


def test_a_barrier_that_cannot_be_acted_on_is_named_as_the_gm_named_it():
    from fuego.scenario.model import loads

    text = SHOP.replace("rooms:\n", "rooms:\n  loft: {fuel: 2}\n").replace(
        "legend: {s: shop,", "legend: {l: loft, s: shop,").replace(
        "      oooo\n", "      oooo\n  - {name: upper, elevation: 1, plan: \"#l##\\n####\"}\n") + """\
links:
  - {kind: ladder, at: ground:B1-upper:B1, name: loft ladder}
script:
  - when: {round: 1}
    do:
      - break: loft ladder
      - collapse: {floor: upper:B1}
"""
    with pytest.raises(ScenarioError) as err:
        loads(text)
    found = [p.render() for p in err.value.problems]
    # it said "the ladder at loft ladder is ..." and "has no floor over an area below"
    assert "script[0].do[0].break: 'loft ladder' (the ladder at ground:B1|upper:B1) is an " \
        "opening already: nothing to break" in found[0], found
    assert "script[0].do[1].collapse.floor: upper:B1 has no floor to collapse: 'loft ladder' " \
        "(the ladder at ground:B1|upper:B1) is what joins it to ground:B1" in found[1], found


def test_round_after_the_last_round_is_impossible():
    s = world(settings=Settings(max_rounds=10, smoke=False))
    found = problems([{"when": {"round": 11}, "do": {"say": "x"}}], s)
    assert "script[0].when.round: the round must be 1-10, not 11" in found[0]


def test_names_the_script_adds_and_oil_it_spills_are_known_everywhere():
    s = world(fuel={"ground:A1": 0})
    cues = [{"when": {"fire-reaches": "ground:A1"}, "do": {"move": {"who": "Marta", "to": "ground:B1"}}},
            {"when": {"round": 1}, "do": [{"npc": {"name": "Marta", "at": "ground:E1"}},
                                          {"spill-oil": ["ground:A1", "ground:B1"]}]}]
    assert isinstance(build_script(cues, s), Script)
    assert parse_script(None, s.building) == []
    assert build_script([], s) is None


# -- through the scenario loader ---------------------------------------------------------------
SHOP = """\
title: The Wine Shop
rooms:
  shop: {fuel: 3}
  store: {fuel: 5}
  street: {outdoors: true, features: [exit]}
legend: {s: shop, b: store, o: street}
levels:
  - name: ground
    elevation: 0
    plan: |
      bbss
      bbss
      oooo
doors:
  - {at: ground:B2-ground:C2, name: store door}
  - {between: [shop, street], closed: false}
heroes:
  - {name: Ana, start: ground:C1}
fires:
  - {area: ground:A1, fd: 2}
"""


def test_a_scenario_script_names_barriers_by_their_name_and_heroes_from_the_file():
    from fuego.scenario.model import loads

    text = SHOP + """\
script:
  - name: the door
    when: {barrier-opens: store door}
    do: {say: "{barrier} opens"}
  - name: in the store
    when: {hero-enters: {room: store, hero: ana}}
    do: {say: "{hero} is in the store"}
"""
    scene = loads(text).build(2)
    assert isinstance(scene.script, Script) and len(scene.script) == 2
    from fuego.table import gm

    gm.barrier(scene, "store door", "open")
    gm.move_hero(scene, "Ana", "ground:B2")
    scene.script.check(scene, When.PHASE)
    assert said(scene) == ["store door opens", "Ana is in the store"]


def test_a_barrier_is_named_in_any_case_and_a_wrong_name_is_told_the_names():
    from fuego.scenario.model import loads

    text = SHOP + """\
script:
  - when: {round: 1}
    do: [{open: Store Door}]
"""
    scene = loads(text).build(2)
    loop.run(scene, Waiter(), rounds=1)
    assert of(scene, EventKind.BARRIER_OPENED, barrier="store door")
    with pytest.raises(ScenarioError) as err:
        loads(text.replace("Store Door", "stor door"))
    message = err.value.problems[0].render()
    assert "no door, window, wall or link named 'stor door' (did you mean 'store door'?)" \
        in message, message  # it said "no area 'stor' for the barrier"
    one_level = loads(text.replace("Store Door", "B2-C2")).build(2)  # bare areas still read
    loop.run(one_level, Waiter(), rounds=1)
    assert of(one_level, EventKind.BARRIER_OPENED, barrier="store door")


def test_a_name_two_doors_share_is_refused_for_an_effect_and_heard_on_both_by_a_trigger():
    from fuego.scenario.model import loads

    text = SHOP.replace("{between: [shop, street], closed: false}",
                        "{between: [shop, street], name: Store door}") + """\
script:
  - name: doors
    every: true
    when: {barrier-opens: store door}
    do: {say: "{barrier}"}
  - when: {round: 1}
    do: [{open: store door}]
"""
    with pytest.raises(ScenarioError) as err:
        loads(text)  # it opened whichever door was read last
    message = err.value.problems[0].render()
    assert "script[1].do[0].open: 'store door' names 2 barriers: ground:B2|ground:C2, " \
        "ground:C2|ground:C3 (tip: name the one you mean by its two areas, e.g. " \
        "ground:B2|ground:C2)" in message, message
    scene = loads(text.replace("open: store door", "open: ground:C2-ground:C3")).build(2)
    loop.run(scene, Waiter(), rounds=1)
    gm.barrier(scene, "ground:B2|ground:C2", "open")
    assert scene.script is not None
    scene.script.check(scene, When.PHASE)
    assert said(scene) == ["Store door", "store door"]


def test_fuego_check_reports_script_problems_with_lines(tmp_path):
    from click.testing import CliRunner

    from fuego.cli import cli

    text = SHOP + """\
script:
  - when: {round: 1}
    do: {say: hello}
  - when: {fire-reaches: ground:Z9}
    do:
      - open: ground:A1-ground:A2
"""
    path = tmp_path / "shop.yaml"
    path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(cli, ["check", str(path)])
    assert r.exit_code == 2
    lines = r.output.splitlines()
    n = len(SHOP.splitlines())
    assert any(line.startswith(f"{path}:{n + 4}: script[1].when.fire-reaches: no area 'ground:Z9'")
               for line in lines), r.output
    assert any(line.startswith(f"{path}:{n + 6}: script[1].do[0].open: the opening at")
               for line in lines), r.output


def test_fuego_check_refuses_a_blast_too_small_to_blow_a_fire_out(tmp_path):
    from click.testing import CliRunner

    from fuego.cli import cli
    from fuego.modules.firefighting import BLAST_MIN

    text = SHOP + f"""\
script:
  - when: {{round: 1}}
    do:
      - blast: {{at: ground:B1, dice: {BLAST_MIN - 1}}}
  - when: {{round: 2}}
    do: {{blast: {{at: ground:B1, dice: {BLAST_MIN}}}}}
"""
    path = tmp_path / "shop.yaml"
    path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(cli, ["check", str(path)])
    assert r.exit_code == 2, r.output  # it was fine, and the blast fizzled in round 1
    n = len(SHOP.splitlines())
    assert f"{path}:{n + 4}: script[0].do[0].blast.dice: a blast of {BLAST_MIN - 1} dice blows " \
        f"no fire out: it takes {BLAST_MIN} or more (001, Extinguishing Fires) (tip: give it " \
        f"dice: {BLAST_MIN} or more (the default)" in r.output, r.output
    assert "script[1]" not in r.output  # the smallest blast that works is fine


@pytest.mark.parametrize("name", ["Ana ", " ana", "ANA"])
def test_an_npc_with_a_heros_name_but_for_case_or_spaces_is_refused(tmp_path, name):
    from click.testing import CliRunner

    from fuego.cli import cli

    script = SHOP + f"""\
script:
  - when: {{round: 1}}
    do: {{npc: {{name: '{name}', at: ground:D1}}}}
"""
    listed = SHOP.replace("heroes:\n", f"heroes:\n  - {{name: '{name}', npc: true, "
                                       "start: ground:D1}\n")
    said = []
    for n, text in enumerate([script, listed]):
        path = tmp_path / f"{n}.yaml"
        path.write_text(text, encoding="utf-8")
        r = CliRunner().invoke(cli, ["check", str(path)])
        assert r.exit_code == 2, r.output  # it played two characters of one name
        said.append(r.output)
    assert f"script[0].do.npc.name: the npc '{name.strip()}' has the name of the hero 'Ana': each " \
        "character's name must be its own (tip: give the npc another name (names are " \
        "compared in any case, spaces folded))" in said[0], said[0]
    assert f"heroes[1].name: two characters are named 'Ana' (the other is heroes[0] " \
        f"'{name}'); names must differ" in said[1], said[1]


def test_a_file_without_rules_checks_its_script_against_the_default_round_limit():
    from fuego.errors import ScenarioError
    from fuego.rules.settings import Settings
    from fuego.scenario.model import loads

    limit = Settings().max_rounds
    text = SHOP + f"""\
script:
  - when: {{round: {limit + 1}}}
    do: {{say: "too late"}}
"""
    with pytest.raises(ScenarioError, match=f"the round must be 1-{limit}, not {limit + 1}"):
        loads(text)


class _Forgets(dict):
    """A cache that keeps nothing (the reference below asks every cue afresh)."""

    def __setitem__(self, key, value) -> None:
        pass


def _every_cue_asked(self) -> None:
    """The check as it was before cues that fired were retired: every kind a cue reads, every
    cue that may happen by the kinds present, worked out afresh at each pass."""
    from fuego.scenario.script.triggers import kinds_of

    self._kinds = kinds_of([t for cue in self.cues for t in cue.triggers])
    self._wants = [(cue, kinds_of(cue.triggers) if cue.needs_events else None)
                   for cue in self.cues]
    self._eventless = [cue for cue, wants in self._wants if wants is None]
    self._asked = _Forgets()


@pytest.mark.parametrize("campaign", ["tavern", "ship", "village", "wagon"])
def test_retiring_the_cues_that_fired_fires_what_asking_every_cue_fires(campaign, monkeypatch):
    """A check reads only the kinds of event the cues still live read, and asks the cues the
    kinds present may set off from a table kept per set of kinds: the same cues fire, at the
    same points, as asking every cue with every event (the whole log compared, and a
    forecast's runs, whose log keeps only the kinds the script reads)."""
    from pathlib import Path

    from fuego.forecast.runner import forecast
    from fuego.scenario.model import load

    scenario = load(Path(__file__).resolve().parent.parent / "campaigns" / f"{campaign}.yaml")

    def played() -> tuple[list[list], object]:
        logs = []
        for seed in (1, 2, 3):
            scene = scenario.build(seed)
            loop.run(scene, AutoController())
            logs.append(list(scene.log))
        return logs, forecast(scenario, 6, 12, 5, 1).counts

    retired = played()
    monkeypatch.setattr(Script, "_relive", _every_cue_asked)
    assert played() == retired
    assert any(e.kind is EventKind.SCRIPT and e.data.get("times") for log in retired[0] for e in log)
