"""The core stays pure (docs/development.md): no framework, no database, no clock, no dice, no I/O.

The AST is read rather than the modules imported, so an import hidden in a function body
or behind ``TYPE_CHECKING`` is caught as well.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"
#: The core is its folder (docs/architecture.md "Layers"): whatever lives there is checked.
CORE = sorted(PACKAGE.joinpath("core").rglob("*.py"))
#: The seating draw is random by nature (docs/tournaments.md): it may build ``Random(seed)`` from
#: the seed its caller stores, and use nothing else of ``random`` (no global, unseeded state).
SEEDED_RANDOM = (PACKAGE / "core" / "draw.py",)
FORBIDDEN = (
    "flask",
    "sqlalchemy",
    "wtforms",
    "weasyprint",
    "scorekeeper.db.models",
    "datetime",
    "random",
    "os",
    "io",
)


#: A calendar day is a value (an evening's date as the table said it); reading the clock is not.
#: Dates and moments as values passed in (a day, a save's time): the core never asks the
#: clock itself (``CLOCK``), the shell gives it the time.
VALUE_TYPES = frozenset({"date", "datetime", "timedelta"})
DATE_VALUE = ("datetime", *(f"datetime.{name}" for name in VALUE_TYPES))
CLOCK = frozenset({"today", "now", "utcnow", "time"})


def is_forbidden(module: str) -> bool:
    """Whether importing ``module`` (or a submodule of it) breaks the core's purity.

    Of the package itself the core imports only the core: never the database, the
    operations, the pages or the server.
    """
    if module.startswith("scorekeeper.") and not module.startswith("scorekeeper.core"):
        return True
    return module.split(".")[0].startswith("flask_") or any(
        module == f or module.startswith(f + ".") for f in FORBIDDEN
    )


def reads_no_clock(source: str) -> bool:
    """Whether ``datetime`` appears only as ``from datetime import`` value types, never
    asked the time."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import) and any(
            alias.name.split(".")[0] == "datetime" for alias in node.names
        ):
            return False
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "datetime"
            and not all(a.name in VALUE_TYPES and a.asname is None for a in node.names)
        ):
            return False
        if isinstance(node, ast.Attribute) and node.attr in CLOCK:
            return False
    return True


def imported_modules(source: str, package: str) -> list[str]:
    """Every module imported by ``source``, a module of ``package``, relative ones resolved."""
    parts = package.split(".")
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = parts[: len(parts) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.append(module)
            found += [f"{module}.{alias.name}" for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "__import__"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.append(str(node.args[0].value))
    return found


def uses_only_seeded_random(source: str) -> bool:
    """Whether ``random`` appears only as ``from random import Random``, always given a seed."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import) and any(
            alias.name.split(".")[0] == "random" for alias in node.names
        ):
            return False
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "random"
            and [(a.name, a.asname) for a in node.names] != [("Random", None)]
        ):
            return False
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "Random"
            and len(node.args) + len(node.keywords) != 1
        ):
            return False
    return True


def package_of(path: Path) -> str:
    """The dotted package a core file belongs to."""
    return ".".join(["scorekeeper", *path.relative_to(PACKAGE).parent.parts])


def test_core_modules_are_found() -> None:
    """The check covers the whole core, so a new rules module cannot slip past it."""
    names = {p.name for p in CORE}
    assert len(CORE) >= 20
    assert {
        "validation.py",
        "money.py",
        "__init__.py",
        "base.py",
        "troggen.py",
        "ledger.py",
        "settlement.py",
        "chart.py",
        "draw.py",
        "standings.py",
    } <= names
    assert all(p.is_file() for p in CORE)


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_core_imports_nothing_impure(path: Path) -> None:
    """No framework, database, form, PDF, clock, randomness or I/O module in the core."""
    source = path.read_text(encoding="utf-8")
    modules = imported_modules(source, package_of(path))
    if path in SEEDED_RANDOM:
        assert uses_only_seeded_random(source)
        modules = [m for m in modules if m not in ("random", "random.Random")]
    if reads_no_clock(source):
        modules = [m for m in modules if m not in DATE_VALUE]
    assert [m for m in modules if is_forbidden(m)] == []


@pytest.mark.parametrize(
    ("source", "allowed"),
    [
        ("from datetime import date\nday = date.fromisoformat(raw)", True),
        ("from datetime import date\nday = date.today()", False),
        ("from datetime import datetime, timedelta\nlate = saved + timedelta(seconds=30)", True),
        ("from datetime import datetime\nt = datetime.now()", False),
        ("from datetime import datetime\nt = datetime.utcnow()", False),
        ("import datetime", False),
        ("from datetime import date as d", False),
    ],
)
def test_the_clock_check(source: str, allowed: bool) -> None:
    """A date as a value passes; the clock, in any spelling, does not."""
    assert reads_no_clock(source) is allowed


@pytest.mark.parametrize(
    ("source", "allowed"),
    [
        ("from random import Random\nrng = Random(seed)", True),
        ("import random", False),
        ("from random import Random, shuffle", False),
        ("from random import Random as R", False),
        ("from random import Random\nrng = Random()", False),
    ],
)
def test_the_seeded_random_check(source: str, allowed: bool) -> None:
    """The draw's exemption covers a seeded generator and nothing else."""
    assert uses_only_seeded_random(source) is allowed


@pytest.mark.parametrize(
    ("source", "module"),
    [
        ("import flask", "flask"),
        ("from flask_sqlalchemy import SQLAlchemy", "flask_sqlalchemy"),
        ("import sqlalchemy.orm as orm", "sqlalchemy.orm"),
        ("from scorekeeper.db import models", "scorekeeper.db.models"),
        ("from ...db import models", "scorekeeper.db.models"),
        ("from scorekeeper import operations", "scorekeeper.operations"),
        ("from scorekeeper.web.json_shapes import text", "scorekeeper.web.json_shapes"),
        ("from datetime import datetime", "datetime"),
        ("import random", "random"),
        ("from os import path", "os"),
        ("def f():\n    import io", "io"),
        ("wtforms = __import__('wtforms')", "wtforms"),
        ("from weasyprint import HTML", "weasyprint"),
    ],
)
def test_the_check_catches(source: str, module: str) -> None:
    """The detector itself finds each kind of forbidden import."""
    found = imported_modules(source, "scorekeeper.core.rules")
    assert module in [m for m in found if is_forbidden(m)]


@pytest.mark.parametrize(
    "source", ["from . import base", "import osmosis", "from decimal import Decimal"]
)
def test_the_check_allows(source: str) -> None:
    """Relative imports inside the core and look-alike names are not flagged."""
    found = imported_modules(source, "scorekeeper.core.rules")
    assert [m for m in found if is_forbidden(m)] == []
