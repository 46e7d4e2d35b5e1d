"""The real `git` binary, run as a subprocess: one call per operation, its failures as SyncError.

Never a prompt (a sync runs unattended, often in a loop): no terminal prompt for a password, ssh in batch
mode unless the user set their own ssh command, and no hook of the user's runs on a sync commit.
"""

from __future__ import annotations

import os
import subprocess
from typing import NamedTuple

from ..protocol.errors import SyncError

__all__ = ["Git", "GitResult", "auth_failure"]

_AUTH_WORDS = ("authentication failed", "permission denied", "could not read username", "terminal prompts disabled",
               "access denied", "403", "401", "publickey", "host key verification failed")
_UNREACHABLE_WORDS = ("could not resolve host", "connection refused", "does not appear to be a git repository",
                      "not found", "unable to access", "timed out", "could not read from remote repository")


class GitResult(NamedTuple):
    code: int
    out: str
    err: str


def auth_failure(stderr: str) -> bool:
    low = stderr.lower()
    return any(word in low for word in _AUTH_WORDS)


def remote_problem(stderr: str) -> str:
    """What went wrong with the remote, in words a person can act on."""
    low = stderr.lower()
    first = next((line.strip() for line in stderr.splitlines() if line.strip()), "no message")
    if auth_failure(stderr):
        return f"the remote refused this machine's credentials ({first}); check your access (ssh key, token) and " \
               "try again"
    if any(word in low for word in _UNREACHABLE_WORDS):
        return f"cannot reach the remote ({first})"
    return first


class Git:
    """git in one work tree (`top`), with an environment that never prompts."""

    def __init__(self, top: str) -> None:
        self.top = top
        env = dict(os.environ)
        env["GIT_TERMINAL_PROMPT"] = "0"
        env.setdefault("GIT_ASKPASS", "")
        env.setdefault("SSH_ASKPASS", "")
        env["GIT_LITERAL_PATHSPECS"] = "1"  # a file name is a name, never a glob
        env.pop("GIT_INDEX_FILE", None)
        if "GIT_SSH_COMMAND" not in env and "GIT_SSH" not in env:
            env["GIT_SSH_COMMAND"] = "ssh -o BatchMode=yes"
        env["LC_ALL"] = "C"  # messages matched in English
        self.env = env

    def run(self, *args: str, data: bytes | None = None, env: dict[str, str] | None = None,
            check: bool = True) -> GitResult:
        try:
            done = subprocess.run(["git", *args], cwd=self.top, input=data, capture_output=True,
                                  env={**self.env, **(env or {})}, timeout=300)
        except FileNotFoundError as exc:
            raise SyncError("git is not installed (or not on PATH): `multidebate sync` runs the git binary") from exc
        except subprocess.TimeoutExpired as exc:
            raise SyncError(f"`git {args[0]}` did not finish in 300 s", "remote") from exc
        result = GitResult(done.returncode, done.stdout.decode("utf-8", "replace"),
                           done.stderr.decode("utf-8", "replace"))
        if check and result.code != 0:
            raise SyncError(f"`git {' '.join(args[:2])}` failed: {result.err.strip() or result.out.strip()}")
        return result

    def out(self, *args: str) -> str:
        return self.run(*args).out.strip()

    def blob(self, spec: str) -> bytes:
        """The bytes of `commit:path`."""
        done = subprocess.run(["git", "cat-file", "blob", spec], cwd=self.top, capture_output=True, env=self.env,
                              timeout=300)
        if done.returncode != 0:
            raise SyncError(f"`git cat-file blob {spec}` failed: {done.stderr.decode('utf-8', 'replace').strip()}")
        return done.stdout

    def entries(self, commit: str, paths: list[str]) -> dict[str, tuple[str, str]]:
        """path -> (mode, blob id) in `commit`, for those of `paths` it has."""
        if not paths:
            return {}
        found: dict[str, tuple[str, str]] = {}
        for chunk in range(0, len(paths), 500):
            listing = self.run("ls-tree", "-z", "--full-tree", commit, "--", *paths[chunk:chunk + 500]).out
            for record in listing.split("\0"):
                if record:
                    meta, path = record.split("\t", 1)
                    mode, _kind, oid = meta.split(" ")
                    found[path] = (mode, oid)
        return found

    def is_ancestor(self, older: str, newer: str) -> bool:
        return self.run("merge-base", "--is-ancestor", older, newer, check=False).code == 0
