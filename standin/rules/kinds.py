"""Used in lessons: none directly (imported by verdict).

Which block, part and item types each API has, for the ``unknown-block`` rule.

``helpers.formats.parse`` drops every type it has no neutral block for, with a note. The
provider refuses only the types it does not have at all: ``named_unknown(notes, fmt)``
turns the notes on those into notes with the rule, in the provider's terms (``block type
'fallback' is not a Messages block``); the rest stay plain notes. Each provider's types are its
``KINDS`` (``standin/providers/NAME.py``): the unions of the pinned SDKs (sources:
docs/evidence.md, "Formats").
"""

from __future__ import annotations

import ast
import re

from helpers.formats import Note
from standin.providers import of

_DROPPED = re.compile(r"(block|part|item) type (.*) has no neutral (?:equivalent|block); dropped")


def named_unknown(notes: list[Note], fmt: str) -> list[Note]:
    """``notes``, with each type the API does not have named by the rule ``unknown-block``."""
    out = []
    for note in notes:
        found = _DROPPED.fullmatch(note.message) if note.rule is None else None
        known = of(fmt).KINDS.get(found.group(1)) if found else None
        if known and _literal(found.group(2)) not in known[0]:
            message = f"{found.group(1)} type {found.group(2)} is not {known[1]}"
            note = Note(note.where, message, "unknown-block")
        out.append(note)
    return out


def _literal(text: str) -> object:
    """The type as the note wrote it (``'document'``); None for what is no literal."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None
