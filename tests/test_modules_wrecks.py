"""wrecks: a burning cart, wagon, coach or boat (000 ASL 25.14, 25.141, 25.2, 25.6, 25.63, 25.651),
and the wagon campaign (issue 18)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_modules_support import area, field, module_events, scene_with

from fuego.cli import cli
from fuego.engine import loop
from fuego.engine.events import EventKind
from fuego.engine.fire import FireState, Trigger
from fuego.engine.hero_actions import move
from fuego.engine.heroes import Hero
from fuego.engine.rounds import start_scene
from fuego.engine.scene import Cause
from fuego.errors import FuegoError, ScenarioError
from fuego.modules import wrecks as W
from fuego.rules.charts import Density
from fuego.scenario.model import loads

WAGON = Path(__file__).resolve().parent.parent / "campaigns" / "wagon.yaml"


def wrecked(plan=("bbb",), at="B1", modules=None, faces=(), **kw):
    s = scene_with(field(list(plan)), {"wrecks": {}, **(modules or {})}, faces=faces, **kw)
    W.place_wreck(s, area(s, at), "wagon")
    return s


def end_round(s, rnd: int) -> None:
    s.round = rnd
    for m in sorted(s.modules, key=lambda m: m.end_order):
        m.end_of_round(s)


def test_the_texts_vehicles_and_extra_move():
    assert set(W.VEHICLES) == {"cart", "carriage", "wagon", "coach", "boat"}
    assert W.EXTRA_MOVES == 1  # 25.141: "an extra MF"


def test_a_wreck_is_a_blaze_from_the_start_and_spreads_from_the_next_round():
    # 25.15: "All Fires start as Flames, except for Wreck Blazes"; 25.6: "Every Player Turn
    # after the first Player Turn in which it appears"
    s = wrecked(modules={"flame-and-blaze": {}}, faces=[6, 6])
    wreck = W.burning_wrecks(s)[0]
    assert (wreck.vehicle, wreck.born) == ("wagon", 0)
    end_round(s, 1)
    assert set(s.fires) == {area(s, "B1")}
    roll = [e for e in module_events(s, "wrecks") if e.data.get("what") == "wreck-spread"]
    assert roll[0].data["dice"] == [6, 6] and roll[0].data["need"] == 6  # brush: >= 6


def test_a_wreck_placed_this_round_waits_a_round():
    s = scene_with(field(["bbb"]), {"wrecks": {}})
    s.round = 2
    W.place_wreck(s, "B1", "cart")
    end_round(s, 2)
    assert not s.fires


def test_it_spreads_only_to_its_own_area():
    # 25.14: "the Fire must first spread from the Wreck to the terrain it occupies before it can
    # spread to another Location"
    lit = 0
    for seed in range(8):
        s = wrecked(plan=("bbb", "bbb", "bbb"), at="B2", seed=seed)
        for rnd in (1, 2, 3):
            end_round(s, rnd)
        assert set(s.fires) <= {area(s, "B2")}  # never a neighbour, however long it burns
        lit += bool(s.fires)
    assert lit  # and its own area does catch


def test_once_its_area_is_a_blaze_the_wreck_is_no_separate_fire():
    # 25.14: "Should a hex containing a Burning Wreck become a Blaze terrain Fire, the Burning
    # Wreck is removed"
    s = wrecked(modules={"flame-and-blaze": {"blaze_on": 13}}, faces=[6, 6])
    end_round(s, 1)
    fire = s.fires[area(s, "B1")]
    assert fire.state is FireState.FLAME and W.burning_wrecks(s)  # a Flame: still a wreck
    fire.trigger(Trigger.BLAZE, s, "test")  # the Flame becomes a Blaze, through the machine
    s.modules[0].round_start(s)
    assert not W.burning_wrecks(s)
    assert module_events(s, "wrecks")[-1].data["what"] == "wreck-gone"


def test_heavy_winds_and_gusts_set_its_own_area_alight_without_a_roll():
    # 25.63: "Fire from a Wreck Blaze spreads automatically to Burnable terrain in its
    # Location"; 25.651: "A Wreck Blaze automatically spreads only to its own ... Location"
    heavy = wrecked(plan=("bbbbb",), at="C1",
                    modules={"wind": {"force": "heavy-winds", "direction": "W",
                                      "changes": False}})
    end_round(heavy, 1)
    assert set(heavy.fires) == {area(heavy, "C1")}
    gust = wrecked(plan=("bbbbb",), at="C1",
                   modules={"wind": {"force": "mild-breeze", "direction": "W", "jumps": False}},
                   faces=[6, 6])
    gust.round = 1
    gust.modules[1].round_start(gust)  # the change check: 6+6, gusts
    end_round(gust, 1)
    assert set(gust.fires) == {area(gust, "C1")}  # not two areas on: only its own
    for s in (heavy, gust):
        spread = [e for e in module_events(s, "wrecks") if e.data.get("what") == "wreck-spread"]
        assert spread and "dice" not in spread[0].data


def test_moving_in_costs_an_extra_move_but_is_allowed():
    # 25.141: "a Wreck Blaze does not prohibit movement into the hex, but does require the
    # expenditure of an extra MF"
    s = wrecked(plan=("hhh",))  # indoors: no way out here to leave the scene by
    ana = Hero("Ana", area(s, "A1"))
    s.heroes.append(ana)
    ana.dice = [4, 9]  # left after the die this move is made with
    move(s, ana, area(s, "B1"))
    assert ana.area == area(s, "B1") and ana.dice == [9]
    assert module_events(s, "wrecks")[-1].data["what"] == "wreck-move"
    ana.dice = []
    move(s, ana, area(s, "C1"))
    move(s, ana, area(s, "B1"))  # no action left: the minimum move still goes in
    assert ana.area == area(s, "B1")
    off = wrecked(plan=("hhh",), modules={"wrecks": {"extra_move": False}})
    bo = Hero("Bo", area(off, "A1"))
    bo.dice = [4]
    move(off, bo, area(off, "B1"))
    assert bo.dice == [4]


def test_the_gms_choice_and_the_automatic_heroes_read_the_extra_move_off_the_wreck():
    from fuego.cli.gm_screen import choice_label
    from fuego.engine.controllers import module_tolls
    from fuego.engine.hero_actions import HeroAction, HeroActionKind

    for extra, label, toll in ((True, "a wagon ablaze, an extra move to get round it", 1.0),
                               (False, "a wagon ablaze", None)):
        s = wrecked(plan=("hhh",), modules={"wrecks": {"extra_move": extra}})
        ana = Hero("Ana", area(s, "A1"))
        s.heroes.append(ana)
        step = HeroAction(HeroActionKind.MOVE, target=area(s, "B1"))
        assert choice_label(s, ana, step).endswith(f"; {label})")
        assert module_tolls(s).get(area(s, "B1")) == toll


def test_its_smoke_is_thin_and_stays_in_its_own_area():
    # 25.2: "Wreck Blazes cause a +2 Hindrance DRM rather than the +3 ... of regular smoke"
    s = wrecked(plan=("bbb",), at="B1")
    s.round = 1
    s.smoke.update(s)
    assert s.smoke.density == {area(s, "B1"): Density.THIN}
    thick = wrecked(plan=("bbb",), at="B1")
    thick.building.areas[area(thick, "A1")].wet = True
    thick.start_fire(area(thick, "A1"), 3, Cause.GM)
    thick.smoke.update(thick)
    assert thick.smoke.density[area(thick, "B1")] is Density.THICK  # a fire's thick smoke wins


def test_a_wreck_keeps_the_scene_going_until_it_burns_out():
    s = scene_with(field(["rrr"]), {"wrecks": {"rounds": 2}})  # a road: nothing to set alight
    W.place_wreck(s, "B1", "boat")
    assert not s.fires and loop.ending(s) is None
    end_round(s, 1)
    assert W.burning_wrecks(s)
    end_round(s, 2)
    assert not W.burning_wrecks(s)
    assert module_events(s, "wrecks")[-1].data["what"] == "wreck-gone"


def test_wreck_state_round_trips():
    s = wrecked()
    other = W.Wrecks()
    other.load_state(json.loads(json.dumps(s.modules[0].state())))
    assert other.state() == s.modules[0].state() and other.wrecks[area(s, "B1")].vehicle == "wagon"


def test_a_wreck_needs_the_module_and_a_real_vehicle():
    s = scene_with(field(["bbb"]), {})
    with pytest.raises(FuegoError, match="wrecks module"):
        W.place_wreck(s, "B1", "wagon")
    s2 = scene_with(field(["bbb"]), {"wrecks": {}})
    with pytest.raises(FuegoError, match="no wreck"):
        W.place_wreck(s2, "B1", "chariot")


# -- the scenario format ---------------------------------------------------------------------------
SCENARIO = """
title: Wreck test
rooms:
  street: {outdoors: true, fuel: 2}
legend: {s: street}
levels:
  - name: ground
    plan: |
      sss
wrecks:
WRECKS
rules:
  modules: MODULES
"""


def scenario(wrecks: str, modules: str) -> str:
    return SCENARIO.replace("WRECKS", wrecks).replace("MODULES", modules)


def test_a_scenario_places_wrecks_by_area():
    sc = loads(scenario("  - {area: ground:B1, vehicle: coach, rounds: 5}", "{wrecks: {}}"))
    s = sc.build(1)
    [w] = W.burning_wrecks(s)
    assert (s.area_name(w.area), w.vehicle, w.rounds) == ("ground:B1", "coach", 5)
    assert "wrecks:" in sc.to_yaml() and "coach" in sc.to_yaml()


def test_fuego_check_lists_the_wrecks():
    r = CliRunner().invoke(cli, ["check", str(WAGON)])
    assert r.exit_code == 0 and "fires: none; burning wagon at ground:C2;" in r.output


@pytest.mark.parametrize("wrecks,modules,message", [
    ("  - {area: ground:B1, vehicle: coach}", "{}", "need the wrecks module"),
    ("  - {area: ground:B1, vehicle: chariot}", "{wrecks: {}}", "wrecks[0].vehicle: expected 'cart'"),
    ("  - {area: ground:Z9, vehicle: cart}", "{wrecks: {}}", "wrecks[0].area: wreck area ground:Z9"),
    ("  - {area: ground:B1, vehicle: cart}\n  - {area: ground:B1, vehicle: boat}",
     "{wrecks: {}}", "one wreck per area"),
])
def test_bad_wrecks_are_reported(wrecks, modules, message):
    with pytest.raises(ScenarioError) as err:
        loads(scenario(wrecks, modules))
    assert message in str(err.value)


# -- the wagon campaign ----------------------------------------------------------------------------
HOUSE = {f"ground:{c}{r}" for c in "ABCDEF" for r in (3, 4)}


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_the_wagon_lights_the_street_before_the_house(seed, tmp_path):
    log = tmp_path / "wagon.jsonl"
    r = CliRunner().invoke(cli, ["run", str(WAGON), "--seed", str(seed), "--log", str(log)])
    assert r.exit_code == 0, r.output
    assert "a burning wagon in ground:C2" in r.output
    assert "the burning wagon tries to set ground:C2 alight" in r.output
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    started = [e for e in events if e["kind"] == "fire-started"]
    assert started[0]["area"] == "ground:C2" and started[0]["module"] == "wrecks"
    house = [k for k, e in enumerate(started) if e["area"] in HOUSE]
    assert house and house[0] > 0  # the house burns, and only after the street


def test_the_wagon_map_draws_the_wreck(tmp_path):
    out = tmp_path / "wagon.svg"
    r = CliRunner().invoke(cli, ["map", str(WAGON), "--out", str(out)])
    assert r.exit_code == 0, r.output
    svg = out.read_text(encoding="utf-8")
    assert 'id="wreck-ground:C2"' in svg and "burning wreck" in svg
    later = tmp_path / "wagon-round-3.svg"
    r = CliRunner().invoke(cli, ["map", str(WAGON), "--round", "3", "--seed", "3",
                                 "--out", str(later)])
    assert r.exit_code == 0 and 'id="wreck-' not in later.read_text(encoding="utf-8")


def test_the_scenarios_wrecks_are_announced_as_the_scene_starts():
    s = loads(WAGON.read_text(encoding="utf-8")).build(3)
    assert not s.log  # placed quietly: the scene's first event is its start
    start_scene(s)
    assert s.log[0].kind is EventKind.SCENE_START
    placed = [e for e in s.log if e.kind is EventKind.MODULE]
    assert placed[0].data == {"module": "wrecks", "text": "a burning wagon in ground:C2",
                              "what": "wreck", "vehicle": "wagon", "rounds": W.DEFAULT_ROUNDS}
