"""The building: a networkx graph of 10-ft areas in rooms and levels, barriers on its edges.

``Building.graph`` is the building's state. Its nodes are the areas ``0..n-1``, each with its
:class:`Area` record (room, level, position, fuel, features, burned out) as ``area`` and the
routes of fuel through it (``Area.routes``); every pair of neighbouring areas (side by side on one
level, or one above the other) is an edge with its :class:`Barrier` record (kind, structure,
open, closed or broken) as ``barrier``. Nobody edits the graph or those records directly: every
change goes through a method here, which tells the building's ``paths`` what it touched in the
same call and so bumps :attr:`Building.version`. Everything derived from the graph (reach,
leaps, vents, smoke walks, the way out, rooms, sight lines) lives in that one owner,
:mod:`fuego.world.paths`.

Names a GM reads: a level has a name (``ground``), an area is ``level:C4`` (column letter(s), row
number from 1, like a spreadsheet or a printed battle map), a room has a key (``kitchen``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import networkx as nx

from fuego.errors import RuleError, one_of, suggest
from fuego.rules.charts import AREA_FEET, Structure
from fuego.text import fold_name
from fuego.world.paths import Paths
from fuego.world.places import (
    ALWAYS_OPEN,
    OPENABLE,
    Area,
    Barrier,
    BarrierKind,
    BarrierState,
    Feature,
    Level,
    Room,
    Route,
    RouteKind,
    column_letters,
    parse_coordinate,
)

_UNSET: Any = object()  # (a record's slot before networkx's ``update`` fills it)


class GraphRecord(MutableMapping[str, Any]):
    """The attribute dict of a node or an edge of the building's graph: its one record (the
    :class:`Area` or the :class:`Barrier`) under :attr:`KEY` in a slot, not in a dict of its
    own (a dict a node and one an edge are ~45 MB of a 100,000-area field; this is ~48
    bytes). Any other key (a networkx algorithm's, a script's) goes in a dict made when first
    set, so to networkx it is a dict like any other."""

    __slots__ = ("_record", "_more")
    #: the one key held in the slot
    KEY: ClassVar[str]

    def __init__(self, record: Any = _UNSET, more: dict[str, Any] | None = None) -> None:
        self._record, self._more = record, more

    def __getitem__(self, key: str) -> Any:
        if key == self.KEY and self._record is not _UNSET:
            return self._record
        if self._more is None:
            raise KeyError(key)
        return self._more[key]

    def __setitem__(self, key: str, value: Any) -> None:
        if key == self.KEY:
            self._record = value
        elif self._more is None:
            self._more = {key: value}
        else:
            self._more[key] = value

    def __delitem__(self, key: str) -> None:
        if key == self.KEY and self._record is not _UNSET:
            self._record = _UNSET
        elif self._more is None:
            raise KeyError(key)
        else:
            del self._more[key]

    def __iter__(self) -> Iterator[str]:
        if self._record is not _UNSET:
            yield self.KEY
        if self._more:
            yield from self._more

    def __len__(self) -> int:
        return (self._record is not _UNSET) + (len(self._more) if self._more else 0)

    def update(self, other: Any = (), /, **more: Any) -> None:
        # (what networkx's add_node and add_edge call: the ABC's own is 4x slower)
        for key, value in dict(other, **more).items():
            self[key] = value

    def copy(self) -> dict[str, Any]:
        """A plain dict of the same items (what networkx's ``Graph.copy`` asks of data)."""
        return dict(self)

    def __repr__(self) -> str:
        return repr(dict(self))

    def __reduce__(self) -> tuple:
        if self._more is None and self._record is not _UNSET:
            return (type(self), (self._record,))  # (the usual one, and the quickest to load)
        return (type(self), (), None, None, iter(self.items()))


class AreaRecord(GraphRecord):
    """A node's attribute dict: ``{"area": Area}``."""

    __slots__ = ()
    KEY = "area"


class BarrierRecord(GraphRecord):
    """An edge's attribute dict: ``{"barrier": Barrier}``."""

    __slots__ = ()
    KEY = "barrier"


class BuildingGraph(nx.Graph):
    """The building's networkx graph: an ``nx.Graph`` whose node and edge attribute dicts are
    :class:`AreaRecord` and :class:`BarrierRecord` (networkx's factory hooks)."""

    node_attr_dict_factory = AreaRecord
    edge_attr_dict_factory = BarrierRecord


@dataclass(eq=False)
class Building:
    """Areas, rooms, levels, barriers and routes on one networkx graph, kept consistent.

    Build one with :meth:`add_level`, :meth:`add_room`, :meth:`add_area`, :meth:`connect` and
    :meth:`add_route` (the scenario loader does this). After that only the play-time changes
    (open, close, destroy, burn out, set fuel, features, routes) change it, each through a
    method that bumps :attr:`version`. ``areas`` and ``barriers`` are the graph's node and edge
    records by index.
    """

    title: str = ""
    levels: list[Level] = field(default_factory=list)
    rooms: dict[str, Room] = field(default_factory=dict)
    areas: list[Area] = field(default_factory=list)
    barriers: list[Barrier] = field(default_factory=list)
    routes: list[Route] = field(default_factory=list)
    graph: nx.Graph = field(default_factory=BuildingGraph, repr=False)
    _by_pos: dict[tuple[int, int, int], int] = field(default_factory=dict, repr=False)
    _by_name: dict[str, int] = field(default_factory=dict, repr=False)
    _room_areas: dict[str, list[int]] = field(default_factory=dict, repr=False)
    #: the barriers by the name the map gave them, folded (:func:`fold_name`): kept by
    #: :meth:`connect`, the one place a name is given (play never renames a barrier)
    _by_label: dict[str, list[int]] = field(default_factory=dict, repr=False)
    #: everything derived from the graph, told of every change (fuego.world.paths)
    paths: Paths = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.paths = Paths(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Building):
            return NotImplemented
        return ((self.title, self.levels, self.rooms, self.areas, self.barriers, self.routes)
                == (other.title, other.levels, other.rooms, other.areas, other.barriers,
                    other.routes))

    __hash__ = None  # type: ignore[assignment]  # (mutable)

    @property
    def version(self) -> int:
        """Bumped by every change (each mutator tells :attr:`paths`, which counts them): what
        is derived from the building follows it."""
        return self.paths.version

    def _built(self) -> None:
        """The graph's shape changed (construction): whatever was derived starts over."""
        self.paths.rebuilt()

    def add_level(self, name: str, elevation: int, floor: Structure = Structure.WOODEN_FLOOR) -> Level:
        level = Level(len(self.levels), name, elevation, floor)
        self.levels.append(level)
        return level

    def level_named(self, name: str) -> Level:
        for level in self.levels:
            if level.name == name:
                return level
        raise KeyError(name)

    def add_room(self, room: Room) -> Room:
        self.rooms[room.key] = room
        self._room_areas.setdefault(room.key, [])
        self._built()
        return room

    def add_area(self, col: int, row: int, level: int, room: str, fuel: int = 0, **kw) -> Area:
        i = len(self.areas)
        name = f"{self.levels[level].name}:{column_letters(col)}{row + 1}"
        area = Area(i, col, row, level, room, fuel, name=name, **kw)
        self.areas.append(area)
        self.graph.add_node(i, area=area)
        self._by_pos[(level, col, row)] = i
        self._by_name[name] = i
        self._room_areas.setdefault(room, []).append(i)
        self._built()
        return area

    def connect(self, i: int, j: int, kind: BarrierKind, structure: Structure | None = None,
                closed: bool = True, name: str = "", locked: bool = False) -> Barrier:
        # the areas' own index ints, not the caller's: one int an area, however many edges
        a, b = self.areas[min(i, j)].index, self.areas[max(i, j)].index
        if self.graph.has_edge(a, b):
            raise ValueError(f"{self.areas[a].name} and {self.areas[b].name} are already connected")
        barrier = Barrier(len(self.barriers), a, b, kind, structure,
                          closed if kind in OPENABLE else False, label=name,
                          locked=locked and kind is BarrierKind.DOOR, areas=self.areas)
        self.barriers.append(barrier)
        self.graph.add_edge(a, b, barrier=barrier)
        if name:
            self._by_label.setdefault(fold_name(name), []).append(barrier.index)
        self._built()
        return barrier

    def add_route(self, kind: RouteKind, areas: Iterable[int], name: str = "") -> Route:
        """A run of fuel through ``areas`` (the scenario's, or a script's spilt oil)."""
        route = self._add_route(kind, tuple(areas), name)
        self.paths.routes_changed()
        return route

    def _add_route(self, kind: RouteKind, areas: tuple[int, ...], name: str) -> Route:
        route = Route(len(self.routes), kind, areas, name or f"{kind.value} {len(self.routes) + 1}")
        self.routes.append(route)
        for i in route.areas:
            self.areas[i].routes += (route,)
        return route

    # -- lookups -----------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.areas)

    def area(self, ref: int | str) -> Area:
        """An area by index or by name (``ground:C4``; ``C4`` when there is one level)."""
        if isinstance(ref, int):
            return self.areas[ref]
        i = self.find(ref)
        if i is None:
            raise RuleError(f"no area {ref!r} in {self.title or 'the building'}",
                            tip="name areas as level:C4 (column letter, row number)")
        return self.areas[i]

    def find(self, name: str) -> int | None:
        if name in self._by_name:
            return self._by_name[name]
        try:
            level, col, row = parse_coordinate(name)
        except ValueError:
            return None
        if level is None:
            if len(self.levels) != 1:
                return None
            return self._by_pos.get((0, col, row))
        try:
            lv = self.level_named(level)
        except KeyError:
            return None
        return self._by_pos.get((lv.index, col, row))

    def short_form(self, name: str, i: int) -> bool:
        """Does ``name`` (``G2``: a column and row with no level) name area ``i`` on whatever
        level it is? (With several levels a short form names one area only among a few: those
        in a hero's reach.)"""
        try:
            level, col, row = parse_coordinate(name)
        except ValueError:
            return False
        area = self.areas[i]
        return level is None and (area.col, area.row) == (col, row)

    def at(self, level: int, col: int, row: int) -> int | None:
        return self._by_pos.get((level, col, row))

    def room_of(self, i: int) -> Room:
        return self.rooms[self.areas[i].room]

    def room_areas(self, key: str) -> list[int]:
        return self._room_areas.get(key, [])

    def room_centre(self, key: str, level: int) -> tuple[float, float, list[int]]:
        """Where room ``key`` sits on ``level``: the centre of its areas there (in squares, an
        area's middle at +0.5) and those areas, nearest the centre first (ties by index), so an
        L-shaped room's label can stay inside it. No areas there: ``(0, 0, [])``."""
        return self.centre_of([i for i in self.room_areas(key) if self.areas[i].level == level])

    def centre_of(self, idx: list[int]) -> tuple[float, float, list[int]]:
        """The centre of these areas of one level (:meth:`room_centre`'s for any of them: the
        areas of a room that hold a feature) and the areas, nearest it first."""
        areas = self.areas
        if not idx:
            return 0.0, 0.0, []
        cx = sum(areas[i].col + 0.5 for i in idx) / len(idx)
        cy = sum(areas[i].row + 0.5 for i in idx) / len(idx)
        near = sorted(idx, key=lambda i: ((areas[i].col + 0.5 - cx) ** 2
                                          + (areas[i].row + 0.5 - cy) ** 2, i))
        return cx, cy, near

    def room_index(self) -> dict[str, list[int]]:
        """Each room's areas by key (do not change it)."""
        return self._room_areas

    def position_index(self) -> dict[tuple[int, int, int], int]:
        """Each area by its place, ``(level, col, row)`` -> index (:meth:`at`; do not change
        it)."""
        return self._by_pos

    def between(self, i: int, j: int) -> Barrier | None:
        """The barrier on the edge between areas ``i`` and ``j`` (None: not neighbours)."""
        data = self.graph.get_edge_data(i, j)
        return None if data is None else data["barrier"]

    # -- barriers by what a GM, a player or a script calls them --------------------------------
    def barriers_named(self, name: str) -> list[Barrier]:
        """The barriers the map gave the name ``name``, spaces folded and in any case
        (``Store  Door`` is ``store door``), in index order; ``[]`` for none. The one reading
        of a barrier's name: the table, a hero's action and a script's check all ask it."""
        return [self.barriers[i] for i in self._by_label.get(fold_name(name), ())]

    def barrier(self, ref: str, *, tip: str | None = None) -> Barrier:
        """The one barrier ``ref`` names: the name the map gave it (:meth:`barriers_named`)
        or its two areas (``ground:C4|ground:D4``, ``ground:C4 ground:D4``, ``C4-D4``,
        ``C4,D4``). Otherwise a RuleError saying which: no barrier of that name (did you
        mean ...?), a name several share (listed by their areas: name one so), an area that
        does not exist, two areas that are not neighbours. ``tip``: the caller's own example,
        for a name that is no barrier's."""
        named = self.barriers_named(ref)
        if len(named) == 1:
            return named[0]
        parts = self._pair_parts(ref)
        found = [self.find(p) for p in parts]
        i, j = found if len(found) == 2 else (None, None)
        if i is not None and j is not None:
            return self._between_areas(i, j)
        if named:
            pairs = [f"{self.areas[x.a].name}|{self.areas[x.b].name}" for x in named]
            raise RuleError(f"{ref.strip()!r} names {len(named)} barriers: {one_of(pairs)}",
                            tip=f"name the one you mean by its two areas, e.g. {pairs[0]}")
        if len(parts) == 2 and ":" in ref:  # level:C4 areas, one of them wrong
            bad = parts[found.index(None)]
            raise RuleError(f"no area {bad!r} for the barrier"
                            f"{suggest(bad, (a.name for a in self.areas))}",
                            tip="name areas as level:C4 (column letter, row number)")
        # each name once, as the map first wrote it
        labels = sorted((self.barriers[k[0]].label for k in self._by_label.values()),
                        key=fold_name)
        raise RuleError(f"no door, window, wall or link named {ref.strip()!r}"
                        f"{suggest(ref, labels, fold=fold_name)}"
                        + (f"; named here: {one_of(labels)}" if labels else ""),
                        tip=tip or "name a barrier by its two areas, e.g. ground:C4|ground:D4, "
                                   "or by the name the map gives it")

    def _between_areas(self, i: int, j: int) -> Barrier:
        found = self.between(i, j)
        if found is None:
            raise RuleError(f"{self.areas[i].name} and {self.areas[j].name} are not "
                            "neighbours: no barrier between them",
                            tip="a barrier stands between two areas side by side, or one "
                                "above the other")
        return found

    def _pair_parts(self, ref: str) -> list[str]:
        """``ref`` cut into the two areas it may name: at a ``|``, a comma or a space, else
        at the dash where both sides are areas (a level's name may hold dashes), else at the
        first dash."""
        words = ref.replace("|", " ").replace(",", " ").split()
        if len(words) != 1:
            return words
        text = words[0]
        dashes = [n for n, ch in enumerate(text) if ch == "-" and 0 < n < len(text) - 1]
        for n in dashes:
            if self.find(text[:n]) is not None and self.find(text[n + 1:]) is not None:
                return [text[:n], text[n + 1:]]
        return [text[: dashes[0]], text[dashes[0] + 1:]] if dashes else [text]

    def shared_edge(self, i: int, j: int) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """The side two areas side by side on one level share: its ends as (column, row) grid
        corners, in area units (the maps, the players' screen and the VTT export draw a
        barrier there); None for areas that are not (a floor, a stair, a corner's touch)."""
        a, c = self.areas[i], self.areas[j]
        dc, dr = c.col - a.col, c.row - a.row
        if abs(dc) + abs(dr) != 1 or a.level != c.level:
            return None
        if dc:
            x = max(a.col, c.col)
            return (x, a.row), (x, a.row + 1)
        y = max(a.row, c.row)
        return (a.col, y), (a.col + 1, y)

    def neighbours(self, i: int) -> list[tuple[int, Barrier]]:
        """Every neighbour of area ``i`` with the barrier between, in the graph's order."""
        return self.paths.neighbours(i)

    def open_neighbours(self, i: int) -> Iterator[int]:
        for j, barrier in self.paths.neighbours(i):
            if barrier.passable:
                yield j

    def routes_at(self, i: int) -> tuple[Route, ...]:
        """The routes of fuel through area ``i`` (its node's ``routes``)."""
        return self.areas[i].routes

    def is_exit(self, i: int) -> bool:
        """Areas marked ``exit``; where none is marked, every outdoor area is a way out."""
        return self.paths.is_exit(i)

    # -- geometry ------------------------------------------------------------------------------
    def gap_feet(self, i: int, j: int) -> tuple[float, int]:
        """Edge-to-edge horizontal gap in feet between two areas, and the levels between them."""
        a, b = self.areas[i], self.areas[j]
        dx = max(0, abs(a.col - b.col) - 1)
        dy = max(0, abs(a.row - b.row) - 1)
        rise = self.levels[b.level].elevation - self.levels[a.level].elevation
        return math.hypot(dx, dy) * AREA_FEET, rise

    def within(self, i: int, steps: int) -> dict[int, int]:
        """Areas reachable from ``i`` through passable barriers in at most ``steps`` moves
        (area -> moves; :meth:`fuego.world.paths.Paths.reach`). Do not change it."""
        return self.paths.reach(i, steps)[0]

    # -- what the barriers let through (fuego.world.paths) -------------------------------------
    def vents_from(self, i: int) -> bool:
        """Does air from area ``i`` reach open air (:meth:`fuego.world.paths.Paths.vents`)?"""
        return self.paths.vents(i)

    def room_graph(self) -> nx.MultiGraph:
        """Rooms as nodes, an edge per wall, door, window or opening between two rooms (keyed by
        the barrier's index, with its ``barrier``, ``kind`` and ``state``)."""
        return self.paths.room_graph()

    def room_links(self, key: str) -> list[tuple[str, list[Barrier]]]:
        """The rooms next to room ``key`` that a way leads to (a door, window, opening, stairs,
        ladder or hole, or a broken wall or floor), each with those barriers (rooms by key,
        barriers by index): read from :meth:`room_graph`."""
        g = self.room_graph()
        if key not in g:
            return []
        out = []
        for other in sorted(g.adj[key]):
            ways = [data["barrier"] for _, data in sorted(g.adj[key][other].items())
                    if data["kind"] not in (BarrierKind.WALL, BarrierKind.FLOOR)
                    or data["state"] is BarrierState.BROKEN]
            if ways:
                out.append((other, ways))
        return out

    def open_rooms(self, key: str) -> set[str]:
        """Rooms directly open to room ``key`` through a passable barrier."""
        return self.paths.open_rooms(key)

    def room_vents(self, key: str) -> bool:
        """Does room ``key``'s air reach open air (:meth:`fuego.world.paths.Paths.room_vents`)?"""
        return self.paths.room_vents(key)

    def distances_to_exit(self, passable: Callable[[Barrier], bool] | None = None) -> list[int]:
        """Moves from every area to the nearest exit (:meth:`fuego.world.paths.Paths.distances_to_exit`)."""
        return self.paths.distances_to_exit(passable)

    # -- play-time changes ----------------------------------------------------------------------
    def open_barrier(self, barrier: Barrier) -> bool:
        """Open a door or window; returns whether anything changed."""
        if barrier.kind not in OPENABLE or barrier.destroyed:
            raise RuleError(f"{barrier.describe()} at {barrier.name} cannot be opened",
                            tip="only doors and windows open and close")
        changed = barrier.closed
        barrier.closed = barrier.locked = False  # opened by the GM's or a script's hand
        if changed:
            self.paths.barrier_changed(barrier)
        return changed

    def close_barrier(self, barrier: Barrier) -> bool:
        if barrier.kind not in OPENABLE or barrier.destroyed:
            raise RuleError(f"{barrier.describe()} at {barrier.name} cannot be closed",
                            tip="a broken door or window stays open")
        changed = not barrier.closed
        barrier.closed = True
        if changed:
            self.paths.barrier_changed(barrier)
        return changed

    def destroy_barrier(self, barrier: Barrier) -> bool:
        """A destroyed barrier becomes an opening (a floor becomes a hole)."""
        if barrier.destroyed or barrier.kind in ALWAYS_OPEN:
            return False
        barrier.destroyed = True
        self.paths.barrier_changed(barrier)
        return True

    def burn_out(self, i: int) -> None:
        """The area's fuel is spent: it cannot burn again."""
        area = self.areas[i]
        area.burned_out = True
        area.fuel = 0
        self.paths.area_changed(i)

    def set_fuel(self, i: int, fuel: int, *, renew: bool = False) -> None:
        """Set the fuel left in area ``i`` (a fire put out early, fuel torn down, a script's
        spilt oil); ``renew``: a burned-out area can burn again."""
        area = self.areas[i]
        if renew:
            area.burned_out = False
        area.fuel = fuel
        self.paths.area_changed(i)

    def add_feature(self, i: int, feature: Feature) -> None:
        area = self.areas[i]
        if feature not in area.features:
            area.features = area.features | {feature}
            self.paths.features_changed(i)

    def remove_feature(self, i: int, feature: Feature) -> None:
        area = self.areas[i]
        if feature in area.features:
            area.features = area.features - {feature}
            self.paths.features_changed(i)

    def cut_routes(self, areas: set[int]) -> list[str]:
        """Clear the fuel of routes where they cross ``areas`` (a fire break): each route
        splits into the runs between them (runs of one area are dropped). Returns the names of
        the routes cut."""
        cut: list[str] = []
        kept: list[tuple[RouteKind, tuple[int, ...], str]] = []
        for route in self.routes:
            if not areas & set(route.areas):
                kept.append((route.kind, route.areas, route.name))
                continue
            cut.append(route.name)
            runs: list[list[int]] = []
            run: list[int] = []
            for i in route.areas:
                if i in areas:
                    runs.append(run)
                    run = []
                else:
                    run.append(i)
            runs.append(run)
            long = [r for r in runs if len(r) > 1]
            for k, r in enumerate(long):
                kept.append((route.kind, tuple(r), route.name if len(long) == 1
                             else f"{route.name} ({k + 1})"))
        if cut:
            self.routes = []
            for area in self.areas:
                area.routes = ()
            for kind, part, name in kept:
                self._add_route(kind, part, name)
            self.paths.routes_changed()
        return cut

    def vertical_neighbour(self, i: int, up: bool) -> tuple[int, Barrier] | None:
        """The area directly above (or below) ``i`` and the floor or link between them."""
        here = self.levels[self.areas[i].level].elevation
        for j, barrier in self.neighbours(i):
            if barrier.vertical:
                there = self.levels[self.areas[j].level].elevation
                if (there > here) == up:
                    return j, barrier
        return None

    def size(self) -> tuple[int, int]:
        """Columns and rows spanned by the plans."""
        if not self.areas:
            return 0, 0
        return (max(a.col for a in self.areas) + 1, max(a.row for a in self.areas) + 1)

    def summary(self) -> dict:
        fuel = sum(a.fuel for a in self.areas)
        return {
            "levels": len(self.levels),
            "rooms": len(self.rooms),
            "areas": len(self.areas),
            "burnable_areas": sum(1 for a in self.areas if a.fuel > 0),
            "total_fuel": fuel,
            "barriers": sum(1 for b in self.barriers if b.kind != BarrierKind.OPEN),
            "doors": sum(1 for b in self.barriers if b.kind == BarrierKind.DOOR),
            "windows": sum(1 for b in self.barriers if b.kind == BarrierKind.WINDOW),
            "routes": len(self.routes),
        }

    # -- state (for saves and invariants) -------------------------------------------------------
    def dynamic_state(self) -> dict:
        """What play can change: fuel, burned areas, barrier states, routes added."""
        return {
            "fuel": [a.fuel for a in self.areas],
            "burned_out": [i for i, a in enumerate(self.areas) if a.burned_out],
            "barriers": [[b.index, b.closed, b.destroyed] for b in self.barriers
                         if b.destroyed or b.kind in OPENABLE],
            "routes": [[r.kind.value, list(r.areas), r.name] for r in self.routes],
        }
