"""firefighting: putting fires out by crews, blankets, sand, tearing down and blasts (Alpha Strike).

Alpha Strike's three ways (001, Extinguishing Fires) and fuego's 7th Sea terms for them. Every
action reaches a fire in the hero's own area or one open to it, like the core's ``smother``.

- ``bucket-chain`` (Alpha Strike's infantry firefighting): a hero spends an action to join the
  chain on a fire. At the end of the round the chain rolls 2d6 + 1 per member after the first
  (heroes in it plus the scenario's ``helpers``, townsfolk passing buckets); 10 or more puts the
  fire out (its unburnt fuel stays). With ``roll: 7th-sea`` the best member rolls
  ``(Brawn + Firefighting) k Brawn`` with a free raise (+5) per other member against 5 x the
  fire's dice instead. Needs water (``water: false`` for none, or a list of rooms or areas the
  chain must reach within 6 moves); never offered on burning oil (water spreads it).
- ``blanket`` (wet blankets, sacks, a cloak): ``(Finesse + Firefighting) k Finesse`` against 5 x
  the fire's dice; success takes one Fire Die off, a fire below one die goes out. Only a small
  fire (at most 4 dice, 003's "Small Fire") can be beaten out.
- ``sand`` (sand, earth, ash from a bin; the scenario says how many loads): no roll, two Fire Dice
  off; it works on burning oil.
- ``tear-down`` (Alpha Strike's "killing the fuel source": hooks, axes, pulling the burning
  structure apart): ``(Brawn + Firefighting) k Brawn`` against 5 x the area's remaining fuel; each
  success removes one point of fuel (the fire's Resolve with it) and, with the structures module,
  4 CF; at no fuel the fire is out for good. A failure brings burning debris down on the hero.
- :func:`blast` (Alpha Strike's area-effect attack: 4 damage puts out fire in a 2-inch radius):
  for scripts and the GM, an explosion of at least 4 dice (003: explosions are rated like fires)
  that is not incendiary puts out every fire within 2 areas.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

from fuego.dice.roller import Pool
from fuego.engine.injury import ActionRoll, Sense, debris, hero_roll, make_roll
from fuego.engine.rule_module import RuleModule
from fuego.errors import RuleError
from fuego.modules import register
from fuego.modules.common import Options, dr_text, note, resolve_refs
from fuego.modules.structures import Structures
from fuego.rules.formulas import fire_tn, raise_bonus
from fuego.words import plural
from fuego.world.places import Feature

if TYPE_CHECKING:
    from fuego.engine.fire import Fire
    from fuego.engine.heroes import Hero
    from fuego.engine.scene import Scene

def _pool(hero: Hero, trait: int) -> Pool:
    """``(trait + Firefighting) k trait``: the pool of a hero's firefighting roll."""
    return Pool(max(1, trait + hero.knack("firefighting")), trait)


# -- tables ---------------------------------------------------------------------------------------
#: Infantry Firefighting (001): 2d6, +1 per additional unit fighting the same fire; 10+ puts it out.
GROUP_NEEDED = 10
PER_EXTRA_HELPER = 1
#: Area-Effect Attack (001): 4 points of damage (not Inferno) extinguish a 2-inch radius.
BLAST_MIN = 4
BLAST_RADIUS = 2
#: fuego's 7th Sea readings of the same tools.
BLANKET_MAX_FD = 4  # 003's "Small Fire"
BLANKET_FD_OFF = 1
SAND_FD_OFF = 2
TN_PER_FUEL = 5  # tearing down: 5 x the fuel (Resolve) still standing
TEAR_DOWN_FUEL = 1
TEAR_DOWN_CF = 4
WATER_REACH = 6  # moves a bucket chain can stretch


class BucketRoll(str, Enum):
    """How a bucket chain's turn is rolled (the ``roll`` option)."""

    TWO_D6 = "2d6"  # 001's group roll: 2d6 plus helpers against a number
    SEVENTH_SEA = "7th-sea"  # the heroes' own roll and keep


class FirefightingAction(str, Enum):
    BUCKET_CHAIN = "bucket-chain"
    BLANKET = "blanket"
    SAND = "sand"
    TEAR_DOWN = "tear-down"


def too_small(dice: int) -> RuleError | None:
    """Why a blast of ``dice`` is refused before it is set off, or None: under
    :data:`BLAST_MIN` it would only fizzle. The one message and tip for ``fuego check`` (a
    script's blast) and the table (the GM's ``blast``)."""
    if dice >= BLAST_MIN:
        return None
    return RuleError(f"a blast of {dice} dice blows no fire out: it takes {BLAST_MIN} or more "
                     "(001, Extinguishing Fires)",
                     tip=f"give it dice: {BLAST_MIN} or more (the default); a blast that sets "
                         "things alight is 'explode'")


def blast(scene: Scene, center: int | str, dice: int, *, incendiary: bool = False,
          why: str = "an explosion") -> list[int]:
    """An explosion of ``dice`` at ``center`` (index or name): from 4 dice up, and unless it is
    incendiary, every fire within 2 areas (same level, as the crow flies) goes out. Returns the
    areas put out."""
    b = scene.building
    c = center if isinstance(center, int) else b.area(center).index
    if incendiary or dice < BLAST_MIN:
        note(scene, "firefighting", f"{why} at {b.areas[c].name} is too "
             + ("fiery" if incendiary else "small") + " to blow fires out", c, dice=dice)
        return []
    ca = b.areas[c]
    out = []
    for i in sorted(scene.fires):
        a = b.areas[i]
        if a.level == ca.level and (a.col - ca.col) ** 2 + (a.row - ca.row) ** 2 <= BLAST_RADIUS ** 2:
            out.append(i)
    fires = plural(len(out), 'fire') if out else "no fire"
    note(scene, "firefighting", f"{why} at {b.areas[c].name} blows out {fires}", c,
         dice=dice, areas=[b.areas[i].name for i in out])
    for i in out:
        scene.extinguish(scene.fires[i], why, burned_out=False)
    return out


@register
class Firefighting(RuleModule):
    name = "firefighting"
    end_order = 10
    source = "001 Alpha Strike, Extinguishing Fires (area-effect attack, infantry firefighting, " \
             "killing the fuel source)"
    action_kinds = tuple(FirefightingAction)

    def __init__(self, options: dict[str, Any] | None = None):
        super().__init__(options)
        o = Options(self.name, options)
        self.roll = BucketRoll(o.choice("roll", tuple(r.value for r in BucketRoll),
                                        BucketRoll.TWO_D6.value))
        self.helpers = o.integer("helpers", 0, 0, 50)
        raw_water = o.get("water", True)
        if isinstance(raw_water, bool):
            self.water: bool | list[str] = raw_water
        else:
            self.water = o.names("water")
        self.sand = o.integer("sand", 0, 0, 999)
        self.blankets = o.boolean("blankets", True)
        self.tear_down = o.boolean("tear_down", True)
        o.done()
        self.chains: dict[int, list[str]] = {}  # area -> heroes in its bucket chain this round
        self._water_areas: set[int] | None = None

    # -- what a hero can reach -------------------------------------------------------------------
    def _near(self, scene: Scene, hero: Hero) -> list[int]:
        b = scene.building
        return [i for i in [hero.area, *b.open_neighbours(hero.area)] if i in scene.fires]

    def has_water(self, scene: Scene, i: int) -> bool:
        if self.water is True:
            return True
        if self.water is False:
            return False
        reach = scene.building.within(i, WATER_REACH)
        water = self.water_areas(scene)
        return any(j in water for j in reach)

    def water_areas(self, scene: Scene) -> set[int]:
        if self._water_areas is None:
            refs = {r: True for r in self.water} if isinstance(self.water, list) else {}
            self._water_areas = set(resolve_refs(scene.building, refs, self.name, "water"))
        return self._water_areas

    def scene_start(self, scene: Scene) -> None:
        self.water_areas(scene)  # unknown names fail before round 1

    def hero_actions(self, scene: Scene, hero: Hero) -> list[Any]:
        from fuego.engine.hero_actions import HeroAction

        out = []
        b = scene.building
        for i in self._near(scene, hero):
            fire = scene.fires[i]
            oil = Feature.OIL in b.areas[i].features
            if not oil and hero.name not in self.chains.get(i, []) and self.has_water(scene, i):
                out.append(HeroAction(FirefightingAction.BUCKET_CHAIN, target=i))
            if self.blankets and fire.fd <= BLANKET_MAX_FD:
                out.append(HeroAction(FirefightingAction.BLANKET, target=i))
            if self.sand > 0:
                out.append(HeroAction(FirefightingAction.SAND, target=i))
            if self.tear_down and b.areas[i].fuel > 0:
                out.append(HeroAction(FirefightingAction.TEAR_DOWN, target=i))
        return out

    def perform_hero_action(self, scene: Scene, hero: Hero, act: Any) -> bool:
        if not isinstance(act.kind, FirefightingAction):
            return False
        fire = scene.fires.get(act.target)
        if fire is None:
            return True
        name = scene.area_name(act.target)
        if act.kind is FirefightingAction.BUCKET_CHAIN:
            crew = self.chains.setdefault(act.target, [])
            if hero.name not in crew:
                crew.append(hero.name)
            note(scene, self.name, f"{hero.name} joins the bucket chain on {name}", hero.area,
                 hero.name, target=name, extinguish=True, chain=list(crew))
        elif act.kind is FirefightingAction.BLANKET:
            if self._roll(scene, hero, act, name):
                self._dice_off(scene, fire, BLANKET_FD_OFF, f"beat out with blankets by {hero.name}")
        elif act.kind is FirefightingAction.SAND:
            self.sand -= 1
            note(scene, self.name, f"{hero.name} throws sand on {name} "
                 f"({plural(self.sand, 'load')} left)", hero.area, hero.name, target=name,
                 extinguish=True, sand=self.sand)
            self._dice_off(scene, fire, SAND_FD_OFF, f"sand thrown by {hero.name}")
        elif act.kind is FirefightingAction.TEAR_DOWN:
            self._tear_down(scene, hero, fire, act)
        return True

    def action_roll(self, scene: Scene, hero: Hero, act: Any) -> ActionRoll | None:
        """Beating a fire out with blankets, ``(Finesse + Firefighting) k Finesse`` against the
        fire's TN, and tearing the structure down, ``(Brawn + Firefighting) k Brawn`` against 5
        x the fuel still standing; the chain and the sand roll nothing now."""
        fire = scene.fires.get(act.target) if isinstance(act.kind, FirefightingAction) else None
        if fire is None:
            return None
        if act.kind is FirefightingAction.BLANKET:
            return ActionRoll("beat out with blankets", _pool(hero, hero.finesse),
                              Sense.MOVEMENT, tn=fire_tn(fire.fd))
        if act.kind is FirefightingAction.TEAR_DOWN:
            tn = TN_PER_FUEL * max(1, scene.building.areas[fire.area].fuel)
            return ActionRoll("tear down the burning structure", _pool(hero, hero.brawn),
                              Sense.MOVEMENT, tn=tn)
        return None

    def _roll(self, scene: Scene, hero: Hero, act: Any, target: str) -> bool:
        """Make the roll :meth:`action_roll` describes and note it in the log."""
        spec = self.action_roll(scene, hero, act)
        assert spec is not None  # (blanket and tear-down roll while their fire burns)
        ok, total, used, tn = make_roll(scene, hero, spec)
        purpose = spec.purpose
        note(scene, self.name, f"{hero.name}: {purpose} on {target}: {total} vs TN {tn}"
             + (" - success" if ok else " - failure"), hero.area, hero.name, purpose=purpose,
             pool=used.notation, tn=tn, total=total, success=ok, target=target, extinguish=True)
        return ok

    def _dice_off(self, scene: Scene, fire, n: int, why: str) -> None:
        if fire.fd - n < 1:
            scene.extinguish(fire, why, burned_out=False)
        else:
            scene.set_fire_dice(fire, fire.fd - n, why)

    def _tear_down(self, scene: Scene, hero: Hero, fire: Fire, act: Any) -> None:
        b = scene.building
        area = b.areas[fire.area]
        if not self._roll(scene, hero, act, area.name):
            debris(scene, hero, fire.fd, "burning timber")
            return
        b.set_fuel(fire.area, max(0, area.fuel - TEAR_DOWN_FUEL))
        fire.resolve = max(0, fire.resolve - TEAR_DOWN_FUEL)
        structures = scene.module(Structures)
        if structures is not None:
            structures.damage(scene, fire.area, TEAR_DOWN_CF, f"torn down by {hero.name}",
                              by=hero.name)
        if scene.fires.get(fire.area) is fire and area.fuel == 0:
            scene.extinguish(fire, f"its fuel torn away by {hero.name}", burned_out=True)

    # -- the chain's roll ---------------------------------------------------------------------------
    def end_of_round(self, scene: Scene) -> None:
        chains, self.chains = self.chains, {}
        for i in sorted(chains):
            fire = scene.fires.get(i)
            crew = chains[i]
            if fire is None or not crew:
                continue
            members = len(crew) + self.helpers
            name = scene.area_name(i)
            if self.roll is BucketRoll.TWO_D6:
                a, c = scene.roller.dr()
                bonus = PER_EXTRA_HELPER * (members - 1)
                ok = a + c + bonus >= GROUP_NEEDED
                note(scene, self.name, f"bucket chain of {members} on {name}: "
                     f"{dr_text((a, c), bonus)} vs {GROUP_NEEDED}" + (" - the fire is out" if ok
                                                                      else ""), i,
                     None, dice=[a, c], bonus=bonus, need=GROUP_NEEDED, success=ok,
                     target=name, crew=crew, extinguish=True)
            else:
                best = max((h for h in scene.heroes if h.name in crew and h.present),
                           key=lambda h: (h.brawn + h.knack("firefighting"), h.brawn),
                           default=None)
                if best is None:
                    continue
                tn = fire_tn(fire.fd)  # the fire's own TN (rules.formulas)
                # (each member past the first is a free raise: what a raise is worth, added)
                pool = Pool(max(1, best.brawn + best.knack("firefighting")), best.brawn,
                            raise_bonus(members - 1))
                total, used = hero_roll(scene, best, pool, tn, "bucket chain",
                                        sense=Sense.MOVEMENT)
                ok = total >= tn
                note(scene, self.name, f"bucket chain of {members} on {name}, led by "
                     f"{best.name}: {total} vs TN {tn}" + (" - the fire is out" if ok else ""),
                     i, best.name, pool=used.notation, tn=tn, total=total, success=ok,
                     target=name, crew=crew, extinguish=True)
            if ok:
                scene.extinguish(fire, "put out by the bucket chain", burned_out=False)

    def state(self) -> dict[str, Any]:
        return {"sand": self.sand, "chains": sorted([i, c] for i, c in self.chains.items())}

    def load_state(self, state: dict[str, Any]) -> None:
        self.sand = state["sand"]
        self.chains = {i: list(c) for i, c in state["chains"]}
