"""An explosion (003, Injury from Fire): a hot fire of its Fire Dice, all at once.

003 rates explosions on the fire scale ("The size of a fire, like explosions, is rated on a scale
from 1 to 10"), counts explosives among the hot fires, and applies fire damage to whoever is
"caught in an explosion". So an explosion of N dice:

- reaches ``radius`` areas from its centre through openings and through every barrier it can
  break, one whose destruction TN is at most its own TN (5 x N, the table's TN column), and blows
  those open (a floor drops whoever stands on it); the walk is ``world.paths.Paths.blast``;
- deals everyone it reaches the damage of a hot fire of N dice (N k N) once, with no avoidance
  roll (003's avoidance is for moving through fire): a wound check per 20 (an explosion is not
  in the text's per-10 list), clothes at risk and a Knocked-Out hero's death as for any fire;
- leaves a hot fire of N dice at its centre where there is fuel, and ``scatter`` dice in every
  other burnable area it reaches; spends the centre's gunpowder.

The blast's own debris, where a scenario asks for it (``debris``), is rolled separately after
the fire: falling masonry, dodged and kept by half, and not fire. ``rules.explosions: debris``
plays the older reading: the blast is debris alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fuego.engine import structure
from fuego.engine.events import EventKind
from fuego.engine.injury import burn, debris
from fuego.rules.charts import Contact, Temperature
from fuego.rules.formulas import fire_tn
from fuego.rules.settings import ExplosionRule
from fuego.world.places import Feature

if TYPE_CHECKING:
    from fuego.engine.heroes import Hero
    from fuego.engine.scene import Cause, Scene


def explode(scene: Scene, center: int, fd: int, cause: Cause, *, radius: int = 1,
            scatter: int = 0, with_debris: bool = False, why: str = "an explosion",
            **data: Any) -> dict[int, int]:
    """Blow up ``fd`` dice at area ``center``; returns the areas it reached (area -> moves).
    ``data`` (a script's ``cue``) goes on the events it starts."""
    b = scene.building
    rule = scene.settings.explosions
    tn = fire_tn(fd)  # the blast breaks what a fire that size could destroy
    reached, broken = b.paths.blast(center, tn, radius)
    caught = [h for h in scene.heroes if h.present and h.area in reached]
    scene.emit(EventKind.EXPLOSION, None, center, fd=fd, radius=radius, tn=tn, rule=rule.value,
               areas=[scene.area_name(i) for i in sorted(reached, key=lambda i: (reached[i], i))],
               broken=[b.barriers[k].name for k in broken], caught=[h.name for h in caught],
               why=why, **data)
    if b.areas[center].burnable:
        scene.start_fire(center, fd, cause, temperature=Temperature.HOT, explosion=True, **data)
    for k in broken:
        structure.break_barrier(scene, b.barriers[k], fd, why, dict(data), bystanders=False)
    for hero in caught:
        if hero.present:
            _caught(scene, hero, fd, rule, with_debris, why)
    if scatter:
        for i in sorted(reached, key=lambda i: (reached[i], i)):
            if i != center and b.areas[i].burnable:
                scene.start_fire(i, scatter, cause, explosion=True, **data)
    if Feature.GUNPOWDER in b.areas[center].features:
        b.remove_feature(center, Feature.GUNPOWDER)
    return reached


def _caught(scene: Scene, hero: Hero, fd: int, rule: ExplosionRule, with_debris: bool,
            why: str) -> None:
    """A hero the blast reaches: the damage of a hot fire of its dice (then its debris, if
    asked), or, under the older reading, its debris alone."""
    if rule is ExplosionRule.DEBRIS:
        debris(scene, hero, fd, "explosion")  # the older reading: the blast is debris
        return
    burn(scene, hero, fd, Contact.EXPLOSION, why)
    if with_debris:
        debris(scene, hero, fd, "the blast's debris")
