"""How wide a text prints: the printouts' own font measured, so a printout can be laid out
before WeasyPrint sets it (docs/presentation.md "The score sheet as paper").

The score sheet decides itself where its pages end (each opens with the totals carried
over) and whether a name fits its column whole. Both need the width the text will take,
which the font's advance widths give exactly (no kerning between our digits and letters
that would matter at 8 pt). The font is the one ``static/print.css`` names for the sheet,
DejaVu Sans Condensed (``fonts-dejavu-extra``, installed by ``scripts/setup``).
"""

from __future__ import annotations

from functools import cache

from PIL import ImageFont

#: The sheet's font files, regular and bold.
FONT_FILES = {False: "DejaVuSansCondensed.ttf", True: "DejaVuSansCondensed-Bold.ttf"}
#: Font units the font is loaded at: widths come out in thousandths of an em.
UNITS = 1000
MM_PER_PT = 25.4 / 72


@cache
def _font(bold: bool) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT_FILES[bold], UNITS)


@cache
def width_mm(text: str, size_pt: float, *, bold: bool = False) -> float:
    """The printed width of ``text`` in millimetres at ``size_pt`` points.

    >>> round(width_mm("Bartholomäus", 8), 1)
    17.7
    """
    return _font(bold).getlength(text) / UNITS * size_pt * MM_PER_PT


def wrap(text: str, width: float, size_pt: float, *, bold: bool = False) -> list[str] | None:
    """``text`` broken at its spaces into lines no wider than ``width`` mm; None when one
    word alone is wider (it would have to break inside, which a printout never does).

    >>> wrap("Anna Maria von Allmen", 20, 8)
    ['Anna Maria von', 'Allmen']
    >>> wrap("Bartholomäus", 10, 8) is None
    True
    """
    lines: list[str] = []
    for word in text.split():
        if width_mm(word, size_pt, bold=bold) > width:
            return None
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and width_mm(joined, size_pt, bold=bold) <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines or [""]
