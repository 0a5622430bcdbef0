"""Instructions per recorded hand, ours against the bare insert, counted by valgrind.

Throughput on a busy two-core machine varies by a third from run to run; the number of
instructions a request executes does not. This counts them for recording a hand through
the app and through the bare endpoint (``bench/bare.py``), calling each WSGI app directly
in one process, with ``valgrind --tool=cachegrind`` (Debian's ``valgrind``):

- 40 five-player Troggen evenings of 50 hands, hands recorded into them in turn;
- ours as three app instances taking turns, as the three workers of ``scripts/start`` do:
  each keeps its own evenings and catches up on the hands the others recorded;
- the workers' garbage collection as the server sets it (``scorekeeper.server.gunicorn_config``).

Each side runs twice, with 50 and with 200 timed hands after every app has read every
evening once; the difference over 150 hands leaves out starting and warming up. Counted are
the process's own instructions, not the kernel's (the commit's flush to disk is not in).

    .venv/bin/python bench/instructions.py          # about 2 minutes
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

EVENINGS = 40
WORKERS = 3
FEW, MANY = 50, 200


def record(app: Callable[..., Iterable[bytes]], path: str, body: dict[str, Any]) -> None:
    """POST ``body`` as JSON to ``path`` of the WSGI ``app``; it must answer 201."""
    from werkzeug.test import EnvironBuilder

    environ = EnvironBuilder(
        path=path, method="POST", data=json.dumps(body), content_type="application/json"
    ).get_environ()
    status: list[str] = []
    answer = b"".join(app(environ, lambda s, _headers, _info=None: status.append(s)))
    assert status[0].startswith("201"), answer[:300]


def child(side: str, folder: Path, timed: int) -> None:
    """Record ``timed`` hands (after the warm-up) on one side, in this process."""
    import gc

    from server import hand

    from scorekeeper.server import gunicorn_config

    first = int((folder / "first").read_text())
    url = f"sqlite:///{folder / 'bench.sqlite'}"
    gunicorn_config.post_fork(None, None)
    if side == "bare":
        os.environ["BENCH_DATABASE_URL"] = url
        import bare

        apps = [bare.create_app()]
        prefix = "/bare/evenings/"
    else:
        from scorekeeper import create_app

        config = {"DATABASE_URL": url, "SECRET_KEY": "bench-" + "k" * 32}
        apps = [create_app(config, instance_path=str(folder)) for _ in range(WORKERS)]
        prefix = "/api/v1/evenings/"
    gunicorn_config.post_worker_init(None)
    turns = itertools.cycle(apps)
    warm_up = len(apps) * EVENINGS  # every app reads every evening once
    for n in range(1, warm_up + timed + 1):
        record(next(turns), f"{prefix}{first + n % EVENINGS}/hands", hand(n))
    gc.collect()


def instructions(side: str, base: Path, timed: int) -> int:
    """The instructions of a child recording ``timed`` hands, on a copy of the database."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name in ("bench.sqlite", "first", "secret_key"):
            if (base / name).exists():
                shutil.copy(base / name, folder / name)
        run = subprocess.run(
            [
                "valgrind",
                "--tool=cachegrind",
                "--cache-sim=no",
                "--cachegrind-out-file=/dev/null",
                sys.executable,
                __file__,
                "--child",
                side,
                str(folder),
                str(timed),
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    assert found is not None, run.stderr
    return int(found.group(1).replace(",", ""))


def main() -> None:
    assert shutil.which("valgrind"), "valgrind is missing: apt-get install valgrind"
    import server

    server.EVENINGS = EVENINGS
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        first, _page = server.build(f"sqlite:///{base / 'bench.sqlite'}", base)
        (base / "first").write_text(str(first))
        per_hand = {}
        for side in ("bare", "ours"):
            few, many = (instructions(side, base, timed) for timed in (FEW, MANY))
            per_hand[side] = (many - few) / (MANY - FEW)
    print(
        f"instructions per recorded hand (SQLite, {EVENINGS} evenings, ours as {WORKERS} workers)"
    )
    print(f"bare insert  {per_hand['bare']:>12,.0f}")
    print(
        f"ours         {per_hand['ours']:>12,.0f}   {per_hand['ours'] / per_hand['bare']:.2f}x bare"
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], Path(sys.argv[3]), int(sys.argv[4]))
    else:
        main()
