"""Used in lessons: none directly (imported by cost.caching, tokens.gemini, tokens.tokenizers).

The tokenizer of the Gemini models Google's SDK (google-genai's ``LocalTokenizer``) counts with
Gemma 3's: Gemini 2.0, 2.5 and the 3-pro / 3-flash previews. What ships in ``data/tokenizers/``
is Gemma 4's SentencePiece model (Apache 2.0; source, licence and comparison in the README
there): it splits text as Gemma 3's does but for 18 control strings on each side (``DIFFERENT``).
Read with ``sentencepiece`` on first use (0.1 s), its pinned sha256 checked. What it does not do:
download anything, or count the Gemini models Google maps to Gemma 4 or to nothing (estimates).
"""

from __future__ import annotations

import hashlib
import lzma
from functools import cache
from typing import Any

from helpers.examples import DATA

MODEL = DATA / "tokenizers" / "gemma4.model.xz"
MODEL_SHA256 = "9f318ac4dc02f8580e3f65ff0b37286e7c3d1e5d664737bb2c8ca812b5453162"
_MARKED = ("turn", "tool", "tool_call", "tool_response", "channel", "image", "audio")
#: The only pieces Gemma 3's and Gemma 4's tokenizers do not share (one token in one, several in
#: the other): Gemma 3's turn and image markers and last unused slots, Gemma 4's control tokens.
DIFFERENT = tuple(
    ["<start_of_turn>", "<end_of_turn>", "<start_of_image>"]
    + [f"<unused{n}>" for n in range(6228, 6243)]
    + [f"<|{name}>" for name in _MARKED]
    + [f"<{name}|>" for name in _MARKED]
    + [f"<|{name}|>" for name in ("image", "audio", "think", '"')]
)


@cache
def tokenizer() -> Any:
    """The ``sentencepiece.SentencePieceProcessor``, from the shipped copy, its hash checked."""
    import sentencepiece

    raw = lzma.decompress(MODEL.read_bytes())
    if hashlib.sha256(raw).hexdigest() != MODEL_SHA256:
        raise ValueError(f"{MODEL}: not the pinned file (sha256 differs); reinstall the package")
    return sentencepiece.SentencePieceProcessor(model_proto=raw)


def encode(text: str) -> tuple[int, ...]:
    """Token ids of ``text``, no ``<bos>`` (``<bos>`` written in the text is read as text)."""
    return tuple(tokenizer().encode(text))


def decode(ids: list[int]) -> str:
    """The text of token ids (byte tokens of one character joined back into it)."""
    return tokenizer().decode(list(ids))


def differs(text: str) -> bool:
    """Whether ``text`` holds a string Gemma 3's and Gemma 4's tokenizers split differently."""
    return "<" in text and any(s in text for s in DIFFERENT)


def piece_bytes(token: int) -> int:
    """How many bytes of text one token stands for (``<0x0A>`` is one byte, ``▁`` a space)."""
    if tokenizer().is_byte(token):
        return 1
    return len(tokenizer().id_to_piece(token).replace("▁", " ").encode("utf-8"))
