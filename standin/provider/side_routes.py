"""The endpoints beside generation: the model list and token counting.

- ``GET /v1/models`` and ``GET /v1/models/{model}``: the model table (``helpers.models``) in
  OpenAI's shape (``{"object": "list", "data": [{"id", "object": "model", "created",
  "owned_by"}]}``, OpenAI API reference "List models", read 2026-12-01), or Anthropic's
  (``{"data": [{"type": "model", "id", "display_name", "created_at"}], "has_more", "first_id",
  "last_id"}``) when the request carries ``anthropic-version``, as the anthropic SDK's does.
- ``POST /v1/messages/count_tokens`` (Anthropic: a Messages body without ``max_tokens``,
  answered ``{"input_tokens": n}``) and ``POST /{v1,v1beta}/models/{m}:countTokens`` (Gemini:
  ``contents`` or ``generateContentRequest``, never both, answered ``{"totalTokens": n,
  "promptTokensDetails": [{"modality": "TEXT", "tokenCount": n}]}``; https://ai.google.dev/api/tokens).
  The count is the one the same request's ``usage`` would bill (the offline counter).

Not modelled: pagination (one page holds every model), creation dates (``0``).
"""

from __future__ import annotations

from typing import Any

from standin.explained import explained
from standin.provider import errors

__all__ = ["count_answer", "count_probe", "models"]


def models(route: Any) -> tuple[int, dict[str, Any] | str]:
    """``GET /v1/models[/{model}]``: ``(status, the answer or an error text)``."""
    from helpers import models as table

    anthropic = route.provider == "anthropic"
    owner = "anthropic" if anthropic else "openai"
    ids = table.models(owner)
    if route.model is not None:
        if route.model not in ids:
            return 404, errors.texts(route.provider).UNKNOWN_MODEL.format(model=route.model)
        ids = [route.model]
    if anthropic:
        rows = [
            {"type": "model", "id": i, "display_name": i, "created_at": "1970-01-01T00:00:00Z"}
            for i in ids
        ]
        if route.model is not None:
            return 200, rows[0]
        return 200, {"data": rows, "has_more": False, "first_id": ids[0], "last_id": ids[-1]}
    rows = [{"id": i, "object": "model", "created": 0, "owned_by": owner} for i in ids]
    return 200, rows[0] if route.model is not None else {"object": "list", "data": rows}


def count_probe(provider: str, body: dict[str, Any]) -> dict[str, Any] | str:
    """The generation body a count-tokens body stands for, or what is wrong with it."""
    if provider != "gemini":  # Messages, without the required max_tokens it does not take
        return {"max_tokens": 1, **body}
    inner = body.get("generateContentRequest", body.get("generate_content_request"))
    if inner is not None and "contents" in body:
        return "contents and generateContentRequest: set one of them, not both."
    if inner is None:
        return {"contents": body.get("contents")} if "contents" in body else body
    if not isinstance(inner, dict):
        return "generateContentRequest: expected an object"
    return {k: v for k, v in inner.items() if k != "model"}


def count_answer(provider: str, request: Any, model: str, probe: dict) -> tuple[dict, str]:
    """``(the answer, the count's label)``: the input tokens the request would be billed."""
    from helpers.tokens import count
    from standin.wire_count import with_unmodelled

    counted = with_unmodelled(count(request, model), probe, provider)
    n = counted.total
    if provider == "gemini":
        answer = {"totalTokens": n, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": n}]}
    else:
        answer = {"input_tokens": n}
    label = explained(counted).replace("±", "+/-").encode("ascii", "replace").decode("ascii")
    return answer, label
