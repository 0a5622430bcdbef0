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

#: The printouts' font files by family, regular and bold: the score sheet's condensed
#: type, the other printouts' DejaVu Sans, the certificates' DejaVu Serif.
FONT_FILES = {
    ("condensed", False): "DejaVuSansCondensed.ttf",
    ("condensed", True): "DejaVuSansCondensed-Bold.ttf",
    ("sans", False): "DejaVuSans.ttf",
    ("sans", True): "DejaVuSans-Bold.ttf",
    ("serif", False): "DejaVuSerif.ttf",
    ("serif", True): "DejaVuSerif-Bold.ttf",
}
#: Font units the font is loaded at: widths come out in thousandths of an em.
UNITS = 1000
MM_PER_PT = 25.4 / 72


@cache
def _font(family: str, bold: bool) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT_FILES[family, bold], UNITS)


@cache
def width_mm(text: str, size_pt: float, *, bold: bool = False, family: str = "condensed") -> float:
    """The printed width of ``text`` in millimetres at ``size_pt`` points.

    >>> round(width_mm("Bartholomäus", 8), 1), round(width_mm("Bartholomäus", 8, family="sans"), 1)
    (17.7, 19.7)
    """
    return _font(family, bold).getlength(text) / UNITS * size_pt * MM_PER_PT


def fitting_size(
    text: str,
    width: float,
    size_pt: float,
    *,
    least: float = 7.5,
    bold: bool = False,
    family: str = "sans",
) -> float | None:
    """The largest type size up to ``size_pt`` (in half points) at which every word of
    ``text`` fits ``width`` mm, so a line breaks only at its spaces: a name on a seating
    list or a certificate set smaller rather than broken inside. None when even ``least``
    is too large: the printout then writes the name's short form.

    >>> fitting_size("Anna Muster", 60, 13), fitting_size("Maximilianbartholomäus", 40, 13)
    (13, 9.0)
    >>> fitting_size("Maximilianbartholomäus", 20, 13) is None
    True
    """
    widest = max((width_mm(w, 1, bold=bold, family=family) for w in text.split()), default=0.0)
    if widest * size_pt <= width:
        return size_pt
    size = int(width / widest * 2) / 2
    return size if size >= least else None


def wrap(text: str, width: float, size_pt: float, *, bold: bool = False) -> list[str] | None:
    """``text`` broken at its spaces into lines no wider than ``width`` mm; None when one
    word alone is wider (it would have to break inside, which a printout never does). A
    no-break space joins what it stands between, as it does in print.

    >>> wrap("Anna Maria von Allmen", 20, 8)
    ['Anna Maria von', 'Allmen']
    >>> wrap("Bartholomäus", 10, 8) is None
    True
    """
    lines: list[str] = []
    for word in (w for w in text.split(" ") if w):
        if width_mm(word, size_pt, bold=bold) > width:
            return None
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and width_mm(joined, size_pt, bold=bold) <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines or [""]
