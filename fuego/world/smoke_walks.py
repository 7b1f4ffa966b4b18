"""Where smoke from an area goes: breadth-first walks through the open barriers (fuego.world.smoke).

A walk from an area finds the areas open to it level by level (ties by area index) and the
level at which the smoke meets a vent: an outdoor area, or an area first found through an open
window. Walks are kept per area while barriers change (docs/performance.md): a change the walk
never looked through leaves it whole; otherwise its levels up to the nearer side of the change
still stand (it looked through the barrier only from there), so it is cut back to them and
walks on from there when next asked. Sets of areas are Python integers (bit ``i``: area
``i``): a level costs one mask per area found rather than a set insertion per barrier.
"""

from __future__ import annotations

from fuego.world.building import BarrierKind, Building


class _Walk:
    """One walk: ``balls[L]`` holds the areas within ``L`` moves, ``counts[L]`` how many;
    ``vent_level`` is where a vent was met (-1: not yet); ``cover`` how far it walks (see
    :meth:`Walks._walk_on`); ``order`` the areas in order, as far as asked."""

    __slots__ = ("balls", "counts", "vent_level", "cover", "done", "order", "upto", "answers")

    def __init__(self, start: int, cover: int, outdoors: bool) -> None:
        self.balls = [1 << start]
        self.counts = [1]
        self.vent_level = 0 if outdoors else -1
        self.cover = cover
        self.done = False
        self.order: list[int] = []
        self.upto = 0  # levels read into order
        self.answers: dict[int, tuple[list[int], bool]] = {}  # cover -> Walks._replay's answer

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


class Walks:
    """The walks of one building's areas, kept across barrier changes."""

    __slots__ = ("building", "_epoch", "_nbr", "_outdoor", "_windows", "_window_edges",
                 "_window_sides", "_walks", "_prefixes")

    def __init__(self, building: Building) -> None:
        self.building = building
        self._epoch = -1
        self._nbr: list[int] = []  # per area: the areas open to it
        b = building
        self._outdoor = sum(1 << a.index for a in b.areas if b.rooms[a.room].outdoors)
        self._windows = [x for x in b.barriers if x.kind is BarrierKind.WINDOW]
        self._window_edges: list[tuple[int, int]] = []  # (k, j): an open window from k to j
        self._window_sides = 0  # the areas beside an open window
        self._walks: dict[int, _Walk] = {}  # per area, where the vent must be looked for
        self._prefixes: dict[int, tuple] = {}  # per area, where it need not (see reach)

    def reach_all(self, asks: list[tuple[int, int]]) -> list[tuple[list[int], bool]]:
        """:meth:`reach` for each ``(start, cover)``: a big fire asks it of thousands of areas,
        most with no vent to look for (the cheap case, done here without a call)."""
        b = self.building
        if self._epoch != b.epoch:
            self._update()
        prefixes, reach = self._prefixes, self.reach
        vents = b.vent_flags()
        out = []
        for start, cover in asks:
            prefix = None if vents[start] else prefixes.get(start)
            if prefix is not None and (len(prefix[0]) >= cover or prefix[1]):
                out.append((prefix[0][:cover], False))
            else:
                out.append(reach(start, cover))
        return out

    def reach(self, start: int, cover: int) -> tuple[list[int], bool]:
        """The ``cover`` areas nearest ``start`` and whether smoke from there vents (the list
        may be kept for the next ask: do not change it)."""
        b = self.building
        if self._epoch != b.epoch:
            self._update()
        walk = self._walks.get(start)
        if walk is not None and walk.done:
            # Asked before and still standing: where the smoke can vent, walking finds what the
            # shortcuts below find (those only skip the walk), so the answer holds either way.
            answer = walk.answers.get(cover)
            if answer is not None:
                return answer
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
            walk = self._walks[start] = _Walk(start, cover + 8, bool(self._outdoor >> start & 1))
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
        nbr, outdoor, window_edges = self._nbr, self._outdoor, self._window_edges
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
                else:
                    # through a window only when the window's own side finds the area first:
                    # the lowest-numbered area of the last level open to it
                    for k, j in window_edges:
                        if new >> j & 1:
                            first = frontier & nbr[j]
                            if (first & -first).bit_length() - 1 == k:
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
        adj = self.building.open_adjacency()
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
    def _update(self) -> None:
        """Catch up with the barriers: patch the open masks, cut or drop what changed."""
        b = self.building
        adj = b.open_adjacency()
        changed = b.changes_since(self._epoch)
        if changed is None:  # not known barrier by barrier (or the first look): start over
            self._nbr = [sum(1 << j for j in adj[i]) for i in range(len(b.areas))]
            self._windows = [x for x in b.barriers if x.kind is BarrierKind.WINDOW]
            self._walks, self._prefixes = {}, {}
            self._find_windows()
        else:
            sides = 0
            for barrier in changed:
                sides |= 1 << barrier.a | 1 << barrier.b
            for i in range(sides.bit_length()):
                if sides >> i & 1:
                    self._nbr[i] = sum(1 << j for j in adj[i])
            window_sides = self._window_sides | self._find_windows()
            for walk in self._walks.values():
                balls = walk.balls
                if len(balls) < 2 or not balls[-2] & sides:
                    continue  # it never looked through a changed barrier
                if not _levels_stand(balls, changed, self._nbr, window_sides):
                    level = 0
                    while not balls[level] & sides:
                        level += 1
                    walk.cut(level)
            near = {i for barrier in changed for i in (barrier.a, barrier.b)}
            for start in [s for s, (order, _, looked) in self._prefixes.items()
                          if not near.isdisjoint(order[:looked])]:
                del self._prefixes[start]
        self._epoch = b.epoch

    def _find_windows(self) -> int:
        """Note the open windows (as edges, for the vents) and return the areas beside them."""
        edges, sides = [], 0
        for w in self._windows:
            if w.passable:
                edges += [(w.a, w.b), (w.b, w.a)]
                sides |= 1 << w.a | 1 << w.b
        self._window_edges, self._window_sides = edges, sides
        return sides


def _level(balls: list[int], bit: int) -> int:
    """The level of the area ``bit`` in a walk (len(balls): beyond it)."""
    level = 0
    for ball in balls:
        if ball & bit:
            return level
        level += 1
    return level


def _levels_stand(balls: list[int], changed: list, nbr: list[int], window_sides: int) -> bool:
    """Would the walk find every area at the same level after the ``changed`` barriers?

    Only the areas whose neighbours it looked at (up to ``balls[-2]``) matter. A barrier there
    may open between areas at most one level apart (no shortcut), or close where the farther
    area keeps an open neighbour (``nbr``: now) one level nearer; then the counts and where an
    outdoor area is met stand too. Smoke vents through a window only by the area that finds
    the one beyond first, so a changed window, or a change to which areas find one beside an
    open window (before or after: ``window_sides``), does not stand.
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
        if window_sides >> far & 1:
            return False
        if not barrier.passable:
            ring = balls[near] & ~balls[near - 1] if near else balls[0]
            if not nbr[far] & ring:
                return False
    return True
