"""The script's words and limits: trigger and effect names, the context a ``say:`` text may
use, winds and directions, and the caps the loader enforces (docs/scenario-format.md, "Limits").
"""

from __future__ import annotations

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
EFFECT_NAMES = ("fire", "spill-oil", "explode", "blast", "burn", "wreck", "drive", "open",
                "close", "break", "collapse", "wind", "weather", "npc", "move", "say")
#: Context every cue gives a ``say:`` text.
ALWAYS = frozenset({"round", "cue"})
CONTEXT_KEYS = ("area", "room", "hero", "fd", "barrier", "round", "cue")
WINDS = ("gale", "strong", "moderate", "light", "calm")
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

Path = tuple
