"""Invariants of a scene, checked after every round (docs/reliability.md, "Invariants").

``check_invariants(scene, prev_snapshot, new_events)`` is called after each round with the
scene's :meth:`~fuego.engine.scene.Scene.snapshot` from the end of the round before and the events the
round appended to ``scene.log``. It raises :class:`InvariantError` listing every violation.

It works from plain data, not from the engine's caches: barrier states are replayed event by
event from the previous snapshot (so "was this door open when the fire leapt?" is answered at the
moment of the leap), reachability is an independent breadth-first search, and the replayed
state (fires and their Fire Dice and states, burned-out areas, barriers, heroes' places and
statuses) must equal the new snapshot: every change the round made is in the log.

:func:`play_checked` plays rounds with the checks (and, given a twin scene built from the same
scenario and seed, compares the two snapshot by snapshot and event by event: the replay check).
The property tests (tests/test_invariants.py) and the soak (tests/test_soak.py) use both.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from fuego.engine.events import EventKind
from fuego.engine.rule_module import RuleModule
from fuego.engine.scene import Cause, Scene
from fuego.rules.charts import (
    ADJACENT_ONLY_MAX_FD,
    LEAP_NEW_FD,
    MAX_FIRE_DICE,
    MIN_FIRE_DICE,
    ROUTE_WAYPOINT_FD,
)
from fuego.rules.settings import SmokeClears
from fuego.world.places import ALWAYS_OPEN, OPENABLE, BarrierKind

#: The causes a new fire may name (fuego.engine.scene.Cause).
CAUSES = {v for k, v in vars(Cause).items() if k.isupper()}
#: The farthest a module carries a fire from its source, in areas across (a wind jump: 2 areas
#: per wind force, force 4 at most; fuego.modules.wind.jump_target), and one level up or down
#: (ASL 25.6 spreads to the area joined above or below: fuego.modules.ignition.targets).
MODULE_REACH = 8
#: Fire states in which a fire acts and smokes.
SPREADING = {"burning", "hot", "guttering"}
#: Hero status moves allowed in one round (from -> to).
STATUS_MOVES = {
    "active": {"active", "knocked-out", "dead", "escaped"},
    "knocked-out": {"knocked-out", "dead"},
    "dead": {"dead"},
    "escaped": {"escaped"},
}
FIRE_FD_EVENTS = {EventKind.FIRE_STARTED, EventKind.FIRE_MERGED, EventKind.FIRE_GREW,
                  EventKind.FIRE_SHRANK}


class InvariantError(AssertionError):
    """One or more invariants broken after a round (every one is listed)."""


def _half(fd: int) -> int:
    return max(1, fd // 2)


def _passable(kind: BarrierKind, closed: bool, destroyed: bool) -> bool:
    if destroyed or kind in ALWAYS_OPEN:
        return True
    return kind in OPENABLE and not closed


class _Replay:
    """The previous snapshot moved forward event by event (plain data only)."""

    def __init__(self, scene: Scene, prev: dict):
        b = scene.building
        self.scene = scene
        self.b = b
        self.names = {a.name: a.index for a in b.areas}
        self.fires: dict[int, dict] = {f["area"]: {"fd": f["fd"], "state": f["state"],
                                                   "id": f["id"]} for f in prev["fires"]}
        self.burned = set(prev["building"]["burned_out"])
        self.barriers = {x.index: [x.closed if x.kind in OPENABLE else False, False]
                         for x in b.barriers}
        for index, closed, destroyed in prev["building"]["barriers"]:
            self.barriers[index] = [closed, destroyed]
        self.by_name: dict[str, list[int]] = {}
        for x in b.barriers:
            self.by_name.setdefault(x.name, []).append(x.index)
        self.heroes = {h["name"]: {"area": h["area"], "status": h["status"]}
                       for h in prev["heroes"]}
        routes = [tuple(r[1]) for r in prev["building"]["routes"]]
        routes += [r.areas for r in b.routes]
        self.routes = list(dict.fromkeys(routes))
        #: the latest fire-leapt / fire-burned-through roll, which the fire it lights follows
        self.last_roll: dict[str, Any] | None = None
        #: heroes who failed a wound check this round
        self.failed_checks: set[str] = set()

    def passable(self, i: int, j: int) -> bool | None:
        x = self.b.between(i, j)
        if x is None:
            return None
        closed, destroyed = self.barriers[x.index]
        return _passable(x.kind, closed, destroyed)

    def reach(self, start: int, steps: int) -> dict[int, int]:
        """Areas within ``steps`` moves of ``start`` through barriers passable now."""
        seen = {start: 0}
        frontier = deque([start])
        while frontier:
            k = frontier.popleft()
            if seen[k] == steps:
                continue
            for j, x in self.b.neighbours(k):
                if j not in seen and _passable(x.kind, *self.barriers[x.index]):
                    seen[j] = seen[k] + 1
                    frontier.append(j)
        return seen

    def barrier_index(self, name: str) -> int | None:
        hits = self.by_name.get(name, [])
        return hits[0] if len(hits) == 1 else None


def _smoke_is_core(scene: Scene) -> bool:
    """No module places or manages smoke itself (drifting-smoke does)."""
    for m in scene.modules:
        cls = type(m)
        if cls.smoke_claims is not RuleModule.smoke_claims or \
                cls.smoke_update is not RuleModule.smoke_update:
            return False
    return True


class _Round:
    """One round under check: the scene, its snapshots before and after, its events, the
    replayed state, and the list of what is broken."""

    def __init__(self, scene: Scene, prev: dict, events: list, smoke: bool):
        self.scene = scene
        self.b = scene.building
        self.prev = prev
        self.now = scene.snapshot()
        self.events = events
        self.smoke = smoke
        self.errors: list[str] = []
        self.rp = _Replay(scene, prev)

    def bad(self, message: str, event=None) -> None:
        """Note one broken invariant (with the event that broke it, if any)."""
        if event is not None:
            message += f"  [event: {event.to_json()[:400]}]"
        self.errors.append(message)


def check_invariants(scene: Scene, prev_snapshot: dict, new_events: Iterable,
                     *, smoke: bool = True) -> dict:
    """Check the invariants of one round; returns the new snapshot (for the next call).

    ``prev_snapshot``: ``scene.snapshot()`` at the end of the previous round (or after the
    build, before round 1); ``new_events``: the events appended since. Raises
    :class:`InvariantError` listing every broken invariant."""
    r = _Round(scene, prev_snapshot, list(new_events), smoke)
    for check in CHECKS:
        check(r)
    if r.errors:
        raise InvariantError(f"round {r.now['round']} of {scene.title or 'the scene'} "
                             f"(seed {scene.roller.seed}):\n  " + "\n  ".join(r.errors))
    return r.now


# -- the state now --------------------------------------------------------------------------

def _fires_now(r: _Round) -> None:
    """Each fire burns where it is filed, with 1-10 Fire Dice, on fuel, under its own id."""
    scene, b, bad = r.scene, r.b, r.bad
    ids = set()
    for i, fire in scene.fires.items():
        name = b.areas[i].name
        if fire.area != i:
            bad(f"the fire filed under {name} says it is at {b.areas[fire.area].name}")
        if not MIN_FIRE_DICE <= fire.fd <= MAX_FIRE_DICE:
            bad(f"fire at {name} has {fire.fd} Fire Dice (must be 1-10)")
        if not fire.lit:
            bad(f"fire at {name} is out but still in the active set")
        area = b.areas[i]
        if area.fuel <= 0 or area.burned_out:
            bad(f"fire at {name} burns where there is no fuel (fuel {area.fuel}, "
                f"burned out {area.burned_out})")
        if fire.id in ids:
            bad(f"two fires share id {fire.id}")
        ids.add(fire.id)
        if fire.id >= scene.next_fire_id:
            bad(f"fire id {fire.id} is not below next_fire_id {scene.next_fire_id}")


def _areas_now(r: _Round) -> None:
    """A burned-out area has no fuel left."""
    for area in r.b.areas:
        if area.burned_out and area.fuel != 0:
            r.bad(f"{area.name} is burned out but has fuel {area.fuel}")


def _heroes_now(r: _Round) -> None:
    """Each hero stands in an area, with wounds not below zero and clothes at 0-10 Fire Dice."""
    for hero in r.scene.heroes:
        if not 0 <= hero.clothes_fd <= MAX_FIRE_DICE:
            r.bad(f"{hero.name}'s clothes burn with {hero.clothes_fd} Fire Dice")
        if hero.flesh < 0 or hero.dramatic < 0:
            r.bad(f"{hero.name} has negative wounds ({hero.flesh}, {hero.dramatic})")
        if not 0 <= hero.area < len(r.b.areas):
            r.bad(f"{hero.name} stands in no area ({hero.area})")


def _smoke_now(r: _Round) -> None:
    """Smoke lies in areas of the building, at density 1 or 2."""
    if r.scene.smoke is None:
        return
    for i, d in r.scene.smoke.density.items():
        if not 0 <= i < len(r.b.areas) or int(d) not in (1, 2):
            r.bad(f"smoke {d!r} at {i} is not a density of an area")


# -- the events of the round, in order, against the replayed state ---------------------------

def _events_replayed(r: _Round) -> None:
    """Each event of the round is well formed and fits the state replayed up to it."""
    rp = r.rp
    for ev in r.events:
        _event_fields(r, ev)
        area = rp.names.get(ev.area) if ev.area is not None else None
        on_event = ON_EVENT.get(ev.kind)
        if on_event is not None:
            on_event(rp, ev, area, r.bad)


def _event_fields(r: _Round, ev) -> None:
    """An event of this round, in a phase 0-11; a roll's success is total >= TN; Fire Dice 1-10."""
    k, d, bad = ev.kind, ev.data, r.bad
    if ev.round != r.now["round"] and k is not EventKind.SCENE_END:
        bad(f"an event of round {ev.round} in round {r.now['round']}", ev)
    if not 0 <= ev.phase <= 11:
        bad(f"phase {ev.phase} is not 0-11", ev)
    if "success" in d and isinstance(d.get("tn"), int) and isinstance(d.get("total"), int) \
            and bool(d["success"]) != (d["total"] >= d["tn"]):
        bad("a roll's success does not match total >= tn", ev)
    if k in FIRE_FD_EVENTS and not MIN_FIRE_DICE <= d.get("fd", 0) <= MAX_FIRE_DICE:
        bad(f"{k.value} with {d.get('fd')} Fire Dice", ev)


def _on_spread_roll(rp: _Replay, ev, area, bad) -> None:
    """A leap or burn-through met its TN; the fire it lights must follow it."""
    d = ev.data
    if not d.get("success") or d["total"] < d["tn"]:
        bad(f"{ev.kind.value} without a roll that met its TN", ev)
    rp.last_roll = {"kind": ev.kind, "from": ev.area, "to": d.get("to")}


def _on_fire_started(rp: _Replay, ev, area, bad) -> None:
    """A new fire lights an area not burning nor burned out, by a cause that could light it."""
    d = ev.data
    if area in rp.fires:
        bad(f"fire-started at {ev.area} where a fire already burns", ev)
    if area in rp.burned:
        bad(f"fire-started at {ev.area}, which is burned out", ev)
    _check_cause(rp, ev, area, bad)
    rp.fires[area] = {"fd": d["fd"], "state": d.get("state", "burning"), "id": None}
    rp.last_roll = None


def _on_fire_merged(rp: _Replay, ev, area, bad) -> None:
    """A merge joins a burning fire, never lowers its Fire Dice, and names its cause."""
    d = ev.data
    if area not in rp.fires:
        bad(f"fire-merged at {ev.area} where no fire burns", ev)
    else:
        if d["fd"] < rp.fires[area]["fd"]:
            bad("a merge lowered a fire's Fire Dice", ev)
        rp.fires[area]["fd"] = d["fd"]
    if d.get("cause") not in CAUSES:
        bad(f"fire-merged names no known cause ({d.get('cause')!r})", ev)
    rp.last_roll = None


def _on_fire_dice(rp: _Replay, ev, area, bad) -> None:
    """A fire grows or shrinks from the Fire Dice it had, in the direction its event names."""
    k, d = ev.kind, ev.data
    f = rp.fires.get(area)
    if f is None:
        bad(f"{k.value} at {ev.area} where no fire burns", ev)
        return
    if d.get("before") != f["fd"]:
        bad(f"{k.value}: before={d.get('before')} but the fire had {f['fd']}", ev)
    if (k is EventKind.FIRE_GREW) != (d["fd"] > f["fd"]):
        bad(f"{k.value} from {f['fd']} to {d['fd']}", ev)
    f["fd"] = d["fd"]


def _on_fire_state(rp: _Replay, ev, area, bad) -> None:
    """A burning fire changes state from the state it was in."""
    d = ev.data
    f = rp.fires.get(area)
    if f is None:
        bad(f"fire-state at {ev.area} where no fire burns", ev)
        return
    if d.get("before") != f["state"]:
        bad(f"fire-state: before={d.get('before')} but the fire was {f['state']}", ev)
    f["state"] = d["after"]


def _on_fire_out(rp: _Replay, ev, area, bad) -> None:
    """Only a burning fire goes out."""
    if rp.fires.pop(area, None) is None:
        bad(f"fire-out at {ev.area} where no fire burns", ev)


def _on_burned_out(rp: _Replay, ev, area, bad) -> None:
    """An area burns out."""
    rp.burned.add(area)


def _on_script(rp: _Replay, ev, area, bad) -> None:
    """A script's spilt oil makes burned-out areas burn again; its NPC joins the heroes."""
    d = ev.data
    if d.get("effect") == "spill-oil":
        for name in d.get("areas", []):
            rp.burned.discard(rp.names.get(name))
    elif d.get("effect") == "npc":
        name = d.get("npc") or ev.actor
        hero = next((h for h in rp.scene.heroes if h.name == name), None)
        if hero is not None and name not in rp.heroes:
            rp.heroes[name] = {"area": area, "status": "active"}


def _on_barrier_moved(rp: _Replay, ev, area, bad) -> None:
    """A barrier opens or closes."""
    x = rp.barrier_index(ev.data.get("barrier", ""))
    if x is not None:
        rp.barriers[x][0] = ev.kind is EventKind.BARRIER_CLOSED


def _on_destroyed(rp: _Replay, ev, area, bad) -> None:
    """A barrier is destroyed."""
    if "barrier" not in ev.data:
        return
    x = rp.barrier_index(ev.data["barrier"])
    if x is not None:
        rp.barriers[x][1] = True


def _on_hero_moved(rp: _Replay, ev, area, bad) -> None:
    """A hero moves from where they stood, on foot only to a neighbour through an opening, and
    never once dead or escaped."""
    d = ev.data
    h = rp.heroes.get(ev.actor)
    if h is None:
        bad(f"hero-moved for an unknown character {ev.actor!r}", ev)
        return
    frm = rp.names.get(d.get("frm"))
    if frm != h["area"]:
        bad(f"{ev.actor} moved from {d.get('frm')} but stood at "
            f"{rp.b.areas[h['area']].name}", ev)
    if d.get("why") == "move":
        through = rp.passable(frm, area) if frm is not None else None
        if through is None:
            bad(f"{ev.actor} walked from {d.get('frm')} to {ev.area}, which are not "
                "neighbours", ev)
        elif not through:
            bad(f"{ev.actor} walked through an intact barrier {d.get('frm')}|"
                f"{ev.area}", ev)
    if h["status"] in ("dead", "escaped"):
        bad(f"{ev.actor} moved while {h['status']}", ev)
    h["area"] = area


def _on_hero_fell(rp: _Replay, ev, area, bad) -> None:
    """A hero falls to another area."""
    if ev.actor in rp.heroes:
        rp.heroes[ev.actor]["area"] = area


#: The status each of these events gives a hero.
HERO_STATUS_EVENTS = {EventKind.HERO_KNOCKED_OUT: "knocked-out", EventKind.HERO_DIED: "dead",
                      EventKind.HERO_ESCAPED: "escaped"}


def _on_hero_status(rp: _Replay, ev, area, bad) -> None:
    """A hero's status moves only as STATUS_MOVES allows."""
    h = rp.heroes.get(ev.actor)
    status = HERO_STATUS_EVENTS[ev.kind]
    if h is not None:
        if status not in STATUS_MOVES[h["status"]]:
            bad(f"{ev.actor} went from {h['status']} to {status}", ev)
        h["status"] = status


def _on_wound_check(rp: _Replay, ev, area, bad) -> None:
    """A failed wound check is noted (it lets Flesh Wounds fall)."""
    if not ev.data.get("success"):
        rp.failed_checks.add(ev.actor)


#: What replays each kind of event (the kinds not named change nothing checked here).
ON_EVENT: dict[EventKind, Callable[[_Replay, Any, Any, Callable], None]] = {
    EventKind.FIRE_LEAPT: _on_spread_roll,
    EventKind.FIRE_BURNED_THROUGH: _on_spread_roll,
    EventKind.FIRE_STARTED: _on_fire_started,
    EventKind.FIRE_MERGED: _on_fire_merged,
    EventKind.FIRE_GREW: _on_fire_dice,
    EventKind.FIRE_SHRANK: _on_fire_dice,
    EventKind.FIRE_STATE: _on_fire_state,
    EventKind.FIRE_OUT: _on_fire_out,
    EventKind.AREA_BURNED_OUT: _on_burned_out,
    EventKind.SCRIPT: _on_script,
    EventKind.BARRIER_OPENED: _on_barrier_moved,
    EventKind.BARRIER_CLOSED: _on_barrier_moved,
    EventKind.STRUCTURE_DESTROYED: _on_destroyed,
    EventKind.HERO_MOVED: _on_hero_moved,
    EventKind.HERO_FELL: _on_hero_fell,
    EventKind.HERO_KNOCKED_OUT: _on_hero_status,
    EventKind.HERO_DIED: _on_hero_status,
    EventKind.HERO_ESCAPED: _on_hero_status,
    EventKind.WOUND_CHECK: _on_wound_check,
}


# -- the replayed state must be the state now: every change is in the log --------------------

def _fires_as_logged(r: _Round) -> None:
    """The fires now are the fires the log leaves."""
    got = {f["area"]: (f["fd"], f["state"]) for f in r.now["fires"]}
    want = {i: (f["fd"], f["state"]) for i, f in r.rp.fires.items()}
    if got != want:
        diff = sorted(set(got.items()) ^ set(want.items()))
        r.bad("the fires differ from what the log says: "
              + ", ".join(f"{r.b.areas[i].name} {v}" + (" (log)" if want.get(i) == v else " (scene)")
                          for i, v in diff[:8]))


def _burned_as_logged(r: _Round) -> None:
    """The burned-out areas now are those the log leaves."""
    burned = set(r.now["building"]["burned_out"])
    if burned != r.rp.burned:
        diff = sorted(burned ^ r.rp.burned)
        r.bad("burned-out areas differ from the log: "
              + ", ".join(r.b.areas[i].name for i in diff[:8]))


def _barriers_as_logged(r: _Round) -> None:
    """Each barrier is open, closed or destroyed as the log leaves it."""
    for index, closed, destroyed in r.now["building"]["barriers"]:
        x = r.b.barriers[index]
        want_closed, want_destroyed = r.rp.barriers[index]
        if destroyed != want_destroyed or (x.kind in OPENABLE and closed != want_closed):
            r.bad(f"barrier {x.name} is closed={closed} destroyed={destroyed} but the log says "
                  f"closed={want_closed} destroyed={want_destroyed}")


def _heroes_as_logged(r: _Round) -> None:
    """Each hero stands where the log leaves them, in the status it leaves them."""
    for h in r.now["heroes"]:
        p = r.rp.heroes.get(h["name"])
        if p is None:
            r.bad(f"{h['name']} appeared without an event")
            continue
        if (p["area"], p["status"]) != (h["area"], h["status"]):
            r.bad(f"{h['name']} is {h['status']} at {r.b.areas[h['area']].name} but the log says "
                  f"{p['status']} at {r.b.areas[p['area']].name}")


# -- the scene and its heroes against the previous round -------------------------------------

def _scene_moves_on(r: _Round) -> None:
    """The round moves on by one at most, an ended scene stays ended, a flashover stays."""
    prev, now = r.prev, r.now
    if now["round"] not in (prev["round"], prev["round"] + 1):
        r.bad(f"the round went from {prev['round']} to {now['round']}")
    if prev["ended"] and not now["ended"]:
        r.bad("an ended scene started again")
    if not set(prev["flashed"]) <= set(now["flashed"]):
        r.bad("a room that flashed over is no longer marked so")


def _heroes_move_on(r: _Round) -> None:
    """Wounds never heal in a round (Flesh Wounds fall only by a failed wound check), status
    moves only forward, and the dead and escaped change no more."""
    prev_heroes = {h["name"]: h for h in r.prev["heroes"]}
    for h in r.now["heroes"]:
        p = prev_heroes.get(h["name"])
        if p is not None:
            _hero_moves_on(r, p, h)


def _hero_moves_on(r: _Round, p: dict, h: dict) -> None:
    """One hero against the previous round (see _heroes_move_on)."""
    who = h["name"]
    if h["status"] not in STATUS_MOVES[p["status"]]:
        r.bad(f"{who} went from {p['status']} to {h['status']}")
    if h["dramatic"] < p["dramatic"]:
        r.bad(f"{who}'s Dramatic Wounds fell from {p['dramatic']} to {h['dramatic']}")
    if h["flesh"] < p["flesh"] and who not in r.rp.failed_checks:
        r.bad(f"{who}'s Flesh Wounds fell from {p['flesh']} to {h['flesh']} without a failed "
              "wound check")
    if p["status"] in ("dead", "escaped"):
        same = all(h[key] == p[key] for key in ("area", "flesh", "dramatic", "clothes_fd"))
        if not same:
            r.bad(f"{who} is {p['status']} but changed: {p} -> {h}")


def _smoke_in_closed_spaces(r: _Round) -> None:
    """Smoke in a closed space (only where the core smoke rule places it)."""
    if r.smoke and r.scene.smoke is not None and _smoke_is_core(r.scene):
        _check_smoke(r.scene, r.prev, r.now, r.events, r.bad)


#: The invariant families, checked in this order (each adds what it finds to the round's list).
CHECKS: list[Callable[[_Round], None]] = [
    _fires_now, _areas_now, _heroes_now, _smoke_now,
    _events_replayed,
    _fires_as_logged, _burned_as_logged, _barriers_as_logged, _heroes_as_logged,
    _scene_moves_on, _heroes_move_on,
    _smoke_in_closed_spaces,
]


# -- a new fire's cause -----------------------------------------------------------------------

def _check_cause(rp: _Replay, ev, area: int, bad) -> None:
    """A new fire names a cause, and the cause could have lit it."""
    d = ev.data
    cause = d.get("cause")
    if cause not in CAUSES:
        bad(f"fire-started names no known cause ({cause!r})", ev)
        return
    src = d.get("source")
    src_area = rp.names.get(src[len("fire@"):]) if isinstance(src, str) and \
        src.startswith("fire@") else None
    src_fd = 0
    if cause in (Cause.ROUTE, Cause.LEAP, Cause.BURN_THROUGH):
        if src_area is None or src_area not in rp.fires:
            bad(f"a {cause} fire whose source {src!r} is not burning", ev)
            return
        src_fd = rp.fires[src_area]["fd"]
    check = CAUSE_CHECKS.get(cause)
    if check is not None:
        check(rp, ev, _Lit(area, src, src_area, src_fd), bad)


class _Lit(NamedTuple):
    """A new fire's area and the fire it names as its source (its area and Fire Dice)."""

    area: int
    src: Any
    src_area: int | None
    src_fd: int


def _cause_start(rp: _Replay, ev, lit: _Lit, bad) -> None:
    """A starting fire is lit before the scene begins."""
    if ev.round != 0:
        bad("a starting fire after the scene began", ev)


def _follows_roll(rp: _Replay, ev, lit: _Lit, kind: EventKind) -> bool:
    """The roll just before this fire is a ``kind`` roll from its source to its area."""
    last = rp.last_roll
    return last is not None and last["kind"] is kind and last["to"] == ev.area \
        and rp.names.get(last["from"]) == lit.src_area


def _cause_leap(rp: _Replay, ev, lit: _Lit, bad) -> None:
    """A leap follows its roll, within the leap's reach through passable barriers (a small fire
    only to an adjacent area), and lights LEAP_NEW_FD Fire Dice."""
    if not _follows_roll(rp, ev, lit, EventKind.FIRE_LEAPT):
        bad("a leap fire without the fire-leapt roll before it", ev)
    steps = rp.scene.settings.max_leap_areas
    src_area = lit.src_area
    assert src_area is not None  # _check_cause made sure: a leap's source burns
    reach = rp.reach(src_area, steps)
    area, src = lit.area, lit.src
    if area not in reach:
        bad(f"a leap from {src} to {ev.area}: not within {steps} moves "
            "through passable barriers (it crossed an intact barrier?)", ev)
    elif lit.src_fd <= ADJACENT_ONLY_MAX_FD:  # 003: "can only start fires in adjacent areas"
        a, c = rp.b.areas[src_area], rp.b.areas[area]
        if not (reach[area] == 1 or (reach[area] == 2 and a.level == c.level
                                     and abs(a.col - c.col) == abs(a.row - c.row) == 1)):
            bad(f"a {lit.src_fd}-die fire leapt from {src} to {ev.area}, not adjacent", ev)
    if ev.data["fd"] != LEAP_NEW_FD:
        bad(f"a leap fire with {ev.data['fd']} Fire Dice (a leap lights {LEAP_NEW_FD})", ev)


def _cause_burn_through(rp: _Replay, ev, lit: _Lit, bad) -> None:
    """A burn-through follows its roll, through an intact barrier to a neighbour, and lights
    half its source's Fire Dice."""
    if not _follows_roll(rp, ev, lit, EventKind.FIRE_BURNED_THROUGH):
        bad("a burn-through fire without the fire-burned-through roll before it", ev)
    assert lit.src_area is not None  # _check_cause made sure: a burn-through's source burns
    through = rp.passable(lit.src_area, lit.area)
    if through is None:
        bad(f"a burn-through from {lit.src} to {ev.area}, which are not neighbours", ev)
    elif through:
        bad("a burn-through of a barrier that was open", ev)
    if ev.data["fd"] != _half(lit.src_fd):
        bad(f"a burn-through fire of {ev.data['fd']} Fire Dice from a {lit.src_fd}-die fire", ev)


def _on_open_route(rp: _Replay, lit: _Lit) -> bool:
    """Some route runs from the source to the area through open barriers (a small fire only to
    the route's next area)."""
    for areas in rp.routes:
        if lit.src_area not in areas or lit.area not in areas:
            continue
        p, q = areas.index(lit.src_area), areas.index(lit.area)
        run = areas[p:q + 1] if q > p else areas[q:p + 1][::-1]
        if all(rp.passable(x, y) for x, y in zip(run, run[1:])) and \
                (lit.src_fd > ADJACENT_ONLY_MAX_FD or abs(q - p) == 1):
            return True
    return False


def _cause_route(rp: _Replay, ev, lit: _Lit, bad) -> None:
    """A route fire runs along an open route and lights half its source's Fire Dice (a
    waypoint's ROUTE_WAYPOINT_FD)."""
    d = ev.data
    if not _on_open_route(rp, lit):
        bad(f"a route fire from {lit.src} (FD {lit.src_fd}) to {ev.area}: no route runs there "
            "through open barriers", ev)
    want = ROUTE_WAYPOINT_FD if d.get("via") else _half(lit.src_fd)
    if d["fd"] != want:
        bad(f"a route fire of {d['fd']} Fire Dice (expected {want})", ev)


def _cause_script(rp: _Replay, ev, lit: _Lit, bad) -> None:
    """A script fire names its cue."""
    if not ev.data.get("cue"):
        bad("a script fire that names no cue", ev)


def _cause_module(rp: _Replay, ev, lit: _Lit, bad) -> None:
    """A module's fire comes from an enabled module and, with a source, from a fire burning
    within MODULE_REACH and one level."""
    d, cause = ev.data, ev.data.get("cause")
    if d.get("module") not in {m.name for m in rp.scene.modules}:
        bad(f"a {cause} fire from module {d.get('module')!r}, which is not enabled", ev)
    if lit.src is None:
        return
    # carried by the wind, spread by ASL rules: from a fire nearby
    a = rp.b.areas[lit.area]
    if lit.src_area is None or lit.src_area not in rp.fires:
        bad(f"a {cause} fire whose source {lit.src!r} is not burning", ev)
        return
    s = rp.b.areas[lit.src_area]
    if abs(rp.b.levels[s.level].elevation - rp.b.levels[a.level].elevation) > 1 \
            or max(abs(s.col - a.col), abs(s.row - a.row)) > MODULE_REACH:
        bad(f"a {cause} fire at {ev.area}, out of reach of its source {lit.src}", ev)


#: What each cause must show (a GM's fire is checked by the replay of the GM's actions).
CAUSE_CHECKS: dict[str, Callable[[_Replay, Any, _Lit, Callable], None]] = {
    Cause.START: _cause_start,
    Cause.LEAP: _cause_leap,
    Cause.BURN_THROUGH: _cause_burn_through,
    Cause.ROUTE: _cause_route,
    Cause.SCRIPT: _cause_script,
    Cause.MODULE: _cause_module,
    Cause.DEBRIS: _cause_module,
}


def _components(scene: Scene) -> list[set[int]]:
    b = scene.building
    seen: dict[int, int] = {}
    comps: list[set[int]] = []
    for start in range(len(b.areas)):
        if start in seen:
            continue
        comp = {start}
        seen[start] = len(comps)
        stack = [start]
        while stack:
            k = stack.pop()
            for j, x in b.neighbours(k):
                if j not in seen and x.passable:
                    seen[j] = len(comps)
                    comp.add(j)
                    stack.append(j)
        comps.append(comp)
    return comps


def _closed(scene: Scene, comp: set[int]) -> bool:
    """No outdoor area and no open or broken window: smoke cannot get out."""
    b = scene.building
    if any(b.rooms[b.areas[i].room].outdoors for i in comp):
        return False
    for i in comp:
        for _j, x in b.neighbours(i):
            if x.kind is BarrierKind.WINDOW and x.passable:
                return False
    return True


def _check_smoke(scene: Scene, prev: dict, now: dict, events: list, bad) -> None:
    """With barriers that did not change this round. In a closed space, where a fire that burned
    at the end of the previous round still burns: (a) with ``smoke_clears: room``, no smoky area
    of that fire's room clears;
    (b) the smoky areas of the space are at least as many as the fire's smoke covers this round
    (four the first time, one more each round after, at most the whole space). Anywhere: (c) such
    a fire's own area is smoky; (d) smoke new this round lies where some fire of the round
    reaches through passable barriers (smoke does not cross intact ones)."""
    assert scene.smoke is not None  # the caller checks smoke only where the scene has it
    if prev["building"]["barriers"] != now["building"]["barriers"] or any(
            e.kind in (EventKind.BARRIER_OPENED, EventKind.BARRIER_CLOSED,
                       EventKind.STRUCTURE_DESTROYED, EventKind.FLOOR_COLLAPSED)
            for e in events):
        return
    before = {i for i, _d in prev["smoke"]["density"]} if prev["smoke"] else set()
    after = set(scene.smoke.density)
    old = {f["id"]: f for f in prev["fires"]}
    comps = _components(scene)
    _smoke_over_fires(scene, old, after, bad)
    _smoke_from_fires(scene, prev, events, comps, before, after, bad)
    for comp in comps:
        if _closed(scene, comp):
            _smoke_kept_in(scene, comp, old, before, after, bad)


def _burned_on(old: dict, fire) -> dict | None:
    """The previous round's record of ``fire`` if it spread then and spreads now, else None."""
    p = old.get(fire.id)
    if p is not None and p["state"] in SPREADING and fire.state.value in SPREADING:
        return p
    return None


def _smoke_over_fires(scene: Scene, old: dict, after: set, bad) -> None:
    """(c) A fire that burned through the round smokes its own area."""
    for i, fire in scene.fires.items():
        if _burned_on(old, fire) is not None and i not in after:
            bad(f"the fire at {scene.building.areas[i].name} burns, but its own area has no smoke")


def _smoke_from_fires(scene: Scene, prev: dict, events: list, comps: list[set[int]],
                      before: set, after: set, bad) -> None:
    """(d) Smoke new this round came from a fire through passable barriers."""
    b = scene.building
    names = {a.name: a.index for a in b.areas}
    sources = {f["area"] for f in prev["fires"]} | set(scene.fires) | {
        names.get(e.area) for e in events if e.kind is EventKind.FIRE_STARTED}
    where = {i: n for n, comp in enumerate(comps) for i in comp}
    lit = {where[i] for i in sources if i is not None}
    strays = [i for i in after - before if where[i] not in lit]
    if strays:
        bad(f"smoke appeared at {', '.join(b.areas[i].name for i in strays[:5])}, which no fire "
            "reaches through passable barriers")


def _smoke_kept_in(scene: Scene, comp: set[int], old: dict, before: set, after: set,
                   bad) -> None:
    """(a) and (b) in one closed space, for each fire in it that burned through the round."""
    b = scene.building
    for i in comp:
        fire = scene.fires.get(i)
        p = _burned_on(old, fire) if fire is not None else None
        if p is None:
            continue
        room = b.areas[i].room
        # The closed room is the part of it inside this closed space: a part of the same
        # room that opens to the air may clear by wind (fuego.engine.smoke).
        # (Fire by fire, the default, smoke of a fire that is out clears while others burn:
        # (b) checks the burning fire's own.)
        lost = [a for a in b.room_areas(room) if a in comp and a in before and a not in after]
        if lost and scene.settings.smoke_clears is SmokeClears.ROOM:
            bad(f"smoke cleared from {', '.join(b.areas[a].name for a in lost[:5])} in the "
                f"closed room {room!r} while the fire at {b.areas[i].name} burns there")
        covers = min(len(comp), max(p["smoke"], 4))
        smoky = len(after & comp)
        if smoky < covers:
            bad(f"a closed space of {len(comp)} areas holds {smoky} smoky areas, but the "
                f"fire at {b.areas[i].name} covers {covers} this round")


def play_checked(scene: Scene, controller, rounds: int, *, twin: Scene | None = None,
                 twin_controller=None, check: Callable = check_invariants,
                 on_round: Callable[[Scene], None] | None = None) -> int:
    """Play up to ``rounds`` rounds (the scene may end first), checking the invariants after
    the build and after every round. With ``twin`` (the same scenario, seed and controller
    kind), play it in step and compare snapshots and event JSON after every round. Returns the
    rounds played."""
    from fuego.engine import loop
    from fuego.engine.rounds import play_round, start_scene

    if scene.round == 0:
        # The starting fires are events of round 0 (before scene-start): check them, and what
        # the modules do at the scene's start, against an empty scene on the same building.
        for s in (scene, twin) if twin is not None else (scene,):
            if not any(e.kind is EventKind.SCENE_START for e in s.log):
                start_scene(s)
        empty = {"round": 0, "fires": [], "heroes": [h.to_dict() for h in scene.heroes],
                 "building": dict(scene.building.dynamic_state(), burned_out=[]),
                 "smoke": None, "flashed": [], "ended": False}
        prev = check(scene, empty, list(scene.log), smoke=False)
    else:
        prev = scene.snapshot()
    mark = len(scene.log)
    if twin is not None:
        _compare(scene, twin, scene.round)
    played = 0
    while played < rounds and loop.ending(scene) is None:
        play_round(scene, controller)
        played += 1
        prev = check(scene, prev, scene.log[mark:])
        mark = len(scene.log)
        if twin is not None:
            play_round(twin, twin_controller)
            _compare(scene, twin, scene.round)
        if on_round is not None:
            on_round(scene)
    return played


def _compare(a: Scene, b: Scene, rnd: int) -> None:
    if a.snapshot() != b.snapshot():
        raise InvariantError(f"round {rnd}: two builds with seed {a.roller.seed} differ: "
                             f"{_first_diff(a.snapshot(), b.snapshot())}")
    if len(a.log) != len(b.log):
        raise InvariantError(f"round {rnd}: the logs differ in length ({len(a.log)} vs "
                             f"{len(b.log)})")
    for x, y in zip(a.log, b.log):
        if x.to_json() != y.to_json():
            raise InvariantError(f"round {rnd}: the logs differ:\n  {x.to_json()}\n  "
                                 f"{y.to_json()}")


def _first_diff(x: Any, y: Any, path: str = "") -> str:
    if isinstance(x, dict) and isinstance(y, dict):
        for key in sorted(set(x) | set(y), key=str):
            if x.get(key) != y.get(key):
                return _first_diff(x.get(key), y.get(key), f"{path}.{key}")
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for n, (p, q) in enumerate(zip(x, y)):
            if p != q:
                return _first_diff(p, q, f"{path}[{n}]")
    return f"{path or 'snapshot'}: {x!r} != {y!r}"


class RandomController:
    """Heroes that pick any legal action at random, and a GM who now and then overrides the
    scene at the start of a round (starts a fire, sets Fire Dice, opens, closes or breaks a
    barrier, moves a hero), all drawn from its own seeded generator so a twin plays the same.
    It exercises what the automatic heroes rarely do: doors, smothering, spotting, modules'
    actions, and every GM override."""

    def __init__(self, seed: int, gm_rate: float = 0.3, hold_rate: float = 0.1):
        import random

        self.rng = random.Random(seed)
        self.gm_rate = gm_rate
        self.hold_rate = hold_rate

    def round_start(self, scene: Scene) -> None:
        from fuego.errors import FuegoError
        from fuego.table import gm

        rng, b = self.rng, scene.building
        if rng.random() >= self.gm_rate:
            return
        what = rng.choice(["fire", "fd", "open", "close", "break", "move"])
        try:
            if what == "fire":
                burnable = [a.name for a in b.areas if a.burnable]
                if burnable:
                    gm.start_fire(scene, rng.choice(burnable), rng.randint(1, 10))
            elif what == "fd" and scene.fires:
                i = rng.choice(sorted(scene.fires))
                gm.set_fire_dice(scene, b.areas[i].name, rng.randint(0, 10))
            elif what in ("open", "close", "break") and b.barriers:
                x = rng.choice(b.barriers)
                gm.barrier(scene, x.name, what)
            elif what == "move":
                here = [h for h in scene.heroes if h.present]
                if here:
                    gm.move_hero(scene, rng.choice(here).name, rng.choice(b.areas).name)
        except FuegoError:
            pass  # an override the rules refuse (a wall cannot be opened): nothing changed

    def choose(self, scene: Scene, hero, legal):
        if self.rng.random() < self.hold_rate:
            return None
        return self.rng.choice(legal)

    def roll(self, hero, pool, tn, purpose):
        return None
