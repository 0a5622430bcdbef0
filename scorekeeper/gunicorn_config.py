"""Gunicorn settings that ``scripts/start`` gives as Python rather than as flags.

Threads of one worker share Python's interpreter lock, which a running thread hands over
only every 5 ms by default. A thread that holds the database's write lock gives up the
interpreter lock while it waits for the disk, and then waits for it again behind a
sibling thread checking its own hand; every tablet in the hall waits behind the write.
Handing it over within half a millisecond keeps the write short: in ``bench/server.py``
(SQLite, 5 workers of 2 threads) hands recorded per second rose by about half.
"""

from __future__ import annotations

import sys
from typing import Any

#: Seconds a thread runs before it must let a waiting one have the interpreter lock.
SWITCH_INTERVAL = 0.0005


def post_fork(server: Any, worker: Any) -> None:
    """Set the worker's switch interval (it is per process)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
