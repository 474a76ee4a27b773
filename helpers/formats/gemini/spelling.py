"""Used in lessons: none directly (imported by formats.gemini.parse).

Gemini's REST API reads field names in two spellings: ``functionCall`` and ``function_call``.

Google's APIs are protocol buffers served as JSON, and the protobuf JSON mapping says parsers
accept both the lowerCamelCase name and the original proto field name
(https://protobuf.dev/programming-guides/json/, checked 2026-11-30). Bodies written by hand or
by other libraries use both (``system_instruction``, ``inline_data``,
``parameters_json_schema``...). The parsers read one spelling, so ``camel(body)`` first rewrites
every field *name* to camelCase. It leaves alone what is data, not fields: the arguments of a
call, the object a function returned, and JSON Schemas (a property may well be named
``user_id``). Rendering always writes camelCase, the spelling Google's own examples use.
"""

from __future__ import annotations

import re
from typing import Any

#: Fields whose values are the user's data: their keys are never renamed.
OPAQUE = frozenset(
    {
        "args",
        "response",
        "parameters",
        "parametersJsonSchema",
        "responseJsonSchema",
        "responseSchema",
        "labels",
    }
)

#: The fields of a ``Part`` Gemini takes (google-genai ``types.Part``), less ``mediaResolution``:
#: the SDK type has it, but a recorded exchange shows the API refusing it on a part
#: (pydantic/pydantic-ai tests/models/cassettes/test_google/
#: test_google_model_image_url_detail.yaml @ c7cb28fd, gemini-3-pro-preview: 'Unknown name
#: "mediaResolution" at 'contents[0].parts[1]': Cannot find field.'). Anything else is refused.
PART_FIELDS = frozenset(
    {
        "text",
        "inlineData",
        "fileData",
        "functionCall",
        "functionResponse",
        "executableCode",
        "codeExecutionResult",
        "thought",
        "thoughtSignature",
        "videoMetadata",
        "partMetadata",
        "toolCall",  # server-side tool parts of Gemini 3: accepted in recorded exchanges
        "toolResponse",  # (pydantic-ai test_google_model_file_search_grounding_gemini_3)
    }
)


def camel_name(name: str) -> str:
    """``function_call`` -> ``functionCall``; a name already in camelCase stays as it is."""
    return re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), name)


def camel(value: Any) -> Any:
    """A copy of ``value`` with every field name in camelCase, data under ``OPAQUE`` kept."""
    if isinstance(value, list):
        return [camel(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, inner in value.items():
        name = camel_name(key) if isinstance(key, str) else key
        out[name] = inner if name in OPAQUE else camel(inner)
    return out
