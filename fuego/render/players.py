"""The players' words: what each event sounds like told to the players at the table.

The GM's narration (:mod:`fuego.render.phrases`) is exact: grid references, pools, TNs, fuel
checks, rule names. The players hear the story instead: room names, who did what, what the fire
did, never a number a rule used. :data:`PLAYER_PHRASES` gives every :class:`EventKind` its
players' phrase (a function of the typed event and the building), or ``None`` for a kind the
players never hear (the dice bookkeeping, the script, the rule modules' notes). A test checks
that no kind is missing, so a new kind is decided here, not forgotten.

Whether the players may hear a line at all (is it in their heroes' sight?) is the screen's
question (:mod:`fuego.web.view`); this module only words it. Pure functions: nothing printed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fuego.engine.events import Event, EventKind
from fuego.engine.fire import FUEL_SPENT, FireState
from fuego.engine.hero_actions import ROLL_ACTION, Purpose
from fuego.engine.injury import DamageCause
from fuego.engine.loop import Ending
from fuego.engine.scene import Cause
from fuego.modules.wind import wind_words
from fuego.rules.charts import Temperature
from fuego.table.gm import GM_ACTOR, NOTE_ACTION
from fuego.words import plural, scene_ended, the

if TYPE_CHECKING:
    from fuego.world.building import Building

#: One kind's players' phrase: (event, building) -> a line, or None when nothing is said.
PlayerPhrase = Callable[[Event, "Building | None"], "str | None"]

K = EventKind


# -- small words -----------------------------------------------------------------------------------
def room_of(ref: Any, building: Building | None) -> str | None:
    """The room an area name (``ground:C4``) lies in, as the players say it: ``the Kitchen``."""
    if building is None or ref is None:
        return None
    i = building.find(str(ref))
    if i is None:
        return None
    return named_room(building.areas[i].room, building)


def room_key(ref: Any, building: Building | None) -> str | None:
    if building is None or ref is None:
        return None
    i = building.find(str(ref))
    return building.areas[i].room if i is not None else None


def named_room(key: Any, building: Building | None) -> str:
    """A room by its key (``kitchen``), as the players say it: ``the Kitchen``, ``the Wheat
    Field``; a street by its name alone (``Goose Lane``): ``Room.spoken``."""
    if building is not None and key in building.rooms:
        return building.rooms[key].spoken
    return the(str(key))


def going_to(key: Any, building: Building | None) -> str:
    """Where someone or something goes, as the players say it: ``into the Kitchen``, ``into
    Goose Lane``; ``onto the Weather Deck``: an outdoor room above the ground (a deck, a roof,
    a balcony) is stood on, not gone into."""
    if building is None or key not in building.rooms:
        return f"into {the(str(key))}"
    room = building.rooms[key]
    up = room.outdoors and building.levels[room.level].elevation > 0
    return f"{'onto' if up else 'into'} {room.spoken}"


def fire_at(event: Event) -> Any:
    """The area a fire's event is about: its actor (``fire@ground:C2``) or its area."""
    actor = event.actor
    if isinstance(actor, str) and actor.startswith("fire@"):
        return actor[5:]
    return event.area


def _where(ref: Any, b: Building | None) -> str:
    return room_of(ref, b) or "somewhere"


def _into(ref: Any, b: Building | None) -> str:
    """:func:`going_to` the room an area name (``ground:C4``) lies in."""
    key = room_key(ref, b)
    return going_to(key, b) if key is not None else "into somewhere"


def _thing(what: Any) -> str:
    """``closed wooden-door`` -> ``wooden door``."""
    text = str(what or "door").replace("-", " ")
    for word in ("closed ", "open ", "broken "):
        if text.startswith(word):
            text = text[len(word):]
    return text


def _between(barrier: Any, b: Building | None) -> str:
    """`` between the Kitchen and the Hall`` (or `` in the Kitchen`` inside one room)."""
    if not (isinstance(barrier, str) and "|" in barrier):
        return ""
    x, y = barrier.split("|", 1)
    rx, ry = room_of(x, b), room_of(y, b)
    if rx is None or ry is None:
        return ""
    return f" in {rx}" if rx == ry else f" between {rx} and {ry}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _who(actor: Any) -> str:
    if actor is None or actor == GM_ACTOR or str(actor).startswith("fire@"):
        return ""
    return str(actor)


# -- the table -------------------------------------------------------------------------------------
PLAYER_PHRASES: dict[EventKind, PlayerPhrase | None] = {}


def _says(*kinds: EventKind) -> Callable[[PlayerPhrase], PlayerPhrase]:
    def register(fn: PlayerPhrase) -> PlayerPhrase:
        for kind in kinds:
            PLAYER_PHRASES[kind] = fn
        return fn
    return register


#: What the players never hear: rolls and their pools, the fire's bookkeeping, the script (its
#: cues, a scripted action skipped) and the rule modules (a failed spot would say where a
#: hidden fire is; smoke lines count smoke out of sight: the map shows the smoke they see).
for _kind in (K.ACTION_DICE, K.FIRE_ACTION_FAILED, K.FIRE_HELD, K.FIRE_FUEL_CHECK, K.FIRE_HIDDEN,
              K.AREA_BURNED_OUT, K.CONFUSION_CHECK, K.SMOKE, K.SMOKE_CLEARED, K.SCRIPT, K.MODULE,
              K.ROLL, K.ACTION_SKIPPED):
    PLAYER_PHRASES[_kind] = None


@_says(K.SCENE_START)
def _scene_start(e: Event, b: Building | None) -> str:
    return f"{e.data.get('title') or 'The scene'} begins"


@_says(K.ROUND_START)
def _round_start(e: Event, b: Building | None) -> str:
    return f"Round {e.round} begins"


@_says(K.ROUND_END)
def _round_end(e: Event, b: Building | None) -> str:
    return f"Round {e.round} ends"


@_says(K.SCENE_END)
def _scene_end(e: Event, b: Building | None) -> str:
    rounds = e.data.get("rounds", e.round)
    out = " - the fire is out" if e.data.get("why") == Ending.FIRE_OUT else ""
    return scene_ended(rounds) + out


@_says(K.FIRE_STARTED)
def _fire_started(e: Event, b: Building | None) -> str:
    where = _where(e.area, b)
    cause = e.data.get("cause")
    source = e.data.get("source")
    src = source[5:] if isinstance(source, str) and source.startswith("fire@") else None
    if cause == Cause.START:
        return f"Fire in {where}"
    if src is not None and room_key(src, b) == room_key(e.area, b):
        return f"The fire spreads through {where}"
    if src is not None:
        return f"Fire reaches {where} from {_where(src, b)}"
    if cause == Cause.CLOTHES:
        return f"Burning clothes set {where} alight"
    return f"{_cap(where)} catches fire"


@_says(K.FIRE_MERGED)
def _fire_merged(e: Event, b: Building | None) -> str | None:
    if e.data.get("temperature") == Temperature.HOT:
        return f"The fire in {_where(e.area, b)} burns hotter"
    if e.data.get("grew"):
        return f"The fire in {_where(e.area, b)} grows"
    return None


@_says(K.FIRE_GREW)
def _fire_grew(e: Event, b: Building | None) -> str:
    return f"The fire in {_where(fire_at(e), b)} grows"


@_says(K.FIRE_SHRANK)
def _fire_shrank(e: Event, b: Building | None) -> str:
    return f"The fire in {_where(fire_at(e), b)} dies down"


@_says(K.FIRE_SPREAD)
def _fire_spread(e: Event, b: Building | None) -> str | None:
    if e.data.get("fd") == 0:
        return None
    frm, to = fire_at(e), e.data.get("to")
    if room_key(frm, b) == room_key(to, b):
        return f"The fire runs along the fuel through {_where(to, b)}"
    return f"The fire runs along the fuel {_into(to, b)}"


@_says(K.FIRE_LEAPT)
def _fire_leapt(e: Event, b: Building | None) -> str:
    frm, to = fire_at(e), e.data.get("to")
    if room_key(frm, b) == room_key(to, b):
        return f"The fire leaps across {_where(to, b)}"
    return f"The fire leaps from {_where(frm, b)} to {_where(to, b)}"


def _through_level(frm: Any, to: Any, barrier: Any, b: Building | None) -> str | None:
    """The way from one level to another, both ways in one phrase: ``up through the ceiling
    into The Swan``, ``down through the floor into the Spirits Vault`` (a floor is the ceiling
    of the room below it); another barrier by its name (``up through the trapdoor``). None
    when ``frm`` and ``to`` lie on one level or are not known."""
    i = b.find(str(frm)) if b is not None else None
    j = b.find(str(to)) if b is not None else None
    if b is None or i is None or j is None:
        return None
    rise = b.levels[b.areas[j].level].elevation - b.levels[b.areas[i].level].elevation
    if not rise:
        return None
    thing = _thing(barrier)
    what = ("ceiling" if rise > 0 else "floor") if thing.endswith("floor") else thing
    return f"{'up' if rise > 0 else 'down'} through the {what} {_into(to, b)}"


@_says(K.FIRE_BURNED_THROUGH)
def _fire_burned_through(e: Event, b: Building | None) -> str:
    barrier, to = e.data.get("barrier"), e.data.get("to")
    level = _through_level(fire_at(e), to, barrier, b)
    if level is not None:
        return f"The fire burns {level}"
    return f"The fire burns through the {_thing(barrier)} {_into(to, b)}"


@_says(K.STRUCTURE_DESTROYED)
def _structure_destroyed(e: Event, b: Building | None) -> str:
    barrier = e.data.get("barrier")
    if isinstance(barrier, str) and barrier and "|" not in barrier:
        return f"{_cap(the(barrier))} comes down"
    what = _thing(e.data.get("structure") or "wall")
    between = _between(barrier, b)
    return f"The {what}{between or ' in ' + _where(e.area, b)} comes down"


#: What the players see of a fire entering a state (the log's ``after``, a FireState value).
_STATE_WORDS = {FireState.GUTTERING.value: "gutters", FireState.BURNING.value: "blazes up",
                FireState.FLAME.value: "dies back to a flicker"}


@_says(K.FIRE_STATE)
def _fire_state(e: Event, b: Building | None) -> str | None:
    where = _where(fire_at(e), b)
    words = _STATE_WORDS.get(str(e.data.get("after")))
    return f"The fire in {where} {words}" if words else None


@_says(K.FIRE_OUT)
def _fire_out(e: Event, b: Building | None) -> str:
    where = _where(fire_at(e), b)
    if e.data.get("reason") == FUEL_SPENT or e.data.get("burned_out"):
        return f"The fire in {where} burns itself out"
    return f"The fire in {where} goes out"


@_says(K.FLASHOVER)
def _flashover(e: Event, b: Building | None) -> str:
    return f"Flashover! {_cap(named_room(e.data.get('room'), b))} goes up all at once"


@_says(K.FIRE_SPOTTED)
def _fire_spotted(e: Event, b: Building | None) -> str:
    return f"{e.actor} spots a fire in {_where(e.area, b)}"


@_says(K.BARRIER_OPENED, K.BARRIER_CLOSED)
def _barrier(e: Event, b: Building | None) -> str:
    barrier = e.data.get("barrier")
    verb = "opens" if e.kind is K.BARRIER_OPENED else "closes"
    if isinstance(barrier, str) and barrier and "|" not in barrier:
        thing = the(barrier)  # the scenario's name for it: the front door
    else:
        thing = f"the {_thing(e.data.get('what'))}{_between(barrier, b)}"
    who = _who(e.actor)
    return f"{who} {verb} {thing}" if who else f"{_cap(thing)} {verb}"


@_says(K.FLOOR_COLLAPSED)
def _floor_collapsed(e: Event, b: Building | None) -> str:
    return (f"The floor of {_where(e.area, b)} gives way "
            f"{_into(e.data.get('below'), b)}")


@_says(K.HERO_ACTION)
def _hero_action(e: Event, b: Building | None) -> str | None:
    if e.data.get("action") != ROLL_ACTION:
        return None  # the move, the opened door, the spotted fire tell it
    purpose = str(e.data.get("purpose") or "act")
    ok = e.data.get("success")
    if purpose == Purpose.SMOTHER and e.data.get("target"):
        where = _where(e.data["target"], b)
        return (f"{e.actor} beats at the fire in {where}" if ok
                else f"{e.actor} tries to smother the fire in {where}, but it keeps burning")
    if purpose == Purpose.PUT_OUT_CLOTHES:
        return (f"{e.actor} beats out the burning clothes" if ok
                else f"{e.actor} tries to beat out the burning clothes, and fails")
    return f"{e.actor} tries to {purpose}: " + ("it works" if ok else "it does not work")


@_says(K.HERO_MOVED)
def _hero_moved(e: Event, b: Building | None) -> str | None:
    frm, to = e.data.get("frm"), e.area
    if e.data.get("why") == GM_ACTOR:
        return f"{e.actor} is now in {_where(to, b)}"
    if room_key(frm, b) == room_key(to, b):
        return None  # a step inside a room: the map shows it
    i = b.find(str(to)) if b is not None and to is not None else None
    if b is not None and i is not None and b.is_exit(i):
        return None  # a way out: the hero's escape says it
    return f"{e.actor} goes {_into(to, b)}"


@_says(K.HERO_AVOIDED)
def _hero_avoided(e: Event, b: Building | None) -> str:
    return (f"{e.actor} gets through the flames unharmed" if e.data.get("success")
            else f"{e.actor} cannot get clear of the flames")


@_says(K.HERO_DAMAGED)
def _hero_damaged(e: Event, b: Building | None) -> str:
    n = e.data.get("flesh") or e.data.get("damage") or 0
    cause = _cause(e.data.get("cause"))
    how = _HOW_BURNED[cause] if cause is not None else ""
    return f"{e.actor} is burned{how}: " + plural(n, "Flesh Wound")


#: How the engine's own causes burned a hero, as the players hear it (a GM's, a script's or a
#: module's cause says nothing more: "is burned").
_HOW_BURNED: dict[DamageCause, str] = {
    DamageCause.STANDING: " standing in the fire", DamageCause.MOVING: " stepping into it",
    DamageCause.CLOTHES: " by burning clothes", DamageCause.DEBRIS: " by falling debris",
    DamageCause.BURNING_OIL: " by the burning oil on them",
}


def _cause(text: Any) -> DamageCause | None:
    """The log's ``cause`` read into the engine's enum; None for the GM's and scripts' words."""
    try:
        return DamageCause(text)
    except ValueError:
        return None


@_says(K.WOUND_CHECK)
def _wound_check(e: Event, b: Building | None) -> str:
    if e.data.get("success"):
        return f"{e.actor} grits their teeth through the burns"
    n = e.data.get("dramatic", 1)
    return f"{e.actor} takes {plural(n, 'Dramatic Wound')}"


@_says(K.CLOTHES_CAUGHT)
def _clothes_caught(e: Event, b: Building | None) -> str:
    return f"{e.actor}'s clothes catch fire!"


@_says(K.CLOTHES_OUT)
def _clothes_out(e: Event, b: Building | None) -> str:
    by = e.data.get("by")
    return f"{e.actor}'s burning clothes are put out" + (f" by {by}" if by and by != e.actor
                                                         else "")


@_says(K.OIL_CLINGS)
def _oil_clings(e: Event, b: Building | None) -> str:
    return f"Burning oil clings to {e.actor}: they are on fire!"


@_says(K.FIRE_RESISTED)
def _fire_resisted(e: Event, b: Building | None) -> str:
    return f"The flames wash over {e.actor}, who does not burn"


@_says(K.EXPLOSION)
def _explosion(e: Event, b: Building | None) -> str:
    caught = e.data.get("caught") or []
    text = f"An explosion tears through {_where(e.area, b)}"
    return text + (f", engulfing {', '.join(caught)}" if caught else "")


@_says(K.HERO_KNOCKED_OUT)
def _knocked_out(e: Event, b: Building | None) -> str:
    return f"{e.actor} collapses, knocked out"


@_says(K.HERO_CRIPPLED)
def _crippled(e: Event, b: Building | None) -> str:
    return f"{e.actor} is crippled"


@_says(K.HERO_DIED)
def _died(e: Event, b: Building | None) -> str:
    return f"{e.actor} dies"


@_says(K.HERO_ESCAPED)
def _escaped(e: Event, b: Building | None) -> str:
    key = room_key(e.area, b)
    return f"{e.actor} gets out" + (f" {going_to(key, b)}" if key is not None else "")


@_says(K.HERO_CONFUSED)
def _confused(e: Event, b: Building | None) -> str:
    return f"{e.actor} loses all sense of direction in the smoke"


@_says(K.HERO_UNCONFUSED)
def _unconfused(e: Event, b: Building | None) -> str:
    return f"{e.actor} gets their bearings back"


@_says(K.HERO_BREATH)
def _breath(e: Event, b: Building | None) -> str | None:
    if e.data.get("air"):
        return f"{e.actor} can breathe again"
    if e.data.get("breath") == 1:
        return f"{e.actor} holds their breath"
    return None  # a breath held on: the hero's sheet counts it


@_says(K.HERO_SUFFOCATING)
def _suffocating(e: Event, b: Building | None) -> str:
    return f"{e.actor} is suffocating!"


@_says(K.HERO_FELL)
def _fell(e: Event, b: Building | None) -> str:
    return f"{e.actor} falls {e.data.get('feet')} ft {_into(e.area, b)}"


@_says(K.DEBRIS)
def _debris(e: Event, b: Building | None) -> str:
    return f"Falling debris from the {_thing(e.data.get('what') or 'ceiling')} hits {e.actor}"


@_says(K.READ_ALOUD)
def _read_aloud(e: Event, b: Building | None) -> str | None:
    text = e.data.get("text")
    return " ".join(str(text).split()) if text else None


@_says(K.WEATHER)
def _weather(e: Event, b: Building | None) -> str | None:
    d = e.data
    sets = [f"{k[4:]} {str(v).replace('-', ' ')}" for k, v in d.items() if k.startswith("set_")]
    if sets:
        return "The weather changes: " + ", ".join(sets)
    if d.get("ec"):
        return f"The weather: {str(d['ec']).replace('-', ' ')}"
    return None


@_says(K.WIND)
def _wind(e: Event, b: Building | None) -> str | None:
    d = e.data
    if "check" in d and "change_dr" not in d:
        return None  # the module's change check without a change, or gusts (their fires tell)
    words = wind_words(d.get("force"), d.get("strength"), d.get("direction"))
    if words is None:
        return "There is no wind" if (d.get("force") or d.get("strength")) else None
    return f"The wind: {words}"


@_says(K.GM)
def _gm(e: Event, b: Building | None) -> str | None:
    if e.data.get("action") == NOTE_ACTION:
        return str(e.data.get("text") or "") or None
    return None  # the GM's other overrides show in what they change


def say(event: Event, building: Building | None) -> str | None:
    """The players' line for ``event``, or None when the players hear nothing of it."""
    phrase = PLAYER_PHRASES[event.kind]
    return phrase(event, building) if phrase is not None else None
