"""Tool parts: every token of the rendered namespace is attributed to exactly one part."""

from __future__ import annotations

from helpers.examples import sundry
from helpers.messages import Tool
from helpers.tokens import tool_parts
from helpers.tokens.namespace import render_namespace
from helpers.tokens.tokenizers import encoding


def test_parts_add_up_to_the_rendered_namespace():
    tools = sundry.TOOLS + sundry.EXTRA_TOOLS
    parts, framing = tool_parts(tools, "gpt-4o-mini")
    text, _ = render_namespace([(t.name, t.description, t.parameters) for t in tools])
    assert sum(p.total for p in parts) + framing == len(encoding("o200k_base").encode(text))
    assert [p.name for p in parts] == [t.name for t in tools]
    assert all(p.description > 0 and p.signature > 0 and p.parameters > 0 for p in parts)


def test_a_tool_without_description_or_parameters():
    bare = Tool("ping", "", {"type": "object", "properties": {}})
    (part,), framing = tool_parts([bare], "gpt-4o-mini")
    assert part.description == 0 and part.parameters == 0
    assert part.signature == len(encoding("o200k_base").encode("type ping = () => any;\n\n"))
    assert framing > 0


def test_longer_descriptions_cost_more_in_the_description_part_only():
    short = Tool("f", "Find.", {"type": "object", "properties": {"q": {"type": "string"}}})
    long = Tool("f", "Find orders by number, email or item title; newest first.", short.parameters)
    (a,), _ = tool_parts([short], "gpt-4o-mini")
    (b,), _ = tool_parts([long], "gpt-4o-mini")
    assert b.description > a.description
    assert (a.signature, a.parameters) == (b.signature, b.parameters)


def test_models_without_a_public_tokenizer_are_marked_estimates():
    from helpers.models import default_model

    (part,), _ = tool_parts(sundry.TOOLS[:1], default_model("anthropic"))
    assert part.estimate


def test_each_tool_costs_the_same_in_the_count_as_in_its_parts():
    """The namespace's closing line is framing in both (it once went to the last tool in the
    count: lesson 05 showed search_help_center at 47 tokens in one and 43 in the other)."""
    from helpers.tokens import count

    for tools in (sundry.TOOLS, sundry.TOOLS + sundry.EXTRA_TOOLS, sundry.TOOLS[:1]):
        opening = sundry.opening("gpt-4o-mini")
        opening.tools = tools
        counted = count(opening)
        parts, _ = tool_parts(tools, "gpt-4o-mini")
        assert [counted.part(f"tools[{i}]") for i in range(len(tools))] == [p.total for p in parts]
    no_system = sundry.opening("gpt-4o-mini")
    no_system.messages = no_system.messages[1:]  # the tools get a system message of their own
    parts, _ = tool_parts(no_system.tools, "gpt-4o-mini")
    counted = count(no_system)
    assert [counted.part(f"tools[{i}]") for i in range(len(parts))] == [p.total for p in parts]
