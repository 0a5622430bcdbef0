"""How deep a JSON body or upload may nest, checked on its bytes before it is parsed.

Python's parser recurses once per ``[`` or ``{``, and so does every walk over what it built
(the check for lone surrogates, serialising, the database's JSON columns). The recursion
limit is no safe stop: a worker once died with SIGSEGV, its stack exhausted, on a restore
that received 100,000 ``[`` and as many ``]``.
Nothing Scorekeeper reads nests deeper than 10 (a backup's evenings, each evening's hands,
each hand's revisions, each revision's input and its penalties); ``MAX_DEPTH`` leaves more
than three times that, and anything deeper is refused before the parser sees it.

``depth`` finds the nesting without parsing: it removes the strings (where brackets are
text), keeps only the brackets and adds them up. Both steps run in C (a regular
expression, ``bytes.translate``, ``itertools.accumulate``), so a body of 100 MB takes
about a second (``docs/hall-safety.md`` has the measured figures). For every valid JSON
document the result is its nesting depth; for invalid ones it is at least the depth the
parser reaches before it fails, so a refused document is never parsed deeper.
"""

from __future__ import annotations

import json
import re
from array import array
from itertools import accumulate

from scorekeeper.core.rules.base import InvalidInputError, Message, msg

#: The deepest nesting of ``[`` and ``{`` accepted in a request's body or an upload.
MAX_DEPTH = 32

#: Every byte but quotes and brackets, deleted with ``bytes.translate``.
_NOT_MARKS = bytes(b for b in range(256) if b not in b'"[]{}')
#: Objects and arrays alike: only how deep they nest matters.
_ONE_KIND = bytes.maketrans(b"{}", b"[]")
#: A string's quotes once its text is gone (see ``_brackets``); an unterminated string runs
#: to the end, so every match starts outside strings and the search never restarts inside.
_STRING = re.compile(rb'"[^"]*(?:"|\Z)')
#: Opening and closing brackets as +1 and -1 (signed bytes, for ``array``).
_SIGNED = bytes.maketrans(b"[]", b"\x01\xff")

BODY_TOO_DEEP = msg(
    "The body nests lists and objects more than {n} levels deep; no request to "
    "Scorekeeper nests nearly that deep. Nothing was changed.",
    n=MAX_DEPTH,
)
FILE_TOO_DEEP = msg(
    "This file nests lists and objects more than {n} levels deep; no Scorekeeper "
    "archive or backup nests nearly that deep. Nothing was changed.",
    n=MAX_DEPTH,
)


class TooDeepError(InvalidInputError):
    """A JSON document nesting deeper than ``MAX_DEPTH``, refused before parsing."""


def depth(data: bytes | str) -> int:
    """The deepest nesting of arrays and objects in the JSON text ``data``.

    >>> depth(b'{"a": [1, {"b": []}]}'), depth(b"7"), depth(b'["[[[[", "{"]')
    (4, 0, 1)
    """
    steps = array("b", _brackets(data).translate(_SIGNED))
    return max(0, max(accumulate(steps), default=0))


def too_deep(data: bytes | str, limit: int = MAX_DEPTH) -> bool:
    """Whether ``data`` nests deeper than ``limit`` (``depth(data) > limit``), quickly.

    Removing every ``[]`` (an innermost array or object) lowers a document's depth by one;
    a document at most ``limit`` deep is gone after that many rounds, each one
    ``bytes.replace``. What is left keeps the depths it had (each pair removed adds up to
    nothing), so ``limit + 1`` brackets opened in a row after a depth of 0 or more are too
    deep. Only what is neither (not JSON) is added up bracket by bracket.
    """
    brackets = _brackets(data)
    left = brackets
    for _ in range(limit):
        if not left:
            return False
        fewer = left.replace(b"[]", b"")
        if len(fewer) == len(left):
            break
        left = fewer
    if not left:
        return False
    run = left.find(b"[" * (limit + 1))
    if run >= 0 and left.count(b"[", 0, run) >= left.count(b"]", 0, run):
        return True
    return depth(brackets) > limit


def check_body(data: bytes | str) -> None:
    """Refuse a request's body nesting deeper than ``MAX_DEPTH`` (``TooDeepError``)."""
    _check(data, "body", BODY_TOO_DEEP)


def check_file(data: bytes | str) -> None:
    """Refuse an uploaded file nesting deeper than ``MAX_DEPTH`` (``TooDeepError``)."""
    _check(data, "file", FILE_TOO_DEEP)


def _check(data: bytes | str, field: str, message: Message) -> None:
    if too_deep(data):
        raise TooDeepError({field: (message,)})


def _brackets(data: bytes | str) -> bytes:
    """The brackets of ``data`` outside strings, in order, as ``[`` and ``]`` only.

    Backslashes appear only inside strings, and each escapes the character after it:
    escaped backslashes go first, then escaped quotes, so the quotes left open and close
    strings. Only quotes and brackets are kept; two quotes side by side (a string without
    brackets) are dropped together, which leaves every bracket as inside or outside a
    string as it was, and what remains of strings holding brackets is cut out.
    """
    raw = _utf8(data)
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    marks = raw.translate(None, _NOT_MARKS)
    while b'""' in marks:
        marks = marks.replace(b'""', b"")
    if b'"' in marks:
        marks = _STRING.sub(b"", marks)
    return marks.translate(_ONE_KIND)


def _utf8(data: bytes | str) -> bytes:
    """``data`` as UTF-8, in which no byte of a longer character looks like ASCII.

    Python's parser also reads UTF-16 and UTF-32 (``json.detect_encoding``): those are
    decoded as it decodes them, so their quotes and brackets are found, not guessed from
    bytes. What does not decode is no JSON the parser would read: it has no depth here.
    """
    if isinstance(data, str):
        return data.encode("utf-8", "surrogatepass")
    encoding = json.detect_encoding(data)
    if encoding in ("utf-8", "utf-8-sig"):
        return data
    try:
        return data.decode(encoding, "surrogatepass").encode("utf-8", "surrogatepass")
    except UnicodeError:
        return b""
