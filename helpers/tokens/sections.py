"""Used in lessons: 09.

Tokens per section of one text (paragraphs of a system prompt, say), adding up exactly.

Counting each paragraph on its own gives slightly different numbers than counting the whole,
because a token can straddle the break between two paragraphs. Here the whole text is encoded
once and each token is attributed to the section where it *starts*, so the sections always sum
to ``count_text(text)``. Models without a public tokenizer use the proxy encoding, flagged.
"""

from __future__ import annotations

from dataclasses import dataclass

from helpers.models import ModelInfo, model_info

__all__ = ["Section", "count_sections"]

PROXY_ENCODING = "o200k_base"


@dataclass
class Section:
    text: str
    tokens: int
    estimate: bool = False

    @property
    def title(self) -> str:
        """The section's first line, shortened: a label for tables and plots."""
        first = self.text.strip().splitlines()[0] if self.text.strip() else ""
        return first if len(first) <= 48 else first[:45] + "..."


def count_sections(text: str, model: str | ModelInfo, separator: str = "\n\n") -> list[Section]:
    """Split ``text`` at ``separator`` and count each piece's tokens inside the whole text."""
    from helpers.tokens.encodings import split_at

    info = model if isinstance(model, ModelInfo) else model_info(model)
    pieces = text.split(separator)
    cuts, position = [], 0
    for piece in pieces[:-1]:
        position += len(piece) + len(separator)
        cuts.append(position)
    groups = split_at(info.encoding or PROXY_ENCODING, text, cuts)
    estimate = info.encoding is None
    return [Section(p, len(g), estimate) for p, g in zip(pieces, groups, strict=True)]
