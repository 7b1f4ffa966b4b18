"""What a hero can do with an action die in a burning building, and how each is rolled.

- **Move** to a neighbouring area through an opening. Moving into a burning area: avoid with
  Panache + Leaping, Rolling, Swinging, Sprinting or Climbing against 5 x its Fire Dice, or take
  its damage (003). Moving into an exit leaves the scene.
- **Open / close** a door or window beside the hero.
- **Put out clothes**: Rolling, ``(Finesse + Rolling) k Finesse`` against 5 x the clothes' Fire
  Dice; or pat out a companion's in the same area with the same roll (fuego's reading).
- **Smother** a fire in the hero's area or next to it through an opening: ``(Brawn +
  Firefighting) k Brawn`` against 5 x its Fire Dice; success takes one Fire Die off (each raise
  called one more); a fire brought below one die goes out, its fuel unburned (fuego's reading).
- **Spot** a fire hidden from the hero: ``(Wits + Perception) k Wits`` against the fire's Stealth
  roll (003: only hidden fires use Stealth).
- **Wait**: spend the die doing nothing that matters to the fire.

Raises (RULES-NOTES, Dice: +5 to the TN each) may be called on every roll an action makes: a
smother's raise takes one more Fire Die off; a raise on a move's avoid roll or on a spot roll has
no effect fuego tracks (the GM narrates the bigger effect) **[reading]**. The words of an action
with raises end ``raise N`` (``smother ground:E2 raise 1``). :func:`action_roll` says what an
action rolls; :func:`perform` and the table's odds both read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING

from fuego.dice.roller import Pool
from fuego.engine import structure
from fuego.engine.events import EventKind
from fuego.engine.heroes import Hero, Status
from fuego.engine.injury import Sense, avoid_fire, avoid_pool, burn, contact_with, hero_roll
from fuego.engine.sight import Unseen, look, sees_fire
from fuego.rules.formulas import fire_tn, with_raises
from fuego.rules.tables import FIRE_STATS
from fuego.world.places import OPENABLE, BarrierKind

if TYPE_CHECKING:
    from fuego.engine.scene import Scene


class HeroActionKind(str, Enum):
    MOVE = "move"
    OPEN = "open"
    CLOSE = "close"
    PUT_OUT_CLOTHES = "put-out-clothes"
    SMOTHER = "smother"
    SPOT = "spot"
    WAIT = "wait"


@dataclass(frozen=True, slots=True)
class HeroAction:
    kind: Enum  # a HeroActionKind, or a rule module's own kind (fuego.modules)
    target: int | None = None  # area (move, smother, spot)
    barrier: int | None = None  # barrier (open, close)
    other: str | None = None  # companion's name (put out their clothes)
    raises: int = 0

    @property
    def area(self) -> int:
        """The area it acts on (move, smother, spot, a module's action on an area)."""
        assert self.target is not None, f"{self.kind.value} names no area"
        return self.target

    @property
    def door(self) -> int:
        """The barrier it opens or closes."""
        assert self.barrier is not None, f"{self.kind.value} names no barrier"
        return self.barrier

    def key(self) -> str:
        """A stable text form (saved sessions, scripted heroes, prompts)."""
        parts = [self.kind.value]
        for v in (self.target, self.barrier, self.other):
            if v is not None:
                parts.append(str(v))
        if self.raises:
            parts.append(f"raises={self.raises}")
        return ":".join(parts)


#: The most raises an action may call (a TN past 5 x 10 + 50 is out of any pool's reach).
MAX_RAISES = 10
#: ``... raise N`` at the end of an action's words.
_RAISE_WORDS = re.compile(r"^(?P<rest>.*?)\s+raises?\s*(?P<n>\d{1,3})$", re.IGNORECASE)
#: The actions whose roll may carry raises.
RAISABLE = ("move", "smother", "spot")


@dataclass(frozen=True, slots=True)
class ActionRoll:
    """What an action rolls: ``pool`` (before smoke and confusion: ``hero_roll`` applies them,
    with ``sense``) against ``tn``, or against the roll of ``against`` (a hidden fire's
    Stealth) plus the raises called; a failed roll that costs damage names the fire's damage pool,
    its Fire Dice and whether it is the clinging kind."""

    purpose: str
    pool: Pool
    sense: Sense
    tn: int | None = None
    against: Pool | None = None
    raises: int = 0
    damage: Pool | None = None

    @property
    def target(self) -> int:
        """The TN of a roll against a fixed number."""
        assert self.tn is not None, f"{self.purpose} is rolled against a roll, not a TN"
        return self.tn

    @property
    def opposed(self) -> Pool:
        """The pool a roll against a roll must beat."""
        assert self.against is not None, f"{self.purpose} is rolled against a TN"
        return self.against


def action_roll(scene: Scene, hero: Hero, act: HeroAction) -> ActionRoll | None:
    """The roll ``act`` makes now (None: it rolls nothing)."""
    k = act.kind
    if k is HeroActionKind.MOVE:
        fire = scene.fires.get(act.area)
        if fire is None or not scene.harms(fire):
            return None
        knack, pool = avoid_pool(hero)
        damage = FIRE_STATS[fire.fd].damage[fire.temperature]
        if not fire.explodes:
            damage = damage.no_explode()
        return ActionRoll(f"avoid fire ({knack})", pool, Sense.MOVEMENT,
                          tn=with_raises(fire_tn(fire.fd), act.raises), raises=act.raises,
                          damage=damage)
    if k is HeroActionKind.SMOTHER:
        fire = scene.fires.get(act.area)
        if fire is None:
            return None
        pool = Pool(max(1, hero.brawn + hero.knack("firefighting")), hero.brawn)
        return ActionRoll("smother fire", pool, Sense.MOVEMENT,
                          tn=with_raises(fire_tn(fire.fd), act.raises), raises=act.raises)
    if k is HeroActionKind.SPOT:
        fire = scene.fires.get(act.area)
        if fire is None:
            return None
        pool = Pool(max(1, hero.wits + hero.knack("perception")), hero.wits)
        return ActionRoll("spot fire", pool, Sense.SIGHT, against=fire.stealth_pool(),
                          raises=act.raises)
    if k is HeroActionKind.PUT_OUT_CLOTHES:
        victim = scene.hero(act.other) if act.other else hero
        if not victim.clothes_fd:
            return None
        pool = Pool(max(1, hero.finesse + hero.knack("rolling")), hero.finesse)
        return ActionRoll("put out clothes", pool, Sense.MOVEMENT, tn=fire_tn(victim.clothes_fd))
    return None


def hidden_fires(scene: Scene, hero: Hero) -> list[int]:
    """Fires hidden from the hero (fuego.engine.sight: out of sight, behind a door, in smoke)
    that it could notice: within two moves through any barrier, its own area's included."""
    b = scene.building
    near = {hero.area, *(j for j, _ in b.neighbours(hero.area))}
    near |= {k for j in list(near) for k, _ in b.neighbours(j)}
    return sorted(i for i in near if i in scene.fires and not sees_fire(scene, hero, i))


def options(scene: Scene, hero: Hero) -> list[HeroAction]:
    """Every legal action for the hero now, the default (wait) last."""
    b = scene.building
    out: list[HeroAction] = []
    if hero.clothes_fd:
        out.append(HeroAction(HeroActionKind.PUT_OUT_CLOTHES))
    for other in scene.heroes_in(hero.area):
        if other is not hero and other.clothes_fd:
            out.append(HeroAction(HeroActionKind.PUT_OUT_CLOTHES, other=other.name))
    for j, barrier in b.neighbours(hero.area):
        if barrier.passable and barrier.kind is not BarrierKind.FLOOR:
            out.append(HeroAction(HeroActionKind.MOVE, target=j))
        if barrier.kind in OPENABLE and not barrier.destroyed:
            kind = HeroActionKind.CLOSE if not barrier.closed else HeroActionKind.OPEN
            out.append(HeroAction(kind, barrier=barrier.index))
    near = [hero.area, *b.open_neighbours(hero.area)]
    fires, modules = scene.fires, scene.modules
    for i in near:
        if i in fires and all(m.may_smother(scene, fires[i]) for m in modules):
            out.append(HeroAction(HeroActionKind.SMOTHER, target=i))
    for i in hidden_fires(scene, hero):
        out.append(HeroAction(HeroActionKind.SPOT, target=i))
    for m in scene.modules:
        out.extend(m.hero_actions(scene, hero))
    out.append(HeroAction(HeroActionKind.WAIT))
    return out


def move(scene: Scene, hero: Hero, to: int, why: str = "move", raises: int = 0) -> None:
    """Step into a neighbouring area; fire there must be avoided or it burns (003)."""
    frm = hero.area
    hero.area = to
    scene.emit(EventKind.HERO_MOVED, hero.name, to, frm=scene.area_name(frm), why=why)
    for m in scene.modules:
        m.hero_moved(scene, hero, frm)
    fire = scene.fires.get(to)
    if fire is not None and scene.harms(fire) and not avoid_fire(scene, hero, fire.fd,
                                                                 raises=raises):
        # stepping into burning oil is the clinging kind: it covers the hero (003)
        burn(scene, hero, fire.fd, contact_with(scene, to, moving=True), "moved into fire",
             temperature=fire.temperature, source=fire.id, explode=fire.explodes)
    if hero.status is Status.ACTIVE and scene.building.is_exit(to):
        hero.status = Status.ESCAPED
        hero.dice.clear()
        scene.emit(EventKind.HERO_ESCAPED, hero.name, to)


def perform(scene: Scene, hero: Hero, act: HeroAction) -> None:
    """Carry out a hero's action; every roll is logged."""
    b = scene.building
    scene.emit(EventKind.HERO_ACTION, hero.name, hero.area, action=describe(scene, act))
    if act.kind is HeroActionKind.MOVE:
        move(scene, hero, act.area, raises=act.raises)
    elif act.kind in (HeroActionKind.OPEN, HeroActionKind.CLOSE):
        opening = act.kind is HeroActionKind.OPEN
        act_on = structure.open_barrier if opening else structure.close_barrier
        act_on(scene, b.barriers[act.door], hero.name, hero.area)
    elif act.kind is HeroActionKind.PUT_OUT_CLOTHES:
        victim = scene.hero(act.other) if act.other else hero
        spec = action_roll(scene, hero, act)
        if spec is not None:
            tn = spec.target
            total, pool = hero_roll(scene, hero, spec.pool, tn, spec.purpose, sense=spec.sense)
            ok = total >= tn
            scene.emit(EventKind.HERO_ACTION, hero.name, hero.area, action="roll",
                       purpose=spec.purpose, pool=pool.notation, tn=tn, total=total,
                       success=ok)
            if ok:
                victim.clothes_fd = 0
                victim.oiled = False
                scene.emit(EventKind.CLOTHES_OUT, victim.name, victim.area, by=hero.name)
    elif act.kind is HeroActionKind.SMOTHER:
        fire = scene.fires.get(act.area)
        spec = action_roll(scene, hero, act)
        if fire is not None and spec is not None:
            tn = spec.target
            total, pool = hero_roll(scene, hero, spec.pool, tn, spec.purpose, sense=spec.sense)
            ok = total >= tn
            scene.emit(EventKind.HERO_ACTION, hero.name, hero.area, action="roll",
                       purpose=spec.purpose, pool=pool.notation, tn=tn, total=total, success=ok,
                       target=scene.area_name(fire.area))
            if ok:
                cut = 1 + act.raises
                if fire.fd - cut < 1:
                    scene.extinguish(fire, f"smothered by {hero.name}", burned_out=False)
                else:
                    scene.set_fire_dice(fire, fire.fd - cut, f"smothered by {hero.name}")
    elif act.kind is HeroActionKind.SPOT:
        fire = scene.fires.get(act.area)
        spec = action_roll(scene, hero, act)
        if fire is not None and spec is not None:
            # what hid it (the log says: a door, a wall, smoke and how far)
            seen = look(scene, hero, fire.area)
            why = seen.why or Unseen.OUT_OF_SIGHT
            where = {} if seen.feet is None or seen.line is None or not seen.line.pieces \
                else {"feet": round(seen.feet, 1)}
            tn = with_raises(scene.roller.total(spec.opposed), act.raises)
            total, pool = hero_roll(scene, hero, spec.pool, tn, spec.purpose, sense=spec.sense)
            ok = total >= tn
            scene.emit(EventKind.FIRE_SPOTTED if ok else EventKind.FIRE_HIDDEN, hero.name,
                       fire.area, pool=pool.notation, tn=tn, total=total, success=ok,
                       unseen=why.value, **where)
            if ok:
                hero.known_fires.add(fire.area)
    else:
        for m in scene.modules:
            handled = getattr(m, "perform_hero_action", None)
            if handled is not None and handled(scene, hero, act):
                break


def parse_action(scene: Scene, hero: Hero, text: str) -> HeroAction:
    """Read an action a GM or a script names: ``move ground:C4``, ``open ground:C4|ground:C5``,
    ``smother ground:D2``, ``spot ground:E2``, ``put-out-clothes [Name]``, ``wait``."""
    from fuego.errors import RuleError

    raises = 0
    m = _RAISE_WORDS.match(text.strip())
    if m:
        raises = int(m["n"])
        text = m["rest"]
    words = text.strip().split(None, 1)
    if not words:
        raise RuleError("an empty action", tip="e.g. 'move ground:C4' or 'wait'")
    verb = words[0].lower()
    arg = words[1].strip() if len(words) > 1 else ""
    legal = options(scene, hero)
    act = _find(scene, hero, legal, verb, arg)
    if act is None:
        raise RuleError(
            f"{hero.name} cannot {text!r} now",
            tip="legal now: " + ", ".join(describe(scene, a) for a in legal),
        )
    if raises:
        if act.kind.value not in RAISABLE:
            raise RuleError(f"no raise can be called on {act.kind.value}",
                            tip="raises go on the rolls of " + ", ".join(RAISABLE))
        if raises > MAX_RAISES:
            raise RuleError(f"at most {MAX_RAISES} raises, not {raises}")
        if act.kind is HeroActionKind.MOVE and action_roll(scene, hero, act) is None:
            raise RuleError(f"moving to {scene.area_name(act.area)} rolls nothing to raise",
                            tip="raises go on the avoid roll of a move into fire")
        act = replace(act, raises=raises)
    return act


def _place(scene: Scene, hero: Hero, act: HeroAction) -> int | None:
    """The area an action names: where it moves, smothers or spots, the far side of a door."""
    if act.kind in (HeroActionKind.OPEN, HeroActionKind.CLOSE):
        return scene.building.barriers[act.door].other(hero.area)
    return act.target


def _find(scene: Scene, hero: Hero, legal: list[HeroAction], verb: str,
          arg: str) -> HeroAction | None:
    """The legal action ``verb arg`` names; a verb alone names the only action of its kind;
    an area by its short form (``G2`` for ``upper:G2``) when only one such is in reach."""
    b = scene.building
    if arg and b.find(arg) is None:
        short = [a for a in legal if a.kind.value == verb and a.kind is not
                 HeroActionKind.PUT_OUT_CLOTHES and (i := _place(scene, hero, a)) is not None
                 and b.short_form(arg, i)]
        if len(short) == 1:
            return short[0]
        if len(short) > 1:
            from fuego.errors import RuleError

            names = ", ".join(b.areas[_place(scene, hero, a) or 0].name for a in short)
            raise RuleError(f"{arg} is more than one area in {hero.name}'s reach: {names}",
                            tip=f"name the level too, e.g. {verb} {names.split(', ')[0]}")
    if not arg:
        same = [a for a in legal if a.kind.value == verb]
        if len(same) == 1 and same[0].kind is not HeroActionKind.PUT_OUT_CLOTHES:
            return same[0]  # 'smother' with one fire in reach
    for act in legal:
        if act.kind.value != verb:
            continue
        if act.kind in (HeroActionKind.MOVE, HeroActionKind.SMOTHER, HeroActionKind.SPOT):
            if arg and b.find(arg) == act.target:
                return act
        elif act.kind in (HeroActionKind.OPEN, HeroActionKind.CLOSE):
            barrier = b.barriers[act.door]
            far = barrier.other(hero.area)
            if not arg or arg == barrier.name or b.find(arg) == far:
                return act
        elif act.kind is HeroActionKind.PUT_OUT_CLOTHES:
            other = (act.other or "").lower()
            if not arg and act.other is None:
                return act
            if arg and act.other and (other == arg.lower() or other.split()[0] == arg.lower()):
                return act  # a companion by full or first name
        elif act.target is not None and not isinstance(act.kind, HeroActionKind):
            if not arg or b.find(arg) == act.target:  # a module's action on an area
                return act
        else:
            return act
    return None


def describe(scene: Scene, act: HeroAction) -> str:
    """The action in a GM's words, as ``parse_action`` reads it back."""
    b = scene.building
    if act.kind in (HeroActionKind.MOVE, HeroActionKind.SMOTHER, HeroActionKind.SPOT):
        raised = f" raise {act.raises}" if act.raises else ""
        return f"{act.kind.value} {b.areas[act.area].name}{raised}"
    if act.kind in (HeroActionKind.OPEN, HeroActionKind.CLOSE):
        return f"{act.kind.value} {b.barriers[act.door].name}"
    if act.kind is HeroActionKind.PUT_OUT_CLOTHES and act.other:
        return f"{act.kind.value} {act.other}"
    if act.target is not None and not isinstance(act.kind, HeroActionKind):
        return f"{act.kind.value} {b.areas[act.target].name}"  # a module's action on an area
    return act.kind.value
