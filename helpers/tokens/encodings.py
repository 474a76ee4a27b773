"""Used in lessons: 09.

Tokenizers, and how the pieces a counting rule renders become tokens.

The encodings also know the framing tokens (``<|start|>``, ``<|message|>``, ``<|end|>``,
``<|constrain|>``). ``tokenize`` encodes the text between two boundaries (a framing token,
``CUT``, an image) once and gives each token to the piece it starts in, so the parts add up to
the total. Claude and Gemini are counted with the ``PROXY`` encoding.

What it deliberately does not do: download anything, or read special tokens inside user text.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import accumulate
from typing import TYPE_CHECKING, NamedTuple, Union

from helpers.models import ModelInfo, info_for

if TYPE_CHECKING:
    import tiktoken


class Piece(NamedTuple):
    """A run of tokens owned by one part of the request (a named tuple: cheap to make)."""

    part: str  # "tools[3]", "messages[2]", "messages[2].content[1]", "priming", ...
    ids: tuple[int, ...] | None  # token ids, or None where only a count exists (images, overhead)
    n: int  # number of tokens
    key: object = None  # what identifies the content when ``ids`` is None (for cache prefixes)

    @staticmethod
    def of(part: str, ids: tuple[int, ...]) -> Piece:
        return Piece(part, ids, len(ids))


#: The stand-in tokenizer for models whose own is not public (Claude, Gemini): an estimate.
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
    return tuple(encoding(name).encode_ordinary(text))


def split_at(name: str, text: str, cuts: list[int]) -> list[tuple[int, ...]]:
    """Encode ``text`` once, then cut its tokens at the character positions ``cuts``.

    Group ``k`` holds the tokens that start at or after ``cuts[k - 1]`` and before ``cuts[k]``:
    a token that straddles a cut belongs to the group it starts in, so the groups add up to
    the text's exact token count (per tool, per paragraph, per part of a tool).
    """
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
    return len(encoding(name).decode_single_token_bytes(token))


class Special(str):
    """A framing token, written by its name (``<|start|>``): one token, never text."""


#: A boundary between two texts that are tokenized separately (no token of its own).
CUT = Special("")


@dataclass(frozen=True)
class Sized:
    """Content charged by size rather than tokenized: ``tokens`` of it, identified by ``key``."""

    tokens: int
    key: object
    estimate: str = ""  # why the size is a guess, or "" when it is exact


Seen = tuple[str, Union[str, Special, Sized]]  # noqa: UP007 (a runtime alias)


def tokenize(seen: list[Seen], encoding: str) -> list[Piece]:
    """The pieces as tokens: each run of text between boundaries encoded once (see above)."""
    pieces: list[Piece] = []
    run: list[tuple[str, str]] = []  # the texts since the last boundary
    for part, content in [*seen, ("", CUT)]:  # a last boundary ends the last run
        if not isinstance(content, Special | Sized):
            run += [(part, content)] if content else []
            continue
        pieces += _run_pieces(run, encoding)
        run = []
        if isinstance(content, Sized):
            pieces.append(Piece(part, None, content.tokens, content.key))
        elif content:
            pieces.append(Piece.of(part, (special_id(encoding, content),)))
    return pieces


def _run_pieces(run: list[tuple[str, str]], encoding: str) -> list[Piece]:
    """One run of texts encoded as one string, its tokens cut back into their parts."""
    if not run:
        return []
    cuts = list(accumulate(len(text) for _, text in run[:-1]))
    groups = split_at(encoding, "".join(text for _, text in run), cuts)
    return [Piece.of(part, ids) for (part, _), ids in zip(run, groups, strict=True) if ids]


@dataclass
class Section:
    text: str
    tokens: int
    estimate: bool = False


def count_sections(text: str, model: str | ModelInfo, separator: str = "\n\n") -> list[Section]:
    """Split ``text`` at ``separator`` and count each piece's tokens inside the whole text.

    The text is encoded once and each token given to the section it starts in, so the sections
    add up to ``count_text(text)`` (counted apart, a token straddling a break would count twice).
    """
    info = info_for(model)
    sections = text.split(separator)
    cuts, position = [], 0
    for section in sections[:-1]:
        position += len(section) + len(separator)
        cuts.append(position)
    groups = split_at(encoding_name(info), text, cuts)
    return [
        Section(s, len(g), info.encoding is None) for s, g in zip(sections, groups, strict=True)
    ]
