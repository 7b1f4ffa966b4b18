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
with raises end ``raise N`` (``smother ground:E2 raise 1``).

:func:`action_roll` says what an action rolls (its pool, TN and raises, what a failure costs);
:func:`perform` and the table's odds (``fuego.table.risk``) both read it, and nothing else works
a hero's TN out. :meth:`HeroAction.text` is an action's one text form (saves, the table's
prompts, scripts, the log) and :meth:`HeroAction.from_text` its exact inverse;
:func:`read_action` reads the table's shorthand against what the hero may do now.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING

from fuego.dice.roller import Pool
from fuego.engine import structure
from fuego.engine.events import EventKind
from fuego.engine.heroes import Hero, Status
from fuego.engine.injury import (
    ActionRoll,
    DamageCause,
    Sense,
    avoid_fire,
    avoid_roll,
    burn,
    contact_damage,
    contact_with,
    make_roll,
)
from fuego.engine.sight import Unseen, look, sees_fire
from fuego.errors import RuleError
from fuego.rules.formulas import fire_tn, with_raises
from fuego.text import fold_name
from fuego.world.places import OPENABLE, BarrierKind

if TYPE_CHECKING:
    from fuego.engine.fire import Fire
    from fuego.engine.scene import Scene
    from fuego.world.places import Barrier


class Purpose(str, Enum):
    """What the core actions' rolls are for (an ``ActionRoll``'s purpose, the log's ``purpose``,
    a saved roll's); a module's actions name their own."""

    SMOTHER = "smother fire"
    SPOT = "spot fire"
    PUT_OUT_CLOTHES = "put out clothes"


#: A ``hero-action`` event's ``action`` when it tells the roll an action makes (else the
#: action's text).
ROLL_ACTION = "roll"


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

    def text(self, scene: Scene) -> str:
        """The action's one text form, for saves, the table's prompts, scripts and the log
        (:meth:`from_text` reads it back exactly): its verb, then the area it acts on by name,
        the door or window by its name, or the companion by theirs, then ``raise N`` when raises
        are called: ``move ground:C4``, ``open front door``, ``open ground:C4|ground:C5``,
        ``smother ground:E2 raise 1``, ``put-out-clothes Gaston Allais``, ``wait``."""
        words = [self.kind.value]
        if self.barrier is not None:
            words.append(barrier_text(scene, self.barrier))
        elif self.target is not None:
            words.append(scene.area_name(self.target))
        if self.other is not None:
            words.append(self.other)
        if self.raises:
            words.append(f"raise {self.raises}")
        return " ".join(words)

    @classmethod
    def from_text(cls, text: str, scene: Scene) -> HeroAction:
        """The action :meth:`text` wrote (whether it is legal now is :func:`read_action`'s
        question). Verbs, doors' names and heroes' names are read without regard to case, areas
        as the building names them; a RuleError names what was expected, with a tip."""
        verb, rest, raises = split_words(text)
        kind = _kind(scene, verb)
        check_raises(kind, raises)
        shape = _SHAPES.get(kind, Names.AREA if rest else Names.NOTHING)
        if shape is Names.NOTHING:
            if rest:
                raise RuleError(f"'{verb}' takes nothing after it, not {rest!r}",
                                tip=f"type '{verb}' alone")
            return cls(kind)
        if shape is Names.HERO:
            return cls(kind, other=_companion(scene, rest) if rest else None)
        if not rest:
            what = "a door or window" if shape is Names.BARRIER else "an area"
            raise RuleError(f"'{verb}' needs {what}: expected e.g. "
                            f"'{verb} {_example(scene, shape)}'",
                            tip="name the door or window by its name or its two areas"
                            if shape is Names.BARRIER else "name the area, level first")
        if shape is Names.BARRIER:
            return cls(kind, barrier=_barrier_named(scene, rest, verb).index)
        return cls(kind, target=_area_named(scene, rest, verb), raises=raises)


class Names(Enum):
    """What the words after an action's verb name."""

    AREA = "area"  # move, smother, spot, and a module's action on an area
    BARRIER = "barrier"  # open, close: a door or window
    HERO = "hero"  # put-out-clothes: a companion's (none: the hero's own)
    NOTHING = "nothing"  # wait, and a module's action on nothing


_SHAPES: dict[Enum, Names] = {
    HeroActionKind.MOVE: Names.AREA, HeroActionKind.SMOTHER: Names.AREA,
    HeroActionKind.SPOT: Names.AREA, HeroActionKind.OPEN: Names.BARRIER,
    HeroActionKind.CLOSE: Names.BARRIER, HeroActionKind.PUT_OUT_CLOTHES: Names.HERO,
    HeroActionKind.WAIT: Names.NOTHING,
}  # fmt: skip
#: The most raises an action may call (a TN past 5 x 10 + 50 is out of any pool's reach).
MAX_RAISES = 10
#: ``... raise N`` at the end of an action's words.
_RAISE_WORDS = re.compile(r"^(?P<rest>.*?)\s+raises?\s*(?P<n>\d{1,3})$", re.IGNORECASE)
#: The actions whose roll may carry raises.
RAISABLE = (HeroActionKind.MOVE.value, HeroActionKind.SMOTHER.value, HeroActionKind.SPOT.value)


def names(kind: Enum) -> Names:
    """What the words after ``kind``'s verb name (a module's action: an area)."""
    return _SHAPES.get(kind, Names.AREA)


def check_raises(kind: Enum, raises: int) -> None:
    """Raises go on the rolls of a move, a smother or a spot, at most :data:`MAX_RAISES`."""
    if raises and kind.value not in RAISABLE:
        raise RuleError(f"no raise can be called on {kind.value}",
                        tip="raises go on the rolls of " + ", ".join(RAISABLE))
    if raises > MAX_RAISES:
        raise RuleError(f"at most {MAX_RAISES} raises, not {raises}",
                        tip=f"call 1 to {MAX_RAISES}, e.g. '{kind.value} ground:C4 raise 1'")


def split_words(text: str) -> tuple[str, str, int]:
    """An action's words as (verb, what it names, raises called): ``smother ground:E2 raise
    1`` -> ``("smother", "ground:E2", 1)``. The grammar every reader shares (the exact form,
    the GM's shorthand, the scenario's check)."""
    verb, rest = _verb(text)
    rest, raises = split_raises(rest)
    return verb, rest, raises


def split_raises(words: str) -> tuple[str, int]:
    """``ground:E2 raise 1`` -> ``("ground:E2", 1)``; words without raises -> ``(words, 0)``."""
    m = _RAISE_WORDS.match(" " + words.strip())
    if m is None:
        return words.strip(), 0
    return m["rest"].strip(), int(m["n"])


def _verb(text: str) -> tuple[str, str]:
    words = " ".join(text.split()).split(" ", 1)
    if not words[0]:
        raise RuleError("an empty action: expected a verb and what it acts on",
                        tip="e.g. 'move ground:C4' or 'wait'")
    return words[0].lower(), words[1] if len(words) > 1 else ""


def action_kinds(scene: Scene) -> list[Enum]:
    """Every kind of action a hero may take in this scene: the core's, then its modules'."""
    kinds: list[Enum] = list(HeroActionKind)
    for m in scene.modules:
        kinds.extend(m.action_kinds)
    return kinds


def _kind(scene: Scene, verb: str) -> Enum:
    """The kind ``verb`` names; RuleError saying which verbs there are."""
    kinds = action_kinds(scene)
    for kind in kinds:
        if kind.value == verb:
            return kind
    import difflib

    verbs = [k.value for k in kinds]
    near = difflib.get_close_matches(verb, verbs, n=1, cutoff=0.7)
    raise RuleError(f"{verb!r} is not a hero action: expected one of {', '.join(verbs)}",
                    tip=f"did you mean {near[0]!r}?" if near else "e.g. 'move ground:C4'")


def _example(scene: Scene, shape: Names) -> str:
    b = scene.building
    if shape is Names.BARRIER:
        door = next((x.index for x in b.barriers if x.kind in OPENABLE), None)
        return barrier_text(scene, door) if door is not None else "ground:C4|ground:C5"
    return b.areas[0].name if b.areas else "ground:C4"


def _area_named(scene: Scene, name: str, verb: str) -> int:
    i = scene.building.find(name)
    if i is None:
        import difflib

        near = difflib.get_close_matches(name, [a.name for a in scene.building.areas], n=1,
                                             cutoff=0.85)
        raise RuleError(f"no area {name!r} to {verb}: expected an area's name, e.g. "
                        f"'{verb} {_example(scene, Names.AREA)}'",
                        tip=f"did you mean {near[0]!r}?" if near
                        else "areas are named level:COLUMNROW, e.g. ground:C4")
    return i


def barrier_text(scene: Scene, index: int) -> str:
    """A door or window in an action's words: its name, or its two areas (``ground:C4|
    ground:C5``) when another barrier has the same name (in any case: the name is read back
    by :meth:`fuego.world.building.Building.barriers_named`)."""
    b = scene.building
    barrier = b.barriers[index]
    if barrier.label and len(b.barriers_named(barrier.label)) == 1:
        return barrier.name
    return f"{b.areas[barrier.a].name}|{b.areas[barrier.b].name}"


def _barrier_named(scene: Scene, name: str, verb: str) -> Barrier:
    found = scene.building.barrier(name, tip="name it by its name or by its two areas, e.g. "
                                             f"'{verb} {_example(scene, Names.BARRIER)}'")
    if found.kind not in OPENABLE:
        raise RuleError(f"the {found.describe()} at {found.name} cannot {verb}: only doors "
                        f"and windows open and close", tip="a GM may break it: gm break ...")
    return found


def _companion(scene: Scene, name: str) -> str:
    for hero in scene.heroes:
        if fold_name(hero.name) == fold_name(name):
            return hero.name
    raise RuleError(f"no character named {name!r} whose clothes to put out",
                    tip="name them in full; characters here: "
                        + ", ".join(h.name for h in scene.heroes))


def _move_roll(scene: Scene, hero: Hero, act: HeroAction) -> ActionRoll | None:
    """Stepping into a fire that harms: the avoid roll, and a failure burns as the move does
    (:func:`move`: burning oil clings, and burns hot)."""
    fire = scene.fires.get(act.area)
    if fire is None or not scene.harms(fire):
        return None
    contact = contact_with(scene, act.area, moving=True)
    damage = contact_damage(scene, hero, fire.fd, contact, fire.temperature, fire.explodes)
    return avoid_roll(hero, fire.fd, act.raises, damage=damage, at=act.area)


def _smother_roll(scene: Scene, hero: Hero, act: HeroAction) -> ActionRoll | None:
    fire = scene.fires.get(act.area)
    if fire is None:
        return None
    pool = Pool(max(1, hero.brawn + hero.knack("firefighting")), hero.brawn)
    return ActionRoll(Purpose.SMOTHER.value, pool, Sense.MOVEMENT,
                      tn=with_raises(fire_tn(fire.fd), act.raises), raises=act.raises)


def _spot_roll(scene: Scene, hero: Hero, act: HeroAction) -> ActionRoll | None:
    fire = scene.fires.get(act.area)
    if fire is None:
        return None
    pool = Pool(max(1, hero.wits + hero.knack("perception")), hero.wits)
    return ActionRoll(Purpose.SPOT.value, pool, Sense.SIGHT, against=fire.stealth_pool(),
                      raises=act.raises)


def _clothes_roll(scene: Scene, hero: Hero, act: HeroAction) -> ActionRoll | None:
    victim = scene.hero(act.other) if act.other else hero
    if not victim.clothes_fd:
        return None
    pool = Pool(max(1, hero.finesse + hero.knack("rolling")), hero.finesse)
    return ActionRoll(Purpose.PUT_OUT_CLOTHES.value, pool, Sense.MOVEMENT,
                      tn=fire_tn(victim.clothes_fd))


#: The core actions that roll, each with the one description of its roll.
_ROLLS: dict[Enum, Callable[[Scene, Hero, HeroAction], ActionRoll | None]] = {
    HeroActionKind.MOVE: _move_roll,
    HeroActionKind.SMOTHER: _smother_roll,
    HeroActionKind.SPOT: _spot_roll,
    HeroActionKind.PUT_OUT_CLOTHES: _clothes_roll,
}


def action_roll(scene: Scene, hero: Hero, act: HeroAction) -> ActionRoll | None:
    """The roll ``act`` makes now (None: it rolls nothing): a core action's, or a module's
    own action's (``RuleModule.action_roll``: firefighting's blanket)."""
    describe = _ROLLS.get(act.kind)
    if describe is not None:
        return describe(scene, hero, act)
    for m in scene.modules:
        spec = m.action_roll(scene, hero, act)
        if spec is not None:
            return spec
    return None


#: How near a hidden fire must be for a hero to notice it: moves through any barrier.
SPOT_MOVES = 2


def hidden_fires(scene: Scene, hero: Hero) -> list[int]:
    """Fires hidden from the hero (fuego.engine.sight: out of sight, behind a door, in smoke)
    that it could notice: within :data:`SPOT_MOVES` moves through any barrier, its own area's
    included."""
    fires = scene.fires
    return [i for i in scene.building.paths.within(hero.area, SPOT_MOVES)
            if i in fires and not sees_fire(scene, hero, i)]


def may_smother(scene: Scene, fire: Fire) -> bool:
    """Heroes may try to smother this fire (not a Blaze, with flame-and-blaze on)."""
    return all(m.may_smother(scene, fire) for m in scene.modules)


def options(scene: Scene, hero: Hero) -> list[HeroAction]:
    """Every legal action for the hero now, the default (wait) last."""
    out = _clothes_options(scene, hero) + _barrier_options(scene, hero)
    b = scene.building
    near = [hero.area, *b.open_neighbours(hero.area)]
    fires = scene.fires
    for i in near:
        if i in fires and may_smother(scene, fires[i]):
            out.append(HeroAction(HeroActionKind.SMOTHER, target=i))
    for i in hidden_fires(scene, hero):
        out.append(HeroAction(HeroActionKind.SPOT, target=i))
    for m in scene.modules:
        out.extend(m.hero_actions(scene, hero))
    out.append(HeroAction(HeroActionKind.WAIT))
    return out


def _clothes_options(scene: Scene, hero: Hero) -> list[HeroAction]:
    """Putting out the hero's own burning clothes, and those of each companion in the area."""
    out = [HeroAction(HeroActionKind.PUT_OUT_CLOTHES)] if hero.clothes_fd else []
    for other in scene.heroes_in(hero.area):
        if other is not hero and other.clothes_fd:
            out.append(HeroAction(HeroActionKind.PUT_OUT_CLOTHES, other=other.name))
    return out


def _barrier_options(scene: Scene, hero: Hero) -> list[HeroAction]:
    """Each way on (through an opening, not down a floor) and each door or window at hand to
    open or close (not a broken or locked one)."""
    out = []
    for j, barrier in scene.building.neighbours(hero.area):
        if barrier.passable and barrier.kind is not BarrierKind.FLOOR:
            out.append(HeroAction(HeroActionKind.MOVE, target=j))
        if barrier.kind in OPENABLE and not barrier.destroyed and not barrier.locked:
            kind = HeroActionKind.CLOSE if not barrier.closed else HeroActionKind.OPEN
            out.append(HeroAction(kind, barrier=barrier.index))
    return out


def move(scene: Scene, hero: Hero, to: int, why: str = HeroActionKind.MOVE.value,
         raises: int = 0) -> None:
    """Step into a neighbouring area; fire there must be avoided or it burns (003)."""
    frm = hero.area
    hero.area = to
    scene.emit(EventKind.HERO_MOVED, hero.name, to, frm=scene.area_name(frm), why=why)
    for m in scene.modules:
        m.hero_moved(scene, hero, frm)
    fire = scene.fires.get(to)
    avoid = action_roll(scene, hero, HeroAction(HeroActionKind.MOVE, target=to, raises=raises))
    if fire is not None and avoid is not None and not avoid_fire(scene, hero, avoid):
        # stepping into burning oil is the clinging kind: it covers the hero (003)
        burn(scene, hero, fire.fd, contact_with(scene, to, moving=True),
             DamageCause.MOVING.value, temperature=fire.temperature, source=fire.id,
             explode=fire.explodes)
    if hero.status is Status.ACTIVE and scene.building.is_exit(to):
        hero.status = Status.ESCAPED
        hero.dice.clear()
        scene.emit(EventKind.HERO_ESCAPED, hero.name, to)


def perform(scene: Scene, hero: Hero, act: HeroAction) -> None:
    """Carry out a hero's action; every roll is logged."""
    if scene.logs(EventKind.HERO_ACTION):  # (a forecast's log may keep none: no words made)
        scene.emit(EventKind.HERO_ACTION, hero.name, hero.area, action=act.text(scene))
    carry_out = _PERFORM.get(act.kind)
    if carry_out is not None:
        carry_out(scene, hero, act)
        return
    for m in scene.modules:
        handled = getattr(m, "perform_hero_action", None)
        if handled is not None and handled(scene, hero, act):
            break


def _perform_move(scene: Scene, hero: Hero, act: HeroAction) -> None:
    """Step into the area (avoiding its fire with the action's raises)."""
    move(scene, hero, act.area, raises=act.raises)


def _perform_door(scene: Scene, hero: Hero, act: HeroAction) -> None:
    """Open or close the door or window."""
    act_on = structure.open_barrier if act.kind is HeroActionKind.OPEN else structure.close_barrier
    act_on(scene, scene.building.barriers[act.door], hero.name, hero.area)


def _perform_clothes(scene: Scene, hero: Hero, act: HeroAction) -> None:
    """Roll to put out burning clothes (the hero's or a companion's): on a success they and
    any burning oil on them are out."""
    victim = scene.hero(act.other) if act.other else hero
    spec = action_roll(scene, hero, act)
    if spec is None:
        return
    ok, total, pool, tn = make_roll(scene, hero, spec)
    scene.emit(EventKind.HERO_ACTION, hero.name, hero.area, action=ROLL_ACTION,
               purpose=spec.purpose, pool=pool.notation, tn=tn, total=total,
               success=ok)
    if ok:
        victim.clothes_fd = 0
        victim.oiled = False
        scene.emit(EventKind.CLOTHES_OUT, victim.name, victim.area, by=hero.name)


def _perform_smother(scene: Scene, hero: Hero, act: HeroAction) -> None:
    """Roll to smother the fire: a success takes one Fire Die and one more per raise, and puts
    out a fire left with none."""
    fire = scene.fires.get(act.area)
    spec = action_roll(scene, hero, act)
    if fire is None or spec is None:
        return
    ok, total, pool, tn = make_roll(scene, hero, spec)
    scene.emit(EventKind.HERO_ACTION, hero.name, hero.area, action=ROLL_ACTION,
               purpose=spec.purpose, pool=pool.notation, tn=tn, total=total, success=ok,
               target=scene.area_name(fire.area))
    if ok:
        cut = 1 + act.raises
        if fire.fd - cut < 1:
            scene.extinguish(fire, f"smothered by {hero.name}", burned_out=False)
        else:
            scene.set_fire_dice(fire, fire.fd - cut, f"smothered by {hero.name}")


def _perform_spot(scene: Scene, hero: Hero, act: HeroAction) -> None:
    """Roll against the hidden fire's stealth: spotted, the hero knows where it is; the log
    says what hid it (a door, a wall, smoke and how far)."""
    fire = scene.fires.get(act.area)
    spec = action_roll(scene, hero, act)
    if fire is None or spec is None:
        return
    seen = look(scene, hero, fire.area)
    why = seen.why or Unseen.OUT_OF_SIGHT
    where = {} if seen.feet is None or seen.line is None or not seen.line.pieces \
        else {"feet": round(seen.feet, 1)}
    ok, total, pool, tn = make_roll(scene, hero, spec,
                                    spec.tn_over(scene.roller.total(spec.opposed)))
    scene.emit(EventKind.FIRE_SPOTTED if ok else EventKind.FIRE_HIDDEN, hero.name,
               fire.area, pool=pool.notation, tn=tn, total=total, success=ok,
               unseen=why.value, **where)
    if ok:
        hero.known_fires.add(fire.area)


#: How each core action is carried out (a module's own actions: its perform_hero_action).
_PERFORM: dict[Enum, Callable[[Scene, Hero, HeroAction], None]] = {
    HeroActionKind.MOVE: _perform_move,
    HeroActionKind.OPEN: _perform_door,
    HeroActionKind.CLOSE: _perform_door,
    HeroActionKind.PUT_OUT_CLOTHES: _perform_clothes,
    HeroActionKind.SMOTHER: _perform_smother,
    HeroActionKind.SPOT: _perform_spot,
}


def read_action(scene: Scene, hero: Hero, text: str,
                legal: list[HeroAction] | None = None) -> HeroAction:
    """The legal action a GM's, a player's or a script's words name: the exact text
    (:meth:`HeroAction.from_text`), else the table's shorthand, read against what the hero may
    do now (``legal``, default :func:`options`): a verb alone names the only action of its kind
    (``smother``; with several in reach it says which there are), a door or window by the
    area beyond it (``open ground:C5``) or the start of its name (``close kitchen``), an area
    by its short form (``G2``) when only one such is in reach, an area alone for the move
    there (``F3``), a companion by a name that calls them alone (``Hettie``). RuleError when
    the words name nothing the hero may do."""
    legal = options(scene, hero) if legal is None else legal
    verb, arg, raises = split_words(text)
    try:
        kind = _kind(scene, verb)
    except RuleError as exc:  # at the table, what the hero may do is the better tip
        moved = _bare_area(scene, legal, text)
        if moved is not None and not split_words(text)[2]:
            return moved  # 'F3': where the hero goes
        raise RuleError(f"{hero.name} cannot {text!r} now: {exc.message}",
                        tip=_legal_tip(scene, legal, exc.tip)) from None
    check_raises(kind, raises)
    try:
        exact: HeroAction | None = HeroAction.from_text(text, scene)
    except RuleError:
        exact = None  # not the exact form: the shorthand may name it
    if exact is not None and replace(exact, raises=0) in legal:
        act: HeroAction | None = replace(exact, raises=0)
    else:
        act = _find(scene, hero, legal, verb, arg)
    if act is None:
        raise RuleError(f"{hero.name} cannot {text!r} now", tip=_legal_tip(scene, legal))
    act = replace(act, raises=raises)
    if act.raises and act.kind is HeroActionKind.MOVE and action_roll(scene, hero, act) is None:
        raise RuleError(f"moving to {scene.area_name(act.area)} rolls nothing to raise",
                        tip="raises go on the avoid roll of a move into fire")
    return act


def _legal_tip(scene: Scene, legal: list[HeroAction], near: str | None = None) -> str:
    """``legal now: move ground:C4, wait`` (after a ``did you mean`` when there is one)."""
    said = "legal now: " + ", ".join(a.text(scene) for a in legal)
    return f"{near}; {said}" if near and near.startswith("did you") else said


def _place(scene: Scene, hero: Hero, act: HeroAction) -> int | None:
    """The area an action names: where it moves, smothers or spots, the far side of a door."""
    if act.kind in (HeroActionKind.OPEN, HeroActionKind.CLOSE):
        return scene.building.barriers[act.door].other(hero.area)
    return act.target


def _find(scene: Scene, hero: Hero, legal: list[HeroAction], verb: str,
          arg: str) -> HeroAction | None:
    """The legal action ``verb arg`` names; a verb alone names the only action of its kind;
    an area by its short form (``G2`` for ``upper:G2``) when only one such is in reach."""
    if arg and scene.building.find(arg) is None:
        act = _by_short_form(scene, hero, legal, verb, arg)
        if act is not None:
            return act
    same = [a for a in legal if a.kind.value == verb]
    if not arg and same and same[0].kind is not HeroActionKind.PUT_OUT_CLOTHES:
        if len(same) == 1:
            return same[0]  # 'smother' with one fire in reach
        said = ", ".join(a.text(scene) for a in same)  # not the first of them, unasked
        raise RuleError(f"{verb!r} alone could be any of {len(same)}: {said}",
                        tip=f"say which, e.g. '{same[0].text(scene)}'")
    act = next((act for act in same if _names(scene, hero, act, arg)), None)
    if act is None and arg and verb in (HeroActionKind.OPEN.value, HeroActionKind.CLOSE.value):
        act = _by_name_start(scene, same, arg)
    return act


def _by_name_start(scene: Scene, doors: list[HeroAction], arg: str) -> HeroAction | None:
    """The one door or window in reach whose name starts with ``arg``'s words (``close
    kitchen`` for the kitchen door), or None."""
    words = arg.lower().split()
    hits = [a for a in doors
            if fold_name(scene.building.barriers[a.door].name).split()[:len(words)] == words]
    return hits[0] if len(hits) == 1 else None


def _bare_area(scene: Scene, legal: list[HeroAction], text: str) -> HeroAction | None:
    """The move an area alone names (``F3``, ``ground:F3``: where the hero goes), when
    exactly one legal move goes there, or None."""
    words = text.split()
    if len(words) != 1:
        return None
    b = scene.building
    i = b.find(words[0])
    moves = [a for a in legal if a.kind is HeroActionKind.MOVE and a.target is not None and (
        a.target == i if i is not None else b.short_form(words[0], a.target))]
    return moves[0] if len(moves) == 1 else None


def _by_short_form(scene: Scene, hero: Hero, legal: list[HeroAction], verb: str,
                   arg: str) -> HeroAction | None:
    """The one legal ``verb`` whose area ``arg`` is the short form of (``G2``); RuleError
    when it is the short form of more than one in reach."""
    b = scene.building
    short = [a for a in legal if a.kind.value == verb and a.kind is not
             HeroActionKind.PUT_OUT_CLOTHES and (i := _place(scene, hero, a)) is not None
             and b.short_form(arg, i)]
    if len(short) > 1:
        names = ", ".join(b.areas[_place(scene, hero, a) or 0].name for a in short)
        raise RuleError(f"{arg} is more than one area in {hero.name}'s reach: {names}",
                        tip=f"name the level too, e.g. {verb} {names.split(', ')[0]}")
    return short[0] if short else None


def _names(scene: Scene, hero: Hero, act: HeroAction, arg: str) -> bool:
    """Whether ``arg`` names this legal action: its area; a door or window by its name or the
    area beyond it (or nothing); a companion by any name that calls them alone
    (``fuego.names``; nothing: the hero's own clothes); a module's action by its area (or
    nothing); any other action by nothing."""
    b = scene.building
    if act.kind in (HeroActionKind.MOVE, HeroActionKind.SMOTHER, HeroActionKind.SPOT):
        return bool(arg) and b.find(arg) == act.target
    if act.kind in (HeroActionKind.OPEN, HeroActionKind.CLOSE):
        barrier = b.barriers[act.door]
        return not arg or arg == barrier.name or b.find(arg) == barrier.other(hero.area)
    if act.kind is HeroActionKind.PUT_OUT_CLOTHES:
        if not arg:
            return act.other is None
        hits = scene.heroes_named(arg)  # the table's reading of a name: fuego.names
        return len(hits) == 1 and hits[0].name == act.other
    if act.target is not None and not isinstance(act.kind, HeroActionKind):
        return not arg or b.find(arg) == act.target  # a module's action on an area
    return True
