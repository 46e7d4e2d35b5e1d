from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator

import pytest

sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture(autouse=True)
def no_thread_leak() -> Iterator[None]:
    """Fail a test that leaves a thread running (an observer not stopped and joined)."""
    before = set(threading.enumerate())
    yield
    leaked = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    assert not leaked, f"threads left running: {[t.name for t in leaked]}"
