"""The few exceptions the library raises; the CLI turns each into a clean error."""

from __future__ import annotations

__all__ = [
    "MultidebateError",
    "FolderError",
    "SlugError",
    "RosterError",
    "RosterFormatError",
    "TurnConflict",
    "InvalidTurn",
    "TaskError",
    "IdentityError",
    "SkillError",
    "AgentSpecError",
    "RunFailed",
    "KeyFileError",
    "SyncError",
    "DebateEnded",
    "SetupError",
]


class MultidebateError(Exception):
    """Base class: every error the library means a person or a model to read."""


class FolderError(MultidebateError):
    """The debate folder is missing, not a folder, or cannot be read or written."""


class SlugError(MultidebateError):
    """A slug is not of the form lowercase letters, digits and single hyphens."""


class RosterError(MultidebateError):
    """A slug is not on the debate's roster."""


class RosterFormatError(MultidebateError):
    """A roster (`init --participants`, TASK.md's `participants:`) is not a list of distinct slugs."""


class TurnConflict(MultidebateError):
    """The turn file already exists (another session wrote it) or the slug's turns have a gap."""


class IdentityError(MultidebateError):
    """The slug belongs to another session (its key was not given, or is wrong)."""


class TaskError(MultidebateError):
    """TASK.md cannot be read, or init would overwrite it."""


class SkillError(MultidebateError):
    """The home or current folder, where the skills folders live, cannot be found."""


class AgentSpecError(MultidebateError):
    """An agent given to `run` (`--agent SLUG=SPEC`, TASK.md's `agents:`) names no preset or command."""


class RunFailed(MultidebateError):
    """`run` stopped: a participant failed its turn, or cannot be run; the reason is one line."""


class KeyFileError(MultidebateError):
    """An answer key given to `score` cannot be read, or one of its lines is malformed (the message names it)."""


class DebateEnded(MultidebateError):
    """`write` was given a turn after the debate ended (converged, hollow, stalled, max_turns, a review's end)."""


class SetupError(MultidebateError):
    """A debate's setup (`init`'s options, `debate_init`'s arguments) cannot work; `option` names the culprit."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class InvalidTurn(MultidebateError):
    """The sections given to `write` break the format; nothing was written."""

    def __init__(self, message: str, problems: list[str]) -> None:
        super().__init__(message)
        self.problems = problems


class SyncError(MultidebateError):
    """`sync` stopped: the work tree, the branch or the remote is not fit to sync, or one file has two contents.
    `kind` says which (`setup`, `remote`, `conflict`): the CLI gives each its exit code."""

    def __init__(self, message: str, kind: str = "setup") -> None:
        super().__init__(message)
        self.kind = kind
