"""drifting-smoke: outdoor smoke drifts downwind, thins and lingers (Alpha Strike smoke).

With this module on, the smoke of a fire burning in an outdoor area is placed by these rules
instead of the core's (003: four times the fire's area); indoor fires keep the core rules.

- **Light and heavy** (001): heavy smoke (the core's thick) from incendiaries, ultra-heavy woods
  and jungle, heavy and hardened buildings, and the core's thick-smoke fuels (wet, smoky,
  gunpowder); every other fire makes light (thin) smoke.
- **Drift** (001): in a calm the smoke only rises over the fire's own area. With wind it trails
  downwind over 2 areas x the wind force level (mild breeze 1, heavy winds 2; at most 6 areas,
  where it dissipates), in a path as wide as the fire (one area: an Alpha Strike path is as wide
  as its fire marker). The trail runs over outdoor areas and stops at a wall.
- **Dissipation** (001): at the end of each round after the one it appeared in, each trail not
  over a burning fire rolls 2d6 + the wind's modifier (force 2 +1, 3 +2, 4 +5); 10 or more thins
  heavy smoke to light, or clears light smoke. A burning fire keeps making its smoke: its trail
  is laid again every round.
- **Persistence** (001): after its fire goes out, a trail lasts 2 more rounds unless it
  dissipates first.
- **Shifting winds** (001): when the wind changes, every trail moves wholesale to the new
  direction and length at once; the smoke over a fire stays. **Gusts** (000 ASL 25.651) clear
  light smoke and thin heavy smoke at once, except over a burning fire.
- The wind comes from the wind module when it is on; otherwise from this module's ``direction``
  (where the wind comes from) and ``force`` (0-4; default: the scenario's wind word, calm 0 ...
  gale 4). With no direction the smoke does not drift.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fuego.engine.rule_module import RuleModule
from fuego.modules import register
from fuego.modules.common import (
    DIRECTIONS,
    TERRAINS,
    VECTORS,
    Options,
    dr_text,
    note,
    opposite,
    outdoors,
    step,
)
from fuego.modules.ignition import Ignition
from fuego.modules.terrain import terrain_of
from fuego.modules.wind import Wind

if TYPE_CHECKING:
    from fuego.engine.fire import Fire
    from fuego.engine.scene import Scene

# -- tables ---------------------------------------------------------------------------------------
#: Drifting Smoke (001): a path 2 inches x wind force long, at most 6 inches; past that it is gone.
DRIFT_PER_FORCE = 2
MAX_DRIFT = 6
#: Dissipating Smoke (001): 2d6 + modifier >= 10 thins heavy to light, clears light. Modifier by
#: wind force: 2 +1, 3 +2, 4 +5, any tornado +10.
DISSIPATE_ON = 10
DISSIPATE_MODIFIER = {0: 0, 1: 0, 2: 1, 3: 2, 4: 5, "tornado": 10}
#: Smoke persists 2 turns after its fire burns out (001, Smoke).
PERSIST_ROUNDS = 2
#: The scenario's wind words as Alpha Strike wind force levels (fuego's reading).
CORE_WIND_FORCE = {"calm": 0, "light": 1, "moderate": 2, "strong": 3, "gale": 4}
THIN, THICK = 1, 2


@dataclass
class Trail:
    """The smoke of one fire (alive or gone): ``density`` of the drifting part, the areas it
    covers downwind, the round it appeared, rounds left once its fire is out."""

    density: int
    born: int
    linger: int | None = None
    areas: list[int] = field(default_factory=list)

    def to_list(self) -> list:
        return [self.density, self.born, self.linger, list(self.areas)]


@register
class DriftingSmoke(RuleModule):
    name = "drifting-smoke"
    source = "001 Alpha Strike, Smoke (light and heavy, drifting, dissipating, shifting winds); " \
             "000 ASL 25.651 (gusts)"

    def __init__(self, options: dict[str, Any] | None = None):
        super().__init__(options)
        o = Options(self.name, options)
        raw = o.get("direction")
        self.direction = None
        if raw is not None:
            d = raw.strip().upper() if isinstance(raw, str) else raw
            if d not in DIRECTIONS:
                raise o.error("direction", f"expected one of {', '.join(DIRECTIONS)}, got {raw!r}")
            self.direction = d
        self.force = o.integer("force", None, 0, 4)
        o.done()
        self.trails: dict[int, Trail] = {}
        self._last: set[int] = set()

    # -- the wind it feels ----------------------------------------------------------------------
    def wind_now(self, scene: Scene) -> tuple[str | None, int]:
        """(where the smoke blows to, Alpha Strike wind force level)."""
        wind = scene.module(Wind)
        if wind is not None:
            return wind.blowing_to, wind.level
        level = self.force if self.force is not None else \
            CORE_WIND_FORCE.get(scene.settings.wind.value, 0)
        to = opposite(self.direction) if self.direction and level > 0 else None
        return to, level

    def path(self, scene: Scene, src: int) -> list[int]:
        to, level = self.wind_now(scene)
        if to is None or level <= 0:
            return []
        dx, dy = VECTORS[to]
        out = []
        for k in range(1, min(MAX_DRIFT, DRIFT_PER_FORCE * level) + 1):
            j = step(scene.building, src, k * dx, k * dy)
            if j is None or not outdoors(scene.building, j):
                break
            out.append(j)
        return out

    def density_of(self, scene: Scene, fire: Fire) -> int:
        area = scene.building.areas[fire.area]
        ignition = scene.module(Ignition)
        heavy = (TERRAINS[terrain_of(scene, fire.area)].heavy_smoke or area.thick_smoke
                 or (ignition is not None and ignition.is_incendiary(fire)))
        return THICK if heavy else THIN

    def _burning(self, scene: Scene, src: int) -> Fire | None:
        fire = scene.fires.get(src)
        return fire if fire is not None and self.smoke_claims(scene, fire) else None

    # -- hooks (fuego.engine.smoke.SmokeField.update) ------------------------------------------------------
    def smoke_claims(self, scene: Scene, fire: Fire) -> bool:
        return fire.can_spread and outdoors(scene.building, fire.area)

    def smoke_update(self, scene: Scene, field_, new: dict) -> set[int]:
        """Age the trails of fires gone out, lay each claimed fire's trail again, blow them
        along the wind and paint them into ``new``."""
        _, level = self.wind_now(scene)
        for src in sorted(self.trails):
            if self._burning(scene, src) is None:  # a burning fire's is laid again below
                self._age(scene, src, level)
        for i in sorted(scene.fires):
            fire = scene.fires[i]
            if not self.smoke_claims(scene, fire):
                continue
            trail = self.trails.get(i)
            if trail is None:
                self.trails[i] = Trail(self.density_of(scene, fire), scene.round)
            else:
                trail.density, trail.linger = self.density_of(scene, fire), None
        for src, t in self.trails.items():
            t.areas = self.path(scene, src)
        return self._paint(scene, new)

    def _age(self, scene: Scene, src: int, level: int) -> None:
        """A trail whose fire is out lingers PERSIST_ROUNDS, thinning on each dissipation roll
        after the round it was laid (the wind's ``level`` helps); gone when spent."""
        t = self.trails[src]
        if t.linger is None:
            t.linger = PERSIST_ROUNDS
        if t.born < scene.round:
            a, c = scene.roller.dr()
            mod = DISSIPATE_MODIFIER.get(level, 0)
            ok = a + c + mod >= DISSIPATE_ON
            note(scene, self.name, f"smoke from {scene.area_name(src)}: dissipation "
                 f"{dr_text((a, c), mod)} vs {DISSIPATE_ON}"
                 + ((" - it thins" if t.density == THICK else " - it clears") if ok else ""),
                 src, dice=[a, c], modifier=mod, need=DISSIPATE_ON, success=ok)
            if ok:
                t.density -= 1
        t.linger -= 1
        if t.density <= 0 or t.linger <= 0:
            del self.trails[src]

    def _paint(self, scene: Scene, into: dict) -> set[int]:
        """Write the trails into a density map; returns the areas this module manages."""
        from fuego.rules.charts import Density

        current: set[int] = set()
        for src in sorted(self.trails):
            t = self.trails[src]
            fire = self._burning(scene, src)
            over = self.density_of(scene, fire) if fire is not None else t.density
            for i, d in [(src, over), *((j, t.density) for j in t.areas)]:
                if d <= 0:
                    continue
                if into.get(i, Density.NONE) < d:
                    into[i] = Density(d)
                current.add(i)
        owned = current | self._last
        self._last = current
        return owned

    def _repaint(self, scene: Scene) -> None:
        """Move the smoke now (a wind change or gusts at the start of a round)."""
        sf = scene.smoke
        if sf is None:
            return
        for i in self._last:
            sf.density.pop(i, None)
            sf.linger.pop(i, None)
        self._paint(scene, sf.density)

    # -- called by the wind module ---------------------------------------------------------------
    def wind_changed(self, scene: Scene) -> None:
        for src, t in self.trails.items():
            t.areas = self.path(scene, src)
        self._repaint(scene)

    def gust(self, scene: Scene) -> None:
        for src in sorted(self.trails):
            t = self.trails[src]
            t.density -= 1
            if t.density <= 0 and self._burning(scene, src) is None:
                del self.trails[src]
        self._repaint(scene)

    # -- saves -------------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {"trails": sorted([i, t.to_list()] for i, t in self.trails.items()),
                "last": sorted(self._last)}

    def load_state(self, state: dict[str, Any]) -> None:
        self.trails = {i: Trail(d, b, lg, list(a)) for i, (d, b, lg, a) in state["trails"]}
        self._last = set(state["last"])
