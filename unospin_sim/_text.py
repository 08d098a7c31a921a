"""Small text helpers shared by the rule-string and bot-string parsers."""

from __future__ import annotations


def split_top_level(
    text: str,
    error,
    what: str,
    shown: str | None = None,
    pairs: dict[str, str] | None = None,
    max_depth: int | None = None,
) -> list[str]:
    """Split ``text`` on the commas that are outside every bracket pair.

    Parameters
    ----------
    text : str
        The text to split.
    error : type
        Exception class raised (with a one-line message) on unbalanced brackets.
    what : str
        What the text is, for the message ("rule string", "bot string").
    shown : str, optional
        The text quoted in the message (default ``text``; e.g. the whole string ``text`` is
        part of).
    pairs : dict, optional
        Opening -> closing brackets (default parentheses only).
    max_depth : int, optional
        Deepest nesting allowed.
    """
    pairs = pairs or {"(": ")"}
    closing = set(pairs.values())
    shown = text if shown is None else shown
    items, stack, start = [], [], 0
    for i, ch in enumerate(text):
        if ch in pairs:
            stack.append(pairs[ch])
            if max_depth is not None and len(stack) > max_depth:
                raise error(f"malformed {what} {shown!r}: nested {ch!r}")
        elif ch in closing:
            if not stack or stack.pop() != ch:
                raise error(f"malformed {what} {shown!r}: unbalanced {ch!r}")
        elif ch == "," and not stack:
            items.append(text[start:i])
            start = i + 1
    if stack:
        raise error(f"malformed {what} {shown!r}: missing {stack[-1]!r}")
    items.append(text[start:])
    return items
