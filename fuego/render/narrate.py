"""Events in game language: one line of plain text per event, for ``fuego run`` and the table.

:func:`narrate` turns one :class:`~fuego.engine.events.Event` into a line a GM could read out, or None
for events not worth a line (action-dice detail, failed fire rolls, successful fuel checks and
the other bookkeeping; ``verbose=True`` narrates those too). It is a pure function of the event:
the same event always gives the same text, and nothing is printed.

Two things an event does not carry can be supplied:

- ``building``: room names, so ``ground:C4`` reads ``ground:C4 (Kitchen)``;
- ``fd``: the acting fire's Fire Dice when the event does not say them (a leap or a burn-through
  names the roll, not the fire's size).

:class:`Narrator` keeps both for a stream of events: it follows every fire's Fire Dice through
the log (fire-started, fire-merged, fire-grew, fire-shrank, fire-out) and joins a hero's damage
with the wound check that follows it into one line. :func:`summarize` describes a finished (or
stopped) scene in a few lines.

Lines for events inside a round's phases start with ``Phase N:``; start- and end-of-round events
have no prefix (the round's own lines frame them).

The phrases are :mod:`fuego.render.phrases`, the summary :mod:`fuego.render.summary`; this module
is the stream, and every name above can be imported from it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from fuego.engine.events import Event, EventKind
from fuego.engine.scene import Cause
from fuego.render.phrases import (
    damage_text,
    fire_area,
    narrate,
    phase_prefix,
    wound_text,
)

if TYPE_CHECKING:
    from fuego.world.building import Building

__all__ = ["Narrator"]


# -- a stream of events ---------------------------------------------------------------------------
class Narrator:
    """Narrates a stream of events in order, keeping what single events do not say.

    ``feed(event)`` returns the lines that are ready (zero, one or two): a hero's damage waits
    for the wound check that follows it and the two come out as one line ("Isabela takes 14 fire
    damage standing in the fire (wound check 11 vs TN 14: failed, 1 Dramatic Wound)").
    ``flush()`` returns anything still waiting. Fire Dice are followed through the log so a
    fire's actions read "the fire in ground:C2 (FD 5) leaps ...".
    """

    def __init__(self, *, verbose: bool = False, building: Building | None = None):
        self.verbose = verbose
        self.building = building
        self.fire_dice: dict[str, int] = {}  # area name -> Fire Dice of the fire there
        self._pending: Event | None = None  # a hero's damage, waiting for its wound check
        self._route: list[Event] = []  # fires a route spread lit, waiting for its own line

    def _track(self, e: Event) -> None:
        K = EventKind
        where = fire_area(e.actor, e.area)
        if e.kind in (K.FIRE_STARTED, K.FIRE_MERGED, K.FIRE_GREW, K.FIRE_SHRANK):
            if e.data.get("fd") is not None and where is not None:
                self.fire_dice[where] = e.data["fd"]
        elif e.kind is K.FIRE_OUT and where is not None:
            self.fire_dice.pop(where, None)

    def feed(self, event: Event) -> list[str]:
        """The lines ready after ``event`` (zero, one or two)."""
        return [line for _, line in self.feed_pairs(event)]

    def feed_pairs(self, event: Event) -> list[tuple[Event, str]]:
        """Like :meth:`feed`, each line with the event it tells (a held damage line comes out
        with its own event, after the event that released it)."""
        K = EventKind
        out: list[tuple[Event, str]] = []
        fd = self.fire_dice.get(fire_area(event.actor, event.area))
        pending, self._pending = self._pending, None
        if pending is not None:
            if event.kind is K.WOUND_CHECK and event.actor == pending.actor:
                line = (phase_prefix(pending) + damage_text(pending)
                        + f" (wound check {wound_text(event)})")
                self._track(event)
                return [(pending, line)]
            out.extend(self._pairs(pending, None))
        if event.kind in (K.FIRE_STARTED, K.FIRE_MERGED) and event.data.get("cause") == Cause.ROUTE:
            # The engine lights the areas of a route before it logs the spread itself; tell
            # the spread first, then the fires it lit.
            self._route.append(event)
            self._track(event)
            return out
        if event.kind is K.HERO_DAMAGED:
            out.extend(self._release())
            self._pending = event
        elif event.kind is K.FIRE_SPREAD:
            out.extend(self._pairs(event, fd))
            out.extend(self._release())
        else:
            out.extend(self._release())
            out.extend(self._pairs(event, fd))
        self._track(event)
        return out

    def _release(self) -> list[tuple[Event, str]]:
        held, self._route = self._route, []
        return [pair for e in held for pair in self._pairs(e, None)]

    def _pairs(self, e: Event, fd: int | None) -> list[tuple[Event, str]]:
        line = narrate(e, verbose=self.verbose, building=self.building, fd=fd)
        return [(e, line)] if line is not None else []

    def flush(self) -> list[str]:
        """Anything still held back (a damage line with no wound check after it)."""
        return [line for _, line in self.flush_pairs()]

    def flush_pairs(self) -> list[tuple[Event, str]]:
        pending, self._pending = self._pending, None
        out = self._pairs(pending, None) if pending is not None else []
        return out + self._release()

    def narrate_all(self, events: Iterable[Event]) -> list[str]:
        lines: list[str] = []
        for e in events:
            lines.extend(self.feed(e))
        lines.extend(self.flush())
        return lines
