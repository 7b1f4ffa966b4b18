"""The shape of a scenario file: one pydantic model per section (docs/scenario-format.md).

These models check types, ranges and names only. Whether a room, an area or a hero named in one
place exists in another is checked afterwards by :mod:`fuego.scenario.plan` and
:mod:`fuego.scenario.model`, so one run reports every problem of a file. Each section (and each
item of a list section) is validated on its own: a broken hero does not hide a broken fire.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from fuego.engine.heroes import RULE_KNACKS
from fuego.errors import one_of, suggest
from fuego.modules.common import TERRAINS as TERRAIN_TABLE
from fuego.modules.wrecks import MAX_ROUNDS as MAX_WRECK_ROUNDS
from fuego.modules.wrecks import VEHICLES
from fuego.rules.charts import MAX_FIRE_DICE, MAX_RESOLVE, MIN_FIRE_DICE, Structure
from fuego.scenario.limits import (
    MAX_ELEVATION,
    MAX_KNACK,
    MAX_NAME_CHARS,
    MAX_ROUNDS,
    MAX_ROUTE_AREAS,
    MAX_TEXT_CHARS,
    MAX_TRAIT,
)
from fuego.scenario.source import Path, Problems, short
from fuego.world.places import Feature, RouteKind, parse_coordinate

#: The current format version (``format:`` in the file; optional).
FORMAT_VERSION = 1

WALLS = tuple(s.value for s in Structure if s.value.endswith("-wall"))
DOORS = tuple(s.value for s in Structure if s.value.endswith("-door"))
WINDOWS = tuple(s.value for s in Structure if s.value.endswith("-window"))
FLOORS = tuple(s.value for s in Structure if s.value.endswith("-floor"))
FEATURES = tuple(f.value for f in Feature)
#: Outdoor terrain and building kinds the optional modules read (docs/modules.md, "Terrain").
TERRAINS = tuple(TERRAIN_TABLE)
ROUTE_KINDS = tuple(k.value for k in RouteKind)
LINK_KINDS = ("stairs", "ladder", "hole", "floor")
WINDS = ("gale", "strong", "moderate", "light", "calm")
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

_KEY_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,39}$")
_LEVEL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,19}$")
_FUEL_RE = re.compile(r"^[a-z][a-z0-9-]{0,29}$")
_EDGE_RE = re.compile(
    r"^\s*((?:[A-Za-z0-9_-]+:)?[A-Za-z]{1,3}\d{1,4})\s*(?:-|\||–|\bto\b)\s*"
    r"((?:[A-Za-z0-9_-]+:)?[A-Za-z]{1,3}\d{1,4})\s*$"
)


# -- field types ---------------------------------------------------------------------------
def _no_bool(v: Any) -> Any:
    if isinstance(v, bool):
        raise ValueError(f"expected a whole number, got {str(v).lower()}")
    return v


#: A whole number, never a YAML true/false (pydantic would read those as 1 and 0); each field
#: adds its range with ``Field(ge=..., le=...)``.
Whole = BeforeValidator(_no_bool)
Text = Annotated[str, Field(max_length=MAX_TEXT_CHARS)]
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS)]

# The file's words for walls, doors, windows, floors, features, terrains, routes, links, winds
# and directions, read from the tables: a Literal built at run time, which mypy reads as text.
if TYPE_CHECKING:
    WallName = str
    DoorName = str
    WindowName = str
    FloorName = str
    FeatureName = str
    TerrainName = str
    RouteKindName = str
    LinkKindName = str
    WindName = str
    DirectionName = str
    VehicleName = str
else:
    WallName = Literal[WALLS]
    DoorName = Literal[DOORS]
    WindowName = Literal[WINDOWS]
    FloorName = Literal[FLOORS]
    FeatureName = Literal[FEATURES]
    TerrainName = Literal[TERRAINS]
    RouteKindName = Literal[ROUTE_KINDS]
    LinkKindName = Literal[LINK_KINDS]
    WindName = Literal[WINDS]
    DirectionName = Literal[DIRECTIONS]
    VehicleName = Literal[VEHICLES]


def _fuel(v: Any) -> Any:
    """A fuel: a whole number 0-9 or a fuel name (checked against the file's fuels later)."""
    if isinstance(v, bool) or v is None:
        raise ValueError(f"expected a fuel: a number 0-{MAX_RESOLVE} or a fuel name such as "
                         f"paper or log-pile, got {short(v)}")
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, int):
        if not 0 <= v <= MAX_RESOLVE:
            raise ValueError(f"fuel (Resolve) must be 0-{MAX_RESOLVE}, not {v}")
        return v
    if isinstance(v, str):
        name = v.strip().lower()
        if name.isdecimal():
            return _fuel(int(name))
        if not _FUEL_RE.match(name):
            raise ValueError(f"not a fuel name: {short(v)} (lowercase letters, digits and -)")
        return name
    raise ValueError(f"expected a fuel: a number 0-{MAX_RESOLVE} or a fuel name, got {short(v)}")


FuelRef = Annotated[Any, BeforeValidator(_fuel)]


def _area_ref(v: Any) -> Any:
    if not isinstance(v, str):
        raise ValueError(f"expected an area name such as ground:C4, got {short(v)}")
    try:
        parse_coordinate(v)
    except ValueError:
        raise ValueError(f"not an area name: {short(v)} (expected e.g. C4 or ground:C4: a column "
                         "letter and a row number, optionally after a level name)") from None
    return v.strip()


AreaRef = Annotated[str, BeforeValidator(_area_ref)]


def _edge(v: Any) -> Any:
    """``ground:C4-ground:D4`` (or ``|``, or a two-item list) -> a two-item list of areas."""
    if isinstance(v, (list, tuple)):
        if len(v) != 2:
            raise ValueError(f"an edge is two areas, e.g. [ground:C4, ground:D4]; got {len(v)}")
        return [_area_ref(x) for x in v]
    if isinstance(v, str):
        m = _EDGE_RE.match(v)
        if not m:
            raise ValueError(f"not an edge between two areas: {short(v)} (expected e.g. "
                             "ground:C4-ground:D4)")
        return [m.group(1), m.group(2)]
    raise ValueError(f"expected an edge such as ground:C4-ground:D4, got {short(v)}")


Edge = Annotated[list[str], BeforeValidator(_edge)]


def _room_key(v: Any) -> Any:
    if not isinstance(v, str) or not _KEY_RE.match(v):
        raise ValueError(f"not a room key: {short(v)} (a letter, then letters, digits, - or _)")
    return v


RoomKey = Annotated[str, BeforeValidator(_room_key)]


def _pair(v: Any) -> Any:
    if not isinstance(v, (list, tuple)) or len(v) != 2:
        raise ValueError(f"'between' names two rooms, e.g. [kitchen, hall]; got {short(v)}")
    return [_room_key(x) for x in v]


RoomPair = Annotated[list[str], BeforeValidator(_pair)]


def _knack_name(name: str) -> str:
    """``Night Trained`` -> ``night-trained``: how heroes.py names Knacks. A near miss of a
    Knack the rules read (``sprintng``) is refused: kept as written, nothing would read it."""
    import difflib

    key = re.sub(r"[\s_]+", "-", name.strip().lower())
    close = difflib.get_close_matches(key, RULE_KNACKS, n=1, cutoff=0.8)
    if close and close[0] != key:
        raise ValueError(f"unknown Knack {name!r} (did you mean {close[0]!r}?): the rules read "
                         f"{', '.join(RULE_KNACKS)}; any other Knack is kept but changes nothing")
    return key


def _plan(v: Any) -> Any:
    """A plan is a block of text; a list of row strings is joined into one."""
    if isinstance(v, list):
        if not all(isinstance(x, str) for x in v):
            raise ValueError("a plan written as a list needs one string per row")
        return "\n".join(v)
    if not isinstance(v, str):
        raise ValueError(f"expected the plan as a block of text (plan: |), got {short(v)}")
    return v


def _flashover(v: Any) -> Any:
    return "off" if v is False else v  # YAML 1.1 reads a bare `off` as false


# -- sections ------------------------------------------------------------------------------
class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Defaults(Strict):
    fuel: FuelRef = 0
    wall: WallName = Structure.WOODEN_WALL.value
    door: DoorName = Structure.WOODEN_DOOR.value
    window: WindowName = Structure.GLASS_WINDOW.value
    floor: FloorName = Structure.WOODEN_FLOOR.value


class RoomSpec(Strict):
    name: Name | None = None
    outdoors: bool = False
    wall: WallName | None = None
    fuel: FuelRef | None = None
    wet: bool = False
    smoky: bool = False
    features: list[FeatureName] = []
    terrain: TerrainName | None = None
    description: Text = ""
    article: bool | None = None


class LegendEntry(Strict):
    room: RoomKey
    fuel: FuelRef | None = None
    wet: bool | None = None
    smoky: bool | None = None
    features: list[FeatureName] = []

    @model_validator(mode="before")
    @classmethod
    def _short(cls, v: Any) -> Any:
        return {"room": v} if isinstance(v, str) else v


class LevelSpec(Strict):
    name: Annotated[str, BeforeValidator(lambda v: _level_name(v))]
    elevation: Annotated[int, Whole, Field(ge=-MAX_ELEVATION, le=MAX_ELEVATION)] | None = None
    floor: FloorName | None = None
    plan: Annotated[str, BeforeValidator(_plan)]
    legend: dict[str, LegendEntry] = {}
    description: Text = ""


def _level_name(v: Any) -> Any:
    if not isinstance(v, str) or not _LEVEL_RE.match(v):
        raise ValueError(f"not a level name: {short(v)} (a letter, then letters, digits, - or _;"
                         " e.g. ground, cellar, upper)")
    return v


class AreaSpec(Strict):
    fuel: FuelRef | None = None
    wet: bool | None = None
    smoky: bool | None = None
    features: list[FeatureName] | None = None
    terrain: TerrainName | None = None


class _Placed(Strict):
    between: RoomPair | None = None
    at: Edge | None = None

    @model_validator(mode="after")
    def _one_place(self) -> _Placed:
        if (self.between is None) == (self.at is None):
            raise ValueError("give exactly one of 'between: [room, room]' or "
                             "'at: level:C4-level:D4'")
        return self


class DoorSpec(_Placed):
    material: DoorName | None = None
    closed: bool = True
    broken: bool = False
    locked: bool = False  # shut, and no hero can open it
    name: Name | None = None

    @model_validator(mode="after")
    def _locked_is_shut(self) -> DoorSpec:
        if self.locked and not self.closed:
            raise ValueError("a locked door is closed: drop 'closed: false' or 'locked: true'")
        return self


class WindowSpec(_Placed):
    material: WindowName | None = None
    closed: bool = True
    broken: bool = False
    name: Name | None = None


class WallSpec(_Placed):
    material: WallName
    broken: bool = False
    name: Name | None = None


class OpeningSpec(_Placed):
    all: bool = False  # with `between`: open the whole shared boundary
    name: Name | None = None


class LinkSpec(Strict):
    kind: LinkKindName
    at: Edge
    material: FloorName | None = None
    broken: bool = False
    name: Name | None = None


class RouteSpec(Strict):
    kind: RouteKindName
    areas: Annotated[list[AreaRef], Field(min_length=2, max_length=MAX_ROUTE_AREAS)]
    name: Name | None = None


Trait = Annotated[int, Whole, Field(ge=0, le=MAX_TRAIT)]


class Traits(Strict):
    brawn: Trait = 2
    finesse: Trait = 2
    wits: Trait = 2
    resolve: Trait = 2
    panache: Trait = 2


class HeroSpec(Strict):
    name: Annotated[str, Field(min_length=1, max_length=60, pattern=r"^[^\n\r\t]+$")]
    traits: Traits = Traits()
    knacks: dict[Annotated[str, BeforeValidator(_knack_name),
                           Field(pattern=r"^[a-z][a-z0-9-]{0,39}$")],
                 Annotated[int, Whole, Field(ge=0, le=MAX_KNACK)]] = {}
    rank: Literal["hero", "villain", "henchman"] = "hero"
    npc: bool = False
    #: Drama Dice for this scene (RULES-NOTES: [default], the scenario sets them per hero)
    drama: Trait = 0
    #: 001, Fire Damage to Units: "units that possess the Fire Resistant (FR) special may ignore
    #: all fire effects" (a salamander, a saint, a suit of asbestos)
    fire_resistant: bool = False
    start: AreaRef
    description: Text = ""
    #: what the hero does when nobody decides for them (fuego run and forecast; fuego play's
    #: suggested choice): flee (the default), fight (stays to fight the fire), hold, rescue:NPC
    plan: Annotated[str, Field(min_length=4, max_length=80,
                               pattern=r"^(flee|fight|hold|rescue:[^\n\r\t]+)$")] | None = None


class FireSpec(Strict):
    area: AreaRef
    fd: Annotated[int, Whole, Field(ge=MIN_FIRE_DICE, le=MAX_FIRE_DICE)]
    temperature: Literal["cold", "regular", "hot"] | None = None
    kind: Literal["henchman", "villain"] | None = None


class WreckSpec(Strict):
    """A burning wreck (the wrecks module, docs/modules.md): a vehicle ablaze in an area."""

    area: AreaRef
    vehicle: VehicleName
    rounds: Annotated[int, Whole, Field(ge=1, le=MAX_WRECK_ROUNDS)] | None = None


class RulesSpec(Strict):
    burning_clothes: bool = True
    smoke: bool = True
    smoke_clears: Literal["fire", "room"] = "fire"
    suffocation: bool = True
    suffocation_fire: Literal["room", "area"] = "room"
    flashover: Annotated[Literal["off", "all-burning", "all-lit", "dice"],
                         BeforeValidator(_flashover)] = "all-burning"
    flashover_dice_per_area: Annotated[int, Whole, Field(ge=1, le=10)] = 5
    flashover_min_dice: Annotated[int, Whole, Field(ge=1, le=100)] = 5
    knocked_out_death: Literal["fire", "fire-and-gm", "any"] = "fire"
    explosions: Literal["fire", "debris"] = "fire"
    burning_oil: Literal["clings", "fleeting"] = "clings"
    round_burn: Literal["per-fire", "any"] = "per-fire"
    temperament: Annotated[str, Field(max_length=40)] = "hungry"
    fire_kind: Literal["henchman", "villain"] = "henchman"
    max_leap_areas: Annotated[int, Whole, Field(ge=0, le=20)] = 3
    wind: WindName | None = None
    breath_rounds: Annotated[int, Whole, Field(ge=0, le=100)] | None = None
    confused_wander: bool = True
    max_rounds: Annotated[int, Whole, Field(ge=1, le=MAX_ROUNDS)] = 60
    modules: Annotated[dict[str, dict[str, Any]], BeforeValidator(lambda v: _modules(v))] = {}


def _modules(v: Any) -> Any:
    """``[weather, wind]`` or ``{weather: {...}, wind: null}`` -> name -> options."""
    if v is None:
        return {}
    if isinstance(v, list):
        out: dict[str, dict[str, Any]] = {}
        for item in v:
            if not isinstance(item, str):
                raise ValueError(f"a module name is text, got {short(item)}")
            out[item] = {}
        return out
    if isinstance(v, dict):
        return {k: ({} if opts is None or opts is True else opts) for k, opts in v.items()}
    raise ValueError(f"expected modules as a mapping name: options (or a list of names), "
                     f"got {short(v)}")


class WeatherSpec(Strict):
    wind: WindName | None = None
    direction: DirectionName | None = None
    description: Text = ""


ActionRound = Annotated[int, Whole, Field(ge=1, le=MAX_ROUNDS)]
FormatNumber = Annotated[int, Whole, Field(ge=1, le=FORMAT_VERSION)]
FuelResolve = Annotated[int, Whole, Field(ge=0, le=MAX_RESOLVE)]
Actions = dict[str, dict[ActionRound, Annotated[list[Annotated[str, Field(max_length=200)]],
                                                BeforeValidator(lambda v: [v] if isinstance(v, str) else v)]]]


class ScenarioSpec(Strict):
    """The whole file (used once every section is valid: for ``to_yaml`` and as the record)."""

    format: FormatNumber = FORMAT_VERSION
    title: Name
    description: Text = ""
    briefing: Text = ""
    fuels: dict[str, FuelResolve] = {}
    defaults: Defaults = Defaults()
    rooms: dict[str, RoomSpec]
    legend: dict[str, LegendEntry] = {}
    levels: Annotated[list[LevelSpec], Field(min_length=1)]
    areas: dict[str, AreaSpec] = {}
    walls: list[WallSpec] = []
    openings: list[OpeningSpec] = []
    doors: list[DoorSpec] = []
    windows: list[WindowSpec] = []
    links: list[LinkSpec] = []
    routes: list[RouteSpec] = []
    heroes: list[HeroSpec] = []
    fires: list[FireSpec] = []
    wrecks: list[WreckSpec] = []
    rules: RulesSpec = RulesSpec()
    weather: WeatherSpec = WeatherSpec()
    actions: Actions = {}
    script: Any = None


#: Sections and how each is validated: "model" (one mapping), "list" (each item),
#: "dict" (each value), "value" (one value of a type).
SECTIONS: dict[str, tuple[str, Any]] = {
    "format": ("value", FormatNumber),
    "title": ("value", Name),
    "description": ("value", Text),
    "briefing": ("value", Text),
    "fuels": ("dict", FuelResolve),
    "defaults": ("model", Defaults),
    "rooms": ("dict", RoomSpec),
    "legend": ("dict", LegendEntry),
    "levels": ("list", LevelSpec),
    "areas": ("dict", AreaSpec),
    "walls": ("list", WallSpec),
    "openings": ("list", OpeningSpec),
    "doors": ("list", DoorSpec),
    "windows": ("list", WindowSpec),
    "links": ("list", LinkSpec),
    "routes": ("list", RouteSpec),
    "heroes": ("list", HeroSpec),
    "fires": ("list", FireSpec),
    "wrecks": ("list", WreckSpec),
    "rules": ("model", RulesSpec),
    "weather": ("model", WeatherSpec),
    "actions": ("value", Actions),
    "script": ("value", Any),
}
REQUIRED = ("title", "rooms", "levels")
#: Sections other builds may add; named so the message says "not in this build" not "typo".
LATER = {"house_rules": "house rules are not supported by this build of fuego yet"}

_ADAPTERS: dict[int, tuple[Any, TypeAdapter]] = {}


def _adapter(tp: Any) -> TypeAdapter:
    key = id(tp)
    if key not in _ADAPTERS:  # the type is kept with its adapter, so its id is never reused
        _ADAPTERS[key] = (tp, TypeAdapter(tp))
    return _ADAPTERS[key][1]


# -- pydantic errors -> problems -------------------------------------------------------------
def _unwrap(tp: Any) -> Any:
    """Strip Annotated and Optional to get to the model (or container) inside."""
    while True:
        origin = typing.get_origin(tp)
        if origin is Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp
            tp = args[0]
        else:
            return tp


def _model_at(tp: Any, loc: tuple) -> type[BaseModel] | None:
    """The pydantic model that ``loc`` (inside a value of type ``tp``) points into, if any."""
    tp = _unwrap(tp)
    for part in loc:
        origin = typing.get_origin(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(part) if isinstance(part, str) else None
            if field is None:
                return None
            tp = _unwrap(field.annotation)
        elif origin is list:
            tp = _unwrap(typing.get_args(tp)[0])
        elif origin is dict:
            tp = _unwrap(typing.get_args(tp)[1])
        else:
            return None
    return tp if isinstance(tp, type) and issubclass(tp, BaseModel) else None


def _message(err: dict, tp: Any) -> str:
    """A pydantic error in the GM's words: what was expected, and what the file gave."""
    kind = err["type"]
    got = f", got {short(err.get('input'))}"
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}{got}"
    words = _WORDS.get(kind)
    if words is not None:
        return words(err, tp, got)
    msg = err["msg"]
    if msg.startswith("Value error, "):
        return msg[len("Value error, "):]
    return f"{msg}{got}"


#: The pydantic error kinds that say only what was expected.
_EXPECTED = {
    "int_parsing": "a whole number", "int_type": "a whole number",
    "int_from_float": "a whole number", "finite_number": "a whole number",
    "bool_type": "true or false", "bool_parsing": "true or false",
    "string_type": "text",
    "dict_type": "a mapping (key: value lines)", "model_type": "a mapping (key: value lines)",
    "model_attributes_type": "a mapping (key: value lines)",
    "list_type": "a list",
}


def _missing(err: dict, tp: Any, got: str) -> str:
    """A required key left out."""
    loc = err["loc"]
    return f"missing required key {loc[-1]!r}" if loc else "missing value"


def _unknown_key(err: dict, tp: Any, got: str) -> str:
    """A key the model does not have, with the nearest one and every one it has."""
    loc = err["loc"]
    model = _model_at(tp, loc[:-1])
    if model is not None:
        keys = list(model.model_fields)
        return (f"unknown key {loc[-1]!r}{suggest(loc[-1], keys)}; expected one of: "
                f"{one_of(keys)}")
    return f"unknown key {loc[-1]!r}"


def _not_listed(err: dict, tp: Any, got: str) -> str:
    """A value not among those allowed."""
    ctx = err.get("ctx") or {}
    return f"expected {ctx.get('expected', 'one of the listed values')}{got}"


def _out_of_range(err: dict, tp: Any, got: str) -> str:
    """A number beyond a bound: the field's whole range if it has both ends, else the bound."""
    kind, loc, ctx = err["type"], err["loc"], err.get("ctx") or {}
    field = _model_at(tp, loc[:-1])
    lo_hi = _range_of(field, loc[-1]) if field is not None and loc else None
    if lo_hi:
        return f"must be {lo_hi[0]}-{lo_hi[1]}{got}"
    bound = ctx.get("le", ctx.get("ge", ctx.get("lt", ctx.get("gt"))))
    word = "at most" if kind.startswith("less") else "at least"
    return f"must be {word} {bound}{got}"


def _bad_name(err: dict, tp: Any, got: str) -> str:
    """Text that is not a valid name."""
    return f"not a valid name: {short(err.get('input'))}"


def _too_long(err: dict, tp: Any, got: str) -> str:
    """Text or a list longer than allowed."""
    ctx = err.get("ctx") or {}
    what = "characters" if err["type"] == "string_too_long" else "items"
    return f"too long ({ctx.get('max_length')} {what} at most)"


def _too_short(err: dict, tp: Any, got: str) -> str:
    """Empty text (or a list too short: pydantic's words)."""
    return "must not be empty" if err["type"] == "string_too_short" else err["msg"]


#: The pydantic error kinds told in words of their own.
_WORDS: dict[str, Callable[[dict, Any, str], str]] = {
    "missing": _missing,
    "extra_forbidden": _unknown_key,
    "literal_error": _not_listed,
    "less_than_equal": _out_of_range, "greater_than_equal": _out_of_range,
    "less_than": _out_of_range, "greater_than": _out_of_range,
    "string_pattern_mismatch": _bad_name,
    "string_too_long": _too_long, "too_long": _too_long,
    "string_too_short": _too_short, "too_short": _too_short,
}


def _range_of(model: type[BaseModel], name: Any) -> tuple[int, int] | None:
    field = model.model_fields.get(name) if isinstance(name, str) else None
    if field is None:
        return None
    lo = hi = None
    for meta in field.metadata:
        lo = getattr(meta, "ge", lo) if getattr(meta, "ge", None) is not None else lo
        hi = getattr(meta, "le", hi) if getattr(meta, "le", None) is not None else hi
    return (lo, hi) if lo is not None and hi is not None else None


def check(tp: Any, value: Any, path: Path, problems: Problems) -> tuple[bool, Any]:
    """Validate ``value`` as ``tp``; report every error under ``path``. (ok, result)."""
    try:
        return True, _adapter(tp).validate_python(value)
    except ValidationError as exc:
        for err in exc.errors():
            loc = tuple(p for p in err["loc"] if isinstance(p, (str, int)))
            # drop pydantic's internal steps (e.g. 'function-before[...]', a mapping key's
            # '[key]') from the path
            loc = tuple(p for p in loc if not (isinstance(p, str) and "[" in p
                                               and ("(" in p or p.startswith("["))))
            problems.add(path + loc, _message({**err, "loc": loc}, tp))
        return False, None


def check_sections(data: Any, problems: Problems) -> dict[str, Any]:
    """Validate every top-level section; returns the valid parts (invalid items are None)."""
    if not isinstance(data, dict):
        problems.add((), f"a scenario is a mapping of sections (title:, rooms:, levels:, ...); "
                     f"this file holds {type(data).__name__ if data is not None else 'nothing'}",
                     broken=True)
        return {}
    for key in data:
        if key not in SECTIONS:
            if key in LATER:
                problems.add((key,), LATER[key])
            else:
                problems.add((key,), f"unknown section {key!r}{suggest(key, SECTIONS)}; "
                             f"sections are: {one_of(SECTIONS)}")
    for key in REQUIRED:
        if key not in data:
            problems.add((key,), f"missing required section {key!r}", line=1)
    out: dict[str, Any] = {}
    for key, (how, tp) in SECTIONS.items():
        if key in data:
            _SECTION_CHECKS.get(how, _dict_section)(key, data[key], tp, problems, out)
    return out


def _one_section(key: str, value: Any, tp: Any, problems: Problems, out: dict) -> None:
    """A section that is one model (empty: all defaults) or one value (empty: left out, an
    error if required); ``out["_bad"]`` gathers those that fail."""
    how = SECTIONS[key][0]
    if how == "model" and value is None:
        value = {}
    if how == "value" and value is None and key != "script":
        if key in REQUIRED:
            problems.add((key,), f"{key!r} is empty; it needs a value")
        return
    ok, result = check(tp, value, (key,), problems)
    out[key] = result if ok else None
    out.setdefault("_bad", set())
    if not ok:
        out["_bad"].add(key)


def _list_section(key: str, value: Any, tp: Any, problems: Problems, out: dict) -> None:
    """A list section (empty: no items): each item checked, a bad one None."""
    if value is None:
        value = []
    if not isinstance(value, list):
        problems.add((key,), f"expected a list (lines starting with '- '), got "
                     f"{short(value)}", broken=True)
        out[key] = []
        out.setdefault("_bad", set()).add(key)
        return
    out[key] = [check(tp, item, (key, i), problems)[1] for i, item in enumerate(value)]


def _dict_section(key: str, value: Any, tp: Any, problems: Problems, out: dict) -> None:
    """A mapping section (empty: no entries): each entry checked, a bad one None."""
    if value is None:
        value = {}
    if not isinstance(value, dict):
        problems.add((key,), f"expected a mapping (key: value lines), got {short(value)}",
                     broken=True)
        out[key] = {}
        out.setdefault("_bad", set()).add(key)
        return
    out[key] = {k: check(tp, v, (key, k), problems)[1] for k, v in value.items()}


#: How each kind of section is checked (SECTIONS names each section's kind).
_SECTION_CHECKS: dict[str, Callable[[str, Any, Any, Problems, dict], None]] = {
    "model": _one_section, "value": _one_section, "list": _list_section, "dict": _dict_section,
}


ROOM_KEY_RE = _KEY_RE
LEVEL_RE = _LEVEL_RE
FUEL_RE = _FUEL_RE
knack_name = _knack_name
