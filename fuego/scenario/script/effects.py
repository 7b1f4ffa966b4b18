"""Effects: the ``do:`` of a cue (fire, oil, explosions, barriers, collapse, wind, weather,
characters, ``say:``), each carried out through the engine when the cue fires.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fuego.engine.events import EventKind
from fuego.engine.injury import BurnSource
from fuego.engine.structure import BarrierAct
from fuego.modules.firefighting import BLAST_MIN
from fuego.rules.charts import Rank, Temperature
from fuego.scenario.script.words import HERO_HERE
from fuego.text import fold_name
from fuego.world.building import Building
from fuego.world.places import Feature, RouteKind

if TYPE_CHECKING:
    from fuego.engine.scene import Scene
    from fuego.scenario.script.cues import Cue, Script


#: The ranks a fire may have (a script's ``kind:``).
FIRE_RANKS = (Rank.HENCHMAN, Rank.VILLAIN)


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
    temperature: Temperature | None = None
    kind: Rank | None = None

    def apply(self, scene, script, cue, ctx):
        from fuego.engine.fire import Trigger
        from fuego.engine.scene import Cause

        temp, kind = self.temperature, self.kind
        for i in _here(scene, self.areas, ctx):
            fire = scene.fires.get(i)
            if self.add is not None and fire is not None:
                if temp is Temperature.HOT:
                    fire.trigger(Trigger.HEAT, scene, f"script: {cue.name}")
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
    """An explosion of ``fd`` dice at ``area`` (the engine's rule: ``engine.explosion.explode``):
    it reaches ``radius`` areas, blowing open what it can break, burns everyone there as a hot
    fire, leaves a hot fire at its centre and, with ``scatter``, fires of that many dice in
    every burnable area it reaches; ``debris``: the blast's own falling masonry too."""

    area: int
    fd: int
    radius: int = 1
    scatter: int = 0
    debris: bool = False

    def apply(self, scene, script, cue, ctx):
        from fuego.engine.explosion import explode
        from fuego.engine.scene import Cause

        here = _here(scene, [self.area], ctx)
        if not here:
            return
        center = here[0]
        _note(scene, cue, center, "explode",
              f"An explosion (FD {self.fd}) rips through {scene.area_name(center)}",
              fd=self.fd, radius=self.radius)
        explode(scene, center, self.fd, Cause.SCRIPT, radius=self.radius, scatter=self.scatter,
                with_debris=self.debris, why="the explosion", cue=cue.name)


@dataclass
class Blast(Effect):
    """An area-effect blast that blows fires out (001, Extinguishing Fires: 4 points of damage
    put out a 2-inch radius; ``fuego.modules.firefighting.blast``), firefighting module on or
    off: a charge set to snuff the fire, not to start one."""

    area: int
    dice: int = BLAST_MIN  # (the least that blows a fire out)

    def apply(self, scene, script, cue, ctx):
        from fuego.modules.firefighting import blast

        here = _here(scene, [self.area], ctx)
        if here:
            _note(scene, cue, here[0], "blast", f"A blast ({self.dice} dice) at "
                  f"{scene.area_name(here[0])}", fd=self.dice)
            blast(scene, here[0], self.dice, why=f"the blast of {cue.name}")




@dataclass
class BurnEffect(Effect):
    """Fire that strikes a hero, or everyone in an area: a jet of burning gas, magical fire or
    a burning weapon or object of ``fd`` dice (``engine.injury.burn``)."""

    by: BurnSource
    fd: int
    who: str | None = None
    at: int | None = None
    temperature: Temperature | None = None

    def apply(self, scene, script, cue, ctx):
        from fuego.engine.injury import BURN_CONTACT, burn

        if self.who is not None:
            who = str(ctx.get("hero") or "") if self.who == HERO_HERE else self.who
            victims = [h for h in scene.heroes if fold_name(h.name) == fold_name(who) and h.present]
        else:
            here = _here(scene, [self.at if self.at is not None else HERE], ctx)
            victims = scene.heroes_in(here[0]) if here else []
        contact = BURN_CONTACT[self.by]
        temp = self.temperature
        for hero in victims:
            _note(scene, cue, hero.area, "burn", f"{hero.name} is caught by "
                  f"{BURN_WORDS[self.by]} ({self.fd} FD)", actor=hero.name, fd=self.fd,
                  hero=hero.name)
            burn(scene, hero, self.fd, contact, f"script: {cue.name}", temperature=temp)


@dataclass
class WreckEffect(Effect):
    """A burning wreck placed (``wreck:``), or a vehicle driven into an area (``drive:``), which
    catches on 2d6 against 12 where the area burns (001) - the wrecks module's rules."""

    area: int
    vehicle: str
    rounds: int | None = None
    driven: bool = False

    def apply(self, scene, script, cue, ctx):
        from fuego.modules.wrecks import Wrecks, drive_into, place_wreck

        here = _here(scene, [self.area], ctx)
        if not here:
            return
        i = here[0]
        if self.driven:
            drive_into(scene, i, self.vehicle, why=f"script: {cue.name}")
            return
        module = scene.module(Wrecks)
        if module is not None and i in module.wrecks:
            return  # one wreck per area: the cue's wreck is there already
        place_wreck(scene, i, self.vehicle, rounds=self.rounds, why=f"script: {cue.name}")


#: How the narration names each ``burn:`` source.
BURN_WORDS = {BurnSource.JET: "a jet of burning gas", BurnSource.MAGIC: "magical fire",
              BurnSource.OBJECT: "a burning object", BurnSource.OIL: "splashed burning oil"}


@dataclass
class BarrierEffect(Effect):
    action: BarrierAct
    barrier: int
    fd: int = 3  # debris when broken
    by: str | None = None  # who or what breaks it, for the narration

    def apply(self, scene, script, cue, ctx):
        from fuego.engine import structure

        target = scene.building.barriers[self.barrier]
        if self.action is BarrierAct.BREAK:
            structure.break_barrier(scene, target, self.fd, self.by, {"cue": cue.name})
        elif not target.destroyed:
            act_on = (structure.open_barrier if self.action is BarrierAct.OPEN
                      else structure.close_barrier)
            act_on(scene, target, None, cue=cue.name)


@dataclass
class Collapse(Effect):
    floors: list[int]  # barrier indexes (floors)
    fd: int = 3
    by: str = "the collapse"

    def apply(self, scene, script, cue, ctx):
        from fuego.engine import structure

        b = scene.building
        for k in self.floors:
            structure.break_barrier(scene, b.barriers[k], self.fd, self.by, {"cue": cue.name})


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
    from fuego.rules.charts import Wind

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
        verb = "rises" if strength in (Wind.GALE, Wind.STRONG) else "changes"
        text = f"The wind {verb}: {strength}" + (f" from the {direction}" if direction else "")
    scene.emit(EventKind.WIND, None, None, cue=why, text=text, **data)


#: The weather effect's keys for the wind (the rest are the weather module's options).
WIND_KEYS = ("wind", "direction")
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
        opts = {k: v for k, v in self.values.items() if k not in WIND_KEYS}
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
        if any(fold_name(h.name) == fold_name(name) for h in scene.heroes):
            return
        hero = make_npc(self.sheet)
        scene.heroes.append(hero)
        scene.npcs_added.append(hero.name)
        script.npcs.append(dict(self.sheet))
        _note(scene, cue, hero.area, "npc", f"{hero.name} appears in "
              f"{scene.area_name(hero.area)}", actor=hero.name, npc=hero.name)


def make_npc(sheet: dict[str, Any]):
    from fuego.engine.heroes import Hero
    from fuego.rules.charts import Rank

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

        hero = next((h for h in scene.heroes if fold_name(h.name) == fold_name(self.who)), None)
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


#: ``{room}`` where the text gives its own article ("in the {room}", written before the room
#: brought one), or where a sentence starts with it (its "the" then takes the capital).
_OWN_ARTICLE = re.compile(r"\b(the|The|THE) \{room\}")
_STARTS = re.compile(r"(^|[.!?]\s+)\{room\}")


def say_text(text: str, ctx: dict[str, Any]) -> str:
    values = _Keep({k: v for k, v in ctx.items() if v is not None})
    room = values.get("room")
    bare = room.removeprefix("the ") if isinstance(room, str) else room
    if bare != room:  # (the room's own "the": the text may write it, or start with it)
        values["_room_bare"], values["_room_first"] = bare, f"The {bare}"
        text = _STARTS.sub(r"\1{_room_first}", _OWN_ARTICLE.sub(r"\1 {_room_bare}", text))
    try:
        return string.Formatter().vformat(text, (), values)
    except (ValueError, IndexError, KeyError, AttributeError):
        return text
