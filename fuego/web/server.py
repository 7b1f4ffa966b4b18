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
the table. At most :data:`MAX_CLIENTS` streams at once (a semaphore taken before the stream
starts, so a burst of requests cannot slip past it).

Bounded before anyone shows a token (:func:`bounded_protocol`, uvicorn's own h11 protocol with
a guard at connection level): at most :attr:`Limits.connections` connections (fewer when the
process has few file descriptors: :data:`FD_RESERVE` stay the table's), at most
:data:`MAX_PER_CLIENT` from one address, and
:data:`REQUEST_TIMEOUT` seconds for a request's headers to arrive. uvicorn has no timeout for a
request that never finishes (its keep-alive timer is reset by every byte), which is why the
guard exists; it only counts, times and closes connections. Whatever goes wrong in the server
is one line on the GM's terminal (:class:`Reporter`), never a traceback, and never stops the
table.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
import secrets
import socket
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from fuego.errors import FuegoError
from fuego.text import json as text_json

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

#: Streams open at once; more get 503 (a phone per player and a TV or two is well under it).
MAX_CLIENTS = 64
#: Seconds between keep-alive comments on an idle stream (a dropped network is noticed).
KEEPALIVE = 15.0
#: What EventSource waits before reconnecting, in milliseconds (sent in the stream).
RETRY_MS = 1000
#: Connections held at once, whatever they do (streams, page loads, idle keep-alives).
MAX_CONNECTIONS = 128
#: Connections of one client (an IP address) at once: every stream and a page load besides.
MAX_PER_CLIENT = MAX_CLIENTS + 16
#: Seconds a connection may take to send a request's headers (from its opening, or from the
#: end of the answer before); then it is closed.
REQUEST_TIMEOUT = 10.0
#: Bytes of a request line and headers (h11's own limit; a longer one is answered 400).
MAX_HEADER_BYTES = 16 * 1024
#: File descriptors kept for the table (its saves, the scenario, the terminal), never the server's.
FD_RESERVE = 64
#: Connections the kernel queues before the server takes them (and takes at once).
BACKLOG = 32
#: Digits of a frame number in /frames/N (a session has far fewer than a billion moments).
MAX_FRAME_DIGITS = 9

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
        def dump(value: Any) -> str:  # the JSON target: nothing a terminal acts on (fuego.text)
            return text_json(value, sort_keys=True, separators=(",", ":"))

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
class Reporter:
    """What the server has to say to the GM: one line each, never a traceback, and at most
    :attr:`most` lines in all (then silence: a flood must not fill the GM's terminal)."""

    def __init__(self, echo: Callable[[str], None] | None = None, most: int = 5) -> None:
        self.echo = echo or _stderr
        self.most = most
        self.said: set[str] = set()
        self._lock = threading.Lock()

    def __call__(self, line: str) -> None:
        line = " ".join(line.split())[:160]
        with self._lock:
            if line in self.said or len(self.said) > self.most:
                return
            self.said.add(line)
            if len(self.said) > self.most:
                line = "players' screen: more problems, not shown (the table goes on)"
        with contextlib.suppress(Exception):  # a closed terminal must not stop the server
            self.echo(line)


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class _OneLine(logging.Handler):
    """uvicorn's and asyncio's logs as :class:`Reporter` lines: errors only, first line only."""

    def __init__(self, report: Callable[[str], None]) -> None:
        super().__init__(logging.ERROR)
        self.report = report

    def emit(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(Exception):
            first = (record.getMessage().splitlines() or [""])[0]
            self.report(f"players' screen: {first}")


class Guard:
    """ASGI middleware: GET and HEAD only (405), the token (403), the security headers; a
    handler's error is a 500 and one line for the GM."""

    def __init__(self, app: Any, token: str, report: Callable[[str], None] | None = None) -> None:
        self.app = app
        self.token = token.encode()
        self.report = report or Reporter()

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # refused requests close their connection: a client without the token holds nothing
        if scope["method"] not in ("GET", "HEAD"):
            await _plain(send, 405, b"read-only: only GET and HEAD\n",
                         [(b"allow", b"GET, HEAD"), CLOSE])
            return
        query = scope.get("query_string", b"").decode("latin-1")
        got = parse_qs(query, max_num_fields=64).get("token", [""])[0] if query.count("&") < 64 \
            else ""
        if not secrets.compare_digest(got.encode("utf-8", "replace"), self.token):
            await _plain(send, 403, b"the players' screen needs its address with the token\n",
                         [CLOSE])
            return
        started = False

        async def send_secure(message: dict) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = dict(message)
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        try:
            await self.app(scope, receive, send_secure)
        except Exception as exc:  # noqa: BLE001 - a bug in a handler: 500, one line, go on
            self.report(f"players' screen: {type(exc).__name__} answering "
                        f"{scope.get('path', '')[:40]!r} (answered 500; the table goes on)")
            if not started:
                with contextlib.suppress(Exception):
                    await _plain(send, 500, b"the players' screen failed to answer\n", [CLOSE])


CLOSE = (b"connection", b"close")


async def _plain(send: Callable, status: int, body: bytes,
                 extra: list[tuple[bytes, bytes]] | None = None) -> None:
    headers = [(b"content-type", b"text/plain; charset=utf-8"),
               (b"content-length", str(len(body)).encode())] + SECURITY_HEADERS + (extra or [])
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def make_app(hub: Hub, token: str, report: Callable[[str], None] | None = None) -> Any:
    """The ASGI app of the players' screen (wrapped in :class:`Guard`)."""
    from starlette.applications import Starlette
    from starlette.routing import Route

    from fuego.web.assets import ASSETS

    answers = _Answers(hub, token)
    routes = [Route("/", answers.index, methods=["GET"]),
              Route("/state", answers.state, methods=["GET"]),
              Route("/events", answers.events, methods=["GET"]),
              Route("/frames/{n}", answers.frame, methods=["GET"])]
    routes += [Route(f"/{name}", _asset(name), methods=["GET"]) for name in ASSETS]
    return Guard(Starlette(routes=routes), token, report)


def _asset(name: str) -> Callable:
    """The endpoint that serves one of the page's files (fuego.web.assets)."""
    from starlette.responses import Response

    from fuego.web.assets import ASSETS

    body, media = ASSETS[name]

    async def serve(request: Request) -> Response:
        return Response(body, media_type=media)

    return serve


def _view_of(request: Request) -> str | None:
    """The player's own page asked for (``hero=KEY``), None for the shared one."""
    return request.query_params.get("hero") or None


class _Answers:
    """What the players' screen answers: its page, the latest state (the table's or a hero's),
    a frame of the story, and the live stream of states (at most MAX_CLIENTS at once)."""

    def __init__(self, hub: Hub, token: str) -> None:
        self.hub, self.token = hub, token
        # A stream's slot is taken before its response starts, and given back when it ends
        # (however it ends): a burst of requests cannot all pass a count that grows later.
        self.slots = threading.BoundedSemaphore(MAX_CLIENTS)
        self.stream = _slot_stream(self.slots)

    async def index(self, request: Request) -> Response:
        """The page, with this table's token."""
        from starlette.responses import Response

        from fuego.web.assets import page

        return Response(page(self.token), media_type="text/html; charset=utf-8")

    async def state(self, request: Request) -> Response:
        """The latest state of the view asked for, as JSON (``{}`` before the first)."""
        from starlette.responses import PlainTextResponse, Response

        view = _view_of(request)
        if view is not None and not self.hub.has_view(view):
            return PlainTextResponse("no such hero\n", status_code=404)
        _version, text = self.hub.latest(view)
        return Response(text or "{}", media_type="application/json")

    async def frame(self, request: Request) -> Response:
        """Frame ``n`` of the story, as JSON (404 if there is no such frame)."""
        from starlette.responses import PlainTextResponse, Response

        n = request.path_params["n"]  # bounded before int(): 4301 digits would raise
        if not (n.isascii() and n.isdecimal() and len(n) <= MAX_FRAME_DIGITS):
            return PlainTextResponse("no such frame\n", status_code=404)
        text = self.hub.frame(int(n))
        if text is None:
            return PlainTextResponse("no such frame\n", status_code=404)
        return Response(text, media_type="application/json")

    async def events(self, request: Request) -> Response:
        """The live stream of the view's states (server-sent events), if a slot is free."""
        from starlette.responses import PlainTextResponse, Response

        if request.method == "HEAD":  # the headers only: no stream to start (and never end)
            return Response(media_type="text/event-stream")
        view = _view_of(request)
        if view is not None and not self.hub.has_view(view):
            return PlainTextResponse("no such hero\n", status_code=404)
        if not self.slots.acquire(blocking=False):
            return PlainTextResponse("too many screens\n", status_code=503)
        return self.stream(self.hub.stream(view), media_type="text/event-stream",
                           headers={"x-accel-buffering": "no"})


def _slot_stream(slots: threading.BoundedSemaphore) -> type:
    """A streaming response that gives its slot back when it ends, however it ends."""
    from starlette.responses import StreamingResponse

    class Stream(StreamingResponse):
        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            try:
                await super().__call__(scope, receive, send)
            finally:
                slots.release()

    return Stream


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
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        raise ScreenError(f"cannot serve on {host}:{port}: {exc.strerror or exc}",
                          tip="another program has that port: pick another, or leave the port "
                              "out for a free one") from None
    sock.setblocking(False)
    return sock


@dataclass
class Limits:
    """What the server may hold at once, and what it turned away (for the tests and docs)."""

    connections: int = MAX_CONNECTIONS
    per_client: int = MAX_PER_CLIENT
    timeout: float = REQUEST_TIMEOUT
    by_client: collections.Counter = field(default_factory=collections.Counter)
    refused: int = 0
    timed_out: int = 0


def fd_budget(reserve: int = FD_RESERVE) -> int:
    """Connections this process can hold and still keep ``reserve`` file descriptors free."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return MAX_CONNECTIONS
    if soft == getattr(resource, "RLIM_INFINITY", -1) or soft <= 0:
        return MAX_CONNECTIONS
    try:
        used = len(os.listdir("/proc/self/fd"))
    except OSError:
        used = 32
    # a burst of BACKLOG connections is accepted before any can be turned away
    return soft - used - reserve - BACKLOG


def bounded_protocol(limits: Limits) -> type:
    """uvicorn's h11 protocol, guarded before any request is read: a connection over
    ``limits.connections``, or over ``limits.per_client`` from one address, is closed as it
    opens; one that has not sent a request's headers ``limits.timeout`` seconds after it
    opened (or after its last answer) is closed then."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Bounded(_Bounded, H11Protocol):
        pass

    Bounded.limits = limits
    return Bounded


if TYPE_CHECKING:
    from uvicorn.protocols.http.h11_impl import H11Protocol as _Protocol
else:
    _Protocol = object  # uvicorn is imported only when a screen is served


class _Bounded(_Protocol):
    """The guard :func:`bounded_protocol` puts before uvicorn's h11 protocol (``limits``: what
    the server may hold, and what it turned away)."""

    limits: Limits
    admitted = False
    host = ""
    waiting = False
    deadline: asyncio.TimerHandle | None = None
    before: Any = None  # the request cycle that was current when waiting began

    def connection_made(self, transport: Any) -> None:
        """Admit the connection if the server and its client have room, else close it."""
        limits = self.limits
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) and peer else ""
        if (len(self.connections) >= limits.connections
                or limits.by_client[host] >= limits.per_client):
            limits.refused += 1
            transport.abort()
            return
        self.admitted, self.host = True, host
        limits.by_client[host] += 1
        super().connection_made(transport)
        self._wait(None)

    def _wait(self, cycle: Any) -> None:
        """Start the clock for the next request's headers."""
        self.waiting, self.before = True, cycle
        self.deadline = self.loop.call_later(self.limits.timeout, self._too_slow)

    def _done_waiting(self) -> None:
        """Stop the clock."""
        self.waiting = False
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        """The headers did not come in time: close the connection."""
        self.deadline = None
        if self.waiting and not self.transport.is_closing():
            self.limits.timed_out += 1
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        """Read on; a new request's headers stop the clock."""
        super().data_received(data)
        if self.waiting and self.cycle is not self.before:  # a request's headers came
            self._done_waiting()

    def on_response_complete(self) -> None:
        """An answer sent on an open connection: the clock starts for the next request."""
        done = self.cycle
        super().on_response_complete()
        if (not self.transport.is_closing() and self.cycle is done
                and not self.waiting):
            self._wait(done)

    def connection_lost(self, exc: Exception | None) -> None:
        """An admitted connection gone: its client's count down by one."""
        if not self.admitted:
            return
        limits = self.limits
        self.admitted = False
        self._done_waiting()
        limits.by_client[self.host] -= 1
        if limits.by_client[self.host] <= 0:
            del limits.by_client[self.host]
        super().connection_lost(exc)


class ScreenServer:
    """uvicorn serving :func:`make_app` in a daemon thread, started and stopped by the table.

    ``report`` takes the server's one-line messages (default: standard error). If the server
    fails, :attr:`failed` says why, the GM reads it in one line, and the table goes on."""

    def __init__(self, hub: Hub, token: str, host: str = "127.0.0.1", port: int = 0,
                 report: Callable[[str], None] | None = None):
        self.hub = hub
        self.token = token
        self.host = host
        self.report = report if isinstance(report, Reporter) else Reporter(report)
        self.sock = bind(host, port)
        self.port: int = self.sock.getsockname()[1]
        self.limits = Limits(connections=max(4, min(MAX_CONNECTIONS, fd_budget())))
        self.failed: str | None = None
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

        _quiet_logs(self.report)
        config = uvicorn.Config(make_app(self.hub, self.token, self.report), log_config=None,
                                log_level="warning", access_log=False, lifespan="off",
                                http=bounded_protocol(self.limits), ws="none",
                                timeout_graceful_shutdown=2, timeout_keep_alive=5,
                                limit_concurrency=self.limits.connections + 1, backlog=BACKLOG,
                                h11_max_incomplete_event_size=MAX_HEADER_BYTES)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name="fuego-screen", daemon=True)
        self._thread.start()
        end = time.monotonic() + wait
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > end:
                raise ScreenError("the players' screen did not start"
                                  + (f": {self.failed}" if self.failed else ""))
            time.sleep(0.01)
        return self

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as exc:  # noqa: BLE001 - the table goes on without its screen
            self.failed = f"{type(exc).__name__}: {exc}"
            if not self.hub.closed:
                self.report(f"players' screen stopped ({self.failed}); the table goes on")

    async def _serve(self) -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._loop_error)
        await self._server.serve(sockets=[self.sock])

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict) -> None:
        """asyncio's own troubles (an accept that found no free descriptor, a callback that
        failed) as one line, where its default handler prints a traceback."""
        exc = context.get("exception")
        what = context.get("message", "error")
        self.report(f"players' screen: {what}" + (f" ({exc})" if exc else ""))

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


def _quiet_logs(report: Callable[[str], None]) -> None:
    """uvicorn's and asyncio's loggers print to the GM's terminal (Python's last-resort
    handler) when nothing is configured: give them one-line handlers of their own instead."""
    for name in ("uvicorn", "asyncio"):
        logger = logging.getLogger(name)
        for handler in list(logger.handlers):
            if isinstance(handler, _OneLine):
                logger.removeHandler(handler)
        logger.addHandler(_OneLine(report))
        logger.propagate = False
