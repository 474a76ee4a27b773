"""Used in lessons: 04, 08, 10, 14.

The rules of the list: check a neutral conversation before a provider rejects it.
``check(request, profile)`` returns every broken rule as a ``Violation``: ``portable`` holds the
shared rules (``core.py``, ``pairing.py``); each provider profile adds its own and answers in its
own words. Not here: settings, schemas, unknown fields, HTTP answers, hosts' stricter rules (the
stand-in's), or anything with a wire format.
"""

from __future__ import annotations

from helpers.messages import Message, Request, Tool, message_from_json
from helpers.rules import anthropic, gemini, openai_chat, openai_responses
from helpers.rules.core import check_core
from helpers.rules.pairing import check_pairing, turn_boundaries
from helpers.rules.violation import (
    SHAPE_RULES,
    Answer,
    Finding,
    Violation,
    Violations,
    explain,
    judged,
)

__all__ = [
    "PROFILES", "SHAPE_RULES", "Answer", "Finding", "Violation", "Violations", "check", "explain",
    "findings", "judged", "turn_boundaries",
]  # fmt: skip

_CHECKS = {
    "openai-chat": openai_chat.check,
    "openai-responses": openai_responses.check,
    "anthropic": anthropic.check,
    "gemini": gemini.check,
}
#: ``portable`` holds the shared rules only; each other profile adds its provider's.
PROFILES: tuple[str, ...] = ("portable", *_CHECKS)


def check(request_or_messages: Request | list[Message], profile: str = "portable") -> Violations:
    """Every rule of the list the conversation breaks under ``profile``, in list order.
    It takes a ``Request`` (then tool names are checked against its tools too) or a plain list of
    messages. ``.accepted`` on the result says whether the provider takes the request: it has no
    errors (warnings may remain)."""
    messages, tools = _unpack(request_or_messages)
    made = [judged(f, profile, answer) for f, answer in findings(messages, tools, profile)]
    return Violations(sorted(made, key=_position))


def findings(
    messages: list[Message], tools: list[Tool], profile: str
) -> list[tuple[Finding, Answer | None]]:
    """What ``check`` judges: each finding under ``profile`` with the provider's answer (or
    None), in the order found (``standin.verdict`` locates them in the body it read)."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; profiles: {', '.join(PROFILES)}")
    found = check_core(messages, tools) + check_pairing(messages)
    if profile in _CHECKS:
        return _CHECKS[profile](messages, tools, found)
    return [(f, None) for f in found]


def _unpack(obj: Request | list[Message]) -> tuple[list[Message], list[Tool]]:
    if isinstance(obj, Request):
        messages, tools = list(obj.messages), list(obj.tools)
    elif isinstance(obj, list | tuple):
        messages, tools = list(obj), []
    else:
        raise TypeError(f"check() takes a Request or a list of messages, not {type(obj).__name__}")
    for i, m in enumerate(messages):
        if isinstance(m, dict):  # neutral JSON: read it, naming any mistake's place
            messages[i] = message_from_json(m, f"messages[{i}]")
        elif not isinstance(m, Message):
            raise TypeError(f"messages[{i}] is a {type(m).__name__}, not a Message")
    return messages, tools


def _position(v: Violation) -> tuple[int, int]:
    """Sort key: list order, request-level problems first; ties keep the order found."""
    return (
        -1 if v.message_index is None else v.message_index,
        -1 if v.block_index is None else v.block_index,
    )
