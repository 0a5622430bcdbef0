"""Page forms (Flask-WTF, with CSRF) for table groups and their members (docs/club.md).

They collect input only: the operations of ``operations/table_groups.py`` check it, and
their refusals are shown next to the field they name. Several stand on one page, each
with its own prefix; the page writes one plain ``csrf_token`` field into each, which the
app's CSRF protection checks for every POST, so the forms keep no token of their own.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectField, StringField

from scorekeeper.core.validation import NAME_LENGTH
from scorekeeper.web.forms import choice_list


class ClubForm(FlaskForm):  # type: ignore[misc]
    """A form of the club's pages: the token is the page's (see above)."""

    class Meta:
        """No token of the form's own."""

        csrf = False


class NameForm(ClubForm):
    """A group's or a member's name."""

    name = StringField(_l("Name"), render_kw={"maxlength": NAME_LENGTH, "autocomplete": "off"})


class MergeForm(ClubForm):
    """Another member who is the same person."""

    other = SelectField(_l("Is the same person as"), choices=[], validate_choice=False)


class EveningForm(ClubForm):
    """An evening of no group to put into this group."""

    evening = SelectField(_l("Evening"), choices=[], validate_choice=False)


def name_form(prefix: str, formdata: object = None, name: str = "") -> NameForm:
    """A name form; ``prefix`` keeps several on one page apart."""
    return NameForm(formdata=formdata, prefix=prefix, data={"name": name})


def merge_form(
    prefix: str, others: Iterable[tuple[str, str]], formdata: object = None
) -> MergeForm:
    """The merge form of one member, the others to choose from."""
    form = MergeForm(formdata=formdata, prefix=prefix)
    form.other.choices = choice_list([("", _l("Choose a member")), *others])
    return form


def evening_form(evenings: Iterable[tuple[str, str]], formdata: object = None) -> EveningForm:
    """The form to put an evening of no group into the group."""
    form = EveningForm(formdata=formdata)
    form.evening.choices = choice_list([("", _l("Choose an evening")), *evenings])
    return form
