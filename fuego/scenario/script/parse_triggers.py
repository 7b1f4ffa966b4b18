"""Reading a cue's ``when:``: each trigger's raw data checked and turned into a
:class:`Trigger`.
"""

from __future__ import annotations

from typing import Any

from fuego.errors import one_of, suggest
from fuego.rules.settings import FlashoverMode
from fuego.scenario.script.checks import Reader, barrier_called, shorten
from fuego.scenario.script.triggers import (
    All,
    Any_,
    BarrierOpens,
    FireDice,
    FireReaches,
    Flashover,
    HeroEnters,
    HeroKnockedOut,
    LastFireOut,
    RoundTrigger,
    Trigger,
)
from fuego.scenario.script.words import MAX_TRIGGERS, TRIGGER_NAMES, Path
from fuego.world.places import OPENABLE, BarrierKind


class TriggerReader(Reader):
    """The parser's triggers: ``trigger`` and a ``t_NAME`` method for each trigger name."""

    # -- triggers ------------------------------------------------------------------------
    def trigger(self, raw: Any, path: Path) -> Trigger | None:
        if not isinstance(raw, dict) or len(raw) != 1:
            if isinstance(raw, dict) and len(raw) > 1:
                self.add(path, f"one trigger per 'when' (got {one_of(raw)}); combine "
                         "triggers with all: [...] or any: [...]")
            else:
                self.add(path, f"expected a trigger such as 'round: 3' or 'fire-reaches: "
                         f"ground:C4', got {shorten(raw)}", tip=f"triggers: "
                         f"{one_of(TRIGGER_NAMES, 20)}")
            return None
        (key, value), = raw.items()
        p = path + (key,)
        method = getattr(self, "t_" + str(key).replace("-", "_"), None)
        if key not in TRIGGER_NAMES or method is None:
            self.add(p, f"unknown trigger {key!r}{suggest(key, TRIGGER_NAMES)}; triggers: "
                     f"{one_of(TRIGGER_NAMES, 20)}")
            return None
        return method(value, p)

    def t_round(self, v, p):
        if isinstance(v, int) and not isinstance(v, bool) and v < 1:
            self.add(p, f"rounds start at 1, not {v}: a cue at round {v} could never fire")
            return None
        limit = self.settings.max_rounds if self.settings is not None else 10_000
        n = self.integer(v, p, 1, max(1, limit), "the round")
        if n is None:
            return None
        return RoundTrigger(n)

    def t_fire_reaches(self, v, p):
        items = v if isinstance(v, list) else [v]
        if not items:
            self.add(p, "expected an area (or a list of areas), got an empty list")
            return None
        out = set()
        for n, a in enumerate(items):
            i = self.area(a, p + (n,) if isinstance(v, list) else p, fuel=True)
            if i is None:
                return None
            out.add(self.b.areas[i].name)
        return FireReaches(areas=frozenset(out))

    def t_fire_in_room(self, v, p):
        items = v if isinstance(v, list) else [v]
        if not items:
            self.add(p, "expected a room (or a list of rooms), got an empty list")
            return None
        rooms = set()
        for n, r in enumerate(items):
            pp = p + (n,) if isinstance(v, list) else p
            key = self.room(r, pp)
            if key is None:
                return None
            if not any(self.b.areas[i].fuel > 0 or i in self.oil_areas
                       for i in self.b.room_areas(key)):
                self.add(pp, f"nothing burns in room {key!r} (no area has fuel), so no fire "
                         "can reach it")
                return None
            rooms.add(key)
        return FireReaches(rooms=frozenset(rooms))

    def t_fire_dice(self, v, p):
        if isinstance(v, int) and not isinstance(v, bool):
            v = {"at_least": v}
        spec = self.mapping(v, p, ("at_least", "in"), ("at_least",))
        if spec is None:
            return None
        n = self.integer(spec["at_least"], p + ("at_least",), 1, 10, "Fire Dice")
        if n is None:  # already reported (a fire has 1-10 Fire Dice)
            return None
        areas: set[str] = set()
        rooms: set[str] = set()
        if "in" in spec:
            got = self.places(spec["in"], p + ("in",))
            if got is None:
                return None
            areas, rooms = got
        return FireDice(n, frozenset(areas), frozenset(rooms))

    def t_hero_enters(self, v, p):
        hero = None
        if isinstance(v, dict):
            spec = self.mapping(v, p, ("room", "area", "hero"))
            if spec is None:
                return None
            if ("room" in spec) == ("area" in spec):
                self.add(p, "give exactly one of 'room:' or 'area:'")
                return None
            if "hero" in spec:
                hero = self.hero(spec["hero"], p + ("hero",))
                if hero is None:
                    return None
            if "room" in spec:
                key = self.room(spec["room"], p + ("room",))
                if key is None:
                    return None
                return HeroEnters(rooms=frozenset({key}), hero=hero)
            i = self.area(spec["area"], p + ("area",))
            if i is None:
                return None
            return HeroEnters(areas=frozenset({self.b.areas[i].name}), hero=hero)
        got = self.places(v, p)
        if got is None:
            return None
        return HeroEnters(areas=frozenset(got[0]), rooms=frozenset(got[1]))

    def t_hero_knocked_out(self, v, p):
        if v is True:
            return HeroKnockedOut()
        if isinstance(v, dict):
            spec = self.mapping(v, p, ("hero",), ("hero",))
            if spec is None:
                return None
            v = spec["hero"]
        name = self.hero(v, p)
        return HeroKnockedOut(name) if name is not None else None

    def t_barrier_opens(self, v, p, destroyed=False):
        items = v if isinstance(v, list) and v and isinstance(v[0], list) else [v]
        names = set()
        for n, item in enumerate(items):
            pp = p + (n,) if len(items) > 1 or item is not v else p
            k = self.barrier(item, pp)
            if k is None:
                return None
            bar = self.b.barriers[k]
            if bar.kind in (BarrierKind.OPEN, BarrierKind.STAIRS, BarrierKind.LADDER,
                            BarrierKind.HOLE) or bar.destroyed:
                self.add(pp, f"{barrier_called(bar)} always open: it can be "
                         "neither opened nor destroyed")
                return None
            if not destroyed and bar.kind not in OPENABLE and bar.destruction_tn is None:
                self.add(pp, f"{barrier_called(bar)} never opened: it can neither "
                         "open nor be destroyed")
                return None
            if destroyed and bar.destruction_tn is None:
                self.add(pp, f"{barrier_called(bar)} never destroyed: nothing can "
                         "break it")
                return None
            names.update(self.same_name(bar))
        return BarrierOpens(frozenset(names), destroyed)

    def t_barrier_destroyed(self, v, p):
        return self.t_barrier_opens(v, p, destroyed=True)

    def t_flashover(self, v, p):
        if v is True:
            return Flashover()
        key = self.room(v, p)
        if key is None:
            return None
        if self.b.rooms[key].outdoors:
            self.add(p, f"{key!r} is outdoors: only enclosed rooms flash over")
            return None
        if self.settings is not None and self.settings.flashover == FlashoverMode.OFF:
            self.add(p, "flashover is off in this scenario (rules.flashover: off), so this "
                     "cue could never fire")
            return None
        return Flashover(frozenset({key}))

    def t_last_fire_out(self, v, p):
        return LastFireOut() if self.flag(v, p, "last-fire-out") else None

    def t_all(self, v, p, cls=All):
        if not isinstance(v, list) or not v:
            self.add(p, f"expected a list of triggers, got {shorten(v)}")
            return None
        if len(v) > MAX_TRIGGERS:
            self.add(p, f"{len(v)} triggers; at most {MAX_TRIGGERS}")
            return None
        node = self._node
        self._node += 1
        parsed = [self.trigger(item, p + (n,)) for n, item in enumerate(v)]
        children = [c for c in parsed if c is not None]
        if len(children) < len(parsed):
            return None
        return All(children, node) if cls is All else Any_(children)

    def t_any(self, v, p):
        return self.t_all(v, p, cls=Any_)
