"""Printouts: a template rendered to HTML, then to PDF by WeasyPrint with the print styles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import current_app, render_template
from flask_babel import force_locale


def printed_html(template: str, *, language: str, **context: Any) -> str:
    """The HTML of ``template`` in ``language`` (the evening's, not the reader's)."""
    with force_locale(language):
        return render_template(template, **context)


def pdf_of(html: str) -> bytes:
    """``html`` set on paper by WeasyPrint with ``static/print.css``."""
    import weasyprint  # imported here: it loads Pango, which only printing needs

    static = Path(current_app.static_folder or "static")
    document = weasyprint.HTML(string=html, base_url=str(static))
    return bytes(document.write_pdf(stylesheets=[weasyprint.CSS(filename=static / "print.css")]))


def render_pdf(template: str, *, language: str, **context: Any) -> bytes:
    """The PDF of ``template`` in ``language``."""
    return pdf_of(printed_html(template, language=language, **context))
