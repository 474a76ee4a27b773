"""Used in lessons: none directly (imported by caching, tokens, tokens.estimate, ...).

Tokenizers, loaded lazily, and a memo so the same text is never tokenized twice.

``encoding(name)`` returns a tiktoken ``Encoding`` that also knows the chat framing tokens
``<|start|>``, ``<|message|>``, ``<|end|>`` and ``<|constrain|>`` (the names the OpenAI cookbook
and the published gpt-oss format use). For ``o200k_base`` that is tiktoken's own
``o200k_harmony`` (same ranks, plus those special tokens). For ``cl100k_base`` it is the
``cl100k_im`` extension from tiktoken's README (``<|im_start|>`` 100264, ``<|im_end|>`` 100265),
under our names, plus two ids of ours (100266, 100267) for the other two. Ordinary text encodes
exactly as with the base encoding; only the framing ids are a model.

``encode(name, text)`` is memoised by content: counting turn after turn of a growing
conversation tokenizes each message once, so a 1,000-turn ticket costs about one tokenization
of its final request (see ``benchmarks/``).

What it deliberately does not do: download anything (``tiktoken_ext.on_the_wire`` seeds
tiktoken's cache from a pinned package) or parse special tokens inside user text (text that
*looks* like ``<|end|>`` is encoded as ordinary characters, as the APIs do).
"""

from __future__ import annotations

import time
from functools import cache, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tiktoken

__all__ = ["FRAMING", "encode", "encoding", "load_seconds", "special_id", "split_at"]

#: The framing tokens every chat rendering here uses, by name.
FRAMING = ("<|start|>", "<|message|>", "<|end|>", "<|constrain|>")

_CL100K_FRAMING = {"<|start|>": 100264, "<|end|>": 100265, "<|message|>": 100266}
_CL100K_FRAMING["<|constrain|>"] = 100267

_load_seconds: dict[str, float] = {}


@cache
def encoding(name: str) -> tiktoken.Encoding:
    """The tiktoken encoding ``name`` with the chat framing tokens added (loaded once)."""
    started = time.perf_counter()
    import tiktoken

    if name in ("o200k_base", "o200k_harmony"):
        loaded = tiktoken.get_encoding("o200k_harmony")
    elif name == "cl100k_base":
        base = tiktoken.get_encoding("cl100k_base")
        loaded = tiktoken.Encoding(
            name="cl100k_chat",
            pat_str=base._pat_str,
            mergeable_ranks=base._mergeable_ranks,
            special_tokens={**base._special_tokens, **_CL100K_FRAMING},
        )
    else:
        raise ValueError(
            f"no tokenizer {name!r} here; the lessons use o200k_base, o200k_harmony, cl100k_base"
        )
    _load_seconds[name] = time.perf_counter() - started
    return loaded


def special_id(name: str, token: str) -> int:
    """The id of a framing token such as ``<|start|>`` in encoding ``name``."""
    return encoding(name)._special_tokens[token]


@lru_cache(maxsize=1 << 16)
def encode(name: str, text: str) -> tuple[int, ...]:
    """Token ids of ``text`` (no special tokens recognised), memoised by content."""
    return tuple(encoding(name).encode_ordinary(text))


def split_at(name: str, text: str, cuts: list[int]) -> list[tuple[int, ...]]:
    """Encode ``text`` once, then cut its tokens at the character positions ``cuts``.

    Group 0 holds the tokens that start before ``cuts[0]``; group ``k`` those that start at or
    after ``cuts[k - 1]`` and before ``cuts[k]``. A token that straddles a cut belongs to the
    group it starts in, so the groups always add up to the text's exact token count. This is
    how a breakdown (per tool, per paragraph, per part of a tool) stays exact.
    """
    from bisect import bisect_right

    if list(cuts) != sorted(cuts):
        raise ValueError(f"cut positions must be in order, got {cuts}")
    ids = encode(name, text)
    sizes = _token_bytes(name)
    # Where each token starts, in bytes (a token can end inside a multi-byte character).
    at_bytes = [len(text[:cut].encode("utf-8")) for cut in cuts]
    groups: list[list[int]] = [[] for _ in range(len(cuts) + 1)]
    position = 0
    for token in ids:
        size = sizes.get(token)
        if size is None:
            size = sizes[token] = len(encoding(name).decode_single_token_bytes(token))
        groups[bisect_right(at_bytes, position)].append(token)
        position += size
    return [tuple(group) for group in groups]


@cache
def _token_bytes(name: str) -> dict[int, int]:
    """Byte length of each token id met so far (filled lazily: part of the tokenizer's data)."""
    return {}


def load_seconds() -> dict[str, float]:
    """How long each tokenizer took to load in this process (for the benchmark table)."""
    return dict(_load_seconds)
