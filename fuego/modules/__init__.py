"""Optional rule modules from the other rule texts (ASL, Alpha Strike), switched on per scenario.

A module is a :class:`RuleModule` subclass registered in :data:`REGISTRY` under the name a
scenario uses in ``rules.modules``. The engine calls its hooks at fixed points of the round; each
hook does nothing by default, so a module overrides only what it changes. Modules combine: the
engine calls every enabled module's hook in the order the scenario lists them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fuego.fire import Fire
    from fuego.heroes import Hero
    from fuego.scene import Scene


class RuleModule:
    """Base of every optional module: no-op hooks, options validated by the module."""

    name = "module"
    #: seed file and rules this module follows, for docs and ``fuego check``
    source = ""

    def __init__(self, options: dict[str, Any] | None = None):
        self.options = dict(options or {})

    # -- hooks (the order of a round) --------------------------------------------------------
    def scene_start(self, scene: Scene) -> None:
        """Once, before round 1 (e.g. roll the Environmental Conditions or the wind)."""

    def round_start(self, scene: Scene) -> None:
        """Start of each round, before action dice (e.g. the wind change check)."""

    def fire_started(self, scene: Scene, fire: Fire) -> None:
        """A new fire was just placed (e.g. it starts as a Flame)."""

    def spread_tn(self, scene: Scene, fire: Fire, target: int, tn: int, how: str) -> int:
        """Adjust the TN of a spreading roll (``how``: leap, burn-through, grow)."""
        return tn

    def hero_actions(self, scene: Scene, hero: Hero) -> list[Any]:
        """Extra actions a hero may take (e.g. firefighting)."""
        return []

    def end_of_round(self, scene: Scene) -> None:
        """After the core end-of-round steps and before the flashover check."""

    def state(self) -> dict[str, Any]:
        """What this module changes during play, for saves."""
        return {}

    def load_state(self, state: dict[str, Any]) -> None:
        pass


#: name -> module class; filled by fuego.modules.registry (imported lazily by the loader)
REGISTRY: dict[str, type[RuleModule]] = {}


def register(cls: type[RuleModule]) -> type[RuleModule]:
    REGISTRY[cls.name] = cls
    return cls
