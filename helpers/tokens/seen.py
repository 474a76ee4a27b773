"""Used in lessons: none directly (imported by tokens.openai_chat).

What the model sees, piece by piece, and how those pieces become tokens.

A counting rule (``openai_chat``) turns a request into a list of ``(part, content)`` pieces in
the order the model reads them. ``part`` names where the piece comes from (``tools[2]``,
``messages[3]``, ``messages[3].content[1]``, ``priming``); ``content`` is one of:

- ``str``: ordinary text;
- ``Special``: one framing token such as ``<|start|>`` (``CUT`` is a boundary with no token);
- ``Sized``: content the provider charges by size, not by text (an image).

``tokenize`` turns the pieces into tokens with one rule: the text between two boundaries (a
special token, ``CUT`` or an image) is **one string**, encoded once, and each token belongs to
the piece in which it starts. So the parts always add up to the total, and a token that
straddles two pieces (a system prompt running into the tool list) is counted once.

What it deliberately does not do: decide what the model sees (the counting rule does) or cache
anything (the fast path, ``standin.fast_count``, counts totals in one encode).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from helpers.tokens.breakdown import Piece
from helpers.tokens.encodings import encode, special_id, split_at

__all__ = ["CUT", "Seen", "Sized", "Special", "tokenize"]


class Special(str):
    """A framing token, written by its name (``<|start|>``): one token, never text."""


#: A boundary between two texts that are tokenized separately (no token of its own).
CUT = Special("")


@dataclass(frozen=True)
class Sized:
    """Content charged by size rather than tokenized: ``tokens`` of it, identified by ``key``."""

    tokens: int
    key: object
    estimate: str = ""  # why the size is a guess, or "" when it is exact


Seen = tuple[str, Union[str, Special, Sized]]  # noqa: UP007 (a runtime alias)


def tokenize(seen: list[Seen], encoding: str) -> list[Piece]:
    """The pieces as tokens: each run of text between boundaries encoded once (see above)."""
    pieces: list[Piece] = []
    run: list[tuple[str, str]] = []

    def flush() -> None:
        if run:
            text, cuts, position = "", [], 0
            for _, piece_text in run:
                cuts.append(position)
                text += piece_text
                position += len(piece_text)
            groups = (
                split_at(encoding, text, cuts[1:]) if len(run) > 1 else [encode(encoding, text)]
            )
            for (part, _), ids in zip(run, groups, strict=True):
                if ids:
                    pieces.append(Piece.of(part, ids))
            run.clear()

    for part, content in seen:
        if isinstance(content, Special):
            flush()
            if content:
                pieces.append(Piece.of(part, (special_id(encoding, content),)))
        elif isinstance(content, Sized):
            flush()
            pieces.append(Piece(part, None, content.tokens, content.key))
        elif content:
            run.append((part, content))
    flush()
    return pieces
