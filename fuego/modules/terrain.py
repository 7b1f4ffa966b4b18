"""An area's terrain as the rule modules see it, and what it takes to set it alight.

:func:`terrain_of` is the area's natural terrain (``fuego.modules.common.natural_terrain``)
unless a fire break cleared it; :func:`alpha_target` is Alpha Strike's fire-starting target for
that terrain, read by the ignition and wind modules alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fuego.modules.common import TERRAINS, natural_terrain
from fuego.modules.fire_breaks import FireBreaks

if TYPE_CHECKING:
    from fuego.engine.scene import Scene


#: Fire Starting Base Target, intentional / unintentional (001, Alpha Strike fire tables);
#: None is NA (cannot be set on fire normally).
ALPHA_BASE_TARGET: dict[str, tuple[int, int] | None] = {
    "water": None,
    "clear": (11, 11),
    "paved": None,
    "rough": (12, 12),
    "jungle": (7, 10),
    "woods": (6, 9),
    "building": (9, 10),
    "industrial": (4, 6),
    "magma": (4, 6),
}


def terrain_of(scene: Scene, i: int) -> str:
    """An area's terrain: what a fire break made of it, else its natural terrain."""
    breaks = scene.module(FireBreaks)
    if breaks is not None and i in breaks.converted:
        return breaks.converted[i]
    return natural_terrain(scene, i)


def alpha_target(scene: Scene, i: int, *, intentional: bool) -> int | None:
    """The Alpha Strike base target of area ``i``'s terrain with the terrain's own modifier
    (Planted Fields for grain and vineyards); None where the text says NA."""
    t = TERRAINS[terrain_of(scene, i)]
    base = ALPHA_BASE_TARGET[t.alpha]
    if base is None:
        return None
    return base[0 if intentional else 1] + t.alpha_mod
