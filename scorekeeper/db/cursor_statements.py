"""The statements of every recorded hand, run on the database driver's own cursor.

Recording a hand reads the evening's news (``facts.NEWS``) and inserts the hand
(``hands.ADD_HAND``); on SQLite it first takes the write lock (``BEGIN IMMEDIATE``). For
statements this small, SQLAlchemy's execution (its execution context, result and row
objects) costs more than the database's own work: run on the driver's cursor instead,
the three save a tenth of the instructions a whole recorded hand takes (``docs/decisions.md``).

A ``Direct`` statement is compiled once per dialect, and converts parameters and rows with
the type processors SQLAlchemy uses for that dialect, so values are written and read
exactly as everywhere else. It runs on the session's connection, inside its transaction.
Driver errors become SQLAlchemy's (an ``IntegrityError`` is retried as any other), and a
lost connection is invalidated, so the pool does not hand it out again.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.expression import Executable

#: Turns a value into what the driver takes, or what it gave into the Python value.
Processor = Callable[[Any], Any] | None


@dataclass(frozen=True)
class Compiled:
    """A statement as one dialect runs it."""

    sql: str
    #: The parameters' names in the order the driver takes them (``?`` placeholders), or
    #: None when it takes them by name.
    order: tuple[str, ...] | None
    #: Each parameter's processor, and its value unless given (a literal of the statement).
    binds: Mapping[str, Processor]
    defaults: Mapping[str, Any]
    #: The result columns that need converting, by position, with their processors.
    results: tuple[tuple[int, Callable[[Any], Any]], ...]

    def parameters(self, given: Mapping[str, Any]) -> Sequence[Any] | dict[str, Any]:
        """``given`` (and the statement's own literals) as the driver takes them."""
        values = {}
        for name, process in self.binds.items():
            value = given[name] if name in given else self.defaults[name]
            values[name] = value if process is None else process(value)
        if self.order is None:
            return values
        return tuple(values[name] for name in self.order)

    def rows(self, fetched: Sequence[Sequence[Any]]) -> list[tuple[Any, ...]]:
        """The driver's rows as Python values."""
        if not self.results:
            return [tuple(row) for row in fetched]
        out = []
        for row in fetched:
            values = list(row)
            for position, process in self.results:
                values[position] = process(values[position])
            out.append(tuple(values))
        return out


def compile_for(statement: Any, dialect: Dialect) -> Compiled:
    """``statement`` compiled for ``dialect``, with the processors of its types there."""
    compiled = statement.compile(dialect=dialect)
    binds = {
        name: bind.type.dialect_impl(dialect).bind_processor(dialect)
        for bind, name in compiled.bind_names.items()
    }
    columns = getattr(statement, "exported_columns", ())  # none for a text such as BEGIN
    processors = [
        column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns
    ]
    results = tuple((i, p) for i, p in enumerate(processors) if p is not None)
    order = tuple(compiled.positiontup) if compiled.positional else None
    return Compiled(compiled.string, order, binds, dict(compiled.params), results)


class Direct:
    """A statement built once, run on the driver's cursor of a connection."""

    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        self._compiled: dict[tuple[str, str], Compiled] = {}
        self._lock = threading.Lock()

    def compiled(self, dialect: Dialect) -> Compiled:
        """The statement for ``dialect`` (and its driver, whose placeholders and types it
        uses), compiled the first time it is asked for."""
        key = (dialect.name, dialect.driver)
        found = self._compiled.get(key)
        if found is None:
            with self._lock:
                found = self._compiled.get(key) or self._compiled.setdefault(
                    key, compile_for(self.statement, dialect)
                )
        return found

    def rows(self, connection: Connection, given: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Run the statement with the ``given`` parameters in ``connection``'s transaction;
        the rows it returns."""
        dialect = connection.dialect
        compiled = self.compiled(dialect)
        parameters = compiled.parameters(given)
        proxied = connection.connection
        cursor = proxied.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute(compiled.sql, parameters)
            fetched = cursor.fetchall() if cursor.description is not None else []
        except dialect.loaded_dbapi.Error as error:
            lost = dialect.is_disconnect(error, proxied.dbapi_connection, cursor)
            if lost:
                with contextlib.suppress(dialect.loaded_dbapi.Error):
                    cursor.close()
                connection.invalidate(error)
            raise DBAPIError.instance(
                compiled.sql,
                parameters,
                error,
                dialect.loaded_dbapi.Error,
                connection_invalidated=lost,
                dialect=dialect,
            ) from error
        finally:
            if not connection.invalidated:
                cursor.close()
        return compiled.rows(fetched)
