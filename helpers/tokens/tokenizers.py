"""Used in lessons: none directly (imported by cost.caching, tokens, tokens.exactness, ...).

The tokenizers: tiktoken's encodings with the chat framing tokens added, and Gemma's
(``helpers.gemma``); Claude and other Gemini are counted with the ``PROXY``. ``encode`` is
memoised by content; ``split_at`` encodes a text once and cuts its tokens at character positions.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from helpers import gemma
from helpers.models import ModelInfo

if TYPE_CHECKING:
    import tiktoken

__all__ = ["PROXY", "encode", "encoding", "encoding_name", "special_id", "split_at"]

#: The proxy tokenizer for models whose own is not public (Claude, Gemini): an estimate.
PROXY = "o200k_base"

_CL100K_FRAMING = {"<|start|>": 100264, "<|end|>": 100265, "<|message|>": 100266}
_CL100K_FRAMING["<|constrain|>"] = 100267


def encoding_name(info: ModelInfo) -> str:
    """The encoding a model is counted with: its own, else the ``PROXY``."""
    return info.encoding or PROXY


@cache
def encoding(name: str) -> tiktoken.Encoding:
    """The tiktoken encoding ``name`` with the chat framing tokens added (loaded once)."""
    import tiktoken

    if name in ("o200k_base", "o200k_harmony"):
        return tiktoken.get_encoding("o200k_harmony")
    if name == "cl100k_base":
        base = tiktoken.get_encoding("cl100k_base")
        return tiktoken.Encoding(
            name="cl100k_chat",
            pat_str=base._pat_str,
            mergeable_ranks=base._mergeable_ranks,
            special_tokens={**base._special_tokens, **_CL100K_FRAMING},
        )
    raise ValueError(
        f"no tokenizer {name!r} here; the lessons use o200k_base, o200k_harmony, cl100k_base"
    )


def special_id(name: str, token: str) -> int:
    """The id of a framing token such as ``<|start|>`` in encoding ``name``."""
    return encoding(name).encode_single_token(token)


@lru_cache(maxsize=1 << 16)
def encode(name: str, text: str) -> tuple[int, ...]:
    """Token ids of ``text`` (no special tokens recognised), memoised by content."""
    if name == "gemma3":
        return gemma.encode(text)
    return tuple(encoding(name).encode_ordinary(text))


def split_at(name: str, text: str, cuts: list[int]) -> list[tuple[int, ...]]:
    """Encode ``text`` once, then cut its tokens at the character positions ``cuts``.
    Group ``k`` holds the tokens that start at or after ``cuts[k - 1]`` and before ``cuts[k]``: a
    token that straddles a cut belongs to the group it starts in, so the groups add up to the
    text's exact token count (per tool, per paragraph, per part of a tool)."""
    if list(cuts) != sorted(cuts):
        raise ValueError(f"cut positions must be in order, got {cuts}")
    if not cuts:
        return [encode(name, text)]
    at_bytes = [len(text[:cut].encode("utf-8")) for cut in cuts]  # a token may end mid-character
    groups: list[list[int]] = [[] for _ in range(len(cuts) + 1)]
    position = 0
    for token in encode(name, text):
        groups[bisect_right(at_bytes, position)].append(token)
        position += _token_size(name, token)
    return [tuple(group) for group in groups]


@lru_cache(maxsize=1 << 16)
def _token_size(name: str, token: int) -> int:
    if name == "gemma3":
        return gemma.piece_bytes(token)
    return len(encoding(name).decode_single_token_bytes(token))
