"""structures: burning buildings lose 2 CF a round; at 0 the fire burns out and it falls."""

from __future__ import annotations

from test_modules_support import area, field, module_events, module_of, scene_with

from fuego.engine.events import EventKind
from fuego.engine.fire import FireState
from fuego.engine.heroes import Hero
from fuego.engine.scene import Cause
from fuego.modules import structures as S
from fuego.world.places import BarrierKind, Feature

TWO_STOREYS = [("ground", 0, ["hh"]), ("upper", 1, ["uu"])]


def test_alpha_strike_burns_two_construction_points_a_turn():
    assert S.CF_LOSS_PER_ROUND == 2  # 001: "by 2 points per turn"


def test_default_cf_from_fuel_and_beams():
    b = field(["hh"])
    b.add_feature(1, Feature.WOODEN_BEAM)
    s = scene_with(b, {"structures": {}})
    assert S.default_cf(s, 0) == 4 * 5
    assert S.default_cf(s, 1) == 4 * 5 + 10
    module_of(s, S.Structures).scene_start(s)
    assert module_of(s, S.Structures).cf == {0: 20, 1: 30}


def test_cf_per_room_and_area_outdoors_only_on_request():
    b = field(["hb"])
    s = scene_with(b, {"structures": {"cf": {"house": 8, "ground:B1": 3}}})
    module_of(s, S.Structures).scene_start(s)
    assert module_of(s, S.Structures).cf == {0: 8, 1: 3}  # named areas count even outdoors
    s2 = scene_with(field(["hb"]), {"structures": {}})
    module_of(s2, S.Structures).scene_start(s2)
    assert set(module_of(s2, S.Structures).cf) == {0}


def test_a_burning_floor_gives_way_when_its_cf_is_gone():
    b = field(None, levels=TWO_STOREYS)
    s = scene_with(b, {"structures": {"cf": {"loft": 4}}}, totals=[0, 0, 0, 0, 0, 0])
    st = module_of(s, S.Structures)
    st.scene_start(s)
    up, down = area(s, "upper:A1"), area(s, "ground:A1")
    ana = Hero("Ana", up, brawn=3)
    s.heroes.append(ana)
    fire = s.start_fire(up, 3, Cause.START)
    assert fire is not None
    s.round = 1
    st.end_of_round(s)
    assert st.cf[up] == 2 and up in s.fires
    s.round = 2
    st.end_of_round(s)
    assert up not in s.fires and fire.state is FireState.OUT
    assert s.building.areas[up].burned_out
    floor = s.building.between(up, down)
    assert floor is not None
    assert floor.kind is BarrierKind.FLOOR and floor.destroyed
    assert ana.area == down
    assert [e for e in s.log if e.kind is EventKind.FIRE_OUT][-1].data["reason"] == \
        "the structure burned down"
    assert any(e.data.get("what") == "collapse" for e in module_events(s, "structures"))


def test_a_flame_does_not_eat_the_structure():
    s = scene_with(field(["hh"]), {"structures": {}, "flame-and-blaze": {"blaze_on": 13}})
    st = module_of(s, S.Structures)
    st.scene_start(s)
    s.round = 1
    s.start_fire(0, 2, Cause.LEAP)
    st.end_of_round(s)
    assert st.cf[0] == 20


def test_burning_rubble_falls_on_the_fuel_below_as_a_blaze():
    b = field(None, levels=TWO_STOREYS)
    s = scene_with(b, {"structures": {"cf": {"loft": 2}, "rubble_fire": True},
                       "flame-and-blaze": {}}, totals=[0] * 10)
    st = module_of(s, S.Structures)
    st.scene_start(s)
    s.start_fire(area(s, "upper:A1"), 5, Cause.START)
    s.round = 1
    st.end_of_round(s)
    below = s.fires[area(s, "ground:A1")]
    assert below.fd == 2 and below.state is FireState.BURNING
    started = [e for e in s.log if e.kind is EventKind.FIRE_STARTED][-1]
    assert started.data["cause"] == "debris"


def test_state_round_trips():
    s = scene_with(field(["hh"]), {"structures": {"default_cf": 7}})
    module_of(s, S.Structures).scene_start(s)
    other = S.Structures({})
    other.load_state(module_of(s, S.Structures).state())
    assert other.cf == {0: 7, 1: 7}


def test_bad_cf():
    assert S.Structures.check_options({"cf": {"house": "lots"}}) == [
        "cf.house: expected a whole number from 0 to 1000, got 'lots'"]


def test_a_fire_with_no_building_or_terrain_factor_burns_out_after_one_turn():
    # 001: "If an area set ablaze does not contain any buildings or terrain features with a CF
    # or tF, the fire burns itself out after one turn."
    def play(terrain: str, **opts: bool) -> list[tuple[bool, bool]]:
        b = field(["bh"])
        b.areas[0].terrain = terrain
        s = scene_with(b, {"structures": {"cf": {"house": 0}, **opts}})
        st = module_of(s, S.Structures)
        st.scene_start(s)
        street, house = s.start_fire(0, 2, Cause.START), s.start_fire(1, 2, Cause.START)
        assert house is not None
        assert street is not None
        out = []
        for rnd in (1, 2):
            s.round = rnd
            st.end_of_round(s)
            out.append((street.state is FireState.OUT, house.state is FireState.OUT))
        return out

    # round 0's fires burn through round 1, then go out: paving has no tF, the house CF 0
    assert play("paved") == [(True, True), (True, True)]
    assert play("woods") == [(False, True), (False, True)]  # woods have a terrain factor
    # the old reading (they burn until their fuel is spent) as a setting
    assert play("paved", bare_burnout=False) == [(False, False), (False, False)]


def test_a_new_fire_burns_a_whole_round_before_it_goes_out():
    b = field(["b"])
    b.areas[0].terrain = "grain"  # Alpha Strike's clear column: planted fields have no tF
    s = scene_with(b, {"structures": {}})
    st = module_of(s, S.Structures)
    st.scene_start(s)
    s.round = 3
    fire = s.start_fire(0, 1, Cause.GM)  # appears during round 3
    assert fire is not None
    st.end_of_round(s)
    assert (fire.state,) == (FireState.BURNING,)  # a tuple: no narrowing kept past the next call
    s.round = 4
    st.end_of_round(s)
    assert fire.state is FireState.OUT and s.building.areas[0].burned_out
    assert [e for e in s.log if e.kind is EventKind.FIRE_OUT][-1].data["reason"] == \
        "no building or terrain factor to keep it burning"
