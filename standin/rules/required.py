"""Where the texts come from that each API answers when a required field is missing.

The fields and texts are each provider's ``REQUIRED`` (``standin/providers/NAME.py``, rule
``missing-field``); ``standin.verdict`` checks them first, as a server does; ``docs/rules.md``
lists them with the sources below.
"""

from __future__ import annotations

#: Where each text comes from (``docs/rules.md``, rule ``missing-field``).
REQUIRED_SOURCES: dict[str, str] = {
    "you must provide a model parameter": (
        "danielmiessler/Fabric#239 (2024-03-14, full body: param and code null), "
        "lss233/kirara-ai#800 (2023-05-11)"
    ),
    "Missing required parameter: 'messages'.": (
        "the same wording as Responses' (below), for the other required field; no report "
        "quotes it for messages (searched 2026-12-01)"
    ),
    "Missing required parameter: 'model'.": (
        "Menci/Floway#313 (2026-07-30) quoting OpenAI's body from "
        "mattermost/mattermost-plugin-agents#476: param 'model', code missing_required_parameter"
    ),
    "max_tokens: Field required": (
        "tickernelz/opencode-mem#50 (2026-03-03, full body), testomatio/app#1194 (2025-01-07)"
    ),
    "model: Field required": "the same pydantic wording as 'max_tokens: Field required'",
    "messages: Field required": "the same pydantic wording as 'max_tokens: Field required'",
    "* GenerateContentRequest.contents: contents is not specified": (
        "langchain-ai/langchain-google#1393 (2025-11-29: '400 - contents is not specified')"
    ),
}
