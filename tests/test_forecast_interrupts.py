"""A forecast counts its own Ctrl-Cs (:mod:`fuego.forecast.interrupts`), so one that Python
drops still stops it: the handler's rules."""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading

import pytest

from fuego.forecast.interrupts import counted_interrupts


def _ctrl_c_in_a_gc_callback(gc_callback_ran: list[str]):
    """A garbage collection whose callback gets a Ctrl-C, as Dask's (distributed's
    GCDiagnosis) did when the bug lost one: Python prints what the callback raises, and drops it."""
    def callback(phase, info):
        if phase == "start" and not gc_callback_ran:
            gc_callback_ran.append(phase)
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, while the callback runs

    gc.callbacks.append(callback)
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(callback)


def test_a_ctrl_c_python_drops_is_counted_and_raised_at_the_next_check():
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    dropped: list = []
    hook, sys.unraisablehook = sys.unraisablehook, dropped.append
    try:
        with counted_interrupts() as interrupts:
            assert signal.getsignal(signal.SIGINT) == interrupts.handle
            interrupts.check()  # no Ctrl-C yet
            _ctrl_c_in_a_gc_callback([])
            # the KeyboardInterrupt was raised in the callback and dropped there...
            assert [d.exc_type for d in dropped] == [KeyboardInterrupt]
            # ...but the Ctrl-C was counted, and the forecast's next tick raises it
            assert interrupts.count == 1
            with pytest.raises(KeyboardInterrupt):
                interrupts.check()
    finally:
        sys.unraisablehook = hook
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_while_deferred_a_ctrl_c_is_only_counted_and_the_handler_is_restored_after():
    with pytest.raises(RuntimeError), counted_interrupts() as interrupts:
        with interrupts.deferred():
            _ctrl_c_in_a_gc_callback([])  # nothing raised in the callback, nothing dropped
            os.kill(os.getpid(), signal.SIGINT)  # nor here
            assert interrupts.count == 2
            with pytest.raises(KeyboardInterrupt):
                interrupts.check()
        with pytest.raises(KeyboardInterrupt):  # not deferred: raised where it lands
            os.kill(os.getpid(), signal.SIGINT)
        assert interrupts.count == 3
        raise RuntimeError("the forecast failed")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # on errors too


def test_a_handler_set_by_someone_else_or_another_thread_is_left_alone():
    def theirs(signum, frame):
        pass

    before = signal.signal(signal.SIGINT, theirs)
    try:
        with counted_interrupts() as interrupts:
            assert signal.getsignal(signal.SIGINT) is theirs
            os.kill(os.getpid(), signal.SIGINT)
        assert interrupts.count == 0 and signal.getsignal(signal.SIGINT) is theirs
    finally:
        signal.signal(signal.SIGINT, before)
    seen: list = []

    def elsewhere():  # only the main thread may set one: a forecast in a thread sets none
        with counted_interrupts():
            seen.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert seen == [signal.default_int_handler]
