"""Reading a scenario file safely, with the line of every key, and collecting problems.

The YAML is only *composed* (parsed into a node tree) with PyYAML's safe loader; fuego then
turns the nodes into plain dicts, lists, strings, numbers, booleans and None itself. No tag ever
builds a Python object: a tag such as ``!!python/object/apply:os.system`` is reported and
dropped, never run. While walking the tree fuego records the line of every key and list item
(for messages like ``tavern.yaml:12: heroes[0].start: ...``) and enforces the limits of
:mod:`fuego.scenario.limits` (file size, alias expansion, nesting depth).

Mapping keys are kept as the text the GM typed (``y``, ``1``, ``off`` and ``~`` stay strings), so
legend characters and names never turn into booleans or numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from fuego.errors import FuegoError, ScenarioError
from fuego.scenario.limits import MAX_FILE_BYTES, MAX_PROBLEMS, MAX_YAML_DEPTH, MAX_YAML_NODES
from fuego.text import problem as text_problem

Path = tuple  # of str keys and int indices

_TAG = "tag:yaml.org,2002:"
#: Scalar tags fuego accepts (implicit or written out); timestamps are read as their text.
_SCALAR_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp")}


def path_text(path: Path) -> str:
    """``("heroes", 0, "traits")`` -> ``heroes[0].traits``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            part = str(part)
            if not part or any(ch in part for ch in ". []\"'") or not part.isprintable():
                out += f"[{part!r}]"
            else:
                out += ("." if out else "") + part
    return out


def short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass
class Located:
    """Plain data from a YAML file and where each part of it was written."""

    data: Any
    #: path -> (1-based line, scalar style or None)
    marks: dict[Path, tuple[int, str | None]] = field(default_factory=dict)

    def line(self, path: Path) -> int | None:
        """The line of ``path``, or of the nearest enclosing key that exists."""
        path = tuple(path)
        while True:
            mark = self.marks.get(path)
            if mark is not None:
                return mark[0]
            if not path:
                return None
            path = path[:-1]

    def style(self, path: Path) -> str | None:
        mark = self.marks.get(tuple(path))
        return mark[1] if mark else None


class Problems:
    """Every problem found in one file, each pinned to a line and a key path."""

    def __init__(self, source: str, located: Located | None = None):
        self.source = source
        self.located = located or Located(None)
        self.items: list[tuple[int, int, FuegoError]] = []
        self.dropped = 0
        self._seen: set[tuple[Path, str]] = set()
        self._reported: set[Path] = set()  # paths whose value was already found broken

    def __len__(self) -> int:
        return len(self.items) + self.dropped

    def __bool__(self) -> bool:
        return bool(self.items) or bool(self.dropped)

    def where(self, path: Path, line: int | None = None) -> str:
        line = line if line is not None else self.located.line(path)
        text = self.source + (f":{line}" if line else "")
        return f"{text}: {path_text(path)}" if path else text

    def add(self, path: Path, message: str, *, tip: str | None = None, line: int | None = None,
            broken: bool = False) -> None:
        path = tuple(path)
        for n in range(len(path) + 1):  # something above was already reported as broken
            if path[:n] in self._reported:
                return
        if (path, message) in self._seen:
            return
        self._seen.add((path, message))
        if broken:
            self._reported.add(path)
        if len(self.items) >= MAX_PROBLEMS:
            self.dropped += 1
            return
        ln = line if line is not None else self.located.line(path)
        self.items.append((ln or 0, len(self.items),
                           FuegoError(message, where=self.where(path, ln), tip=tip)))

    def error(self) -> ScenarioError:
        problems = [p for _, _, p in sorted(self.items, key=lambda t: (t[0], t[1]))]
        if self.dropped:
            problems.append(FuegoError(f"... and {self.dropped} more problems (fix these first)",
                                       where=self.source))
        return ScenarioError(problems)

    def raise_if_any(self) -> None:
        if self:
            raise self.error()


def fatal(source: str, message: str, *, line: int | None = None, tip: str | None = None) -> ScenarioError:
    where = source + (f":{line}" if line else "")
    return ScenarioError([FuegoError(message, where=where, tip=tip)])


# -- bytes -> text ------------------------------------------------------------------------------
def decode(raw: bytes, source: str) -> str:
    from fuego.files import decode as strict

    if len(raw) > MAX_FILE_BYTES:
        raise fatal(source, f"file is {len(raw):,} bytes; a scenario may be at most "
                            f"{MAX_FILE_BYTES:,} bytes")
    try:
        text = strict(raw, source, "a scenario (YAML)")
    except FuegoError as exc:
        raise ScenarioError([exc]) from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise fatal(source, "not a text file (it contains NUL bytes); a scenario is YAML text",
                    line=line)
    return text


def check_text(text: str, source: str) -> str:
    """The same checks as :func:`decode`, for text already in memory."""
    if len(text) > MAX_FILE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise fatal(source, f"the text is over {MAX_FILE_BYTES:,} bytes; a scenario may be at "
                            f"most {MAX_FILE_BYTES:,} bytes")
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise fatal(source, "not text (it contains NUL bytes); a scenario is YAML text", line=line)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        line = text[: exc.start].count("\n") + 1
        raise fatal(source, "the text holds characters that are not valid Unicode", line=line) \
            from None
    return text


def read_file(path) -> tuple[str, str]:
    """(text, source name) of a scenario file, or a ScenarioError naming what is wrong (read by
    :func:`fuego.files.read_bytes`: a regular file of at most ``MAX_FILE_BYTES``)."""
    from fuego.files import read_bytes

    source = str(path)
    try:
        raw = read_bytes(path, limit=MAX_FILE_BYTES, what="a scenario")
    except FuegoError as exc:
        raise ScenarioError([exc]) from None
    return decode(raw, source), source


# -- text -> nodes -> plain data -------------------------------------------------------------
def compose(text: str, source: str):
    """The YAML node tree of ``text`` (safe: nothing is constructed), or a ScenarioError."""
    import yaml

    try:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        # the context (an unclosed bracket or quote) is where the GM has to look first
        problem = exc.problem_mark.line + 1 if exc.problem_mark is not None else None
        context = exc.context_mark.line + 1 if exc.context_mark is not None else None
        line = context or problem
        what = exc.problem or "not valid YAML"
        if problem and (exc.context or "").startswith("while parsing a block") \
                and what.startswith("expected <block end>"):
            # a block's start is often line 1 (the whole file): the line out of step is the one
            # the GM must fix
            raise fatal(source, "not valid YAML: this line is indented differently from the "
                        f"lines before it (the block it sits in starts on line {line})",
                        line=problem, tip="indent a mapping's keys by the same spaces, a list's "
                        "'-' too; a value written inline ({...}) takes no keys below it") \
                from None
        if exc.context:
            what = f"{exc.context}: {what}"
        if problem and problem != line:
            what += f" (on line {problem})"
        raise fatal(source, f"not valid YAML: {what}", line=line,
                    tip="check indentation, colons, brackets and quotes near this line") \
            from None
    except yaml.YAMLError as exc:
        raise fatal(source, f"not valid YAML: {exc}") from None
    except RecursionError:
        raise fatal(source, f"YAML nested too deeply (at most {MAX_YAML_DEPTH} levels)") from None


class _Walker:
    """Turns composed nodes into plain data, recording lines and reporting bad tags."""

    def __init__(self, source: str, problems: Problems, located: Located):
        import yaml

        self.source = source
        self.problems = problems
        self.located = located
        self.nodes = 0
        self.yaml = yaml
        self._scalar = yaml.SafeLoader("")  # only its scalar constructors are used

    def _count(self, node, path: Path = ()) -> None:
        self.nodes += 1
        if self.nodes > MAX_YAML_NODES:
            # an alias node carries its anchor's line: name the top-level key being read
            top = self.located.marks.get(path[:1]) if path else None
            line = top[0] if top else node.start_mark.line + 1
            where = f"{self.source}:{line}: {path_text(path[:1])}" if path else None
            raise ScenarioError([FuegoError(
                f"the YAML expands to more than {MAX_YAML_NODES:,} values (aliases repeated "
                "too often?)", where=where or f"{self.source}:{line}",
                tip="write the values out; fuego limits alias expansion")])

    def walk(self, node, path: Path, depth: int) -> Any:
        yaml = self.yaml
        self._count(node, path)
        line = node.start_mark.line + 1
        if depth > MAX_YAML_DEPTH:
            raise fatal(self.source, f"YAML nested too deeply (at most {MAX_YAML_DEPTH} levels; "
                                     "a recursive alias?)", line=line)
        if isinstance(node, yaml.ScalarNode):
            self.located.marks.setdefault(path, (line, node.style))
            return self.scalar(node, path)
        self.located.marks.setdefault(path, (line, None))
        if node.tag not in (_TAG + "map", _TAG + "seq"):
            self.problems.add(path, f"YAML tag {self._tag(node.tag)} is not allowed here: "
                              "a scenario holds plain mappings, lists, text and numbers",
                              line=line, broken=True)
            return _BAD
        if isinstance(node, yaml.SequenceNode):
            out = []
            for i, item in enumerate(node.value):
                out.append(self.walk(item, path + (i,), depth + 1))
            return out
        return self.mapping(node, path, depth)

    def mapping(self, node, path: Path, depth: int) -> dict:
        """A mapping read key by key (each key plain text, and only once); the keys of its
        ``<<`` merges fill in those it does not set itself."""
        out: dict[str, Any] = {}
        merged: dict[str, Any] = {}
        for key_node, value_node in node.value:
            kline = key_node.start_mark.line + 1
            if key_node.tag == _TAG + "merge":
                self._merge(value_node, path, depth, kline, merged)
                continue
            key = self._key(key_node, path, kline)
            if key is None:
                continue
            if key in out:
                self.problems.add(path + (key,), f"duplicate key {key!r} (the first is on line "
                                  f"{self.located.line(path + (key,))})", line=kline)
                continue
            self.located.marks[path + (key,)] = (kline, None)
            value = self.walk(value_node, path + (key,), depth + 1)
            if value is not _BAD:
                out[key] = value
            if isinstance(value_node, self.yaml.ScalarNode):
                self.located.marks[path + (key,)] = (kline, value_node.style)
        for k, v in merged.items():
            if k not in out and v is not _BAD:
                out[k] = v
        return out

    def _merge(self, value_node, path: Path, depth: int, kline: int, merged: dict) -> None:
        """A ``<<`` merge key: the keys of its mapping (or of each mapping of its list) into
        ``merged``, the first one given of each key kept."""
        value = self.walk(value_node, path + ("<<",), depth + 1)
        sources = value if isinstance(value, list) else [value]
        for src in sources:
            if isinstance(src, dict):
                for k, v in src.items():
                    merged.setdefault(k, v)
            else:
                self.problems.add(path, "a '<<' merge key needs a mapping (or a list of "
                                  "mappings) to merge", line=kline)

    def _key(self, key_node, path: Path, kline: int) -> str | None:
        """A mapping's key as text, or None (reported) if it is a list or mapping, carries a
        tag, or holds a surrogate, a control character, a tab or a newline."""
        if not isinstance(key_node, self.yaml.ScalarNode):
            self._count(key_node, path)
            self.problems.add(path, "a key must be plain text, not a list or mapping",
                              line=kline)
            return None
        if key_node.tag not in _SCALAR_TAGS:
            self.problems.add(path, f"YAML tag {self._tag(key_node.tag)} is not allowed "
                              "on a key", line=kline)
            return None
        key = key_node.value
        if _SURROGATE.search(key):
            self.problems.add(path, "a key " + surrogate_problem(key), line=kline,
                              tip=SURROGATE_TIP)
            return None
        control = text_problem(key) or ("holds a tab or a newline" if "\t" in key
                                        or "\n" in key else None)
        if control:
            self.problems.add(path, "a key " + control, line=kline, tip=CONTROL_TIP)
            return None
        return key

    def scalar(self, node, path: Path) -> Any:
        tag = node.tag
        line = node.start_mark.line + 1
        if tag not in _SCALAR_TAGS:
            self.problems.add(path, f"YAML tag {self._tag(tag)} is not allowed: a scenario "
                              "holds plain text, numbers and true/false (nothing is run)",
                              line=line, broken=True)
            return _BAD
        if tag in (_TAG + "str", _TAG + "timestamp"):
            if _SURROGATE.search(node.value):
                self.problems.add(path, surrogate_problem(node.value), line=line, broken=True,
                                  tip=SURROGATE_TIP)
                return _BAD
            control = text_problem(node.value)
            if control:
                self.problems.add(path, control, line=line, broken=True, tip=CONTROL_TIP)
                return _BAD
            return node.value
        if tag == _TAG + "int" and len(node.value.replace("_", "").lstrip("+-")) > 30:
            self.problems.add(path, f"number {short(node.value, 24)} is far too large",
                              line=line, broken=True)
            return _BAD
        try:
            return self._scalar.construct_object(node, deep=True)
        except Exception:  # noqa: BLE001 - any unreadable scalar is the file's problem
            self.problems.add(path, f"cannot read {short(node.value)} as "
                              f"{tag.rsplit(':', 1)[-1]}", line=line, broken=True)
            return _BAD

    @staticmethod
    def _tag(tag: str) -> str:
        if tag.startswith(_TAG):
            return "!!" + tag[len(_TAG):]
        return tag if tag.startswith("!") else f"!<{tag}>"


#: Half of a UTF-16 surrogate pair: a YAML escape such as "\uD800" makes one, and no file,
#: terminal or log can hold it (names are text: printed literally, or refused here).
_SURROGATE = re.compile("[\ud800-\udfff]")
SURROGATE_TIP = "write the character itself, or a whole pair of \\u escapes"
CONTROL_TIP = "remove it: a downloaded scenario could use it to write to the GM's terminal"


def surrogate_problem(text: str) -> str:
    bad = _SURROGATE.search(text)
    assert bad is not None
    return (f"holds {bad.group()!r} at character {bad.start() + 1}, half of a UTF-16 "
            "surrogate pair: not a character fuego can print or save")


class _Bad:
    def __repr__(self) -> str:
        return "<unreadable>"


_BAD = _Bad()


def parse(text: str, source: str, problems: Problems | None = None) -> tuple[Located, Problems]:
    """Plain data and line marks of YAML ``text``; fatal problems raise ScenarioError."""
    node = compose(text, source)
    located = Located(None)
    problems = problems or Problems(source, located)
    problems.located = located
    if node is None:
        raise fatal(source, "the file is empty; a scenario starts with 'title:' and 'levels:'",
                    tip="see docs/scenario-format.md or run 'fuego new'")
    try:
        located.data = _Walker(source, problems, located).walk(node, (), 0)
    except RecursionError:
        raise fatal(source, f"YAML nested too deeply (at most {MAX_YAML_DEPTH} levels)") from None
    return located, problems
