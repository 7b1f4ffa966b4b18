"""Limits on what a scenario file may ask for (listed in docs/scenario-format.md, "Limits").

They keep ``fuego check`` fast and safe on any input: a hostile or broken file gets a clear
error, never a hang, a memory blow-up or a traceback.
"""

from __future__ import annotations

#: Largest scenario file read, in bytes.
MAX_FILE_BYTES = 1024 * 1024
#: YAML nodes after aliases are expanded (stops "billion laughs" alias bombs).
MAX_YAML_NODES = 200_000
#: Nesting depth of YAML mappings and lists.
MAX_YAML_DEPTH = 40
#: Levels in one building.
MAX_LEVELS = 20
#: Columns and rows of one level's plan.
MAX_PLAN_COLUMNS = 200
MAX_PLAN_ROWS = 200
#: Areas in the whole building.
MAX_AREAS = 20_000
#: Elevations run from -MAX_ELEVATION to +MAX_ELEVATION.
MAX_ELEVATION = 50
#: Heroes, starting fires, routes, and areas in one route.
MAX_HEROES = 100
MAX_FIRES = 1000
MAX_ROUTES = 1000
MAX_ROUTE_AREAS = 1000
#: Rounds a headless run may last (rules.max_rounds) and the latest round an action may name.
MAX_ROUNDS = 10_000
#: Longest text of a title, a name, a description or briefing.
MAX_NAME_CHARS = 80
MAX_TEXT_CHARS = 20_000
#: Problems reported per file; the rest are counted.
MAX_PROBLEMS = 200
#: Traits and Knacks run from 0 to this.
MAX_TRAIT = 10
MAX_KNACK = 10
