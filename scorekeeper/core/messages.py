"""A sentence for a user, kept untranslated: the core names what went wrong in English
message ids with their parameters; the shell translates them (docs/development.md "Rule
errors are ValueErrors"). A module of its own, with nothing to import, so that every part
of the core (names, rules, validation) can speak without importing the others."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Message:
    """A user-facing sentence, kept untranslated so the shell can render it in any language.

    The core cannot import the web framework's gettext, so it returns the English msgid
    with its parameters; the shell translates the msgid and fills in the parameters.

    >>> msg("Points must be between {low} and {high}.", low=0, high=70).render()
    'Points must be between 0 and 70.'
    """

    text: str
    params: tuple[tuple[str, object], ...] = ()

    def render(self, translate: Any = None) -> str:
        """Return the sentence, translated by ``translate(msgid)`` when one is given."""
        template = translate(self.text) if translate is not None else self.text
        params = {k: v.render(translate) if isinstance(v, Message) else v for k, v in self.params}
        return str(template).format(**params)


def msg(text: str, **params: object) -> Message:
    """Mark ``text`` as a translatable message (the extraction keyword of our catalogues)."""
    return Message(text, tuple(sorted(params.items())))
