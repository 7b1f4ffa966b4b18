"""The building: a graph of 10-ft areas in rooms and levels, barriers between them, routes of fuel.

:class:`Building` wraps a ``networkx`` graph and keeps it consistent: nobody edits the raw graph.
Areas are numbered ``0..n-1`` (the graph's nodes); every pair of neighbouring areas (side by side
on one level, or one above the other) is an edge carrying its :class:`Barrier`. The rules' hot
paths use adjacency lists precomputed at build time; ``networkx`` answers the rarer questions
(which rooms are open to which, paths to exits).

Names a GM reads: a level has a name (``ground``), an area is ``level:C4`` (column letter(s), row
number from 1, like a spreadsheet or a printed battle map), a room has a key (``kitchen``).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fuego.errors import RuleError
from fuego.rules.tables import AREA_FEET, Structure
from fuego.world.places import (  # noqa: F401  (the parts, importable from here as before)
    ALWAYS_OPEN,
    BEAM_STRUCTURE,
    OPENABLE,
    VERTICAL,
    Area,
    Barrier,
    BarrierKind,
    Feature,
    Level,
    Room,
    Route,
    RouteKind,
    column_index,
    column_letters,
    fuel_epoch,
    note_fuel,
    parse_coordinate,
)

if TYPE_CHECKING:  # networkx is imported lazily: the CLI must start fast
    import networkx as nx

_NO_VENTS: frozenset[int] = frozenset()


@dataclass(slots=True)
class Building:
    """Areas, rooms, levels, barriers and routes, kept consistent.

    Build one with :meth:`add_level`, :meth:`add_room`, :meth:`add_area`, :meth:`connect` and
    :meth:`add_route` (the scenario loader does this). After that only the play-time
    mutations (open, close, destroy, burn out, new routes) change it.
    """

    title: str = ""
    levels: list[Level] = field(default_factory=list)
    rooms: dict[str, Room] = field(default_factory=dict)
    areas: list[Area] = field(default_factory=list)
    barriers: list[Barrier] = field(default_factory=list)
    routes: list[Route] = field(default_factory=list)
    _by_pos: dict[tuple[int, int, int], int] = field(default_factory=dict)
    _by_name: dict[str, int] = field(default_factory=dict)
    _between: dict[tuple[int, int], Barrier] = field(default_factory=dict)
    _adj: list[list[tuple[int, Barrier]]] = field(default_factory=list)
    _routes_at: list[list[Route]] = field(default_factory=list)
    _room_areas: dict[str, list[int]] = field(default_factory=dict)
    _has_exits: bool | None = None
    #: What the barriers let through, cached (docs/performance.md): ``_epoch`` counts changes to
    #: barriers; the open adjacency and the vent regions are rebuilt when it moves.
    _epoch: int = field(default=0, compare=False, repr=False)
    _open: list[list[int]] = field(default_factory=list, compare=False, repr=False)
    _open_epoch: int = field(default=-1, compare=False, repr=False)
    #: barriers whose passability can change, and whether each let fire through at the rebuild
    _gates: list[Barrier] = field(default_factory=list, compare=False, repr=False)
    _gate_state: list[bool] = field(default_factory=list, compare=False, repr=False)
    _vents: list[bool] = field(default_factory=list, compare=False, repr=False)
    _vents_epoch: int = field(default=-1, compare=False, repr=False)
    _regions: list[tuple[int, bool]] = field(default_factory=list, compare=False, repr=False)
    _vent_to: list[frozenset[int]] = field(default_factory=list, compare=False, repr=False)
    _gate_pos: dict[int, int] = field(default_factory=dict, compare=False, repr=False)
    #: (epoch, barrier) for each change made through the methods below; changes before
    #: ``_blind_epoch`` (new barriers, changes made behind the building's back) are not listed
    _changes: list[tuple[int, Barrier]] = field(default_factory=list, compare=False, repr=False)
    _blind_epoch: int = field(default=0, compare=False, repr=False)

    # -- construction ------------------------------------------------------------------------
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
        return room

    def add_area(self, col: int, row: int, level: int, room: str, fuel: int = 0, **kw) -> Area:
        i = len(self.areas)
        name = f"{self.levels[level].name}:{column_letters(col)}{row + 1}"
        area = Area(i, col, row, level, room, fuel, name=name, **kw)
        self.areas.append(area)
        self._by_pos[(level, col, row)] = i
        self._by_name[name] = i
        self._adj.append([])
        self._routes_at.append([])
        self._room_areas.setdefault(room, []).append(i)
        return area

    def connect(self, i: int, j: int, kind: BarrierKind, structure: Structure | None = None,
                closed: bool = True, name: str = "") -> Barrier:
        a, b = min(i, j), max(i, j)
        if (a, b) in self._between:
            raise ValueError(f"{self.areas[a].name} and {self.areas[b].name} are already connected")
        barrier = Barrier(len(self.barriers), a, b, kind, structure,
                          closed if kind in OPENABLE else False, name=name)
        if not barrier.name:
            barrier.name = f"{self.areas[a].name}|{self.areas[b].name}"
        self.barriers.append(barrier)
        self._between[(a, b)] = barrier
        self._adj[a].append((b, barrier))
        self._adj[b].append((a, barrier))
        self._epoch += 1
        self._blind_epoch = self._epoch
        return barrier

    def add_route(self, kind: RouteKind, areas: Iterable[int], name: str = "") -> Route:
        route = Route(len(self.routes), kind, tuple(areas), name or f"{kind.value} {len(self.routes) + 1}")
        self.routes.append(route)
        for i in route.areas:
            self._routes_at[i].append(route)
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

    def at(self, level: int, col: int, row: int) -> int | None:
        return self._by_pos.get((level, col, row))

    def room_of(self, i: int) -> Room:
        return self.rooms[self.areas[i].room]

    def room_areas(self, key: str) -> list[int]:
        return self._room_areas.get(key, [])

    def between(self, i: int, j: int) -> Barrier | None:
        return self._between.get((i, j) if i < j else (j, i))

    def neighbours(self, i: int) -> list[tuple[int, Barrier]]:
        """Every neighbour of area ``i`` with the barrier between (precomputed)."""
        return self._adj[i]

    def open_neighbours(self, i: int) -> Iterator[int]:
        for j, barrier in self._adj[i]:
            if barrier.passable:
                yield j

    def routes_at(self, i: int) -> list[Route]:
        return self._routes_at[i]

    def is_exit(self, i: int) -> bool:
        """Areas marked ``exit``; where none is marked, every outdoor area is a way out."""
        area = self.areas[i]
        if self._has_exits is None:
            self._has_exits = any(Feature.EXIT in a.features for a in self.areas)
        if self._has_exits:
            return Feature.EXIT in area.features
        return self.rooms[area.room].outdoors

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
        (breadth first: nearer areas first, in neighbour order)."""
        adj = self.open_adjacency()
        seen = {i: 0}
        frontier = [i]
        d = 0
        while frontier and d != steps:
            d += 1
            nxt = []
            for k in frontier:
                for j in adj[k]:
                    if j not in seen:
                        seen[j] = d
                        nxt.append(j)
            frontier = nxt
        return seen

    # -- what the barriers let through, cached per barrier state -------------------------------
    @property
    def epoch(self) -> int:
        """Changes to the barriers so far: caches of what they let through key on it."""
        return self._epoch

    def open_adjacency(self) -> list[list[int]]:
        """For each area, the neighbours it is open to now (through passable barriers), in the
        order of :meth:`neighbours`. Rebuilt only after a barrier changed."""
        if self._open_epoch != self._epoch:
            self._open = [[j for j, barrier in adj if barrier.passable] for adj in self._adj]
            self._vent_to = [self._vents_of(i) for i in range(len(self.areas))]
            self._gates = [b for b in self.barriers if b.kind not in ALWAYS_OPEN]
            self._gate_state = [b.passable for b in self._gates]
            self._gate_pos = {b.index: k for k, b in enumerate(self._gates)}
            self._open_epoch = self._epoch
        return self._open

    def vent_edges(self) -> list[frozenset[int]]:
        """For each area, the neighbours it is open to through which smoke vents: an outdoor
        area, or any area through an open or broken window (cached per barrier state)."""
        self.open_adjacency()
        return self._vent_to

    def _vents_of(self, i: int) -> frozenset[int]:
        rooms, areas = self.rooms, self.areas
        out = [j for j, barrier in self._adj[i] if barrier.passable
               and (rooms[areas[j].room].outdoors or barrier.kind is BarrierKind.WINDOW)]
        return frozenset(out) if out else _NO_VENTS

    def _barrier_changed(self, barrier: Barrier) -> None:
        """A barrier's passability changed: a new epoch; the open adjacency is patched at its
        two areas (when it was current) rather than rebuilt."""
        current = self._open_epoch == self._epoch
        self._epoch += 1
        self._changes.append((self._epoch, barrier))
        if not current:
            return
        for i in (barrier.a, barrier.b):
            self._open[i] = [j for j, bar in self._adj[i] if bar.passable]
            self._vent_to[i] = self._vents_of(i)
        k = self._gate_pos.get(barrier.index)
        if k is not None:
            self._gate_state[k] = barrier.passable
        self._open_epoch = self._epoch

    def check_barriers(self) -> None:
        """Notice barriers changed without :meth:`open_barrier`, :meth:`close_barrier` or
        :meth:`destroy_barrier` (a restored save): the round calls this once at its start."""
        if self._open_epoch == self._epoch and [b.passable for b in self._gates] != self._gate_state:
            self._epoch += 1
            self._blind_epoch = self._epoch

    def changes_since(self, epoch: int) -> list[Barrier] | None:
        """The barriers changed since ``epoch``, so a cache can drop only what they touch; None
        when some change since then is not known barrier by barrier."""
        if epoch < self._blind_epoch:
            return None
        out = []
        for when, barrier in reversed(self._changes):
            if when <= epoch:
                break
            out.append(barrier)
        return out

    def vents_from(self, i: int) -> bool:
        """Can smoke from area ``i`` reach open air at all: is an outdoor area, or an open or
        broken window, in the region open to ``i``? (Cached per barrier state.)"""
        if self._vents_epoch != self._epoch:
            self._find_regions()
        return self._vents[i]

    def vent_flags(self) -> list[bool]:
        """:meth:`vents_from` for every area, by index (do not change the list)."""
        if self._vents_epoch != self._epoch:
            self._find_regions()
        return self._vents

    def open_region(self, i: int) -> tuple[int, bool]:
        """The region open to area ``i`` (through passable barriers): how many areas, and
        whether one of them is outdoors. (Cached per barrier state.)"""
        if self._vents_epoch != self._epoch:
            self._find_regions()
        return self._regions[i]

    def _find_regions(self) -> None:
        adj = self.open_adjacency()
        n = len(self.areas)
        region = [-1] * n
        vents: list[bool] = []
        sizes: list[tuple[int, bool]] = []
        for start in range(n):
            if region[start] >= 0:
                continue
            label = len(vents)
            region[start] = label
            stack = [start]
            members = []
            while stack:
                k = stack.pop()
                members.append(k)
                for j in adj[k]:
                    if region[j] < 0:
                        region[j] = label
                        stack.append(j)
            outdoors = any(self.rooms[self.areas[k].room].outdoors for k in members)
            vents.append(outdoors)
            sizes.append((len(members), outdoors))
        for barrier in self.barriers:
            if barrier.kind is BarrierKind.WINDOW and barrier.passable:
                vents[region[barrier.a]] = True
        self._vents = [vents[r] for r in region]
        self._regions = [sizes[r] for r in region]
        self._vents_epoch = self._epoch

    # -- play-time changes ----------------------------------------------------------------------
    def open_barrier(self, barrier: Barrier) -> bool:
        """Open a door or window; returns whether anything changed."""
        if barrier.kind not in OPENABLE or barrier.destroyed:
            raise RuleError(f"{barrier.describe()} at {barrier.name} cannot be opened",
                            tip="only doors and windows open and close")
        changed = barrier.closed
        barrier.closed = False
        if changed:
            self._barrier_changed(barrier)
        return changed

    def close_barrier(self, barrier: Barrier) -> bool:
        if barrier.kind not in OPENABLE or barrier.destroyed:
            raise RuleError(f"{barrier.describe()} at {barrier.name} cannot be closed",
                            tip="a broken door or window stays open")
        changed = not barrier.closed
        barrier.closed = True
        if changed:
            self._barrier_changed(barrier)
        return changed

    def destroy_barrier(self, barrier: Barrier) -> bool:
        """A destroyed barrier becomes an opening (a floor becomes a hole)."""
        if barrier.destroyed or barrier.kind in ALWAYS_OPEN:
            return False
        barrier.destroyed = True
        self._barrier_changed(barrier)
        return True

    def cut_routes(self, areas: set[int]) -> list[str]:
        """Clear the fuel of routes where they cross ``areas`` (a fire break): each route
        splits into the runs between them (runs of one area are dropped). Returns the names of
        the routes cut."""
        cut, kept = [], []
        for route in self.routes:
            if not areas & set(route.areas):
                kept.append((route.kind, route.areas, route.name))
                continue
            cut.append(route.name)
            runs, run = [], []
            for i in route.areas:
                if i in areas:
                    runs.append(run)
                    run = []
                else:
                    run.append(i)
            runs.append(run)
            runs = [r for r in runs if len(r) > 1]
            for k, r in enumerate(runs):
                kept.append((route.kind, tuple(r), route.name if len(runs) == 1
                             else f"{route.name} ({k + 1})"))
        if cut:
            self.routes = []
            self._routes_at = [[] for _ in self.areas]
            for kind, run, name in kept:
                self.add_route(kind, run, name)
        return cut

    def remove_feature(self, i: int, feature: Feature) -> None:
        area = self.areas[i]
        area.features = area.features - {feature}

    def vertical_neighbour(self, i: int, up: bool) -> tuple[int, Barrier] | None:
        """The area directly above (or below) ``i`` and the floor or link between them."""
        here = self.levels[self.areas[i].level].elevation
        for j, barrier in self._adj[i]:
            if barrier.vertical:
                there = self.levels[self.areas[j].level].elevation
                if (there > here) == up:
                    return j, barrier
        return None

    def burn_out(self, i: int) -> None:
        """The area's fuel is spent: it cannot burn again."""
        area = self.areas[i]
        area.burned_out = True
        area.fuel = 0

    # -- derived structure (networkx) ---------------------------------------------------------
    def graph(self) -> nx.Graph:
        """A fresh networkx view of the current building (areas as nodes, barriers on edges)."""
        import networkx as nx

        g = nx.Graph()
        for area in self.areas:
            g.add_node(area.index, name=area.name, room=area.room, level=area.level,
                       col=area.col, row=area.row, fuel=area.fuel)
        for barrier in self.barriers:
            g.add_edge(barrier.a, barrier.b, barrier=barrier, passable=barrier.passable)
        return g

    def room_graph(self) -> nx.Graph:
        """Rooms as nodes, joined where some barrier between them is passable now."""
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(self.rooms)
        for barrier in self.barriers:
            ra, rb = self.areas[barrier.a].room, self.areas[barrier.b].room
            if ra != rb and barrier.passable:
                g.add_edge(ra, rb)
        return g

    def open_rooms(self, key: str) -> set[str]:
        """Rooms directly open to room ``key`` through a passable barrier."""
        out = set()
        for i in self._room_areas.get(key, []):
            for j, barrier in self._adj[i]:
                other = self.areas[j].room
                if other != key and barrier.passable:
                    out.add(other)
        return out

    def room_vents(self, key: str) -> bool:
        """Does smoke escape from room ``key``? It does when the room is outdoors, or open (through
        any chain of open rooms) to an outdoor room or an open window: the same reading as the
        smoke's own vent search (fuego.world.smoke)."""
        seen = {key}
        queue = deque([key])
        while queue:
            room = queue.popleft()
            if self.rooms[room].outdoors:
                return True
            for i in self._room_areas.get(room, []):
                for j, barrier in self._adj[i]:
                    if not barrier.passable:
                        continue
                    if barrier.kind == BarrierKind.WINDOW:
                        return True
                    other = self.areas[j].room
                    if other not in seen:
                        seen.add(other)
                        queue.append(other)
        return False

    def distances_to_exit(self, passable=None) -> list[int]:
        """Moves from every area to the nearest exit through passable (or openable) barriers.

        ``passable(barrier)`` decides what a walker may cross; by default anything open or a
        door that can be opened. Unreachable areas get a large number.
        """
        if passable is None:
            passable = lambda b: b.passable or (b.kind == BarrierKind.DOOR and not b.destroyed)  # noqa: E731
        far = 10**9
        dist = [far] * len(self.areas)
        queue = deque()
        for area in self.areas:
            if self.is_exit(area.index):
                dist[area.index] = 0
                queue.append(area.index)
        while queue:
            k = queue.popleft()
            for j, barrier in self._adj[k]:
                if dist[j] == far and passable(barrier):
                    dist[j] = dist[k] + 1
                    queue.append(j)
        return dist

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
