"""The players' screen's server (fuego.web.server) over real HTTP on 127.0.0.1: read-only, the
token, nothing outside the page, server-sent events to many browsers, a stalled browser that
never slows the table, a clean stop."""

from __future__ import annotations

import copy
import http.client
import json
import socket
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from fuego.scenario.model import loads
from fuego.web.feed import ScreenFeed
from fuego.web.server import MAX_CLIENTS, Hub, ScreenError, ScreenServer, parse_address

ROOT = Path(__file__).resolve().parent.parent


def tavern_scene(seed: int = 7):
    text = (ROOT / "campaigns" / "tavern.yaml").read_text(encoding="utf-8")
    return loads(text, source="tavern.yaml").build(seed)


@pytest.fixture
def served():
    """A tavern scene fed to a running server: (server, scene, feed)."""
    scene = tavern_scene()
    hub = Hub()
    feed = ScreenFeed(hub)
    feed.attach(scene)
    feed.publish()
    server = ScreenServer(hub, "s3cret-token_", "127.0.0.1", 0).start()
    yield server, scene, feed
    server.stop()


def request(server, method: str, path: str, body: bytes | None = None,
            headers: dict | None = None) -> tuple[int, bytes, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.read(), dict(resp.getheaders())
    finally:
        conn.close()


def with_token(server, path: str) -> str:
    return path + ("&" if "?" in path else "?") + "token=" + server.token


def test_the_page_and_its_assets_with_the_token(served):
    server, scene, _feed = served
    url = urlsplit(server.url())
    assert url.hostname == "127.0.0.1" and url.query == f"token={server.token}"
    status, body, headers = request(server, "GET", url.path + "?" + url.query)
    assert status == 200 and headers["content-type"].startswith("text/html")
    page = body.decode()
    assert f"/page.js?token={server.token}" in page and f"/page.css?token={server.token}" in page
    assert headers["cache-control"] == "no-store" and headers["referrer-policy"] == "no-referrer"
    assert "default-src 'none'" in headers["content-security-policy"]
    for asset in ("/page.js", "/page.css"):
        assert request(server, "GET", with_token(server, asset))[0] == 200
    status, body, _ = request(server, "GET", with_token(server, "/state"))
    state = json.loads(body)["state"]
    assert state["title"] == "The Gilded Goose" and state["round"] == scene.round == 0
    assert request(server, "HEAD", with_token(server, "/"))[0] == 200


@pytest.mark.parametrize("path", ["/", "/state", "/events", "/page.js", "/frames/0", "/nowhere",
                                  "/?token=", "/?token=s3cret-token", "/?token=S3CRET-TOKEN_",
                                  "/?tok=s3cret-token_", "/state?token=s3cret-token_x"])
def test_no_token_no_page(served, path):
    server = served[0]
    status, body, _ = request(server, "GET", path)
    assert status == 403, path
    assert b"<svg" not in body and b"Gilded" not in body


@pytest.mark.parametrize("path", [
    "/pyproject.toml", "/../pyproject.toml", "/%2e%2e/%2e%2e/etc/passwd", "/page.js/../../etc/passwd",
    "/fuego/web/assets.py", "/static/page.js", "/page.js.map", "/index.html", "/frames/999",
    "/frames/-1", "//etc/passwd", "/.git/config",
])
def test_no_path_outside_the_page(served, path):
    server = served[0]
    status, body, _ = request(server, "GET", with_token(server, path))
    assert status == 404, path
    assert b"root:" not in body and b"[project]" not in body


def test_read_only_every_method_refused_and_the_scene_unchanged(served):
    server, scene, feed = served
    before = (copy.deepcopy(scene.snapshot()), scene.roller.getstate(), len(scene.log),
              server.hub.latest())
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"):
        for path in ("/", "/state", "/events", "/page.js", "/frames/0", "/nowhere"):
            for p in (path, with_token(server, path)):
                status, _, headers = request(server, method, p, body=b'{"round": 9}',
                                             headers={"content-type": "application/json"})
                assert status == 405, (method, p)
                assert headers["allow"] == "GET, HEAD"
    feed.publish()  # the same scene: nothing new to send
    after = (scene.snapshot(), scene.roller.getstate(), len(scene.log), server.hub.latest())
    assert after == before


def _sse(server):
    """An open event stream: (connection, response)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    conn.request("GET", with_token(server, "/events"))
    resp = conn.getresponse()
    assert resp.status == 200 and resp.getheader("content-type", "").startswith("text/event-stream")
    return conn, resp


def _read_until(resp, version: int) -> dict:
    """Read events until one with ``version`` (or later) comes; return it."""
    while True:
        line = resp.readline()
        if not line:
            raise AssertionError("the stream ended")
        if line.startswith(b"data: "):
            msg = json.loads(line[6:])
            if msg["version"] >= version:
                return msg


def test_twenty_browsers_and_a_stalled_one_never_block_the_table(served):
    """20 streams read while the table publishes 200 states; a 21st never reads a byte. Every
    publish returns (the table never waits), and each reader ends on the newest state."""
    server, scene, feed = served
    hub = server.hub
    stalled = socket.create_connection(("127.0.0.1", server.port))
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.sendall(f"GET /events?token={server.token} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    readers = [_sse(server) for _ in range(20)]
    first = [_read_until(resp, 1) for _conn, resp in readers]
    assert {m["version"] for m in first} == {hub.version}

    big = "x" * 60_000  # a state as big as a tavern's three maps, so the stalled socket fills

    def table():
        for n in range(200):
            hub.publish({"n": n, "pad": big})

    t = threading.Thread(target=table)
    t.start()
    t.join(60)
    assert not t.is_alive(), "publishing waited for a browser"
    final = hub.version
    results = [_read_until(resp, final) for _conn, resp in readers]
    assert all(m["version"] == final and m["state"]["n"] == 199 for m in results)
    assert hub.clients >= 20
    for conn, _resp in readers:
        conn.close()
    stalled.close()


def test_head_of_the_stream_starts_no_stream(served):
    server = served[0]
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:  # the connection kept open, as a browser keeps it
        conn.request("HEAD", with_token(server, "/events"))
        resp = conn.getresponse()
        assert resp.status == 200 and resp.read() == b""
        assert resp.getheader("content-type", "").startswith("text/event-stream")
        for _ in range(20):  # the server busy with other requests meanwhile: still no stream
            assert request(server, "GET", with_token(server, "/state"))[0] == 200
        assert server.hub.clients == 0
    finally:
        conn.close()


def test_too_many_streams_are_turned_away(served):
    server = served[0]
    conns = [_sse(server) for _ in range(MAX_CLIENTS)]
    try:
        status, _, _ = request(server, "GET", with_token(server, "/events"))
        assert status == 503
    finally:
        for conn, _ in conns:
            conn.close()


def test_stop_ends_the_streams_and_frees_the_port():
    hub = Hub()
    hub.publish({"round": 1})
    server = ScreenServer(hub, "t", "127.0.0.1", 0).start()
    assert server._thread is not None
    conn, resp = _sse(server)
    _read_until(resp, 1)
    server.stop()
    assert not server._thread.is_alive()
    assert resp.read() is not None  # the stream ended (no hang)
    conn.close()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", server.port), timeout=2)
    server.stop()  # again: nothing happens


def test_a_port_in_use_is_an_error_the_gm_reads():
    hub = Hub()
    first = ScreenServer(hub, "t", "127.0.0.1", 0)
    try:
        with pytest.raises(ScreenError, match="cannot serve on 127.0.0.1:"):
            ScreenServer(hub, "t", "127.0.0.1", first.port)
    finally:
        first.sock.close()


@pytest.mark.parametrize("text, want", [
    ("", ("127.0.0.1", 0)), ("8000", ("127.0.0.1", 8000)), (":8000", ("127.0.0.1", 8000)),
    ("0.0.0.0:8000", ("0.0.0.0", 8000)), ("localhost", ("localhost", 0)),
    ("[::1]:8000", ("::1", 8000)),
])
def test_addresses(text, want):
    assert parse_address(text) == want


@pytest.mark.parametrize("text", ["host:port", "1.2.3.4:99999", "a:b:c", "x/y:80", ":"])
def test_bad_addresses(text):
    with pytest.raises(ScreenError, match="not an address"):
        parse_address(text)
