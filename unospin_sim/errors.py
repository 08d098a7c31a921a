"""Exceptions for bad user input.

Every problem a user can cause (a bad flag, rule string, bot string, wheel or
results directory) raises a :class:`UserError` whose message is one line that
names the problem.  The CLI prints it as ``unospin_sim: error: <message>`` and
exits with status 2; anything else escaping is a bug.
"""

from __future__ import annotations

__all__ = ["BotError", "ResultsError", "RuleError", "UserError", "reason"]


class UserError(ValueError):
    """Bad user input; ``str(err)`` is a single line naming the problem."""

    def __str__(self) -> str:
        text = super().__str__()
        # one line, always: a message built from user text must not break the CLI contract
        return " ".join(text.split("\n")) if "\n" in text else text


class RuleError(UserError):
    """A rule set, rule string, rule option or wheel is invalid."""


class BotError(UserError):
    """A bot string or bot knob is invalid."""


class ResultsError(UserError):
    """A results directory cannot be written, or read back as valid results."""


def reason(err: BaseException) -> str:
    """A short one-line reason from an OS or Arrow error (for a one-line error message)."""
    if isinstance(err, OSError) and err.strerror:
        return err.strerror
    text = " ".join(str(err).split()) or type(err).__name__
    return text if len(text) <= 120 else text[:117] + "..."
