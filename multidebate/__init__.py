"""multidebate: several AI coding-assistant sessions debate a task in one folder until they really agree."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
