"""drifting-smoke: Alpha Strike's light and heavy smoke, drift, dissipation and persistence."""

from __future__ import annotations

from test_modules_support import area, field, module_events, module_of, scene_with

from fuego.engine.scene import Cause
from fuego.modules import drifting_smoke as D
from fuego.modules.drifting_smoke import DriftingSmoke
from fuego.modules.wind import Wind
from fuego.rules.charts import Density

ROW = ["bbbbbbbbb"]


def test_alpha_strike_smoke_numbers():
    # 001: 2" x wind force, max 6"; 2D6 +1 (force 2), +2 (3), +5 (4), +10 (tornado), 10+;
    # persists 2 turns after the fire burns out.
    assert (D.DRIFT_PER_FORCE, D.MAX_DRIFT, D.DISSIPATE_ON, D.PERSIST_ROUNDS) == (2, 6, 10, 2)
    assert D.DISSIPATE_MODIFIER == {0: 0, 1: 0, 2: 1, 3: 2, 4: 5, "tornado": 10}


def _names(s, density=None):
    return sorted(s.area_name(i) for i, d in s.smoke.density.items()
                  if density is None or d is density)


def test_in_a_calm_smoke_only_rises_over_the_fire():
    core = scene_with(field(ROW), {})
    assert core.smoke is not None
    calm = scene_with(field(ROW), {"drifting-smoke": {}})
    for s in (core, calm):
        s.start_fire(area(s, "C1"), 3, Cause.START)
        assert s.smoke is not None
        s.smoke.update(s)
    assert len(core.smoke.density) == 4
    assert _names(calm) == ["ground:C1"]


def test_smoke_drifts_two_areas_per_wind_force_level():
    breeze = scene_with(field(ROW), {"drifting-smoke": {}, "wind": {
        "force": "mild-breeze", "direction": "W"}})
    heavy = scene_with(field(ROW), {"drifting-smoke": {}, "wind": {
        "force": "heavy-winds", "direction": "W"}})
    for s in (breeze, heavy):
        s.start_fire(area(s, "A1"), 3, Cause.START)
        assert s.smoke is not None
        s.smoke.update(s)
    assert _names(breeze) == ["ground:A1", "ground:B1", "ground:C1"]
    assert _names(heavy) == ["ground:A1", "ground:B1", "ground:C1", "ground:D1", "ground:E1"]


def test_the_trail_stops_at_six_areas_and_at_a_wall():
    gale = scene_with(field(ROW), {"drifting-smoke": {"direction": "W", "force": 4}})
    assert gale.smoke is not None
    gale.start_fire(area(gale, "A1"), 3, Cause.START)
    gale.smoke.update(gale)
    assert len(gale.smoke.density) == 1 + 6
    walled = scene_with(field(["bbbhb"]), {"drifting-smoke": {"direction": "W", "force": 4}})
    assert walled.smoke is not None
    walled.start_fire(area(walled, "A1"), 3, Cause.START)
    walled.smoke.update(walled)
    assert _names(walled) == ["ground:A1", "ground:B1", "ground:C1"]


def test_without_the_wind_module_the_scenarios_wind_word_sets_the_force():
    s = scene_with(field(ROW), {"drifting-smoke": {"direction": "E"}}, wind="moderate")
    assert s.smoke is not None
    s.start_fire(area(s, "I1"), 3, Cause.START)
    s.smoke.update(s)
    assert _names(s) == ["ground:E1", "ground:F1", "ground:G1", "ground:H1", "ground:I1"]


def test_heavy_smoke_from_the_fuels_the_text_names():
    s = scene_with(field(["bbb", "bbb"]), {"drifting-smoke": {},
                                           "ignition": {"terrain": {"ground:A1": "heavy-woods"}}})
    assert s.smoke is not None
    s.start_fire(area(s, "A1"), 3, Cause.START)
    s.start_fire(area(s, "C2"), 3, Cause.START)
    s.smoke.update(s)
    assert s.smoke.at(area(s, "A1")) is Density.THICK
    assert s.smoke.at(area(s, "C2")) is Density.THIN


def test_smoke_persists_two_rounds_after_its_fire_is_out():
    s = scene_with(field(ROW), {"drifting-smoke": {"direction": "W", "force": 1}},
                   faces=[1, 1, 1, 1])
    assert s.smoke is not None
    fire = s.start_fire(area(s, "A1"), 3, Cause.START)
    assert fire is not None
    s.smoke.update(s)
    s.extinguish(fire, "test", burned_out=False)  # out at the end of round 0
    s.round = 1
    s.smoke.update(s)  # still there through round 2: the second round after the fire
    assert _names(s) == ["ground:A1", "ground:B1", "ground:C1"]
    s.round = 2
    s.smoke.update(s)
    assert not s.smoke.density and not module_of(s, DriftingSmoke).trails
    assert [e.data["success"] for e in module_events(s, "drifting-smoke")] == [False, False]


def test_dissipation_thins_heavy_smoke_then_clears_light():
    s = scene_with(field(ROW), {"drifting-smoke": {"direction": "W", "force": 1},
                                "ignition": {"terrain": {"brush": "heavy-woods"}}},
                   faces=[6, 4])
    assert s.smoke is not None
    fire = s.start_fire(area(s, "A1"), 3, Cause.START)
    assert fire is not None
    s.smoke.update(s)
    s.extinguish(fire, "test", burned_out=False)
    s.round = 1
    s.smoke.update(s)  # 6+4 = 10: heavy -> light
    assert _names(s, Density.THIN) == ["ground:A1", "ground:B1", "ground:C1"]


def test_a_burning_fire_keeps_its_trail_and_only_its_trail_shifts_with_the_wind():
    s = scene_with(field(["bbbbb", "bbbbb", "bbbbb"]), {
        "drifting-smoke": {}, "wind": {"force": "mild-breeze", "direction": "W"}})
    assert s.smoke is not None
    s.start_fire(area(s, "C2"), 3, Cause.START)
    s.smoke.update(s)
    assert _names(s) == ["ground:C2", "ground:D2", "ground:E2"]
    module_of(s, Wind).set_wind(s, direction="N")  # now blowing south
    assert _names(s) == ["ground:C2", "ground:C3"]  # moved at once; the fire's own stays


def test_gusts_clear_light_smoke_but_not_over_a_fire():
    s = scene_with(field(ROW), {"drifting-smoke": {}, "wind": {
        "force": "mild-breeze", "direction": "W"}})
    assert s.smoke is not None
    s.start_fire(area(s, "A1"), 3, Cause.START)
    s.smoke.update(s)
    module_of(s, DriftingSmoke).gust(s)
    assert _names(s) == ["ground:A1"]


def test_indoor_fires_keep_the_core_smoke():
    core = scene_with(field(["hhhhh"]), {})
    assert core.smoke is not None
    mod = scene_with(field(["hhhhh"]), {"drifting-smoke": {}, "wind": {
        "force": "heavy-winds", "direction": "W"}})
    assert mod.smoke is not None
    for s in (core, mod):
        s.start_fire(area(s, "C1"), 3, Cause.START)
        assert s.smoke is not None
        s.smoke.update(s)
    assert core.smoke.density == mod.smoke.density


def test_state_round_trips():
    s = scene_with(field(ROW), {"drifting-smoke": {"direction": "W", "force": 2}})
    assert s.smoke is not None
    s.start_fire(0, 3, Cause.START)
    s.smoke.update(s)
    other = D.DriftingSmoke({})
    other.load_state(module_of(s, DriftingSmoke).state())
    assert other.state() == module_of(s, DriftingSmoke).state()
