"""What the players may know: the one place that decides what the players' screen shows.

:func:`players_view` turns a scene into plain data (JSON values only) for the page, and
:class:`PlayersNarration` keeps the story the players have heard, round by round, in their own
words (:mod:`fuego.render.players`), with what changed in each round. Everything the page draws
comes from these two; nothing else reads the scene for it.

What the players know is what their heroes see now (the *observers*: the players' heroes still
on their feet, active or escaped and watching from outside; the GM's characters, ``npc``, do not
count; a knocked-out or dead hero sees nothing), and what the GM shows them (``reveal``, taken
back by ``hide``: :func:`revealed`). With no observer left (every hero of theirs down, or none
in the scene; on a hero's own page, that hero down) the page says so (``blind``) instead of
"no fire in sight". When the scene is over the whole ruin is shown. A player's own page
(``hero``) shows what that one hero sees, with the hero's sheet first. So the page shows

- every level's plan (the same areas, rooms and names as ``fuego map``), with the state of
  doors, windows, walls and floors where it is seen, and as drawn in the scenario elsewhere
  ("unseen");
- the fires in sight, with their Fire Dice, hot or not, and what is new this round; smoke and
  burned-out areas in sight; the players' heroes (wherever they are) and the GM's characters in
  sight;
- the round and phase, each hero's wounds and conditions;
- the story (:class:`PlayersNarration`): the whole scene, a round at a time.

Never: a fire no observer sees (until a hero spots it or the GM reveals it), the GM's overrides,
the script, the odds, the seed, a pool or a TN, or counts of fires the heroes cannot see.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from fuego.engine.events import END_PHASE, START_PHASE, Event, EventKind
from fuego.engine.heroes import Status
from fuego.engine.sight import WATCHING, blinded, hero_sight, players_sight
from fuego.engine.sight import observers as engine_observers
from fuego.modules.fire_breaks import cleared_by_area
from fuego.modules.wrecks import burning_wrecks
from fuego.render.changes import Changes
from fuego.render.map_style import (  # (as fuego map says them)
    Drawn,
    barrier_state,
    initials,
    token_words,
)
from fuego.render.players import going_to, say
from fuego.rules.charts import Temperature
from fuego.table.gm import revealed, shown_after
from fuego.table.overrides import Override
from fuego.words import plural
from fuego.world.places import ALWAYS_OPEN, BarrierKind, column_letters

if TYPE_CHECKING:
    from collections.abc import Iterable

    from fuego.engine.heroes import Hero
    from fuego.engine.scene import Scene
    from fuego.world.building import Building
    from fuego.world.places import Barrier

#: The story keeps at most this many lines (the oldest rounds go first): a long scene's page
#: stays small.
STORY_LINES = 1500

# -- sight -----------------------------------------------------------------------------------------
# What a hero sees is the engine's (fuego.engine.sight): line of sight through openings and
# windows, sight in smoke by the text's distances, the building's outside from the street, and
# the hidden fires a hero has spotted. The page only picks whose sight it shows.
def observers(scene: Scene, hero: Hero | None = None) -> list[Hero]:
    """The players' heroes who can still see (not the GM's characters, not knocked out or dead);
    with ``hero``, that one alone (a player's own page)."""
    if hero is not None:
        return [hero] if hero.status in WATCHING else []
    return engine_observers(scene)


def in_sight(scene: Scene, hero: Hero | None = None) -> set[int]:
    """Every area some observer sees, clearly or as shapes."""
    if hero is None:
        return set(players_sight(scene).in_view)
    return set(hero_sight(scene, hero).in_view) if hero.status in WATCHING else set()


def known_fires(scene: Scene, hero: Hero | None = None) -> set[int]:
    """The areas of the fires the players know of: those some observer sees, spotted hidden
    fires included."""
    if hero is None:
        return set(players_sight(scene).fires)
    return set(hero_sight(scene, hero).fires) if hero.status in WATCHING else set()


# -- what the GM shows -----------------------------------------------------------------------------
#: The GM's words for the players' screen (fuego.table.gm): show, take back, a line of the GM's.
NOTE = Override.NOTE


def is_over(scene: Scene) -> bool:
    """Is the scene over: played to its end (``scene-end`` logged) or ended by the GM?"""
    if scene.ended:
        return True
    for event in reversed(scene.log):  # the end is among the last events, after the last round
        if event.kind is EventKind.SCENE_END:
            return True
        if event.kind in (EventKind.ROUND_START, EventKind.ROUND_END):
            return False
    return False


class Sight:
    """What one page may show now: the areas in sight and the fires known (``everything`` at the
    end of the scene); ``blind``: why the page's heroes see nothing, in the players' words (the
    table's: :class:`fuego.engine.sight.Blind`; a hero's own page: the hero is knocked out or
    dead): the page says so, not "no fire in sight"."""

    __slots__ = ("areas", "fires", "everything", "blind")

    def __init__(self, scene: Scene, hero: Hero | None = None):
        self.everything = is_over(scene)
        self.blind: str | None = None
        if self.everything:
            self.areas = set(range(len(scene.building.areas)))
            self.fires = set(scene.fires)
            return
        self.blind = blind_words(scene, hero)
        shown = revealed(scene)
        self.areas = in_sight(scene, hero) | shown
        self.fires = known_fires(scene, hero) | {i for i in shown if i in scene.fires}


def blind_words(scene: Scene, hero: Hero | None = None) -> str | None:
    """Why the page's heroes see nothing at all (the table's page: all of the players'; a
    hero's own: that hero), in the players' words; None while one can look."""
    if hero is None:
        blind = players_sight(scene).blind
        return blind.words if blind is not None else None
    down = blinded(hero)
    return f"{hero.name} is {down.words} and sees nothing" if down is not None else None


# -- the view --------------------------------------------------------------------------------------
def moment(scene: Scene) -> str:
    """``Before round 1``, ``Round 2, phase 7``, ``Round 2, end of round``, ``The scene is over``."""
    if is_over(scene):
        return f"The scene is over (round {scene.round})" if scene.round else "The scene is over"
    if scene.round == 0:
        return "Before round 1"
    if scene.phase == START_PHASE:
        return f"Round {scene.round}, start of round"
    if scene.phase >= END_PHASE:
        return f"Round {scene.round}, end of round"
    return f"Round {scene.round}, phase {scene.phase}"


def token_letters(scene: Scene) -> dict[str, str]:
    """Each character's token letters by name: the initials of the first two words
    (``Isabela Soldano`` IS, as ``fuego map`` draws them), or where two characters' initials
    are the same, a letter more of the second word (``Gaston Allais`` GAL, ``Gilles Aubert``
    GAU), then a number: never two tokens alike on the page. (Decided over the scene's whole
    cast, so a token's letters stay as characters come into sight.)"""
    names = list(dict.fromkeys(h.name for h in scene.heroes))
    first = {n: initials(n) for n in names}
    out: dict[str, str] = {}
    for n in names:
        letters = first[n]
        if sum(first[m] == letters for m in names) > 1:
            words = token_words(n) or ["?"]
            more = words[1][1:2] if len(words) > 1 else words[0][1:2]
            letters += more.upper()  # (a lower-case l reads as an I)
        base, k = letters, 2
        while letters in out.values():
            letters, k = f"{base}{k}", k + 1
        out[n] = letters
    return out


def _conditions(scene: Scene, hero: Hero) -> list[str]:
    """A hero's conditions in words the players read (each one a word or two)."""
    from fuego.rules.charts import Density

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
        what = "burning oil on them" if hero.oiled else "clothes alight"
        out.append(f"{what} ({hero.clothes_fd} FD)")
    if hero.confused:
        out.append("confused")
    if hero.breath:
        out.append(f"holding breath ({plural(hero.breath, 'round')})")
    if hero.crippled and hero.status is not Status.DEAD:
        out.append("crippled")
    return out


def _hero_row(scene: Scene, hero: Hero, letters: dict[str, str]) -> dict[str, Any]:
    b = scene.building
    area = b.areas[hero.area]
    out = hero.status is Status.ESCAPED
    return {
        "name": hero.name, "initials": letters[hero.name], "npc": hero.npc,
        "status": hero.status.value,
        # the exit's own place: a village square or a ship's deck is not "out of the building"
        "where": f"got out {going_to(area.room, b)}" if out else b.rooms[area.room].name,
        "area": area.name,
        "flesh": hero.flesh, "dramatic": hero.dramatic, "knocked_out_at": hero.knocked_out_at,
        "conditions": _conditions(scene, hero),
    }  # fmt: skip


def _edge(b: Building, barrier: Barrier) -> tuple[int, int, int, int] | None:
    """The grid edge two side-by-side areas share (``Building.shared_edge``): (x0, y0, x1, y1)
    in area units."""
    edge = b.shared_edge(barrier.a, barrier.b)
    return None if edge is None else (*edge[0], *edge[1])


def _areas(scene: Scene, here: list, seen: set[int]) -> list[dict[str, Any]]:
    from fuego.rules.charts import Density

    b, smoke = scene.building, scene.smoke
    cleared = cleared_by_area(scene)  # (a fire break: cleared ground, seen as any ground is)
    out = []
    for a in here:
        d = smoke.at(a.index) if smoke is not None and a.index in seen else Density.NONE
        out.append({
            "name": a.name, "col": a.col, "row": a.row, "room": a.room,
            "outdoors": b.rooms[a.room].outdoors, "exit": b.is_exit(a.index),
            "seen": a.index in seen, "burned": a.burned_out and a.index in seen,
            "smoke": {Density.THIN: "thin", Density.THICK: "thick"}.get(d, ""),
            "cleared": cleared.get(a.index, "") if a.index in seen else "",
        })  # fmt: skip
    return out


def _rooms(scene: Scene, level: int, seen: set[int]) -> list[dict[str, Any]]:
    """Each room on the level: its name and its areas there as ``cells`` ([col, row]), nearest
    the room's centre first; the map places the name (:func:`fuego.web.svg.name_place`)."""
    b = scene.building
    out = []
    for key, room in b.rooms.items():
        _cx, _cy, idx = b.room_centre(key, level)
        if not idx:
            continue
        out.append({"key": key, "name": room.name or key, "outdoors": room.outdoors,
                    "cells": [[b.areas[i].col, b.areas[i].row] for i in idx],
                    "flashed": key in scene.flashed and any(i in seen for i in idx)})
    return out


def _barriers(scene: Scene, level: int, seen: set[int],
              changed: set[str]) -> tuple[list[dict], list[dict]]:
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
        state = (barrier_state(barrier) if visible else Drawn.UNSEEN).value
        if la == lb:
            edge = _edge(b, barrier)
            same_room = b.areas[barrier.a].room == b.areas[barrier.b].room
            if edge is None or barrier.kind in ALWAYS_OPEN and same_room:
                continue  # open floor inside a room: nothing to draw
            walls.append({"kind": barrier.kind.value, "state": state, "index": barrier.index,
                          "edge": list(edge), "changed": visible and barrier.name in changed})
            continue
        if barrier.kind is BarrierKind.FLOOR and not (barrier.destroyed and visible):
            continue  # every area has a floor: only its loss is drawn (where it is seen)
        here = barrier.a if la == level else barrier.b
        a = b.areas[here]
        up = b.levels[b.areas[barrier.other(here)].level].elevation > b.levels[level].elevation
        links.append({"kind": barrier.kind.value, "state": state, "index": barrier.index,
                      "col": a.col, "row": a.row, "up": up,
                      "changed": visible and (barrier.name in changed or a.name in changed)})
    return walls, links


def _figures(scene: Scene, level: int, seen: set[int]) -> list[dict[str, Any]]:
    """The players' heroes on the level, and the GM's characters where they are seen (one who
    got out beside the heroes too)."""
    b = scene.building
    out = []
    letters = token_letters(scene)
    for hero in scene.heroes:
        a = b.areas[hero.area]
        if a.level != level or hero.npc and hero.area not in seen:
            continue
        out.append({"name": hero.name, "initials": letters[hero.name], "npc": hero.npc,
                    "status": hero.status.value, "col": a.col, "row": a.row, "area": a.name})
    return out


def _outline(scene: Scene, level: int, here: list) -> list[list[int]]:
    """The open sides of the plan: where an area has no neighbour it is joined to."""
    b = scene.building
    at = {(a.col, a.row): a.index for a in here}
    out = []
    for a in here:
        for dc, dr, edge in ((-1, 0, (a.col, a.row, a.col, a.row + 1)),
                             (1, 0, (a.col + 1, a.row, a.col + 1, a.row + 1)),
                             (0, -1, (a.col, a.row, a.col + 1, a.row)),
                             (0, 1, (a.col, a.row + 1, a.col + 1, a.row + 1))):
            j = at.get((a.col + dc, a.row + dr))
            if j is None or b.between(a.index, j) is None:
                out.append(list(edge))
    return out


def _level(scene: Scene, level: int, sight: Sight, changes: Changes | None) -> dict[str, Any]:
    b = scene.building
    seen, fires = sight.areas, sight.fires
    new = changes.new if changes else set()
    grew = changes.grew if changes else set()
    changed = (changes.opened | changes.broken | changes.collapsed) if changes else set()
    lv = b.levels[level]
    here = [a for a in b.areas if a.level == level]
    cols = [a.col for a in here] or [0]
    rows = [a.row for a in here] or [0]
    c0, c1, r0, r1 = min(cols), max(cols), min(rows), max(rows)
    walls, links = _barriers(scene, level, seen, changed)
    fire_list = []
    for i in sorted(fires):
        fire, a = scene.fires[i], b.areas[i]
        if a.level == level:
            fire_list.append({"area": a.name, "col": a.col, "row": a.row, "fd": fire.fd,
                              "hot": fire.temperature is Temperature.HOT,
                              "state": fire.state.value, "new": a.name in new,
                              "grew": a.name in grew and a.name not in new})
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


def hero_key(name: str) -> str:
    """A hero's page's name in the address (``Isabela Soldano`` -> ``isabela-soldano``)."""
    key = "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-")
    return "-".join(part for part in key.split("-") if part) or "hero"


def player_heroes(scene: Scene) -> dict[str, Hero]:
    """The players' heroes by their page's key (one page each; the GM's characters have none)."""
    out: dict[str, Hero] = {}
    for hero in scene.heroes:
        if hero.npc:
            continue
        key = base = hero_key(hero.name)
        n = 2
        while key in out:  # two names that read alike: the second is -2
            key, n = f"{base}-{n}", n + 1
        out[key] = hero
    return out


def _fate(scene: Scene, hero: Hero) -> str:
    # where the hero stands: inside the building, or out in a village's fields or on a deck
    where = "in the open" if scene.building.room_of(hero.area).outdoors else "inside"
    return {Status.ESCAPED: "got out", Status.DEAD: "died", Status.KNOCKED_OUT:
            f"knocked out {where}", Status.ACTIVE: f"still {where}"}[hero.status]


def ruin(scene: Scene) -> dict[str, Any]:
    """The end of the scene in the players' words: what burned (room by room) and who got
    out."""
    b = scene.building
    rooms: list[dict[str, Any]] = []
    for key in b.rooms:
        idx = b.room_areas(key)
        if not idx:
            continue
        burned = sum(1 for i in idx if b.areas[i].burned_out)
        burning = sum(1 for i in idx if i in scene.fires)
        if burned or burning:
            state = ("burned out" if burned == len(idx) else
                     "still burning" if burning else "partly burned")
            # (named as on the map: a list of "The Kitchen, Balcony" reads oddly)
            rooms.append({"name": b.rooms[key].name or key, "state": state, "burned": burned,
                          "areas": len(idx)})
    rooms.sort(key=lambda r: (-r["burned"] / r["areas"], r["name"]))
    return {
        "burned": sum(1 for a in b.areas if a.burned_out), "areas": len(b.areas),
        "burning": len(scene.fires), "rooms": rooms,
        "heroes": [{"name": h.name, "npc": h.npc, "fate": _fate(scene, h)} for h in scene.heroes],
    }  # fmt: skip


def players_view(scene: Scene, narration: PlayersNarration | Iterable[str] | None = None,
                 hero: Hero | None = None) -> dict[str, Any]:
    """Everything the players' screen shows of ``scene``, as JSON values: pure (nothing in
    the scene changes) and the only place that decides what the players may know. ``hero``:
    that hero's own page (what the hero sees, the hero's sheet first)."""
    b = scene.building
    sight = Sight(scene, hero)
    order = sorted(range(len(b.levels)), key=lambda lv: -b.levels[lv].elevation)
    latest = narration.latest_changes() if isinstance(narration, PlayersNarration) else None
    changes = latest[1] if latest else None
    # the level to draw biggest: the hero's own; else the most fires in sight, then the most
    # heroes still inside, then the one nearest the ground
    busy = {lv: (hero is not None and b.areas[hero.area].level == lv,
                 sum(1 for i in sight.fires if b.areas[i].level == lv),
                 sum(1 for h in scene.heroes if h.present and not h.npc
                     and b.areas[h.area].level == lv),
                 -abs(b.levels[lv].elevation)) for lv in order}
    focus = max(order, key=lambda lv: busy[lv])
    if isinstance(narration, PlayersNarration):  # (as it stands now: the story goes on)
        story = [{"round": r["round"], "lines": [dict(line) for line in r["lines"]]}
                 for r in narration.rounds]
    else:  # plain lines (a test's)
        story = [{"round": scene.round, "lines": [{"text": t, "kind": "hero"}
                                                  for t in (narration or ())]}]
    letters = token_letters(scene)
    view: dict[str, Any] = {
        "title": scene.title or b.title or "fuego",
        "round": scene.round,
        "phase": scene.phase,
        "moment": moment(scene),
        "ended": sight.everything,
        "levels": [_level(scene, lv, sight, changes) for lv in order],
        "focus": b.levels[focus].name,
        "heroes": [_hero_row(scene, h, letters) for h in scene.heroes
                   if not h.npc or h.area in sight.areas],
        "fires": len(sight.fires),
        # (why no hero of theirs sees: the page says it, not "no fire in sight")
        "blind": sight.blind,
        "fire_dice": sum(scene.fires[i].fd for i in sight.fires),
        "story": story,
        "changes": ({"round": latest[0], "text": latest[1].words(b)} if latest else None),
        "players": [{"key": k, "name": h.name, "initials": letters[h.name]}
                    for k, h in player_heroes(scene).items()],
        "hero": None,
        "revealed": bool(sight.everything or revealed(scene)),
        "ruin": ruin(scene) if sight.everything else None,
    }
    if hero is not None:
        me = _hero_row(scene, hero, letters)
        me["key"] = next((k for k, h in player_heroes(scene).items() if h is hero), "")
        down = blinded(hero)
        me["sees"] = ("nothing: " + down.words if down is not None else
                      plural(len(sight.fires), "fire"))
        view["hero"] = me
        view["heroes"] = [me] + [row for row in view["heroes"] if row["name"] != hero.name]
        for lv in view["levels"]:
            for fig in lv["figures"]:
                fig["me"] = fig["name"] == hero.name
    return view
# -- the story -------------------------------------------------------------------------------------
#: Kinds told to everyone: the scene's frame, what is read aloud, the weather (and the GM's
#: notes: see ``told``).
PUBLIC_KINDS = frozenset({
    EventKind.SCENE_START, EventKind.ROUND_START, EventKind.ROUND_END, EventKind.SCENE_END,
    EventKind.READ_ALOUD, EventKind.WEATHER, EventKind.WIND,
})
#: Kinds about a hero (the actor): told for the players' heroes and the GM's characters in sight.
HERO_KINDS = frozenset({
    EventKind.HERO_ACTION, EventKind.HERO_MOVED, EventKind.HERO_AVOIDED, EventKind.HERO_DAMAGED,
    EventKind.WOUND_CHECK, EventKind.CLOTHES_CAUGHT, EventKind.CLOTHES_OUT,
    EventKind.HERO_KNOCKED_OUT, EventKind.HERO_CRIPPLED, EventKind.HERO_DIED,
    EventKind.HERO_ESCAPED, EventKind.HERO_CONFUSED, EventKind.HERO_UNCONFUSED,
    EventKind.HERO_BREATH, EventKind.HERO_SUFFOCATING, EventKind.HERO_FELL, EventKind.DEBRIS,
    EventKind.FIRE_SPOTTED, EventKind.BARRIER_OPENED, EventKind.BARRIER_CLOSED,
})
#: How the page sets a line apart, by its kind (the rest are "fire" or "hero").
_LINE_KINDS = {
    EventKind.SCENE_START: "round", EventKind.ROUND_START: "round",
    EventKind.ROUND_END: "round", EventKind.SCENE_END: "round",
    EventKind.GM: "gm", EventKind.READ_ALOUD: "read",
    EventKind.WEATHER: "weather", EventKind.WIND: "weather",
    EventKind.HERO_KNOCKED_OUT: "alarm", EventKind.HERO_DIED: "alarm",
    EventKind.CLOTHES_CAUGHT: "alarm", EventKind.HERO_SUFFOCATING: "alarm",
    EventKind.HERO_CRIPPLED: "alarm", EventKind.HERO_CONFUSED: "alarm",
    EventKind.FLASHOVER: "alarm", EventKind.FLOOR_COLLAPSED: "alarm",
}


def _line_kind(kind: EventKind) -> str:
    return _LINE_KINDS.get(kind, "hero" if kind in HERO_KINDS else "fire")


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
    source = event.data.get("source")
    if isinstance(source, str) and source.startswith("fire@"):
        names.append(source[5:])
    return [b.find(str(name)) for name in names if name is not None]


class PlayersNarration:
    """The story the players may hear, fed every event of a scene as it happens: round by round,
    the whole scene, in the players' words (:func:`fuego.render.players.say`).

    A line is kept when the players may know it: what is read aloud, the weather, the GM's
    notes, what their heroes do and suffer, what the GM's characters in sight do, and the fire's
    doings where every area the line names is in sight (now, or just before the event: a fire
    that goes out was seen burning) or shown by the GM. ``hero``: the story as that hero's page
    tells it (what that hero sees, and what the heroes do).
    """

    def __init__(self, scene: Scene, hero: Hero | None = None, limit: int = STORY_LINES):
        self.scene = scene
        self.hero = hero
        self.limit = limit
        self.rounds: list[dict[str, Any]] = []  # [{"round": n, "lines": [{"text", "kind"}]}]
        self.changes: dict[int, Changes] = {}
        self._count = 0
        self._before: set[int] = set()
        self._shown: set[int] = set()  # what the GM revealed
        self._said: tuple[int, str, str] | None = None  # the last line: (its id, words, kind)

    @property
    def lines(self) -> list[str]:
        """Every line kept, oldest first."""
        return [line["text"] for r in self.rounds for line in r["lines"]]

    def _sight(self) -> set[int]:
        """Areas in sight now (the engine keeps each hero's sight per the state it follows:
        doors, fires, smoke, heroes), and what the GM revealed."""
        s = self.scene
        if is_over(s):
            return set(range(len(s.building.areas)))
        return in_sight(s, self.hero) | self._shown

    def told(self, event: Event, seen: set[int]) -> bool:
        """May the players hear ``event``'s line? (``seen``: the areas in sight around it.)"""
        k = event.kind
        if k in PUBLIC_KINDS:
            return True
        if k is EventKind.GM:  # the GM's note, never the GM's other overrides
            return event.data.get("action") == NOTE
        b = self.scene.building
        if k in HERO_KINDS:  # the players' heroes always; the GM's characters in sight
            hero = next((h for h in self.scene.heroes if h.name == event.actor), None)
            if hero is None:
                return False
            if not hero.npc:
                return True
            return hero.area in seen or (event.area is not None and b.find(event.area) in seen)
        if k is EventKind.FLASHOVER:
            return any(i in seen for i in b.room_areas(str(event.data.get("room"))))
        named = _named_areas(b, event)
        return bool(named) and all(i is not None and i in seen for i in named)

    def feed(self, event: Event) -> None:
        """Take the next event of the scene (a listener on ``scene.listeners``)."""
        self._shown = shown_after(self.scene.building, self._shown, event)
        now = self._sight()
        seen = now | self._before
        self._before = set(now)
        event = self._as_seen(event, seen)
        if not self.told(event, seen):
            return
        if event.round:
            self.changes.setdefault(event.round, Changes()).take(event)
        text = say(event, self.scene.building)
        if text:
            self._add(event, text)

    def _as_seen(self, event: Event, seen: set[int]) -> Event:
        """A new fire in sight whose source is out of it: told without where it came from
        ("the Bar catches fire", not from the hidden kitchen)."""
        source = event.data.get("source")
        if event.kind is EventKind.FIRE_STARTED and isinstance(source, str) \
                and source.startswith("fire@") \
                and self.scene.building.find(source[5:]) not in seen:
            return replace(event, data={**event.data, "source": None})
        return event

    def flush(self) -> None:
        """Nothing is held back (kept for the feed's callers)."""

    def _add(self, event: Event, text: str) -> None:
        if not self.rounds or self.rounds[-1]["round"] != event.round:
            self.rounds.append({"round": event.round, "lines": []})
        lines, kind = self.rounds[-1]["lines"], _line_kind(event.kind)
        # the fire's same line again (it grows in five areas of one field): said once,
        # counted, so that a round's story is not five of it (words read aloud or the GM's
        # stay as written)
        fires = event.kind not in _LINE_KINDS and event.kind not in HERO_KINDS  # (a fire line)
        if fires and lines and self._said == (id(lines[-1]), text, kind):
            lines[-1]["times"] += 1
            lines[-1]["text"] = f"{text} (\u00d7{lines[-1]['times']})"
            return
        lines.append({"text": text, "kind": kind, "times": 1})
        self._said = (id(lines[-1]), text, kind)
        self._count += 1
        while self._count > self.limit and self.rounds:
            oldest = self.rounds[0]["lines"]
            oldest.pop(0)
            self._count -= 1
            if not oldest:
                self.rounds.pop(0)

    def latest_changes(self) -> tuple[int, Changes] | None:
        """The round whose changes the page marks: this one, or the one before while nothing
        has changed yet in this one."""
        now = self.scene.round
        for r in (now, now - 1):
            got = self.changes.get(r)
            if got:
                return r, got
        return None


