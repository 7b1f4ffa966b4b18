"""One level of the players' view drawn as SVG: a pure function of :func:`players_view`'s data.

A battle map for a TV across the room: a dark ground, walls in light lines, fire in orange (hot
fire red) with its Fire Dice written in it and a white triangle on a hot one, smoke as hatching
(thin ``//``, thick ``xx``) over a grey veil, burned-out areas black with a cross. Doors and
windows read by shape as well as colour: closed ones are filled blocks, open ones hollow with
the leaf swung, broken ones dashed with an ``x``. Heroes are round tokens with their initials,
the GM's characters square ones. Areas the heroes cannot see are darker (what is there is not
drawn).

Every element a test looks for carries an ``id`` in the words ``fuego map`` uses:
``area-ground:C4``, ``fire-ground:C4`` (``data-fd``, ``data-hot``), ``smoke-thin-ground:C4``,
``burned-ground:C4``, ``barrier-door-closed-12``, ``link-stairs-3``, ``hero-Isabela-Soldano``,
``room-kitchen``, ``exit-ground:A1``. Names are text: escaped, never markup.
"""

from __future__ import annotations

import math
from typing import Any

from fuego.engine.fire import FireState
from fuego.engine.heroes import Status
from fuego.render.map_style import Drawn, FireMark
from fuego.text import xml as escape
from fuego.world.places import ALWAYS_OPEN, BarrierKind

#: One 10-ft area, in SVG units; the margins hold the column letters and row numbers.
S = 64
PAD = 30

INDOOR = {True: "#3b3631", False: "#211f1c"}  # seen, unseen
OUTDOOR = {True: "#20402c", False: "#142419"}
GRID = "#57514a"
WALL = "#e4dccb"
BROKEN = "#ff6b5b"
UNSEEN = "#8a847a"
DOOR = "#c98a4b"
WINDOW = "#8fd3ff"
EXIT = "#5ee08c"
FIRE = {"regular": "#ff8a1f", "hot": "#ff2d2d", "flame": "#ffd447"}
HERO = "#3d8bfd"
NPC = "#f2c744"
LABEL = "#efe6d2"
CHANGED = "#fff36b"  # what changed this round
AXIS = "#a39c90"


def safe_id(text: str) -> str:
    """An id-friendly form of a name (``Isabela Soldano`` -> ``Isabela-Soldano``)."""
    return "".join(ch if ch.isalnum() or ch in "-_:.@" else "-" for ch in text)


def _attr(**kw: Any) -> str:
    return "".join(f" {k.rstrip('_').replace('_', '-')}=\"{escape(str(v))}\""
                   for k, v in kw.items() if v is not None)


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _defs() -> str:
    """Hatching for smoke and ash: a shape, not only a colour."""
    return (
        "<defs>"
        '<pattern id="p-thin" width="16" height="16" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="16" height="16" fill="#c9c9c9" '
        'fill-opacity="0.16"/><line x1="0" y1="0" x2="0" y2="16" stroke="#e0e0e0" '
        'stroke-width="3" stroke-opacity="0.55"/></pattern>'
        '<pattern id="p-thick" width="14" height="14" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="14" height="14" fill="#b4b4b4" '
        'fill-opacity="0.42"/><line x1="0" y1="0" x2="0" y2="14" stroke="#f2f2f2" '
        'stroke-width="3" stroke-opacity="0.7"/><line x1="0" y1="0" x2="14" y2="0" '
        'stroke="#f2f2f2" stroke-width="3" stroke-opacity="0.7"/></pattern>'
        # a fire break: bare earth stippled (cleared), or stipple alone (thinned to scrub),
        # dots, not lines, so the smoke's hatching over it still reads as smoke
        '<pattern id="p-break-clear" width="12" height="12" patternUnits="userSpaceOnUse">'
        '<rect width="12" height="12" fill="#6b4a2b" fill-opacity="0.75"/>'
        '<circle cx="3" cy="3" r="1.6" fill="#d8b98a"/><circle cx="9" cy="9" r="1.6" '
        'fill="#d8b98a"/></pattern>'
        '<pattern id="p-break-light" width="16" height="16" patternUnits="userSpaceOnUse">'
        '<circle cx="4" cy="4" r="1.6" fill="#d8b98a"/><circle cx="12" cy="12" r="1.6" '
        'fill="#d8b98a"/></pattern>'
        "</defs>"
    )


class _Canvas:
    def __init__(self, level: dict[str, Any]):
        self.c0, self.r0 = level["c0"], level["r0"]
        self.out: list[str] = []

    def x(self, col: float) -> float:
        return PAD + (col - self.c0) * S

    def y(self, row: float) -> float:
        return PAD + (row - self.r0) * S

    def add(self, text: str) -> None:
        self.out.append(text)


def level_svg(level: dict[str, Any]) -> str:
    """The SVG of one level of :func:`fuego.web.view.players_view`'s ``levels``."""
    cv = _Canvas(level)
    width = level["width"] * S + 2 * PAD
    height = level["height"] * S + 2 * PAD
    name = level["name"]
    cv.add(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"'
           f'{_attr(id="level-" + safe_id(name), class_="level-map", role="img")}'
           f' aria-label="{escape("plan of " + name)}">')
    cv.add(_defs())
    _areas(cv, level)
    _axes(cv, level)
    _outline(cv, level)
    for wall in level["walls"]:
        _barrier(cv, wall)
    for link in level["links"]:
        _link(cv, link)
    for fire in level["fires"]:
        _fire(cv, fire)
    for wreck in level.get("wrecks", ()):
        _wreck(cv, wreck)
    _rooms(cv, level)  # over the fires' rims, clear of their numbers (the top of the area)
    _figures(cv, level)
    cv.add("</svg>")
    return "".join(cv.out)


def _areas(cv: _Canvas, level: dict[str, Any]) -> None:
    for a in level["areas"]:
        x, y, seen = cv.x(a["col"]), cv.y(a["row"]), a["seen"]
        fill = (OUTDOOR if a["outdoors"] else INDOOR)[seen]
        cv.add(f'<rect{_attr(id="area-" + safe_id(a["name"]), x=x, y=y, width=S, height=S)}'
               f'{_attr(fill=fill, stroke=GRID, stroke_width=1, class_="seen" if seen else "unseen")}/>')
        if a.get("cleared"):
            klass = a["cleared"]
            cv.add(f'<rect{_attr(id=f"firebreak-{klass}-" + safe_id(a["name"]), x=x, y=y)}'
                   f'{_attr(width=S, height=S, fill=f"url(#p-break-{klass})")}'
                   f'{_attr(class_=f"firebreak firebreak-{klass}")}/>')
        if a["burned"]:
            cv.add(f'<g{_attr(id="burned-" + safe_id(a["name"]), class_="burned")}>'
                   f'<rect{_attr(x=x + 2, y=y + 2, width=S - 4, height=S - 4, fill="#080808")}/>'
                   f'<path d="M{x + 10} {y + 10}L{x + S - 10} {y + S - 10}M{x + S - 10} {y + 10}'
                   f'L{x + 10} {y + S - 10}" stroke="#6d6d6d" stroke-width="3"/></g>')
        if a["smoke"]:
            kind = a["smoke"]
            cv.add(f'<rect{_attr(id=f"smoke-{kind}-" + safe_id(a["name"]), x=x, y=y, width=S)}'
                   f'{_attr(height=S, fill=f"url(#p-{kind})", class_=f"smoke smoke-{kind}")}/>')
        if a["exit"]:
            cv.add(f'<g{_attr(id="exit-" + safe_id(a["name"]), class_="exit")}>'
                   f'<rect{_attr(x=x + 5, y=y + 5, width=S - 10, height=S - 10, fill="none")}'
                   f'{_attr(stroke=EXIT, stroke_width=3, stroke_dasharray="8 5")}/></g>')


def _axes(cv: _Canvas, level: dict[str, Any]) -> None:
    for k, letters in enumerate(level["cols"]):
        cv.add(f'<text{_attr(x=PAD + (k + 0.5) * S, y=PAD - 9, fill=AXIS, font_size=17)}'
               f'{_attr(text_anchor="middle")}>{escape(letters)}</text>')
    for k in range(level["height"]):
        cv.add(f'<text{_attr(x=PAD - 7, y=PAD + (k + 0.5) * S + 6, fill=AXIS, font_size=17)}'
               f'{_attr(text_anchor="end")}>{level["r0"] + k + 1}</text>')


def _outline(cv: _Canvas, level: dict[str, Any]) -> None:
    d = "".join(f"M{_f(cv.x(x0))} {_f(cv.y(y0))}L{_f(cv.x(x1))} {_f(cv.y(y1))}"
                for x0, y0, x1, y1 in level["outline"])
    if d:
        cv.add(f'<path{_attr(d=d, stroke=WALL, stroke_width=6, stroke_linecap="square")}/>')


def _barrier(cv: _Canvas, wall: dict[str, Any]) -> None:
    x0, y0, x1, y1 = wall["edge"]
    px0, py0, px1, py1 = cv.x(x0), cv.y(y0), cv.x(x1), cv.y(y1)
    kind, state = wall["kind"], wall["state"]
    gid = f"barrier-{kind}-{state}-{wall['index']}"
    base = _attr(id=gid, class_=f"barrier {kind} {state}")
    if wall.get("changed"):  # opened or broken this round: a glow behind it
        cv.add(f'<line{_attr(x1=px0, y1=py0, x2=px1, y2=py1, stroke=CHANGED, stroke_width=16)}'
               f'{_attr(stroke_opacity=0.45, stroke_linecap="round", class_="changed-mark")}'
               f'{_attr(data_barrier=wall["index"])}/>')
    if kind in ALWAYS_OPEN:  # an archway between rooms
        cv.add(f'<line{base}{_attr(x1=px0, y1=py0, x2=px1, y2=py1, stroke=AXIS)}'
               f'{_attr(stroke_width=2, stroke_dasharray="2 6")}/>')
        return
    if kind in (BarrierKind.WALL, BarrierKind.FLOOR):
        if state == Drawn.BROKEN:
            cv.add(f'<line{base}{_attr(x1=px0, y1=py0, x2=px1, y2=py1, stroke=BROKEN)}'
                   f'{_attr(stroke_width=4, stroke_dasharray="9 6")}/>')
        else:
            cv.add(f'<line{base}{_attr(x1=px0, y1=py0, x2=px1, y2=py1, stroke=WALL)}'
                   f'{_attr(stroke_width=5, stroke_linecap="square")}/>')
        return
    # a door or window: wall stubs, then the opening in the middle 60 %
    ux, uy = px1 - px0, py1 - py0
    vertical = x0 == x1
    stubs = "".join(f"M{_f(px0 + ux * a)} {_f(py0 + uy * a)}L{_f(px0 + ux * b)} {_f(py0 + uy * b)}"
                    for a, b in ((0, 0.2), (0.8, 1)))
    cv.add(f'<path{_attr(d=stubs, stroke=WALL, stroke_width=5)}/>')
    door = kind == BarrierKind.DOOR
    half = 7 if door else 5
    ax, ay = px0 + ux * 0.2, py0 + uy * 0.2
    w, h = (2 * half, abs(uy) * 0.6) if vertical else (abs(ux) * 0.6, 2 * half)
    rx, ry = (ax - half, ay) if vertical else (ax, ay - half)
    colour = DOOR if door else WINDOW
    if state == Drawn.BROKEN:
        cv.add(f'<g{base}><rect{_attr(x=rx, y=ry, width=w, height=h, fill="none")}'
               f'{_attr(stroke=BROKEN, stroke_width=3, stroke_dasharray="6 4")}/>'
               f'<path d="M{_f(rx)} {_f(ry)}L{_f(rx + w)} {_f(ry + h)}M{_f(rx + w)} {_f(ry)}'
               f'L{_f(rx)} {_f(ry + h)}" stroke="{BROKEN}" stroke-width="3"/></g>')
    elif state == Drawn.CLOSED:
        bar = ""
        if not door:  # the glazing bar of a closed window
            bar = (f'<line{_attr(x1=px0 + ux * 0.2, y1=py0 + uy * 0.2, x2=px0 + ux * 0.8)}'
                   f'{_attr(y2=py0 + uy * 0.8, stroke="#10202c", stroke_width=2)}/>')
        cv.add(f'<g{base}><rect{_attr(x=rx, y=ry, width=w, height=h, fill=colour)}'
               f'{_attr(stroke="#111111", stroke_width=2)}/>{bar}</g>')
    elif state == Drawn.OPEN:
        leaf = S * (0.55 if door else 0.28)
        lx, ly = (ax + leaf, ay) if vertical else (ax, ay + leaf)
        cv.add(f'<g{base}><rect{_attr(x=rx, y=ry, width=w, height=h, fill="none")}'
               f'{_attr(stroke=colour, stroke_width=2)}/>'
               f'<line{_attr(x1=ax, y1=ay, x2=lx, y2=ly, stroke=colour, stroke_width=4)}/></g>')
    else:  # unseen: where it is, not how it stands
        cv.add(f'<rect{base}{_attr(x=rx, y=ry, width=w, height=h, fill="#2b2925")}'
               f'{_attr(stroke=UNSEEN, stroke_width=2, stroke_dasharray="3 3")}/>')


def _link(cv: _Canvas, link: dict[str, Any]) -> None:
    """Stairs, ladders, holes and collapsed floors, on both levels they join."""
    x, y = cv.x(link["col"]), cv.y(link["row"])
    kind, state = link["kind"], link["state"]
    gid = (f"barrier-{kind}-{state}-{link['index']}" if link["up"]
           else f"link-{kind}-{link['index']}")
    base = _attr(id=gid, class_=f"link {kind} {state}")
    parts = []
    if link.get("changed"):  # gave way this round
        parts.append(f'<rect{_attr(x=x + 3, y=y + 3, width=S - 6, height=S - 6, fill="none")}'
                     f'{_attr(stroke=CHANGED, stroke_width=4, class_="changed-mark")}/>')
    if kind == BarrierKind.STAIRS:
        parts.append(f'<rect{_attr(x=x + 10, y=y + 10, width=S - 20, height=S - 20)}'
                     f'{_attr(fill="#5a544b", stroke=LABEL, stroke_width=2)}/>')
        d = "".join(f"M{x + 10} {_f(y + 10 + (S - 20) * k / 5)}H{x + S - 10}" for k in range(1, 5))
        parts.append(f'<path{_attr(d=d, stroke=LABEL, stroke_width=2)}/>')
    elif kind == BarrierKind.LADDER:
        d = (f"M{x + 22} {y + 8}V{y + S - 8}M{x + S - 22} {y + 8}V{y + S - 8}"
             + "".join(f"M{x + 22} {_f(y + 8 + (S - 16) * k / 5)}H{x + S - 22}"
                       for k in range(1, 5)))
        parts.append(f'<path{_attr(d=d, stroke="#d9a066", stroke_width=3)}/>')
    else:  # a hole, a trapdoor, a collapsed floor
        broken = state == Drawn.BROKEN
        parts.append(f'<circle{_attr(cx=x + S / 2, cy=y + S / 2, r=S * 0.3, fill="#050505")}'
                     f'{_attr(stroke=BROKEN if broken else LABEL, stroke_width=3)}'
                     f'{_attr(stroke_dasharray="6 4" if broken else None)}/>')
    if kind == BarrierKind.FLOOR:  # the broken ring says it (and the key): no word to crowd the area
        parts.append("<title>collapsed floor</title>")
    else:
        # "up" along the top of the area, "down" along its bottom: an area with both reads
        ty = y + 9 if link["up"] else y + S - 3
        parts.append(f'<text{_attr(x=x + S / 2, y=ty, fill=LABEL, font_size=12)}'
                     f'{_attr(text_anchor="middle", font_weight="bold", class_="outlined")}>'
                     f'{"up" if link["up"] else "down"}</text>')
    cv.add(f"<g{base}>{''.join(parts)}</g>")


#: Cols either side of a room label's middle that its "flashover" line covers (the word at
#: 11 px, about 60 px wide, on a 64-px area).
_FLASHED_HALF = 0.47
#: A room's name: 14-px letters, about 0.56 of that wide each (DejaVu Sans), 4 px clear of the
#: walls either side.
_NAME_PX, _NAME_EM, _NAME_CLEAR = 14, 0.56, 4
#: The areas nearest a room's middle its name may go in (a street of thousands ablaze is
#: not searched end to end at every frame).
_NAME_TRIES = 64


def name_place(room: dict[str, Any], fires: set[tuple[int, int]],
               busy: set[tuple[int, int]], extra: float = 0,
               faint: frozenset[tuple[int, int]] | set[tuple[int, int]] = frozenset(),
               ) -> tuple[float, int, float, bool]:
    """Where a room's name goes along the top of an area: (its middle in cols, the row, its
    width in px, squeezed). In the room's row through that area and within the room there (a
    name wider than that is squeezed into it), over as few fires' numbers, then stairs' and
    ladders' words (``busy``), then their drawings (``faint``), as can be; then at its own
    width rather than squeezed into the one area; then nearest the room's centre. ``extra``: px
    the line holds after the name. (Along the bottom of an area, ``fires`` are what stands
    there: tokens, wrecks.)"""
    want = len(room["name"]) * _NAME_PX * _NAME_EM + extra
    edge = _NAME_CLEAR / S
    runs = _row_runs(room["cells"])
    best: tuple[tuple[int, int, int, bool, int], tuple[float, int, float, bool]] | None = None
    for n, (c, r) in enumerate(room["cells"][:_NAME_TRIES]):  # (nearest the centre first)
        lo, hi = runs[c, r]
        for one in (False, True):  # along the room's row, or squeezed into this one area
            room_px = ((1 if one else hi - lo + 1) * S) - 2 * _NAME_CLEAR
            if one and want <= room_px:
                break  # (it fits the area as it is: the first try was that)
            px = min(want, room_px)
            half = px / S / 2
            x = c + 0.5 if one else min(max(c + 0.5, lo + edge + half), hi + 1 - edge - half)
            under = _under(x, r, px)
            cost = (sum(u in fires for u in under), sum(u in busy for u in under),
                    sum(u in faint for u in under), one, n)
            if best is None or cost < best[0]:
                best = cost, (x, r, px, want > room_px)
        if best is not None and best[0][:4] == (0, 0, 0, False):
            break  # (clear, at its width: none after it does better)
    assert best is not None  # (a room on a level has an area there)
    return best[1]


def _row_runs(cells: list[list[int]]) -> dict[tuple[int, int], tuple[int, int]]:
    """Each cell's run of the room's cells along its row: (first col, last col)."""
    by_row: dict[int, list[int]] = {}
    for c, r in cells:
        by_row.setdefault(r, []).append(c)
    runs: dict[tuple[int, int], tuple[int, int]] = {}
    for r, cols in by_row.items():
        cols.sort()
        start = 0
        for k in range(1, len(cols) + 1):
            if k == len(cols) or cols[k] != cols[k - 1] + 1:
                for c in cols[start:k]:
                    runs[c, r] = (cols[start], cols[k - 1])
                start = k
    return runs


#: The "flashover" word on a band: 11-px bold letters, about 0.62 of that wide.
_FLASHED_PX = 9 * 11 * 0.62
#: Its space after a name on the same band.
_FLASHED_DX = 6


def _under(col: float, row: int, px: float) -> set[tuple[int, int]]:
    """The areas a line ``px`` wide centred at ``col`` lies over."""
    half = px / S / 2
    return {(k, row) for k in range(math.floor(col - half), math.floor(col + half - 1e-9) + 1)}


def _rooms(cv: _Canvas, level: dict[str, Any]) -> None:
    fires = {(f["col"], f["row"]) for f in level["fires"]}
    figures = {(f["col"], f["row"]) for f in level["figures"]}
    low = figures | {(w["col"], w["row"]) for w in level.get("wrecks", ())}
    # the stairs' and ladders' words: "up" along the top of an area, "down" along its bottom
    # (a collapsed floor's ring has none); their drawings fill the area's middle
    words = {up: {(k["col"], k["row"]) for k in level["links"]
                  if k["up"] == up and k["kind"] != BarrierKind.FLOOR} for up in (True, False)}
    drawn = {(k["col"], k["row"]) for k in level["links"]}
    for room in level["rooms"]:
        col, row, px, squeezed = name_place(room, fires, words[True], faint=drawn)
        if _under(col, row, px) & fires:  # ablaze end to end: on a band along the bottom
            _room_band(cv, room, low, words[False], drawn)
            continue
        x, y = cv.x(col), cv.y(row) + 14
        squeeze = _attr(textLength=_f(px), lengthAdjust="spacingAndGlyphs") if squeezed else ""
        cv.add(f'<text{_attr(id="room-" + safe_id(room["key"]), x=_f(x), y=y)}{squeeze}'
               f'{_attr(fill=EXIT if room["outdoors"] else LABEL)}'
               f'{_attr(font_size=_NAME_PX, text_anchor="middle", class_="room outlined")}'
               f'{_attr(font_style="italic" if room["outdoors"] else None)}>'
               f'{escape(room["name"])}</text>')
        if room["flashed"]:  # a second, short line: the name's line stays as wide as the name
            # under the name, or where a fire's number is there (a room that flashed over is
            # ablaze), along the bottom of the area: never over the number, nor a token
            under = {(c, row) for c in range(math.floor(col - _FLASHED_HALF),
                                             math.floor(col + _FLASHED_HALF) + 1)}
            low_line = bool(under & fires) and not under & figures
            cv.add(f'<text{_attr(x=_f(x), y=cv.y(row) + S - 5 if low_line else y + 13)}'
                   f'{_attr(fill=FIRE["regular"], font_size=11, font_weight="bold")}'
                   f'{_attr(text_anchor="middle", class_="flashed outlined")}>'
                   f"flashover</text>")


def _room_band(cv: _Canvas, room: dict[str, Any], low: set[tuple[int, int]],
               downs: set[tuple[int, int]], drawn: set[tuple[int, int]]) -> None:
    """A room ablaze end to end: its name on a dark band along the bottom of an area, under
    the fire's disc and clear of its number and marks, off tokens where it can be; a room that
    flashed over says so on a band of its own in another area (on the name's, in a room of one
    area). The band, not the fire, is what a player reads there."""
    col, row, px, squeezed = name_place(room, low, downs, faint=drawn)
    taken = _under(col, row, px)
    rest = [c for c in room["cells"] if (c[0], c[1]) not in taken]
    along = room["flashed"] and not rest
    if along:  # (the name and the word share the one band)
        col, row, px, squeezed = name_place(room, low, downs, _FLASHED_DX + _FLASHED_PX, drawn)
    word = (f'<tspan{_attr(dx=_FLASHED_DX if along else None, fill=FIRE["regular"])}'
            f'{_attr(font_size=11, font_weight="bold", font_style="normal", class_="flashed")}>'
            "flashover</tspan>")
    _band(cv, col, row, px, squeezed, _attr(id="room-" + safe_id(room["key"]), class_="room band")
          + _attr(fill=EXIT if room["outdoors"] else LABEL, font_size=_NAME_PX)
          + _attr(font_style="italic" if room["outdoors"] else None),
          escape(room["name"]) + (word if along else ""))
    if room["flashed"] and not along:
        col, row, px, squeezed = name_place({"name": "", "cells": rest}, low | taken, downs,
                                            _FLASHED_PX, drawn)
        _band(cv, col, row, px, squeezed, _attr(class_="room-flashed band"), word)


def _band(cv: _Canvas, col: float, row: int, px: float, squeezed: bool, attrs: str,
          content: str) -> None:
    """A line of ``px`` centred at ``col`` on a dark band along the bottom of an area."""
    x, top = cv.x(col), cv.y(row) + S - 18
    cv.add(f'<rect{_attr(x=_f(x - px / 2 - 3), y=_f(top), width=_f(px + 6), height=16, rx=4)}'
           f'{_attr(fill="#101114", fill_opacity=0.82, class_="room-band")}/>')
    squeeze = _attr(textLength=_f(px), lengthAdjust="spacingAndGlyphs") if squeezed else ""
    cv.add(f'<text{attrs}{_attr(x=_f(x), y=_f(top + 12), text_anchor="middle")}{squeeze}>'
           f'{content}</text>')


def _fire(cv: _Canvas, fire: dict[str, Any]) -> None:
    cx, cy = cv.x(fire["col"]) + S / 2, cv.y(fire["row"]) + S * 0.44
    fd, hot, state = fire["fd"], fire["hot"], fire["state"]
    r = S * (0.2 + 0.022 * fd)
    flame = state == FireState.FLAME
    kind = (FireMark.FLAME if flame else (FireMark.HOT if hot else FireMark.REGULAR)).value
    parts = [f'<circle{_attr(cx=cx, cy=cy, r=_f(r), fill=FIRE[kind] if not flame else "none")}'
             f'{_attr(stroke=FIRE[FireMark.FLAME], stroke_width=3)}/>']
    if fire.get("new"):  # new this round: a bright dashed ring around it
        parts.insert(0, f'<circle{_attr(cx=cx, cy=cy, r=_f(r + 5), fill="none", stroke=CHANGED)}'
                        f'{_attr(stroke_width=3, stroke_dasharray="5 3", class_="new-mark")}/>')
    elif fire.get("grew"):  # grew this round: a bright chevron on its upper left
        tx, ty = cx - r * 0.8, cy - r * 0.8
        chevron = f"M{_f(tx - 8)} {_f(ty + 5)}L{_f(tx)} {_f(ty - 5)}L{_f(tx + 8)} {_f(ty + 5)}"
        parts.append(f'<path{_attr(d=chevron, stroke=CHANGED, stroke_width=4, fill="none")}'
                     f'{_attr(class_="grew-mark")}/>')
    if hot:  # a white triangle: hot reads without colour
        tx, ty = cx + r * 0.75, cy - r * 0.75
        points = f"{_f(tx)},{_f(ty - 11)} {_f(tx + 11)},{_f(ty + 8)} {_f(tx - 11)},{_f(ty + 8)}"
        parts.append(f'<polygon{_attr(points=points)}'
                     f'{_attr(fill="#ffffff", stroke="#7a0000", stroke_width=2, class_="hot-mark")}/>')
    # the number last: over the triangle and the chevron, whose corners reach it
    parts.append(f'<text{_attr(x=cx, y=cy + 11, fill="#ffffff", font_size=31, font_weight="bold")}'
                 f'{_attr(text_anchor="middle", class_="outlined")}>{fd}</text>')
    change = " new" if fire.get("new") else " grew" if fire.get("grew") else ""
    cv.add(f'<g{_attr(id="fire-" + safe_id(fire["area"]), class_=f"fire fire-{kind}{change}")}'
           f'{_attr(data_fd=fd, data_hot="1" if hot else "0", data_area=fire["area"])}>'
           f'<title>{escape(fire["area"])}: {fd} Fire Dice{", hot" if hot else ""}'
           f'{", a Flame, not spreading yet" if flame else ""}'
           f'{{" new": ", new this round", " grew": ", grew this round"}}.get(change, "")}}</title>'
           f'{"".join(parts)}</g>')


def _wreck(cv: _Canvas, wreck: dict[str, Any]) -> None:
    """A burning wreck: a cart's body on two wheels with a flame, low in its area (a fire
    there keeps the middle); its name in words on hover and for a screen reader."""
    x0, y0 = cv.x(wreck["col"]), cv.y(wreck["row"])
    body = (f'<rect{_attr(x=_f(x0 + S * 0.18), y=_f(y0 + S * 0.66), width=_f(S * 0.64))}'
            f'{_attr(height=_f(S * 0.14), rx=3, fill="#8a5a2b", stroke="#ffd447", stroke_width=2)}/>')
    wheels = "".join(f'<circle{_attr(cx=_f(x0 + S * dx), cy=_f(y0 + S * 0.84), r=_f(S * 0.07))}'
                     f'{_attr(fill="#2a1a0e", stroke="#ffd447", stroke_width=2)}/>'
                     for dx in (0.3, 0.7))
    flame = (f'<polygon{_attr(points=_wreck_flame(x0, y0))}'
             f'{_attr(fill="#ff8a1f", stroke="#ffd447", stroke_width=2)}/>')
    cv.add(f'<g{_attr(id="wreck-" + safe_id(wreck["area"]), class_="wreck")}'
           f'{_attr(data_area=wreck["area"])}>'
           f'<title>{escape(wreck["area"])}: a burning {escape(wreck["vehicle"])}</title>'
           f'{body}{wheels}{flame}</g>')


def _wreck_flame(x0: float, y0: float) -> str:
    tip, left, right = (0.5, 0.5), (0.38, 0.67), (0.62, 0.67)
    return " ".join(f"{_f(x0 + S * x)},{_f(y0 + S * y)}" for x, y in (left, tip, right))


def token_spots(n: int, busy: bool) -> list[tuple[float, float, float]]:
    """Where ``n`` tokens go in one area, side by side: (x, y, radius) as fractions of the
    area. The top strip is the room label's; with a fire (``busy``) its number keeps the middle
    and the tokens stand in a row along the bottom. Always inside the area: never on a wall."""
    if busy:
        per_row, r, rows = (3, 0.13, [0.83]) if n <= 3 else (4, 0.1, [0.86])
    elif n <= 3:
        per_row, r, rows = 3, (0.22, 0.2, 0.15)[max(n, 1) - 1], [0.6]
    elif n <= 4:
        per_row, r, rows = 2, 0.15, [0.44, 0.78]
    else:
        per_row, r, rows = 3, 0.12, [0.4, 0.64, 0.88]
    spots: list[tuple[float, float, float]] = []
    for row_y in rows:
        left = min(per_row, n - len(spots))
        if left <= 0:
            break
        step = min(2 * r + 0.04, (1 - 2 * r) / max(left - 1, 1))
        x0 = 0.5 - step * (left - 1) / 2
        spots += [(x0 + k * step, row_y, r) for k in range(left)]
    return spots


def _figures(cv: _Canvas, level: dict[str, Any]) -> None:
    figures = level["figures"]
    busy = {f["area"] for f in level["fires"]} | {w["area"] for w in level.get("wrecks", ())}
    by_area: dict[str, list[dict[str, Any]]] = {}
    for fig in figures:
        by_area.setdefault(fig["area"], []).append(fig)
    for area, here in by_area.items():
        spots = token_spots(len(here), area in busy)
        for fig, (dx, dy, rf) in zip(here, spots, strict=False):
            _token(cv, fig, cv.x(fig["col"]) + dx * S, cv.y(fig["row"]) + dy * S, rf * S)
        if len(here) > len(spots):  # more than fit: the rest as a count (names on hover)
            fig = here[len(spots)]
            x, y = cv.x(fig["col"]) + S - 12, cv.y(fig["row"]) + S * 0.5
            names = ", ".join(f["name"] for f in here[len(spots):])
            cv.add(f'<g class="more"><title>{escape(names)}</title>'
                   f'<text{_attr(x=_f(x), y=_f(y), fill=LABEL, font_size=13, font_weight="bold")}'
                   f'{_attr(text_anchor="middle", class_="outlined")}>'
                   f"+{len(here) - len(spots)}</text></g>")


#: A token's fill and its initials' colour, by status (initials readable on each: dark on light,
#: light on dark).
TOKEN = {
    ("hero", "active"): (HERO, "#ffffff"), ("npc", "active"): (NPC, "#111111"),
    ("hero", "escaped"): ("#1d2b3d", "#ffffff"), ("npc", "escaped"): ("#4a3d12", "#fff3c4"),
    ("hero", "knocked-out"): ("#b9b9b9", "#111111"), ("npc", "knocked-out"): ("#b9b9b9", "#111111"),
    ("hero", "dead"): ("#1a1a1a", "#ffffff"), ("npc", "dead"): ("#1a1a1a", "#ffffff"),
}


def _token(cv: _Canvas, fig: dict[str, Any], x: float, y: float, r: float) -> None:
    status = fig["status"]
    fill, text_fill = TOKEN.get(("npc" if fig["npc"] else "hero", status), (HERO, "#ffffff"))
    dash = "4 3" if status == Status.ESCAPED else None
    width = 3 if r > 10 else 2
    if fig["npc"]:
        shape = (f'<rect{_attr(x=_f(x - r), y=_f(y - r), width=_f(2 * r), height=_f(2 * r))}'
                 f'{_attr(rx=4, fill=fill, stroke="#ffffff", stroke_width=width)}'
                 f'{_attr(stroke_dasharray=dash)}/>')
    else:
        shape = (f'<circle{_attr(cx=_f(x), cy=_f(y), r=_f(r), fill=fill, stroke="#ffffff")}'
                 f'{_attr(stroke_width=width, stroke_dasharray=dash)}/>')
    mark = ""
    if status == Status.DEAD:
        mark = (f'<path d="M{_f(x - r)} {_f(y - r)}L{_f(x + r)} {_f(y + r)}" '
                f'stroke="{BROKEN}" stroke-width="3"/>')
    if fig.get("me"):  # a player's own hero, on their own page: a bright ring
        shape = (f'<circle{_attr(cx=_f(x), cy=_f(y), r=_f(r + 4), fill="none", stroke=CHANGED)}'
                 f'{_attr(stroke_width=3, class_="me-mark")}/>') + shape
    size = r * {1: 1.45, 2: 1.15}.get(len(fig["initials"]), 0.85)  # (3 letters: GAL, GAU)
    cv.add(f'<g{_attr(id="hero-" + safe_id(fig["name"]), class_="figure " + status)}'
           f'{_attr(data_name=fig["name"], data_area=fig["area"])}'
           f'{_attr(data_x=_f(x), data_y=_f(y), data_r=_f(r))}>'
           f'<title>{escape(fig["name"])} ({escape(status)})</title>{shape}'
           f'<text{_attr(x=_f(x), y=_f(y + size * 0.36), fill=text_fill, font_size=_f(size))}'
           f'{_attr(font_weight="bold", text_anchor="middle")}>'
           f'{escape(fig["initials"])}</text>{mark}</g>')
