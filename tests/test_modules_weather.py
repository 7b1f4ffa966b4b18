"""weather: the EC chart and month drm (ASL 25.5), Alpha Strike's condition modifiers."""

from __future__ import annotations

import pytest
from builders import TWO_ROOMS, grid
from test_modules_support import Dice, area, field, module_events, module_of, scene_with

from fuego.engine.controllers import Controller
from fuego.engine.events import EventKind
from fuego.engine.fire_actions import ActionKind, candidates
from fuego.engine.rounds import end_round, play_round
from fuego.engine.scene import Cause
from fuego.errors import FuegoError
from fuego.modules import weather as W
from fuego.modules.weather import Weather

# 000 ASL 25.5, as printed: Final dr -> EC, EC DRM; month -> drm.
TEXT_EC_CHART = {
    -1: ("snow", -3), 0: ("snow", -3), 1: ("mud", -3), 2: ("wet", -2), 3: ("moist", -1),
    4: ("moderate", 0), 5: ("dry", 1), 6: ("very-dry", 2), 8: ("very-dry", 2),
}
TEXT_MONTH_DRM = {"jan": -3, "feb": -3, "dec": -2, "mar": -2, "nov": -1, "apr": -1,
                  "jun": 1, "sep": 1, "jul": 2, "aug": 2}


@pytest.mark.parametrize("final,row", sorted(TEXT_EC_CHART.items()))
def test_ec_chart_rows(final, row):
    assert W.ec_for(final) == row


def test_month_drm_as_the_text_lists_it_and_zero_for_may_and_october():
    for month, drm in TEXT_MONTH_DRM.items():
        number = W.month_number(month)
        assert number is not None and W.MONTH_DRM[number] == drm
    assert W.MONTH_DRM[5] == W.MONTH_DRM[10] == 0


def test_alpha_strike_condition_modifiers_match_the_text():
    c = W.ALPHA_CONDITIONS
    assert c["terrain"] == {"deep-snow": 3, "geyser": 3, "ice": 4, "mud": 5,
                            "planted-fields": -2, "swamp": 5, "tundra": 0}
    assert c["temperature"] == {"cold": 1, "hot": -2}
    assert c["rain"] == {"light-to-heavy": 1, "torrential": 2}
    assert c["snowfall-and-hail"] == {"light-to-heavy-snow": 1, "sleet": 1, "blizzard": 2}
    assert c["wind-force"] == {2: 1, 3: 2, 4: 4, "tornado": None}
    assert c["atmosphere"]["vacuum"] is None and c["atmosphere"]["thick"] == -2
    assert c["fire-spreading"] == {"from-downwind": 1, "across-water-paved-per-2": 3}
    # marked * in the text: burn out by themselves after 1d6 turns
    assert {"deep-snow", "ice", "mud", "swamp", "tundra"} == W.SELF_EXTINGUISHING
    assert (W.RAIN["light"], W.RAIN["heavy"], W.RAIN["torrential"]) == (1, 1, 2)
    assert (W.SNOWFALL["sleet"], W.SNOWFALL["blizzard"]) == (1, 2)


def test_ec_rolled_from_the_month_before_round_one():
    s = scene_with(field(["bbb"]), {"weather": {"month": "August"}}, faces=[3])
    module_of(s, Weather).scene_start(s)
    m = module_of(s, Weather)
    assert (m.ec, m.ec_drm) == ("dry", 1)  # dr 3 + August's +2 = 5
    e = [e for e in s.log if e.kind is EventKind.WEATHER][-1]
    assert (e.data["dr"], e.data["month_drm"], e.data["ec"]) == (3, 2, "dry")


def test_ec_set_by_the_gm_rolls_nothing():
    s = scene_with(field(["bbb"]), {"weather": {"ec": "wet"}}, seed=5)
    before = s.roller.getstate()
    module_of(s, Weather).scene_start(s)
    assert s.roller.getstate() == before and module_of(s, Weather).ec_drm == -2


def test_drm_folds_ec_and_conditions_outdoors_only():
    b = field(["bh"])
    s = scene_with(b, {"weather": {"ec": "very-dry", "rain": "torrential",
                                   "temperature": "cold"}})
    m = module_of(s, Weather)
    assert m.drm(s, area(s, "A1")) == 2 - (2 + 1)
    assert m.drm(s, area(s, "B1")) == 0  # indoors: rain does not fall there
    s2 = scene_with(b, {"weather": {"ec": "very-dry", "rain": "torrential", "indoors": True}})
    assert module_of(s2, Weather).drm(s2, area(s2, "B1")) == 2  # the EC only


def _leap_tns(s, src):
    fire = s.fires[src]
    return {a.target: a.tn for a in candidates(s, fire) if a.kind is ActionKind.LEAP}


def test_each_drm_point_is_five_off_an_outdoor_spreading_tn():
    b = field(["bbbb"])
    plain = scene_with(b, {})
    plain.start_fire(0, 4, Cause.GM)
    dry = scene_with(field(["bbbb"]), {"weather": {"ec": "very-dry"}})  # +2
    dry.start_fire(0, 4, Cause.GM)
    wet = scene_with(field(["bbbb"]), {"weather": {"ec": "wet", "rain": "heavy"}})  # -3
    wet.start_fire(0, 4, Cause.GM)
    base, d, w = _leap_tns(plain, 0), _leap_tns(dry, 0), _leap_tns(wet, 0)
    far = area(plain, "D1")
    assert d[far] == base[far] - 10 and w[far] == base[far] + 15
    near = area(plain, "B1")
    assert d[near] == 5  # never below the mundane TN: a roll still happens


def test_indoor_fires_feel_no_weather():
    b = field(["hhh"])
    plain, wet = scene_with(b, {}), scene_with(field(["hhh"]), {"weather": {"rain": "torrential"}})
    for s in (plain, wet):
        s.start_fire(0, 3, Cause.GM)
    assert _leap_tns(plain, 0) == _leap_tns(wet, 0)


def test_fires_on_mud_die_after_a_d6_of_rounds_unless_incendiary():
    from fuego.modules.ignition import kindle

    s = scene_with(field(["bbb"]), {"weather": {"ec": "moderate", "ground": "mud"},
                                    "ignition": {}}, faces=[2, 6], smoke=False)
    s.round = 1
    mud = s.start_fire(0, 3, Cause.GM)
    assert mud is not None
    kindle(s, area(s, "C1"), intentional=True, why="test", incendiary=True)
    w = s.module(Weather)
    assert w is not None
    w.end_of_round(s)
    assert w.burn_out == {0: 1} and 0 in s.fires  # a 2 rolled: one round left
    w.end_of_round(s)
    assert 0 not in s.fires and area(s, "C1") in s.fires
    out = [e for e in s.log if e.kind is EventKind.FIRE_OUT]
    assert out[-1].data["reason"] == "died out on the mud" and mud.state.value == "out"


def test_the_weather_and_a_dying_fire_read_as_words():
    # the option words (very-dry, deep-snow) are read out, not their spelling in the file
    s = scene_with(field(["bbb"]), {"weather": {"ec": "very-dry", "rain": "heavy",
                                                "ground": "deep-snow"}}, faces=[1], smoke=False)
    w = module_of(s, Weather)
    w.scene_start(s)
    said = [e.data["text"] for e in s.log if e.kind is EventKind.WEATHER]
    assert said == ["Weather: very dry (EC DRM +2); rain: heavy; ground: deep snow"]
    s.round = 1
    s.start_fire(0, 3, Cause.GM)
    w.end_of_round(s)
    assert module_events(s, "weather")[-1].data["text"] == ("on deep snow the fire will die by itself in "
                                                 "1 round")


@pytest.mark.parametrize("options,message", [
    ({"month": 13}, "rules.modules.weather.month: expected a month (jan ... dec or 1-12), got 13"),
    ({"rain": "drizzle"}, "rules.modules.weather.rain: expected one of none, light, moderate, "
                          "heavy, torrential, got 'drizzle'"),
    ({"ec": "humid"}, "rules.modules.weather.ec: expected one of random, snow, mud, wet, moist, "
                      "moderate, dry, very-dry, got 'humid'"),
    ({"indoors": "yes"}, "rules.modules.weather.indoors: expected true or false, got 'yes'"),
])
def test_bad_options_name_their_key(options, message):
    with pytest.raises(FuegoError) as exc:
        W.Weather(options)
    assert str(exc.value) == message


def test_the_script_can_change_the_weather():
    s = scene_with(field(["bbb"]), {"weather": {"ec": "dry"}})
    m = module_of(s, Weather)
    m.set_weather(s, why="storm", rain="torrential", snow="sleet")
    assert (m.rain, m.snowfall, m.ec) == ("torrential", "sleet", "dry")
    assert module_events(s, "weather")[-1].data["why"] == "storm"
    with pytest.raises(FuegoError):
        m.set_weather(s, rain="frogs")
    assert W.Weather.check_weather({"rain": "frogs", "mood": "grim", "snow": "sleet"}) == [
        "mood: the weather module changes only ec, rain, snowfall, temperature, ground",
        "rain: expected one of none, light, moderate, heavy, torrential, got 'frogs'"]
    # both words for one condition: said so (it said snow was not a condition it changes)
    assert W.Weather.check_weather({"snow": "light", "snowfall": "heavy"}) == [
        "snow: snow and snowfall are one condition: give one of them"]


def test_an_indoor_scene_with_moderate_weather_plays_as_without_it():
    def run(mods):
        b = grid([("ground", 0, ["kkhh", "kkhs"])], TWO_ROOMS)
        s = scene_with(b, mods, seed=11)
        s.start_fire(0, 3, Cause.START)
        for m in s.modules:
            m.scene_start(s)
        for _ in range(6):
            play_round(s, Controller())
        return [e.to_json() for e in s.log if e.kind is not EventKind.WEATHER]

    assert run({}) == run({"weather": {"ec": "moderate"}})


def test_weather_state_round_trips():
    s = scene_with(field(["bbb"]), {"weather": {"ec": "dry", "ground": "ice"}}, faces=[4])
    w = module_of(s, Weather)
    s.round = 1
    s.start_fire(0, 2, Cause.GM)
    end_round(s)
    other = W.Weather({})
    other.load_state(w.state())
    assert other.state() == w.state() and other.burn_out == {0: 3}
    assert isinstance(s.roller, Dice)
