"""Used in lessons: none directly (imported by tokens, tokens.estimate, tokens.gemini, ...).

What a counting rule says the model is shown, before it becomes tokens: a list of
``(part, content)`` pairs, ``Seen``, where the content is text, a framing token (``Special``,
such as ``<|start|>``), a boundary (``CUT``), content charged by size (``Sized``, an image), or
token ids a renderer made itself (``Tokens``, harmony). ``helpers.tokens.tokenize`` turns them
into pieces of tokens. ``call_names`` is here for the rules that show a tool result under its
call's name. What it deliberately does not do: tokenize anything itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from helpers.messages import Request, ToolCall


class Special(str):
    """A framing token, written by its name (``<|start|>``): one token, never text."""


#: A boundary between two texts that are tokenized separately (no token of its own).
CUT = Special("")


@dataclass(frozen=True)
class Sized:
    """Content charged by size rather than tokenized: ``tokens`` of it, identified by ``key``."""

    tokens: int
    key: object


class Tokens(tuple):
    """Token ids a renderer made itself (harmony renders its own prompt): taken as they are."""


Seen = tuple[str, Union[str, Special, Sized, Tokens]]  # noqa: UP007 (a runtime alias)


def call_names(request: Request) -> dict[str, str]:
    """Call id -> function name: a tool result is rendered under its call's name."""
    return {b.id: b.name for m in request.messages for b in m.content if isinstance(b, ToolCall)}
