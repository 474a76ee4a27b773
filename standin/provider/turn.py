"""Used in lessons: 01, 03, 04, 05, 06, 07, 08, 09, 10, 11.

What a scenario sees on each turn, and how it makes tool-call ids in each provider's style
(its ``TOOL_CALL_ID`` and ``reasoning``, ``standin/providers/NAME.py``).

A scenario (``standin.provider.scenarios``) is a function ``(turn: Turn) -> list[Block]``.
``Turn`` carries the conversation so far (neutral messages, whatever wire format it came in),
which wire format asked, whether reasoning was requested, and the request's other wishes (tool
choice, structured output, limits: ``standin.provider.wire_options``); its helpers make the ids
and the reasoning blocks deterministic, so every run of a lesson tells the same story.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field

from helpers.messages import Block, Request, ToolCall, ToolResult
from standin.provider.wire_options import Options
from standin.providers import of

__all__ = ["Scenario", "Turn"]

_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _token(seed: str, length: int) -> str:
    digest = int.from_bytes(hashlib.sha256(seed.encode()).digest(), "big")
    out = []
    for _ in range(length):
        digest, r = divmod(digest, len(_ALPHABET))
        out.append(_ALPHABET[r])
    return "".join(out)


@dataclass
class Turn:
    """What a scenario sees: the request so far, who is asking, whether to show reasoning."""

    request: Request
    provider: str = "anthropic"
    think: bool = False
    options: Options = field(default_factory=Options)
    _made: int = field(default=0, repr=False)

    def calls(self) -> list[tuple[ToolCall, ToolResult | None]]:
        """Every tool call made so far, in order, with its result (``None`` if unanswered)."""
        results = {
            b.call_id: b
            for m in self.request.messages
            for b in m.content
            if isinstance(b, ToolResult)
        }
        return [
            (b, results.get(b.id))
            for m in self.request.messages
            if m.role == "assistant"
            for b in m.content
            if isinstance(b, ToolCall)
        ]

    def user_text(self, last: bool = False) -> str:
        texts = [m.text for m in self.request.messages if m.role == "user" and m.text]
        return (texts[-1] if last else texts[0]) if texts else ""

    def call(self, name: str, arguments: dict) -> ToolCall:
        """A tool call with a deterministic id in the provider's style (``call_...``, ...)."""
        prefix, length = of(self.provider).TOOL_CALL_ID
        seed = f"{len(self.request.messages)}|{self._made}|{name}|{json.dumps(arguments)}"
        self._made += 1
        return ToolCall(prefix + _token(seed, length), name, arguments)

    def thought(self, text: str) -> list[Block]:
        """``[Reasoning]`` with a synthetic signature when reasoning was asked for, else ``[]``."""
        if not self.think:
            return []
        return [of(self.provider).reasoning(text, f"{len(self.request.messages)}|{text}")]


Scenario = Callable[[Turn], list[Block]]
