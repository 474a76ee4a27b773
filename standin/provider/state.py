"""Used in lessons: 11.

OpenAI Responses can keep the history for you: stored responses, ``previous_response_id``.

By default (``store`` not ``false``) OpenAI keeps every response, and a later request may name
it in ``previous_response_id`` instead of resending the history: the server puts the stored
chain (every earlier input item and output item) in front of the new ``input``. The history
is still *read* every turn, so the usage counts the whole chain as input tokens. For a
``conversation``, OpenAI's reference says it the same way: "Items from this conversation are
prepended to input_items for this response request. Input items and output items from this
response are automatically added to this conversation after this response completes"
(https://developers.openai.com/api/reference/resources/responses/subresources/input_tokens/methods/count,
checked 2026-11-30). The ``instructions`` and ``tools`` of earlier responses are not carried
over (the SDK's docstring of ``instructions``): a continuation sends them again.

This module is that memory for the local provider: a dict, gone when the process ends. A
conversation is created first, as with OpenAI (``POST /v1/conversations``, optionally with its
first ``items``); naming one that was never created is an error (the wording of that one is
ours: no public report quotes OpenAI's).
"""

from __future__ import annotations

from typing import Any

from helpers.rules.openai_responses import NOT_STORED

#: response id -> every input item and output item up to and including that response
RESPONSES: dict[str, list[Any]] = {}
#: conversation id -> its items so far
CONVERSATIONS: dict[str, list[Any]] = {}


def _items(value: Any) -> list[Any]:
    """``input`` as a list of items (a string is one user message)."""
    if isinstance(value, str):
        return [{"role": "user", "content": value}]
    return list(value) if isinstance(value, list) else []


def _conversation_id(body: dict[str, Any]) -> str | None:
    conversation = body.get("conversation")
    if isinstance(conversation, dict):
        conversation = conversation.get("id")
    return conversation if isinstance(conversation, str) else None


#: What the local provider answers for a conversation it never created (our wording).
NO_CONVERSATION = "Conversation with id '{id}' not found."
_OK = (200, None, None)


def create(body: dict[str, Any], digest: str) -> dict[str, Any]:
    """``POST /v1/conversations``: a new conversation holding the body's ``items``, if any."""
    conversation_id = "conv_" + digest[:48]
    CONVERSATIONS[conversation_id] = _items(body.get("items"))
    return {"id": conversation_id, "object": "conversation", "created_at": 0, "metadata": {}}


def expand(body: dict[str, Any]) -> tuple[dict[str, Any], tuple[int, str | None, str | None]]:
    """The body with its stored chain in front of ``input``, and ``(status, error, param)``."""
    previous = body.get("previous_response_id")
    conversation = _conversation_id(body)
    if previous is None and conversation is None:
        return body, _OK
    if previous is not None:
        if previous not in RESPONSES:
            return body, (400, NOT_STORED.format(id=previous), "previous_response_id")
        chain = RESPONSES[previous]
    elif conversation not in CONVERSATIONS:
        return body, (404, NO_CONVERSATION.format(id=conversation), "conversation")
    else:
        chain = CONVERSATIONS[str(conversation)]
    full = {k: v for k, v in body.items() if k not in ("previous_response_id", "conversation")}
    full["input"] = list(chain) + _items(body.get("input"))
    return full, _OK


def remember(response_id: str, body: dict[str, Any], full: dict[str, Any], output: list) -> None:
    """Keep the chain that ends with this response, unless the request said ``store: false``."""
    chain = _items(full.get("input")) + list(output)
    conversation = _conversation_id(body)
    if conversation is not None:
        CONVERSATIONS[conversation] = chain
    if body.get("store") is not False:
        RESPONSES[response_id] = chain
