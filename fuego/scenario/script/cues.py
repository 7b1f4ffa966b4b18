"""Cues and the :class:`Script`: the cues of a scenario, checked at the round's fixed points,
and their progress in one scene (saved and restored as plain data).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fuego.engine.events import EventKind
from fuego.engine.script import When
from fuego.scenario.script.effects import Effect, NpcEffect, make_npc
from fuego.scenario.script.triggers import Check, Trigger, kinds_of
from fuego.scenario.script.words import MAX_PASSES
from fuego.text import fold_name
from fuego.world.places import Feature

if TYPE_CHECKING:
    from fuego.engine import script as engine
    from fuego.engine.scene import Scene


# -- cues and the script -------------------------------------------------------------------------
#: What a cue's hit tells, copied into its ``script`` event (the area is the event's own).
HIT_LOGGED = ("room", "hero", "fd", "barrier")
#: The latch key that says a cue's ``unless:`` has happened (saved with the latches).
BARRED = "unless"


@dataclass
class Cue:
    index: int
    name: str
    trigger: Trigger
    effects: list[Effect]
    once: bool = True
    unless: Trigger | None = None  # once this has happened, the cue never fires

    @property
    def triggers(self) -> list[Trigger]:
        """Its ``when:`` and its ``unless:``: what a check must read for it."""
        return [self.trigger] if self.unless is None else [self.trigger, self.unless]

    @property
    def needs_events(self) -> bool:
        """A check with none of the kinds it reads need not ask it."""
        return all(t.needs_events for t in self.triggers)


@dataclass
class Script:
    """The cues of a scenario and their progress in one scene."""

    cues: list[Cue]
    index: int = 0  # events of scene.log already read
    fired: list[int] = field(default_factory=list)  # times each cue fired
    latches: list[dict] = field(default_factory=list)  # per cue: what its all: remember
    oiled: list[int] = field(default_factory=list)  # areas oil was spilt on
    npcs: list[dict] = field(default_factory=list)  # sheets of characters it added

    @property
    def arrivals(self) -> list[str]:
        """The NPCs its cues can bring into the scene, by name in cue order (plans may name
        them before they arrive: ``rescue:Pip``)."""
        names = [e.sheet["name"] for cue in self.cues for e in cue.effects
                 if isinstance(e, NpcEffect)]
        return list(dict.fromkeys(names))

    def __post_init__(self) -> None:
        if not self.fired:
            self.fired = [0] * len(self.cues)
        if not self.latches:
            self.latches = [{} for _ in self.cues]
        self._reads = kinds_of([t for cue in self.cues for t in cue.triggers])
        self._relive()

    def _relive(self) -> None:
        """What a check reads, from the cues that can still fire (a once cue that fired reads
        nothing more): the event kinds some one reads (None: any), per cue those it cannot
        happen without (None: it may happen with none), and which cues the kinds present in a
        pass may set off, kept per set of kinds (a few sets, met hundreds of times a run)."""
        live = [cue for cue in self.cues if not self._done(cue)]
        self._kinds = kinds_of([t for cue in live for t in cue.triggers])
        self._wants = [(cue, kinds_of(cue.triggers) if cue.needs_events else None)
                       for cue in live]
        self._eventless = [cue for cue, wants in self._wants if wants is None]
        self._asked: dict[frozenset[EventKind], list[Cue]] = {}

    def _done(self, cue: Cue) -> bool:
        """It can fire no more: a once cue that fired, or a cue whose ``unless:`` happened."""
        return bool(cue.once and self.fired[cue.index]) or BARRED in self.latches[cue.index]

    def __len__(self) -> int:
        return len(self.cues)

    @property
    def reads(self) -> frozenset[EventKind] | None:
        """The event kinds its cues read (None: any)."""
        return self._reads

    def check(self, scene: Scene, when: When) -> None:
        """Read the events since the last check; fire the cues whose triggers happened.

        Only the kinds of event some trigger reads are read (``Trigger.kinds``): a pass with
        none of those cannot fire a cue, and the log need not make the others."""
        log = scene.log
        first = True
        for _ in range(MAX_PASSES):
            end = len(log)
            # (only the kinds the cues still live read are made: ``_relive``)
            events = log.since(self.index, self._kinds) if end != self.index else []
            self.index = end
            if events:  # the cues that may happen by one of them
                present = frozenset([e.kind for e in events])
                asked = self._asked.get(present)
                if asked is None:
                    asked = self._asked[present] = [
                        cue for cue, wants in self._wants
                        if wants is None or not wants.isdisjoint(present)]
            elif first:  # (a round's cue happens with no event)
                asked = self._eventless
            else:
                return
            if not asked:  # nothing can fire, so nothing more will come
                return
            ck = Check(scene, when, events, first)
            fired = False
            for cue in asked:
                if self._done(cue) or self._barred(cue, ck):  # (earlier in this check too)
                    continue
                hit = cue.trigger.test(ck, self.latches[cue.index])
                if hit is not None:
                    self._fire(scene, cue, hit)
                    fired = True
            if not fired:  # (a test only reads: with no cue fired, no new event came)
                return
            first = False

    def _barred(self, cue: Cue, ck: Check) -> bool:
        """Has its ``unless:`` happened now? Tested before its ``when:``, so the two in one
        check bar it; remembered from then on."""
        if cue.unless is None or cue.unless.test(ck, self.latches[cue.index]) is None:
            return False
        self.latches[cue.index][BARRED] = True
        self._relive()
        return True

    def _fire(self, scene: Scene, cue: Cue, hit: dict[str, Any]) -> None:
        self.fired[cue.index] += 1
        if cue.once:  # (it reads nothing more)
            self._relive()
        ctx = {"round": scene.round, "cue": cue.name, **hit}
        data = {k: v for k, v in hit.items() if k in HIT_LOGGED}
        room = scene.building.rooms.get(hit.get("room", ""))
        if room is not None:  # the log names the room; a say: text says it ("the Kitchen")
            data["room"], ctx["room"] = room.name or room.key, room.spoken
        scene.emit(EventKind.SCRIPT, None, hit.get("area"), cue=cue.name,
                   text=cue.name, times=self.fired[cue.index], **data)
        for effect in cue.effects:
            effect.apply(scene, self, cue, ctx)

    def pending(self, scene: Scene) -> bool:
        """A cue still due at a later round (the scene is not over while one is)."""
        for cue in self.cues:
            if self._done(cue):
                continue
            due = cue.trigger.due_round()
            if due is not None and due > scene.round:
                return True
        return False

    # -- saves -----------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {"index": self.index, "fired": list(self.fired),
                "latches": [dict(x) for x in self.latches], "oiled": list(self.oiled),
                "npcs": [dict(x) for x in self.npcs]}

    def load_state(self, state: dict[str, Any], scene: Scene | None = None) -> None:
        """Restore :meth:`state`. With ``scene``: also put back what the building and the cast
        do not save themselves (oil in the areas, characters the script added)."""
        self.index = int(state.get("index", 0))
        fired = list(state.get("fired", []))
        self.fired = (fired + [0] * len(self.cues))[: len(self.cues)]
        latches = list(state.get("latches", []))
        self.latches = (latches + [{} for _ in self.cues])[: len(self.cues)]
        self.oiled = list(state.get("oiled", []))
        self.npcs = [dict(x) for x in state.get("npcs", [])]
        self._relive()
        if scene is not None:
            self.restore(scene)

    def restore(self, scene: Scene) -> None:
        b = scene.building
        for i in self.oiled:
            if 0 <= i < len(b.areas):
                b.add_feature(i, Feature.OIL)
        names = {fold_name(h.name) for h in scene.heroes}
        for sheet in self.npcs:
            if fold_name(sheet["name"]) not in names:
                scene.heroes.append(make_npc(sheet))
                if sheet["name"] not in scene.npcs_added:
                    scene.npcs_added.append(sheet["name"])


if TYPE_CHECKING:  # the engine's Protocol: mypy checks that a Script is one
    def _as_engine_script(script: Script) -> engine.Script:
        return script
