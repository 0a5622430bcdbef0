"""The worker ``scripts/start`` runs: gunicorn's threaded worker, taking a new connection
only while one of its threads is free, and giving it a thread only once its request arrives.

Gunicorn's threaded worker (``gthread``) accepts every connection it is offered, busy or
not, queues its request for a thread and then keeps the connection for the client's next
requests. On a laptop serving a hall that went wrong in two ways (measured with
``scripts/start``'s settings):

- while one worker printed a long score sheet (seconds of WeasyPrint), a table screen asked
  for by another tablet was accepted by that same worker and waited 6.3 s behind the
  printout, though the other workers stood idle;
- thirty tablets saving hands over kept-alive connections were shared out as unevenly as
  29 on one worker and 1 on another, so one worker answered nearly everything and the
  other processor sat idle.

This worker stops listening while all its threads are busy. A new connection then waits
in the listening queue for the first worker with a free thread, as it would for gunicorn's
synchronous workers, while connections a worker holds already keep their place with it.

A new connection is handed to a thread only once its request has begun to arrive. Gunicorn
gives it a thread at once, which then waits up to 5 s for the first bytes. Browsers open
connections ahead of need and may send nothing on them for a while: with one thread per
worker, two such connections kept both workers of a two-worker server waiting, and a
tablet's request waited 4.8 s behind them (9.8 s with gunicorn's own worker). Here the
worker's event loop watches a new connection until its request arrives, and closes it if
nothing comes within those 5 s.
"""

from __future__ import annotations

import errno
import selectors
import time
from concurrent.futures import Future
from functools import partial
from typing import Any

from gunicorn.workers.gthread import DEFAULT_WORKER_DATA_TIMEOUT, TConn, ThreadWorker

#: Errors of ``accept`` that only mean another worker took the connection first, or that
#: the client gave up before it was taken.
MISSED = (errno.EAGAIN, errno.EWOULDBLOCK, errno.ECONNABORTED)


class FreeThreadWorker(ThreadWorker):  # type: ignore[misc]
    """``gthread`` that listens for new connections only with a thread free."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Requests handed to the threads and not finished yet. Only the worker's main
        #: thread (its event loop) hands them out and hears that they finished.
        self.busy = 0

    def accept(self, listener: Any) -> None:
        """Take a new connection and watch it until its request begins to arrive
        (``on_pending_socket_readable`` then hands it to a thread)."""
        try:
            client, address = listener.accept()
        except OSError as error:
            if error.errno in MISSED:
                return
            raise
        self.nr_conns += 1
        conn = TConn(self.cfg, client, address, listener.getsockname())  # non-blocking
        # Every connection waiting here waits as long, so the queue stays in the order of
        # its deadlines, as ``murder_pending`` expects.
        conn.timeout = time.monotonic() + DEFAULT_WORKER_DATA_TIMEOUT
        self.pending_conns.append(conn)
        self.poller.register(
            client, selectors.EVENT_READ, partial(self.on_pending_socket_readable, conn)
        )

    def enqueue_req(self, conn: Any) -> None:
        """Hand a connection's request to a thread."""
        self.busy += 1
        super().enqueue_req(conn)

    def finish_request(self, conn: Any, fs: Future[Any]) -> None:
        """A thread finished a request (it may hand the connection out again at once)."""
        self.busy -= 1
        super().finish_request(conn, fs)

    def wait_for_and_dispatch_events(self, timeout: float) -> None:
        """Listen for new connections only while a thread is free, then wait as usual."""
        if self.alive:  # a stopping worker has stopped listening for good
            self.set_accept_enabled(
                self.busy < self.cfg.threads and self.nr_conns < self.worker_connections
            )
        super().wait_for_and_dispatch_events(timeout)
