"""Events in game language: one line of plain text per event, for ``fuego run`` and the table.

:func:`narrate` turns one :class:`~fuego.events.Event` into a line a GM could read out, or None
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
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from fuego.events import END_PHASE, START_PHASE, Event, EventKind

if TYPE_CHECKING:
    from fuego.building import Building
    from fuego.scene import Scene

__all__ = ["narrate", "Narrator", "summarize", "QUIET_KINDS"]

#: Kinds narrated only with ``verbose=True`` (whatever their data).
QUIET_KINDS = frozenset({
    EventKind.ACTION_DICE,
    EventKind.FIRE_ACTION_FAILED,
    EventKind.FIRE_HELD,
    EventKind.AREA_BURNED_OUT,
    EventKind.ROLL,
})


# -- small words --------------------------------------------------------------------------------
def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _count(n: int, one: str, many: str | None = None) -> str:
    """Like :func:`_plural` but ``no fire`` for zero."""
    return f"no {one}" if not n else _plural(n, one, many)


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


def _list(items: Iterable[str]) -> str:
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


def _area(name: Any, building: Building | None, *, extra: str | None = None,
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


def _fire_area(actor: Any, area: Any) -> Any:
    """The area a fire's actor name points at (``fire@ground:C2`` -> ``ground:C2``)."""
    if isinstance(actor, str) and actor.startswith("fire@"):
        return actor[5:]
    return area


def _fire(e: Event, building: Building | None, fd: int | None = None) -> str:
    """``the fire in ground:C2 (FD 5)``; without a known FD just ``the fire in ground:C2``."""
    where = _area(_fire_area(e.actor, e.area), building, extra=f"FD {fd}" if fd else None)
    return f"the fire in {where}"


def _who(actor: Any) -> str:
    """Something that acted: a hero's name, a fire, or nobody in particular."""
    if actor is None:
        return "something"
    text = str(actor)
    if text.startswith("fire@"):
        return f"the fire in {text[5:]}"
    return text


def _roll(d: dict, *, outcome: bool = False) -> str:
    """``rolled 23 vs TN 10`` (and ``: failed``/``: passed`` when ``outcome``)."""
    if "total" not in d:
        return ""
    text = f"rolled {d['total']}"
    if d.get("tn") is not None:
        text += f" vs TN {d['tn']}"
    if outcome and "success" in d:
        text += ": " + ("passed" if d["success"] else "failed")
    return text


def _with_roll(text: str, d: dict, *, outcome: bool = False) -> str:
    roll = _roll(d, outcome=outcome)
    return f"{text}: {roll}" if roll else text


def _phase_prefix(e: Event) -> str:
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


_DAMAGE_CAUSE = {
    "standing in fire": "standing in the fire",
    "moved into fire": "stepping into the fire",
    "clothes": "from burning clothes",
    "debris": "from falling debris",
}

def _fd_word(d: dict) -> str:
    return f"FD {d.get('fd')}"


def _gm_barrier(verb: str):
    def text(e: Event, b: Building | None) -> str:
        barrier = e.data.get("barrier")
        if isinstance(barrier, str) and "|" in barrier:
            x, y = barrier.split("|", 1)
            return f"{verb} the barrier between {_area(x, b)} and {_area(y, b, near=x)}"
        return f"{verb} {barrier or 'a barrier'}"
    return text


#: The GM's overrides (fuego.gm), by their ``action``.
_GM_ACTIONS = {
    "start-fire": lambda e, b: f"starts a fire in {_area(e.area, b, extra=_fd_word(e.data))}",
    "set-fire-dice": lambda e, b: (f"puts out the fire in {_area(e.area, b)}" if not e.data.get("fd")
                                   else f"sets the fire in {_area(e.area, b)} to FD {e.data['fd']}"),
    "open-barrier": _gm_barrier("opens"),
    "close-barrier": _gm_barrier("closes"),
    "break-barrier": _gm_barrier("breaks"),
    "move-hero": lambda e, b: f"moves {e.data.get('hero')} to {_area(e.area, b)}",
    "end-scene": lambda e, b: "ends the scene",
}

_STATE_WORDS = {
    "hot": "burns hot",
    "guttering": "gutters",
    "burning": "blazes up",
    "flame": "dies back to a flame",
    "out": "goes out",
}


def _hero_status(name: str, status: str, flesh: int, dramatic: int) -> str:
    wounds = []
    if flesh:
        wounds.append(_plural(flesh, "Flesh Wound"))
    if dramatic:
        wounds.append(f"{dramatic} Dramatic")
    hurt = ", ".join(wounds) if wounds else "unhurt"
    if status == "active":
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
    text = _text(event, verbose, building, fd)
    if text is None:
        return None
    prefix = _phase_prefix(event)
    if not prefix and text[:1].islower() and ":" not in text.split(" ", 1)[0]:
        text = _cap(text)  # a sentence of its own; an area name (ground:C4) stays as it is
    return prefix + text


def _text(e: Event, verbose: bool, b: Building | None, fd: int | None) -> str | None:  # noqa: C901
    k, d = e.kind, e.data
    K = EventKind
    # -- scene and round structure -------------------------------------------------------
    if k is K.SCENE_START:
        title = d.get("title") or "The scene"
        heroes = d.get("heroes") or []
        fires = d.get("fires", 0)
        text = f"{title} begins: {_count(fires, 'fire')} burning"
        text += f"; heroes {_list(heroes)}" if heroes else "; no heroes inside"
        if d.get("seed") is not None:
            text += f" (seed {d['seed']})"
        return text
    if k is K.ROUND_START:
        inside = d.get("heroes", 0)
        return (f"Round {e.round} begins: {_count(d.get('fires', 0), 'fire')} burning, "
                f"{_count(inside, 'hero', 'heroes')} inside")
    if k is K.ACTION_DICE:
        heroes = d.get("heroes") or {}
        parts = [f"{name} {', '.join(str(x) for x in dice)}" for name, dice in heroes.items()]
        text = "Action dice: " + ("; ".join(parts) if parts else "no hero acts")
        return text + f"; the fires have {_plural(d.get('fire_actions', 0), 'action')}"
    if k is K.ROUND_END:
        fires = d.get("fires", 0)
        if fires:
            text = (f"Round {e.round} ends: {_plural(fires, 'fire')} "
                    f"({_plural(d.get('fire_dice', 0), 'Fire Die', 'Fire Dice')})")
        else:
            text = f"Round {e.round} ends: no fire left"
        heroes = d.get("heroes") or {}
        parts = [_hero_status(n, s, f, dw) for n, (s, f, dw) in heroes.items()]
        return text + ("; " + "; ".join(parts) if parts else "")
    if k is K.SCENE_END:
        rounds = d.get("rounds", e.round)
        text = f"The scene ends after {_plural(rounds, 'round')}: "
        burning = d.get("burning", 0)
        text += f"still {_plural(burning, 'fire')} burning" if burning else "nothing burns"
        text += f", {_plural(d.get('burned_out', 0), 'area')} burned out"
        heroes = d.get("heroes") or {}
        if heroes:
            text += "; " + ", ".join(f"{n} {_words(s)}" for n, s in heroes.items())
        return text
    # -- the fire ------------------------------------------------------------------------
    if k is K.FIRE_STARTED:
        cause = d.get("cause")
        extras = [f"FD {d.get('fd')}"]
        if d.get("temperature") not in (None, "regular"):
            extras.append(str(d["temperature"]))
        if d.get("fire_kind") == "villain":
            extras.append("a Villain")
        if d.get("state") not in (None, "burning"):
            extras.append(f"a {d['state']}")
        source = d.get("source")
        src = source[5:] if isinstance(source, str) and source.startswith("fire@") else None
        if cause == "start":
            return f"Fire in {_area(e.area, b, extra=', '.join(extras))}"
        if cause == "route" and d.get("via"):
            extras.append(str(d["via"]))
        elif cause and (cause not in ("route", "leap", "burn-through") or not source):
            extras.append(_words(cause))  # a leap or burn-through: the line before says how
        text = f"{_area(e.area, b, near=src)} catches fire ({', '.join(extras)})"
        return text + (" along the fuel" if cause == "route" and not d.get("via") else "")
    if k is K.FIRE_MERGED:
        src = d.get("source")
        by = f" from the fire in {src[5:]}" if isinstance(src, str) and src.startswith("fire@") else ""
        if d.get("grew"):
            return f"{_fire(e, b)} grows to FD {d.get('fd')}{by}"
        if not verbose:
            return None
        return f"{_fire(e, b, d.get('fd'))} takes in more fire{by}"
    if k is K.FIRE_GREW:
        text = f"{_fire(e, b)} grows to FD {d.get('fd')}"
        if "total" in d:
            return _with_roll(text, d)
        why = d.get("why")
        return text + (f" ({why})" if why and why != "grow" else "")
    if k is K.FIRE_SHRANK:
        why = d.get("why")
        return f"{_fire(e, b)} dies down to FD {d.get('fd')}" + (f" ({why})" if why else "")
    if k is K.FIRE_SPREAD:
        path = d.get("path") or []
        to = _area(d.get("to"), b, near=_fire_area(e.actor, e.area))
        text = f"{_fire(e, b, fd)} spreads along the fuel to {to}"
        if len(path) > 1:
            text += " by way of " + _list(path[:-1])
        if d.get("fd") == 0:
            text += ", but it does not take there"
        return text
    if k is K.FIRE_LEAPT:
        return _with_roll(f"{_fire(e, b, fd)} leaps to "
                          f"{_area(d.get('to'), b, near=_fire_area(e.actor, e.area))}", d)
    if k is K.FIRE_BURNED_THROUGH:
        what = _thing(d.get("barrier") or "barrier")
        return _with_roll(f"{_fire(e, b, fd)} burns through the {what} to "
                          f"{_area(d.get('to'), b, near=_fire_area(e.actor, e.area))}", d)
    if k is K.FIRE_ACTION_FAILED:
        action = d.get("action")
        target = d.get("target")
        verb = {"grow": "fails to grow", "leap": "fails to leap",
                "burn-through": "fails to burn through", "destroy": "fails to break through",
                "spread": "fails to spread"}.get(action, f"fails to {_words(action)}")
        text = f"{_fire(e, b, fd)} {verb}"
        if target and action != "grow":
            to = _area(target, b, near=_fire_area(e.actor, e.area))
            text += f" to {to}" if action in ("leap", "spread") else f" into {to}"
        return _with_roll(text, d)
    if k is K.FIRE_HELD:
        return f"{_fire(e, b, fd)} holds its action"
    if k is K.STRUCTURE_DESTROYED:
        what = _thing(d.get("structure") or "structure")
        barrier = d.get("barrier")
        if isinstance(barrier, str) and "|" in barrier:
            x, y = barrier.split("|", 1)
            where = f"between {_area(x, b)} and {_area(y, b, near=x)}"
        elif barrier:
            where = f"({barrier}) by {_area(e.area, b)}"
        else:
            where = f"in {_area(e.area, b)}"
        who = _fire(e, b, fd) if str(e.actor or "").startswith("fire@") else _who(e.actor)
        return _with_roll(f"{who} brings down the {what} {where}", d)
    if k is K.FIRE_FUEL_CHECK:
        if d.get("success"):
            if not verbose:
                return None
            return (f"{_fire(e, b, fd)} feeds: check {d.get('total')} vs "
                    f"{_plural(d.get('flesh', 0), 'wound')} (+{d.get('damage')}), passed")
        return (f"{_fire(e, b, fd)} eats into its fuel: check {d.get('total')} vs "
                f"{_plural(d.get('flesh', 0), 'wound')}, failed; now "
                f"{_plural(d.get('dramatic', 0), 'Dramatic Wound')} (Resolve {d.get('resolve')})")
    if k is K.FIRE_STATE:
        if d.get("trigger") == "flashover" and not verbose:
            return None  # the flashover line says it
        after = d.get("after")
        text = f"{_fire(e, b, fd)} {_STATE_WORDS.get(after, 'turns ' + _words(after))}"
        return text + (f" ({d['why']})" if d.get("why") else "")
    if k is K.FIRE_OUT:
        reason = d.get("reason") or ""
        if reason == "fuel spent":
            return f"{_fire(e, b)} burns out: its fuel is spent"
        text = f"{_fire(e, b)} goes out" + (f" ({reason})" if reason else "")
        if d.get("burned_out"):
            text += "; nothing is left to burn there"
        return text
    if k is K.FLASHOVER:
        return (f"Flashover! {_cap(_room(d.get('room'), b))} flashes over: "
                f"{_plural(d.get('fires', 0), 'fire')} there burn hot")
    if k is K.AREA_BURNED_OUT:
        return f"{_area(e.area, b)} is burned out"
    if k is K.FIRE_SPOTTED:
        return _with_roll(f"{e.actor} spots the fire in {_area(e.area, b)}", d)
    if k is K.FIRE_HIDDEN:
        return _with_roll(f"{e.actor} does not notice the fire in {_area(e.area, b)}", d)
    # -- the building --------------------------------------------------------------------
    if k in (K.BARRIER_OPENED, K.BARRIER_CLOSED):
        what = _thing(d.get("what") or "door")
        verb = "opens" if k is K.BARRIER_OPENED else "closes"
        barrier = d.get("barrier")
        text = f"{_who(e.actor)} {verb} the {what}"
        if isinstance(barrier, str) and "|" in barrier:
            x, y = barrier.split("|", 1)
            text += f" between {_area(x, b)} and {_area(y, b, near=x)}"
        elif barrier:
            text += f" ({barrier}) by {_area(e.area, b)}"
        return text
    if k is K.FLOOR_COLLAPSED:
        return f"the floor of {_area(e.area, b)} gives way into {_area(d.get('below'), b)}"
    # -- heroes --------------------------------------------------------------------------
    if k is K.HERO_ACTION:
        action = d.get("action")
        if action == "roll":
            purpose = d.get("purpose") or "act"
            if purpose == "smother fire" and d.get("target"):
                text = f"{e.actor} tries to smother the fire in {_area(d['target'], b)}"
            elif purpose == "put out clothes":
                text = f"{e.actor} tries to put out burning clothes"
            else:
                text = f"{e.actor} tries to {purpose}"
            return _with_roll(text, d, outcome=True)
        if not verbose:
            return None  # the move, the opened door, the spotted fire tell it
        return f"{e.actor} acts: {action}"
    if k is K.HERO_MOVED:
        frm = d.get("frm")
        text = f"{e.actor} moves from {_area(frm, b)} to {_area(e.area, b, near=frm)}"
        why = d.get("why")
        return text + (f" ({why})" if why and why != "move" else "")
    if k is K.HERO_AVOIDED:
        knack = _words(d.get("knack") or "")
        how = f" ({knack})" if knack else ""
        text = (f"{e.actor} gets through the flames unharmed{how}" if d.get("success")
                else f"{e.actor} cannot avoid the flames{how}")
        return _with_roll(text, d)
    if k is K.HERO_DAMAGED:
        return _damage_text(e)
    if k is K.WOUND_CHECK:
        return f"{e.actor}'s wound check: {_wound_text(e)}"
    if k is K.CLOTHES_CAUGHT:
        text = f"{e.actor}'s clothes catch fire (FD {d.get('fd')})"
        return text + (f": Finesse check {d['total']} vs TN {d.get('tn')}" if "total" in d else "")
    if k is K.CLOTHES_OUT:
        by = d.get("by")
        text = f"{e.actor}'s burning clothes are put out"
        return text + (f" by {by}" if by and by != e.actor else "")
    if k is K.HERO_KNOCKED_OUT:
        cause = d.get("cause")
        return (f"{e.actor} is knocked out ({_plural(d.get('dramatic', 0), 'Dramatic Wound')}"
                + (f", {cause})" if cause else ")"))
    if k is K.HERO_CRIPPLED:
        return f"{e.actor} is crippled ({_plural(d.get('dramatic', 0), 'Dramatic Wound')})"
    if k is K.HERO_DIED:
        cause = d.get("cause")
        return (f"{e.actor} dies ({_plural(d.get('dramatic', 0), 'Dramatic Wound')}"
                + (f", {cause})" if cause else ")"))
    if k is K.HERO_ESCAPED:
        return f"{e.actor} gets out at {_area(e.area, b)}"
    if k is K.HERO_CONFUSED:
        text = (f"{e.actor} loses all sense of direction after "
                f"{_plural(d.get('rounds', 0), 'round')} in thick smoke")
        return _with_roll(text, d)
    if k is K.HERO_UNCONFUSED:
        return f"{e.actor} is out of the smoke and gets their bearings back"
    if k is K.HERO_BREATH:
        if d.get("air"):
            return f"{e.actor} can breathe again"
        limit = d.get("limit")
        text = f"{e.actor} holds their breath"
        if limit:
            text += f" (round {d.get('breath')} of {limit})"
        return text
    if k is K.HERO_SUFFOCATING:
        text = f"{e.actor} is suffocating after {_plural(d.get('breath', 0), 'round')} without air"
        return _with_roll(text, d, outcome=True)
    if k is K.HERO_FELL:
        return (f"{e.actor} falls {d.get('feet')} ft into {_area(e.area, b)}: "
                f"{d.get('damage')} damage ({_plural(d.get('flesh', 0), 'Flesh Wound')})")
    if k is K.DEBRIS:
        return f"debris from the {_thing(d.get('what') or 'structure')} hits {e.actor} (FD {d.get('fd')})"
    # -- smoke ---------------------------------------------------------------------------
    if k is K.SMOKE:
        thin, thick = d.get("thin", 0), d.get("thick", 0)
        parts = []
        if thick:
            parts.append(f"{_plural(thick, 'area')} thick")
        if thin:
            parts.append(f"{_plural(thin, 'area')} thin")
        text = "Smoke: " + (", ".join(parts) if parts else "none left")
        rooms = d.get("rooms") or []
        if rooms:
            text += " in " + _list([_room(r, b) for r in rooms])
        if d.get("cleared"):
            text += f"; {_plural(d['cleared'], 'area')} cleared"
        return text
    if k is K.SMOKE_CLEARED:
        return "The smoke has cleared"
    # -- script, GM, modules -------------------------------------------------------------
    if k is K.READ_ALOUD:
        return f'Read aloud: "{_generic(e)}"'
    if k is K.ROLL:
        who = f"{e.actor} " if e.actor else ""
        purpose = d.get("purpose")
        return _with_roll(f"{who}rolls{' for ' + str(purpose) if purpose else ''}", d,
                          outcome=True)
    if k is K.SCRIPT and "effect" not in d and d.get("cue") and "times" in d:
        # a cue firing: its effects tell what happens, each in its own event
        return f"Script: cue {d['cue']} fires" if verbose else None
    if k in (K.WIND, K.WEATHER) and isinstance(d.get("text"), str):
        return d["text"]
    if k is K.GM and d.get("action") in _GM_ACTIONS:
        return "GM" + (f" ({e.actor})" if e.actor not in (None, "GM") else "") + ": " + \
            _GM_ACTIONS[d["action"]](e, b)
    label = {K.SCRIPT: "Script", K.GM: "GM", K.WEATHER: "Weather", K.WIND: "Wind",
             K.MODULE: "Rule"}.get(k, _cap(_words(k.value)))
    body = _generic(e)
    who = f" ({e.actor})" if e.actor else ""
    return f"{label}{who}: {body}" if body else f"{label}{who}"


def _damage_text(e: Event) -> str:
    d = e.data
    cause = d.get("cause") or ""
    how = _DAMAGE_CAUSE.get(cause, f"({cause})" if cause else "")
    text = f"{e.actor} takes {d.get('damage')} fire damage"
    return text + (f" {how}" if how else "")


def _wound_text(e: Event) -> str:
    d = e.data
    text = f"{d.get('total')} vs TN {d.get('tn')}: "
    if d.get("success"):
        return text + "passed"
    return text + f"failed, {_plural(d.get('dramatic', 1), 'Dramatic Wound')}"


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
        where = _fire_area(e.actor, e.area)
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
        fd = self.fire_dice.get(_fire_area(event.actor, event.area))
        pending, self._pending = self._pending, None
        if pending is not None:
            if event.kind is K.WOUND_CHECK and event.actor == pending.actor:
                line = (_phase_prefix(pending) + _damage_text(pending)
                        + f" (wound check {_wound_text(event)})")
                self._track(event)
                return [(pending, line)]
            out.extend(self._pairs(pending, None))
        if event.kind in (K.FIRE_STARTED, K.FIRE_MERGED) and event.data.get("cause") == "route":
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


# -- the end of a run -----------------------------------------------------------------------------
def summarize(scene: Scene, *, limit: int | None = None) -> list[str]:
    """A few lines on how the scene went: rounds, what burned, flashovers, every hero's fate.

    ``limit`` is the round limit the run had: a scene still burning when it stopped says so.
    Computed from the scene's state and its event log only (so it is deterministic too).
    """
    b = scene.building
    log = scene.log
    K = EventKind
    lines: list[str] = []
    seed = scene.roller.seed
    title = scene.title or b.title or "the scene"
    lines.append(f"Summary: {title}" + (f" (seed {seed})" if seed is not None else ""))

    # rounds and how it ended
    last_out = None
    smoke_cleared = None
    for e in log:
        if e.kind is K.FIRE_OUT:
            last_out = e.round
        elif e.kind is K.FIRE_STARTED:
            last_out = None
        elif e.kind is K.SMOKE_CLEARED:
            smoke_cleared = e.round
    rounds = f"Rounds played: {scene.round}"
    if scene.fires:
        fd = sum(f.fd for f in scene.fires.values())
        stop = "the round limit" if limit is None or scene.round >= limit else "the stop"
        rounds += (f"; still burning at {stop}: {_plural(len(scene.fires), 'fire')} "
                   f"({_plural(fd, 'Fire Die', 'Fire Dice')})")
    else:
        if last_out is not None:
            rounds += f"; the last fire went out in round {last_out}"
        elif not any(e.kind is K.FIRE_STARTED for e in log):
            rounds += "; nothing ever burned"
        if scene.smoke is not None and scene.smoke.density:
            rounds += "; smoke still hangs in the air"
        elif smoke_cleared is not None:
            rounds += f"; the smoke cleared in round {smoke_cleared}"
    lines.append(rounds)

    # what burned
    lit = {}
    for e in log:
        if e.kind is K.FIRE_STARTED and e.area is not None:
            lit.setdefault(e.area, e.round)
    burnable = sum(1 for a in b.areas if a.fuel > 0 or a.burned_out)
    burned_out = sum(1 for a in b.areas if a.burned_out)
    lines.append(f"Areas burned: {len(lit)} of {burnable} that could burn "
                 f"({burned_out} burned out, {len(scene.fires)} still burning)")
    flash_round = {e.data.get("room"): e.round for e in log if e.kind is K.FLASHOVER}
    rooms_hit: dict[str, int] = {}
    first_lit: dict[str, int] = {}
    for name, rnd in lit.items():
        i = b.find(name)
        if i is not None:
            key = b.areas[i].room
            rooms_hit[key] = rooms_hit.get(key, 0) + 1
            first_lit[key] = min(first_lit.get(key, rnd), rnd)
    lines.append("Rooms burned: " + ("none" if not rooms_hit else
                                     f"{len(rooms_hit)} of {len(b.rooms)}, first to last"))
    for key in sorted(rooms_hit, key=lambda k: (first_lit[k], k)):
        room = b.rooms[key]
        total = sum(1 for i in b.room_areas(key) if b.areas[i].fuel > 0 or b.areas[i].burned_out)
        start = first_lit[key]
        part = (f"  {room.name or key}: {rooms_hit[key]} of {_plural(total, 'area')}, alight "
                + (f"from round {start}" if start else "from the start"))
        if key in flash_round:
            part += f", flashover in round {flash_round[key]}"
        lines.append(part)

    # heroes
    escaped_at = {e.actor: (e.round, e.area) for e in log if e.kind is K.HERO_ESCAPED}
    fell = {e.actor: e.round for e in log if e.kind in (K.HERO_KNOCKED_OUT, K.HERO_DIED)}
    if scene.heroes:
        lines.append("Heroes:")
    for hero in scene.heroes:
        status = hero.status.value
        if status == "escaped" and hero.name in escaped_at:
            rnd, area = escaped_at[hero.name]
            fate = f"got out in round {rnd} at {_area(area, b)}"
        elif status in ("knocked-out", "dead"):
            word = "knocked out" if status == "knocked-out" else "died"
            rnd = fell.get(hero.name)
            fate = f"{word}{f' in round {rnd}' if rnd else ''} in {_area(b.areas[hero.area].name, b)}"
        else:
            fate = f"still inside at {_area(b.areas[hero.area].name, b)}"
        wounds = []
        if hero.dramatic:
            wounds.append(_plural(hero.dramatic, "Dramatic Wound"))
        if hero.flesh:
            wounds.append(_plural(hero.flesh, "Flesh Wound"))
        if hero.crippled and status != "dead":
            wounds.append("crippled")
        if hero.clothes_fd and hero.present:
            wounds.append("clothes still burning")
        lines.append(f"  {hero.name}: {fate}; " + (", ".join(wounds) if wounds else "unhurt"))
    out = [h.name for h in scene.heroes if h.status.value == "escaped"]
    if scene.heroes:
        lines.append("Got out: " + (_list(out) if out else "nobody"))
    return lines
