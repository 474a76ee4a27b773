"""The gpt-oss harmony view: exact tokens from openai-harmony, deterministic, segmented by role."""

from __future__ import annotations

from helpers.examples import sundry
from helpers.messages import Reasoning, Request, assistant, system, user
from helpers.tokens.harmony import render_harmony


def test_a_plain_conversation_renders_role_markers_and_ends_primed_for_the_reply():
    view = render_harmony(Request("gpt-oss-120b", [system("Be terse."), user("Hi")]))
    assert view.text.startswith("<|start|>system<|message|>You are ChatGPT")
    assert "Knowledge cutoff: 2024-06" in view.text and "Current date" not in view.text
    assert "<|start|>developer<|message|># Instructions\n\nBe terse.<|end|>" in view.text
    assert view.text.endswith("<|start|>user<|message|>Hi<|end|><|start|>assistant")
    assert view.count == len(view.tokens) == len(view.pieces)
    assert "".join(view.pieces) == view.text


def test_tools_render_as_a_typescript_namespace_and_calls_as_commentary():
    view = render_harmony(sundry.ticket("gpt-oss-120b"))
    assert "namespace functions {" in view.text and "type search_orders = (_: {" in view.text
    assert (
        "<|start|>assistant to=functions.search_orders<|channel|>commentary <|constrain|>json"
        '<|message|>{"query":"SO-48213"}<|call|>'
    ) in view.text
    assert "<|start|>functions.search_orders to=assistant<|channel|>commentary" in view.text
    roles = [s[0] for s in view.segments]
    assert roles == ["system", "developer", "user", "assistant", "assistant", "tool", "priming"]
    assert view.segments[0][2] == 0 and view.segments[-1][3] == view.count


def test_rendering_is_deterministic():
    request = sundry.ticket("gpt-oss-120b")
    assert render_harmony(request).tokens == render_harmony(request).tokens


def test_reasoning_of_an_answered_turn_is_dropped_and_said_so():
    request = Request(
        "gpt-oss-120b", [user("Hi"), assistant(Reasoning("greet them"), "Hello!"), user("Bye")]
    )
    view = render_harmony(request)
    assert "greet them" not in view.text and "Hello!" in view.text
    assert any("dropped" in note for note in view.notes)


def test_html_view_shows_token_chips_by_role_and_stays_small():
    html = render_harmony(sundry.ticket("gpt-oss-120b"))._repr_html_()
    assert "<s title=" in html and "developer" in html and "tool" in html
    assert len(html) < 60_000


def test_the_excerpt_keeps_every_marker_and_says_how_much_it_cut():
    view = render_harmony(sundry.ticket("gpt-oss-120b"))
    short = view.excerpt(head=12, tail=6)
    markers = [p for p in view.pieces if p.startswith("<|") and p.endswith("|>")]
    assert [p for p in markers if p in short] == markers  # no marker is cut away
    assert short.count("<|start|>") == view.text.count("<|start|>")
    developer = next(s for s in view.segments if s[0] == "developer")
    assert f"[{developer[3] - developer[2] - 18} tokens]" in short
    assert len(short) < len(view.text) / 5
    tiny = render_harmony(Request("gpt-oss-120b", [user("Hi")]))
    assert "<|start|>user<|message|>Hi<|end|>" in tiny.excerpt()


def test_the_plain_text_repr_is_short_and_counts_each_part():
    view = render_harmony(sundry.ticket("gpt-oss-120b"))
    shown = repr(view)
    assert shown.startswith(f"HarmonyView({view.count} tokens: system ") and len(shown) < 200
    assert "developer" in shown and "priming 2" in shown
