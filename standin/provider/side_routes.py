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
from standin.providers import of

__all__ = ["count_answer", "count_probe", "models"]


def models(route: Any) -> tuple[int, dict[str, Any] | str]:
    """``GET /v1/models[/{model}]``: ``(status, the answer or an error text)``."""
    from helpers import models as table

    owner = errors.family(route.provider)  # the anthropic SDK lists on OpenAI's path
    ids = table.models(owner)
    if route.model is not None:
        if route.model not in ids:
            return 404, errors.texts(route.provider).UNKNOWN_MODEL.format(model=route.model)
        ids = [route.model]
    return 200, of(route.provider).models_answer(ids, route.model is not None)


def count_probe(provider: str, body: dict[str, Any]) -> dict[str, Any] | str:
    """The generation body a count-tokens body stands for, or what is wrong with it."""
    return of(provider).count_probe(body)


def count_answer(provider: str, request: Any, model: str, probe: dict) -> tuple[dict, str]:
    """``(the answer, the count's label)``: the input tokens the request would be billed."""
    from helpers.tokens import count
    from standin.wire_count import with_unmodelled

    counted = with_unmodelled(count(request, model), probe, provider)
    n = counted.total
    answer = of(provider).count_answer(n)
    label = explained(counted).replace("±", "+/-").encode("ascii", "replace").decode("ascii")
    return answer, label
