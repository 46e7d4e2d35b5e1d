"""The package's version: a module of its own, so that the layers can read it without importing the package's
front door (multidebate/__init__.py names it, api.py)."""

__version__ = "0.1.0"
