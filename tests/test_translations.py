"""The German catalogue stays complete, correct in its placeholders, and in step with the code.

Players at the table read German first; an English sentence left in a German page, or a
``{name}`` lost in translation, is a bug that only shows at the table. These tests catch it
at commit time instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).parents[1]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
POT = TRANSLATIONS / "messages.pot"
GERMAN = TRANSLATIONS / "de" / "LC_MESSAGES" / "messages.po"

#: The same keywords as the documented extract command (``-k msg -k _l`` plus the defaults).
KEYWORDS = {**DEFAULT_KEYWORDS, "msg": None, "_l": None}

EXTRACT_COMMAND = (
    ".venv/bin/pybabel extract -F babel.cfg -k msg -k _l --sort-output --no-location "
    "-o scorekeeper/translations/messages.pot ."
)
UPDATE_COMMAND = (
    ".venv/bin/pybabel update -i scorekeeper/translations/messages.pot "
    "-d scorekeeper/translations --no-fuzzy-matching"
)

#: ``{name}`` fields of str.format, with an optional conversion or format spec; ``{{`` is literal.
_BRACE = re.compile(r"(?<!\{)\{(\w*)(?:[!:][^{}]*)?\}(?!\})")
#: ``%(name)s`` fields of %-formatting, as flask-babel's gettext fills them.
_PERCENT = re.compile(r"%\((\w+)\)[#0 +\-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")


def load(path: Path) -> Catalog:
    """Read a .po or .pot file the way pybabel does."""
    with path.open("rb") as handle:
        return read_po(handle, locale="de" if path.suffix == ".po" else None)


def key(message: Message) -> str:
    """The singular msgid, which is what the code passes to gettext."""
    return message.id if isinstance(message.id, str) else message.id[0]


def entries(catalog: Catalog) -> Iterator[Message]:
    """Every real message, without the header entry."""
    return (m for m in catalog if m.id)


def translations(message: Message) -> tuple[str, ...]:
    """The msgstr, or each plural form of it."""
    value = message.string
    if isinstance(value, list | tuple):
        return tuple(value)
    return (value or "",)


def placeholders(text: str) -> tuple[set[str], set[str]]:
    """The brace and percent placeholder names a text uses."""
    return set(_BRACE.findall(text)), set(_PERCENT.findall(text))


@pytest.fixture(scope="module")
def template() -> Catalog:
    """The extracted template, messages.pot."""
    return load(POT)


@pytest.fixture(scope="module")
def german() -> Catalog:
    """The German catalogue."""
    return load(GERMAN)


def test_every_message_is_translated(template: Catalog, german: Catalog) -> None:
    """A missing or fuzzy msgstr shows English (or a wrong guess) to German players."""
    translated = {key(m): m for m in entries(german)}
    missing = [key(m) for m in entries(template) if key(m) not in translated]
    empty = [k for k, m in translated.items() if not all(translations(m))]
    fuzzy = [k for k, m in translated.items() if m.fuzzy]
    assert not missing, f"not in the German catalogue: {missing}; run: {UPDATE_COMMAND}"
    assert not empty, f"no German text yet: {empty}"
    assert not fuzzy, f"still marked fuzzy, check and remove the flag: {fuzzy}"
    assert not german.fuzzy, "the catalogue header is still marked fuzzy"


def test_placeholders_survive_translation(german: Catalog) -> None:
    """The code fills {name} and %(n)s by name: a renamed or dropped one breaks the page.

    A plural form may leave out the count itself (``%(num)s``) where the language says
    "once" or "einmal", as the English singular may; every other placeholder stays.
    """
    wrong = {}
    for message in entries(german):
        if isinstance(message.id, str):
            expected = placeholders(message.id)
            optional: set[str] = set()
        else:
            braces, percents = zip(*(placeholders(i) for i in message.id), strict=True)
            expected = (set().union(*braces), set().union(*percents))
            optional = {"num"}
        for string in translations(message):
            braces, percents = placeholders(string)
            if braces != expected[0] or not (expected[1] - optional <= percents <= expected[1]):
                wrong[key(message)] = string
    assert not wrong, f"placeholders differ from the msgid: {wrong}"


def test_no_obsolete_entries(german: Catalog) -> None:
    """Translations of msgids the code no longer uses only mislead the next translator."""
    assert not german.obsolete, (
        f"obsolete entries (#~) left in {GERMAN.name}: {sorted(german.obsolete)}; delete them"
    )


def test_catalogue_compiles(german: Catalog) -> None:
    """The setup script compiles the catalogue; it must produce a readable .mo file."""
    buffer = BytesIO()
    write_mo(buffer, german)
    buffer.seek(0)
    compiled = read_mo(buffer)
    assert {key(m) for m in entries(compiled)} == {key(m) for m in entries(german)}
    players = compiled.get("This game is played by {low} to {high} players, not {n}.")
    assert players is not None
    assert players.string == (
        "Dieses Spiel wird von {low} bis {high} Personen gespielt, nicht von {n}."
    )


def test_template_matches_the_source(template: Catalog) -> None:
    """A message added to the code but not extracted would never be translated."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)  # type: ignore[no-untyped-call]
    extracted = {
        message[0] if isinstance(message, tuple) else message
        for _filename, _lineno, message, _comments, _context in extract_from_dir(
            ROOT, method_map, options_map, keywords=KEYWORDS
        )
    }
    in_template = {key(m) for m in entries(template)}
    assert extracted == in_template, (
        "messages.pot is out of date with the source. "
        f"New in the code: {sorted(extracted - in_template)}; "
        f"gone from the code: {sorted(in_template - extracted)}. "
        f"From the repository root run:\n  {EXTRACT_COMMAND}\n  {UPDATE_COMMAND}\n"
        "then translate the new entries in "
        "scorekeeper/translations/de/LC_MESSAGES/messages.po."
    )
