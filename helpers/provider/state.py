"""OpenAI Responses can keep the history for you: stored responses, ``previous_response_id``.

Used in lessons: 11.

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

This module is that memory for the local provider: a dict, gone when the process ends. One
simplification: a real conversation is created first (``POST /v1/conversations``); here the
first request that names a conversation id starts it.
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


def expand(body: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The body with its stored chain in front of ``input``, or ``(body, error text)``."""
    previous = body.get("previous_response_id")
    conversation = _conversation_id(body)
    if previous is None and conversation is None:
        return body, None
    if previous is not None:
        if previous not in RESPONSES:
            return body, NOT_STORED.format(id=previous)
        chain = RESPONSES[previous]
    else:
        chain = CONVERSATIONS.get(str(conversation), [])
    full = {k: v for k, v in body.items() if k not in ("previous_response_id", "conversation")}
    full["input"] = list(chain) + _items(body.get("input"))
    return full, None


def remember(response_id: str, body: dict[str, Any], full: dict[str, Any], output: list) -> None:
    """Keep the chain that ends with this response, unless the request said ``store: false``."""
    chain = _items(full.get("input")) + list(output)
    conversation = _conversation_id(body)
    if conversation is not None:
        CONVERSATIONS[conversation] = chain
    if body.get("store") is not False:
        RESPONSES[response_id] = chain
