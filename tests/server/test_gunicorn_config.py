"""The worker settings ``scripts/start`` gives gunicorn (``scorekeeper.server.gunicorn_config``),
applied in a process of their own as gunicorn applies them to each worker."""

from __future__ import annotations

import json
import subprocess
import sys

WORKER = """
import gc, json, sys
from scorekeeper.server import gunicorn_config as config
default = gc.get_threshold()
config.post_fork(None, None)
after_fork = gc.get_threshold()
from scorekeeper import create_app  # what the worker loads to serve
config.post_worker_init(None)
print(json.dumps({
    "default": default,
    "after_fork": after_fork,
    "switch": sys.getswitchinterval(),
    "frozen": gc.get_freeze_count(),
}))
"""


def test_a_worker_collects_its_oldest_objects_rarely_and_never_what_it_loaded() -> None:
    run = subprocess.run([sys.executable, "-c", WORKER], capture_output=True, text=True, check=True)
    worker = json.loads(run.stdout)
    young, middle, oldest = worker["after_fork"]
    assert [young, middle] == worker["default"][:2]  # young objects as often as ever
    assert oldest >= 100 * worker["default"][2]
    assert worker["frozen"] > 10_000  # modules and the app's code: out of every collection
    assert worker["switch"] == 0.0005
