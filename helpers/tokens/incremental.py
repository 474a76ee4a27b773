"""Used in lessons: 02, 04, 05, 06, 09, 12.

Counting turn after turn: each message is tokenized once, not once per turn.

An agent resends the whole message list every turn, so counting every request from scratch
costs n^2/2 message tokenizations over a ticket. ``Counter`` keeps each message's token count
and, on the next request, only counts what is new: it walks the list while the messages are
the same objects (or equal), keeps those counts, and counts the rest. Tools, the system
message and ``tool_choice`` are compared too; if they change, it starts over. The result
equals ``count(request).total`` (a property test checks it).

>>> counter = Counter("gpt-4o-mini")
>>> for request in ticket:
...     print(counter(request))      # about one tokenization of the final request in all

What it deliberately does not do: keep a breakdown (``helpers.tokens.count`` gives one), or
speed up the ``harmony`` rule (harmony drops earlier reasoning, so a message's tokens depend on
what follows it: each call there is a full count).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from helpers.messages import Message, Request
from helpers.models import ModelInfo, info_for

__all__ = ["Counter", "count_total"]


@dataclass
class _State:
    info: ModelInfo
    tools: list
    tool_choice: object
    head: int  # tools, the system message carrying them, the reply priming
    system_at: int | None  # index of the message the head includes (OpenAI), or None
    messages: list[Message] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    running: int = 0  # sum(totals), kept up to date
    names: dict[str, str] = field(default_factory=dict)


class Counter:
    """Input tokens of each request of a growing conversation, reusing earlier counts."""

    def __init__(self, model: str | ModelInfo | None = None):
        self.model = model
        self._state: _State | None = None

    def __call__(self, request: Request) -> int:
        info = info_for(self.model, request)
        if info.counting == "harmony":  # no per-message reuse: count the whole rendering
            from helpers.harmony import render_pieces

            return sum(piece.n for piece in render_pieces(request, info)[0])
        state = self._state
        if (
            state is None
            or state.info != info
            or state.tool_choice != request.tool_choice
            or state.tools != request.tools
        ):
            state = self._state = self._start(request, info)
        old, new = state.messages, request.messages
        keep = len(old)
        if new[:keep] != old:  # a C loop that checks identity first: fast when appended to
            keep = 0
            limit = min(len(old), len(new))
            while keep < limit and (old[keep] is new[keep] or old[keep] == new[keep]):
                keep += 1
        system_at = _system_at(request, info)
        if system_at != state.system_at or (system_at is not None and system_at >= keep):
            state = self._state = self._start(request, info)
            keep = 0
        if keep < len(old):
            state.running -= sum(state.totals[keep:])
            del state.messages[keep:], state.totals[keep:]
            state.names = {c.id: c.name for m in state.messages for c in m.tool_calls}
        for i in range(keep, len(new)):
            message = new[i]
            state.names.update((c.id, c.name) for c in message.tool_calls)
            state.messages.append(message)
            tokens = 0 if i == system_at else _message_total(info, message, state)
            state.totals.append(tokens)
            state.running += tokens
        return state.head + state.running

    @staticmethod
    def _start(request: Request, info: ModelInfo) -> _State:
        system_at = _system_at(request, info)
        if info.counting == "openai-chat-2024":
            from helpers.tokens.openai_chat import head_total, message_spec, tools_key

            enc = info.encoding or "o200k_base"
            names = {c.id: c.name for m in request.messages for c in m.tool_calls}
            system = (
                message_spec(request.messages[system_at], names) if system_at is not None else None
            )
            head = head_total(enc, system, tools_key(request), request)
        else:
            from helpers.tokens.estimate import tool_pieces

            head = sum(p.n for p in tool_pieces(request, info, {}, []))
        return _State(info, list(request.tools), request.tool_choice, head, system_at)


def _system_at(request: Request, info: ModelInfo) -> int | None:
    if info.counting != "openai-chat-2024" or not request.tools:
        return None
    return next((i for i, m in enumerate(request.messages) if m.role == "system"), None)


def _message_total(info: ModelInfo, message: Message, state: _State) -> int:
    if info.counting == "openai-chat-2024":
        from helpers.tokens.openai_chat import message_spec, message_total

        enc = info.encoding or "o200k_base"
        image_rule = json.dumps(info.image) if info.image else ""
        return message_total(info.id, enc, message_spec(message, state.names), image_rule)
    from helpers.tokens.estimate import message_pieces

    return sum(p.n for p in message_pieces(0, message, info, {}))


def count_total(request: Request, model: str | ModelInfo | None = None) -> int:
    """Just the total, by the fast path (no breakdown): ``Counter(model)(request)``."""
    return Counter(model)(request)
