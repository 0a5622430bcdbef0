"""An evening's printouts through the real server: asked ahead of the print workers when
it closes, then answered from the disk (``web/printouts.py``)."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.live.conftest import StartServer, Tablet


def test_a_closed_evening_finds_its_sheet_and_settlement_printed(
    start_server: StartServer, tmp_path: Path
) -> None:
    server = start_server(workers=1, threads=1)
    tablet = Tablet()
    created = server.api(
        tablet,
        "POST",
        "/evenings",
        {"game": "troggen", "players": ["Anna", "Bert", "Clara", "Dora"]},
    )
    evening = created.json["id"]
    for points in (41, 30, 36):
        hand = {"contract": "einfach", "bidder": "Anna", "points": points}
        assert server.api(tablet, "POST", f"/evenings/{evening}/hands", hand).status == 201
    kept = tmp_path / "instance" / "printouts"
    assert not kept.exists() or not list(kept.glob("*.pdf"))
    assert server.api(tablet, "POST", f"/evenings/{evening}/close").status == 200
    # The print workers render both meanwhile; the test waits for the files, not a time.
    deadline = time.monotonic() + 60
    while len(list(kept.glob("*.pdf"))) < 2:
        assert time.monotonic() < deadline, server.log.read_text()[-2000:]
        time.sleep(0.1)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    for printout in ("sheet", "settlement"):
        url = f"{server.url}/evenings/{evening}/{printout}.pdf"
        with opener.open(url, timeout=30) as answer:
            data = answer.read()
            headers = answer.headers
        # Read from the disk, not rendered again (how fast that is: bench/sheet_pdf.py).
        assert data.startswith(b"%PDF")
        assert headers["X-Printout"] == "kept"
        again = urllib.request.Request(url, headers={"If-None-Match": headers["ETag"]})
        with pytest.raises(urllib.error.HTTPError) as repeated:
            opener.open(again, timeout=30)
        repeated.value.close()
        assert repeated.value.code == 304
