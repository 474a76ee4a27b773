"""standin.provider.state: the stand-in keeps Responses state as OpenAI does, and
``verdict`` checks a continuation against the stored chain (or says what it cannot know)."""

from __future__ import annotations

import json

from helpers.examples import sundry
from helpers.formats import parse, render
from helpers.tokens import count
from standin.provider import routes, state
from standin.provider.scenarios import resolve
from standin.verdict import verdict
from tests.support.provider_support import model

FMT = "openai-responses"
MODEL = model(FMT)


def _post(body: dict) -> tuple[int, dict]:
    route = routes.find_route("/v1/responses")
    headers = {"authorization": "Bearer sk-local-test", "content-type": "application/json"}
    response = routes.answer(route, headers, json.dumps(body).encode(), resolve("sundry"))
    return response.status, json.loads(response.body)


def _opening() -> tuple[dict, dict]:
    request = sundry.opening(MODEL)
    body = render(request, FMT).body
    status, first = _post(body)
    assert status == 200
    return body, first


def _continuation(first: dict, **extra) -> dict:
    call = next(item for item in first["output"] if item["type"] == "function_call")
    output = {"type": "function_call_output", "call_id": call["call_id"], "output": "[]"}
    return {"model": MODEL, "previous_response_id": first["id"], "input": [output], **extra}


def test_previous_response_id_resolves_the_stored_chain_and_bills_all_of_it():
    body, first = _opening()
    # tools and instructions are not carried over: a continuation sends them again
    follow = _continuation(first, tools=body["tools"], instructions=body["instructions"])
    status, second = _post(follow)
    assert status == 200, second
    chain = state.RESPONSES[first["id"]]
    whole = {**follow, "input": chain + follow["input"]}
    del whole["previous_response_id"]
    expected = count(parse(whole, FMT), MODEL).total
    assert second["usage"]["input_tokens"] == expected  # the whole chain, billed as input
    assert expected > first["usage"]["input_tokens"]
    assert second["id"] in state.RESPONSES  # stored in turn: a chain can go on


def test_an_unknown_or_unstored_response_is_not_found():
    status, error = _post({"model": MODEL, "previous_response_id": "resp_nope", "input": "hi"})
    assert status == 400
    assert error["error"]["message"] == "Previous response with id 'resp_nope' not found."
    assert error["error"]["code"] == "previous_response_not_found"
    body, _ = _opening()
    status, unstored = _post({**body, "store": False})
    assert status == 200 and unstored["id"] not in state.RESPONSES
    status, error = _post(_continuation(unstored))
    assert status == 400 and unstored["id"] in error["error"]["message"]


def test_a_conversation_is_created_first_then_grows_with_each_response():
    body, _ = _opening()
    status, error = _post({**body, "conversation": "conv_never_made"})
    assert status == 404 and "conv_never_made" in error["error"]["message"]
    route = routes.find_route("/v1/conversations")
    headers = {"authorization": "Bearer sk-local-test", "content-type": "application/json"}
    made = json.loads(routes.answer(route, headers, b"{}", resolve("sundry")).body)
    status, first = _post({**body, "conversation": made["id"]})
    assert status == 200
    grown = state.CONVERSATIONS[made["id"]]
    assert grown[-len(first["output"]) :] == first["output"]


def test_check_says_what_it_cannot_know_and_checks_against_a_given_chain():
    body, first = _opening()
    follow = _continuation(first)
    alone = verdict(follow, FMT)
    assert alone.accepted  # the call may be in the stored chain: a warning, not an error
    assert [v.rule for v in alone.violations] == ["result-without-call"]
    assert "check cannot see" in alone.violations[0].message
    chain = state.RESPONSES[first["id"]]
    assert verdict(follow, FMT, chain=chain).violations == []
    wrong = {**follow, "input": [{**follow["input"][0], "call_id": "call_other"}]}
    result = verdict(wrong, FMT, chain=chain)
    assert not result.accepted
    found = {v.rule: v for v in result.violations.errors}
    assert found["result-without-call"].where == "input[0]"  # the body's own input
    assert found["result-without-call"].provider_error == (
        "No tool call found for function call output with call_id call_other."
    )
    assert found["call-not-answered"].where.startswith("chain[")  # the stored call, unanswered
