"""Page forms (WTForms with CSRF). They hand their data to the same operations as the API,
so a page and the API refuse the same input with the same messages."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DateField, SelectField, StringField, TextAreaField
from wtforms.validators import Length, Optional

from scorekeeper.rules import VARIANTS


class NewEveningForm(FlaskForm):  # type: ignore[misc]
    """Start an evening: game, players in playing order, first dealer, money."""

    game = SelectField(_l("Game"), choices=[])
    title = StringField(_l("Title"), validators=[Optional(), Length(max=200)])
    place = StringField(_l("Place"), validators=[Optional(), Length(max=200)])
    date = DateField(_l("Date"), validators=[Optional()])
    players = TextAreaField(
        _l("Players, one per line, in playing order (counter-clockwise)"),
        render_kw={"rows": 6},
    )
    first_dealer = StringField(_l("First dealer (empty: the first player)"))
    unit_value = StringField(_l("Unit value"), default="0.10")
    currency = StringField(_l("Currency"), default="CHF")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.game.choices = [(f"{g}/{k}", v.title.render()) for (g, k), v in VARIANTS.items()]

    def to_body(self) -> dict[str, object]:
        """The form as the API's body for a new evening."""
        game, variant = (self.game.data or "/").split("/", 1)
        return {
            "game": game,
            "variant": variant,
            "title": self.title.data or "",
            "place": self.place.data or "",
            "date": self.date.data.isoformat() if self.date.data else None,
            "players": [n for n in (self.players.data or "").splitlines() if n.strip()],
            "first_dealer": self.first_dealer.data or None,
            "options": {"unit_value": self.unit_value.data, "currency": self.currency.data},
        }
