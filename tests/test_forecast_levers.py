"""The levers' watch (fuego.forecast.levers.Watch): what it notes of the barriers between rooms,
round by round, in one run."""

from __future__ import annotations

from builders import TWO_ROOMS, barrier_between, grid, scene

from fuego.forecast.levers import Lever, Watch
from fuego.world.places import BarrierKind


def _watch():
    # a kitchen and a hall with a door between (closed), the hall's far wall to the street
    b = grid([("ground", 0, ["kkhs"])], TWO_ROOMS,
             edges={("ground:B1", "ground:C1"): (BarrierKind.DOOR, None, True)})
    s = scene(b)
    rooms = {key: k for k, key in enumerate(b.rooms)}
    watch = Watch(s, 0, rooms, [rooms[a.room] for a in b.areas])
    return s, watch, barrier_between(b, "ground:B1", "ground:C1")


def test_a_door_is_noted_open_at_the_round_it_first_stood_open_and_broken_when_it_broke():
    s, watch, door = _watch()
    b = s.building
    watch.look(s, 0, [])
    assert not watch.anywhere  # shut, nothing burning
    b.open_barrier(door)
    watch.look(s, 1, [])
    watch.look(s, 2, [])  # nothing changed: the first round stands
    b.close_barrier(door)
    watch.look(s, 3, [])
    b.destroy_barrier(door)
    watch.look(s, 4, [])
    assert watch.anywhere == {(Lever.OPEN.value, door.index): 1,
                              (Lever.BROKEN.value, door.index): 4}


def test_a_wall_between_rooms_is_noted_broken_and_one_inside_a_room_is_not():
    s, watch, _door = _watch()
    b = s.building
    inside = barrier_between(b, "ground:A1", "ground:B1")  # kitchen to kitchen: no barrier
    outer = barrier_between(b, "ground:C1", "ground:D1")  # the hall's wall to the street
    assert inside.kind is BarrierKind.OPEN and outer.kind is BarrierKind.WALL
    watch.look(s, 0, [])
    b.destroy_barrier(outer)
    watch.look(s, 2, [])
    assert watch.anywhere == {(Lever.BROKEN.value, outer.index): 2}
