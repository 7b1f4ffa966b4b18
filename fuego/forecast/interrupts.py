"""A forecast's own count of its Ctrl-Cs (SIGINT), for every executor: this process's
(:class:`fuego.forecast.executors.InProcess`), worker processes' (:mod:`fuego.forecast.pool`)
and a Dask cluster's (:mod:`fuego.forecast.cluster`).

Python's handler raises :class:`KeyboardInterrupt` wherever the main thread is; where that is
a garbage collector's callback (Dask registers one, and any library in the process may), a
``__del__`` or a weak reference's callback, Python prints the exception and drops it, and the
Ctrl-C is lost: the forecast plays on. Counted, it is not: the executor's loop raises it at its
next tick (in this process, when the run it landed in ends), and Python's report of the one it
dropped (``Exception ignored in: ...``, through ``sys.unraisablehook``) is not printed.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["Interrupts", "counted_interrupts"]


class Interrupts:
    """The Ctrl-Cs (SIGINT) that came while a forecast ran, counted by its own handler.

    The handler raises :class:`KeyboardInterrupt` as Python's does, and counts it first, so
    :meth:`check` raises for it at the forecast's next tick if it was dropped. While
    :meth:`deferred`, the handler only counts, so the interrupt is raised by the forecast's own
    loop, never inside a library's callback or wait."""

    def __init__(self) -> None:
        self.count = 0
        self.deferring = False

    def handle(self, signum: int, frame: Any) -> None:
        self.count += 1
        if not self.deferring:
            raise KeyboardInterrupt

    def unraisable(self, before: Callable[[Any], object]) -> Callable[[Any], object]:
        """A ``sys.unraisablehook`` that drops the KeyboardInterrupts this count makes up for
        (Python would print each as ``Exception ignored``) and hands anything else to
        ``before``."""
        def hook(unraisable: Any) -> None:
            if not (self.count and isinstance(unraisable.exc_value, KeyboardInterrupt)):
                before(unraisable)

        return hook

    def check(self) -> None:
        """Raise :class:`KeyboardInterrupt` if a Ctrl-C came, raised then or not."""
        if self.count:
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def deferred(self) -> Iterator[None]:
        """Ctrl-C only counted meanwhile (call :meth:`check` in the block and after it)."""
        before, self.deferring = self.deferring, True
        try:
            yield
        finally:
            self.deferring = before


@contextlib.contextmanager
def counted_interrupts() -> Iterator[Interrupts]:
    """:class:`Interrupts` counted by SIGINT's handler meanwhile (and the dropped ones not
    reported: :meth:`Interrupts.unraisable`), Python's own handler and hook restored after.
    Only the main thread may set a handler, and a handler someone else installed (or SIGINT
    ignored) is theirs: then nothing is counted, and Ctrl-C does what it did."""
    interrupts = Interrupts()
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield interrupts
        return
    before = signal.signal(signal.SIGINT, interrupts.handle)
    hook = sys.unraisablehook
    sys.unraisablehook = interrupts.unraisable(hook)
    try:
        yield interrupts
    finally:
        signal.signal(signal.SIGINT, before)
        sys.unraisablehook = hook
