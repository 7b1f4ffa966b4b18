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
from typing import Any

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


def check_invariants(scene: Scene, prev_snapshot: dict, new_events: Iterable,  # noqa: C901
                     *, smoke: bool = True) -> dict:
    """Check the invariants of one round; returns the new snapshot (for the next call).

    ``prev_snapshot``: ``scene.snapshot()`` at the end of the previous round (or after the
    build, before round 1); ``new_events``: the events appended since. Raises
    :class:`InvariantError` listing every broken invariant."""
    events = list(new_events)
    now = scene.snapshot()
    errors: list[str] = []
    b = scene.building
    settings = scene.settings

    def bad(message: str, event=None) -> None:
        if event is not None:
            message += f"  [event: {event.to_json()[:400]}]"
        errors.append(message)

    # -- the state now ----------------------------------------------------------------------
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
    for area in b.areas:
        if area.burned_out and area.fuel != 0:
            bad(f"{area.name} is burned out but has fuel {area.fuel}")
    for hero in scene.heroes:
        if not 0 <= hero.clothes_fd <= MAX_FIRE_DICE:
            bad(f"{hero.name}'s clothes burn with {hero.clothes_fd} Fire Dice")
        if hero.flesh < 0 or hero.dramatic < 0:
            bad(f"{hero.name} has negative wounds ({hero.flesh}, {hero.dramatic})")
        if not 0 <= hero.area < len(b.areas):
            bad(f"{hero.name} stands in no area ({hero.area})")
    if scene.smoke is not None:
        for i, d in scene.smoke.density.items():
            if not 0 <= i < len(b.areas) or int(d) not in (1, 2):
                bad(f"smoke {d!r} at {i} is not a density of an area")

    # -- the events of the round, in order, against the replayed state ----------------------
    rp = _Replay(scene, prev_snapshot)
    last_roll: dict[str, Any] | None = None  # the latest fire-leapt / fire-burned-through
    failed_checks: set[str] = set()  # heroes who failed a wound check this round
    module_names = {m.name for m in scene.modules}
    for ev in events:
        k, d = ev.kind, ev.data
        if ev.round != now["round"] and k is not EventKind.SCENE_END:
            bad(f"an event of round {ev.round} in round {now['round']}", ev)
        if not 0 <= ev.phase <= 11:
            bad(f"phase {ev.phase} is not 0-11", ev)
        if "success" in d and isinstance(d.get("tn"), int) and isinstance(d.get("total"), int) \
                and bool(d["success"]) != (d["total"] >= d["tn"]):
            bad("a roll's success does not match total >= tn", ev)
        if k in FIRE_FD_EVENTS and not MIN_FIRE_DICE <= d.get("fd", 0) <= MAX_FIRE_DICE:
            bad(f"{k.value} with {d.get('fd')} Fire Dice", ev)
        area = rp.names.get(ev.area) if ev.area is not None else None

        if k in (EventKind.FIRE_LEAPT, EventKind.FIRE_BURNED_THROUGH):
            if not d.get("success") or d["total"] < d["tn"]:
                bad(f"{k.value} without a roll that met its TN", ev)
            last_roll = {"kind": k, "from": ev.area, "to": d.get("to")}
            continue
        if k is EventKind.FIRE_STARTED:
            if area in rp.fires:
                bad(f"fire-started at {ev.area} where a fire already burns", ev)
            if area in rp.burned:
                bad(f"fire-started at {ev.area}, which is burned out", ev)
            _check_cause(rp, ev, area, last_roll, module_names, settings, bad)
            rp.fires[area] = {"fd": d["fd"], "state": d.get("state", "burning"), "id": None}
            last_roll = None
        elif k is EventKind.FIRE_MERGED:
            if area not in rp.fires:
                bad(f"fire-merged at {ev.area} where no fire burns", ev)
            else:
                if d["fd"] < rp.fires[area]["fd"]:
                    bad("a merge lowered a fire's Fire Dice", ev)
                rp.fires[area]["fd"] = d["fd"]
            if d.get("cause") not in CAUSES:
                bad(f"fire-merged names no known cause ({d.get('cause')!r})", ev)
            last_roll = None
        elif k in (EventKind.FIRE_GREW, EventKind.FIRE_SHRANK):
            f = rp.fires.get(area)
            if f is None:
                bad(f"{k.value} at {ev.area} where no fire burns", ev)
                continue
            if d.get("before") != f["fd"]:
                bad(f"{k.value}: before={d.get('before')} but the fire had {f['fd']}", ev)
            if (k is EventKind.FIRE_GREW) != (d["fd"] > f["fd"]):
                bad(f"{k.value} from {f['fd']} to {d['fd']}", ev)
            f["fd"] = d["fd"]
        elif k is EventKind.FIRE_STATE:
            f = rp.fires.get(area)
            if f is None:
                bad(f"fire-state at {ev.area} where no fire burns", ev)
                continue
            if d.get("before") != f["state"]:
                bad(f"fire-state: before={d.get('before')} but the fire was {f['state']}", ev)
            f["state"] = d["after"]
        elif k is EventKind.FIRE_OUT:
            if rp.fires.pop(area, None) is None:
                bad(f"fire-out at {ev.area} where no fire burns", ev)
        elif k is EventKind.AREA_BURNED_OUT:
            rp.burned.add(area)
        elif k is EventKind.SCRIPT and d.get("effect") == "spill-oil":
            for name in d.get("areas", []):  # spilt oil makes a burned-out area burn again
                rp.burned.discard(rp.names.get(name))
        elif k in (EventKind.BARRIER_OPENED, EventKind.BARRIER_CLOSED):
            x = rp.barrier_index(d.get("barrier", ""))
            if x is not None:
                rp.barriers[x][0] = k is EventKind.BARRIER_CLOSED
        elif k is EventKind.STRUCTURE_DESTROYED and "barrier" in d:
            x = rp.barrier_index(d["barrier"])
            if x is not None:
                rp.barriers[x][1] = True
        elif k is EventKind.HERO_MOVED:
            h = rp.heroes.get(ev.actor)
            if h is None:
                bad(f"hero-moved for an unknown character {ev.actor!r}", ev)
                continue
            frm = rp.names.get(d.get("frm"))
            if frm != h["area"]:
                bad(f"{ev.actor} moved from {d.get('frm')} but stood at "
                    f"{b.areas[h['area']].name}", ev)
            if d.get("why") == "move":  # on foot: only to a neighbour, through an opening
                through = rp.passable(frm, area)
                if through is None:
                    bad(f"{ev.actor} walked from {d.get('frm')} to {ev.area}, which are not "
                        "neighbours", ev)
                elif not through:
                    bad(f"{ev.actor} walked through an intact barrier {d.get('frm')}|"
                        f"{ev.area}", ev)
            if h["status"] in ("dead", "escaped"):
                bad(f"{ev.actor} moved while {h['status']}", ev)
            h["area"] = area
        elif k is EventKind.HERO_FELL:
            if ev.actor in rp.heroes:
                rp.heroes[ev.actor]["area"] = area
        elif k in (EventKind.HERO_KNOCKED_OUT, EventKind.HERO_DIED, EventKind.HERO_ESCAPED):
            h = rp.heroes.get(ev.actor)
            status = {EventKind.HERO_KNOCKED_OUT: "knocked-out", EventKind.HERO_DIED: "dead",
                      EventKind.HERO_ESCAPED: "escaped"}[k]
            if h is not None:
                if status not in STATUS_MOVES[h["status"]]:
                    bad(f"{ev.actor} went from {h['status']} to {status}", ev)
                h["status"] = status
        elif k is EventKind.WOUND_CHECK and not d.get("success"):
            failed_checks.add(ev.actor)
        elif k is EventKind.SCRIPT and d.get("effect") == "npc":
            name = d.get("npc") or ev.actor
            hero = next((h for h in scene.heroes if h.name == name), None)
            if hero is not None and name not in rp.heroes:
                rp.heroes[name] = {"area": area, "status": "active"}

    # -- the replayed state must be the state now: every change is in the log ---------------
    got = {f["area"]: (f["fd"], f["state"]) for f in now["fires"]}
    want = {i: (f["fd"], f["state"]) for i, f in rp.fires.items()}
    if got != want:
        diff = sorted(set(got.items()) ^ set(want.items()))
        bad("the fires differ from what the log says: "
            + ", ".join(f"{b.areas[i].name} {v}" + (" (log)" if want.get(i) == v else " (scene)")
                        for i, v in diff[:8]))
    if set(now["building"]["burned_out"]) != rp.burned:
        diff = sorted(set(now["building"]["burned_out"]) ^ rp.burned)
        bad("burned-out areas differ from the log: "
            + ", ".join(b.areas[i].name for i in diff[:8]))
    for index, closed, destroyed in now["building"]["barriers"]:
        x = b.barriers[index]
        want_closed, want_destroyed = rp.barriers[index]
        if destroyed != want_destroyed or (x.kind in OPENABLE and closed != want_closed):
            bad(f"barrier {x.name} is closed={closed} destroyed={destroyed} but the log says "
                f"closed={want_closed} destroyed={want_destroyed}")
    for h in now["heroes"]:
        r = rp.heroes.get(h["name"])
        if r is None:
            bad(f"{h['name']} appeared without an event")
            continue
        if (r["area"], r["status"]) != (h["area"], h["status"]):
            bad(f"{h['name']} is {h['status']} at {b.areas[h['area']].name} but the log says "
                f"{r['status']} at {b.areas[r['area']].name}")

    # -- the scene against the previous round -------------------------------------------------
    if now["round"] not in (prev_snapshot["round"], prev_snapshot["round"] + 1):
        bad(f"the round went from {prev_snapshot['round']} to {now['round']}")
    if prev_snapshot["ended"] and not now["ended"]:
        bad("an ended scene started again")
    if not set(prev_snapshot["flashed"]) <= set(now["flashed"]):
        bad("a room that flashed over is no longer marked so")

    # -- heroes against the previous round ---------------------------------------------------
    prev_heroes = {h["name"]: h for h in prev_snapshot["heroes"]}
    for h in now["heroes"]:
        p = prev_heroes.get(h["name"])
        if p is None:
            continue
        who = h["name"]
        if h["status"] not in STATUS_MOVES[p["status"]]:
            bad(f"{who} went from {p['status']} to {h['status']}")
        if h["dramatic"] < p["dramatic"]:
            bad(f"{who}'s Dramatic Wounds fell from {p['dramatic']} to {h['dramatic']}")
        if h["flesh"] < p["flesh"] and who not in failed_checks:
            bad(f"{who}'s Flesh Wounds fell from {p['flesh']} to {h['flesh']} without a failed "
                "wound check")
        if p["status"] in ("dead", "escaped"):
            same = all(h[key] == p[key] for key in ("area", "flesh", "dramatic", "clothes_fd"))
            if not same:
                bad(f"{who} is {p['status']} but changed: {p} -> {h}")

    # -- smoke in a closed space --------------------------------------------------------------
    if smoke and scene.smoke is not None and _smoke_is_core(scene):
        _check_smoke(scene, prev_snapshot, now, events, bad)

    if errors:
        raise InvariantError(f"round {now['round']} of {scene.title or 'the scene'} "
                             f"(seed {scene.roller.seed}):\n  " + "\n  ".join(errors))
    return now


def _check_cause(rp: _Replay, ev, area: int, last_roll, module_names, settings, bad) -> None:  # noqa: C901
    """A new fire names a cause, and the cause could have lit it."""
    d = ev.data
    cause = d.get("cause")
    if cause not in CAUSES:
        bad(f"fire-started names no known cause ({cause!r})", ev)
        return
    src = d.get("source")
    src_area = rp.names.get(src[len("fire@"):]) if isinstance(src, str) and \
        src.startswith("fire@") else None
    if cause in (Cause.ROUTE, Cause.LEAP, Cause.BURN_THROUGH):
        if src_area is None or src_area not in rp.fires:
            bad(f"a {cause} fire whose source {src!r} is not burning", ev)
            return
        src_fd = rp.fires[src_area]["fd"]
    if cause == Cause.START:
        if ev.round != 0:
            bad("a starting fire after the scene began", ev)
    elif cause == Cause.LEAP:
        if last_roll is None or last_roll["kind"] is not EventKind.FIRE_LEAPT or \
                last_roll["to"] != ev.area or rp.names.get(last_roll["from"]) != src_area:
            bad("a leap fire without the fire-leapt roll before it", ev)
        reach = rp.reach(src_area, settings.max_leap_areas)
        if area not in reach:
            bad(f"a leap from {src} to {ev.area}: not within {settings.max_leap_areas} moves "
                "through passable barriers (it crossed an intact barrier?)", ev)
        elif src_fd <= ADJACENT_ONLY_MAX_FD:  # 003: "can only start fires in adjacent areas"
            a, c = rp.b.areas[src_area], rp.b.areas[area]
            if not (reach[area] == 1 or (reach[area] == 2 and a.level == c.level
                                         and abs(a.col - c.col) == abs(a.row - c.row) == 1)):
                bad(f"a {src_fd}-die fire leapt from {src} to {ev.area}, not adjacent", ev)
        if d["fd"] != LEAP_NEW_FD:
            bad(f"a leap fire with {d['fd']} Fire Dice (a leap lights {LEAP_NEW_FD})", ev)
    elif cause == Cause.BURN_THROUGH:
        if last_roll is None or last_roll["kind"] is not EventKind.FIRE_BURNED_THROUGH or \
                last_roll["to"] != ev.area or rp.names.get(last_roll["from"]) != src_area:
            bad("a burn-through fire without the fire-burned-through roll before it", ev)
        through = rp.passable(src_area, area)
        if through is None:
            bad(f"a burn-through from {src} to {ev.area}, which are not neighbours", ev)
        elif through:
            bad("a burn-through of a barrier that was open", ev)
        if d["fd"] != _half(src_fd):
            bad(f"a burn-through fire of {d['fd']} Fire Dice from a {src_fd}-die fire", ev)
    elif cause == Cause.ROUTE:
        ok = False
        for areas in rp.routes:
            if src_area not in areas or area not in areas:
                continue
            p, q = areas.index(src_area), areas.index(area)
            run = areas[p:q + 1] if q > p else areas[q:p + 1][::-1]
            if all(rp.passable(x, y) for x, y in zip(run, run[1:])) and \
                    (src_fd > ADJACENT_ONLY_MAX_FD or abs(q - p) == 1):
                ok = True
                break
        if not ok:
            bad(f"a route fire from {src} (FD {src_fd}) to {ev.area}: no route runs there "
                "through open barriers", ev)
        want = ROUTE_WAYPOINT_FD if d.get("via") else _half(src_fd)
        if d["fd"] != want:
            bad(f"a route fire of {d['fd']} Fire Dice (expected {want})", ev)
    elif cause == Cause.SCRIPT:
        if not d.get("cue"):
            bad("a script fire that names no cue", ev)
    elif cause == Cause.GM:
        pass  # the GM event before it is checked by the replay of gm actions
    elif cause in (Cause.MODULE, Cause.DEBRIS):
        if d.get("module") not in module_names:
            bad(f"a {cause} fire from module {d.get('module')!r}, which is not enabled", ev)
        if src is not None:  # carried by the wind, spread by ASL rules: from a fire nearby
            a = rp.b.areas[area]
            s = rp.b.areas[src_area] if src_area is not None else None
            if src_area not in rp.fires:
                bad(f"a {cause} fire whose source {src!r} is not burning", ev)
            elif abs(rp.b.levels[s.level].elevation - rp.b.levels[a.level].elevation) > 1 \
                    or max(abs(s.col - a.col), abs(s.row - a.row)) > MODULE_REACH:
                bad(f"a {cause} fire at {ev.area}, out of reach of its source {src}", ev)


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


def _check_smoke(scene: Scene, prev: dict, now: dict, events: list, bad) -> None:  # noqa: C901
    """With barriers that did not change this round. In a closed space, where a fire that burned
    at the end of the previous round still burns: (a) with ``smoke_clears: room``, no smoky area
    of that fire's room clears;
    (b) the smoky areas of the space are at least as many as the fire's smoke covers this round
    (four the first time, one more each round after, at most the whole space). Anywhere: (c) such
    a fire's own area is smoky; (d) smoke new this round lies where some fire of the round
    reaches through passable barriers (smoke does not cross intact ones)."""
    if prev["building"]["barriers"] != now["building"]["barriers"] or any(
            e.kind in (EventKind.BARRIER_OPENED, EventKind.BARRIER_CLOSED,
                       EventKind.STRUCTURE_DESTROYED, EventKind.FLOOR_COLLAPSED)
            for e in events):
        return
    b = scene.building
    before = {i for i, _d in prev["smoke"]["density"]} if prev["smoke"] else set()
    after = set(scene.smoke.density)
    old = {f["id"]: f for f in prev["fires"]}
    comps = _components(scene)
    # (c) a fire that burned through the round smokes its own area
    for i, fire in scene.fires.items():
        p = old.get(fire.id)
        if p is not None and p["state"] in SPREADING and fire.state.value in SPREADING \
                and i not in after:
            bad(f"the fire at {b.areas[i].name} burns, but its own area has no smoke")
    # (d) smoke new this round came from a fire through passable barriers
    names = {a.name: a.index for a in b.areas}
    sources = {f["area"] for f in prev["fires"]} | set(scene.fires) | {
        names.get(e.area) for e in events if e.kind is EventKind.FIRE_STARTED}
    where = {i: n for n, comp in enumerate(comps) for i in comp}
    lit = {where[i] for i in sources if i is not None}
    strays = [i for i in after - before if where[i] not in lit]
    if strays:
        bad(f"smoke appeared at {', '.join(b.areas[i].name for i in strays[:5])}, which no fire "
            "reaches through passable barriers")
    for comp in comps:
        if not _closed(scene, comp):
            continue
        for i in comp:
            fire = scene.fires.get(i)
            if fire is None or fire.id not in old:
                continue
            p = old[fire.id]
            if p["state"] not in SPREADING or fire.state.value not in SPREADING:
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
