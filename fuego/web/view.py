"""What the players may know: the one place that decides what the players' screen shows.

:func:`players_view` turns a scene into plain data (JSON values only) for the page, and
:class:`PlayersNarration` keeps the last lines of narration the players may hear. Everything the
page draws comes from these two; nothing else reads the scene for it.

What the players know is what their heroes can see now. The engine says what a hero sees
(:func:`fuego.engine.sight.players_sight`: line of sight through openings and windows, sight
in smoke by the text's distances, the building's outside from the street, and the hidden fires
a hero has spotted). The *observers* are the players' heroes still on their feet: active, or
escaped and watching from outside (the GM's characters, ``npc``, do not count; a knocked-out or
dead hero sees nothing). So the page shows

- every level's plan (the building the players are in; the same areas, rooms and names as
  ``fuego map``), with the state of doors, windows, walls and floors where an observer can see
  them, and as drawn in the scenario elsewhere ("unseen");
- the fires the observers see, with their Fire Dice, hot or not; smoke and burned-out areas in
  their sight; the heroes (all of them, wherever they are) and the GM's characters in sight;
- the round and phase, each hero's wounds and conditions;
- the narration of what they see (:class:`PlayersNarration`).

Never: a fire no observer sees (until a hero spots it), the GM's overrides and notes, the
script, the odds, the seed, or counts of fires the heroes cannot see (the framing lines are the
page's own: "Round 2 begins", not the GM's "3 fires burning").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from fuego.engine.events import END_PHASE, START_PHASE, Event, EventKind
from fuego.engine.heroes import Status
from fuego.engine.sight import observers, players_sight  # noqa: F401  (observers: as before)
from fuego.modules.wrecks import burning_wrecks
from fuego.render.map_style import barrier_state  # the words fuego map's ids use
from fuego.world.building import ALWAYS_OPEN, BarrierKind, column_letters

if TYPE_CHECKING:
    from fuego.engine.heroes import Hero
    from fuego.engine.scene import Scene
    from fuego.world.building import Barrier, Building

#: Lines of narration the page keeps (the last ones; the page shows as many as fit).
NARRATION_LINES = 12


# -- sight -----------------------------------------------------------------------------------------
def in_sight(scene: Scene) -> frozenset[int]:
    """Every area some observer sees, clearly or as shapes (:func:`fuego.engine.sight.players_sight`)."""
    return players_sight(scene).in_view


def known_fires(scene: Scene) -> frozenset[int]:
    """The areas of the fires the players know of: those some observer sees (spotted hidden
    fires included; :func:`fuego.engine.sight.players_sight`)."""
    return players_sight(scene).fires


# -- the view --------------------------------------------------------------------------------------
def moment(scene: Scene) -> str:
    """``Before round 1``, ``Round 2, phase 7``, ``Round 2, end of round``, ``The scene is over``."""
    if scene.ended:
        return f"The scene is over (round {scene.round})" if scene.round else "The scene is over"
    if scene.round == 0:
        return "Before round 1"
    if scene.phase == START_PHASE:
        return f"Round {scene.round}, start of round"
    if scene.phase >= END_PHASE:
        return f"Round {scene.round}, end of round"
    return f"Round {scene.round}, phase {scene.phase}"


def initials(name: str) -> str:
    """A token's letters: the first letters of the first two words (``Isabela Soldano`` IS)."""
    return "".join(w[0] for w in name.split()[:2]).upper() or "?"


def _conditions(scene: Scene, hero: Hero) -> list[str]:
    """A hero's conditions in words the players read (each one a word or two)."""
    from fuego.engine.smoke import Density

    out: list[str] = []
    if hero.status is not Status.ACTIVE:
        out.append(hero.status.value.replace("-", " "))
    if hero.present and scene.smoke is not None:
        d = scene.smoke.at(hero.area)
        if d is Density.THICK:
            out.append("in thick smoke")
        elif d is Density.THIN:
            out.append("in thin smoke")
    if hero.clothes_fd:
        out.append(f"clothes alight ({hero.clothes_fd} FD)")
    if hero.confused:
        out.append("confused")
    if hero.breath:
        out.append(f"holding breath ({hero.breath} round{'s' if hero.breath != 1 else ''})")
    if hero.crippled and hero.status is not Status.DEAD:
        out.append("crippled")
    return out


def _hero_row(scene: Scene, hero: Hero) -> dict[str, Any]:
    b = scene.building
    area = b.areas[hero.area]
    out = hero.status is Status.ESCAPED
    return {
        "name": hero.name, "initials": initials(hero.name), "npc": hero.npc,
        "status": hero.status.value,
        "where": "out of the building" if out else b.rooms[area.room].name,
        "area": area.name,
        "flesh": hero.flesh, "dramatic": hero.dramatic, "knocked_out_at": hero.knocked_out_at,
        "conditions": _conditions(scene, hero),
    }  # fmt: skip


def _edge(b: Building, barrier: Barrier) -> tuple[int, int, int, int] | None:
    """The grid edge two side-by-side areas share: (x0, y0, x1, y1) in area units."""
    a, c = b.areas[barrier.a], b.areas[barrier.b]
    dc, dr = c.col - a.col, c.row - a.row
    if abs(dc) + abs(dr) != 1:
        return None
    if dc:
        x = max(a.col, c.col)
        return x, a.row, x, a.row + 1
    y = max(a.row, c.row)
    return a.col, y, a.col + 1, y


def _areas(scene: Scene, here: list, seen: set[int]) -> list[dict[str, Any]]:
    from fuego.engine.smoke import Density

    b, smoke = scene.building, scene.smoke
    out = []
    for a in here:
        d = smoke.at(a.index) if smoke is not None and a.index in seen else Density.NONE
        out.append({
            "name": a.name, "col": a.col, "row": a.row, "room": a.room,
            "outdoors": b.rooms[a.room].outdoors, "exit": b.is_exit(a.index),
            "seen": a.index in seen, "burned": a.burned_out and a.index in seen,
            "smoke": {Density.THIN: "thin", Density.THICK: "thick"}.get(d, ""),
        })  # fmt: skip
    return out


def _rooms(scene: Scene, level: int, seen: set[int]) -> list[dict[str, Any]]:
    """Each room's label and where it goes: the room's own area nearest its centre (an
    L-shaped room keeps its label inside)."""
    b = scene.building
    out = []
    for key, room in b.rooms.items():
        cx, cy, idx = b.room_centre(key, level)
        if not idx:
            continue
        best = idx[0]
        inside = len(idx) > 1 and abs(b.areas[best].col + 0.5 - cx) < 0.01
        x, y = (cx, cy) if inside else (b.areas[best].col + 0.5, b.areas[best].row + 0.5)
        out.append({"key": key, "name": room.name or key, "x": x, "y": y,
                    "outdoors": room.outdoors,
                    "flashed": key in scene.flashed and any(i in seen for i in idx)})
    return out


def _barriers(scene: Scene, level: int, seen: set[int]) -> tuple[list[dict], list[dict]]:
    """Walls, doors, windows and archways on the level (``walls``), and the links to the
    levels above and below (``links``: stairs, ladders, holes, collapsed floors). Each is in
    its state where an observer sees either side, ``unseen`` elsewhere."""
    b = scene.building
    walls: list[dict] = []
    links: list[dict] = []
    for barrier in b.barriers:
        la, lb = b.areas[barrier.a].level, b.areas[barrier.b].level
        if la != level and lb != level:
            continue
        visible = barrier.a in seen or barrier.b in seen
        state = barrier_state(barrier) if visible else "unseen"
        if la == lb:
            edge = _edge(b, barrier)
            same_room = b.areas[barrier.a].room == b.areas[barrier.b].room
            if edge is None or barrier.kind in ALWAYS_OPEN and same_room:
                continue  # open floor inside a room: nothing to draw
            walls.append({"kind": barrier.kind.value, "state": state, "index": barrier.index,
                          "edge": list(edge)})
            continue
        if barrier.kind is BarrierKind.FLOOR and not (barrier.destroyed and visible):
            continue  # every area has a floor: only its loss is drawn (where it is seen)
        here = barrier.a if la == level else barrier.b
        a = b.areas[here]
        up = b.levels[b.areas[barrier.other(here)].level].elevation > b.levels[level].elevation
        links.append({"kind": barrier.kind.value, "state": state, "index": barrier.index,
                      "col": a.col, "row": a.row, "up": up})
    return walls, links


def _figures(scene: Scene, level: int, seen: set[int]) -> list[dict[str, Any]]:
    """The heroes on the level, and the GM's characters where an observer sees them."""
    b = scene.building
    out = []
    for hero in scene.heroes:
        a = b.areas[hero.area]
        if a.level != level or hero.npc and (hero.area not in seen or not hero.present):
            continue
        out.append({"name": hero.name, "initials": initials(hero.name), "npc": hero.npc,
                    "status": hero.status.value, "col": a.col, "row": a.row, "area": a.name})
    return out


def _outline(scene: Scene, level: int, here: list) -> list[list[int]]:
    """The open sides of the plan: where an area has no neighbour it is joined to."""
    b = scene.building
    out = []
    for a in here:
        for dc, dr, edge in ((-1, 0, (a.col, a.row, a.col, a.row + 1)),
                             (1, 0, (a.col + 1, a.row, a.col + 1, a.row + 1)),
                             (0, -1, (a.col, a.row, a.col + 1, a.row)),
                             (0, 1, (a.col, a.row + 1, a.col + 1, a.row + 1))):
            j = b.at(level, a.col + dc, a.row + dr)
            if j is None or b.between(a.index, j) is None:
                out.append(list(edge))
    return out


def _level(scene: Scene, level: int, seen: set[int], fires: set[int]) -> dict[str, Any]:
    b = scene.building
    lv = b.levels[level]
    here = [a for a in b.areas if a.level == level]
    cols = [a.col for a in here] or [0]
    rows = [a.row for a in here] or [0]
    c0, c1, r0, r1 = min(cols), max(cols), min(rows), max(rows)
    walls, links = _barriers(scene, level, seen)
    fire_list = []
    for i in sorted(fires):
        fire, a = scene.fires[i], b.areas[i]
        if a.level == level:
            fire_list.append({"area": a.name, "col": a.col, "row": a.row, "fd": fire.fd,
                              "hot": fire.temperature.value == "hot",
                              "state": fire.state.value})
    # a burning cart or boat in sight (module wrecks): a fire of its own, drawn beside the fires
    wrecks = [{"area": b.areas[w.area].name, "col": b.areas[w.area].col,
               "row": b.areas[w.area].row, "vehicle": w.vehicle}
              for w in burning_wrecks(scene) if b.areas[w.area].level == level and w.area in seen]
    return {
        "index": level, "name": lv.name, "elevation": lv.elevation,
        "cols": [column_letters(c) for c in range(c0, c1 + 1)], "c0": c0, "r0": r0,
        "width": c1 - c0 + 1, "height": r1 - r0 + 1,
        "areas": _areas(scene, here, seen), "rooms": _rooms(scene, level, seen),
        "walls": walls, "links": links, "outline": _outline(scene, level, here),
        "fires": fire_list, "wrecks": wrecks, "figures": _figures(scene, level, seen),
    }  # fmt: skip


def players_view(scene: Scene, narration: Iterable[str] = ()) -> dict[str, Any]:
    """Everything the players' screen shows of ``scene``, as JSON values: pure (nothing in
    the scene changes) and the only place that decides what the players may know."""
    b = scene.building
    seen = set(in_sight(scene))
    fires = set(known_fires(scene))
    order = sorted(range(len(b.levels)), key=lambda lv: -b.levels[lv].elevation)
    # the level to draw biggest: the most fires in sight, then the most heroes still inside,
    # then the one nearest the ground
    busy = {lv: (sum(1 for i in fires if b.areas[i].level == lv),
                 sum(1 for h in scene.heroes if h.present and not h.npc
                     and b.areas[h.area].level == lv),
                 -abs(b.levels[lv].elevation)) for lv in order}
    focus = max(order, key=lambda lv: busy[lv])
    return {
        "title": scene.title or b.title or "fuego",
        "round": scene.round,
        "phase": scene.phase,
        "moment": moment(scene),
        "ended": scene.ended,
        "levels": [_level(scene, lv, seen, fires) for lv in order],
        "focus": b.levels[focus].name,
        "heroes": [_hero_row(scene, h) for h in scene.heroes if not h.npc or h.area in seen],
        "fires": len(fires),
        "fire_dice": sum(scene.fires[i].fd for i in fires),
        "narration": list(narration)[-NARRATION_LINES:],
    }


# -- narration -------------------------------------------------------------------------------------
#: Kinds the players never hear about: the GM's and the script's own, the dice bookkeeping,
#: a failed spot (it names where the hidden fire is) and the smoke tally (it counts smoke
#: out of sight; the map shows what they see).
SECRET_KINDS = frozenset({
    EventKind.SCRIPT, EventKind.GM, EventKind.ROLL, EventKind.MODULE, EventKind.ACTION_DICE,
    EventKind.FIRE_HIDDEN, EventKind.FIRE_ACTION_FAILED, EventKind.FIRE_HELD, EventKind.SMOKE,
    EventKind.SMOKE_CLEARED,
})
#: Kinds told to everyone: what is read aloud, and the weather outside.
PUBLIC_KINDS = frozenset({EventKind.READ_ALOUD, EventKind.WEATHER, EventKind.WIND})
#: Kinds about a hero (the actor): told for the players' heroes and the GM's characters in sight.
HERO_KINDS = frozenset({
    EventKind.HERO_ACTION, EventKind.HERO_MOVED, EventKind.HERO_AVOIDED, EventKind.HERO_DAMAGED,
    EventKind.WOUND_CHECK, EventKind.CLOTHES_CAUGHT, EventKind.CLOTHES_OUT,
    EventKind.HERO_KNOCKED_OUT, EventKind.HERO_CRIPPLED, EventKind.HERO_DIED,
    EventKind.HERO_ESCAPED, EventKind.HERO_CONFUSED, EventKind.HERO_UNCONFUSED,
    EventKind.HERO_BREATH, EventKind.HERO_SUFFOCATING, EventKind.HERO_FELL, EventKind.DEBRIS,
    EventKind.FIRE_SPOTTED, EventKind.BARRIER_OPENED, EventKind.BARRIER_CLOSED,
})


def own_line(event: Event, building: Building | None = None) -> str | None:
    """The page's own lines for the scene's and rounds' start and end, and a flashover: the
    GM's count the fires (those out of sight too) and give the seed."""
    k = event.kind
    if k is EventKind.FLASHOVER:
        key = str(event.data.get("room"))
        room = building.rooms.get(key) if building is not None else None
        return f"Flashover! {room.name if room is not None else key} flashes over"
    if k is EventKind.SCENE_START:
        return f"{event.data.get('title') or 'The scene'} begins"
    if k is EventKind.ROUND_START:
        return f"Round {event.round} begins"
    if k is EventKind.ROUND_END:
        return f"Round {event.round} ends"
    if k is EventKind.SCENE_END:
        rounds = event.data.get("rounds", event.round)
        return f"The scene ends after {rounds} round{'s' if rounds != 1 else ''}"
    return None


def _named_areas(b: Building, event: Event) -> list[int | None]:
    """Every area an event's line names (its area, the acting fire's, where it goes to)."""
    names: list[Any] = [event.area]
    actor = event.actor
    if isinstance(actor, str) and actor.startswith("fire@"):
        names.append(actor[5:])
    for key in ("to", "target", "below", "frm"):
        if event.data.get(key) is not None:
            names.append(event.data[key])
    path = event.data.get("path")
    if isinstance(path, list):  # a spread "by way of" these
        names.extend(path)
    barrier = event.data.get("barrier")
    if isinstance(barrier, str) and "|" in barrier:
        names.extend(barrier.split("|", 1))
    out: list[int | None] = []
    for name in names:
        if name is not None:
            out.append(b.find(str(name)))
    return out


class PlayersNarration:
    """The narration the players may hear, fed every event of a scene as it happens.

    The GM's narrator (:class:`fuego.render.narrate.Narrator`) words each event; this keeps a
    line when the players may know it: what is read aloud, what their heroes do and suffer, what
    the GM's characters in sight do, and the fire's doings where every area the line names is in
    sight (now, or just before the event: a fire that goes out was seen burning).
    """

    def __init__(self, scene: Scene, limit: int = NARRATION_LINES):
        from fuego.render.narrate import Narrator

        self.scene = scene
        self.limit = limit
        self.lines: list[str] = []
        self._narrator = Narrator(building=scene.building)
        self._before: set[int] = set()

    def _sight(self) -> set[int]:
        """Areas in sight now (the engine keeps the players' sight per the state it follows)."""
        return set(in_sight(self.scene))

    def told(self, event: Event, seen: set[int]) -> bool:
        """May the players hear ``event``'s line? (``seen``: the areas in sight around it.)"""
        k = event.kind
        if k in SECRET_KINDS:
            return False
        if k in PUBLIC_KINDS:
            return True
        b = self.scene.building
        if k in HERO_KINDS:  # the players' heroes always; the GM's characters in sight
            hero = next((h for h in self.scene.heroes if h.name == event.actor), None)
            return hero is not None and (not hero.npc or hero.area in seen)
        if k is EventKind.FLASHOVER:
            return any(i in seen for i in b.room_areas(str(event.data.get("room"))))
        named = _named_areas(b, event)
        return bool(named) and all(i is not None and i in seen for i in named)

    def feed(self, event: Event) -> None:
        """Take the next event of the scene (a listener on ``scene.listeners``)."""
        now = self._sight()
        seen = now | self._before
        self._before = set(now)
        for e, text in self._narrator.feed_pairs(event):
            line = own_line(e, self.scene.building)
            if line is not None and (e.kind is not EventKind.FLASHOVER or self.told(e, seen)):
                self._add(line)
            elif line is None and self.told(e, seen):
                self._add(text)

    def flush(self) -> None:
        """Lines still held back (a hero's damage waits for its wound check)."""
        seen = self._sight() | self._before
        for e, text in self._narrator.flush_pairs():
            if self.told(e, seen):
                self._add(text)

    def _add(self, text: str) -> None:
        self.lines.append(text)
        del self.lines[:-self.limit]
