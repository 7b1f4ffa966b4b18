"""structures: burning buildings lose Construction Factor until they fall (Alpha Strike).

- Every indoor area with something to burn has a **Construction Factor** (CF): what holds it up,
  its beams, posts, joists and floor. fuego's reading: 4 per point of fuel (Resolve) plus its
  structural members (a wooden beam or post 10, a stone one 20, a large stone one 30). A scenario
  sets it per room or area with ``cf: {kitchen: 12, ground:C4: 30}`` or for all with
  ``default_cf``; outdoor terrain takes part only with ``outdoors: true`` (Alpha Strike's
  terrain factor).
- At the end of every round each Blaze takes 2 CF from its area (001: 2 points per turn; a
  Flame does nothing yet).
- At 0 CF the fire burns out (its fuel is gone) and the area **collapses**: its beams fail, its
  floor drops whoever stands there to the level below, and the floor above comes down on it
  (falling and debris by the core rules). With ``rubble_fire: true`` the burning rubble sets
  fuel below alight, at once a Blaze (000 ASL 25.15: fires spread by falling burning rubble are
  not Flames), with half the Fire Dice of the fire that brought it down.
- A Blaze in an area with no building or terrain factor behind it burns itself out at the end
  of the round after the one it started in (001: "the fire burns itself out after one turn"):
  an area with no CF here, outdoors (untracked) one whose terrain has no factor in Alpha
  Strike's terms (open ground, paving, rough, fields; woods, jungle and buildings have one).
  ``bare_burnout: false`` is the old reading (such a fire burns until its fuel is spent).
- Firefighters tearing the structure down (firefighting's ``tear-down``) take CF off too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fuego.engine.rule_module import RuleModule
from fuego.modules import register
from fuego.modules.common import TERRAINS, Options, collapse, note, outdoors, resolve_refs, unlit
from fuego.modules.flame_and_blaze import FlameAndBlaze
from fuego.modules.terrain import terrain_of
from fuego.world.places import Feature

if TYPE_CHECKING:
    from fuego.engine.scene import Scene

# -- tables ---------------------------------------------------------------------------------------
#: Fire reduces the Construction Factor of a building it touches by 2 per turn; at 0 the fire
#: burns out (001, Fire Damage to Buildings and Terrain).
CF_LOSS_PER_ROUND = 2
#: fuego's reading: CF per point of the area's fuel, and per structural member (003 features).
CF_PER_FUEL = 4
CF_BEAM = {Feature.WOODEN_BEAM: 10, Feature.STONE_BEAM: 20, Feature.LARGE_STONE_BEAM: 30}
#: Fire Dice of the burning rubble that falls on fuel below (half a collapsing fire, at least 1,
#: as any new fire from another: RULES-NOTES).
RUBBLE_FD_DIVISOR = 2
#: Alpha Strike fire-table columns whose terrain has a factor of its own (001: a building's CF,
#: woods' and jungle's terrain factor; fuego reads industrial as a building): a fire elsewhere,
#: with no CF, burns itself out after one turn.
FACTOR_COLUMNS = frozenset({"woods", "jungle", "building", "industrial"})


def default_cf(scene: Scene, i: int) -> int:
    area = scene.building.areas[i]
    return CF_PER_FUEL * area.fuel + sum(v for f, v in CF_BEAM.items() if f in area.features)


@register
class Structures(RuleModule):
    name = "structures"
    end_order = 20
    source = "001 Alpha Strike, Fire Damage to Buildings and Terrain (CF -2 a turn, burn-out)"

    def __init__(self, options: dict[str, Any] | None = None):
        super().__init__(options)
        o = Options(self.name, options)
        cf = o.mapping("cf")
        for k, v in cf.items():
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 1000:
                raise o.error(f"cf.{k}", f"expected a whole number from 0 to 1000, got {v!r}")
        self.cf_refs = cf
        self.default = o.integer("default_cf", None, 0, 1000)
        self.per_round = o.integer("per_round", CF_LOSS_PER_ROUND, 1, 100)
        self.include_outdoors = o.boolean("outdoors", False)
        self.collapse = o.boolean("collapse", True)
        self.rubble_fire = o.boolean("rubble_fire", False)
        self.bare_burnout = o.boolean("bare_burnout", True)
        o.done()
        self.cf: dict[int, int] = {}
        self._ready = False

    def setup(self, scene: Scene) -> None:
        """Every area's CF (before round 1; idempotent)."""
        if self._ready:
            return
        b = scene.building
        given = resolve_refs(b, self.cf_refs, self.name, "cf")
        for area in b.areas:
            i = area.index
            if outdoors(b, i) and not self.include_outdoors and i not in given:
                continue
            if i in given:
                value = given[i]
            elif self.default is not None:
                value = self.default if area.fuel > 0 else 0
            else:
                value = default_cf(scene, i)
            if value > 0:
                self.cf[i] = value
        self._ready = True

    def scene_start(self, scene: Scene) -> None:
        self.setup(scene)

    def end_of_round(self, scene: Scene) -> None:
        self.setup(scene)
        for i in sorted(scene.fires):
            fire = scene.fires.get(i)
            if fire is None or not fire.can_spread:
                continue
            if i in self.cf:
                self.damage(scene, i, self.per_round, "the fire eats the structure")
            elif self.bare_burnout and fire.born < scene.round and not self.has_factor(scene, i):
                scene.extinguish(fire, "no building or terrain factor to keep it burning",
                                 burned_out=True)

    def has_factor(self, scene: Scene, i: int) -> bool:
        """Is there a building or terrain factor behind a fire in area ``i``? Its CF where the
        module keeps one; outdoors, where it does not, its terrain's Alpha Strike column."""
        self.setup(scene)
        if i in self.cf:
            return True
        if outdoors(scene.building, i) and not self.include_outdoors:
            return TERRAINS[terrain_of(scene, i)].alpha in FACTOR_COLUMNS
        return False

    def damage(self, scene: Scene, i: int, points: int, why: str, by: str | None = None) -> None:
        """Take ``points`` CF off area ``i``; at 0 its fire burns out and it collapses."""
        self.setup(scene)
        if i not in self.cf:
            return
        self.cf[i] = max(0, self.cf[i] - points)
        fire = scene.fires.get(i)
        note(scene, self.name, f"{scene.area_name(i)} loses {points} CF ({why}): "
             f"{self.cf[i]} left", i, by or (scene.fire_name(fire) if fire else None),
             cf=self.cf[i], loss=points, why=why)
        if self.cf[i] > 0:
            return
        del self.cf[i]
        fd = fire.fd if fire is not None else 1
        if fire is not None:
            scene.extinguish(fire, "the structure burned down", burned_out=True)
        else:
            scene.building.burn_out(i)
        if self.collapse:
            self._collapse(scene, i, fd)

    def _collapse(self, scene: Scene, i: int, fd: int) -> None:
        from fuego.engine.scene import Cause

        b = scene.building
        collapse(scene, i, fd, "its structure burned through", self.name)
        below = b.vertical_neighbour(i, up=False)
        if not self.rubble_fire or below is None or not unlit(scene, below[0]):
            return
        new = scene.start_fire(below[0], max(1, fd // RUBBLE_FD_DIVISOR), Cause.DEBRIS,
                               module=self.name, why="burning rubble falls")
        fab = scene.module(FlameAndBlaze)
        if new is not None and fab is not None:
            fab.blaze_now(scene, new, "burning rubble (ASL 25.15: not a Flame)")

    def cf_left(self, i: int) -> int | None:
        return self.cf.get(i)

    def state(self) -> dict[str, Any]:
        return {"cf": sorted([i, v] for i, v in self.cf.items()), "ready": self._ready}

    def load_state(self, state: dict[str, Any]) -> None:
        self.cf = {i: v for i, v in state["cf"]}
        self._ready = state["ready"]

