"""Forecast reports: heat maps of the floor plan and curves over rounds (pure: Figures only).

:func:`plot_forecast` turns a :class:`fuego.forecast.result.ForecastResult` into matplotlib figures:

- a heat map per level: each area shaded (and labelled in %) by the chance it has burned by
  round ``by_round`` (default: the round by which, on average, areas holding half the fuel
  have caught fire: :meth:`~fuego.forecast.result.ForecastResult.half_fuel_round`), over the plan
  drawn by
  :func:`fuego.render.mapdraw.draw_level` (walls, doors, stairs, room names);
- curves over rounds: areas burning (mean with its 95 % interval, median and the 10-90%
  spread between runs), the chance the fire is out, and per hero the mean Dramatic Wounds, the
  chance of being down (knocked out or dead) and of having escaped, with the plan each hero
  followed; every share is shaded with its 95 % Wilson interval (how sure the runs make it).

Every legend sits under its panel, outside the data, and every title and subtitle wraps to
its page: nothing is cut off and no key hides a curve.

``layout="side"`` gives one figure (the forecast in the GM's words under its title, heat maps
on top, curves below: PNG, SVG);
``layout="pages"`` pages of ``paper`` (``letter`` or ``a4``: a PDF): one page per level, the
plans scaled to fit it with their key, then a portrait page of curves under the forecast in
the GM's words (:func:`fuego.render.forecast_words.in_short`). matplotlib is imported
inside the functions only.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from fuego.render.forecast_words import in_short
from fuego.render.map_style import PAPER, PAPER_MARGIN, MapOptions, drawn_levels, level_extent
from fuego.render.mapdraw import (
    draw_level,
    draw_map,
    fit_scale,
    literal_text,
    text_inches,
    wrap_words,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from fuego.forecast.result import ForecastResult

__all__ = ["plot_forecast"]

HEAT_MAX_W = 11.0
#: The largest heat-map square on paper (inches): a report's plan, not a battle map.
HEAT_MOST = 0.9
TITLE_PT, SUB_PT, LEGEND_PT = 13.0, 9.0, 7.0
#: The "In short" lines: under the title of a PNG or SVG, over a PDF report's curves.
SHORT_PT = 8.0
#: Inches: a title line, a subtitle line, a legend row, the room a panel's title takes above
#: its axes and its tick labels and x label below.
TITLE_LINE, SUB_LINE, LEGEND_ROW, PANEL_HEAD, PANEL_FOOT = 0.24, 0.16, 0.16, 0.3, 0.5
COLOURS = ["#2e86c1", "#28b463", "#af7ac5", "#dc7633", "#5d6d7e", "#f4d03f", "#17a589",
           "#cb4335"]


def _heat_options(result: ForecastResult, by_round: int) -> MapOptions:
    p = result.p_burning_by(by_round)
    return MapOptions(heat={i: v for i, v in enumerate(p)}, fuel=False,
                      heat_label=f"chance burned by round {by_round}")


def _area_inches(result: ForecastResult, levels: list[int]) -> float:
    b = result.building
    assert b is not None
    extents = [level_extent(b, lv) for lv in levels]
    cols = sum(c1 - c0 + 1 for c0, c1, _, _ in extents)
    rows = max([r1 - r0 + 1 for _, _, r0, r1 in extents], default=1)
    gaps = 0.75 * max(0, len(levels) - 1)
    s = min(0.9, (HEAT_MAX_W - gaps) / max(1, cols), 7.0 / max(1, rows))
    return max(0.12, s)


@literal_text
def plot_forecast(result: ForecastResult, by_round: int | None = None,
                  layout: str = "side", paper: str = "a4") -> list[Figure]:
    """Figures of a forecast (see the module docstring). Nothing is saved or shown."""
    from matplotlib.figure import Figure

    if result.building is None:
        raise ValueError("the forecast carries no building to draw")
    R = result.rounds
    by = result.half_fuel_round() if by_round is None else max(0, min(R, by_round))
    base = _heat_options(result, by)
    b = result.building
    title = f"Forecast: {result.title or b.title or 'scenario'}"
    sub = (f"{result.runs} runs, up to {R} rounds, seed {result.seed}; "
           f"heat: chance each area has burned by round {by}"
           + _why_round(result, by_round))
    if layout == "pages":
        opts = replace(base, layout="pages", paper=paper, title=title, subtitle=sub)
        figures = draw_map(b, None, replace(opts, area_inches=fit_scale(b, opts, HEAT_MOST)))
        figures.append(_curves_page(result, paper, title))
        return figures

    levels = drawn_levels(b, base)
    s = _area_inches(result, levels)
    opts = replace(base, area_inches=s, legend=False)
    boxes = []
    for lv in levels:
        c0, c1, r0, r1 = level_extent(b, lv)
        boxes.append((lv, (c1 - c0 + 1) * s, (r1 - r0 + 1) * s))
    heat_w = sum(w for _, w, _ in boxes) + 0.75 * max(0, len(boxes) - 1)
    heat_h = max(h for _, _, h in boxes)
    width = max(11.0, heat_w + 1.2)
    title_w = wrap_words(title, width - 0.6, TITLE_PT)
    sub_w = wrap_words(sub, width - 0.6, SUB_PT)
    top = 0.25 + TITLE_LINE * _lines(title_w) + SUB_LINE * _lines(sub_w) + 0.55
    # the forecast in the GM's words, under the subtitle: an image sent round the table says
    # what the terminal's "In short" does
    short = _in_short(result, width - 1.2)
    short_at = top - 0.4
    if short:
        top += _short_height(short)
    colorbar_h = 1.1
    # three panels side by side, each with its key under it
    left, right, gap = 0.7, 0.8, 1.15
    cw = (width - left - right - 2 * gap) / 3
    keys = _keys(result)
    layouts = [_key_layout(entries, cw + 0.6) for entries in keys]
    key_h = max(h for _, h in layouts)
    curves_h = PANEL_HEAD + 2.45 + PANEL_FOOT + key_h
    height = top + heat_h + colorbar_h + curves_h + 0.2
    fig = Figure(figsize=(width, height))
    _header(fig, title_w, sub_w, 0.2)
    if short:
        _short_text(fig, short, 0.6, short_at)
    x = (width - heat_w) / 2
    y = height - top - heat_h
    for lv, w, h in boxes:
        ax = fig.add_axes((x / width, (y + heat_h - h) / height, w / width, h / height))
        draw_level(ax, b, lv, None, opts)
        x += w + 0.75
    _colorbar(fig, width, height, y - colorbar_h, by)
    ax_h = 2.45
    ax_y = 0.2 + key_h + PANEL_FOOT
    axes = [fig.add_axes(((left + k * (cw + gap)) / width, ax_y / height, cw / width,
                          ax_h / height)) for k in range(3)]
    _curves(axes, result)
    for ax, entries, (ncol, _) in zip(axes, keys, layouts):
        _key(fig, ax, entries, ncol, (ax_y - PANEL_FOOT) / height)
    return [fig]


def _lines(text: str) -> int:
    return text.count("\n") + 1


def _in_short(result: ForecastResult, width: float) -> str:
    """The "In short" lines (:func:`in_short`) as a list wrapped to ``width`` inches, each
    line's continuation indented under its first word; empty when there is nothing to say."""
    return "\n".join(wrap_words(line, width - 0.3, SHORT_PT).replace("\n", "\n   ")
                     for line in (f"- {line}" for line in in_short(result.summary())))


def _short_height(short: str) -> float:
    """Inches the wrapped "In short" lines take, with the gap under them."""
    return _lines(short) * SHORT_PT * 1.3 / 72 + 0.15


def _short_text(fig, short: str, left: float, top: float) -> None:
    """The wrapped "In short" lines from ``left`` inches in, ``top`` inches under the top."""
    width, height = fig.get_size_inches()
    fig.text(left / width, 1 - top / height, short, ha="left", va="top", fontsize=SHORT_PT,
             linespacing=1.3, color="#222222", gid="forecast-in-short")


def _header(fig, title: str, sub: str, top: float) -> float:
    """The title and subtitle (already wrapped) from ``top`` inches below the figure's top
    edge; returns the inches below the top where they end."""
    height = fig.get_size_inches()[1]
    fig.text(0.5, 1 - top / height, title, ha="center", va="top", fontsize=TITLE_PT,
             fontweight="bold", linespacing=1.15, gid="forecast-title")
    below = top + TITLE_LINE * _lines(title) + 0.06
    fig.text(0.5, 1 - below / height, sub, ha="center", va="top", fontsize=SUB_PT,
             color="#444444", linespacing=1.25, gid="forecast-subtitle")
    return below + SUB_LINE * _lines(sub)


def _curves_page(result: ForecastResult, paper: str, title: str) -> Figure:
    """The curves on one portrait page of ``paper``: the three panels stacked, each with its
    key under it."""
    from matplotlib.figure import Figure

    width, height = PAPER[paper]
    margin = PAPER_MARGIN
    inner = width - 2 * margin
    R = result.rounds
    sub = (f"{result.runs} runs, up to {R} rounds, seed {result.seed}; shaded: 95% intervals"
           f" (how sure {result.runs} runs make each curve)")
    title_w = wrap_words(title, inner, TITLE_PT)
    sub_w = wrap_words(sub, inner, SUB_PT)
    fig = Figure(figsize=(width, height))
    below = _header(fig, title_w, sub_w, margin) + 0.1
    # the forecast in the GM's words (the terminal's "In short"), over the curves
    short = _in_short(result, inner)
    if short:
        _short_text(fig, short, margin, below)
        below += _short_height(short)
    left, right = margin + 0.55, margin + 0.55
    ax_w = width - left - right
    keys = _keys(result)
    layouts = [_key_layout(entries, inner) for entries in keys]
    fixed = sum(PANEL_HEAD + PANEL_FOOT + h for _, h in layouts)
    ax_h = min(2.6, (height - margin - below - fixed) / 3)
    axes = []
    y = height - below
    placed = []
    for _, key_h in layouts:
        y -= PANEL_HEAD + ax_h
        axes.append(fig.add_axes((left / width, y / height, ax_w / width, ax_h / height)))
        placed.append((y - PANEL_FOOT) / height)
        y -= PANEL_FOOT + key_h
    _curves(axes, result)
    for ax, entries, (ncol, _), at in zip(axes, keys, layouts, placed):
        _key(fig, ax, entries, ncol, at)
    return fig


def _why_round(result: ForecastResult, by_round: int | None) -> str:
    """Why the heat map shows its round, in words true of these runs."""
    if by_round is not None:
        return ""
    if result.half_fuel_reached():
        return " (half the fuel alight on average)"
    return " (the last round: on average the areas alight never held half the fuel)"


def _colorbar(fig, width: float, height: float, y: float, by: int) -> None:
    import matplotlib
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    cax = fig.add_axes(((width / 2 - 2.5) / width, (y + 0.25) / height, 5.0 / width,
                        0.14 / height))
    cmap = matplotlib.colors.LinearSegmentedColormap.from_list(
        "heat", [matplotlib.colormaps["inferno_r"](0.08 + 0.8 * t / 10) for t in range(11)])
    bar = fig.colorbar(ScalarMappable(Normalize(0, 100), cmap), cax=cax, orientation="horizontal")
    bar.set_label(f"% of runs in which the area has burned by round {by}", fontsize=8)
    bar.ax.tick_params(labelsize=7)


# -- the keys: proxies drawn under each panel, so no key hides a curve --------------------------
Entry = tuple[Any, str]


def _keys(result: ForecastResult) -> list[list[Entry]]:
    """The key of each panel (areas burning, fire out, heroes) as (handle, label) pairs."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    fire = [(Patch(facecolor="#f5b041", alpha=0.35, lw=0), "10-90% of runs"),
            (Patch(facecolor="#c0392b", alpha=0.3, lw=0), "mean, 95% interval"),
            (Line2D([], [], color="#c0392b", lw=2), "mean"),
            (Line2D([], [], color="#7b241c", lw=1, ls="--"), "median")]
    out = [(Line2D([], [], color="#1f618d", lw=2), "chance the fire is out"),
           (Patch(facecolor="#1f618d", alpha=0.2, lw=0), "95% interval")]
    heroes: list[Entry] = []
    for k, name in enumerate(result.hero_curves()):
        heroes.append((Line2D([], [], color=COLOURS[k % len(COLOURS)], lw=2),
                       f"{name} ({result.plans.get(name, 'flee')})"))
    if heroes:
        grey = "#555555"
        heroes += [(Line2D([], [], color=grey, lw=2), "mean Dramatic Wounds (left scale)"),
                   (Line2D([], [], color=grey, lw=1, ls="--"),
                    "% down: knocked out or dead (right scale)"),
                   (Line2D([], [], color=grey, lw=1, ls=":"), "% escaped (right scale)"),
                   (Patch(facecolor=grey, alpha=0.15, lw=0), "% down, 95% interval")]
    return [fire, out, heroes]


def _key_layout(entries: list[Entry], width: float) -> tuple[int, float]:
    """(columns, height in inches) of a key of ``entries`` in ``width`` inches at
    :data:`LEGEND_PT` (each label measured as the maps measure words, :func:`text_inches`; the
    handle and gaps 0.75 in)."""
    if not entries:
        return 1, 0.0
    widest = max(text_inches(label, LEGEND_PT) for _, label in entries) + 0.75
    ncol = max(1, min(len(entries), int(width // widest)))
    return ncol, 0.12 + LEGEND_ROW * math.ceil(len(entries) / ncol)


def _key(fig, ax, entries: list[Entry], ncol: int, top: float) -> None:
    """The key of panel ``ax`` under it, centred on it, its top at ``top`` (figure fraction)."""
    if not entries:
        return
    x0, _, w, _ = ax.get_position().bounds
    handles, labels = zip(*entries)
    leg = fig.legend(handles, labels, loc="upper center", ncol=ncol, fontsize=LEGEND_PT,
                     bbox_to_anchor=(x0 + w / 2, top), frameon=False, handlelength=2.6,
                     columnspacing=1.2, borderaxespad=0.0, borderpad=0.2)
    for text in leg.get_texts():  # names are text, never mathtext
        text.set_parse_math(False)
    leg.set_gid(f"key-{ax.get_gid()}")


def _curves(axes, result: ForecastResult) -> None:
    ax_fire, ax_out, ax_heroes = axes
    for ax, gid in zip(axes, ("panel-burning", "panel-fire-out", "panel-heroes")):
        ax.set_gid(gid)
    R = result.rounds
    xs = list(range(R + 1))
    ba = result.burning_areas()
    ax_fire.fill_between(xs, ba["p10"], ba["p90"], color="#f5b041", alpha=0.35, lw=0)
    bands = result.bands()
    ax_fire.fill_between(xs, *zip(*bands["burning_mean"]), color="#c0392b", alpha=0.3, lw=0)
    ax_fire.plot(xs, ba["mean"], color="#c0392b", lw=2, gid="curve-burning-mean")
    ax_fire.plot(xs, ba["p50"], color="#7b241c", lw=1, ls="--")
    ax_fire.set_title("Areas burning", fontsize=10)
    ax_fire.set_xlabel("round", fontsize=8)
    ax_fire.set_ylabel("areas on fire", fontsize=8)

    out = result.p_out_by_round()
    ax_out.step(xs, [100 * p for p in out], where="post", color="#1f618d", lw=2,
                gid="curve-fire-out")
    ax_out.fill_between(xs, *([100 * v for v in side] for side in zip(*bands["fire_out"])),
                        step="post", color="#1f618d", alpha=0.2, lw=0, gid="band-fire-out")
    ax_out.set_ylim(-2, 102)
    ax_out.set_title("Chance the fire is out", fontsize=10)
    ax_out.set_xlabel("round", fontsize=8)
    ax_out.set_ylabel("% of runs", fontsize=8)

    curves = result.hero_curves()
    twin = ax_heroes.twinx()
    for k, (name, c) in enumerate(curves.items()):
        colour = COLOURS[k % len(COLOURS)]
        ax_heroes.plot(xs, c["mean_dramatic_wounds"], color=colour, lw=2,
                       gid=f"curve-hero-{k}")
        twin.plot(xs, [100 * p for p in c["p_down"]], color=colour, lw=1, ls="--",
                  gid=f"curve-hero-down-{k}")
        twin.plot(xs, [100 * p for p in c["p_escaped"]], color=colour, lw=1, ls=":",
                  gid=f"curve-hero-escaped-{k}")
        # light: the 95 % interval of the chance of being down (the share a GM fears)
        twin.fill_between(xs, *([100 * v for v in side]
                                for side in zip(*bands["heroes"][name]["p_down"])),
                          color=colour, alpha=0.12, lw=0)
    top = max([1.0] + [max(c["mean_dramatic_wounds"]) for c in curves.values()])
    # a little below zero, so a hero who never takes a wound still shows a line
    ax_heroes.set_ylim(-0.04 * top, top * 1.1)
    ax_heroes.set_title("Heroes: wounds, % down, % escaped", fontsize=10)
    ax_heroes.set_xlabel("round", fontsize=8)
    ax_heroes.set_ylabel("mean Dramatic Wounds", fontsize=8)
    twin.set_ylabel("% of runs", fontsize=8)
    twin.set_ylim(-3, 103)
    twin.tick_params(labelsize=7)
    if not curves:
        ax_heroes.text(0.5, 0.5, "no heroes in the scene", ha="center", va="center",
                       transform=ax_heroes.transAxes, fontsize=9, color="#666666")
    for ax in axes:
        ax.tick_params(labelsize=7)
        ax.set_xlim(0, max(1, R))
        ax.grid(True, color="#e5e5e5", lw=0.6)
