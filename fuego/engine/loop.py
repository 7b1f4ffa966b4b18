"""One loop plays a scene, from its start to its end, for ``fuego run``, ``fuego forecast`` and
the table (``fuego play``) alike, and says how it ended (:class:`Outcome`).

:func:`run` starts the scene (round 0), then at every round boundary calls ``observe`` (the
state at the end of the round just played: a forecast counts it, the table checks its digest),
applies the stop rule (:func:`ending`), calls ``between`` (the table's "before round N"
question, where the GM may change the scene or end it), applies the stop rule again, and plays
the next round (:func:`fuego.engine.rounds.play_round`). Whoever ends the scene in the middle
of a round (the GM's ``end``) sets ``scene.ended`` and raises :class:`SceneOver`: nobody else
is asked. The scene closes with one ``scene-end`` event carrying the why.

The stop rule is written here once: a scene is over when the GM ended it, or when nothing
burns, the smoke has cleared and no script cue is still due, or at the round limit.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from fuego.engine.events import END_PHASE, EventKind
from fuego.engine.rounds import also_burning_data, play_round, start_scene

if TYPE_CHECKING:
    from fuego.engine.controllers import Controller
    from fuego.engine.scene import Scene

__all__ = ["Ending", "Outcome", "SceneOver", "run", "ending", "fire_out", "end_scene",
           "NO_ROUND_LIMIT"]

#: The round limit of a scene played at the table: none (the scenario's ``max_rounds`` stops
#: only ``fuego run`` and forecasts; docs/gm-guide.md).
NO_ROUND_LIMIT = sys.maxsize


class Ending(str, Enum):
    """Why a scene ended (``scene-end``'s ``why``)."""

    #: nothing burns, the smoke has cleared and no script cue is still due
    FIRE_OUT = "fire-out"
    #: the GM ended it with no hero left to act (every one escaped, down or dead)
    HEROES_OUT = "heroes-out"
    #: the GM ended it while a hero could still act
    GM_ENDED = "gm-ended"
    #: the round limit came with fire or smoke still in the building
    ROUND_LIMIT = "round-limit"


@dataclass(frozen=True)
class Outcome:
    """How a scene ended: why, after which round, and what still burned."""

    why: Ending
    #: the last round played (0: it ended before round 1)
    round: int
    #: fires still burning at the end
    burning: int

    def to_dict(self) -> dict[str, Any]:
        return {"why": self.why.value, "round": self.round, "burning": self.burning}


class SceneOver(Exception):
    """The scene was ended in the middle of a round (``scene.ended`` is set): the loop stops
    at once, so nobody else acts or is asked."""


def fire_out(scene: Scene) -> bool:
    """Nothing burns (no fire, nothing a module keeps alight), the smoke has cleared, and no
    script cue is still due at a later round (a lamp that falls at round 2 keeps it open)."""
    smoke_left = scene.smoke is not None and bool(scene.smoke.density)
    if scene.fires or smoke_left or any(m.alight(scene) for m in scene.modules):
        return False
    return not (scene.script is not None and scene.script.pending(scene))


def ending(scene: Scene, limit: int = NO_ROUND_LIMIT) -> Ending | None:
    """The stop rule: why the scene is over now, or None while it plays on."""
    if scene.ended:
        heroes = scene.heroes
        return (Ending.HEROES_OUT if heroes and not any(h.in_play for h in heroes)
                else Ending.GM_ENDED)
    if fire_out(scene):
        return Ending.FIRE_OUT
    if scene.round >= limit:
        return Ending.ROUND_LIMIT
    return None


def run(scene: Scene, controller: Controller, observe: Callable[[Scene], None] | None = None,
        rounds: int | None = None, *,
        between: Callable[[Scene], None] | None = None) -> Outcome:
    """Play ``scene`` until it is over and close it; its outcome.

    ``rounds``: the round limit (default: the scenario's ``max_rounds``; the table's is
    :data:`NO_ROUND_LIMIT`). ``observe(scene)`` reads the state at every round boundary: once
    the scene has started (round 0) and after every round, the last included; it changes
    nothing. ``between(scene)`` comes before each round is played, once the stop rule lets it:
    it may change the scene or end it (``scene.ended``, or :class:`SceneOver`)."""
    limit = scene.settings.max_rounds if rounds is None else rounds
    if scene.round == 0:
        start_scene(scene)
    why: Ending | None = None
    try:
        while True:
            if observe is not None:
                observe(scene)
            why = ending(scene, limit)
            if why is None and between is not None:
                between(scene)
                why = ending(scene, limit)
            if why is not None:
                break
            play_round(scene, controller)
    except SceneOver:
        why = ending(scene)
        assert why in (Ending.GM_ENDED, Ending.HEROES_OUT), "SceneOver ends the scene"
    return end_scene(scene, why)


def end_scene(scene: Scene, why: Ending) -> Outcome:
    """Close the scene: its ``scene-end`` event, and the scene marked over (a save or a screen
    says so)."""
    scene.phase = END_PHASE
    b = scene.building
    outcome = Outcome(why, scene.round, len(scene.fires))
    scene.emit(EventKind.SCENE_END, None, None, rounds=scene.round, why=why.value,
               burning=len(scene.fires), burned_out=sum(1 for a in b.areas if a.burned_out),
               heroes={h.name: h.status.value for h in scene.heroes}, **also_burning_data(scene))
    scene.ended = True
    return outcome
