"""Token counting: the published-figures table, the breakdown, the incremental counter."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.messages import (
    Image,
    Message,
    Request,
    Text,
    Tool,
    assistant,
    system,
    tool,
    tool_call,
    tool_result,
    user,
)
from helpers.tokens import count, count_text, token_keys
from helpers.tokens.exactness import image_size, image_tokens
from helpers.tokens.namespace import render_namespace
from helpers.tokens.tokenizers import encode, special_id
from standin.explained import explained, table
from tests.support.published_counts import CASES, cookbook_recipe, to_request
from tests.support.strategies import conversations

# --- the published API figures --------------------------------------------------------------------


def _param(case):
    marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
    return pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_published_prompt_tokens(case):
    assert count(to_request(case.body, case.model)).total == case.api


def test_we_match_more_published_figures_than_the_cookbook_recipe():
    ours = sum(count(to_request(c.body, c.model)).total == c.api for c in CASES)
    cookbook = sum(cookbook_recipe(c) == c.api for c in CASES)
    assert ours == 69 and cookbook == 34  # of 83; update the report if this changes


def test_every_xfail_has_a_reason_and_every_source_is_known():
    assert {c.source for c in CASES} == {"cookbook", "hmarr", "pamelafox", "forestwanglin", "forum"}
    assert len({c.id for c in CASES}) == len(CASES)


# --- the rendering model, piece by piece ----------------------------------------------------------

WEATHER = Tool(
    "get_current_weather",
    "Get the current weather in a given location",
    {
        "type": "object",
        "properties": {
            "location": {"type": "string", "description": "The city and state"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        },
        "required": ["location"],
    },
)


def test_namespace_text_for_one_tool():
    text, starts = render_namespace([(WEATHER.name, WEATHER.description, WEATHER.parameters)])
    assert text == (
        "namespace functions {\n\n"
        "// Get the current weather in a given location\n"
        "type get_current_weather = (_: {\n"
        "// The city and state\n"
        "location: string,\n"
        'unit?: "celsius" | "fahrenheit",\n'
        "}) => any;\n\n"
        "} // namespace functions"
    )
    assert starts == [len("namespace functions {\n\n")]


def test_namespace_handles_missing_description_nested_objects_arrays_and_type_lists():
    params = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string"}},
            "any_list": {"type": "array"},
            "maybe": {"type": ["string", "null"]},
            "where": {"type": "object", "properties": {"city": {"type": "string"}}},
            "free": {"type": "object"},
            "odd": {"$ref": "#/x"},
        },
    }
    text, _ = render_namespace([("f", "", params), ("g", "", None)])
    assert "// " not in text.split("{", 1)[1].split("type g")[0]  # no description comments
    assert text.split("\n")[2] == (  # nothing described: one line (2024+ figures and bills)
        "type f = (_: { tags?: string[], any_list?: any[], maybe?: string | null, "
        "where?: { city?: string }, free?: object, odd?: any }) => any;"
    )
    assert "type g = () => any;" in text
    params["properties"]["tags"]["description"] = "Labels"  # one described: a line each
    text, _ = render_namespace([("f", "", params)])
    assert "// Labels\ntags?: string[],\nany_list?: any[],\n" in text
    assert "where?: { city?: string },\n" in text  # a nested object's own properties decide


def test_an_undescribed_object_on_one_line_matches_recorded_bills():
    """Recorded billed ``prompt_tokens`` (pydantic-ai's public VCR cassettes, MIT): tools whose
    properties have no description. The requests below are ours, in the recorded requests'
    shape (same messages and tools, strict schemas); their texts and names are our own words
    with the same token counts as the recorded ones, so the bill applies. The recorded bodies
    themselves are checked by ``make bench`` with ``ON_THE_WIRE_CORPUS`` (exact == bill)."""

    def tool(name: str, field: str) -> Tool:
        schema = {"properties": {field: {"type": "string"}}, "required": [field]}
        return Tool(name, "", {"additionalProperties": False, **schema, "type": "object"})

    cases = [
        # tests/cassettes/test_temporal/test_temporal_agent_with_model_retry.yaml,
        # interaction 0, commit c47e7073123b1a44840511e5e2b07c2c24dadb27
        ("gpt-4o", [user("Is it raining in Lima today?")], [tool("get_rain", "town")], 45),
        # tests/models/cassettes/test_openai/test_run_stream_sync_streams_real_model.yaml,
        # interaction 0, commit de90fcbe272f0e428260aa08c5e22b9b0ecab696
        (
            "gpt-4o-mini",
            [user("Which city is Peru's capital? Use the tool, then give it.")],
            [tool("find_capital", "nation")],
            53,
        ),
        # tests/cassettes/test_dbos/test_dbos_agent_with_hitl_tool.yaml, interaction 0,
        # commit f077d56ce09d88b03c046985161230fad796aa0d
        (
            "gpt-4o",
            [
                system("Call the tools without asking for approval."),
                user("Remove the file `.cache` and make `notes.md`"),
            ],
            [tool("make_file", "where"), tool("remove_file", "where")],
            71,
        ),
    ]
    for model, messages, tools, billed in cases:
        counted = count(Request(model, messages, tools))
        assert counted.total == billed and counted.label == "exact", tools[0].name
    assert (
        "type get_rain = (_: { town: string }) => any;"
        in render_namespace([("get_rain", "", cases[0][2][0].parameters)])[0]
    )


def test_priming_depends_on_tools_and_tool_choice():
    base = Request("gpt-4o", [user("hi")], [WEATHER])
    auto, auto_notes = count(base).part("priming"), count(base).notes  # the row's note, if any
    base.tool_choice = "none"
    none = count(base).part("priming")
    base.tool_choice = {"name": "get_current_weather"}
    forced = count(base).part("priming")
    no_tools = count(Request("gpt-4o", [user("hi")])).part("priming")
    assert (no_tools, auto, none) == (3, 2, 3)
    # <|start|>assistant + " to=functions.get_current_weather" + " " + <|constrain|>json<|message|>
    assert forced == 2 + len(encode("o200k_base", " to=functions.get_current_weather")) + 4
    base.tool_choice = "required"  # primed as "auto": recorded bills (test below)
    assert count(base).part("priming") == auto and count(base).notes == auto_notes


def test_a_tool_call_and_its_result_are_rendered_with_the_function_name():
    request = Request(
        "gpt-4o",
        [
            user("Where is SO-1?"),
            assistant(tool_call("c1", "get_order", {"order_id": "SO-1"})),
            tool(tool_result("c1", "shipped")),
        ],
    )
    counted = count(request)
    o200k = "o200k_base"
    call = (
        len(encode(o200k, " to=functions.get_order"))
        + 3  # " <|constrain|>json" on o200k models (recorded bills), then <|message|>
        + 1
        + len(encode(o200k, '{"order_id":"SO-1"}'))
    )
    assert counted.part("messages[1].content[0]") == call
    on_gpt4 = count(request, "gpt-4")  # the cl100k-era form: published gpt-4 figure
    assert on_gpt4.part("messages[1].content[0]") == len(
        encode("cl100k_base", " to=functions.get_order")
    ) + 1 + len(encode("cl100k_base", '{"order_id":"SO-1"}'))
    result_framing = 3 + len(encode(o200k, "get_order"))
    assert counted.part("messages[2]") == result_framing + len(encode(o200k, "shipped"))


def test_lossy_blocks_are_reported_not_silently_dropped():
    from helpers.messages import Reasoning

    request = Request(
        "gpt-4o",
        [
            user("hi"),
            assistant(Reasoning("thinking"), tool_call("c1", "f", {})),
            tool(tool_result("c1", [Text("x"), Image("image/png", "AAAA")], is_error=True)),
            user("ok"),
        ],
    )
    notes = " ".join(count(request).notes)
    assert "reasoning" in notes and "text only" in notes and "is_error" in notes


def test_framing_tokens_are_special_and_text_that_looks_special_is_not():
    assert special_id("o200k_base", "<|start|>") == 200006
    assert special_id("cl100k_base", "<|start|>") == 100264
    assert 200007 not in encode("o200k_base", "<|end|>")


# --- text, one message, tools ------------------------------------------------------------------


def test_count_text_message_and_tools():
    assert count_text("Hello, world!", "gpt-4o") == 4
    assert count_text("Hello, world!", "gpt-4") == 4
    one = count(Request("gpt-3.5-turbo", [user("Hello, how are you?")]))
    assert one.total - one.part("priming") == 13 - 3  # one message: framing and text
    alone = count(Request("gpt-4o", [Message("user", [])], [WEATHER])).part("tools")
    with_system = count(Request("gpt-4o", [system("Be brief."), user("hi")], [WEATHER]))
    assert alone == with_system.part("tools") + 4  # alone, it needs a system message of its own


# --- the breakdown always adds up ----------------------------------------------------------------

MODELS = ["gpt-4o-mini", "gpt-4", "claude-sonnet-4-5", "gemini-2.5-flash"]


@settings(max_examples=60, deadline=None)
@given(conversations(), st.sampled_from(MODELS))
def test_breakdown_sums_to_the_total(request, model):
    counted = count(request, model)
    top = [r for r in counted.rows if r.level == 0]
    assert sum(r.tokens for r in top) == counted.total == sum(p.n for p in counted.pieces)
    for row in top:
        inner = [r for r in counted.rows if r.level == 1 and r.part.startswith(row.part)]
        if inner:
            assert sum(r.tokens for r in inner) == row.tokens
    keys, parts = token_keys(counted)
    assert len(keys) == len(parts) == counted.total


@settings(max_examples=20, deadline=None)
@given(conversations(reasoning=False))
def test_harmony_breakdown_sums_to_the_total(request):
    counted = count(request, "gpt-oss-120b")
    assert sum(r.tokens for r in counted.rows if r.level == 0) == counted.total


def _clear_caches():
    from helpers.tokens.tokenizers import encode

    encode.cache_clear()


def test_text_that_looks_like_a_special_token_is_counted_as_plain_text():
    request = Request("gpt-4o", [user("say <|end|> then <|endoftext|>"), assistant("ok")])
    assert count(request).total == count(
        Request("gpt-4o", [user("say x then y"), assistant("ok")])
    ).total + (
        count_text("say <|end|> then <|endoftext|>", "gpt-4o")
        - count_text("say x then y", "gpt-4o")
    )


@settings(max_examples=60, deadline=None)
@given(conversations(max_turns=6), st.sampled_from(MODELS))
def test_counting_every_turn_with_warm_caches_equals_counting_from_scratch(request, model):
    """Counting each turn of a growing request (encodes memoised) gives the cold totals."""
    prefixes = [
        Request(request.model, request.messages[:end], request.tools)
        for end in range(1, len(request.messages) + 1)
    ]
    warm = [count(p, model).total for p in prefixes]
    cold = []
    for prefix in prefixes:
        _clear_caches()
        cold.append(count(prefix, model).total)
    assert warm == cold


def test_a_long_system_text_merges_with_the_tools_header_like_one_string():
    """Tokens are attributed by offset: the system text and tools add up to the whole string."""
    request = Request("gpt-4o", [system("Hello:"), user("Hi")], [WEATHER])
    counted = count(request)
    from helpers.tokens.openai_chat import HEADER

    namespace, _ = render_namespace([(WEATHER.name, WEATHER.description, WEATHER.parameters)])
    whole = len(encode("o200k_base", "Hello:\n\n" + HEADER + namespace))
    assert counted.part("messages[0].content[0]") + counted.part("tools") == whole


# --- estimates -----------------------------------------------------------------------------------


def test_anthropic_is_a_labelled_estimate_with_the_documented_tool_prompt():
    request = Request("claude-sonnet-4-5", [system("Be brief."), user("hi")], [WEATHER])
    auto = count(request)
    assert auto.estimate and "proxy" in auto.method and "o200k_base" in auto.method
    request.tool_choice = {"type": "any"}
    forced = count(request)
    assert forced.total - auto.total == 588 - 496  # claude-sonnet-4-5, data/models.json
    request.tools = []
    assert count(request).part("tools") == 0


def test_gemini_is_a_labelled_estimate():
    counted = count(Request("gemini-2.5-flash", [user("hi")], [WEATHER]))
    assert counted.estimate and "Gemini" in counted.method


def test_unverified_openai_models_are_flagged_and_dated_snapshots_are_noted():
    assert count(Request("gpt-5", [user("hi")])).estimate
    assert not count(Request("gpt-4o-mini", [user("hi")])).estimate
    snapshot = count(Request("gpt-4o-2024-08-06", [user("hi")]))
    assert snapshot.model == "gpt-4o" and "prefix" in snapshot.notes[0]


# --- images --------------------------------------------------------------------------------------


def test_image_sizes_from_headers():
    import base64
    import struct

    gif = base64.b64encode(b"GIF89a" + struct.pack("<HH", 640, 480) + b"\0" * 8).decode()
    jpeg_bytes = b"\xff\xd8\xff\xc0\x00\x11\x08" + struct.pack(">HH", 300, 200) + b"\0" * 12
    jpeg = base64.b64encode(jpeg_bytes).decode()
    vp8x = (
        b"RIFF\0\0\0\0WEBPVP8X"
        + b"\0" * 8
        + (799).to_bytes(3, "little")
        + (599).to_bytes(3, "little")
    )
    assert image_size(gif) == (640, 480)
    assert image_size(jpeg) == (200, 300)
    assert image_size(base64.b64encode(vp8x).decode()) == (800, 600)
    assert image_size("bm90IGFuIGltYWdl") is None


def test_image_rules():
    import base64
    import struct

    png = base64.b64encode(
        b"\x89PNG\r\n\x1a\n" + b"\0\0\0\rIHDR" + struct.pack(">II", 1024, 1024)
    ).decode()
    tiles = {"method": "tiles", "base_tokens": 85, "tile_tokens": 170}
    assert image_tokens(Image("image/png", png), tiles).tokens == 85 + 170 * 4  # 768x768
    patches = {"method": "patches", "patch_px": 32, "max_patches": 1536, "multiplier": 1.0}
    assert image_tokens(Image("image/png", png), patches).tokens == 1024
    area = {"method": "anthropic-area", "pixels_per_token": 750, "max_tokens": 1600}
    assert image_tokens(Image("image/png", png), area).tokens == 1399
    by_url = image_tokens(Image("image/png", url="https://example.com/x.png"), tiles)
    assert not by_url.exact and "unknown" in by_url.how


def test_count_shows_a_table():
    counted = count(Request("gpt-4o-mini", [system("Be brief."), user("hi")], [WEATHER]))
    assert "tools[0]" in table(counted) and "get_current_weather" in table(counted)


def test_messages_without_content_still_count_their_framing():
    assert count(Request("gpt-4o", [Message("user", [])])).total == 3 + 1 + 3


# --- live mode, against a loopback server that checks the request shape ------------------------


@pytest.fixture
def loopback():
    """A stdlib HTTP server on 127.0.0.1 that records requests and answers like each provider."""
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    seen: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append({"path": self.path, "headers": dict(self.headers), "body": body})
            if self.path.endswith(":countTokens"):
                answer = {"totalTokens": 321}
            elif self.path == "/v1/messages/count_tokens":
                answer = {"input_tokens": 123}
            elif self.path == "/v1/responses/input_tokens":
                answer = {"object": "response.input_tokens", "input_tokens": 222}
            else:
                self.send_response(404)
                self.end_headers()
                return
            data = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen
    server.shutdown()
    server.server_close()


def _live(request, model, url):
    from helpers.models import model_info
    from standin.count_live import count_live

    return count_live(request, model_info(model), base_url=url, api_key="test-key-not-real")


def test_live_anthropic_count_tokens_request_shape(loopback):
    url, seen = loopback
    request = Request("claude-sonnet-4-5", [system("Be brief."), user("Hi")], [WEATHER])
    counted = _live(request, "claude-sonnet-4-5", url)
    assert counted.total == 123 and not counted.estimate and "live" in counted.method
    call = seen[0]
    assert call["path"] == "/v1/messages/count_tokens"
    assert call["headers"]["x-api-key"] == "test-key-not-real"
    assert call["headers"]["anthropic-version"] == "2023-06-01"
    assert call["body"]["model"] == "claude-sonnet-4-5" and "max_tokens" not in call["body"]
    assert call["body"]["system"] and call["body"]["tools"][0]["name"] == "get_current_weather"
    assert "test-key" not in repr(counted)


def test_live_gemini_and_openai_request_shapes(loopback):
    url, seen = loopback
    request = Request("gemini-2.5-flash", [user("Hi")], [WEATHER])
    assert _live(request, "gemini-2.5-flash", url).total == 321
    gemini = seen[-1]
    assert gemini["path"] == "/v1beta/models/gemini-2.5-flash:countTokens"
    assert gemini["headers"]["x-goog-api-key"] == "test-key-not-real"
    assert gemini["body"]["generateContentRequest"]["model"] == "models/gemini-2.5-flash"
    assert gemini["body"]["generateContentRequest"]["contents"]
    assert _live(Request("gpt-4o", [user("Hi")]), "gpt-4o", url).total == 222
    openai = seen[-1]
    assert openai["path"] == "/v1/responses/input_tokens"
    assert openai["headers"]["authorization"] == "Bearer test-key-not-real"
    assert openai["body"]["model"] == "gpt-4o" and openai["body"]["input"]


def test_live_errors_are_one_line_without_the_key(loopback, monkeypatch):
    from helpers.models import model_info
    from standin.count_live import LiveCountError, count_live

    url, _ = loopback
    info = model_info("claude-sonnet-4-5")
    with pytest.raises(LiveCountError, match="HTTP 404") as err:
        count_live(Request("x", [user("Hi")]), info, base_url=url + "/nowhere", api_key="sk-secret")
    assert "sk-secret" not in str(err.value) and "\n" not in str(err.value)
    assert f"{url}/nowhere/v1/messages/count_tokens" in str(err.value)


def test_count_goes_live_only_when_asked(loopback, monkeypatch):
    from standin.count_live import LiveCountError, count_live

    url, seen = loopback
    request = Request("claude-sonnet-4-5", [user("Hi")])
    monkeypatch.setenv("ANTHROPIC_BASE_URL", url)  # never the real host
    monkeypatch.setenv("ON_THE_WIRE_LIVE", "1")
    with pytest.raises(LiveCountError, match="^live count needs ANTHROPIC_API_KEY"):
        count_live(request)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-secret")
    assert count(request).estimate and seen == []  # live mode on, but count() was not asked
    counted = count_live(request)
    assert counted.total == 123 and counted.notes[-1].startswith("offline: ")
    assert [call["path"] for call in seen] == ["/v1/messages/count_tokens"]


def test_split_at_gives_every_token_to_the_span_it_starts_in():
    from helpers.tokens.tokenizers import encode, split_at

    text = "alpha beta\n\ngamma delta"
    groups = split_at("o200k_base", text, [0, 12])
    assert groups[0] == () and sum(len(g) for g in groups) == len(encode("o200k_base", text))
    assert groups[2] == encode("o200k_base", text)[-len(groups[2]) :]
    with pytest.raises(ValueError, match="in order"):
        split_at("o200k_base", text, [12, 0])


# --- honest labels: "exact" only where a published figure verifies model and feature ---------

LEGACY = "legacy function_call param"  # not expressible as a neutral request
ERA_2023 = "2023 functions-era figure"  # the rendering changed since (INLINE_2023)
CURRENT = [c for c in CASES if LEGACY not in c.xfail and ERA_2023 not in c.xfail]


@pytest.mark.parametrize("case", CURRENT, ids=lambda c: c.id)
def test_a_count_labelled_exact_matches_its_figure_and_an_estimate_is_within_its_bound(case):
    counted = count(to_request(case.body, case.model))
    if not counted.estimate:
        assert counted.total == case.api and counted.uncertain == {}
    else:
        assert counted.uncertain and counted.error is not None
        assert abs(counted.total - case.api) <= counted.error


def test_estimates_name_the_part_and_the_bound():
    from helpers.examples import DATA
    from helpers.messages import load_file

    crash = load_file(DATA / "crash_triage" / "request.json")
    counted = count(crash, "gpt-4o-mini")
    parallel = [p for p, (_, why) in counted.uncertain.items() if "parallel" in why]
    assert counted.estimate and parallel and counted.error > 0
    assert f"estimate ±{counted.error}" in table(counted)
    assert "estimated: " + parallel[0] in table(counted)
    schema = {  # the published cookbook tool: every property described
        "type": "object",
        "properties": {
            "location": {"type": "string", "description": "The city and state"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Unit"},
        },
        "required": ["location"],
    }
    weather = Tool(WEATHER.name, WEATHER.description, schema)
    plain = Request("gpt-4o-mini", [system("Be brief."), user("Weather in Paris?")], [weather])
    assert not count(plain).estimate and count(plain).error == 0  # a verified shape: exact

    dated = count(Request("gpt-4o-2024-08-06", [user("hi")]))
    assert dated.estimate and dated.error is None and "prefix" in dated.uncertain["model"][1]
    assert "error unknown" in table(dated)

    url = Request("gpt-4o", [Message("user", [Image("image/png", None, "https://x/y.png")])])
    image = count(url).uncertain["messages[0].content[0]"]
    assert image[0] > 0 and "size unknown" in image[1]


def test_pydantic_schema_keywords_the_namespace_drops_are_an_estimate_bounded_by_their_text():
    pydantic_like = {
        "$defs": {"Item": {"properties": {"sku": {"title": "Sku", "type": "string"}}}},
        "properties": {
            "items": {"items": {"$ref": "#/$defs/Item"}, "title": "Items", "type": "array"},
            "note": {"default": "", "title": "Note", "type": "string"},
        },
        "required": ["items"],
        "title": "Order",
        "type": "object",
    }
    counted = count(Request("gpt-4o", [user("hi")], [Tool("order", "Place one.", pydantic_like)]))
    bound, why = counted.uncertain["tools[0]"]
    assert "unrendered $defs" in why and "unrendered title" in why and bound > 20


# --- the measured spread of the Claude and Gemini estimates -------------------------------------


def test_the_committed_spread_is_what_its_requests_give_and_each_has_a_public_source():
    """data/estimate_spread.json: the summary is recomputed from the listed requests, and
    every request names the public repository, file and commit its bill was read from."""
    import re

    from benchmarks.estimate_spread import RULES, spread
    from helpers.tokens.estimate import measured

    data = measured()
    requests = data["requests"]
    rows = [r | {"sees_everything": True} for r in requests]
    assert spread(rows) == data["spread"] and set(data["spread"]) == set(RULES)
    for r in requests:
        assert r["source"] in data["licences"], r
        assert re.fullmatch(r"[0-9a-f]{40}", r["commit"]) and r["path"].endswith(".yaml"), r
        assert r["counted"] > 0 and r["billed"] > 0 and isinstance(r["interaction"], int)
        assert "work" not in r["path"].split("/")[0]  # a path inside the repository
    assert len({(r["path"], r["interaction"], r["source"]) for r in requests}) > 0.6 * len(rows)


def test_claude_and_gemini_estimates_print_their_measured_spread():
    from helpers.tokens.estimate import measured

    for model, rule in [
        ("claude-sonnet-4-6", "anthropic-estimate"),
        ("gemini-3.8-flash", "gemini-estimate"),  # 2.5 is counted with Gemma 3 (issue 34)
    ]:
        s = measured()["spread"][rule]
        sizes = [r["counted"] for r in measured()["requests"] if r["rule"] == rule]
        names = {r["counted_as"] for r in measured()["requests"] if r["rule"] == rule}
        other = "" if model in names else " to other models"
        counted = count(Request(model, [user("hi")]))
        expected = (
            f"estimate; on {s['requests']} recorded requests{other} ({min(sizes):,}-{max(sizes):,} "
            f"tokens) the bill was {s['low']:.2f}-{s['high']:.2f}x this count "
            f"(median {s['median']:.2f})"
        )
        assert counted.label == expected and expected in table(counted)
    other = count(Request("claude-opus-4-1", [user("hi")])).label
    assert "recorded requests to other models" in other
    assert count(Request("gpt-4o", [user("hi")])).label == "exact"  # OpenAI keeps its own labels


def test_what_the_count_cannot_see_makes_a_claude_or_gemini_count_error_unknown():
    """Server tools, extended thinking, files and URL images of unknown size: measured on
    recorded bills to cost from 2x to 400x what the offline count sees (so no spread applies)."""
    from standin.wire_count import count_body

    hello = [{"role": "user", "content": "What's new?"}]
    plain = count_body(
        {"model": "claude-sonnet-4-6", "max_tokens": 9, "messages": hello}, "anthropic"
    )
    assert plain.label.startswith("estimate; on ")
    for extra in (
        {"tools": [{"type": "web_search_20250305", "name": "web_search"}]},
        {"thinking": {"type": "enabled", "budget_tokens": 1024}},
        {"mcp_servers": [{"type": "url", "url": "https://example.com/sse", "name": "x"}]},
    ):
        body = {"model": "claude-sonnet-4-6", "max_tokens": 9, "messages": hello, **extra}
        counted = count_body(body, "anthropic")
        assert counted.label == "estimate, error unknown", extra
    off = {"model": "claude-sonnet-4-6", "max_tokens": 9, "messages": hello}
    assert count_body(off | {"thinking": {"type": "disabled"}}, "anthropic").label == plain.label
    url = {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.png"}}
    image = count_body({**off, "messages": [{"role": "user", "content": [url]}]}, "anthropic")
    assert image.uncertain["messages[0].content[0]"][1] == "image size unknown"
    contents = [{"role": "user", "parts": [{"text": "What's new?"}]}]
    assert count_body({"contents": contents}, "gemini", "gemini-3.8-flash").label.startswith(
        "estimate; on "
    )
    for body in (
        {"contents": contents, "tools": [{"googleSearch": {}}]},
        {"contents": [{"role": "user", "parts": [{"fileData": {"fileUri": "gs://a/b.mp4"}}]}]},
        {"contents": contents, "generationConfig": {"responseSchema": {"type": "STRING"}}},
    ):
        assert count_body(body, "gemini", "gemini-3.8-flash").label == "estimate, error unknown"


def test_a_responses_count_is_exact_only_for_what_its_recorded_bills_verify():
    """Recorded Responses bills (Mirascope's and pydantic-ai's public cassettes, gpt-4o and
    gpt-4o-mini): plain text conversations bill what Chat bills, so those counts are exact; one
    function tool billed 36 through Responses against 75 through Chat for the same request
    (Mirascope ``call_with_tools``), so Responses tools are an estimate of unknown error, and so
    are what the neutral request drops (text.format schema, empty instructions, files, items)."""
    from standin.wire_count import count_body

    hello = [{"role": "developer", "content": "Be brief."}, {"role": "user", "content": "Hi!"}]
    plain = {"model": "gpt-4o", "input": hello}
    chat = {"model": "gpt-4o", "messages": [{**hello[0], "role": "system"}, hello[1]]}
    assert count_body(plain, "openai-responses").label == "exact"
    assert count_body(plain, "openai-responses").total == count_body(chat, "openai-chat").total
    tool = {"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}}}
    schema = {"type": "json_schema", "name": "A", "schema": {"type": "object"}}
    file = {"type": "input_file", "file_url": "https://example.com/a.pdf"}
    for extra, part in (
        ({"tools": [tool]}, "tools[0]"),
        ({"tools": [{"type": "web_search"}]}, "tools[0]"),
        ({"text": {"format": schema}}, "text.format"),
        ({"instructions": ""}, "instructions"),
        ({"input": [{"role": "user", "content": [file]}]}, "input[0].content[0]"),
        ({"input": [*hello, {"type": "compaction", "encrypted_content": "gAAA"}]}, "input[2]"),
        ({"previous_response_id": "resp_1"}, "previous_response_id"),
    ):
        counted = count_body({**plain, **extra}, "openai-responses")
        assert counted.label == "estimate, error unknown" and part in counted.uncertain, extra
    assert count_body({**plain, "instructions": "Be kind."}, "openai-responses").label == "exact"
    prefixed = count_body({**plain, "model": "gpt-4-0613"}, "openai-responses")
    assert prefixed.label == "estimate, error unknown"  # two reasons on one part: both kept
    assert "matched by prefix" in prefixed.uncertain["model"][1]
    older = count_body({**plain, "model": "gpt-4"}, "openai-responses")  # recorded: 1 fewer
    assert (
        older.label == "estimate ±1"
        and count_body({**chat, "model": "gpt-4"}, "openai-chat").label == "exact"
    )


def test_the_local_provider_labels_a_responses_tool_count_an_estimate():
    from helpers.examples import sundry
    from helpers.loop import run
    from standin import LocalProvider

    with LocalProvider("sundry") as p:
        trace = run(
            sundry.opening("gpt-4o-mini"),
            sundry.run_tool,
            format="openai-responses",
            base_url=p.url,
        )
    assert all("Responses bills tool definitions" in step.count_label for step in trace.steps)
    assert all(step.count_label.startswith("estimate, error unknown") for step in trace.steps)


# --- request fields beyond messages and tools, pinned (or bounded) by recorded bills ------------

PYDANTIC_AI_OPENAI = "pydantic/pydantic-ai tests/models/cassettes/test_openai/"
PYDANTIC_AI_COMMIT = "111dda9bcd3bb8542d24be815343c17ca133e4e8"


def _words(n: int, end: str = "") -> str:
    """Our own filler text of exactly ``n`` tokens (o200k), standing in for a recorded text."""
    text = "x" + " x" * (n - 1 - bool(end)) + end
    assert count_text(text, "gpt-4o") == n
    return text


def _pydantic_tool(name: str, description: str, fields: list[str]) -> dict:
    schema = {"additionalProperties": False, "properties": {f: {"type": "string"} for f in fields}}
    schema |= {"required": fields} if fields else {}
    function = {"description": description, "name": name, "parameters": schema | {"type": "object"}}
    return {"type": "function", "function": function | ({"strict": True} if fields else {})}


COUNTRY = _pydantic_tool("get_user_country", "", [])


def test_tool_choice_required_is_primed_like_auto_as_billed():
    """test_openai_tool_output.yaml interaction 0 (PYDANTIC_AI_OPENAI, PYDANTIC_AI_COMMIT):
    gpt-4o billed 68 input tokens for this shape (our filler in place of the recorded texts)."""
    from standin.wire_count import count_body

    final = _pydantic_tool("final_result", _words(7), ["city", "country"])
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": _words(10)}]}
    body |= {"tools": [COUNTRY, final], "tool_choice": "required"}
    counted = count_body(body, "openai-chat")
    assert counted.total == 68 and counted.label == "exact"
    assert counted.total == count_body(body | {"tool_choice": "auto"}, "openai-chat").total


def test_response_format_json_object_adds_nothing_and_a_json_schema_is_a_bounded_estimate():
    """test_openai_prompted_output.yaml interaction 0: gpt-4o billed 116 with
    ``response_format: json_object``; test_openai_native_output.yaml interaction 0: billed 79
    with a ``json_schema`` (PYDANTIC_AI_OPENAI, PYDANTIC_AI_COMMIT; our filler texts)."""
    from standin.wire_count import count_body

    question = {"role": "user", "content": _words(10)}
    prompted = {"model": "gpt-4o", "tools": [COUNTRY], "tool_choice": "auto"}
    prompted |= {"messages": [{"role": "system", "content": _words(74, ".\n")}, question]}
    prompted |= {"response_format": {"type": "json_object"}}
    counted = count_body(prompted, "openai-chat")
    assert counted.total == 116 and counted.label == "exact"

    schema = {"additionalProperties": False, "properties": {"city": {"type": "string"}}}
    schema["properties"]["country"] = {"type": "string"}
    spec = {"description": _words(6), "name": "CityLocation", "strict": True}
    spec["schema"] = schema | {"required": ["city", "country"], "type": "object"}
    native = {"model": "gpt-4o", "tools": [COUNTRY], "tool_choice": "auto", "messages": [question]}
    native["response_format"] = {"type": "json_schema", "json_schema": spec}
    counted = count_body(native, "openai-chat")
    bound, why = counted.uncertain["response_format"]
    assert counted.label == f"estimate ±{bound}" and "json_schema" in why
    assert counted.total < 79 <= counted.total + bound  # the schema's cost is not counted


def test_legacy_functions_are_counted_as_tools_and_labelled_an_estimate():
    """hmarr's 2023 figures were measured with ``functions`` / ``function_call``
    (tests/support/published_counts.py): ``function foo, forced`` billed 3 fewer than forced
    tools."""
    from standin.wire_count import count_body

    foo = {"name": "foo", "parameters": {"type": "object", "properties": {}}}
    hello = [{"role": "user", "content": "hello"}]
    legacy = {"model": "gpt-3.5-turbo", "messages": hello, "functions": [foo]}
    tools = {"model": "gpt-3.5-turbo", "messages": hello}
    tools["tools"] = [{"type": "function", "function": foo}]
    assert count_body(legacy, "openai-chat").total == count_body(tools, "openai-chat").total == 31
    forced = count_body(legacy | {"function_call": {"name": "foo"}}, "openai-chat")
    assert forced.label == "estimate ±3" and "legacy functions" in forced.uncertain["functions"][1]
    published = next(c for c in CASES if c.id == "hmarr:function foo, forced:gpt-3.5-turbo")
    assert abs(forced.total - published.api) <= 3


def test_a_property_title_is_its_comment_as_billed():
    """Mirascope python/tests/e2e/output/cassettes/test_call_with_tools/openai_gpt_4o/async.yaml
    interaction 0 @ 5af8e5ff83ec90b5ec9e89de45a50762ca395b2a: gpt-4o billed 75 input tokens
    for a tool whose only property has a pydantic ``title`` and no description (our filler
    in place of the recorded texts; the property's name and title kept: they are the shape)."""
    from standin.wire_count import count_body

    schema = {"properties": {"password": {"title": "Password", "type": "string"}}}
    schema |= {"required": ["password"], "additionalProperties": False, "type": "object"}
    function = {
        "name": "secret_retrieval_tool",
        "description": _words(11, "."),
        "parameters": schema,
    }
    body = {"model": "gpt-4o", "tools": [{"type": "function", "function": function}]}
    body["messages"] = [
        {"role": "system", "content": _words(5, ".")},
        {"role": "user", "content": _words(16)},
    ]
    counted = count_body(body, "openai-chat")
    assert counted.total == 75 and counted.label == "exact"
    text, _ = render_namespace([(function["name"], "", schema)])
    assert "(_: {\n// Password\npassword: string,\n})" in text


def test_an_estimate_explains_itself_part_by_part():
    from helpers.tokens import Count

    def made(uncertain, estimate=True):
        counted = Count("gpt-4o", 100, [])  # no request kept: how sure it is, given here
        counted.estimate, counted.method, counted.uncertain = estimate, "rule", uncertain
        return counted

    assert explained(made({}, estimate=False)) == "exact"
    two_calls = "2 parallel calls: their rendering is a community guess, unverified"
    grouped = made(
        {"messages[2]": (12, two_calls), "tools[5]": (98, "nested"), "messages[4]": (12, two_calls)}
    )
    assert explained(grouped) == (
        f"estimate ±122 tokens: messages[2] ±12, messages[4] ±12 ({two_calls}); "
        "tools[5] ±98 (nested)"
    )
    unknown = made({"messages[1]": (None, "image by URL"), "tools[0]": (3, "anyOf")})
    assert explained(unknown) == (
        "estimate, error unknown: messages[1] (image by URL); tools[0] ±3 (anyOf)"
    )


def test_a_schema_type_that_is_not_a_string_renders_as_any():
    schema = {"type": "object", "properties": {"a": {"type": {"not": "a name"}}}}
    text, _ = render_namespace([("f", "", schema)])
    assert "type f = (_: { a?: any }) => any;" in text


def test_a_model_without_a_public_tokenizer_says_o200k_base_is_a_proxy():
    from helpers.examples import sundry

    counted = count(sundry.opening("gpt-6-luna"), "gpt-6-luna")
    assert "None" not in counted.method
    assert "o200k_base as a proxy" in counted.method and "not public" in counted.method
