"""Rendering and parsing with the notes kept, as the four format test modules use them."""

from __future__ import annotations

from helpers.formats import parse, render
from helpers.messages import Message, Request


def render_with_notes(fmt: str, model: str, *messages: Message, **fields) -> tuple[dict, list[str]]:
    """The wire body of a request made of ``messages`` (and ``fields``), and its notes as text."""
    rendered = render(Request(model, list(messages), **fields), fmt)
    return rendered.body, [str(n) for n in rendered.notes]


def parse_with_notes(fmt: str, body: dict) -> tuple[Request, list[str]]:
    """The neutral request read from ``body``, and the notes of what it could not keep."""
    notes: list = []
    return parse(body, fmt, notes=notes), [str(n) for n in notes]
