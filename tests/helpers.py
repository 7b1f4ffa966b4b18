"""Buildings and scenes built by hand, for tests that do not want a scenario file.

``make_building`` reads a tiny ASCII plan, one character per 10-ft area::

    plan = ["kkkhhhs",
            "kkkhhhs",
            "kkkhhhs"]
    rooms = {"k": room("kitchen", fuel=5), "h": room("hall", fuel=3),
             "s": room("street", outdoors=True)}
    b = make_building(plan, rooms, doors={("C2", "D2"): True, ("F2", "G2"): False})

- Each character names a room (``rooms`` maps it to a :func:`room` spec); ``.`` or a space is
  no area. Areas are named ``level:C4`` as the engine does (column letter, row from 1).
- Neighbours in the same room are joined by an opening; neighbours in different rooms by a wall
  (``wall`` between rooms, ``outer_wall`` where one side is outdoors) unless listed in ``doors``
  (``{("C2", "D2"): closed}``) or ``windows`` (the same form).
- ``fuel`` overrides the room's fuel per area (``{"A1": 7}``); ``features`` adds features per
  area (``{"A1": {Feature.OIL}}``); ``routes`` adds runs of fuel (``[(RouteKind.CARPET,
  ["A1", "B1", "C1"])]``).
- More levels: pass ``plans={"ground": (0, plan), "upper": (1, plan2)}`` instead of ``plan``
  (use other room characters on each level: a room lies on one level); areas stacked on top of
  each other are joined by a floor, or by ``stairs`` between the listed pairs (full names,
  ``ground:B2``). On several levels, name areas in ``doors``/``fuel``/... in full.

:func:`two_room_scene` is the small kitchen + hall + street scene the engine and CLI tests share.
Import these with ``from helpers import ...`` (pytest puts ``tests/`` on ``sys.path``), or use
the fixtures in ``tests/conftest.py``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fuego.dice.roller import Roller
from fuego.engine.heroes import Hero
from fuego.rules.charts import Structure
from fuego.rules.settings import Settings
from fuego.world.building import Building
from fuego.world.places import BarrierKind, Feature, Room, RouteKind, column_letters

if TYPE_CHECKING:
    from fuego.engine.scene import Scene

__all__ = ["RoomSpec", "room", "make_building", "make_scene", "two_room_building",
           "two_room_scene", "TWO_ROOM_PLAN"]


@dataclass(frozen=True)
class RoomSpec:
    key: str
    name: str = ""
    fuel: int = 0
    outdoors: bool = False
    wet: bool = False
    smoky: bool = False


def room(key: str, name: str = "", *, fuel: int = 0, outdoors: bool = False, wet: bool = False,
         smoky: bool = False) -> RoomSpec:
    """A room spec for :func:`make_building` (name defaults to the key, capitalised)."""
    return RoomSpec(key, name or key.capitalize(), fuel, outdoors, wet, smoky)


def make_building(
    plan: Iterable[str] | None = None,
    rooms: Mapping[str, RoomSpec] | None = None,
    *,
    plans: Mapping[str, tuple[int, Iterable[str]]] | None = None,
    doors: Mapping[tuple[str, str], bool] | None = None,
    windows: Mapping[tuple[str, str], bool] | None = None,
    stairs: Iterable[tuple[str, str]] = (),
    wall: Structure = Structure.WOODEN_WALL,
    outer_wall: Structure = Structure.STONE_WALL,
    door: Structure = Structure.WOODEN_DOOR,
    window: Structure = Structure.GLASS_WINDOW,
    floor: Structure = Structure.WOODEN_FLOOR,
    fuel: Mapping[str, int] | None = None,
    features: Mapping[str, Iterable[Feature]] | None = None,
    routes: Iterable[tuple[RouteKind, Iterable[str]]] = (),
    title: str = "test building",
) -> Building:
    """A building from ASCII plans (see the module docstring)."""
    if (plan is None) == (plans is None):
        raise ValueError("give either plan (one level, 'ground') or plans")
    if plans is None:
        assert plan is not None  # one of the two, checked above
        plans = {"ground": (0, plan)}
    if rooms is None:
        raise ValueError("rooms: map each plan character to a room(...) spec")
    b = Building(title=title)
    levels: dict[str, int] = {}
    for name, (elevation, _rows) in plans.items():
        levels[name] = b.add_level(name, elevation, floor).index
    feats = {k: frozenset(v) for k, v in (features or {}).items()}
    for lname, (_elevation, rows) in plans.items():
        _add_areas(b, lname, levels[lname], rows, rooms, dict(fuel or {}), feats)
    special = _special(b, ((doors or {}, BarrierKind.DOOR, door),
                           (windows or {}, BarrierKind.WINDOW, window)), stairs)
    _side_barriers(b, special, wall, outer_wall)
    _vertical_barriers(b, special)
    if special:
        names = [" / ".join(sorted(b.areas[i].name for i in k)) for k in special]
        raise ValueError(f"doors/windows/stairs between areas that are not neighbours: {names}")
    for route_kind, refs in routes:
        b.add_route(route_kind, [_lookup(b, r) for r in refs])
    return b


def _lookup(b: Building, ref: str) -> int:
    """The area ``ref`` names (ValueError if none)."""
    i = b.find(ref)
    if i is None:
        raise ValueError(f"no area {ref!r} in the plan")
    return i


def _special(b: Building, openings: Iterable[tuple[Mapping[tuple[str, str], bool], BarrierKind,
                                                   Structure]],
             stairs: Iterable[tuple[str, str]]
             ) -> dict[frozenset[int], tuple[BarrierKind, Structure | None, bool]]:
    """The barriers given by hand, by the pair of areas they join: doors and windows (closed
    or not) and stairs."""
    special: dict[frozenset[int], tuple[BarrierKind, Structure | None, bool]] = {}
    for pairs, kind, structure in openings:
        for (x, y), closed in pairs.items():
            special[frozenset((_lookup(b, x), _lookup(b, y)))] = (kind, structure, bool(closed))
    for x, y in stairs:
        special[frozenset((_lookup(b, x), _lookup(b, y)))] = (BarrierKind.STAIRS, None, False)
    return special


def _add_areas(b: Building, lname: str, lv: int, rows: Iterable[str],
               rooms: Mapping[str, RoomSpec], fuel: dict[str, int],
               features: dict[str, frozenset]) -> None:
    """One level's areas from its rows ('.' and ' ': none), each room made when first drawn,
    fuel and features by the area's full or short name."""
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch in ". ":
                continue
            spec = rooms[ch]
            key = spec.key
            if key not in b.rooms:
                b.add_room(Room(key, spec.name or key, lv, outdoors=spec.outdoors))
            elif b.rooms[key].level != lv:
                raise ValueError(f"room {key!r} on two levels: give each level its own")
            short = f"{column_letters(c)}{r + 1}"
            full = f"{lname}:{short}"
            area_fuel = fuel.get(full, fuel.get(short, spec.fuel))
            feats = features.get(full, features.get(short, frozenset()))
            b.add_area(c, r, lv, key, fuel=area_fuel, wet=spec.wet, smoky=spec.smoky,
                       features=frozenset(feats))


def _side_barriers(b: Building, special: dict, wall: Structure, outer_wall: Structure) -> None:
    """Between areas side by side: the door or window given there (taken from ``special``),
    else open within a room, else a wall (the outer wall where one side is outdoors)."""
    for area in b.areas:
        for dc, dr in ((1, 0), (0, 1)):
            j = b.at(area.level, area.col + dc, area.row + dr)
            if j is None:
                continue
            other = b.areas[j]
            pair = frozenset((area.index, j))
            if pair in special:
                kind, made_of, closed = special.pop(pair)
                b.connect(area.index, j, kind, made_of, closed=closed)
            elif area.room == other.room:
                b.connect(area.index, j, BarrierKind.OPEN)
            else:
                outdoors = b.rooms[area.room].outdoors or b.rooms[other.room].outdoors
                b.connect(area.index, j, BarrierKind.WALL, outer_wall if outdoors else wall)


def _vertical_barriers(b: Building, special: dict) -> None:
    """Vertical neighbours (same column and row on levels one apart): the stairs given there
    (taken from ``special``), else the upper level's floor."""
    by_elev = sorted(b.levels, key=lambda lv: lv.elevation)
    for low, high in zip(by_elev, by_elev[1:]):
        if high.elevation - low.elevation != 1:
            continue
        for area in b.areas:
            j = b.at(high.index, area.col, area.row) if area.level == low.index else None
            if j is None:
                continue
            pair = frozenset((area.index, j))
            if pair in special:
                kind, made_of, closed = special.pop(pair)
                b.connect(area.index, j, kind, made_of, closed=closed)
            else:
                b.connect(area.index, j, BarrierKind.FLOOR, high.floor)


def make_scene(building: Building, *, seed: int = 7, heroes: Iterable[Hero] = (),
               fires: Mapping[str, int] | None = None, settings: Settings | None = None,
               title: str = "") -> Scene:
    """A scene on ``building`` with a seeded roller, heroes, and starting fires (area -> FD)."""
    from fuego.engine.scene import Cause, Scene

    scene = Scene(building, settings=settings or Settings(), roller=Roller(seed),
                  title=title or building.title)
    scene.heroes.extend(heroes)
    for ref, fd in (fires or {}).items():
        i = building.find(ref)
        if i is None:
            raise ValueError(f"no area {ref!r} for a starting fire")
        scene.start_fire(i, fd, Cause.START)
    return scene


#: A kitchen (fuel 5), a hall (fuel 3) and the street, three rows deep. The kitchen-hall wall
#: has a closed wooden door in row 2; the hall opens on the street through an open door there.
TWO_ROOM_PLAN = ["kkkhhhs",
                 "kkkhhhs",
                 "kkkhhhs"]


def two_room_building(**kw) -> Building:
    rooms = {"k": room("kitchen", fuel=5), "h": room("hall", fuel=3),
             "s": room("street", outdoors=True)}
    kw.setdefault("doors", {("C2", "D2"): True, ("F2", "G2"): False})
    kw.setdefault("title", "two rooms and a street")
    return make_building(TWO_ROOM_PLAN, rooms, **kw)


def two_room_scene(seed: int = 7, *, fires: Mapping[str, int] | None = None,
                   heroes: Iterable[Hero] | None = None, settings: Settings | None = None,
                   **building_kw) -> Scene:
    """The kitchen + hall + street scene: Isabela in the kitchen's corner, a 3-die fire beside
    her (the scene of the engine's smoke test)."""
    b = two_room_building(**building_kw)
    if heroes is None:
        heroes = [Hero("Isabela", b.area("A1").index, brawn=3, finesse=3, wits=2, resolve=3,
                       panache=3, knacks={"sprinting": 2})]
    return make_scene(b, seed=seed, heroes=heroes, fires={"A2": 3} if fires is None else fires,
                      settings=settings)


@contextlib.contextmanager
def small_tmpfs(mnt: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``mnt`` (made here), for full-disk tests: needs root and
    mount, and skips the test where it cannot be had; unmounted after."""
    import pytest

    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mnt)],
                       capture_output=True)
    if r.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def failing_writes(monkeypatch: Any, after: int) -> None:
    """Every file opened by ``os.fdopen`` (fuego.files writes through it) fails with ENOSPC
    after ``after`` bytes: a disk that fills, where no tmpfs can be mounted (``monkeypatch``:
    pytest's; worker processes forked after it carry it too)."""
    real = os.fdopen

    class Full:
        def __init__(self, fh):
            self.fh, self.written = fh, 0

        def write(self, data):
            if self.written + len(data) > after:
                raise OSError(errno.ENOSPC, "No space left on device")
            self.written += len(data)
            return self.fh.write(data)

        def __getattr__(self, name):
            return getattr(self.fh, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return self.fh.__exit__(*exc)

    monkeypatch.setattr(os, "fdopen", lambda fd, *a, **k: Full(real(fd, *a, **k)))
