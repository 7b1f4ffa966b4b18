"""wind: force, direction, changes, gusts and collapse (ASL B25.63-25.66), Alpha Strike's arc.

- **Force** is ASL's: none, mild-breeze, heavy-winds (rolled on a dr when not given, 25.63).
  Where Alpha Strike asks for a "wind force level" fuego uses 0, 1, 2 for them.
- **Direction**: one of the 8 compass points (docs/modules.md, "Directions"); ``direction:``
  names where the wind comes *from*, as a scenario's ``weather.direction`` does (a north wind
  blows fire and smoke south). Rolled on a d8 when the wind rises and none is known (25.64's d6
  picks one of a hex's six grains; a square grid has eight).
- **Downwind** is Alpha Strike's 120-degree arc: the three areas ahead of a fire; 120 degrees or
  more off the wind is upwind (three areas behind), the two beside it crosswind.
- **Change check** at the start of every round (25.65): a 2d6 of 2 changes the wind by a d6 on the
  change table; a 12 brings gusts (25.651) and a collapse (25.66).
- **Where it acts**: on fires burning in outdoor areas; a fire indoors does not feel its force
  or direction (25.63, 25.64: not within a building) - except a gust's (25.63 "[EXC: Gusts]"):
  gusts carry indoor Blazes too (``gusts_indoors``).
- **Mild breeze**: the Wind Direction DRM (downwind +1, crosswind 0, upwind -1; ASL's diagram is
  not in the seed, fuego's reading follows Alpha Strike's "From Downwind +1") changes an outdoor
  fire's leap and burn-through TNs by 5 per point and ASL spreading rolls (ignition) by the DRM.
  In a mild breeze only (25.63's table: the DRM is a Mild Breeze result).
- **Heavy winds**: at each round's end an outdoor Blaze sets a 1-die fire (a Flame with
  flame-and-blaze) in every burnable area of its downwind arc next to it, and cannot spread to
  anything else: its crosswind and upwind leaps and burn-throughs are not offered; its downwind
  ones keep their TN (no direction DRM; ``heavy_drm`` gives it back).
- **Gusts**: that round one Blaze with unburnt fuel two areas downwind (several on doubles of a
  Random Selection DR) spreads two areas: 1-die fires in both, indoors as outdoors (25.63's
  exception; 25.1: a building is burnable terrain). Gusts thin drifting smoke.
- **Collapse**: on a change check of 12 one indoor area holding a Blaze (Random Selection) and
  every level above it collapses (debris, falls; the fire burns on in the rubble).
- **Jumps** (Alpha Strike): an outdoor Blaze whose way downwind is barred by ground that cannot
  burn may jump up to 2 areas x force to the nearest burnable area in its downwind arc: 2d6 +
  weather DRM against that area's intentional fire-starting target + 1 (spreading) + 3 per 2
  areas jumped + the wind-force modifier.
"""

from __future__ import annotations

import math
from enum import Enum
from typing import TYPE_CHECKING, Any

from fuego.engine.events import EventKind
from fuego.engine.fire_actions import ActionKind
from fuego.engine.rule_module import RuleModule
from fuego.modules import register
from fuego.modules.common import (
    DIRECTIONS,
    VECTORS,
    Options,
    WindSide,
    around,
    collapse,
    delta,
    dr_text,
    line,
    note,
    opposite,
    outdoors,
    side,
    step,
    turn,
    unlit,
)
from fuego.modules.terrain import alpha_target, terrain_of
from fuego.modules.weather import weather_drm
from fuego.rules.charts import Wind as CoreWind
from fuego.words import plural

if TYPE_CHECKING:
    from fuego.engine.fire import Fire
    from fuego.engine.scene import Scene
    from fuego.world.building import Building

# -- tables ---------------------------------------------------------------------------------------
class WindForce(str, Enum):
    """ASL's wind forces, weakest first (their values are the words scenarios, logs and saves
    use)."""

    NONE = "none"
    MILD_BREEZE = "mild-breeze"
    HEAVY_WINDS = "heavy-winds"


FORCES = tuple(WindForce)
#: Wind Force dr (000, ASL 25.63): 1-3 no wind, 4-5 mild breeze, 6 heavy winds.
WIND_FORCE_DR = {1: WindForce.NONE, 2: WindForce.NONE, 3: WindForce.NONE,
                 4: WindForce.MILD_BREEZE, 5: WindForce.MILD_BREEZE, 6: WindForce.HEAVY_WINDS}
#: The change check (000, ASL 25.65, 25.651, 25.66): a DR of 2 changes the wind, 12 gusts.
CHANGE_ON = 2
GUSTS_ON = 12
class Change(str, Enum):
    """What a Wind Change dr changes."""

    DIRECTION = "direction"
    FORCE = "force"


#: Wind Change dr (000, ASL 25.65): compass points clockwise (+) or counter-clockwise (-), or a
#: change of force by one level. Beyond no wind or heavy winds it becomes a mild breeze instead.
WIND_CHANGE: dict[int, tuple[Change, int]] = {
    1: (Change.DIRECTION, +1),
    2: (Change.DIRECTION, +2),
    3: (Change.DIRECTION, -1),
    4: (Change.DIRECTION, -2),
    5: (Change.FORCE, +1),
    6: (Change.FORCE, -1),
}


class ForceFrom(str, Enum):
    """The ``force`` option's words besides a force: rolled at the scene's start (25.63), or
    the core rules' wind (``rules.wind``)."""

    RANDOM = "random"
    SETTINGS = "settings"


#: The ``direction`` option's word for a direction rolled at the start (upper-cased, as
#: directions are read).
RANDOM_DIRECTION = "RANDOM"
#: fuego's reading: ASL's forces as Alpha Strike wind force levels.
ALPHA_FORCE = {WindForce.NONE: 0, WindForce.MILD_BREEZE: 1, WindForce.HEAVY_WINDS: 2}
#: Wind Direction DRM in a mild breeze (000, ASL 25.64's diagram is not in the seed: fuego's
#: reading, one point either way as Alpha Strike's "From Downwind +1", 001).
DIRECTION_DRM = {WindSide.DOWNWIND: 1, WindSide.CROSSWIND: 0, WindSide.UPWIND: -1}
#: Alpha Strike (001, Spreading Fires): a spread is an intentional fire-starting check +1; a fire
#: may jump over ground that cannot burn up to 2 inches x wind force, at +3 (the fire table's
#: "Across Water/Paved terrain +3 (per 2" distance)").
SPREAD_MODIFIER = 1
JUMP_AREAS_PER_FORCE = 2
JUMP_MODIFIER_PER_2 = 3
#: Alpha Strike's wind force target modifier (001, Condition Target Modifier: force 2 +1, 3 +2,
#: 4 +4; lower forces 0).
WIND_TARGET_MODIFIER = {0: 0, 1: 0, 2: 1, 3: 2, 4: 4}
#: Fire Dice of a fire the wind carries: a Flame, the smallest fire (000 25.63; 003's leap).
CARRIED_FD = 1
#: The scenario's wind words (weather.wind, the script's wind effect) as ASL forces (reading).
FROM_CORE_WIND = {"calm": WindForce.NONE, "light": WindForce.MILD_BREEZE,
                  "moderate": WindForce.MILD_BREEZE, "strong": WindForce.HEAVY_WINDS,
                  "gale": WindForce.HEAVY_WINDS}
#: The scene's wind word a force rolled by the module gives it, where its word meant another
#: force (the first of FROM_CORE_WIND's words for each: the smoke clears by it).
WORD_OF_FORCE = {force: next(w for w, f in FROM_CORE_WIND.items() if f is force)
                 for force in WindForce}
TN_PER_DRM = 5


def wind_words(force: str | None, strength: str | None = None,
               origin: str | None = None) -> str | None:
    """The wind in words, for the GM and the players alike (None: no wind): the scenario's word
    for it (``weather.wind``, the script's ``wind``) where it has one, and the wind module's
    force beside it where the module plays one (``moderate (mild breeze) from the W``)."""
    words = [str(getattr(w, "value", w)).replace("-", " ") for w in (strength, force)
             if w is not None and w not in (WindForce.NONE, CoreWind.CALM)]
    if not words:
        return None
    text = f"{words[0]} ({words[1]})" if len(words) == 2 else words[0]
    return text + (f" from the {origin}" if origin else "")


def force_change(force: WindForce, by: int) -> WindForce:
    """One level up or down; past either end it becomes a mild breeze (25.65 *)."""
    k = FORCES.index(force) + by
    return FORCES[k] if 0 <= k < len(FORCES) else WindForce.MILD_BREEZE


@register
class Wind(RuleModule):
    name = "wind"
    end_order = 30
    source = "000 ASL 25.63-25.66 (wind force, direction, changes, gusts, collapse); " \
             "001 Alpha Strike Spreading Fires (downwind arc, jumps)"

    def __init__(self, options: dict[str, Any] | None = None):
        super().__init__(options)
        o = Options(self.name, options)
        self.force_option = o.choice("force", (*(f.value for f in FORCES),
                                               *(f.value for f in ForceFrom)),
                                     ForceFrom.RANDOM.value)
        raw = o.get("direction", "random")
        d = raw.strip().upper() if isinstance(raw, str) else raw
        if d != RANDOM_DIRECTION and d not in DIRECTIONS:
            raise o.error("direction", f"expected one of {', '.join(DIRECTIONS)} or random, "
                          f"got {raw!r}")
        self.direction_option = None if d == RANDOM_DIRECTION else d
        self.changes = o.boolean("changes", True)
        self.gusts = o.boolean("gusts", True)
        self.collapse = o.boolean("collapse", True)
        self.heavy_spread = o.boolean("heavy_spread", True)
        self.jumps = o.boolean("jumps", True)
        # 001, Spreading Fires: "Fires may not spread unless there is a wind direction", and
        # then into the 120-degree arc downwind; false is the older reading (ASL's spreading
        # every way, the breeze's DRM on it)
        self.arc_only = o.boolean("arc_only", True)
        # 000 25.63: gusts are the exception to "wind force does not affect fire spreading
        # within a building"; false is the old reading (gusts outdoors only).
        self.gusts_indoors = o.boolean("gusts_indoors", True)
        # 000 25.63's table gives the direction DRM to a Mild Breeze only; true is the old
        # reading (heavy winds' downwind leaps get it too).
        self.heavy_drm = o.boolean("heavy_drm", False)
        # 000 25.63 "Smoke has no effect ... while Heavy Winds are in effect", 25.651 a gust
        # disperses smoke; false is the older reading (the wind leaves the core's smoke alone)
        self.smoke = o.boolean("smoke", True)
        o.done()
        self.force = WindForce.NONE if self.force_option in tuple(ForceFrom) \
            else WindForce(self.force_option)
        self.origin: str | None = self.direction_option  # where the wind comes from
        self.gust_round = -1
        self._blazes: dict[int, int] = {}  # area -> fire id of the Blazes at the round's start

    # -- the wind now -------------------------------------------------------------------------
    @property
    def blowing_to(self) -> str | None:
        if self.force is WindForce.NONE or self.origin is None:
            return None
        return opposite(self.origin)

    @property
    def level(self) -> int:
        """Alpha Strike's wind force level."""
        return ALPHA_FORCE[self.force]

    def strength(self, scene: Scene) -> str | None:
        """The scene's word for the wind (``calm`` ... ``gale``, its settings) while it is this
        force (the module's own rolls keep it so: :meth:`_follow`)."""
        word = scene.settings.wind.value
        return word if FROM_CORE_WIND.get(word) is self.force else None

    def _follow(self, scene: Scene) -> None:
        """The scene's wind word made this force's where it is another's: the core's smoke
        clears by that word (003's smoke table), so a force rolled or changed by the module
        blows the smoke away as it blows the fire. A word that means this force stays (a gale
        is heavy winds); another becomes the force's first word (:data:`WORD_OF_FORCE`)."""
        if FROM_CORE_WIND.get(scene.settings.wind.value) is not self.force:
            scene.settings.wind = CoreWind(WORD_OF_FORCE[self.force])

    def describe(self, scene: Scene) -> str:
        return wind_words(self.force, self.strength(scene), self.origin) or "no wind"

    def side_of(self, scene: Scene, src: int, dst: int) -> WindSide | None:
        """Where ``dst`` lies from a fire at ``src`` against the wind, or None where the wind
        does not act (no wind, or the fire is indoors)."""
        to = self.blowing_to
        if to is None or not outdoors(scene.building, src):
            return None
        dx, dy = delta(scene.building, src, dst)
        return side(dx, dy, to)

    def asl_drm(self, scene: Scene, src: int, dst: int) -> int | None:
        """The Wind Direction DRM on an ASL spreading DR from ``src`` to ``dst``; None: the
        wind forbids it (heavy winds carry fire downwind themselves and nowhere else)."""
        s = self.side_of(scene, src, dst)
        if s is None:
            return None if (self.arc_only and outdoors(scene.building, src)) else 0
        if self.force is WindForce.HEAVY_WINDS:
            return None
        if self.arc_only and s is not WindSide.DOWNWIND:
            return None
        return DIRECTION_DRM.get(s, 0)

    def target_modifier(self) -> int:
        """Alpha Strike's wind force modifier on a fire-starting target."""
        return WIND_TARGET_MODIFIER[self.level]

    # -- hooks --------------------------------------------------------------------------------
    def scene_start(self, scene: Scene) -> None:
        data: dict[str, Any] = {}
        if self.force_option == ForceFrom.RANDOM:
            dr = scene.roller.d6()
            self.force = WIND_FORCE_DR[dr]
            data["force_dr"] = dr
        elif self.force_option == ForceFrom.SETTINGS:
            self.force = FROM_CORE_WIND[scene.settings.wind.value]
        self._follow(scene)
        if self.force is not WindForce.NONE and self.origin is None:
            data["direction_d8"] = self._roll_direction(scene)
        self._announce(scene, f"The wind: {self.describe(scene)}", **data)

    def _roll_direction(self, scene: Scene) -> int:
        d8 = scene.roller.die(8)
        self.origin = DIRECTIONS[d8 - 1]
        return d8

    def _announce(self, scene: Scene, text: str, **data: Any) -> None:
        strength = self.strength(scene)
        if strength is not None:  # (the players' screen words it as the GM's line does)
            data["strength"] = strength
        note(scene, self.name, text, kind=EventKind.WIND, force=self.force,
             direction=self.origin if self.force is not WindForce.NONE else None, **data)

    def round_start(self, scene: Scene) -> None:
        self._blazes = {i: f.id for i, f in scene.fires.items()
                        if f.can_spread and f.born < scene.round}
        if not self.changes:
            return
        a, b = scene.roller.dr()
        total = a + b
        if total == CHANGE_ON:
            self._change(scene, (a, b))
        elif total == GUSTS_ON:
            self._gusts(scene, (a, b))
        else:
            note(scene, self.name, f"wind change check {dr_text((a, b))}: no change",
                 kind=EventKind.WIND, check=[a, b], force=self.force,
                 direction=self.origin if self.force is not WindForce.NONE else None)

    def _change(self, scene: Scene, check: tuple[int, int]) -> None:
        roll = scene.roller.d6()
        what, by = WIND_CHANGE[roll]
        before = self.describe(scene)
        data: dict[str, Any] = {"check": list(check), "change_dr": roll}
        if what is Change.FORCE:
            self.force = force_change(self.force, by)
            self._follow(scene)
            if self.force is WindForce.NONE:
                self.origin = None  # 25.64: the direction lasts until there is no wind
            elif self.origin is None:
                data["direction_d8"] = self._roll_direction(scene)
        elif self.force is not WindForce.NONE and self.origin is not None:
            self.origin = turn(self.origin, by)  # turning the source turns the wind alike
        self._announce(scene, f"The wind changes ({dr_text(check)}, dr {roll}): {before} -> "
                       f"{self.describe(scene)}", **data)
        for m in scene.modules:  # (the drifting smoke: it reads the wind)
            m.wind_changed(scene)

    def _gusts(self, scene: Scene, check: tuple[int, int]) -> None:
        self.gust_round = scene.round
        self._announce(scene, f"Gusts ({dr_text(check)})!", check=list(check), gusts=True)
        for m in scene.modules:  # (the drifting smoke: it reads the wind)
            m.gust(scene)
        if self.smoke and scene.smoke is not None:
            # 25.651: dispersed smoke gone, the rest dispersed, but never the smoke over a
            # Blaze that comes from it (the burning fire's own area); indoors too where gusts
            # blow indoors (25.63's exception)
            b = scene.building
            areas = [i for i in sorted(scene.smoke.density)
                     if not (i in scene.fires and scene.fires[i].can_spread)
                     and (self.gusts_indoors or outdoors(b, i))]
            scene.smoke.disperse(scene, areas, "gusts")
        if self.collapse:
            b = scene.building
            burning = [i for i in sorted(scene.fires)
                       if scene.fires[i].can_spread and not outdoors(b, i)]
            if burning:
                i = scene.roller.choice(burning)
                collapse(scene, i, scene.fires[i].fd, "gusts bring the burning structure down",
                         self.name, upward=True)

    def blows_away(self, scene: Scene, i: int) -> bool:
        """Does the wind blow the smoke in area ``i`` away now (heavy winds, outdoors)?"""
        return self.smoke and self.force is WindForce.HEAVY_WINDS and outdoors(scene.building, i)

    def smoke_update(self, scene: Scene, field: Any, new: dict[int, Any]) -> set[int]:
        """Heavy winds: smoke has no effect (25.63). [reading] Where the wind blows, outdoors
        (it does not act within a building, 25.63), the smoke is blown away at each round's end
        before the modules that lay their own (drifting-smoke's trails keep Alpha Strike's
        numbers)."""
        if not self.smoke or self.force is not WindForce.HEAVY_WINDS:
            return set()
        gone = {i for i in new if self.blows_away(scene, i)} | \
            {i for i in field.density if self.blows_away(scene, i)}
        for i in gone:
            new.pop(i, None)
        return gone

    def spread_tn(self, scene: Scene, fire: Fire, target: int, tn: int,
                  how: ActionKind) -> int | None:
        if tn is None or how is ActionKind.GROW:
            return tn
        s = self.side_of(scene, fire.area, target)
        if s is None:
            if self.arc_only and outdoors(scene.building, fire.area):
                return None  # 001: no wind, no spreading outdoors
            return tn
        if self.force is WindForce.HEAVY_WINDS and s is not WindSide.DOWNWIND:
            return None
        if self.arc_only and s is not WindSide.DOWNWIND:
            return None
        if self.force is not WindForce.MILD_BREEZE and not self.heavy_drm:
            return tn  # heavy winds: automatic downwind, no DRM (25.63)
        return max(min(tn, 5), tn - TN_PER_DRM * DIRECTION_DRM.get(s, 0))

    def end_of_round(self, scene: Scene) -> None:
        to = self.blowing_to
        if to is None:
            return
        blazes = [scene.fires[i] for i in sorted(self._blazes)
                  if i in scene.fires and scene.fires[i].id == self._blazes[i]
                  and scene.fires[i].can_spread]
        outside = [f for f in blazes if outdoors(scene.building, f.area)]
        if self.force is WindForce.HEAVY_WINDS and self.heavy_spread:
            for fire in outside:
                self._heavy(scene, fire, to)
        if self.gusts and self.gust_round == scene.round:
            self._gust_spread(scene, blazes if self.gusts_indoors else outside, to)
        if self.jumps:
            for fire in outside:
                if scene.fires.get(fire.area) is fire:
                    self._jump(scene, fire, to)

    # -- what the wind does to fire --------------------------------------------------------------
    def _carry(self, scene: Scene, fire: Fire, j: int, why: str) -> None:
        from fuego.engine.scene import Cause

        scene.start_fire(j, CARRIED_FD, Cause.MODULE, source=fire, module=self.name, why=why)

    def _heavy(self, scene: Scene, fire: Fire, to: str) -> None:
        """25.63: heavy winds set the areas downwind alight, no roll."""
        for j, dx, dy in around(scene.building, fire.area):
            if side(dx, dy, to) is WindSide.DOWNWIND and unlit(scene, j):
                self._carry(scene, fire, j, "heavy winds carry the fire downwind")

    def _gust_spread(self, scene: Scene, blazes: list[Fire], to: str) -> None:
        """25.651: at least one Blaze spreads two areas downwind (Random Selection)."""
        b = scene.building
        dx, dy = VECTORS[to]
        eligible = []
        for fire in blazes:
            path = _gust_path(b, fire.area, dx, dy)
            if any(unlit(scene, j) for j in path):
                eligible.append((fire, path))
        if not eligible:
            return
        a, c = scene.roller.dr()
        chosen = eligible if a == c else [scene.roller.choice(eligible)]
        note(scene, self.name, f"gusts: random selection {dr_text((a, c))}"
             + (" (doubles: every Blaze)" if a == c else ""), check=[a, c],
             fires=[scene.fire_name(f) for f, _ in chosen])
        for fire, path in chosen:
            for j in path:
                if unlit(scene, j):
                    self._carry(scene, fire, j, "a gust carries the fire two areas")

    def jump_target(self, scene: Scene, fire: Fire, to: str) -> tuple[int, int] | None:
        """Nearest burnable area in the downwind arc beyond ground that cannot burn, within
        2 x force areas: (area, areas jumped over)."""
        b = scene.building
        reach = JUMP_AREAS_PER_FORCE * self.level
        src = b.areas[fire.area]
        best = None
        for dist in range(2, reach + 1):
            for dy in range(-dist, dist + 1):
                for dx in range(-dist, dist + 1):
                    if max(abs(dx), abs(dy)) != dist or side(dx, dy, to) is not WindSide.DOWNWIND:
                        continue
                    j = b.at(src.level, src.col + dx, src.row + dy)
                    if j is None or not unlit(scene, j):
                        continue
                    between = [b.at(src.level, src.col + x, src.row + y) for x, y in line(dx, dy)]
                    if any(k is not None and b.areas[k].burnable for k in between):
                        continue  # fuel on the way: the fire spreads there first
                    key = (dist, dx * dx + dy * dy, j)
                    if best is None or key < best[0]:
                        best = (key, j, len(between))
            if best is not None:
                return best[1], best[2]
        return None

    def _jump(self, scene: Scene, fire: Fire, to: str) -> None:
        found = self.jump_target(scene, fire, to)
        if found is None:
            return
        j, gap = found
        base = alpha_target(scene, j, intentional=True)
        if base is None:
            return
        target = (base + SPREAD_MODIFIER + JUMP_MODIFIER_PER_2 * math.ceil(gap / 2)
                  + self.target_modifier())
        drm = weather_drm(scene, j)
        a, c = scene.roller.dr()
        ok = a + c + drm >= target
        note(scene, self.name, f"the fire tries to jump {plural(gap, 'area')} on the wind to "
             f"{scene.area_name(j)}: {dr_text((a, c), drm)} vs {target} "
             f"({terrain_of(scene, j)})" + (" - it catches" if ok else ""), fire.area,
             scene.fire_name(fire), dice=[a, c], drm=drm, need=target, success=ok,
             to=scene.area_name(j))
        if ok:
            self._carry(scene, fire, j, "jumped on the wind")

    # -- the script's wind effect -------------------------------------------------------------------
    def set_wind(self, scene: Scene, strength: str | None = None, direction: str | None = None,
                 why: str = "") -> None:
        """Set the wind in play: ``strength`` is an ASL force or a scenario wind word (calm ...
        gale); ``direction`` where it comes from (N ... NW)."""
        from fuego.errors import FuegoError

        before = (self.force, self.origin)
        if strength is not None:
            s = str(strength).strip().lower()
            force = FROM_CORE_WIND.get(s, s)
            if force not in FORCES:
                raise FuegoError(f"no wind {strength!r}", tip="none, mild-breeze, heavy-winds, "
                                 "or calm ... gale")
            self.force = WindForce(force)
            self._follow(scene)
        if direction is not None:
            d = str(direction).strip().upper()
            if d not in DIRECTIONS:
                raise FuegoError(f"no direction {direction!r}", tip=", ".join(DIRECTIONS))
            self.origin = d
        if self.force is not WindForce.NONE and self.origin is None:
            self._roll_direction(scene)
        if self.force is WindForce.NONE:
            self.origin = None
        self._announce(scene, f"The wind: {self.describe(scene)}", why=why)
        if (self.force, self.origin) != before:
            for m in scene.modules:  # (the drifting smoke: it reads the wind)
                m.wind_changed(scene)

    # -- saves --------------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {"force": self.force, "origin": self.origin, "gust_round": self.gust_round,
                "blazes": sorted([i, f] for i, f in self._blazes.items())}

    def load_state(self, state: dict[str, Any]) -> None:
        self.force, self.origin = WindForce(state["force"]), state["origin"]
        self.gust_round = state["gust_round"]
        self._blazes = {i: f for i, f in state["blazes"]}


def _gust_path(b: Building, here: int, dx: int, dy: int) -> list[int]:
    """The two areas downwind of ``here`` a gust carries fire into (25.651), as far as fire can
    pass: a wall, a closed door or window or an intact floor stops it (fuego's reading, now
    that gusts blow indoors too: a gust fans a fire through openings, not through walls)."""
    path: list[int] = []
    prev = here
    for k in (1, 2):
        j = step(b, here, k * dx, k * dy)
        barrier = None if j is None else b.between(prev, j)
        if j is None or (barrier is not None and not barrier.passable):
            break
        path.append(j)
        prev = j
    return path
