"""The parts of a building: levels, rooms, 10-ft areas, the barriers between them, routes of
fuel, and the names a GM reads (``ground:C4``). :mod:`fuego.world.building` puts them together into
the graph and keeps it consistent; this module holds the records themselves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from fuego.rules.charts import COMBUSTIBLE, DESTRUCTION_TN, PASS_THROUGH_TN, Structure
from fuego.words import the


class BarrierState(str, Enum):
    """Where a barrier stands: what fire, smoke and people meet on its edge."""

    OPEN = "open"  # an opening, or a door or window standing open
    CLOSED = "closed"  # intact and shut (walls and floors are always this until broken)
    BROKEN = "broken"  # destroyed: an opening now (a floor becomes a hole)


class BarrierKind(str, Enum):
    """What separates two neighbouring areas."""

    OPEN = "open"  # same room, an archway, open ground: nothing in the way
    WALL = "wall"
    DOOR = "door"
    WINDOW = "window"
    FLOOR = "floor"  # the floor of the upper area and the ceiling of the lower
    STAIRS = "stairs"  # an open link between levels a person can walk
    LADDER = "ladder"
    HOLE = "hole"  # a hatchway, a trapdoor left open, a collapsed floor


#: Kinds that let fire, smoke and people through while intact.
ALWAYS_OPEN = frozenset({BarrierKind.OPEN, BarrierKind.STAIRS, BarrierKind.LADDER, BarrierKind.HOLE})
#: Kinds a person can open and close during play.
OPENABLE = frozenset({BarrierKind.DOOR, BarrierKind.WINDOW})
#: Characters the text plans (``fuego show``, the GM's screen) draw as marks: doors, windows,
#: a gap, burned out, stairs, features (``^`` an explosive), fires, heroes, smoke, no fuel, a
#: fire break. A room with one of them as its plan character is drawn with another there, so
#: ``fuego import`` gives a room one only when every other character is taken.
PLAN_MARKS = frozenset("DdWw/xLO<>Eg^ob*@+~%≈.&=")
VERTICAL = frozenset({BarrierKind.FLOOR, BarrierKind.STAIRS, BarrierKind.LADDER, BarrierKind.HOLE})


class Feature(str, Enum):
    """Things in an area the rules care about."""

    OIL = "oil"  # spilt oil or a lamp's reservoir: burns hot along its route
    GUNPOWDER = "gunpowder"  # thick smoke; burns hot; a magazine can be scripted to explode
    EXPLOSIVE = "explosive"  # any other explosive fuel (a keg of spirits, lamp gas): burns hot
    WOODEN_BEAM = "wooden-beam"  # a structural beam or post holding up the floor above
    STONE_BEAM = "stone-beam"
    LARGE_STONE_BEAM = "large-stone-beam"
    EXIT = "exit"  # a way out of the scene for heroes


#: Burning liquids: a fire on them covers whoever steps in (003, "covered in burning liquid").
BURNING_LIQUIDS = frozenset({Feature.OIL})

BEAM_STRUCTURE = {
    Feature.WOODEN_BEAM: Structure.WOODEN_BEAM,
    Feature.STONE_BEAM: Structure.STONE_BEAM,
    Feature.LARGE_STONE_BEAM: Structure.LARGE_STONE_BEAM,
}


class RouteKind(str, Enum):
    """Runs of fuel a fire follows without a roll (003, Crunchy Rules: spreading)."""

    CARPET = "carpet"
    CURTAINS = "curtains"
    HANGINGS = "hangings"
    OIL = "oil"
    FUSE = "fuse"  # a powder trail
    OTHER = "other"


def column_letters(col: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA: spreadsheet columns."""
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def column_index(letters: str) -> int:
    col = 0
    for ch in letters.upper():
        col = col * 26 + (ord(ch) - 64)
    return col - 1


_COORD_RE = re.compile(r"^(?:([A-Za-z0-9_-]+):)?([A-Za-z]{1,3})(\d{1,4})$")


def parse_coordinate(text: str) -> tuple[str | None, int, int]:
    """``ground:C4`` -> (``ground``, 2, 3); ``C4`` -> (None, 2, 3). Raises ValueError."""
    m = _COORD_RE.match(text.strip()) if isinstance(text, str) else None
    if not m or int(m.group(3)) < 1:
        raise ValueError(f"not an area coordinate: {text!r} (expected e.g. C4 or ground:C4)")
    return m.group(1), column_index(m.group(2)), int(m.group(3)) - 1


@dataclass(frozen=True, slots=True)
class Level:
    index: int
    name: str
    elevation: int  # 0 ground, -1 cellar, 1 first floor ...
    floor: Structure = Structure.WOODEN_FLOOR  # the floor of this level (the ceiling below it)


@dataclass(frozen=True, slots=True)
class Room:
    key: str
    name: str
    level: int
    outdoors: bool = False
    wall: Structure = Structure.WOODEN_WALL  # default wall against other rooms
    description: str = ""
    #: Whether its name is said with "the": None lets the name decide (``words.the``); False
    #: for a street's proper name (Goose Lane), True for a common possessive (Captain's Cabin).
    article: bool | None = None
    #: the fuel the scenario gives its areas (its own or ``defaults.fuel``), Resolve 0-9, and
    #: its name when it has one ("" for a number): what ``fuego export`` carries for import
    fuel: int = 0
    fuel_name: str = ""

    @property
    def spoken(self) -> str:
        """The name as a sentence says it: ``the Kitchen``, ``Goose Lane``, ``Anselm's Barn``."""
        name = self.name or self.key
        if self.article is None:
            return the(name)
        return f"the {name}" if self.article else name


@dataclass(slots=True)
class Area:
    """One 10-ft square: the unit of one fire, and the data of its node in the building's graph.

    Play changes ``fuel``, ``burned_out`` and ``features`` only through the
    :class:`fuego.world.building.Building` methods (``set_fuel``, ``burn_out``,
    ``add_feature``, ``remove_feature``), which bump the building's version."""

    index: int
    col: int
    row: int
    level: int
    room: str
    fuel: int  # Resolve 0-9 still to burn (0: nothing to burn)
    fuel_name: str = ""
    wet: bool = False  # wet or damp fuel: thick smoke (003)
    smoky: bool = False  # fuel that smokes thick for another reason (green leaves, chemicals)
    features: frozenset[Feature] = frozenset()
    name: str = ""
    burned_out: bool = False
    terrain: str = ""  # outdoor terrain or building kind for the modules ("" = by default)
    routes: tuple[Route, ...] = ()  # the routes of fuel through it (Building.add_route)
    #: the fuel the scenario gives this area itself (its legend or ``areas:`` entry) where it
    #: is not its room's: (Resolve, name or ""); None: its room's. Never changed by play
    own_fuel: tuple[int, str] | None = None

    @property
    def thick_smoke(self) -> bool:
        return self.wet or self.smoky or Feature.GUNPOWDER in self.features

    @property
    def burnable(self) -> bool:
        return self.fuel > 0 and not self.burned_out


@dataclass(slots=True)
class Barrier:
    """What stands between two neighbouring areas ``a`` and ``b`` (``a < b``): the data of
    their edge in the building's graph. ``closed`` and ``destroyed`` change only through
    :class:`fuego.world.building.Building` (``open_barrier``, ``close_barrier``,
    ``destroy_barrier``), which bump the building's version."""

    index: int
    a: int
    b: int
    kind: BarrierKind
    structure: Structure | None = None  # the material, for walls, doors, windows and floors
    closed: bool = True  # doors and windows only
    destroyed: bool = False
    #: the name the map gave it ("" for none: :attr:`name` is then its two areas')
    label: str = ""
    #: a locked door: shut, and no hero can open it (fire still burns through it; the GM or
    #: a script opening it unlocks it)
    locked: bool = False
    #: the building's areas, whose names make :attr:`name` when the map gave none
    areas: Sequence[Area] = field(default=(), compare=False, repr=False)

    @property
    def name(self) -> str:
        """What the GM calls it: the map's name, else its two areas' (``ground:C4|ground:D4``),
        made when read (few are: a 100,000-area field's would be ~15 MB kept)."""
        return self.label or f"{self.areas[self.a].name}|{self.areas[self.b].name}"

    @property
    def state(self) -> BarrierState:
        if self.destroyed:
            return BarrierState.BROKEN
        if self.kind in ALWAYS_OPEN or (self.kind in OPENABLE and not self.closed):
            return BarrierState.OPEN
        return BarrierState.CLOSED

    @property
    def passable(self) -> bool:
        """Can fire, smoke and people pass without breaking it?"""
        if self.destroyed or self.kind in ALWAYS_OPEN:
            return True
        return self.kind in OPENABLE and not self.closed

    @property
    def vertical(self) -> bool:
        return self.kind in VERTICAL

    @property
    def see_through(self) -> bool:
        """Can one see across it? An opening, a door or window standing open, anything broken,
        and a window even when shut (its glass or paper: fuego's reading, docs/rules.md Sight)."""
        return self.passable or self.kind is BarrierKind.WINDOW

    @property
    def blurs(self) -> bool:
        """A shut papered window: the light of a fire and shapes come through, nothing clear."""
        return (self.kind is BarrierKind.WINDOW and self.closed and not self.destroyed
                and self.structure is Structure.PAPERED_WINDOW)

    @property
    def destruction_tn(self) -> int | None:
        if self.passable or self.structure is None:
            return None
        return DESTRUCTION_TN.get(self.structure)

    @property
    def pass_through_tn(self) -> int | None:
        if self.passable or self.structure is None:
            return None
        return PASS_THROUGH_TN.get(self.structure)

    @property
    def combustible(self) -> bool:
        return self.structure in COMBUSTIBLE

    def other(self, i: int) -> int:
        return self.b if i == self.a else self.a

    def describe(self) -> str:
        if self.kind in ALWAYS_OPEN:
            return self.kind.value
        what = self.structure.value if self.structure else self.kind.value
        if self.destroyed:
            return f"broken {what}"
        if self.kind in OPENABLE:
            return f"{'locked' if self.locked else 'closed' if self.closed else 'open'} {what}"
        return what


@dataclass(slots=True)
class Route:
    """A run of fuel through ``areas`` in order (carpet, curtains, spilt oil)."""

    index: int
    kind: RouteKind
    areas: tuple[int, ...]
    name: str = ""
