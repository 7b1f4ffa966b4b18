"""``fuego new NAME``: write ``NAME.yaml``, a commented scenario for a GM to fill in.

The template is a complete, small scenario (a cottage with a yard, one hero, one fire and a
short script) that passes ``fuego check`` as written, with a comment on every section saying
what to change. It never overwrites a file: an existing ``NAME.yaml`` is an error.
"""

from __future__ import annotations

import json
import os
import re

import click

from fuego.errors import FuegoError
from fuego.files import Output

#: A scenario name: a file name without folders, spaces or a leading dot or dash.
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,59}$")

TEMPLATE = """\
# {file}: a fuego scenario (the format: docs/scenario-format.md).
# Every section below works as written: change it into your own burning building.
#   fuego check {file}            check it (every problem, with its line)
#   fuego show {file}             draw the floor plan in the terminal
#   fuego run {file} --seed 1     play it headless; fuego play {file} at the table
format: 1
title: {title}
description: |
  What the players see: the place, the hour, the weather. (Fill in.)
briefing: |
  GM BRIEFING. How the fire started, who is where, the ways out, and what the script at the
  bottom of this file does. (Fill in.)

# Your own fuel names, as Resolve 0-9 (003: 1 a piece of paper, 3 a small stack of paper,
# 5 a 5-ft stack of beams, 7 a cottage's log pile, 9 a 10-ft stack of beams). Built in:
# none, paper, paper-stack, beams-small, log-pile, beams.
fuels:
  furniture: 4

# Defaults for walls, doors, windows and floors where nothing else is said.
defaults:
  wall: wooden-wall
  door: wooden-door
  window: glass-window
  floor: wooden-floor

# Rooms by key. outdoors: true for streets and yards; features: [exit] marks the way out
# (without any exit, every outdoor area is one).
rooms:
  kitchen: {{name: Kitchen, fuel: paper-stack, description: "The hearth and the woodpile."}}
  parlour: {{name: Parlour, fuel: furniture}}
  loft: {{name: Loft, fuel: log-pile, description: "Hay and old furniture under the thatch."}}
  yard: {{name: Yard, outdoors: true, fuel: none, features: [exit]}}

# One character per 10-ft area in the plans below; '#' and space are no area.
legend:
  k: kitchen
  p: parlour
  l: loft
  y: yard

# Levels from the lowest up. Columns are letters (A, B, ...), rows numbers from 1: the area
# in column C, row 2 of level ground is ground:C2.
levels:
  - name: ground
    elevation: 0
    plan: |
      kkpppy
      kkpppy
      kkpppy
  - name: loft
    elevation: 1
    plan: |
      lllll#
      lllll#
      lllll#

# Special areas: more or less fuel, features (oil, gunpowder, wooden-beam, exit ...).
areas:
  ground:A1: {{fuel: log-pile}}            # the woodpile by the hearth

# Doors and windows between rooms (between: [room, room]) or on one edge (at: A-B).
doors:
  - {{at: ground:B2-ground:C2, closed: false, name: kitchen door}}
  - {{at: ground:E2-ground:F2, name: front door}}
windows:
  - {{at: ground:E1-ground:F1}}

# Stairs, ladders and holes between levels (else the floor of the upper level).
links:
  - {{kind: ladder, at: ground:C1-loft:C1}}

# Runs of fuel a fire follows without a roll: carpet, curtains, hangings, oil, fuse.
routes:
  - {{kind: curtains, areas: [ground:D1, ground:E1], name: parlour curtains}}

heroes:
  - name: Hero One
    description: Who they are and why they are here. (Fill in.)
    traits: {{brawn: 2, finesse: 3, wits: 2, resolve: 2, panache: 3}}
    knacks: {{sprinting: 2, leaping: 1, firefighting: 1}}
    start: ground:D2
    plan: fight                           # when nobody decides: flee (default), fight (stays to
                                          # fight the fire), hold, rescue:NPC

fires:
  - {{area: ground:A2, fd: 2}}             # the fire in the hearth got out

weather:
  wind: calm                              # gale, strong, moderate, light or calm

rules:
  flashover: all-burning                  # or all-lit, dice, or off
  max_rounds: 30

# Scripted set pieces (docs/scenario-format.md, "Script"): each cue has a trigger (when:) and
# effects (do:), once by default (every: true repeats it).
{words}
script:
  - name: smoke in the parlour
    when: {{round: 1}}
    do:
      - say: "Smoke curls under the kitchen door. Something in the hearth has caught."
  - name: the loft catches
    when: {{fire-in-room: loft}}
    do:
      - say: "The hay in the loft goes up with a roar ({{fd}} dice at {{area}})!"
  # - name: the lamp
  #   when: {{hero-enters: parlour}}
  #   do:
  #     - spill-oil: {{areas: [ground:C2, ground:D2], fuel: 3}}
  #     - say: "{{hero}} knocks over the lamp!"
"""


def template(name: str, title: str | None = None) -> str:
    """The scenario text ``fuego new`` writes for ``name``."""
    title = title or " ".join(w.capitalize() for w in re.split(r"[-_]+", name) if w) or name
    return TEMPLATE.format(file=f"{name}.yaml", title=json.dumps(title[:80]), words=_words())


def _words() -> str:
    """The script's triggers and effects, as the loader reads them, in comment lines."""
    import textwrap

    from fuego.scenario.script.words import EFFECT_NAMES, TRIGGER_NAMES

    text = f"Triggers: {', '.join(TRIGGER_NAMES)}. Effects: {', '.join(EFFECT_NAMES)}."
    return "\n".join(textwrap.wrap(text, 94, initial_indent="# ", subsequent_indent="# ",
                                   break_on_hyphens=False))


def file_name(name: str) -> str:
    """``NAME`` (or ``NAME.yaml``) -> ``NAME.yaml``; a FuegoError for anything else."""
    stem = name[:-5] if name.lower().endswith(".yaml") else name
    if not NAME_RE.match(stem):
        raise FuegoError(f"not a scenario name: {name!r}",
                         tip="use letters, digits, - and _ (up to 60), starting with a letter "
                             "or digit; no folders or spaces, e.g. 'fuego new old-mill'")
    return stem + ".yaml"


@click.command("new")
@click.argument("name")
@click.option("--title", default=None, help="The scenario's title (default: from NAME).")
def new(name: str, title: str | None) -> None:
    """Write NAME.yaml here: a commented scenario to fill in (passes `fuego check` as is)."""
    path = file_name(name)
    if title is not None and (not title.strip() or len(title) > 80 or not title.isprintable()):
        raise FuegoError(f"not a title: {title!r}", tip="1-80 printable characters")
    text = template(path[:-5], title)
    if os.path.lexists(path):
        raise FuegoError(f"{path} already exists; fuego new never overwrites a file",
                         tip="pick another name or move the file away")
    Output(path, what="scenario").check().write(text)
    click.echo(f"wrote {os.path.join('.', path)}: fill it in, then `fuego check {path}`")
