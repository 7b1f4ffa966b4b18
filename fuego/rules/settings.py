"""A scene's rule settings: optional rules on or off, fuego's readings a GM can change.

Every field has the default fuego ships (documented in docs/rules.md); a scenario changes them
under ``rules:``. Optional modules from the other rule texts are switched on by name in
``rules.modules`` and configured under their own key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from fuego.rules.charts import Rank, Wind


class FlashoverMode(str, Enum):
    """When a room's fires all turn hot (fuego's reading; the text names flashover only)."""

    OFF = "off"
    # every burnable area of an enclosed room is on fire, none of those fires started this
    # round, and their Fire Dice reach ``flashover_min_dice`` (docs/rules.md, Flashover)
    ALL_BURNING = "all-burning"
    ALL_LIT = "all-lit"  # the older reading: as soon as every burnable area is on fire
    DICE = "dice"  # the room's Fire Dice add up to ``flashover_dice_per_area`` x its areas


class KnockedOutDeath(str, Enum):
    """Which Dramatic Wounds kill a Knocked-Out character (003, Knocked Out)."""

    FIRE = "fire"  # the fire's only: 003 "killed by the fire when the fire causes them to take..."
    FIRE_AND_GM = "fire-and-gm"  # the fire's and a GM's ``wound``: the reading before issue 27
    ANY = "any"  # any Dramatic Wound (suffocation, a fall, debris too): fuego's oldest reading


class ExplosionRule(str, Enum):
    """What an explosion does to those it reaches (003, Injury from Fire)."""

    FIRE = "fire"  # hot fire damage of its Fire Dice: 003 "caught in an explosion", "explosives"
    DEBRIS = "debris"  # falling debris, dodged, kept by half: the reading before issue 27


class BurningOil(str, Enum):
    """What burning oil (or another burning liquid) does to a hero (003, Injury from Fire)."""

    CLINGS = "clings"  # per 10, and it covers the hero, who burns until it is put out
    FLEETING = "fleeting"  # per 20 like any fire, nothing clings: the reading before issue 27


class RoundBurn(str, Enum):
    """Which earlier damage spares a hero the end-of-round burn of their area's fire (003)."""

    PER_FIRE = "per-fire"  # that fire's own: 003 "if they haven't taken damage from it"
    ANY = "any"  # any fire damage this round: the reading before issue 27


class SuffocationFire(str, Enum):
    """Which fire leaves a hero without air in a room that does not vent (003, Suffocation)."""

    ROOM = "room"  # any area of the hero's room burning: 003 "a room that is on fire"
    AREA = "area"  # the hero's own area burning: fuego's older reading


class SmokeClears(str, Enum):
    """When a put-out fire's smoke starts to clear (003, Smoke)."""

    FIRE = "fire"  # fire by fire: 003 "once a fire is put out the smoke it produced dissipates"
    ROOM = "room"  # once no fire burns in its room: fuego's older reading


@dataclass(slots=True)
class Settings:
    burning_clothes: bool = True  # 003 "Hero on Fire [Optional]"
    smoke: bool = True  # 003 "Smoke [Optional]"
    smoke_clears: SmokeClears = SmokeClears.FIRE
    suffocation: bool = True
    suffocation_fire: SuffocationFire = SuffocationFire.ROOM
    flashover: FlashoverMode = FlashoverMode.ALL_BURNING
    flashover_dice_per_area: int = 5
    flashover_min_dice: int = 5  # for all-burning: 003's size column, "Large Fire"
    knocked_out_death: KnockedOutDeath = KnockedOutDeath.FIRE
    explosions: ExplosionRule = ExplosionRule.FIRE
    burning_oil: BurningOil = BurningOil.CLINGS
    round_burn: RoundBurn = RoundBurn.PER_FIRE
    temperament: str = "hungry"  # the fires' policy (fuego.engine.policy)
    fire_kind: Rank = Rank.HENCHMAN  # default for new fires
    max_leap_areas: int = 3  # how far (in areas) a fire looks for a leap
    wind: Wind = Wind.CALM  # for smoke dissipation (003 smoke table)
    breath_rounds: int | None = None  # None: the hero's Resolve (RULES-NOTES default)
    confused_wander: bool = True  # fuego moves a confused hero at random unless the GM does
    max_rounds: int = 60  # a headless run stops here if the fire has not gone out
    modules: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Accept the words a scenario uses ("off", "villain", "calm") as well as the enums.
        self.flashover = FlashoverMode(self.flashover)
        self.knocked_out_death = KnockedOutDeath(self.knocked_out_death)
        self.explosions = ExplosionRule(self.explosions)
        self.burning_oil = BurningOil(self.burning_oil)
        self.round_burn = RoundBurn(self.round_burn)
        self.suffocation_fire = SuffocationFire(self.suffocation_fire)
        self.smoke_clears = SmokeClears(self.smoke_clears)
        self.fire_kind = Rank(self.fire_kind)
        self.wind = Wind(self.wind)

    def module(self, name: str) -> dict[str, Any] | None:
        """The options of an optional module, or None when it is off."""
        return self.modules.get(name)
