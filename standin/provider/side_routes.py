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

from collections.abc import Callable
from typing import Any

from helpers.trace import COUNT_HEADER
from standin.provider import errors

__all__ = ["count_tokens", "models"]


def models(route: Any, headers: dict[str, str]) -> Any:
    """``GET /v1/models[/{model}]``: the known models, in OpenAI's or Anthropic's shape."""
    from helpers import models as table
    from standin.provider.routes import _json_response, error

    anthropic = route.provider == "anthropic"
    owner = "anthropic" if anthropic else "openai"
    ids = table.models(owner)
    if route.model is not None:
        if route.model not in ids:
            text = errors.UNKNOWN_MODEL[errors.family(route.provider)].format(model=route.model)
            return error(route.provider, 404, text)
        ids = [route.model]
    if anthropic:
        rows = [
            {"type": "model", "id": i, "display_name": i, "created_at": "1970-01-01T00:00:00Z"}
            for i in ids
        ]
        if route.model is not None:
            return _json_response(200, rows[0], route.provider)
        page = {"data": rows, "has_more": False, "first_id": ids[0], "last_id": ids[-1]}
        return _json_response(200, page, route.provider)
    rows = [{"id": i, "object": "model", "created": 0, "owned_by": owner} for i in ids]
    if route.model is not None:
        return _json_response(200, rows[0], route.provider)
    return _json_response(200, {"object": "list", "data": rows}, route.provider)


def _gemini_request(body: dict[str, Any]) -> dict[str, Any] | str:
    """The generateContent body a countTokens body stands for, or what is wrong with it."""
    inner = body.get("generateContentRequest")
    if inner is not None and "contents" in body:
        return "contents and generateContentRequest: set one of them, not both."
    if inner is None:
        return {"contents": body.get("contents")} if "contents" in body else body
    if not isinstance(inner, dict):
        return "generateContentRequest: expected an object"
    return {k: v for k, v in inner.items() if k != "model"}


def count_tokens(route: Any, body: dict[str, Any], checked: Callable) -> Any:
    """The input tokens ``body`` would be billed, in the provider's count-tokens shape."""
    from helpers import tokens
    from standin.provider.routes import _json_response, error

    provider = route.provider
    if provider == "gemini":
        body_or_problem = _gemini_request(body)
        if isinstance(body_or_problem, str):
            return error(provider, 400, body_or_problem)
        probe = body_or_problem
    else:  # the Messages checks, without the required max_tokens this endpoint does not take
        probe = {"max_tokens": 1, **body}
    result = checked(route, probe)
    if not isinstance(result, tuple):
        return result
    request, model = result
    counted = tokens.with_unmodelled(tokens.count(request, model), probe, provider)
    n = counted.total
    if provider == "gemini":
        answer = {"totalTokens": n, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": n}]}
    else:
        answer = {"input_tokens": n}
    response = _json_response(200, answer, provider)
    label = counted.explained().replace("±", "+/-").encode("ascii", "replace").decode("ascii")
    response.headers.append((COUNT_HEADER, label))
    return response
