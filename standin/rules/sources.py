"""Used in lessons: none directly (imported by rules.table).

Where each text of the rules of the list comes from: the public report that quotes the
provider's answer, for every text in ``helpers.rules``' provider modules. The learner's
``check`` attaches the text to a violation; the provenance is the table's (``docs/rules.md``).
"""

from __future__ import annotations

from helpers.rules import anthropic, gemini, openai_chat, openai_responses
from standin.rules import strict

#: A ``previous_response_id`` the server does not have (never stored, or ``store: false``):
#: the stand-in answers it, with ``param: "previous_response_id"``,
#: ``code: "previous_response_not_found"``.
NOT_STORED = "Previous response with id '{id}' not found."

#: provider text (with {placeholders}) -> the public reports that quote it
SOURCES: dict[str, str] = {
    # openai_chat
    openai_chat.MISSING: "router-for-me/CLIProxyAPI#2798, sdcb/chats#132, BerriAI/litellm#10083",
    openai_chat.ORPHAN: "smarter-sh/smarter#264, sdcb/chats#132",
    openai_chat.NOT_FOUND: (
        "dapr/dapr-agents#145 (the thread does not name the upstream; OpenAI's style)"
    ),
    openai_chat.EMPTY_LIST: "CopilotKit/CopilotKit#529",
    openai_chat.DUPLICATE: (
        "agno-agi/agno#5116 (param 'messages.[8].tool_call_id'), fatwang2/search2ai#30"
    ),
    # openai_responses
    NOT_STORED: "maximhq/bifrost#2441 (OpenAI's answer passed through, store false)",
    openai_responses.NO_OUTPUT: "tjardoo/openai-client#124, lace-ai/gai#49",
    openai_responses.NO_CALL: "james-6-23/codex2api#414, continuedev/continue#10092",
    openai_responses.DUPLICATE: (
        "NousResearch/hermes-agent#102629 (2026-09-04) and mnfst/llm-gateway#2858 (2026-09-10), "
        "both as passed on by a gateway ('a strict Responses provider'); the same item id twice "
        "is 'Duplicate item found with id ...' (openai/openai-agents-python#1789)"
    ),
    openai_responses.REASONING_ALONE: (
        "continuedev/continue#8933, openai/openai-node#1567, vercel/ai#7099 (fixed by sending the "
        "item ids: vercel/ai#7285); a recorded refusal: pydantic/pydantic-ai tests/models/"
        "cassettes/test_openai_responses/test_openai_responses_thinking_with_modified_history.yaml"
        " @ 07b87749 (reasoning item, then the assistant text without its msg_ id: 400)"
    ),
    # anthropic
    anthropic.MISSING: (
        "Kilo-Org/kilocode#5163, anthropics/claude-code#5989 (several ids), #2697, #1237"
    ),
    anthropic.UNEXPECTED: "anthropics/claude-code#13460, router-for-me/CLIProxyAPI#497",
    anthropic.DUPLICATE: (
        "anthropics/claude-code#20901, BerriAI/litellm#23510 (newer reports drop the backticks: "
        "claude-code#28515)"
    ),
    strict.ID_PATTERN: "anomalyco/opencode#1279",
    anthropic.DUPLICATE_RESULT: (
        "anthropics/claude-code#14110 (2025-12-16, via Vertex AI: the path names the second "
        "result), sipeed/picoclaw#1793 (2026-03-19)"
    ),
    anthropic.EMPTY_MESSAGE: "anthropics/claude-code#6774, #4416",
    anthropic.EMPTY_TEXT: "anthropics/claude-code#59812, mckaywrigley/chatbot-ui#1656",
    anthropic.BLANK_TEXT: "anthropics/claude-code#23440, #23369",
    anthropic.NO_MESSAGES: "public error traces quoted in several repositories",
    anthropic.TOOL_NAMES: "tailcallhq/forgecode#892, anthropics/claude-code#10687",
    strict.ALTERNATE: (
        "coaidev/coai#209, FlowiseAI/Flowise#2006 (2024; the first-party API now merges)"
    ),
    strict.FIRST_USER: (
        "lobehub/lobehub#1601, anthropics/anthropic-sdk-typescript#565 (2024; Bedrock)"
    ),
    # gemini
    gemini.EMPTY_PARTS: (
        "egoist/chatwise-releases#250 (2025-02-18), aaif-goose/goose#1458 (2025-03-02), "
        "QuantumNous/new-api#1060 (2025-05-12)"
    ),
    gemini.CALL_TURN: "google-gemini/gemini-cli#11814, #26486; continuedev/continue#11164",
    gemini.RESPONSE_TURN: "langchain-ai/langchain#27799, lobehub/lobehub#7298",
    gemini.COUNT: (
        "google-gemini/gemini-cli#4217, #16415; microsoft/vscode#299295 and "
        "microsoft/vscode-copilot-chat#4208, #4628 (calls whose results were dropped, followed "
        "by a turn without function responses: 400)"
    ),
}
