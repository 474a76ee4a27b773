"""The neutral request (``neutral``): no provider's, so none of a provider's own rules apply.

Read through ``standin.providers.of(format)`` like the providers' modules beside it.
"""

from __future__ import annotations

from typing import Any

from helpers.messages import Reasoning
from standin.provider import signatures

#: No field is required of a neutral request.
REQUIRED: list[tuple[str, str]] = []
#: No type is refused as unknown-block.
KINDS: dict[str, tuple[tuple[str, ...], str]] = {}
#: Its reasoning signatures, its spellings: no provider's.
SIGNATURE_PREFIX = ""
FUNCTIONS_ERA = False
TWO_SPELLINGS = False
#: Its tool-call ids: OpenAI's style (``standin.provider.turn``).
TOOL_CALL_ID = ("call_", 24)


def reasoning(text: str, seed: str) -> Reasoning:
    """A reasoning block with its synthetic signature (``standin.provider.turn``)."""
    return Reasoning(text, signatures.sign("neutral", text), "neutral")


#: Nothing stored between requests (``standin.provider.state``).
STORES = None
#: Not Anthropic's id pattern (``standin.rules.strict``).
ID_PATTERNS = False


def origins(body: dict) -> list:
    """No walk back to the body (``standin.rules.origins``)."""
    return []


def wire_notes() -> None:
    """No wire rules' notes (``standin.rules.wire_notes``)."""
    return None


def tool_choice(body: dict, tools: list | None, profile: str) -> list:
    """No provider's tool choice to check (``standin.rules.tool_choice``)."""
    return []


def tool_schema(tool: dict, i: int) -> None:
    """Its tools' schemas are not checked here (``standin.rules.schemas``)."""
    return None


#: Whether its parser's note names the unknown field first (``standin.rules.wire``).
NOTE_NAMES_KIND = False


def wire_answer(rule: str, text: str, values: dict, body: dict) -> Any:
    """Its answer to a wire rule, ``text`` filled with ``values`` (``standin.rules.wire``)."""
    from helpers.rules import Answer

    return Answer(text.format(**values))


#: Whether its settings answers name the parameter (``standin.rules.params``).
NAMES_PARAM = False


def settings(body: dict, model: str) -> list:
    """No settings rules of its own (``standin.rules.params``)."""
    return []


#: Whether its reasoning items pair with what they produced by id on the wire, judged on the body
#: (``standin.verdict``).
PAIRS_ON_THE_WIRE = False
#: Whether it names the unknown fields of a body it cannot read before the value it cannot read.
UNKNOWN_FIELDS_FIRST = False


def tool_place(tool: dict[str, Any], i: int) -> tuple[Any, str] | None:
    """Its declarations' places are found by the verdict itself (``standin.verdict``)."""
    return None


def output_place(body: dict[str, Any]) -> str:
    """Where the structured-output schema is in ``body``: read as Gemini's places it, as the
    verdict always has for a body of no provider's format (``standin.verdict``)."""
    from standin.providers import gemini

    return gemini.output_place(body)


# What a count does not see (``standin.wire_count``).
TURNS = ("messages", "content")
PARTS_BY_KEY = False
UNCOUNTED_FIELDS: dict[str, str] = {}
UNCOUNTED_PARTS: set[str] = set()


def uncounted_extras(body: dict) -> tuple[dict, dict, dict]:
    """(the body, nothing bounded, the fields to look in)."""
    return body, {}, body


def structured_output(body: dict[str, Any]) -> tuple[Any, str]:
    """Its structured-output setting and where it is: none of its own."""
    return None, "output_config.format"


def built_in_tool(tool: dict[str, Any]) -> str | None:
    """The kind of a tool it runs itself: none."""
    return None
