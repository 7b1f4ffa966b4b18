"""ignition: starting fires on purpose or by accident, and fire spreading outdoors by terrain.

- **Kindling** (001 fire tables; 000 ASL 25.11-25.13): 2d6 + the weather DRM (ASL's EC DRM and
  Alpha Strike's conditions, ``weather``) against the area's Alpha Strike base target
  (intentional / unintentional, by terrain), plus the wind-force modifier. NA terrain cannot be
  set alight. A success starts a 1-die fire (a Flame with flame-and-blaze). ASL's own Kindling
  numbers are not in the seed; fuego uses Alpha Strike's targets, which are.
- **Incendiaries** (001: Inferno munitions always start a fire): a flask of oil or Greek fire
  needs no roll and starts a hot 4-die fire (003: "Small Fire, Flask of Oil" has 4 Fire Dice;
  chemical fires are hot). Its smoke is heavy (drifting-smoke) and wet ground does not put it out
  (weather). Where nothing burns (water, paving, a burned-out area) it burns on its own fuel
  (``incendiary_fuel``, Resolve 3) and goes out when that is spent, the area as it was.
- **Heroes**: ``set-fire`` (intentional kindling in the hero's own area) and, for a hero the
  scenario gives incendiaries, ``throw-incendiary`` (own area or one open to it).
- **Accidents**: :func:`accidental_ignition` for scripts (a lantern knocked over, a pistol shot
  into the hay): the unintentional target.
- **Spreading outdoors** (000 ASL 25.6): at the end of every round after its first, a Blaze may
  spread to each burnable area around it (the 8 neighbours, and any area joined to it above or
  below) where either side is outdoors: 2d6 + DRMs >= the table's number for that terrain. DRMs:
  -2 not directly attached (a corner, or a wall or closed door between), -1 a fortified target,
  -1 to a lower / +1 to a higher level, the weather DRM, the Wind Direction DRM (wind). The new
  fire has one Fire Die. Spreading inside a building stays the 7th Sea core's alone.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

from fuego.engine.rule_module import RuleModule
from fuego.modules import register
from fuego.modules.common import (
    TERRAINS,
    Options,
    TerrainOption,
    around,
    dr_text,
    note,
    outdoors,
    resolve_refs,
    unlit,
)
from fuego.modules.terrain import alpha_target, terrain_of
from fuego.modules.weather import weather_drm
from fuego.modules.wind import Wind
from fuego.rules.charts import Temperature
from fuego.text import fold_name

if TYPE_CHECKING:
    from fuego.engine.fire import Fire
    from fuego.engine.heroes import Hero
    from fuego.engine.scene import Scene

# -- tables ---------------------------------------------------------------------------------------
#: Spreading Fire: Final DR needed by burnable terrain (000, ASL 25.6).
ASL_SPREAD_NEEDED = {
    "stone-building": 9,
    "orchard": 9,
    "wooden-building": 8,
    "woods-road": 8,
    "woods": 7,
    "grain": 6,
    "brush": 6,
}
#: Spreading Fire DRM (000, ASL 25.6 and 25.61).
ASL_SPREAD_DRM = {"not-attached": -2, "fortified": -1, "lower": -1, "higher": +1}
#: A fire kindled or spread by these rules: one Fire Die (ASL's Flame; 003's leap).
NEW_FIRE_FD = 1
#: An incendiary: 003's "Small Fire, Flask of Oil" row, burning hot (003: chemical fires).
INCENDIARY_FD = 4
#: [reading] Where nothing burns an incendiary burns its own fuel (001: Infernos ignite water,
#: liquid pools, paving): Resolve 3, the fuel fuego gives an area of spilt oil
#: (``scenario.plan.FEATURE_MIN_FUEL``; 003's "small stack of paper" row). 0: the older
#: reading, no fuel no fire (``incendiary_fuel: 0``).
INCENDIARY_FUEL = 3


class IgnitionAction(str, Enum):
    SET_FIRE = "set-fire"
    THROW_INCENDIARY = "throw-incendiary"


def kindle(scene: Scene, i: int, *, intentional: bool, why: str, by: str | None = None,
           incendiary: bool = False, modifier: int = 0) -> Fire | None:
    """Try to start a fire in area ``i`` (a hero's deliberate act or an accident). Logs the roll;
    returns the new fire, or None. Works whether or not the ignition module is on."""
    from fuego.engine.scene import Cause

    b = scene.building
    name = b.areas[i].name
    module = scene.module(Ignition)
    what = "set fire" if intentional else "accidental fire"
    own = module.incendiary_fuel if module is not None else INCENDIARY_FUEL
    # 001: an Inferno ignites every terrain but vacuum, underwater and rapids (none of them a
    # fuego terrain), "even ... water surfaces, liquid pools and paved terrain": on its own fuel
    brings = incendiary and own > 0 and i not in scene.fires
    if not unlit(scene, i) and not brings:
        note(scene, "ignition", f"{what} in {name}: nothing there will burn"
             + (" (already burning)" if i in scene.fires else ""), i, by, what=what)
        return None
    if incendiary:
        bare = not b.areas[i].burnable
        said: dict[str, Any] = {"why": "own fuel"} if bare else {}
        note(scene, "ignition", f"{what} in {name}: an incendiary, no roll"
             + (f" - it burns on its own fuel (Resolve {own}) on the {terrain_of(scene, i)}"
                if bare else ""), i, by, what=what, incendiary=True, **said)
        fd = module.incendiary_fd if module is not None else INCENDIARY_FD
        if module is not None:
            module.incendiary_ids.add(scene.next_fire_id)
        return scene.start_fire(i, fd, Cause.MODULE, temperature=Temperature.HOT,
                                module="ignition", why=why, by=by, incendiary=True,
                                own_fuel=own if bare else 0)
    base = alpha_target(scene, i, intentional=intentional)
    if base is None:
        note(scene, "ignition", f"{what} in {name}: {terrain_of(scene, i)} cannot be set alight",
             i, by, what=what, success=False)
        return None
    wind = scene.module(Wind)
    target = base + modifier + (wind.target_modifier() if wind is not None else 0)
    drm = weather_drm(scene, i)
    a, c = scene.roller.dr()
    ok = a + c + drm >= target
    note(scene, "ignition", f"{what} in {name}: {dr_text((a, c), drm)} vs {target} "
         f"({terrain_of(scene, i)})" + (" - it catches" if ok else " - it does not catch"), i,
         by, what=what, dice=[a, c], drm=drm, need=target, success=ok, intentional=intentional)
    if not ok:
        return None
    fd = module.fd if module is not None else NEW_FIRE_FD
    return scene.start_fire(i, fd, Cause.MODULE, module="ignition", why=why, by=by,
                            intentional=intentional)


def accidental_ignition(scene: Scene, area: int | str, why: str = "an accident", *,
                        modifier: int = 0, incendiary: bool = False) -> Fire | None:
    """For scripts: something may have set area ``area`` (index or name) alight by accident."""
    i = area if isinstance(area, int) else scene.building.area(area).index
    return kindle(scene, i, intentional=False, why=why, modifier=modifier, incendiary=incendiary)


@register
class Ignition(TerrainOption, RuleModule):
    name = "ignition"
    end_order = 40
    source = "000 ASL 25.1-25.13 (kindling), 25.6-25.62 (spreading DR table); " \
             "001 Alpha Strike fire tables (base targets, Inferno)"
    action_kinds = tuple(IgnitionAction)

    def __init__(self, options: dict[str, Any] | None = None):
        super().__init__(options)
        o = Options(self.name, options)
        self.terrain = o.terrain("terrain")
        self.fortified_refs = o.names("fortified")
        inc = o.mapping("incendiaries")
        for k, v in inc.items():
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 99:
                raise o.error(f"incendiaries.{k}", f"expected a count from 0 to 99, got {v!r}")
        self.incendiaries = {fold_name(k): v for k, v in inc.items()}
        self.set_fire = o.boolean("set_fire", True)
        self.spread = o.boolean("spread", True)
        self.fd = o.integer("fd", NEW_FIRE_FD, 1, 10)
        self.incendiary_fd = o.integer("incendiary_fd", INCENDIARY_FD, 1, 10)
        self.incendiary_fuel = o.integer("incendiary_fuel", INCENDIARY_FUEL, 0, 9)
        o.done()
        self.incendiary_ids: set[int] = set()
        self._blazes: dict[int, int] = {}
        self._fortified: set[int] | None = None

    def is_incendiary(self, fire: Fire) -> bool:
        return fire.id in self.incendiary_ids

    def fortified(self, scene: Scene) -> set[int]:
        if self._fortified is None:
            refs = {r: True for r in self.fortified_refs}
            self._fortified = set(resolve_refs(scene.building, refs, self.name, "fortified"))
        return self._fortified

    # -- hooks ---------------------------------------------------------------------------------
    def scene_start(self, scene: Scene) -> None:
        self.terrain_by_area(scene.building)  # unknown names fail here, before round 1
        self.fortified(scene)

    def round_start(self, scene: Scene) -> None:
        self._blazes = {i: f.id for i, f in scene.fires.items()
                        if f.can_spread and f.born < scene.round}

    def hero_actions(self, scene: Scene, hero: Hero) -> list[Any]:
        from fuego.engine.hero_actions import HeroAction

        out = []
        if self.set_fire and unlit(scene, hero.area) and \
                alpha_target(scene, hero.area, intentional=True) is not None:
            out.append(HeroAction(IgnitionAction.SET_FIRE, target=hero.area))
        if self.incendiaries.get(fold_name(hero.name), 0) > 0:
            for i in [hero.area, *scene.building.open_neighbours(hero.area)]:
                if unlit(scene, i) or (self.incendiary_fuel and i not in scene.fires):
                    out.append(HeroAction(IgnitionAction.THROW_INCENDIARY, target=i))
        return out

    def perform_hero_action(self, scene: Scene, hero: Hero, act: Any) -> bool:
        if act.kind is IgnitionAction.SET_FIRE:
            kindle(scene, act.target, intentional=True, why=f"set by {hero.name}", by=hero.name)
            return True
        if act.kind is IgnitionAction.THROW_INCENDIARY:
            key = fold_name(hero.name)
            if self.incendiaries.get(key, 0) <= 0:
                return True
            self.incendiaries[key] -= 1
            kindle(scene, act.target, intentional=True, why=f"incendiary thrown by {hero.name}",
                   by=hero.name, incendiary=True)
            return True
        return False

    def end_of_round(self, scene: Scene) -> None:
        if not self.spread:
            return
        for i in sorted(self._blazes):
            fire = scene.fires.get(i)
            if fire is None or fire.id != self._blazes[i] or not fire.can_spread:
                continue
            for j, attached in self.targets(scene, i):
                if unlit(scene, j):
                    self._spread(scene, fire, j, attached)

    # -- ASL 25.6 -----------------------------------------------------------------------------------
    def targets(self, scene: Scene, i: int) -> list[tuple[int, bool]]:
        """Areas a Blaze in ``i`` may spread to by the table, and whether each is directly
        attached (side by side with nothing closed between). One side must be outdoors."""
        b = scene.building
        out: dict[int, bool] = {}
        for j, dx, dy in around(b, i):
            barrier = b.between(i, j) if dx == 0 or dy == 0 else None
            out[j] = barrier is not None and barrier.passable
        for j, barrier in b.neighbours(i):
            if j not in out:
                out[j] = barrier.passable
        inside = not outdoors(b, i)
        return [(j, att) for j, att in sorted(out.items()) if not (inside and not outdoors(b, j))]

    def spread_need(self, scene: Scene, src: int, dst: int, attached: bool) -> tuple[int, int] | None:
        """(Final DR needed, total DRM) to spread from ``src`` to ``dst``; None where the table
        has no row for the target or the wind forbids it."""
        b = scene.building
        terrain = TERRAINS[terrain_of(scene, dst)]
        if terrain.asl is None:
            return None
        drm = 0 if attached else ASL_SPREAD_DRM["not-attached"]
        if dst in self.fortified(scene):
            drm += ASL_SPREAD_DRM["fortified"]
        rise = b.levels[b.areas[dst].level].elevation - b.levels[b.areas[src].level].elevation
        if rise:
            drm += ASL_SPREAD_DRM["higher" if rise > 0 else "lower"]
        drm += weather_drm(scene, dst)
        wind = scene.module(Wind)
        if wind is not None:
            w = wind.asl_drm(scene, src, dst)
            if w is None:
                return None
            drm += w
        return ASL_SPREAD_NEEDED[terrain.asl], drm

    def _spread(self, scene: Scene, fire: Fire, j: int, attached: bool) -> None:
        from fuego.engine.scene import Cause

        got = self.spread_need(scene, fire.area, j, attached)
        if got is None:
            return
        need, drm = got
        a, c = scene.roller.dr()
        ok = a + c + drm >= need
        note(scene, self.name, f"spreading fire to {scene.area_name(j)} "
             f"({terrain_of(scene, j)}): {dr_text((a, c), drm)} vs {need}"
             + (" - it spreads" if ok else ""), fire.area, scene.fire_name(fire),
             dice=[a, c], drm=drm, need=need, success=ok, to=scene.area_name(j))
        if ok:
            scene.start_fire(j, self.fd, Cause.MODULE, source=fire, module=self.name,
                             why="spreading fire (ASL 25.6)")

    # -- saves ----------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {"incendiaries": dict(self.incendiaries), "incendiary_ids": sorted(self.incendiary_ids),
                "blazes": sorted([i, f] for i, f in self._blazes.items())}

    def load_state(self, state: dict[str, Any]) -> None:
        self.incendiaries = dict(state["incendiaries"])
        self.incendiary_ids = set(state["incendiary_ids"])
        self._blazes = {i: f for i, f in state["blazes"]}
