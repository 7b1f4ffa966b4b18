"""The building's one owner of what is derived (fuego.world.paths.Paths) answers as a fresh
networkx computation over the graph would, whatever sequence of changes the building went
through; and its one vents answer is what smoke and breath both read."""

from __future__ import annotations

import networkx as nx
from builders import RoomSpec, grid, scene
from hypothesis import given, settings
from hypothesis import strategies as st

from fuego.engine.heroes import Hero
from fuego.engine.rounds import needs_air
from fuego.engine.scene import Cause
from fuego.rules.charts import SMOKE_AREA_FACTOR, Structure
from fuego.rules.formulas import leap_tn
from fuego.world.paths import Paths, walk_step
from fuego.world.places import ALWAYS_OPEN, OPENABLE, BarrierKind, Feature, RouteKind

ROOMS: dict[str, RoomSpec] = {
    "k": {"key": "kitchen"}, "h": {"key": "hall"}, "p": {"key": "pantry", "fuel": 0},
    "s": {"key": "street", "outdoors": True, "fuel": 0}, "u": {"key": "upstairs"},
    "a": {"key": "attic"},
}
DOOR = (BarrierKind.DOOR, Structure.WOODEN_DOOR)
WINDOW = (BarrierKind.WINDOW, Structure.GLASS_WINDOW)


def house():
    """Two floors of rooms, doors and windows between them and onto the street, stairs."""
    return grid([("ground", 0, ["kkkhhpp", "kkkhhpp", "kkkhhpp", "sssssss"]),
                 ("upper", 1, ["uuuuaaa", "uuuuaaa", "uuuuaaa"])], ROOMS,
                edges={("ground:C1", "ground:D1"): DOOR, ("ground:E2", "ground:F2"): DOOR,
                       ("ground:D3", "ground:D4"): DOOR, ("ground:A3", "ground:A4"): WINDOW,
                       ("ground:G3", "ground:G4"): WINDOW, ("ground:C3", "ground:D3"): WINDOW,
                       ("upper:D2", "upper:E2"): DOOR, ("upper:D3", "upper:E3"): WINDOW},
                links={"ground:B2": BarrierKind.STAIRS})


# -- what a fresh computation answers ------------------------------------------------------------
def passable(b) -> nx.Graph:
    return nx.subgraph_view(b.graph, filter_edge=lambda u, v: b.between(u, v).passable)


def fresh_vents(b):
    """Per area: is an outdoor area, or an open or broken window, in its region?"""
    out = [False] * len(b.areas)
    for region in nx.connected_components(passable(b)):
        vents = any(b.rooms[b.areas[k].room].outdoors for k in region) or any(
            x.kind is BarrierKind.WINDOW and x.passable and x.a in region for x in b.barriers)
        for k in region:
            out[k] = vents
    return out


def fresh_walls(b, i):
    return sorted((j, x.index, x.pass_through_tn, x.destruction_tn)
                  for j in b.graph.adj[i] for x in [b.between(i, j)] if not x.passable)


def fresh_costs(b, targets, toll):
    """Walking from j into k costs walk_step + toll[k]: Dijkstra from the targets, backwards."""
    g = nx.DiGraph()
    g.add_nodes_from(b.graph)
    for x in b.barriers:
        step = walk_step(x)
        if step is not None:
            g.add_edge(x.b, x.a, weight=step + toll.get(x.b, 0.0))  # (reversed: from k to j)
            g.add_edge(x.a, x.b, weight=step + toll.get(x.a, 0.0))
    dist = nx.multi_source_dijkstra_path_length(g, set(targets)) if targets else {}
    return [dist.get(i, float("inf")) for i in range(len(b.areas))]


def fresh_exits(b):
    marked = [a.index for a in b.areas if Feature.EXIT in a.features]
    return marked or [a.index for a in b.areas if b.rooms[a.room].outdoors]


def fresh_leaps(b, here, steps, burning):
    dist = nx.single_source_shortest_path_length(passable(b), here, cutoff=steps)
    a = b.areas[here]
    out = []
    for j in sorted(dist):
        c = b.areas[j]
        if c.burnable and j not in burning and j != here:  # (not into its own area)
            rise = abs(b.levels[c.level].elevation - b.levels[a.level].elevation)
            out.append((j, dist[j], leap_tn(abs(a.col - c.col), abs(a.row - c.row), rise,
                                            dist[j])))
    return out


# -- random changes --------------------------------------------------------------------------------
CHANGES = st.lists(st.tuples(st.sampled_from(["open", "close", "break", "fuel", "burn", "renew",
                                              "exit", "unexit", "route", "fire"]),
                             st.integers(0, 10**6)), min_size=1, max_size=25)


def _fire(b, i, fires):
    if i in fires:  # a fire goes out: its fuel is set (Scene.remove_fire)
        fires.discard(i)
        b.set_fuel(i, b.areas[i].fuel)
    else:  # a fire starts: the building does not change
        fires.add(i)


#: each change: (building, area, a barrier it may open, close or break, the fires) -> None
ACTS = {
    "open": lambda b, i, x, f: x is not None and x.kind in OPENABLE and b.open_barrier(x),
    "close": lambda b, i, x, f: x is not None and x.kind in OPENABLE and b.close_barrier(x),
    "break": lambda b, i, x, f: x is not None and b.destroy_barrier(x),
    "fuel": lambda b, i, x, f: b.set_fuel(i, i % 5),
    "burn": lambda b, i, x, f: b.burn_out(i),
    "renew": lambda b, i, x, f: b.set_fuel(i, 1 + i % 4, renew=True),
    "exit": lambda b, i, x, f: b.add_feature(i, Feature.EXIT),
    "unexit": lambda b, i, x, f: b.remove_feature(i, Feature.EXIT),
    "route": lambda b, i, x, f: b.add_route(RouteKind.OIL, [i, next(iter(b.graph.adj[i]))]),
    "fire": lambda b, i, x, f: _fire(b, i, f),
}


def apply(b, what, n, fires):
    standing = [x for x in b.barriers if x.kind not in ALWAYS_OPEN and not x.destroyed]
    barrier = standing[n % len(standing)] if standing else None
    ACTS[what](b, n % len(b.areas), barrier, fires)


@settings(max_examples=25, deadline=None)
@given(CHANGES, st.integers(0, 4))
def test_the_owners_answers_equal_a_fresh_networkx_computation_after_any_changes(changes, steps):
    b = house()
    p = b.paths
    n = len(b.areas)
    fires: set[int] = set()
    toll = {3: 4.0, 9: 2.0}
    for what, k in changes:
        before = b.version
        apply(b, what, k, fires)
        assert b.version >= before
        # ask between changes, so that what is kept is patched rather than made anew
        here = k % n
        og = passable(b)
        assert {frozenset(e) for e in p.open_graph().edges} == {frozenset(e) for e in og.edges}
        dist, order = p.reach(here, steps)
        assert dist == nx.single_source_shortest_path_length(og, here, cutoff=steps)
        assert order == sorted(dist)
        # every reach kept from earlier asks, patched or dropped by the change, still true
        for i in range(0, n, 2):
            assert p.reach(i, steps)[0] == nx.single_source_shortest_path_length(og, i,
                                                                                 cutoff=steps)
        assert p.near([here, (k * 7) % n], steps) == set(
            nx.multi_source_dijkstra_path_length(og, {here, (k * 7) % n}, cutoff=steps))
        assert sorted(p.walls(here)) == fresh_walls(b, here)
        assert p.within(here, 2) == sorted(
            nx.single_source_shortest_path_length(b.graph, here, cutoff=2))
        assert p.leaps(here, steps, fires) == fresh_leaps(b, here, steps, fires)
        vents = fresh_vents(b)
        assert [p.vents(i) for i in range(n)] == vents
        assert {key: p.room_vents(key) for key in b.rooms} == {
            key: any(vents[i] for i in b.room_areas(key)) for key in b.rooms}
        assert p.exits() == fresh_exits(b)
        # part of a walk first (carried on by the next asks), then the whole of it
        some = [here, (k * 5) % n, here]
        whole = fresh_costs(b, fresh_exits(b), toll)
        assert p.exit_costs_at(toll, some) == [whole[i] for i in some]
        assert p.exit_costs(toll) == whole
        to_here = fresh_costs(b, [here], {})
        assert p.costs_to_at([here], {}, some[1:]) == [to_here[i] for i in some[1:]]
        assert p.costs_to([here], {}) == to_here
        covers = [(here, 4), ((k * 3) % n, 5), *((i, 3 + i % 10) for i in range(1, n, 3))]
        for start, cover in covers:
            covered, smoke_vents = p.smoke_reach([(start, cover)])[0]
            lengths = nx.single_source_shortest_path_length(og, start)
            assert covered == sorted(lengths, key=lambda i: (lengths[i], i))[:cover]
            # smoke vents as the air does, however far the vent
            assert smoke_vents == p.vents(start) == vents[start]
        # the lines of sight kept and patched are those of paths made afresh
        fresh = Paths(b)
        assert p.sightlines(here) == fresh.sightlines(here)
        assert p.line(here, (k * 5) % n) == fresh.line(here, (k * 5) % n)


# -- one vents answer: smoke and breath ------------------------------------------------------------
def test_one_vents_answer_serves_smoke_and_suffocation():
    """A fire and a hero in the kitchen, a window onto the street and a door to the hall: as the
    window and the door open and close, whether the smoke grows and whether the hero needs air
    follow the one answer (``Paths.vents``): the kitchen's air reaches open air."""
    b = grid([("ground", 0, ["kkkhh", "kkkhh", "sssss"])], ROOMS,
             edges={("A2", "A3"): WINDOW, ("C1", "D1"): DOOR, ("E2", "E3"): WINDOW})
    s = scene(b, smoke=True)
    assert s.smoke is not None
    here = b.find("B1")
    assert here is not None
    fire = s.start_fire(here, 3, Cause.START)
    assert fire is not None
    hero = Hero("Ana", b.area("A1").index)
    s.heroes.append(hero)
    kitchen_window = b.between(b.area("A2").index, b.area("A3").index)
    assert kitchen_window is not None
    door = b.between(b.area("C1").index, b.area("D1").index)
    assert door is not None
    hall_window = b.between(b.area("E2").index, b.area("E3").index)
    assert hall_window is not None
    seen = []
    for change in [lambda: None, lambda: b.open_barrier(kitchen_window),
                   lambda: b.close_barrier(kitchen_window), lambda: b.open_barrier(hall_window),
                   lambda: b.open_barrier(door), lambda: b.close_barrier(hall_window)]:
        change()
        fire.smoke = SMOKE_AREA_FACTOR
        s.smoke.update(s)
        vents = b.paths.vents(here)
        assert (fire.smoke == SMOKE_AREA_FACTOR) is vents  # enclosed smoke grows by one
        assert needs_air(s, hero) is not vents  # the kitchen burns: air only if it vents
        assert b.room_vents("kitchen") is vents
        seen.append(vents)
    # shut, through its window, shut again, the hall's window behind a shut door, then open
    assert seen == [False, True, False, False, True, False]


# -- the heroes' walk carried over to new tolls ------------------------------------------------------
TOLLS = st.lists(st.tuples(st.dictionaries(st.integers(0, 48), st.sampled_from([2.0, 4.0, 6.0, 8.0]),
                                           max_size=8),
                           st.lists(st.integers(0, 10**6), min_size=1, max_size=4),
                           st.sampled_from(["", "", "", "open", "close", "break", "exit"]),
                           st.integers(0, 10**6)),
                 min_size=1, max_size=20)


@settings(max_examples=40, deadline=None)
@given(TOLLS)
def test_a_walk_kept_for_other_tolls_answers_as_a_fresh_one(asks):
    """The heroes' tolls change as the fires grow: the walk made for the last ones is carried
    on for the new ones (``_Walk.retolled``), part asked, part whole, through barrier and exit
    changes between; every cost is what a fresh Dijkstra with the new tolls answers."""
    b = house()
    p = b.paths
    n = len(b.areas)
    fires: set[int] = set()
    for toll, ask, change, k in asks:
        toll = {i % n: v for i, v in toll.items()}
        if change:
            apply(b, change, k, fires)
        some = [i % n for i in ask]
        fresh = fresh_costs(b, fresh_exits(b), toll)
        assert p.exit_costs_at(toll, some) == [fresh[i] for i in some]
        if k % 3 == 0:  # (sometimes the whole walk, so the next starts from a finished one)
            assert p.exit_costs(toll) == fresh
        goal = [k % n]
        to_goal = fresh_costs(b, goal, toll)
        assert p.costs_to_at(goal, toll, some) == [to_goal[i] for i in some]
