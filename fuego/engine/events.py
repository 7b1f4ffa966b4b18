"""Small immutable records of everything that happens in a scene.

The engine never prints: it appends :class:`Event` records to the scene's log. The CLI narrates
them (``fuego.render.narrate``) or writes them as JSON lines (:meth:`Event.to_json`). A JSON
line is deterministic: keys sorted, no floats from timing, nothing but the event's own data.

Each :class:`EventKind` has a payload: a ``TypedDict`` of the keys its ``data`` holds
(:data:`PAYLOADS`; docs/events.md has a table per kind). The scene checks every event's keys as
it logs it (:func:`check_payload`, once per shape of data). The log (:class:`EventLog`) keeps
each event as a compact row and builds the :class:`Event` when something reads it.
"""

import json
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import chain, compress, islice, repeat
from operator import is_, itemgetter
from typing import Any, NotRequired, TypedDict, get_type_hints, overload


class EventKind(str, Enum):
    # scene and round structure
    SCENE_START = "scene-start"
    ROUND_START = "round-start"
    ACTION_DICE = "action-dice"
    ROUND_END = "round-end"
    SCENE_END = "scene-end"
    # the fire
    FIRE_STARTED = "fire-started"
    FIRE_MERGED = "fire-merged"
    FIRE_GREW = "fire-grew"
    FIRE_SHRANK = "fire-shrank"
    FIRE_SPREAD = "fire-spread"  # along a route, no roll
    FIRE_LEAPT = "fire-leapt"
    FIRE_BURNED_THROUGH = "fire-burned-through"
    FIRE_ACTION_FAILED = "fire-action-failed"
    FIRE_HELD = "fire-held"
    STRUCTURE_DESTROYED = "structure-destroyed"
    FIRE_FUEL_CHECK = "fire-fuel-check"
    FIRE_STATE = "fire-state"  # a state-machine transition
    FIRE_OUT = "fire-out"
    FLASHOVER = "flashover"
    AREA_BURNED_OUT = "area-burned-out"
    FIRE_SPOTTED = "fire-spotted"
    FIRE_HIDDEN = "fire-hidden"
    EXPLOSION = "explosion"
    # the building
    BARRIER_OPENED = "barrier-opened"
    BARRIER_CLOSED = "barrier-closed"
    FLOOR_COLLAPSED = "floor-collapsed"
    # heroes
    HERO_ACTION = "hero-action"
    ACTION_SKIPPED = "action-skipped"  # a scripted action the rules refused when its turn came
    HERO_MOVED = "hero-moved"
    HERO_AVOIDED = "hero-avoided"
    HERO_DAMAGED = "hero-damaged"
    WOUND_CHECK = "wound-check"
    CLOTHES_CAUGHT = "clothes-caught"
    CLOTHES_OUT = "clothes-out"
    OIL_CLINGS = "oil-clings"  # burning oil covers a hero: on fire until put out
    FIRE_RESISTED = "fire-resisted"  # a fire-resistant character ignores the fire (001)
    HERO_KNOCKED_OUT = "hero-knocked-out"
    HERO_CRIPPLED = "hero-crippled"
    HERO_DIED = "hero-died"
    HERO_ESCAPED = "hero-escaped"
    CONFUSION_CHECK = "confusion-check"  # every Wits check in thick smoke, passed or failed
    HERO_CONFUSED = "hero-confused"
    HERO_UNCONFUSED = "hero-unconfused"
    HERO_BREATH = "hero-breath"
    HERO_SUFFOCATING = "hero-suffocating"
    HERO_FELL = "hero-fell"
    DEBRIS = "debris"
    # smoke
    SMOKE = "smoke"
    SMOKE_CLEARED = "smoke-cleared"
    # script, GM, modules
    SCRIPT = "script"
    READ_ALOUD = "read-aloud"
    GM = "gm"
    WEATHER = "weather"
    WIND = "wind"
    MODULE = "module"
    ROLL = "roll"


# -- payloads: the data each kind carries (docs/events.md has a table per kind) ------------------
# One TypedDict per kind: the keys of ``Event.data`` and their JSON types. The scene checks every
# event's keys against its kind's payload as it logs it (:func:`check_payload`): a missing or
# unknown key is a programming error. (No ``from __future__ import annotations`` in this module:
# on Python 3.11 a TypedDict only sees ``NotRequired`` in an evaluated annotation.)

class Roll(TypedDict):
    """A roll against a TN: the pool after every modifier, the TN, the total, pass or fail."""

    pool: str
    tn: int
    total: int
    success: bool


class Spot(Roll):
    """A spot roll at a hidden fire, and what hid it from the hero (fuego.engine.sight)."""

    unseen: str  # why the hero did not see it (an engine.sight.Unseen value)
    feet: NotRequired[float]  # along the line of sight to its near side, where one runs


class SceneStart(TypedDict):
    title: str
    seed: int | None
    fires: int
    heroes: list[str]
    format: int  # LOG_FORMAT
    starts: NotRequired[dict[str, str]]  # hero -> the area they start in (added in format 2)
    also_burning: NotRequired[list[list[str]]]
    npcs: NotRequired[list[str]]  # which of ``heroes`` the GM plays (left out when none is)


class RoundStart(TypedDict):
    fires: int
    heroes: int  # characters still acting: the players' heroes and the GM's NPCs
    also_burning: NotRequired[list[list[str]]]  # [area, what] a module keeps burning (a wreck)


class ActionDice(TypedDict):
    heroes: dict[str, list[int]]
    fire_actions: int


class RoundEnd(TypedDict):
    fires: int
    fire_dice: int
    heroes: dict[str, list[str | int]]  # name -> [status, flesh, dramatic]
    also_burning: NotRequired[list[list[str]]]


class SceneEnd(TypedDict):
    rounds: int
    why: str  # an Ending value (fuego.engine.loop)
    burning: int
    burned_out: int
    heroes: dict[str, str]
    also_burning: NotRequired[list[list[str]]]


class FireStarted(TypedDict):
    fd: int
    cause: str  # a Cause value
    source: str | None
    temperature: str
    fire_kind: str
    resolve: int
    state: str
    # what the caller adds (Scene.start_fire's **data)
    via: NotRequired[str]  # a route's areas on the way
    barrier: NotRequired[str]  # burned through
    cue: NotRequired[str]  # a script's
    explosion: NotRequired[bool]
    module: NotRequired[str]  # a module's
    why: NotRequired[str]
    by: NotRequired[str | None]
    incendiary: NotRequired[bool]
    intentional: NotRequired[bool]
    own_fuel: NotRequired[int]  # the Resolve of the fuel it brought: it burns where none is


class FireMerged(TypedDict):
    fd: int
    cause: str
    source: str | None
    grew: bool
    temperature: NotRequired[str]  # the fire's temperature, when the merge made it hotter
    via: NotRequired[str]
    barrier: NotRequired[str]
    cue: NotRequired[str]
    explosion: NotRequired[bool]
    module: NotRequired[str]
    why: NotRequired[str]
    by: NotRequired[str | None]
    incendiary: NotRequired[bool]
    intentional: NotRequired[bool]


class FireGrew(TypedDict):
    fd: int
    before: int
    why: str
    # the fire's own grow action rolled
    pool: NotRequired[str]
    tn: NotRequired[int]
    total: NotRequired[int]
    success: NotRequired[bool]


class FireShrank(TypedDict):
    fd: int
    before: int
    why: str


class FireSpread(TypedDict):
    to: str
    path: list[str]
    fd: int


class FireLeapt(Roll):
    to: str


class FireBurnedThrough(Roll):
    to: str
    barrier: str  # the barrier's description


class FireActionFailed(Roll):
    action: str
    target: NotRequired[str | None]


class FireFuelCheck(TypedDict):
    damage: int
    damage_pool: NotRequired[str]  # the damage roll's pool (added in format 2)
    pool: NotRequired[str]  # the check's pool, Resolve k Resolve (added in format 2)
    flesh: int
    total: int
    success: bool
    dramatic: int
    resolve: int


class StructureDestroyed(TypedDict):
    structure: str
    barrier: NotRequired[str]
    cue: NotRequired[str]
    pool: NotRequired[str]
    tn: NotRequired[int]
    total: NotRequired[int]
    success: NotRequired[bool]


class FireState(TypedDict):
    trigger: str
    before: str
    after: str
    why: str


class FireOut(TypedDict):
    reason: str
    burned_out: bool


class Flashover(TypedDict):
    room: str
    fires: int


class Nothing(TypedDict):
    """No data: the event's actor and area say it all."""


class Barrier(TypedDict):
    barrier: str
    what: str
    cue: NotRequired[str]


class FloorCollapsed(TypedDict):
    below: str


class HeroAction(TypedDict):
    action: str
    # a rolled action (action "roll")
    purpose: NotRequired[str]
    pool: NotRequired[str]
    tn: NotRequired[int]
    total: NotRequired[int]
    success: NotRequired[bool]
    target: NotRequired[str]
    # Drama Dice spent on a roll (action "drama", fuego play)
    dice: NotRequired[int]
    left: NotRequired[int]


class ActionSkipped(TypedDict):
    """A scripted hero action (the scenario's ``actions:``) the rules refused when its turn
    came: skipped, and the hero goes on with the next one (``fuego run``, forecasts)."""

    action: str  # as the scenario wrote it
    where: str  # its key path in the scenario: actions.Ana.1[0]
    why: str  # what the rules said
    tip: NotRequired[str]  # what was legal then


class HeroMoved(TypedDict):
    frm: str
    why: str


class HeroAvoided(Roll):
    knack: str


class HeroDamaged(TypedDict):
    pool: str
    damage: int
    flesh: int
    fd: int
    temperature: str
    exposure: str
    cause: str
    contact: NotRequired[str]  # how the fire reached the hero: a charts.Contact value


class OilClings(TypedDict):
    fd: int  # the Fire Dice of the burning oil on the hero
    cause: str


class FireResisted(TypedDict):
    fd: int
    cause: str
    contact: NotRequired[str]


class Explosion(TypedDict):
    fd: int
    radius: int
    tn: int  # the barriers it blows open: destruction TN at most this (5 x FD)
    rule: str  # rules.explosions: fire (hot fire damage) or debris (the older reading)
    areas: list[str]  # the areas it reaches, nearest first
    broken: list[str]  # the barriers it blows open
    caught: list[str]  # the characters it reaches
    why: str
    cue: NotRequired[str]


class WoundCheck(Roll):
    dramatic: NotRequired[int]
    step: NotRequired[int]


class ClothesCaught(TypedDict):
    pool: str
    tn: int
    total: int
    fd: int


class ClothesOut(TypedDict):
    by: str


class Dramatic(TypedDict):
    dramatic: int


class HeroDown(TypedDict):
    cause: str
    dramatic: int


class ConfusionCheck(Roll):
    rounds: int


class HeroConfused(TypedDict):
    pool: str
    tn: int
    total: int
    rounds: int


class HeroBreath(TypedDict):
    breath: int
    limit: NotRequired[int]
    air: NotRequired[bool]


class HeroSuffocating(Roll):
    breath: int


class HeroFell(TypedDict):
    feet: int
    pool: str
    damage: int
    flesh: int


class Debris(TypedDict):
    what: str
    fd: int


class Smoke(TypedDict):
    thin: int
    thick: int
    rooms: list[str]
    cleared: int
    areas: NotRequired[dict[str, str]]  # each area whose smoke changed: thin, thick or clear
    why: NotRequired[str]  # what changed it, where not the end of the round (a gust, the wind)


class Script(TypedDict):
    """A cue firing (``times`` and what triggered it), or one of its effects (``effect``)."""

    cue: str
    text: str
    times: NotRequired[int]
    room: NotRequired[str]
    hero: NotRequired[str]
    fd: NotRequired[int]
    barrier: NotRequired[str]
    effect: NotRequired[str]
    areas: NotRequired[list[str]]
    fuel: NotRequired[int]
    radius: NotRequired[int]
    npc: NotRequired[str]


class ReadAloud(TypedDict):
    cue: str
    text: str


class Gm(TypedDict):
    action: str
    fd: NotRequired[int]
    barrier: NotRequired[str]
    hero: NotRequired[str]
    n: NotRequired[int]  # wounds given
    npc: NotRequired[bool]  # a character added
    rank: NotRequired[str]
    what: NotRequired[str]  # reveal, hide: all, level or room
    name: NotRequired[str]  # reveal, hide: the level's name or the room's key
    text: NotRequired[str]  # note: the GM's words


class Weather(TypedDict):
    text: str
    # the weather module's
    module: NotRequired[str]
    ec: NotRequired[str]
    ec_drm: NotRequired[int]
    conditions: NotRequired[int]
    dr: NotRequired[int]
    month_drm: NotRequired[int]
    why: NotRequired[str]
    # the script's weather effect (without the module): the values it set
    cue: NotRequired[str]
    set_ec: NotRequired[str]
    set_rain: NotRequired[str]
    set_snowfall: NotRequired[str]
    set_snow: NotRequired[str]
    set_temperature: NotRequired[str]
    set_ground: NotRequired[str]


class Wind(TypedDict):
    text: str
    # the script's wind effect (without the module)
    cue: NotRequired[str]
    strength: NotRequired[str]
    direction: NotRequired[str | None]
    # the wind module's
    module: NotRequired[str]
    force: NotRequired[str]
    force_dr: NotRequired[int]
    direction_d8: NotRequired[int]
    change_dr: NotRequired[int]
    check: NotRequired[list[int]]
    gusts: NotRequired[bool]
    why: NotRequired[str]


class Module(TypedDict):
    """A rule module's event (fuego.modules.common.note): ``text`` in words, and its numbers."""

    module: str
    text: str
    what: NotRequired[str]
    why: NotRequired[str]
    dice: NotRequired[int | list[int]]
    drm: NotRequired[int]
    modifier: NotRequired[int]
    bonus: NotRequired[int]
    need: NotRequired[int]
    success: NotRequired[bool]
    intentional: NotRequired[bool]
    incendiary: NotRequired[bool]
    hampered: NotRequired[bool]
    to: NotRequired[str]
    target: NotRequired[str]
    fires: NotRequired[list[str]]
    check: NotRequired[list[int]]
    rounds: NotRequired[int]
    ground: NotRequired[str]
    cf: NotRequired[int]
    loss: NotRequired[int]
    spent: NotRequired[int]
    factors: NotRequired[int]
    areas: NotRequired[list[str] | dict[str, str]]
    paths_cut: NotRequired[list[str]]
    purpose: NotRequired[str]
    pool: NotRequired[str]
    tn: NotRequired[int]
    total: NotRequired[int]
    extinguish: NotRequired[bool]
    chain: NotRequired[list[str]]
    crew: NotRequired[list[str]]
    sand: NotRequired[int]
    vehicle: NotRequired[str]  # the wrecks module's


class TableRoll(TypedDict):
    """A roll made at the table (``roll``): its purpose and, when it had one, the TN."""

    pool: str
    total: int
    purpose: NotRequired[str]
    tn: NotRequired[int | None]
    success: NotRequired[bool]


#: Each kind's payload: what ``Event.data`` holds for it. (Any: mypy has no type for "a
#: TypedDict class".)
PAYLOADS: dict[EventKind, Any] = {
    EventKind.SCENE_START: SceneStart,
    EventKind.ROUND_START: RoundStart,
    EventKind.ACTION_DICE: ActionDice,
    EventKind.ROUND_END: RoundEnd,
    EventKind.SCENE_END: SceneEnd,
    EventKind.FIRE_STARTED: FireStarted,
    EventKind.FIRE_MERGED: FireMerged,
    EventKind.FIRE_GREW: FireGrew,
    EventKind.FIRE_SHRANK: FireShrank,
    EventKind.FIRE_SPREAD: FireSpread,
    EventKind.FIRE_LEAPT: FireLeapt,
    EventKind.FIRE_BURNED_THROUGH: FireBurnedThrough,
    EventKind.FIRE_ACTION_FAILED: FireActionFailed,
    EventKind.FIRE_HELD: Nothing,
    EventKind.STRUCTURE_DESTROYED: StructureDestroyed,
    EventKind.FIRE_FUEL_CHECK: FireFuelCheck,
    EventKind.FIRE_STATE: FireState,
    EventKind.FIRE_OUT: FireOut,
    EventKind.FLASHOVER: Flashover,
    EventKind.AREA_BURNED_OUT: Nothing,
    EventKind.FIRE_SPOTTED: Spot,
    EventKind.FIRE_HIDDEN: Spot,
    EventKind.BARRIER_OPENED: Barrier,
    EventKind.BARRIER_CLOSED: Barrier,
    EventKind.FLOOR_COLLAPSED: FloorCollapsed,
    EventKind.HERO_ACTION: HeroAction,
    EventKind.ACTION_SKIPPED: ActionSkipped,
    EventKind.HERO_MOVED: HeroMoved,
    EventKind.HERO_AVOIDED: HeroAvoided,
    EventKind.HERO_DAMAGED: HeroDamaged,
    EventKind.WOUND_CHECK: WoundCheck,
    EventKind.CLOTHES_CAUGHT: ClothesCaught,
    EventKind.CLOTHES_OUT: ClothesOut,
    EventKind.OIL_CLINGS: OilClings,
    EventKind.FIRE_RESISTED: FireResisted,
    EventKind.EXPLOSION: Explosion,
    EventKind.HERO_KNOCKED_OUT: HeroDown,
    EventKind.HERO_CRIPPLED: Dramatic,
    EventKind.HERO_DIED: HeroDown,
    EventKind.HERO_ESCAPED: Nothing,
    EventKind.CONFUSION_CHECK: ConfusionCheck,
    EventKind.HERO_CONFUSED: HeroConfused,
    EventKind.HERO_UNCONFUSED: Nothing,
    EventKind.HERO_BREATH: HeroBreath,
    EventKind.HERO_SUFFOCATING: HeroSuffocating,
    EventKind.HERO_FELL: HeroFell,
    EventKind.DEBRIS: Debris,
    EventKind.SMOKE: Smoke,
    EventKind.SMOKE_CLEARED: Nothing,
    EventKind.SCRIPT: Script,
    EventKind.READ_ALOUD: ReadAloud,
    EventKind.GM: Gm,
    EventKind.WEATHER: Weather,
    EventKind.WIND: Wind,
    EventKind.MODULE: Module,
    EventKind.ROLL: TableRoll,
}

#: Each kind's (required keys, every key it may carry), for :func:`check_payload`.
_KEYS: dict[EventKind, tuple[frozenset[str], frozenset[str]]] = {
    kind: (frozenset(p.__required_keys__), frozenset(p.__required_keys__ | p.__optional_keys__))
    for kind, p in PAYLOADS.items()
}


class PayloadError(ValueError):
    """An event whose data does not match its kind's payload: a programming error."""


def check_payload(kind: EventKind, data: Mapping[str, Any]) -> None:
    """Raise :class:`PayloadError` when ``data`` lacks a key of ``kind``'s payload or has one
    the payload does not know."""
    required, allowed = _KEYS[kind]
    if not (allowed.issuperset(data) and required.issubset(data)):
        missing, unknown = sorted(required - data.keys()), sorted(data.keys() - allowed)
        raise PayloadError(f"a {kind.value} event's data: missing {missing}, unknown {unknown} "
                           f"(its payload is events.{PAYLOADS[kind].__name__}; docs/events.md)")


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: kind, when (round, phase), who, where, and its data.

    ``data`` holds plain JSON values only (ints, strings, lists, dicts): dice faces, TN, totals,
    outcomes. ``phase`` is 0 for the start of round and 11 for the end of round.
    """

    kind: EventKind
    round: int
    phase: int
    actor: str | None = None
    area: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "round": self.round, "phase": self.phase}
        if self.actor is not None:
            out["actor"] = self.actor
        if self.area is not None:
            out["area"] = self.area
        out.update(self.data)
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Event":
        d = dict(d)
        kind = EventKind(d.pop("kind"))
        rnd, phase = d.pop("round"), d.pop("phase")
        return cls(kind, rnd, phase, d.pop("actor", None), d.pop("area", None), d)


#: The record's own fields in a JSON line: event data may not reuse these names.
RESERVED_KEYS = frozenset({"kind", "round", "phase", "actor", "area"})


def _recorder():
    new = object.__new__
    kind, rnd, phase, actor, area, data = (Event.__dict__[name].__set__ for name in (
        "kind", "round", "phase", "actor", "area", "data"))

    def record(k: EventKind, r: int, p: int, who: str | None, where: str | None,
               what: dict[str, Any]) -> Event:
        """``Event(k, r, p, who, where, what)``, filled slot by slot: the same frozen record
        for about half the cost of the dataclass's __init__ (the scene emits one per action)."""
        event = new(Event)
        kind(event, k)
        rnd(event, r)
        phase(event, p)
        actor(event, who)
        area(event, where)
        data(event, what)
        return event

    return record


record = _recorder()

#: The event-log format (docs/events.md, "Format versions"); ``scene-start`` carries it.
LOG_FORMAT = 5

#: Phase numbers used for the parts of a round that are not one of the ten phases.
START_PHASE = 0
END_PHASE = 11


#: How a packed column is held (:attr:`Shape.packing`): as it is, as whole numbers, coded.
_KEPT, _WHOLE, _CODE = 0, 1, 2
#: By a payload key's type: whole numbers, or words and flags (few distinct values a chunk,
#: mostly); names (the actor's, the area's) are many and stay as they are.
_PACKING: dict[Any, int] = {int: _WHOLE, str: _CODE, bool: _CODE, str | None: _CODE,
                            int | None: _CODE}


class Shape:
    """A kind and the keys of its data in order: what a row of the log shares with every other
    event of that shape (checked against the kind's payload once, when first seen)."""

    __slots__ = ("kind", "keys", "packing")

    def __init__(self, kind: EventKind, keys: tuple[str, ...]) -> None:
        self.kind, self.keys = kind, keys
        hints = get_type_hints(PAYLOADS[kind])
        #: per column of a row after the shape (round, phase, actor, area, the values): how
        #: the log may pack it, by what its payload says it holds (:func:`_column`)
        self.packing = (_WHOLE, _WHOLE, _KEPT, _KEPT, *(_PACKING.get(hints[key], _KEPT)
                                                       for key in keys))


#: Every shape seen, by (kind, keys): payloads are checked once per shape, not per event.
_SHAPES: dict[tuple[EventKind, tuple[str, ...]], Shape] = {}


def shape(kind: EventKind, keys: tuple[str, ...]) -> Shape:
    """The shape of ``kind`` events carrying ``keys`` in that order (:func:`check_payload`
    raises on a shape the payload does not allow)."""
    known = _SHAPES.get((kind, keys))
    if known is None:
        check_payload(kind, dict.fromkeys(keys))
        known = _SHAPES[(kind, keys)] = Shape(kind, keys)
    return known


def row_event(row: tuple) -> Event:
    """The :class:`Event` a log row holds (:class:`EventLog`)."""
    s = row[0]
    return record(s.kind, row[1], row[2], row[3], row[4], dict(zip(s.keys, row[5:])))


#: Rows the log keeps as they come before it packs them into columns (:class:`_Packed`).
CHUNK = 4096


#: The C array types a column of whole numbers past a byte may take, narrowest first, and the
#: least and most each holds (past 32 bits a column stays as it is).
_WIDE = (("h", -2**15, 2**15 - 1), ("i", -2**31, 2**31 - 1))


class _Coded:
    """A packed column of few distinct values (an action's word, a pool's, True/False,
    None): each value's place in a table of them, a byte a row."""

    __slots__ = ("table", "codes")

    def __init__(self, table: list[Any], codes: bytes) -> None:
        self.table, self.codes = table, codes

    def __getitem__(self, p: int) -> Any:
        return self.table[self.codes[p]]

    def __iter__(self) -> Iterator[Any]:
        return map(self.table.__getitem__, self.codes)

    def __len__(self) -> int:
        return len(self.codes)


class _Same:
    """A packed column of one value throughout (a chunk's round, a fire-started event's cause,
    a roll's TN): the value once."""

    __slots__ = ("value", "n")

    def __init__(self, value: Any, n: int) -> None:
        self.value, self.n = value, n

    def __getitem__(self, p: int) -> Any:
        return self.value

    def __iter__(self) -> Iterator[Any]:
        return repeat(self.value, self.n)

    def __len__(self) -> int:
        return self.n


def _column(values: tuple, packing: int) -> Sequence[Any] | _Coded | _Same:
    """A column of a packed chunk: one value throughout, once; whole numbers as bytes (0 to
    255) or a C array of 2 or 4 bytes a value; words and flags, where fewer than 256 distinct
    values, as a byte each into a table of them; the rest as they are (a pointer each: names,
    lists). Values are told apart as a dict's keys are, which the payload's types make exact:
    no ``1`` beside a ``True`` in one column."""
    if packing == _KEPT:
        return values
    first = values[0]
    try:  # (most are one value throughout: a count in C, by identity mostly; the ends first)
        if values[-1] == first and values.count(first) == len(values):
            hash(first)  # (a list where the payload says a word: kept, each its own)
            return _Same(first, len(values))
        if packing == _CODE:  # (the distinct values, first seen first: the same each run)
            distinct = dict.fromkeys(values)
    except TypeError:
        return values
    if packing == _WHOLE:
        try:
            return bytes(values)  # (one pass in C: most are dice, TNs, totals)
        except ValueError:  # (past a byte, or negative: below)
            pass
        except TypeError:  # (not a number: None among them)
            return values
        try:  # (the narrowest C array that holds them all, by their least and most)
            least, most = min(values), max(values)
            return next((array(code, values) for code, low, high in _WIDE
                         if low <= least and most <= high), values)
        except TypeError:  # (a None or a float among them)
            return values
    if len(distinct) < 256 and 8 * len(distinct) + 200 < 7 * len(values):
        table = list(distinct)
        code = {value: n for n, value in enumerate(table)}
        # (itemgetter looks every value up in one call: no iterator between)
        return _Coded(table, bytes(itemgetter(*values)(code)))
    return values  # (kept: a table and codes would cost more than the pointers)


class _Shapes(dict):
    """A chunk's shapes, each numbered as first seen (:class:`_Packed`)."""

    __slots__ = ()

    def __missing__(self, s: "Shape") -> int:
        g = self[s] = len(self)
        return g


_shape_of = itemgetter(0)


class _Packed:
    """A chunk of the log packed by shape: per event, its group; per group, its shape and its
    columns (round, phase, actor, area, then each key's). An event's place in its group is
    the number of its group's events before it (a count in C, where the reader needs it: no
    array of places to build, nor 2 bytes an event to keep)."""

    __slots__ = ("group", "shapes", "columns")

    def __init__(self, rows: list[tuple]) -> None:
        # (no loop in Python over the rows: each pass is a builtin's, over 4096 of them)
        of = list(map(_shape_of, rows))
        number = _Shapes()
        try:
            self.group: bytes | array = bytes(map(number.__getitem__, of))
        except ValueError:  # (more than 256 shapes in the chunk: two bytes an event)
            self.group = array("H", map(number.__getitem__, of))
        self.shapes = list(number)
        grouped = [rows] if len(number) == 1 else [
            list(compress(rows, map(is_, of, repeat(s)))) for s in self.shapes]
        self.columns = []
        for s, members in zip(self.shapes, grouped):
            columns = zip(*members)
            next(columns)  # (the shape's own)
            self.columns.append([_column(col, how) for col, how in zip(columns, s.packing)])

    def row(self, i: int) -> tuple:
        g = self.group[i]
        p = self.group[:i].count(g)
        return (self.shapes[g], *[col[p] for col in self.columns[g]])

    def rows(self) -> Iterator[tuple]:
        """Every row in order: each group's rows zipped from its columns, taken as logged."""
        groups = [zip(repeat(s), *cols) for s, cols in zip(self.shapes, self.columns)]
        return map(next, map(groups.__getitem__, self.group))

    def reversed_rows(self) -> Iterator[tuple]:
        """Every row, last first (a reader walking back from the end stops soon, mostly)."""
        places = [self.group.count(g) for g in range(len(self.shapes))]
        for i in range(len(self.group) - 1, -1, -1):
            g = self.group[i]
            places[g] = p = places[g] - 1
            yield (self.shapes[g], *[col[p] for col in self.columns[g]])


class EventLog(Sequence[Event]):
    """The scene's log: its events in the order they happened, read as a sequence of
    :class:`Event` (indexing, slicing, iterating, ``len``).

    Each event is logged as one row, (its shape, round, phase, actor, area, the data's values);
    every :data:`CHUNK` rows are packed by shape into columns, a column of one value as that
    value once, whole numbers as bytes or C arrays, words and flags as a byte each into a table
    of them (:func:`_column`); an ``Event`` is
    built when something reads it. So a 100,000-fire scene's million events hold
    their values, not a record and a dict each. ``kinds``: keep only events of these kinds (a
    forecast's log keeps what its script reads and drops the rest as they come)."""

    __slots__ = ("_rows", "_packed", "kinds")

    def __init__(self, events: Iterable[Event] = (), kinds: frozenset | None = None) -> None:
        self._rows: list[tuple] = []  # the latest rows, fewer than CHUNK
        self._packed: list[_Packed] = []  # the rows before them, CHUNK a chunk
        self.kinds = kinds
        for event in events:
            self.append(event)

    def add(self, kind: EventKind, rnd: int, phase: int, actor: str | None, area: str | None,
            data: dict[str, Any]) -> None:
        """Log one event (what :meth:`fuego.engine.scene.Scene.emit` calls)."""
        if self.kinds is not None and kind not in self.kinds:
            return
        keys = tuple(data)
        s = _SHAPES.get((kind, keys)) or shape(kind, keys)
        rows = self._rows
        rows.append((s, rnd, phase, actor, area, *data.values()))
        if len(rows) >= CHUNK:
            self._pack()

    def add_rows(self, rows: list[tuple]) -> None:
        """Log events already made rows, each ``(shape, round, phase, actor, area, *values)``
        (a round's fuel checks; a pass's grows and failed rolls, of more than one kind)."""
        kinds = self.kinds
        if kinds is not None:
            rows = [row for row in rows if row[0].kind in kinds]
        if rows:
            self._rows += rows
            if len(self._rows) >= CHUNK:
                self._pack()

    def _pack(self) -> None:
        rows = self._rows
        while len(rows) >= CHUNK:
            self._packed.append(_Packed(rows[:CHUNK]))
            del rows[:CHUNK]

    def append(self, event: Event) -> None:
        self.add(event.kind, event.round, event.phase, event.actor, event.area, event.data)

    def extend(self, events: Iterable[Event]) -> None:
        for event in events:
            self.append(event)

    def clear(self) -> None:
        self._rows.clear()
        self._packed.clear()

    def _row(self, i: int) -> tuple:
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("event log index out of range")
        chunk, at = divmod(i, CHUNK)
        return self._rows[at] if chunk == len(self._packed) else self._packed[chunk].row(at)

    def since(self, start: int, kinds: frozenset | None = None) -> list[Event]:
        """The events from index ``start`` on, only those of ``kinds`` when given (a script
        reading what happened since its last check builds no others); a negative ``start``
        counts from the end, as a list's slice does."""
        if start < 0:
            start = max(0, len(self) + start)
        first, at = divmod(start, CHUNK)
        rows: Iterable[tuple] = self._rows[max(0, start - len(self._packed) * CHUNK):]
        if first < len(self._packed):  # (the packed chunks' rows from there, chunk by chunk)
            later = [chunk.rows() for chunk in self._packed[first + 1:]]
            rows = [*islice(self._packed[first].rows(), at, None), *chain(*later), *rows]
        if kinds is None:
            return [row_event(row) for row in rows]
        return [row_event(row) for row in rows if row[0].kind in kinds]

    def __len__(self) -> int:
        return len(self._packed) * CHUNK + len(self._rows)

    @overload
    def __getitem__(self, i: int) -> Event: ...

    @overload
    def __getitem__(self, i: slice) -> list[Event]: ...

    def __getitem__(self, i: int | slice) -> Event | list[Event]:
        if isinstance(i, slice):
            if i.step is None and i.stop is None:
                return self.since(i.start or 0)
            return [row_event(self._row(k)) for k in range(*i.indices(len(self)))]
        return row_event(self._row(i))

    def __iter__(self) -> Iterator[Event]:
        packed, rows = list(self._packed), list(self._rows)  # (what is logged as it starts)
        for chunk in packed:
            yield from map(row_event, chunk.rows())
        yield from map(row_event, rows)

    def __reversed__(self) -> Iterator[Event]:
        packed, rows = list(self._packed), list(self._rows)  # (what is logged as it starts)
        yield from map(row_event, reversed(rows))
        for chunk in reversed(packed):
            yield from map(row_event, chunk.reversed_rows())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog | list):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # (mutable, as a list)

    def __repr__(self) -> str:
        return f"EventLog({len(self)} events)"
