from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Iterator

import pytest

sys.path.insert(0, os.path.dirname(__file__))

# `status` keeps an HMAC key in the user's cache folder (state/snapshot.py): never the real one in tests, for
# this process and every command it starts
_CACHE_HOME = tempfile.mkdtemp(prefix="multidebate-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE_HOME
atexit.register(shutil.rmtree, _CACHE_HOME, True)
# `run` keeps its keys and the agents `init` recorded in the user's private state folder (state/private.py)
_STATE_HOME = tempfile.mkdtemp(prefix="multidebate-test-state-")
os.environ["XDG_STATE_HOME"] = _STATE_HOME
atexit.register(shutil.rmtree, _STATE_HOME, True)


@pytest.fixture(autouse=True)
def no_thread_leak() -> Iterator[None]:
    """Fail a test that leaves a thread running (an observer not stopped and joined)."""
    before = set(threading.enumerate())
    yield
    leaked = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    assert not leaked, f"threads left running: {[t.name for t in leaked]}"
