"""Triggers: the ``when:`` of a cue, tested at each check against the scene and the events
since the last check (and what ``all:`` remembers).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fuego.engine.events import Event, EventKind
from fuego.engine.script import When
from fuego.scenario.script.words import ALWAYS
from fuego.world.building import Building

if TYPE_CHECKING:
    from fuego.engine.scene import Scene


# -- the scene as a check sees it --------------------------------------------------------------
@dataclass(slots=True)
class Check:
    scene: Scene
    when: When
    events: list[Event]
    first: bool  # the first pass of this check (round triggers fire only then)


def _area_ctx(building: Building, name: str | None) -> dict[str, Any]:
    """An area's context: its name and its room's key (the cue words the room: ``Cue.fire``)."""
    if name is None:
        return {}
    i = building.find(name)
    if i is None:
        return {"area": name}
    return {"area": name, "room": building.areas[i].room}


# -- triggers --------------------------------------------------------------------------------
class Trigger:
    """A condition on the scene and the events since the last check.

    ``test`` returns the context it happened with (for ``say:``), or None. ``provides`` names
    the context keys it always gives; ``kinds`` the event kinds ``test`` reads (None: any),
    so a check need not make or pass it the others; ``needs_events``: it cannot happen
    without one of those (a check with none need not ask it).
    """

    # read-only properties, so a subclass may answer them by a class attribute or a property
    @property
    def provides(self) -> frozenset[str]:
        return frozenset()

    @property
    def kinds(self) -> frozenset[EventKind] | None:
        return None

    @property
    def needs_events(self) -> bool:
        return False

    def test(self, ck: Check, latch: dict) -> dict[str, Any] | None:  # pragma: no cover
        raise NotImplementedError

    def due_round(self) -> int | None:
        """A round at which this trigger fires by itself (keeps a fireless scene open)."""
        return None


@dataclass
class RoundTrigger(Trigger):
    n: int
    provides = ALWAYS
    kinds = frozenset()

    def test(self, ck, latch):
        if ck.when is When.START and ck.first and ck.scene.round == self.n:
            return {"round": self.n}
        return None

    def due_round(self):
        return self.n


@dataclass
class FireReaches(Trigger):
    """A fire starts in one of ``areas`` (names), or in one of ``rooms`` (keys)."""

    areas: frozenset[str] = frozenset()
    rooms: frozenset[str] = frozenset()
    provides = frozenset({"area", "room", "fd"})
    kinds = frozenset({EventKind.FIRE_STARTED})
    needs_events = True

    def test(self, ck, latch):
        b = ck.scene.building
        for e in ck.events:
            if e.kind is not EventKind.FIRE_STARTED or e.area is None:
                continue
            if e.area in self.areas or (self.rooms and _room_of(b, e.area) in self.rooms):
                return {**_area_ctx(b, e.area), "fd": e.data.get("fd")}
        return None


@dataclass
class FireDice(Trigger):
    """A fire (in ``areas``/``rooms``, or anywhere) reaches ``at_least`` Fire Dice."""

    at_least: int
    areas: frozenset[str] = frozenset()
    rooms: frozenset[str] = frozenset()
    provides = frozenset({"area", "room", "fd"})
    kinds = frozenset({EventKind.FIRE_STARTED, EventKind.FIRE_GREW, EventKind.FIRE_MERGED})
    needs_events = True

    def _in_scope(self, b: Building, area: str | None) -> bool:
        if area is None:
            return False
        if not self.areas and not self.rooms:
            return True
        return area in self.areas or _room_of(b, area) in self.rooms

    def test(self, ck, latch):
        b = ck.scene.building
        n = self.at_least
        for e in ck.events:
            fd = e.data.get("fd")
            if not isinstance(fd, int) or fd < n or not self._in_scope(b, e.area):
                continue
            if e.kind is EventKind.FIRE_STARTED:
                hit = True
            elif e.kind is EventKind.FIRE_GREW:
                hit = (e.data.get("before") or 0) < n
            elif e.kind is EventKind.FIRE_MERGED:
                hit = bool(e.data.get("grew"))
            else:
                hit = False
            if hit:
                return {**_area_ctx(b, e.area), "fd": fd}
        return None


@dataclass
class HeroEnters(Trigger):
    areas: frozenset[str] = frozenset()
    rooms: frozenset[str] = frozenset()
    hero: str | None = None
    provides = frozenset({"area", "room", "hero"})
    kinds = frozenset({EventKind.HERO_MOVED, EventKind.HERO_FELL})
    needs_events = True

    def test(self, ck, latch):
        b = ck.scene.building
        for e in ck.events:
            if e.kind not in (EventKind.HERO_MOVED, EventKind.HERO_FELL) or e.area is None:
                continue
            if self.hero is not None and str(e.actor).lower() != self.hero.lower():
                continue
            if e.area in self.areas or _room_of(b, e.area) in self.rooms:
                return {**_area_ctx(b, e.area), "hero": e.actor}
        return None


@dataclass
class HeroKnockedOut(Trigger):
    hero: str | None = None
    provides = frozenset({"area", "room", "hero"})
    kinds = frozenset({EventKind.HERO_KNOCKED_OUT})
    needs_events = True

    def test(self, ck, latch):
        b = ck.scene.building
        for e in ck.events:
            if e.kind is not EventKind.HERO_KNOCKED_OUT:
                continue
            if self.hero is None or str(e.actor).lower() == self.hero.lower():
                return {**_area_ctx(b, e.area), "hero": e.actor}
        return None


@dataclass
class BarrierOpens(Trigger):
    """A barrier (by its name) opens or is destroyed; ``destroyed``: only destroyed."""

    names: frozenset[str]
    destroyed: bool = False
    provides = frozenset({"area", "room", "barrier"})
    kinds = frozenset({EventKind.STRUCTURE_DESTROYED, EventKind.BARRIER_OPENED})
    needs_events = True

    def test(self, ck, latch):
        kinds = ((EventKind.STRUCTURE_DESTROYED,) if self.destroyed
                 else (EventKind.STRUCTURE_DESTROYED, EventKind.BARRIER_OPENED))
        b = ck.scene.building
        for e in ck.events:
            if e.kind in kinds and e.data.get("barrier") in self.names:
                return {**_area_ctx(b, e.area), "barrier": e.data["barrier"]}
        return None


@dataclass
class Flashover(Trigger):
    rooms: frozenset[str] = frozenset()  # empty: any room
    provides = frozenset({"room"})
    kinds = frozenset({EventKind.FLASHOVER})
    needs_events = True

    def test(self, ck, latch):
        for e in ck.events:
            if e.kind is EventKind.FLASHOVER and (not self.rooms or e.data.get("room") in self.rooms):
                return {"room": e.data.get("room", "")}
        return None


@dataclass
class LastFireOut(Trigger):
    provides = frozenset({"area", "room"})
    kinds = frozenset({EventKind.FIRE_OUT})
    needs_events = True

    def test(self, ck, latch):
        if ck.scene.fires:
            return None
        last = None
        for e in ck.events:
            if e.kind is EventKind.FIRE_OUT:
                last = e
        if last is None:
            return None
        return _area_ctx(ck.scene.building, last.area)


@dataclass
class _Group(Trigger):
    """A trigger made of others: it reads what they read, and needs an event if each does."""

    children: list[Trigger]

    @property
    def kinds(self):
        return kinds_of(self.children)

    @property
    def needs_events(self):
        return bool(self.children) and all(c.needs_events for c in self.children)


@dataclass
class All(_Group):
    """Every child has happened; each is remembered (latched) until the cue fires."""

    node: int = 0  # its number within the cue, for the latch store

    @property
    def provides(self):
        out: frozenset[str] = frozenset()
        for c in self.children:
            out |= c.provides
        return out

    def test(self, ck, latch):
        mine = latch.setdefault(str(self.node), {})
        for i, child in enumerate(self.children):
            hit = child.test(ck, latch)
            if hit is not None and str(i) not in mine:
                mine[str(i)] = hit
        if len(mine) < len(self.children):
            return None
        ctx: dict[str, Any] = {}
        for i in range(len(self.children)):
            for k, v in mine[str(i)].items():
                ctx.setdefault(k, v)
        latch.pop(str(self.node), None)
        _clear(self, latch)
        return ctx


@dataclass
class Any_(_Group):
    """One child happens (every child is still evaluated, so nested ``all`` keep count)."""

    @property
    def provides(self):
        sets = [c.provides for c in self.children]
        out = sets[0] if sets else frozenset()
        for s in sets[1:]:
            out &= s
        return out | ALWAYS

    def test(self, ck, latch):
        found = None
        for child in self.children:
            hit = child.test(ck, latch)
            if hit is not None and found is None:
                found = hit
        return found

    def due_round(self):
        rounds = [r for r in (c.due_round() for c in self.children) if r is not None]
        return min(rounds) if rounds else None


def kinds_of(triggers: list[Trigger]) -> frozenset[EventKind] | None:
    """The event kinds any of ``triggers`` reads (None: any)."""
    out: frozenset[EventKind] = frozenset()
    for t in triggers:
        if t.kinds is None:
            return None
        out |= t.kinds
    return out


def _clear(node: Trigger, latch: dict) -> None:
    """Forget what the ``all`` nodes under ``node`` remembered (the cue has fired)."""
    for child in getattr(node, "children", ()):
        if isinstance(child, All):
            latch.pop(str(child.node), None)
        _clear(child, latch)


def _room_of(building: Building, area: str) -> str | None:
    i = building.find(area)
    return building.areas[i].room if i is not None else None
