"""The build exercises of lessons 00-03 (issue 33): each refuses plausible wrong code, naming
the hidden case it fails and why, and accepts right code written in more than one way.

00.1 ``message_tokens`` is judged with the real tokenizers; 01.1 ``next_body`` against a real
stand-in on loopback (the provider refuses what OpenAI refuses); 01.2 (optional)
``header_changes`` on hidden header lists, its key hidden, and on two requests that stand-in
recorded (the two-faults prediction's explanation read from two real responses); 02.1
``role_of`` on hidden Chat and Anthropic bodies, 03.1 ``handle_reply`` on
hidden Chat and Anthropic replies. The predictions' explanations are computed from the data,
never typed in."""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path

import pytest

from course import exercises
from course.exercises import content_is_a_list as ex03
from course.exercises import four_roles as ex02
from course.exercises import one_request as ex01
from course.exercises import start_here as ex00
from standin import LOCAL_KEY, LocalProvider

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def fresh_hints():
    exercises.reset()
    yield
    exercises.reset()


# ---- 00.1: message_tokens(messages, model) -------------------------------------------------------


def _tokens(text: str, name: str) -> list[int]:  # name: an encoding's, or a model's
    import tiktoken

    if name in tiktoken.list_encoding_names():
        return tiktoken.get_encoding(name).encode(text)
    try:
        return tiktoken.encoding_for_model(name).encode(text)
    except KeyError:  # no public tokenizer: the series' estimate
        return tiktoken.get_encoding("o200k_base").encode(text)


def _by_sum(messages, encoding_name):  # the reference's way: a sum over the messages' texts
    def text_of(content):
        if isinstance(content, list):
            return "".join(p["text"] for p in content if p["type"] == "text")
        return content or ""

    return sum(len(_tokens(text_of(m["content"]), encoding_name)) for m in messages)


def _by_loop(messages, encoding_name):  # another right way: a loop, each text part on its own
    total = 0
    for message in messages:
        content = message.get("content")
        if content is None:
            continue
        parts = content if isinstance(content, list) else [{"type": "text", "text": content}]
        for part in parts:
            if part.get("type") == "text":
                total += len(_tokens(part["text"], encoding_name))
    return total


def test_00_1_two_right_counters_pass():
    for right in (_by_sum, _by_loop):
        verdict = ex00.check_message_tokens(right)
        assert verdict and "All 6 hidden cases passed" in verdict.message, verdict.message


@pytest.mark.parametrize(
    ("wrong", "case", "why"),
    [
        (  # all the texts joined, then counted once: the joins merge into other tokens
            lambda ms, n: len(_tokens("\n".join(m["content"] or "" for m in ms), n)),
            "case 3 of 6 (a Go stack trace spread over three messages, for gpt-4.1-mini)",
            "joined into one",
        ),
        (  # the lesson's encoding whatever the argument says
            lambda ms, n: sum(len(_tokens(m["content"] or "", "o200k_base")) for m in ms),
            "case 2 of 6 (order numbers and prices, and an assistant message that only calls a "
            "tool, for gpt-4)",
            "the count in o200k_base",
        ),
        (  # a message with no text crashes it
            lambda ms, n: sum(len(_tokens(m["content"], n)) for m in ms),
            "case 2 of 6 (order numbers and prices, and an assistant message that only calls",
            "raised TypeError",
        ),
        (  # words, not tokens
            lambda ms, n: sum(len((m["content"] or "").split()) for m in ms),
            "case 1 of 6 (a French conversation",
            "the number of words",
        ),
        (  # only string contents counted: the message in parts is skipped
            lambda ms, n: sum(
                len(_tokens(m["content"], n)) for m in ms if isinstance(m["content"], str)
            ),
            "case 5 of 6 (a photo sent with two text parts, for gpt-5.6)",
            "it counts nothing for the message whose content is a list of parts",
        ),
        (  # the parts counted as JSON: the image's address and the keys are billed too
            lambda ms, n: sum(
                len(_tokens(c if isinstance(c, str) else json.dumps(c), n))
                for c in (m["content"] for m in ms)
                if c
            ),
            "case 5 of 6",
            "a part that is not text",
        ),
    ],
)
def test_00_1_plausible_wrong_counters_are_refused_naming_the_case(wrong, case, why):
    told = ex00.check_message_tokens(wrong)
    assert not told and case in told.message and why in told.message, told.message


def _by_parts(messages, encoding):  # walk a4's right answer, each text part on its own
    return sum(
        len(_tokens(part["text"], encoding))
        for m in messages
        for part in (
            m["content"] if isinstance(m["content"], list) else [{"text": m["content"] or ""}]
        )
        if "text" in part
    )


def _by_table(messages, model):  # a hand-written table: gpt-4o starts like gpt-4
    import tiktoken

    name = "cl100k_base" if model.startswith(("gpt-4", "gpt-3.5")) else "o200k_base"
    return _by_parts(messages, tiktoken.get_encoding(name).name)


def _by_tiktoken_alone(messages, model):  # tiktoken's table, no answer for a model it lacks
    import tiktoken

    return _by_parts(messages, tiktoken.encoding_for_model(model).name)


def _estimated_in_cl100k(messages, model):  # the wrong estimate for gpt-6-luna
    import tiktoken

    try:
        name = tiktoken.encoding_for_model(model).name
    except KeyError:
        name = "cl100k_base"
    return _by_parts(messages, name)


@pytest.mark.parametrize(
    ("wrong", "case", "why"),
    [
        (  # walk a4's right answer of the old task: the second argument read as an encoding
            lambda ms, model: _by_parts(ms, __import__("tiktoken").get_encoding(model).name),
            "case 1 of 6 (a French conversation, for gpt-4o)",
            "raised ValueError",
        ),
        (
            _by_table,
            "case 1 of 6 (a French conversation, for gpt-4o)",
            "the count in cl100k_base, not in the encoding gpt-4o reads",
        ),
        (
            _by_tiktoken_alone,
            "case 4 of 6 (Japanese, and an empty message, for gpt-6-luna (its tokenizer is not",
            "raised KeyError",
        ),
        (
            _estimated_in_cl100k,
            "case 4 of 6 (Japanese, and an empty message, for gpt-6-luna",
            "gpt-6-luna's tokenizer is not public, and the lesson says which encoding",
        ),
    ],
)
def test_00_1_the_model_decides_the_encoding(wrong, case, why):
    told = ex00.check_message_tokens(wrong)
    assert not told and case in told.message and why in told.message, told.message
    assert ex00.check_message_tokens(lambda ms, model: _by_parts(ms, model))  # by the model: right


def test_00_1_the_french_sentence_is_shown_before_the_guess():
    cells = json.loads((ROOT / "notebooks" / "00_start_here.ipynb").read_text())["cells"]
    guess = next(
        i for i, c in enumerate(cells) if "more tokens in cl100k_base" in "".join(c["source"])
    )
    assert any(
        ex00.POLICY_FR in "".join(c["source"])
        for c in cells[:guess]
        if c["cell_type"] == "markdown"
    )


# ---- 01.1: next_body(body, reply, run) -------------------------------------------------------


@pytest.fixture(scope="module")
def provider():
    with LocalProvider(scenario="sundry") as p:
        yield p


def _said(run, name, arguments) -> str:  # a failed tool answered in words (case 4)
    try:
        return run(name, arguments)
    except Exception as err:
        return repr(err)


def _answers(message: dict, run, parse=json.loads) -> list[dict]:
    return [
        {
            "role": "tool",
            "tool_call_id": call["id"],
            "content": _said(run, call["function"]["name"], parse(call["function"]["arguments"])),
        }
        for call in message.get("tool_calls") or []
    ]


def _spread(body, reply, run):  # the reference's way: a new dict around a new list
    message = reply["choices"][0]["message"]
    return {**body, "messages": [*body["messages"], message, *_answers(message, run)]}


def _deep_copy(body, reply, run):  # another right way: copy everything, then append
    new = copy.deepcopy(body)
    message = reply["choices"][0]["message"]
    new["messages"].append(message)
    new["messages"].extend(_answers(message, run))
    return new


def test_01_1_two_right_ways_pass_against_the_stand_in(provider):
    for right in (_spread, _deep_copy):
        verdict = ex01.check_next_body(right, provider)
        assert verdict, verdict.message
        assert "All 4 hidden cases passed" in verdict.message


def test_01_1_appending_to_the_callers_body_is_refused(provider):
    def in_place(body, reply, run):
        message = reply["choices"][0]["message"]
        body["messages"] += [message, *_answers(message, run)]
        return body

    told = ex01.check_next_body(in_place, provider)
    assert not told and "case 1 of 4 (one call, with narration)" in told.message
    assert "changed the body it was given" in told.message


def test_01_1_answering_only_the_first_call_is_refused_on_the_parallel_case(provider):
    def first_only(body, reply, run):
        message = reply["choices"][0]["message"]
        return {**body, "messages": [*body["messages"], message, *_answers(message, run)[:1]]}

    told = ex01.check_next_body(first_only, provider)
    assert not told and "case 2 of 4 (two calls at once and content null)" in told.message
    assert "the provider refused it (400)" in told.message and "call_Hq41" in told.message


def test_01_1_arguments_passed_as_the_wire_string_are_refused(provider):
    def unparsed(body, reply, run):
        message = reply["choices"][0]["message"]
        answers = _answers(message, run, parse=lambda text: text)
        return {**body, "messages": [*body["messages"], message, *answers]}

    told = ex01.check_next_body(unparsed, provider)
    assert not told and "received its arguments as a str" in told.message


def test_01_1_sending_only_the_new_messages_is_refused(provider):
    def only_new(body, reply, run):
        message = reply["choices"][0]["message"]
        return {**body, "messages": [body["messages"][0], message, *_answers(message, run)]}

    told = ex01.check_next_body(only_new, provider)
    assert not told and "does not start with the 2 messages sent before" in told.message


def test_01_1_a_rebuilt_assistant_message_the_api_accepts_passes(provider):
    def rebuilt(keep_null: bool):
        def next_body(body, reply, run):
            a = reply["choices"][0]["message"]  # refusal and annotations: the response's own
            content = a.get("content") if keep_null else (a.get("content") or "")
            message = {"role": "assistant", "content": content, "tool_calls": a["tool_calls"]}
            return {**body, "messages": [*body["messages"], message, *_answers(a, run)]}

        return next_body

    for keep_null in (True, False):
        verdict = ex01.check_next_body(rebuilt(keep_null), provider)
        assert verdict, verdict.message

    def silent(body, reply, run):  # the narration dropped: the model would not read it again
        a = reply["choices"][0]["message"]
        message = {"role": "assistant", "content": None, "tool_calls": a["tool_calls"]}
        return {**body, "messages": [*body["messages"], message, *_answers(a, run)]}

    told = ex01.check_next_body(silent, provider)
    assert not told and "case 1 of 4" in told.message and "not its text" in told.message


# ---- 01.2 (optional): header_changes(first, second), fit for a log ---------------------------

_KEY_HEADERS = {"authorization", "x-api-key", "x-goog-api-key"}


def _by_dicts(first, second):  # the reference's way
    before = {k.lower(): v for k, v in first}
    after = {k.lower(): v for k, v in second}

    def logged(name, value):
        return "<redacted>" if name in _KEY_HEADERS and value is not None else value

    return {
        k: (logged(k, before.get(k)), logged(k, after.get(k)))
        for k in before | after
        if before.get(k) != after.get(k)
    }


def _by_scan(first, second):  # another right way: names case-folded, a key's last 4 kept
    def value(headers, name):
        return next((v for k, v in headers if k.casefold() == name), None)

    def logged(name, found):
        return "..." + found[-4:] if found is not None and name in _KEY_HEADERS else found

    names = dict.fromkeys(k.casefold() for k, _ in [*first, *second])
    return {
        name: (logged(name, value(first, name)), logged(name, value(second, name)))
        for name in names
        if value(first, name) != value(second, name)
    }


def _unredacted(first, second):  # the diff alone: the key shows in the log
    before = {k.lower(): v for k, v in first}
    after = {k.lower(): v for k, v in second}
    return {
        k: (before.get(k), after.get(k)) for k in before | after if before.get(k) != after.get(k)
    }


@pytest.fixture(scope="module")
def two_requests(provider):
    """Two requests a real stand-in recorded, the second body longer: the lesson's situation."""
    import httpx

    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Where is it?"}]}
    for extra in ([], [{"role": "user", "content": "SO-48213, please."}]):
        httpx.post(
            f"{provider.url}/v1/chat/completions",
            headers={"authorization": f"Bearer {LOCAL_KEY}"},
            json={**body, "messages": body["messages"] + extra},
        )
    return provider.recorder[-2], provider.recorder[-1]


def test_01_2_two_right_ways_pass_and_name_the_body_derived_header(two_requests):
    for right in (_by_dicts, _by_scan):
        verdict = ex01.check_header_changes(right, *two_requests)
        assert verdict and "All 7 hidden cases passed" in verdict.message, verdict.message
        assert "content-length" in verdict.message and "computed from the body" in verdict.message
        assert LOCAL_KEY not in verdict.message


def test_01_2_no_dangling_colon_when_the_two_requests_differ_in_no_header(two_requests):
    # walk a7's finding 5: one recorded request passed as both, so no header differs
    verdict = ex01.check_header_changes(_by_dicts, two_requests[0], two_requests[0])
    assert verdict and "All 7 hidden cases passed" in verdict.message, verdict.message
    assert ":." not in verdict.message and "two requests:" not in verdict.message


def _lower(a):
    return {n.lower(): v for n, v in a}


@pytest.mark.parametrize(
    ("wrong", "case", "why"),
    [
        (  # the plain diff: a moved key shows in the log
            _unredacted,
            "case 4 of 7 (the key moved from OpenAI's header to Anthropic's)",
            "for 'authorization' your diff shows the key (or part of it) of the first request",
        ),
        (  # every header whose name holds "key" hidden: the retry's id is lost too
            lambda a, b: {
                k: tuple(
                    "***" if v is not None and ("key" in k or k == "authorization") else v
                    for v in pair
                )
                for k, pair in _unredacted(a, b).items()
            },
            "case 5 of 7 (a retry with a rotated key",
            "its name holds 'key', but it is a retry's id",
        ),
        (  # "<redacted>" even where a request has no such header
            lambda a, b: {
                k: tuple("<redacted>" if k in _KEY_HEADERS else v for v in pair)
                for k, pair in _unredacted(a, b).items()
            },
            "case 4 of 7",
            "a value for the second request, which has no such header",
        ),
        (  # line by line: another order reports headers that did not change
            lambda a, b: {x[0].lower(): (x[1], y[1]) for x, y in zip(a, b, strict=False) if x != y},
            "case 3 of 7 (a longer body, the headers in another order and letter case)",
            "which both requests send with the same value",
        ),
        (  # only the second request's headers looked at: a dropped header is missed
            lambda a, b: {
                k.lower(): (_lower(a).get(k.lower()), v)
                for k, v in b
                if _lower(a).get(k.lower()) != v
            },
            "case 4 of 7",
            "it misses 'authorization', which only one of the two requests carries",
        ),
    ],
)
def test_01_2_plausible_wrong_diffs_are_refused_naming_the_case(wrong, case, why, two_requests):
    told = ex01.check_header_changes(wrong, *two_requests)
    assert not told and case in told.message and why in told.message, told.message
    assert not any(k[4:12] in told.message for k in ex01._KEYS.values())  # no key is printed


def test_01_opt_the_two_faults_explanation_is_read_from_both_responses(provider):
    import httpx

    url = f"{provider.url}{ex01.CHAT_PATH}"
    call = {"id": "call_1", "type": "function", "function": {"name": "search_orders"}}
    call["function"]["arguments"] = '{"query": "SO-48213"}'
    broken = {
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "user", "content": "Where is SO-48213?"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
        ],
    }
    why = ex01.two_faults_why(httpx.post(url, json=broken), provider)
    assert why.startswith("Without the key: 401") and "the same body gets 400" in why
    assert "call_1" in why and "The stand-in checks the key before it reads the body" in why
    assert LOCAL_KEY not in why


# ---- 02.1: role_of(body, format, text) over openai-chat and anthropic ---------------------------
# walk a5: system_text (the old 02.1) was a lookup of four places and scored 3; role_of (the old
# optional 02.2, scored 4) is now the core build, over the two formats whose tool results differ.


def _role_by_dump(body, format, text):  # the reference's way: the text in any decoded string
    def holds(value):
        if isinstance(value, str) and value.startswith(("{", "[")):  # a string of JSON
            with contextlib.suppress(ValueError):
                value = json.loads(value)
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            return any(holds(v) for v in value)
        return isinstance(value, str) and text in value

    if format == "anthropic" and holds(body.get("system")):
        return "system"
    for message in body["messages"]:
        if not holds(message):
            continue
        blocks = message["content"] if isinstance(message["content"], list) else []
        if any(b.get("type") == "tool_result" and holds(b) for b in blocks):
            return "tool"
        return {"developer": "system"}.get(message["role"], message["role"])
    return None


def _strings(value):  # every string inside a value, at any depth
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _role_by_walk(body, format, text):  # another right way: a walk over the strings, per block
    def holds(value):
        return any(text in s for s in _strings(value))

    if holds(body.get("system")):
        return "system"
    for message in body["messages"]:
        role = {"developer": "system"}.get(message["role"], message["role"])
        calls = message.get("tool_calls") or []  # Chat: the arguments the model wrote, decoded
        if holds(calls) or holds([json.loads(c["function"]["arguments"]) for c in calls]):
            return role
        content = message.get("content")
        for block in content if isinstance(content, list) else [content]:
            if holds(block):
                return "tool" if isinstance(block, dict) and "tool_use_id" in block else role
    return None


def test_02_1_two_right_ways_pass():
    for right in (_role_by_dump, _role_by_walk):
        verdict = ex02.check_role_of(right)
        assert verdict and "All 14 hidden cases passed" in verdict.message, verdict.message


def test_02_1_each_case_holds_its_note_where_it_says():
    for name, body, format, note, role in ex02._role_cases():
        assert _role_by_dump(body, format, note) == role, name
        assert format in ("openai-chat", "anthropic")


def _role_by_json(body, format, text):  # walk a4's answer: the text looked for in JSON dumps
    s = lambda x: json.dumps(x, ensure_ascii=False)  # noqa: E731 (as the walker wrote it)
    if format == "anthropic" and text in s(body.get("system", "")):
        return "system"
    for item in body["messages"]:
        if text in s(item):
            parts = item.get("content")
            if isinstance(parts, list) and any(
                text in s(p) and p.get("type") == "tool_result" for p in parts
            ):
                return "tool"
            return {"developer": "system"}.get(item["role"], item["role"])
    return None


def test_02_1_the_text_searched_in_json_is_refused_on_a_note_with_a_quote():
    told = ex02.check_role_of(_role_by_json)  # walk a4's exact way, once accepted
    assert not told and "case 9 of 14 (an openai-chat body, a note with a quote" in told.message
    assert "gave None" in told.message and "not in their JSON" in told.message, told.message


def test_02_1_a_developer_message_is_read_as_system():  # walk a5's finding 1
    def cut_map(body, format, text):  # the reference's shape, the map cut to {"model": ...}
        role = _role_by_dump(body, format, text)
        for message in body["messages"] if role == "system" and format == "openai-chat" else []:
            if text in str(message["content"]):
                return {"model": "assistant"}.get(message["role"], message["role"])
        return role

    told = ex02.check_role_of(cut_map)
    assert not told and "case 4 of 14 (an openai-chat body, the note in a developer" in told.message
    assert "gave 'developer', Chat's newer name for the system role" in told.message


def test_02_1_a_text_beside_a_tool_result_is_the_users():  # walk a5's finding 2
    def any_result_makes_the_turn_a_tool(body, format, text):  # the walker's exact test, per turn
        for message in body["messages"] if format == "anthropic" else []:
            parts = message["content"] if isinstance(message["content"], list) else []
            if text in json.dumps(message) and any(
                p.get("type") == "tool_result" or "functionResponse" in p for p in parts
            ):
                return "tool"
        return _role_by_dump(body, format, text)

    told = ex02.check_role_of(any_result_makes_the_turn_a_tool)
    assert (
        not told
        and "case 5 of 14 (an anthropic body, the buyer quoting the note in the user turn"
        in told.message
    )
    assert "sits in a block beside it" in told.message, told.message


def test_02_1_a_call_of_the_model_is_the_assistants_not_a_tools():
    def calls_are_tools(body, format, text):
        for message in body["messages"]:
            if any(text in c["function"]["arguments"] for c in message.get("tool_calls") or []):
                return "tool"
        return _role_by_dump(body, format, text)

    told = ex02.check_role_of(calls_are_tools)
    assert (
        not told and "case 10 of 14 (an openai-chat body, the note inside the arg" in told.message
    )
    assert "arguments of a call the model made" in told.message, told.message


def test_02_1_the_role_of_the_turn_is_refused_for_a_tool_result_in_a_user_turn():
    def turn_role(body, format, text):  # the role of the message that holds it
        if format == "anthropic" and text in json.dumps(body.get("system")):
            return "system"
        return next(
            (
                {"developer": "system"}.get(m["role"], m["role"])
                for m in body["messages"]
                if text in json.dumps(m)
            ),
            None,
        )

    told = ex02.check_role_of(turn_role)
    assert (
        not told and "case 2 of 14 (an anthropic body, the note in a tool's result)" in told.message
    )
    assert "inside a tool's result" in told.message


def test_02_1_a_text_deep_in_a_block_is_looked_for():
    def one_level(body, format, text):  # the text looked for in strings, one level down
        if format == "anthropic" and text not in body.get("system", ""):
            for message in body["messages"]:
                for block in message["content"] if isinstance(message["content"], list) else []:
                    if text in str(block.get("text", "")) or text in str(
                        block.get("content") if isinstance(block.get("content"), str) else ""
                    ):
                        return "tool" if block["type"] == "tool_result" else message["role"]
            return None
        return _role_by_dump(body, format, text)

    told = ex02.check_role_of(one_level)
    assert not told and "case 11 of 14 (an anthropic body, the note in a tool's result given" in (
        told.message
    )
    assert "look inside every part, at any depth" in told.message


# ---- 03.1: handle_reply(body, format) ------------------------------------------------------------
# walk a5: the old 03.1 (Anthropic content only) copied the dispatch cell and 03.2 (calls_to_run)
# overlapped it; both are now one build over the raw bodies of two formats.


def _handle_by_match(body, format):  # the reference's way
    to_show, to_run = [], []
    if format == "openai-chat":
        message = body["choices"][0]["message"]
        if message["content"]:
            to_show.append(message["content"])
        if message.get("refusal"):  # the model's words to the buyer (walk a6, finding 5)
            to_show.append(message["refusal"])
        for call in message.get("tool_calls") or []:
            function = call["function"]
            to_run.append((function["name"], json.loads(function["arguments"]), call["id"]))
        return to_show, to_run
    for block in body["content"]:
        match block:
            case {"type": "text", "text": text}:
                to_show.append(text)
            case {"type": "tool_use", "name": name, "input": args, "id": id}:
                to_run.append((name, args, id))
    return to_show, to_run


def _handle_by_table(body, format):  # another right way: lists, a table, unknown types skipped
    shown, run = [], []
    if "choices" in body:
        message = body["choices"][0]["message"]
        shown += [t for t in (message.get("content"), message.get("refusal")) if t]
        for call in message.get("tool_calls") or ():
            f = call["function"]
            run.append([f["name"], json.loads(f["arguments"] or "{}"), call["id"]])
        return tuple(shown), tuple(run)
    handlers = {
        "text": lambda b: shown.append(b["text"]),
        "tool_use": lambda b: run.append([b["name"], dict(b["input"]), b["id"]]),
    }
    for block in body["content"]:
        handlers.get(block["type"], lambda b: None)(block)
    return tuple(shown), tuple(run)


def test_03_1_two_right_handlers_pass():
    for right in (_handle_by_match, _handle_by_table):
        verdict = ex03.check_reply_handler(right)
        assert verdict and "All 11 hidden cases passed" in verdict.message, verdict.message
        assert "whichever of the two providers answered" in verdict.message


def test_03_1_each_case_runs_exactly_the_calls_the_reply_holds():
    for name, body, format, show, run in ex03._HANDLED:
        assert _handle_by_match(body, format) == (show, run), name
    stops = {ex03._stop_of(body) for _, body, *_ in ex03._HANDLED}  # every stop reason, both ways
    assert {"finish_reason 'stop'", "stop_reason 'end_turn'"} <= stops


def _chat_handled(body, format, *, show=None, call=None, calls=None):
    """The reference with one part swapped: ``show(message)``, ``call(c)`` or ``calls(body)``."""
    if format != "openai-chat":
        return _handle_by_match(body, format)
    message = body["choices"][0]["message"]
    to_show = show(message) if show else _handle_by_match(body, format)[0]
    if calls:
        return to_show, calls(body)
    if call:
        return to_show, [call(c) for c in message.get("tool_calls") or []]
    return to_show, _handle_by_match(body, format)[1]


def _anthropic_handled(body, format, *, show=None, run=None):
    if format != "anthropic":
        return _handle_by_match(body, format)
    blocks = body["content"]
    to_show, to_run = _handle_by_match(body, format)
    return (show(blocks) if show else to_show), (run(body) if run else to_run)


def _args(c):
    return json.loads(c["function"]["arguments"])


@pytest.mark.parametrize(
    ("wrong", "case", "why"),
    [
        (  # a type that merely ends in tool_use: the server tool would run again
            lambda b, f: _anthropic_handled(
                b,
                f,
                run=lambda body: [
                    (x["name"], x["input"], x["id"])
                    for x in body["content"]
                    if x["type"].endswith("tool_use")
                ],
            ),
            "case 5 of 11 (an anthropic reply: a server tool Anthropic already ran",
            "Anthropic already ran that one",
        ),
        (  # the first call only, as a loop that stops at the first tool_use
            lambda b, f: _anthropic_handled(
                b, f, run=lambda body: _handle_by_match(body, "anthropic")[1][:1]
            ),
            "case 1 of 11 (an anthropic reply: reasoning, narration and two parallel calls)",
            "it runs 1 of the reply's 2 call(s)",
        ),
        (  # everything that is not a call is shown: the reasoning, and the unknown block
            lambda b, f: _anthropic_handled(
                b,
                f,
                show=lambda c: [x.get("text", x.get("thinking")) for x in c if "id" not in x],
            ),
            "case 1 of 11",
            "the buyer would read the model's reasoning",
        ),
        (  # every other block read as text: the server tool's blocks (no "text") break it
            lambda b, f: _anthropic_handled(
                b,
                f,
                show=lambda c: [x["text"] for x in c if x["type"] not in ("tool_use", "thinking")],
            ),
            "case 5 of 11 (an anthropic reply: a server tool Anthropic already ran",
            "raised KeyError",
        ),
        (  # Chat's content shown as it comes: None beside a call
            lambda b, f: _chat_handled(b, f, show=lambda m: [m["content"]]),
            "case 3 of 11 (an openai-chat reply: one call and content null",
            "to_show holds None",
        ),
        (  # walk a5's finding 4: the texts joined into one string, '' when there is none
            lambda b, f: _chat_handled(b, f, show=lambda m: [m["content"] or ""]),
            "case 3 of 11",
            "to_show holds an empty string: a reply with no text shows nothing ([])",
        ),
        (  # the arguments handed on as the wire's string
            lambda b, f: _chat_handled(
                b, f, call=lambda c: (c["function"]["name"], c["function"]["arguments"], c["id"])
            ),
            "case 2 of 11 (an openai-chat reply: narration and two parallel calls",
            "the wire's JSON string",
        ),
        (  # the id left out: the result could not go back under it
            lambda b, f: _chat_handled(b, f, call=lambda c: (c["function"]["name"], _args(c))),
            "case 2 of 11",
            "each call should be (name, arguments, id)",
        ),
        (  # the triple in another order
            lambda b, f: _chat_handled(
                b, f, call=lambda c: (c["id"], c["function"]["name"], _args(c))
            ),
            "case 2 of 11",
            "the right name, arguments and id in another order",
        ),
        (  # Chat's calls trusted only under finish_reason 'tool_calls'
            lambda b, f: _chat_handled(
                b,
                f,
                calls=lambda body: (
                    _handle_by_match(body, "openai-chat")[1]
                    if body["choices"][0]["finish_reason"] == "tool_calls"
                    else []
                ),
            ),
            "case 6 of 11 (an openai-chat reply: a call under finish_reason 'stop'",
            "it runs nothing, but this reply holds 1 call(s) under finish_reason 'stop': the "
            "calls decide",
        ),
        (  # Anthropic's calls trusted only under stop_reason 'tool_use'
            lambda b, f: _anthropic_handled(
                b,
                f,
                run=lambda body: (
                    _handle_by_match(body, "anthropic")[1]
                    if body["stop_reason"] == "tool_use"
                    else []
                ),
            ),
            "case 8 of 11 (an anthropic reply: stop_reason 'end_turn' beside a call",
            "under stop_reason 'end_turn'",
        ),
        (  # the stop reason trusted to mean the calls are there
            lambda b, f: _chat_handled(
                b,
                f,
                calls=lambda body: (
                    [
                        (c["function"]["name"], _args(c), c["id"])
                        for c in body["choices"][0]["message"]["tool_calls"]
                    ]
                    if body["choices"][0]["finish_reason"] == "tool_calls"
                    else _handle_by_match(body, "openai-chat")[1]
                ),
            ),
            "case 9 of 11 (an openai-chat reply: finish_reason 'tool_calls' but tool_calls null)",
            "raised TypeError",
        ),
        (  # parallel calls sorted by name, not kept in the reply's order
            lambda b, f: (
                _handle_by_match(b, f)[0],
                sorted(_handle_by_match(b, f)[1], key=lambda c: c[0]),
            ),
            "case 1 of 11",
            "the right calls, in another order than the reply's",
        ),
    ],
)
def test_03_1_plausible_wrong_handlers_are_refused_naming_the_case(wrong, case, why):
    told = ex03.check_reply_handler(wrong)
    assert not told and case in told.message and why in told.message, told.message


@pytest.mark.parametrize(
    "shape",
    [
        lambda b: b["input"],  # walk a5's finding 3: the inputs alone
        lambda b: {"name": b["name"], "input": b["input"]},  # a dict without the id
        lambda b: b,  # the raw block, the old exercise's answer
    ],
)
def test_03_1_calls_in_another_shape_are_told_the_shape_not_a_count(shape):
    told = ex03.check_reply_handler(
        lambda b, f: _anthropic_handled(
            b, f, run=lambda body: [shape(x) for x in body["content"] if x["type"] == "tool_use"]
        )
    )
    assert not told and "case 1 of 11" in told.message, told.message
    assert "each call should be (name, arguments, id)" in told.message, told.message
    assert "call(s) where the reply holds" not in told.message


def test_03_1_a_tool_stop_reason_over_no_call_runs_nothing():
    def by_stop_reason(body, format):  # walk a4's "calls, or a tool stop reason"
        to_show, to_run = _handle_by_match(body, format)
        stop = (
            body["choices"][0]["finish_reason"] if format == "openai-chat" else body["stop_reason"]
        )
        waits = stop in ("tool_calls", "tool_use")
        return to_show, to_run or ([("?", {}, "?")] if waits else [])

    told = ex03.check_reply_handler(by_stop_reason)
    assert not told and "case 9 of 11" in told.message, told.message
    assert "this reply holds none (whatever its finish_reason says" in told.message


# ---- predictions: explained from the data ------------------------------------------------------


def test_the_predictions_explanations_are_computed_from_the_data():
    from helpers.formats import render_for
    from helpers.messages import load_file
    from helpers.tokens.harmony import render_harmony

    crash = load_file(ROOT / "data" / "crash_triage" / "request.json")
    kinds = [i.get("type", "message") for i in render_for(crash, "openai-responses").body["input"]]
    why = ex03.responses_items_why(crash)
    assert f"{kinds.count('function_call')} function_call items" in why
    assert f"{kinds.count('message')} message items" in why
    shorter = copy.deepcopy(crash)
    shorter.messages = shorter.messages[:4]  # one round trip fewer: the explanation follows
    assert f"{len(shorter.messages)} neutral messages" in ex03.responses_items_why(shorter)

    from helpers.examples import sundry
    from helpers.models import default_model

    ticket = sundry.ticket(default_model("anthropic"))
    pieces = render_harmony(ticket).pieces
    markers = sum(p.startswith("<|") and p.endswith("|>") for p in pieces)
    assert ex02.markers_why(ticket).startswith(f"{markers} of its {len(pieces)} tokens")


def test_01_the_tokens_reveal_reads_the_lessons_two_requests_after_run_all(monkeypatch, capsys):
    """Rehearsal: after Run All the recorder's last entries are the optional part's 401 and the
    checks' own requests; re-running the reveal must still show request 1 and request 2."""
    cells = json.loads((ROOT / "notebooks" / "01_one_request.ipynb").read_text())["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    reveal_cell = next(s for s in code if "request 1" in s and "prompt tokens" in s)
    monkeypatch.chdir(ROOT / "notebooks")  # the lesson reads ../data
    namespace: dict = {}
    try:
        for source in code:
            if source.strip() != "provider.stop()":
                exec(compile(source, "<01>", "exec"), namespace)  # Run All, solutions in
        sent = namespace["provider"].recorder.exchanges
        assert any(e.status == 401 for e in sent[2:])  # the optional part came after them
        capsys.readouterr()
        exec(compile(reveal_cell, "<01 reveal>", "exec"), namespace)  # no KeyError: 'usage'
        table = capsys.readouterr().out
    finally:
        if "provider" in namespace:
            namespace["provider"].stop()
    first, second = sent[0], sent[1]  # the two requests the lesson's core sent, in order
    for name, ex in (("request 1", first), ("request 2", second)):
        row = f"{len(ex.request_json['messages']):8} {len(ex.request_bytes):10}"
        assert f"{name:10} {row} {ex.response_json['usage']['prompt_tokens']:13}" in table, table


# ---- second walk (fix-00-03b): the cases the walk found missing --------------------------------


def test_01_1_tool_messages_in_any_order_pass_but_each_must_carry_its_calls_output(provider):
    def reversed_answers(body, reply, run):  # OpenAI pairs results by tool_call_id
        message = reply["choices"][0]["message"]
        answers = list(reversed(_answers(message, run)))
        return {**body, "messages": [*body["messages"], message, *answers]}

    verdict = ex01.check_next_body(reversed_answers, provider)
    assert verdict and "All 4 hidden cases passed" in verdict.message, verdict.message

    def swapped_outputs(body, reply, run):  # ids in the calls' order, outputs the other way
        message = reply["choices"][0]["message"]
        answers = _answers(message, run)
        outputs = [a["content"] for a in reversed(answers)]
        for answer, output in zip(answers, outputs, strict=True):
            answer["content"] = output
        return {**body, "messages": [*body["messages"], message, *answers]}

    told = ex01.check_next_body(swapped_outputs, provider)
    assert not told and "case 2 of 4 (two calls at once and content null)" in told.message
    assert "each with its call's id and that tool's output" in told.message


def test_the_learner_index_opens_the_learner_copies(tmp_path):
    import sys

    sys.path.insert(0, str(ROOT / "scripts"))
    import make_student

    lessons, student = tmp_path / "notebooks", tmp_path / "student"
    lessons.mkdir()
    nb = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (lessons / "00_a.ipynb").write_text(json.dumps(nb))
    (lessons / "README.md").write_text("| 00 | [A](00_a.ipynb) |\n")
    assert make_student.write(student, lessons, quiet=True) == []
    index = (student / "README.md").read_text()
    assert index.startswith("*Your copy of the lesson index") and "[A](00_a.ipynb)" in index
    assert "README.md" in make_student.read_record(student)
    assert make_student.check(student, lessons) == []
    (student / "README.md").write_text(index + "my notes\n")  # a learner's edit is kept
    assert make_student.write(student, lessons, quiet=True) == ["README.md"]
    assert (student / "README.md").read_text().endswith("my notes\n")


def test_lesson_00_links_the_index_beside_it_and_lists_every_lesson():
    lesson = (ROOT / "notebooks" / "00_start_here.ipynb").read_text(encoding="utf-8")
    assert "[lesson index](README.md)" in lesson and "../notebooks/README.md" not in lesson
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))[1:]:
        assert f"]({path.name})" in lesson, path.name


# ---- sixth walk (fix-00-03f): 01.1 asks what cell 11 does not show; 02.1 and 03 fixes -----------


def _walk_a6_next_body(body, reply, run):  # the walk's answer: cell 11's code in a loop
    new = copy.deepcopy(body)
    message = reply["choices"][0]["message"]
    new["messages"].append(message)
    for call in message["tool_calls"]:
        output = run(call["function"]["name"], json.loads(call["function"]["arguments"]))
        new["messages"].append({"role": "tool", "tool_call_id": call["id"], "content": output})
    return new


def test_01_1_a_tool_error_let_out_is_refused_on_the_failing_case(provider):
    told = ex01.check_next_body(_walk_a6_next_body, provider)
    assert not told and "case 4 of 4" in told.message
    assert "run_tests failed (TimeoutError" in told.message
    assert "let the error out" in told.message


def test_01_1_a_failed_call_skipped_or_answered_without_its_error_is_refused(provider):
    def skipped(body, reply, run):  # caught, but the call left without its answer
        message = reply["choices"][0]["message"]
        messages = [*body["messages"], message]
        for call in message["tool_calls"]:
            try:
                output = run(call["function"]["name"], json.loads(call["function"]["arguments"]))
            except TimeoutError:
                continue
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": output})
        return {**body, "messages": messages}

    told = ex01.check_next_body(skipped, provider)
    assert not told and "case 4 of 4" in told.message
    assert "the provider refused it (400)" in told.message and "call_Hq41" in told.message

    def vague(body, reply, run):  # answered, but the model is not told what went wrong
        message = reply["choices"][0]["message"]
        messages = [*body["messages"], message]
        for call in message["tool_calls"]:
            try:
                output = run(call["function"]["name"], json.loads(call["function"]["arguments"]))
            except TimeoutError:
                output = "the tool failed"
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": output})
        return {**body, "messages": messages}

    told = ex01.check_next_body(vague, provider)
    assert not told and "case 4 of 4" in told.message
    assert "does not say what went wrong" in told.message


def test_01_1_the_check_runs_its_own_provider_when_the_lessons_is_stopped():
    stopped = LocalProvider(scenario="sundry")  # as after Run All: cell 24 stopped it
    verdict = ex01.check_next_body(_spread, stopped)
    assert verdict and "All 4 hidden cases passed" in verdict.message, verdict.message
    assert not stopped.running


def _role_of_v(body, format, text):  # walk a6's answer (finding 1), as the walker wrote it
    if format == "anthropic":
        if isinstance(body.get("system"), str) and text in body["system"]:
            return "system"
        for m in body["messages"]:
            content = m["content"]
            if isinstance(content, str):
                if text in content:
                    return m["role"]
                continue
            for block in content:
                if block.get("type") == "tool_result" and text in str(block.get("content")):
                    return "tool"
                if block.get("type") == "text" and text in block["text"]:
                    return m["role"]
        return None
    for m in body["messages"]:
        if isinstance(m.get("content"), str) and text in m["content"]:
            return "system" if m["role"] == "developer" else m["role"]
    return None


def _role_of_a6(body, format, text):
    r = _role_of_v(body, format, text)
    if r is None and format == "openai-chat":
        for m in body["messages"]:
            if text in json.dumps(m.get("tool_calls") or [], ensure_ascii=False):
                return m["role"]
    return r


def test_02_1_a_system_or_a_chat_content_given_as_blocks_is_looked_into():  # walk a6, finding 1
    told = ex02.check_role_of(_role_of_a6)
    assert not told and "case 12 of 14 (an anthropic body, the note in a system prompt given" in (
        told.message
    )
    assert "gave None, but the body holds the text" in told.message

    def system_blocks_too(body, format, text):  # the system fixed, Chat's parts still missed
        system = body.get("system")
        if isinstance(system, list) and any(text in b.get("text", "") for b in system):
            return "system"
        return _role_of_a6(body, format, text)

    told = ex02.check_role_of(system_blocks_too)
    assert (
        not told
        and "case 13 of 14 (an openai-chat body, the buyer quoting the note in a user"
        in (told.message)
    )
    assert "gave None, but the body holds the text" in told.message


def test_03_1_a_refusal_is_shown_to_the_buyer():  # walk a6, finding 5
    def no_refusal(body, format):  # the handler before: content null shows nothing
        if format == "openai-chat":
            message = body["choices"][0]["message"]
            to_show = [message["content"]] if message["content"] else []
            return to_show, _handle_by_match(body, format)[1]
        return _handle_by_match(body, format)

    told = ex03.check_reply_handler(no_refusal)
    assert not told and "case 11 of 11 (an openai-chat reply: a refusal" in told.message
    assert "the model's words to the buyer are in refusal" in told.message


def test_02_1_a_note_in_a_calls_arguments_is_found_once_decoded():  # walk a7, finding 1
    def holds(v, t):  # the walker's exact code: a substring search that never decodes JSON
        if isinstance(v, str):
            return t in v
        if isinstance(v, dict):
            return any(holds(x, t) for x in v.values())
        if isinstance(v, list):
            return any(holds(x, t) for x in v)
        return False

    chat_role = {"system": "system", "developer": "system", "user": "user",
                 "assistant": "assistant", "tool": "tool", "function": "tool"}  # fmt: skip

    def substring(body, format, text):
        if format == "openai-chat":
            for m in body["messages"]:
                if holds({k: v for k, v in m.items() if k != "role"}, text):
                    return chat_role[m["role"]]
            return None
        if holds(body.get("system"), text):
            return "system"
        for m in body["messages"]:
            blocks = m["content"] if isinstance(m["content"], list) else [m["content"]]
            for b in blocks:
                if holds(b, text):
                    return (
                        "tool"
                        if isinstance(b, dict) and b.get("type") == "tool_result"
                        else (m["role"])
                    )
        return None

    told = ex02.check_role_of(substring)
    assert not told and "case 14 of 14 (an openai-chat body, a note with a quote and a line" in (
        told.message
    )
    assert "gave None, but the body holds the text in a string of JSON" in told.message
