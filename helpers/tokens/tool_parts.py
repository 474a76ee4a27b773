"""Used in lessons: 05.

Which parts of the tool definitions cost tokens: descriptions, name lines, parameters.

The tools are rendered together as the model is believed to see them
(``tool_namespace.render_namespace``), encoded once, and every token is attributed to the part
of the text where it *starts*: a tool's description comment, its ``type name = (_: {`` line, its
parameter lines (their descriptions, names, types and the closing), or the namespace's own
framing. So the parts add up exactly to the tokens of the rendered namespace; nothing is
counted twice or lost at a boundary between tools.

Only models whose tokenizer is public are exact; for the others the proxy encoding of
``helpers.tokens.estimate`` is used and ``estimate`` is True.
"""

from __future__ import annotations

from dataclasses import dataclass

from helpers.messages import Tool
from helpers.models import ModelInfo, model_info

__all__ = ["ToolParts", "tool_parts"]

PROXY_ENCODING = "o200k_base"


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
    """Per tool, its tokens by part; and the tokens of the namespace framing around them."""
    from helpers.tokens.encodings import split_at
    from helpers.tokens.tool_namespace import render_namespace

    info = model if isinstance(model, ModelInfo) else model_info(model)
    text, starts = render_namespace([(t.name, t.description, t.parameters) for t in tools])
    cuts = []  # for each tool: where its description, its name line and its parameters start
    for tool, start in zip(tools, starts, strict=True):
        signature = start + (len(f"// {tool.description}\n") if tool.description else 0)
        cuts += [start, signature, text.index("\n", signature) + 1]
    groups = split_at(info.encoding or PROXY_ENCODING, text, [*cuts, text.rindex("} // ")])
    parts = [
        ToolParts(t.name, *(len(g) for g in groups[1 + 3 * i : 4 + 3 * i]), info.encoding is None)
        for i, t in enumerate(tools)
    ]
    return parts, len(groups[0]) + len(groups[-1])
