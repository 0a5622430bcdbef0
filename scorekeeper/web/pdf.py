"""Printouts: a template rendered to HTML, then to PDF by WeasyPrint with the print styles."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask import current_app, render_template
from flask_babel import force_locale


def printed_html(template: str, *, language: str, **context: Any) -> str:
    """The HTML of ``template`` in ``language`` (the evening's, not the reader's)."""
    with force_locale(language):
        return render_template(template, **context)


#: A word joined by hyphens (``Steiger-Wattenwyl``, ``36-mal``), where a line may break.
_HYPHENED = re.compile(r"\w+(?:-\w+)+")
_TAG = re.compile(r"(<[^>]*>)")


def hyphened_whole(html: str) -> str:
    """``html`` with each hyphened word of its text kept on one line (``span.whole``): a
    printout never breaks a name inside, not even at its hyphen (docs/presentation.md
    "The score sheet as paper"). Tags, styles and the title are left as they are.

    >>> hyphened_whole("<style>a { font-size: 8pt }</style><p>Anna-Lena <b>Ida</b></p>")
    '<style>a { font-size: 8pt }</style><p><span class="whole">Anna-Lena</span> <b>Ida</b></p>'
    """
    parts = _TAG.split(html)
    skipping = False
    for index, part in enumerate(parts):
        if index % 2:
            name = re.split(r"[\s>]", part[1:], maxsplit=1)[0].lower()
            if name in ("style", "title"):
                skipping = True
            elif name in ("/style", "/title"):
                skipping = False
        elif not skipping and "-" in part:
            parts[index] = _HYPHENED.sub(r'<span class="whole">\g<0></span>', part)
    return "".join(parts)


def pdf_of(html: str) -> bytes:
    """``html`` set on paper by WeasyPrint with ``static/print.css``."""
    import weasyprint  # imported here: it loads Pango, which only printing needs

    static = Path(current_app.static_folder or "static")
    document = weasyprint.HTML(string=hyphened_whole(html), base_url=str(static))
    return bytes(document.write_pdf(stylesheets=[weasyprint.CSS(filename=static / "print.css")]))


def render_pdf(template: str, *, language: str, **context: Any) -> bytes:
    """The PDF of ``template`` in ``language``."""
    return pdf_of(printed_html(template, language=language, **context))
