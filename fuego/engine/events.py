"""Small immutable records of everything that happens in a scene.

The engine never prints: it appends :class:`Event` records to the scene's log. The CLI narrates
them (``fuego.render.narrate``) or writes them as JSON lines (:meth:`Event.to_json`). A JSON
line is deterministic: keys sorted, no floats from timing, nothing but the event's own data.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


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
    # the building
    BARRIER_OPENED = "barrier-opened"
    BARRIER_CLOSED = "barrier-closed"
    FLOOR_COLLAPSED = "floor-collapsed"
    # heroes
    HERO_ACTION = "hero-action"
    HERO_MOVED = "hero-moved"
    HERO_AVOIDED = "hero-avoided"
    HERO_DAMAGED = "hero-damaged"
    WOUND_CHECK = "wound-check"
    CLOTHES_CAUGHT = "clothes-caught"
    CLOTHES_OUT = "clothes-out"
    HERO_KNOCKED_OUT = "hero-knocked-out"
    HERO_CRIPPLED = "hero-crippled"
    HERO_DIED = "hero-died"
    HERO_ESCAPED = "hero-escaped"
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
    def from_dict(cls, d: dict[str, Any]) -> Event:
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
LOG_FORMAT = 2

#: Phase numbers used for the parts of a round that are not one of the ten phases.
START_PHASE = 0
END_PHASE = 11


class EventLog(Sequence):
    """The scene's log: its events in order, some of them made only when first read.

    A round of a big fire records tens of thousands of rolls. Where nobody listens as they
    happen, the engine hands those as a :class:`Deferred` batch (their values in columns, and
    how to make the events from them); any read makes them, in their place. Reading gives
    exactly the events the engine would have appended one by one.
    """

    __slots__ = ("_events", "_tail", "_batches", "_batched", "append")

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._events: list[Event] = list(events)
        self._tail: list = []  # from the first deferred batch on: events and batches
        self._batches = 0  # deferred batches in the tail
        self._batched = 0  # events they hold
        #: append(event): straight onto the list while nothing waits to be made (the scene
        #: emits through it), onto the tail after a deferred batch. (A list's own method,
        #: never one of the log's: the log would hold itself in a cycle.)
        self.append: Callable[[Event], None] = self._events.append

    def extend(self, events: Iterable[Event]) -> None:
        for event in events:
            self.append(event)

    def defer(self, batch: Deferred) -> None:
        self._tail.append(batch)
        self._batches += 1
        self._batched += batch.count
        self.append = self._tail.append

    def clear(self) -> None:
        self._events.clear()
        self._tail.clear()
        self._batches = self._batched = 0
        self.append = self._events.append

    def _made(self) -> list[Event]:
        if self._tail:
            events = self._events
            for item in self._tail:
                if type(item) is Deferred:
                    events += item.make()
                else:
                    events.append(item)
            self._tail.clear()
            self._batches = self._batched = 0
            self.append = events.append
        return self._events

    def __len__(self) -> int:
        return len(self._events) + len(self._tail) - self._batches + self._batched

    def since(self, start: int, kinds: frozenset[EventKind]) -> list[Event]:
        """The events from index ``start`` on whose kind is one of ``kinds``. Deferred batches
        that cannot hold such an event stay unmade (a script reads the log after every phase;
        the tail is read from its end back to ``start``, not from its beginning)."""
        tail = self._tail
        picked = []
        at, k = len(self), len(tail)
        while k and at > start:
            k -= 1
            item = tail[k]
            if type(item) is Deferred:
                at -= item.count
                if item.kinds is None or not kinds.isdisjoint(item.kinds):
                    return [e for e in self._made()[start:] if e.kind in kinds]
            else:
                at -= 1
                if item.kind in kinds:
                    picked.append(item)
        picked.reverse()
        if at > start:  # on into the events already made
            return [e for e in self._events[start:at] if e.kind in kinds] + picked
        return picked

    def __getitem__(self, index):
        return self._made()[index]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._made())

    def __reversed__(self) -> Iterator[Event]:
        return reversed(self._made())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog):
            other = other._made()
        return self._made() == other

    def __repr__(self) -> str:
        return f"EventLog({self._made()!r})"

    def __reduce__(self) -> tuple:  # copies and pickles: the events, made (``append`` is bound)
        return EventLog, (self._made(),)


class Deferred:
    """``count`` events not made yet: ``make()`` makes them (once), in order. ``kinds``: the
    kinds they may be (None: any), so a reader of other kinds leaves them unmade."""

    __slots__ = ("count", "make", "kinds")

    def __init__(self, count: int, make: Callable[[], list[Event]],
                 kinds: frozenset[EventKind] | None = None) -> None:
        self.count = count
        self.make = make
        self.kinds = kinds
