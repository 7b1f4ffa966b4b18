"""The rule charts: every number of the core rules, as data, each chart citing its source.

Source ``003`` is ``shared/seeds/003_a7cc15ef564fe639.txt`` (7th Sea fire rules); the readings
named here are in ``shared/RULES-NOTES.md`` and ``docs/rules.md``. The optional modules keep
their own tables beside them in ``fuego/modules/`` (each citing its ASL or Alpha Strike rule).

A GM house-rules a number by overriding it in the scenario's ``house_rules:`` section; the
loader validates the override against the names below (see docs/scenario-format.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum

from fuego.dice.roller import Pool


class Temperature(str, Enum):
    """How hot a fire is: it sets how many damage dice are kept (003, Injury from Fire)."""

    COLD = "cold"
    REGULAR = "regular"
    HOT = "hot"


class Rank(str, Enum):
    """A character's rank, heroes and fires alike (001; 003, Crunchy Rules): it sets how many
    Dramatic Wounds it takes (:data:`WOUND_LIMIT`). A fire is a Henchman or a Villain."""

    HERO = "hero"
    VILLAIN = "villain"
    HENCHMAN = "henchman"


#: Dramatic Wounds that knock a character out (or put a fire out), in multiples of its
#: Resolve: a Henchman at Resolve, a Hero or Villain at twice Resolve (001; 003).
WOUND_LIMIT = {Rank.HENCHMAN: 1, Rank.VILLAIN: 2, Rank.HERO: 2}


class Exposure(str, Enum):
    """How a hero meets the fire: extra Dramatic Wounds per 20 (fleeting) or per 10 (003)."""

    FLEETING = "fleeting"  # struck, leaping through, standing in a burning area
    CLINGING = "clinging"  # clothes on fire, burning oil, a jet of gas, magical fire


#: Points of failed wound check per extra Dramatic Wound, by exposure (003, Injury from Fire).
EXTRA_WOUND_STEP = {Exposure.FLEETING: 20, Exposure.CLINGING: 10}


class Contact(str, Enum):
    """How fire reached a hero (003, Injury from Fire: "how the character is exposed"); the log's
    ``contact`` on every ``hero-damaged``. :data:`CONTACT_EXPOSURE` gives each its wound step."""

    STANDING = "standing"  # in an area on fire at the end of the round
    MOVING = "moving"  # "attempt to move through a fire"
    STRUCK = "struck"  # "struck by a burning weapon or object", "fleetingly exposed"
    EXPLOSION = "explosion"  # "caught in an explosion"
    CLOTHES = "clothes"  # "whose clothes are on fire"
    OIL = "oil"  # "splashed with a burning chemical (such as flaming oil)", "covered in burning liquid"
    JET = "jet"  # "caught by a jet of burning gas"
    MAGIC = "magic"  # "struck by magical fire"
    DEBRIS = "debris"  # falling structure: a fire's damage roll, but not fire (RULES-NOTES)


#: Each contact's exposure (003, Injury from Fire): struck, leaping through or fleetingly exposed
#: wound as a weapon (per 20); clothes, a burning chemical, a jet of gas, magical fire per 10.
#: [reading] An explosion is not in the per-10 list: per 20, like a blow (it is hot: below).
CONTACT_EXPOSURE: dict[Contact, Exposure] = {
    Contact.STANDING: Exposure.FLEETING,
    Contact.MOVING: Exposure.FLEETING,
    Contact.STRUCK: Exposure.FLEETING,
    Contact.EXPLOSION: Exposure.FLEETING,
    Contact.DEBRIS: Exposure.FLEETING,
    Contact.CLOTHES: Exposure.CLINGING,
    Contact.OIL: Exposure.CLINGING,
    Contact.JET: Exposure.CLINGING,
    Contact.MAGIC: Exposure.CLINGING,
}
#: Contacts with a temperature of their own (003: "Hot fires include chemical fires; burning
#: gasses; explosives"): an explosion and a jet of gas keep all their dice; burning oil on a
#: hero too (a chemical fire). The rest burn at the temperature of the fire that dealt them.
CONTACT_HOT = frozenset({Contact.EXPLOSION, Contact.JET, Contact.OIL})


def half_up(n: int) -> int:
    return (n + 1) // 2


# -- The Fire Dice table (003, Injury from Fire and Crunchy Rules) -------------------------------
# Columns: Brawn, Finesse = Panache, Wits, Destruction = Spreading, Stealth,
#          kept damage dice cold/regular/hot, avoidance TN. Rolled damage dice = Fire Dice.
# RULES-NOTES reads the columns as formulas; tests check the formulas reproduce every row.
FIRE_DICE_TABLE: dict[int, tuple[int, int, int, int, int, int, int, int, int]] = {
    #    Br Fi Wi DS St  cold reg hot  TN
    1: (1, 1, 3, 1, 3, 0, 1, 1, 5),
    2: (2, 1, 3, 1, 3, 0, 1, 2, 10),
    3: (3, 2, 2, 2, 2, 0, 2, 3, 15),
    4: (4, 2, 2, 2, 2, 1, 2, 4, 20),
    5: (5, 3, 1, 3, 1, 1, 3, 5, 25),
    6: (6, 3, 1, 3, 1, 1, 3, 6, 30),
    7: (7, 4, 1, 4, 1, 1, 4, 7, 35),
    8: (8, 4, 1, 4, 1, 2, 4, 8, 40),
    9: (9, 5, 1, 5, 1, 2, 5, 9, 45),
    10: (10, 5, 1, 5, 1, 2, 5, 10, 50),
}

#: The avoidance TN is 5 x Fire Dice (003's TN column); a fire grows by rolling Spreading against
#: 5 x its current Fire Dice (003, Crunchy Rules). Read through FIRE_STATS, never written out.
AVOID_TN_PER_FIRE_DIE = 5
GROW_TN_PER_FIRE_DIE = 5

#: Fire Dice are 1-10 (003: "rated on a scale from 1 to 10").
MIN_FIRE_DICE, MAX_FIRE_DICE = 1, 10

#: The text's size examples per Fire Dice (003, Injury from Fire table), for the GM's eye.
FIRE_SIZE_EXAMPLE = {
    1: "sheet of paper",
    2: "torch, burning head hair",
    3: "burning clothes",
    4: "small fire, flask of oil",
    5: "large fire",
    6: "bale of cloth",
    7: "bonfire",
    8: "house fire",
    9: "blazing ship",
    10: "burning warehouse",
}


@dataclass(frozen=True, slots=True)
class FireStats:
    """A fire's character sheet for one Fire Dice value (the formulas of RULES-NOTES)."""

    fire_dice: int
    brawn: int
    finesse: int
    panache: int
    wits: int
    destruction: int
    spreading: int
    stealth: int
    #: the avoidance TN: 5 x Fire Dice (003, Injury from Fire table), to slip past its damage
    tn: int
    #: Spreading against this to grow one die: 5 x its current Fire Dice (003, Crunchy Rules)
    grow_tn: int
    damage: dict[Temperature, Pool]

    @classmethod
    def for_dice(cls, fd: int) -> FireStats:
        if not MIN_FIRE_DICE <= fd <= MAX_FIRE_DICE:
            raise ValueError(f"Fire Dice must be 1-10, not {fd}")
        half = half_up(fd)
        low = max(1, 4 - half)
        return cls(
            fire_dice=fd,
            brawn=fd,
            finesse=half,
            panache=half,
            wits=low,
            destruction=half,
            spreading=half,
            stealth=low,
            tn=AVOID_TN_PER_FIRE_DIE * fd,
            grow_tn=GROW_TN_PER_FIRE_DIE * fd,
            damage={
                Temperature.COLD: Pool(fd, fd // 4),
                Temperature.REGULAR: Pool(fd, half),
                Temperature.HOT: Pool(fd, fd),
            },
        )

    def as_row(self) -> tuple[int, ...]:
        d = self.damage
        return (
            self.brawn, self.finesse, self.wits, self.destruction, self.stealth,
            d[Temperature.COLD].kept, d[Temperature.REGULAR].kept, d[Temperature.HOT].kept, self.tn,
        )  # fmt: skip


#: Precomputed once: the engine looks stats up, never recomputes them.
FIRE_STATS: dict[int, FireStats] = {fd: FireStats.for_dice(fd) for fd in range(1, 11)}


# -- Fuel -> Resolve (003, Crunchy Rules, fuel table) -------------------------------------------
# The text gives the odd rows; the even values are a GM's number between them.
FUEL_RESOLVE: dict[str, int] = {
    "none": 0,  # stone, earth, water: nothing to burn
    "paper": 1,  # a piece of paper
    "paper-stack": 3,  # a small stack of paper
    "beams-small": 5,  # a 5-ft square stack of wooden beams
    "log-pile": 7,  # a cottage's log pile
    "beams": 9,  # a 10-ft square stack of wooden beams
}
MAX_RESOLVE = 9


# -- Structures ------------------------------------------------------------------------------
class Structure(str, Enum):
    """Things a fire attacks or passes through (003, Structure Attacked / Passed Through)."""

    PAPER_WALL = "paper-wall"
    THIN_WOODEN_WALL = "thin-wooden-wall"
    WOODEN_WALL = "wooden-wall"
    THICK_WOODEN_WALL = "thick-wooden-wall"
    THIN_STONE_WALL = "thin-stone-wall"
    STONE_WALL = "stone-wall"
    THICK_STONE_WALL = "thick-stone-wall"
    THIN_WOODEN_DOOR = "thin-wooden-door"
    WOODEN_DOOR = "wooden-door"
    THICK_WOODEN_DOOR = "thick-wooden-door"
    PAPERED_WINDOW = "papered-window"
    GLASS_WINDOW = "glass-window"
    WOODEN_FLOOR = "wooden-floor"
    STONE_FLOOR = "stone-floor"
    WOODEN_BEAM = "wooden-beam"
    STONE_BEAM = "stone-beam"
    LARGE_STONE_BEAM = "large-stone-beam"


#: Destruction TN by structure (003, "Structure Attacked" table). Floors are fuego's reading:
#: a wooden floor as a wooden wall, a stone floor as a stone wall.
DESTRUCTION_TN: dict[Structure, int] = {
    Structure.PAPER_WALL: 5,
    Structure.PAPERED_WINDOW: 5,
    Structure.THIN_WOODEN_WALL: 10,
    Structure.THIN_WOODEN_DOOR: 10,
    Structure.WOODEN_WALL: 15,
    Structure.WOODEN_DOOR: 15,
    Structure.THIN_STONE_WALL: 20,
    Structure.GLASS_WINDOW: 20,
    Structure.THICK_WOODEN_WALL: 25,
    Structure.THICK_WOODEN_DOOR: 25,
    Structure.WOODEN_BEAM: 30,
    Structure.STONE_WALL: 35,
    Structure.THICK_STONE_WALL: 40,
    Structure.STONE_BEAM: 45,
    Structure.LARGE_STONE_BEAM: 50,
    Structure.WOODEN_FLOOR: 15,  # [reading]
    Structure.STONE_FLOOR: 35,  # [reading]
}

#: Spreading TN to set fuel alight through a structure (003, "Structure Passed Through").
#: Paper is missing from the text: RULES-NOTES reads it as TN 5. Floors as their walls.
PASS_THROUGH_TN: dict[Structure, int] = {
    Structure.PAPER_WALL: 5,  # [reading]
    Structure.PAPERED_WINDOW: 5,  # [reading]
    Structure.THIN_WOODEN_WALL: 5,
    Structure.THIN_WOODEN_DOOR: 5,
    Structure.GLASS_WINDOW: 5,
    Structure.WOODEN_WALL: 10,
    Structure.WOODEN_DOOR: 10,
    Structure.THIN_STONE_WALL: 10,
    Structure.THICK_WOODEN_WALL: 15,
    Structure.THICK_WOODEN_DOOR: 15,
    Structure.STONE_WALL: 20,
    Structure.THICK_STONE_WALL: 25,
    Structure.WOODEN_FLOOR: 10,  # [reading]
    Structure.STONE_FLOOR: 20,  # [reading]
}

#: Structures that burn (their debris and remains are fuel-bearing): wood and paper.
COMBUSTIBLE = frozenset(
    s for s in Structure if s.value.startswith(("paper", "thin-wooden", "wooden", "thick-wooden"))
)


# -- Smoke (003, Smoke [Optional]) --------------------------------------------------------------
#: Smoke covers four times the fire's area (003).
SMOKE_AREA_FACTOR = 4


class Density(IntEnum):
    """How thick the smoke in an area is (003, Smoke): clear air, thin or thick."""

    NONE = 0
    THIN = 1
    THICK = 2


#: Kept dice lost in smoke, by density (003): thin costs 1 on sight/smell, thick 2 on any sense
#: or movement.
SMOKE_KEPT_PENALTY = {Density.THIN: 1, Density.THICK: 2}
#: Rounds in thick smoke before the confusion check: more than two (003).
CONFUSION_AFTER_ROUNDS = 2
#: The confusion check: Wits against 5 x the rounds spent in thick smoke (003).
CONFUSION_TN_PER_ROUND = 5
#: Confusion penalty: one unkept die on every action (003).
CONFUSION_UNKEPT_PENALTY = 1


@dataclass(frozen=True, slots=True)
class SmokeSight:
    """How far one sees in smoke, in feet (003, Smoke): forms clearly, and blurred shapes."""

    clear: int
    shapes: int


#: Sight in smoke by density (003): thin smoke, forms clearly to 20 ft and blurred shapes to
#: 40 ft; thick smoke, clearly to 2 ft and shapes to 6 ft ("as if in darkness").
SMOKE_SIGHT_FEET = {"thin": SmokeSight(clear=20, shapes=40), "thick": SmokeSight(clear=2, shapes=6)}


class Wind(str, Enum):
    """Wind strength for smoke dissipation, strongest first (the weather chart, RULES-NOTES)."""

    GALE = "gale"
    STRONG = "strong"
    MODERATE = "moderate"
    LIGHT = "light"
    CALM = "calm"


#: Rounds for smoke to clear after its fire is out (003 "Rounds to Dissipate"; the rows of the
#: weather chart read strongest wind on top, a RULES-NOTES [default]).
SMOKE_DISSIPATE_ROUNDS = {
    Wind.GALE: 1,
    Wind.STRONG: 2,
    Wind.MODERATE: 3,
    Wind.LIGHT: 4,
    Wind.CALM: 5,
}


# -- Spreading (003, Crunchy Rules) --------------------------------------------------------------
#: Leap TN per yard: 5 horizontally, 2 vertically (003).
LEAP_TN_PER_YARD = {"horizontal": 5, "vertical": 2}
#: Feet per area (003: each fire covers up to 10 ft by 10 ft).
AREA_FEET = 10
#: A fire of this many dice or fewer starts fires only in adjacent areas, by route or leap (003).
ADJACENT_ONLY_MAX_FD = 2
#: Fire Dice of the fires started on the way along a longer route (003).
ROUTE_WAYPOINT_FD = 2
#: A leap starts a fire of one die (003).
LEAP_NEW_FD = 1


# -- Core 7th Sea mechanics the text assumes (RULES-NOTES) --------------------------------------
#: Target numbers by name (RULES-NOTES, Dice).
TN_BY_NAME = {
    "mundane": 5,
    "easy": 10,
    "average": 15,
    "hard": 20,
    "very hard": 25,
    "heroic": 30,
}
RAISE_STEP = 5
#: Suffocation [default]: hold breath for Resolve rounds, then Resolve k Resolve vs 5 x rounds past.
SUFFOCATION_TN_PER_ROUND = 5
#: Falling [default]: per 10 ft fallen, 2 unkept and 1 kept die.
FALL_DICE_PER_10FT = (2, 1)


def falling_pool(feet: int) -> Pool:
    steps = max(1, feet // 10)
    return Pool(FALL_DICE_PER_10FT[0] * steps, FALL_DICE_PER_10FT[1] * steps)
