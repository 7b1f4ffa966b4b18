"""The players' screen's web server: starlette on uvicorn, in a thread beside the GM's prompts.

- :class:`Hub` holds the latest state (one JSON text, keyed by a version counter) and wakes the
  browsers waiting for it. The table publishes into it from its own thread; publishing never
  waits for a browser.
- :func:`make_app` is the ASGI app: the page and its two assets from :mod:`fuego.web.assets`
  (a fixed dict, never a folder), ``/state`` (the latest state as JSON), ``/events`` (server-sent
  events: the latest state at once, then each new one) and, when reviewing a saved session,
  ``/frames/N`` (the state after each round).
- :class:`ScreenServer` runs it on a socket bound before it starts (a port in use is an error
  the GM reads at once) and stops it.

Safe on a shared network: only GET and HEAD (anything else 405, whatever the path), the token
in the query string on every request (403 without it, compared in constant time), any path
but the page's own 404, no caching, no referrer (the token stays out of other sites' logs).
Each browser waits on its own event and is sent only the newest state when it is ready for
more: a slow or stalled one falls behind by whole states, never holds a queue, and never slows
the table. At most :data:`MAX_CLIENTS` streams at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import parse_qs

from fuego.errors import FuegoError

#: Streams open at once; more get 503 (a phone per player and a TV or two is well under it).
MAX_CLIENTS = 64
#: Seconds between keep-alive comments on an idle stream (a dropped network is noticed).
KEEPALIVE = 15.0
#: What EventSource waits before reconnecting, in milliseconds (sent in the stream).
RETRY_MS = 1000

SECURITY_HEADERS = [
    (b"cache-control", b"no-store"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy",
     b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
]


class ScreenError(FuegoError):
    """The players' screen cannot start (an address in use, a bad HOST:PORT)."""


def new_token() -> str:
    """A fresh access token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


class Hub:
    """The latest state and the browsers waiting for it (thread-safe; publishing never blocks)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.instance = secrets.token_hex(4)  # a restarted server is another instance
        self.version = 0
        self._body: str | None = None  # the latest state's JSON
        self._text = ""  # the message sent: instance, version and state
        self._waiters: set[asyncio.Event] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.closed = False
        #: when reviewing a saved session: (label, JSON text) of each frame
        self.frames: list[tuple[str, str]] = []
        #: each player's own page: hero key -> the message sent to it (see :meth:`publish`)
        self._views: dict[str, str] = {}

    # -- the table's side ----------------------------------------------------------------------
    def publish(self, state: dict[str, Any], frames: list[tuple[str, dict]] | None = None,
                views: dict[str, dict[str, Any]] | None = None) -> bool:
        """Make ``state`` the latest (and ``frames`` the review's, ``views`` each player's own
        page's: hero key -> state); False when nothing changed."""
        def dump(value: Any) -> str:
            return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

        body = dump(state) + "".join(dump(v) for v in (views or {}).values())
        with self._lock:
            if frames is not None:
                self.frames = [(label, dump(f)) for label, f in frames]
            elif body == self._body:
                return False
            self.version += 1
            self._body = body
            labels = dump([label for label, _ in self.frames])
            head = f'{{"instance":"{self.instance}","version":{self.version}'
            self._text = f'{head},"frames":{labels},"state":{dump(state)}}}'
            self._views = {key: f'{head},"frames":[],"state":{dump(v)}}}'
                           for key, v in (views or {}).items()}
        self._wake()
        return True

    def has_view(self, key: str) -> bool:
        with self._lock:
            return key in self._views

    def close(self) -> None:
        """Stop every stream (the server is going down)."""
        self.closed = True
        self._wake()

    def _wake(self) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._set_all)

    def _set_all(self) -> None:
        for event in list(self._waiters):
            event.set()

    # -- the browsers' side (in the server's loop) ----------------------------------------------
    def latest(self, view: str | None = None) -> tuple[int, str]:
        """The version and message of the shared page, or of one player's (``view``)."""
        with self._lock:
            if view is not None:
                return self.version, self._views.get(view, "")
            return self.version, self._text

    def frame(self, n: int) -> str | None:
        with self._lock:
            if 0 <= n < len(self.frames):
                label, body = self.frames[n]
                return (f'{{"instance":"{self.instance}","frame":{n},'
                        f'"label":{json.dumps(label)},"state":{body}}}')
        return None

    @property
    def clients(self) -> int:
        return len(self._waiters)

    async def stream(self, view: str | None = None) -> AsyncIterator[str]:
        """The server-sent events of one browser: the latest state now, then each newer one
        (of the shared page, or of one player's own: ``view``)."""
        self.loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        self._waiters.add(wake)
        try:
            yield f"retry: {RETRY_MS}\n\n"
            sent = -1
            while not self.closed:
                wake.clear()
                version, text = self.latest(view)
                if version != sent and text:
                    sent = version
                    yield f"id: {version}\nevent: state\ndata: {text}\n\n"
                    continue  # a newer one may have come while this one was written
                try:
                    await asyncio.wait_for(wake.wait(), KEEPALIVE)
                except TimeoutError:
                    yield ": still here\n\n"
        finally:
            self._waiters.discard(wake)


# -- the app ---------------------------------------------------------------------------------------
class Guard:
    """ASGI middleware: GET and HEAD only (405), the token (403), the security headers."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] not in ("GET", "HEAD"):
            await _plain(send, 405, b"read-only: only GET and HEAD\n", [(b"allow", b"GET, HEAD")])
            return
        got = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [""])[0]
        if not secrets.compare_digest(got.encode("utf-8", "replace"), self.token):
            await _plain(send, 403, b"the players' screen needs its address with the token\n")
            return

        async def send_secure(message: dict) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_secure)


async def _plain(send: Callable, status: int, body: bytes,
                 extra: list[tuple[bytes, bytes]] | None = None) -> None:
    headers = [(b"content-type", b"text/plain; charset=utf-8"),
               (b"content-length", str(len(body)).encode())] + SECURITY_HEADERS + (extra or [])
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def make_app(hub: Hub, token: str) -> Any:
    """The ASGI app of the players' screen (wrapped in :class:`Guard`)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse, Response, StreamingResponse
    from starlette.routing import Route

    from fuego.web.assets import ASSETS, page

    def asset(name: str) -> Callable:
        body, media = ASSETS[name]

        async def serve(request: Request) -> Response:
            return Response(body, media_type=media)

        return serve

    async def index(request: Request) -> Response:
        return Response(page(token), media_type="text/html; charset=utf-8")

    def view_of(request: Request) -> str | None:
        """The player's own page asked for (``hero=KEY``), None for the shared one."""
        return request.query_params.get("hero") or None

    async def state(request: Request) -> Response:
        view = view_of(request)
        if view is not None and not hub.has_view(view):
            return PlainTextResponse("no such hero\n", status_code=404)
        _version, text = hub.latest(view)
        return Response(text or "{}", media_type="application/json")

    async def frame(request: Request) -> Response:
        text = hub.frame(request.path_params["n"])
        if text is None:
            return PlainTextResponse("no such frame\n", status_code=404)
        return Response(text, media_type="application/json")

    async def events(request: Request) -> Response:
        if request.method == "HEAD":  # the headers only: no stream to start (and never end)
            return Response(media_type="text/event-stream")
        view = view_of(request)
        if view is not None and not hub.has_view(view):
            return PlainTextResponse("no such hero\n", status_code=404)
        if hub.clients >= MAX_CLIENTS:
            return PlainTextResponse("too many screens\n", status_code=503)
        return StreamingResponse(hub.stream(view), media_type="text/event-stream",
                                 headers={"x-accel-buffering": "no"})

    routes = [Route("/", index, methods=["GET"]),
              Route("/state", state, methods=["GET"]),
              Route("/events", events, methods=["GET"]),
              Route("/frames/{n:int}", frame, methods=["GET"])]
    routes += [Route(f"/{name}", asset(name), methods=["GET"]) for name in ASSETS]
    return Guard(Starlette(routes=routes), token)


# -- running it --------------------------------------------------------------------------------------
def parse_address(text: str, default_host: str = "127.0.0.1") -> tuple[str, int]:
    """``HOST:PORT``, ``:PORT``, ``PORT`` or ``HOST`` (a free port): (host, port)."""
    text = text.strip()
    host, port = default_host, 0
    if text.isdecimal():
        port = int(text)
    elif text.startswith("[") and "]:" in text:  # [::1]:8000
        host, _, p = text[1:].partition("]:")
        port = int(p) if p.isdecimal() else -1
    elif text.count(":") == 1:
        h, _, p = text.partition(":")
        host, port = h or default_host, int(p) if p.isdecimal() else -1
    elif text and ":" not in text:
        host = text
    elif text:
        port = -1
    if not 0 <= port <= 65535 or not all(ch.isalnum() or ch in ".-:" for ch in host):
        raise ScreenError(f"{text!r} is not an address to serve on",
                          tip="give HOST:PORT (0.0.0.0:8000 for the local network), :PORT, or "
                              "nothing for this computer only on a free port")
    return host, port


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on (host, port); port 0 is a free one."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ScreenError(f"cannot serve on {host}: {exc.strerror}",
                          tip="give an address of this computer, e.g. 127.0.0.1 or 0.0.0.0") from None
    family, kind, proto, _name, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise ScreenError(f"cannot serve on {host}:{port}: {exc.strerror or exc}",
                          tip="another program has that port: pick another, or leave the port "
                              "out for a free one") from None
    sock.setblocking(False)
    return sock


class ScreenServer:
    """uvicorn serving :func:`make_app` in a daemon thread, started and stopped by the table."""

    def __init__(self, hub: Hub, token: str, host: str = "127.0.0.1", port: int = 0):
        self.hub = hub
        self.token = token
        self.host = host
        self.sock = bind(host, port)
        self.port: int = self.sock.getsockname()[1]
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def url(self, host: str | None = None) -> str:
        host = host or self.host
        if host in ("0.0.0.0", "", "::"):
            host = "127.0.0.1"
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/?token={self.token}"

    def start(self, wait: float = 10.0) -> ScreenServer:
        import uvicorn

        config = uvicorn.Config(make_app(self.hub, self.token), log_config=None,
                                log_level="warning", access_log=False, lifespan="off",
                                timeout_graceful_shutdown=2, timeout_keep_alive=5)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self.sock]},
                                        name="fuego-screen", daemon=True)
        self._thread.start()
        end = time.monotonic() + wait
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > end:
                raise ScreenError("the players' screen did not start")
            time.sleep(0.01)
        return self

    def stop(self, wait: float = 5.0) -> None:
        """Close every stream and stop serving (idempotent)."""
        self.hub.close()
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(wait)
            if self._thread.is_alive() and self._server is not None:
                self._server.force_exit = True
                self._thread.join(wait)
        with contextlib.suppress(OSError):
            self.sock.close()
