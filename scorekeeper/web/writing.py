"""One way to write: a view says what it writes, and this module runs it.

Every write of the pages and the JSON API goes through ``write`` (docs/architecture.md,
"How a hand is written"). It decides in one place what each view used to decide for itself:

* **the connection**: a new hand of a casual evening is one insert on a plain connection
  (``unit_of_work.plain``), committing on its own where the database locks the evening's
  row in that insert and no answer is kept for a key (PostgreSQL); every other write,
  a tournament table's hands included (their last one closes the table through the
  mapped evening), goes through the ORM session; so does a hand of an evening whose pot
  goes on to a later one (which changes with it, ``operations.carried_pots``): its facts
  say so once read, and the write runs again in the session (``SessionNeededError``);
* **the retry**: a write that loses a race on a unique key runs again from what is stored
  now (``db.retry``);
* **the key**: with an ``Idempotency-Key`` or a page's form token, a repeat gets the first
  answer back, a key reused for another request is told so, and the answer is kept in the
  same transaction as the change (``db.idempotency``, docs/recording.md);
* **the end**: committed once when the write is done, rolled back whole when it is refused.

The view keeps parse, call and render: ``make`` runs the operation and returns what to
answer (``Written``); to refuse without writing it raises ``Answered`` with how to answer,
which is made only after the rollback, from what is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from flask import has_request_context
from flask.globals import request_ctx
from flask.sessions import SessionMixin

from scorekeeper.db import unit_of_work
from scorekeeper.db.idempotency import StoredAnswer, keep_answer, stored_answer
from scorekeeper.db.retry import retrying
from scorekeeper.operations import HandNumberTakenError
from scorekeeper.operations.errors import SessionNeededError
from scorekeeper.operations.views import locks_rows
from scorekeeper.web.tournament_tables import table_for_evening

R = TypeVar("R")

#: What a repeat with the same key gets back: body, status and ``Location``.
Kept = tuple[dict[str, Any], int, str | None]


@dataclass(frozen=True, slots=True)
class Written(Generic[R]):
    """A write done: the answer, and what to keep for its key (``None``: nothing)."""

    answer: R
    kept: Kept | None = None


@dataclass(frozen=True, slots=True)
class Key:
    """A request's key within its scope and for its requester, with the fingerprint of
    the request it stands for (``idempotency.fingerprint``)."""

    scope: str
    requester: str
    name: str
    fingerprint: str


class Answered(Exception):
    """Raised by ``make`` to end the write without writing: everything is rolled back,
    then ``answer()`` makes the answer (a form with its errors, a 409 with what is
    stored now)."""

    def __init__(self, answer: Callable[[], Any]) -> None:
        super().__init__()
        self.answer = answer


@dataclass(frozen=True, slots=True)
class _Keyed(Generic[R]):
    """A keyed write: its key and how to answer a request already answered under it."""

    key: Key
    repeated: Callable[[StoredAnswer, bool], R]

    def stored(self) -> StoredAnswer | None:
        """The answer already kept under the key, if any."""
        return stored_answer(self.key.scope, self.key.requester, self.key.name)

    def is_same(self, stored: StoredAnswer) -> bool:
        """Whether ``stored`` answered this very request."""
        return stored.answers(self.key.fingerprint)

    def keep(self, kept: Kept, secrets: tuple[str, ...]) -> None:
        """Keep ``kept`` under the key, in the transaction of the change it answers."""
        body, status, location = kept
        keep_answer(
            self.key.scope,
            self.key.requester,
            self.key.name,
            fingerprint=self.key.fingerprint,
            status=status,
            body=body,
            location=location,
            secrets=secrets,
        )


def write(
    make: Callable[[], Written[R]],
    *,
    key: Key | None = None,
    repeated: Callable[[StoredAnswer, bool], R] | None = None,
    number_taken: Callable[[HandNumberTakenError], R] | None = None,
    new_hand_in: int | None = None,
    secrets: Iterable[str] = (),
) -> R:
    """Run ``make`` once, committed, with the connection, retry and key handling above.

    ``key`` and ``repeated``: a request already answered under ``key`` is answered by
    ``repeated(stored, same)``, ``same`` telling whether the stored answer was for this
    very request. ``number_taken``: the answer when the hand's expected number went to
    another hand meanwhile (else the error goes on to the error pages). ``new_hand_in``:
    the evening a new hand is recorded into. ``secrets``: keys of the answer never kept.
    """
    keyed: _Keyed[R] | None = None
    if key is not None:
        if repeated is None:
            raise ValueError("a keyed write needs an answer for repeats")
        keyed = _Keyed(key, repeated)

    def attempt() -> R:
        return _attempt(make, keyed, number_taken, tuple(secrets))

    if new_hand_in is not None and table_for_evening(new_hand_in) is None:
        try:
            with unit_of_work.plain(each_statement=keyed is None and locks_rows()):
                return retrying(attempt)
        except SessionNeededError:
            pass  # nothing was written: the write runs again, in the session
    return retrying(attempt)


def _attempt(
    make: Callable[[], Written[R]],
    keyed: _Keyed[R] | None,
    number_taken: Callable[[HandNumberTakenError], R] | None,
    secrets: tuple[str, ...],
) -> R:
    """One run of a write, from the key's check to the commit. What ``make`` flashed is
    said only if the run commits: a run rolled back (refused, or lost to a race and run
    again) takes its messages back with its rows, so that none is said twice or about a
    change that was not kept."""
    work = unit_of_work.current
    if keyed is not None and (stored := keyed.stored()) is not None:
        work().rollback()
        return keyed.repeated(stored, keyed.is_same(stored))
    held = _flashes_held()
    try:
        try:
            done = make()
        except Answered as answered:
            work().rollback()
            _forget_flashes_after(held)
            result: R = answered.answer()
            return result
        except HandNumberTakenError as taken:
            work().rollback()
            _forget_flashes_after(held)
            return _after_number_taken(taken, keyed, number_taken)
        if keyed is not None and done.kept is not None:
            keyed.keep(done.kept, secrets)
        work().commit()
    except BaseException:
        _forget_flashes_after(held)
        raise
    return done.answer


def _flashes(held: SessionMixin) -> list[Any]:
    """The messages the session holds to show, read with the dictionary's own ``get``
    (Flask's cookie session is a dict): the session's would mark it read, and an API
    answer would then vary by its cookie."""
    return list(dict.get(cast("dict[str, Any]", held), "_flashes", ()))


def _flashes_held() -> int:
    """How many messages the session holds to show, before a run of a write."""
    return len(_flashes(request_ctx.session)) if has_request_context() else 0


def _forget_flashes_after(held: int) -> None:
    """Take back the messages flashed since the session held ``held`` of them."""
    if not has_request_context():
        return
    session = request_ctx.session
    flashes = _flashes(session)
    if len(flashes) > held:
        session["_flashes"] = flashes[:held]


def _after_number_taken(
    taken: HandNumberTakenError,
    keyed: _Keyed[R] | None,
    number_taken: Callable[[HandNumberTakenError], R] | None,
) -> R:
    """The answer when the hand's number went to another hand: the same request may have
    taken it a moment ago, while this one waited for the evening's lock, and then its
    answer is this one's; else ``number_taken``, a key reused, or the error itself."""
    stored = keyed.stored() if keyed is not None else None
    if keyed is not None and stored is not None and keyed.is_same(stored):
        return keyed.repeated(stored, True)
    if number_taken is not None:
        return number_taken(taken)
    if keyed is not None and stored is not None:
        return keyed.repeated(stored, False)
    raise taken
