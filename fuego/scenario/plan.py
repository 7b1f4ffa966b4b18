"""From the checked sections of a scenario file to a :class:`~fuego.world.building.Building`.

The GM draws each level as an ASCII plan, one character per 10-ft area; the legend maps
characters to rooms (``#`` and space are solid rock or nothing: no area). fuego then joins
neighbouring areas:

- side by side in the same room, or both outdoors: open (``BarrierKind.OPEN``);
- in different rooms: a wall of the stronger default of the two rooms (higher destruction TN);
  an outdoor room against an enclosed one takes the enclosed room's wall;
- one above the other on levels whose elevations differ by one: the upper level's floor.

Then the file's ``walls:``, ``openings:``, ``doors:``, ``windows:`` and ``links:`` replace
barriers, by room pair (``between:``) or exact edge (``at:``), and ``routes:`` lay runs of fuel.
Those barriers, links and routes are placed by :mod:`fuego.scenario.barriers`.
Every problem is reported to the :class:`~fuego.scenario.source.Problems` with its location;
the builder keeps going so one run finds them all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fuego.errors import one_of, suggest
from fuego.rules.charts import FUEL_RESOLVE, Structure
from fuego.scenario.barriers import BarrierPlanner, EdgePlan
from fuego.scenario.limits import (
    MAX_AREAS,
    MAX_LEVELS,
    MAX_PLAN_COLUMNS,
    MAX_PLAN_ROWS,
    MAX_ROUTES,
)
from fuego.scenario.source import Path, Problems, short
from fuego.scenario.spec import FUEL_RE, ROOM_KEY_RE, AreaSpec, Defaults, LegendEntry, LevelSpec, RoomSpec
from fuego.world.building import Building
from fuego.world.places import Feature, Room, RouteKind, column_letters, parse_coordinate

#: Plan characters that are no area: solid rock or walls (``#``) and outside (space).
NO_AREA = "# "

#: Fuel a route gives an area that has none (fuego's reading: the run of fuel itself burns).
#: A carpet, curtains, hangings or a powder trail is about a piece of paper (Resolve 1); spilt
#: oil is about a small stack of paper (Resolve 3), the text's "flask of oil" fire.
_PAPER, _PAPER_STACK = FUEL_RESOLVE["paper"], FUEL_RESOLVE["paper-stack"]
ROUTE_MIN_FUEL: dict[RouteKind, int] = {
    RouteKind.CARPET: _PAPER,
    RouteKind.CURTAINS: _PAPER,
    RouteKind.HANGINGS: _PAPER,
    RouteKind.OIL: _PAPER_STACK,
    RouteKind.FUSE: _PAPER,
    RouteKind.OTHER: _PAPER,
}
#: Fuel an ``oil``, ``gunpowder`` or ``explosive`` feature gives an area that has none (fuego's
#: reading: a small stack of paper, as spilt oil).
FEATURE_MIN_FUEL: dict[Feature, int] = {Feature.OIL: _PAPER_STACK, Feature.GUNPOWDER: _PAPER_STACK,
                                        Feature.EXPLOSIVE: _PAPER_STACK}

Pos = tuple[int, int, int]  # (level index, column, row), all 0-based


@dataclass
class PlanLevel:
    """One level as drawn: rows of characters, and where each row was written."""

    spec: LevelSpec
    index: int
    path: Path
    rows: list[str] = field(default_factory=list)
    row_lines: list[int | None] = field(default_factory=list)
    width: int = 0
    elevation: int = 0


class Planner(BarrierPlanner):
    """Builds one :class:`Building` from checked sections, reporting problems as it goes."""

    def __init__(self, sections: dict[str, Any], raw: dict, problems: Problems):
        self.sec = sections
        self.raw = raw if isinstance(raw, dict) else {}
        self.problems = problems
        self.building = Building(title=sections.get("title") or "")
        self.defaults: Defaults = sections.get("defaults") or Defaults()
        self.fuels: dict[str, int] = dict(FUEL_RESOLVE)
        self.rooms: dict[str, RoomSpec | None] = {}
        self.rooms_ok = "rooms" in sections and "rooms" not in sections.get("_bad", set())
        self.levels: list[PlanLevel] = []
        self.level_by_name: dict[str, PlanLevel] = {}
        self.broken_levels: set[str] = set()
        self.cells: dict[Pos, tuple[str, LegendEntry]] = {}  # area position -> (char, entry)
        self.index: dict[Pos, int] = {}
        self.symbols: dict[str, str] = {}  # room key -> its plan character
        self.edges: dict[tuple[int, int], EdgePlan] = {}
        self.area_overrides: dict[Pos, tuple[Path, Any]] = {}
        self.route_fuel: dict[Pos, int] = {}
        self.room_level: dict[str, int] = {}
        self.too_many_areas = False
        #: areas whose fuel comes from a broken room, legend, area entry or fuel name: checks
        #: that depend on their fuel stay quiet (the cause is reported already)
        self.uncertain: set[int] = set()
        self._pairs = None  # the edges between two rooms, by room pair (barriers._shared)

    # -- helpers ------------------------------------------------------------------------------
    def add(self, path: Path, message: str, **kw: Any) -> None:
        self.problems.add(path, message, **kw)

    def fuel(self, ref: Any, path: Path) -> tuple[int, str] | None:
        if ref is None:
            return None
        if isinstance(ref, int):
            return ref, ""
        if ref in self.fuels:
            return self.fuels[ref], ref
        self.add(path, f"unknown fuel {ref!r}{suggest(ref, self.fuels)}; fuels are a number 0-9 "
                 f"or one of: {one_of(self.fuels)}",
                 tip="name your own under 'fuels:' (e.g. fuels: {tables: 4})")
        return None

    def level_named(self, name: str, path: Path) -> PlanLevel | None:
        lv = self.level_by_name.get(name)
        if lv is None and name not in self.broken_levels:
            self.add(path, f"no level {name!r}{suggest(name, self.level_by_name)}; levels are: "
                     f"{one_of(self.level_by_name)}")
        return lv

    def position(self, ref: Any, path: Path, what: str = "area") -> Pos | None:
        """The (level, column, row) of an area name, or None after reporting why not."""
        if not isinstance(ref, str):
            self.add(path, f"expected an area name such as ground:C4, got {short(ref)}")
            return None
        try:
            level_name, col, row = parse_coordinate(ref)
        except ValueError:
            self.add(path, f"not an area name: {short(ref)} (expected e.g. C4 or ground:C4)")
            return None
        if level_name is None:
            if len(self.levels) != 1 or self.broken_levels:
                if self.levels:
                    self.add(path, f"say which level {ref!r} is on, e.g. "
                             f"{self.levels[0].spec.name}:{ref.upper()} (levels: "
                             f"{one_of(self.level_by_name)})")
                return None
            lv: PlanLevel | None = self.levels[0]
        else:
            lv = self.level_named(level_name, path)
        if lv is None:
            return None
        name = f"{lv.spec.name}:{column_letters(col)}{row + 1}"
        height = len(lv.rows)
        if row >= height or col >= lv.width:
            self.add(path, f"{what} {name} is outside the {lv.spec.name} plan (columns "
                     f"A-{column_letters(max(0, lv.width - 1))}, rows 1-{height})")
            return None
        ch = lv.rows[row][col]
        pos = (lv.index, col, row)
        if ch in NO_AREA:
            solid = "'#' (solid)" if ch == "#" else "a space (nothing)"
            self.add(path, f"{what} {name} is not an area: the {lv.spec.name} plan has {solid} "
                     "there")
            return None
        if pos not in self.cells:
            return None  # an unknown plan character, already reported
        return pos

    def area_index(self, ref: Any, path: Path, what: str = "area") -> int | None:
        pos = self.position(ref, path, what)
        return None if pos is None else self.index.get(pos)

    def name_of(self, pos: Pos) -> str:
        lv = self.levels[pos[0]]
        return f"{lv.spec.name}:{column_letters(pos[1])}{pos[2] + 1}"

    # -- the whole build -----------------------------------------------------------------------
    def build(self) -> Building:
        self._fuels()
        self._rooms()
        legend = self._legend(self.sec.get("legend") or {}, ("legend",))
        self._levels(legend)
        self._place_rooms()
        self._area_overrides()
        self._route_fuel()
        self._areas()
        self._default_edges()
        self._overrides()
        self._connect()
        self._routes()
        return self.building

    def _fuels(self) -> None:
        for name, value in (self.sec.get("fuels") or {}).items():
            path = ("fuels", name)
            if not FUEL_RE.match(name):
                self.add(path, f"not a fuel name: {short(name)} (lowercase letters, digits, -)")
                continue
            if value is None:
                continue
            if name in FUEL_RESOLVE and FUEL_RESOLVE[name] != value:
                self.add(path, f"{name!r} is a built-in fuel (Resolve {FUEL_RESOLVE[name]}); "
                         "give yours another name")
                continue
            self.fuels[name] = value
        self.fuel(self.defaults.fuel, ("defaults", "fuel"))

    def _rooms(self) -> None:
        rooms = self.sec.get("rooms") or {}
        if self.rooms_ok and not rooms:
            self.add(("rooms",), "a scenario needs at least one room")
        for key, spec in rooms.items():
            path = ("rooms", key)
            if not ROOM_KEY_RE.match(key):
                self.add(path, f"not a room key: {short(key)} (a letter, then letters, digits, - "
                         "or _)")
            self.rooms[key] = spec
            if spec is not None:
                self.fuel(spec.fuel, path + ("fuel",))

    def room_known(self, key: str, path: Path) -> bool:
        if key in self.rooms or not self.rooms_ok:
            return key in self.rooms
        self.add(path, f"no room {key!r}{suggest(key, self.rooms)}; rooms are: "
                 f"{one_of(self.rooms)}")
        return False

    def _legend(self, legend: dict, path: Path) -> dict[str, LegendEntry | None]:
        out = {}
        for ch, entry in legend.items():
            p = path + (ch,)
            if len(ch) != 1:
                self.add(p, f"a legend key is one plan character, not {ch!r}")
                continue
            if ch in NO_AREA or not ch.isprintable():
                self.add(p, f"{ch!r} cannot be in the legend: '#' and space mean no area")
                continue
            out[ch] = entry  # None: a broken entry, reported already
            if entry is None:
                continue
            self.room_known(entry.room, p if isinstance(self._raw(p), str) else p + ("room",))
            self.fuel(entry.fuel, p + ("fuel",))
        return out

    def _raw(self, path: Path) -> Any:
        node: Any = self.raw
        for part in path:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                return None
        return node

    def raw_list(self, section: str) -> list[Any]:
        """A list section as written in the file (``[]`` if it is not a list)."""
        items = self.raw.get(section)
        return items if isinstance(items, list) else []

    def _levels(self, global_legend: dict[str, LegendEntry | None]) -> None:
        """Each level of the file checked (its name unique, its elevation given and its own,
        its plan drawn) and added to the building with its areas' cells."""
        specs = self.sec.get("levels") or []
        if len(specs) > MAX_LEVELS:
            self.add(("levels",), f"{len(specs)} levels; at most {MAX_LEVELS}")
            specs = specs[:MAX_LEVELS]
        raw_levels = self.raw_list("levels")
        for i, spec in enumerate(specs):
            if spec is None:
                raw = raw_levels[i] if i < len(raw_levels) else None
                if isinstance(raw, dict) and isinstance(raw.get("name"), str):
                    self.broken_levels.add(raw["name"])
        elevations: dict[int, str] = {}
        total = 0
        for i, spec in [(i, s) for i, s in enumerate(specs) if s is not None]:
            path = ("levels", i)
            if spec.name in self.level_by_name:
                self.add(path + ("name",), f"two levels are named {spec.name!r}")
                continue
            elevation = self._elevation(spec, path, len(specs) > 1, elevations)
            if elevation is None:
                self.broken_levels.add(spec.name)
                continue
            elevations[elevation] = spec.name
            lv = PlanLevel(spec, len(self.levels), path, elevation=elevation)
            if not self._read_plan(lv):
                self.broken_levels.add(spec.name)
                continue
            self.levels.append(lv)
            self.level_by_name[spec.name] = lv
            floor = Structure(spec.floor or self.defaults.floor)
            self.building.add_level(spec.name, elevation, floor)
            legend = dict(global_legend)
            legend.update(self._legend(spec.legend, path + ("legend",)))
            total = self._cells(lv, legend, total)

    def _elevation(self, spec: LevelSpec, path: Path, several: bool, elevations: dict[int, str]
                   ) -> int | None:
        """A level's elevation (0 if it is the only level and gives none), or None (reported)
        when several levels leave it out or another level has it."""
        elevation = spec.elevation
        if elevation is None:
            if several:
                self.add(path, f"level {spec.name!r} needs an 'elevation:' (0 ground, -1 "
                         "cellar, 1 the floor above) when there are several levels")
                return None
            elevation = 0
        if elevation in elevations:
            self.add(path + ("elevation",), f"levels {elevations[elevation]!r} and "
                     f"{spec.name!r} both have elevation {elevation}")
            return None
        return elevation

    def _read_plan(self, lv: PlanLevel) -> bool:
        """A level's plan read into its rows (each with its line in the file); False (and
        reported) if it is empty, too large, or has tabs or rows of different widths."""
        path = lv.path + ("plan",)
        rows, lines = self._plan_rows(lv)
        if not rows:
            self.add(path, "the plan is empty: draw one character per 10-ft area")
            return False
        if len(rows) > MAX_PLAN_ROWS:
            self.add(path, f"the plan has {len(rows)} rows; at most {MAX_PLAN_ROWS}")
            return False
        width = len(rows[0])
        ok = True
        ragged = 0
        for r, row in enumerate(rows):
            if len(row) > MAX_PLAN_COLUMNS:
                self.add(path, f"plan row {r + 1} is {len(row)} characters wide; at most "
                         f"{MAX_PLAN_COLUMNS}", line=lines[r])
                return False
            if "\t" in row:
                self.add(path, f"plan row {r + 1} has a tab; draw with spaces or '#'",
                         line=lines[r])
                ok = False
            if len(row) != width:
                ragged += 1
                if ragged <= 5:
                    self.add(path, f"plan row {r + 1} is {len(row)} characters wide but row 1 is "
                             f"{width}: every row of a plan must be the same width",
                             line=lines[r], tip="pad short rows with '#'")
                ok = False
        if ragged > 5:
            self.add(path, f"... and {ragged - 5} more rows of the wrong width")
        lv.rows, lv.row_lines, lv.width = rows, lines, width
        return ok

    def _plan_rows(self, lv: PlanLevel) -> tuple[list[str], list[int | None]]:
        """A plan's rows and each one's line in the file (a list of strings, or a block); the
        blank lines before and after the drawing are not rows, but a row of spaces on top is
        (open air: dropping it would move every area of the level up a row)."""
        path = lv.path + ("plan",)
        rows = lv.spec.plan.split("\n")
        lines: list[int | None]
        if isinstance(self._raw(path), list):
            lines = [self.problems.located.line(path + (r,)) for r in range(len(rows))]
        else:
            start = self.problems.located.line(path) or 0
            style = self.problems.located.style(path)
            first = start + 1 if style in ("|", ">") else start
            lines = [first + r if start else None for r in range(len(rows))]
        while rows and not rows[-1].strip():
            rows.pop(), lines.pop()
        while rows and not rows[0]:
            rows.pop(0), lines.pop(0)
        return rows, lines

    def _cells(self, lv: PlanLevel, legend: dict[str, LegendEntry | None], total: int) -> int:
        unknown: dict[str, list] = {}
        for r, row in enumerate(lv.rows):
            for c, ch in enumerate(row):
                if ch in NO_AREA:
                    continue
                if ch not in legend:
                    unknown.setdefault(ch, []).append((r, c))
                    continue
                entry = legend[ch]
                if entry is None or entry.room not in self.rooms:
                    continue  # a broken legend entry or an unknown room: reported already
                if total >= MAX_AREAS:
                    if not self.too_many_areas:
                        self.add(lv.path + ("plan",), f"more than {MAX_AREAS:,} areas in the "
                                 "building; that is the limit")
                        self.too_many_areas = True
                    return total
                self.cells[(lv.index, c, r)] = (ch, entry)
                total += 1
        for ch, where in unknown.items():
            r, c = where[0]
            more = f" ({len(where)} places)" if len(where) > 1 else ""
            self.add(lv.path + ("plan",), f"plan character {ch!r} at {lv.spec.name}:"
                     f"{column_letters(c)}{r + 1} is not in the legend{more}: map it to a room "
                     "or use '#' for no area", line=lv.row_lines[r])
        return total

    def _place_rooms(self) -> None:
        used: dict[str, list[int]] = {}
        for (li, _c, _r), (ch, entry) in self.cells.items():
            levels = used.setdefault(entry.room, [])
            if li not in levels:
                levels.append(li)
            self.symbols.setdefault(entry.room, ch)
        for key, levels in used.items():
            if len(levels) > 1:
                names = [self.levels[i].spec.name for i in levels]
                self.add(("rooms", key), f"room {key!r} is drawn on levels {', '.join(names)}; "
                         "a room is on one level (make one room per level)")
            self.room_level[key] = levels[0]
        for key, spec in self.rooms.items():
            if key not in used:
                if self.levels and not self.broken_levels:
                    self.add(("rooms", key), f"room {key!r} is not drawn on any plan (no legend "
                             "character maps to it)")
                continue
            spec = spec or RoomSpec()
            wall = Structure(spec.wall or self.defaults.wall)
            name = spec.name or key.replace("-", " ").replace("_", " ").title()
            fuel, fuel_name = self._fuel_quiet(self._room_fuel(spec))
            self.building.add_room(Room(key, name, self.room_level[key], spec.outdoors, wall,
                                        spec.description, spec.article, fuel, fuel_name))

    def _room_fuel(self, room: RoomSpec) -> Any:
        """A room's fuel as the file gives it: its own, else ``defaults.fuel``."""
        return room.fuel if room.fuel is not None else self.defaults.fuel

    def _area_overrides(self) -> None:
        for ref, spec in (self.sec.get("areas") or {}).items():
            path = ("areas", ref)
            pos = self.position(ref, path)
            if pos is None:
                continue
            if pos in self.area_overrides:
                other = self.area_overrides[pos][0]
                self.add(path, f"area {self.name_of(pos)} is already set at "
                         f"areas.{other[-1]}")
                continue
            if spec is not None:
                self.fuel(spec.fuel, path + ("fuel",))
            self.area_overrides[pos] = (path, spec)

    def _route_fuel(self) -> None:
        self.route_positions: list[list[Pos | None] | None] = []
        routes = self.sec.get("routes") or []
        if len(routes) > MAX_ROUTES:
            self.add(("routes",), f"{len(routes)} routes; at most {MAX_ROUTES}")
            routes = routes[:MAX_ROUTES]
        for i, spec in enumerate(routes):
            if spec is None:
                self.route_positions.append(None)
                continue
            kind = RouteKind(spec.kind)
            positions = []
            for k, ref in enumerate(spec.areas):
                pos = self.position(ref, ("routes", i, "areas", k))
                positions.append(pos)
                if pos is not None:
                    self.route_fuel[pos] = max(self.route_fuel.get(pos, 0), ROUTE_MIN_FUEL[kind])
            self.route_positions.append(positions)

    def _areas(self) -> None:
        """Each drawn cell made an area of the building, level by level in reading order: its
        room's fuel, wetness, smoke and features, as its legend entry and the areas section
        change them, at least the fuel its features and routes need."""
        for pos in sorted(self.cells, key=lambda p: (p[0], p[2], p[1])):
            _ch, entry = self.cells[pos]
            if entry.room not in self.building.rooms:
                continue
            fuel_ref, wet, smoky, terrain, features, uncertain = self._area_spec(pos, entry)
            fuel, fuel_name = self._fuel_quiet(fuel_ref)
            # (its legend or areas entry gave it a fuel of its own, before features and routes)
            own = None if fuel_ref == self._room_fuel(self.rooms.get(entry.room) or RoomSpec()) \
                else (fuel, fuel_name)
            if isinstance(fuel_ref, str) and fuel_ref not in self.fuels:
                uncertain = True
            feats = frozenset(Feature(f) for f in features)
            for feature, least in FEATURE_MIN_FUEL.items():
                if feature in feats and fuel < least:
                    fuel, fuel_name = least, fuel_name or feature.value
            if pos in self.route_fuel and fuel < self.route_fuel[pos]:
                fuel, fuel_name = self.route_fuel[pos], fuel_name or "route"
            area = self.building.add_area(pos[1], pos[2], pos[0], entry.room, fuel,
                                          fuel_name=fuel_name, wet=wet, smoky=smoky,
                                          features=feats, terrain=terrain, own_fuel=own)
            self.index[pos] = area.index
            if uncertain:
                self.uncertain.add(area.index)

    def _area_spec(self, pos: Pos, entry: LegendEntry
                   ) -> tuple[Any, bool, bool, str, set, bool]:
        """What an area is made of: its room's fuel reference, wetness, smoke, terrain and
        features, overlaid by its legend entry, then by its entry in the areas section; and
        whether a broken entry leaves it uncertain."""
        uncertain = self.rooms.get(entry.room) is None
        room = self.rooms.get(entry.room) or RoomSpec()
        fuel_ref = self._room_fuel(room)
        terrain = room.terrain or ""  # for the optional modules
        features = set(room.features) | set(entry.features)
        fuel_ref, wet, smoky = _overlay(entry, fuel_ref, room.wet, room.smoky)
        override = self.area_overrides.get(pos)
        if override is not None and override[1] is None:
            uncertain = True
        if override is not None and override[1] is not None:
            spec = override[1]
            fuel_ref, wet, smoky = _overlay(spec, fuel_ref, wet, smoky)
            if spec.features is not None:
                features = set(spec.features)
            if spec.terrain is not None:
                terrain = spec.terrain
        return fuel_ref, wet, smoky, terrain, features, uncertain

    def _fuel_quiet(self, ref: Any) -> tuple[int, str]:
        if isinstance(ref, int):
            return ref, ""
        if isinstance(ref, str) and ref in self.fuels:
            return self.fuels[ref], ref
        return 0, ""  # an unknown name: already reported


def _overlay(spec: LegendEntry | AreaSpec, fuel: Any, wet: bool, smoky: bool) -> tuple[Any, bool, bool]:
    """Fuel, wet and smoky as ``spec`` (a legend entry or an area override) sets them: each
    only where it says something, the room's (or the legend's) value otherwise."""
    return (spec.fuel if spec.fuel is not None else fuel,
            spec.wet if spec.wet is not None else wet,
            spec.smoky if spec.smoky is not None else smoky)
