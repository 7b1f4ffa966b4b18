"""wrecks: a burning cart, carriage, wagon, coach or boat (ASL B25.14, 25.141, 25.2, 25.6, 25.63,
25.651).

- A **burning wreck** is a fire of its own, not the area's: it is never in ``scene.fires``, never
  takes action dice, and the core's spreading never starts from it. It starts as a Blaze, not
  a Flame (25.15's exception), so it may spread from the round after it appears (25.6).
- It spreads only to the burnable fuel of **its own area** (25.14: the fire must first spread
  from the wreck to the terrain it stands on). At each round's end: 2d6 + the weather DRM
  against the ASL spreading number of the area's terrain (25.6; where the terrain has no row,
  the number a Flame needs there, flame-and-blaze's reading). Heavy winds (25.63) and a gust
  (25.651) spread it there without a roll. The fire it starts is a 1-die fire, a Flame with
  flame-and-blaze, as every fire the modules spread.
- Once its area holds a Blaze of its own (a burning fire: 25.14 "become a Blaze terrain Fire"),
  the wreck is no longer a separate fire: it is removed (the area's fire burns on).
- Moving into its area is allowed but costs an extra move (25.141): the hero spends its next
  action die of the round on getting round the wreck; with none left it still goes in (ASL's
  minimum move, fuego's reading).
- Its smoke hinders less than a terrain fire's (25.2: +2, not +3): fuego's reading, thin smoke
  in its own area only.
- fuego's reading: a wreck burns for ``rounds`` rounds (the module's option, or the scenario's
  per wreck), then burns out; ASL leaves it burning for the whole scenario.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from fuego.engine.rule_module import Burning, RuleModule
from fuego.errors import FuegoError
from fuego.modules import register
from fuego.modules.common import Options, dr_text, note, unlit
from fuego.modules.flame_and_blaze import blaze_need, rising_smoke
from fuego.modules.weather import weather_drm
from fuego.modules.wind import Wind, WindForce

if TYPE_CHECKING:
    from fuego.engine.heroes import Hero
    from fuego.engine.scene import Scene

# -- tables ---------------------------------------------------------------------------------------
#: What burns as a wreck: 000 25.14's vehicles, as the 7th Sea world has them.
VEHICLES = ("cart", "carriage", "wagon", "coach", "boat")
#: Fire Dice of the fire a wreck starts in its area: one, as every fire a module spreads (ASL's
#: new fire is a Flame, the smallest fire).
SPREAD_FD = 1
#: A mobile structure entering a burning area catches on 2d6 >= 12 plus the fire tables'
#: modifiers (001, Fire Damage to Units).
MOBILE_IGNITE_TARGET = 12
#: Extra moves into a wreck's area (000 25.141: "an extra MF").
EXTRA_MOVES = 1
#: fuego's reading: rounds a wreck burns before it burns out (ASL gives it no end).
DEFAULT_ROUNDS = 12
MAX_ROUNDS = 200


@dataclass(slots=True)
class Wreck:
    """One burning wreck: where, what, since which round, for how many."""

    area: int
    vehicle: str
    born: int
    rounds: int

    def label(self) -> str:
        return f"burning {self.vehicle}"


@register
class Wrecks(RuleModule):
    name = "wrecks"
    end_order = 35  # it spreads fire: after the wind, before ignition (both 30-49)
    source = "000 ASL 25.14, 25.141 (wreck blazes), 25.2 (their smoke), 25.6, 25.63, 25.651 " \
             "(spreading to the wreck's own location)"

    def __init__(self, options: dict[str, Any] | None = None):
        super().__init__(options)
        o = Options(self.name, options)
        rounds = o.integer("rounds", DEFAULT_ROUNDS, 1, MAX_ROUNDS)
        self.rounds = DEFAULT_ROUNDS if rounds is None else rounds
        self.extra_move = o.boolean("extra_move", True)
        # 000 25.2: a burning wreck's smoke rises up to four levels; false: the older reading
        self.rising_smoke = o.boolean("rising_smoke", True)
        o.done()
        self.wrecks: dict[int, Wreck] = {}

    # -- placing and removing -------------------------------------------------------------------
    def place(self, scene: Scene, area: int, vehicle: str, *, rounds: int | None = None,
              why: str = "", announce: bool = True) -> Wreck:
        """Put a burning wreck in ``area``; ``announce=False`` (a scenario's, before the scene
        starts) leaves the event to :meth:`scene_start`."""
        if vehicle not in VEHICLES:
            raise FuegoError(f"no wreck {vehicle!r}", tip=", ".join(VEHICLES))
        if area in self.wrecks:
            raise FuegoError(f"{scene.area_name(area)} already holds a burning "
                             f"{self.wrecks[area].vehicle}", tip="one wreck per area")
        wreck = Wreck(area, vehicle, scene.round, self.rounds if rounds is None else rounds)
        self.wrecks[area] = wreck
        if announce:
            self._announce(scene, wreck, why)
        return wreck

    def _announce(self, scene: Scene, wreck: Wreck, why: str = "") -> None:
        note(scene, self.name, f"a {wreck.label()} in {scene.area_name(wreck.area)}"
             + (f" ({why})" if why else ""), wreck.area, what="wreck", vehicle=wreck.vehicle,
             rounds=wreck.rounds)

    def _remove(self, scene: Scene, wreck: Wreck, text: str) -> None:
        del self.wrecks[wreck.area]
        note(scene, self.name, f"the {wreck.label()} in {scene.area_name(wreck.area)} {text}",
             wreck.area, what="wreck-gone", vehicle=wreck.vehicle)

    def _merged(self, scene: Scene) -> None:
        """25.14: a wreck whose area became a Blaze terrain fire is removed."""
        for i in sorted(self.wrecks):
            fire = scene.fires.get(i)
            if fire is not None and fire.can_spread:
                self._remove(scene, self.wrecks[i], "is part of the fire there now")

    # -- hooks ------------------------------------------------------------------------------------
    def scene_start(self, scene: Scene) -> None:
        for i in sorted(self.wrecks):  # the scenario's, placed before the scene's first event
            self._announce(scene, self.wrecks[i])

    def round_start(self, scene: Scene) -> None:
        self._merged(scene)

    def end_of_round(self, scene: Scene) -> None:
        self._merged(scene)
        wind = scene.module(Wind)
        heavy = wind is not None and wind.force is WindForce.HEAVY_WINDS and wind.heavy_spread
        gust = wind is not None and wind.gusts and wind.gust_round == scene.round
        for i in sorted(self.wrecks):
            wreck = self.wrecks[i]
            if wreck.born < scene.round and unlit(scene, i):
                self._spread(scene, wreck, "heavy winds" if heavy else "a gust" if gust else None)
        self._merged(scene)
        for i in sorted(self.wrecks):
            wreck = self.wrecks[i]
            if scene.round - wreck.born >= wreck.rounds:
                self._remove(scene, wreck, "burns out")

    def _spread(self, scene: Scene, wreck: Wreck, carried: str | None) -> None:
        from fuego.engine.scene import Cause

        i = wreck.area
        where = scene.area_name(i)
        if carried is None:
            need, drm = blaze_need(scene, i), weather_drm(scene, i)
            a, c = scene.roller.dr()
            ok = a + c + drm >= need
            note(scene, self.name, f"the {wreck.label()} tries to set {where} alight: "
                 f"{dr_text((a, c), drm)} vs {need}" + (" - it catches" if ok else ""), i,
                 what="wreck-spread", vehicle=wreck.vehicle, dice=[a, c], drm=drm, need=need,
                 success=ok)
        else:
            ok = True
            note(scene, self.name, f"{carried} carry the {wreck.label()}'s fire into {where}",
                 i, what="wreck-spread", vehicle=wreck.vehicle, success=True)
        if ok:
            scene.start_fire(i, SPREAD_FD, Cause.MODULE, module=self.name,
                             why=f"the {wreck.label()} sets its area alight (ASL 25.14)")

    def burning(self, scene: Scene) -> list[Burning]:
        # 25.141: an extra move into a wreck's area (the automatic heroes count it: move_tolls)
        extra = EXTRA_MOVES if self.extra_move else 0
        return [Burning(i, w.vehicle, f"to round {w.born + w.rounds}", extra)
                for i, w in sorted(self.wrecks.items())]

    def hero_moved(self, scene: Scene, hero: Hero, frm: int) -> None:
        wreck = self.wrecks.get(hero.area)
        if wreck is None or not self.extra_move:
            return
        spent = hero.dice[:EXTRA_MOVES]
        del hero.dice[:EXTRA_MOVES]
        note(scene, self.name, f"{hero.name} works round the {wreck.label()}"
             + (" (an extra move)" if spent else " (no action left: the minimum move)"),
             hero.area, hero.name, what="wreck-move", vehicle=wreck.vehicle, dice=spent)

    def smoke_update(self, scene: Scene, field: Any, new: dict[int, Any]) -> set[int]:
        from fuego.rules.charts import Density

        wind = scene.module(Wind)
        for i in self.wrecks:
            if wind is not None and wind.blows_away(scene, i):
                continue  # 25.63: smoke has no effect in heavy winds
            new.setdefault(i, Density.THIN)  # thicker smoke from a fire there stays thicker
        if self.rising_smoke:  # 25.2: up to four levels above it (two in a mild breeze)
            rising_smoke(scene, sorted(self.wrecks), new)  # (it lingers as the core's does)
        return set(self.wrecks)

    # -- saves ----------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {"wrecks": [asdict(self.wrecks[i]) for i in sorted(self.wrecks)]}

    def load_state(self, state: dict[str, Any]) -> None:
        self.wrecks = {w["area"]: Wreck(**w) for w in state["wrecks"]}


# -- for scenarios, scripts and maps --------------------------------------------------------------
def place_wreck(scene: Scene, area: int | str, vehicle: str, *, rounds: int | None = None,
                why: str = "", announce: bool = True) -> Wreck:
    """Put a burning ``vehicle`` in ``area`` (index or name); the wrecks module must be on."""
    module = scene.module(Wrecks)
    if module is None:
        raise FuegoError("a burning wreck needs the wrecks module",
                         tip="add 'wrecks: {}' under rules.modules")
    i = area if isinstance(area, int) else scene.building.area(area).index
    return module.place(scene, i, vehicle, rounds=rounds, why=why, announce=announce)


def drive_into(scene: Scene, area: int | str, vehicle: str, why: str = "") -> Wreck | None:
    """A cart, wagon or boat driven into ``area`` (001, Fire Damage to Units: a mobile structure
    that enters a burning area is set ablaze on 2d6 against 12, with the fire tables'
    modifiers): where the area burns, roll 2d6 + the weather DRM against 12 + the wind's force
    modifier; on a success it becomes a burning wreck there. Needs the wrecks module."""
    module = scene.module(Wrecks)
    if module is None:
        raise FuegoError("a vehicle catching fire needs the wrecks module",
                         tip="add 'wrecks: {}' under rules.modules")
    if vehicle not in VEHICLES:
        raise FuegoError(f"no vehicle {vehicle!r}", tip=", ".join(VEHICLES))
    i = area if isinstance(area, int) else scene.building.area(area).index
    where = scene.area_name(i)
    fire = scene.fires.get(i)
    said: dict[str, Any] = {"why": why} if why else {}
    if fire is None or not scene.harms(fire) or i in module.wrecks:
        # a Flame there (flame-and-blaze) burns, but has no effect of its own (ASL 25.1)
        why_not = "" if i in module.wrecks else (": nothing burns there" if fire is None
                                                 else ": only a Flame, which harms nothing")
        note(scene, module.name, f"a {vehicle} is driven into {where}{why_not}", i,
             what="vehicle-enters", vehicle=vehicle, **said)
        return None
    wind = scene.module(Wind)
    need = MOBILE_IGNITE_TARGET + (wind.target_modifier() if wind is not None else 0)
    drm = weather_drm(scene, i)
    a, c = scene.roller.dr()
    ok = a + c + drm >= need
    note(scene, module.name, f"a {vehicle} is driven into the fire in {where}: "
         f"{dr_text((a, c), drm)} vs {need}" + (" - it catches fire" if ok else " - it does not "
         "catch"), i, what="vehicle-enters", vehicle=vehicle, dice=[a, c], drm=drm, need=need,
         success=ok, **said)
    if not ok:
        return None
    return module.place(scene, i, vehicle, why="driven into the fire")


def burning_wrecks(scene: Scene) -> list[Wreck]:
    """The wrecks burning now, by area (none when the module is off)."""
    module = scene.module(Wrecks)
    return [] if module is None else [module.wrecks[i] for i in sorted(module.wrecks)]
