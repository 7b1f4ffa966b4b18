"""Heroes (and the GM's other characters) in a burning building: sheets, wounds and states.

Wounds follow core 7th Sea (RULES-NOTES, Wounds): damage adds Flesh Wounds; a wound check
``Brawn k Brawn`` against the total Flesh Wounds that fails gives one Dramatic Wound plus one per
full 20 (fleeting exposure) or 10 (clinging fire: clothes, oil, gas, magic) points it failed by, and the
Flesh Wounds return to 0. Heroes and Villains are Crippled at Dramatic Wounds = Resolve and
Knocked Out at twice that; Henchmen are Knocked Out at Resolve. A Knocked Out character still in
the fire dies at its next Dramatic Wound (003, Knocked Out).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from fuego.dice.roller import Pool, trait_check
from fuego.rules.charts import Rank
from fuego.rules.formulas import crippled_at, knocked_out_at


class Status(str, Enum):
    ACTIVE = "active"
    KNOCKED_OUT = "knocked-out"
    DEAD = "dead"
    ESCAPED = "escaped"


#: The Knacks the fire rules use to avoid fire while moving (003), in the order a GM names them.
MOVEMENT_KNACKS = ("leaping", "rolling", "swinging", "sprinting", "climbing")
#: Every Knack the rules read (heroes.py, hero_actions.py, the firefighting module); a scenario
#: may give others, which nothing reads. Listed in docs/scenario-format.md.
RULE_KNACKS = MOVEMENT_KNACKS + ("night-trained", "perception", "firefighting")
TRAITS = ("brawn", "finesse", "wits", "resolve", "panache")


@dataclass(slots=True)
class Hero:
    name: str
    area: int
    brawn: int = 2
    finesse: int = 2
    wits: int = 2
    resolve: int = 2
    panache: int = 2
    knacks: dict[str, int] = field(default_factory=dict)
    rank: Rank = Rank.HERO
    npc: bool = False
    flesh: int = 0
    dramatic: int = 0
    status: Status = Status.ACTIVE
    clothes_fd: int = 0  # Fire Dice of the fire on the hero (clothes, hair, oil); 0: none
    oiled: bool = False  # that fire is burning oil on them (hot; 003 "covered in burning liquid")
    fire_damaged: bool = False  # took fire damage this round (rules.round_burn: any)
    burned_by: set[int] = field(default_factory=set)  # ids of the fires that hurt it this round
    thick_rounds: int = 0  # consecutive rounds in thick smoke
    confused: bool = False
    breath: int = 0  # rounds spent holding breath
    dice: list[int] = field(default_factory=list)
    drama: int = 0  # Drama Dice left to spend (+1 rolled and kept die each)
    known_fires: set[int] = field(default_factory=set)  # areas of hidden fires it has spotted
    fire_resistant: bool = False  # 001: the Fire Resistant special ignores all fire effects

    # -- the sheet --------------------------------------------------------------------------
    def knack(self, name: str) -> int:
        return self.knacks.get(name, 0)

    @property
    def night_trained(self) -> bool:
        return self.knacks.get("night-trained", 0) > 0

    @property
    def crippled_at(self) -> int | None:
        return crippled_at(self.rank, self.resolve)

    @property
    def knocked_out_at(self) -> int:
        return knocked_out_at(self.rank, self.resolve)

    @property
    def crippled(self) -> bool:
        at = self.crippled_at
        return at is not None and self.dramatic >= at

    @property
    def in_play(self) -> bool:
        """Still in the building and able to act."""
        return self.status is Status.ACTIVE

    @property
    def present(self) -> bool:
        """Still in the building (acting or not): the fire can still hurt it."""
        return self.status in (Status.ACTIVE, Status.KNOCKED_OUT)

    def wound_check_pool(self) -> Pool:
        return trait_check(self.brawn)

    def best_movement_knack(self) -> tuple[str, int]:
        best = max(MOVEMENT_KNACKS, key=lambda k: (self.knack(k), -MOVEMENT_KNACKS.index(k)))
        return best, self.knack(best)

    def to_dict(self) -> dict:
        d = {
            "name": self.name, "area": self.area, "flesh": self.flesh, "dramatic": self.dramatic,
            "status": self.status.value, "clothes_fd": self.clothes_fd,
            "thick_rounds": self.thick_rounds, "confused": self.confused, "breath": self.breath,
            "known_fires": sorted(self.known_fires), "fire_damaged": self.fire_damaged,
        }  # fmt: skip
        if self.drama:  # only when a scenario gives any: older snapshots stay the same
            d["drama"] = self.drama
        if self.oiled:
            d["oiled"] = True
        if self.burned_by:
            d["burned_by"] = sorted(self.burned_by)
        return d

    def load_state(self, d: dict) -> None:
        self.area, self.flesh, self.dramatic = d["area"], d["flesh"], d["dramatic"]
        self.status = Status(d["status"])
        self.clothes_fd, self.thick_rounds = d["clothes_fd"], d["thick_rounds"]
        self.confused, self.breath = d["confused"], d["breath"]
        self.known_fires = set(d["known_fires"])
        self.fire_damaged = d["fire_damaged"]
        self.drama = d.get("drama", 0)
        self.oiled = d.get("oiled", False)
        self.burned_by = set(d.get("burned_by", ()))
