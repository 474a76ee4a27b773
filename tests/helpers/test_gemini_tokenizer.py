"""Gemini counted with Gemma 3's tokenizer, offline (issue 34, item 2).

The shipped copy (``data/tokenizers/gemma4.model.xz``: Gemma 4's, which splits text as Gemma 3's
does but for the control strings in ``helpers.gemma.DIFFERENT``) is checked against its pinned
hash on load;
Google's documented examples count as Google says; the models google-genai maps to Gemma 3 get
the ``gemini-gemma3`` rule, the others stay estimates. The recorded bills behind the rule are
checked in ``tests/standin/test_corpus.py`` (where the corpus is present).
"""

from __future__ import annotations

import lzma
import math

import pytest

from helpers import gemma
from helpers.messages import Request, Tool, user
from helpers.models import model_info
from helpers.tokens import count, count_text, gemini


@pytest.mark.parametrize("text, tokens", [("What is your name?", 5), ("Hello, world!", 4)])
def test_googles_documented_examples(text, tokens):
    assert count_text(text, "gemini-2.5-flash") == tokens


@pytest.mark.parametrize(
    "model, rule",
    [
        ("gemini-2.5-flash", "gemini-gemma3"),
        ("gemini-2.0-flash-001", "gemini-gemma3"),
        ("gemini-3-pro-preview", "gemini-gemma3"),
        ("gemini-3.5-flash", "gemini-estimate"),  # Gemma 4 in google-genai: not shipped
        ("gemini-3.8-flash", "gemini-estimate"),  # the series' default: not mapped by Google
    ],
)
def test_the_models_google_maps_to_gemma3_use_it(model, rule):
    assert model_info(model).counting == rule


def test_a_text_request_is_exact_and_function_declarations_are_not():
    text = count(Request("gemini-2.5-flash", [user("What is your name?")]))
    assert (text.total, text.label) == (6, "exact")  # 5 of text + 1 for the content
    tool = Tool("get_weather", "Weather in a city", {"type": "object", "properties": {}})
    tools = count(Request("gemini-2.5-flash", [user("What is your name?")], tools=[tool]))
    assert tools.estimate and "tools[0]" in tools.uncertain
    assert tools.label.startswith("estimate; on ") and "recorded requests" in tools.label
    assert count(Request("gemini-2.0-flash", [user("What is your name?")])).total == 5


def test_a_copy_that_is_not_the_pinned_file_is_refused(tmp_path, monkeypatch):
    fake = tmp_path / "gemma4.model.xz"
    fake.write_bytes(lzma.compress(b"not a SentencePiece model"))
    monkeypatch.setattr(gemma, "MODEL", fake)
    with pytest.raises(ValueError, match="not the pinned file"):
        gemma.tokenizer.__wrapped__()  # the loader itself: the loaded tokenizer stays cached


def test_the_control_strings_gemma3_splits_otherwise_are_named_never_exact():
    """The shipped file reads Gemma 4's markers as one token and Gemma 3's as text: a text
    holding either is counted, and named in ``uncertain``; any other text is exact."""
    gemma4_only = [s for s in gemma.DIFFERENT if "|" in s]
    assert len(gemma4_only) == 18 and all(len(gemma.encode(s)) == 1 for s in gemma4_only)
    assert all(len(gemma.encode(s)) > 1 for s in gemma.DIFFERENT if "|" not in s)
    for text in ("<start_of_turn>user", "a <|turn> b", "<unused6230>"):
        counted = count(Request("gemini-2.5-flash", [user(text)]))
        assert "Gemma 4" in counted.uncertain["messages[0].content[0]"][1], text
        assert counted.label != "exact"
    assert count(Request("gemini-2.5-flash", [user("<b>bold</b> <bos>")])).label == "exact"


def test_a_response_schema_adds_nothing_on_gemma3_models_and_stays_unseen_elsewhere():
    """Recorded bills on Gemini 2.5 and 3 equal the count without the schema
    (tests/standin/test_corpus)."""
    from standin.wire_count import count_body

    contents = [{"role": "user", "parts": [{"text": "What is your name?"}]}]
    body = {"contents": contents, "generationConfig": {"responseSchema": {"type": "STRING"}}}
    assert count_body(body, "gemini", "gemini-2.5-flash").label == "exact"
    assert count_body(body, "gemini", "gemini-2.0-flash").label != "exact"
    assert count_body(body, "gemini", "gemini-3.8-flash").label == "estimate, error unknown"


def test_the_stand_ins_reply_tokens_on_gemma3_join_back_to_the_text():
    """Its ``max_tokens`` cut reads one piece per token: byte tokens never repeat a character."""
    from standin.provider.routes import _tokenizer

    text = "a \U000f0001 b, world!\n\n  é"  # a private-use character: four byte tokens
    pieces = _tokenizer("gemini-2.5-flash")(text)
    assert "".join(pieces) == text and len(pieces) == len(gemma.encode(text))
    assert pieces[2:6] == ["", "", "", "\U000f0001"]


_HOW = {"role": "user", "parts": [{"text": "How do I cross the street?"}]}
_WEATHER = {
    "role": "user",
    "parts": [{"text": "What is the weather and the time in Paris? Use the tools."}],
}


def _city_tool(name):
    schema = {"additionalProperties": False, "properties": {"city": {"type": "string"}}}
    schema |= {"required": ["city"], "type": "object"}
    return {"description": "", "name": name, "parameters_json_schema": schema}


def _weather_call(signature):
    call = {"args": {"city": "Paris"}, "id": "pyd_ai_f01", "name": "get_weather"}
    answer = {"id": "pyd_ai_f01", "name": "get_weather"}
    answer["response"] = {"return_value": "The weather in Paris is sunny and 24C."}
    return {
        "contents": [
            _WEATHER,
            {"role": "model", "parts": [{"functionCall": call, "thoughtSignature": signature}]},
            {"role": "user", "parts": [{"functionResponse": answer}]},
        ],
        "tools": [{"functionDeclarations": [_city_tool("get_weather"), _city_tool("get_time")]}],
    }


_PASSWORD = {"title": "Password", "type": "STRING"}
#: Bodies of public cassettes (MIT) and their bill, ``promptTokenCount``: pydantic-ai's
#: test_google_model_thinking_part.yaml #0 and test_google_strict_tools_use_validated_mode.yaml
#: #1 (its thought signature replaced by Google's documented stand-in, which carries no
#: thinking), Mirascope's test_call_with_tools/google_gemini_2_5_flash/async.yaml #0.
RECORDED = [
    (
        "gemini-3-pro-preview",
        {
            "contents": [_HOW],
            "systemInstruction": {"parts": [{"text": "You are a helpful assistant."}]},
            "tools": [{"functionDeclarations": [{"description": "", "name": "dummy"}]}],
        },
        29,
    ),
    ("gemini-2.5-flash", _weather_call(gemini.DUMMY), 122),
    (
        "gemini-2.5-flash",
        {
            "contents": [
                {
                    "role": "user",
                    "parts": [
                        {
                            "text": "Please retrieve the secrets associated "
                            "with each of these passwords: mellon,radiance"
                        }
                    ],
                }
            ],
            "systemInstruction": {"parts": [{"text": "Use parallel tool calling."}]},
            "tools": [
                {
                    "functionDeclarations": [
                        {
                            "description": "A tool that requires a password to retrieve a secret.",
                            "name": "secret_retrieval_tool",
                            "parameters": {
                                "properties": {"password": _PASSWORD},
                                "required": ["password"],
                                "type": "OBJECT",
                            },
                        }
                    ]
                }
            ],
        },
        70,
    ),
]


@pytest.mark.parametrize(("model", "body", "billed"), RECORDED, ids=["3-pro", "2.5-call", "2.5"])
def test_function_calling_counts_as_recorded_bills_and_stays_an_estimate(model, body, billed):
    """Declarations, calls and responses written as Gemma 4's chat template writes them, with
    the departures the bills show (tests/standin/test_corpus.py checks every recorded one)."""
    from standin.wire_count import count_body

    counted = count_body(body, "gemini", model)
    assert counted.total == billed
    assert counted.label.startswith("estimate; on ") and "recorded requests" in counted.label


def test_a_thought_signature_is_named_as_unseen_with_its_bound():
    """A streamed request is billed the previous reply's thinking, which no count sees."""
    from standin.explained import explained
    from standin.wire_count import count_body

    signature = "CtAC" + "x" * 448
    counted = count_body(_weather_call(signature), "gemini", "gemini-2.5-flash")
    bound, why = counted.uncertain["messages[1].content[0]"]
    assert bound == math.ceil(gemini.PER_SIGNATURE_CHARACTER * 452) == 91
    assert why.startswith(gemini.THINKING) and "not seen" in why
    assert f"messages[1].content[0] ±91 ({why})" in explained(counted)
    assert not counted.label.startswith("estimate; on ")  # not the measured spread's
    stand_in = count_body(_weather_call(gemini.DUMMY), "gemini", "gemini-2.5-flash")
    assert gemini.THINKING not in explained(stand_in)
