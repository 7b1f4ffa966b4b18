"""The fire as a character (003, Crunchy Rules for Fire Spreading).

Every 10-ft area that burns holds one :class:`Fire`: its Fire Dice (1-10) give its Traits and
Knacks through :data:`fuego.rules.tables.FIRE_STATS`; its Resolve is the fuel of its area. Its life is
a state machine shared by all fires (the class-level pattern of the ``transitions`` FAQ: one
``Machine`` with ``model=None``; each fire only stores its ``state``), so a fire costs a few
hundred bytes, not a machine.

Fires are created and removed only by :class:`fuego.engine.scene.Scene` (``start_fire``,
``extinguish``), which keeps the active set, the log and the building in step.
"""

from __future__ import annotations

from enum import Enum

from transitions import Machine

from fuego.dice.roller import Pool
from fuego.errors import RuleError
from fuego.rules.tables import (
    FIRE_STATS,
    MAX_FIRE_DICE,
    MIN_FIRE_DICE,
    FireKind,
    FireStats,
    Temperature,
)


class FireState(str, Enum):
    """A fire's life. ``FLAME`` is used by the flame-and-blaze module (ASL 25.15) only."""

    FLAME = "flame"  # a beginning fire: does not spread or smoke
    BURNING = "burning"
    HOT = "hot"  # after flashover: keeps all its damage dice
    GUTTERING = "guttering"  # crippled (a Villain at Dramatic Wounds >= Resolve): no ten again
    OUT = "out"


#: A new fire is hidden from nobody: one empty set shared by all (frozenset() makes a new one
#: each time, 216 bytes a fire at 10,000 fires).
_NOBODY: frozenset[str] = frozenset()

#: The states in which a fire acts, spreads and smokes (a Flame does none of these; ASL 25.2).
ACTING = frozenset({FireState.BURNING, FireState.HOT, FireState.GUTTERING})


class Trigger(str, Enum):
    BLAZE = "blaze"
    FLASHOVER = "flashover"
    GUTTER = "gutter"
    EXTINGUISH = "extinguish"


_LIT = [FireState.FLAME, FireState.BURNING, FireState.HOT, FireState.GUTTERING]

#: The lifecycle, as data. Anything not listed is illegal and raises.
LIFECYCLE = [
    {"trigger": Trigger.BLAZE.value, "source": FireState.FLAME, "dest": FireState.BURNING},
    {"trigger": Trigger.FLASHOVER.value, "source": FireState.BURNING, "dest": FireState.HOT},
    {"trigger": Trigger.GUTTER.value, "source": [FireState.BURNING, FireState.HOT],
     "dest": FireState.GUTTERING},
    {"trigger": Trigger.EXTINGUISH.value, "source": _LIT, "dest": FireState.OUT},
]


class Fire:
    """One 10-ft fire. Traits and Knacks follow its Fire Dice; damage follows temperature too."""

    __slots__ = (
        "id", "area", "fd", "temperature", "kind", "resolve", "flesh", "dramatic", "state",
        "born", "smoke", "dice", "hidden_from",
    )  # fmt: skip

    #: One machine for every fire (transitions FAQ, "class-level machine"): no per-fire cost.
    machine = Machine(
        model=None,
        states=FireState,
        transitions=LIFECYCLE,
        initial=None,
        auto_transitions=False,
        send_event=False,
    )

    def __init__(self, id: int, area: int, fd: int, resolve: int, *,
                 temperature: Temperature = Temperature.REGULAR,
                 kind: FireKind = FireKind.HENCHMAN, state: FireState = FireState.BURNING,
                 born: int = 0):
        if not MIN_FIRE_DICE <= fd <= MAX_FIRE_DICE:
            raise RuleError(f"Fire Dice must be 1-10, not {fd}")
        self.id = id
        self.area = area
        self.fd = fd
        self.temperature = temperature
        self.kind = kind
        self.resolve = resolve
        self.flesh = 0
        self.dramatic = 0
        self.state = state
        self.born = born
        self.smoke = 0  # smoke it has made, in areas (fuego.engine.smoke)
        self.dice: list[int] = []  # this round's unspent action dice
        self.hidden_from: frozenset[str] = _NOBODY

    # -- the state machine ----------------------------------------------------------------------
    def trigger(self, trigger: Trigger) -> None:
        """Fire a lifecycle trigger; an illegal one raises :class:`RuleError`.

        The move is looked up in the machine's own transitions, read once into a table
        (:func:`_moves`): the same state a ``transitions`` trigger sets, for a dict lookup."""
        nxt = _MOVES.get((self.state, trigger.value))
        if nxt is None:
            raise RuleError(f"a {self.state.value} fire cannot {trigger.value}")
        self.state = nxt

    def may(self, trigger: Trigger) -> bool:
        """Is ``trigger`` legal from the current state?"""
        return (self.state, trigger.value) in _MOVES

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
        """The damage it deals: Fire Dice rolled, kept by temperature (003 table)."""
        if self.state is not FireState.GUTTERING:
            return FIRE_STATS[self.fd].damage[self.temperature]
        return _POOLS["damage", self.fd, self.temperature]

    @property
    def avoid_tn(self) -> int:
        """TN to avoid its damage when moving through it: 5 x Fire Dice (003)."""
        return 5 * self.fd

    # Pools are immutable: each is made once (_POOLS) and shared by every fire that rolls it;
    # the hot ones are also listed by [ten again][Fire Dice] (a big round looks up thousands).
    def spreading_pool(self) -> Pool:
        return SPREADING_POOLS[self.state is not FireState.GUTTERING][self.fd]

    def destruction_pool(self) -> Pool:
        return _DESTRUCTION[self.state is not FireState.GUTTERING][self.fd]

    def stealth_pool(self) -> Pool:
        return _POOLS["stealth", self.fd, self.state is not FireState.GUTTERING]

    def fuel_check_pool(self) -> Pool:
        """Its wound check uses Resolve for Brawn; wound checks always explode (RULES-NOTES)."""
        pool = _FUEL_CHECK.get(self.resolve)
        if pool is None:
            pool = _FUEL_CHECK[self.resolve] = Pool(max(1, self.resolve), self.resolve)
        return pool

    @property
    def knocked_out_at(self) -> int:
        """Dramatic Wounds that put it out: Resolve (Henchman) or twice Resolve (Villain)."""
        r = max(1, self.resolve)
        return r if self.kind is FireKind.HENCHMAN else 2 * r

    @property
    def crippled_at(self) -> int | None:
        return max(1, self.resolve) if self.kind is FireKind.VILLAIN else None

    def set_dice(self, fd: int) -> None:
        self.fd = max(MIN_FIRE_DICE, min(MAX_FIRE_DICE, fd))

    def label(self, area_name: str) -> str:
        return f"fire {area_name}"

    def to_dict(self) -> dict:
        return {
            "id": self.id, "area": self.area, "fd": self.fd,
            "temperature": self.temperature.value, "kind": self.kind.value,
            "resolve": self.resolve, "flesh": self.flesh, "dramatic": self.dramatic,
            "state": self.state.value, "born": self.born, "smoke": self.smoke,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict) -> Fire:
        fire = cls(d["id"], d["area"], d["fd"], d["resolve"],
                   temperature=Temperature(d["temperature"]), kind=FireKind(d["kind"]),
                   state=FireState(d["state"]), born=d["born"])
        fire.flesh, fire.dramatic, fire.smoke = d["flesh"], d["dramatic"], d["smoke"]
        return fire


def _moves(machine: Machine) -> dict[tuple[FireState, str], FireState]:
    """The shared machine's transitions as a table ``(state, trigger) -> next state``.

    The lifecycle has no conditions and no callbacks, so following the table is exactly what
    the machine's trigger does (about 10 us each: a flashover turns a whole room at once).
    """
    if any(s.on_enter or s.on_exit for s in machine.states.values()) or any(
            (machine.before_state_change, machine.after_state_change, machine.prepare_event,
             machine.finalize_event)):
        raise TypeError("the fire's lifecycle machine must stay free of callbacks")
    table: dict[tuple[FireState, str], FireState] = {}
    for name, event in machine.events.items():
        for source, moves in event.transitions.items():
            move = moves[0]
            if len(moves) > 1 or move.conditions or move.prepare or move.before or move.after:
                raise TypeError("the fire's lifecycle machine must stay free of conditions")
            table[(FireState[source], name)] = FireState[move.dest]
    return table


_MOVES = _moves(Fire.machine)


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


_POOLS = _pool_table()
#: a fire's spreading pool by [ten again][Fire Dice] (None at 0 dice; fuego.engine.boxed_phases too)
SPREADING_POOLS = tuple([_POOLS.get(("spreading", fd, explode))
                         for fd in range(MAX_FIRE_DICE + 1)] for explode in (False, True))
_DESTRUCTION = tuple([_POOLS.get(("destruction", fd, explode)) for fd in range(MAX_FIRE_DICE + 1)]
                     for explode in (False, True))
_FUEL_CHECK: dict[int, Pool] = {}  # Resolve -> its fuel check pool


# A batch's look-ups (a big fire's round rolls thousands of pools): each fire's, without a call.
def panaches(fires: list[Fire]) -> list[int]:
    """``[f.panache for f in fires]``."""
    stats = FIRE_STATS
    return [stats[f.fd].panache for f in fires]


def spreading_pools(fires: list[Fire]) -> list[Pool]:
    """``[f.spreading_pool() for f in fires]``."""
    guttering = FireState.GUTTERING
    return [SPREADING_POOLS[f.state is not guttering][f.fd] for f in fires]


def damage_pools(fires: list[Fire]) -> list[Pool]:
    """``[f.damage_pool() for f in fires]``."""
    guttering, stats = FireState.GUTTERING, FIRE_STATS
    return [stats[f.fd].damage[f.temperature] if f.state is not guttering else f.damage_pool()
            for f in fires]


def fuel_check_pools(fires: list[Fire]) -> list[Pool]:
    """``[f.fuel_check_pool() for f in fires]``."""
    known = _FUEL_CHECK
    return [known.get(f.resolve) or f.fuel_check_pool() for f in fires]


def new_fire_dice(source_fd: int) -> int:
    """Half the Fire Dice of the source, rounded down, at least 1 (RULES-NOTES)."""
    return max(1, source_fd // 2)
