"""flame-and-blaze: every fire starts as a Flame and may become a Blaze (ASL B25.15, 25.6).

- A new fire is a **Flame** (``FireState.FLAME``): it takes no actions (so cannot spread, grow or
  break anything), makes no smoke and does not eat its fuel; heroes may stand in it (the core
  still burns them: a Flame is a fire). Fires in the scenario at the start are established
  Blazes unless ``start_as: flame``. A Flame placed this round cannot spread this round (it
  cannot spread at all until it is a Blaze).
- At the end of each round after the one it appeared in, each Flame rolls to become a **Blaze**
  (the ``blaze`` trigger: an ordinary burning fire). ASL's Blaze creation rule (25.151) is cut
  from the seed; fuego's reading: 2d6 + the weather DRM >= the number ASL's spreading table
  (25.6) gives the Flame's terrain (a wooden building 8, a stone one 9, woods 7, brush 6; 8 where
  the terrain has no row), or ``blaze_on`` when the scenario gives one. The wind does not count
  (25.64: wind direction does not affect Flames becoming Blazes).
- A Flame that someone tried to put out this round (smother, or a firefighting action) is
  Hampered (25.15) and cannot become a Blaze this round. A Blaze cannot be purposely
  extinguished (25.7): heroes are not offered ``smother`` on it (``smother_blazes: true``, the
  older reading, offers it). A Flame burns no one (25.1; ``flames_burn: true``, the older
  reading, lets it burn as a 7th Sea fire of its dice).
- Burning rubble (000 25.15's exception) starts as a Blaze: the structures module turns fires
  it drops into Blazes at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import TYPE_CHECKING, Any

from fuego.engine.fire import FireState, Trigger
from fuego.engine.rule_module import RuleModule
from fuego.modules import register
from fuego.modules.common import TERRAINS, Options, above, dr_text, note
from fuego.modules.ignition import ASL_SPREAD_NEEDED
from fuego.modules.terrain import terrain_of
from fuego.modules.weather import weather_drm
from fuego.modules.wind import Wind, WindForce

if TYPE_CHECKING:
    from fuego.engine.fire import Fire
    from fuego.engine.scene import Scene

# A Flame becomes a Blaze on 2d6 + DRM >= the Final DR column of ASL's spreading table
# (000 ASL 25.6, ``fuego.modules.ignition.ASL_SPREAD_NEEDED``): fuego's reading of the cut 25.151.
#: For terrain with no row in ASL's table: a wooden building's 8 (000 ASL 25.6).
DEFAULT_BLAZE_NEED = 8
#: Purposes of the rolls that count as an extinguishing attempt (core smother; firefighting).
EXTINGUISH_PURPOSES = frozenset({"smother fire"})


#: A Blaze or a burning wreck is shrouded by smoke up to four levels above it, two in a Mild
#: Breeze (000, ASL 25.2).
SMOKE_RISE_LEVELS = 4
SMOKE_RISE_LEVELS_MILD = 2


def rising_smoke(scene: Scene, sources: Iterable[int], new: dict[int, Any]) -> set[int]:
    """ASL 25.2: smoke over each of ``sources`` (Blazes, burning wrecks) up to four levels above
    (two in the wind module's mild breeze): [reading] the areas straight above on the levels
    over it, whatever floors lie between (ASL's hex is shrouded to that height), thin where no
    thicker smoke is. Returns the areas it shrouds."""
    from fuego.rules.charts import Density

    wind = scene.module(Wind)
    n = SMOKE_RISE_LEVELS_MILD if wind is not None and wind.force is WindForce.MILD_BREEZE \
        else SMOKE_RISE_LEVELS
    b = scene.building
    out: set[int] = set()
    for i in sources:
        for j in above(b, i, n):
            if wind is not None and wind.blows_away(scene, j):
                continue  # 25.63: no smoke in heavy winds where the wind blows
            new.setdefault(j, Density.THIN)
            out.add(j)
    return out


def blaze_need(scene: Scene, i: int) -> int:
    terrain = TERRAINS[terrain_of(scene, i)]
    return ASL_SPREAD_NEEDED.get(terrain.asl or "", DEFAULT_BLAZE_NEED)


def hampered(scene: Scene, i: int) -> bool:
    """Did anyone try to put out the fire in area ``i`` this round?"""
    name = scene.area_name(i)
    for e in reversed(scene.log):
        if e.round != scene.round:
            break
        d = e.data
        if d.get("target") != name:
            continue
        if d.get("purpose") in EXTINGUISH_PURPOSES or d.get("extinguish"):
            return True
    return False



class StartAs(str, Enum):
    """What the scenario's own fires start as (the ``start_as`` option)."""

    BLAZE = "blaze"
    FLAME = "flame"

@register
class FlameAndBlaze(RuleModule):
    name = "flame-and-blaze"
    end_order = 50
    source = "000 ASL 25.1, 25.15 (Flames), 25.6 (Blazes spread), 25.151 (cut: fuego's reading)"

    def __init__(self, options: dict[str, Any] | None = None):
        super().__init__(options)
        o = Options(self.name, options)
        self.start_as = StartAs(o.choice("start_as", tuple(s.value for s in StartAs),
                                         StartAs.BLAZE.value))
        self.blaze_on = o.integer("blaze_on", None, 2, 13)
        self.weather = o.boolean("weather", True)
        # ASL 25.1: a Flame has no effect of its own; true is the older reading (a 7th Sea fire
        # of one die burns whoever stands in it)
        self.flames_burn = o.boolean("flames_burn", False)
        # ASL 25.7: a Blaze cannot be purposely extinguished; true is the older reading
        self.smother_blazes = o.boolean("smother_blazes", False)
        # ASL 25.2: a Blaze's smoke rises up to four levels; false is the older reading
        self.rising_smoke = o.boolean("rising_smoke", True)
        o.done()

    def flame_harms(self, scene: Scene, fire: Fire) -> bool:
        return self.flames_burn

    def may_smother(self, scene: Scene, fire: Fire) -> bool:
        return self.smother_blazes or fire.state is FireState.FLAME

    def smoke_update(self, scene: Scene, field: Any, new: dict[int, Any]) -> set[int]:
        if not self.rising_smoke:
            return set()
        rising_smoke(scene, [i for i, f in sorted(scene.fires.items()) if f.can_spread], new)
        return set()  # it is the core's smoke: it lingers and clears as the core's does

    def starts_as_flame(self, scene: Scene, fire: Fire) -> bool:
        # every new fire is a Flame (ASL 25.15), but the scenario's own may start as Blazes
        return not (scene.round == 0 and self.start_as is StartAs.BLAZE)

    def end_of_round(self, scene: Scene) -> None:
        for i in sorted(scene.fires):
            fire = scene.fires[i]
            if fire.state is not FireState.FLAME or fire.born >= scene.round:
                continue
            name = scene.fire_name(fire)
            if hampered(scene, i):
                note(scene, self.name, "the Flame is hampered and does not become a Blaze",
                     i, name, hampered=True)
                continue
            need = self.blaze_on if self.blaze_on is not None else blaze_need(scene, i)
            drm = weather_drm(scene, i) if self.weather else 0
            a, c = scene.roller.dr()
            ok = a + c + drm >= need
            note(scene, self.name, f"Flame to Blaze: {dr_text((a, c), drm)} vs {need}"
                 + (" - it blazes up" if ok else " - still a Flame"), i, name, dice=[a, c],
                 drm=drm, need=need, success=ok)
            if ok:
                scene.lifecycle(fire, Trigger.BLAZE, "the Flame becomes a Blaze")

    def blaze_now(self, scene: Scene, fire: Fire, why: str) -> None:
        """Make a fire a Blaze at once (burning rubble)."""
        if fire.state is FireState.FLAME:
            scene.lifecycle(fire, Trigger.BLAZE, why)

