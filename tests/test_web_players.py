"""The players' screen to the end, in a real browser (Debian's Chromium, driven by selenium).

The story keeps every round, in the players' words (no pool, TN or grid reference on any page);
the GM's ``reveal``, ``hide`` and ``note`` typed at ``fuego play --screen`` show at once and an
``undo`` takes them back; at the end the whole ruin is shown, with what burned and who got out;
each player's own page shows what that hero sees (and what it sees from outside); a phone
shows the hero and the story first. Screenshots go to tests/artifacts/ (the ones in
docs/gm-guide.md are made the same way).
"""

from __future__ import annotations

import re

import pytest
from test_web_browser import ROOT, _answer, _url, browser, fires_on_page, shot, until  # noqa: F401
from test_web_view import RULES_TEXT, play_tavern

from fuego.web.feed import ScreenFeed
from fuego.web.server import Hub, ScreenServer

pytestmark = pytest.mark.slow

from selenium.webdriver.common.by import By  # noqa: E402


def _page_text(driver) -> str:
    return driver.execute_script("return document.body.innerText")


def _rules_text(driver) -> list[str]:
    """Rules arithmetic on the page, what is read aloud aside (the scenario author's text)."""
    text = driver.execute_script(
        "return Array.from(document.body.querySelectorAll('header, #me, #heroes, #ruin, "
        "#lines li:not(.read)')).map((e) => e.innerText).join('\\n')")
    return RULES_TEXT.findall(text)


def _top(driver, css: str) -> float:
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]);"
        "return e && e.offsetParent !== null ? e.getBoundingClientRect().top + scrollY : -1;",
        css)


@pytest.fixture(scope="module")
def served():
    """The tavern after four rounds (Gaston spots the kitchen fire; the kitchen and the bar
    flash over in round 4), served as the table's feed would serve it."""
    import contextlib

    from test_web_view import Watcher, tavern_session

    from fuego.table.replay import Player, Quit

    hub = Hub()
    feed = ScreenFeed(hub)
    live = Watcher(rounds=4)
    player = Player(tavern_session(), feed.wrap(live), attach=feed.after(live.attach))
    with contextlib.suppress(Quit):  # the Watcher stops after its rounds
        player.run()
    feed.publish()
    server = ScreenServer(hub, "tok", "127.0.0.1", 0).start()
    yield player.scene, server, feed
    server.stop()


def test_the_story_keeps_whole_rounds_in_the_players_words(browser, served):  # noqa: F811
    scene, server, feed = served
    browser.set_window_size(1920, 1080)
    browser.get(server.url())
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#lines section[data-round='4']"),
          10, "the story drawn")
    rounds = [int(s.get_attribute("data-round"))
              for s in browser.find_elements(By.CSS_SELECTOR, "#lines section")]
    assert rounds == [0, 1, 2, 3, 4]
    one = browser.find_elements(By.CSS_SELECTOR, "#lines section[data-round='1'] li")
    texts = [li.get_attribute("textContent") for li in one]
    heading = browser.find_element(By.CSS_SELECTOR, "#lines section[data-round='1'] h3")
    assert heading.get_attribute("textContent") == "Round 1"
    # every line of the round the players were told, in order, under its heading
    told = next(r for r in feed.tellers.shared.rounds if r["round"] == 1)["lines"]
    assert texts == [line["text"] for line in told if not re.fullmatch(
        r"Round \d+ (begins|ends)", line["text"])]
    assert len(texts) > 5
    # the newest round at the bottom, in view; the earlier ones a scroll back
    box = browser.find_element(By.ID, "lines")
    assert browser.execute_script(
        "const b = arguments[0]; return b.scrollHeight > b.clientHeight && "
        "b.scrollTop + b.clientHeight >= b.scrollHeight - 2", box)
    browser.execute_script("arguments[0].scrollTop = 0", box)
    until(browser, lambda d: one[0].is_displayed() and one[0].location["y"] > 0)
    assert "This round: " in browser.find_element(By.ID, "changes").text
    assert "the Kitchen flashed over" in browser.find_element(By.ID, "changes").text
    assert _rules_text(browser) == []
    assert "ground:" not in browser.find_element(By.ID, "lines").text.replace(
        "cellar:B2", "")  # (a read-aloud line of the scenario names an area)
    # the new fires of this round are marked on the map
    assert browser.find_elements(By.CSS_SELECTOR, "g.fire.new, g.fire.grew")
    shot(browser, "players-screen-tv-mid", 1920, 1080)


#: The story's text lines and items that its box (under the round's heading stuck at its top)
#: shows only part of: [text, px hidden, px shown].
CUT_LINES = """
const box = document.getElementById("lines"), b = box.getBoundingClientRect();
let edge = b.top;
box.querySelectorAll("h3").forEach((h) => {
  const r = h.getBoundingClientRect();
  if (getComputedStyle(h).position === "sticky" && Math.abs(r.top - b.top) <= 1)
    edge = Math.max(edge, r.bottom);
});
const out = [];
box.querySelectorAll("li, h3").forEach((el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  for (const r of range.getClientRects()) {
    const hides = getComputedStyle(el).position === "sticky" && Math.abs(r.top - b.top) <= 8;
    const top = hides ? b.top : edge;
    const shown = Math.min(r.bottom, b.bottom) - Math.max(r.top, top);
    if (shown > 1 && shown < r.height - 1) out.push([el.textContent, r.height - shown, shown]);
  }
  // (or the end of an item that is not most of the box, or only the foot of a line)
  const r = el.getBoundingClientRect();
  if (el.tagName === "LI" && r.top < edge - 1 && r.bottom > edge + 1 &&
      r.bottom - edge < 0.6 * (b.bottom - edge))
    out.push([el.textContent, "the end of it", r.bottom - edge]);
});
return out;
"""


@pytest.mark.parametrize("size", [(1920, 1080), (390, 844), (1280, 720)])
def test_the_story_shows_whole_lines_never_half_of_one(browser, served, size):  # noqa: F811
    # the story scrolled to its newest line: the line at the top of its box, under the round's
    # heading, is shown whole or not at all (it was cut in half under "Round 4")
    _scene, server, _feed = served
    try:
        shot(browser, "story-lines", *size)  # (sizes the window)
        for page in ("", "&hero=gaston-allais", "&hero=isabela-soldano"):
            browser.get(server.url() + page)
            until(browser, lambda d: d.find_elements(By.CSS_SELECTOR,
                                                     "#lines section[data-round='4']"), 10)
            box = browser.find_element(By.ID, "lines")
            assert browser.execute_script(
                "const b = arguments[0]; return b.scrollHeight > b.clientHeight + 40 && "
                "b.scrollTop + b.clientHeight >= b.scrollHeight - 1", box)  # (scrolled to its end)
            assert browser.execute_script(CUT_LINES) == [], (size, page)
        outer = browser.get_window_size()  # the window resized
        browser.set_window_size(outer["width"] - 37, outer["height"] - 53)
        until(browser, lambda d: d.execute_script(CUT_LINES) == [], 5, "whole after a resize")
    finally:
        browser.set_window_size(1920, 1080)


def test_rounds_in_a_row_where_nothing_is_seen_share_one_heading(browser, served):  # noqa: F811
    # (the wagon played out: "Round 21, nothing the heroes see", and again to round 24)
    _scene, server, feed = served
    shared, views = feed.tellers.states()
    story = shared["story"]
    quiet = [{"round": n, "lines": [{"text": f"Round {n} begins", "kind": "round"},
                                    {"text": f"Round {n} ends", "kind": "round"}]}
             for n in range(5, 9)]
    told = {"round": 9, "lines": [{"text": "The fire in the Bar burns itself out", "kind": "fire"}]}
    feed.hub.publish({**shared, "story": [*story, *quiet, told, {**quiet[0], "round": 10}]},
                     views=views)
    try:
        browser.get(server.url())
        until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#lines section[data-round='9']"),
              10)
        heads = [h.get_attribute("textContent")
                 for h in browser.find_elements(By.CSS_SELECTOR, "#lines h3")]
        assert heads == ["Before round 1", "Round 1", "Round 2", "Round 3", "Round 4",
                         "Rounds 5\u20138", "Round 9", "Round 10"]
        quiet_box = browser.find_element(By.CSS_SELECTOR, "#lines section[data-round='5']")
        assert quiet_box.get_attribute("data-to") == "8"
        assert quiet_box.find_element(By.TAG_NAME, "li").get_attribute(
            "textContent") == "nothing the heroes see"
    finally:
        feed.publish()  # (the served state again, for the tests after this one)


def test_a_players_own_page_shows_what_that_hero_sees(browser, served):  # noqa: F811
    scene, server, feed = served
    b = scene.building
    browser.set_window_size(1920, 1080)
    browser.get(server.url())
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "nav#pick a[data-hero]"), 10)
    from fuego.web.view import known_fires

    shared = fires_on_page(browser)
    isabela = scene.hero("Isabela Soldano")
    hers = {b.areas[i].name for i in known_fires(scene, isabela)}
    assert set(shared) == {b.areas[i].name for i in known_fires(scene)}
    browser.find_element(By.CSS_SELECTOR, "nav#pick a[data-hero='isabela-soldano']").click()
    until(browser, lambda d: d.find_element(By.ID, "me").is_displayed(), 10, "her page")
    me = browser.find_element(By.ID, "me").text
    assert isabela.name in me and f"{isabela.dramatic}/{isabela.knocked_out_at}" in me
    assert "Flesh Wounds" in me and "Dramatic Wounds" in me
    until(browser, lambda d: set(fires_on_page(d)) == hers, what="her fires")
    # she got out into Goose Lane: the burning common room is in her sight from outside,
    # flames at its windows and its open front door
    assert isabela.status.value == "escaped" and b.rooms[b.areas[isabela.area].room].outdoors
    mine = fires_on_page(browser)
    assert mine and all(not b.rooms[b.areas[b.find(a)].room].outdoors for a in mine)
    assert any(b.areas[b.find(a)].room == "common" for a in mine)
    # a fire Gaston sees and she cannot (out of her line of sight): the table's page has it,
    # hers does not
    from fuego.engine.sight import hero_sight
    from fuego.table import gm

    gaston = scene.hero("Gaston Allais")
    theirs, her_view = hero_sight(scene, gaston).in_view, hero_sight(scene, isabela).in_view
    spot = next(i for i in sorted(theirs - her_view)
                if b.areas[i].burnable and i not in scene.fires)
    gm.start_fire(scene, b.areas[spot].name, 4)
    feed.publish()
    until(browser, lambda d: "reconnecting" not in d.find_element(By.ID, "conn").text)
    browser.refresh()
    until(browser, lambda d: d.find_element(By.ID, "me").is_displayed(), 10)
    until(browser, lambda d: set(fires_on_page(d)) == {b.areas[i].name
                                                       for i in known_fires(scene, isabela)})
    assert b.areas[spot].name not in fires_on_page(browser)
    browser.get(server.url())
    until(browser, lambda d: fires_on_page(d).get(b.areas[spot].name) == 4, 10, "the table's")
    browser.get(server.url() + "&hero=isabela-soldano")
    until(browser, lambda d: d.find_element(By.ID, "me").is_displayed(), 10)
    assert browser.find_element(By.CSS_SELECTOR, "nav#pick a.here").text == isabela.name
    assert browser.find_elements(By.CSS_SELECTOR, "g.figure .me-mark")
    assert _rules_text(browser) == []
    # an unknown hero's page: it says so, and leads to the table's
    browser.get(server.url() + "&hero=nobody")
    until(browser, lambda d: "No hero 'nobody'" in d.find_element(By.ID, "moment").text, 10)
    browser.find_element(By.ID, "to-table").click()
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "nav#pick a.here#pick-table"), 10)


def test_a_phone_shows_the_hero_and_the_story_first(browser, served):  # noqa: F811
    scene, server, feed = served
    browser.set_window_size(390, 844)
    try:
        shot(browser, "players-screen-phone-hero", 390, 844)  # (sizes the window)
        browser.get(server.url() + "&hero=gaston-allais")
        until(browser, lambda d: d.find_element(By.ID, "me").is_displayed(), 10)
        me, story, maps = _top(browser, "#me"), _top(browser, "#story"), _top(browser, "#maps")
        assert 0 <= me < story < maps
        assert me < 844 / 2 and story < 844  # both begin on the first screen
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390  # nothing wider than the phone
        shot(browser, "players-screen-phone-hero", 390, 844)
        browser.get(server.url())  # the table's page on a phone: the heroes, then the story
        until(browser, lambda d: d.find_element(By.ID, "heroes").text, 10)
        assert 0 <= _top(browser, "#heroes-box") < _top(browser, "#story") < _top(browser,
                                                                                  "#maps")
    finally:
        browser.set_window_size(1920, 1080)


#: The story scrolled back into its longest round, that round's heading's top and its own top
#: from the box's top (px): [heading, round].
SCROLLED_INTO_A_ROUND = """
const box = document.getElementById("lines");
const longest = Array.from(box.querySelectorAll("section.round-lines")).reduce(
  (a, b) => (b.offsetHeight > a.offsetHeight ? b : a));
box.scrollTop += longest.getBoundingClientRect().top - box.getBoundingClientRect().top + 40;
const top = box.getBoundingClientRect().top;
return [longest.querySelector("h3").getBoundingClientRect().top - top,
        longest.getBoundingClientRect().top - top, longest.offsetHeight];
"""


@pytest.mark.parametrize("size", [(390, 844), (1920, 1080)])
def test_a_rounds_heading_stays_on_top_while_its_lines_scroll(browser, served, size):  # noqa: F811
    # (on a phone the heading scrolled away with the lines: which round was this?)
    _scene, server, _feed = served
    browser.set_window_size(*size)
    try:
        browser.get(server.url())
        until(browser, lambda d: d.find_elements(By.CSS_SELECTOR,
                                                 "#lines section[data-round='4']"), 10)
        heading, round_top, tall = browser.execute_script(SCROLLED_INTO_A_ROUND)
        assert tall > 80 and round_top <= -39  # (scrolled 40 px into the round)
        assert abs(heading) <= 1, (size, heading)
    finally:
        browser.set_window_size(1920, 1080)


def test_a_name_of_one_long_word_breaks_rather_than_widens_the_page(browser):  # noqa: F811
    from test_web_view import TAVERN

    from fuego.engine.scene import Cause
    from fuego.scenario.model import loads

    hero, room = "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenh", (
        "Gemeinschaftsraumbewirtschaftungsgesellschaftsvorsitzender")
    text = TAVERN.read_text(encoding="utf-8").replace("Isabela Soldano", hero).replace(
        "name: Common Room,", f"name: {room},")
    scene = loads(text, source="long.yaml").build(8)
    hub = Hub()
    feed = ScreenFeed(hub)
    feed.attach(scene)
    scene.start_fire(scene.building.area("ground:E3").index, 3, Cause.GM)  # (in the hero's sight)
    feed.publish()
    server = ScreenServer(hub, "tok", "127.0.0.1", 0).start()
    try:
        for width, height in ((390, 844), (1920, 1080)):
            shot(browser, "long-names", width, height)  # (sizes the window)
            for page in ("", "&hero=" + hero.lower()):
                browser.get(server.url() + page)
                until(browser, lambda d: room in d.find_element(By.ID, "lines").text, 10)
                wide = browser.execute_script(
                    "return Array.from(document.querySelectorAll('body *')).filter((e) => "
                    "e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('svg'))"
                    ".map((e) => e.tagName + '#' + e.id + '.' + e.className)")
                assert wide == [], (width, page)
                assert browser.execute_script(
                    "return document.documentElement.scrollWidth") <= width
                # (and a card's initials stay on one line: "MH", not "M" over "H")
                assert browser.execute_script(
                    "const t = Array.from(document.querySelectorAll('#heroes .token'));"
                    "return t.length > 0 && t.every((e) => e.scrollHeight <= e.clientHeight + 1)")
    finally:
        server.stop()
        browser.set_window_size(1920, 1080)


def _village_after_round_1():
    from fuego.cli.mapcmd import play_to
    from fuego.scenario.model import load

    return play_to(load(ROOT / "campaigns" / "village.yaml"), 1, 0)


def _tavern_with_a_flame():
    from test_web_view import TAVERN

    from fuego.engine.scene import Cause
    from fuego.scenario.model import load

    scene = load(TAVERN).build(8)
    scene.start_fire(scene.heroes[0].area, 1, Cause.GM, flame=True)  # (where a hero sees it)
    return scene


@pytest.mark.parametrize("key,mark,words,title,make", [
    ("key-firebreak", "#maps .firebreak", "fire break", None, _village_after_round_1),
    # a Flame (the flame-and-blaze module's beginning fire) is drawn hollow, unlike any fire
    # the key showed
    ("key-flame", "#maps .fire-flame", "Flame", "a Flame, not spreading yet",
     _tavern_with_a_flame),
])
def test_the_key_names_a_mark_only_where_a_map_shows_one(browser, served, key, mark, words,  # noqa: F811
                                                           title, make):
    _scene, tavern, _feed = served
    browser.set_window_size(1920, 1080)
    browser.get(tavern.url())
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#maps svg"), 10)
    assert not browser.find_element(By.ID, key).is_displayed()
    hub = Hub()
    feed = ScreenFeed(hub)
    feed.attach(make())
    feed.publish()
    server = ScreenServer(hub, "tok", "127.0.0.1", 0).start()
    try:
        browser.get(server.url())
        until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, mark), 10)
        shown = browser.find_element(By.ID, key)
        assert shown.is_displayed() and words in shown.text
        if title is not None:  # (and the mark's own tooltip says what it is)
            tip = browser.find_element(By.CSS_SELECTOR, f"{mark} title")
            assert title in tip.get_attribute("textContent")
    finally:
        server.stop()


# -- at the table: reveal, hide, note, undo, the end --------------------------------------------
def test_reveal_hide_note_and_the_end_typed_at_the_table(browser, tmp_path):  # noqa: F811
    from test_play import Proc

    args = ["play", str(ROOT / "campaigns" / "tavern.yaml"), "--seed", "24", "--session",
            "s.json", "--plain", "--screen"]
    proc = Proc(args, tmp_path)
    try:
        proc.wait_first_prompt()
        url = _url(proc)
        browser.set_window_size(1920, 1080)
        browser.get(url)
        until(browser, lambda d: "Before round 1" in d.find_element(By.ID, "moment").text, 10)
        assert fires_on_page(browser) == {}
        shot(browser, "players-screen-tv-early", 1920, 1080)

        _answer(proc, "reveal kitchen")  # the kitchen fire, hidden from every hero: shown
        until(browser, lambda d: fires_on_page(d).get("ground:B2") == 3, what="revealed")
        assert browser.find_element(By.ID, "shown").is_displayed()
        _answer(proc, "note The cook is screaming somewhere behind the bar")
        until(browser, lambda d: "The cook is screaming" in d.find_element(By.ID, "lines").text)
        gm = browser.find_element(By.CSS_SELECTOR, "#lines li.gm")
        assert gm.text == "The cook is screaming somewhere behind the bar"  # marked GM: by the page
        _answer(proc, "hide kitchen")
        until(browser, lambda d: fires_on_page(d) == {}, what="hidden again")
        assert not browser.find_element(By.ID, "shown").is_displayed()
        _answer(proc, "reveal all")
        until(browser, lambda d: "ground:B2" in fires_on_page(d), what="all revealed")
        assert all(el.get_attribute("class") == "seen"
                   for el in browser.find_elements(By.CSS_SELECTOR, "rect[id^='area-']"))
        # undo round takes the reveals and the note back with the rest of the round's answers
        _answer(proc, "undo round")
        until(browser, lambda d: fires_on_page(d) == {}, what="undone")
        until(browser, lambda d: "The cook" not in d.find_element(By.ID, "lines").text)

        # a round played, then the GM ends the scene: the whole ruin, who got out
        _answer(proc, "")
        while "Round 2: Enter to play it" not in proc.text:
            _answer(proc, "")
        _answer(proc, "end")
        until(browser, lambda d: d.find_element(By.ID, "ruin").is_displayed(), 10, "the end")
        ruin = browser.find_element(By.ID, "ruin").text
        assert "the end of the scene" in ruin.lower() and "areas burned" in ruin
        assert re.search(r"Isabela Soldano (got out|still inside)", ruin)
        assert "The scene is over" in browser.find_element(By.ID, "moment").text
        assert all(el.get_attribute("class") == "seen"
                   for el in browser.find_elements(By.CSS_SELECTOR, "rect[id^='area-']"))
        assert "ground:A3" in fires_on_page(browser)  # the pantry side no hero saw burning
        assert _rules_text(browser) == []
        shot(browser, "players-screen-tv-end", 1920, 1080)
        # a player's own page at the end: the ruin is the end's, not "what the GM shows"
        browser.get(url + "&hero=isabela-soldano")
        until(browser, lambda d: d.find_element(By.ID, "ruin").is_displayed(), 10)
        me = browser.find_element(By.ID, "me").text
        assert "Sees: " in me and "GM shows" not in me
        proc.send("quit")
        assert proc.p.wait(timeout=30) == 0
    finally:
        if proc.p.poll() is None:
            proc.kill()


def test_the_latest_button_fits_a_phone(browser, tmp_path):  # noqa: F811
    from test_play import Proc

    from fuego.table import session as sessions

    player, _live = play_tavern(rounds=2)
    sessions.save(player.session, str(tmp_path / "friday.json"))
    proc = Proc(["screen", "friday.json"], tmp_path)
    try:
        until(None, lambda _: "moments to review" in proc.text or proc.p.poll() is not None, 30)
        shot(browser, "review-phone", 390, 844)  # (sizes the window)
        browser.get(_url(proc))
        until(browser, lambda d: d.find_element(By.ID, "review").is_displayed(), 10)
        for button in ("prev", "next", "latest"):
            box = browser.find_element(By.ID, button).rect
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, button
        shot(browser, "review-phone", 390, 844)
    finally:
        browser.set_window_size(1920, 1080)
        proc.p.terminate()
        proc.p.wait(timeout=30)
