"""Used in lessons: 09.

What comes back: one assistant message, why the model stopped, and normalised usage.

Every provider reports usage differently; the neutral ``Usage`` follows one rule, so cost
arithmetic has one meaning: ``input_tokens`` counts **all** input tokens, cached or not (the
Anthropic parser adds its cache reads and writes back in); ``cache_read_tokens`` and
``cache_write_tokens`` are parts of it; ``output_tokens`` counts all generated tokens, reasoning
included (the Gemini parser adds thoughts in), and ``reasoning_tokens`` is part of it. The
provider's own usage object is kept in ``raw``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from helpers.messages import Message

__all__ = ["Reply", "StopReason", "Usage"]

StopReason = Literal["end_turn", "tool_calls", "max_tokens", "refusal", "other"]


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def uncached_input_tokens(self) -> int:
        return self.input_tokens - self.cache_read_tokens - self.cache_write_tokens


@dataclass
class Reply:
    """A provider's response, parsed: the message to append to the history, and its bill."""

    message: Message
    usage: Usage
    stop_reason: StopReason
    model: str = ""
    id: str = ""
