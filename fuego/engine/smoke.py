"""Smoke (003, Smoke [Optional]), read area by area.

fuego's reading (docs/rules.md, Smoke):

- A fire that smokes covers four times its own area: the four areas nearest to it (its own
  first), reached through passable barriers; ties go to the lower area index. Nearest is counted
  in moves, so smoke rounds corners and stairs but not closed doors or intact walls.
- If none of the areas it can reach vents (an outdoor area, or an open window or broken barrier
  to outside), however far (the one answer breath reads too: ``Paths.vents``), the smoke
  cannot dissipate: at the end of each round it covers one more area (the
  fire's own area). Where it vents, it stays at four; what it had piled up beyond that clears
  like smoke whose fire is out.
- Smoke is thick where any fire covering the area burns wet or smoky fuel or gunpowder; thin
  otherwise.
- Smoke left behind (no burning fire's smoke covers it) clears after 1-5 rounds by wind
  (RULES-NOTES), fire by fire: "once a fire is put out the smoke it produced dissipates" (003),
  whatever other fires burn in the room; they keep their own. ``rules.smoke_clears: room``, the
  older reading, starts the countdown only once no fire burns in that room (or where the smoke
  has a way out to open air).
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING

from fuego.engine.events import EventKind
from fuego.engine.fire import ACTING
from fuego.rules.charts import SMOKE_AREA_FACTOR, SMOKE_DISSIPATE_ROUNDS, Density
from fuego.rules.settings import SmokeClears
from fuego.world.building import Building

if TYPE_CHECKING:
    from fuego.engine.fire import Fire
    from fuego.engine.scene import Scene


#: The words the log gives each density (``smoke``'s ``areas``).
SMOKE_WORDS = {Density.NONE: "clear", Density.THIN: "thin", Density.THICK: "thick"}


class SmokeField:
    """Smoke density per area, recomputed at the end of every round from the fires."""

    __slots__ = ("building", "density", "linger")

    def __init__(self, building: Building):
        self.building = building
        self.density: dict[int, Density] = {}  # area -> density (absent: clear air)
        self.linger: dict[int, int] = {}  # area -> rounds left for smoke whose fire is out

    def at(self, i: int) -> Density:
        return self.density.get(i, Density.NONE)

    # -- the rule ---------------------------------------------------------------------------
    def update(self, scene: Scene) -> None:
        """End-of-round smoke: grow, spread, vent, linger and clear; emits one SMOKE event."""
        new = self._spread(scene, self._smokers(scene))
        owned: set[int] = set()  # areas whose smoke a module manages: no core lingering
        # in the modules' end-of-round order, so the wind acts on the core's smoke before the
        # modules that lay their own (the listing changes nothing)
        modules = scene.modules
        for m in sorted(modules, key=lambda m: m.end_order) if len(modules) > 1 else modules:
            owned |= m.smoke_update(scene, self, new) or set()
        linger, cleared = self._linger(scene, new, owned)
        old = self.density
        self.density, self.linger = new, linger
        self._log(scene, old, new, cleared)

    @staticmethod
    def _smokers(scene: Scene) -> list[Fire]:
        """The fires whose smoke the core lays: acting ones (a Flame makes none), unless a
        module places a fire's smoke itself (drifting-smoke)."""
        smokers = [f for f in scene.fires.values() if f.state in ACTING]
        modules = scene.modules
        if modules:
            smokers = [f for f in smokers if not any(m.smoke_claims(scene, f) for m in modules)]
        return smokers

    def _spread(self, scene: Scene, smokers: list[Fire]) -> dict[int, Density]:
        """Each fire's smoke grows (enclosed) or stays (vented) and covers its nearest areas:
        thin wherever some fire's smoke reaches, thick where a thick smoker's does; the areas
        in the order first reached."""
        b = self.building
        areas = b.areas
        asks = [(f.area, f.smoke or SMOKE_AREA_FACTOR) for f in smokers]
        # where smoke from an area goes depends only on the barriers: the building's paths
        # keep each area's nearest areas, and say whether its air vents (Paths.smoke_reach)
        got = b.paths.smoke_reach(asks)
        for fire, (_, cover), (_, vents) in zip(smokers, asks, got):
            # Enclosed smoke grows by the fire's area each round; vented smoke stays at four.
            fire.smoke = SMOKE_AREA_FACTOR if vents else cover + 1
        covers = [covered for covered, _ in got]  # each smoking fire's areas, in their order
        thick_covers = [covered for fire, (covered, _) in zip(smokers, got)
                        if areas[fire.area].thick_smoke]
        # (a big fire covers tens of thousands of areas: made as whole dicts)
        new = dict.fromkeys(chain.from_iterable(covers), Density.THIN)
        if thick_covers:
            new.update(dict.fromkeys(chain.from_iterable(thick_covers), Density.THICK))
        return new

    def _linger(self, scene: Scene, new: dict[int, Density],
                owned: set[int]) -> tuple[dict[int, int], list[int]]:
        """Smoke no fire covers now lingers its rounds, then clears: kept in ``new``; the
        rounds each lingering area has left, and the areas cleared."""
        linger: dict[int, int] = {}
        cleared: list[int] = []
        left_behind = [i for i in self.density if i not in new and i not in owned]
        if not left_behind:
            return linger, cleared
        b, settings = self.building, scene.settings
        areas = b.areas
        rounds = SMOKE_DISSIPATE_ROUNDS[settings.wind]
        # Fire by fire (003): no burning fire's smoke covers these areas now, so the fire
        # that made it is out (or it vents): it clears whatever else burns in the room.
        # The older reading waited for the room's last fire (smoke_clears: room).
        burning_rooms = ({areas[i].room for i in scene.fires}
                         if settings.smoke_clears is SmokeClears.ROOM else set())
        for i in left_behind:
            left = self.linger.get(i, rounds)
            if areas[i].room not in burning_rooms or b.vents_from(i):
                left -= 1  # its fire is out, or the smoke piled up here has a way out now
            if left > 0:
                new[i] = self.density[i]
                linger[i] = left
            else:
                cleared.append(i)
        return linger, cleared

    def _log(self, scene: Scene, old: dict[int, Density], new: dict[int, Density],
             cleared: list[int]) -> None:
        """The round's ``smoke`` event: every area whose smoke changed, in area order (issue
        18: the log shows smoke by area); ``smoke-cleared`` when the last of it is gone."""
        if not scene.logs(EventKind.SMOKE):
            changed = []  # (a forecast's log that does not keep it: its areas not looked at)
        else:
            changed = sorted([i for i, d in new.items() if old.get(i) is not d]
                             + [i for i in old if i not in new])
        if changed:
            now = list(new.values())
            rooms = sorted({self.building.areas[i].room for i in new})
            scene.emit(EventKind.SMOKE, None, None, thin=now.count(Density.THIN),
                       thick=now.count(Density.THICK), rooms=rooms, cleared=len(cleared),
                       areas={scene.area_name(i): SMOKE_WORDS[new.get(i, Density.NONE)]
                              for i in changed})
        if cleared and not new:
            scene.emit(EventKind.SMOKE_CLEARED, None, None)

    def disperse(self, scene: Scene, areas: list[int], why: str) -> list[int]:
        """Thin the smoke in ``areas`` one step at once (ASL 25.651: a gust eliminates dispersed
        smoke and disperses the rest): thin clears, thick turns thin. One ``smoke`` event names
        what changed; returns those areas."""
        changed = []
        for i in areas:
            d = self.density.get(i, Density.NONE)
            if d is Density.THICK:
                self.density[i] = Density.THIN
            elif d is Density.THIN:
                del self.density[i]
                self.linger.pop(i, None)
            else:
                continue
            changed.append(i)
        if changed:
            now = list(self.density.values())
            b = self.building
            scene.emit(EventKind.SMOKE, None, None, thin=now.count(Density.THIN),
                       thick=now.count(Density.THICK),
                       rooms=sorted({b.areas[i].room for i in self.density}),
                       cleared=sum(1 for i in changed if i not in self.density),
                       areas={scene.area_name(i): SMOKE_WORDS[self.at(i)] for i in changed},
                       why=why)
            if not self.density:
                scene.emit(EventKind.SMOKE_CLEARED, None, None)
        return changed

    def room_filled(self, room: str) -> bool:
        areas = self.building.room_areas(room)
        return bool(areas) and all(i in self.density for i in areas)

    # -- state ---------------------------------------------------------------------------------
    def state(self) -> dict:
        return {
            "density": sorted([i, int(d)] for i, d in self.density.items()),
            "linger": sorted([i, n] for i, n in self.linger.items()),
        }

    def load_state(self, state: dict) -> None:
        self.density = {i: Density(d) for i, d in state["density"]}
        self.linger = {i: n for i, n in state["linger"]}

