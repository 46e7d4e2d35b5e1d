"""Slug ownership: the first session to write a slug owns it, through a key.

`write` claims a slug the first time it writes under it and hands the
session a key; every later write of that slug must show the key.  Only the
key's sha256 is kept (in `.multidebate/keys/<slug>.json`), so a peer reading
the folder cannot learn it.  This guards against two sessions picking one
slug by accident, not against a hostile user of the same folder.

A person recovers a slug whose key was lost with `multidebate handover`
(`reissue` here): a new key replaces the old one, and the person hands it to
the session that continues the slug.  Deleting the key file also works: the
next `write` under that slug claims it again and prints a new key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from datetime import datetime, timezone

from .atomic import create_exclusive
from .folder import Scan
from .jsonstate import loads_state
from .layout import key_path, make_state_dirs, read_state, write_state

__all__ = ["claim", "check_key", "free_slug", "is_claimed", "reissue", "KeyMismatch"]


class KeyMismatch(Exception):
    """Internal: the slug is claimed and the key given does not open it (None: no key given)."""


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _stored_digest(folder: str, slug: str) -> str | None:
    try:
        data = loads_state(read_state(key_path(folder, slug), 64 * 1024))
        value = data.get("key_sha256") if isinstance(data, dict) else None
        return value if isinstance(value, str) else ""
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return ""  # a damaged key file still claims the slug; a person deletes it to recover


def is_claimed(folder: str, slug: str) -> bool:
    return _stored_digest(folder, slug) is not None


def check_key(folder: str, slug: str, key: str | None) -> bool:
    """True when the slug is unclaimed (claim it on write) or `key` opens it; KeyMismatch otherwise."""
    stored = _stored_digest(folder, slug)
    if stored is None:
        return True
    if key is None or not stored or not hmac.compare_digest(stored, _digest(key)):
        raise KeyMismatch(key)
    return False


def claim(folder: str, slug: str) -> str | None:
    """Claim an unclaimed slug: a new key, or None when another session claimed it first."""
    key = os.urandom(8).hex()
    record = {"slug": slug, "key_sha256": _digest(key),
              "claimed_at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    path = key_path(folder, slug)
    make_state_dirs(os.path.dirname(path))
    if not create_exclusive(path, (json.dumps(record) + "\n").encode("utf-8")):
        return None
    return key


def reissue(folder: str, slug: str) -> str:
    """A new key for `slug`, replacing its old one (which stops working): a person hands the slug over."""
    key = os.urandom(8).hex()
    now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    record = {"slug": slug, "key_sha256": _digest(key), "claimed_at": now, "handed_over": True}
    write_state(key_path(folder, slug), (json.dumps(record) + "\n").encode("utf-8"))
    return key


def free_slug(folder: str, scan: Scan, slug: str) -> str:
    """The first of `slug-b`, `slug-c`, ... `slug-2`... that no session uses yet."""
    used = set(scan.slugs)
    candidates = [f"{slug}-{c}" for c in "bcdefgh"] + [f"{slug}-{n}" for n in range(2, 100)]
    for candidate in candidates:
        if candidate not in used and not is_claimed(folder, candidate) and len(candidate) <= 64:
            return candidate
    return f"{slug[:50]}-{os.urandom(3).hex()}"
