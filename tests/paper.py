"""Printouts read as paper: the words a PDF shows and where (poppler's ``pdftotext``), held
against the HTML it was set from (docs/presentation.md "The score sheet as paper").

- **Words whole**: every word the PDF shows is a word of its HTML; a word broken inside
  ("Bartholo" / "mäus", "Abe" / "nde") shows as two words that are not.
- **Inside the page**: every word's box lies within the page.
"""

from __future__ import annotations

import html
import re
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Where the printouts' pages are kept as PNG to look at.
ARTIFACTS = ROOT / "test-artifacts" / "printouts"
#: What may stand around a word: punctuation, not part of it.
_EDGES = ".,;:()[]{}·/\"'!?«»„“”\u2018\u2019*"
#: A word made only of figures, signs and punctuation (amounts, page numbers, codes).
_FIGURES = re.compile(r"^[\d\s+\u2212\-\u2013.,:;/%\u00d7·|()'\u2019]*$")
_WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>'
)
_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)


@dataclass(frozen=True)
class Word:
    """A word as printed: its text and box, in points from the page's top left."""

    text: str
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class Page:
    """A printed page: its size and its words."""

    width: float
    height: float
    words: tuple[Word, ...]


def pages_of(pdf: bytes) -> list[Page]:
    """Each page of ``pdf`` with its words (``pdftotext -bbox``)."""
    out = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True, check=True, timeout=60
    ).stdout.decode()
    found = []
    for width, height, body in _PAGE.findall(out):
        words = tuple(
            Word(html.unescape(text), (float(a), float(b), float(c), float(d)))
            for a, b, c, d, text in _WORD.findall(body)
        )
        found.append(Page(float(width), float(height), words))
    return found


def layout_text(pdf: bytes) -> str:
    """The text as laid out on the pages, a table row per line (``pdftotext -layout``)."""
    return subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True, timeout=60
    ).stdout.decode()


def bare(word: str) -> str:
    """``word`` without the punctuation around it."""
    return word.strip(_EDGES)


def vocabulary(source: str) -> set[str]:
    """Every word of the HTML's text (its tags and styles left out)."""
    text = re.sub(r"<style.*?</style>", " ", source, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    return {bare(w) for w in text.split()} | set(text.split())


def broken_words(pdf: bytes, source: str) -> list[str]:
    """The words the PDF shows that its HTML does not hold: parts of words broken inside.
    A running head cut short with an ellipsis is a cut, not a break."""
    known = vocabulary(source)
    found = []
    for page in pages_of(pdf):
        for word in page.words:
            text = bare(word.text)
            if not text or text in known or word.text in known or _FIGURES.match(text):
                continue
            if text.endswith("…"):
                continue
            found.append(word.text)
    return found


def outside(pdf: bytes) -> list[str]:
    """The words drawn (even partly) outside their page."""
    found = []
    for number, page in enumerate(pages_of(pdf), start=1):
        for word in page.words:
            x0, y0, x1, y1 = word.box
            if x0 < 0 or y0 < 0 or x1 > page.width + 0.5 or y1 > page.height + 0.5:
                found.append(f"page {number}: {word.text} at {word.box}")
    return found


@contextmanager
def printed_html(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The HTML of every printout set while the block runs, in order."""
    import weasyprint

    seen: list[str] = []
    original = weasyprint.HTML

    def recording(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("string", ""))
        return original(*args, **kwargs)

    monkeypatch.setattr(weasyprint, "HTML", recording)
    yield seen


def keep_png(pdf: bytes, name: str) -> list[Path]:
    """The first and last page as PNG at 100 dpi in ``test-artifacts/printouts``, to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    source = ARTIFACTS / f"{name}.pdf"
    source.write_bytes(pdf)
    count = len(pages_of(pdf))
    kept = []
    for page in sorted({1, count}):
        target = ARTIFACTS / f"{name}-{page}"
        subprocess.run(
            [
                "pdftoppm",
                "-r",
                "100",
                "-png",
                "-singlefile",
                "-f",
                str(page),
                "-l",
                str(page),
                str(source),
                str(target),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        kept.append(target.with_suffix(".png"))
    source.unlink()
    return kept
