"""Effects: the ``do:`` of a cue (fire, oil, explosions, barriers, collapse, wind, weather,
characters, ``say:``), each carried out through the engine when the cue fires.
"""

from __future__ import annotations

import string
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fuego.engine.events import EventKind
from fuego.rules.formulas import fire_tn
from fuego.world.building import Building, Feature, RouteKind

if TYPE_CHECKING:
    from fuego.engine.scene import Scene
    from fuego.scenario.script.cues import Cue, Script


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
            found = scene.building.find(str(ctx.get("area", "")))
            if found is None:
                continue
            i = found
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
        from fuego.engine.scene import Cause
        from fuego.rules.tables import FireKind, Temperature

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
        b.add_feature(i, Feature.OIL)
        if area.burned_out:
            b.set_fuel(i, fuel, renew=True)
        else:
            b.set_fuel(i, max(area.fuel, fuel))


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
        from fuego.engine.fire_actions import destroy_barrier
        from fuego.engine.injury import debris
        from fuego.engine.scene import Cause
        from fuego.rules.tables import Temperature

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
    tn = fire_tn(fd)
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
        from fuego.engine.fire_actions import destroy_barrier

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
        from fuego.engine.fire_actions import destroy_barrier

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
    from fuego.rules.tables import Wind

    if strength is not None:
        scene.settings.wind = Wind(strength)
    from fuego.modules.wind import Wind as WindModule

    module = scene.module(WindModule)
    if module is not None:
        module.set_wind(scene, strength=strength, direction=direction, why=f"script: {why}")
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
            from fuego.modules.weather import Weather

            module = scene.module(Weather)
            if module is not None:
                module.set_weather(scene, why=f"script: {cue.name}", **opts)
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
    from fuego.engine.heroes import Hero, Rank

    kw = dict(sheet)
    kw["rank"] = Rank(kw.get("rank", "henchman"))
    kw["knacks"] = dict(kw.get("knacks", {}))
    return Hero(npc=True, **kw)


@dataclass
class MoveEffect(Effect):
    who: str
    to: int

    def apply(self, scene, script, cue, ctx):
        from fuego.engine.hero_actions import move

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
