"""multidebate: several AI coding-assistant sessions debate a task in one folder until they really agree.

The library's front door is `multidebate.open(folder)` (api.py, docs/library.md); it is imported on first use,
so that `import multidebate` (the CLI's start-up) stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .version import __version__

__all__ = ["DebateFolder", "__version__", "open"]

if TYPE_CHECKING:
    from .api import DebateFolder, open


def __getattr__(name: str) -> Any:
    if name in ("DebateFolder", "open"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'multidebate' has no attribute {name!r}")
