"""Printouts: a template rendered to HTML, then to PDF by WeasyPrint with the print styles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import current_app, render_template
from flask_babel import force_locale


def render_pdf(template: str, *, language: str, **context: Any) -> bytes:
    """The PDF of ``template`` in ``language`` (the evening's, not the reader's)."""
    import weasyprint  # imported here: it loads Pango, which only printing needs

    with force_locale(language):
        html = render_template(template, **context)
    static = Path(current_app.static_folder or "static")
    document = weasyprint.HTML(string=html, base_url=str(static))
    return bytes(document.write_pdf(stylesheets=[weasyprint.CSS(filename=static / "print.css")]))
