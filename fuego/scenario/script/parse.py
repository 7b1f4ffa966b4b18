"""Parsing and validation of a ``script:`` section, and the entry points the loader calls:
:func:`parse_script` (raw data -> cues, every problem reported) and :func:`build_script`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from fuego.scenario.script.checks import Collector, shorten
from fuego.scenario.script.cues import Cue, Script
from fuego.scenario.script.parse_effects import EffectReader
from fuego.scenario.script.parse_triggers import TriggerReader
from fuego.scenario.script.words import ALWAYS, CONTEXT_KEYS, MAX_CUES, EffectName, Path
from fuego.text import fold_name
from fuego.world.building import Building

if TYPE_CHECKING:
    from fuego.engine.scene import Scene
    from fuego.rules.settings import Settings


# -- parsing and validation ----------------------------------------------------------------------
class _Parser(TriggerReader, EffectReader):
    """Turns the raw ``script:`` data into cues, reporting every problem with its key path."""

    # -- the script ------------------------------------------------------------------------
    def parse(self, raw: Any) -> list[Cue] | None:
        path = self.root
        if raw is None:
            return []
        if not isinstance(raw, list):
            self.add(path, f"expected a list of cues (lines starting with '- '), got "
                     f"{shorten(raw)}")
            return None
        if len(raw) > MAX_CUES:
            self.add(path, f"{len(raw)} cues; a script may have at most {MAX_CUES}")
            return None
        self._names_first(raw)
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

    def _names_first(self, raw: list) -> None:
        """Names first: characters the script adds, and oil it spills, may be used anywhere."""
        for item in raw:
            for effect in _effects_of(item):
                if not isinstance(effect, dict) or len(effect) != 1:
                    continue
                (key, value), = effect.items()
                if key == EffectName.NPC and isinstance(value, dict) and isinstance(
                        value.get("name"), str):
                    self.npc_names.setdefault(fold_name(value["name"]), value["name"].strip())
                if key == EffectName.SPILL_OIL:
                    areas = value.get("areas") if isinstance(value, dict) else value
                    for a in areas if isinstance(areas, list) else []:
                        i = self.b.find(a) if isinstance(a, str) else None
                        if i is not None:
                            self.oil_areas.add(i)

    def cue(self, item: Any, path: Path, n: int) -> Cue | None:
        allowed = ("name", "when", "unless", "do", "once", "every", "description")
        spec = self.mapping(item, path, allowed, ("when", "do"))
        if spec is None:
            # still look inside for more problems
            if isinstance(item, dict):
                if "when" in item:
                    self._node = 0
                    self.trigger(item["when"], path + ("when",))
                if "unless" in item:
                    self.trigger(item["unless"], path + ("unless",))
                if "do" in item:
                    self.effects(item["do"], path + ("do",), ALWAYS | BROKEN_TRIGGER_CONTEXT)
            return None
        name = spec.get("name", f"cue {n + 1}")
        ok = True
        if not isinstance(name, str) or not name.strip() or len(name) > 80:
            self.add(path + ("name",), f"a cue's name is text of 1-80 characters, got "
                     f"{shorten(name)}")
            ok, name = False, f"cue {n + 1}"
        desc = spec.get("description", "")
        if not isinstance(desc, str):
            self.add(path + ("description",), f"expected text, got {shorten(desc)}")
            ok = False
        once = self._once(spec, path)
        self._node = 0
        trigger = self.trigger(spec["when"], path + ("when",))
        # (an unless: bars the cue; its say: texts take only the when:'s context)
        unless = self.trigger(spec["unless"], path + ("unless",)) if "unless" in spec else None
        provides = trigger.provides | ALWAYS if trigger is not None else None
        effects = self.effects(spec["do"], path + ("do",), provides)
        if (trigger is None or effects is None or not ok or once is None
                or ("unless" in spec and unless is None)):
            return None
        return Cue(n, name.strip(), trigger, effects, once, unless)

    def _once(self, spec: dict, path: Path) -> bool | None:
        """Does the cue fire once (the default; ``once:``, ``every:``)? None: a problem (each
        reported)."""
        once, ok = True, True
        if "once" in spec:
            if not isinstance(spec["once"], bool):
                self.add(path + ("once",), f"expected true or false, got {shorten(spec['once'])}")
                ok = False
            else:
                once = spec["once"]
        if "every" in spec:
            if not isinstance(spec["every"], bool):
                self.add(path + ("every",), f"expected true or false, got "
                         f"{shorten(spec['every'])}")
                ok = False
            elif "once" in spec and spec["once"] == spec["every"]:
                self.add(path + ("every",), "'once' and 'every' contradict each other; give one")
                ok = False
            else:
                once = not spec["every"]
        return once if ok else None


def _effects_of(item: Any) -> list:
    if not isinstance(item, dict):
        return []
    do = item.get("do")
    return do if isinstance(do, list) else [do]


#: When a cue's trigger is broken, every placeholder counts as given: one problem is enough.
BROKEN_TRIGGER_CONTEXT = frozenset(CONTEXT_KEYS)


# -- entry points -----------------------------------------------------------------------------
def parse_script(raw: Any, building: Building, problems=None, *, heroes: Iterable[str] = (),
                 settings: Settings | None = None, path: Path = ("script",)) -> list[Cue] | None:
    """Check the raw ``script:`` data against the building and the cast; add every problem to
    ``problems`` (the loader's :class:`~fuego.scenario.source.Problems`). Returns the cues, or
    None when anything is wrong."""
    parser = _Parser(building, problems if problems is not None else Collector(), heroes,
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
    cues: list[Cue] | None
    if isinstance(spec, list) and all(isinstance(c, Cue) for c in spec) and spec:
        cues = spec
    else:
        collector = problems if problems is not None else Collector(source)
        cues = parse_script(spec, building, collector, heroes=heroes, settings=settings)
        if problems is None:
            collector.raise_if_any()
        if cues is None:
            return None
    return Script(cues) if cues else None
