"""Text from a file made safe for where it goes: one function per target.

Names, titles and texts come from scenarios, saves, VTT maps and what the GM types; fuego
prints and draws them literally, but a control character is not a letter: ``ESC`` followed by
``]52;...`` writes a terminal's clipboard, ``]8;;URL`` plants a link, ``[2J`` clears the screen,
and the same characters make an SVG invalid XML. So every output goes through one of:

- :func:`terminal`: a terminal line (also the one line of every :class:`fuego.errors.FuegoError`);
- :func:`drawn`: text a picture draws (matplotlib's SVG, PNG and PDF escape XML themselves);
- :func:`xml`: text in SVG or HTML fuego writes itself (escaped, and only XML's characters);
- :func:`json`: a JSON document (the characters a terminal would act on as ``\\u`` escapes:
  the same data, safe to print).

Each shows an unsafe character visibly as its escape (``\\x1b``, ``\\u202e``): the GM reads
what the file holds, and nothing is run. :data:`UNSAFE` is the one list of those characters;
``fuego check`` refuses them in a scenario with the line (:func:`problem`).
"""

from __future__ import annotations

import json as _json
import re
from typing import Any

#: Characters a terminal or an XML reader acts on instead of showing: C0 controls but tab and
#: newline, DEL, the C1 controls (0x9b is CSI on some terminals), the Unicode line and
#: paragraph separators, the bidirectional embeddings, overrides and isolates (they reorder
#: what is shown), XML's non-characters U+FFFE/U+FFFF and halves of surrogate pairs.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
                    "\ufffe\uffff\ud800-\udfff]")
#: The same with tab and newline: a one-line name holds neither.
UNSAFE_LINE = re.compile("[\t\n]|" + UNSAFE.pattern)


def fold_name(name: str) -> str:
    """A name as fuego compares it: spaces folded, case ignored (``Store  Door`` and ``store
    door`` are one name; ``Ana Vaz `` and ``ana vaz`` are one character). It is printed as
    written; only the comparison folds it."""
    return " ".join(name.split()).lower()


def visible(ch: str) -> str:
    """``\\x1b`` for ESC, ``\\u202e`` for RIGHT-TO-LEFT OVERRIDE: a character's escape."""
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def _show(match: re.Match) -> str:
    return visible(match.group())


def terminal(text: str, *, lines: bool = False) -> str:
    """``text`` as a terminal shows it: every unsafe character (and, unless ``lines``, tab
    and newline) as its visible escape."""
    return (UNSAFE if lines else UNSAFE_LINE).sub(_show, text)


def drawn(text: str) -> str:
    """``text`` for a picture (matplotlib's SVG, PNG, PDF): one line, unsafe characters
    visible (matplotlib escapes ``&<>`` itself; ``$`` is kept literal by the drawing code)."""
    return UNSAFE_LINE.sub(_show, text)


def xml(text: str) -> str:
    """``text`` inside SVG or HTML that fuego writes itself, as element text or a quoted
    attribute: unsafe characters visible, then ``& < > " '`` escaped."""
    return (drawn(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#x27;"))


def _escape_json(match: re.Match) -> str:
    return f"\\u{ord(match.group()):04x}"


def json(value: Any, **dumps: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **dumps)`` with every unsafe character inside
    its strings written as a ``\\u`` escape: the same data for a reader, nothing a terminal
    acts on (``json`` escapes C0 controls but leaves C1 controls and U+2028 raw)."""
    return UNSAFE.sub(_escape_json, _json.dumps(value, ensure_ascii=False, **dumps))


def problem(text: str) -> str | None:
    """Why ``text`` cannot be a name or a text in a scenario (a control character, named with
    its place), or None. Tab and newline are allowed (a long text has lines)."""
    bad = UNSAFE.search(text)
    if bad is None or "\ud800" <= bad.group() <= "\udfff":
        return None  # surrogates have their own message (fuego.scenario.source)
    return (f"holds the control character {visible(bad.group())} at character "
            f"{bad.start() + 1}: a terminal would act on it (a name or text is printable)")
