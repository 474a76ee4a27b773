"""Used in lessons: 04, 08, 10.

The rules of the list: check a neutral conversation before a provider rejects it.

``check(request, profile)`` returns every broken rule as a ``Violation``; ``explain()`` turns
them into a readable report. The ``portable`` profile holds the rules code should keep so that
it works with every provider (``core.py``: system first, shapes and places; ``pairing.py``:
every call answered once before the next assistant turn, order kept); each provider profile is
those rules plus the provider's own, with the provider's exact error text filled in where one
is known:

==================  ============================================================================
profile             adds to the shared rules
==================  ============================================================================
portable            nothing: the shared core, every finding an error
openai-chat         tool messages right after the calls (``results-not-adjacent``)
openai-responses    a reasoning item is followed by what it produced (``reasoning-not-followed``)
anthropic           results first in the next turn, id pattern, empty final assistant allowed
anthropic-strict    anthropic + user/assistant alternation, user first (Amazon Bedrock)
gemini              call-turn and response-turn positions, one response per call
==================  ============================================================================

**One decision.** Under a provider profile a violation is an *error* only if that provider
refuses it (its text is known, or the body cannot be written in its format at all); anything
else it breaks is a *warning*: printed, but the provider takes the request (a system message
further down, a call to a tool the request does not define). ``first_enforced`` (the first
error) is what the local provider answers with, so ``check`` and the local provider never
disagree. ``standin.verdict`` applies the same decision to a body read from a file. ``ROWS``
(``table.py``) lists every rule per provider, refused or accepted, with its source.

``error_response(violation, provider)`` builds the HTTP status and JSON error body that provider
sends back, for the local fake provider. This package works on the neutral model only: it never
imports ``helpers.formats`` (formats may import rules, not the reverse).
"""

from __future__ import annotations

from helpers.messages import Message, Request, Tool, message_from_json
from helpers.rules import anthropic, gemini, openai_chat, openai_responses
from helpers.rules.core import check_core
from helpers.rules.cuts import turn_boundaries
from helpers.rules.errors import FORMATS, error_response, provider_of
from helpers.rules.pairing import check_pairing
from helpers.rules.table import ROWS, Row
from helpers.rules.violation import Violation, Violations, explain

__all__ = [
    "FORMATS",
    "PROFILES",
    "ROWS",
    "Row",
    "Violation",
    "Violations",
    "check",
    "error_response",
    "explain",
    "first_enforced",
    "first_violation_error",
    "provider_of",
    "severity",
    "turn_boundaries",
]

PROFILES: tuple[str, ...] = (
    "portable",
    "openai-chat",
    "openai-responses",
    "anthropic",
    "anthropic-strict",
    "gemini",
)

_CHECKS = {
    "openai-chat": openai_chat.check,
    "openai-responses": openai_responses.check,
    "anthropic": anthropic.check,
    "anthropic-strict": lambda m, t, core: anthropic.check(m, t, core, strict=True),
    "gemini": gemini.check,
}


#: Rules whose breach no wire format can carry: the request cannot be sent as it is.
SHAPE_RULES = frozenset(
    {
        "unknown-role",
        "content-not-list",
        "unknown-block",
        "block-not-allowed",
        "call-outside-assistant",
        "result-outside-tool-message",
        "tool-message-content",
        "missing-field",
        "malformed",
    }
)
#: Legal everywhere, but probably a mistake: always a warning.
SUSPICIOUS_RULES = frozenset({"unknown-tool"})


def check(request_or_messages: Request | list[Message], profile: str = "portable") -> Violations:
    """Every rule of the list the conversation breaks under ``profile``, in list order.

    Takes a ``Request`` (then tool names are checked against its tools too) or a plain list of
    messages. ``.accepted`` on the result says whether the provider takes the request: it has
    no errors (warnings may remain).
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; profiles: {', '.join(PROFILES)}")
    messages, tools = _unpack(request_or_messages)
    found = check_core(messages, tools) + check_pairing(messages)
    if profile in _CHECKS:
        found = _CHECKS[profile](messages, tools, found)
    for v in found:
        v.profile = profile
        v.severity = severity(v, profile)
    return Violations(sorted(found, key=_position))


def severity(violation: Violation, profile: str) -> str:
    """``"error"`` if ``profile`` refuses what ``violation`` describes, else ``"warning"``."""
    if violation.rule in SUSPICIOUS_RULES:
        return "warning"
    if profile == "portable" or violation.rule in SHAPE_RULES or violation.provider_error:
        return "error"
    return "warning"


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


def first_enforced(request: Request, profile: str) -> Violation | None:
    """The first error ``check`` finds under ``profile``, or None if the provider accepts it.

    The same decision ``check`` makes (``severity``): warnings let the request through, as the
    real endpoint does as far as anyone has published.
    """
    return next(iter(check(request, profile).errors), None)


def first_violation_error(
    request: Request, profile: str, request_id: str | None = None
) -> tuple[int, dict] | None:
    """The error the provider answers for ``request`` (see ``first_enforced``), or None."""
    provider = provider_of(profile)  # a profile that is no provider ("portable") has no answer
    violation = first_enforced(request, profile)
    return None if violation is None else error_response(violation, provider, request_id)
