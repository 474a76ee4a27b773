"""Which parts of the tool definitions cost tokens: descriptions, name lines, parameters.

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
    from helpers.tokens.encodings import encoding
    from helpers.tokens.tool_namespace import render_namespace

    info = model if isinstance(model, ModelInfo) else model_info(model)
    enc = encoding(info.encoding or PROXY_ENCODING)
    text, starts = render_namespace([(t.name, t.description, t.parameters) for t in tools])
    # character boundaries: for each tool, where its signature line and its parameters begin
    bounds = []
    for tool, start in zip(tools, starts, strict=True):
        signature = start + (len(f"// {tool.description}\n") if tool.description else 0)
        bounds.append((start, signature, text.index("\n", signature) + 1))
    ends = [*starts[1:], text.rindex("} // namespace functions")]
    counts = [[0, 0, 0] for _ in tools]
    framing = 0
    _, offsets = enc.decode_with_offsets(enc.encode_ordinary(text))
    for offset in offsets:
        owner = next((i for i, end in enumerate(ends) if starts[i] <= offset < end), None)
        if owner is None:
            framing += 1
            continue
        _, signature, parameters = bounds[owner]
        counts[owner][0 if offset < signature else 1 if offset < parameters else 2] += 1
    estimate = info.encoding is None
    parts = [ToolParts(t.name, *c, estimate=estimate) for t, c in zip(tools, counts, strict=True)]
    return parts, framing
