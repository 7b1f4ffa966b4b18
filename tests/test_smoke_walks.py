"""Smoke's walks are kept across barrier changes: whatever changed, they answer as fresh ones."""

from __future__ import annotations

import random

import networkx as nx
import pytest
from builders import RoomSpec, barrier_between, grid

from fuego.rules.charts import Structure
from fuego.world.places import ALWAYS_OPEN, BarrierKind

ROOMS: dict[str, RoomSpec] = {
    "k": {"key": "kitchen"}, "h": {"key": "hall"}, "p": {"key": "pantry"},
    "s": {"key": "street", "outdoors": True}, "u": {"key": "upstairs"}, "a": {"key": "attic"},
}
DOOR = (BarrierKind.DOOR, Structure.WOODEN_DOOR)
WINDOW = (BarrierKind.WINDOW, Structure.GLASS_WINDOW)


def house():
    """Two floors of rooms (more areas than a walk's bound), closed doors and windows between
    them and onto the street."""
    return grid([("ground", 0, ["kkkkkhhhhpppp", "kkkkkhhhhpppp", "kkkkkhhhhpppp",
                                "kkkkkhhhhpppp", "sssssssssssss"]),
                 ("upper", 1, ["uuuuuuuaaaaaa", "uuuuuuuaaaaaa", "uuuuuuuaaaaaa",
                               "uuuuuuuaaaaaa"])], ROOMS,
                edges={("ground:E1", "ground:F1"): DOOR, ("ground:I2", "ground:J2"): DOOR,
                       ("ground:G4", "ground:G5"): DOOR, ("ground:B4", "ground:B5"): WINDOW,
                       ("ground:M4", "ground:M5"): WINDOW, ("ground:E3", "ground:F3"): WINDOW,
                       ("upper:G2", "upper:H2"): DOOR, ("upper:G3", "upper:H3"): WINDOW},
                links={"ground:F2": BarrierKind.STAIRS})


def walkable(b):
    """The building's graph through what smoke passes now (a networkx view, nothing kept)."""
    return nx.subgraph_view(b.graph, filter_edge=lambda u, v: b.between(u, v).passable)


def reference(b, start, cover):
    """Where the smoke goes, found afresh with networkx (fuego.engine.smoke's reading): the
    ``cover`` areas nearest ``start`` (ties by index), and whether it vents: an outdoor area, or
    an open or broken window, anywhere in the region open to ``start`` (the answer breath reads
    too, however far the vent lies)."""
    dist = nx.single_source_shortest_path_length(walkable(b), start)
    order = sorted(dist, key=lambda i: (dist[i], i))
    outdoors = any(b.rooms[b.areas[i].room].outdoors for i in dist)
    window = any(w.kind is BarrierKind.WINDOW and w.passable and w.a in dist for w in b.barriers)
    return order[:cover], outdoors or window


def change(b, rng):
    """One play-time change to a random barrier: open or close a door or window, or (less
    often, and while any stands) break a barrier."""
    standing = [x for x in b.barriers if x.kind not in ALWAYS_OPEN and not x.destroyed]
    openable = [x for x in standing if x.kind in (BarrierKind.DOOR, BarrierKind.WINDOW)]
    if openable and rng.random() < 0.7:
        barrier = rng.choice(openable)
        (b.close_barrier if not barrier.closed else b.open_barrier)(barrier)
    elif standing:
        b.destroy_barrier(rng.choice(standing))


@pytest.mark.parametrize("seed", range(12))
def test_kept_walks_answer_as_fresh_ones_through_any_changes(seed):
    rng = random.Random(seed)
    b = house()
    starts = range(len(b.areas))
    for _ in range(60):
        for _ in range(rng.choice((1, 1, 2, 3))):
            change(b, rng)
        for start in rng.sample(starts, 24):
            cover = rng.choice((1, 4, 4, 5, 9, 14, 30))
            assert smoke(b, start, cover) == reference(b, start, cover), (start, cover)


def smoke(b, start, cover):
    """The building's kept answer."""
    return b.paths.smoke_reach([(start, cover)])[0]


def test_smoke_vents_through_an_open_window():
    # closed, the kitchen keeps its smoke; through the open window it vents
    b = grid([("ground", 0, ["kkk", "sss"])], ROOMS,
             edges={("A1", "A2"): WINDOW, ("C1", "C2"): DOOR})
    window = b.between(b.area("A1").index, b.area("A2").index)
    assert window is not None
    start = b.find("C1")
    assert smoke(b, start, 2) == reference(b, start, 2) == ([start, b.find("B1")], False)
    b.open_barrier(window)
    assert smoke(b, start, 2) == reference(b, start, 2)
    assert smoke(b, start, 2)[1]  # the smoke finds the open window two areas away
    b.open_barrier(barrier_between(b, "C1", "C2"))
    assert smoke(b, start, 2) == reference(b, start, 2)


def test_a_walk_cut_back_walks_on_for_a_larger_cover():
    b = house()
    start = b.find("ground:A1")
    for barrier in b.barriers:  # one region of 117 areas
        if barrier.kind in (BarrierKind.DOOR, BarrierKind.WINDOW):
            b.open_barrier(barrier)
    assert smoke(b, start, 4) == reference(b, start, 4)
    b.destroy_barrier(b.between(b.find("ground:B2"), b.find("upper:B2")))
    for cover in (4, 30, 4, 12):
        assert smoke(b, start, cover) == reference(b, start, cover)


def test_a_long_building_vents_through_its_one_far_window():
    # 003: smoke that cannot dissipate is smoke in an enclosed space; a long hall whose one
    # window at the far end stands open is not enclosed, however far the window lies (the
    # same answer breath reads: Paths.vents)
    b = grid([("ground", 0, ["h" * 60, "h" * 60, "." * 59 + "s"])], ROOMS,
             edges={("BH2", "BH3"): WINDOW})  # the hall's far end, onto the street
    window = barrier_between(b, "BH2", "BH3")
    start = b.area("A1").index  # 120 areas of hall away
    assert smoke(b, start, 4)[1] is False
    b.open_barrier(window)
    assert smoke(b, start, 4) == reference(b, start, 4)
    assert smoke(b, start, 4)[1] is True is b.paths.vents(start) is b.room_vents("hall")
