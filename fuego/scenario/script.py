"""Scripted set pieces: a scenario's ``script:`` section of cues, triggers and effects.

A script is a list of **cues**. Each cue has a ``when:`` trigger, a list of effects under
``do:``, and fires once (``once: true``, the default) or every time its trigger happens
(``every: true``, or ``once: false``)::

    script:
      - name: the lamp falls
        when: {round: 1}
        do:
          - say: "A lamp crashes to the floor of the {room}!"
          - fire: {at: ground:B2, fd: 3}
          - spill-oil: {areas: [ground:B2, ground:C2, ground:D2], fuel: 3}

The round scheduler calls :meth:`Script.check` at fixed points (``scene-start``, ``start`` of a
round, ``phase`` after each pass of actors, ``end`` of round). A check reads the events appended
to ``scene.log`` since the last check (the script keeps an index into the log) and evaluates
the cues in file order. A cue that fires emits one ``EventKind.SCRIPT`` event, then its effects
in order; each effect goes through the engine (``Scene.start_fire`` with ``Cause.SCRIPT``,
``fire_actions.destroy_barrier``, ``injury.debris`` ...) and leaves the engine's own events, or
a ``SCRIPT`` event where the engine has none (spilt oil, a new character); ``say:`` leaves a
``READ_ALOUD`` event. Events the effects append are read by the same check in a further pass
(so one cue can set off another), at most :data:`MAX_PASSES` passes per check.

Triggers (docs/scenario-format.md, "Script"):

- ``round: N``: at the start of round N.
- ``fire-reaches: AREA`` (or a list): a fire starts in that area.
  ``fire-in-room: ROOM`` (or a list): a fire starts anywhere in that room.
- ``fire-dice: {at_least: N, in: ROOM-or-AREA}``: a fire (in that room or area, or anywhere)
  reaches N Fire Dice.
- ``hero-enters: ROOM-or-AREA`` or ``{room|area: ..., hero: NAME}``: a character moves (or
  falls, or is moved) into it.
- ``hero-knocked-out: true`` or ``NAME``: a character is knocked out.
- ``barrier-opens: BARRIER``: a door or window opens, or any barrier is destroyed.
  ``barrier-destroyed: BARRIER``: it is destroyed (burned down, broken, blown open).
- ``flashover: true`` or ``ROOM``: a room flashes over.
- ``last-fire-out: true``: the last fire goes out.
- ``all: [...]``: every one has happened (each is remembered once it happens, until the cue
  fires); ``any: [...]``: one of them happens.

Effects: ``fire``, ``spill-oil``, ``explode``, ``open``/``close``/``break`` (a barrier),
``collapse``, ``wind``, ``weather``, ``npc``, ``move``, ``say``.

A ``say:`` text is formatted with the trigger's context: ``{area}``, ``{room}``, ``{hero}``,
``{fd}``, ``{barrier}`` where the trigger gives them, and ``{round}``, ``{cue}`` always.

Everything is checked when the scenario is loaded (and so by ``fuego check``): every problem is
reported with its key path (``script[2].when.fire-reaches: no area 'ground:Z9'``) and line.
The script's progress (which cues fired, what ``all:`` remembers, the log index, oil spilt and
characters added) is plain data: :meth:`Script.state` / :meth:`Script.load_state`.
"""

from __future__ import annotations

import string
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable

from fuego.building import OPENABLE, BarrierKind, Building, Feature, RouteKind
from fuego.errors import FuegoError, ScenarioError
from fuego.events import Event, EventKind

if TYPE_CHECKING:
    from fuego.scene import Scene
    from fuego.settings import Settings

#: Passes of one check: events appended by effects are read again, at most this often.
MAX_PASSES = 8
#: Cues in one script, effects in one cue, triggers in one all/any (docs: Limits).
MAX_CUES = 500
MAX_EFFECTS = 50
MAX_TRIGGERS = 50
MAX_SAY_CHARS = 2000
#: An explosion reaches at most this many areas out.
MAX_RADIUS = 10

#: What the ``when`` argument of :meth:`Script.check` may be (fuego.rounds).
CHECK_POINTS = ("scene-start", "start", "phase", "end")

TRIGGER_NAMES = ("round", "fire-reaches", "fire-in-room", "fire-dice", "hero-enters",
                 "hero-knocked-out", "barrier-opens", "barrier-destroyed", "flashover",
                 "last-fire-out", "all", "any")
EFFECT_NAMES = ("fire", "spill-oil", "explode", "open", "close", "break", "collapse", "wind",
                "weather", "npc", "move", "say")
#: Context every cue gives a ``say:`` text.
ALWAYS = frozenset({"round", "cue"})
CONTEXT_KEYS = ("area", "room", "hero", "fd", "barrier", "round", "cue")
WINDS = ("gale", "strong", "moderate", "light", "calm")
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

Path = tuple


# -- problems --------------------------------------------------------------------------------
class _Collector:
    """Stands in for the loader's ``Problems`` when the script is checked on its own."""

    def __init__(self, source: str = "script"):
        self.source = source
        self.items: list[FuegoError] = []

    def add(self, path: Path, message: str, *, tip: str | None = None, **_: Any) -> None:
        self.items.append(FuegoError(message, where=_where(self.source, path), tip=tip))

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise ScenarioError(self.items)


def _path_text(path: Path) -> str:
    try:
        from fuego.scenario.source import path_text
    except ImportError:  # pragma: no cover - the loader ships source.py
        return ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in path)
    return path_text(path)


def _where(source: str, path: Path) -> str:
    return f"{source}: {_path_text(path)}" if path else source


def _suggest(word: Any, choices: Iterable[Any]) -> str:
    import difflib

    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _one_of(choices: Iterable[Any], limit: int = 12) -> str:
    items = [str(c) for c in choices]
    if len(items) > limit:
        items = items[:limit] + ["..."]
    return ", ".join(items) if items else "(none)"


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- the scene as a check sees it --------------------------------------------------------------
@dataclass(slots=True)
class _Check:
    scene: Scene
    when: str
    events: list[Event]
    first: bool  # the first pass of this check (round triggers fire only then)


def _room_name(building: Building, key: str) -> str:
    room = building.rooms.get(key)
    return room.name if room is not None and room.name else key


def _area_ctx(building: Building, name: str | None) -> dict[str, Any]:
    if name is None:
        return {}
    i = building.find(name)
    if i is None:
        return {"area": name}
    return {"area": name, "room": _room_name(building, building.areas[i].room)}


# -- triggers --------------------------------------------------------------------------------
class Trigger:
    """A condition on the scene and the events since the last check.

    ``test`` returns the context it happened with (for ``say:``), or None. ``provides`` names
    the context keys it always gives.
    """

    provides: frozenset[str] = frozenset()

    def test(self, ck: _Check, latch: dict) -> dict[str, Any] | None:  # pragma: no cover
        raise NotImplementedError

    def due_round(self) -> int | None:
        """A round at which this trigger fires by itself (keeps a fireless scene open)."""
        return None


@dataclass
class RoundTrigger(Trigger):
    n: int
    provides = ALWAYS

    def test(self, ck, latch):
        if ck.when == "start" and ck.first and ck.scene.round == self.n:
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

    def test(self, ck, latch):
        for e in ck.events:
            if e.kind is EventKind.FLASHOVER and (not self.rooms or e.data.get("room") in self.rooms):
                return {"room": _room_name(ck.scene.building, e.data.get("room", ""))}
        return None


@dataclass
class LastFireOut(Trigger):
    provides = frozenset({"area", "room"})

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
class All(Trigger):
    """Every child has happened; each is remembered (latched) until the cue fires."""

    children: list[Trigger]
    node: int = 0  # its number within the cue, for the latch store

    @property
    def provides(self):  # type: ignore[override]
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
class Any_(Trigger):
    """One child happens (every child is still evaluated, so nested ``all`` keep count)."""

    children: list[Trigger]

    @property
    def provides(self):  # type: ignore[override]
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


def _clear(node: Trigger, latch: dict) -> None:
    """Forget what the ``all`` nodes under ``node`` remembered (the cue has fired)."""
    for child in getattr(node, "children", ()):
        if isinstance(child, All):
            latch.pop(str(child.node), None)
        _clear(child, latch)


def _room_of(building: Building, area: str) -> str | None:
    i = building.find(area)
    return building.areas[i].room if i is not None else None


# -- effects ---------------------------------------------------------------------------------
class Effect:
    needs: frozenset[str] = frozenset()  # context keys a say text uses

    def apply(self, scene: Scene, script: Script, cue: Cue, ctx: dict[str, Any]) -> None:
        raise NotImplementedError  # pragma: no cover


#: An area given as ``"{area}"``: where the trigger happened (resolved when the cue fires).
HERE = -1


def _here(scene: Scene, areas: list[int], ctx: dict[str, Any]) -> list[int]:
    out = []
    for i in areas:
        if i == HERE:
            i = scene.building.find(str(ctx.get("area", "")))
            if i is None:
                continue
        out.append(i)
    return out


def _note(scene: Scene, cue: Cue, area: int | str | None, effect: str, text: str,
          actor: str | None = None, **data: Any) -> None:
    scene.emit(EventKind.SCRIPT, actor, area, cue=cue.name, effect=effect, text=text, **data)


@dataclass
class FireEffect(Effect):
    areas: list[int]
    fd: int | None = None  # start (or raise to) this many dice
    add: int | None = None  # grow an existing fire by this many (or start one this size)
    temperature: str | None = None
    kind: str | None = None

    def apply(self, scene, script, cue, ctx):
        from fuego.scene import Cause
        from fuego.tables import FireKind, Temperature

        temp = Temperature(self.temperature) if self.temperature else None
        kind = FireKind(self.kind) if self.kind else None
        for i in _here(scene, self.areas, ctx):
            fire = scene.fires.get(i)
            if self.add is not None and fire is not None:
                if temp is Temperature.HOT:
                    fire.temperature = temp
                scene.set_fire_dice(fire, fire.fd + self.add, f"script: {cue.name}")
                continue
            fd = self.add if self.add is not None else self.fd
            if not scene.building.areas[i].burnable:
                _note(scene, cue, i, "fire", f"nothing is left to burn in {scene.area_name(i)}")
                continue
            scene.start_fire(i, fd, Cause.SCRIPT, temperature=temp, kind=kind, cue=cue.name)


@dataclass
class SpillOil(Effect):
    areas: list[int]
    fuel: int = 3
    name: str = ""

    def apply(self, scene, script, cue, ctx):
        b = scene.building
        spill(b, self.areas, self.fuel, self.name or f"oil ({cue.name})")
        for i in self.areas:
            if i not in script.oiled:
                script.oiled.append(i)
        names = [scene.area_name(i) for i in self.areas]
        _note(scene, cue, self.areas[0], "spill-oil",
              f"Oil spreads across {', '.join(names)}", areas=names, fuel=self.fuel)


def spill(b: Building, areas: list[int], fuel: int, name: str) -> None:
    """Spilt oil: a route of fuel (fire runs along it without a roll) and oil in each area
    (fires there burn hot); an area with less fuel gets the oil's, a burned-out one burns again."""
    b.add_route(RouteKind.OIL, areas, name)
    for i in areas:
        area = b.areas[i]
        area.features = area.features | {Feature.OIL}
        if area.burned_out:
            area.burned_out = False
            area.fuel = 0
        area.fuel = max(area.fuel, fuel)


@dataclass
class Explode(Effect):
    """A hot fire of ``fd`` dice at ``area``; the blast reaches ``radius`` areas through openings
    and through every barrier a fire that size could destroy (destruction TN at most 5 x FD),
    which it blows open; debris (``injury.debris``, once each) falls on every character it
    reaches. ``scatter``: fires of that many dice in every burnable area it reaches."""

    area: int
    fd: int
    radius: int = 1
    scatter: int = 0

    def apply(self, scene, script, cue, ctx):
        from fuego.fire_actions import destroy_barrier
        from fuego.injury import debris
        from fuego.scene import Cause
        from fuego.tables import Temperature

        b = scene.building
        here = _here(scene, [self.area], ctx)
        if not here:
            return
        center = here[0]
        _note(scene, cue, center, "explode",
              f"An explosion (FD {self.fd}) rips through {scene.area_name(center)}",
              fd=self.fd, radius=self.radius)
        reached, broken = blast(b, center, self.fd, self.radius)
        if b.areas[center].burnable:
            scene.start_fire(center, self.fd, Cause.SCRIPT, temperature=Temperature.HOT,
                             cue=cue.name, explosion=True)
        for k in broken:
            destroy_barrier(scene, b.barriers[k], self.fd, "the explosion", {"cue": cue.name},
                            bystanders=False)
        for hero in list(scene.heroes):
            if hero.present and hero.area in reached:
                debris(scene, hero, self.fd, "explosion")
        if self.scatter:
            for i in sorted(reached, key=lambda i: (reached[i], i)):
                if i != center and b.areas[i].burnable:
                    scene.start_fire(i, self.scatter, Cause.SCRIPT, cue=cue.name,
                                     explosion=True)
        if Feature.GUNPOWDER in b.areas[center].features:
            b.remove_feature(center, Feature.GUNPOWDER)


def blast(b: Building, center: int, fd: int, radius: int) -> tuple[dict[int, int], list[int]]:
    """Areas an explosion reaches (area -> distance) and the barriers it breaks, in order."""
    tn = 5 * fd
    dist = {center: 0}
    queue = deque([center])
    broken: list[int] = []
    seen: set[int] = set()
    while queue:
        k = queue.popleft()
        d = dist[k]
        if d >= radius:
            continue
        for j, barrier in b.neighbours(k):
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


@dataclass
class BarrierEffect(Effect):
    action: str  # open, close, break
    barrier: int
    fd: int = 3  # debris when broken
    by: str | None = None  # who or what breaks it, for the narration

    def apply(self, scene, script, cue, ctx):
        from fuego.fire_actions import destroy_barrier

        b = scene.building
        target = b.barriers[self.barrier]
        if self.action == "break":
            destroy_barrier(scene, target, self.fd, self.by, {"cue": cue.name})
            return
        if target.destroyed:
            return
        changed = b.open_barrier(target) if self.action == "open" else b.close_barrier(target)
        if changed:
            kind = EventKind.BARRIER_OPENED if self.action == "open" else EventKind.BARRIER_CLOSED
            scene.emit(kind, None, target.a, barrier=target.name, what=target.describe(),
                       cue=cue.name)


@dataclass
class Collapse(Effect):
    floors: list[int]  # barrier indexes (floors)
    fd: int = 3
    by: str = "the collapse"

    def apply(self, scene, script, cue, ctx):
        from fuego.fire_actions import destroy_barrier

        b = scene.building
        for k in self.floors:
            destroy_barrier(scene, b.barriers[k], self.fd, self.by, {"cue": cue.name})


@dataclass
class WindEffect(Effect):
    strength: str | None = None
    direction: str | None = None

    def apply(self, scene, script, cue, ctx):
        set_wind(scene, self.strength, self.direction, cue.name)


def set_wind(scene: Scene, strength: str | None, direction: str | None, why: str) -> None:
    """Change the wind: the scene's settings (smoke clearing reads ``settings.wind``) and the
    wind module's state through its ``set_wind`` where the module is on (it announces the new
    wind itself); without the module a ``WIND`` event says it."""
    from fuego.tables import Wind

    if strength is not None:
        scene.settings.wind = Wind(strength)
    module = scene.module("wind")
    setter = getattr(module, "set_wind", None) if module is not None else None
    if callable(setter):
        setter(scene, strength=strength, direction=direction, why=f"script: {why}")
        return
    data = {k: v for k, v in (("strength", strength), ("direction", direction)) if v}
    if strength is None:
        text = f"The wind turns: it blows from the {direction}"
    else:
        verb = "rises" if strength in ("gale", "strong") else "changes"
        text = f"The wind {verb}: {strength}" + (f" from the {direction}" if direction else "")
    scene.emit(EventKind.WIND, None, None, cue=why, text=text, **data)


#: What the script's weather effect may set besides the wind: the weather module's options.
WEATHER_KEYS = ("ec", "rain", "snowfall", "snow", "temperature", "ground")


def weather_words() -> dict[str, tuple[str, ...]]:
    """The words the weather module accepts for each key (empty where it is not installed)."""
    try:
        from fuego.modules import weather as w
    except ImportError:  # pragma: no cover - the modules ship with fuego
        return {}
    words = {"ec": tuple(w.EC_DRM), "rain": tuple(w.RAIN), "snowfall": tuple(w.SNOWFALL),
             "temperature": tuple(w.TEMPERATURE), "ground": tuple(w.GROUND)}
    words["snow"] = words["snowfall"]
    return words


@dataclass
class WeatherEffect(Effect):
    values: dict[str, Any] = field(default_factory=dict)

    def apply(self, scene, script, cue, ctx):
        opts = {k: v for k, v in self.values.items() if k not in ("wind", "direction")}
        if opts:
            module = scene.module("weather")
            setter = getattr(module, "set_weather", None) if module is not None else None
            if callable(setter):
                setter(scene, why=f"script: {cue.name}", **opts)
            else:
                text = "The weather changes: " + ", ".join(f"{k} {v}" for k, v in opts.items())
                scene.emit(EventKind.WEATHER, None, None, cue=cue.name, text=text,
                           **{f"set_{k}": v for k, v in opts.items()})
        if "wind" in self.values or "direction" in self.values:
            set_wind(scene, self.values.get("wind"), self.values.get("direction"), cue.name)


@dataclass
class NpcEffect(Effect):
    sheet: dict[str, Any]  # Hero(...) keyword arguments, area as an index

    def apply(self, scene, script, cue, ctx):
        name = self.sheet["name"]
        if any(h.name.lower() == name.lower() for h in scene.heroes):
            return
        hero = make_npc(self.sheet)
        scene.heroes.append(hero)
        scene.npcs_added.append(hero.name)
        script.npcs.append(dict(self.sheet))
        _note(scene, cue, hero.area, "npc", f"{hero.name} appears in "
              f"{scene.area_name(hero.area)}", actor=hero.name, npc=hero.name)


def make_npc(sheet: dict[str, Any]):
    from fuego.heroes import Hero, Rank

    kw = dict(sheet)
    kw["rank"] = Rank(kw.get("rank", "henchman"))
    kw["knacks"] = dict(kw.get("knacks", {}))
    return Hero(npc=True, **kw)


@dataclass
class MoveEffect(Effect):
    who: str
    to: int

    def apply(self, scene, script, cue, ctx):
        from fuego.hero_actions import move

        hero = next((h for h in scene.heroes if h.name.lower() == self.who.lower()), None)
        if hero is None or not hero.in_play:
            return
        move(scene, hero, self.to, why=f"script: {cue.name}")


@dataclass
class Say(Effect):
    text: str
    needs: frozenset[str] = frozenset()

    def apply(self, scene, script, cue, ctx):
        scene.emit(EventKind.READ_ALOUD, None, ctx.get("area"), cue=cue.name,
                   text=say_text(self.text, ctx))


class _Keep(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def say_text(text: str, ctx: dict[str, Any]) -> str:
    values = _Keep({k: v for k, v in ctx.items() if v is not None})
    try:
        return string.Formatter().vformat(text, (), values)
    except (ValueError, IndexError, KeyError, AttributeError):
        return text


# -- cues and the script -------------------------------------------------------------------------
@dataclass
class Cue:
    index: int
    name: str
    trigger: Trigger
    effects: list[Effect]
    once: bool = True


@dataclass
class Script:
    """The cues of a scenario and their progress in one scene."""

    cues: list[Cue]
    index: int = 0  # events of scene.log already read
    fired: list[int] = field(default_factory=list)  # times each cue fired
    latches: list[dict] = field(default_factory=list)  # per cue: what its all: remember
    oiled: list[int] = field(default_factory=list)  # areas oil was spilt on
    npcs: list[dict] = field(default_factory=list)  # sheets of characters it added

    def __post_init__(self) -> None:
        if not self.fired:
            self.fired = [0] * len(self.cues)
        if not self.latches:
            self.latches = [{} for _ in self.cues]

    def __len__(self) -> int:
        return len(self.cues)

    def check(self, scene: Scene, when: str) -> None:
        """Read the events since the last check; fire the cues whose triggers happened."""
        first = True
        for _ in range(MAX_PASSES):
            events = scene.log[self.index:]
            self.index = len(scene.log)
            if not events and not first:
                return
            ck = _Check(scene, when, events, first)
            for cue in self.cues:
                if cue.once and self.fired[cue.index]:
                    continue
                hit = cue.trigger.test(ck, self.latches[cue.index])
                if hit is not None:
                    self._fire(scene, cue, hit)
            first = False

    def _fire(self, scene: Scene, cue: Cue, hit: dict[str, Any]) -> None:
        self.fired[cue.index] += 1
        ctx = {"round": scene.round, "cue": cue.name, **hit}
        data = {k: v for k, v in hit.items() if k in ("room", "hero", "fd", "barrier")}
        scene.emit(EventKind.SCRIPT, None, hit.get("area"), cue=cue.name,
                   text=cue.name, times=self.fired[cue.index], **data)
        for effect in cue.effects:
            effect.apply(scene, self, cue, ctx)

    def pending(self, scene: Scene) -> bool:
        """A cue still due at a later round (the scene is not over while one is)."""
        for cue in self.cues:
            if cue.once and self.fired[cue.index]:
                continue
            due = cue.trigger.due_round()
            if due is not None and due > scene.round:
                return True
        return False

    # -- saves -----------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {"index": self.index, "fired": list(self.fired),
                "latches": [dict(x) for x in self.latches], "oiled": list(self.oiled),
                "npcs": [dict(x) for x in self.npcs]}

    def load_state(self, state: dict[str, Any], scene: Scene | None = None) -> None:
        """Restore :meth:`state`. With ``scene``: also put back what the building and the cast
        do not save themselves (oil in the areas, characters the script added)."""
        self.index = int(state.get("index", 0))
        fired = list(state.get("fired", []))
        self.fired = (fired + [0] * len(self.cues))[: len(self.cues)]
        latches = list(state.get("latches", []))
        self.latches = (latches + [{} for _ in self.cues])[: len(self.cues)]
        self.oiled = list(state.get("oiled", []))
        self.npcs = [dict(x) for x in state.get("npcs", [])]
        if scene is not None:
            self.restore(scene)

    def restore(self, scene: Scene) -> None:
        b = scene.building
        for i in self.oiled:
            if 0 <= i < len(b.areas):
                b.areas[i].features = b.areas[i].features | {Feature.OIL}
        names = {h.name.lower() for h in scene.heroes}
        for sheet in self.npcs:
            if sheet["name"].lower() not in names:
                scene.heroes.append(make_npc(sheet))
                if sheet["name"] not in scene.npcs_added:
                    scene.npcs_added.append(sheet["name"])


# -- parsing and validation ----------------------------------------------------------------------
class _Parser:
    """Turns the raw ``script:`` data into cues, reporting every problem with its key path."""

    def __init__(self, building: Building, problems, heroes: Iterable[str],
                 settings: Settings | None, path: Path):
        self.b = building
        self.problems = problems
        self.heroes = {h.lower(): h for h in heroes}
        self.settings = settings
        self.root = path
        self.npc_names: dict[str, str] = {}
        self.oil_areas: set[int] = set()
        self.barrier_names = {bar.name: bar.index for bar in building.barriers}
        self._node = 0
        self._provides: frozenset[str] | None = None

    def add(self, path: Path, message: str, tip: str | None = None) -> None:
        self.problems.add(tuple(path), message, tip=tip)

    # -- names ---------------------------------------------------------------------------
    def area(self, value: Any, path: Path, *, fuel: bool = False) -> int | None:
        if not isinstance(value, str) or not value.strip():
            self.add(path, f"expected an area name such as ground:C4, got {_short(value)}")
            return None
        name = value.strip()
        i = self.b.find(name)
        if i is None:
            names = [a.name for a in self.b.areas]
            self.add(path, f"no area {name!r}{_suggest(name, names)}",
                     tip="name areas as level:C4 (column letter, row number)")
            return None
        if fuel and self.b.areas[i].fuel <= 0 and i not in self.oil_areas:
            self.add(path, f"nothing burns in {self.b.areas[i].name} (it has no fuel), so no "
                     "fire can reach it", tip="give the area fuel, or spill oil there first")
        return i

    def room(self, value: Any, path: Path) -> str | None:
        if not isinstance(value, str) or value not in self.b.rooms:
            self.add(path, f"no room {_short(value)}{_suggest(value, self.b.rooms)}; rooms: "
                     f"{_one_of(self.b.rooms)}")
            return None
        return value

    def place(self, value: Any, path: Path) -> tuple[set[str], set[str]] | None:
        """A room key or an area name -> (areas, rooms)."""
        if isinstance(value, str) and value in self.b.rooms:
            return set(), {value}
        if isinstance(value, str) and self.b.find(value.strip()) is not None:
            return {self.b.areas[self.b.find(value.strip())].name}, set()
        choices = list(self.b.rooms) + [a.name for a in self.b.areas]
        self.add(path, f"no room or area {_short(value)}{_suggest(value, choices)}",
                 tip=f"rooms: {_one_of(self.b.rooms)}; areas are named like ground:C4")
        return None

    def places(self, value: Any, path: Path) -> tuple[set[str], set[str]] | None:
        items = value if isinstance(value, list) else [value]
        if not items:
            self.add(path, "expected a room or an area (or a list of them), got an empty list")
            return None
        areas, rooms, ok = set(), set(), True
        for n, item in enumerate(items):
            got = self.place(item, path + (n,) if isinstance(value, list) else path)
            if got is None:
                ok = False
            else:
                areas |= got[0]
                rooms |= got[1]
        return (areas, rooms) if ok else None

    def hero(self, value: Any, path: Path) -> str | None:
        if not isinstance(value, str) or not value.strip():
            self.add(path, f"expected a character's name, got {_short(value)}")
            return None
        key = value.strip().lower()
        if key in self.heroes:
            return self.heroes[key]
        if key in self.npc_names:
            return self.npc_names[key]
        known = list(self.heroes.values()) + list(self.npc_names.values())
        self.add(path, f"no character named {value!r}{_suggest(value, known)}; characters: "
                 f"{_one_of(known)}", tip="name one of the scenario's heroes or an npc the "
                 "script adds")
        return None

    def barrier(self, value: Any, path: Path) -> int | None:
        """A barrier by name, by its two areas (``ground:C4-ground:D4``, ``a|b``, ``[a, b]``)."""
        if isinstance(value, str) and value in self.barrier_names:
            return self.barrier_names[value]
        parts: list[Any] | None = None
        if isinstance(value, list):
            parts = value
        elif isinstance(value, str):
            text = value.replace("|", " ").replace(",", " ")
            text = " ".join(text.split())
            parts = text.split(" ") if " " in text else self._split_dash(text)
        if not parts or len(parts) != 2 or not all(isinstance(p, str) for p in parts):
            self.add(path, f"not a barrier: {_short(value)} (name it by its two areas, e.g. "
                     "ground:C4-ground:D4, or by the name the scenario gives it)")
            return None
        i, j = self.b.find(parts[0].strip()), self.b.find(parts[1].strip())
        if i is None or j is None:
            bad = parts[0] if i is None else parts[1]
            self.add(path, f"no area {bad.strip()!r} for the barrier "
                     f"{_suggest(bad, [a.name for a in self.b.areas])}".rstrip())
            return None
        bar = self.b.between(i, j)
        if bar is None:
            self.add(path, f"{self.b.areas[i].name} and {self.b.areas[j].name} are not "
                     "neighbours: no barrier between them")
            return None
        return bar.index

    def _by(self, value: Any, path: Path) -> str | None:
        """Who or what does it, as the narration names it ("the crew's axes")."""
        if not isinstance(value, str) or not value.strip() or len(value) > 60:
            self.add(path, f"expected a short text naming who or what does it (e.g. 'the "
                     f"crew's axes'), got {_short(value)}")
            return None
        return value.strip()

    def _split_dash(self, text: str) -> list[str]:
        """``ground:C4-ground:D4`` -> two areas (level names may hold dashes: the split where
        both sides are areas wins, else the first dash)."""
        dashes = [n for n, ch in enumerate(text) if ch == "-" and 0 < n < len(text) - 1]
        for n in dashes:
            if self.b.find(text[:n]) is not None and self.b.find(text[n + 1:]) is not None:
                return [text[:n], text[n + 1:]]
        return [text[: dashes[0]], text[dashes[0] + 1:]] if dashes else [text]

    def integer(self, value: Any, path: Path, lo: int, hi: int, what: str) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(path, f"expected a whole number for {what}, got {_short(value)}")
            return None
        if not lo <= value <= hi:
            self.add(path, f"{what} must be {lo}-{hi}, not {value}")
            return None
        return value

    def mapping(self, value: Any, path: Path, allowed: tuple[str, ...],
                required: tuple[str, ...] = ()) -> dict | None:
        if not isinstance(value, dict):
            self.add(path, f"expected a mapping with {_one_of(allowed)}, got {_short(value)}")
            return None
        ok = True
        for k in value:
            if k not in allowed:
                self.add(path + (k,), f"unknown key {k!r}{_suggest(k, allowed)}; expected one "
                         f"of: {_one_of(allowed)}")
                ok = False
        for k in required:
            if k not in value:
                self.add(path, f"missing required key {k!r}")
                ok = False
        return value if ok else None

    def flag(self, value: Any, path: Path, what: str) -> bool:
        if value is not True:
            self.add(path, f"expected true (or a name) for {what}, got {_short(value)}")
            return False
        return True

    # -- the script ------------------------------------------------------------------------
    def parse(self, raw: Any) -> list[Cue] | None:
        path = self.root
        if raw is None:
            return []
        if not isinstance(raw, list):
            self.add(path, f"expected a list of cues (lines starting with '- '), got "
                     f"{_short(raw)}")
            return None
        if len(raw) > MAX_CUES:
            self.add(path, f"{len(raw)} cues; a script may have at most {MAX_CUES}")
            return None
        # Names first: characters the script adds, and oil it spills, may be used anywhere.
        for n, item in enumerate(raw):
            for effect in _effects_of(item):
                if not isinstance(effect, dict) or len(effect) != 1:
                    continue
                (key, value), = effect.items()
                if key == "npc" and isinstance(value, dict) and isinstance(value.get("name"), str):
                    self.npc_names.setdefault(value["name"].strip().lower(), value["name"].strip())
                if key == "spill-oil":
                    areas = value.get("areas") if isinstance(value, dict) else value
                    for a in areas if isinstance(areas, list) else []:
                        i = self.b.find(a) if isinstance(a, str) else None
                        if i is not None:
                            self.oil_areas.add(i)
        cues: list[Cue] = []
        names: dict[str, int] = {}
        ok = True
        for n, item in enumerate(raw):
            name = item.get("name") if isinstance(item, dict) else None
            if isinstance(name, str) and name.strip():
                key = name.strip().lower()
                if key in names:
                    self.add(path + (n, "name"), f"two cues are named {name.strip()!r} (the "
                             f"other is script[{names[key]}]); give each cue its own name")
                    ok = False
                names.setdefault(key, n)
            cue = self.cue(item, path + (n,), n)
            if cue is None:
                ok = False
                continue
            cues.append(cue)
        return cues if ok else None

    def cue(self, item: Any, path: Path, n: int) -> Cue | None:
        allowed = ("name", "when", "do", "once", "every", "description")
        spec = self.mapping(item, path, allowed, ("when", "do"))
        if spec is None:
            # still look inside for more problems
            if isinstance(item, dict):
                if "when" in item:
                    self._node = 0
                    self.trigger(item["when"], path + ("when",))
                if "do" in item:
                    self.effects(item["do"], path + ("do",), ALWAYS | _maybe_provides(self, item))
            return None
        name = spec.get("name", f"cue {n + 1}")
        ok = True
        if not isinstance(name, str) or not name.strip() or len(name) > 80:
            self.add(path + ("name",), f"a cue's name is text of 1-80 characters, got "
                     f"{_short(name)}")
            ok, name = False, f"cue {n + 1}"
        desc = spec.get("description", "")
        if not isinstance(desc, str):
            self.add(path + ("description",), f"expected text, got {_short(desc)}")
            ok = False
        once = True
        if "once" in spec:
            if not isinstance(spec["once"], bool):
                self.add(path + ("once",), f"expected true or false, got {_short(spec['once'])}")
                ok = False
            else:
                once = spec["once"]
        if "every" in spec:
            if not isinstance(spec["every"], bool):
                self.add(path + ("every",), f"expected true or false, got "
                         f"{_short(spec['every'])}")
                ok = False
            elif "once" in spec and spec["once"] == spec["every"]:
                self.add(path + ("every",), "'once' and 'every' contradict each other; give one")
                ok = False
            else:
                once = not spec["every"]
        self._node = 0
        trigger = self.trigger(spec["when"], path + ("when",))
        provides = trigger.provides | ALWAYS if trigger is not None else None
        effects = self.effects(spec["do"], path + ("do",), provides)
        if trigger is None or effects is None or not ok:
            return None
        return Cue(n, name.strip(), trigger, effects, once)

    # -- triggers ------------------------------------------------------------------------
    def trigger(self, raw: Any, path: Path) -> Trigger | None:
        if not isinstance(raw, dict) or len(raw) != 1:
            if isinstance(raw, dict) and len(raw) > 1:
                self.add(path, f"one trigger per 'when' (got {_one_of(raw)}); combine "
                         "triggers with all: [...] or any: [...]")
            else:
                self.add(path, f"expected a trigger such as 'round: 3' or 'fire-reaches: "
                         f"ground:C4', got {_short(raw)}", tip=f"triggers: "
                         f"{_one_of(TRIGGER_NAMES, 20)}")
            return None
        (key, value), = raw.items()
        p = path + (key,)
        method = getattr(self, "t_" + str(key).replace("-", "_"), None)
        if key not in TRIGGER_NAMES or method is None:
            self.add(p, f"unknown trigger {key!r}{_suggest(key, TRIGGER_NAMES)}; triggers: "
                     f"{_one_of(TRIGGER_NAMES, 20)}")
            return None
        return method(value, p)

    def t_round(self, v, p):
        if isinstance(v, int) and not isinstance(v, bool) and v < 1:
            self.add(p, f"rounds start at 1, not {v}: a cue at round {v} could never fire")
            return None
        limit = self.settings.max_rounds if self.settings is not None else 10_000
        n = self.integer(v, p, 1, max(1, limit), "the round")
        if n is None:
            return None
        return RoundTrigger(n)

    def t_fire_reaches(self, v, p):
        items = v if isinstance(v, list) else [v]
        if not items:
            self.add(p, "expected an area (or a list of areas), got an empty list")
            return None
        out = set()
        for n, a in enumerate(items):
            i = self.area(a, p + (n,) if isinstance(v, list) else p, fuel=True)
            if i is None:
                return None
            out.add(self.b.areas[i].name)
        return FireReaches(areas=frozenset(out))

    def t_fire_in_room(self, v, p):
        items = v if isinstance(v, list) else [v]
        if not items:
            self.add(p, "expected a room (or a list of rooms), got an empty list")
            return None
        rooms = set()
        for n, r in enumerate(items):
            pp = p + (n,) if isinstance(v, list) else p
            key = self.room(r, pp)
            if key is None:
                return None
            if not any(self.b.areas[i].fuel > 0 or i in self.oil_areas
                       for i in self.b.room_areas(key)):
                self.add(pp, f"nothing burns in room {key!r} (no area has fuel), so no fire "
                         "can reach it")
                return None
            rooms.add(key)
        return FireReaches(rooms=frozenset(rooms))

    def t_fire_dice(self, v, p):
        if isinstance(v, int) and not isinstance(v, bool):
            v = {"at_least": v}
        spec = self.mapping(v, p, ("at_least", "in"), ("at_least",))
        if spec is None:
            return None
        n = self.integer(spec["at_least"], p + ("at_least",), 1, 10, "Fire Dice")
        if n is None:
            if isinstance(spec["at_least"], int) and spec["at_least"] > 10:
                pass  # reported: a fire has at most 10 Fire Dice
            return None
        areas: set[str] = set()
        rooms: set[str] = set()
        if "in" in spec:
            got = self.places(spec["in"], p + ("in",))
            if got is None:
                return None
            areas, rooms = got
        return FireDice(n, frozenset(areas), frozenset(rooms))

    def t_hero_enters(self, v, p):
        hero = None
        if isinstance(v, dict):
            spec = self.mapping(v, p, ("room", "area", "hero"))
            if spec is None:
                return None
            if ("room" in spec) == ("area" in spec):
                self.add(p, "give exactly one of 'room:' or 'area:'")
                return None
            if "hero" in spec:
                hero = self.hero(spec["hero"], p + ("hero",))
                if hero is None:
                    return None
            if "room" in spec:
                key = self.room(spec["room"], p + ("room",))
                if key is None:
                    return None
                return HeroEnters(rooms=frozenset({key}), hero=hero)
            i = self.area(spec["area"], p + ("area",))
            if i is None:
                return None
            return HeroEnters(areas=frozenset({self.b.areas[i].name}), hero=hero)
        got = self.places(v, p)
        if got is None:
            return None
        return HeroEnters(areas=frozenset(got[0]), rooms=frozenset(got[1]))

    def t_hero_knocked_out(self, v, p):
        if v is True:
            return HeroKnockedOut()
        if isinstance(v, dict):
            spec = self.mapping(v, p, ("hero",), ("hero",))
            if spec is None:
                return None
            v = spec["hero"]
        name = self.hero(v, p)
        return HeroKnockedOut(name) if name is not None else None

    def t_barrier_opens(self, v, p, destroyed=False):
        items = v if isinstance(v, list) and v and isinstance(v[0], list) else [v]
        names = set()
        for n, item in enumerate(items):
            pp = p + (n,) if len(items) > 1 or item is not v else p
            k = self.barrier(item, pp)
            if k is None:
                return None
            bar = self.b.barriers[k]
            if bar.kind in (BarrierKind.OPEN, BarrierKind.STAIRS, BarrierKind.LADDER,
                            BarrierKind.HOLE) or bar.destroyed:
                self.add(pp, f"the {_what(bar)} at {bar.name} is always open: it can be "
                         "neither opened nor destroyed")
                return None
            if not destroyed and bar.kind not in OPENABLE and bar.destruction_tn is None:
                self.add(pp, f"the {_what(bar)} at {bar.name} can never open")
                return None
            if destroyed and bar.destruction_tn is None:
                self.add(pp, f"the {_what(bar)} at {bar.name} cannot be destroyed")
                return None
            names.add(bar.name)
        return BarrierOpens(frozenset(names), destroyed)

    def t_barrier_destroyed(self, v, p):
        return self.t_barrier_opens(v, p, destroyed=True)

    def t_flashover(self, v, p):
        if v is True:
            return Flashover()
        key = self.room(v, p)
        if key is None:
            return None
        if self.b.rooms[key].outdoors:
            self.add(p, f"{key!r} is outdoors: only enclosed rooms flash over")
            return None
        if self.settings is not None and getattr(self.settings.flashover, "value", "") == "off":
            self.add(p, "flashover is off in this scenario (rules.flashover: off), so this "
                     "cue could never fire")
            return None
        return Flashover(frozenset({key}))

    def t_last_fire_out(self, v, p):
        return LastFireOut() if self.flag(v, p, "last-fire-out") else None

    def t_all(self, v, p, cls=All):
        if not isinstance(v, list) or not v:
            self.add(p, f"expected a list of triggers, got {_short(v)}")
            return None
        if len(v) > MAX_TRIGGERS:
            self.add(p, f"{len(v)} triggers; at most {MAX_TRIGGERS}")
            return None
        node = self._node
        self._node += 1
        children = [self.trigger(item, p + (n,)) for n, item in enumerate(v)]
        if any(c is None for c in children):
            return None
        return All(children, node) if cls is All else Any_(children)

    def t_any(self, v, p):
        return self.t_all(v, p, cls=Any_)

    # -- effects -------------------------------------------------------------------------
    def effects(self, raw: Any, path: Path, provides: frozenset[str] | None) -> list[Effect] | None:
        items = raw if isinstance(raw, list) else [raw]
        if not items or raw is None:
            self.add(path, "expected a list of effects (fire:, spill-oil:, explode:, say: ...)")
            return None
        if len(items) > MAX_EFFECTS:
            self.add(path, f"{len(items)} effects; a cue may have at most {MAX_EFFECTS}")
            return None
        out, ok = [], True
        for n, item in enumerate(items):
            p = path + (n,) if isinstance(raw, list) else path
            effect = self.effect(item, p, provides)
            if effect is None:
                ok = False
            else:
                out.append(effect)
        return out if ok else None

    def effect(self, raw: Any, path: Path, provides) -> Effect | None:
        if not isinstance(raw, dict) or len(raw) != 1:
            self.add(path, f"an effect is one 'name: value' line (fire:, spill-oil:, explode:, "
                     f"say: ...), got {_short(raw)}", tip=f"effects: {_one_of(EFFECT_NAMES, 20)}")
            return None
        (key, value), = raw.items()
        p = path + (key,)
        if key not in EFFECT_NAMES:
            self.add(p, f"unknown effect {key!r}{_suggest(key, EFFECT_NAMES)}; effects: "
                     f"{_one_of(EFFECT_NAMES, 20)}")
            return None
        if key == "say":
            return self.e_say(value, p, provides)
        self._provides = provides
        return getattr(self, "e_" + key.replace("-", "_"))(value, p)

    def here(self, value: Any, path: Path) -> bool:
        """Is ``value`` the trigger's own area (``"{area}"``)? Reports a trigger without one."""
        if not (isinstance(value, str) and value.strip() == "{area}"):
            return False
        if self._provides is not None and "area" not in self._provides:
            self.add(path, "the trigger gives no {area} to act on; name the area")
        return True

    def _areas(self, v, p, *, fuel: bool = False, here: bool = False) -> list[int] | None:
        items = v if isinstance(v, list) else [v]
        if not items:
            self.add(p, "expected an area (or a list of areas), got an empty list")
            return None
        out = []
        for n, a in enumerate(items):
            pp = p + (n,) if isinstance(v, list) else p
            if here and self.here(a, pp):
                out.append(HERE)
                continue
            i = self.area(a, pp, fuel=fuel)
            if i is None:
                return None
            out.append(i)
        return out

    def e_fire(self, v, p):
        if isinstance(v, str) or isinstance(v, list):
            v = {"at": v}
        spec = self.mapping(v, p, ("at", "fd", "add", "temperature", "kind"), ("at",))
        if spec is None:
            return None
        areas = self._areas(spec["at"], p + ("at",), fuel=True, here=True)
        fd = add = None
        if "fd" in spec and "add" in spec:
            self.add(p, "give 'fd:' (start or raise a fire to that many dice) or 'add:' (grow "
                     "a fire by that many), not both")
            return None
        if "add" in spec:
            add = self.integer(spec["add"], p + ("add",), 1, 9, "Fire Dice to add")
            if add is None:
                return None
        else:
            fd = self.integer(spec.get("fd", 2), p + ("fd",), 1, 10, "Fire Dice")
            if fd is None:
                return None
        temp = spec.get("temperature")
        if temp is not None and temp not in ("cold", "regular", "hot"):
            self.add(p + ("temperature",), f"expected cold, regular or hot, got {_short(temp)}")
            return None
        kind = spec.get("kind")
        if kind is not None and kind not in ("henchman", "villain"):
            self.add(p + ("kind",), f"expected henchman or villain, got {_short(kind)}")
            return None
        if areas is None:
            return None
        return FireEffect(areas, fd, add, temp, kind)

    def e_spill_oil(self, v, p):
        if isinstance(v, list):
            v = {"areas": v}
        spec = self.mapping(v, p, ("areas", "fuel", "name"), ("areas",))
        if spec is None:
            return None
        areas = self._areas(spec["areas"], p + ("areas",))
        fuel = self.integer(spec.get("fuel", 3), p + ("fuel",), 1, 9, "the oil's fuel")
        name = spec.get("name", "")
        if not isinstance(name, str) or len(name) > 80:
            self.add(p + ("name",), f"expected a short name, got {_short(name)}")
            return None
        if areas is None or fuel is None:
            return None
        if len(set(areas)) != len(areas):
            self.add(p + ("areas",), "an area is listed twice: oil runs through each area once")
            return None
        for n in range(1, len(areas)):
            a, b = areas[n - 1], areas[n]
            if self.b.between(a, b) is None:
                self.add(p + ("areas", n), f"{self.b.areas[b].name} is not next to "
                         f"{self.b.areas[a].name}: spilt oil runs through neighbouring areas "
                         "in order")
                return None
        return SpillOil(areas, fuel, name)

    def e_explode(self, v, p):
        if isinstance(v, str):
            v = {"at": v}
        spec = self.mapping(v, p, ("at", "fd", "radius", "scatter"), ("at",))
        if spec is None:
            return None
        if self.here(spec["at"], p + ("at",)):
            i = HERE
        else:
            i = self.area(spec["at"], p + ("at",))
        fd = self.integer(spec.get("fd", 6), p + ("fd",), 1, 10, "Fire Dice")
        radius = self.integer(spec.get("radius", 1), p + ("radius",), 0, MAX_RADIUS,
                              "the radius (areas)")
        scatter = self.integer(spec.get("scatter", 0), p + ("scatter",), 0, 10,
                               "the scattered fires' Fire Dice")
        if None in (i, fd, radius, scatter):
            return None
        return Explode(i, fd, radius, scatter)

    def _barrier_effect(self, action, v, p):
        fd, by = 3, None
        if isinstance(v, dict) and "barrier" in v:
            spec = self.mapping(v, p, ("barrier", "fd", "by") if action == "break"
                                else ("barrier",))
            if spec is None:
                return None
            if "fd" in spec:
                fd = self.integer(spec["fd"], p + ("fd",), 1, 10, "the debris' Fire Dice")
                if fd is None:
                    return None
            if "by" in spec:
                by = self._by(spec["by"], p + ("by",))
                if by is None:
                    return None
            v, p = spec["barrier"], p + ("barrier",)
        k = self.barrier(v, p)
        if k is None:
            return None
        bar = self.b.barriers[k]
        if action in ("open", "close") and (bar.kind not in OPENABLE or bar.destroyed):
            self.add(p, f"the {_what(bar)} at {bar.name} cannot {action}: only doors and "
                     "windows open and close", tip="use break: to knock a hole in it")
            return None
        if action == "break" and (bar.passable and bar.kind not in OPENABLE
                                  or bar.destroyed or bar.structure is None):
            self.add(p, f"the {_what(bar)} at {bar.name} is an opening already: nothing "
                     "to break")
            return None
        return BarrierEffect(action, k, fd, by)

    def e_open(self, v, p):
        return self._barrier_effect("open", v, p)

    def e_close(self, v, p):
        return self._barrier_effect("close", v, p)

    def e_break(self, v, p):
        return self._barrier_effect("break", v, p)

    def e_collapse(self, v, p):
        if isinstance(v, str):
            v = {"room": v} if v in self.b.rooms else {"floor": v}
        spec = self.mapping(v, p, ("room", "floor", "fd", "by"))
        if spec is None:
            return None
        by = self._by(spec.get("by", "the collapse"), p + ("by",))
        if by is None:
            return None
        if ("room" in spec) == ("floor" in spec):
            self.add(p, "give exactly one of 'room:' (its whole floor) or 'floor:' (an area or "
                     "a list of areas)")
            return None
        fd = self.integer(spec.get("fd", 3), p + ("fd",), 1, 10, "the debris' Fire Dice")
        if fd is None:
            return None
        if "room" in spec:
            key = self.room(spec["room"], p + ("room",))
            if key is None:
                return None
            floors = [f for f in (self._floor_under(i) for i in self.b.room_areas(key))
                      if f is not None]
            if not floors:
                self.add(p + ("room",), f"room {key!r} has no floor over another level to "
                         "collapse into", tip="collapse a room on an upper level")
                return None
            return Collapse(floors, fd, by)
        areas = self._areas(spec["floor"], p + ("floor",))
        if areas is None:
            return None
        floors = []
        for n, i in enumerate(areas):
            f = self._floor_under(i)
            if f is None:
                pp = p + ("floor", n) if isinstance(spec["floor"], list) else p + ("floor",)
                self.add(pp, f"{self.b.areas[i].name} has no floor over an area below to "
                         "collapse into")
                return None
            floors.append(f)
        return Collapse(floors, fd, by)

    def _floor_under(self, i: int) -> int | None:
        below = self.b.vertical_neighbour(i, up=False)
        if below is None or below[1].kind is not BarrierKind.FLOOR or below[1].destroyed:
            return None
        return below[1].index

    def _wind_values(self, v, p) -> tuple[str | None, str | None] | None:
        if isinstance(v, str):
            if v.lower() not in WINDS and v.upper() not in DIRECTIONS:
                self.add(p, f"no wind {_short(v)}{_suggest(v, WINDS)}; give a strength "
                         f"({_one_of(WINDS)}) or a direction ({_one_of(DIRECTIONS)})")
                return None
            v = {"strength": v.lower()} if v.lower() in WINDS else {"direction": v}
        spec = self.mapping(v, p, ("strength", "direction"))
        if spec is None:
            return None
        strength, direction = spec.get("strength"), spec.get("direction")
        if strength is None and direction is None:
            self.add(p, "give the wind's strength (calm ... gale) and/or direction (N, NE ...)")
            return None
        if strength is not None and strength not in WINDS:
            self.add(p + ("strength",) if "strength" in (v or {}) else p,
                     f"no wind {_short(strength)}{_suggest(strength, WINDS)}; winds: "
                     f"{_one_of(WINDS)}")
            return None
        if direction is not None and str(direction).upper() not in DIRECTIONS:
            self.add(p + ("direction",) if "direction" in (v or {}) else p,
                     f"no direction {_short(direction)}; directions: {_one_of(DIRECTIONS)}")
            return None
        return strength, (str(direction).upper() if direction is not None else None)

    def e_wind(self, v, p):
        got = self._wind_values(v, p)
        return WindEffect(*got) if got is not None else None

    def e_weather(self, v, p):
        allowed = ("wind", "direction", *WEATHER_KEYS)
        spec = self.mapping(v, p, allowed)
        if spec is None:
            return None
        if not spec:
            self.add(p, f"expected weather settings such as {{rain: heavy, wind: strong}}; "
                     f"keys: {_one_of(allowed)}")
            return None
        values: dict[str, Any] = {}
        if "wind" in spec or "direction" in spec:
            wind = {"strength" if k == "wind" else k: spec[k] for k in ("wind", "direction")
                    if k in spec}
            got = self._wind_values(wind, p)
            if got is None:
                return None
            if got[0]:
                values["wind"] = got[0]
            if got[1]:
                values["direction"] = got[1]
        words = weather_words()
        ok = True
        others = [k for k in spec if k in WEATHER_KEYS]
        if others and self.settings is not None and "weather" not in self.settings.modules:
            self.add(p + (others[0],), f"{others[0]} is the weather module's: switch it on "
                     "(rules.modules: {weather: {}}) or change only the wind here")
            return None
        for k in others:
            val = spec[k]
            word = val.strip().lower() if isinstance(val, str) else val
            if k in words and word not in words[k]:
                self.add(p + (k,), f"no {k} {_short(val)}{_suggest(val, words[k])}; expected "
                         f"one of: {_one_of(words[k])}")
                ok = False
                continue
            values[k] = word
        if ok and others:
            ok = self._module_weather_check({k: values[k] for k in others}, p)
        return WeatherEffect(values) if ok else None

    def _module_weather_check(self, values: dict[str, Any], p: Path) -> bool:
        """The weather module's own check of a change (``Weather.check_weather``), if it has one."""
        try:
            from fuego.modules import weather as w
        except ImportError:  # pragma: no cover
            return True
        check = getattr(getattr(w, "Weather", None), "check_weather", None)
        if check is None:
            return True
        problems = list(check(values) or [])
        for text in problems:
            key, _, message = str(text).partition(": ")
            if key in values and message:
                self.add(p + (key,), message)
            else:
                self.add(p, str(text))
        return not problems

    def e_npc(self, v, p):
        spec = self.mapping(v, p, ("name", "at", "start", "traits", "knacks", "rank",
                                   "description"), ("name",))
        if spec is None:
            return None
        if ("at" in spec) == ("start" in spec):
            self.add(p, "give where the character appears: 'at: level:C4'")
            return None
        where = "at" if "at" in spec else "start"
        i = self.area(spec[where], p + (where,))
        sheet = {k: spec[k] for k in ("name", "traits", "knacks", "rank", "description")
                 if k in spec}
        sheet.setdefault("rank", "henchman")
        sheet["start"] = spec[where] if isinstance(spec[where], str) else "A1"
        ok, hero = _check_hero(sheet, p, self.problems)
        if i is None or not ok:
            return None
        name = hero.name.strip()
        if name.lower() in self.heroes:
            self.add(p + ("name",), f"{name!r} is already one of the scenario's heroes")
            return None
        traits = hero.traits
        return NpcEffect({"name": name, "area": i, "brawn": traits.brawn,
                          "finesse": traits.finesse, "wits": traits.wits,
                          "resolve": traits.resolve, "panache": traits.panache,
                          "knacks": dict(hero.knacks), "rank": hero.rank})

    def e_move(self, v, p):
        spec = self.mapping(v, p, ("who", "hero", "to"), ("to",))
        if spec is None:
            return None
        if ("who" in spec) == ("hero" in spec):
            self.add(p, "name who moves: 'who: NAME'")
            return None
        key = "who" if "who" in spec else "hero"
        who = self.hero(spec[key], p + (key,))
        to = self.area(spec["to"], p + ("to",))
        if who is None or to is None:
            return None
        return MoveEffect(who, to)

    def e_say(self, v, p, provides):
        if not isinstance(v, str) or not v.strip():
            self.add(p, f"expected the text to read aloud, got {_short(v)}")
            return None
        if len(v) > MAX_SAY_CHARS:
            self.add(p, f"text too long ({len(v)} characters; at most {MAX_SAY_CHARS})")
            return None
        try:
            fields = [f for _, f, _, _ in string.Formatter().parse(v) if f is not None]
        except ValueError as exc:
            self.add(p, f"cannot read the text's {{placeholders}}: {exc}",
                     tip="write {{ and }} for literal braces")
            return None
        needs = set()
        for f in fields:
            if f not in CONTEXT_KEYS:
                self.add(p, f"unknown placeholder {{{f}}}{_suggest(f, CONTEXT_KEYS)}; use "
                         f"{_one_of('{' + k + '}' for k in CONTEXT_KEYS)}",
                         tip="write {{ and }} for literal braces")
                return None
            needs.add(f)
        if provides is not None:
            missing = sorted(needs - provides)
            if missing:
                self.add(p, f"the trigger gives no {', '.join('{' + m + '}' for m in missing)} "
                         f"(it gives {_one_of('{' + k + '}' for k in CONTEXT_KEYS if k in provides)})")
                return None
        return Say(v, frozenset(needs))


def _what(bar) -> str:
    return "opening" if bar.kind is BarrierKind.OPEN else bar.describe()


def _effects_of(item: Any) -> list:
    if not isinstance(item, dict):
        return []
    do = item.get("do")
    return do if isinstance(do, list) else [do]


def _maybe_provides(parser: _Parser, item: dict) -> frozenset[str]:
    return frozenset(CONTEXT_KEYS)  # the trigger is broken: do not complain about placeholders


def _check_hero(sheet: dict, path: Path, problems) -> tuple[bool, Any]:
    """Validate an npc's sheet with the loader's hero model (the same messages as heroes:)."""
    from fuego.scenario.spec import HeroSpec, check

    return check(HeroSpec, sheet, path, problems)


# -- entry points -----------------------------------------------------------------------------
def parse_script(raw: Any, building: Building, problems=None, *, heroes: Iterable[str] = (),
                 settings: Settings | None = None, path: Path = ("script",)) -> list[Cue] | None:
    """Check the raw ``script:`` data against the building and the cast; add every problem to
    ``problems`` (the loader's :class:`~fuego.scenario.source.Problems`). Returns the cues, or
    None when anything is wrong."""
    parser = _Parser(building, problems if problems is not None else _Collector(), heroes,
                     settings, tuple(path))
    return parser.parse(raw)


def build_script(spec: Any, building: Building | Scene, *, heroes: Iterable[str] | None = None,
                 settings: Settings | None = None, problems=None,
                 source: str = "script") -> Script | None:
    """The :class:`Script` of a ``script:`` section (raw data, or cues already parsed).

    ``building`` may be the scene itself (the loader's hook passes it): its building, its
    characters and its settings are then used. Problems go to ``problems`` when given (the
    loader collects them with the rest of the file); otherwise any problem raises
    :class:`~fuego.errors.ScenarioError`. An empty script gives None (the scene needs none)."""
    if isinstance(spec, Script):
        return spec
    if not isinstance(building, Building):  # a Scene
        scene = building
        building = scene.building
        heroes = [h.name for h in scene.heroes] if heroes is None else heroes
        settings = scene.settings if settings is None else settings
    heroes = heroes or ()
    if isinstance(spec, list) and all(isinstance(c, Cue) for c in spec) and spec:
        cues = spec
    else:
        collector = problems if problems is not None else _Collector(source)
        cues = parse_script(spec, building, collector, heroes=heroes, settings=settings)
        if problems is None:
            collector.raise_if_any()
        if cues is None:
            return None
    return Script(cues) if cues else None
