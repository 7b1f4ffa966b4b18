"""The players' view (fuego.web.view): what the players' screen may show, checked against the
session's own state as the tavern is played at the table; its SVG (fuego.web.svg)."""

from __future__ import annotations

import contextlib
import copy
import json
import math
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuego.engine.events import Event, EventKind
from fuego.engine.hero_actions import hidden_fires
from fuego.engine.sight import hero_sight, players_sight
from fuego.table import session as sessions
from fuego.table.gm import revealed
from fuego.table.replay import Player, QuestionKind, Quit
from fuego.web.feed import page_state, replay
from fuego.web.svg import level_svg
from fuego.web.view import (
    PlayersNarration,
    in_sight,
    known_fires,
    observers,
    players_view,
    ruin,
)

ROOT = Path(__file__).resolve().parent.parent
TAVERN = ROOT / "campaigns" / "tavern.yaml"


def tavern_session(seed: int = 24) -> sessions.Session:
    return sessions.new(str(TAVERN), seed)


class Watcher:
    """A table that answers Enter to everything, except that Gaston spots the kitchen fire
    (his player rolls 40); it keeps the players' view at every question."""

    def __init__(self, rounds: int = 2):
        self.rounds = rounds
        self.views: list[tuple[str, dict, object]] = []  # (question, view, scene)
        self.narration: PlayersNarration | None = None

    def attach(self, scene, player) -> None:
        self.narration = PlayersNarration(scene)
        scene.listeners.append(self.narration.feed)

    def answer(self, q) -> str:
        self.views.append((q.kind, players_view(q.scene, self.narration), q.scene))
        check_view(q.scene, self.views[-1][1])
        if q.kind is QuestionKind.ROUND and q.round > self.rounds:
            raise Quit()
        if q.kind is QuestionKind.ACTION and q.hero.name == "Gaston Allais" and \
                any(c.kind.value == "spot" and c.target == q.scene.building.find("ground:B2")
                    for c in q.choices):
            return "spot ground:B2"
        if q.kind is QuestionKind.ROLL and q.purpose == "spot fire":
            return "40"
        return ""

    def rejected(self, q, error) -> None:
        raise AssertionError(error.render())

    def recorded(self, player) -> None:
        pass

    def finished(self, player) -> None:
        pass


def story(view: dict) -> list[str]:
    """Every line of a view's story, oldest first."""
    return [line["text"] for r in view["story"] for line in r["lines"]]


def check_view(scene, view: dict) -> None:
    """The view against the scene: exactly the fires an observer sees, as they are; no other."""
    b = scene.building
    drawn = {f["area"]: f for lv in view["levels"] for f in lv["fires"]}
    want = {b.areas[i].name for i in revealed(scene) if i in scene.fires}  # the GM's reveals
    for hero in observers(scene):
        want |= {b.areas[i].name for i in hero_sight(scene, hero).fires}
    assert set(drawn) == want
    for name, f in drawn.items():
        fire = scene.fires[b.find(name)]
        assert (f["fd"], f["hot"], f["state"]) == (fire.fd, fire.temperature.value == "hot",
                                                   fire.state.value)
    hidden = {b.areas[i].name for h in observers(scene) for i in hidden_fires(scene, h)} - want
    assert not hidden & set(drawn)
    # every player's hero is on the map where the scene has them; the GM's only in sight
    figures = {f["name"]: f["area"] for lv in view["levels"] for f in lv["figures"]}
    seen = in_sight(scene) | revealed(scene)
    for hero in scene.heroes:
        if hero.npc and hero.area not in seen:
            assert hero.name not in figures
        elif not hero.npc:
            assert figures[hero.name] == b.areas[hero.area].name
    # smoke only where they look
    for lv in view["levels"]:
        for a in lv["areas"]:
            if a["smoke"] or a["burned"]:
                assert b.find(a["name"]) in seen


def play_tavern(rounds: int = 2) -> tuple[Player, Watcher]:
    live = Watcher(rounds)
    player = Player(tavern_session(), live, attach=live.attach)
    with contextlib.suppress(Quit):  # the Watcher stops after its rounds
        player.run()
    return player, live


@pytest.fixture(scope="module")
def tavern_played():
    return play_tavern(rounds=3)


@pytest.fixture(scope="module")
def tavern_flashed():
    return play_tavern(rounds=4)  # the bar and the kitchen flash over in round 4


def test_a_hidden_fire_is_absent_until_a_hero_spots_it(tavern_played):
    player, live = tavern_played
    scene = player.scene
    b = scene.building
    kitchen = b.find("ground:B2")
    spotted = [e for e in scene.log if e.kind is EventKind.FIRE_SPOTTED]
    assert spotted and spotted[0].area == "ground:B2" and spotted[0].actor == "Gaston Allais"
    # before round 1 the kitchen fire burns, and no hero sees it: the page has no fire at all
    kind, first, _ = live.views[0]
    assert kind is QuestionKind.ROUND and kitchen in scene.fires
    assert all(not lv["fires"] for lv in first["levels"]) and first["fires"] == 0
    # ... until Gaston spots it (the question after his roll): then it is drawn, as it is
    n = next(i for i, (k, v, _) in enumerate(live.views)
             if any(f["area"] == "ground:B2" for lv in v["levels"] for f in lv["fires"]))
    before = live.views[n - 1][1]
    assert not any(f["area"] == "ground:B2" for lv in before["levels"] for f in lv["fires"])
    assert "Gaston Allais spots a fire in the Kitchen" in story(live.views[n][1])
    fire = next(f for lv in live.views[n][1]["levels"] for f in lv["fires"]
                if f["area"] == "ground:B2")
    assert fire["fd"] == 3 and fire["hot"]


def test_the_view_matches_the_session_at_every_question(tavern_played):
    _player, live = tavern_played
    assert len(live.views) > 20  # check_view ran at each of them while the scene played
    # the oil carried the fire into the common room, where Isabela sees it
    assert any(f["area"] == "ground:E2" for _, v, _ in live.views for lv in v["levels"]
               for f in lv["fires"])


def test_sight_is_the_engines_rule_for_fires(tavern_played):
    """The page's sight is the engine's (fuego.engine.sight): the fires it knows are the
    union of what each observer sees, spotted fires included."""
    scene = tavern_played[0].scene
    sight = players_sight(scene)
    assert known_fires(scene) == sight.fires
    assert sight.fires == frozenset().union(*(hero_sight(scene, h).fires
                                              for h in observers(scene)))
    assert {i for i in in_sight(scene) if i in scene.fires} <= sight.fires


def test_never_the_gms_words(tavern_flashed):
    """No seed, no fire counts from the GM's framing lines, no script, no odds, no GM notes,
    and no failed spot (it names where a hidden fire is)."""
    player, live = tavern_flashed
    lines = {line for _, v, _ in live.views for line in story(v)}
    text = "\n".join(lines)
    assert lines
    assert "seed" not in text and "Script" not in text and "GM" not in text
    assert "%" not in text and "does not notice" not in text
    assert not re.search(r"\d+ fires? burning", text) and "fires there" not in text
    assert "Flashover! The Kitchen goes up all at once" in lines  # no count
    assert "Round 1 begins" in lines and "Round 1 ends" in lines
    assert any(line.startswith("A crash from the kitchen") for line in lines)  # read aloud
    view_text = json.dumps([v for _, v, _ in live.views])
    assert '"seed"' not in view_text and "hidden" not in view_text
    # what no hero saw burning is never named: the pantry side of the oil (ground:A3)
    assert "ground:A3" not in text


def test_the_view_changes_nothing():
    player, _live = play_tavern(rounds=1)
    scene = player.scene
    assert scene is not None
    before = (copy.deepcopy(scene.snapshot()), scene.roller.getstate(), len(scene.log))
    view = players_view(scene, ["a line"])
    json.dumps(page_state(view))  # plain JSON values, SVG included
    assert (scene.snapshot(), scene.roller.getstate(), len(scene.log)) == before


def test_with_every_hero_down_the_page_says_no_hero_can_see_not_no_fire(tavern_played):
    from fuego.engine.heroes import Status

    scene = tavern_played[0].scene
    view = players_view(scene)
    assert view["fires"] and view["blind"] is None and not view["ended"]
    was = [(h, h.status, h.npc) for h in scene.heroes]
    try:
        for hero in scene.heroes:
            if not hero.npc:
                hero.status = Status.KNOCKED_OUT
        view = players_view(scene)
        # what the heroes see is still what the page shows (nothing), and it says why
        assert view["blind"] == "no hero is conscious to see"
        assert view["fires"] == 0 and not [f for lv in view["levels"] for f in lv["fires"]]
        check_view(scene, view)
        # a hero's own page says that hero is down (it said "no fire in sight" at the top)
        mine = players_view(scene, hero=scene.heroes[0])
        assert mine["blind"] == f"{scene.heroes[0].name} is knocked out and sees nothing"
        assert mine["hero"]["sees"] == "nothing: knocked out"
        scene.heroes[0].status = Status.DEAD
        mine = players_view(scene, hero=scene.heroes[0])
        assert mine["blind"] == f"{scene.heroes[0].name} is dead and sees nothing"
        assert mine["hero"]["sees"] == "nothing: dead"
        assert players_view(scene, hero=scene.heroes[1])["blind"] == (
            f"{scene.heroes[1].name} is knocked out and sees nothing")
        for hero in scene.heroes:  # the GM's characters are not the players' eyes
            hero.npc = True
        assert players_view(scene)["blind"] == "no hero of yours in the scene"
    finally:
        for hero, status, npc in was:
            hero.status, hero.npc = status, npc
    assert players_view(scene)["blind"] is None


def test_an_npc_is_drawn_only_where_the_heroes_see_them(tavern_played):
    scene = tavern_played[0].scene
    hettie = scene.hero("Mother Hettie")
    view = players_view(scene)
    drawn = [f for lv in view["levels"] for f in lv["figures"] if f["name"] == hettie.name]
    assert bool(drawn) == (hettie.area in in_sight(scene))
    # before round 1 she is behind her bar, open to the common room: Isabela sees her there
    first = tavern_played[1].views[0][1]
    assert any(f["name"] == hettie.name and f["area"] == "ground:D1"
               for lv in first["levels"] for f in lv["figures"])
    assert any(h["name"] == hettie.name for h in first["heroes"])


def test_svg_draws_fires_heroes_and_escapes_names(tavern_played):
    scene = tavern_played[0].scene
    scene.heroes[0].name = 'Isa <b>"&\'</b>'
    try:
        view = players_view(scene)
    finally:
        scene.heroes[0].name = "Isabela Soldano"
    ground = next(lv for lv in view["levels"] if lv["name"] == "ground")
    svg = level_svg(ground)
    assert "<b>" not in svg and "&lt;b&gt;" in svg
    for fire in ground["fires"]:
        pattern = r'<g id="fire-{}"[^>]*data-fd="(\d+)" data-hot="(\d)"'.format(re.escape(fire["area"]))
        m = re.search(pattern, svg)
        assert m and int(m.group(1)) == fire["fd"] and m.group(2) == ("1" if fire["hot"] else "0")
        if fire["hot"]:  # marked by a shape, not only by colour
            block = svg[m.start():svg.index("</g>", m.start())]
            assert "hot-mark" in block
    # well-formed, and the name comes back as the text it is
    root = ElementTree.fromstring(svg)
    names = [g.get("data-name") for g in root.iter("{http://www.w3.org/2000/svg}g")
             if g.get("data-name")]
    assert 'Isa <b>"&\'</b>' in names


def test_a_saved_session_replays_round_by_round(tmp_path):
    player, live = play_tavern(rounds=2)
    assert player.scene is not None
    path = tmp_path / "s.json"
    sessions.save(player.session, str(path))
    latest, frames, views = replay(sessions.load(str(path)))
    assert set(views) == {"isabela-soldano", "gaston-allais", "bjorn-haraldsson"}
    labels = [label for label, _ in frames]
    assert labels[:3] == ["The scene begins", "End of round 1", "End of round 2"]
    assert frames[0][1]["round"] == 0 and frames[1][1]["round"] == 1
    # each moment's story as it stood then (the end of round 1 told round 2's too)
    assert [r["round"] for r in frames[0][1]["story"]] == [0]
    assert [r["round"] for r in frames[1][1]["story"]] == [0, 1]
    assert [r["round"] for r in frames[2][1]["story"]][-1] == 2
    assert latest == frames[-1][1]
    assert latest["round"] == player.scene.round
    # the same view as the live table had when it stopped
    assert latest == page_state(players_view(player.scene, live.narration))


def tavern_scene():
    from fuego.scenario.model import loads

    return loads(TAVERN.read_text(encoding="utf-8"), source="tavern.yaml").build(7)


def level_of(view: dict, name: str) -> dict:
    return next(lv for lv in view["levels"] if lv["name"] == name)


def test_doors_windows_floors_and_smoke_as_the_heroes_see_them():
    from fuego.rules.charts import Density

    scene = tavern_scene()
    b = scene.building
    seen = in_sight(scene)
    front = b.between(b.find("ground:G5"), b.find("ground:G6"))  # in Isabela's sight
    pantry = b.between(b.find("ground:A3"), b.find("ground:A4"))  # kitchen-pantry: out of sight
    window = b.between(b.find("ground:E5"), b.find("ground:E6"))
    floor = b.between(b.find("ground:F4"), b.find("cellar:F4"))  # under Isabela's feet
    hidden_floor = b.between(b.find("ground:B5"), b.find("upper:B5"))  # pantry, linen closet
    assert b.find("ground:G5") in seen and b.find("ground:A3") not in seen
    b.open_barrier(front)
    b.destroy_barrier(window)
    b.destroy_barrier(floor)
    b.destroy_barrier(hidden_floor)
    scene.smoke.density[b.find("ground:F3")] = Density.THICK  # in sight
    scene.smoke.density[b.find("ground:A5")] = Density.THIN  # the pantry: out of sight
    view = players_view(scene)
    ground = level_of(view, "ground")
    walls = {w["index"]: w["state"] for w in ground["walls"]}
    assert walls[front.index] == "open" and walls[window.index] == "broken"
    assert walls[pantry.index] == "unseen"  # where it is, not how it stands
    links = {(k["index"], k["kind"]): k["state"] for k in ground["links"]}
    assert links[(floor.index, "floor")] == "broken"  # a collapsed floor, both levels
    assert (hidden_floor.index, "floor") not in links
    cellar = level_of(view, "cellar")
    assert any(k["index"] == floor.index and k["up"] for k in cellar["links"])
    smoke = {a["name"]: a["smoke"] for a in ground["areas"]}
    assert smoke["ground:F3"] == "thick" and smoke["ground:A5"] == ""
    svg = level_svg(ground)
    assert f'id="barrier-door-open-{front.index}"' in svg
    assert f'id="barrier-window-broken-{window.index}"' in svg
    assert f'id="barrier-door-unseen-{pantry.index}"' in svg
    assert f'id="link-floor-{floor.index}"' in svg and "<title>collapsed floor</title>" in svg
    assert 'id="smoke-thick-ground:F3"' in svg and "smoke-thin-ground:B1" not in svg
    assert f'id="barrier-floor-broken-{floor.index}"' in level_svg(cellar)


def test_conditions_in_the_players_words():
    scene = tavern_scene()
    hero = scene.hero("Isabela Soldano")
    from fuego.rules.charts import Density

    scene.smoke.density[hero.area] = Density.THICK
    hero.clothes_fd, hero.confused, hero.breath, hero.flesh, hero.dramatic = 2, True, 1, 7, 1
    row = next(h for h in players_view(scene)["heroes"] if h["name"] == hero.name)
    assert row["conditions"] == ["in thick smoke", "clothes alight (2 FD)", "confused",
                                 "holding breath (1 round)"]
    assert (row["flesh"], row["dramatic"], row["knocked_out_at"]) == (7, 1, 6)


def test_what_the_players_hear():
    """Each kind of line, told or not, against who and where it is about."""
    from fuego.engine.events import Event

    scene = tavern_scene()
    told = PlayersNarration(scene)
    seen = in_sight(scene)
    K = EventKind

    def ev(kind, actor=None, area=None, **data):
        return told.told(Event(kind, 1, 3, actor, area, data), seen)

    assert ev(K.HERO_MOVED, "Isabela Soldano", "ground:E4", frm="ground:F4")
    assert ev(K.HERO_MOVED, "Bjorn Haraldsson", "cellar:C4", frm="cellar:C3")  # another level
    # the bar is open to the common room: Isabela sees her there
    assert ev(K.HERO_MOVED, "Mother Hettie", "ground:D2", frm="ground:D1")
    assert ev(K.READ_ALOUD, None, None, text="A crash from the kitchen")
    assert not ev(K.SCRIPT, None, None, cue="the lamp falls", times=1)
    assert not ev(K.GM, "GM", "ground:B2", action="start-fire", fd=3)
    assert not ev(K.FIRE_HIDDEN, "Gaston Allais", "ground:B2", tn=14, total=3, success=False)
    assert ev(K.FIRE_SPOTTED, "Gaston Allais", "ground:B2", tn=14, total=40, success=True)
    assert not ev(K.FIRE_GREW, "fire@ground:B2", "ground:B2", fd=4, before=3)  # not in sight
    assert ev(K.FIRE_STARTED, "fire@ground:F3", "ground:F3", fd=1, cause="leap")  # her room
    assert ev(K.FIRE_LEAPT, "fire@ground:D3", "ground:D3", to="ground:E3")  # the bar in view
    assert not ev(K.FIRE_LEAPT, "fire@ground:B3", "ground:B3", to="ground:A3")  # the kitchen's back
    assert not ev(K.FIRE_SPREAD, "fire@ground:E2", "ground:E2", to="ground:F2",
                  path=["ground:C3", "ground:F2"])  # by way of the kitchen's back
    assert ev(K.FLASHOVER, None, None, room="kitchen", fires=9)  # through its open door
    assert not ev(K.FLASHOVER, None, None, room="pantry", fires=4)
    assert ev(K.FLASHOVER, None, None, room="common", fires=4)


def test_a_burning_wreck_in_sight_is_drawn_with_its_vehicle():
    from fuego.engine.rounds import start_scene
    from fuego.scenario.model import load

    scene = load(str(Path(__file__).resolve().parent.parent / "campaigns" / "wagon.yaml")).build(3)
    start_scene(scene)

    def ground_of(view):
        return next(lv for lv in view["levels"] if lv["name"] == "ground")

    # Tomas is in the house behind its closed door: the wagon in the street is out of sight
    assert ground_of(players_view(scene))["wrecks"] == []
    scene.heroes[0].area = scene.building.area("ground:D2").index  # out in the street
    ground = ground_of(players_view(scene))
    assert ground["wrecks"] == [{"area": "ground:C2", "col": 2, "row": 1, "vehicle": "wagon"}]
    svg = ElementTree.fromstring(level_svg(ground))
    ns = "{http://www.w3.org/2000/svg}"
    (wreck,) = [g for g in svg.iter(f"{ns}g") if g.get("class") == "wreck"]
    assert wreck.get("data-area") == "ground:C2"
    assert "burning wagon" in (wreck.findtext(f"{ns}title") or "")


# -- the players' words, the GM's reveal, hide and note, the end, each hero's own page ----------
#: What the players' pages never carry: grid references, pools, TNs, rolls, rule names, weather
#: modifiers, Fire Dice as bookkeeping.
RULES_TEXT = re.compile(r"\b[a-z]+:[A-Z]{1,2}\d+\b|\b\d+k\d+\b|\bTN\b|\bvs\b|\brolled\b|"
                        r"\bRule\b|\bEC\b|\bDRM\b|\bFD \d|\bcheck \d|\bResolve\b|\bpool\b")


def test_every_kind_has_a_players_phrase_or_is_kept_from_them():
    from fuego.render.players import PLAYER_PHRASES

    assert set(PLAYER_PHRASES) == set(EventKind)


def test_the_story_keeps_every_round_in_the_players_words(tavern_flashed):
    player, live = tavern_flashed
    view = live.views[-1][1]
    rounds = [r["round"] for r in view["story"]]
    assert rounds == sorted(rounds) and {1, 2, 3, 4} <= set(rounds)  # every round, in order
    one = next(r for r in view["story"] if r["round"] == 1)["lines"]
    texts = [line["text"] for line in one]
    assert texts[0] == "Round 1 begins" and texts[-1] == "Round 1 ends" and len(texts) > 5
    # (what is read aloud is the scenario author's own text, as written)
    every = "\n".join(line["text"] for _, v, _ in live.views for r in v["story"]
                      for line in r["lines"] if line["kind"] != "read")
    assert not RULES_TEXT.search(every), RULES_TEXT.search(every)
    assert "Gaston Allais spots a fire in the Kitchen" in every
    # every line a kind the page can set apart
    kinds = {line["kind"] for r in view["story"] for line in r["lines"]}
    assert kinds <= {"round", "gm", "read", "weather", "alarm", "hero", "fire"}


def test_what_changed_this_round_is_marked(tavern_flashed):
    _player, live = tavern_flashed
    marked = [(v["changes"], f) for _, v, _ in live.views if v["changes"]
              for lv in v["levels"] for f in lv["fires"] if f["new"] or f["grew"]]
    assert marked  # new fires in sight, on the map and in the header line
    changes, fire = marked[0]
    assert re.search(r"\d+ new fires?|a new fire|grew", changes["text"])
    last = live.views[-1][1]
    assert "the Kitchen flashed over" in last["changes"]["text"]
    svg = level_svg(level_of(last, "ground"))
    assert 'class="fire fire-hot new"' in svg or 'class="fire fire-regular new"' in svg


def test_a_flashover_mark_never_covers_a_fires_number(tavern_flashed):
    # a room that flashed over is ablaze: its "flashover" line goes where no number is
    _player, live = tavern_flashed
    ns = "{http://www.w3.org/2000/svg}"
    marks = 0
    for _, view, _ in live.views:
        for lv in view["levels"]:
            svg = ElementTree.fromstring(level_svg(lv))
            numbers = [(float(t.attrib["x"]), float(t.attrib["y"])) for g in svg.iter(f"{ns}g")
                       if (g.get("class") or "").startswith("fire ")
                       for t in g.iter(f"{ns}text")]
            for t in svg.iter(f"{ns}text"):
                if t.get("class") != "flashed outlined":
                    continue
                marks += 1
                x, y = float(t.attrib["x"]), float(t.attrib["y"])  # (baseline; 11 px, ~60 px)
                for nx, ny in numbers:  # (baseline; 31 px digits, ~20 px wide each)
                    apart = abs(nx - x) > 30 + 10 or y - 9 > ny or y < ny - 23
                    assert apart, (lv["name"], t.get("x"), t.get("y"), nx, ny)
    assert marks  # (the kitchen and the bar flash over in round 4)


def _boxes(lv: dict) -> tuple[list, list, list]:
    """The level's room names, fires' discs and fires' numbers and marks, as boxes
    (left, top, right, bottom): names as (room, box, on a band) with their boxes."""
    ns = "{http://www.w3.org/2000/svg}"
    svg = ElementTree.fromstring(level_svg(lv))
    discs, marks = [], []
    for g in svg.iter(f"{ns}g"):
        if not (g.get("class") or "").startswith("fire "):
            continue
        for c in g.iter(f"{ns}circle"):
            if "new-mark" not in (c.get("class") or ""):
                cx, cy, r = (float(c.attrib[k]) for k in ("cx", "cy", "r"))
                discs.append((cx - r, cy - r, cx + r, cy + r))
        for t in g.iter(f"{ns}text"):  # (31-px digits: ~20 px wide each, 23 above the baseline)
            x, y, w = float(t.attrib["x"]), float(t.attrib["y"]), 10 * len(t.text or "")
            marks.append((x - w, y - 23, x + w, y))
        for m in g.iter():
            if m.get("class") in ("hot-mark", "grew-mark"):
                xy = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?",
                                                   m.get("points") or m.get("d") or "")]
                marks.append((min(xy[::2]), min(xy[1::2]), max(xy[::2]), max(xy[1::2])))
    names = []
    for t in svg.iter(f"{ns}text"):
        if not (t.get("class") or "").startswith("room"):
            continue
        x, y = float(t.attrib["x"]), float(t.attrib["y"])  # (its baseline's middle)
        word = t.find(f"{ns}tspan") is not None  # ("flashover": 11-px bold, ~0.62 wide)
        width = t.get("textLength") or (len(t.text or "") * 14 * 0.56
                                        + (9 * 11 * 0.62 + (6 if t.text else 0)) * word)
        half = float(width) / 2
        # (14-px letters: 11 px above the baseline, 3 below)
        names.append((t.get("id", "flashover").removeprefix("room-"),
                      (x - half, y - 11, x + half, y + 3), "band" in t.get("class", "")))
    return names, discs, marks


def _meet(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _names_on_fires(lv: dict) -> list[tuple[str, bool, bool]]:
    """Each room name drawn over a fire's disc on the level: (its room, whether every area of
    that room holds a fire or a stair's word, so that there is nowhere else, on a band)."""
    names, discs, _marks = _boxes(lv)
    busy = {(f["col"], f["row"]) for f in lv["fires"]} | {(k["col"], k["row"]) for k in lv["links"]}
    cells: dict[str, list[tuple[int, int]]] = {}
    for a in lv["areas"]:
        cells.setdefault(a["room"], []).append((a["col"], a["row"]))
    return [(key, all(cell in busy for cell in cells[key]), band)
            for key, box, band in names if any(_meet(box, d) for d in discs)]


def _names_on_numbers(lv: dict) -> list[str]:
    names, _discs, marks = _boxes(lv)
    return [key for key, box, _band in names if any(_meet(box, m) for m in marks)]


def test_a_rooms_name_stays_off_its_fires_where_the_room_has_room():
    from fuego.engine.scene import Cause

    # the Common Room's middle row burns either side of its middle, the row above does not:
    # its name, wider than an area, goes there rather than over the fires
    scene = tavern_scene()
    b = scene.building
    for name in ("ground:E3", "ground:G3"):
        scene.start_fire(b.find(name), 9, Cause.GM)
    ground = level_of(players_view(scene), "ground")
    assert {f["area"] for f in ground["fires"]} >= {"ground:E3", "ground:G3"}
    assert _names_on_fires(ground) == []
    # a room ablaze end to end: its name on a band along the bottom of an area, never over a
    # fire's number, its hot triangle or its chevron; "flashover" on a band of its own
    for i in b.room_areas("bar"):
        if i not in scene.fires:
            scene.start_fire(i, 9, Cause.GM)
    scene.flashed.add("bar")
    ground = level_of(players_view(scene), "ground")
    assert {f["area"] for f in ground["fires"]} >= {b.areas[i].name for i in b.room_areas("bar")}
    assert _names_on_numbers(ground) == []
    svg = ElementTree.fromstring(level_svg(ground))
    bar = svg.find(".//*[@id='room-bar']")
    assert bar is not None and bar.get("class") == "room band" and bar.text == "The Bar"
    word = svg.find(".//*[@class='room-flashed band']")
    assert word is not None and "".join(word.itertext()) == "flashover"
    names = {key: box for key, box, _band in _boxes(ground)[0]}
    assert not _meet(names["bar"], names["flashover"])
    # a room of one area ablaze: the name and the word share its band
    one = copy.deepcopy(ground)
    room = next(r for r in one["rooms"] if r["key"] == "bar")
    room["cells"] = room["cells"][:1]
    bar = ElementTree.fromstring(level_svg(one)).find(".//*[@id='room-bar']")
    assert bar is not None and "".join(bar.itertext()) == "The Barflashover"
    assert _names_on_numbers(one) == []


def test_a_rooms_name_keeps_off_a_stairs_word_not_off_a_collapsed_floors_ring():
    # (the end of the ship: every floor given way, a ring in every area, and the Gun Deck's
    # name over the hatch's "up"; a ring everywhere moves it nowhere, a stair's word or
    # drawing under it moves it off)
    ground = level_of(players_view(tavern_scene()), "ground")
    svg = ElementTree.fromstring(level_svg(ground))

    def at(svg):  # the Common Room's name: (its middle's col, its baseline)
        t = svg.find(".//*[@id='room-common']")
        return math.floor((float(t.attrib["x"]) - 30) / 64) + ground["c0"], float(t.attrib["y"])

    col, y = at(svg)
    row = ground["r0"] + int((y - 30) // 64)
    rings = copy.deepcopy(ground)
    cells = next(r["cells"] for r in rings["rooms"] if r["key"] == "common")
    rings["links"] += [{"kind": "floor", "state": "broken", "index": 900 + k, "col": c, "row": r,
                        "up": True, "changed": False} for k, (c, r) in enumerate(cells)]
    assert at(ElementTree.fromstring(level_svg(rings))) == (col, y)  # a ring has no word
    stair = copy.deepcopy(ground)
    stair["links"].append({"kind": "stairs", "state": "open", "index": 950, "col": col,
                           "row": row, "up": True, "changed": False})
    moved = at(ElementTree.fromstring(level_svg(stair)))
    assert moved != (col, y)  # off the stair's "up"
    down = copy.deepcopy(ground)
    down["links"].append({"kind": "stairs", "state": "open", "index": 951, "col": col,
                          "row": row, "up": False, "changed": False})
    assert at(ElementTree.fromstring(level_svg(down))) != (col, y)  # (its drawing there)


@given(st.sets(st.tuples(st.integers(0, 7), st.integers(0, 5)), min_size=1, max_size=30),
       st.sets(st.tuples(st.integers(0, 7), st.integers(0, 5)), max_size=30),
       st.text(alphabet="abcdefgh ", min_size=1, max_size=40))
def test_a_rooms_name_stays_inside_its_row_of_the_room_and_off_fires_it_can_miss(cells, fires,
                                                                                 name):
    from fuego.web.svg import S, name_place

    room = {"name": name, "cells": [list(c) for c in sorted(cells)]}
    x, row, px, _squeezed = name_place(room, fires, set())
    half = px / S / 2
    run = sorted(c for c, r in cells if r == row)
    # (the run of the room's cells along that row that holds the name's middle)
    first = last = math.floor(x)
    while first - 1 in run:
        first -= 1
    while last + 1 in run:
        last += 1
    assert math.floor(x) in run and first <= x - half and x + half <= last + 1
    under = {(c, row) for c in range(math.floor(x - half), math.floor(x + half - 1e-9) + 1)}
    if any(c not in fires for c in cells):
        assert not under & fires


def test_a_rooms_name_is_over_a_fire_only_where_its_room_burns_throughout(tavern_flashed):
    _player, live = tavern_flashed
    covered = [hit for _, view, _ in live.views for lv in view["levels"]
               for hit in _names_on_fires(lv)]
    assert all(full and band for _, full, band in covered), covered
    bands = {key for _, view, _ in live.views for lv in view["levels"]
             for key, _box, band in _boxes(lv)[0] if band}
    assert bands == {"bar", "flashover"}  # (The Bar burns end to end from round 4)
    assert [key for _, view, _ in live.views for lv in view["levels"]
            for key in _names_on_numbers(lv)] == []


def _override(scene, text: str) -> None:
    from fuego.table.overrides import apply_override, normalize_override

    apply_override(scene, normalize_override(scene, text))


def test_reveal_and_hide_a_room_a_level_and_all():
    from fuego.errors import RuleError
    from fuego.table.overrides import normalize_override

    scene = tavern_scene()
    b = scene.building
    kitchen = b.find("ground:B2")
    scene.start_fire(kitchen, 3, __import__("fuego.engine.scene", fromlist=["Cause"]).Cause.GM)

    def fires(view):
        return {f["area"] for lv in view["levels"] for f in lv["fires"]}

    assert "ground:B2" not in fires(players_view(scene))
    assert normalize_override(scene, "reveal Kitchen") == "reveal room kitchen"
    assert normalize_override(scene, "reveal") == "reveal all"
    assert normalize_override(scene, "hide level cellar") == "hide level cellar"
    with pytest.raises(RuleError, match="no level or room 'attic'"):
        normalize_override(scene, "reveal attic")
    _override(scene, "reveal kitchen")
    view = players_view(scene)
    assert "ground:B2" in fires(view) and view["revealed"]
    seen = {a["name"] for lv in view["levels"] for a in lv["areas"] if a["seen"]}
    assert {b.areas[i].name for i in b.room_areas("kitchen")} <= seen
    _override(scene, "hide kitchen")
    assert "ground:B2" not in fires(players_view(scene))
    _override(scene, "reveal cellar")
    cellar = level_of(players_view(scene), "cellar")
    assert all(a["seen"] for a in cellar["areas"])
    _override(scene, "reveal all")
    assert all(a["seen"] for lv in players_view(scene)["levels"] for a in lv["areas"])
    _override(scene, "hide")
    assert not players_view(scene)["revealed"]


def test_the_fires_same_line_in_a_row_is_said_once_and_counted():
    # (the village's wheat field: "The fire in Wheat Field grows" five times in a round)
    scene = tavern_scene()
    told = PlayersNarration(scene)
    scene.listeners.append(told.feed)
    for area in ("ground:E3", "ground:F3", "ground:G1"):  # (in Isabela's sight)
        _override(scene, f"fire {area} 2")
    _override(scene, "fire ground:D1 2")
    _override(scene, "fire ground:H1 2")
    _override(scene, "note Smoke")
    _override(scene, "note Smoke")
    assert told.lines == ["The Common Room catches fire (\u00d73)", "The Bar catches fire",
                          "The Common Room catches fire", "Smoke", "Smoke"]
    assert [line["times"] for r in told.rounds for line in r["lines"]] == [3, 1, 1, 1, 1]


def test_two_characters_with_the_same_initials_have_tokens_apart():
    from fuego.scenario.model import loads
    from fuego.web.view import token_letters

    text = TAVERN.read_text(encoding="utf-8").replace("Bjorn Haraldsson", "Gilles Aubert")
    scene = loads(text, source="t.yaml").build(7)
    assert token_letters(scene) == {"Isabela Soldano": "IS", "Gaston Allais": "GAL",
                                    "Gilles Aubert": "GAU", "Mother Hettie": "MH"}
    view = players_view(scene)
    assert {h["name"]: h["initials"] for h in view["heroes"]}["Gilles Aubert"] == "GAU"
    assert {p["name"]: p["initials"] for p in view["players"]}["Gaston Allais"] == "GAL"
    drawn = {f["name"]: f["initials"] for lv in view["levels"] for f in lv["figures"]}
    assert drawn["Gaston Allais"] == "GAL" and drawn["Gilles Aubert"] == "GAU"
    assert ">GAL</text>" in level_svg(level_of(view, "upper"))
    # the same letters even then: a number
    text = text.replace("Isabela Soldano", "Gaston Allain")
    assert list(token_letters(loads(text, source="t.yaml").build(7)).values())[:3] == [
        "GAL", "GAL2", "GAU"]


def test_a_token_is_lettered_from_the_names_letters_not_its_punctuation():
    from fuego.render.map_style import initials
    from fuego.scenario.model import loads
    from fuego.web.view import token_letters

    assert initials("Bo [red]") == "BR" and initials("Jean-Luc Picard") == "JP"
    assert initials("\"Red\" Ned") == "RN" and initials("[ ] ?") == "?"
    # the letter more that tells two alike apart is a letter too ("[Allard]": l, not A)
    text = TAVERN.read_text(encoding="utf-8").replace("Bjorn Haraldsson", "Gilles [Allard]")
    letters = token_letters(loads(text, source="t.yaml").build(7))
    assert letters["Gaston Allais"] == "GAL" and letters["Gilles [Allard]"] == "GAL2"


def test_a_note_reaches_the_story_and_nothing_else_of_the_gms():
    from fuego.errors import RuleError
    from fuego.table.overrides import normalize_override

    scene = tavern_scene()
    told = PlayersNarration(scene)
    scene.listeners.append(told.feed)
    _override(scene, "note   The roof timbers groan <b>overhead</b>")
    _override(scene, "fire ground:B2 3")
    assert told.lines == ["The roof timbers groan <b>overhead</b>"]
    assert told.rounds[-1]["lines"][-1]["kind"] == "gm"
    with pytest.raises(RuleError, match="note TEXT"):
        normalize_override(scene, "note")
    with pytest.raises(RuleError, match="at most 200"):
        normalize_override(scene, "note " + "x" * 201)


def test_reveal_and_note_replay_with_the_session_and_undo_takes_them_back(tmp_path):
    """Recorded like any override: a resumed session shows them again; dropped answers drop
    them."""

    class Gm(Watcher):
        def __init__(self):
            super().__init__(rounds=1)
            self.said = False

        def answer(self, q):
            if q.kind is QuestionKind.ROUND and q.round == 2 and not self.said:
                self.said = True
                return "reveal kitchen"
            return super().answer(q)

    live = Gm()
    player = Player(tavern_session(), live, attach=live.attach)
    with contextlib.suppress(Quit):
        player.run()
    assert any(e.get("gm") == "reveal room kitchen" for e in player.session.inputs)
    path = tmp_path / "s.json"
    sessions.save(player.session, str(path))
    latest, _frames, _views = replay(sessions.load(str(path)))
    assert latest["revealed"]
    ground = next(lv["svg"] for lv in latest["levels"] if lv["name"] == "ground")
    assert 'id="area-ground:A1"' in ground and re.search(r'id="area-ground:A1"[^>]*class="seen"',
                                                         ground)
    session = sessions.load(str(path))
    session.truncate(len(session.inputs) - 1)  # the reveal was the last answer
    back, _frames, _views = replay(session)
    assert not back["revealed"]


def test_the_end_of_the_scene_shows_the_whole_ruin():
    from fuego.engine import loop
    from fuego.engine.controllers import AutoController

    scene = tavern_scene()
    loop.run(scene, AutoController())
    assert scene.log[-1].kind is EventKind.SCENE_END
    view = players_view(scene)
    assert all(a["seen"] for lv in view["levels"] for a in lv["areas"])
    drawn = {f["area"] for lv in view["levels"] for f in lv["fires"]}
    assert drawn == {scene.building.areas[i].name for i in scene.fires}
    ruin = view["ruin"]
    assert ruin["burned"] == sum(a.burned_out for a in scene.building.areas) > 0
    assert {h["name"]: h["fate"] for h in ruin["heroes"]} == {
        h.name: {"escaped": "got out", "dead": "died", "knocked-out": "knocked out inside",
                 "active": "still inside"}[h.status.value] for h in scene.heroes}
    assert ruin["rooms"] and all(r["state"] in ("burned out", "partly burned", "still burning")
                                 for r in ruin["rooms"])
    # each room by its name as the map writes it (not "The Kitchen" beside "Balcony")
    names = {room.name for room in scene.building.rooms.values()}
    assert {"Kitchen", "The Bar", "Balcony"} <= {r["name"] for r in ruin["rooms"]} <= names
    burned = {lv["name"]: [a for a in lv["areas"] if a["burned"]] for lv in view["levels"]}
    assert sum(len(v) for v in burned.values()) == ruin["burned"]


def test_a_heros_own_page_shows_what_that_hero_sees():
    from fuego.web.view import player_heroes

    scene = tavern_scene()
    b = scene.building
    heroes = player_heroes(scene)
    assert set(heroes) == {"isabela-soldano", "gaston-allais", "bjorn-haraldsson"}
    isabela, bjorn = heroes["isabela-soldano"], heroes["bjorn-haraldsson"]
    mine = players_view(scene, hero=isabela)
    assert mine["hero"]["name"] == isabela.name and mine["heroes"][0]["name"] == isabela.name
    seen = {a["name"] for lv in mine["levels"] for a in lv["areas"] if a["seen"]}
    assert seen == {b.areas[i].name for i in hero_sight(scene, isabela).in_view}
    assert b.areas[bjorn.area].name not in seen  # Bjorn is in the cellar
    together = {a["name"] for lv in players_view(scene)["levels"] for a in lv["areas"]
                if a["seen"]}
    assert seen < together
    # her own token is ringed on her page, not on the table's
    ground = level_svg(level_of(mine, "ground"))
    assert "me-mark" in ground and "me-mark" not in level_svg(level_of(players_view(scene),
                                                                        "ground"))
    isabela.status = __import__("fuego.engine.heroes", fromlist=["Status"]).Status.KNOCKED_OUT
    out = players_view(scene, hero=isabela)
    assert out["hero"]["sees"] == "nothing: knocked out" and out["fires"] == 0
    assert out["blind"] == "Isabela Soldano is knocked out and sees nothing"
    assert players_view(scene, hero=bjorn)["blind"] is None  # (Bjorn is on his feet)


def test_tokens_sit_side_by_side_inside_their_area_clear_of_the_fires_number():
    from fuego.web.svg import token_spots

    for busy in (False, True):
        for n in range(1, 10):
            spots = token_spots(n, busy)
            assert 1 <= len(spots) <= n
            for x, y, r in spots:
                assert r <= x <= 1 - r and r <= y <= 1 - r  # inside the area: never on a wall
                assert y - r >= 0.22  # under the room label's strip
                if busy:  # below the fire's number (0.27-0.61 of the area)
                    assert y - r >= 0.62
            for k, (x, y, r) in enumerate(spots):
                for x2, y2, r2 in spots[k + 1:]:
                    assert (x - x2) ** 2 + (y - y2) ** 2 >= (r + r2) ** 2  # side by side
    assert len(token_spots(3, True)) == 3 and len(token_spots(4, False)) == 4


def test_an_npc_who_got_out_beside_the_heroes_is_drawn():
    from fuego.engine.heroes import Status

    scene = tavern_scene()
    hettie, isabela = scene.hero("Mother Hettie"), scene.hero("Isabela Soldano")
    lane = scene.building.find("ground:G6")
    for h in (hettie, isabela):
        h.area, h.status = lane, Status.ESCAPED
    figures = {f["name"] for lv in players_view(scene)["levels"] for f in lv["figures"]}
    assert hettie.name in figures


@pytest.mark.parametrize("kind", list(EventKind), ids=lambda k: k.value)
def test_each_kinds_players_words_carry_no_rules(kind):
    """Every kind's sample (the data the engine emits) in the players' words: a line without
    a grid reference, a pool or a TN, or nothing."""
    from test_narrate import SAMPLES

    from fuego.render.players import say

    scene = tavern_scene()
    text = say(SAMPLES[kind], scene.building)
    assert text is None or (text and not RULES_TEXT.search(text)), text


def test_the_players_hear_the_fire_is_out_at_the_end():
    from test_narrate import SAMPLES

    from fuego.render.players import say

    end = SAMPLES[EventKind.SCENE_END]
    assert say(end, None) == "The scene ends after 23 rounds - the fire is out"
    ended = Event(EventKind.SCENE_END, 4, 11, None, None, {**end.data, "why": "gm-ended",
                                                          "rounds": 4})
    assert say(ended, None) == "The scene ends after 4 rounds"
    at_once = Event(EventKind.SCENE_END, 0, 11, None, None, {**end.data, "why": "gm-ended",
                                                             "rounds": 0})
    assert say(at_once, None) == "The scene ends before round 1"


def test_the_players_hear_how_each_of_the_engines_causes_burned_a_hero():
    # (every DamageCause has its words, read from the log's text; the GM's own cause says none)
    from fuego.engine.injury import DamageCause
    from fuego.render.players import say

    def burned(cause: str) -> str | None:
        return say(Event(EventKind.HERO_DAMAGED, 2, 11, "Isabela", "ground:B2",
                         {"cause": cause, "flesh": 2}), None)

    said = {c: burned(c.value) for c in DamageCause}
    assert len(set(said.values())) == len(DamageCause), said
    assert all(t and t.startswith("Isabela is burned ") and t.endswith(": 2 Flesh Wounds")
               for t in said.values()), said
    assert said[DamageCause.MOVING] == "Isabela is burned stepping into it: 2 Flesh Wounds"
    assert burned("the GM (jet)") == "Isabela is burned: 2 Flesh Wounds"


def test_a_fire_break_the_heroes_see_is_drawn_and_only_there():
    # (the village's cleared strip: on the printed map and show, but the players' screen drew
    # standing wheat there)
    from fuego.cli.mapcmd import play_to
    from fuego.modules.fire_breaks import cleared_by_area
    from fuego.scenario.model import load

    scene = play_to(load(ROOT / "campaigns" / "village.yaml"), 1, 3)
    cleared = {scene.building.areas[i].name: klass for i, klass in cleared_by_area(scene).items()}
    assert cleared and set(cleared.values()) == {"clear"}
    seen = in_sight(scene)
    view = players_view(scene)
    drawn = {a["name"]: a["cleared"] for lv in view["levels"] for a in lv["areas"] if a["cleared"]}
    assert drawn == {name: k for name, k in cleared.items()
                     if scene.building.find(name) in seen}
    assert drawn  # (the strip is in the open, beside the field: seen from the start)
    ground = next(lv for lv in view["levels"] if lv["name"] == "ground")
    svg = ElementTree.fromstring(level_svg(ground))
    ns = "{http://www.w3.org/2000/svg}"
    marks = {el.get("id") for el in svg.iter(f"{ns}rect") if "firebreak" in (el.get("class") or "")}
    assert marks == {"firebreak-clear-" + name for name in drawn}
    assert all(el.get("fill") == "url(#p-break-clear)" for el in svg.iter(f"{ns}rect")
               if "firebreak" in (el.get("class") or ""))
    tavern = players_view(tavern_scene())
    assert not any(a["cleared"] for lv in tavern["levels"] for a in lv["areas"])


def _campaign_scene(name: str):
    from fuego.scenario.model import loads

    path = ROOT / "campaigns" / name
    return loads(path.read_text(encoding="utf-8"), source=name).build(7)


def test_a_place_out_of_doors_takes_the_like_a_room_unless_it_is_a_street():
    # (the players heard "The fire in Wheat Field grows": outdoor names went bare)
    from fuego.render.players import named_room

    said = {(name, key): named_room(key, _campaign_scene(name).building) for name, key in (
        ("village.yaml", "field"), ("village.yaml", "square"), ("village.yaml", "barn"),
        ("village.yaml", "lane"), ("tavern.yaml", "street"), ("tavern.yaml", "bar"),
        ("ship.yaml", "cabin"), ("ship.yaml", "deck"), ("wagon.yaml", "street"))}
    assert list(said.values()) == [
        "the Wheat Field", "the Village Square", "Anselm's Barn", "The Lane",
        "Goose Lane",  # article: false, a street's name
        "The Bar", "the Captain's Cabin",  # article: true, a possessive that takes "the"
        "the Weather Deck", "the Calle de los Toneleros"]


def test_a_hero_who_got_out_is_where_they_got_out_not_out_of_a_building():
    # (the village's heroes leave by its square: "out of the building" was wrong there)
    from fuego.engine.heroes import Status

    # (and a ship's heroes leave by its weather deck: "into the Weather Deck" was wrong there)
    for name, exit_room, words in (("village.yaml", "square", "got out into the Village Square"),
                                   ("tavern.yaml", "street", "got out into Goose Lane"),
                                   ("ship.yaml", "deck", "got out onto the Weather Deck")):
        scene = _campaign_scene(name)
        b = scene.building
        hero = scene.heroes[0]
        hero.area = next(a.index for a in b.areas if a.room == exit_room and b.is_exit(a.index))
        hero.status = Status.ESCAPED
        row = next(r for r in players_view(scene)["heroes"] if r["name"] == hero.name)
        assert row["where"] == words


def test_one_goes_onto_an_outdoor_level_above_the_ground_and_into_any_other_room():
    # (the players heard "gets out into the Weather Deck": a deck, a roof, a balcony is stood on)
    from fuego.render.players import going_to, say

    said = {(name, key): going_to(key, _campaign_scene(name).building) for name, key in (
        ("ship.yaml", "deck"), ("ship.yaml", "cabin"), ("tavern.yaml", "balcony"),
        ("tavern.yaml", "street"), ("tavern.yaml", "bar"), ("village.yaml", "field"))}
    assert list(said.values()) == [
        "onto the Weather Deck", "into the Captain's Cabin", "onto the Balcony", "into Goose Lane",
        "into The Bar", "into the Wheat Field"]
    scene = _campaign_scene("ship.yaml")
    b = scene.building
    deck = next(a for a in b.areas if a.room == "deck" and b.is_exit(a.index))
    hold = next(a for a in b.areas if a.room == "hold")
    hero = scene.heroes[0].name
    escaped = Event(kind=EventKind.HERO_ESCAPED, round=3, phase=4, actor=hero, area=deck.name)
    assert say(escaped, b) == f"{hero} gets out onto the Weather Deck"
    fell = Event(kind=EventKind.HERO_FELL, round=3, phase=4, actor=hero, area=hold.name,
                 data={"feet": 10})
    assert say(fell, b) == f"{hero} falls 10 ft into the Cargo Hold"


def test_a_hero_left_standing_in_a_field_is_in_the_open_not_inside():
    # (the village's heroes stand in its fields and lanes: "still inside" was wrong there)
    from fuego.engine.heroes import Status
    from fuego.render.summary import summarize

    scene = _campaign_scene("village.yaml")
    b = scene.building
    standing, down = scene.heroes[0], scene.heroes[1]
    field = [a.index for a in b.areas if a.room == "field"]
    standing.area, down.area = field[0], field[1]
    down.status = Status.KNOCKED_OUT
    fates = {h["name"]: h["fate"] for h in ruin(scene)["heroes"]}
    assert (fates[standing.name], fates[down.name]) == ("still in the open", "knocked out in the open")
    text = "\n".join(summarize(scene))
    assert f"{standing.name}: out in the open at {b.areas[field[0]].name} (Wheat Field)" in text


def test_the_players_hear_a_fire_burn_up_through_the_ceiling_and_down_through_the_floor():
    # (the tavern, seed 1: the kitchen fire burns into the cellar, then into the Swan above;
    # both read "burns through the wooden floor", the way up too)
    from fuego.render.players import say

    b = tavern_scene().building

    def burns(to: str, barrier: str = "wooden-floor", at: str = "ground:B2") -> str | None:
        return say(Event(EventKind.FIRE_BURNED_THROUGH, 4, 1, f"fire@{at}", at,
                         {"to": to, "barrier": barrier, "pool": "4k2", "tn": 10, "total": 17,
                          "success": True}), b)

    assert burns("upper:B2") == "The fire burns up through the ceiling into The Swan (guest room)"
    assert burns("cellar:B2") == "The fire burns down through the floor into the Spirits Vault"
    assert burns("upper:A4", "closed thin-wooden-door", at="upper:A3") == (
        "The fire burns through the thin wooden door into the Linen Closet")


def test_the_players_see_a_fire_gutter_blaze_up_or_die_back_and_nothing_else_of_its_states():
    # (the log's ``after`` is a FireState value: each lit state the players can see has words)
    from fuego.engine.fire import FireState
    from fuego.render.players import say

    def state(after: FireState) -> str | None:
        return say(Event(EventKind.FIRE_STATE, 2, 3, "fire@ground:C4", "ground:C4",
                         {"trigger": "wound", "before": "burning", "after": after.value,
                          "why": "fuel spent"}), None)

    assert state(FireState.GUTTERING) == "The fire in somewhere gutters"  # (no building here)
    assert str(state(FireState.BURNING)).endswith(" blazes up")
    assert str(state(FireState.FLAME)).endswith(" dies back to a flicker")
    assert state(FireState.OUT) is None and state(FireState.KINDLING) is None
