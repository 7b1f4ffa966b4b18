"""A character by what the table calls them: the names a GM types read against the cast, and
the short form a narrow screen shows, so that what the screen shows is what the GM may type.

A typed name picks out the characters (:func:`called`), in three readings, the first that
finds any deciding: the full name (spaces folded, any case: :func:`fuego.text.fold_name`);
whole words of it, in order (``Hettie`` and ``Mother`` for Mother Hettie, ``Tariq`` for Yusuf
al-Tariq); the starts of its words, in order (``Isa``, ``Isabela S.``). A name several
characters answer to is for the caller to refuse with the list, as a barrier's name is
(``fuego.world.building.Building.barrier``).

The short form (:func:`short_names`) is the word a GM calls the character by: the first word
that is not a title, a kinship or rank, an epithet or an article (:data:`TITLES`: *Father*
Domingo, *Old* Anselm, *the* cook), so Domingo, Hettie, Anselm; with the next word's initial
where two share it (Isabela S., Isabela V.), else the full name. Every short form picks out
its own character and no other (:func:`called`), so the GM can type it back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from fuego.text import fold_name

#: Words before a name that are not what the table calls a character (folded; a trailing dot
#: dropped): forms of address, kin, rank and office, epithets, articles.
TITLES = frozenset(" ".join((
    "a an the",
    "father mother brother sister uncle aunt auntie granny grandma grandpa gran widow cousin",
    "old young little big fat tall",
    "mr mrs ms miss mister master mistress sir dame lady lord goodman goodwife goody",
    "don dona doña senor señor senora señora senorita señorita signor signora monsieur madame",
    "mademoiselle herr frau fraulein fräulein mynheer",
    "captain capitan capitán capt lieutenant lt sergeant sgt corporal mate bosun admiral",
    "commodore colonel general major",
    "doctor dr professor prof reverend rev padre fra frere frère friar abbot abbess bishop",
    "cardinal saint st",
    "king queen prince princess duke duchess count countess baron baroness",
)).split())

_WORD_BREAK = re.compile(r"[\s\-]+")


def _words(name: str) -> list[str]:
    """A name's words as compared: folded, split at spaces and hyphens (al-Tariq is two), a
    trailing dot dropped (``S.``)."""
    return [w.rstrip(".") for w in _WORD_BREAK.split(fold_name(name)) if w.rstrip(".")]


def _in_order(typed: list[str], words: list[str], *, whole: bool) -> bool:
    """Whether each typed word is (``whole``) or starts a word of ``words``, in order."""
    rest = iter(words)
    return bool(typed) and all(any(w == t if whole else w.startswith(t) for w in rest)
                               for t in typed)


def called(ref: str, names: Sequence[str]) -> list[int]:
    """The indexes of the ``names`` that ``ref`` calls: by the full name, else by whole words
    of it, else by the starts of its words (each in order); ``[]`` for none."""
    key = fold_name(ref)
    if not key:
        return []
    exact = [i for i, n in enumerate(names) if fold_name(n) == key]
    if exact:
        return exact
    typed = _words(ref)
    for whole in (True, False):
        hits = [i for i, n in enumerate(names) if _in_order(typed, _words(n), whole=whole)]
        if hits:
            return hits
    return []


def _calling_word(words: list[str]) -> int:
    """Which of a name's words the table calls the character by: the first that is not a
    title (:data:`TITLES`), else the last."""
    return next((k for k, w in enumerate(words) if w.lower().rstrip(".") not in TITLES),
                len(words) - 1)


def short_names(names: Sequence[str]) -> list[str]:
    """Each name by the word the table calls it (:func:`_calling_word`), with the next word's
    initial where that word calls several, else in full: each picks out its own character
    (:func:`called`)."""
    out = []
    for i, name in enumerate(names):
        words = name.split()
        if len(words) < 2:
            out.append(name)
            continue
        k = _calling_word(words)
        tries = [words[k]] + ([f"{words[k]} {words[k + 1][:1]}."] if k + 1 < len(words) else [])
        out.append(next((t for t in tries if called(t, names) == [i]), name))
    return out
