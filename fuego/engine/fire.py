"""The fire as a character (003, Crunchy Rules for Fire Spreading).

Every 10-ft area that burns holds one :class:`Fire`: its Fire Dice (1-10) give its Traits and
Knacks through :data:`fuego.rules.charts.FIRE_STATS`; its Resolve is the fuel of its area; its
``temperature`` (cold, regular, hot) keeps its damage dice. Its life is
a state machine shared by all fires (the class-level pattern of the ``transitions`` FAQ: one
``Machine`` with ``model=None``; each fire only stores its ``state``), so a fire costs a few
hundred bytes, not a machine. Every change of state is a trigger the machine dispatches
(:meth:`Fire.trigger`): the rule's limits are its conditions, what entering a state does is its
callbacks (docs/rules.md, "Its life").

Fires are created and removed only by :class:`fuego.engine.scene.Scene` (``start_fire``,
``extinguish``), which keeps the active set, the log and the building in step.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from transitions import EventData, Machine, State
from transitions.core import Condition, MachineError, Transition

from fuego.dice.roller import Pool
from fuego.engine.events import EventKind
from fuego.errors import RuleError
from fuego.rules.charts import (
    FIRE_STATS,
    FireStats,
    Rank,
    Temperature,
)
from fuego.rules.formulas import (
    clamp_fire_dice,
    crippled_at,
    half_dice,
    is_fire_dice,
    knocked_out_at,
)

if TYPE_CHECKING:
    from fuego.engine.scene import Scene


class FireState(str, Enum):
    """A fire's life. ``FLAME`` is used by the flame-and-blaze module (ASL 25.15) only."""

    KINDLING = "kindling"  # the machine's initial state: a fire being born (``kindle``)
    FLAME = "flame"  # a beginning fire: does not spread or smoke
    BURNING = "burning"
    GUTTERING = "guttering"  # crippled (a Villain at Dramatic Wounds >= Resolve): no ten again
    OUT = "out"
    # How hot a fire burns is not a state: it is ``Fire.temperature`` (a guttering fire may
    # burn hot, a fire may be born hot), changed only by the machine's ``heat`` trigger.


#: What a saved fire of an older fuego was in, read as today's state (its temperature says hot).
_OLD_STATES = {"hot": FireState.BURNING}


_GUTTERING = FireState.GUTTERING  # (a module constant: an enum member read from its class
#: costs a descriptor call on Python 3.11, and pools are looked up on every roll)

#: The states in which a fire acts, spreads and smokes (a Flame does none of these; ASL 25.2).
ACTING = frozenset({FireState.BURNING, FireState.GUTTERING})


class Trigger(str, Enum):
    #: A fire is born: a Flame when the scene says so (``as_flame``), else burning
    KINDLE = "kindle"
    BLAZE = "blaze"
    #: A lit fire starts to burn hot (a flashover in its room, a hot fire merging into it, a
    #: script): its state stays, its temperature becomes hot (``Fire.heated``)
    HEAT = "heat"
    #: Dramatic Wounds taken (a failed fuel check): out when its fuel is spent (Dramatic Wounds
    #: at its kind's limit), else guttering when crippled (a Villain at Resolve), else no change
    WOUND = "wound"
    EXTINGUISH = "extinguish"  # put out by someone or something


_LIT = [FireState.FLAME, FireState.BURNING, FireState.GUTTERING]


# The machine's conditions are callables of the trigger's event (``send_event``), reading the
# fire off ``event.model``: named by a string, transitions would look each one up on the fire
# (``Machine.resolve_callable``) and wrap a property's value in a new function at every check.
# (Its callbacks stay names: as callables they would be wrappers calling the same methods, no
# cheaper; docs/performance.md, "The fourth day".)
def _as_flame(event: EventData) -> bool:
    """Born a Flame (``kindle``): the scene decides (its modules, or whoever lit it)."""
    return bool(event.kwargs.get("flame"))


_COOLER = attrgetter("model.cooler")  # the fire's own properties: Fire.cooler, spent, crippled
_SPENT = attrgetter("model.spent")
_CRIPPLED = attrgetter("model.crippled")


#: The lifecycle, as data: the rule's conditions are the machine's (properties of the fire),
#: and what entering a state does is the state's callback. Anything not listed raises.
LIFECYCLE: list[Any] = [
    # Birth is not a change of state to log: the scene logs ``fire_started`` with its state.
    # (burning first: most fires are born burning, so the machine tries one transition)
    {"trigger": Trigger.KINDLE.value, "source": FireState.KINDLING, "dest": FireState.BURNING,
     "unless": _as_flame},
    {"trigger": Trigger.KINDLE.value, "source": FireState.KINDLING, "dest": FireState.FLAME},
    {"trigger": Trigger.BLAZE.value, "source": FireState.FLAME, "dest": FireState.BURNING,
     "after": "entered"},
    # (an internal transition: the state stays; the callback makes the fire hot)
    {"trigger": Trigger.HEAT.value, "source": _LIT, "dest": None, "conditions": _COOLER,
     "after": "heated"},
    # (a trigger's transitions are tried in order: going out comes first)
    {"trigger": Trigger.WOUND.value, "source": _LIT, "dest": FireState.OUT,
     "conditions": _SPENT},
    {"trigger": Trigger.WOUND.value, "source": FireState.BURNING,
     "dest": FireState.GUTTERING, "conditions": _CRIPPLED, "after": "entered"},
    {"trigger": Trigger.EXTINGUISH.value, "source": _LIT, "dest": FireState.OUT},
]

#: A change of a lit fire's state is logged (``Fire.entered``, after each transition but birth);
#: entering ``out`` takes the fire out of the scene (``Fire.went_out``). A guttering fire's
#: dice stop exploding because its pools are read from its state (``Fire.explodes``).
#: Why a state was entered, where the trigger did not say (``wound`` leads to either).
#: Why a fire whose fuel ran out went out (the log's ``fire-out`` reason).
FUEL_SPENT = "fuel spent"
_WHY = {FireState.OUT: FUEL_SPENT, FireState.GUTTERING: "crippled: fuel running low"}

_STATES: list[Any] = [
    {"name": FireState.KINDLING},
    {"name": FireState.FLAME},
    {"name": FireState.BURNING},
    {"name": FireState.GUTTERING},
    {"name": FireState.OUT, "on_enter": "went_out"},
]


class _State(State):
    """A lifecycle state whose name is read once: transitions' ``State.name`` reads the enum
    member's name at every look (a descriptor call on Python 3.11, several a trigger)."""

    name = ""  # plain attributes, not the base class's properties: set once, below
    value = ""

    def __init__(self, name: FireState, **kwargs: Any) -> None:
        super().__init__(name, **kwargs)
        self.name, self.value = name.name, name


class _Condition(Condition):
    """A condition given as a callable of the event, called as it is: transitions'
    ``Condition.check`` first has the machine resolve it (a name would be looked up on the
    fire) and reads ``send_event``, which the lifecycle always sets, at every check."""

    def __init__(self, func: Callable[[EventData], bool], target: bool = True) -> None:
        if not callable(func):  # (a name: LIFECYCLE's conditions are callables of the event)
            raise TypeError(f"fuego/engine/fire.py LIFECYCLE: condition {func!r} is not a "
                            "callable of the event; write it as one (see _COOLER)")
        super().__init__(func, target)
        self.call = func

    def check(self, event_data: EventData) -> bool:
        return self.call(event_data) == self.target


class _Transition(Transition):
    condition_cls = _Condition


class _Lifecycle(Machine):
    """The transitions machine of the fire's life, its states looked up by member or name in
    one dict (``Machine.get_state`` tests for an enum and reads its name on every call, six
    times a trigger, and ``get_model_state`` reads the fire's state by attribute name); what
    it answers is ``Machine.get_state``'s, kept as first asked."""

    state_cls = _State
    transition_cls = _Transition

    def __init__(self, **kwargs: Any) -> None:
        self._known: dict[Any, State] = {}
        super().__init__(**kwargs)

    def get_state(self, state: Any) -> State:
        return self._known.get(state) or self._learn(state)

    def get_model_state(self, model: Any) -> State:
        return self._known.get(model.state) or self._learn(model.state)

    def _learn(self, state: Any) -> State:
        known = self._known[state] = super().get_state(state)  # (raises for an unknown state)
        return known


class Fire:
    """One 10-ft fire. Traits and Knacks follow its Fire Dice; damage follows temperature too."""

    __slots__ = (
        "id", "area", "fd", "temperature", "kind", "resolve", "flesh", "dramatic", "state",
        "born", "smoke", "dice", "own_fuel",
    )  # fmt: skip
    state: FireState  # written only by the machine (its transitions, ``set_state``)

    #: One machine for every fire (transitions FAQ, "class-level machine"): no per-fire cost.
    #: Triggers carry the scene and why (``send_event``: callbacks read them off the event).
    machine = _Lifecycle(
        model=None,
        states=_STATES,
        transitions=LIFECYCLE,
        initial=FireState.KINDLING,
        auto_transitions=False,
        send_event=True,
    )

    def __init__(self, id: int, area: int, fd: int, resolve: int, *,
                 temperature: Temperature = Temperature.REGULAR,
                 kind: Rank = Rank.HENCHMAN, born: int = 0):
        if not is_fire_dice(fd):
            raise RuleError(f"Fire Dice must be 1-10, not {fd}")
        self.id = id
        self.area = area
        self.fd = fd
        self.temperature = temperature
        self.kind = kind
        self.resolve = resolve
        self.flesh = 0
        self.dramatic = 0
        # the machine's initial state; the scene then fires ``kindle`` (Scene.start_fire)
        Fire.machine.set_state(FireState.KINDLING, self)
        self.born = born
        self.smoke = 0  # smoke it has made, in areas (fuego.engine.smoke)
        self.dice: list[int] = []  # this round's unspent action dice
        self.own_fuel = False  # burns fuel it brought (an incendiary), not its area's

    # -- the state machine ----------------------------------------------------------------------
    def trigger(self, trigger: Trigger, scene: Scene, why: str | None = None,
                **data: Any) -> bool:
        """Fire a lifecycle trigger through the shared machine, which checks its conditions and
        runs the state's callbacks (``scene`` and ``why`` go to them; without ``why`` the state
        entered says it, :data:`_WHY`). Returns whether the fire
        changed state; a trigger the current state does not allow raises :class:`RuleError`."""
        try:
            return _EVENTS[trigger].trigger(self, scene=scene, why=why, **data)
        except MachineError:  # (the machine's own check: no transition from this state)
            if self.may(trigger):
                raise
            raise RuleError(f"a {self.state.value} fire cannot {trigger.value}") from None

    def may(self, trigger: Trigger) -> bool:
        """Does the current state allow ``trigger`` (its conditions aside)?"""
        return self.state in _SOURCES[trigger]

    # Conditions of the machine (the rule's limits, RULES-NOTES "The fire as a character"),
    # read by it through ``_COOLER``, ``_SPENT`` and ``_CRIPPLED``.
    @property
    def crippled(self) -> bool:
        """A Villain fire at Dramatic Wounds >= Resolve: its dice stop exploding."""
        at = crippled_at(self.kind, max(1, self.resolve))  # (a fire has at least 1 Resolve)
        return at is not None and self.dramatic >= at

    @property
    def cooler(self) -> bool:
        """Not yet burning hot (``heat`` changes nothing on a hot fire)."""
        return self.temperature is not Temperature.HOT

    @property
    def spent(self) -> bool:
        """Out of fuel: Dramatic Wounds at Resolve (Henchman) or twice Resolve (Villain)."""
        return self.dramatic >= self.knocked_out_at

    # Callbacks of the machine: what entering a state does.
    def entered(self, event: EventData) -> None:
        """A lit state entered: the change in the scene's log."""
        scene = event.kwargs["scene"]
        why = event.kwargs["why"] or _WHY[self.state]
        scene.emit(EventKind.FIRE_STATE, scene.fire_name(self), self.area,
                   trigger=event.event.name, before=_source(event).value,
                   after=self.state.value, why=why)

    def heated(self, event: EventData) -> None:
        """``heat``: the fire burns hot from now on, all its damage dice kept (003's table;
        what says so logs it: the flashover, the merge)."""
        self.temperature = Temperature.HOT

    def went_out(self, event: EventData) -> None:
        """Out: the scene takes the fire out of play (its area burned out when the fuel is
        spent, or when ``burned_out`` says so) and logs it."""
        kwargs = event.kwargs
        why = kwargs["why"] or _WHY[self.state]
        spent = event.event.name == Trigger.WOUND.value
        kwargs["scene"].remove_fire(self, why, spent or kwargs.get("burned_out", False))

    @property
    def lit(self) -> bool:
        return self.state is not FireState.OUT

    @property
    def harmful(self) -> bool:
        """A Flame (flame-and-blaze module) has no effect of its own yet (ASL 25.1, 25.15)."""
        return self.state is not FireState.FLAME and self.state is not FireState.OUT

    @property
    def can_spread(self) -> bool:
        return self.state in ACTING

    # -- the character sheet ----------------------------------------------------------------------
    @property
    def stats(self) -> FireStats:
        return FIRE_STATS[self.fd]

    @property
    def brawn(self) -> int:
        return self.fd

    @property
    def panache(self) -> int:
        return FIRE_STATS[self.fd].panache

    @property
    def explodes(self) -> bool:
        return self.state is not FireState.GUTTERING

    def damage_pool(self) -> Pool:
        """The damage it deals (:func:`damage_pool`), with no ten again while guttering."""
        return damage_pool(self.fd, self.temperature, self.state is not _GUTTERING)

    @property
    def grow_tn(self) -> int:
        """TN of its Spreading roll to grow one die (003, Crunchy Rules)."""
        return FIRE_STATS[self.fd].grow_tn

    # Pools are immutable: each is made once (_POOLS) and shared by every fire that rolls it.
    def spreading_pool(self) -> Pool:
        return _POOLS["spreading", self.fd, self.state is not _GUTTERING]

    def destruction_pool(self) -> Pool:
        return _POOLS["destruction", self.fd, self.state is not _GUTTERING]

    def stealth_pool(self) -> Pool:
        return _POOLS["stealth", self.fd, self.state is not _GUTTERING]

    def fuel_check_pool(self) -> Pool:
        """Its wound check uses Resolve for Brawn; wound checks always explode (RULES-NOTES)."""
        pool = _FUEL_CHECK.get(self.resolve)
        if pool is None:
            pool = _FUEL_CHECK[self.resolve] = Pool(max(1, self.resolve), self.resolve)
        return pool

    @property
    def knocked_out_at(self) -> int:
        """Dramatic Wounds that put it out: Resolve (Henchman) or twice Resolve (Villain)."""
        return knocked_out_at(self.kind, self.resolve)

    def set_dice(self, fd: int) -> None:
        self.fd = clamp_fire_dice(fd)

    def label(self, area_name: str) -> str:
        return f"fire {area_name}"

    def to_dict(self) -> dict:
        return {
            "id": self.id, "area": self.area, "fd": self.fd,
            "temperature": self.temperature.value, "kind": self.kind.value,
            "resolve": self.resolve, "flesh": self.flesh, "dramatic": self.dramatic,
            "state": self.state.value, "born": self.born, "smoke": self.smoke,
            **({"own_fuel": True} if self.own_fuel else {}),
        }  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict) -> Fire:
        fire = cls(d["id"], d["area"], d["fd"], d["resolve"],
                   temperature=Temperature(d["temperature"]), kind=Rank(d["kind"]),
                   born=d["born"])
        # a saved fire is restored, not born again: the machine puts it back in its state
        state = _OLD_STATES.get(d["state"]) or FireState(d["state"])
        Fire.machine.set_state(state, fire)
        fire.flesh, fire.dramatic, fire.smoke = d["flesh"], d["dramatic"], d["smoke"]
        fire.own_fuel = d.get("own_fuel", False)
        return fire


def _pool_table() -> dict[tuple, Pool]:
    """Every pool a fire's sheet gives, by (what, Fire Dice, ten again or temperature)."""
    table: dict[tuple, Pool] = {}
    for fd, s in FIRE_STATS.items():
        for explode in (True, False):
            table["spreading", fd, explode] = Pool(s.finesse + s.spreading, s.finesse, 0, explode)
            table["destruction", fd, explode] = Pool(s.brawn + s.destruction, s.brawn, 0, explode)
            table["stealth", fd, explode] = Pool(s.wits + s.stealth, s.wits, 0, explode)
        for temperature, pool in s.damage.items():
            table["damage", fd, temperature] = pool.no_explode()  # a guttering fire's damage
    return table


def _source(event: EventData) -> FireState:
    """The state a transition left (the machine keeps it by name)."""
    assert event.transition is not None
    return FireState[event.transition.source]


#: Each trigger's event of the machine, and the states it leaves from (read for every trigger).
_EVENTS = {t: Fire.machine.events[t.value] for t in Trigger}
_SOURCES = {t: frozenset(FireState[name] for name in event.transitions)
            for t, event in _EVENTS.items()}

_POOLS = _pool_table()
_FUEL_CHECK: dict[int, Pool] = {}  # Resolve -> its fuel check pool


def damage_pool(fd: int, temperature: Temperature, explode: bool = True) -> Pool:
    """The damage roll of a fire of ``fd`` Fire Dice: Fire Dice rolled, kept by temperature
    (003 table); ``explode=False``: no ten again (a guttering fire). Fires and heroes alike."""
    if explode:
        return FIRE_STATS[fd].damage[temperature]
    return _POOLS["damage", fd, temperature]


def new_fire_dice(source_fd: int) -> int:
    """Half the Fire Dice of the source, rounded down, at least 1 (RULES-NOTES)."""
    return half_dice(source_fd)
