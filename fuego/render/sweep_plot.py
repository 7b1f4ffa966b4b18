"""A what-if sweep drawn as the terminal's "side by side" table (pure: Figures only).

:func:`plot_sweep` turns a :class:`fuego.forecast.sweep.SweepResult` into figures: a panel
per column of the table (the fire burning at the last round, then each hero down:
knocked out or killed), a row per variant, each share a dot on its 95 % Wilson interval. The
scenario as written is the shaded band down every panel, so a variant reads against it at a
glance; a variant whose difference from it is one the runs can tell (the interval of the
difference leaves out 0, the terminal's ``*``) is coloured, orange where the share is higher,
blue where lower, and marked ``*``. The variants' names are drawn as written.

The panels go at most four to a row, so a PDF page of either paper holds a sweep of many
heroes; ``paper`` sets the PDF's pages, as many as its variants take, each led by the scenario
as written (None: one figure as big as its rows need, for PNG and SVG).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fuego.forecast.sweep import told_apart
from fuego.render.map_style import PAPER, PAPER_MARGIN
from fuego.render.mapdraw import literal_text, wrap_words
from fuego.stats import wilson

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from fuego.forecast.sweep import SweepResult

__all__ = ["plot_sweep"]

TITLE_PT, SUB_PT, LABEL_PT = 13.0, 9.0, 8.0
#: Inches: a variant's row, a panel's title above and its axis below, the label column.
ROW, HEAD, FOOT, LABELS = 0.26, 0.35, 0.55, 2.6
PANELS_A_ROW = 4
#: Inches a panel is wide on a figure of its own size (PNG, SVG), at least on paper, and
#: between two panels.
PANEL_W, PANEL_MIN, GAP = 2.1, 1.6, 0.35
#: Most characters of a variant's name on its row (the rest is "...").
NAME_CHARS = 40
WRITTEN, HIGHER, LOWER, SAME = "#444444", "#dc7633", "#2e86c1", "#888888"


def _measures(result: SweepResult) -> list[tuple[str, str]]:
    """The table's columns: (share key, panel title)."""
    heroes = result.results[0].counts.heroes
    return ([("fire_still_burning", f"fire burning at round {result.rounds}")]
            + [(f"{name}: p_down", f"{name} down") for name in heroes])


def _label(v: int, name: str) -> str:
    text = f"{v}. {name}"
    return text if len(text) <= NAME_CHARS else text[:NAME_CHARS - 1] + "…"


@literal_text
def plot_sweep(result: SweepResult, paper: str | None = None) -> list[Figure]:
    """The sweep's figures (see the module docstring): one as big as its rows need, or on
    ``paper`` as many pages as its variants take, each page's rows led by the scenario as
    written. Nothing is saved or shown."""
    measures = _measures(result)
    n = len(result.variants)
    margin = PAPER_MARGIN if paper else 0.3
    most = PANELS_A_ROW
    if paper is not None:  # (as many as the sheet holds at PANEL_MIN each)
        width = PAPER[paper][0]
        most = max(1, min(most, int((width - 2 * margin - LABELS + GAP) // (PANEL_MIN + GAP))))
    panel_rows = -(-len(measures) // most)
    per_row = -(-len(measures) // panel_rows)  # (five panels: three and two, not four and one)
    if paper is None:
        width = 2 * margin + LABELS + per_row * PANEL_W + (per_row - 1) * GAP
    title = f"What-if sweep: {result.results[0].title or 'scenario'}"
    interrupted = ("; interrupted (Ctrl-C): the runs finished" if result.asked is not None
                   else "")
    sub = (f"{result.runs} runs each of up to {result.rounds} rounds, seed {result.seed}, the "
           f"same run seeds in every variant{interrupted}. Dots: the share of runs; bars: its "
           "95% interval; shaded: the scenario as written; * and colour: a difference these "
           "runs can tell (orange higher, blue lower). Down: knocked out or killed.")
    title_w = wrap_words(title, width - 2 * margin, TITLE_PT)
    sub_w = wrap_words(sub, width - 2 * margin, SUB_PT)
    top = margin + 0.24 * (title_w.count("\n") + 1) + 0.16 * (sub_w.count("\n") + 1) + 0.25
    pages = [list(range(n))]
    if paper is not None:  # (the rows a page holds, the scenario as written first on each)
        room = PAPER[paper][1] - top - margin - panel_rows * (HEAD + 0.2 + FOOT)
        fit = max(2, int(room // (panel_rows * ROW)))
        pages = [[0, *range(v, min(n, v + fit - 1))] for v in range(1, max(n, 2), fit - 1)]
    layout = _Layout(margin, width, top, per_row, panel_rows, title_w, sub_w, paper)
    return [_page(result, measures, rows, layout) for rows in pages]


@dataclass
class _Layout:
    """What every page of a sweep shares: its margins, width, the inches its title takes, the
    panels a row, their rows, the wrapped title and subtitle, the paper."""

    margin: float
    width: float
    top: float
    per_row: int
    panel_rows: int
    title: str
    sub: str
    paper: str | None


def _page(result: SweepResult, measures: list[tuple[str, str]], rows: list[int],
          lay: _Layout) -> Figure:
    """One figure: the panels, each with the variants ``rows``, top to bottom."""
    from matplotlib.figure import Figure

    margin, width, top = lay.margin, lay.width, lay.top
    panel_h = len(rows) * ROW + 0.2
    need = top + lay.panel_rows * (HEAD + panel_h + FOOT) + margin
    height = need if lay.paper is None else PAPER[lay.paper][1]
    fig = Figure(figsize=(width, height))
    fig.text(0.5, 1 - margin / height, lay.title, ha="center", va="top", fontsize=TITLE_PT,
             fontweight="bold", linespacing=1.15, gid="sweep-title")
    fig.text(0.5, 1 - (margin + 0.24 * (lay.title.count("\n") + 1) + 0.06) / height, lay.sub,
             ha="center", va="top", fontsize=SUB_PT, color="#444444", linespacing=1.25,
             gid="sweep-subtitle")
    left = margin + LABELS
    panel_w = (width - left - margin - GAP * (lay.per_row - 1)) / lay.per_row
    shares = [result.shares(v) for v in rows]
    differences: list[dict[str, Any]] = [result.difference(v) if v else {} for v in rows]
    labels = [_label(v, result.variants[v].name) for v in rows]
    for k, (key, what) in enumerate(measures):
        row, col = divmod(k, lay.per_row)
        y = height - top - row * (HEAD + panel_h + FOOT) - HEAD - panel_h
        ax = fig.add_axes(((left + col * (panel_w + GAP)) / width, y / height,
                           panel_w / width, panel_h / height))
        ax.set_gid(f"sweep-panel-{k}")
        ax.set_title(wrap_words(what, panel_w, LABEL_PT + 1), fontsize=LABEL_PT + 1,
                     linespacing=1.1)
        _panel(ax, [s[key] for s in shares], [d.get(key) for d in differences],
               labels if col == 0 else None)
    return fig


def _panel(ax, counts: list[tuple[int, int]], diffs: list[Any], labels: list[str] | None) -> None:
    """One column of the table: each variant's share on its interval, top to bottom."""
    n = len(counts)
    k0, n0 = counts[0]
    if n0:
        lo, hi = wilson(k0, n0)
        ax.axvspan(100 * lo, 100 * hi, color=WRITTEN, alpha=0.12, lw=0)
    for v, ((k, runs), diff) in enumerate(zip(counts, diffs)):
        if not runs:
            continue
        lo, hi = wilson(k, runs)
        told = diff is not None and told_apart(diff)
        colour = WRITTEN if v == 0 else (HIGHER if told and diff[0] > 0 else
                                         LOWER if told else SAME)
        ax.plot([100 * lo, 100 * hi], [v, v], color=colour, lw=2, solid_capstyle="butt",
                gid=f"sweep-bar-{v}")
        ax.plot([100 * k / runs], [v], "o", color=colour, ms=5)
        if told:  # (beside the bar: right of it, or left where it reaches the edge)
            right = hi < 0.9
            ax.text(100 * hi + 2 if right else 100 * lo - 2, v, "*", va="center",
                    ha="left" if right else "right", color=colour, fontsize=LABEL_PT + 2,
                    fontweight="bold")
    ax.set_xlim(-3, 103)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xticks([0, 25, 50, 75, 100], ["0%", "25%", "50%", "75%", "100%"],
                  fontsize=LABEL_PT - 1)
    ax.set_yticks(range(n), labels if labels is not None else [""] * n, fontsize=LABEL_PT)
    ax.grid(axis="x", color="#dddddd", lw=0.6)
    ax.set_axisbelow(True)
