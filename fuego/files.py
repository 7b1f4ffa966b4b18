"""One way to read an input file and one way to write an output file, for every command.

Reading (:func:`read_bytes`, :func:`read_text`): what is not a regular file (a FIFO, a device,
a folder) is refused from its ``stat`` before anything could block on it, the file is opened
non-blocking, at most ``limit + 1`` bytes are read whatever its size claims (``/dev/zero`` says
0), and text is decoded strictly (UTF-8; a lone surrogate is not UTF-8).

Writing (:func:`replacing`, for every file written, and :class:`Output`, an output of a
command): a temporary file in the target's folder, flushed and fsynced, then renamed over the
target, so a reader or a crash sees the old file or the new one, never half.
An input of the same command is never a target, an existing file only with ``--force`` (or
when the command's documented default is to replace), and anything but a regular file is
refused. A full disk or an unwritable place is one :class:`~fuego.errors.FuegoError` line; the
previous file stays whole and no temporary file is left. docs/reliability.md states the promise.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import IO

from fuego.errors import FuegoError, LimitError

#: What a stat mode is, in words, for the messages.
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def kind(mode: int) -> str:
    """``a directory``, ``a FIFO (named pipe)``, ``a character device`` ... for a stat mode."""
    for test, words in _KINDS:
        if test(mode):
            return words
    return "not a regular file"


def size_text(n: int) -> str:
    """``52,428,801 bytes (50 MiB + 1 byte)``: exact, and readable at the MiB limits."""
    text = f"{n:,} byte{'s' if n != 1 else ''}"
    mib, rest = divmod(n, 2**20)
    if mib:
        text += f" ({mib} MiB" + (f" + {rest:,} byte{'s' if rest != 1 else ''}" if rest
                                  else "") + ")"
    return text


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


# -- reading ----------------------------------------------------------------------------------
def read_bytes(path: str | os.PathLike, *, limit: int, what: str) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit``), or a one-line FuegoError
    naming the file and what was expected (``what``: e.g. ``a scenario``)."""
    name = os.fspath(path)
    fd = _open_regular(name, what)
    try:
        return _read_open(fd, name, limit, what)
    except BlockingIOError:
        raise FuegoError("cannot read the file: it is not ready (a pipe or a device?)",
                         where=name) from None
    except OSError as exc:
        raise FuegoError(f"cannot read the file: {_reason(exc)}", where=name) from None
    finally:
        os.close(fd)


def _open_regular(name: str, what: str) -> int:
    """The regular file ``name`` opened to read (never waiting on a pipe, nor becoming a
    terminal's), or a FuegoError: no such file, not a regular file, not readable."""
    try:
        before = os.stat(name)
        if not stat.S_ISREG(before.st_mode):
            raise FuegoError(f"is {kind(before.st_mode)}, not a file; {what} is read from a "
                             "regular file", where=name)
        return os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                       | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise FuegoError("no such file", where=name) from None
    except OSError as exc:
        raise FuegoError(f"cannot read the file: {_reason(exc)}", where=name) from None


def _read_open(fd: int, name: str, limit: int, what: str) -> bytes:
    """What an open file holds, if it is still a regular file and at most ``limit`` bytes
    (counted as they come: st_size can lie, in /proc or for a file still growing)."""
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):  # swapped for something else since the stat
        raise FuegoError(f"is {kind(st.st_mode)}, not a file; {what} is read from a "
                         "regular file", where=name)
    if st.st_size > limit:
        raise _too_big(name, st.st_size, limit, what)
    chunks: list[bytes] = []
    got = 0
    while got <= limit:
        chunk = os.read(fd, min(1 << 20, limit + 1 - got))
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    if got > limit:
        raise _too_big(name, got, limit, what, at_least=True)
    return b"".join(chunks)


def _too_big(name: str, size: int, limit: int, what: str, at_least: bool = False) -> LimitError:
    size_words = ("more than " + size_text(limit)) if at_least else size_text(size)
    return LimitError(f"the file is {size_words}; {what} may be at most {size_text(limit)}",
                      where=name)


def decode(raw: bytes, name: str, what: str, *, lines: bool = True) -> str:
    """Strict UTF-8 (a leading byte-order mark dropped); a FuegoError names the first bad
    byte and its line."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise FuegoError(f"not a UTF-8 text file (byte 0x{raw[exc.start]:02x} at offset "
                         f"{exc.start}: not UTF-8 text); {what} is UTF-8 text",
                         where=f"{name}:{line}" if lines else name) from None


def read_text(path: str | os.PathLike, *, limit: int, what: str) -> str:
    """:func:`read_bytes` then :func:`decode`."""
    name = os.fspath(path)
    return decode(read_bytes(name, limit=limit, what=what), name, what)


def check_text(text: str, where: str) -> None:
    """Refuse text that cannot be written out: a lone surrogate (``"\\ud800"``) is not Unicode
    that a terminal, a file or a log can hold."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise FuegoError(f"holds {text[exc.start]!r}, half of a UTF-16 surrogate pair, which is "
                         "not a character", where=where,
                         tip="write the character itself, or its full \\U escape") from None


# -- writing ----------------------------------------------------------------------------------
#: errno values that mean "this place cannot take the file" (said in one line, no traceback).
FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG}


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


class Output:
    """An output file of one command: checked when the command starts (:meth:`check`), written
    atomically at the end (:meth:`write`, :meth:`open`)."""

    def __init__(self, path: str | os.PathLike, *, what: str, force: bool = False,
                 inputs: Sequence[str | os.PathLike] = (), force_flag: str = "--force",
                 mode: int | None = None):
        self.path = os.fspath(path)
        self.what = what
        self.force = force
        self.inputs = [os.fspath(p) for p in inputs if p is not None]
        self.force_flag = force_flag
        #: the new file's permissions (default: the replaced file's, else the umask's)
        self.mode = mode

    def check(self) -> Output:
        """Refuse a target that is an input, not a regular file, or exists without --force."""
        name = self.path
        if not name or name.endswith(os.sep):
            raise FuegoError(f"not a file name: {name!r}", tip=f"name the {self.what}'s file")
        folder = os.path.dirname(os.path.abspath(name))
        if not os.path.isdir(folder):
            raise FuegoError(f"cannot write the {self.what}: no folder {folder}", where=name,
                             tip="check that its folder exists and is writable")
        try:
            st = os.stat(name)
        except FileNotFoundError:
            return self
        except OSError as exc:
            raise FuegoError(f"cannot write the {self.what}: {_reason(exc)}", where=name) \
                from None
        for inp in self.inputs:
            if _same(name, inp):
                raise FuegoError(f"is an input of this command; fuego will not write the "
                                 f"{self.what} over it", where=name,
                                 tip="give the output another name")
        if not stat.S_ISREG(st.st_mode):
            raise FuegoError(f"is {kind(st.st_mode)}; fuego writes the {self.what} to a "
                             "regular file", where=name, tip="give a file name")
        if not self.force:
            raise FuegoError("exists already; fuego does not replace it unless asked",
                             where=name, tip=f"use {self.force_flag} to replace it")
        return self

    def write(self, data: str | bytes) -> None:
        """Write ``data`` (text as UTF-8) atomically."""
        raw = data.encode("utf-8") if isinstance(data, str) else data
        with self.open() as fh:
            fh.write(raw)

    @contextlib.contextmanager
    def open(self, before_replace: Callable[[], None] | None = None) -> Iterator[IO[bytes]]:
        """A binary file to write the output into; on a clean exit it is flushed, fsynced and
        renamed over the target (``before_replace`` runs just before the rename). On any
        failure the temporary file is removed and the target left as it was."""
        try:
            with replacing(self.path, mode=self.mode, before_replace=before_replace) as fh:
                yield fh
        except OSError as exc:
            raise self._error(exc) from None

    def stage(self, data: str | bytes) -> str:
        """Write ``data`` to a temporary file beside the target (flushed, fsynced, with the
        output's permissions) and return its path; :class:`Outputs` renames it."""
        raw = data.encode("utf-8") if isinstance(data, str) else data
        try:
            with _aside(self.path, self.mode) as (fh, tmp):
                fh.write(raw)
        except OSError as exc:
            raise self._error(exc) from None
        return tmp

    def _error(self, exc: OSError) -> FuegoError:
        return write_error(exc, self.what, self.path)


def write_error(exc: OSError, what: str, where: str, *,
                full_tip: str = "free some space or write elsewhere") -> FuegoError:
    """The one line for ``exc`` writing ``what`` at ``where`` (a file or a folder): a full disk
    (:data:`FULL`) tips ``full_tip``, anything else to check the folder."""
    tip = full_tip if exc.errno in FULL else "check that its folder exists and is writable"
    return FuegoError(f"cannot write the {what}: {_reason(exc)}", where=where, tip=tip)


@contextlib.contextmanager
def replacing(path: str, *, mode: int | None = None, durable: bool = True,
              before_replace: Callable[[], None] | None = None) -> Iterator[IO[bytes]]:
    """The one way a file is written: a binary file to write into, which on a clean exit is
    flushed, fsynced (unless ``durable=False``), given ``mode`` (default: the replaced file's,
    else the umask's) and renamed over ``path`` (``before_replace`` runs just before the
    rename); on any failure it is removed and ``path`` left as it was. No checks, and an
    OSError is raised as it is: :class:`Output` makes it an output's one line; a command's own
    working files (a forecast's counts) say where in their own words. ``durable=False`` is for
    a working file read back and removed by the same command: a crash loses it anyway (an
    fsync costs some 6 ms on a disk)."""
    with _aside(path, mode, durable) as (fh, tmp):
        yield fh
    try:
        if before_replace is not None:
            before_replace()
        os.replace(tmp, path)
    except BaseException:
        discard(tmp)
        raise
    if durable:
        fsync_dir(os.path.dirname(os.path.abspath(path)))


@contextlib.contextmanager
def _aside(path: str, mode: int | None, durable: bool = True
           ) -> Iterator[tuple[IO[bytes], str]]:
    """A temporary file beside ``path`` and its path; on a clean exit it is flushed (fsynced
    if ``durable``) and given ``mode`` (:func:`replacing`), on any failure removed."""
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp",
                               dir=os.path.dirname(os.path.abspath(path)))
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh, tmp
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        # mkstemp makes it private; an output is ordinary unless asked (a token: 0600)
        os.chmod(tmp, _mode(path) if mode is None else mode)
    except BaseException:
        discard(tmp)
        raise


class Outputs:
    """Several output files of one command, all or nothing (``export``'s levels): each is
    written to its temporary file as it comes (:meth:`write`), and only when every one was
    written are they renamed over their targets, on a clean exit from the ``with`` block. A
    full disk or any error part-way removes every temporary file and leaves every target as
    it was: no new file, no mix of old and new."""

    def __init__(self) -> None:
        self._staged: list[tuple[str, Output]] = []

    def write(self, target: Output, data: str | bytes) -> None:
        self._staged.append((target.stage(data), target))

    def __enter__(self) -> Outputs:
        return self

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        staged, self._staged = self._staged, []
        if kind is not None:
            for tmp, _target in staged:
                discard(tmp)
            return
        done = 0
        try:
            for tmp, target in staged:
                os.replace(tmp, target.path)
                done += 1
        except OSError as error:
            for tmp, _target in staged[done:]:
                discard(tmp)
            raise staged[done][1]._error(error) from None
        for directory in {os.path.dirname(os.path.abspath(t.path)) for _tmp, t in staged}:
            fsync_dir(directory)


def fsync_dir(directory: str) -> None:
    """Make a rename in ``directory`` durable (best effort: not every system allows it)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def discard(path: str) -> None:
    """Remove a temporary file (it may already be gone)."""
    with contextlib.suppress(OSError):
        os.unlink(path)


def _mode(path: str) -> int:
    """The permissions of the file being replaced, else the umask's default."""
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


# -- the temporary folder ---------------------------------------------------------------------
#: The variables that name the temporary folder, in the order Python reads them.
TEMPORARY = ("TMPDIR", "TEMP", "TMP")


def temporary_folder(what: str, *, tip: str | None = None) -> str:
    """The folder for ``what`` (a command's working files): the one TMPDIR names (or TEMP,
    TMP: Python's order), or a FuegoError naming the variable and the folder when fuego cannot
    write there; Python's :func:`tempfile.gettempdir` would quietly take /tmp or the current
    folder instead, not the folder the GM set. With none set, the system's (Python's pick).
    ``tip``: the caller's way round it, added to the error's tip."""
    for name in TEMPORARY:
        asked = os.environ.get(name)
        if asked:
            folder = os.path.abspath(asked)
            _probe(folder, f"{name}={asked}", name, what, tip)
            return folder
    return tempfile.gettempdir()


def temporary_variable() -> str:
    """The variable that names the temporary folder (:func:`temporary_folder`'s), or TMPDIR
    when none does: setting it is how the GM moves the folder."""
    return next((name for name in TEMPORARY if os.environ.get(name)), TEMPORARY[0])


def working_error(exc: OSError, what: str, folder: str, *, tip: str | None = None,
                  name: str | None = None) -> FuegoError:
    """The one line for ``exc`` making or writing ``what`` (working files) in the temporary
    folder ``folder``, named by the setting ``name`` (by default the variable that names the
    temporary folder: :func:`temporary_variable`); ``tip``: the caller's way round it."""
    name = name or temporary_variable()
    return write_error(exc, what, folder, full_tip=f"free some space there, set {name} to a "
                       "folder with room" + (f", or {tip}" if tip else ""))


def _probe(folder: str, where: str, name: str, what: str, tip: str | None) -> None:
    """Whether a folder can be made in ``folder`` (made and removed: as root, ``os.access``
    says yes to /proc), else the FuegoError for ``where`` (``TMPDIR=...``)."""
    other = (f"set {name} to a folder you can write in, or unset it (the system's temporary "
             "folder)" + (f"; or {tip}" if tip else ""))
    goes = f"the {what} go in the folder {name} names"
    if not os.path.isdir(folder):
        if os.path.exists(folder):
            raise FuegoError(f"is not a folder; {goes}", where=where, tip=other)
        raise FuegoError(f"no such folder; {goes}", where=where, tip="create it, or " + other)
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".fuego-probe-", dir=folder))
    except OSError as exc:
        if exc.errno in FULL:
            raise working_error(exc, what, folder, tip=tip, name=name) from None
        raise FuegoError(f"fuego cannot write in this folder ({_reason(exc)}); {goes}",
                         where=where, tip=other) from None


# -- one writer -------------------------------------------------------------------------------
class FileLock:
    """An operating-system lock (``flock``) on ``path``, a small file beside the one it guards:
    held while a command writes that file, gone with the process however it ends (a crash
    leaves the file, never the lock). The holder writes who it is (pid, host, since) into the
    file so a second one can say who holds it."""

    def __init__(self, path: str | os.PathLike, *, guards: str, what: str) -> None:
        self.path = os.fspath(path)
        self.guards = guards
        self.what = what
        self._fd: int | None = None

    def acquire(self) -> FileLock:
        """Take the lock, or a FuegoError naming who holds it (nothing written)."""
        import fcntl

        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0), 0o600)
        except OSError as exc:
            raise FuegoError(f"cannot lock {self.what}: {_reason(exc)} ({self.path})",
                             where=self.guards,
                             tip="check that its folder is writable (and the .lock beside it "
                                 "is a plain file)") from None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise FuegoError(f"cannot lock {self.what}: {self.path} is {kind(st.st_mode)}",
                                 where=self.guards, tip=f"remove {self.path}")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(os.pread(fd, 512, 0))
                raise FuegoError(f"{self.what} is in use by {holder}; nothing was written",
                                 where=self.guards,
                                 tip="finish or quit that game first (its lock goes with it), "
                                     "or play another session") from None
            except OSError as exc:
                raise FuegoError(f"cannot lock {self.what}: {_reason(exc)}",
                                 where=self.guards) from None
            import json
            import socket
            import time

            me = json.dumps({"pid": os.getpid(), "host": socket.gethostname()[:64],
                             "since": time.strftime("%Y-%m-%d %H:%M:%S %Z")}).encode()
            with contextlib.suppress(OSError):  # who holds it is a courtesy, the lock is not
                os.ftruncate(fd, 0)
                os.pwrite(fd, me + b"\n", 0)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return self

    def release(self) -> None:
        """Give the lock back (idempotent). The file stays: unlinking it would let a third
        process lock a new file while a second holds the old one."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # closing the descriptor releases the flock

    def __enter__(self) -> FileLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _holder(raw: bytes) -> str:
    """``another fuego (pid 4242 on tabletop, since 2026-12-01 09:40:00 UTC)`` from a lock
    file's words (printable, short: the file is not trusted)."""
    import json

    try:
        who = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        who = None
    if not isinstance(who, dict):
        return "another fuego"

    def word(key: str) -> str:
        value = who.get(key)
        text = str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else "?"
        return "".join(ch if ch.isprintable() else "?" for ch in text[:64])

    return f"another fuego (pid {word('pid')} on {word('host')}, since {word('since')})"
