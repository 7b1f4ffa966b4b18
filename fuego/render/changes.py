"""What changed in one round (new fires, fires that grew, doors opened or closed, walls broken,
floors fallen, flashovers, escapes), folded from its events: the players' screen marks it on the
map and says it in a header line, and the GM's round screen says it over the plans."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from fuego.engine.events import Event, EventKind
from fuego.render.players import named_room
from fuego.world.places import BarrierKind

if TYPE_CHECKING:
    from fuego.world.building import Building


class Changes:
    """What changed in one round, as the players saw it: the page marks these on the map and
    says them in its header line."""

    __slots__ = ("new", "grew", "out", "started", "went_out", "opened", "closed", "broken",
                 "collapsed", "flashed", "escaped")

    def __init__(self) -> None:
        self.new: set[str] = set()  # areas of new fires
        self.grew: set[str] = set()  # areas of fires that grew
        self.out: set[str] = set()  # fires that went out
        # the fires started and gone out, counted: an area lit, put out and lit again in one
        # round is two fires started and one out, so the words add up to the fires burning
        self.started = 0
        self.went_out = 0
        self.opened: set[str] = set()  # barriers opened (their names)
        self.closed: set[str] = set()  # barriers closed (their names): what hides a fire now
        self.broken: set[str] = set()  # barriers broken or burned through
        self.collapsed: set[str] = set()  # areas whose floor gave way
        self.flashed: list[str] = []  # rooms that flashed over (keys)
        self.escaped: list[str] = []  # heroes who got out

    def __bool__(self) -> bool:
        return any(getattr(self, k) for k in self.__slots__)

    def take(self, event: Event) -> None:
        k, d = event.kind, event.data
        actor = str(event.actor or "")
        fire = actor[5:] if actor.startswith("fire@") else event.area
        if k is EventKind.FIRE_STARTED and event.area:
            self.new.add(event.area)
            self.started += 1
        elif k in (EventKind.FIRE_GREW, EventKind.FIRE_MERGED) and fire and (
                k is EventKind.FIRE_GREW or d.get("grew")):
            self.grew.add(str(fire))
        elif k is EventKind.FIRE_OUT and fire:
            self.out.add(str(fire))
            self.went_out += 1
        elif k is EventKind.BARRIER_OPENED and d.get("barrier"):
            self.opened.add(str(d["barrier"]))
        elif k is EventKind.BARRIER_CLOSED and d.get("barrier"):
            self.closed.add(str(d["barrier"]))
        elif k is EventKind.STRUCTURE_DESTROYED and d.get("barrier"):
            self.broken.add(str(d["barrier"]))
        elif k is EventKind.FLOOR_COLLAPSED and event.area:
            self.collapsed.add(event.area)
        elif k is EventKind.FLASHOVER and d.get("room") not in self.flashed:
            self.flashed.append(str(d.get("room")))
        elif k is EventKind.HERO_ESCAPED and event.actor not in self.escaped:
            self.escaped.append(str(event.actor))

    def words(self, b: Building) -> str:
        """``4 new fires, 2 fires grew, a door opened, the Kitchen flashed over``: the fires
        started and gone out counted as they happened (the fires before the round, plus those
        started, less those gone out, are the fires after it); the rest by what they touched."""
        def n(count: int, one: str, many: str) -> str:
            return (f"a {one}" if one[0] not in "aeiou" else f"an {one}") if count == 1 \
                else f"{count} {many}"

        parts = []
        grew = self.grew - self.new
        if self.started:
            parts.append(n(self.started, "new fire", "new fires"))
        if grew:
            parts.append(f"{n(len(grew), 'fire', 'fires')} grew")
        if self.went_out:
            parts.append(f"{n(self.went_out, 'fire', 'fires')} went out")
        if self.opened:
            parts.append(f"{n(len(self.opened), 'door', 'doors')} opened")
        if self.closed:
            parts.append(f"{n(len(self.closed), 'door', 'doors')} closed")
        # a floor that gave way is said so once, not also as a wall broken
        # (looked for only when something broke: a big field has a barrier per side of an area)
        floors = ({x.name for x in b.barriers if x.kind is BarrierKind.FLOOR}
                  if self.broken else set())
        broken = self.broken - floors
        if broken:
            parts.append(f"{n(len(broken), 'wall or door', 'walls and doors')} broke")
        if self.collapsed:
            parts.append(f"{n(len(self.collapsed), 'floor', 'floors')} gave way")
        parts += [f"{named_room(r, b)} flashed over" for r in self.flashed]
        parts += [f"{h} got out" for h in self.escaped]
        return ", ".join(parts)


def round_changes(events: Iterable[Event], round_: int) -> Changes:
    """Everything that changed in round ``round_`` among ``events`` (the GM's view: all of it)."""
    out = Changes()
    for event in events:
        if event.round == round_:
            out.take(event)
    return out
