"""The nesting scanner (``scorekeeper/core/json_limits.py``): the depth of any JSON text found
without parsing it, brackets inside strings and escaped quotes read as the parser reads
them, and the quick limit check agreeing with the exact depth."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.core import json_limits
from scorekeeper.core.json_limits import MAX_DEPTH, depth, too_deep


def nesting(value: Any) -> int:
    """The true depth of a parsed value: each list or object one level."""
    if isinstance(value, dict):
        return 1 + max(map(nesting, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(nesting, value), default=0)
    return 0


def reference(data: bytes) -> int:
    """The same scan one byte at a time: a backslash followed by a backslash or a quote
    takes both, a quote opens or closes a string, brackets outside strings count."""
    best = level = 0
    inside = False
    i = 0
    while i < len(data):
        byte = data[i : i + 1]
        if byte == b"\\" and data[i + 1 : i + 2] in (b"\\", b'"'):
            i += 2
            continue
        if byte == b'"':
            inside = not inside
        elif not inside and byte in (b"[", b"{"):
            level += 1
            best = max(best, level)
        elif not inside and byte in (b"]", b"}"):
            level -= 1
        i += 1
    return best


def arrays(n: int) -> bytes:
    return b"[" * n + b"]" * n


def objects(n: int) -> bytes:
    return b'{"a":' * n + b"1" + b"}" * n


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (b"", 0),
        (b"7", 0),
        (b'"[[[["', 0),
        (b"[]", 1),
        (b"{}", 1),
        (b'{"a": [1, {"b": []}]}', 4),
        (b'["[[[[[[[[[[", "{{{{{{{{"]', 1),
        (b'{"[": "]]]]", "x": [["{"]]}', 3),
        # Escaped quotes do not end the string; the brackets after them are still text.
        (b'["\\"[[[[[", "a"]', 1),
        (b'["\\\\\\"[[[[[", "a"]', 1),
        # An escaped backslash does end it: the quote after it is real.
        (b'["\\\\", [[1]]]', 3),
        (b'["\\\\\\\\", [[1]]]', 3),
        # \u0022 is a quote only once parsed: in the text it is still inside the string.
        (b'["\\u0022[[[["]', 1),
        (b'["\\/", "\\n[", {"k\\"": [{}]}]', 4),
        ('["Zürich", ["€"]]'.encode(), 2),
        # Not JSON: an unterminated string runs to the end; what is open counts.
        (b'["abc[[[[', 1),
        (b"[[[[", 4),
        (b"]]]][[", 0),
    ],
)
def test_depth(text: bytes, expected: int) -> None:
    assert depth(text) == expected
    assert depth(text.decode("utf-8")) == expected
    assert reference(text) == expected


@pytest.mark.parametrize("make", [arrays, objects])
def test_the_limit_is_inclusive(make: Any) -> None:
    assert depth(make(MAX_DEPTH)) == MAX_DEPTH
    assert not too_deep(make(MAX_DEPTH))
    assert too_deep(make(MAX_DEPTH + 1))
    assert too_deep(make(100_000))
    json_limits.check_body(make(MAX_DEPTH))
    with pytest.raises(json_limits.TooDeepError) as raised:
        json_limits.check_file(make(MAX_DEPTH + 1))
    assert list(raised.value.errors) == ["file"]


def test_brackets_inside_strings_never_count() -> None:
    inside = json.dumps(["[" * 100_000, "{" * 100_000, '\\"[' * 1000]).encode()
    assert depth(inside) == 1
    assert not too_deep(inside)


def test_utf16_and_utf32_are_read_as_the_parser_reads_them() -> None:
    # U+5B22 and U+225B hold the bytes of "[" and '"' in UTF-16: they must not count.
    value = {"a": ["\u5b22\u225b[", [[{"b": "\u5b5b\u2222"}]]]}
    for encoding in ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"):
        data = json.dumps(value, ensure_ascii=False).encode(encoding)
        assert json.loads(data) == value
        assert depth(data) == nesting(value) == 5, encoding
    deep = ("[" * 40 + "]" * 40).encode("utf-16")
    assert too_deep(deep)


def test_bytes_no_parser_would_read_have_no_depth() -> None:
    assert depth(b"\x00[\x00[\x00[\xd8") == 0  # UTF-16 by its zeros, but cut in half
    assert depth(b"\xc3\x28[[") == 2  # not UTF-8 at all: the bytes are still looked at


def test_the_deepest_real_documents_are_far_from_the_limit() -> None:
    from pathlib import Path

    data = Path(__file__).parents[1] / "data"
    deepest = max(depth(p.read_bytes()) for p in data.rglob("*.json"))
    assert deepest == 10  # a backup's evenings: hands, revisions, input, penalties
    assert deepest * 3 <= MAX_DEPTH


JSON_TEXT = st.text(st.sampled_from(list('ab[]{}"\\/:,\n\t é€\u5b22\U0001f600')), max_size=12)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | JSON_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(JSON_TEXT, inner, max_size=4),
    max_leaves=30,
)


@given(JSON_VALUES, st.booleans(), st.sampled_from([None, 0, 1]))
def test_the_depth_of_any_json_value_is_its_nesting(
    value: Any, ascii_only: bool, indent: int | None
) -> None:
    data = json.dumps(value, ensure_ascii=ascii_only, indent=indent).encode()
    assert depth(data) == nesting(value)
    for limit in range(nesting(value) + 2):
        assert too_deep(data, limit) == (nesting(value) > limit)


@given(
    st.binary().map(lambda b: b.translate(None, b"\x00")) | st.text('[]{}"\\a, ').map(str.encode)
)
def test_any_bytes_are_scanned_as_one_byte_at_a_time(data: bytes) -> None:
    data = b"x" + data  # no byte order mark or zeros: read as UTF-8, as the reference does
    assert depth(data) == reference(data)
    for limit in range(6):
        assert too_deep(data, limit) == (reference(data) > limit)
