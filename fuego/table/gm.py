"""The GM's hand on the scene: overrides a game master may make at any prompt.

Each override goes through the scene like any rule (the active set, the building, the log), and
leaves an ``EventKind.GM`` record naming what the GM did, so a saved session replays it and the
log shows it. Barriers open, close and break through ``fuego.engine.structure``, as for every
other actor.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from fuego.engine import structure
from fuego.engine.events import EventKind
from fuego.engine.heroes import Status
from fuego.engine.scene import Cause
from fuego.engine.structure import BarrierAct
from fuego.errors import RuleError
from fuego.rules.charts import Rank, Temperature
from fuego.rules.formulas import is_fire_dice
from fuego.rules.settings import KnockedOutDeath
from fuego.world.places import OPENABLE, Barrier

if TYPE_CHECKING:
    from fuego.engine.events import Event
    from fuego.engine.fire import Fire
    from fuego.engine.injury import BurnSource
    from fuego.engine.scene import Scene
    from fuego.world.building import Building


#: The GM as an event's actor, a move's ``why`` and a fire's change's cause.
GM_ACTOR = "GM"
#: The ``gm`` event's ``action`` for a line of the GM's own on the players' screen.
NOTE_ACTION = "note"
#: The log's ``action`` of a ``reveal`` and of a ``hide`` (the verbs' own words).
REVEAL_ACTION, HIDE_ACTION = "reveal", "hide"


class WoundKind(str, Enum):
    """The wounds the GM deals (``wound``); the value is the log's ``{kind}-wounds`` action."""

    FLESH = "flesh"
    DRAMATIC = "dramatic"


class Shown(str, Enum):
    """What ``reveal``/``hide`` shows the players' screen: the whole map, a level or a
    room; the value is the log's ``what``."""

    ALL = "all"
    LEVEL = "level"
    ROOM = "room"


def _area(scene: Scene, name: str) -> int:
    return scene.building.area(name).index


def find_barrier(scene: Scene, ref: str) -> Barrier:
    """A barrier by the name the map gave it, in any case (``front door``), or by its two areas
    (``ground:C4|ground:D4``, ``ground:C4 ground:D4``, ``C4-D4``): the building's one reading
    (:meth:`fuego.world.building.Building.barrier`), which refuses a name several barriers
    share and lists them."""
    return scene.building.barrier(ref, tip="name it by its name or its two areas, e.g. "
                                           "'ground:C4 ground:D4'")


def start_fire(scene: Scene, area: str, fd: int, *, temperature: str | None = None,
               kind: str | None = None, cause: Cause = Cause.GM) -> Fire | None:
    i = _area(scene, area)
    if not is_fire_dice(fd):
        raise RuleError(f"Fire Dice must be 1-10, not {fd}")
    if not scene.building.areas[i].burnable:
        raise RuleError(f"nothing burns in {area}",
                        tip="pick an area with fuel that has not burned out")
    scene.emit(EventKind.GM, GM_ACTOR, i, action="start-fire", fd=fd)
    return scene.start_fire(i, fd, cause, temperature=Temperature(temperature) if temperature else None,
                            kind=Rank(kind) if kind else None)


def set_fire_dice(scene: Scene, area: str, fd: int) -> None:
    i = _area(scene, area)
    fire = scene.fires.get(i)
    if fire is None:
        raise RuleError(f"no fire burns in {area}")
    if not (fd == 0 or is_fire_dice(fd)):
        raise RuleError(f"Fire Dice must be 0-10 (0 puts it out), not {fd}")
    scene.emit(EventKind.GM, GM_ACTOR, i, action="set-fire-dice", fd=fd)
    if fd == 0:
        scene.extinguish(fire, "put out by the GM", burned_out=False)
    else:
        scene.set_fire_dice(fire, fd, GM_ACTOR)


def barrier(scene: Scene, ref: str, what: BarrierAct | str, by: str = GM_ACTOR) -> None:
    """``what``: open, close or break."""
    try:
        act = BarrierAct(what)
    except ValueError:
        raise RuleError(f"unknown barrier action {what!r}", tip="open, close or break") from None
    target = find_barrier(scene, ref)
    scene.emit(EventKind.GM, by, target.a, action=f"{act.value}-barrier", barrier=target.name)
    if act is BarrierAct.BREAK:
        structure.break_barrier(scene, target,
                                max((f.fd for f in scene.fires.values()), default=3), by)
        return
    if target.kind not in OPENABLE:
        raise RuleError(f"{target.describe()} at {target.name} cannot {act.value}")
    act_on = structure.open_barrier if act is BarrierAct.OPEN else structure.close_barrier
    act_on(scene, target, by)


def move_hero(scene: Scene, name: str, area: str) -> None:
    """Put a character anywhere; one who had escaped comes back into play."""
    hero = scene.hero(name)
    i = _area(scene, area)
    if hero.status is Status.DEAD:
        raise RuleError(f"{hero.name} is dead and cannot be moved")
    frm = hero.area
    hero.area = i
    if hero.status is Status.ESCAPED:
        hero.status = Status.ACTIVE
    scene.emit(EventKind.GM, GM_ACTOR, i, action="move-hero", hero=hero.name)
    scene.emit(EventKind.HERO_MOVED, hero.name, i, frm=scene.area_name(frm), why=GM_ACTOR)


def wound(scene: Scene, name: str, n: int, kind: WoundKind) -> None:
    """``kind`` flesh: N Flesh Wounds, then the wound check they call for; dramatic: N
    Dramatic Wounds (crippled, knocked out or killed as the count says)."""
    from fuego.engine.injury import add_dramatic, wound_check
    from fuego.rules.charts import Exposure

    hero = scene.hero(name)
    if hero.status is Status.DEAD:
        raise RuleError(f"{hero.name} is dead")
    scene.emit(EventKind.GM, GM_ACTOR, hero.area, action=f"{kind.value}-wounds",
               hero=hero.name, n=n)
    # 003, Knocked Out: only the fire's Dramatic Wound kills; the GM's wounds are not the
    # fire's (``burn`` is), unless rules.knocked_out_death says fire-and-gm (the older reading)
    deadly = scene.settings.knocked_out_death is not KnockedOutDeath.FIRE
    if kind is WoundKind.FLESH:
        hero.flesh += n
        wound_check(scene, hero, Exposure.FLEETING, "the GM", deadly=deadly)
    else:
        add_dramatic(scene, hero, n, "the GM", deadly=deadly)


def burn(scene: Scene, name: str, fd: int, by: BurnSource) -> None:
    """Fire strikes a hero: a jet of burning gas, magical fire, a burning weapon or object, or
    splashed burning oil, of ``fd`` dice (``fuego.engine.injury.burn``: its exposure and heat
    from the rule tables; the fire's, so a Knocked-Out hero dies of it)."""
    from fuego.engine.injury import BURN_CONTACT
    from fuego.engine.injury import burn as burn_hero

    hero = scene.hero(name)
    if not hero.present:
        raise RuleError(f"{hero.name} is not in the scene")
    scene.emit(EventKind.GM, GM_ACTOR, hero.area, action=f"burn-{by.value}", hero=hero.name, fd=fd)
    burn_hero(scene, hero, fd, BURN_CONTACT[by], f"the GM ({by.value})")


def explode(scene: Scene, area: str, fd: int, radius: int) -> None:
    """An explosion of ``fd`` dice (``fuego.engine.explosion.explode``)."""
    from fuego.engine.explosion import explode as blow_up

    i = _area(scene, area)
    scene.emit(EventKind.GM, GM_ACTOR, i, action="explode", fd=fd)
    blow_up(scene, i, fd, Cause.GM, radius=radius, why="the explosion")


def blast(scene: Scene, area: str, dice: int) -> None:
    """An area-effect blast that blows fires out (001; ``fuego.modules.firefighting.blast``)."""
    from fuego.modules.firefighting import blast as blow_out

    i = _area(scene, area)
    scene.emit(EventKind.GM, GM_ACTOR, i, action="blast", fd=dice)
    blow_out(scene, i, dice, why="the GM's blast")


def add_character(scene: Scene, name: str, area: str, *, npc: bool, rank: Rank) -> None:
    """A new hero or NPC (every Trait 2, no Knacks) steps in at ``area``."""
    from fuego.engine.heroes import Hero

    if any(h.name.lower() == name.lower() for h in scene.heroes):
        raise RuleError(f"there is already a character named {name!r}")
    i = _area(scene, area)
    hero = Hero(name, i, rank=rank, npc=npc)
    scene.heroes.append(hero)
    if npc:
        scene.npcs_added.append(hero.name)
    scene.emit(EventKind.GM, GM_ACTOR, i, action="add-character", hero=hero.name, npc=npc,
               rank=rank.value)


def remove_character(scene: Scene, name: str) -> None:
    """Take a character out of the scene altogether (the GM's call, not an escape)."""
    hero = scene.hero(name)
    hero.dice.clear()  # a die already queued in this round's phases is not played
    scene.heroes.remove(hero)
    scene.emit(EventKind.GM, GM_ACTOR, hero.area, action="remove-character", hero=hero.name)


def show(scene: Scene, verb: str, what: Shown, name: str | None) -> None:
    """``reveal`` (verb) shows the players' screen ``all`` the map, a ``level`` or a
    ``room`` (name: the level's name, the room's key); ``hide`` takes it back. Only the log
    changes: the screen reads it (fuego.web.view), so undo and resume replay it."""
    data = {"what": what.value} | ({"name": name} if name is not None else {})
    scene.emit(EventKind.GM, GM_ACTOR, None, action=verb, **data)


def shown_areas(b: Building, what: str, name: str | None) -> set[int]:
    """The areas a ``reveal``/``hide`` names: ``all``, a ``level`` or a ``room`` (by key)."""
    if what == Shown.ALL:
        return set(range(len(b.areas)))
    if what == Shown.LEVEL:
        return {a.index for a in b.areas if b.levels[a.level].name == name}
    return set(b.room_areas(str(name))) if name in b.rooms else set()


def shown_after(b: Building, shown: set[int], event: Event) -> set[int]:
    """What the GM shows the players after ``event``: ``shown`` with a reveal's areas added,
    or a hide's taken away; after any other event, ``shown`` itself."""
    action = event.data.get("action") if event.kind is EventKind.GM else None
    if action != REVEAL_ACTION and action != HIDE_ACTION:
        return shown
    areas = shown_areas(b, str(event.data.get("what")), event.data.get("name"))
    return shown | areas if action == REVEAL_ACTION else shown - areas


def revealed(scene: Scene) -> set[int]:
    """The areas the GM has shown the players (``reveal``, less what ``hide`` took back), read
    from the log: an undo or a resume replays them with the rest."""
    out: set[int] = set()
    for event in scene.log.since(0, _GM_KINDS):
        out = shown_after(scene.building, out, event)
    return out


_GM_KINDS = frozenset({EventKind.GM})


def note(scene: Scene, text: str) -> None:
    """A line of the GM's own on the players' screen."""
    scene.emit(EventKind.GM, GM_ACTOR, None, action=NOTE_ACTION, text=text)


def end_scene(scene: Scene) -> None:
    scene.ended = True
    scene.emit(EventKind.GM, GM_ACTOR, None, action="end-scene")
