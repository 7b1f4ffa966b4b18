"""What each hero sees: the one place that decides it (docs/rules.md, Sight).

Every output the players read (the players' screen, ``fuego map`` and ``fuego export`` without
``--gm``, the table's "GM only" notes) and every rule that asks what a hero sees (spotting a
hidden fire; the automatic heroes' way out, ``AutoController.known``) reads :func:`hero_sight`,
:func:`players_sight`, :func:`why_unseen` or :func:`fires_seen`.

fuego's reading, over the building's 10-ft areas:

- **Line of sight.** A hero stands in the middle of their area and sees an area on their level
  when the straight line between the two areas' middles crosses only barriers one can see
  through: openings, doors and windows standing open, anything broken, and windows even when
  shut (glass; a papered window lets shapes through, nothing clear). Walls, shut doors and
  the plan's edge stop it (:meth:`fuego.world.paths.Paths.line`). Up or down, a hero sees
  only across an open stair, ladder or hole (or a floor burned through) from their own area.
- **Smoke (003, Smoke).** Thin smoke lets one see forms clearly to 20 ft and blurred shapes to
  40 ft; thick smoke 2 ft and 6 ft (``rules.charts.SMOKE_SIGHT_FEET``). What counts is the
  smoke the line runs through on its way to the area's near side, the hero's own area
  included: each foot of thin smoke uses 1/20 of clear sight and 1/40 of shapes, each foot of
  thick 1/2 and 1/6 **[reading]**. A hero always sees their own area.
- **From outside.** A hero outdoors sees the building's outside: the outdoor areas of other
  levels above the ground they see (a balcony over the lane), the areas behind the windows and
  open doors on them (flames and smoke at the windows), and the roof of every room that has
  flashed over (its top areas: no room above them).
- **Hidden fires (003, Stealth).** A fire the hero does not see is hidden from them; a hero
  may roll to spot one near them (``hero_actions``), and a fire once spotted stays known to
  them (``Hero.known_fires``). A spot that failed leaves the fire hidden: "Stealth won".

Sight is worked out from the state alone (the building, the fires, the smoke, the heroes and
what they spotted), so a replayed session, the GM's screen and every renderer get the same
answer; the scene's :class:`SightCache` keeps it per that state (its key says which).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import TYPE_CHECKING

from fuego.engine.events import EventKind
from fuego.engine.heroes import Hero, Status
from fuego.engine.smoke import SMOKE_WORDS
from fuego.rules.charts import SMOKE_SIGHT_FEET, Density
from fuego.world.paths import HALF_AREA_FEET, Sightline
from fuego.world.places import BarrierKind

if TYPE_CHECKING:
    from fuego.engine.scene import Scene


class Unseen(str, Enum):
    """Why a hero does not see an area or the fire in it (:func:`why_unseen`)."""

    OUT_OF_SIGHT = "out-of-sight"  # a wall or the plan's edge in the line of sight
    CLOSED_DOOR = "closed-door"  # a shut door in the line of sight
    OTHER_LEVEL = "other-level"  # above or below, no open stair, ladder or hole between
    HIDDEN = "hidden"  # out of sight, and the hero's spot lost to the fire's Stealth
    THICK_SMOKE = "thick-smoke"  # thick smoke on the way: clear to 2 ft, shapes to 6 ft
    TOO_FAR_IN_SMOKE = "too-far-in-smoke"  # thin smoke on the way: shapes to 40 ft
    KNOCKED_OUT = "knocked-out"  # the hero sees nothing
    DEAD = "dead"

    @property
    def words(self) -> str:
        """The reason in a GM's words (``status``, ``look``)."""
        return UNSEEN_WORDS[self]


UNSEEN_WORDS = {
    Unseen.OUT_OF_SIGHT: "out of line of sight",
    Unseen.CLOSED_DOOR: "behind a closed door",
    Unseen.OTHER_LEVEL: "on another level",
    Unseen.HIDDEN: "hidden: its Stealth won",
    Unseen.THICK_SMOKE: "in thick smoke",
    Unseen.TOO_FAR_IN_SMOKE: "too far through smoke",
    Unseen.KNOCKED_OUT: "knocked out",
    Unseen.DEAD: "dead",
}

class Blind(str, Enum):
    """Why the players' heroes together see nothing at all (:attr:`PlayersSight.blind`): no
    fire is hidden from anyone then, and the players' outputs say so rather than show an empty
    map as if the fire were out."""

    DOWN = "down"  # every players' hero is knocked out or dead
    NO_HEROES = "no-heroes"  # no players' hero in the scene (none, or the GM's characters only)

    @property
    def words(self) -> str:
        """The reason in the players' words (the players' screen)."""
        return BLIND_WORDS[self]


BLIND_WORDS = {
    Blind.DOWN: "no hero is conscious to see",
    Blind.NO_HEROES: "no hero of yours in the scene",
}

#: Heroes who can look around: in the building on their feet, or escaped and watching.
WATCHING = frozenset({Status.ACTIVE, Status.ESCAPED})
#: (rounding: a line exactly at the limit is within it)
_EPS = 1e-9


class Seen(IntEnum):
    """How well a hero sees an area."""

    NOT = 0
    SHAPES = 1  # blurred shapes only (smoke, a papered window)
    CLEAR = 2


@dataclass(frozen=True, slots=True)
class HeroSight:
    """What one hero sees now (areas by index).

    ``areas``: seen clearly; ``blurred``: blurred shapes only (not in ``areas``); ``fires``:
    the areas of the fires the hero sees (clearly, as shapes, from outside, or spotted);
    ``smoke``: the smoky areas in view; ``characters``: the others in view, by name."""

    hero: str
    areas: frozenset[int] = frozenset()
    blurred: frozenset[int] = frozenset()
    fires: frozenset[int] = frozenset()
    smoke: frozenset[int] = frozenset()
    characters: frozenset[str] = frozenset()

    @property
    def in_view(self) -> frozenset[int]:
        """Every area seen at all (clearly or as shapes)."""
        return self.areas | self.blurred


@dataclass(frozen=True, slots=True)
class PlayersSight:
    """What the players' heroes who can still see (``heroes``: not the GM's characters, not
    knocked out or dead) see together: the union of their :class:`HeroSight`. The one source
    every players' output reads. ``blind``: why none of them can see (None while one can)."""

    heroes: tuple[str, ...] = ()
    areas: frozenset[int] = frozenset()
    blurred: frozenset[int] = frozenset()
    fires: frozenset[int] = frozenset()
    smoke: frozenset[int] = frozenset()
    characters: frozenset[str] = frozenset()
    each: tuple[HeroSight, ...] = ()
    blind: Blind | None = None

    @property
    def in_view(self) -> frozenset[int]:
        return self.areas | self.blurred

    def hides(self, area: int) -> bool:
        """Is the fire in ``area`` hidden from the players (003's hidden fires: some hero of
        theirs looks, and none sees it)? With nobody to look (:attr:`blind`) no fire is hidden
        from anyone: the GM's map draws every fire as it burns."""
        return self.blind is None and area not in self.fires


@dataclass(frozen=True, slots=True)
class Look:
    """One hero's look at one area: how well, why not, and the line that decided it."""

    seen: Seen
    why: Unseen | None = None
    line: Sightline | None = None

    @property
    def feet(self) -> float | None:
        """The distance to the area's near side along the line (None: not on a line)."""
        return None if self.line is None else self.line.feet


# -- one look ------------------------------------------------------------------------------
def through(scene: Scene, line: Sightline) -> Look:
    """What a look along ``line`` makes out (the barriers on it, then the smoke: 003's
    distances, :data:`fuego.rules.charts.SMOKE_SIGHT_FEET`)."""
    if not line.clear:
        stop = line.stop
        if stop is None:
            why = Unseen.OUT_OF_SIGHT
        elif stop.kind is BarrierKind.DOOR:
            why = Unseen.CLOSED_DOOR
        elif stop.vertical:
            why = Unseen.OTHER_LEVEL
        else:
            why = Unseen.OUT_OF_SIGHT
        return Look(Seen.NOT, why, line)
    density = scene.smoke.density if scene.smoke is not None else None
    clear_used = shapes_used = 0.0
    thick = False
    if density:  # (no smoke anywhere: nothing to count)
        for area, feet in line.pieces:
            d = density.get(area)
            if d:
                reach = SMOKE_SIGHT_FEET[SMOKE_WORDS[d]]
                clear_used += feet / reach.clear
                shapes_used += feet / reach.shapes
                thick = thick or d is Density.THICK
    if shapes_used > 1 + _EPS:
        return Look(Seen.NOT, Unseen.THICK_SMOKE if thick else Unseen.TOO_FAR_IN_SMOKE, line)
    if clear_used > 1 + _EPS or line.blurs:
        return Look(Seen.SHAPES, None, line)
    return Look(Seen.CLEAR, None, line)


def _outdoors(scene: Scene, i: int) -> bool:
    b = scene.building
    return b.rooms[b.areas[i].room].outdoors


def _roofs(scene: Scene) -> set[int]:
    """The areas under the roofs of the rooms that have flashed over: those with no indoor
    area above them."""
    b = scene.building
    out: set[int] = set()
    for key in scene.flashed:
        if b.rooms[key].outdoors:
            continue
        for i in b.room_areas(key):
            above = b.vertical_neighbour(i, up=True)
            if above is None or _outdoors(scene, above[0]):
                out.add(i)
    return out


def _from_outside(scene: Scene, hero: Hero, area: int, look_here: dict[int, Look] | None,
                  roofs: set[int]) -> Look:
    """A look from outdoors at ``area`` on another level (the module docstring's "From
    outside"); ``look_here``: the hero's looks on their own level, where already made."""
    b = scene.building
    here = b.areas[hero.area]

    def on_level(i: int) -> Look:
        if look_here is not None:
            return look_here.get(i, Look(Seen.NOT, Unseen.OUT_OF_SIGHT))
        return through(scene, b.paths.line(hero.area, i))

    best = Look(Seen.NOT, Unseen.OTHER_LEVEL)
    for face in b.paths.faces().get(area, ()):
        below = b.at(here.level, b.areas[face].col, b.areas[face].row)
        if below is not None:
            got = on_level(below)
            if got.seen > best.seen:
                best = Look(got.seen, None, got.line)
    if area in roofs and best.seen < Seen.CLEAR:
        # a roof alight stands above the street: only the hero's own smoke is in the way
        got = through(scene, Sightline(((hero.area, HALF_AREA_FEET),)))
        if got.seen > best.seen:
            best = got
    return best


def _spot_lost(scene: Scene, hero: Hero, area: int) -> bool:
    """Did the hero's last spot roll at the fire burning in ``area`` now fail?"""
    fire = scene.fires.get(area)
    if fire is None:
        return False
    name = scene.area_name(area)
    for event in reversed(scene.log):
        if event.round < fire.born:
            break
        if event.actor == hero.name and event.area == name and event.kind in (
                EventKind.FIRE_HIDDEN, EventKind.FIRE_SPOTTED):
            return event.kind is EventKind.FIRE_HIDDEN
    return False


#: Why a hero sees nothing at all, by the hero's status (the others can look).
BLINDED = {Status.KNOCKED_OUT: Unseen.KNOCKED_OUT, Status.DEAD: Unseen.DEAD}


def blinded(hero: Hero) -> Unseen | None:
    """Why ``hero`` sees nothing at all (knocked out, dead), or None while they can look."""
    return BLINDED.get(hero.status)


def look(scene: Scene, hero: Hero, area: int, roofs: set[int] | None = None) -> Look:
    """How well ``hero`` sees ``area`` now, and why not (spotted fires aside); ``roofs``: the
    flashed-over roofs (:func:`_roofs`) where the caller looks at many areas."""
    down = blinded(hero)
    if down is not None:
        return Look(Seen.NOT, down)
    b = scene.building
    got = through(scene, b.paths.line(hero.area, area))
    other_level = b.areas[area].level != b.areas[hero.area].level
    if other_level and got.why is Unseen.OUT_OF_SIGHT:
        got = Look(Seen.NOT, Unseen.OTHER_LEVEL, got.line)
    if got.seen is not Seen.CLEAR and other_level and _outdoors(scene, hero.area):
        outside = _from_outside(scene, hero, area, None, _roofs(scene) if roofs is None else roofs)
        if outside.seen > got.seen:
            got = outside
    return got


def sees_fire(scene: Scene, hero: Hero, area: int, roofs: set[int] | None = None) -> bool:
    """Does ``hero`` see the fire in ``area`` (in view, or spotted)? One look, not the whole
    sight: what the spot rule asks of the few fires near a hero; it agrees with
    :func:`hero_sight`'s ``fires`` (both are made of :func:`look`'s parts)."""
    if area not in scene.fires or hero.status not in WATCHING:
        return False
    return area in hero.known_fires or look(scene, hero, area, roofs).seen is not Seen.NOT


def why_unseen(scene: Scene, hero: Hero, area: int) -> Unseen | None:
    """Why ``hero`` does not see ``area`` (or the fire in it): None when they see it."""
    if area in hero_sight(scene, hero).fires:
        return None
    got = look(scene, hero, area)
    if got.seen is not Seen.NOT:
        return None
    if got.why not in (Unseen.KNOCKED_OUT, Unseen.DEAD) and _spot_lost(scene, hero, area):
        return Unseen.HIDDEN
    return got.why


# -- everything a hero sees ----------------------------------------------------------------
class SightCache:
    """What each hero sees, kept for the state it follows: the one owner of sight's answers
    (the scene holds one, ``Scene.sight``; nothing else keeps them).

    A hero's :class:`HeroSight` is kept until its key changes (:meth:`key`): the building (its
    ``version``: every barrier, fuel and feature change; the lines of sight themselves are
    the building's, ``Paths.line``), the fires (their areas), the smoke (its density area by
    area), the rooms flashed over, every hero's place and status, and the fires this hero has
    spotted. Nothing tells it of a change: the key is read afresh at each ask, so whatever
    changes that state (a rule, a module, the GM's hand, a replayed save) is seen."""

    __slots__ = ("_kept", "_fires")

    def __init__(self) -> None:
        self._kept: dict[str, tuple[tuple, HeroSight]] = {}
        self._fires: dict[str, tuple[tuple, frozenset[int]]] = {}

    @staticmethod
    def key(scene: Scene, hero: Hero) -> tuple:
        """Everything ``hero``'s sight follows."""
        smoke = scene.smoke
        return (id(scene.building), scene.building.version, hero.name, hero.area, hero.status,
                tuple(sorted(hero.known_fires)), tuple(scene.fires), tuple(sorted(scene.flashed)),
                tuple(sorted(smoke.density.items())) if smoke is not None else (),
                tuple((h.name, h.area, h.status) for h in scene.heroes))

    def of(self, scene: Scene, hero: Hero) -> HeroSight:
        """What ``hero`` sees now (:func:`hero_sight`)."""
        key = self.key(scene, hero)
        known = self._kept.get(hero.name)
        if known is not None and known[0] == key:
            return known[1]
        got = _hero_sight(scene, hero)
        self._kept[hero.name] = (key, got)
        return got

    def fires_of(self, scene: Scene, hero: Hero) -> frozenset[int]:
        """The fires ``hero`` sees now (:func:`fires_seen`), kept for the same key."""
        key = self.key(scene, hero)
        whole = self._kept.get(hero.name)
        if whole is not None and whole[0] == key:
            return whole[1].fires
        known = self._fires.get(hero.name)
        if known is not None and known[0] == key:
            return known[1]
        roofs = _roofs(scene) if _outdoors(scene, hero.area) else None  # (once for all fires)
        got = frozenset(i for i in scene.fires if sees_fire(scene, hero, i, roofs))
        self._fires[hero.name] = (key, got)
        return got


def hero_sight(scene: Scene, hero: Hero) -> HeroSight:
    """What ``hero`` sees now (:class:`HeroSight`), kept by the scene's :class:`SightCache`."""
    return scene.sight.of(scene, hero)


def fires_seen(scene: Scene, hero: Hero) -> frozenset[int]:
    """The areas of the fires ``hero`` sees now (in view, or spotted): :func:`hero_sight`'s
    ``fires``, but asked of each fire alone (:func:`sees_fire`) unless the whole sight is
    kept. What the automatic heroes read at every step: the fires are fewer than the areas in
    view (a whole sight from a new area draws a line to every area of an open field)."""
    return scene.sight.fires_of(scene, hero)


def _hero_sight(scene: Scene, hero: Hero) -> HeroSight:
    if hero.status not in WATCHING:
        return HeroSight(hero.name)
    b = scene.building
    looks = {i: through(scene, line) for i, line in b.paths.sightlines(hero.area).items()}
    seen: dict[int, Seen] = {i: got.seen for i, got in looks.items() if got.seen is not Seen.NOT}
    if _outdoors(scene, hero.area):
        level = b.areas[hero.area].level
        here = {i: got for i, got in looks.items() if b.areas[i].level == level}
        roofs = _roofs(scene)
        for i in set(b.paths.faces()) | roofs:
            if b.areas[i].level != level and seen.get(i, Seen.NOT) is not Seen.CLEAR:
                got = _from_outside(scene, hero, i, here, roofs)
                if got.seen > seen.get(i, Seen.NOT):
                    seen[i] = got.seen
    clear = frozenset(i for i, s in seen.items() if s is Seen.CLEAR)
    blurred = frozenset(i for i, s in seen.items() if s is Seen.SHAPES)
    fires = {i for i in seen if i in scene.fires}
    fires.update(i for i in hero.known_fires if i in scene.fires)
    smoke = scene.smoke
    smoky = frozenset(i for i in seen if smoke is not None and smoke.at(i))
    others = frozenset(h.name for h in scene.heroes if h is not hero and h.area in seen
                       and (h.present or h.status is Status.ESCAPED))
    return HeroSight(hero.name, clear, blurred, frozenset(fires), smoky, others)


def observers(scene: Scene) -> list[Hero]:
    """The players' heroes who can still see: not the GM's characters, not knocked out or
    dead."""
    return [h for h in scene.heroes if not h.npc and h.status in WATCHING]


def players_sight(scene: Scene) -> PlayersSight:
    """What the players' heroes see together (:class:`PlayersSight`)."""
    each = tuple(hero_sight(scene, h) for h in observers(scene))
    if not each:
        down = any(not h.npc for h in scene.heroes)
        return PlayersSight(blind=Blind.DOWN if down else Blind.NO_HEROES)
    areas: frozenset[int] = frozenset().union(*(s.areas for s in each))
    blurred: frozenset[int] = frozenset().union(*(s.blurred for s in each)) - areas
    return PlayersSight(
        heroes=tuple(s.hero for s in each), areas=areas, blurred=blurred,
        fires=frozenset().union(*(s.fires for s in each)),
        smoke=frozenset().union(*(s.smoke for s in each)),
        characters=frozenset().union(*(s.characters for s in each)), each=each)

