"""The script's words and limits: trigger and effect names, the context a ``say:`` text may
use, winds and directions, and the caps the loader enforces (docs/scenario-format.md, "Limits").
"""

from __future__ import annotations

from enum import Enum

#: Passes of one check: events appended by effects are read again, at most this often.
MAX_PASSES = 8
#: Cues in one script, effects in one cue, triggers in one all/any (docs: Limits).
MAX_CUES = 500
MAX_EFFECTS = 50
MAX_TRIGGERS = 50
MAX_SAY_CHARS = 2000
#: An explosion reaches at most this many areas out.
MAX_RADIUS = 10

TRIGGER_NAMES = ("round", "fire-reaches", "fire-in-room", "fire-dice", "hero-enters",
                 "hero-knocked-out", "barrier-opens", "barrier-destroyed", "flashover",
                 "last-fire-out", "all", "any")


class EffectName(str, Enum):
    """An effect of a cue's ``do:``, by its name (``EffectReader.e_<name>`` reads each)."""

    FIRE = "fire"
    SPILL_OIL = "spill-oil"
    EXPLODE = "explode"
    BLAST = "blast"
    BURN = "burn"
    WRECK = "wreck"
    DRIVE = "drive"
    OPEN = "open"
    CLOSE = "close"
    BREAK = "break"
    COLLAPSE = "collapse"
    WIND = "wind"
    WEATHER = "weather"
    NPC = "npc"
    MOVE = "move"
    SAY = "say"


EFFECT_NAMES = tuple(e.value for e in EffectName)
#: An area given as ``"{area}"``: where the trigger happened; a character as ``"{hero}"``: the one
#: the trigger names (both resolved when the cue fires).
AREA_HERE, HERO_HERE = "{area}", "{hero}"
#: Context every cue gives a ``say:`` text.
ALWAYS = frozenset({"round", "cue"})
CONTEXT_KEYS = ("area", "room", "hero", "fd", "barrier", "round", "cue")
WINDS = ("gale", "strong", "moderate", "light", "calm")
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

Path = tuple
