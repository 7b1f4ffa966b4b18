"""What the players see (TEMPORARY stand-in on the export branch: the `sight` engineer's
module of the same name and API replaces this file at merge).

:func:`players_sight` gives the areas, fires and characters the players' heroes still on their
feet see now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from fuego.engine.heroes import Status

if TYPE_CHECKING:
    from fuego.engine.scene import Scene

__all__ = ["PlayersSight", "players_sight"]


@dataclass(frozen=True)
class PlayersSight:
    """Area indices (``areas``, ``fires``) and names (``characters``) the players see."""

    areas: frozenset[int]
    fires: frozenset[int]
    characters: frozenset[str]


def players_sight(scene: Scene) -> PlayersSight:
    """What the players' heroes (not the GM's characters; active or escaped) see now."""
    b = scene.building
    watching = [h for h in scene.heroes
                if not h.npc and h.status in (Status.ACTIVE, Status.ESCAPED)]
    areas: set[int] = set()
    fires: set[int] = set()
    for hero in watching:
        here = set(b.room_areas(b.areas[hero.area].room)) | set(b.open_neighbours(hero.area))
        areas |= here | {hero.area}
        for i in here | set(hero.known_fires):
            fire = scene.fires.get(i)
            if fire is not None and (hero.name not in fire.hidden_from or i in hero.known_fires):
                fires.add(i)
    characters = {h.name for h in scene.heroes if not h.npc or h.area in areas}
    return PlayersSight(frozenset(areas), frozenset(fires), frozenset(characters))
