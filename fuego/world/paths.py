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
  stands and no fuel comes back near it (:meth:`Paths.leaps_all`: many fires' at once);
- **walls**: per area, the barriers around it that fire cannot pass, with their TNs
  (:meth:`Paths.walls_all`: many areas' at once);
- **vents** (:func:`vents_through`, :meth:`Paths.vents`): whether air from an area reaches open
  air (an outdoor area, or an open or broken window, in its region of the open graph): the one
  answer smoke and breath read, however far the vent lies; **smoke reach**
  (:meth:`Paths.smoke_reach`): the areas nearest each smoking fire (:meth:`Paths.nearest`)
  and whether its air vents;
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
and the smoke's nearest areas (docs/performance.md).
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING

import networkx as nx

from fuego.rules.charts import AREA_FEET
from fuego.rules.formulas import leap_tn
from fuego.world.places import Barrier, BarrierKind, Feature

if TYPE_CHECKING:
    from fuego.world.building import Building

_NO_LEAPS: list[tuple[int, int, int]] = []
_NO_WALLS: list[tuple[int, int, int | None, int | None]] = []  # (shared: most areas have none)
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


#: The fewest moves any walker's step costs (:func:`walk_step`).
LEAST_STEP = 1.0


def walk_step(barrier: Barrier) -> float | None:
    """Moves a walker spends crossing ``barrier``: one, one more to open a closed door, two
    more dropping through a hole; None where it cannot be walked through (walls, closed
    windows, floors, locked doors)."""
    kind, destroyed = barrier.kind, barrier.destroyed
    if kind is BarrierKind.FLOOR and not destroyed:
        return None
    passable = barrier.passable
    if not passable and (kind is not BarrierKind.DOOR or barrier.locked):
        return None
    step = LEAST_STEP + (0 if passable else 1.0)
    if destroyed and kind is BarrierKind.FLOOR:
        step += 2.0  # dropping through a hole
    return step




def vents_through(barrier: Barrier, beyond_outdoors: bool) -> bool:
    """Does air reach open air crossing ``barrier`` into the area beyond (outdoors or not)?
    Through anything open into an outdoor area, or through an open or broken window. The one
    reading of a vent (003, Smoke; docs/rules.md): the regions' answer (:meth:`Paths.vents`) and
    so the rooms' and the smoke's use it."""
    return barrier.passable and (beyond_outdoors or barrier.kind is BarrierKind.WINDOW)


class _Walk:
    """A Dijkstra from some areas outward (:meth:`Paths.costs_to`), carried on only as far as
    the areas asked need: an area's cost is final once the walk has settled it, so asking
    part of the answer gives exactly what the whole walk would. ``order``: the areas settled,
    each as (its cost, the area), in the order settled (the costs never fall along it)."""

    __slots__ = ("cost", "heap", "settled", "toll", "order")

    def __init__(self, n: int, targets: Iterable[int], toll: Mapping[int, float]) -> None:
        self.cost = [math.inf] * n
        self.heap: list[tuple[float, int]] = []
        for i in targets:
            self.cost[i] = 0.0
            self.heap.append((0.0, i))
        heapq.heapify(self.heap)
        self.settled = bytearray(n)
        self.toll = toll
        self.order: list[tuple[float, int]] = []

    def at(self, paths: Paths, areas: Iterable[int]) -> list[float]:
        cost, settled = self.cost, self.settled
        out = []
        for i in areas:
            if not settled[i] and self.heap:
                paths._walk_on(self, i)
            out.append(cost[i])
        return out

    def all(self, paths: Paths) -> list[float]:
        if self.heap:
            paths._walk_on(self, None)
        return list(self.cost)  # (a copy: the walk is carried over to other tolls in place)

    def _stands_below(self, toll: Mapping[int, float]) -> float:
        """The cost below which every settled area keeps its cost under ``toll``: the least,
        over the areas whose toll changed, of the area's cost, a step and its lower toll."""
        old, cost, settled = self.toll, self.cost, self.settled
        floor = self.heap[0][0] if self.heap else math.inf  # (what an unsettled area costs at least)
        nearest = math.inf
        for k in old.keys() | toll.keys():
            was, now = old.get(k, 0.0), toll.get(k, 0.0)
            if was != now:
                bound = (cost[k] if settled[k] else floor) + LEAST_STEP + min(was, now)
                if bound < nearest:
                    nearest = bound
        return nearest

    def retoll(self, paths: Paths, targets: Collection[int], toll: Mapping[int, float]) -> None:
        """Make this the walk for ``toll`` (other tolls than its own), keeping what stands.
        Whatever way out enters an area ``k`` whose toll changed costs at least ``k``'s own
        cost (which its toll does not count), a step, and the lower of its two tolls; every
        area settled below the least such bound keeps its cost (its way out enters no changed
        area, and none through one is cheaper), and no other costs less than those. So those
        stay settled, the rest is unsettled, and the walk carries on from the areas beside
        them: the values are exactly a fresh walk's (a test checks it). The heroes' tolls
        change every phase the fires grow, most often away from the way out."""
        cost, settled, order = self.cost, self.settled, self.order
        keep = bisect_left(order, (self._stands_below(toll), -1))  # (costs never fall along it)
        # the frontier and what was settled from the bound on are walked again
        redo = {k for _, k in self.heap if not settled[k]}
        redo.update(k for _, k in order[keep:])
        del order[keep:]
        for k in redo:
            cost[k] = math.inf
            settled[k] = 0
        self.toll = toll
        heap = self.heap = []
        for i in targets:
            if not settled[i]:
                cost[i] = 0.0
                heap.append((0.0, i))
        # each area walked again starts from its settled neighbours (a step costs the same
        # both ways: walk_step of the barrier between)
        steps, steps_at, toll_at = paths._steps, paths._steps_at, toll.get
        for j in redo:
            out = steps.get(j)
            if out is None:
                out = steps[j] = steps_at(j)
            best = cost[j]
            for k, step in out:
                if settled[k]:
                    c = cost[k] + toll_at(k, 0.0) + step
                    if c < best:
                        best = c
            if best < cost[j]:
                cost[j] = best
                heap.append((best, j))
        heapq.heapify(heap)


class Paths:
    """Everything derived from one building (see the module docstring): its one owner.

    The building's mutators tell it what changed in the same call (:meth:`barrier_changed`,
    :meth:`area_changed`, :meth:`features_changed`, :meth:`routes_changed`, :meth:`rebuilt`),
    each bumping :attr:`version` (``Building.version``). A barrier change is noted at once and
    applied at the next ask, so a round that breaks many barriers patches once."""

    __slots__ = ("graph", "levels", "areas", "barriers", "rooms", "room_areas", "positions",
                 "version",
                 "_changed", "_rebuilt", "_fuel_back",
                 "_nbrs", "_lists", "_walled", "_walls", "_reach", "_reach_steps", "_regions",
                 "_windows",
                 "_room_vents", "_rooms", "_exits", "_exit_set", "_marked", "_outdoor", "_steps",
                 "_walks",
                 "_leaps", "_leap_tns", "_fuel", "_leap_steps", "_leap_near", "_leap_looked",
                 "_orders", "_orders_depth",
                 "_sight", "_lines", "_faces", "_look_steps", "_within", "_burnable")
    _exits: list[int] | None
    _walks: dict[tuple[int, ...] | None, tuple[Mapping[int, float], _Walk]]

    def __init__(self, building: Building) -> None:
        # The building's parts, not the building: it holds this (no reference cycle to collect)
        self.graph, self.levels = building.graph, building.levels
        self.areas, self.barriers, self.rooms = building.areas, building.barriers, building.rooms
        self.room_areas: dict[str, list[int]] = building.room_index()
        self.positions: Mapping[tuple[int, int, int], int] = building.position_index()
        self.version = 0
        self._changed: list[Barrier] = []  # barriers changed since the last ask
        self._fuel_back: set[int] = set()  # areas whose fuel changed since the last leap ask
        self._reset()

    def __getstate__(self) -> dict:
        # (a forecast unpickles one per run: its walks come ready made)
        self._settle()
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        if "_reach_steps" not in state:  # (pickled before it was kept)
            self._reach_steps = max((known[0] for known in self._reach.values()), default=0)
        if "_orders_depth" not in state:  # (as far as any walk could have looked)
            self._orders_depth = len(self.areas) if self._orders else -1

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
        if self._rebuilt:
            return  # (counted afresh at the next ask)
        area = self.areas[i]
        now = area.burnable
        if now != self._fuel[i]:
            self._fuel[i] = now
            self._burnable[area.room] += 1 if now else -1

    def features_changed(self, i: int) -> None:
        """Area ``i`` gained or lost a feature (an exit among them)."""
        self.version += 1
        if not self._rebuilt:
            if Feature.EXIT in self.areas[i].features:
                self._marked.add(i)
            else:
                self._marked.discard(i)
        self._exits = None
        self._walks = {}

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
        self._rebuilt = False
        self._changed = []
        # What is kept per area is made when first asked, but for the open lists every walk
        # reads, which areas can burn and the windows (docs/performance.md, "Memory": a
        # 100,000-area field is a lot of lists): those are made with the building, so no
        # round walks every area to find them (issue 30: a round costs per fire).
        self._nbrs: dict[int, list[tuple[int, Barrier]]] = {}
        self._lists: list[list[int]] = [self._open_at(i) for i in range(len(self.areas))]
        # whether any barrier around an area stops fire: most have none, and walls_all answers
        # those from these bytes without reading the graph (cold memory in a big building)
        adj = self.graph.adj
        self._walled = bytearray(len(here) < len(adj[i]) for i, here in enumerate(self._lists))
        window = BarrierKind.WINDOW  # (kinds never change; read once: a descriptor call)
        self._windows: list[Barrier] = [x for x in self.barriers if x.kind is window]
        self._walls: dict[int, list[tuple[int, int, int | None, int | None]]] = {}
        self._reach: dict[int, tuple[int, dict[int, int], list[int]]] = {}
        self._reach_steps = 0  # the most steps of any reach kept (how far a change looks)
        self._regions: list[bool] | None = None
        self._room_vents: set[str] = set()  # the rooms with an area that vents
        self._rooms: nx.MultiGraph | None = None
        self._exits = None
        self._exit_set: frozenset[int] = frozenset()
        # the areas marked exit (kept as features change) and the outdoor ones (rooms stay
        # outdoors or in): the way out is found without a walk of every area
        exit_ = Feature.EXIT
        self._marked: set[int] = {a.index for a in self.areas if exit_ in a.features}
        rooms = self.rooms
        self._outdoor: list[int] = [a.index for a in self.areas if rooms[a.room].outdoors]
        self._steps: dict[int, list[tuple[int, float]]] = {}  # per area walked from
        self._walks = {}
        self._leaps: dict[int, list[tuple[int, int, int]]] = {}
        self._leap_tns: dict[tuple[int, int, int, int], int] = {}
        self._fuel = [a.burnable for a in self.areas]
        self._burnable: dict[str, int] = dict.fromkeys(self.rooms, 0)  # burnable areas a room
        for a, burns in zip(self.areas, self._fuel):
            if burns:
                self._burnable[a.room] += 1
        self._leap_steps = -1
        self._leap_near: set[int] | None = None
        self._leap_looked = False  # whether _leap_near was looked for since the last change
        self._sight: dict[int, dict[int, Sightline]] = {}
        self._lines: dict[tuple[int, int], Sightline] = {}
        self._faces: dict[int, tuple[int, ...]] | None = None
        self._look_steps: dict[int, tuple[tuple[int, bool], ...]] = {}
        self._within: dict[tuple[int, int], list[int]] = {}
        self._orders: dict[int, tuple[list[int], bool, int]] = {}
        self._orders_depth = -1  # the most moves from its start to an area a kept order looked around

    def _barriers_changed(self, changed: list[Barrier]) -> None:
        sides: set[int] = set()
        for barrier in changed:
            sides.update((barrier.a, barrier.b))
        reach, lists = self._reach, self._lists
        # The kept reaches that hold a side: the graph is undirected, so the reach of ``i``
        # holds a side just where ``i`` is within its steps of that side, on the graph the
        # reaches were found on (before the lists change): one short walk from the sides, not
        # a look at every kept reach (thousands in a big building).
        holding = ([(i, known) for i, d in _spread(lists, sides, self._reach_steps).items()
                    if (known := reach.get(i)) is not None and d <= known[0]]
                   if reach else [])
        # the same for the smoke's kept orders: only those starting within the deepest one's
        # looked-around moves of a side can have looked around it
        orders = self._orders
        covering = ([i for i in _spread(lists, sides, self._orders_depth) if i in orders]
                    if orders and self._orders_depth >= 0 else [])
        adj = self.graph.adj
        for i in sides:
            self._walls.pop(i, None)
            lists[i] = self._open_at(i)
            self._walled[i] = len(lists[i]) < len(adj[i])
        for i, known in holding:
            if not _reach_stands(known[1], known[0], changed, lists):
                del reach[i]
                # what is known of unlit fuel within a leap stands where the reach does
                self._leaps.pop(i, None)
        self._leap_looked = False
        self._regions = None
        self._room_vents = set()
        self._rooms = None
        self._walks = {}
        self._sight.clear()  # (a door opened anywhere may open a view from anywhere)
        self._lines.clear()
        self._faces = None
        for i in sides:
            self._look_steps.pop(i, None)
        for i in sides:
            self._steps.pop(i, None)
        # an area's nearest areas stand unless a changed barrier is beside one it looked around
        for start in covering:
            order, _, looked = orders[start]
            if not sides.isdisjoint(order[:looked]):
                del orders[start]

    # -- neighbours ----------------------------------------------------------------------------
    def neighbours(self, i: int) -> list[tuple[int, Barrier]]:
        """Every neighbour of area ``i`` with the barrier between, in the graph's order (kept
        per area once asked: do not change the list)."""
        if self._rebuilt:
            self._settle()
        known = self._nbrs.get(i)
        if known is None:
            known = self._nbrs[i] = [(j, data["barrier"]) for j, data in self.graph.adj[i].items()]
        return known

    def within(self, i: int, moves: int) -> list[int]:
        """Area ``i`` and every area within ``moves`` moves of it through any barrier (walls
        and floors too), in index order: where the spot rule looks for hidden fires. Kept per
        area until the graph's shape changes (do not change the list)."""
        if self._rebuilt:
            self._settle()
        known = self._within.get((i, moves))
        if known is None:  # (the walk of reach, over every edge rather than the open ones)
            known = self._within[i, moves] = sorted(_spread(self.graph.adj, (i,), moves))
        return known

    def _open_at(self, i: int) -> list[int]:
        """The neighbours of area ``i`` across a barrier that lets fire, smoke and people
        through now, in the graph's order."""
        return [j for j, data in self.graph.adj[i].items() if data["barrier"].passable]

    def open_graph(self) -> nx.Graph:
        """The areas and the edges fire, smoke and people pass now: a view of the building's
        graph (networkx's ``subgraph_view``, made per ask and live; nothing is copied)."""
        g = self.graph
        # (g.adj, not g.edges: that view would hold the graph in a reference cycle)
        return nx.subgraph_view(g, filter_edge=lambda u, v: g.adj[u][v]["barrier"].passable)

    def open_lists(self) -> list[list[int]]:
        """:meth:`open_graph`'s adjacency as lists by area (do not change them)."""
        if self._changed or self._rebuilt:
            self._settle()
        return self._lists

    def walls(self, i: int) -> list[tuple[int, int, int | None, int | None]]:
        """The barriers around area ``i`` that fire cannot pass: (area beyond, barrier index,
        burn-through TN, destruction TN), in the graph's order. Kept per area until a barrier
        beside it changes (do not change the list; :meth:`walls_all` for many at once)."""
        return self.walls_all((i,))[0]

    def walls_all(self, areas: Iterable[int]) -> list[list[tuple[int, int, int | None,
                                                                  int | None]]]:
        """:meth:`walls` for each of ``areas``, in order: the batch form."""
        if self._changed or self._rebuilt:
            self._settle()
        kept, adj, walled = self._walls, self.graph.adj, self._walled
        out = []
        for i in areas:
            if not walled[i]:
                out.append(_NO_WALLS)
                continue
            walls = kept.get(i)
            if walls is None:
                walls = [(j, w.index, w.pass_through_tn, w.destruction_tn)
                         for j, w in ((j, data["barrier"]) for j, data in adj[i].items())
                         if not w.passable]
                walls = kept[i] = walls or _NO_WALLS
            out.append(walls)
        return out

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
        dist = _spread(self._lists, (i,), steps)
        if len(self._reach) >= _REACH_KEPT:
            self._reach.clear()
            self._leaps.clear()
        self._reach[i] = (steps, dist, sorted(dist))
        self._reach_steps = max(self._reach_steps, steps)
        return dist, self._reach[i][2]

    def near(self, sources: Iterable[int], steps: int) -> set[int]:
        """The areas within ``steps`` moves of any of ``sources`` through the open graph (what
        ``nx.multi_source_dijkstra_path_length`` with a cutoff answers: the walk of
        :meth:`reach`)."""
        if self._changed or self._rebuilt:
            self._settle()
        return set(_spread(self._lists, sources, steps))

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
            for j, barrier in self.neighbours(k):
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
        (:meth:`leaps_all` for many fires at once.)"""
        return self.leaps_all((here,), steps, burning)[0]

    def leaps_all(self, heres: Iterable[int], steps: int,
                  burning: Collection[int]) -> list[list[tuple[int, int, int]]]:
        """:meth:`leaps` for each of ``heres``, in order: the batch form (one catching up with
        the building for all of them).

        What of an area's reach is unlit fuel is kept while the reach stands: unlit fuel only
        goes away while no area is given fuel back (a fire that goes out always sets its
        area's fuel: ``Scene.remove_fire``), so each look starts from the last one's; fuel
        coming back to an area wakes the areas within a leap of it only. When there are many
        more fires than unlit areas, the areas within a leap of any unlit fuel are found once,
        from the fuel, and every other area is calm at once (docs/performance.md)."""
        if self._changed or self._rebuilt:
            self._settle()
        if self._fuel_back or steps != self._leap_steps or not self._leap_looked:
            self._look_again(steps, burning)
        near, kept, fuel = self._leap_near, self._leaps, self._fuel
        out = []
        for here in heres:
            if near is not None and here not in near:
                out.append(_NO_LEAPS)
                continue
            live = kept.get(here)
            if live is None:
                live = self._leaps_from(here, steps, burning)
            elif live:
                live = [t for t in live if fuel[t[0]] and t[0] not in burning]
            else:
                out.append(live)
                continue
            if len(kept) >= _REACH_KEPT:  # a bound on what a huge front may leave behind
                kept.clear()
            kept[here] = live
            out.append(live)
        return out

    def _leaps_from(self, here: int, steps: int,
                    burning: Collection[int]) -> list[tuple[int, int, int]]:
        """:meth:`leaps` found afresh from the area's reach. A leap's TN depends only on the
        squares, levels and moves between (:func:`fuego.rules.formulas.leap_tn`): each is
        worked out once per building."""
        dist, order = self.reach(here, steps)
        fuel, areas, tns = self._fuel, self.areas, self._leap_tns
        elevation = [level.elevation for level in self.levels]
        a = areas[here]
        col, row, up = a.col, a.row, elevation[a.level]
        live = []
        for j in order:
            if fuel[j] and j not in burning and j != here:
                c, moves = areas[j], dist[j]
                gap = (abs(c.col - col), abs(c.row - row), abs(elevation[c.level] - up), moves)
                tn = tns.get(gap)
                if tn is None:
                    tn = tns[gap] = leap_tn(*gap)
                live.append((j, moves, tn))
        return live

    def fuel_flags(self) -> list[bool]:
        """Whether each area can burn (fuel left, not burned out), by index: kept as the fuel
        changes (:meth:`area_changed`). Do not change the list."""
        if self._rebuilt:
            self._settle()
        return self._fuel

    def _look_again(self, steps: int, burning: Collection[int]) -> None:
        """Wake the leaps near areas whose fuel came back (a fire put out early, spilt oil): the
        areas within a leap of one (reach is the same both ways); start over where the reach
        asked for changed; and find the areas near fuel again."""
        fuel = self._fuel
        back = [i for i in self._fuel_back if fuel[i] and i not in burning]
        self._fuel_back.clear()
        if steps != self._leap_steps:
            self._leaps.clear()
            self._leap_steps, self._leap_looked = steps, False
        elif back:
            kept = self._leaps
            for i in back:
                for j in self.reach(i, steps)[1]:
                    kept.pop(j, None)
            self._leap_looked = False
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
    def vent_flags(self) -> list[bool]:
        """:meth:`vents` for every area, by index (do not change the list), found again after a
        barrier changes. A region of the open graph vents when it holds an outdoor area or an
        open or broken window (:func:`vents_through`: through anything open into an outdoor
        area, that area is in the region too), so the venting areas are those the open graph
        joins to one of these: walked from them alone, not over every region (a field of
        100,000 areas with no way out walks none)."""
        if self._changed or self._rebuilt:
            self._settle()
        if self._regions is None:
            sources = self._outdoor + [w.a for w in self._windows if vents_through(w, False)]
            vents = [False] * len(self.areas)
            areas, rooms = self.areas, set()
            for k in _spread(self._lists, sources, -1):
                vents[k] = True
                rooms.add(areas[k].room)
            self._regions, self._room_vents = vents, rooms
        return self._regions

    def vents(self, i: int) -> bool:
        """Does air from area ``i`` reach open air: is an outdoor area, or an open or broken
        window (:func:`vents_through`), in its region of the open graph, however far? The one
        answer smoke (growing, lingering) and breath (suffocation: :meth:`room_vents`) read."""
        return self.vent_flags()[i]

    def room_vents(self, key: str) -> bool:
        """Does room ``key``'s air reach open air: :meth:`vents` for any of its areas (the
        rooms of the venting areas, found with them: the suffocation rule asks it of every
        hero every round, and a room of 100,000 areas that does not vent is not walked)."""
        self.vent_flags()
        return key in self._room_vents

    def burnable_count(self, room: str) -> int:
        """How many areas of ``room`` can burn (fuel left, not burned out): flashover asks it
        of every burning room each round, so it is counted with the building and kept as the
        fuel changes (:meth:`area_changed`): cost per change, not per area of the room."""
        if self._rebuilt:
            self._settle()
        return self._burnable.get(room, 0)

    def nearest(self, start: int, n: int) -> list[int]:
        """The ``n`` areas nearest ``start`` through the open graph (fewest moves, ties by
        index; ``start`` first), or every area open to it where there are fewer: where smoke
        from ``start`` goes. Do not change the list.

        Breadth first over :meth:`open_lists`, each level in index order: what sorting
        ``nx.single_source_shortest_path_length`` over the open graph by (moves, area) gives (a
        test checks it). Kept per area, a few areas longer than asked (a smoke's cover grows
        by one a round), until a barrier beside an area it looked around changes: a big fire
        asks it of thousands of areas every round (docs/performance.md)."""
        if self._changed or self._rebuilt:
            self._settle()
        known = self._orders.get(start)
        if known is None or (len(known[0]) < n and not known[1]):
            order, complete, looked, depth = self._walk_nearest(start, n + 8)
            known = self._orders[start] = (order, complete, looked)
            # (the areas looked around are those within ``depth`` moves: a change beyond the
            # deepest kept one's touches no kept order, _barriers_changed)
            self._orders_depth = max(self._orders_depth, depth)
        return known[0][:n]

    def _walk_nearest(self, start: int, n: int) -> tuple[list[int], bool, int, int]:
        """The first ``n`` (or more: whole levels) areas of :meth:`nearest`'s order, whether
        that is every area open to ``start``, how many of them (the first) it looked around (a
        count, not a set: a big fire keeps one per smoking area), and the most moves from
        ``start`` to one of those."""
        adj = self._lists
        seen = {start}
        order = [start]
        frontier = [start]
        looked, depth = 0, -1
        while frontier and len(order) < n:
            looked, depth = len(order), depth + 1
            nxt = []
            for k in frontier:
                for j in adj[k]:
                    if j not in seen:
                        seen.add(j)
                        nxt.append(j)
            nxt.sort()
            order.extend(nxt)
            frontier = nxt
        return order, not frontier, looked, depth

    def smoke_reach(self, asks: list[tuple[int, int]]) -> list[tuple[list[int], bool]]:
        """For each ``(start, cover)``, where the smoke of a fire in ``start`` covering
        ``cover`` areas goes: its areas (:meth:`nearest`) and whether it vents (:meth:`vents`:
        the one answer breath reads too). The batch form: the end of a round asks it for every
        smoking fire at once (each list may be kept for the next ask: do not change it)."""
        if self._changed or self._rebuilt:
            self._settle()
        flags, kept, nearest = self.vent_flags(), self._orders, self.nearest
        out = []
        for start, cover in asks:
            known = kept.get(start)  # (the kept case without a call: thousands a round)
            if known is not None and (len(known[0]) >= cover or known[1]):
                out.append((known[0][:cover], flags[start]))
            else:
                out.append((nearest(start, cover), flags[start]))
        return out

    # -- the way out ---------------------------------------------------------------------------
    def exits(self) -> list[int]:
        """Areas marked ``exit``; where none is marked, every outdoor area is a way out."""
        if self._rebuilt:
            self._settle()
        if self._exits is None:
            self._exits = sorted(self._marked) or self._outdoor
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
        """A walker's steps out of area ``i``: each neighbour it may walk into and the moves."""
        out = []
        for j, data in self.graph.adj[i].items():
            step = walk_step(data["barrier"])
            if step is not None:
                out.append((j, step))
        return out

    def exit_costs(self, toll: Mapping[int, float]) -> list[float]:
        """The cost from each area to the nearest exit (:meth:`costs_to` the exits), kept for
        the last ``toll`` asked until a barrier or an exit changes (the list is the caller's)."""
        return self._walk(None, toll).all(self)

    def exit_costs_at(self, toll: Mapping[int, float], at: Iterable[int]) -> list[float]:
        """:meth:`exit_costs` of the areas ``at`` only, in order: the walk goes only as far as
        they need (a hero reads its own area and its neighbours'), and later asks with the
        same ``toll`` carry on from there; the values are exactly those of the whole walk."""
        return self._walk(None, toll).at(self, at)

    def costs_to(self, targets: Iterable[int], toll: Mapping[int, float]) -> list[float]:
        """The cost from each area to the nearest of ``targets``: :func:`walk_step` per barrier
        crossed, plus ``toll[k]`` for stepping into area ``k`` (the heroes' way: the fire there).

        Dijkstra from the targets outward, over the walker's steps kept per barrier state (made
        per area when the walk first leaves it: a building with no way out walks nothing): what
        ``nx.multi_source_dijkstra_path_length`` over the walkable graph answers (a test checks
        it), but a hero's choice asks it every phase, and a weight function per edge through
        networkx costs several times this. The list is the caller's."""
        return self._walk(tuple(targets), toll).all(self)

    def costs_to_at(self, targets: Iterable[int], toll: Mapping[int, float],
                    at: Iterable[int]) -> list[float]:
        """:meth:`costs_to` of the areas ``at`` only (:meth:`exit_costs_at`)."""
        return self._walk(tuple(targets), toll).at(self, at)

    def _walk(self, targets: tuple[int, ...] | None, toll: Mapping[int, float]) -> _Walk:
        """The walk to ``targets`` (None: the exits) for ``toll``, kept until a barrier or an
        exit changes (any ask settles the building's changes first, so a kept walk never
        carries on over another state of the building)."""
        if self._changed or self._rebuilt:
            self._settle()
        kept = self._walks.get(targets)
        if kept is not None and (kept[0] is toll or kept[0] == toll):
            return kept[1]
        if len(self._walks) >= 8:  # (a plan's goals change; the exits' walk is asked again)
            self._walks.clear()
        sources = self.exits() if targets is None else targets
        if kept is None:
            walk = _Walk(len(self.areas), sources, toll)
        else:
            walk = kept[1]
            walk.retoll(self, sources, toll)
        self._walks[targets] = (toll, walk)
        return walk

    def _walk_on(self, walk: _Walk, until: int | None) -> None:
        """Carry ``walk`` on until area ``until`` is settled (None: to its end)."""
        steps, steps_at = self._steps, self._steps_at
        cost, heap, settled = walk.cost, walk.heap, walk.settled
        pop, push, toll_at, settle = heapq.heappop, heapq.heappush, walk.toll.get, walk.order.append
        while heap:
            if until is not None and settled[until]:
                return
            item = pop(heap)
            c, k = item
            if c > cost[k] or settled[k]:
                continue
            settled[k] = 1
            settle(item)
            c += toll_at(k, 0.0)  # stepping from a neighbour into k
            out = steps.get(k)
            if out is None:
                out = steps[k] = steps_at(k)
            for j, step in out:
                if c + step < cost[j]:
                    cost[j] = c + step
                    push(heap, (c + step, j))

    # -- sight lines ---------------------------------------------------------------------------
    def line(self, i: int, j: int) -> Sightline:
        """The look from area ``i`` to area ``j`` (:class:`Sightline`). On one level the line
        runs between the areas' middles; where it passes exactly through a corner it goes by
        whichever of the two areas beside the corner leaves the view open. Kept until a
        barrier changes (the spot rule asks it of every fire near a hero, every phase)."""
        if self._changed or self._rebuilt:
            self._settle()
        known = self._lines.get((i, j))
        if known is None:
            known = self._line(i, j)
            if len(self._lines) >= _REACH_KEPT:
                self._lines.clear()
            self._lines[i, j] = known
        return known

    def _line(self, i: int, j: int) -> Sightline:
        a, b = self.areas[i], self.areas[j]
        if i == j:
            return Sightline()
        if a.level != b.level:
            return self._line_up_or_down(i, j)
        steps_of = self._looks
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
            nxt, way_blurs, first_stop = _across(steps_of, here, ways)
            blurs = blurs or way_blurs
            if nxt < 0:
                stop = barriers[-first_stop - 2] if first_stop <= -2 else None
                return Sightline(tuple(pieces), stop=stop, gap=stop is None)
            here = nxt
        return Sightline(tuple(pieces), blurs=blurs)

    def _line_up_or_down(self, i: int, j: int) -> Sightline:
        """A look to the area above or below: through the link between them (a hatch, a
        stairwell), half an area's depth; any other area on another level is out of reach."""
        data = self.graph.get_edge_data(i, j)
        barrier: Barrier | None = None if data is None else data["barrier"]
        if barrier is None or not barrier.vertical:
            return Sightline(gap=True)
        return Sightline(((i, HALF_AREA_FEET),), stop=None if barrier.see_through else barrier)

    def _looks(self, i: int) -> tuple[tuple[int, bool], ...]:
        """Across each side of area ``i`` (east, west, south, north): the area beyond if one
        sees into it (and whether a papered window blurs it), else -2 - the index of the
        barrier in the way, or -1 where there is no area or no edge. Kept per area a line
        crosses (a run's few dozen lines cross a few dozen areas: none is made for the rest),
        dropped for the two areas a barrier change touches."""
        row = self._look_steps.get(i)
        if row is None:
            row = self._look_steps[i] = self._looks_at(i)
        return row

    def _looks_at(self, i: int) -> tuple[tuple[int, bool], ...]:
        """:meth:`_looks` of area ``i``."""
        at, edge, a = self.positions, self.graph.get_edge_data, self.areas[i]
        row = []
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            j = at.get((a.level, a.col + dc, a.row + dr))
            data = None if j is None else edge(i, j)
            if j is None or data is None:
                row.append((-1, False))
                continue
            bar: Barrier = data["barrier"]
            row.append((j, bar.blurs) if bar.see_through else (-2 - bar.index, False))
        return tuple(row)

    def sightlines(self, i: int) -> dict[int, Sightline]:
        """Every area a look from area ``i`` reaches unblocked (smoke aside), ``i`` itself
        included: the areas on its level whose line is clear, and those across an open link
        above or below. Kept per area until a barrier changes (do not change it)."""
        if self._changed or self._rebuilt:
            self._settle()
        known = self._sight.get(i)
        if known is not None:
            return known
        out: dict[int, Sightline] = {}
        for j in sorted(self._seen_through(i)):
            line = self.line(i, j)
            if line.clear:
                out[j] = line
        for j, barrier in self.neighbours(i):
            if barrier.vertical and barrier.see_through:
                out[j] = self.line(i, j)
        if len(self._sight) >= _REACH_KEPT:
            self._sight.clear()
        self._sight[i] = out
        return out

    def _seen_through(self, i: int) -> set[int]:
        """The areas joined to ``i`` by see-through barriers on its level: only they can be in
        view (a line crosses only such barriers, area to side-by-side area)."""
        level, areas = self.areas[i].level, self.areas
        region = {i}
        queue = deque([i])
        while queue:
            k = queue.popleft()
            for j, barrier in self.neighbours(k):
                if j not in region and barrier.see_through and not barrier.vertical \
                        and areas[j].level == level:
                    region.add(j)
                    queue.append(j)
        return region

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
                out = tuple(j for j, bar in self.neighbours(a.index)
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


def _across(steps_of: Callable[[int], tuple[tuple[int, bool], ...]], here: int,
            ways: tuple[tuple[int, ...], ...]) -> tuple[int, bool, int]:
    """A line's step out of area ``here`` by the first of ``ways`` it sees through (a way is the
    sides crossed in turn; two at a corner): the area reached and whether a papered window
    blurred it, or -1 and the first stop met (``Paths._looks``' -2 - barrier, or -1)."""
    first_stop = -1
    for way in ways:
        cur, way_blurs = here, False
        for side in way:
            step, blur = steps_of(cur)[side]
            if step < 0:
                if first_stop == -1:
                    first_stop = step
                cur = -1
                break
            cur, way_blurs = step, way_blurs or blur
        if cur >= 0:
            return cur, way_blurs, first_stop
    return -1, False, first_stop


def _reach_stands(dist: dict[int, int], steps: int, changed: list[Barrier],
                  lists: list[list[int]]) -> bool:
    """Does a reach (area -> moves, within ``steps``) found before the ``changed`` barriers
    still hold, the open graph being ``lists`` now? It does when every changed barrier that
    is now open joins two reached areas at most one move apart (no shortcut), or a reached one
    at the edge of the reach to an area beyond it; and where one now shut joined two areas a
    move apart, the farther still has an open neighbour a move nearer. (Every area then keeps
    a neighbour one move nearer, and no open barrier brings one nearer: the same moves.)"""
    for barrier in changed:
        da, db = dist.get(barrier.a), dist.get(barrier.b)
        if da is None and db is None:
            continue
        if barrier.passable:
            if da is None or db is None:
                near = db if da is None else da
                if near is not None and near < steps:
                    return False  # an area beyond comes within reach
            elif abs(da - db) > 1:
                return False
        elif da is not None and db is not None and da != db:
            far, d = (barrier.b, db) if db > da else (barrier.a, da)
            if not any(dist.get(j) == d - 1 for j in lists[far]):
                return False
    return True


def _spread(adj: Sequence[Iterable[int]] | Mapping[int, Iterable[int]], sources: Iterable[int],
            steps: int) -> dict[int, int]:
    """Breadth first from ``sources`` over the open lists ``adj``: each area within ``steps``
    moves (-1: however far) and its moves, in the order found. What
    ``nx.multi_source_dijkstra_path_length(open_graph, sources, cutoff=steps)`` answers (a
    test checks it): reach, near and the vents walk it, thousands of times a run, and
    networkx's views cost twice the walk (docs/performance.md)."""
    dist = dict.fromkeys(sources, 0)
    frontier, d = list(dist), 0
    while frontier and d != steps:
        d += 1
        nxt = []
        for k in frontier:
            for j in adj[k]:
                if j not in dist:
                    dist[j] = d
                    nxt.append(j)
        frontier = nxt
    return dist
