"""Used in lessons: none directly (imported by formats, models, sse).

What each provider *is*, one row per wire format: its two format modules, where its API lives,
how it takes a key, how an SDK is pointed elsewhere. What it *does* lives in its own modules.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import ModuleType

from helpers.formats import anthropic_parse as a_parse
from helpers.formats import anthropic_render as a_render
from helpers.formats import gemini_parse as g_parse
from helpers.formats import gemini_render as g_render
from helpers.formats import openai_chat_parse as oc_parse
from helpers.formats import openai_chat_render as oc_render
from helpers.formats import openai_responses_parse as or_parse
from helpers.formats import openai_responses_render as or_render


@dataclass(frozen=True)
class Provider:
    """One wire format and the company behind it (``family``: whose key, host and models)."""

    render: ModuleType  # writes its request bodies (``PATH``, ``PROVIDER``: its family)
    parse: ModuleType  # reads them back, and its responses
    host: str  # the real API's root, without a version
    version: str  # the first part of every path: ``/v1``, ``/v1beta``
    key_header: str  # the header that carries the key ...
    key_prefix: str  # ... written after this (``Bearer ``, or nothing)
    headers: tuple[tuple[str, str], ...]  # sent with every request besides the key
    key_env: str  # the environment variable its SDK reads the key from
    base_url_env: str  # ... and the one that points the SDK elsewhere
    sdk_suffix: str  # what the SDK's ``base_url`` argument adds to the root (OpenAI's ``/v1``)
    conversation: str = "messages"  # the body key that holds the conversation
    ends_with_done: bool = False  # its stream ends with ``data: [DONE]``
    price_id: str = ""  # its company's id in the price data (genai-prices: Gemini's is google)

    @property
    def family(self) -> str:  # the company: openai, anthropic or gemini
        return self.render.PROVIDER

    def auth(self, key: str) -> dict[str, str]:
        """The headers that carry ``key``, with the ones every request needs."""
        return {self.key_header: self.key_prefix + key, **dict(self.headers)}


_OPENAI = Provider(
    oc_render, oc_parse, host="https://api.openai.com", version="/v1", key_header="authorization",
    key_prefix="Bearer ", headers=(), key_env="OPENAI_API_KEY", base_url_env="OPENAI_BASE_URL",
    sdk_suffix="/v1", ends_with_done=True, price_id="openai",
)  # fmt: skip
#: Every wire format, in the lessons' order. A fifth: a row, a module pair, docs/design.md's list.
PROVIDERS: dict[str, Provider] = {
    "openai-chat": _OPENAI,
    "openai-responses": replace(_OPENAI, render=or_render, parse=or_parse, ends_with_done=False),
    "anthropic": Provider(
        a_render, a_parse, host="https://api.anthropic.com", version="/v1", key_header="x-api-key",
        key_prefix="", headers=(("anthropic-version", "2023-06-01"),), key_env="ANTHROPIC_API_KEY",
        base_url_env="ANTHROPIC_BASE_URL", sdk_suffix="", price_id="anthropic",
    ),
    "gemini": Provider(
        g_render, g_parse, host="https://generativelanguage.googleapis.com", version="/v1beta",
        key_header="x-goog-api-key", key_prefix="", headers=(), key_env="GEMINI_API_KEY",
        base_url_env="GEMINI_BASE_URL", sdk_suffix="", conversation="contents", price_id="google",
    ),
}  # fmt: skip
FAMILIES: dict[str, Provider] = {row.family: row for row in PROVIDERS.values()}  #: by family
