"""Used in lessons: 05, 09.

One text encoded once and split into parts: a tool definition by part (``tool_parts``) and a
prompt by section (``count_sections``). Each token goes to the part it starts in
(``tokenizers.split_at``), so the parts add up to the text's tokens; counted apart, a token
straddling a break would count twice. What it deliberately does not do: count framing.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate

from helpers.messages import Tool
from helpers.models import ModelInfo, info_for
from helpers.tokens.namespace import render_namespace
from helpers.tokens.tokenizers import encoding_name, split_at


@dataclass
class ToolParts:
    name: str
    description: int
    signature: int  # the "type name = (_: {" line: the name plus TypeScript syntax
    parameters: int  # parameter descriptions, names, types, optional marks, closing
    estimate: bool = False

    @property
    def total(self) -> int:
        return self.description + self.signature + self.parameters


def tool_parts(tools: list[Tool], model: str | ModelInfo) -> tuple[list[ToolParts], int]:
    """Per tool, its tokens by part; and the tokens of the namespace framing around them.
    The namespace is encoded once and each token given to the part it starts in (``split_at``),
    so the parts add up to the namespace's tokens. Exact only for a model whose tokenizer is
    public; otherwise the ``PROXY``, and ``estimate`` is True."""
    info = info_for(model)
    text, starts = render_namespace([(t.name, t.description, t.parameters) for t in tools])
    cuts = []  # for each tool: where its description, its name line and its parameters start
    for tool, start in zip(tools, starts, strict=True):
        signature = start + (len(f"// {tool.description}\n") if tool.description else 0)
        cuts += [start, signature, text.index("\n", signature) + 1]
    groups = split_at(encoding_name(info), text, [*cuts, text.rindex("} // ")])
    parts = [
        ToolParts(t.name, *(len(g) for g in groups[1 + 3 * i : 4 + 3 * i]), info.encoding is None)
        for i, t in enumerate(tools)
    ]
    return parts, len(groups[0]) + len(groups[-1])


@dataclass
class Section:
    text: str
    tokens: int
    estimate: bool = False


def count_sections(text: str, model: str | ModelInfo, separator: str = "\n\n") -> list[Section]:
    """Split ``text`` at ``separator`` and count each piece's tokens inside the whole text.
    The sections add up to ``count_text(text)``."""
    info = info_for(model)
    sections = text.split(separator)
    # where each later section starts: the lengths so far, separators included
    cuts = list(accumulate(len(section) + len(separator) for section in sections[:-1]))
    groups = split_at(encoding_name(info), text, cuts)
    return [
        Section(s, len(g), info.encoding is None) for s, g in zip(sections, groups, strict=True)
    ]
