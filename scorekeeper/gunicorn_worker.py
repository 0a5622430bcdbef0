"""The worker ``scripts/start`` runs: gunicorn's threaded worker, taking a new connection
only while one of its threads is free.

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
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from gunicorn.workers.gthread import ThreadWorker


class FreeThreadWorker(ThreadWorker):  # type: ignore[misc]
    """``gthread`` that listens for new connections only with a thread free."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Requests handed to the threads and not finished yet. Only the worker's main
        #: thread (its event loop) hands them out and hears that they finished.
        self.busy = 0

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
