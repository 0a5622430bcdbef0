"""The baselines of ``bench/server.py``: the least a Flask endpoint on this stack can do.

- ``POST /bare/evenings/<id>/hands``: read the JSON body and insert it as one row, with one
  commit, in the same database with the same connection settings (SQLite in WAL mode with
  full sync; on PostgreSQL each statement run often planned once). Recording a hand costs
  at least this.
- ``GET /bare/evenings/<id>``: select the evening's hands (number, dealer, input) in one
  query and render them as a table row each with Jinja. The evening page costs at least
  this.

Served the same way as the app, by ``scripts/start`` (``bench/server.py`` starts it).
"""

from __future__ import annotations

import os
from typing import Any

from flask import Flask, request
from sqlalchemy import JSON, Column, Integer, MetaData, Table, create_engine, insert, text

from scorekeeper import configure_engine

METADATA = MetaData()
#: Where the bare endpoint writes: a table of its own beside the app's.
BARE_HANDS = Table(
    "bench_bare_hand",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("evening_id", Integer, nullable=False),
    Column("input", JSON, nullable=False),
)

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Evening {{ evening_id }}</title></head>
<body><table>
<thead><tr><th>#</th><th>Dealer</th><th>Contract</th><th>Bidder</th><th>Points</th></tr></thead>
<tbody>
{% for hand in hands %}
<tr><td>{{ hand.number }}</td><td>{{ hand.dealer }}</td><td>{{ hand.input.contract }}</td>
<td>{{ hand.input.bidder or "" }}</td><td>{{ hand.input.points }}</td></tr>
{% endfor %}
</tbody></table></body></html>
"""

HANDS = text(
    "SELECT hand.number, player.name AS dealer, hand.input FROM hand"
    " JOIN player ON player.id = hand.dealer_id"
    " WHERE hand.evening_id = :evening ORDER BY hand.number"
).columns(input=JSON)


def create_app() -> Flask:
    """The bare app on ``BENCH_DATABASE_URL``."""
    url = os.environ["BENCH_DATABASE_URL"]
    engine = create_engine(url)
    configure_engine(engine)
    app = Flask(__name__)

    @app.post("/bare/evenings/<int:evening_id>/hands")
    def record(evening_id: int) -> tuple[dict[str, Any], int]:
        body = request.get_json()
        with engine.begin() as connection:
            connection.execute(insert(BARE_HANDS).values(evening_id=evening_id, input=body))
        return {"evening": evening_id, "input": body}, 201

    template = app.jinja_env.from_string(PAGE)  # compiled once, as the app's templates are

    @app.get("/bare/evenings/<int:evening_id>")
    def page(evening_id: int) -> str:
        with engine.connect() as connection:
            hands = connection.execute(HANDS, {"evening": evening_id}).mappings().all()
        return template.render(evening_id=evening_id, hands=hands)

    return app
