"""The scene: a building, its fires, heroes and smoke, one seeded roller and the event log.

Like a Mesa model, the scene owns the random generator and passes it down explicitly. Fires are
kept in an *active set* (area index -> :class:`Fire`): the engine only ever touches what burns.
Every change goes through a method here that appends an :class:`Event`, so the log tells the
whole story and a saved session can be replayed to the same state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar

from fuego.dice.roller import Roller
from fuego.engine.events import Event, EventKind, EventLog, Shape, row_event
from fuego.engine.events import record as new_event
from fuego.engine.fire import Fire, FireState, Trigger
from fuego.engine.heroes import Hero
from fuego.names import called, short_names
from fuego.rules.charts import Rank, Temperature
from fuego.rules.formulas import clamp_fire_dice, fuel_eaten
from fuego.rules.settings import Settings
from fuego.text import fold_name
from fuego.world.building import Building
from fuego.world.places import Feature

if TYPE_CHECKING:
    from fuego.engine.rule_module import Burning, RuleModule
    from fuego.engine.script import Script
    from fuego.engine.sight import SightCache
    from fuego.engine.smoke import SmokeField

M = TypeVar("M", bound="RuleModule")

#: Fuel that burns hot from the start (003, Fire Damage: "Hot fires include chemical fires;
#: burning gasses; explosives"): oil (a chemical fire), gunpowder and anything marked explosive.
HOT_FEATURES = frozenset({Feature.OIL, Feature.GUNPOWDER, Feature.EXPLOSIVE})


class Cause(str, Enum):
    """Why a fire started: every new fire names one (an invariant the tests check). The log
    carries its value (docs/events.md, ``fire-started``)."""

    START = "start"  # in the scenario at the start
    ROUTE = "route"
    LEAP = "leap"
    BURN_THROUGH = "burn-through"
    SCRIPT = "script"
    GM = "gm"
    CLOTHES = "clothes"
    MODULE = "module"
    DEBRIS = "debris"


@dataclass(slots=True)
class Scene:
    building: Building
    settings: Settings = field(default_factory=Settings)
    roller: Roller = field(default_factory=Roller)
    heroes: list[Hero] = field(default_factory=list)
    fires: dict[int, Fire] = field(default_factory=dict)
    round: int = 0
    phase: int = 0
    #: where events go, in order (a forecast's log keeps only the kinds its script reads);
    #: scripts and modules index and slice it as a list of events
    log: EventLog = field(default_factory=EventLog)
    flashed: set[str] = field(default_factory=set)  # rooms that have flashed over
    smoke: SmokeField | None = None
    modules: list[RuleModule] = field(default_factory=list)
    script: Script | None = None  # the scenario's (fuego.scenario.script), when it has one
    title: str = ""
    #: the scene is over: the GM ended it, or ``loop.end_scene`` closed it (``loop.ending``
    #: says why)
    ended: bool = False
    next_fire_id: int = 1
    listeners: list[Callable[[Event], None]] = field(default_factory=list)
    npcs_added: list[str] = field(default_factory=list)
    #: ask_roll(hero, pool, tn, purpose) -> a total the player rolled, or None to let fuego roll
    ask_roll: Callable[..., int | None] | None = None
    #: what each hero sees, kept for the state it follows: its one owner
    #: (fuego.engine.sight.SightCache, which documents the key it reads)
    sight: SightCache = field(init=False, repr=False, compare=False)
    _names: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []), repr=False,
                                                compare=False)

    def __post_init__(self) -> None:
        from fuego.engine.sight import SightCache

        self.sight = SightCache()
        if self.smoke is None and self.settings.smoke:
            from fuego.engine.smoke import SmokeField

            self.smoke = SmokeField(self.building)

    # -- events -------------------------------------------------------------------------------
    def logs(self, kind: EventKind) -> bool:
        """Would an event of ``kind`` be kept or heard? Always at the table; in a forecast's
        log only the kinds its script reads are (``EventLog.kinds``): where the rest are made
        by the thousand (a pass's failed rolls, the fuel checks), they are not made at all."""
        kinds = self.log.kinds
        return kinds is None or kind in kinds or bool(self.listeners)

    def emit(self, kind: EventKind, actor: str | None = None, area: int | str | None = None,
             /, **data: Any) -> None:
        """Log an event as it happens, and pass it to the listeners. ``data`` is the kind's
        payload (fuego.engine.events.PAYLOADS), checked once per shape of data by the log; the
        ``Event`` is built only where a listener takes it (the log builds it when read)."""
        if not self.logs(kind):
            return  # (dropped as it comes: a forecast's log of what its script reads)
        if isinstance(area, int):
            area = self.building.areas[area].name
        self.log.add(kind, self.round, self.phase, actor, area, data)
        if self.listeners:
            event = new_event(kind, self.round, self.phase, actor, area, data)
            for listener in self.listeners:
                listener(event)

    def emit_row(self, shape: Shape, actor: str | None, area: str | None, /,
                 *values: Any) -> None:
        """:meth:`emit` for an event whose shape (kind and keys, in order) is known: its
        ``values`` in the shape's order (a fire's grow or failed roll, thousands a round)."""
        self.emit_rows([(shape, self.round, self.phase, actor, area, *values)])

    def emit_rows(self, rows: list[tuple]) -> None:
        """Log a batch of events already made rows (:meth:`fuego.engine.events.EventLog.add_rows`:
        each ``(shape, round, phase, actor, area, *values)``), in order, and pass each to the
        listeners, as :meth:`emit` would one by one."""
        self.log.add_rows(rows)
        if self.listeners:
            for row in rows:
                event = row_event(row)
                for listener in self.listeners:
                    listener(event)

    # -- lookups ------------------------------------------------------------------------------
    def area_name(self, i: int) -> str:
        return self.building.areas[i].name

    def fire_name(self, fire: Fire) -> str:
        return self.names()[0][fire.area]

    def names(self) -> tuple[list[str], list[str]]:
        """Each area's fire name and area name, by index: made once (a fire is named by its
        area), looked up by every event a fire makes."""
        fires, areas = self._names
        if len(areas) != len(self.building.areas):
            areas[:] = [a.name for a in self.building.areas]
            fires[:] = [f"fire@{name}" for name in areas]
        return self._names

    def fire_at(self, i: int) -> Fire | None:
        return self.fires.get(i)

    def heroes_named(self, name: str) -> list[Hero]:
        """The characters ``name`` calls (``fuego.names.called``: the full name in any case,
        else whole words of it, else their starts), in the scene's order; ``[]`` for none."""
        return [self.heroes[i] for i in called(name, [h.name for h in self.heroes])]

    def hero(self, name: str) -> Hero:
        """The one character ``name`` calls (:meth:`heroes_named`), else a RuleError saying
        which: none (did you mean ...?) or several (listed: name one in full)."""
        from fuego.errors import RuleError, one_of, suggest

        found = self.heroes_named(name)
        if len(found) == 1:
            return found[0]
        names = [h.name for h in self.heroes]
        if found:
            raise RuleError(f"{name.strip()!r} names {len(found)} characters: "
                            f"{one_of(h.name for h in found)}",
                            tip=f"name the one you mean in full, e.g. {found[0].name}")
        raise RuleError(f"no character named {name.strip()!r}"
                        f"{suggest(name, short_names(names) + names, fold=fold_name)}",
                        tip="characters here: " + one_of(names))

    def heroes_in(self, i: int) -> list[Hero]:
        return [h for h in self.heroes if h.area == i and h.present]

    def also_burning(self) -> list[Burning]:
        """What the modules keep burning outside ``fires`` (burning wrecks), by area."""
        out = [b for m in self.modules for b in m.burning(self)]
        return sorted(out, key=lambda b: (b.area, b.what)) if len(out) > 1 else out

    def room_fires(self, room: str) -> list[Fire]:
        return [self.fires[i] for i in self.building.room_areas(room) if i in self.fires]

    def harms(self, fire: Fire) -> bool:
        """Does this fire burn heroes in it or stepping in? Any lit fire but a Flame (ASL 25.1:
        no effect of its own), unless a module says a Flame does (``flame_harms``)."""
        if fire.harmful:
            return True
        return fire.state is FireState.FLAME and any(m.flame_harms(self, fire)
                                                    for m in self.modules)

    def module(self, kind: type[M]) -> M | None:
        """The scene's module of class ``kind`` (None when it is off): modules find each other
        by type, and the scenario's names stay in fuego.modules.registry."""
        for m in self.modules:
            if isinstance(m, kind):
                return m
        return None

    # -- fires: the only way in and out of the active set --------------------------------------
    def start_fire(self, area: int, fd: int, cause: Cause, *, source: Fire | None = None,
                   temperature: Temperature | None = None, kind: Rank | None = None,
                   flame: bool = False, own_fuel: int = 0,
                   **data: Any) -> Fire | None:
        """Start a fire (or merge into the one there). Returns None where nothing can burn.

        Merging keeps the larger Fire Dice (and the hotter temperature). An area with no fuel, or
        one already burned out, does not take fire, unless the fire brings ``own_fuel`` (an
        incendiary: its Resolve is that fuel, and the area's fuel is never touched).
        A new fire is born through its lifecycle's ``kindle``: a Flame when ``flame`` or a
        module says so (``RuleModule.starts_as_flame``), else burning.
        """
        a = self.building.areas[area]
        brought = 0
        if not a.burnable:
            if not own_fuel:
                return None
            if area not in self.fires:
                brought = own_fuel
                data["own_fuel"] = own_fuel  # the log says why it burns where nothing can
        fd = clamp_fire_dice(fd)
        if temperature is None:
            hot = a.room in self.flashed or not HOT_FEATURES.isdisjoint(a.features)
            temperature = Temperature.HOT if hot else Temperature.REGULAR
        existing = self.fires.get(area)
        src = self.fire_name(source) if source else None
        if existing is not None:
            grew = fd > existing.fd
            if grew:
                existing.set_dice(fd)
            if temperature is Temperature.HOT and existing.trigger(Trigger.HEAT, self, "merged"):
                data["temperature"] = Temperature.HOT.value  # the log shows the change
            self.emit(EventKind.FIRE_MERGED, self.fire_name(existing), area, fd=existing.fd,
                      cause=cause.value, source=src, grew=grew, **data)
            return existing
        fire = Fire(self.next_fire_id, area, fd, brought or a.fuel, temperature=temperature,
                    kind=kind or self.settings.fire_kind, born=self.round)
        fire.own_fuel = bool(brought)
        flame = flame or any(m.starts_as_flame(self, fire) for m in self.modules)
        fire.trigger(Trigger.KINDLE, self, flame=flame)
        self.next_fire_id += 1
        self.fires[area] = fire
        for module in self.modules:
            module.fire_started(self, fire)
        self.emit(EventKind.FIRE_STARTED, self.fire_name(fire), area, fd=fire.fd, cause=cause.value,
                  source=src, temperature=fire.temperature.value, fire_kind=fire.kind.value,
                  resolve=fire.resolve, state=fire.state.value, **data)
        return fire

    def extinguish(self, fire: Fire, reason: str, *, burned_out: bool) -> None:
        """Put a fire out (its lifecycle's ``extinguish``: entering ``out`` calls
        :meth:`remove_fire`). ``burned_out``: its fuel is spent, the area cannot burn again."""
        if fire.state is FireState.OUT:  # (already out: only make sure it has left play)
            if self.fires.get(fire.area) is fire:
                self.remove_fire(fire, reason, burned_out)
            return
        fire.trigger(Trigger.EXTINGUISH, self, reason, burned_out=burned_out)

    def remove_fire(self, fire: Fire, reason: str, burned_out: bool) -> None:
        """A fire that went out leaves the active set (the ``out`` state's callback,
        ``Fire.went_out``). Put out early, the fuel it had not eaten stays in the area."""
        self.fires.pop(fire.area, None)
        area = self.building.areas[fire.area]
        if fire.own_fuel:
            pass  # it burned what it brought: the area's own fuel (none) is as it was
        elif burned_out:
            self.building.burn_out(fire.area)
        else:  # put out early: what it had not eaten is still there (unlit fuel again)
            spent = fuel_eaten(fire.kind, fire.dramatic)
            if area.fuel - spent <= 0:
                self.building.burn_out(fire.area)
            else:
                self.building.set_fuel(fire.area, area.fuel - spent)
        self.emit(EventKind.FIRE_OUT, self.fire_name(fire), fire.area, reason=reason,
                  burned_out=area.burned_out)
        if area.burned_out:
            self.emit(EventKind.AREA_BURNED_OUT, None, fire.area)

    def set_fire_dice(self, fire: Fire, fd: int, why: str) -> None:
        before = fire.fd
        fire.set_dice(fd)
        if fire.fd != before:
            kind = EventKind.FIRE_GREW if fire.fd > before else EventKind.FIRE_SHRANK
            self.emit(kind, self.fire_name(fire), fire.area, fd=fire.fd, before=before, why=why)

    def lifecycle(self, fire: Fire, trigger: Trigger, why: str | None) -> bool:
        """Fire a lifecycle trigger (the machine logs the change); whether the state changed."""
        return fire.trigger(trigger, self, why)

    # -- state ---------------------------------------------------------------------------------
    def snapshot(self) -> dict:
        """Everything play changes, as plain data (saves, invariants, replay checks)."""
        return {
            "round": self.round,
            "fires": [self.fires[i].to_dict() for i in sorted(self.fires)],
            "heroes": [h.to_dict() for h in self.heroes],
            "building": self.building.dynamic_state(),
            "smoke": self.smoke.state() if self.smoke else None,
            "flashed": sorted(self.flashed),
            "ended": self.ended,
        }

    @property
    def burning(self) -> bool:
        return bool(self.fires)
