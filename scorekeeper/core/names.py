"""Names as people read them: one spelling stored, and two names that look alike taken for
one (docs/limits.md "Names that look alike").

A name typed on a tablet may carry what nobody sees: a zero-width space, a soft hyphen, a
direction mark that turns the rest around, or letters of another script that look like
ours (a Cyrillic ``е`` in ``Веrt``). Stored as they came, ``Bert`` and ``Bert`` plus a
zero-width space sat at one table as two players, and ``Zürich`` composed and decomposed
were two groups. So:

* every name (player, entrant, member, group) is stored in Unicode's composed form (NFC),
  and one holding an invisible or control character is refused (``invisible_problem``);
  titles and places lose such characters silently (``clean_text``);
* names are compared by their *folded* form (``fold``): compatibility forms written as the
  letters they stand for (NFKC: fullwidth ``Ｂ``, mathematical ``𝐁``, ligatures), letters
  of the Cyrillic and Greek scripts that look like Latin ones written as those
  (``LOOKALIKES``, a documented subset of Unicode's confusables, UTS #39), dashes,
  quotes and spaces of every kind as the plain ones, case ignored, invisible characters
  dropped, runs of spaces as one. Accents count: ``Müller`` and ``Muller`` are two names.
"""

from __future__ import annotations

import unicodedata

from scorekeeper.core.messages import Message, msg

#: Characters no name holds: control (Cc), format (Cf: zero-width space and joiners, soft
#: hyphen, direction marks and overrides, byte order mark), surrogates, private use and
#: unassigned code points.
INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})

#: Letters of other scripts, and symbols, that look like a Latin letter, a dash or a quote,
#: and what they fold to. Taken from Unicode's confusables (UTS #39) for the letters a
#: Latin-script table could meet: Cyrillic and Greek capitals and small letters, and a few
#: Latin look-alikes (dotless i, script a and g). Digits are left as they are (``0``
#: beside ``O``): numbers in names (``Gast 10``) are told apart by them. Applied to the
#: decomposed name (so ``ё`` is ``е`` with its dots, and folds as ``ë``), before the case
#: is folded (so a capital keeps its own look-alike: Greek ``Ν`` is ``N``, ``ν`` is ``v``).
LOOKALIKES = {
    # Cyrillic capitals
    "А": "A",
    "В": "B",
    "Е": "E",
    "З": "3",
    "І": "I",
    "Ј": "J",
    "К": "K",
    "М": "M",
    "Н": "H",
    "О": "O",
    "Р": "P",
    "С": "C",
    "Ѕ": "S",
    "Т": "T",
    "У": "Y",
    "Х": "X",
    "Ү": "Y",
    "Ԛ": "Q",
    "Ԝ": "W",
    "Ӏ": "l",
    # Cyrillic small letters
    "а": "a",
    "в": "b",
    "е": "e",
    "і": "i",
    "ј": "j",
    "к": "k",
    "м": "m",
    "н": "h",
    "о": "o",
    "р": "p",
    "с": "c",
    "ѕ": "s",
    "т": "t",
    "у": "y",
    "х": "x",
    "ү": "y",
    "һ": "h",
    "ԁ": "d",
    "ԛ": "q",
    "ԝ": "w",
    "ӏ": "l",
    # Greek capitals
    "Α": "A",
    "Β": "B",
    "Ε": "E",
    "Ζ": "Z",
    "Η": "H",
    "Ι": "I",
    "Κ": "K",
    "Μ": "M",
    "Ν": "N",
    "Ο": "O",
    "Ρ": "P",
    "Τ": "T",
    "Υ": "Y",
    "Χ": "X",
    # Greek small letters
    "α": "a",
    "ι": "i",
    "κ": "k",
    "ν": "v",
    "ο": "o",
    "ρ": "p",
    "υ": "u",
    "χ": "x",
    "ϲ": "c",
    "ϳ": "j",
    # Latin look-alikes
    "ı": "i",
    "ȷ": "j",
    "ɑ": "a",
    "ɡ": "g",
    "ǀ": "l",
    "ꓲ": "l",
    # Dashes, quotes
    "‐": "-",
    "‑": "-",
    "‒": "-",
    "–": "-",
    "—": "-",
    "―": "-",
    "−": "-",
    "﹣": "-",
    "’": "'",
    "‘": "'",
    "ʼ": "'",
    "ʹ": "'",
    "′": "'",
    "`": "'",
    "´": "'",
}
_TABLE = str.maketrans(LOOKALIKES)


def is_invisible(char: str) -> bool:
    """Whether ``char`` is one no name may hold (``INVISIBLE``)."""
    return unicodedata.category(char) in INVISIBLE


def normal(name: str) -> str:
    """A name as it is stored: composed (NFC), without surrounding spaces."""
    return unicodedata.normalize("NFC", name).strip()


def invisible_problem(name: str) -> Message | None:
    """Why a name cannot be stored for a character nobody sees, if it holds one.

    >>> invisible_problem("Bert") is None
    True
    >>> invisible_problem("Be\\u200brt").render()
    'Names cannot hold invisible characters (here U+200B ZERO WIDTH SPACE); type the name again.'
    """
    for char in name:
        if is_invisible(char):
            what = unicodedata.name(char, "")
            shown = f"U+{ord(char):04X} {what}".strip()
            return msg(
                "Names cannot hold invisible characters (here {char}); type the name again.",
                char=shown,
            )
    return None


def clean_text(text: str) -> str:
    """A title or a place as stored: composed, invisible characters dropped (a line break
    or a tab becomes a space), no surrounding spaces."""
    composed = unicodedata.normalize("NFC", text)
    kept = (" " if c in "\t\n\r" else c for c in composed)
    return "".join(c for c in kept if not is_invisible(c)).strip()


def fold(name: str) -> str:
    """How names are compared: two names that look alike fold alike.

    >>> fold("Bert") == fold(" bert ") == fold("\\u0412\\u0435rt") == fold("Ｂｅｒｔ")
    True
    >>> fold("Zu\\u0308rich") == fold("Z\\u00fcrich") != fold("Zurich")
    True
    >>> fold("Anna  Maria") == fold("Anna\\u00a0Maria") == fold("anna maria")
    True
    >>> fold("Stra\\u00dfe")
    'strasse'
    """
    compatible = unicodedata.normalize("NFKC", name)
    visible = "".join(c for c in compatible if not is_invisible(c))
    decomposed = unicodedata.normalize("NFD", visible).translate(_TABLE)
    folded = unicodedata.normalize("NFC", decomposed).casefold()
    return " ".join(folded.split())
