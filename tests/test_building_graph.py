"""The building is its networkx graph: areas on nodes, barriers on edges, every change through
the Building, and whatever is derived following ``Building.version``."""

from __future__ import annotations

import pickle
from pathlib import Path

import networkx as nx
from click.testing import CliRunner

from fuego.engine.controllers import AutoController
from fuego.engine.rounds import play_round, start_scene
from fuego.engine.structure import break_barrier
from fuego.scenario.model import load
from fuego.table import gm
from fuego.world.places import BarrierKind, BarrierState, Feature, RouteKind

ROOT = Path(__file__).resolve().parent.parent
TAVERN = str(ROOT / "campaigns" / "tavern.yaml")


def _passable_edge(b):
    return lambda u, v: b.between(u, v).passable


def fresh(b):
    """A copy of the building as it stands, with nothing derived yet."""
    copy = pickle.loads(pickle.dumps(b))
    copy.paths.rebuilt()
    return copy


def test_the_tavern_is_a_networkx_graph_of_its_areas_and_barriers():
    b = load(TAVERN).build(1).building
    g = b.graph
    assert isinstance(g, nx.Graph)
    assert g.number_of_nodes() == len(b.areas) and sorted(g) == list(range(len(b.areas)))
    for i, data in g.nodes(data=True):
        area = data["area"]
        assert area is b.areas[i] and area.index == i
        assert (area.room, area.level) == (b.areas[i].room, b.areas[i].level)
    assert g.number_of_edges() == len(b.barriers)
    kinds = set()
    for u, v, barrier in g.edges(data="barrier"):
        assert {u, v} == {barrier.a, barrier.b} and b.barriers[barrier.index] is barrier
        kinds.add(barrier.kind)
        assert barrier.state in BarrierState
    assert {BarrierKind.OPEN, BarrierKind.WALL, BarrierKind.DOOR, BarrierKind.WINDOW,
            BarrierKind.FLOOR} <= kinds
    # routes are node data: every area of a route holds it
    for route in b.routes:
        assert all(route in g.nodes[i]["area"].routes for i in route.areas)


def test_a_barrier_opened_or_destroyed_in_play_changes_its_edge_and_the_version():
    scene = load(TAVERN).build(1)
    b = scene.building
    door = next(x for x in b.barriers if x.kind is BarrierKind.DOOR and x.closed)
    edge = b.graph.edges[door.a, door.b]
    assert (edge["barrier"].state,) == (BarrierState.CLOSED,)  # a tuple: no narrowing kept past the next call
    assert not b.paths.open_graph().has_edge(door.a, door.b)
    before = b.version
    gm.barrier(scene, door.name, "open")
    assert edge["barrier"].state is BarrierState.OPEN and b.version == before + 1
    assert b.paths.open_graph().has_edge(door.a, door.b)

    wall = next(x for x in b.barriers if x.kind is BarrierKind.WALL)
    before = b.version
    break_barrier(scene, wall, 5, "test")
    assert b.graph.edges[wall.a, wall.b]["barrier"].state is BarrierState.BROKEN
    assert b.version > before
    assert b.paths.open_graph().has_edge(wall.a, wall.b)


def test_every_change_goes_through_the_building_and_bumps_its_version():
    b = load(TAVERN).build(1).building
    i = next(a.index for a in b.areas if a.fuel > 0 and not a.features)
    near = next(j for j in b.open_neighbours(i))
    leap_targets = lambda: [j for j, _, _ in b.paths.leaps(near, 3, {near})]  # noqa: E731
    assert i in leap_targets()
    for change in [lambda: b.set_fuel(i, 2), lambda: b.burn_out(i),
                   lambda: b.set_fuel(i, 4, renew=True), lambda: b.add_feature(i, Feature.EXIT),
                   lambda: b.remove_feature(i, Feature.EXIT),
                   lambda: b.add_route(RouteKind.OIL, [i, i + 1])]:
        before = b.version
        change()
        assert b.version == before + 1
        # the paths were told in the same call: what they answer next follows
        assert (i in leap_targets()) is b.areas[i].burnable
        assert b.is_exit(i) is (Feature.EXIT in b.areas[i].features)
    assert b.areas[i].fuel == 4 and not b.areas[i].burned_out
    assert b.routes_at(i)[-1].kind is RouteKind.OIL


def test_what_is_derived_follows_the_version():
    scene = load(TAVERN).build(1)
    b = scene.building
    start_scene(scene)
    asked = [(i, 3) for i in range(len(b.areas))]
    for _ in range(6):  # fires burn, doors open, walls fall: the kept answers stay fresh ones
        play_round(scene, AutoController())
        copy = fresh(b)
        assert [b.within(i, s) for i, s in asked] == [copy.within(i, s) for i, s in asked]
        assert [b.paths.walls(i) for i in range(len(b.areas))] == \
            [copy.paths.walls(i) for i in range(len(b.areas))]
        assert b.paths.vent_flags() == copy.paths.vent_flags()
        # the open graph is the building's graph through what is passable now, and reach is
        # networkx's breadth first search over it, to the cutoff
        passable = nx.subgraph_view(b.graph, filter_edge=_passable_edge(b))
        og = b.paths.open_graph()
        assert set(og) == set(passable)
        assert {frozenset(e) for e in og.edges} == {frozenset(e) for e in passable.edges}
        assert all(b.within(i, s) == nx.single_source_shortest_path_length(passable, i, cutoff=s)
                   for i, s in asked)
        assert b.paths.exit_costs({}) == copy.paths.exit_costs({})
        assert b.paths.smoke_reach(asked) == copy.paths.smoke_reach(asked)
        assert {k: b.room_vents(k) for k in b.rooms} == {k: copy.room_vents(k) for k in b.rooms}
        assert {k: b.paths.burnable_count(k) for k in b.rooms} == _burnable(b)
    # a door opened between two asks: the cached reach moves with it
    door = next(x for x in b.barriers if x.kind is BarrierKind.DOOR and x.closed
                and not x.destroyed)
    seen = b.within(door.a, 1)
    assert door.b not in seen
    b.open_barrier(door)
    assert b.within(door.a, 1)[door.b] == 1


def _burnable(b):
    return {k: sum(b.areas[i].burnable for i in b.room_areas(k)) for k in b.rooms}


def test_the_burnable_areas_of_a_room_follow_every_fuel_change():
    b = load(TAVERN).build(1).building
    room = b.areas[0].room
    assert {k: b.paths.burnable_count(k) for k in b.rooms} == _burnable(b)
    some = [i for i in b.room_areas(room) if b.areas[i].burnable][:2]
    count = b.paths.burnable_count(room)
    b.burn_out(some[0])
    b.set_fuel(some[1], 0)
    b.set_fuel(some[1], 0)  # (no change: counted once)
    assert b.paths.burnable_count(room) == count - 2
    assert b.paths.fuel_flags()[some[0]] is b.paths.fuel_flags()[some[1]] is False
    b.set_fuel(some[0], 3, renew=True)
    assert b.paths.burnable_count(room) == count - 1 and b.paths.fuel_flags()[some[0]]
    assert {k: b.paths.burnable_count(k) for k in b.rooms} == _burnable(b)


def test_the_room_graph_says_which_rooms_connect_through_what():
    b = load(TAVERN).build(1).building
    g = b.room_graph()
    assert set(g) == set(b.rooms)
    for _, _, data in g.edges(data=True):
        barrier = data["barrier"]
        assert {b.areas[barrier.a].room, b.areas[barrier.b].room} == set(_ends(g, barrier))
        assert data["kind"] is barrier.kind
    ways = dict(b.room_links("kitchen"))
    assert "pantry" in ways and all(w.kind is BarrierKind.DOOR for w in ways["pantry"])
    from fuego.cli import cli

    out = CliRunner().invoke(cli, ["show", TAVERN, "--level", "ground", "--no-color"]).output
    assert "Kitchen (kitchen): " in out and "to Pantry: closed wooden-door" in out


def _ends(g, barrier):
    for u, v, k in g.edges(keys=True):
        if k == barrier.index:
            return u, v
    raise AssertionError(barrier)


def test_the_graphs_attribute_dicts_read_as_dicts_to_networkx():
    b = fresh(load(TAVERN).build(1).building)
    g = b.graph
    door = next(x for x in b.barriers if x.kind is BarrierKind.DOOR)
    data = g.edges[door.a, door.b]
    assert data == {"barrier": door} and list(data) == ["barrier"] and len(data) == 1
    assert g.nodes[door.a] == {"area": b.areas[door.a]} and "weight" not in data
    # any other key (a networkx algorithm's, a script's) is kept beside the record
    nx.set_edge_attributes(g, {(door.a, door.b): 3}, "weight")
    assert data == {"barrier": door, "weight": 3} and data.get("weight") == 3
    assert nx.path_weight(g, [door.a, door.b], "weight") == 3
    assert nx.shortest_path_length(g, door.a, door.b, weight="weight") <= 3
    again = pickle.loads(pickle.dumps(g))
    assert again.edges[door.a, door.b] == {"barrier": again.edges[door.a, door.b]["barrier"],
                                           "weight": 3}
    assert again.edges[door.a, door.b]["barrier"] == door
    copy = g.copy()
    assert copy.edges[door.a, door.b] == data and nx.utils.graphs_equal(copy, g)
    del data["weight"]
    assert data == {"barrier": door} and data.get("weight") is None
    del data["barrier"]
    assert data == {} and not data and data.get("barrier") is None


def test_a_barrier_is_named_by_the_map_or_else_by_its_two_areas():
    b = load(TAVERN).build(1).building
    named = {x.name for x in b.barriers if x.label}
    assert {"kitchen door", "front door"} <= named
    for x in b.barriers:
        assert x.name == (x.label or f"{b.areas[x.a].name}|{b.areas[x.b].name}")
    wall = next(x for x in b.barriers if x.kind is BarrierKind.WALL and not x.label)
    assert wall.name == f"{b.areas[wall.a].name}|{b.areas[wall.b].name}"
    copy = pickle.loads(pickle.dumps(b))
    assert [x.name for x in copy.barriers] == [x.name for x in b.barriers] and copy == b
