"""Forecast reports: heat maps of the floor plan and curves over rounds (pure: Figures only).

:func:`plot_forecast` turns a :class:`fuego.forecast.ForecastResult` into matplotlib figures:

- a heat map per level: each area shaded (and labelled in %) by the chance it has burned by
  round ``by_round`` (default: the round by which, on average, areas holding half the fuel
  have caught fire: :meth:`~fuego.forecast.ForecastResult.half_fuel_round`), over the plan
  drawn by
  :func:`fuego.render.mapdraw.draw_level` (walls, doors, stairs, room names);
- curves over rounds: areas burning (mean with its 95 % interval, median and the 10-90%
  spread between runs), the chance the fire is out, and per hero the mean Dramatic Wounds, the
  chance of being down (knocked out or dead) and of having escaped, with the plan each hero
  followed; every share is shaded with its 95 % Wilson interval (how sure the runs make it).

``layout="side"`` gives one figure (heat maps on top, curves below: PNG, SVG);
``layout="pages"`` one page per level and a page of curves (PDF). matplotlib is imported inside
the functions only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fuego.render.map_style import MapOptions, drawn_levels, level_extent
from fuego.render.mapdraw import draw_level, draw_map, literal_text

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from fuego.forecast import ForecastResult

__all__ = ["plot_forecast"]

CURVES_H = 3.3
HEAT_MAX_W = 11.0


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
                  layout: str = "side") -> list[Figure]:
    """Figures of a forecast (see the module docstring). Nothing is saved or shown."""
    from matplotlib.figure import Figure

    if result.building is None:
        raise ValueError("the forecast carries no building to draw")
    R = result.rounds
    by = result.half_fuel_round() if by_round is None else max(0, min(R, by_round))
    base = _heat_options(result, by)
    b = result.building
    levels = drawn_levels(b, base)
    s = _area_inches(result, levels)
    title = f"Forecast: {result.title or b.title or 'scenario'}"
    sub = (f"{result.runs} runs, up to {R} rounds, seed {result.seed}; "
           f"heat: chance each area has burned by round {by}"
           + _why_round(result, by_round))
    if layout == "pages":
        opts = MapOptions(heat=base.heat, fuel=False, heat_label=base.heat_label,
                          area_inches=s, layout="pages", title=title, subtitle=sub)
        figures = draw_map(b, None, opts)
        fig = Figure(figsize=(11.0, 3 * CURVES_H + 1.0))
        fig.suptitle(title, fontsize=13, fontweight="bold")
        axes = [fig.add_axes((0.08, 0.07 + k * 0.31, 0.84, 0.24)) for k in (2, 1, 0)]
        _curves(axes, result)
        figures.append(fig)
        return figures

    opts = MapOptions(heat=base.heat, fuel=False, heat_label=base.heat_label, area_inches=s,
                      legend=False)
    boxes = []
    for lv in levels:
        c0, c1, r0, r1 = level_extent(b, lv)
        boxes.append((lv, (c1 - c0 + 1) * s, (r1 - r0 + 1) * s))
    heat_w = sum(w for _, w, _ in boxes) + 0.75 * max(0, len(boxes) - 1)
    heat_h = max(h for _, _, h in boxes)
    width = max(11.0, heat_w + 1.2)
    top = 1.35
    colorbar_h = 0.85
    height = top + heat_h + colorbar_h + 0.5 + CURVES_H + 0.3
    fig = Figure(figsize=(width, height))
    fig.text(0.5, 1 - 0.2 / height, title, ha="center", va="top", fontsize=13,
             fontweight="bold", gid="forecast-title")
    fig.text(0.5, 1 - 0.5 / height, sub, ha="center", va="top", fontsize=9, color="#444444")
    x = (width - heat_w) / 2
    y = height - top - heat_h
    for lv, w, h in boxes:
        ax = fig.add_axes((x / width, (y + heat_h - h) / height, w / width, h / height))
        draw_level(ax, b, lv, None, opts)
        x += w + 0.75
    _colorbar(fig, width, height, y - colorbar_h, by)
    curve_y = 0.45
    cw = (width - 0.7 - 0.8 - 2 * 1.15) / 3
    axes = [fig.add_axes(((0.7 + k * (cw + 1.15)) / width, curve_y / height, cw / width,
                          (CURVES_H - 0.55) / height)) for k in range(3)]
    _curves(axes, result)
    return [fig]


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


def _curves(axes, result: ForecastResult) -> None:
    ax_fire, ax_out, ax_heroes = axes
    R = result.rounds
    xs = list(range(R + 1))
    ba = result.burning_areas()
    ax_fire.fill_between(xs, ba["p10"], ba["p90"], color="#f5b041", alpha=0.35, lw=0,
                         label="10-90% of runs")
    bands = result.bands()
    ax_fire.fill_between(xs, *zip(*bands["burning_mean"]), color="#c0392b", alpha=0.3, lw=0,
                         label="mean, 95% interval")
    ax_fire.plot(xs, ba["mean"], color="#c0392b", lw=2, label="mean", gid="curve-burning-mean")
    ax_fire.plot(xs, ba["p50"], color="#7b241c", lw=1, ls="--", label="median")
    ax_fire.set_title("Areas burning", fontsize=10)
    ax_fire.set_xlabel("round", fontsize=8)
    ax_fire.set_ylabel("areas on fire", fontsize=8)
    ax_fire.legend(fontsize=7, loc="upper right")

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
    colours = ["#2e86c1", "#28b463", "#af7ac5", "#dc7633", "#5d6d7e", "#f4d03f", "#17a589",
               "#cb4335"]
    twin = ax_heroes.twinx()
    plans = result.plans
    for k, (name, c) in enumerate(curves.items()):
        colour = colours[k % len(colours)]
        label = f"{name} ({plans.get(name, 'flee')})"
        ax_heroes.plot(xs, c["mean_dramatic_wounds"], color=colour, lw=2, label=label,
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
    ax_heroes.set_title("Heroes: wounds (solid), % down (dashed), % out (dotted)", fontsize=9)
    ax_heroes.set_xlabel("round", fontsize=8)
    ax_heroes.set_ylabel("mean Dramatic Wounds", fontsize=8)
    twin.set_ylabel("% of runs", fontsize=8)
    twin.set_ylim(-3, 103)
    twin.tick_params(labelsize=7)
    if curves:
        leg = ax_heroes.legend(fontsize=6.5, loc="upper left")
        for text in leg.get_texts():
            text.set_parse_math(False)
    else:
        ax_heroes.text(0.5, 0.5, "no heroes in the scene", ha="center", va="center",
                       transform=ax_heroes.transAxes, fontsize=9, color="#666666")
    for ax in axes:
        ax.tick_params(labelsize=7)
        ax.set_xlim(0, max(1, R))
        ax.grid(True, color="#e5e5e5", lw=0.6)
