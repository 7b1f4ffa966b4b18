"""Reading a cue's ``do:``: each effect's raw data checked and turned into an
:class:`Effect`.
"""

from __future__ import annotations

import string
from typing import Any

from fuego.engine.injury import BurnSource
from fuego.engine.structure import BarrierAct
from fuego.errors import one_of, suggest
from fuego.modules.firefighting import BLAST_MIN, too_small
from fuego.rules.charts import Rank, Temperature
from fuego.scenario.script.checks import Reader, barrier_called, barrier_phrase, shorten
from fuego.scenario.script.effects import (
    FIRE_RANKS,
    HERE,
    WEATHER_KEYS,
    WIND_KEYS,
    BarrierEffect,
    Blast,
    BurnEffect,
    Collapse,
    Effect,
    Explode,
    FireEffect,
    MoveEffect,
    NpcEffect,
    Say,
    SpillOil,
    WeatherEffect,
    WindEffect,
    WreckEffect,
    weather_words,
)
from fuego.scenario.script.words import (
    AREA_HERE,
    CONTEXT_KEYS,
    DIRECTIONS,
    EFFECT_NAMES,
    HERO_HERE,
    MAX_EFFECTS,
    MAX_RADIUS,
    MAX_SAY_CHARS,
    WINDS,
    EffectName,
    Path,
)
from fuego.text import fold_name
from fuego.world.places import OPENABLE, BarrierKind


class EffectReader(Reader):
    """The parser's effects: ``effects``, ``effect`` and an ``e_NAME`` method per effect."""

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
                     f"say: ...), got {shorten(raw)}", tip=f"effects: {one_of(EFFECT_NAMES, 20)}")
            return None
        (key, value), = raw.items()
        p = path + (key,)
        name = _effect_name(key)
        if name is None:
            self.add(p, f"unknown effect {key!r}{suggest(key, EFFECT_NAMES)}; effects: "
                     f"{one_of(EFFECT_NAMES, 20)}")
            return None
        if name is EffectName.SAY:
            return self.e_say(value, p, provides)
        self._provides = provides
        return getattr(self, "e_" + name.value.replace("-", "_"))(value, p)

    def here(self, value: Any, path: Path) -> bool:
        """Is ``value`` the trigger's own area (``"{area}"``)? Reports a trigger without one."""
        if not (isinstance(value, str) and value.strip() == AREA_HERE):
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
        if isinstance(v, (str, list)):
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
        ok, temp = self.optional_choice(spec, "temperature", p, Temperature,
                                        "cold, regular or hot")
        if not ok:
            return None
        ok, kind = self.optional_choice(spec, "kind", p, Rank, "henchman or villain", FIRE_RANKS)
        if not ok or areas is None:
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
            self.add(p + ("name",), f"expected a short name, got {shorten(name)}")
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
        spec = self.mapping(v, p, ("at", "fd", "radius", "scatter", "debris"), ("at",))
        if spec is None:
            return None
        i = HERE if self.here(spec["at"], p + ("at",)) else self.area(spec["at"], p + ("at",))
        fd = self.integer(spec.get("fd", 6), p + ("fd",), 1, 10, "Fire Dice")
        radius = self.integer(spec.get("radius", 1), p + ("radius",), 0, MAX_RADIUS,
                              "the radius (areas)")
        scatter = self.integer(spec.get("scatter", 0), p + ("scatter",), 0, 10,
                               "the scattered fires' Fire Dice")
        debris = spec.get("debris", False)
        if not isinstance(debris, bool):
            self.add(p + ("debris",), f"expected true or false, got {debris!r}")
            return None
        if i is None or fd is None or radius is None or scatter is None:
            return None
        return Explode(i, fd, radius, scatter, debris)

    def e_blast(self, v, p):
        if isinstance(v, str):
            v = {"at": v}
        spec = self.mapping(v, p, ("at", "dice"), ("at",))
        if spec is None:
            return None
        i = HERE if self.here(spec["at"], p + ("at",)) else self.area(spec["at"], p + ("at",))
        dice = self.integer(spec.get("dice", BLAST_MIN), p + ("dice",), 1, 10,
                            "the blast's dice")
        small = too_small(dice) if dice is not None else None
        if small is not None:  # (it would only fizzle, at run time)
            self.add(p + ("dice",), small.message, tip=small.tip)
            return None
        if i is None or dice is None:
            return None
        return Blast(i, dice)

    def _barrier_effect(self, action, v, p):
        fd, by = 3, None
        if isinstance(v, dict) and "barrier" in v:
            spec = self.mapping(v, p, ("barrier", "fd", "by") if action is BarrierAct.BREAK
                                else ("barrier",))
            if spec is None:
                return None
            if "fd" in spec:
                debris_fd = self.integer(spec["fd"], p + ("fd",), 1, 10, "the debris' Fire Dice")
                if debris_fd is None:
                    return None
                fd = debris_fd
            if "by" in spec:
                by = self._by(spec["by"], p + ("by",))
                if by is None:
                    return None
            v, p = spec["barrier"], p + ("barrier",)
        k = self.barrier(v, p, one=True)
        if k is None:
            return None
        bar = self.b.barriers[k]
        if action is not BarrierAct.BREAK and (bar.kind not in OPENABLE or bar.destroyed):
            self.add(p, f"{barrier_phrase(bar)} cannot {action.value}: only doors and windows "
                     "open and close", tip="use break: to knock a hole in it")
            return None
        if action is BarrierAct.BREAK and (bar.passable and bar.kind not in OPENABLE
                                  or bar.destroyed or bar.structure is None):
            self.add(p, f"{barrier_called(bar)} an opening already: nothing to break")
            return None
        return BarrierEffect(action, k, fd, by)

    def e_open(self, v, p):
        return self._barrier_effect(BarrierAct.OPEN, v, p)

    def e_close(self, v, p):
        return self._barrier_effect(BarrierAct.CLOSE, v, p)

    def e_break(self, v, p):
        return self._barrier_effect(BarrierAct.BREAK, v, p)

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
        floors = self._room_floors(spec, p) if "room" in spec else self._floors(spec, p)
        return Collapse(floors, fd, by) if floors is not None else None

    def _room_floors(self, spec, p) -> list[int] | None:
        """The floors under a room that ``collapse: {room: ...}`` brings down."""
        key = self.room(spec["room"], p + ("room",))
        if key is None:
            return None
        floors = [f for f in (self._floor_under(i) for i in self.b.room_areas(key))
                  if f is not None]
        if not floors:
            self.add(p + ("room",), f"room {key!r} has no floor over another level to "
                     "collapse into", tip="collapse a room on an upper level")
            return None
        return floors

    def _floors(self, spec, p) -> list[int] | None:
        """The floors under the areas that ``collapse: {floor: ...}`` brings down."""
        areas = self._areas(spec["floor"], p + ("floor",))
        if areas is None:
            return None
        floors = []
        for n, i in enumerate(areas):
            f = self._floor_under(i)
            if f is None:
                pp = p + ("floor", n) if isinstance(spec["floor"], list) else p + ("floor",)
                self.add(pp, f"{self.b.areas[i].name} has no floor to collapse: "
                         f"{self._under(i)}", tip="collapse a floor between two levels")
                return None
            floors.append(f)
        return floors

    def _under(self, i: int) -> str:
        """What is under area ``i`` instead of a floor that can fall."""
        below = self.b.vertical_neighbour(i, up=False)
        if below is None:
            return "no area is under it on the level below"
        j, bar = below
        if bar.destroyed:
            return f"the floor over {self.b.areas[j].name} is down already"
        return f"{barrier_called(bar)} what joins it to {self.b.areas[j].name}"

    def _floor_under(self, i: int) -> int | None:
        below = self.b.vertical_neighbour(i, up=False)
        if below is None or below[1].kind is not BarrierKind.FLOOR or below[1].destroyed:
            return None
        return below[1].index

    def _wind_values(self, v, p) -> tuple[str | None, str | None] | None:
        if isinstance(v, str):
            if v.lower() not in WINDS and v.upper() not in DIRECTIONS:
                self.add(p, f"no wind {shorten(v)}{suggest(v, WINDS)}; give a strength "
                         f"({one_of(WINDS)}) or a direction ({one_of(DIRECTIONS)})")
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
                     f"no wind {shorten(strength)}{suggest(strength, WINDS)}; winds: "
                     f"{one_of(WINDS)}")
            return None
        if direction is not None and str(direction).upper() not in DIRECTIONS:
            self.add(p + ("direction",) if "direction" in (v or {}) else p,
                     f"no direction {shorten(direction)}; directions: {one_of(DIRECTIONS)}")
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
                     f"keys: {one_of(allowed)}")
            return None
        values: dict[str, Any] = {}
        if any(k in spec for k in WIND_KEYS) and not self._weather_wind(spec, p, values):
            return None
        others = [k for k in spec if k in WEATHER_KEYS]
        if others and self.settings is not None and "weather" not in self.settings.modules:
            self.add(p + (others[0],), f"{others[0]} is the weather module's: switch it on "
                     "(rules.modules: {weather: {}}) or change only the wind here")
            return None
        ok = self._weather_words(spec, others, p, values)
        if ok and others:
            ok = self._module_weather_check({k: values[k] for k in others}, p)
        return WeatherEffect(values) if ok else None

    def _weather_wind(self, spec, p, values: dict[str, Any]) -> bool:
        """The weather effect's ``wind`` (a strength) and ``direction`` read into ``values``."""
        wind_key, direction_key = WIND_KEYS
        wind = {("strength" if k == wind_key else k): spec[k] for k in WIND_KEYS if k in spec}
        got = self._wind_values(wind, p)
        if got is None:
            return False
        if got[0]:
            values[wind_key] = got[0]
        if got[1]:
            values[direction_key] = got[1]
        return True

    def _weather_words(self, spec, others: list[str], p, values: dict[str, Any]) -> bool:
        """The weather module's options among ``others``, each checked against its words."""
        words = weather_words()
        ok = True
        for k in others:
            val = spec[k]
            word = val.strip().lower() if isinstance(val, str) else val
            if k in words and word not in words[k]:
                self.add(p + (k,), f"no {k} {shorten(val)}{suggest(val, words[k])}; expected "
                         f"one of: {one_of(words[k])}")
                ok = False
                continue
            values[k] = word
        return ok

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
        hero_named = self.heroes.get(fold_name(name))
        if hero_named is not None:  # (it was played as a second character of that name)
            self.add(p + ("name",), f"the npc {name!r} has the name of the hero "
                     f"{hero_named!r}: each character's name must be its own",
                     tip="give the npc another name (names are compared in any case, spaces "
                         "folded)")
            return None
        traits = hero.traits
        return NpcEffect({"name": name, "area": i, "brawn": traits.brawn,
                          "finesse": traits.finesse, "wits": traits.wits,
                          "resolve": traits.resolve, "panache": traits.panache,
                          "knacks": dict(hero.knacks), "rank": hero.rank})

    def e_burn(self, v, p):
        spec = self.mapping(v, p, ("who", "hero", "at", "fd", "by", "temperature"),
                            ("fd", "by"))
        if spec is None:
            return None
        target = self._burn_target(spec, p)
        if target is None:
            return None
        who, at = target
        fd = self.integer(spec["fd"], p + ("fd",), 1, 10, "Fire Dice")
        by = self.choice(spec["by"], p + ("by",), BurnSource,
                         f"one of {one_of(s.value for s in BurnSource)}")
        if by is None:
            return None
        ok, temp = self.optional_choice(spec, "temperature", p, Temperature,
                                        "cold, regular or hot")
        if not ok or fd is None:
            return None
        return BurnEffect(by, fd, who=who, at=at, temperature=temp)

    def _burn_target(self, spec, p) -> tuple[str | None, int | None] | None:
        """Who a ``burn:`` strikes (a name or ``{hero}``) or where (everyone in an area):
        (who, at), or None with the problem reported."""
        keys = [k for k in ("who", "hero", "at") if k in spec]
        if len(keys) != 1:
            self.add(p, "name who burns ('who: NAME') or where ('at: AREA': everyone there)")
            return None
        if "at" in spec:
            at = HERE if self.here(spec["at"], p + ("at",)) else self.area(spec["at"], p + ("at",))
            return (None, at) if at is not None else None
        key = keys[0]
        if isinstance(spec[key], str) and spec[key].strip() == HERO_HERE:
            provides = self._provides
            if provides is not None and "hero" not in provides:
                self.add(p + (key,), "'{hero}' needs a trigger that names a hero (hero-enters, "
                         "hero-knocked-out)")
                return None
            return HERO_HERE, None
        who = self.hero(spec[key], p + (key,))
        return (who, None) if who is not None else None

    def _vehicle(self, v, p, driven: bool):
        from fuego.modules.wrecks import MAX_ROUNDS, VEHICLES

        keys = ("vehicle", "to") if driven else ("at", "vehicle", "rounds")
        spec = self.mapping(v, p, keys, keys[:2])
        if spec is None:
            return None
        if "wrecks" not in ((self.settings.modules if self.settings else None) or {}):
            self.add(p, "a burning wreck needs the wrecks module",
                     tip="add 'wrecks: {}' under rules.modules")
            return None
        where = "to" if driven else "at"
        i = HERE if self.here(spec[where], p + (where,)) else self.area(spec[where], p + (where,))
        vehicle = spec["vehicle"]
        if vehicle not in VEHICLES:
            self.add(p + ("vehicle",), f"expected one of {one_of(VEHICLES)}, got "
                     f"{shorten(vehicle)}")
            return None
        rounds = None
        if "rounds" in spec:
            rounds = self.integer(spec["rounds"], p + ("rounds",), 1, MAX_ROUNDS, "rounds")
            if rounds is None:
                return None
        if i is None:
            return None
        return WreckEffect(i, vehicle, rounds, driven)

    def e_wreck(self, v, p):
        return self._vehicle(v, p, driven=False)

    def e_drive(self, v, p):
        return self._vehicle(v, p, driven=True)

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
            self.add(p, f"expected the text to read aloud, got {shorten(v)}")
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
                self.add(p, f"unknown placeholder {{{f}}}{suggest(f, CONTEXT_KEYS)}; use "
                         f"{one_of('{' + k + '}' for k in CONTEXT_KEYS)}",
                         tip="write {{ and }} for literal braces")
                return None
            needs.add(f)
        if provides is not None:
            missing = sorted(needs - provides)
            if missing:
                self.add(p, f"the trigger gives no {', '.join('{' + m + '}' for m in missing)} "
                         f"(it gives {one_of('{' + k + '}' for k in CONTEXT_KEYS if k in provides)})")
                return None
        return Say(v, frozenset(needs))


def _check_hero(sheet: dict, path: Path, problems) -> tuple[bool, Any]:
    """Validate an npc's sheet with the loader's hero model (the same messages as heroes:)."""
    from fuego.scenario.spec import HeroSpec, check

    return check(HeroSpec, sheet, path, problems)


def _effect_name(key: Any) -> EffectName | None:
    try:
        return EffectName(key)
    except ValueError:
        return None
