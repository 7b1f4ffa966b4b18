"""Smoke (003, Smoke [Optional]), read area by area.

fuego's reading (docs/rules.md, Smoke):

- A fire that smokes covers four times its own area: the four areas nearest to it (its own
  first), reached through passable barriers; ties go to the lower area index. Nearest is counted
  in moves, so smoke rounds corners and stairs but not closed doors or intact walls.
- If none of the areas it can reach vents (an outdoor area, or an open window or broken barrier
  to outside), the smoke cannot dissipate: at the end of each round it covers one more area (the
  fire's own area). Where it vents, it stays at four; what it had piled up beyond that clears
  like smoke whose fire is out.
- Smoke is thick where any fire covering the area burns wet or smoky fuel or gunpowder; thin
  otherwise.
- Smoke left behind clears after 1-5 rounds by wind (RULES-NOTES); the countdown runs while no
  fire burns in that room, or where the smoke has a way out to open air.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

from fuego.building import Building
from fuego.events import EventKind
from fuego.tables import SMOKE_AREA_FACTOR, SMOKE_DISSIPATE_ROUNDS

if TYPE_CHECKING:
    from fuego.fire import Fire
    from fuego.scene import Scene


class Density(IntEnum):
    NONE = 0
    THIN = 1
    THICK = 2


class SmokeField:
    """Smoke density per area, recomputed at the end of every round from the fires."""

    __slots__ = ("building", "density", "linger", "_walks", "_prefixes", "_walks_epoch")

    def __init__(self, building: Building):
        self.building = building
        self.density: dict[int, Density] = {}  # area -> density (absent: clear air)
        self.linger: dict[int, int] = {}  # area -> rounds left for smoke whose fire is out
        # Where smoke from an area goes depends only on the barriers: the walks of _reach are
        # kept per area until a barrier they reached changes (docs/performance.md).
        self._walks: dict[int, tuple] = {}  # areas that can reach a vent
        self._prefixes: dict[int, tuple] = {}  # areas that cannot
        self._walks_epoch = -1

    def at(self, i: int) -> Density:
        return self.density.get(i, Density.NONE)

    # -- the rule ---------------------------------------------------------------------------
    def _reach(self, fire: Fire, cover: int) -> tuple[list[int], bool]:
        """The ``cover`` areas nearest the fire, and whether its smoke can vent.

        The walk itself is :meth:`_walk`; what it found is kept per area (and per barrier
        state), so a fire that stays put reads its smoke's areas off the walk it made before.
        """
        b = self.building
        if self._walks_epoch != b.epoch:
            self._forget(b.changes_since(self._walks_epoch))
            self._walks_epoch = b.epoch
        start = fire.area
        vents = b.vents_from(start)
        if vents:
            size, outdoors = b.open_region(start)
            if not (outdoors and size <= 4 * cover + 64):
                return self._replay(start, cover)
            # An outdoor area is open to the fire and the whole open region lies within the
            # walk's bound: the walk cannot stop short of it, so the smoke vents, and its areas
            # are the first ``cover`` of the same order as where nothing vents.
        # No vent to look for (or one surely met): the walk stops at the cover, and a longer
        # cover only walks further; the areas are the first ``cover`` of one order.
        order, whole = self._prefixes.get(start) or ((), False)
        if len(order) < cover and not whole:
            order, whole = self._nearest(start, cover + 8)
            self._prefixes[start] = order, whole
        return order[:cover], vents

    def _replay(self, start: int, cover: int) -> tuple[list[int], bool]:
        """The walk from ``start`` (kept per area) replayed for ``cover``."""
        walk = self._walks.get(start)
        if walk is None or walk[3] < cover:
            walk = self._walks[start] = self._walk(start, cover + 8)
        order, counts, vent_level, _ = walk
        # Replay the walk for this cover: the walk for a larger cover went at least as far.
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
        return order[:cover], vents

    def _forget(self, changed: list | None) -> None:
        """Drop the walks that reached either side of a changed barrier (a walk only looked
        through the areas it found); all of them when the changes are not known."""
        if changed is None:
            self._walks, self._prefixes = {}, {}
            return
        sides = {i for barrier in changed for i in (barrier.a, barrier.b)}
        for walks in (self._walks, self._prefixes):
            for start in [s for s, walk in walks.items() if not sides.isdisjoint(walk[0])]:
                del walks[start]

    def _walk(self, start: int, cover: int) -> tuple[list[int], list[int], int, int]:
        """Breadth first from ``start`` through passable barriers, level by level (ties by
        area index), until ``cover`` areas are found and a vent (an outdoor area or an open
        window) is met, or more than ``4 * cover + 64`` areas are found (far enough to know;
        big fields stay cheap), or nothing is left. Returns the areas in order, the count after
        each level, the level at which a vent was met (-1: none) and ``cover``."""
        b = self.building
        adj = b.open_adjacency()
        vent_to = b.vent_edges()  # per area: the open neighbours smoke vents through
        seen = {start}
        order = [start]
        counts = [1]
        vents = b.rooms[b.areas[start].room].outdoors
        vent_level = 0 if vents else -1
        frontier = [start]
        while frontier and (len(order) < cover or not vents):
            nxt = []
            for k in frontier:
                out = vent_to[k]
                for j in adj[k]:
                    if j in seen:
                        continue
                    if j in out:
                        vents = True
                    seen.add(j)
                    nxt.append(j)
            nxt.sort()
            order.extend(nxt)
            counts.append(len(order))
            if vents and vent_level < 0:
                vent_level = len(counts) - 1
            frontier = nxt
            if len(order) > 4 * cover + 64:
                break
        return order, counts, vent_level, cover

    def _nearest(self, start: int, cover: int) -> tuple[list[int], bool]:
        """The first ``cover`` (or more) areas in :meth:`_walk`'s order from ``start``, and
        whether that is every area open to it."""
        adj = self.building.open_adjacency()
        seen = {start}
        order = [start]
        frontier = [start]
        while frontier and len(order) < cover:
            nxt = []
            for k in frontier:
                for j in adj[k]:
                    if j not in seen:
                        seen.add(j)
                        nxt.append(j)
            nxt.sort()
            order.extend(nxt)
            frontier = nxt
        return order, not frontier

    def update(self, scene: Scene) -> None:
        """End-of-round smoke: grow, spread, vent, linger and clear; emits one SMOKE event."""
        b = self.building
        modules = scene.modules
        new: dict[int, Density] = {}
        for fire in scene.fires.values():
            if not fire.can_spread:  # a Flame makes no smoke (ASL 25.2)
                continue
            if modules and any(m.smoke_claims(scene, fire) for m in modules):
                continue  # a module places this fire's smoke (drifting-smoke)
            if fire.smoke == 0:
                fire.smoke = SMOKE_AREA_FACTOR
            covered, vents = self._reach(fire, fire.smoke)
            thick = b.areas[fire.area].thick_smoke
            for i in covered:
                d = Density.THICK if thick else Density.THIN
                if new.get(i, Density.NONE) < d:
                    new[i] = d
            # Enclosed smoke grows by the fire's area each round; vented smoke stays at four.
            fire.smoke = SMOKE_AREA_FACTOR if vents else fire.smoke + 1
        owned: set[int] = set()  # areas whose smoke a module manages: no core lingering
        for m in modules:
            owned |= m.smoke_update(scene, self, new) or set()
        rounds = SMOKE_DISSIPATE_ROUNDS[scene.settings.wind]
        burning_rooms = {b.areas[i].room for i in scene.fires}
        linger: dict[int, int] = {}
        cleared = []
        for i, d in self.density.items():
            if i in new or i in owned:
                continue
            left = self.linger.get(i, rounds)
            if b.areas[i].room not in burning_rooms or b.vents_from(i):
                left -= 1  # its fire is out, or the smoke piled up here has a way out now
            if left > 0:
                new[i] = d
                linger[i] = left
            else:
                cleared.append(i)
        before = (sum(1 for d in self.density.values() if d is Density.THIN),
                  sum(1 for d in self.density.values() if d is Density.THICK))
        self.density, self.linger = new, linger
        thin = sum(1 for d in new.values() if d is Density.THIN)
        thick = sum(1 for d in new.values() if d is Density.THICK)
        if (thin, thick) != before or cleared:
            rooms = sorted({b.areas[i].room for i in new})
            scene.emit(EventKind.SMOKE, None, None, thin=thin, thick=thick, rooms=rooms,
                       cleared=len(cleared))
        if cleared and not new:
            scene.emit(EventKind.SMOKE_CLEARED, None, None)

    def room_filled(self, room: str) -> bool:
        areas = self.building.room_areas(room)
        return bool(areas) and all(i in self.density for i in areas)

    # -- state ---------------------------------------------------------------------------------
    def state(self) -> dict:
        return {
            "density": sorted([i, int(d)] for i, d in self.density.items()),
            "linger": sorted([i, n] for i, n in self.linger.items()),
        }

    def load_state(self, state: dict) -> None:
        self.density = {i: Density(d) for i, d in state["density"]}
        self.linger = {i: n for i, n in state["linger"]}
