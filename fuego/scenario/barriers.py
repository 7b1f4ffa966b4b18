"""Barriers, links and routes: how a plan's areas are joined, the second half of a build.

Neighbouring areas get a barrier by default (open inside a room or outdoors, the stronger wall
between two rooms, the upper level's floor between levels one above the other); the file's
``walls:``, ``openings:``, ``doors:``, ``windows:`` and ``links:`` then replace barriers, by room
pair (``between:``) or exact edge (``at:``), and ``routes:`` lay runs of fuel.
:class:`BarrierPlanner` is part of :class:`~fuego.scenario.plan.Planner` (a mixin): it works on
the areas, levels and problems the Planner has read.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from fuego.rules.charts import DESTRUCTION_TN, Structure
from fuego.scenario.source import Path, Problems, path_text
from fuego.world.building import Building
from fuego.world.places import BarrierKind, Room, RouteKind

if TYPE_CHECKING:
    from fuego.scenario.plan import PlanLevel, Pos
    from fuego.scenario.spec import Defaults


class Section(str, Enum):
    """A plan's sections of barriers laid on the edges between areas side by side (their
    entries' paths in messages are the section's word)."""

    WALLS = "walls"
    OPENINGS = "openings"
    DOORS = "doors"
    WINDOWS = "windows"


VERTICAL_KINDS = {
    "stairs": BarrierKind.STAIRS,
    "ladder": BarrierKind.LADDER,
    "hole": BarrierKind.HOLE,
    "floor": BarrierKind.FLOOR,
}


@dataclass
class EdgePlan:
    """A barrier to be made: what it is and which entry of the file put it there."""

    kind: BarrierKind
    structure: Structure | None = None
    closed: bool = True
    broken: bool = False
    name: str = ""
    locked: bool = False
    origin: Path | None = None  # the single-edge entry that claimed it
    bulk: Path | None = None  # the bulk entry (walls/openings between rooms) that set it


def wall_between(a: Room, b: Room) -> Structure | None:
    """The wall a plan stands between areas of two rooms side by side unless the file says
    otherwise: none between two outdoor rooms, an indoor room's wall against the outdoors,
    else the stronger of the two rooms' walls (the one fire destroys the harder)."""
    if a.outdoors and b.outdoors:
        return None
    if a.outdoors or b.outdoors:
        return b.wall if a.outdoors else a.wall
    return max((a.wall, b.wall), key=lambda s: DESTRUCTION_TN.get(s, 0))


class BarrierPlanner:
    """The barriers, links and routes of a :class:`~fuego.scenario.plan.Planner`'s building."""

    # What the Planner has read and this half works on (set by Planner.__init__ and its steps).
    sec: dict[str, Any]
    problems: Problems
    building: Building
    defaults: Defaults
    levels: list[PlanLevel]
    index: dict[Pos, int]
    edges: dict[tuple[int, int], EdgePlan]
    room_level: dict[str, int]
    route_positions: list[list[Pos | None] | None]
    _pairs: dict[frozenset[str], list[tuple[int, int]]] | None

    if TYPE_CHECKING:  # the Planner's helpers this half calls (defined in fuego.scenario.plan)
        def add(self, path: Path, message: str, **kw: Any) -> None: ...
        def position(self, ref: Any, path: Path, what: str = "area") -> Pos | None: ...
        def name_of(self, pos: Pos) -> str: ...
        def room_known(self, key: str, path: Path) -> bool: ...

    # -- barriers ----------------------------------------------------------------------------
    def _default_edges(self) -> None:
        b = self.building
        up: dict[int, PlanLevel] = {}
        by_elevation = {lv.elevation: lv for lv in self.levels}
        for lv in self.levels:
            if lv.elevation + 1 in by_elevation:
                up[lv.index] = by_elevation[lv.elevation + 1]
        for area in b.areas:
            for dc, dr in ((1, 0), (0, 1)):
                j = b.at(area.level, area.col + dc, area.row + dr)
                if j is not None:
                    self.edges[(area.index, j)] = self._side_by_side(area.room, b.areas[j].room)
        for area in b.areas:
            above = up.get(area.level)
            if above is None:
                continue
            j = b.at(above.index, area.col, area.row)
            if j is not None:
                floor = Structure(above.spec.floor or self.defaults.floor)
                # keyed low index first, as every lookup is: a level listed above the one
                # below it has the lower indices
                self.edges[(min(area.index, j), max(area.index, j))] = \
                    EdgePlan(BarrierKind.FLOOR, floor)

    def _side_by_side(self, ra: str, rb: str) -> EdgePlan:
        wall = None if ra == rb else wall_between(self.building.rooms[ra],
                                                  self.building.rooms[rb])
        return EdgePlan(BarrierKind.OPEN) if wall is None else EdgePlan(BarrierKind.WALL, wall)

    def _edge_key(self, pair: list[str], path: Path, *, vertical: bool) -> tuple[int, int] | None:
        a = self.position(pair[0], path)
        b = self.position(pair[1], path)
        if a is None or b is None:
            return None
        ia, ib = self.index.get(a), self.index.get(b)
        if ia is None or ib is None:
            return None
        na, nb = self.name_of(a), self.name_of(b)
        same_spot = a[1:] == b[1:]
        if vertical:
            ea, eb = self.levels[a[0]].elevation, self.levels[b[0]].elevation
            if not same_spot or abs(ea - eb) != 1:
                self.add(path, f"{na} and {nb} are not one above the other: a link joins the "
                         "same column and row on levels whose elevations differ by one")
                return None
        else:
            if a[0] != b[0]:
                self.add(path, f"{na} and {nb} are on different levels: doors, windows, walls "
                         "and openings join areas side by side (use links: between levels)")
                return None
            if abs(a[1] - b[1]) + abs(a[2] - b[2]) != 1:
                self.add(path, f"{na} and {nb} are not side by side (they must share an edge)")
                return None
        key = (min(ia, ib), max(ia, ib))
        if key not in self.edges:  # pragma: no cover - every neighbour pair has an edge
            self.add(path, f"{na} and {nb} are not neighbours")
            return None
        return key

    def _shared(self, ra: str, rb: str) -> list[tuple[int, int]]:
        """The edges between two rooms side by side, sorted by row then column."""
        if self._pairs is None:
            b = self.building
            self._pairs = {}
            for key in self.edges:
                a, c = b.areas[key[0]], b.areas[key[1]]
                if a.level == c.level and a.room != c.room:
                    self._pairs.setdefault(frozenset((a.room, c.room)), []).append(key)
            for keys in self._pairs.values():
                keys.sort(key=lambda k: (b.areas[k[0]].row, b.areas[k[0]].col,
                                         b.areas[k[1]].row, b.areas[k[1]].col))
        return self._pairs.get(frozenset((ra, rb)), [])

    def _pair_ok(self, pair: list[str], path: Path) -> bool:
        ok = True
        for k, key in enumerate(pair):
            if not self.room_known(key, path + ("between", k)):
                ok = False
            elif key not in self.building.rooms:
                ok = False  # known but not drawn: reported already
        if ok and pair[0] == pair[1]:
            self.add(path + ("between",), f"'between' names {pair[0]!r} twice; name two "
                     "different rooms (or use 'at:' for an edge inside a room)")
            ok = False
        return ok

    def _overrides(self) -> None:
        """The walls, openings, doors, windows and links sections laid on the edges: whole
        boundaries between two rooms first, then exact edges and links, then the single doors,
        windows and openings between two rooms (each on the middle free edge)."""
        singles = {s: self.sec.get(s.value) or [] for s in Section}
        self._boundaries(singles)
        self._exact_edges(singles)
        self._links(self.sec.get("links") or [])
        self._between_rooms(singles)

    def _plan_for(self, section: Section, spec: Any) -> EdgePlan:
        """What an entry of the walls, openings, doors or windows section puts on its edge."""
        if section is Section.WALLS:
            return EdgePlan(BarrierKind.WALL, Structure(spec.material), broken=spec.broken,
                            name=spec.name or "")
        if section is Section.OPENINGS:
            return EdgePlan(BarrierKind.OPEN, name=spec.name or "")
        if section is Section.DOORS:
            return EdgePlan(BarrierKind.DOOR, Structure(spec.material or self.defaults.door),
                            closed=spec.closed, broken=spec.broken, name=spec.name or "",
                            locked=spec.locked)
        if section is Section.WINDOWS:
            return EdgePlan(BarrierKind.WINDOW,
                            Structure(spec.material or self.defaults.window),
                            closed=spec.closed, broken=spec.broken, name=spec.name or "")
        raise AssertionError(section)

    def _claim(self, key: tuple[int, int], plan: EdgePlan, path: Path) -> None:
        """Put ``plan`` on an edge no other entry has set (else report the one that did)."""
        current = self.edges[key]
        if current.origin is not None:
            line = self.problems.located.line(current.origin)
            where = f" (line {line})" if line else ""
            self.add(path, f"the edge {self.building.areas[key[0]].name}-"
                     f"{self.building.areas[key[1]].name} is already set by "
                     f"{path_text(current.origin)}{where}")
            return
        plan.origin = path
        self.edges[key] = plan

    def _boundaries(self, singles: dict[Section, list]) -> None:
        """Walls ``between`` two rooms and openings ``between`` them with ``all``: every edge of
        the boundary, each boundary set once."""
        claims: dict[frozenset, Path] = {}
        for section in (Section.WALLS, Section.OPENINGS):
            for i, spec in enumerate(singles[section]):
                if spec is None or spec.between is None:
                    continue
                if section is Section.OPENINGS and not spec.all:
                    continue
                path = (section.value, i)
                if not self._pair_ok(spec.between, path):
                    continue
                pair = frozenset(spec.between)
                if pair in claims:
                    self.add(path, f"the boundary between {spec.between[0]!r} and "
                             f"{spec.between[1]!r} is already set by {path_text(claims[pair])}")
                    continue
                shared = self._shared(*spec.between)
                if not shared:
                    self._no_touch(spec.between, path)
                    continue
                claims[pair] = path
                for key in shared:
                    plan = self._plan_for(section, spec)
                    plan.bulk = path
                    self.edges[key] = plan

    def _exact_edges(self, singles: dict[Section, list]) -> None:
        """The entries placed ``at:`` an edge between two areas side by side."""
        for section, items in singles.items():
            for i, spec in enumerate(items):
                if spec is None or spec.at is None:
                    continue
                path = (section.value, i)
                edge = self._edge_key(spec.at, path + ("at",), vertical=False)
                if edge is not None:
                    self._claim(edge, self._plan_for(section, spec), path)

    def _links(self, links: list) -> None:
        """The links between levels: stairs, ladders, holes and trapdoors, or a floor (of the
        upper level's floor unless it names its material; only a floor has one)."""
        for i, spec in enumerate(links):
            if spec is None:
                continue
            path = ("links", i)
            edge = self._edge_key(spec.at, path + ("at",), vertical=True)
            if edge is None:
                continue
            kind = VERTICAL_KINDS[spec.kind]
            structure = None
            if kind is BarrierKind.FLOOR:
                upper = max(edge, key=lambda k: self.levels[self.building.areas[k].level].elevation)
                level = self.levels[self.building.areas[upper].level].spec
                structure = Structure(spec.material or level.floor or self.defaults.floor)
            elif spec.material is not None:
                self.add(path + ("material",), f"a {spec.kind} has no material (only a "
                         "floor does)")
            self._claim(edge, EdgePlan(kind, structure, broken=spec.broken, name=spec.name or ""),
                        path)

    def _between_rooms(self, singles: dict[Section, list]) -> None:
        """A door, window or opening ``between`` two rooms (not a whole boundary): on the
        middle edge of their boundary that nothing else has set."""
        for section, items in singles.items():
            for i, spec in enumerate(items):
                if spec is None or spec.between is None:
                    continue
                if section is Section.WALLS or (section is Section.OPENINGS and spec.all):
                    continue
                self._middle_edge(section, spec, (section.value, i))

    def _middle_edge(self, section: Section, spec: Any, path: Path) -> None:
        """One entry ``between`` two rooms on the middle free edge of their boundary."""
        if not self._pair_ok(spec.between, path):
            return
        shared = self._shared(*spec.between)
        if not shared:
            self._no_touch(spec.between, path)
            return
        free = [k for k in shared if self.edges[k].origin is None]
        if not free:
            self.add(path, f"every edge between {spec.between[0]!r} and "
                     f"{spec.between[1]!r} already has a door, window or opening",
                     tip="place this one with 'at:'")
            return
        plan = self._plan_for(section, spec)
        plan.origin = path
        self.edges[free[(len(free) - 1) // 2]] = plan

    def _no_touch(self, pair: list[str], path: Path) -> None:
        la = self.room_level.get(pair[0])
        lb = self.room_level.get(pair[1])
        tip = None
        if la is not None and lb is not None and la != lb:
            tip = (f"{pair[0]} is on {self.levels[la].spec.name}, {pair[1]} on "
                   f"{self.levels[lb].spec.name}: join levels with links:")
        self.add(path + ("between",), f"rooms {pair[0]!r} and {pair[1]!r} do not touch: no "
                 "two of their areas are side by side", tip=tip)

    def _connect(self) -> None:
        b = self.building
        for (i, j), plan in self.edges.items():
            barrier = b.connect(i, j, plan.kind, plan.structure, closed=plan.closed,
                                name=plan.name, locked=plan.locked)
            if plan.broken:
                b.destroy_barrier(barrier)

    def _routes(self) -> None:
        b = self.building
        for i, positions in enumerate(self.route_positions):
            spec = (self.sec.get("routes") or [])[i]
            if positions is None or spec is None:
                continue
            path = ("routes", i)
            found = [self.index.get(p) if p is not None else None for p in positions]
            indices = [x for x in found if x is not None]
            if len(indices) != len(found):
                continue
            ok = True
            seen: dict[int, int] = {}
            for k, idx in enumerate(indices):
                if idx in seen:
                    self.add(path + ("areas", k), f"{b.areas[idx].name} is already in this route "
                             f"(areas[{seen[idx]}])")
                    ok = False
                seen.setdefault(idx, k)
                if k and b.between(indices[k - 1], idx) is None:
                    self.add(path + ("areas", k), f"{b.areas[indices[k - 1]].name} and "
                             f"{b.areas[idx].name} are not neighbours: a route runs through "
                             "areas side by side (or one above the other), in order")
                    ok = False
            if ok:
                b.add_route(RouteKind(spec.kind), indices, spec.name or "")

