"""The players' screen in a real browser: Debian's Chromium, driven by selenium.

``fuego play campaigns/tavern.yaml --screen`` is driven through its prompts (a subprocess over
pipes, as tests/test_play.py does) while the page is open: the kitchen fire is hidden until
Gaston spots it, the fires the oil carries into the common room appear without a reload, the
page survives the table quitting and resuming (it reconnects by itself), and follows an undo.
Screenshots at 1920x1080 and 390x844 are saved in tests/artifacts/ (not committed).

Without Chromium the tests are skipped, except in CI (``CI`` set), where .ci/run installs it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import tempfile
import threading
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from test_play import Proc

from fuego.table import session as sessions
from fuego.web.feed import ScreenFeed
from fuego.web.server import Hub, ScreenServer
from fuego.web.view import players_view

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars"]
#: The page must follow the table within this (a wait-until, never a timing assert).
FOLLOW = 2.0

pytestmark = pytest.mark.slow


def _have_browser() -> bool:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return False
    return os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)


if not _have_browser():
    if os.environ.get("CI"):
        raise RuntimeError("CI needs Debian's chromium and chromium-driver and selenium: "
                           ".ci/run installs them")
    pytest.skip("no Chromium/chromedriver/selenium here (apt-get install chromium "
                "chromium-driver)", allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    profile = tempfile.mkdtemp(prefix="fuego-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument("--window-size=1920,1080")
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def until(driver, check, timeout: float = FOLLOW, what: str = ""):
    """Wait until ``check(driver)`` is truthy (at most ``timeout`` seconds)."""
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: check(d), message=what)


def fires_on_page(driver) -> dict[str, int]:
    return {el.get_attribute("data-area"): int(el.get_attribute("data-fd"))
            for el in driver.find_elements(By.CSS_SELECTOR, "g.fire")}


def size_inner(driver, width: int, height: int) -> None:
    """Size the window so its inside is ``width`` x ``height``, what a screen of that size
    shows: the frame's size read off the window as it is (a resize lands a moment later, so
    the inside is waited for; reading it at once gave the last size's, and a negative width)."""
    def inner() -> list[int]:
        return driver.execute_script("return [window.innerWidth, window.innerHeight]")

    def resized(was: list[int], _driver: object) -> bool:
        return inner() != was

    for _ in range(3):
        now = inner()
        if now == [width, height]:
            return
        outer = driver.get_window_size()
        driver.set_window_size(max(100, outer["width"] + width - now[0]),
                               max(100, outer["height"] + height - now[1]))
        with contextlib.suppress(TimeoutException):
            WebDriverWait(driver, 2, poll_frequency=0.05).until(partial(resized, now))


def shot(driver, name: str, width: int, height: int) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    size_inner(driver, width, height)
    path = ARTIFACTS / f"{name}-{width}x{height}.png"
    driver.save_screenshot(str(path))
    return path


def centre_inside(driver, inner_id: str, outer_id: str) -> bool:
    return driver.execute_script(
        "const a = document.getElementById(arguments[0]).getBoundingClientRect();"
        "const b = document.getElementById(arguments[1]).getBoundingClientRect();"
        "const x = a.left + a.width / 2, y = a.top + a.height / 2;"
        "return a.width > 0 && x > b.left && x < b.right && y > b.top && y < b.bottom;",
        inner_id, outer_id)


# -- the map where the session says -------------------------------------------------------------
def test_fires_and_heroes_drawn_where_the_session_says(browser):
    from test_web_view import play_tavern

    player, _live = play_tavern(rounds=1)
    scene = player.scene
    assert scene is not None
    hub = Hub()
    feed = ScreenFeed(hub)
    feed.attach(scene)
    feed.publish()
    server = ScreenServer(hub, "tok", "127.0.0.1", 0).start()
    try:
        browser.set_window_size(1920, 1080)
        browser.get(server.url())
        view = players_view(scene)
        want = {f["area"]: f["fd"] for lv in view["levels"] for f in lv["fires"]}
        assert want  # the oil has carried the fire into sight by the end of round 1
        until(browser, lambda d: fires_on_page(d) == want, 10, "the fires drawn")
        b = scene.building
        for area in want:
            assert scene.fires[b.area(area).index].fd == want[area]
            assert centre_inside(browser, f"fire-{area}", f"area-{area}"), area
        hidden = {b.areas[i].name for i in scene.fires} - set(want)
        assert hidden  # the pantry side burns out of every hero's sight ...
        for area in hidden:  # ... and is not on the page
            assert not browser.find_elements(By.ID, f"fire-{area}")
        for hero in scene.heroes:
            if hero.npc:
                continue
            gid = "hero-" + re.sub(r"[^A-Za-z0-9_:.@-]", "-", hero.name)
            assert centre_inside(browser, gid, f"area-{b.areas[hero.area].name}"), hero.name
            card = browser.find_element(By.ID, "card-" + re.sub(r"[^A-Za-z0-9_-]", "-",
                                                                 hero.name))
            assert hero.name in card.text and f"{hero.dramatic}/{hero.knocked_out_at}" in card.text
    finally:
        server.stop()


def test_with_every_hero_down_the_page_says_no_hero_can_see(browser):
    from test_web_view import play_tavern

    from fuego.engine.heroes import Status

    player, _live = play_tavern(rounds=1)
    scene = player.scene
    assert scene is not None and players_view(scene)["fires"]
    for hero in scene.heroes:  # the players' heroes all down: nobody's eyes for the page
        if not hero.npc:
            hero.status = Status.KNOCKED_OUT
    hub = Hub()
    feed = ScreenFeed(hub)
    feed.attach(scene)
    feed.publish()
    server = ScreenServer(hub, "tok", "127.0.0.1", 0).start()
    try:
        browser.set_window_size(1920, 1080)
        browser.get(server.url())
        until(browser, lambda d: "no hero is conscious to see" in
              d.find_element(By.ID, "moment").text, 10, "the page saying why")
        assert "no fire in sight" not in browser.find_element(By.ID, "moment").text
        assert fires_on_page(browser) == {}  # what their heroes see: nothing
    finally:
        server.stop()


# -- fuego play --screen, driven at its prompts -----------------------------------------------------
class Streams:
    """``n`` browsers' worth of event streams, each read by its own thread."""

    def __init__(self, url: str, n: int):
        parts = urlsplit(url)
        assert parts.hostname is not None
        self.host, self.port, self.query = parts.hostname, parts.port, parts.query
        self.seen: list[int] = [0] * n
        self.conns = []
        for k in range(n):
            conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
            conn.request("GET", "/events?" + self.query)
            resp = conn.getresponse()
            assert resp.status == 200
            self.conns.append(conn)
            threading.Thread(target=self._read, args=(k, resp), daemon=True).start()

    def _read(self, k: int, resp) -> None:
        try:
            for line in resp:
                if line.startswith(b"data: "):
                    self.seen[k] = json.loads(line[6:])["version"]
        except (OSError, ValueError, http.client.HTTPException):
            return

    def close(self) -> None:
        for conn in self.conns:
            conn.close()


def _url(proc: Proc) -> str:
    m = re.search(r"Players' screen: (http://\S+)", proc.text)
    assert m, proc.text
    return m.group(1)


def _answer(proc: Proc, text: str) -> None:
    proc.send(text)
    proc.wait_prompt()


def _version(url: str) -> int:
    parts = urlsplit(url)
    assert parts.hostname is not None
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    conn.request("GET", "/state?" + parts.query)
    version = json.loads(conn.getresponse().read())["version"]
    conn.close()
    return version


def _refused(url: str) -> bool:
    parts = urlsplit(url)
    try:
        socket.create_connection((parts.hostname, parts.port), timeout=2).close()
    except OSError:
        return True
    return False


@pytest.mark.slow
def test_play_tavern_with_the_screen(browser, tmp_path):
    """The issue's must-show, end to end (see the module's docstring)."""
    args = ["play", str(ROOT / "campaigns" / "tavern.yaml"), "--seed", "8", "--session", "s.json",
            "--plain", "--screen"]
    proc = Proc(args, tmp_path)
    streams = None
    try:
        proc.wait_first_prompt()
        url = _url(proc)
        assert url.startswith("http://127.0.0.1:") and "?token=" in url
        browser.set_window_size(1920, 1080)
        browser.get(url)
        until(browser, lambda d: "Before round 1" in d.find_element(By.ID, "moment").text, 10)
        assert fires_on_page(browser) == {}  # the kitchen fire: hidden from every hero
        browser.execute_script("window.fuegoMark = 'no reload'")
        streams = Streams(url, 20)  # 20 more browsers, listening while the GM plays

        # round 1: Gaston spots the kitchen fire through the floor; his player rolls 40
        for answer in ("", "", "spot ground:B2", "40"):
            _answer(proc, answer)
        assert "Gaston Allais spots the fire in ground:B2" in proc.text
        until(browser, lambda d: fires_on_page(d).get("ground:B2") == 3, what="B2 spotted")
        assert browser.find_element(By.ID, "fire-ground:B2").get_attribute("data-hot") == "1"
        assert "Gaston Allais spots a fire in the Kitchen" in browser.find_element(By.ID, "lines").text

        # on to the end of the round: the oil carries the fire into the common room
        while "Round 2: Enter to play it" not in proc.text:
            _answer(proc, "")
        until(browser, lambda d: "ground:E2" in fires_on_page(d), what="the new fires")
        until(browser, lambda d: "Round 1, end of round" in d.find_element(By.ID, "moment").text)
        assert browser.execute_script("return window.fuegoMark") == "no reload"
        latest = _version(url)
        until(browser, lambda d: min(streams.seen) >= latest, 10, "all 20 streams followed")
        shot(browser, "tavern-round-1", 1920, 1080)
        shot(browser, "tavern-round-1", 390, 844)
        browser.set_window_size(1920, 1080)

        # the table stops; the page waits, and reconnects by itself to the resumed game
        proc.send("quit")
        assert proc.p.wait(timeout=30) == 0
        assert _refused(url)  # the server stopped with the table
        until(browser, lambda d: "lost" in d.find_element(By.ID, "conn").get_attribute("class"),
              10, "the page notices")
        proc = Proc(["play", "--resume", "s.json", "--plain", "--screen"], tmp_path)
        proc.wait_first_prompt()
        assert _url(proc) == url  # the same address: the token and port were kept
        until(browser, lambda d: "live" in d.find_element(By.ID, "conn").get_attribute("class"),
              10, "reconnected")
        assert browser.execute_script("return window.fuegoMark") == "no reload"

        # undo at the table: the page goes back too (before round 1: nothing in sight)
        _answer(proc, "undo round")
        until(browser, lambda d: fires_on_page(d) == {}, what="the undo shown")
        until(browser, lambda d: "Before round 1" in d.find_element(By.ID, "moment").text)
        proc.send("quit")
        assert proc.p.wait(timeout=30) == 0
        assert _refused(url)
    finally:
        if streams is not None:
            streams.close()
        if proc.p.poll() is None:
            proc.kill()


def test_ctrl_c_stops_the_server(tmp_path):
    (tmp_path / "shop.yaml").write_text(_shop(), encoding="utf-8")
    proc = Proc(["play", "shop.yaml", "--seed", "3", "--session", "s.json", "--plain",
                 "--screen", "127.0.0.1:0"], tmp_path)
    try:
        proc.wait_first_prompt()
        url = _url(proc)
        assert not _refused(url)
        proc.p.send_signal(signal.SIGINT)
        assert proc.p.wait(timeout=30) in (0, 130)  # saved either way (docs/gm-guide.md)
        assert _refused(url)
        assert "fuego play --resume s.json" in proc.text
    finally:
        if proc.p.poll() is None:
            proc.kill()


def _shop() -> str:
    from test_session import SHOP

    return SHOP


# -- fuego screen SAVE: a saved session, round by round ---------------------------------------------
@pytest.mark.slow
def test_screen_serves_a_saved_session_round_by_round(browser, tmp_path):
    from test_web_view import play_tavern

    player, _live = play_tavern(rounds=2)
    sessions.save(player.session, str(tmp_path / "friday.json"))
    before = (tmp_path / "friday.json").read_bytes()
    proc = Proc(["screen", "friday.json"], tmp_path)
    try:
        end = 30
        until_text = "moments to review"
        WebDriverWait(browser, end, poll_frequency=0.05).until(  # polls the process, not the page
            lambda _: until_text in proc.text or proc.p.poll() is not None)
        url = _url(proc)
        browser.set_window_size(1920, 1080)
        browser.get(url)
        until(browser, lambda d: d.find_element(By.ID, "review").is_displayed(), 10)
        label = browser.find_element(By.ID, "frame-label")
        until(browser, lambda d: label.text == "End of round 2 (3/3)", 10)
        newest = fires_on_page(browser)
        browser.find_element(By.ID, "prev").click()
        until(browser, lambda d: label.text.startswith("End of round 1"), what="stepped back")
        assert "Review: Round 1" in browser.find_element(By.ID, "moment").text
        told = browser.find_elements(By.CSS_SELECTOR, "#lines section")  # (its story then)
        assert [s.get_attribute("data-round") for s in told] == ["0", "1"]
        round1 = fires_on_page(browser)
        assert round1 and round1 != newest
        browser.find_element(By.ID, "prev").click()
        until(browser, lambda d: label.text.startswith("The scene begins"))
        until(browser, lambda d: fires_on_page(d) == {})
        browser.find_element(By.ID, "latest").click()
        until(browser, lambda d: fires_on_page(d) == newest)
        shot(browser, "review", 1920, 1080)
        browser.set_window_size(1920, 1080)
        assert (tmp_path / "friday.json").read_bytes() == before  # read-only

        # the game goes on in the same file (a third round saved): the page follows
        on, _ = play_tavern(rounds=3)
        sessions.save(on.session, str(tmp_path / "friday.json"))
        until(browser, lambda d: label.text == "End of round 3 (4/4)", 10, "followed the save")
        proc.p.send_signal(signal.SIGINT)
        assert proc.p.wait(timeout=30) == 130  # Ctrl-C is 130 everywhere (docs/cli.md)
        assert "Players' screen stopped." in proc.text
        assert _refused(url)
    finally:
        if proc.p.poll() is None:
            proc.kill()
