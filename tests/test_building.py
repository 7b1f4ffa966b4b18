"""Buildings built from scenario plans: the graph of areas, rooms, barriers, routes and links."""

from __future__ import annotations

import pytest
from builders import barrier_between

from fuego.rules.charts import FUEL_RESOLVE, Structure
from fuego.scenario.model import loads
from fuego.scenario.plan import FEATURE_MIN_FUEL, ROUTE_MIN_FUEL
from fuego.world.places import BarrierKind, Feature, RouteKind

HOUSE = """
title: Test house
fuels: {tables: 4}
defaults: {wall: wooden-wall, door: wooden-door, window: glass-window, floor: wooden-floor}
rooms:
  kitchen: {fuel: paper-stack, wall: thin-stone-wall}
  hall: {fuel: tables}
  parlour: {fuel: 2, wall: thin-wooden-wall}
  street: {outdoors: true, features: [exit]}
  yard: {outdoors: true}
  cellar: {fuel: 6, wall: stone-wall, wet: true}
  attic: {fuel: paper}
  loft: {fuel: 1, wall: paper-wall}
  turret: {fuel: 1}
legend:
  k: kitchen
  h: hall
  p: parlour
  s: street
  y: yard
  c: cellar
  a: attic
  l: loft
  t: turret
  K: {room: kitchen, fuel: beams, features: [wooden-beam]}
levels:
  - name: cellar
    elevation: -1
    floor: stone-floor
    plan: |
      ccc###
      ccc###
  - name: ground
    elevation: 0
    plan:
      - kkKhhh
      - kkkhhh
      - ppphhh
      - ssssyy
  - name: upper
    elevation: 1
    floor: wooden-floor
    plan: |
      aaall#
      aaall#
  - name: tower
    elevation: 3
    plan: |
      #t####
areas:
  ground:A1: {fuel: 0, features: [oil]}
  ground:E3: {wet: true, smoky: true, fuel: log-pile}
  cellar:A2: {features: [gunpowder]}
doors:
  - {between: [kitchen, hall]}
  - {at: ground:A3-ground:A4, material: thick-wooden-door, closed: false, name: side door}
windows:
  - {between: [hall, street], material: papered-window}
  - {at: ground:E3-ground:E4, closed: false}
walls:
  - {between: [parlour, hall], material: thick-wooden-wall}
  - {at: ground:B1-ground:B2, material: paper-wall, broken: true}
openings:
  - {between: [kitchen, parlour]}
  - {between: [attic, loft], all: true}
links:
  - {kind: stairs, at: ground:C2-upper:C2}
  - {kind: ladder, at: cellar:A1-ground:A1}
  - {kind: hole, at: ground:B2-upper:B2}
  - {kind: floor, at: cellar:C2-ground:C2, material: stone-floor, broken: true}
routes:
  - {kind: carpet, areas: [ground:D1, ground:E1, ground:F1, ground:F2], name: runner}
  - {kind: oil, areas: [ground:F3, ground:F4]}
  - {kind: curtains, areas: [upper:D1, ground:D1]}
"""


@pytest.fixture(scope="module")
def house():
    return loads(HOUSE, "house.yaml")


@pytest.fixture
def b(house):
    return house.building()


def edge(b, x, y):
    barrier = b.between(b.find(x), b.find(y))
    assert barrier is not None, f"no barrier between {x} and {y}"
    return barrier


def test_areas_rooms_levels(b):
    assert [lv.name for lv in b.levels] == ["cellar", "ground", "upper", "tower"]
    assert [lv.elevation for lv in b.levels] == [-1, 0, 1, 3]
    assert b.levels[0].floor is Structure.STONE_FLOOR
    assert len(b.areas) == 6 + 24 + 10 + 1
    assert b.find("ground:A5") is None and b.find("cellar:D1") is None  # outside, '#'
    assert b.area("ground:C1").room == "kitchen"
    assert b.area("ground:D4").room == "street"
    assert b.rooms["kitchen"].level == 1 and b.rooms["cellar"].level == 0
    assert b.rooms["street"].outdoors and not b.rooms["hall"].outdoors
    assert b.rooms["hall"].name == "Hall"
    assert sorted(b.areas[i].name for i in b.room_areas("attic")) == [
        "upper:A1", "upper:A2", "upper:B1", "upper:B2", "upper:C1", "upper:C2"]


def test_fuel_from_room_legend_area_and_names(b):
    assert b.area("ground:B1").fuel == 3  # paper-stack
    assert b.area("ground:B1").fuel_name == "paper-stack"
    assert b.area("ground:C1").fuel == 9  # legend K: beams
    assert Feature.WOODEN_BEAM in b.area("ground:C1").features
    assert b.area("ground:D2").fuel == 4  # the file's own fuel name
    assert b.area("ground:D2").fuel_name == "tables"
    assert b.area("ground:A4").fuel == 0
    e3 = b.area("ground:E3")
    assert e3.fuel == 7 and e3.wet and e3.smoky and e3.thick_smoke
    assert b.area("cellar:B1").wet  # the room is wet


def test_feature_and_route_fuel_minimums(b):
    a1 = b.area("ground:A1")  # fuel 0 in the file, but spilt oil burns
    assert Feature.OIL in a1.features
    # (fuego's reading: spilt oil burns as 003's small stack of paper, a carpet as a sheet)
    assert a1.fuel == FEATURE_MIN_FUEL[Feature.OIL] == FUEL_RESOLVE["paper-stack"] == 3
    assert ROUTE_MIN_FUEL[RouteKind.CARPET] == FUEL_RESOLVE["paper"] == 1
    assert Feature.GUNPOWDER in b.area("cellar:A2").features
    # an oil route over the street (no fuel) gives it the oil route's fuel
    assert b.area("ground:F4").fuel == ROUTE_MIN_FUEL[RouteKind.OIL]
    # a carpet over areas that already burn leaves their fuel alone
    assert b.area("ground:E1").fuel == 4


def test_same_room_is_open_and_outdoors_is_open(b):
    assert edge(b, "ground:A1", "ground:A2").kind is BarrierKind.OPEN
    assert edge(b, "ground:D1", "ground:E1").kind is BarrierKind.OPEN
    street_yard = edge(b, "ground:D4", "ground:E4")
    assert street_yard.kind is BarrierKind.OPEN and street_yard.passable


def test_default_wall_is_the_stronger_room_wall(b):
    kitchen_hall = edge(b, "ground:C2", "ground:D2")  # thin stone (20) beats wooden (15)
    assert kitchen_hall.kind is BarrierKind.WALL
    assert kitchen_hall.structure is Structure.THIN_STONE_WALL
    assert kitchen_hall.destruction_tn == 20 and kitchen_hall.pass_through_tn == 10
    # an outdoor room takes the enclosed room's wall
    parlour_street = edge(b, "ground:B3", "ground:B4")
    assert parlour_street.kind is BarrierKind.WALL
    assert parlour_street.structure is Structure.THIN_WOODEN_WALL
    # upper: loft (paper) against attic is an opening over the whole boundary
    assert edge(b, "upper:C1", "upper:D1").kind is BarrierKind.OPEN
    assert edge(b, "upper:C2", "upper:D2").kind is BarrierKind.OPEN


def test_door_between_rooms_sits_on_the_middle_shared_edge(b):
    # kitchen (A1:C2) and hall (D1:F3) share C1|D1 and C2|D2; the middle of two is the first
    door = edge(b, "ground:C1", "ground:D1")
    assert door.kind is BarrierKind.DOOR
    assert door.structure is Structure.WOODEN_DOOR
    assert door.closed and not door.passable
    assert door.destruction_tn == 15


def test_door_at_exact_edge(b):
    side = edge(b, "ground:A3", "ground:A4")
    assert side.kind is BarrierKind.DOOR and side.structure is Structure.THICK_WOODEN_DOOR
    assert not side.closed and side.passable and side.name == "side door"
    assert side.destruction_tn is None  # open: nothing to break


def test_windows(b):
    # hall (D1:F3) and street (A4:D4) share one edge, D3|D4
    win = edge(b, "ground:D3", "ground:D4")
    assert win.kind is BarrierKind.WINDOW and win.structure is Structure.PAPERED_WINDOW
    assert win.closed
    open_win = edge(b, "ground:E3", "ground:E4")
    assert open_win.kind is BarrierKind.WINDOW and not open_win.closed
    assert open_win.structure is Structure.GLASS_WINDOW


def test_walls_between_rooms_and_broken_walls(b):
    for x, y in (("ground:C3", "ground:D3"),):
        wall = edge(b, x, y)
        assert wall.kind is BarrierKind.WALL and wall.structure is Structure.THICK_WOODEN_WALL
    broken = edge(b, "ground:B1", "ground:B2")
    assert broken.kind is BarrierKind.WALL and broken.structure is Structure.PAPER_WALL
    assert broken.destroyed and broken.passable


def test_opening_between_rooms(b):
    # kitchen (A1:C2) and parlour (A3:C3) share A2|A3, B2|B3, C2|C3: the archway is the middle
    assert edge(b, "ground:B2", "ground:B3").kind is BarrierKind.OPEN
    assert edge(b, "ground:A2", "ground:A3").kind is BarrierKind.WALL
    assert edge(b, "ground:C2", "ground:C3").kind is BarrierKind.WALL


def test_floors_and_level_links(b):
    floor = edge(b, "ground:B1", "upper:B1")
    assert floor.kind is BarrierKind.FLOOR and floor.structure is Structure.WOODEN_FLOOR
    assert floor.vertical and not floor.passable
    # the ground level's floor (wooden by default) is the cellar's ceiling
    assert edge(b, "cellar:B1", "ground:B1").structure is Structure.WOODEN_FLOOR
    stone = edge(b, "cellar:C2", "ground:C2")
    assert stone.kind is BarrierKind.FLOOR and stone.structure is Structure.STONE_FLOOR
    assert stone.destroyed and stone.passable
    assert edge(b, "cellar:A1", "ground:A1").kind is BarrierKind.LADDER
    assert edge(b, "ground:B2", "upper:B2").kind is BarrierKind.HOLE
    stairs = b.vertical_neighbour(b.find("ground:C2"), up=True)
    assert stairs is not None and stairs[1].kind is BarrierKind.STAIRS
    assert b.areas[stairs[0]].name == "upper:C2"
    assert b.vertical_neighbour(b.find("ground:C2"), up=False)[1].kind is BarrierKind.FLOOR
    # no floor between levels whose elevations differ by two (upper 1, tower 3)
    assert b.vertical_neighbour(b.find("tower:B1"), up=False) is None
    # no area above: nothing
    assert b.vertical_neighbour(b.find("ground:F1"), up=True) is None


def test_routes(b):
    kinds = [r.kind for r in b.routes]
    assert kinds == [RouteKind.CARPET, RouteKind.OIL, RouteKind.CURTAINS]
    runner = b.routes[0]
    assert runner.name == "runner"
    assert [b.areas[i].name for i in runner.areas] == ["ground:D1", "ground:E1", "ground:F1",
                                                       "ground:F2"]
    assert runner in b.routes_at(b.find("ground:E1"))
    assert not b.routes_at(b.find("ground:A4"))
    curtains = b.routes[2]  # a route may climb between levels
    assert [b.areas[i].name for i in curtains.areas] == ["upper:D1", "ground:D1"]


def test_exits(b):
    assert b.is_exit(b.find("ground:A4"))  # street: exit feature
    assert not b.is_exit(b.find("ground:E4"))  # yard: outdoors but exits are marked
    dist = b.distances_to_exit()
    assert dist[b.find("ground:A3")] == 1  # through the open side door


def test_every_pair_of_neighbours_has_one_barrier(b):
    for area in b.areas:
        for dc, dr in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            j = b.at(area.level, area.col + dc, area.row + dr)
            if j is not None:
                assert b.between(area.index, j) is not None
    assert len({(x.a, x.b) for x in b.barriers}) == len(b.barriers)


def test_fresh_building_each_time(house):
    b1, b2 = house.building(), house.building()
    assert b1 is not b2
    b1.open_barrier(b1.between(b1.find("ground:C1"), b1.find("ground:D1")))
    assert b2.between(b2.find("ground:C1"), b2.find("ground:D1")).closed


SINGLE = """
title: One level
rooms:
  a: {fuel: 2}
  b: {fuel: 3}
legend: {a: a, b: b}
levels:
  - name: main
    plan: |
      aab
      aab
      aab
doors:
  - {between: [a, b]}
heroes:
  - {name: Zoe, start: A1}
fires:
  - {area: c3, fd: 1}
"""


def test_single_level_accepts_bare_coordinates():
    s = loads(SINGLE)
    b = s.building()
    assert b.levels[0].elevation == 0
    assert b.find("B2") == b.find("main:B2")
    door = b.between(b.area("B2").index, b.area("C2").index)  # middle of three shared edges
    assert door is not None
    assert door.kind is BarrierKind.DOOR
    assert barrier_between(b, "B1", "C1").kind is BarrierKind.WALL
    scene = s.build(1)
    assert scene.building.areas[scene.heroes[0].area].name == "main:A1"
    assert [scene.building.areas[i].name for i in scene.fires] == ["main:C3"]


def test_areas_side_by_side_share_one_side_and_no_others_do(b):
    c2, d2 = b.find("ground:C2"), b.find("ground:D2")
    c1, c3 = b.find("ground:C1"), b.find("ground:C3")
    assert c2 is not None and d2 is not None and c1 is not None and c3 is not None
    # C2 is column 2, row 1 (0-based): its right side is x = 3 from row 1 to 2
    assert b.shared_edge(c2, d2) == b.shared_edge(d2, c2) == ((3, 1), (3, 2))
    assert b.shared_edge(c1, c2) == ((2, 1), (3, 1))  # C1 above C2: C2's top side
    assert b.shared_edge(c2, c3) == ((2, 2), (3, 2))
    d1 = b.find("ground:D1")
    assert d1 is not None
    assert b.shared_edge(c2, b.find("ground:D3")) is None  # corners touch: no side
    assert b.shared_edge(c2, d1) is None
    up = b.find("upper:C2")
    assert up is not None and b.shared_edge(c2, up) is None  # the stairs: another level


def test_a_barrier_is_found_by_its_name_in_any_case_or_its_two_areas(b):
    from fuego.errors import RuleError

    side = edge(b, "ground:A3", "ground:A4")
    assert b.barriers_named("Side  DOOR") == [side] and b.barriers_named("back door") == []
    for ref in ("side door", " SIDE door ", "ground:A3|ground:A4", "ground:A3 ground:A4",
                "ground:A3-ground:A4", "ground:A3,ground:A4"):
        assert b.barrier(ref) is side, ref
    with pytest.raises(RuleError, match=r"no door, window, wall or link named 'SID door' "
                                        r"\(did you mean 'side door'\?\)"):
        b.barrier("SID door")
    with pytest.raises(RuleError, match="no area 'ground:Z9' for the barrier"):
        b.barrier("ground:A3|ground:Z9")
    with pytest.raises(RuleError, match="ground:A1 and ground:C1 are not neighbours"):
        b.barrier("ground:A1 ground:C1")


def test_a_name_several_barriers_share_is_refused_with_each_of_them():
    from fuego.errors import RuleError
    from fuego.world.building import Building
    from fuego.world.places import Room

    b = Building(title="twins")
    b.add_level("ground", 0)
    b.add_room(Room("hall", "Hall", 0))
    for col in range(3):
        b.add_area(col, 0, 0, "hall")
    first = b.connect(0, 1, BarrierKind.DOOR, Structure.WOODEN_DOOR, name="Cellar door")
    second = b.connect(1, 2, BarrierKind.DOOR, Structure.WOODEN_DOOR, name="cellar  door")
    assert b.barriers_named("CELLAR DOOR") == [first, second]
    with pytest.raises(RuleError) as err:
        b.barrier("cellar door")
    assert err.value.render() == ("'cellar door' names 2 barriers: ground:A1|ground:B1, "
                                  "ground:B1|ground:C1 (tip: name the one you mean by its two "
                                  "areas, e.g. ground:A1|ground:B1)")
    assert b.barrier("A1-B1") is first and b.barrier("ground:B1|ground:C1") is second
