"""Per-event phrases: :func:`narrate` turns one event into one line of game language.

The small words (counts, area and room names, rolls), the phrase of every event kind (one small
function each, registered in :data:`PHRASES` under its :class:`EventKind`), and the lines a
hero's damage and its wound check make. A pure function of the event: nothing is printed.
:mod:`fuego.render.narrate` (the stream) and :mod:`fuego.render.summary` are built on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from fuego.engine import events
from fuego.engine.events import END_PHASE, START_PHASE, Event, EventKind
from fuego.engine.fire import FUEL_SPENT
from fuego.engine.fire_actions import ActionKind
from fuego.engine.hero_actions import ROLL_ACTION, HeroActionKind, Purpose
from fuego.engine.heroes import Status
from fuego.engine.injury import DamageCause
from fuego.engine.loop import Ending
from fuego.engine.scene import Cause
from fuego.rules.charts import Contact, Rank, Temperature
from fuego.rules.settings import ExplosionRule
from fuego.table.gm import GM_ACTOR, Shown
from fuego.words import count, plural, scene_ended, the

if TYPE_CHECKING:
    from fuego.world.building import Building

#: Kinds narrated only with ``verbose=True`` (whatever their data).
QUIET_KINDS = frozenset({
    EventKind.ACTION_DICE,
    EventKind.FIRE_ACTION_FAILED,
    EventKind.FIRE_HELD,
    EventKind.AREA_BURNED_OUT,
    EventKind.ROLL,
})


#: Why a scene ended, in words (``scene-end``'s ``why``; the summary's "ended: ...").
ENDING_WORDS: Mapping[Ending, str] = {
    Ending.FIRE_OUT: "the fire is out",
    Ending.HEROES_OUT: "no hero left to act, the GM ended it",
    Ending.GM_ENDED: "the GM ended it",
    Ending.ROUND_LIMIT: "the round limit",
}
_ENDING_VALUES = frozenset(e.value for e in Ending)


# -- small words --------------------------------------------------------------------------------
def _words(text: Any) -> str:
    """``closed wooden-door`` -> ``closed wooden door``."""
    return str(text).replace("-", " ")


def _thing(text: Any) -> str:
    """A barrier's description without its open/closed state: ``closed wooden-door`` ->
    ``wooden door`` (a fire only burns through what is shut; a hero opens what was closed)."""
    what = _words(text)
    for word in ("closed ", "open "):
        if what.startswith(word):
            return what[len(word):]
    return what


def listing(items: Iterable[str]) -> str:
    items = list(items)
    if not items:
        return "nobody"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _room_name(name: Any, building: Building | None) -> str | None:
    if building is None or name is None:
        return None
    i = building.find(str(name))
    if i is None:
        return None
    room = building.rooms.get(building.areas[i].room)
    return room.name or room.key if room is not None else None


def place(name: Any, building: Building | None, *, extra: str | None = None,
          near: Any = None) -> str:
    """``ground:C4``; with a building ``ground:C4 (Kitchen)``; ``extra`` joins the brackets
    (``ground:C4 (Kitchen, FD 5)``). The room is left out when ``near`` (the other area of the
    event) lies in the same room: "moves from ground:A1 (Kitchen) to ground:B1"."""
    if name is None:
        return "somewhere"
    room = _room_name(name, building)
    if room is not None and near is not None and _room_name(near, building) == room:
        room = None
    inside = ", ".join(x for x in (room, extra) if x)
    return f"{name} ({inside})" if inside else str(name)


def _room(key: Any, building: Building | None) -> str:
    if building is not None and key in building.rooms:
        return building.rooms[key].name or str(key)
    return str(key)


def _spoken(key: Any, building: Building | None) -> str:
    """A room as a sentence says it (``the Kitchen``, ``Goose Lane``: ``Room.spoken``)."""
    if building is not None and key in building.rooms:
        return building.rooms[key].spoken
    return str(key)


def fire_area(actor: Any, area: Any) -> Any:
    """The area a fire's actor name points at (``fire@ground:C2`` -> ``ground:C2``)."""
    if isinstance(actor, str) and actor.startswith("fire@"):
        return actor[5:]
    return area


def _fire(e: Event, building: Building | None, fd: int | None = None) -> str:
    """``the fire in ground:C2 (FD 5)``; without a known FD just ``the fire in ground:C2``."""
    where = place(fire_area(e.actor, e.area), building, extra=f"FD {fd}" if fd else None)
    return f"the fire in {where}"


def _who(actor: Any) -> str:
    """Something that acted: a hero's name, a fire, or nobody in particular."""
    if actor is None:
        return "something"
    text = str(actor)
    if text.startswith("fire@"):
        return f"the fire in {text[5:]}"
    return "the GM" if text == GM_ACTOR else text


def _roll(d: Mapping[str, object], *, outcome: bool = False) -> str:
    """``rolled 23 vs TN 10`` (and ``: failed``/``: passed`` when ``outcome``)."""
    if "total" not in d:
        return ""
    text = f"rolled {d['total']}"
    if d.get("tn") is not None:
        text += f" vs TN {d['tn']}"
    if outcome and "success" in d:
        text += ": " + ("passed" if d["success"] else "failed")
    return text


def _pool(d: Mapping[str, object]) -> str:
    """``4k4 `` before a total, where the event names its pool (older logs may not)."""
    return f"{d['pool']} " if d.get("pool") else ""


def _with_roll(text: str, d: Mapping[str, object], *, outcome: bool = False) -> str:
    roll = _roll(d, outcome=outcome)
    return f"{text}: {roll}" if roll else text


def phase_prefix(e: Event) -> str:
    if START_PHASE < e.phase < END_PHASE:
        return f"Phase {e.phase}: "
    return ""


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _generic(e: Event) -> str:
    """Fallback for kinds with free-form data (script, GM, modules)."""
    d = e.data
    for key in ("text", "message", "say", "effect", "what"):
        if key in d and isinstance(d[key], str):
            return d[key]
    parts = [f"{k}={d[k]}" for k in sorted(d)]
    return ", ".join(parts)


_DAMAGE_CAUSE: dict[str, str] = {
    DamageCause.STANDING: "standing in the fire",
    DamageCause.MOVING: "stepping into the fire",
    DamageCause.CLOTHES: "from burning clothes",
    DamageCause.DEBRIS: "from falling debris",
    DamageCause.BURNING_OIL: "from the burning oil on them",
}
#: How the fire reached the hero, where the cause does not say it (``hero-damaged``'s contact).
_CONTACT_FROM: dict[str, str] = {
    Contact.JET: "from a jet of burning gas (hot; an extra Dramatic Wound per 10)",
    Contact.MAGIC: "from magical fire (an extra Dramatic Wound per 10)",
    Contact.STRUCK: "from a burning object",
    Contact.EXPLOSION: "in the explosion (a hot fire)",
    Contact.OIL: "from burning oil (hot; an extra Dramatic Wound per 10)",
}

def _fd_word(d: dict) -> str:
    return f"FD {d.get('fd')}"


def _gm_barrier(verb: str):
    def text(e: Event, b: Building | None) -> str:
        barrier = e.data.get("barrier")
        if isinstance(barrier, str) and "|" in barrier:
            x, y = barrier.split("|", 1)
            return f"{verb} the barrier between {place(x, b)} and {place(y, b, near=x)}"
        return f"{verb} {the(barrier) if barrier else 'a barrier'}"
    return text


def _shown(e: Event, b: Building | None) -> str:
    """What a ``reveal``/``hide`` names: ``the whole map`` (a village or a ship is no
    building), ``level upper``, a room as said (``the Bar``, ``Goose Lane``)."""
    what, name = e.data.get("what"), e.data.get("name")
    if what == Shown.ALL:
        return "the whole map"
    if what == Shown.ROOM and b is not None and name in b.rooms:
        return b.rooms[name].spoken
    return f"{what} {name}"


#: The GM's overrides (fuego.table.gm), by their ``action``.
_GM_ACTIONS = {
    "start-fire": lambda e, b: f"starts a fire in {place(e.area, b, extra=_fd_word(e.data))}",
    "set-fire-dice": lambda e, b: (f"puts out the fire in {place(e.area, b)}" if not e.data.get("fd")
                                   else f"sets the fire in {place(e.area, b)} to FD {e.data['fd']}"),
    "open-barrier": _gm_barrier("opens"),
    "close-barrier": _gm_barrier("closes"),
    "break-barrier": _gm_barrier("breaks"),
    "move-hero": lambda e, b: f"moves {e.data.get('hero')} to {place(e.area, b)}",
    "end-scene": lambda e, b: "ends the scene",
    "flesh-wounds": lambda e, b: f"gives {e.data.get('hero')} {e.data.get('n')} Flesh Wounds",
    "dramatic-wounds": lambda e, b: (f"gives {e.data.get('hero')} {e.data.get('n')} Dramatic "
                                     f"Wound{'' if e.data.get('n') == 1 else 's'}"),
    "add-character": lambda e, b: (f"brings {e.data.get('hero')} in at {place(e.area, b)}"
                                   + (" (an NPC)" if e.data.get("npc") else "")),
    "remove-character": lambda e, b: f"takes {e.data.get('hero')} out of the scene",
    "burn-jet": lambda e, b: f"a jet of burning gas ({_fd_word(e.data)}) hits {e.data.get('hero')}",
    "burn-magic": lambda e, b: f"magical fire ({_fd_word(e.data)}) strikes {e.data.get('hero')}",
    "burn-object": lambda e, b: (f"a burning object ({_fd_word(e.data)}) strikes "
                                 f"{e.data.get('hero')}"),
    "burn-oil": lambda e, b: f"burning oil ({_fd_word(e.data)}) splashes {e.data.get('hero')}",
    "explode": lambda e, b: f"sets off an explosion ({_fd_word(e.data)}) in {place(e.area, b)}",
    "blast": lambda e, b: f"sets off a blast ({e.data.get('fd')} dice) in {place(e.area, b)}",
    "reveal": lambda e, b: "shows the players " + _shown(e, b),
    "hide": lambda e, b: "takes back the players' view of " + _shown(e, b),
    "note": lambda e, b: f'tells the players: "{e.data.get("text")}"',
}

_STATE_WORDS = {
    "guttering": "gutters",
    "burning": "blazes up",
    "flame": "dies back to a flame",
    "out": "goes out",
}


def _hero_status(name: str, status: str, flesh: int, dramatic: int) -> str:
    wounds = []
    if flesh:
        wounds.append(plural(flesh, "Flesh Wound"))
    if dramatic:
        wounds.append(plural(dramatic, "Dramatic Wound"))
    hurt = ", ".join(wounds) if wounds else "unhurt"
    if status == Status.ACTIVE:
        return f"{name} {hurt}"
    return f"{name} ({_words(status)}) {hurt}"


# -- one event ------------------------------------------------------------------------------------
def narrate(event: Event, *, verbose: bool = False, building: Building | None = None,
            fd: int | None = None) -> str | None:
    """One line of game language for ``event``, or None when it is not worth a line.

    ``verbose`` narrates every event, the bookkeeping too. ``building`` adds room names to area
    names. ``fd`` is the acting fire's Fire Dice where the event does not carry them.
    """
    if event.kind in QUIET_KINDS and not verbose:
        return None
    text = PHRASES[event.kind](event, Context(building, fd, verbose))
    if text is None:
        return None
    prefix = phase_prefix(event)
    if not prefix and text[:1].islower() and ":" not in text.split(" ", 1)[0]:
        text = _cap(text)  # a sentence of its own; an area name (ground:C4) stays as it is
    return prefix + text


# -- the phrase of each kind ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Context:
    """What a phrase may use besides its event: the building (room names), the acting fire's
    Fire Dice where the event does not carry them, and whether to narrate the bookkeeping."""

    building: Building | None = None
    fd: int | None = None
    verbose: bool = False


#: A kind's phrase: its event (and the context) in one line of game language, or None when it
#: is not worth a line.
Phrase = Callable[[Event, Context], str | None]

#: Every kind's phrase (a test checks that none is missing).
PHRASES: dict[EventKind, Phrase] = {}
K = EventKind


def _phrase(*kinds: EventKind) -> Callable[[Phrase], Phrase]:
    def register(fn: Phrase) -> Phrase:
        for kind in kinds:
            PHRASES[kind] = fn
        return fn
    return register


@_phrase(K.SCENE_START)
def _on_scene_start(e: Event, c: Context) -> str | None:
    d = cast(events.SceneStart, e.data)
    title = d.get("title") or "The scene"
    heroes = d.get("heroes") or []
    fires = d.get("fires", 0)
    text = f"{title} begins: {count(fires, 'fire')} burning{_also(d, ' but', ' and')}"
    starts = d.get("starts") or {}
    npcs = set(d.get("npcs") or ())

    def named(who: list[str]) -> str:
        return listing(f"{h} at {starts[h]}" if h in starts else h for h in who)

    players = [h for h in heroes if h not in npcs]
    gms = [h for h in heroes if h in npcs]
    text += (f"; {'hero' if len(players) == 1 else 'heroes'} {named(players)}" if players
             else "; no heroes")
    if gms:  # (the GM's characters, not the players')
        text += f"; {'NPC' if len(gms) == 1 else 'NPCs'} {named(gms)}"
    if d.get("seed") is not None:
        text += f" (seed {d['seed']})"
    return text


def _also(data: Mapping[str, Any], none: str, some: str, fires: str = "fires") -> str:
    """What a module keeps burning beside the fires (``a wagon ablaze (ground:C2)``), after
    ``none`` (no fire) or ``some`` (the fires counted, under the key ``fires``); '' when there
    is nothing."""
    also = data.get("also_burning") or []
    if not also:
        return ""
    what = listing(f"a {w} ablaze ({a})" for a, w in also)
    return f"{some if data.get(fires) else none} {what}"


@_phrase(K.ROUND_START)
def _on_round_start(e: Event, c: Context) -> str | None:
    d = cast(events.RoundStart, e.data)
    # "in play", not "inside": a village's heroes stand in its fields (the event has no places);
    # "characters": the count is of the GM's NPCs still acting too (the event does not split it)
    in_play = d.get("heroes", 0)
    return (f"Round {e.round} begins: {count(d.get('fires', 0), 'fire')} burning"
            f"{_also(d, ' but', ' and')}, {count(in_play, 'character')} in play")


@_phrase(K.ACTION_DICE)
def _on_action_dice(e: Event, c: Context) -> str | None:
    d = cast(events.ActionDice, e.data)
    heroes = d.get("heroes") or {}
    parts = [f"{name} {', '.join(str(x) for x in dice)}" for name, dice in heroes.items()]
    text = "Action dice: " + ("; ".join(parts) if parts else "no hero acts")
    return text + f"; the fires have {count(d.get('fire_actions', 0), 'action')}"


@_phrase(K.ROUND_END)
def _on_round_end(e: Event, c: Context) -> str | None:
    d = cast(events.RoundEnd, e.data)
    fires = d.get("fires", 0)
    if fires:
        text = (f"Round {e.round} ends: {plural(fires, 'fire')} "
                f"({plural(d.get('fire_dice', 0), 'Fire Die', 'Fire Dice')})")
    else:
        text = f"Round {e.round} ends: no fire left"
    text += _also(d, " but", " and")
    heroes = d.get("heroes") or {}
    parts = [_hero_status(n, str(s), int(f), int(dw)) for n, (s, f, dw) in heroes.items()]
    return text + ("; " + "; ".join(parts) if parts else "")


@_phrase(K.SCENE_END)
def _on_scene_end(e: Event, c: Context) -> str | None:
    d = cast(events.SceneEnd, e.data)
    rounds = d.get("rounds", e.round)
    why = d.get("why")  # (a format 3 log has none)
    text = scene_ended(rounds)
    text += f" ({ENDING_WORDS[Ending(why)]}): " if why in _ENDING_VALUES else ": "
    burning = d.get("burning", 0)
    also = _also(d, "no fire left but", " and", fires="burning")
    if burning:
        text += f"still {plural(burning, 'fire')} burning{also}"
    else:
        text += also or "nothing burns"
    text += f", {count(d.get('burned_out', 0), 'area')} burned out"
    heroes = d.get("heroes") or {}
    if heroes:
        text += "; " + ", ".join(f"{n} {'still in play' if s == Status.ACTIVE else _words(s)}"
                                 for n, s in heroes.items())  # not "active": a word of the code
    return text


#: Why a fire started, in words, where the cause's own word is the code's (``gm``).
_FIRE_CAUSE: dict[str, str] = {
    Cause.GM: "set by the GM",
    Cause.SCRIPT: "set by the script",
    Cause.CLOTHES: "from burning clothes",
    Cause.DEBRIS: "from falling debris",
}


@_phrase(K.FIRE_STARTED)
def _on_fire_started(e: Event, c: Context) -> str | None:
    d = cast(events.FireStarted, e.data)
    b = c.building
    cause = d.get("cause")
    extras = [f"FD {d.get('fd')}"]
    if d.get("temperature") not in (None, Temperature.REGULAR):
        extras.append(str(d["temperature"]))
    if d.get("fire_kind") == Rank.VILLAIN:
        extras.append("a Villain")
    if d.get("state") not in (None, "burning"):
        extras.append(f"a {d['state']}")
    source = d.get("source")
    src = source[5:] if isinstance(source, str) and source.startswith("fire@") else None
    if cause == Cause.START:
        return f"Fire in {place(e.area, b, extra=', '.join(extras))}"
    if cause == Cause.ROUTE and d.get("via"):
        extras.append(str(d["via"]))
    elif cause == Cause.MODULE and (d.get("why") or d.get("module")):
        extras.append(str(d.get("why") or d.get("module")))  # what set it, not "module"
    elif cause and (cause not in (Cause.ROUTE, Cause.LEAP, Cause.BURN_THROUGH) or not source):
        # (a leap or burn-through: the line before says how)
        extras.append(_FIRE_CAUSE.get(cause, _words(cause)))
    text = f"{place(e.area, b, near=src)} catches fire ({', '.join(extras)})"
    return text + (" along the fuel" if cause == Cause.ROUTE and not d.get("via") else "")


@_phrase(K.FIRE_MERGED)
def _on_fire_merged(e: Event, c: Context) -> str | None:
    d = cast(events.FireMerged, e.data)
    b = c.building
    src = d.get("source")
    by = f" from the fire in {src[5:]}" if isinstance(src, str) and src.startswith("fire@") else ""
    hotter = " and burns hot" if d.get("temperature") == Temperature.HOT else ""
    if d.get("grew"):
        return f"{_fire(e, b)} grows to FD {d.get('fd')}{by}{hotter}"
    if hotter:
        return f"{_fire(e, b, d.get('fd'))} takes in hotter fire{by}{hotter}"
    if not c.verbose:
        return None
    return f"{_fire(e, b, d.get('fd'))} takes in more fire{by}"


@_phrase(K.FIRE_GREW)
def _on_fire_grew(e: Event, c: Context) -> str | None:
    d = cast(events.FireGrew, e.data)
    b = c.building
    text = f"{_fire(e, b)} grows to FD {d.get('fd')}"
    if "total" in d:
        return _with_roll(text, d)
    why = d.get("why")
    return text + (f" ({why})" if why and why != ActionKind.GROW else "")


@_phrase(K.FIRE_SHRANK)
def _on_fire_shrank(e: Event, c: Context) -> str | None:
    d = cast(events.FireShrank, e.data)
    b = c.building
    why = d.get("why")
    return f"{_fire(e, b)} dies down to FD {d.get('fd')}" + (f" ({why})" if why else "")


@_phrase(K.FIRE_SPREAD)
def _on_fire_spread(e: Event, c: Context) -> str | None:
    d = cast(events.FireSpread, e.data)
    b = c.building
    path = d.get("path") or []
    to = place(d.get("to"), b, near=fire_area(e.actor, e.area))
    text = f"{_fire(e, b, c.fd)} spreads along the fuel to {to}"
    if len(path) > 1:
        text += " by way of " + listing(path[:-1])
    if d.get("fd") == 0:
        text += ", but it does not take there"
    return text


@_phrase(K.FIRE_LEAPT)
def _on_fire_leapt(e: Event, c: Context) -> str | None:
    d = cast(events.FireLeapt, e.data)
    b = c.building
    return _with_roll(f"{_fire(e, b, c.fd)} leaps to "
                      f"{place(d.get('to'), b, near=fire_area(e.actor, e.area))}", d)


@_phrase(K.FIRE_BURNED_THROUGH)
def _on_fire_burned_through(e: Event, c: Context) -> str | None:
    d = cast(events.FireBurnedThrough, e.data)
    b = c.building
    what = _thing(d.get("barrier") or "barrier")
    return _with_roll(f"{_fire(e, b, c.fd)} burns through the {what} to "
                      f"{place(d.get('to'), b, near=fire_area(e.actor, e.area))}", d)


@_phrase(K.FIRE_ACTION_FAILED)
def _on_fire_action_failed(e: Event, c: Context) -> str | None:
    d = cast(events.FireActionFailed, e.data)
    b = c.building
    action = str(d.get("action"))
    target = d.get("target")
    verb = {"grow": "fails to grow", "leap": "fails to leap",
            "burn-through": "fails to burn through", "destroy": "fails to break through",
            "spread": "fails to spread"}.get(action, f"fails to {_words(action)}")
    text = f"{_fire(e, b, c.fd)} {verb}"
    if target and action != ActionKind.GROW:
        to = place(target, b, near=fire_area(e.actor, e.area))
        text += f" to {to}" if action in (ActionKind.LEAP, ActionKind.SPREAD) else f" into {to}"
    return _with_roll(text, d)


@_phrase(K.FIRE_HELD)
def _on_fire_held(e: Event, c: Context) -> str | None:
    b = c.building
    return f"{_fire(e, b, c.fd)} holds its action"


@_phrase(K.STRUCTURE_DESTROYED)
def _on_structure_destroyed(e: Event, c: Context) -> str | None:
    d = cast(events.StructureDestroyed, e.data)
    b = c.building
    what = _thing(d.get("structure") or "structure")
    barrier = d.get("barrier")
    if isinstance(barrier, str) and "|" in barrier:
        x, y = barrier.split("|", 1)
        where = f"between {place(x, b)} and {place(y, b, near=x)}"
    elif barrier:
        where = f"({barrier}) by {place(e.area, b)}"
    else:
        where = f"in {place(e.area, b)}"
    if str(e.actor or "").startswith("fire@"):
        return _with_roll(f"{_fire(e, b, c.fd)} brings down the {what} {where}", d)
    # (anyone else is whatever the script or the GM called it, "the crew's axes" as well as
    # "a powder keg": said in the passive, the verb agrees with either)
    if e.actor is None:
        return _with_roll(f"the {what} {where} comes down", d)
    by = "the GM" if e.actor == GM_ACTOR else _who(e.actor)
    return _with_roll(f"the {what} {where} is brought down by {by}", d)


@_phrase(K.FIRE_FUEL_CHECK)
def _on_fire_fuel_check(e: Event, c: Context) -> str | None:
    d = cast(events.FireFuelCheck, e.data)
    b = c.building
    if d.get("success"):
        if not c.verbose:
            return None
        return (f"{_fire(e, b, c.fd)} feeds: check {_pool(d)}{d.get('total')} vs "
                f"{plural(d.get('flesh', 0), 'wound')} (+{d.get('damage')}), passed")
    return (f"{_fire(e, b, c.fd)} eats into its fuel: check {_pool(d)}{d.get('total')} vs "
            f"{plural(d.get('flesh', 0), 'wound')}, failed; now "
            f"{plural(d.get('dramatic', 0), 'Dramatic Wound')} (Resolve {d.get('resolve')})")


@_phrase(K.FIRE_STATE)
def _on_fire_state(e: Event, c: Context) -> str | None:
    d = cast(events.FireState, e.data)
    b = c.building
    after = str(d.get("after"))
    text = f"{_fire(e, b, c.fd)} {_STATE_WORDS.get(after, 'turns ' + _words(after))}"
    return text + (f" ({d['why']})" if d.get("why") else "")


@_phrase(K.FIRE_OUT)
def _on_fire_out(e: Event, c: Context) -> str | None:
    d = cast(events.FireOut, e.data)
    b = c.building
    reason = d.get("reason") or ""
    if reason == FUEL_SPENT:
        return f"{_fire(e, b)} burns out: its fuel is spent"
    text = f"{_fire(e, b)} goes out" + (f" ({reason})" if reason else "")
    if d.get("burned_out"):
        text += "; nothing is left to burn there"
    return text


@_phrase(K.FLASHOVER)
def _on_flashover(e: Event, c: Context) -> str | None:
    d = cast(events.Flashover, e.data)
    b = c.building
    return (f"Flashover! {_cap(_spoken(d.get('room'), b))} flashes over: "
            f"{plural(d.get('fires', 0), 'fire')} there "
            f"burn{'s' if d.get('fires', 0) == 1 else ''} hot")


@_phrase(K.AREA_BURNED_OUT)
def _on_area_burned_out(e: Event, c: Context) -> str | None:
    b = c.building
    return f"{place(e.area, b)} is burned out"


@_phrase(K.FIRE_SPOTTED)
def _on_fire_spotted(e: Event, c: Context) -> str | None:
    d = cast(events.Spot, e.data)
    b = c.building
    return _with_roll(f"{e.actor} spots the fire in {place(e.area, b)}{_hid_by(d)}", d)


def _hid_by(d: events.Spot) -> str:
    """``, in thick smoke 15 ft away``: what hid a fire from the hero who tried to spot it."""
    from fuego.engine.sight import Unseen

    try:
        why = Unseen(d.get("unseen")).words
    except ValueError:
        return ""  # (a log from before the spot said why)
    feet = d.get("feet")
    return f", {why} {feet:g} ft away" if feet is not None else f", {why}"


@_phrase(K.FIRE_HIDDEN)
def _on_fire_hidden(e: Event, c: Context) -> str | None:
    d = cast(events.Spot, e.data)
    b = c.building
    return _with_roll(f"{e.actor} does not notice the fire in {place(e.area, b)}{_hid_by(d)}",
                      d)


@_phrase(K.BARRIER_OPENED, K.BARRIER_CLOSED)
def _on_barrier(e: Event, c: Context) -> str | None:
    d = cast(events.Barrier, e.data)
    b = c.building
    what = _thing(d.get("what") or "door")
    verb = "opens" if e.kind is K.BARRIER_OPENED else "closes"
    barrier = d.get("barrier")
    text = f"{_who(e.actor)} {verb} the {what}"
    if isinstance(barrier, str) and "|" in barrier:
        x, y = barrier.split("|", 1)
        text += f" between {place(x, b)} and {place(y, b, near=x)}"
    elif barrier:  # "the kitchen door (wooden door)", "Ruiz's door (wooden door)"
        text = f"{_who(e.actor)} {verb} {the(str(barrier))} ({what}) by {place(e.area, b)}"
    return text


@_phrase(K.FLOOR_COLLAPSED)
def _on_floor_collapsed(e: Event, c: Context) -> str | None:
    d = cast(events.FloorCollapsed, e.data)
    b = c.building
    return f"the floor of {place(e.area, b)} gives way into {place(d.get('below'), b)}"


@_phrase(K.HERO_ACTION)
def _on_hero_action(e: Event, c: Context) -> str | None:
    d = cast(events.HeroAction, e.data)
    b = c.building
    action = d.get("action")
    if action == ROLL_ACTION:
        purpose = d.get("purpose") or "act"
        if purpose == Purpose.SMOTHER and d.get("target"):
            text = f"{e.actor} tries to smother the fire in {place(d['target'], b)}"
        elif purpose == Purpose.PUT_OUT_CLOTHES:
            text = f"{e.actor} tries to put out burning clothes"
        else:
            text = f"{e.actor} tries to {purpose}"
        return _with_roll(text, d, outcome=True)
    if not c.verbose:
        return None  # the move, the opened door, the spotted fire tell it
    return f"{e.actor} acts: {action}"


@_phrase(K.ACTION_SKIPPED)
def _on_action_skipped(e: Event, c: Context) -> str | None:
    d = cast(events.ActionSkipped, e.data)
    # (the round and the action say which; the key path, actions.Ana.2[0], is in the log)
    tip, why = d.get("tip"), d.get("why")
    return (f"{e.actor or 'A hero'} skips the scripted '{d.get('action', '?')}'"
            + (f": {why}" if why else "") + (f" ({tip})" if tip else ""))


@_phrase(K.HERO_MOVED)
def _on_hero_moved(e: Event, c: Context) -> str | None:
    d = cast(events.HeroMoved, e.data)
    b = c.building
    frm = d.get("frm")
    text = f"{e.actor} moves from {place(frm, b)} to {place(e.area, b, near=frm)}"
    why = d.get("why")
    return text + (f" ({why})" if why and why != HeroActionKind.MOVE else "")


@_phrase(K.HERO_AVOIDED)
def _on_hero_avoided(e: Event, c: Context) -> str | None:
    d = cast(events.HeroAvoided, e.data)
    knack = _words(d.get("knack") or "")
    how = f" ({knack})" if knack else ""
    text = (f"{e.actor} gets through the flames unharmed{how}" if d.get("success")
            else f"{e.actor} cannot avoid the flames{how}")
    return _with_roll(text, d)


@_phrase(K.HERO_DAMAGED)
def _on_hero_damaged(e: Event, c: Context) -> str | None:
    return damage_text(e)


@_phrase(K.WOUND_CHECK)
def _on_wound_check(e: Event, c: Context) -> str | None:
    return f"{e.actor}'s wound check: {wound_text(e)}"


@_phrase(K.CLOTHES_CAUGHT)
def _on_clothes_caught(e: Event, c: Context) -> str | None:
    d = cast(events.ClothesCaught, e.data)
    text = f"{e.actor}'s clothes catch fire (FD {d.get('fd')})"
    return text + (f": Finesse check {d['total']} vs TN {d.get('tn')}" if "total" in d else "")


@_phrase(K.CLOTHES_OUT)
def _on_clothes_out(e: Event, c: Context) -> str | None:
    d = cast(events.ClothesOut, e.data)
    by = d.get("by")
    text = f"{e.actor}'s burning clothes are put out"
    return text + (f" by {by}" if by and by != e.actor else "")


@_phrase(K.OIL_CLINGS)
def _on_oil_clings(e: Event, c: Context) -> str | None:
    d = cast(events.OilClings, e.data)
    return (f"Burning oil clings to {e.actor}: they are on fire (FD {d.get('fd')}, hot) "
            "until it is put out")


@_phrase(K.FIRE_RESISTED)
def _on_fire_resisted(e: Event, c: Context) -> str | None:
    d = cast(events.FireResisted, e.data)
    return f"{e.actor} is fire resistant: the fire (FD {d.get('fd')}) does not harm them"


@_phrase(K.EXPLOSION)
def _on_explosion(e: Event, c: Context) -> str | None:
    d = cast(events.Explosion, e.data)
    b = c.building
    caught = d.get("caught") or []
    text = (f"the explosion (FD {d.get('fd')}) reaches {plural(len(d.get('areas') or []), 'area')}"
            f" around {place(e.area, b)}")
    if d.get("broken"):
        text += f", blowing open {plural(len(d['broken']), 'barrier')}"
    if caught:
        how = "as falling debris" if d.get("rule") == ExplosionRule.DEBRIS else "as a hot fire"
        text += f"; it catches {', '.join(caught)} {how}"
    return text


@_phrase(K.HERO_KNOCKED_OUT)
def _on_hero_knocked_out(e: Event, c: Context) -> str | None:
    d = cast(events.HeroDown, e.data)
    cause = d.get("cause")
    return (f"{e.actor} is knocked out ({plural(d.get('dramatic', 0), 'Dramatic Wound')}"
            + (f", {cause})" if cause else ")"))


@_phrase(K.HERO_CRIPPLED)
def _on_hero_crippled(e: Event, c: Context) -> str | None:
    d = cast(events.Dramatic, e.data)
    return f"{e.actor} is crippled ({plural(d.get('dramatic', 0), 'Dramatic Wound')})"


@_phrase(K.HERO_DIED)
def _on_hero_died(e: Event, c: Context) -> str | None:
    d = cast(events.HeroDown, e.data)
    cause = d.get("cause")
    return (f"{e.actor} dies ({plural(d.get('dramatic', 0), 'Dramatic Wound')}"
            + (f", {cause})" if cause else ")"))


@_phrase(K.HERO_ESCAPED)
def _on_hero_escaped(e: Event, c: Context) -> str | None:
    b = c.building
    return f"{e.actor} gets out at {place(e.area, b)}"


@_phrase(K.CONFUSION_CHECK)
def _on_confusion_check(e: Event, c: Context) -> str | None:
    d = cast(events.ConfusionCheck, e.data)
    if not d.get("success") and not c.verbose:
        return None  # the hero-confused line says it
    text = (f"{e.actor} checks their bearings after "
            f"{plural(d.get('rounds', 0), 'round')} in thick smoke")
    return _with_roll(text, d, outcome=True)


@_phrase(K.HERO_CONFUSED)
def _on_hero_confused(e: Event, c: Context) -> str | None:
    d = cast(events.HeroConfused, e.data)
    text = (f"{e.actor} loses all sense of direction after "
            f"{plural(d.get('rounds', 0), 'round')} in thick smoke")
    return _with_roll(text, d)


@_phrase(K.HERO_UNCONFUSED)
def _on_hero_unconfused(e: Event, c: Context) -> str | None:
    return f"{e.actor} is out of the smoke and gets their bearings back"


@_phrase(K.HERO_BREATH)
def _on_hero_breath(e: Event, c: Context) -> str | None:
    d = cast(events.HeroBreath, e.data)
    if d.get("air"):
        return f"{e.actor} can breathe again"
    limit = d.get("limit")
    text = f"{e.actor} holds their breath"
    if limit:
        text += f" (round {d.get('breath')} of {limit})"
    return text


@_phrase(K.HERO_SUFFOCATING)
def _on_hero_suffocating(e: Event, c: Context) -> str | None:
    d = cast(events.HeroSuffocating, e.data)
    text = f"{e.actor} is suffocating after {plural(d.get('breath', 0), 'round')} without air"
    return _with_roll(text, d, outcome=True)


@_phrase(K.HERO_FELL)
def _on_hero_fell(e: Event, c: Context) -> str | None:
    d = cast(events.HeroFell, e.data)
    b = c.building
    return (f"{e.actor} falls {d.get('feet')} ft into {place(e.area, b)}: "
            f"{d.get('damage')} damage ({plural(d.get('flesh', 0), 'Flesh Wound')})")


@_phrase(K.DEBRIS)
def _on_debris(e: Event, c: Context) -> str | None:
    d = cast(events.Debris, e.data)
    return f"debris from the {_thing(d.get('what') or 'structure')} hits {e.actor} (FD {d.get('fd')})"


@_phrase(K.SMOKE)
def _on_smoke(e: Event, c: Context) -> str | None:
    d = cast(events.Smoke, e.data)
    b = c.building
    thin, thick = d.get("thin", 0), d.get("thick", 0)
    parts = []
    if thick:
        parts.append(f"{plural(thick, 'area')} thick")
    if thin:
        parts.append(f"{plural(thin, 'area')} thin")
    text = "Smoke: " + (", ".join(parts) if parts else "none left")
    rooms = d.get("rooms") or []
    if rooms:
        text += " in " + listing([_room(r, b) for r in rooms])
    if d.get("cleared"):
        text += f"; {plural(d['cleared'], 'area')} cleared"
    changed = d.get("areas") or {}
    for word in ("thick", "thin", "clear"):
        names = [name for name, w in changed.items() if w == word]
        if names:  # (a big fire changes thousands: the first few, then a count)
            more = len(names) - _SMOKE_NAMES
            shown = names[:_SMOKE_NAMES] + ([f"{more} more"] if more > 0 else [])
            text += f"; now {word}: {listing(shown)}"
    return text


_SMOKE_NAMES = 6  # areas named per density in a smoke line


@_phrase(K.SMOKE_CLEARED)
def _on_smoke_cleared(e: Event, c: Context) -> str | None:
    return "The smoke has cleared"


@_phrase(K.READ_ALOUD)
def _on_read_aloud(e: Event, c: Context) -> str | None:
    return f'Read aloud: "{_generic(e)}"'


@_phrase(K.ROLL)
def _on_roll(e: Event, c: Context) -> str | None:
    d = cast(events.TableRoll, e.data)
    who = f"{e.actor} " if e.actor else ""
    purpose = d.get("purpose")
    return _with_roll(f"{who}rolls{' for ' + str(purpose) if purpose else ''}", d,
                      outcome=True)


@_phrase(K.SCRIPT)
def _on_script(e: Event, c: Context) -> str | None:
    d = cast(events.Script, e.data)
    if "effect" not in d and d.get("cue") and "times" in d:
        # a cue firing: its effects tell what happens, each in its own event
        return f"Script: cue {d['cue']} fires" if c.verbose else None
    return _labelled(e, "Script")


@_phrase(K.WIND, K.WEATHER)
def _on_wind(e: Event, c: Context) -> str | None:
    text = e.data.get("text")
    if isinstance(text, str):
        return text
    return _labelled(e, "Wind" if e.kind is K.WIND else "Weather")


@_phrase(K.GM)
def _on_gm(e: Event, c: Context) -> str | None:
    action = e.data.get("action")
    if action in _GM_ACTIONS:
        return ("GM" + (f" ({e.actor})" if e.actor not in (None, "GM") else "") + ": "
                + _GM_ACTIONS[action](e, c.building))
    return _labelled(e, "GM")


@_phrase(K.MODULE)
def _on_module(e: Event, c: Context) -> str | None:
    return _labelled(e, "Rule")


def _labelled(e: Event, label: str) -> str:
    """``Label (actor): text`` for the kinds with free-form words (script, GM, modules)."""
    body = _generic(e)
    # "Script: Pip appears in hold:G2", not "Script (Pip): Pip appears ..."
    named = e.actor and str(body).startswith(str(e.actor))
    who = f" ({e.actor})" if e.actor and not named else ""
    return f"{label}{who}: {body}" if body else f"{label}{who}"


def damage_text(e: Event) -> str:
    d = e.data
    cause = d.get("cause") or ""
    how = _DAMAGE_CAUSE.get(cause, f"({cause})" if cause else "")
    text = f"{e.actor} takes {d.get('damage')} fire damage"
    contact = d.get("contact") or ""
    if cause in _DAMAGE_CAUSE:
        if contact == Contact.OIL and cause != DamageCause.BURNING_OIL:  # stepped into burning oil
            how += ": burning oil, hot, an extra Dramatic Wound per 10"
        return f"{text} {how}"
    if contact in _CONTACT_FROM:
        return f"{text} {_CONTACT_FROM[contact]}"
    return text + (f" {how}" if how else "")


def wound_text(e: Event) -> str:
    d = e.data
    text = f"{d.get('total')} vs TN {d.get('tn')}: "
    if d.get("success"):
        return text + "passed"
    return text + f"failed, {plural(d.get('dramatic', 1), 'Dramatic Wound')}"
