"""A tournament table's title is said in the reader's language: its stored title is in the
tournament's, for its printouts (web/tournament_tables.py ``evening_title``)."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.tournaments.support import NAMES, create_tournament, draw, register, start


def test_a_table_of_an_english_tournament_reads_german_on_a_german_tablet(
    client: FlaskClient,
) -> None:
    tournament = create_tournament(client, name="Museumsturnier", language="en")
    register(client, tournament, NAMES[:4])
    draw(client, tournament)
    evening = start(client, tournament, 1)["tables"][0]["evening"]
    german = client.get(f"/evenings/{evening}", headers={"Accept-Language": "de-CH"}).text
    assert ">Museumsturnier: Durchgang 1, Tisch 1</h1>" in german
    assert "table 1" not in german
    settlement = client.get(f"/evenings/{evening}/settlement", headers={"Accept-Language": "de"})
    assert "Museumsturnier: Durchgang 1, Tisch 1" in settlement.text
    english = client.get(f"/evenings/{evening}", headers={"Accept-Language": "en"}).text
    assert ">Museumsturnier: Round 1, table 1</h1>" in english
