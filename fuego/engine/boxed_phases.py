"""Phases 1-10 of a round in which every fire is boxed in: the fire as columns of numbers.

In a big fire that has eaten everything around it, every fire's every action is the same: it
grows (``fuego.engine.fire_actions.boxed_in``; ``hungry`` and ``patient`` fires pick nothing else).
Such a round then needs nothing from the fires but their Fire Dice, their action dice and their
ten again. :func:`play` keeps those as numpy arrays for the whole of phases 1-10 and gives
exactly what :func:`fuego.engine.rounds._phases` gives one fire object at a time: the same phase order
(highest sum of unspent dice, then Panache, ties shuffled by the scene's roller in the same
draws), the same grow rolls in the same order, the same events, and the same Fire Dice after.
``tests/test_boxed_phases.py`` plays scenes both ways and compares the logs byte for byte.

It applies (:func:`applies`) only when nothing else can act or change during the phases: no
module, no script, no hero with an action die, a temperament that grows a boxed-in fire, and
every acting fire boxed in (a grow moves no barrier, starts no fire and puts none out, so a
fire boxed in at the start of the phases stays so to their end).
"""

from __future__ import annotations

from functools import partial
from itertools import chain
from typing import TYPE_CHECKING

from fuego.dice.batch import load_numpy
from fuego.dice.roller import MIN_BATCH
from fuego.engine.fire import SPREADING_POOLS, Fire, FireState
from fuego.engine.fire_actions import GROW_KINDS, boxed_in, grow_all, grow_events
from fuego.engine.policy import GROWS_WHEN_BOXED, POLICIES
from fuego.rules.tables import FIRE_STATS, MAX_FIRE_DICE

if TYPE_CHECKING:
    from fuego.engine.scene import Scene

#: (an index for the pool and Panache tables: ten again, then Fire Dice)
_ROW = MAX_FIRE_DICE + 1


def applies(scene: Scene, acting: list[Fire], heroes_act: bool) -> bool:
    """May :func:`play` play this round's phases (``acting``: the fires with action dice)?"""
    if (not acting or heroes_act or scene.modules or scene.script is not None
            or len(scene.fires) < MIN_BATCH
            or POLICIES[scene.settings.temperament] not in GROWS_WHEN_BOXED or not load_numpy()):
        return False
    known, boxed = boxed_in(scene)
    return known.issuperset([f.area for f in acting]) or all(map(boxed, acting))


class _Tables:
    """Per ten again and Fire Dice: the spreading pool, its shape code and the Panache."""

    def __init__(self, np) -> None:
        rows = [(explode, fd) for explode in (False, True) for fd in range(_ROW)]
        pools = [SPREADING_POOLS[explode][fd] for explode, fd in rows]
        self.pools = np.empty(len(rows), object)
        self.pools[:] = pools
        self.codes = np.array([p._code if p is not None else -1 for p in pools], np.int64)
        self.panache = np.array([FIRE_STATS[fd].panache if fd in FIRE_STATS else 0
                                 for fd in range(_ROW)], np.int64)


_tables: _Tables | None = None


def play(scene: Scene, acting: list[Fire], rolled: list[list[int]]) -> None:
    """Phases 1-10 for ``acting`` (all boxed in, :func:`applies`), whose action dice are
    ``rolled`` (sorted, as ``fire.dice``): each spends every die on a grow roll."""
    global _tables
    np = load_numpy()
    if _tables is None:
        _tables = _Tables(np)
    n = len(acting)
    counts = np.fromiter(map(len, rolled), np.int64, n)
    # dice[i, k]: fire i's k-th die, then zeros (no die); at: the next one it will spend
    width = int(counts.max()) + 1
    dice = np.zeros((n, width), np.int64)
    rows = np.arange(n).repeat(counts)
    flat = np.fromiter(chain.from_iterable(rolled), np.int64, len(rows))
    dice[rows, np.arange(len(rows)) - (counts.cumsum() - counts).repeat(counts)] = flat
    left = dice.sum(axis=1)  # the sum of each fire's unspent dice
    at = np.zeros(n, np.int64)
    fd = np.fromiter([f.fd for f in acting], np.int64, n)
    start_fd = fd.copy()
    table = _ROW * np.fromiter([f.state is not FireState.GUTTERING for f in acting], np.int64, n)
    area = np.fromiter([f.area for f in acting], np.int64, n)
    # a phase's queue: arrays of fire indices in the order they joined it
    queues: list[list] = [[] for _ in range(11)]
    for phase in range(1, 11):
        queues[phase].append((dice[:, 0] == phase).nonzero()[0])
    for phase in range(1, 11):
        scene.phase = phase
        parts = [q for q in queues[phase] if len(q)]
        pending = np.concatenate(parts) if len(parts) > 1 else parts[0] if parts else None
        while pending is not None and len(pending):
            ordered = _ordered(np, scene, pending, left, _tables.panache[fd[pending]])
            # each spends its die; one that shows this phase again acts again in it
            spent = at[ordered]
            left[ordered] -= dice[ordered, spent]
            spent += 1
            at[ordered] = spent
            nxt = dice[ordered, spent]
            later = nxt > phase
            if later.any():
                for p in np.bincount(nxt[later], minlength=11)[phase + 1:].nonzero()[0].tolist():
                    p += phase + 1
                    queues[p].append(ordered[nxt == p])
            _grow(np, scene, acting, ordered, fd, table, area)
            pending = ordered[(nxt != 0) & ~later]
    changed = np.flatnonzero(fd != start_fd)
    for i, now in zip(changed.tolist(), fd[changed].tolist()):
        acting[i].fd = now
    for spent_dice in rolled:  # every die is spent
        spent_dice.clear()


def _ordered(np, scene: Scene, pending, left, panache):
    """``fuego.engine.rounds._ordered`` for fire indices: by sum of unspent dice, then Panache, ties
    in the order given and shuffled by the scene's roller, the highest key first."""
    if len(pending) < 2:
        return pending
    key = left[pending] * (int(panache.max()) + 1) + panache
    order = (-key).argsort(kind="stable")  # stable: ties keep the order given
    key = key[order]
    out = pending[order].tolist()
    cuts = [0, *((key[1:] != key[:-1]).nonzero()[0] + 1).tolist(), len(out)]
    shuffle = scene.roller.shuffle
    for a, b in zip(cuts, cuts[1:]):
        if b - a > 1:
            tied = out[a:b]
            shuffle(tied)
            out[a:b] = tied
    return np.fromiter(out, np.int64, len(out))


def _grow(np, scene: Scene, acting: list[Fire], ordered, fd, table, area) -> None:
    """``fuego.engine.fire_actions.grow_all`` for fire indices: each below ten dice rolls to grow."""
    growing = ordered[fd[ordered] < MAX_FIRE_DICE]
    if len(growing) == 1:  # one roll, as grow_all rolls one: on the fire itself
        i = int(growing[0])
        fire = acting[i]
        fire.fd = int(fd[i])
        grow_all(scene, [fire])
        fd[i] = fire.fd
        return
    if not len(growing):
        return
    before = fd[growing]
    pick = table[growing] + before
    pools = _tables.pools[pick].tolist()
    totals = scene.roller.totals(pools, _tables.codes[pick])
    tns = 5 * before
    fd[growing[np.fromiter(totals, np.int64, len(totals)) >= tns]] += 1
    scene.record_all(partial(_grow_events, scene.names(), scene.round, scene.phase,
                             area[growing], pools, tns, totals, before),
                     len(growing), GROW_KINDS)


def _grow_events(names, rnd: int, phase: int, areas, pools, tns, totals, before) -> list:
    """The grow events from :func:`_grow`'s arrays, made when the log is read."""
    return grow_events(names, rnd, phase, areas.tolist(), pools, tns.tolist(), totals,
                       before.tolist())
