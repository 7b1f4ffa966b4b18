"""What the engine asks of a scenario's script: the :class:`Script` Protocol and the
:class:`When` of a check.

The round calls ``check`` at its fixed points; ``pending`` keeps a scene open while a cue is
still due; ``reads`` tells a forecast which event kinds the script reads. The scenario layer's
``fuego.scenario.script.cues.Script`` satisfies it (mypy checks that where it is put on a scene).
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from fuego.engine.events import EventKind
    from fuego.engine.scene import Scene


class When(Enum):
    """The points of a scene where the round checks the script."""

    SCENE_START = "scene-start"  # once, before round 1
    START = "start"  # each round's start, before action dice
    PHASE = "phase"  # after each phase's actions
    END = "end"  # end of round, after the flashover check


class Script(Protocol):
    """A scenario's script, as the engine sees it."""

    def check(self, scene: Scene, when: When) -> None:
        """Read the log since the last check and do whatever the script does now."""

    def pending(self, scene: Scene) -> bool:
        """Is something still due at a later round (the scene stays open while it is)?"""

    @property
    def reads(self) -> frozenset[EventKind] | None:
        """The event kinds the script reads (None: any)."""

    @property
    def arrivals(self) -> list[str]:
        """The characters the script can bring into the scene later, by name."""
