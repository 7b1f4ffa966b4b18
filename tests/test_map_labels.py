"""Words on a small printed map: none over another, no two leader lines crossing, and a word
with no room anywhere a number at its thing with its words in the legend's numbered notes.

Tested on the placement the map computes (:func:`fuego.render.mapdraw.map_labels`), not on
pixels: the boxes are the placer's own estimates, which are never narrower than the print.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from helpers import make_building, room

from fuego.render.map_style import FEATURE_MARK, MapOptions, feature_marks
from fuego.render.mapdraw import draw_map, map_labels, meet
from fuego.world.places import Feature

ROOT = Path(__file__).resolve().parents[1]
CAMPAIGNS = sorted(p.name for p in (ROOT / "campaigns").glob("*.yaml"))
SCALES = (1.0, 0.5, 0.4, 0.3)


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _scene(name: str, rounds: int = 0):
    from fuego.cli.mapcmd import play_to
    from fuego.scenario.model import load

    return play_to(load(ROOT / "campaigns" / name), 7, rounds)


def _legend_entries(fig) -> list[tuple[str, str]]:
    """The legend's (handle's word, entry's words) for each entry whose handle is a word."""
    from matplotlib.text import Text

    leg = fig.legends[0]
    return [(h.get_text() if isinstance(h, Text) else "", t.get_text())
            for h, t in zip(leg.legend_handles, leg.get_texts())]


def _every_layout(scene):
    """Each level's labels at every scale of SCALES, side by side and on A4 pages:
    (scale, layout, level, labels)."""
    for scale, layout in itertools.product(SCALES, ("side", "pages")):
        options = MapOptions(area_inches=scale, layout=layout,
                             paper="a4" if layout == "pages" else None)
        for lv, labels in map_labels(scene.building, scene, options).items():
            yield scale, layout, lv, labels


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_no_word_is_drawn_over_another_and_no_two_leaders_cross(name):
    """Every campaign at 1, 0.5, 0.4 and 0.3 in per square, side by side (a PNG) and on A4
    pages (a PDF), as the scene starts: no two words' boxes overlap, no two leader lines
    cross, every word inside its level's plan. (At 0.4 the ship's powder words used to go
    over the magazine's name; at 0.3 the tavern's guest rooms' names over each other and the
    village's leaders across each other.)"""
    scene = _scene(name)
    b = scene.building
    for scale, layout, lv, labels in _every_layout(scene):
        where = (scale, layout, b.levels[lv].name)
        for one, other in itertools.combinations(labels.words, 2):
            assert not _overlap(one.box, other.box), (where, one.text, other.text)
            if one.leader and other.leader:
                assert not meet(one.leader, other.leader), (where, one.text, other.text)
        cols = [a.col for a in b.areas if a.level == lv]
        rows = [a.row for a in b.areas if a.level == lv]
        for word in labels.words:
            x0, y0, x1, y1 = word.box
            assert min(cols) <= x0 and x1 <= max(cols) + 1 + 1e-9, (where, word.text)
            assert min(rows) <= y0 and y1 <= max(rows) + 1 + 1e-9, (where, word.text)


@pytest.mark.slow
@pytest.mark.parametrize("name", CAMPAIGNS)
def test_no_word_over_another_after_six_crowded_rounds(name):
    """The same after six rounds (fires, heroes moved, oil spilt), where the map is busiest."""
    scene = _scene(name, 6)
    for scale in SCALES:
        for lv, labels in map_labels(scene.building, scene,
                                     MapOptions(area_inches=scale)).items():
            for one, other in itertools.combinations(labels.words, 2):
                assert not _overlap(one.box, other.box), (scale, lv, one.text, other.text)
                if one.leader and other.leader:
                    assert not meet(one.leader, other.leader), (scale, lv, one.text,
                                                                other.text)


def _groups(b, lv):
    """The feature words a level's plan marks, by (room, word): the areas that hold it."""
    out: dict[tuple[str, str], list] = {}
    for a in b.areas:
        if a.level == lv:
            for key in feature_marks(a):
                out.setdefault((a.room, FEATURE_MARK[key][0]), []).append(a)
    return out


def _feature_words(labels, word: str, areas) -> list:
    """The placed words standing for ``word`` in ``areas``: the word, or its note's number."""
    names = {a.name for a in areas}
    found = ((w, re.fullmatch(rf"(note-\d+-)?feature-{word}-(.+)", w.gid))
             for w in labels.words)
    return [w for w, hit in found if hit and hit[2] in names]


def _at(word) -> tuple[float, float]:
    """Where a word points: its leader's dot, else its middle."""
    if word.leader:
        return word.leader[2], word.leader[3]
    x0, y0, x1, y1 = word.box
    return (x0 + x1) / 2, (y0 + y1) / 2


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_a_feature_in_many_areas_of_a_room_is_written_once_for_the_room(name):
    """Every campaign at 1, 0.5, 0.4 and 0.3 in per square, side by side and on A4 pages:
    each feature's word (or its number) once a room, over the room's areas that hold it or
    led to one of them. (The ship's magazine, a keg in each of its seven areas, had
    ``powder`` in some areas and a note's ``1`` in others; the tavern's vault ``oil`` eight
    times.)"""
    scene = _scene(name)
    b = scene.building
    for scale, layout, lv, labels in _every_layout(scene):
        for (key, word), areas in _groups(b, lv).items():
            placed = _feature_words(labels, word, areas)
            assert len(placed) == 1, (scale, layout, key, word, [w.gid for w in placed])
            x, y = _at(placed[0])
            spot = b.at(lv, int(x), int(y))
            assert spot is not None and b.areas[spot] in areas, (scale, key, word, x, y)


def test_the_magazine_says_powder_once_and_the_legend_keeps_its_mark():
    """The ship at 1, 0.5 and 0.4: one ``powder`` in the powder magazine, no numbered note
    for it, and the legend's ``powder  gunpowder`` as before."""
    scene = _scene("ship.yaml")
    b = scene.building
    hold = b.level_named("hold").index
    for scale in (1.0, 0.5, 0.4):
        options = MapOptions(area_inches=scale)
        labels = map_labels(b, scene, options)[hold]
        powder = [w for w in labels.words if "feature-powder-" in w.gid]
        assert [w.text for w in powder] == ["powder"], scale
        assert not labels.notes, scale
        assert ("powder", "gunpowder") in _legend_entries(draw_map(b, scene, options)[0])


def test_the_same_feature_in_two_rooms_is_a_word_in_each():
    """Oil in both areas of a store and in both of a shed beside it: one ``oil`` each, in its
    own room; a lone keg of powder keeps its word in its area."""
    b = make_building(["ssbb", "hhhh"],
                      {"s": room("store", "Store", fuel=2), "b": room("shed", "Shed", fuel=2),
                       "h": room("hall", "Hall", fuel=2)},
                      features={"ground:A1": {Feature.OIL}, "ground:B1": {Feature.OIL},
                                "ground:C1": {Feature.OIL}, "ground:D1": {Feature.OIL},
                                "ground:B2": {Feature.GUNPOWDER}})
    for scale in (1.0, 0.5):
        labels = map_labels(b, None, MapOptions(area_inches=scale))[0]
        oil = {w.gid for w in labels.words if w.text == "oil"}
        assert oil == {"feature-oil-ground:A1", "feature-oil-ground:C1"}, scale
        for w in labels.words:
            if w.text == "oil":
                spot = b.at(0, *map(int, _at(w)))
                assert spot is not None
                assert b.areas[spot].room == ("store" if w.gid.endswith("A1") else "shed")
        assert [w.gid for w in labels.words if w.text == "powder"] == ["feature-powder-ground:B2"]


@pytest.mark.slow
def test_a_word_with_no_room_is_a_number_at_its_thing_and_a_note_in_the_legend():
    """The tavern after six rounds at 0.3 in a square, its ground floor ablaze: the bar's
    ``oil`` has no free spot in or beside it: it is a number there, and the legend's note
    says what the number is (such a word used to be drawn over the room's name). At the
    start, The Anchor's name is a number over the Anchor's own areas, its name in the
    legend."""
    scene = _scene("tavern.yaml", 6)
    b = scene.building
    options = MapOptions(area_inches=0.3)
    ground = b.level_named("ground").index
    labels = map_labels(b, scene, options)[ground]
    numbers = [w for w in labels.words if re.fullmatch(r"note-\d+-feature-.+", w.gid)]
    assert numbers
    fig = draw_map(b, scene, options)[0]
    drawn = {t.get_gid() for ax in fig.axes for t in ax.texts}
    for w in numbers:
        hit = re.fullmatch(r"note-(\d+)-feature-(\w+)-(.+)", w.gid)
        assert hit is not None
        n, word, name = hit.groups()
        assert w.text == n and (int(n), word) in labels.notes
        assert (n, word) in _legend_entries(fig)
        assert w.gid in drawn
        x, y = _at(w)  # at an area of its room that holds it, or led to one
        room_ = b.area(name).room
        assert b.areas[b.at(ground, int(x), int(y))].room == room_

    scene = _scene("tavern.yaml")
    b = scene.building
    upper = b.level_named("upper").index
    labels = map_labels(b, scene, options)[upper]
    anchor = b.rooms["anchor"].name
    number, = (n for n, words in labels.notes if words == anchor)
    word, = (w for w in labels.words if w.gid == f"note-{number}-room-anchor")
    assert word.text == str(number)
    assert b.areas[b.at(upper, int(word.x), int(word.y))].room == "anchor"
    assert (str(number), anchor) in _legend_entries(draw_map(b, scene, options)[0])


def test_the_same_words_share_one_number_and_notes_number_on_across_levels():
    """Two closets with long names and no room round them, on two levels: a number each,
    1 and 2, in the one legend of the map; at a scale with room, no notes at all."""
    long = "Wardrobe of the Lady Abbess Ines de Castillo"
    b = make_building(plans={"ground": (0, ["ab"]), "upper": (1, ["cd"])},
                      rooms={"a": room("a", long, fuel=2), "b": room("b", "Box", fuel=2),
                             "c": room("c", long + " the Younger", fuel=2),
                             "d": room("d", "Bin", fuel=2)})
    labels = map_labels(b, None, MapOptions(area_inches=0.5))
    assert labels[0].notes == [(1, long)] and labels[1].notes == [(2, long + " the Younger")]
    fig, = draw_map(b, None, MapOptions(area_inches=0.5))
    # (a name too long for the legend's column wraps there)
    entries = [(n, words.replace("\n", " ")) for n, words in _legend_entries(fig)]
    assert ("1", long) in entries and ("2", long + " the Younger") in entries
    assert not any(n.notes for n in map_labels(b, None, MapOptions(area_inches=4.0)).values())


def test_with_no_legend_a_name_with_no_room_is_still_drawn():
    """No legend (``--no-legend``, a VTT picture) has no notes to hold a number's words: the
    name is drawn as before, at the smallest size, rather than lost."""
    long = "Wardrobe of the Lady Abbess Ines de Castillo"
    b = make_building(plans={"ground": (0, ["ab"])},
                      rooms={"a": room("a", long, fuel=2), "b": room("b", "Box", fuel=2)})
    labels = map_labels(b, None, MapOptions(area_inches=0.5, legend=False))
    assert not labels[0].notes
    assert "Wardrobe" in next(w.text for w in labels[0].words if w.gid == "room-a")
