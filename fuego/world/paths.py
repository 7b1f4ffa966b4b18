"""Everything derived from a building's graph, in one owner: where things can go.

:class:`Paths` belongs to one :class:`fuego.world.building.Building` (``Building.paths``) and
reads its networkx graph. The building's mutators tell it what changed in the same call, each
bumping ``Building.version``; it patches only what a changed barrier touches (fuel changes no
walk; it only wakes the leaps). Nothing else caches the building. It answers:

- the **open graph**: a networkx graph of the areas and the barriers that let fire, smoke and
  people through now, patched edge by edge, and its adjacency as lists by area;
- **reach** (leaps, a bucket chain's water): the areas within ``n`` moves through the open
  graph, kept per area; **near**: within ``n`` moves of any of several areas; **blast**: an
  explosion's reach, through openings and the barriers it can break;
- **leaps**: per area, the unlit fuel within a leap and each leap's TN, kept while its reach
  stands and no fuel comes back;
- **walls**: per area, the barriers around it that fire cannot pass, with their TNs;
- **vents** (:func:`vents_through`, :meth:`Paths.vents`): whether air from an area reaches open
  air (an outdoor area, or an open or broken window, in its region of the open graph): the one
  answer smoke and breath read; **smoke reach** (:class:`SmokeWalks`): the areas nearest a
  smoking fire and whether its walk meets open air;
- **the way out**: moves to the nearest exit (``nx.multi_source_dijkstra_path_length`` over
  what a walker may cross) and the heroes' cost of it through fire (:meth:`Paths.exit_costs`,
  kept for the last fires asked);
- **rooms**: the room graph (rooms as nodes, the barriers between them on edges), which rooms
  are open to which, and whether a room's air reaches outside;
- **sight lines** (:meth:`Paths.line`, :meth:`Paths.sightlines`): the straight line from the
  middle of one area to another on its level, the areas it crosses with the feet of it in
  each, and the first barrier on it one cannot see through (fuego.engine.sight reads smoke
  and fires over them).

networkx walks the graph (components, Dijkstra with a cutoff); three walks asked thousands of
times a run have a fast path here, and only here, each saying why: reach, the heroes' costs
and the smoke's walks (docs/performance.md).
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Set
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING

import networkx as nx

from fuego.rules.charts import AREA_FEET
from fuego.rules.formulas import leap_tn
from fuego.world.places import Area, Barrier, BarrierKind, Feature

if TYPE_CHECKING:
    from fuego.world.building import Building

_NO_LEAPS: list[tuple[int, int, int]] = []
_NO_AREAS: frozenset[int] = frozenset()
#: reach kept for at most this many areas (a huge front would otherwise keep one per fire)
_REACH_KEPT = 4096


#: From an area's middle to its side: where a look out of an area starts to cross the next one.
HALF_AREA_FEET = AREA_FEET / 2


@dataclass(frozen=True, slots=True)
class Sightline:
    """A look from the middle of one area towards another: on its level the straight line
    between their middles; to the level above or below, only across the link between the two.

    ``pieces``: the areas the line runs through before it reaches the target, each with the
    feet of the line inside it (the viewer's own area first, from its middle; the target's
    own area not at all: an area is seen from its near side). ``feet``: their sum, the distance
    to the target's near side. ``stop``: the first barrier on the way one cannot see through
    (a wall, a shut door, a floor); ``gap``: the line leaves the plan (no area there, no
    barrier), or the target is on another level with no link to it; ``blurs``: it passes a
    papered window (shapes only)."""

    pieces: tuple[tuple[int, float], ...] = ()
    stop: Barrier | None = None
    gap: bool = False
    blurs: bool = False

    @property
    def clear(self) -> bool:
        """Nothing on the way blocks the view (smoke aside: fuego.engine.sight)."""
        return self.stop is None and not self.gap

    @property
    def feet(self) -> float:
        return sum(feet for _, feet in self.pieces)


def walk_step(barrier: Barrier) -> float | None:
    """Moves a walker spends crossing ``barrier``: one, one more to open a closed door, two
    more dropping through a hole; None where it cannot be walked through (walls, closed
    windows, floors, locked doors)."""
    if barrier.kind is BarrierKind.FLOOR and not barrier.destroyed:
        return None
    if not barrier.passable and (barrier.kind is not BarrierKind.DOOR or barrier.locked):
        return None
    step = 1.0 + (0 if barrier.passable else 1.0)
    if barrier.destroyed and barrier.kind is BarrierKind.FLOOR:
        step += 2.0  # dropping through a hole
    return step




def vents_through(barrier: Barrier, beyond_outdoors: bool) -> bool:
    """Does air reach open air crossing ``barrier`` into the area beyond (outdoors or not)?
    Through anything open into an outdoor area, or through an open or broken window. The one
    reading of a vent (003, Smoke; docs/rules.md): regions, rooms and smoke walks use it."""
    return barrier.passable and (beyond_outdoors or barrier.kind is BarrierKind.WINDOW)


def _leap_cost(paths: Paths, src: Area, dst: Area, moves: int) -> int:
    """The leap TN from ``src`` to ``dst`` ``moves`` away (:func:`fuego.rules.formulas.leap_tn`
    of the squares and levels between)."""
    levels = paths.levels
    rise = abs(levels[dst.level].elevation - levels[src.level].elevation)
    return leap_tn(abs(src.col - dst.col), abs(src.row - dst.row), rise, moves)


class Paths:
    """Everything derived from one building (see the module docstring): its one owner.

    The building's mutators tell it what changed in the same call (:meth:`barrier_changed`,
    :meth:`area_changed`, :meth:`features_changed`, :meth:`routes_changed`, :meth:`rebuilt`),
    each bumping :attr:`version` (``Building.version``). A barrier change is noted at once and
    applied at the next ask, so a round that breaks many barriers patches once."""

    __slots__ = ("graph", "levels", "areas", "barriers", "rooms", "room_areas", "version",
                 "_changed", "_rebuilt", "_fuel_back",
                 "_nbrs", "_lists", "_open", "_walls", "_reach", "_regions",
                 "_room_vents", "_rooms", "_exits", "_exit_set", "_steps", "_exit_memo",
                 "_leaps", "_leap_steps", "_leap_near", "_leap_looked", "_smoke",
                 "_at", "_sight", "_faces", "_look_steps", "_burnable")
    _exits: list[int] | None
    _exit_memo: tuple[Mapping[int, float], list[float]] | None

    def __init__(self, building: Building) -> None:
        # The building's parts, not the building: it holds this (no reference cycle to collect)
        self.graph, self.levels = building.graph, building.levels
        self.areas, self.barriers, self.rooms = building.areas, building.barriers, building.rooms
        self.room_areas: dict[str, list[int]] = building.room_index()
        self.version = 0
        self._changed: list[Barrier] = []  # barriers changed since the last ask
        self._fuel_back: set[int] = set()  # areas whose fuel changed since the last leap ask
        self._smoke: SmokeWalks | None = None
        self._reset()

    def __getstate__(self) -> dict:
        # (a forecast unpickles one per run: its walks come ready made; the smoke's are made
        # again where they are asked for)
        self._settle()
        state = {name: getattr(self, name) for name in self.__slots__}
        state["_smoke"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    # -- what the building tells it, in the same call as the change -----------------------------
    def barrier_changed(self, barrier: Barrier) -> None:
        """A barrier opened, closed or broke."""
        self.version += 1
        self._changed.append(barrier)

    def area_changed(self, i: int) -> None:
        """Area ``i``'s fuel changed (burned out, given or taken): where a fire may leap, and
        what in its room can burn."""
        self.version += 1
        self._fuel_back.add(i)
        if self._burnable is not None:
            area = self.areas[i]
            here = self._burnable.setdefault(area.room, set())
            if area.burnable:
                here.add(i)
            else:
                here.discard(i)

    def features_changed(self, i: int) -> None:
        """Area ``i`` gained or lost a feature (an exit among them)."""
        self.version += 1
        self._exits = None
        self._exit_memo = None

    def routes_changed(self) -> None:
        """A route was added or cut (routes are read from the areas: nothing here follows)."""
        self.version += 1

    def rebuilt(self) -> None:
        """The graph's shape changed (construction): everything starts over at the next ask."""
        self.version += 1
        self._rebuilt = True

    def _settle(self) -> None:
        """Apply what the building said since the last ask."""
        if self._rebuilt:
            self._reset()
        elif self._changed:
            changed, self._changed = self._changed, []
            self._barriers_changed(changed)

    def _reset(self) -> None:
        g = self.graph
        self._rebuilt = False
        self._changed = []
        self._nbrs: list[list[tuple[int, Barrier]]] = [
            [(j, data["barrier"]) for j, data in g.adj[i].items()] for i in g]
        self._open = nx.Graph()
        self._open.add_nodes_from(g)
        self._open.add_edges_from((bar.a, bar.b) for bar in self.barriers if bar.passable)
        self._lists: list[list[int]] = [list(self._open.adj[i]) for i in range(len(self.areas))]
        self._walls: dict[int, list[tuple[int, int, int | None, int | None]]] = {}
        self._reach: dict[int, tuple[int, dict[int, int], list[int]]] = {}
        self._regions: tuple[list[bool], list[tuple[int, bool]]] | None = None
        self._room_vents: dict[str, bool] = {}
        self._rooms: nx.MultiGraph | None = None
        self._exits = None
        self._exit_set: frozenset[int] = frozenset()
        self._steps: list[list[tuple[int, float]]] | None = None
        self._exit_memo = None
        self._leaps: dict[int, list[tuple[int, int, int]]] = {}
        self._leap_steps = -1
        self._leap_near: set[int] | None = None
        self._leap_looked = False  # whether _leap_near was looked for since the last change
        self._at = {(a.level, a.col, a.row): a.index for a in self.areas}
        self._sight: dict[int, dict[int, Sightline]] = {}
        self._faces: dict[int, tuple[int, ...]] | None = None
        self._burnable: dict[str, set[int]] | None = None
        self._look_steps: list[tuple[tuple[int, bool], ...]] | None = None
        if self._smoke is not None:
            self._smoke.reset()

    def _barriers_changed(self, changed: list[Barrier]) -> None:
        og = self._open
        sides: set[int] = set()
        for barrier in changed:
            a, b = barrier.a, barrier.b
            sides.update((a, b))
            if barrier.passable:
                og.add_edge(a, b)
            elif og.has_edge(a, b):
                og.remove_edge(a, b)
        for i in sides:
            self._walls.pop(i, None)
            self._lists[i] = list(og.adj[i])
        self._reach = {i: known for i, known in self._reach.items()
                       if sides.isdisjoint(known[1])}
        # what is known of unlit fuel within a leap stands where the reach does
        self._leaps = {i: live for i, live in self._leaps.items() if i in self._reach}
        self._leap_looked = False
        self._regions = None
        self._room_vents.clear()
        self._rooms = None
        self._exit_memo = None
        self._sight.clear()  # (a door opened anywhere may open a view from anywhere)
        self._faces = None
        self._look_steps = None
        if self._steps is not None:
            for i in sides:
                self._steps[i] = self._steps_at(i)
        if self._smoke is not None:
            self._smoke.barriers_changed(changed, sides)

    # -- neighbours ----------------------------------------------------------------------------
    def neighbours(self, i: int) -> list[tuple[int, Barrier]]:
        """Every neighbour of area ``i`` with the barrier between, in the graph's order."""
        if self._rebuilt:
            self._settle()
        return self._nbrs[i]

    def open_graph(self) -> nx.Graph:
        """The areas and the edges fire, smoke and people pass now (do not change it)."""
        if self._changed or self._rebuilt:
            self._settle()
        return self._open

    def open_lists(self) -> list[list[int]]:
        """:meth:`open_graph`'s adjacency as lists by area (do not change them)."""
        if self._changed or self._rebuilt:
            self._settle()
        return self._lists

    def walls(self, i: int) -> list[tuple[int, int, int | None, int | None]]:
        """The barriers around area ``i`` that fire cannot pass: (area beyond, barrier index,
        burn-through TN, destruction TN)."""
        if self._changed or self._rebuilt:
            self._settle()
        walls = self._walls.get(i)
        if walls is None:
            walls = self._walls[i] = [(j, w.index, w.pass_through_tn, w.destruction_tn)
                                      for j, w in self._nbrs[i] if not w.passable]
        return walls

    # -- reach ---------------------------------------------------------------------------------
    def reach(self, i: int, steps: int) -> tuple[dict[int, int], list[int]]:
        """The areas within ``steps`` moves of ``i`` through the open graph (area -> moves),
        and the same areas in index order. Kept per area until a barrier near them changes.

        What ``nx.single_source_shortest_path_length(open_graph, i, cutoff=steps)`` answers (a
        test checks it), walked breadth first over :meth:`open_lists`: a tavern forecast asks
        ~300 a run, and networkx's views cost twice the walk (docs/performance.md)."""
        if self._changed or self._rebuilt:
            self._settle()
        known = self._reach.get(i)
        if known is not None and known[0] == steps:
            return known[1], known[2]
        dist = {i: 0}
        frontier, adj, d = [i], self._lists, 0
        while frontier and d != steps:
            d += 1
            nxt = []
            for k in frontier:
                for j in adj[k]:
                    if j not in dist:
                        dist[j] = d
                        nxt.append(j)
            frontier = nxt
        if len(self._reach) >= _REACH_KEPT:
            self._reach.clear()
            self._leaps.clear()
        self._reach[i] = (steps, dist, sorted(dist))
        return dist, self._reach[i][2]

    def near(self, sources: Iterable[int], steps: int) -> set[int]:
        """The areas within ``steps`` moves of any of ``sources`` through the open graph."""
        sources = list(sources)
        if not sources:
            return set()
        return set(nx.multi_source_dijkstra_path_length(self.open_graph(), sources,
                                                        cutoff=steps))

    def blast(self, i: int, tn: int, steps: int) -> tuple[dict[int, int], list[int]]:
        """An explosion's reach from area ``i``: the areas within ``steps`` moves (area ->
        moves), through openings and through every barrier whose destruction TN is at most
        ``tn``; and those barriers, in the order the walk meets them (it blows them open). Not
        kept: an explosion happens once."""
        if self._rebuilt:
            self._settle()
        dist = {i: 0}
        queue = deque([i])
        broken: list[int] = []
        seen: set[int] = set()
        while queue:
            k = queue.popleft()
            d = dist[k]
            if d >= steps:
                continue
            for j, barrier in self._nbrs[k]:
                if not barrier.passable:
                    dtn = barrier.destruction_tn
                    if dtn is None or dtn > tn:
                        continue
                    if barrier.index not in seen:
                        seen.add(barrier.index)
                        broken.append(barrier.index)
                if j not in dist:
                    dist[j] = d + 1
                    queue.append(j)
        return dist, broken

    # -- leaps ---------------------------------------------------------------------------------
    def leaps(self, here: int, steps: int,
              burning: Collection[int]) -> list[tuple[int, int, int]]:
        """The unlit fuel a fire in ``here`` could leap to: each area within ``steps`` moves
        that can burn and is not in ``burning``, in index order, with the moves to it and its
        leap TN before modules (:func:`fuego.rules.formulas.leap_tn`). Do not change the list.

        Unlit fuel only goes away while no area is given fuel back (a fire that goes out
        always sets its area's fuel: ``Scene.remove_fire``): each look starts from the
        last one's targets while the area's reach stands (a barrier near it resets it), and an
        area with none is calm until fuel comes back. When there are many more fires than
        unlit areas, the areas within a leap of any unlit fuel are found once, from the fuel,
        and every other area is calm at once (docs/performance.md)."""
        if self._changed or self._rebuilt:
            self._settle()
        if self._fuel_back or steps != self._leap_steps or not self._leap_looked:
            self._look_again(steps, burning)
        near = self._leap_near
        if near is not None and here not in near:
            return _NO_LEAPS
        areas = self.areas
        live = self._leaps.get(here)
        if live is None:
            dist, order = self.reach(here, steps)
            a = areas[here]
            live = [(j, dist[j], _leap_cost(self, a, areas[j], dist[j])) for j in order
                    if areas[j].burnable and j not in burning]
        elif live:
            live = [t for t in live if t[0] not in burning and areas[t[0]].burnable]
        else:
            return live
        if len(self._leaps) >= _REACH_KEPT:  # a bound on what a huge front may leave behind
            self._leaps.clear()
        self._leaps[here] = live
        return live

    def _look_again(self, steps: int, burning: Collection[int]) -> None:
        """Drop what was known of the leaps where fuel came back (a fire put out early, spilt
        oil) or the reach asked for changed, and find the areas near fuel again."""
        areas = self.areas
        back = [i for i in self._fuel_back if areas[i].burnable and i not in burning]
        self._fuel_back.clear()
        if back or steps != self._leap_steps:
            self._leaps.clear()
            self._leap_steps, self._leap_looked = steps, False
        if not self._leap_looked:
            self._leap_near, self._leap_looked = self._near_fuel(steps, burning), True

    def _near_fuel(self, steps: int, burning: Collection[int]) -> set[int] | None:
        """The areas within a leap of any unlit fuel when that fuel is scarce (at most one
        area in eight of those burning); None otherwise (the usual case while a fire is
        young: it stops counting once there are too many)."""
        areas = self.areas
        fires = len(burning)
        if fires * 8 < len(areas):
            return None
        most = fires // 8
        unlit = list(islice((i for i, a in enumerate(areas) if a.burnable and i not in burning),
                            most + 1))
        if len(unlit) > most:
            return None
        return self.near(unlit, steps)

    # -- regions and vents ---------------------------------------------------------------------
    def _find_regions(self) -> tuple[list[bool], list[tuple[int, bool]]]:
        if self._changed or self._rebuilt:
            self._settle()
        if self._regions is None:
            areas, rooms, nbrs = self.areas, self.rooms, self._nbrs
            n = len(areas)
            vents = [False] * n
            sizes: list[tuple[int, bool]] = [(0, False)] * n
            for members in nx.connected_components(self._open):
                outdoors = any(rooms[areas[k].room].outdoors for k in members)
                vented = outdoors or any(vents_through(bar, rooms[areas[j].room].outdoors)
                                         for k in members for j, bar in nbrs[k])
                for k in members:
                    vents[k] = vented
                    sizes[k] = (len(members), outdoors)
            self._regions = vents, sizes
        return self._regions

    def vents(self, i: int) -> bool:
        """Does air from area ``i`` reach open air: is an outdoor area, or an open or broken
        window (:func:`vents_through`), in its region of the open graph? The one answer smoke
        (growing, lingering) and breath (suffocation: :meth:`room_vents`) read."""
        return self._find_regions()[0][i]

    def vent_flags(self) -> list[bool]:
        """:meth:`vents` for every area, by index (do not change the list)."""
        return self._find_regions()[0]

    def open_region(self, i: int) -> tuple[int, bool]:
        """The region of the open graph holding ``i``: how many areas, and whether one of them
        is outdoors."""
        return self._find_regions()[1][i]

    def room_vents(self, key: str) -> bool:
        """Does room ``key``'s air reach open air: :meth:`vents` for any of its areas (kept per
        room: the suffocation rule asks it of every hero every round)."""
        if self._changed or self._rebuilt:
            self._settle()
        vents = self._room_vents.get(key)
        if vents is None:
            flags = self.vent_flags()
            vents = self._room_vents[key] = any(flags[i] for i in self.room_areas.get(key, ()))
        return vents

    def burnable_in(self, room: str) -> Set[int]:
        """The areas of ``room`` that can burn (fuel left, not burned out): flashover asks it of
        every burning room each round, so it is kept as the fuel changes (:meth:`area_changed`)
        instead of walking the room: cost per change, not per area. Do not change the set."""
        if self._rebuilt:
            self._settle()
        known = self._burnable
        if known is None:
            known = self._burnable = {key: set() for key in self.rooms}
            for area in self.areas:
                if area.burnable:
                    known.setdefault(area.room, set()).add(area.index)
        return known.get(room) or _NO_AREAS

    def smoke_reach(self, asks: list[tuple[int, int]]) -> list[tuple[list[int], bool]]:
        """For each ``(start, cover)``: the ``cover`` areas nearest ``start`` through the open
        graph (ties by index) and whether the smoke from there meets open air on its walk
        (:class:`SmokeWalks`; each list may be kept for the next ask: do not change it)."""
        if self._changed or self._rebuilt:
            self._settle()
        if self._smoke is None:
            self._smoke = SmokeWalks(self)
        return self._smoke.reach_all(asks)

    # -- the way out ---------------------------------------------------------------------------
    def exits(self) -> list[int]:
        """Areas marked ``exit``; where none is marked, every outdoor area is a way out."""
        if self._rebuilt:
            self._settle()
        if self._exits is None:
            areas, rooms = self.areas, self.rooms
            marked = [a.index for a in areas if Feature.EXIT in a.features]
            self._exits = marked or [a.index for a in areas if rooms[a.room].outdoors]
            self._exit_set = frozenset(self._exits)
        return self._exits

    def is_exit(self, i: int) -> bool:
        self.exits()
        return i in self._exit_set

    def distances_to_exit(self, passable: Callable[[Barrier], bool] | None = None) -> list[int]:
        """Moves from every area to the nearest exit through what a walker may cross
        (``passable(barrier)``; by default anything open or a door that can be opened).
        Unreachable areas get a large number."""
        if passable is None:
            def passable(bar: Barrier) -> bool:
                return bar.passable or (bar.kind is BarrierKind.DOOR and not bar.locked)
        g = self.graph
        # (g.adj, not g.edges: that view would hold the graph in a reference cycle)
        view = nx.subgraph_view(g, filter_edge=lambda u, v: passable(g.adj[u][v]["barrier"]))
        exits = self.exits()
        dist = nx.multi_source_dijkstra_path_length(view, exits) if exits else {}
        far = 10**9
        return [dist.get(i, far) for i in range(len(self.areas))]

    def _steps_at(self, i: int) -> list[tuple[int, float]]:
        out = []
        for j, barrier in self._nbrs[i]:
            step = walk_step(barrier)
            if step is not None:
                out.append((j, step))
        return out

    def exit_costs(self, toll: Mapping[int, float]) -> list[float]:
        """The cost from each area to the nearest exit (:meth:`costs_to` the exits), kept for
        the last ``toll`` asked until a barrier or an exit changes (the automatic heroes ask
        it for every choice; do not change the list)."""
        if self._changed or self._rebuilt:
            self._settle()
        memo = self._exit_memo
        if memo is not None and (memo[0] is toll or memo[0] == toll):
            return memo[1]
        costs = self.costs_to(self.exits(), toll)
        self._exit_memo = (toll, costs)
        return costs

    def costs_to(self, targets: Iterable[int], toll: Mapping[int, float]) -> list[float]:
        """The cost from each area to the nearest of ``targets``: :func:`walk_step` per barrier
        crossed, plus ``toll[k]`` for stepping into area ``k`` (the heroes' way: the fire there).

        Dijkstra from the targets outward, over the walker's steps kept per barrier state: what
        ``nx.multi_source_dijkstra_path_length`` over the walkable graph answers (a test checks
        it), but a hero's choice asks it every phase, and a weight function per edge through
        networkx costs several times this."""
        if self._changed or self._rebuilt:
            self._settle()
        if self._steps is None:
            self._steps = [self._steps_at(i) for i in range(len(self.areas))]
        steps = self._steps
        cost = [float("inf")] * len(steps)
        heap = []
        for i in targets:
            cost[i] = 0.0
            heap.append((0.0, i))
        heapq.heapify(heap)
        pop, push, toll_at = heapq.heappop, heapq.heappush, toll.get
        while heap:
            c, k = pop(heap)
            if c > cost[k]:
                continue
            c += toll_at(k, 0.0)  # stepping from a neighbour into k
            for j, step in steps[k]:
                if c + step < cost[j]:
                    cost[j] = c + step
                    push(heap, (c + step, j))
        return cost

    # -- sight lines ---------------------------------------------------------------------------
    def line(self, i: int, j: int) -> Sightline:  # noqa: C901
        """The look from area ``i`` to area ``j`` (:class:`Sightline`). On one level the line
        runs between the areas' middles; where it passes exactly through a corner it goes by
        whichever of the two areas beside the corner leaves the view open."""
        if self._changed or self._rebuilt:
            self._settle()
        a, b = self.areas[i], self.areas[j]
        if i == j:
            return Sightline()
        if a.level != b.level:
            data = self.graph.get_edge_data(i, j)
            barrier: Barrier | None = None if data is None else data["barrier"]
            if barrier is None or not barrier.vertical:
                return Sightline(gap=True)
            return Sightline(((i, HALF_AREA_FEET),),
                             stop=None if barrier.see_through else barrier)
        steps_of = self._looks()
        dx, dy = b.col - a.col, b.row - a.row
        nx_, ny_ = abs(dx), abs(dy)
        # the side of an area the line leaves by: 0 east, 1 west, 2 south, 3 north
        xs, ys = (0 if dx > 0 else 1), (2 if dy > 0 else 3)
        length = math.hypot(dx, dy) * AREA_FEET
        # The line leaves the k-th column at t = (2k - 1) / 2|dx| and the m-th row at
        # (2m - 1) / 2|dy|: compared as integers, so a corner is met exactly.
        k = m = 1
        here, t0 = i, 0.0
        pieces: list[tuple[int, float]] = []
        blurs = False
        barriers = self.barriers
        while here != j:
            x_first = (2 * k - 1) * ny_ if k <= nx_ else None
            y_first = (2 * m - 1) * nx_ if m <= ny_ else None
            if y_first is None or (x_first is not None and x_first < y_first):
                t = (2 * k - 1) / (2 * nx_)
                k += 1
                ways: tuple[tuple[int, ...], ...] = ((xs,),)
            elif x_first is None or y_first < x_first:
                t = (2 * m - 1) / (2 * ny_)
                m += 1
                ways = ((ys,),)
            else:  # through a corner: by either area beside it
                t = (2 * k - 1) / (2 * nx_)
                k += 1
                m += 1
                ways = ((xs, ys), (ys, xs))
            pieces.append((here, (t - t0) * length))
            t0 = t
            nxt = -1
            first_stop = -1
            for way in ways:
                cur, way_blurs = here, False
                for side in way:
                    step, blur = steps_of[cur][side]
                    if step < 0:
                        if first_stop == -1:
                            first_stop = step
                        cur = -1
                        break
                    cur, way_blurs = step, way_blurs or blur
                if cur >= 0:
                    nxt, blurs = cur, blurs or way_blurs
                    break
            if nxt < 0:
                stop = barriers[-first_stop - 2] if first_stop <= -2 else None
                return Sightline(tuple(pieces), stop=stop, gap=stop is None)
            here = nxt
        return Sightline(tuple(pieces), blurs=blurs)

    def _looks(self) -> list[tuple[tuple[int, bool], ...]]:
        """Per area, across each side (east, west, south, north): the area beyond if one sees
        into it (and whether a papered window blurs it), else -2 - the index of the barrier
        in the way, or -1 where there is no area or no edge. Made once per barrier change."""
        looks = self._look_steps
        if looks is None:
            at, edge = self._at, self.graph.get_edge_data
            looks = []
            for a in self.areas:
                row = []
                for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    j = at.get((a.level, a.col + dc, a.row + dr))
                    data = None if j is None else edge(a.index, j)
                    if j is None or data is None:
                        row.append((-1, False))
                        continue
                    bar: Barrier = data["barrier"]
                    row.append((j, bar.blurs) if bar.see_through else (-2 - bar.index, False))
                looks.append(tuple(row))
            self._look_steps = looks
        return looks

    def sightlines(self, i: int) -> dict[int, Sightline]:  # noqa: C901
        """Every area a look from area ``i`` reaches unblocked (smoke aside), ``i`` itself
        included: the areas on its level whose line is clear, and those across an open link
        above or below. Kept per area until a barrier changes (do not change it)."""
        if self._changed or self._rebuilt:
            self._settle()
        known = self._sight.get(i)
        if known is not None:
            return known
        level = self.areas[i].level
        # Only areas joined to i by see-through barriers on its level can be in view: a line
        # crosses only such barriers, area to side-by-side area.
        region = {i}
        queue = deque([i])
        while queue:
            k = queue.popleft()
            for j, barrier in self._nbrs[k]:
                if j not in region and barrier.see_through and not barrier.vertical \
                        and self.areas[j].level == level:
                    region.add(j)
                    queue.append(j)
        out: dict[int, Sightline] = {}
        for j in sorted(region):
            line = self.line(i, j)
            if line.clear:
                out[j] = line
        for j, barrier in self._nbrs[i]:
            if barrier.vertical and barrier.see_through:
                out[j] = self.line(i, j)
        if len(self._sight) >= _REACH_KEPT:
            self._sight.clear()
        self._sight[i] = out
        return out

    def faces(self) -> dict[int, tuple[int, ...]]:
        """The building's outside as seen from outdoors: every outdoor area (itself), and every
        indoor area behind a barrier one sees through to an outdoor area on its level (a window,
        an open or broken door), with those outdoor areas (do not change it)."""
        if self._changed or self._rebuilt:
            self._settle()
        if self._faces is None:
            rooms, areas = self.rooms, self.areas
            faces: dict[int, tuple[int, ...]] = {}
            for a in areas:
                if rooms[a.room].outdoors:
                    faces[a.index] = (a.index,)
                    continue
                out = tuple(j for j, bar in self._nbrs[a.index]
                            if rooms[areas[j].room].outdoors and bar.see_through
                            and not bar.vertical)
                if out:
                    faces[a.index] = out
            self._faces = faces
        return self._faces

    # -- rooms ---------------------------------------------------------------------------------
    def room_graph(self) -> nx.MultiGraph:
        """Rooms as nodes; an edge per barrier between two rooms, keyed by the barrier's index,
        with its ``barrier``, ``kind`` and ``state`` (do not change it)."""
        if self._changed or self._rebuilt:
            self._settle()
        if self._rooms is None:
            b = self
            g = nx.MultiGraph()
            for key, room in b.rooms.items():
                g.add_node(key, room=room)
            for barrier in b.barriers:
                ra, rb = b.areas[barrier.a].room, b.areas[barrier.b].room
                if ra != rb:
                    g.add_edge(ra, rb, key=barrier.index, barrier=barrier, kind=barrier.kind,
                               state=barrier.state)
            self._rooms = g
        return self._rooms

    def open_rooms(self, key: str) -> set[str]:
        """Rooms directly open to room ``key`` through a passable barrier."""
        g = self.room_graph()
        if key not in g:
            return set()
        return {other for other, edges in g.adj[key].items()
                if any(data["barrier"].passable for data in edges.values())}


class _Walk:
    """One walk: ``balls[L]`` holds the areas within ``L`` moves, ``counts[L]`` how many;
    ``vent_level`` is where a vent was met (-1: not yet); ``cover`` how far it walks (see
    :meth:`SmokeWalks._walk_on`); ``order`` the areas in order, as far as asked."""

    __slots__ = ("balls", "counts", "vent_level", "cover", "done", "order", "upto", "answers")

    def __init__(self, start: int, cover: int, outdoors: bool) -> None:
        self.balls = [1 << start]
        self.counts = [1]
        self.vent_level = 0 if outdoors else -1
        self.cover = cover
        self.done = False
        self.order: list[int] = []
        self.upto = 0  # levels read into order
        self.answers: dict[int, tuple[list[int], bool]] = {}  # cover -> SmokeWalks._replay's

    def first(self, cover: int) -> list[int]:
        """The first ``cover`` areas in order (whole levels, lowest index first)."""
        order, balls = self.order, self.balls
        while len(order) < cover and self.upto < len(balls):
            k = self.upto
            m = balls[k] & ~balls[k - 1] if k else balls[0]
            while m:
                low = m & -m
                order.append(low.bit_length() - 1)
                m ^= low
            self.upto = k + 1
        return order[:cover]

    def cut(self, level: int) -> None:
        """Forget everything beyond ``level``."""
        del self.balls[level + 1:]
        del self.counts[level + 1:]
        if self.vent_level > level:
            self.vent_level = -1
        self.done = False
        self.answers = {}
        if self.upto > level + 1:  # the order read so far reaches past the cut
            self.order, self.upto = [], 0


class SmokeWalks:
    """Where smoke from an area goes: breadth-first walks through the open graph.

    A walk from an area finds the areas open to it level by level (ties by area index) and the
    level at which the smoke meets open air (:func:`vents_through`): an outdoor area, or an area
    entered through an open or broken window. It is part of :class:`Paths`, which tells it of
    every barrier change, and the fast path lives only here: a forecast's smoke asks thousands
    of walks a round (docs/performance.md). Walks are kept per area while barriers change: a
    change the walk never looked through leaves it whole; otherwise its levels up to the nearer
    side of the change still stand (it looked through the barrier only from there), so it is
    cut back to them and walks on from there when next asked. Sets of areas are Python
    integers (bit ``i``: area ``i``): a level costs one mask per area found rather than a set
    insertion per barrier.
    """

    __slots__ = ("paths", "_nbr", "_outdoor", "_windows", "_window_edges", "_walks",
                 "_prefixes")

    def __init__(self, paths: Paths) -> None:
        self.paths = paths
        self.reset()

    def reset(self) -> None:
        """Start over from the open graph as it is. Nothing is walked yet: each area's mask,
        the outdoor areas and the open windows are found when a walk first needs them (a mask
        is as long as its area's index: one for every area of a 100,000-area field would take
        ~600 MB and most are never walked)."""
        self._nbr = _Masks(self.paths.open_lists())
        self._outdoor: int | None = None
        self._windows: list[Barrier] | None = None
        self._walks: dict[int, _Walk] = {}  # per area, where the vent must be looked for
        self._prefixes: dict[int, tuple] = {}  # per area, where it need not (see reach)
        self._window_edges: list[tuple[int, int]] | None = None  # (k, j): open, from k to j

    def _outdoors(self) -> int:
        """The outdoor areas as a mask (read from the rooms: cost per outdoor area)."""
        if self._outdoor is None:
            paths = self.paths
            self._outdoor = sum(1 << i for key, room in paths.rooms.items() if room.outdoors
                                for i in paths.room_areas.get(key, ()))
        return self._outdoor

    def reach_all(self, asks: list[tuple[int, int]]) -> list[tuple[list[int], bool]]:
        """:meth:`reach` for each ``(start, cover)``: a big fire asks it of thousands of areas,
        most with no vent to look for (the cheap case, done here without a call)."""
        vents = self.paths.vent_flags()
        prefixes, reach = self._prefixes, self.reach
        out = []
        for start, cover in asks:
            prefix = None if vents[start] else prefixes.get(start)
            if prefix is not None and (len(prefix[0]) >= cover or prefix[1]):
                out.append((prefix[0][:cover], False))
            else:
                out.append(reach(start, cover, vents))
        return out

    def reach(self, start: int, cover: int,
              vents_all: list[bool] | None = None) -> tuple[list[int], bool]:
        """The ``cover`` areas nearest ``start`` and whether smoke from there vents (the list
        may be kept for the next ask: do not change it). ``vents_all``: the paths'
        ``vent_flags()`` when the caller has just asked for them (and so caught up)."""
        paths = self.paths
        if vents_all is None:
            vents_all = paths.vent_flags()
        walk = self._walks.get(start)
        if walk is not None and walk.done:
            # Asked before and still standing: where the smoke can vent, walking finds what the
            # shortcuts below find (those only skip the walk), so the answer holds either way.
            answer = walk.answers.get(cover)
            if answer is not None:
                return answer
        vents = vents_all[start]
        if vents:
            size, outdoors = paths.open_region(start)
            if not (outdoors and size <= 4 * cover + 64):
                return self._replay(start, cover)
            # An outdoor area is open to the fire and the whole open region lies within the
            # walk's bound: the walk cannot stop short of it, so the smoke vents, and its areas
            # are the first ``cover`` of the same order as where nothing vents.
        # No vent to look for (or one surely met): the walk stops at the cover, and a longer
        # cover only walks further; the areas are the first ``cover`` of one order.
        prefix = self._prefixes.get(start)
        if prefix is None or (len(prefix[0]) < cover and not prefix[1]):
            prefix = self._prefixes[start] = self._nearest(start, cover + 8)
        return prefix[0][:cover], vents

    # -- walks ---------------------------------------------------------------------------------
    def _replay(self, start: int, cover: int) -> tuple[list[int], bool]:
        """The walk from ``start`` replayed for ``cover``: a walk for a larger cover went at
        least as far, and its first levels are the same."""
        walk = self._walks.get(start)
        if walk is None:
            walk = self._walks[start] = _Walk(start, cover + 8,
                                                  bool(self._outdoors() >> start & 1))
        else:
            answer = walk.answers.get(cover) if walk.done else None
            if answer is not None:
                return answer
            if walk.cover < cover:
                walk.cover, walk.done = cover + 8, False
        if not walk.done:
            self._walk_on(walk)
        counts, vent_level = walk.counts, walk.vent_level
        n, level = 1, 0
        vents = vent_level == 0
        while n < cover or not vents:
            if level + 1 >= len(counts):
                break
            level += 1
            before, n = n, counts[level]
            vents = 0 <= vent_level <= level
            if n == before or n > 4 * cover + 64:
                break
        answer = walk.answers[cover] = walk.first(cover), vents
        return answer

    def _walk_on(self, walk: _Walk) -> None:
        """Breadth first from where ``walk`` stopped, a level at a time, until ``cover`` areas
        are found and a vent is met, or more than ``4 * cover + 64`` areas are found (far
        enough to know; big fields stay cheap), or nothing is left."""
        cover = walk.cover
        bound = 4 * cover + 64
        balls, counts = walk.balls, walk.counts
        nbr, outdoor, window_edges = self._nbr, self._outdoors(), self._windows_open()
        seen = balls[-1]
        frontier = seen & ~balls[-2] if len(balls) > 1 else seen
        total = counts[-1]
        vent_level = walk.vent_level
        level = len(balls) - 1
        while frontier and (total < cover or vent_level < 0) and total <= bound:
            level += 1
            found = 0
            m = frontier
            while m:  # highest area first: the union is the same in any order
                i = m.bit_length() - 1
                found |= nbr[i]
                m ^= 1 << i
            new = found & ~seen
            if vent_level < 0 and new:
                if new & outdoor:
                    vent_level = level
                else:  # an area entered through an open window from the level before
                    for k, j in window_edges:
                        if new >> j & 1 and frontier >> k & 1:
                            vent_level = level
                            break
            seen |= new
            total += new.bit_count()
            balls.append(seen)
            counts.append(total)
            frontier = new
        walk.vent_level = vent_level
        walk.done = True

    def _nearest(self, start: int, cover: int) -> tuple[list[int], bool, int]:
        """The first ``cover`` (or more) areas in the walks' order from ``start``, whether that
        is every area open to it, and how many of them (the first) it looked around; no vent
        is looked for. (Lists, not masks: a big field keeps one per fire.)"""
        adj = self.paths.open_lists()
        seen = {start}
        order = [start]
        frontier = [start]
        looked = 0
        while frontier and len(order) < cover:
            looked = len(order)
            nxt = []
            for k in frontier:
                for j in adj[k]:
                    if j not in seen:
                        seen.add(j)
                        nxt.append(j)
            nxt.sort()
            order.extend(nxt)
            frontier = nxt
        return order, not frontier, looked

    # -- barrier changes -----------------------------------------------------------------------
    def barriers_changed(self, changed: list[Barrier], sides: set[int]) -> None:
        """The paths' open graph changed at ``changed`` (the areas beside them: ``sides``):
        patch those areas' open masks, cut back or drop the walks that looked through them."""
        mask = 0
        for i in sides:
            mask |= 1 << i
            self._nbr.pop(i, None)  # (made again from the patched lists when next walked)
        self._window_edges = None
        for walk in self._walks.values():
            balls = walk.balls
            if len(balls) < 2 or not balls[-2] & mask:
                continue  # it never looked through a changed barrier
            if not _levels_stand(balls, changed, self._nbr):
                level = 0
                while not balls[level] & mask:
                    level += 1
                walk.cut(level)
        for start in [s for s, (order, _, looked) in self._prefixes.items()
                      if not sides.isdisjoint(order[:looked])]:
            del self._prefixes[start]

    def _windows_open(self) -> list[tuple[int, int]]:
        """The open windows, as edges both ways (smoke vents through them)."""
        edges = self._window_edges
        if edges is None:
            if self._windows is None:  # (found once: barriers change state, not kind)
                self._windows = [x for x in self.paths.barriers if x.kind is BarrierKind.WINDOW]
            edges = self._window_edges = []
            for w in self._windows:
                if vents_through(w, False):
                    edges += [(w.a, w.b), (w.b, w.a)]
        return edges


class _Masks(dict[int, int]):
    """Each area's open neighbours as a mask (bit ``j``: area ``j``), made on first ask from
    the paths' open lists (:meth:`Paths.open_lists`)."""

    __slots__ = ("lists",)

    def __init__(self, lists: list[list[int]]) -> None:
        super().__init__()
        self.lists = lists

    def __missing__(self, i: int) -> int:
        mask = self[i] = sum(1 << j for j in self.lists[i])
        return mask


def _level(balls: list[int], bit: int) -> int:
    """The level of the area ``bit`` in a walk (len(balls): beyond it)."""
    level = 0
    for ball in balls:
        if ball & bit:
            return level
        level += 1
    return level


def _levels_stand(balls: list[int], changed: list[Barrier], nbr: Mapping[int, int]) -> bool:
    """Would the walk find every area at the same level after the ``changed`` barriers?

    Only the areas whose neighbours it looked at (up to ``balls[-2]``) matter. A barrier there
    may open between areas at most one level apart (no shortcut), or close where the farther
    area keeps an open neighbour (``nbr``: now) one level nearer; then the counts and where an
    outdoor area is met, or a window crossed from one level to the next, stand too; a changed
    window does not.
    """
    looked = balls[-2]
    for barrier in changed:
        a, b = 1 << barrier.a, 1 << barrier.b
        if not looked & (a | b):
            continue
        if barrier.kind is BarrierKind.WINDOW:
            return False
        la, lb = _level(balls, a), _level(balls, b)
        if la == lb:
            continue
        if la - lb not in (1, -1):
            return False  # a shortcut, or to an area the walk never found (beyond its last)
        far, near = (barrier.a, lb) if la > lb else (barrier.b, la)
        if not barrier.passable:
            ring = balls[near] & ~balls[near - 1] if near else balls[0]
            if not nbr[far] & ring:
                return False
    return True
