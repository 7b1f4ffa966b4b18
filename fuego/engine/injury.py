"""What fire, debris, falls and bad air do to a character (003, Injury from Fire; RULES-NOTES).

Every roll a hero makes goes through :func:`hero_roll`, which applies smoke and confusion
penalties and lets the controller (a GM at the table) supply the player's own total.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from fuego.dice.roller import Pool, trait_check
from fuego.engine.events import EventKind
from fuego.engine.fire import damage_pool
from fuego.engine.heroes import Hero, Status
from fuego.rules.charts import (
    CONFUSION_UNKEPT_PENALTY,
    CONTACT_EXPOSURE,
    CONTACT_HOT,
    EXTRA_WOUND_STEP,
    SMOKE_KEPT_PENALTY,
    Contact,
    Exposure,
    Temperature,
    falling_pool,
)
from fuego.rules.formulas import fire_tn, half_dice, with_raises
from fuego.rules.settings import KnockedOutDeath
from fuego.world.places import BURNING_LIQUIDS

if TYPE_CHECKING:
    from fuego.engine.scene import Scene


class BurnSource(str, Enum):
    """What strikes a hero with fire from outside the building's fires, as a script's ``burn:``
    and the GM's ``burn`` name it (003, Injury from Fire); :data:`BURN_CONTACT` says how."""

    JET = "jet"  # a jet of burning gas (hot, per 10)
    MAGIC = "magic"  # magical fire (per 10)
    OBJECT = "object"  # a burning weapon or object (fleeting, per 20)
    OIL = "oil"  # splashed burning oil (hot, per 10, and it clings)


#: How each source's fire reaches the hero (``burn``'s contact).
BURN_CONTACT = {BurnSource.JET: Contact.JET, BurnSource.MAGIC: Contact.MAGIC,
                BurnSource.OBJECT: Contact.STRUCK, BurnSource.OIL: Contact.OIL}


class DamageCause(str, Enum):
    """The engine's own causes of a hero's fire damage (``hero-damaged``'s ``cause``); the GM,
    scripts and modules name theirs in words (``the GM (jet)``, ``script: CUE``)."""

    STANDING = "standing in fire"  # in a burning area at the end of the round
    MOVING = "moved into fire"
    CLOTHES = "clothes"  # their own burning clothes
    BURNING_OIL = "burning oil"  # the oil on them
    DEBRIS = "debris"


class Sense(Enum):
    """What an action leans on, for smoke penalties (003, Smoke)."""

    NONE = 0
    SIGHT = 1  # sight or smell: thin and thick smoke both hinder
    MOVEMENT = 2  # senses or movement: only thick smoke hinders


def smoke_penalty(scene: Scene, hero: Hero, sense: Sense, at: int | None = None) -> int:
    """Kept dice lost to smoke for this action (in area ``at``, default where the hero stands);
    Night Trained halves it, rounding down."""
    if sense is Sense.NONE or scene.smoke is None:
        return 0
    from fuego.rules.charts import Density

    d = scene.smoke.at(hero.area if at is None else at)
    if d is Density.THICK:
        lost = SMOKE_KEPT_PENALTY[Density.THICK]
    elif d is Density.THIN and sense is Sense.SIGHT:
        lost = SMOKE_KEPT_PENALTY[Density.THIN]
    else:
        return 0
    if hero.night_trained and not (hero.confused and d is Density.THICK):
        lost //= 2  # 003: a confused hero cannot use Night Trained in thick smoke
    return lost


def hero_pool(scene: Scene, hero: Hero, pool: Pool, sense: Sense = Sense.NONE,
              action: bool = True, at: int | None = None) -> Pool:
    """The pool after smoke, confusion and crippling (all RULES-NOTES / 003); ``at``: the area
    whose smoke counts, when the roll is made elsewhere than where the hero stands now."""
    lost = smoke_penalty(scene, hero, sense, at)
    if lost:
        pool = pool.with_kept(-lost)
    if action and hero.confused:
        pool = pool.with_unkept(-CONFUSION_UNKEPT_PENALTY)
    if action and hero.crippled:
        pool = pool.no_explode()
    if pool.rolled == 0:
        pool = Pool(1, 0, pool.bonus, pool.explode)
    return pool


def hero_roll(scene: Scene, hero: Hero, pool: Pool, tn: int | None, purpose: str,
              sense: Sense = Sense.NONE, action: bool = True) -> tuple[int, Pool]:
    """Roll for a hero: the controller may supply the player's total, else the roller does."""
    pool = hero_pool(scene, hero, pool, sense, action)
    if scene.ask_roll is not None:
        given = scene.ask_roll(hero, pool, tn, purpose)
        if given is not None:
            return given, pool
    return scene.roller.total(pool), pool


def add_dramatic(scene: Scene, hero: Hero, n: int, cause: str, *, deadly: bool = True) -> None:
    """Add Dramatic Wounds. A Knocked-Out character dies when *the fire* deals another (003,
    Knocked Out): ``deadly`` says whether these wounds are the fire's (or the GM's, whose word
    it is); suffocation, a fall and debris wound a Knocked-Out character as usual, unless
    ``rules.knocked_out_death`` is ``any`` (the older reading: any Dramatic Wound kills)."""
    if n <= 0 or hero.status is Status.DEAD:
        return
    if hero.status is Status.KNOCKED_OUT:
        hero.dramatic += n
        if deadly or scene.settings.knocked_out_death is KnockedOutDeath.ANY:
            hero.status = Status.DEAD
            scene.emit(EventKind.HERO_DIED, hero.name, hero.area, cause=cause,
                       dramatic=hero.dramatic)
        return
    was_crippled = hero.crippled
    hero.dramatic += n
    if hero.dramatic >= hero.knocked_out_at:
        hero.status = Status.KNOCKED_OUT
        hero.dice.clear()
        scene.emit(EventKind.HERO_KNOCKED_OUT, hero.name, hero.area, cause=cause,
                   dramatic=hero.dramatic)
    elif hero.crippled and not was_crippled:
        scene.emit(EventKind.HERO_CRIPPLED, hero.name, hero.area, dramatic=hero.dramatic)


def dramatic_wounds(flesh: int, total: int, exposure: Exposure) -> int:
    """A failed wound check against ``flesh`` Flesh Wounds: one Dramatic Wound, plus one for
    every full step it failed by (20, or 10 for clinging fire; 003). Heroes and fires alike."""
    return 1 + (flesh - total) // EXTRA_WOUND_STEP[exposure]


def wound_check(scene: Scene, hero: Hero, exposure: Exposure, cause: str, *,
                deadly: bool = True) -> None:
    """Brawn k Brawn against the Flesh Wounds; a failure gives Dramatic Wounds and resets them
    (``deadly``: as :func:`add_dramatic`)."""
    if hero.flesh <= 0:
        return
    tn = hero.flesh
    total, pool = hero_roll(scene, hero, hero.wound_check_pool(), tn, "wound check", action=False)
    step = EXTRA_WOUND_STEP[exposure]
    if total >= tn:
        scene.emit(EventKind.WOUND_CHECK, hero.name, hero.area, pool=pool.notation, tn=tn,
                   total=total, success=True)
        return
    dw = dramatic_wounds(tn, total, exposure)
    hero.flesh = 0
    scene.emit(EventKind.WOUND_CHECK, hero.name, hero.area, pool=pool.notation, tn=tn,
               total=total, success=False, dramatic=dw, step=step)
    add_dramatic(scene, hero, dw, cause, deadly=deadly)


def fire_damage(scene: Scene, hero: Hero, fd: int, temperature: Temperature,
                exposure: Exposure, cause: str, explode: bool = True, *, fire: bool = True,
                contact: Contact | None = None, source: int | None = None) -> None:
    """The fire's damage roll as Flesh Wounds, then a wound check (003). ``fire``: the damage is
    the fire's own; debris deals a fire's damage but is not fire (it neither kills a
    Knocked-Out character nor sets clothes alight). ``contact``: how it reached the hero (the
    log's word); ``source``: the id of the scene's fire that dealt it (the end-of-round burn
    skips a fire that already hurt the hero this round, 003)."""
    if not hero.present:
        return
    if fire and hero.fire_resistant:  # 001: "may ignore all fire effects"; debris is not fire
        scene.emit(EventKind.FIRE_RESISTED, hero.name, hero.area, fd=fd, cause=cause,
                   **({"contact": contact.value} if contact is not None else {}))
        return
    pool = damage_pool(fd, temperature, explode)
    total = scene.roller.total(pool)
    hero.flesh += total
    hero.fire_damaged = True
    if source is not None:
        hero.burned_by.add(source)
    data = {"contact": contact.value} if contact is not None else {}
    scene.emit(EventKind.HERO_DAMAGED, hero.name, hero.area, pool=pool.notation, damage=total,
               flesh=hero.flesh, fd=fd, temperature=temperature.value,
               exposure=exposure.value, cause=cause, **data)
    wound_check(scene, hero, exposure, cause, deadly=fire)
    if contact is Contact.OIL and hero.present and total > 0:
        cover_in_oil(scene, hero, fd, cause)
    # 003, Hero on Fire: "a hero who takes damage from fire" risks their clothes: fire's
    # damage, and more than none of it (not from the fire already on them)
    if (fire and total > 0 and scene.settings.burning_clothes and hero.present
            and contact not in ON_HERO and cause != DamageCause.CLOTHES):
        catch_clothes(scene, hero, fd)


#: The purpose of the roll against one's clothes catching fire (``catch_clothes``).
CATCH_CLOTHES = "clothes"
#: The fires that burn on the hero: their own damage does not set clothes alight again.
ON_HERO = frozenset({Contact.CLOTHES})


def burn(scene: Scene, hero: Hero, fd: int, contact: Contact, cause: str, *,
         temperature: Temperature | None = None, source: int | None = None,
         explode: bool = True) -> None:
    """Fire reaching a hero by ``contact``: its exposure (per 20 or per 10) and, for an
    explosion, a jet of gas or burning oil, its heat come from the rule tables
    (``CONTACT_EXPOSURE``, ``CONTACT_HOT``); otherwise ``temperature`` (default regular)."""
    fire_damage(scene, hero, fd, contact_heat(contact, temperature), CONTACT_EXPOSURE[contact],
                cause, explode, fire=contact is not Contact.DEBRIS, contact=contact,
                source=source)


def contact_heat(contact: Contact, temperature: Temperature | None) -> Temperature:
    """The heat fire reaching a hero by ``contact`` burns with: hot for an explosion, a jet of
    gas or burning oil (``CONTACT_HOT``), else the fire's own (default regular)."""
    if contact in CONTACT_HOT:
        return Temperature.HOT
    return temperature or Temperature.REGULAR


def contact_damage(scene: Scene, hero: Hero, fd: int, contact: Contact,
                   temperature: Temperature, explode: bool = True) -> Pool | None:
    """The damage roll fire reaching ``hero`` by ``contact`` makes (:func:`burn`'s), for the
    odds shown before a choice; None when it deals none (a fire-resistant hero, 001)."""
    if hero.fire_resistant and contact is not Contact.DEBRIS:
        return None
    return damage_pool(fd, contact_heat(contact, temperature), explode)


def contact_with(scene: Scene, area: int, moving: bool) -> Contact:
    """How a fire in ``area`` reaches a hero there: burning oil (or another burning liquid)
    covers them (003, "splashed with a burning chemical", "covered in burning liquid"; unless
    ``rules.burning_oil: fleeting``), else they stand in it or move through it."""
    from fuego.rules.settings import BurningOil

    if (scene.settings.burning_oil is BurningOil.CLINGS
            and not BURNING_LIQUIDS.isdisjoint(scene.building.areas[area].features)):
        return Contact.OIL
    return Contact.MOVING if moving else Contact.STANDING


def cover_in_oil(scene: Scene, hero: Hero, fd: int, cause: str) -> None:
    """Burning oil clings: the hero is on fire like burning clothes (003), a hot fire of half
    the oil's dice (at least 1), burning them each round until put out."""
    on = half_dice(fd)
    if hero.oiled and hero.clothes_fd >= on:
        return
    hero.clothes_fd = max(hero.clothes_fd, on)
    hero.oiled = True
    scene.emit(EventKind.OIL_CLINGS, hero.name, hero.area, fd=hero.clothes_fd, cause=cause)


def catch_clothes(scene: Scene, hero: Hero, fd: int) -> None:
    """Hero on Fire [Optional] (003): Finesse vs 5 x FD or clothes burn at half the dice."""
    if hero.clothes_fd:
        return
    tn = fire_tn(fd)
    total, pool = hero_roll(scene, hero, trait_check(hero.finesse), tn, CATCH_CLOTHES,
                            action=False)
    if total >= tn:
        return
    hero.clothes_fd = half_dice(fd)
    scene.emit(EventKind.CLOTHES_CAUGHT, hero.name, hero.area, pool=pool.notation, tn=tn,
               total=total, fd=hero.clothes_fd)


def avoid_pool(hero: Hero, knack: str | None = None) -> tuple[str, Pool]:
    """The Knack a hero avoids fire with (its best movement Knack unless named) and the
    ``(Panache + Knack) k Panache`` pool it rolls (003)."""
    if knack is None:
        knack, rank = hero.best_movement_knack()
    else:
        rank = hero.knack(knack)
    return knack, Pool(max(1, hero.panache + rank), hero.panache)


@dataclass(frozen=True, slots=True)
class ActionRoll:
    """What a hero's roll is, described once for the roll made and the odds shown: ``pool``
    (before smoke and confusion: :func:`hero_roll` applies them, with ``sense``) against ``tn``
    (raises called included), or against the roll of ``against`` (a hidden fire's Stealth)
    plus the raises called; a failed roll that costs damage names the fire's damage pool.
    ``knack``: the Knack an avoid roll leans on (the log says it); ``at``: the area whose smoke
    counts when it is not where the hero stands now (a move's avoid roll: the area entered)."""

    purpose: str
    pool: Pool
    sense: Sense
    tn: int | None = None
    against: Pool | None = None
    raises: int = 0
    damage: Pool | None = None
    knack: str | None = None
    at: int | None = None

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

    def tn_over(self, total: int) -> int:
        """The number to reach against the opposing roll's ``total``, raises called."""
        return with_raises(total, self.raises)


def make_roll(scene: Scene, hero: Hero, roll: ActionRoll,
              tn: int | None = None) -> tuple[bool, int, Pool, int]:
    """Roll ``roll`` for ``hero`` (against ``tn`` when given: an opposed roll's number) through
    :func:`hero_roll`: whether it succeeded, the total, the pool rolled and the TN."""
    target = roll.target if tn is None else tn
    total, pool = hero_roll(scene, hero, roll.pool, target, roll.purpose, sense=roll.sense)
    return total >= target, total, pool, target


class Avoid(str, Enum):
    """What an avoid roll is for, the start of its purpose (``avoid fire (leaping)``): the
    table words it and keys a saved answer by it."""

    FIRE = "avoid fire"
    DEBRIS = "avoid debris"  # falling structure: the same roll (RULES-NOTES)


def avoid_roll(hero: Hero, fd: int, raises: int = 0, *, knack: str | None = None,
               damage: Pool | None = None, at: int | None = None,
               avoid: Avoid = Avoid.FIRE) -> ActionRoll:
    """The roll to pass through fire of ``fd`` Fire Dice unharmed: Panache + a movement Knack
    against its TN (5 x FD, +5 per raise called; 003); ``avoid``: what it is rolled against."""
    knack, pool = avoid_pool(hero, knack)
    return ActionRoll(f"{avoid.value} ({knack})", pool, Sense.MOVEMENT,
                      tn=with_raises(fire_tn(fd), raises), raises=raises, damage=damage,
                      knack=knack, at=at)


def avoid_fire(scene: Scene, hero: Hero, roll: ActionRoll) -> bool:
    """Make an avoid roll (:func:`avoid_roll`, or a move's :func:`~fuego.engine.hero_actions.
    action_roll`) and log it; True: the hero is unharmed."""
    ok, total, pool, tn = make_roll(scene, hero, roll)
    scene.emit(EventKind.HERO_AVOIDED, hero.name, hero.area, pool=pool.notation, tn=tn,
               total=total, success=ok, knack=roll.knack)
    return ok


def debris(scene: Scene, hero: Hero, fd: int, what: str) -> None:
    """Falling structure: avoid at 5 x FD or take the attacking fire's damage (RULES-NOTES)."""
    if not hero.present:
        return
    if hero.in_play and avoid_fire(scene, hero, avoid_roll(hero, fd, avoid=Avoid.DEBRIS)):
        return
    scene.emit(EventKind.DEBRIS, hero.name, hero.area, what=what, fd=fd)
    burn(scene, hero, fd, Contact.DEBRIS, DamageCause.DEBRIS.value)


def fall(scene: Scene, hero: Hero, feet: int, to_area: int) -> None:
    """A floor gives way: fall damage (RULES-NOTES default), then a wound check."""
    pool = falling_pool(feet)
    total = scene.roller.total(pool)
    hero.area = to_area
    hero.flesh += total
    scene.emit(EventKind.HERO_FELL, hero.name, to_area, feet=feet, pool=pool.notation,
               damage=total, flesh=hero.flesh)
    wound_check(scene, hero, Exposure.FLEETING, "fall", deadly=False)
