"""Gunicorn settings that ``scripts/start`` gives as Python rather than as flags.

- Plain synchronous workers: the front (nginx, ``scorekeeper/server/front.py``) reads every
  request whole and keeps the tablets' connections open, so a worker takes a request only
  when it is free and only once it has fully arrived. ``THREADS`` above 1 makes them
  gunicorn's threaded workers.
- Threads of one worker share Python's interpreter lock, which a running thread hands
  over only every 5 ms by default. A thread that holds the database's write lock gives up
  the interpreter lock while it waits for the disk, and then waits for it again behind a
  sibling thread checking its own hand; every tablet in the hall waits behind the write.
  Handing it over within half a millisecond keeps the write short when ``THREADS`` is
  raised (with 5 workers of 2 threads, hands recorded per second rose by about half).
- Python's full garbage collection goes through every object the process holds, and a
  worker holds many: the evenings it keeps replayed (``operations.snapshots``), a few
  hundred thousand objects in a hall. By default it ran every few hundred requests and
  took about a tenth of the instructions a recorded hand cost. The young generations are
  still collected as often as by default; the full collection comes a hundred times less
  often, and the objects loaded at start (modules, templates) are left out of it for good.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

worker_class = "sync"

#: Seconds a thread runs before it must let a waiting one have the interpreter lock.
SWITCH_INTERVAL = 0.0005


#: Collections of the younger generation between two of the oldest (Python's default: 10).
FULL_COLLECTION_EVERY = 1000


def post_fork(server: Any, worker: Any) -> None:
    """Set the worker's switch interval and garbage collection (both are per process)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


def post_worker_init(worker: Any) -> None:
    """Leave what the worker loaded to serve out of every collection from now on."""
    gc.freeze()
