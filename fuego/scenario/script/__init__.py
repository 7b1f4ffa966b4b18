"""Scripted set pieces: a scenario's ``script:`` section of cues, triggers and effects.

A script is a list of **cues**. Each cue has a ``when:`` trigger, a list of effects under
``do:``, and fires once (``once: true``, the default) or every time its trigger happens
(``every: true``, or ``once: false``)::

    script:
      - name: the lamp falls
        when: {round: 1}
        do:
          - say: "A lamp crashes to the floor!"
          - fire: {at: ground:B2, fd: 3}
          - spill-oil: {areas: [ground:B2, ground:C2, ground:D2], fuel: 3}

The round scheduler calls :meth:`Script.check` at fixed points (``scene-start``, ``start`` of a
round, ``phase`` after each pass of actors, ``end`` of round). A check reads the events appended
to ``scene.log`` since the last check (the script keeps an index into the log) and evaluates
the cues in file order. A cue that fires emits one ``EventKind.SCRIPT`` event, then its effects
in order; each effect goes through the engine (``Scene.start_fire`` with ``Cause.SCRIPT``,
``structure.break_barrier``, ``injury.debris`` ...) and leaves the engine's own events, or
a ``SCRIPT`` event where the engine has none (spilt oil, a new character); ``say:`` leaves a
``READ_ALOUD`` event. Events the effects append are read by the same check in a further pass
(so one cue can set off another), at most :data:`MAX_PASSES` passes per check.

Triggers (docs/scenario-format.md, "Script"):

- ``round: N``: at the start of round N.
- ``fire-reaches: AREA`` (or a list): a fire starts in that area.
  ``fire-in-room: ROOM`` (or a list): a fire starts anywhere in that room.
- ``fire-dice: {at_least: N, in: ROOM-or-AREA}``: a fire (in that room or area, or anywhere)
  reaches N Fire Dice.
- ``hero-enters: ROOM-or-AREA`` or ``{room|area: ..., hero: NAME}``: a character moves (or
  falls, or is moved) into it.
- ``hero-knocked-out: true`` or ``NAME``: a character is knocked out.
- ``barrier-opens: BARRIER``: a door or window opens, or any barrier is destroyed.
  ``barrier-destroyed: BARRIER``: it is destroyed (burned down, broken, blown open).
- ``flashover: true`` or ``ROOM``: a room flashes over.
- ``last-fire-out: true``: the last fire goes out.
- ``all: [...]``: every one has happened (each is remembered once it happens, until the cue
  fires); ``any: [...]``: one of them happens.

Effects: ``fire``, ``spill-oil``, ``explode``, ``blast`` (blows fires out), ``burn`` (a jet of
burning gas, magical fire, a burning object or burning oil on a hero), ``wreck`` and ``drive``
(the wrecks module's burning vehicles), ``open``/``close``/``break`` (a barrier),
``collapse``, ``wind``, ``weather``, ``npc``, ``move``, ``say``.

A ``say:`` text is formatted with the trigger's context: ``{area}``, ``{room}`` (its name as
the players hear it, ``the Kitchen``), ``{hero}``, ``{fd}``, ``{barrier}`` where the trigger
gives them, and ``{round}``, ``{cue}`` always.

Everything is checked when the scenario is loaded (and so by ``fuego check``): every problem is
reported with its key path (``script[2].when.fire-reaches: no area 'ground:Z9'``) and line.
The script's progress (which cues fired, what ``all:`` remembers, the log index, oil spilt and
characters added) is plain data: :meth:`Script.state` / :meth:`Script.load_state`.

The package: :mod:`~fuego.scenario.script.words` (names and limits),
:mod:`~fuego.scenario.script.triggers`, :mod:`~fuego.scenario.script.effects`,
:mod:`~fuego.scenario.script.cues` (:class:`Script`), and the parser:
:mod:`~fuego.scenario.script.checks`, :mod:`~fuego.scenario.script.parse_triggers`,
:mod:`~fuego.scenario.script.parse_effects` and :mod:`~fuego.scenario.script.parse`
(:func:`parse_script`, :func:`build_script`). Each name is imported from the module that defines it.
"""

from __future__ import annotations
