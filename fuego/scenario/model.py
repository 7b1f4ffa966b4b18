"""A loaded, validated scenario: :class:`Scenario`, and :func:`load` / :func:`loads`.

``load(path)`` reads a scenario file (YAML, docs/scenario-format.md), checks everything and
either returns a :class:`Scenario` or raises one :class:`fuego.errors.ScenarioError` holding
every problem found, each as ``FILE:LINE: key.path: what was expected``. A ``Scenario`` is
immutable input: :meth:`Scenario.build` makes a fresh building and scene from it each time, so
many seeded runs (a forecast) never share state.
"""

from __future__ import annotations

import copy
import os
import pickle
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fuego.engine.heroes import RULE_KNACKS
from fuego.errors import FuegoError, ScenarioError, one_of, suggest
from fuego.scenario.limits import MAX_FIRES, MAX_HEROES
from fuego.scenario.plan import Planner
from fuego.scenario.source import (
    Located,
    Path,
    Problems,
    check_text,
    decode,
    fatal,
    parse,
    read_file,
    short,
)
from fuego.scenario.spec import (
    SECTIONS,
    FireSpec,
    HeroSpec,
    RulesSpec,
    ScenarioSpec,
    WeatherSpec,
    WreckSpec,
    check_sections,
)
from fuego.text import fold_name

if TYPE_CHECKING:
    from enum import Enum

    from fuego.engine.plans import HeroPlans
    from fuego.engine.rule_module import RuleModule
    from fuego.engine.scene import Scene
    from fuego.rules.settings import Settings
    from fuego.world.building import Building

#: Knacks the fire rules read (others are kept, but nothing reads them).
KNOWN_KNACKS = RULE_KNACKS
def module_registry() -> dict[str, type[RuleModule]]:
    """The optional rule modules of this build (``fuego.modules.registry`` fills the table)."""
    from fuego.modules import REGISTRY

    try:
        import fuego.modules.registry  # noqa: F401 - registers the modules
    except ModuleNotFoundError as exc:
        if exc.name != "fuego.modules.registry":
            raise
    return REGISTRY


def temperaments() -> tuple[str, ...]:
    from fuego.engine.policy import POLICIES

    return tuple(POLICIES)


#: The modules (by registered name) whose wind blows from the scenario's ``weather.direction``
#: unless their own options name one.
WEATHER_DIRECTION_MODULES = ("wind", "drifting-smoke")


@dataclass
class Scenario:
    """A checked scenario file: the spec as written plus what the engine needs to build it."""

    spec: ScenarioSpec
    source: str = "<string>"
    #: room key -> the plan character the GM drew it with (for maps)
    symbols: dict[str, str] = field(default_factory=dict)
    #: the planned building, pickled, and where the heroes and fires start (see _template)
    _plan: tuple[bytes, list[int], list[int]] | None = field(default=None, init=False, repr=False,
                                                             compare=False)
    #: the script's cues, parsed once (see build): a cue only describes, a Script keeps progress
    _cues: list | None = field(default=None, init=False, repr=False, compare=False)
    #: the line of each key path of the file, for what the modules find at the start (a room
    #: an option names that is not in the building: :meth:`pin`)
    lines: dict[tuple, int] = field(default_factory=dict, repr=False, compare=False)

    def pin(self, exc: FuegoError) -> FuegoError:
        """``exc`` with the file and line of the module option it names, when it names one."""
        module, key = getattr(exc, "module", None), getattr(exc, "key", None)
        if module is None or key is None:
            return exc
        path = ("rules", "modules", module, *(key.split(".") if key else ()))
        while path and path not in self.lines:
            path = path[:-1]
        line = self.lines.get(path)
        where = f"{self.source}:{line}: {exc.where}" if line else f"{self.source}: {exc.where}"
        return FuegoError(exc.message, where=where, tip=exc.tip)

    # -- what the file says ------------------------------------------------------------------
    @property
    def title(self) -> str:
        return self.spec.title

    @property
    def description(self) -> str:
        return self.spec.description

    @property
    def briefing(self) -> str:
        return self.spec.briefing

    @property
    def heroes(self) -> list[HeroSpec]:
        return self.spec.heroes

    @property
    def fires(self) -> list[FireSpec]:
        return self.spec.fires

    @property
    def arrivals(self) -> list[str]:
        """The NPCs the script brings in later, by name in cue order (``rescue:Pip``)."""
        if self.script is None:
            return []
        if self._cues is None:
            self.build(0)  # parses the cues, once
        if not self._cues:
            return []
        from fuego.scenario.script.cues import Script

        present = {fold_name(h.name) for h in self.heroes}
        return [n for n in Script(self._cues).arrivals if fold_name(n) not in present]

    @property
    def plans(self) -> HeroPlans | None:
        """The heroes' plans the scenario gives (``plan:``; the others flee), or None when it
        gives none: what the automatic heroes do (fuego run, forecast, fuego play's default).
        A rescue may name an NPC the script brings in later: the rescuer waits for them."""
        from fuego.engine.plans import FLEE, HeroPlans, parse_plan

        if not any(h.plan for h in self.heroes):
            return None
        later = self.arrivals
        names = [h.name for h in self.heroes] + later
        npcs = [h.name for h in self.heroes if h.npc] + later
        named = {fold_name(h.name): parse_plan(h.plan, names, npcs) for h in self.heroes if h.plan}
        return HeroPlans(FLEE, named, frozenset(fold_name(n) for n in later))

    @property
    def wrecks(self) -> list[WreckSpec]:
        return self.spec.wrecks

    @property
    def rules(self) -> RulesSpec:
        return self.spec.rules

    @property
    def weather(self) -> WeatherSpec:
        return self.spec.weather

    @property
    def modules(self) -> dict[str, dict[str, Any]]:
        return self.spec.rules.modules

    @property
    def actions(self) -> dict[str, dict[int, list[str]]]:
        """Scripted heroes: ``{hero: {round: ["move ground:C4", ...]}}`` (ScriptedController)."""
        return self.spec.actions

    @property
    def script(self) -> Any:
        """The raw ``script:`` section, kept for the script module."""
        return self.spec.script

    @property
    def settings(self) -> Settings:
        """A fresh :class:`fuego.rules.settings.Settings` from ``rules:`` and ``weather:``."""
        return make_settings(self.spec.rules, self.spec.weather)

    # -- building it -------------------------------------------------------------------------
    def _planner(self) -> Planner:
        sections = {k: getattr(self.spec, k) for k in SECTIONS}
        problems = Problems(self.source)
        planner = Planner(sections, {}, problems)
        planner.build()
        problems.raise_if_any()  # a checked spec always builds; this guards against drift
        return planner

    def building(self) -> Building:
        """A fresh :class:`fuego.world.building.Building` of this scenario."""
        return self._planner().building

    def _template(self) -> tuple[bytes, list[int], list[int]]:
        # Planning the building is most of a build, and a forecast builds the same one for
        # every run: plan it once (the spec does not change) and unpickle a fresh copy per build.
        if self._plan is None:
            planner = self._planner()
            b = planner.building
            b.title = self.title
            self._plan = (pickle.dumps(b, pickle.HIGHEST_PROTOCOL),
                          [_placed(planner, h.start) for h in self.heroes],
                          [_placed(planner, f.area) for f in self.fires])
        return self._plan

    def build(self, seed: int | None = None) -> Scene:
        """A fresh :class:`fuego.engine.scene.Scene`: building, heroes, modules and starting fires."""
        from fuego.dice.roller import Roller
        from fuego.engine.heroes import Hero
        from fuego.engine.scene import Cause, Scene
        from fuego.rules.charts import Rank, Temperature

        blob, hero_areas, fire_areas = self._template()
        b = pickle.loads(blob)
        heroes = []
        for h, start in zip(self.heroes, hero_areas):
            t = h.traits
            heroes.append(Hero(h.name, start, brawn=t.brawn,
                               finesse=t.finesse, wits=t.wits, resolve=t.resolve,
                               panache=t.panache, knacks=dict(h.knacks), rank=Rank(h.rank),
                               npc=h.npc, drama=h.drama, fire_resistant=h.fire_resistant))
        scene = Scene(b, self.settings, Roller(seed), heroes, title=self.title)
        registry = module_registry()
        for name, options in self.modules.items():
            cls = registry.get(name)
            if cls is not None:  # check reports unknown names; a build skips them
                options = copy.deepcopy(options) or {}
                if name in WEATHER_DIRECTION_MODULES and self.weather.direction:
                    # The scenario's weather.direction is where these modules' wind comes from,
                    # unless the module names its own.
                    options.setdefault("direction", self.weather.direction)
                scene.modules.append(cls(options))
        for f, area in zip(self.fires, fire_areas):
            scene.start_fire(area, f.fd, Cause.START,
                             temperature=Temperature(f.temperature) if f.temperature else None,
                             kind=Rank(f.kind) if f.kind else None)
        if self.wrecks:
            from fuego.modules.wrecks import place_wreck

            for w in self.wrecks:
                place_wreck(scene, b.area(w.area).index, w.vehicle, rounds=w.rounds,
                            announce=False)  # the module announces it as the scene starts
        if self.script is not None:
            from fuego.scenario.script.cues import Script
            from fuego.scenario.script.parse import build_script

            # Every build has the same building, cast and settings, so the same cues: parse
            # them once (a forecast builds a thousand scenes). Cues, their triggers and their
            # effects never change as they play; each scene's Script keeps its own progress.
            if self._cues is None:
                script = build_script(self.script, scene)
                self._cues = script.cues if script is not None else []
            scene.script = Script(self._cues) if self._cues else None
        return scene

    # -- writing it back -----------------------------------------------------------------------
    def to_yaml(self) -> str:
        """The scenario as a YAML file; loading it again gives the same building and scene."""
        from fuego.scenario.writer import dump

        return dump(self)

    # -- summary -------------------------------------------------------------------------------
    def summary(self) -> dict:
        b = self.building()
        s = b.summary()
        from fuego.world.places import BarrierKind

        s.update({
            "source": self.source,
            "title": self.title,
            "level_names": [lv.name for lv in sorted(b.levels, key=lambda lv: lv.elevation)],
            "links": sum(1 for x in b.barriers
                         if x.kind in (BarrierKind.STAIRS, BarrierKind.LADDER, BarrierKind.HOLE)),
            "exits": sum(1 for a in b.areas if b.is_exit(a.index)),
            "heroes": [{"name": h.name, "start": b.area(h.start).name, "rank": h.rank,
                        "npc": h.npc} for h in self.heroes],
            "fires": [{"area": b.area(f.area).name, "fd": f.fd,
                       "temperature": f.temperature, "kind": f.kind} for f in self.fires],
            "wrecks": [{"area": b.area(w.area).name, "vehicle": w.vehicle} for w in self.wrecks],
            "modules": list(self.modules),
        })
        return s

    def summary_text(self) -> str:
        """One paragraph for ``fuego check``."""
        s = self.summary()

        def n(count: int, word: str, plural: str | None = None) -> str:
            return f"{count} {word if count == 1 else (plural or word + 's')}"

        levels = ", ".join(s["level_names"])
        heroes = "; ".join(f"{h['name']} at {h['start']}" + (" (NPC)" if h["npc"] else "")
                           for h in s["heroes"]) or "none"
        fires = "; ".join(f"{f['area']} {f['fd']} FD" + (f" {f['temperature']}"
                                                         if f["temperature"] else "")
                          + (f" {f['kind']}" if f["kind"] else "") for f in s["fires"]) or "none"
        if s["wrecks"]:  # a burning wagon is a fire too, though not the area's
            fires += "; burning " + ", ".join(f"{w['vehicle']} at {w['area']}" for w in s["wrecks"])
        return (f"{s['source']}: \"{s['title']}\" is fine: {n(s['levels'], 'level')} ({levels}), "
                f"{n(s['rooms'], 'room')}, {n(s['areas'], 'area')} ({s['burnable_areas']} "
                f"burnable, total fuel {s['total_fuel']}), {n(s['doors'], 'door')}, "
                f"{n(s['windows'], 'window')}, {n(s['links'], 'stair/ladder/hole link')}, "
                f"{n(s['routes'], 'route')}, {n(s['exits'], 'exit area')}; heroes: {heroes}; "
                f"fires: {fires}; modules: {', '.join(s['modules']) or 'none'}.")


def make_settings(rules: RulesSpec, weather: WeatherSpec) -> Settings:
    from fuego.rules.charts import Rank, Wind
    from fuego.rules.settings import (
        BurningOil,
        ExplosionRule,
        FlashoverMode,
        KnockedOutDeath,
        RoundBurn,
        Settings,
        SmokeClears,
        SuffocationFire,
    )

    return Settings(
        burning_clothes=rules.burning_clothes,
        smoke=rules.smoke,
        smoke_clears=SmokeClears(rules.smoke_clears),
        suffocation=rules.suffocation,
        suffocation_fire=SuffocationFire(rules.suffocation_fire),
        flashover=FlashoverMode(rules.flashover),
        flashover_dice_per_area=rules.flashover_dice_per_area,
        flashover_min_dice=rules.flashover_min_dice,
        knocked_out_death=KnockedOutDeath(rules.knocked_out_death),
        explosions=ExplosionRule(rules.explosions),
        burning_oil=BurningOil(rules.burning_oil),
        round_burn=RoundBurn(rules.round_burn),
        temperament=rules.temperament,
        fire_kind=Rank(rules.fire_kind),
        max_leap_areas=rules.max_leap_areas,
        wind=Wind(weather.wind or rules.wind or "calm"),
        breath_rounds=rules.breath_rounds,
        confused_wander=rules.confused_wander,
        max_rounds=rules.max_rounds,
        modules=copy.deepcopy(rules.modules),
    )


# -- loading -------------------------------------------------------------------------------
def load(path: str | os.PathLike[str]) -> Scenario:
    """Read and check a scenario file; raises ScenarioError listing every problem."""
    text, source = read_file(path)
    return loads(text, source=source)


def loads(text: str | bytes, source: str = "<string>") -> Scenario:
    """Check scenario text; raises ScenarioError listing every problem."""
    if isinstance(text, (bytes, bytearray)):
        text = decode(bytes(text), source)
    elif isinstance(text, str):
        text = check_text(text, source)
    else:
        raise fatal(source, f"expected scenario text, got {type(text).__name__}")
    try:
        located, problems = parse(text, source)
        return _check(located, problems, source)
    except FuegoError:
        raise
    except RecursionError:
        raise fatal(source, "the file is nested too deeply to read") from None
    except Exception as exc:  # noqa: BLE001 - no input may end in a traceback
        raise ScenarioError([FuegoError(
            f"fuego could not check this file ({type(exc).__name__}: {short(str(exc), 120)}); "
            "this is a bug in fuego, please report it with the file", where=source)]) from exc


def _check(located: Located, problems: Problems, source: str) -> Scenario:
    data = located.data
    sections = check_sections(data, problems)
    if not isinstance(data, dict):
        raise problems.error()
    before = len(problems)
    planner = Planner(sections, data, problems)
    planner.build()
    building_sound = len(problems) == before
    _check_rules(sections, problems)
    names = _check_heroes(sections, planner, problems)
    _check_fires(sections, planner, problems)
    _check_wrecks(sections, planner, problems)
    _check_actions(sections, planner, problems, names)
    arrivals: list[str] | None = []
    if sections.get("script") is not None:
        arrivals = (_check_script(sections, planner, problems, names) if building_sound
                    else None)
    _check_plans(sections, problems, arrivals)
    problems.raise_if_any()
    values = {k: v for k, v in sections.items() if k in SECTIONS}
    spec = ScenarioSpec.model_construct(**values)
    for name, fld in ScenarioSpec.model_fields.items():  # fill what the file left out
        if name not in values:
            setattr(spec, name, copy.deepcopy(fld.get_default(call_default_factory=True)))
    scenario = Scenario(spec, source, dict(planner.symbols))
    scenario.lines = {path: mark[0] for path, mark in located.marks.items()}
    return scenario


def _check_script(sections: dict, planner: Planner, problems: Problems,
                  heroes: dict[str, str]) -> list[str] | None:
    """The script is checked against the building and the cast, only when the building itself
    is sound (its areas are what the script names). Returns the NPCs it brings in later
    (None when it is broken)."""
    from fuego.scenario.script.cues import Script
    from fuego.scenario.script.parse import parse_script

    # A file without ``rules:`` plays by the default rules: check the script against those.
    rules = sections.get("rules") or RulesSpec()
    settings = make_settings(rules, sections.get("weather") or WeatherSpec())
    cues = parse_script(sections["script"], planner.building, problems,
                        heroes=list(heroes.values()), settings=settings, path=("script",))
    if cues is None:
        return None
    return [n for n in Script(cues).arrivals if fold_name(n) not in heroes] if cues else []


def _check_rules(sections: dict, problems: Problems) -> None:
    rules: RulesSpec | None = sections.get("rules")
    weather: WeatherSpec | None = sections.get("weather")
    if rules is not None:
        names = temperaments()
        if rules.temperament not in names:
            problems.add(("rules", "temperament"), f"unknown temperament "
                         f"{rules.temperament!r}{suggest(rules.temperament, names)}; expected "
                         f"one of: {one_of(names)}")
        registry = module_registry()
        for name, options in rules.modules.items():
            path = ("rules", "modules", name)
            cls = registry.get(name)
            if cls is None:
                problems.add(path, f"unknown module {name!r}{suggest(name, registry)}; modules "
                             f"in this build: {one_of(sorted(registry))}")
                continue
            option_problems = getattr(cls, "option_problems", None)  # optional module hook
            if option_problems is not None:
                for key, message in option_problems(options) or []:
                    problems.add(path + tuple(key.split(".") if key else ()), str(message))
    if rules is not None and weather is not None and rules.wind and weather.wind \
            and rules.wind != weather.wind:
        problems.add(("rules", "wind"), f"rules.wind is {rules.wind!r} but weather.wind is "
                     f"{weather.wind!r}; give the wind once (weather.wind)")


def _placed(planner: Planner, ref: str) -> int:
    """The area a checked spec's hero or fire starts in (a checked spec names only real ones)."""
    index = planner.area_index(ref, ())
    if index is None:  # pragma: no cover - guards against drift between check and build
        planner.problems.raise_if_any()
        raise AssertionError(f"no area {ref!r} in a checked scenario")
    return index


def _check_heroes(sections: dict, planner: Planner, problems: Problems) -> dict[str, str]:
    heroes = sections.get("heroes") or []
    if len(heroes) > MAX_HEROES:
        problems.add(("heroes",), f"{len(heroes)} heroes; at most {MAX_HEROES}")
    seen: dict[str, int] = {}
    names: dict[str, str] = {}  # lowercase -> as written
    raw = planner.raw_list("heroes")
    for i, spec in enumerate(heroes):
        path = ("heroes", i)
        if spec is None:  # broken, but what can be checked still is
            item = raw[i] if i < len(raw) else None
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                names.setdefault(fold_name(item["name"]), item["name"])
            if isinstance(item, dict) and _is_area_text(item.get("start")):
                planner.area_index(item["start"], path + ("start",), what="start")
            continue
        key = fold_name(spec.name)  # (an NPC of a hero's name but for its spaces was played twice)
        names.setdefault(key, spec.name)
        if key in seen:
            other = heroes[seen[key]]
            also = "" if other is None or other.name == spec.name else f" {other.name!r}"
            problems.add(path + ("name",), f"two characters are named {spec.name!r} (the other "
                         f"is heroes[{seen[key]}]{also}); names must differ",
                         tip="names are compared in any case, spaces folded: give each its own")
        seen.setdefault(key, i)
        planner.area_index(spec.start, path + ("start",), what=f"{spec.name}'s start")
    return names


def _check_plans(sections: dict, problems: Problems, arrivals: list[str] | None) -> None:
    """Each hero's ``plan:``; a rescue names another of them or an NPC the script brings in
    (``arrivals``; None: the script could not be read, so a name may be one of its own)."""
    from fuego.engine.plans import PlanKind, parse_plan

    heroes = [h for h in sections.get("heroes") or [] if h is not None]
    later = arrivals or []
    names = [h.name for h in heroes] + later
    npcs = [h.name for h in heroes if h.npc] + later
    for i, spec in enumerate(sections.get("heroes") or []):
        if spec is None or not spec.plan:
            continue
        try:
            parse_plan(spec.plan, names, npcs)
        except FuegoError as exc:
            rescue = spec.plan.strip().lower().startswith(PlanKind.RESCUE.value + ":")
            if not (arrivals is None and rescue):
                problems.add(("heroes", i, "plan"), exc.message, tip=exc.tip)


def _check_fires(sections: dict, planner: Planner, problems: Problems) -> None:
    fires = sections.get("fires") or []
    if len(fires) > MAX_FIRES:
        problems.add(("fires",), f"{len(fires)} fires; at most {MAX_FIRES}")
    seen: dict[int, int] = {}
    raw = planner.raw_list("fires")
    for i, spec in enumerate(fires):
        path = ("fires", i)
        if spec is None:  # broken, but its area can still be checked
            item = raw[i] if i < len(raw) else None
            if isinstance(item, dict) and _is_area_text(item.get("area")):
                planner.area_index(item["area"], path + ("area",), what="fire area")
            continue
        idx = planner.area_index(spec.area, path + ("area",), what="fire area")
        if idx is None:
            continue
        area = planner.building.areas[idx]
        if area.fuel <= 0 and idx not in planner.uncertain:
            problems.add(path + ("area",), f"{area.name} has no fuel (Resolve 0): a fire cannot "
                         "start there", tip="give the area fuel, or move the fire")
        if idx in seen:
            problems.add(path + ("area",), f"fires[{seen[idx]}] already starts at {area.name}; "
                         "one fire per area")
        seen.setdefault(idx, i)


def _check_wrecks(sections: dict, planner: Planner, problems: Problems) -> None:
    """Each wreck in a real area, one per area, and the wrecks module on to burn them."""
    wrecks = [w for w in sections.get("wrecks") or [] if w is not None]
    rules: RulesSpec | None = sections.get("rules")
    if wrecks and (rules is None or "wrecks" not in rules.modules):
        problems.add(("wrecks",), "burning wrecks need the wrecks module; add 'wrecks: {}' "
                     "under rules.modules")
    seen: dict[int, int] = {}
    for i, spec in enumerate(sections.get("wrecks") or []):
        if spec is None:
            continue
        path = ("wrecks", i, "area")
        idx = planner.area_index(spec.area, path, what="wreck area")
        if idx is None:
            continue
        if idx in seen:
            problems.add(path, f"wrecks[{seen[idx]}] already burns at "
                         f"{planner.building.areas[idx].name}; one wreck per area")
        seen.setdefault(idx, i)


def _is_area_text(value: Any) -> bool:
    from fuego.world.places import parse_coordinate

    if not isinstance(value, str):
        return False
    try:
        parse_coordinate(value)
    except ValueError:
        return False  # the model reported it
    return True


def _check_actions(sections: dict, planner: Planner, problems: Problems,
                   heroes: dict[str, str]) -> None:
    actions = sections.get("actions") or {}
    rules: RulesSpec | None = sections.get("rules")
    max_rounds = rules.max_rounds if rules is not None else RulesSpec().max_rounds
    from fuego.engine.hero_actions import HeroActionKind

    kinds: list[Enum] = list(HeroActionKind)
    if rules is not None:
        registry = module_registry()
        for name in rules.modules:
            kinds.extend(getattr(registry.get(name), "action_kinds", ()))
    names = {fold_name(h) for h in heroes.values()}  # (as the scripted controller reads them)
    for hero, rounds in actions.items():
        path = ("actions", hero)
        if fold_name(hero) not in names:
            written = list(heroes.values())
            problems.add(path, f"no hero named {hero!r}{suggest(hero, written)}; heroes "
                         f"are: {one_of(written)}")
        for rnd, acts in rounds.items():
            rpath = path + (str(rnd),)
            if rnd > max_rounds:
                problems.add(rpath, f"round {rnd} is after the last round (rules.max_rounds = "
                             f"{max_rounds})")
            for k, text in enumerate(acts):
                _check_action(text, rpath + (k,), planner, problems, kinds, names)


def _check_action(text: str, path: Path, planner: Planner, problems: Problems,
                  kinds: list[Enum], heroes: set[str]) -> None:
    """A scripted action's words, read by the grammar play reads them with
    (``hero_actions.split_words``): a known verb, and the areas it names on the plan."""
    from fuego.engine.hero_actions import HeroActionKind, Names, names, split_words
    from fuego.errors import RuleError

    try:
        verb, arg, _ = split_words(text)
    except RuleError as exc:
        problems.add(path, exc.message)
        return
    kind = next((k for k in kinds if k.value == verb), None)
    if kind is None:
        verbs = sorted(k.value for k in kinds)
        problems.add(path, f"unknown action {verb!r}{suggest(verb, verbs)}; actions are: "
                     f"{one_of(verbs)}")
        return
    shape = names(kind)
    if shape is Names.AREA and arg:
        planner.position(arg, path)
    elif shape is Names.AREA and isinstance(kind, HeroActionKind):
        problems.add(path, f"'{verb}' needs an area, e.g. '{verb} ground:C4'")
    elif shape is Names.BARRIER and arg and ("|" in arg or _is_area_text(arg)):
        # a door as area|area, or the area beyond it (a door's own name is read in play)
        for part in arg.split("|"):
            planner.position(part.strip(), path)
    elif shape is Names.HERO and arg and fold_name(arg) not in heroes:
        problems.add(path, f"no hero named {arg!r} to help")


__all__ = ["Scenario", "load", "loads", "make_settings", "KNOWN_KNACKS"]
