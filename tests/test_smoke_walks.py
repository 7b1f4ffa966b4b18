"""Smoke's walks are kept across barrier changes: whatever changed, they answer as fresh ones."""

from __future__ import annotations

import random

import pytest
from builders import grid

from fuego.rules.charts import Structure
from fuego.world.paths import SmokeWalks as Walks
from fuego.world.places import ALWAYS_OPEN, BarrierKind

ROOMS = {
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


def reference(b, start, cover):  # noqa: C901
    """Where the smoke goes, walked afresh (fuego.engine.smoke's rule as first written)."""
    og = b.paths.open_graph()
    adj = {i: list(og.adj[i]) for i in og}
    vent_to = [b.paths.vent_edges(i) for i in range(len(b.areas))]
    vents = b.vents_from(start)
    size, outdoors = b.open_region(start)
    if not vents or (outdoors and size <= 4 * cover + 64):
        order, seen, frontier = [start], {start}, [start]
        while frontier and len(order) < cover:
            nxt = sorted({j for k in frontier for j in adj[k] if j not in seen})
            seen.update(nxt)
            order.extend(nxt)
            frontier = nxt
        return order[:cover], vents
    walk_cover = cover + 8
    seen, order, counts = {start}, [start], [1]
    found = b.rooms[b.areas[start].room].outdoors
    vent_level = 0 if found else -1
    frontier = [start]
    while frontier and (len(order) < walk_cover or not found):
        nxt = []
        for k in frontier:
            for j in adj[k]:
                if j not in seen:
                    found = found or j in vent_to[k]
                    seen.add(j)
                    nxt.append(j)
        nxt.sort()
        order.extend(nxt)
        counts.append(len(order))
        if found and vent_level < 0:
            vent_level = len(counts) - 1
        frontier = nxt
        if len(order) > 4 * walk_cover + 64:
            break
    n, level, vents = 1, 0, vent_level == 0
    while n < cover or not vents:
        if level + 1 >= len(counts):
            break
        level += 1
        before, n = n, counts[level]
        vents = 0 <= vent_level <= level
        if n == before or n > 4 * cover + 64:
            break
    return order[:cover], vents


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
    walks = Walks(b)
    starts = range(len(b.areas))
    for _ in range(60):
        for _ in range(rng.choice((1, 1, 2, 3))):
            change(b, rng)
        for start in rng.sample(starts, 24):
            cover = rng.choice((1, 4, 4, 5, 9, 14, 30))
            assert walks.reach(start, cover) == reference(b, start, cover), (start, cover)
            assert Walks(b).reach(start, cover) == reference(b, start, cover)


def test_smoke_vents_through_a_window_only_where_the_window_finds_the_area():
    # closed, the kitchen keeps its smoke; through the open window it vents
    b = grid([("ground", 0, ["kkk", "sss"])], ROOMS,
             edges={("A1", "A2"): WINDOW, ("C1", "C2"): DOOR})
    walks = Walks(b)
    window = b.between(b.find("A1"), b.find("A2"))
    start = b.find("C1")
    assert walks.reach(start, 2) == reference(b, start, 2) == ([start, b.find("B1")], False)
    b.open_barrier(window)
    assert walks.reach(start, 2) == reference(b, start, 2)
    assert walks.reach(start, 2)[1]  # the smoke finds the open window two areas away
    b.open_barrier(b.between(b.find("C1"), b.find("C2")))
    assert walks.reach(start, 2) == reference(b, start, 2)


def test_a_walk_cut_back_walks_on_for_a_larger_cover():
    b = house()
    walks = Walks(b)
    start = b.find("ground:A1")
    for barrier in b.barriers:  # one region of 117 areas
        if barrier.kind in (BarrierKind.DOOR, BarrierKind.WINDOW):
            b.open_barrier(barrier)
    assert walks.reach(start, 4) == reference(b, start, 4)
    b.destroy_barrier(b.between(b.find("ground:B2"), b.find("upper:B2")))
    for cover in (4, 30, 4, 12):
        assert walks.reach(start, cover) == reference(b, start, cover)
