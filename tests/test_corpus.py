"""Real request bodies recorded by public projects, against check, render and the local provider.

Every body in ``tests/corpus/bodies/<format>/`` was sent to the real provider (OpenAI Chat
Completions, OpenAI Responses, Anthropic Messages or Gemini generateContent) and the provider's
answer is recorded in ``tests/corpus/index.json``: 200 (accepted) or a 4xx with its error.
``tests/corpus/README.md`` names the sources. Three paths must agree with that verdict:

- ``python -m helpers check FILE`` with the format's profile: exit 0 for an accepted body, exit 1
  (a violation) for a refused one; exit 2 ("cannot read this") is wrong for both;
- ``parse`` then ``render`` in the same format: no error for an accepted body;
- the local provider: the body POSTed to that format's endpoint gets 200 if the real provider
  said 200, and a 4xx if it refused.

Where today's code disagrees, the case is listed in ``DISAGREEMENTS`` below (one table, one
reason per entry) and runs as a strict xfail: fixing the code makes it pass, which fails the
run until the entry is removed.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import httpx
import pytest

CORPUS = Path(__file__).parent / "corpus"
INDEX: list[dict] = json.loads((CORPUS / "index.json").read_text(encoding="utf-8"))
FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")
KEY = "sk-local-test-0123456789"

R1 = (
    "anthropic accepted (200) a replayed call to a tool missing from `tools`; check reports "
    "[unknown-tool] as a violation, issue 11 says warning"
)
R2 = (
    "unknown model: the local provider answers 404 for gemini-2.0-flash, which the real API "
    "served (200)"
)
R3 = (
    "unknown model: the local provider answers 404 for gemini-3-flash-preview, which the real API"
    " served (200)"
)
R4 = (
    "the local provider refuses a real Anthropic thinking `signature` it cannot verify (it "
    "verifies only its own); Anthropic accepted (200)"
)
R5 = (
    "the local provider refuses real Responses reasoning `encrypted_content` it cannot verify; "
    "OpenAI accepted (200)"
)
R6 = (
    "unknown model: the local provider answers 404 for claude-opus-4-8, which the real API served"
    " (200)"
)
R7 = (
    "unknown model: the local provider answers 404 for gemini-3-pro-preview, which the real API "
    "served (200)"
)
R8 = "unknown model: the local provider answers 404 for o3-mini, which the real API served (200)"
R9 = (
    "unknown model: the provider refused model 'this-model-does-not-exist-12345' (404); check has"
    " no list of models"
)
R10 = (
    "unknown model: the local provider answers 404 for gemini-1.5-flash, which the real API "
    "served (200)"
)
R11 = (
    "unknown model: the local provider answers 404 for claude-opus-4-6, which the real API served"
    " (200)"
)
R12 = (
    "gemini accepted (200) an empty text part; check reports [empty-content] as a violation, "
    "issue 11 says warning"
)
R13 = (
    "unknown model: the local provider answers 404 for claude-sonnet-5, which the real API served"
    " (200)"
)
R14 = "unknown model: the local provider answers 404 for gpt-5.4, which the real API served (200)"
R15 = "unknown model: the local provider answers 404 for gpt-5.2, which the real API served (200)"
R16 = "unknown model: the local provider answers 404 for gpt-5.5, which the real API served (200)"
R17 = "unknown model: the local provider answers 404 for gpt-5.6, which the real API served (200)"
R18 = (
    "Anthropic accepted (200) a role 'system' turn inside `messages` (a tool_addition block after"
    " a tool_result); check reports [system-not-first]"
)
R19 = "unknown model: the local provider answers 404 for o4-mini, which the real API served (200)"
R20 = (
    "unknown model: the local provider answers 404 for claude-opus-5, which the real API served "
    "(200)"
)
R21 = (
    "Responses continuation (previous_response_id) whose input is only a tool output; check "
    "reports [no-messages] without the stored chain (issue 11 item 5)"
)
R22 = (
    "unknown model: the local provider answers 404 for gpt-5.4-mini, which the real API served "
    "(200)"
)

# path ("check", "render", "provider") -> corpus id -> why today's code disagrees with the
# provider's recorded verdict. Remove an entry when the code is fixed (its strict xfail fails).
STATE_PREV = (
    "state: the previous response is stored at OpenAI, not in the local provider, which answers "
    "400 previous_response_not_found (the chain was never sent to it)"
)
STATE_CONV = (
    "state: the conversation was created at OpenAI (POST /v1/conversations); the local provider "
    "never made it and answers 404 (the chain lives at OpenAI, not here)"
)

DISAGREEMENTS: dict[str, dict[str, str]] = {
    "check": {
        "pyd-ant-container_setting_explicit_dict_form_live-1": (
            "Anthropic refused `container` given as an object ('container: Input should be a "
            "valid string'); field types outside the conversation are not checked"
        ),
        "pyd-resp-thinking_with_modified_history-1": (
            "OpenAI refused a reasoning item followed by an assistant message without the id of "
            "the item it produced ('provided without its required following item'); check pairs "
            "reasoning with the next item by position, not by id (issue 11 item 5)"
        ),
        "pyd-port-_R5-T3-native-search_-0": (
            "Responses continuation (`conversation`) whose input is only function_call_output "
            "items; check reports [result-without-call] without the stored chain (issue 11 item "
            "5)"
        ),
        "pyd-chat-web_search_tool_model_not_supported-0": (
            "model-specific: gpt-4o refuses `web_search_options`; no per-model parameter rules"
        ),
        "mira-in-call_with_params-openai_gpt_5_mini_completions-0": (
            "model-specific: gpt-5-mini refuses `stop` (unsupported_parameter); no per-model "
            "parameter rules"
        ),
        "mira-in-call_with_params-openai_gpt_5_mini-0": (
            "model-specific: gpt-5-mini refuses `temperature` (unsupported_parameter); no per-"
            "model parameter rules"
        ),
        "pyd-chat-o1_mini_system_role_developer_-0": (
            "model-specific: o1-mini refuses a developer message (messages[0].role); no per-model"
            " role rules"
        ),
        "pyd-chat-o1_mini_system_role_system_-0": (
            "model-specific: o1-mini refuses a system message (messages[0].role); no per-model "
            "role rules"
        ),
        "pyd-resp-model_http_error-0": (
            "parameter range: OpenAI refuses temperature -1 (decimal_below_min_value); sampling "
            "parameters are not checked"
        ),
        "pyd-resp-previous_response_id_auto_mode-0": (
            "state: OpenAI refused an unknown previous_response_id (previous_response_not_found);"
            " Responses state is not modelled (issue 11 item 5)"
        ),
        "mira-in-model_not_found-openai_gpt_4o_responses-0": (
            "unknown model: the provider refused model 'this-model-does-not-exist-12345' (400); "
            "check has no list of models"
        ),
        "mira-in-model_not_found-openai_gpt_4o_responses-1": (
            "unknown model: the provider refused model 'this-model-does-not-exist-12345' (400); "
            "check has no list of models"
        ),
        "mira-in-model_not_found-anthropic_beta_claude_sonnet_4_0-0": R9,
        "mira-in-model_not_found-anthropic_beta_claude_sonnet_4_0-1": R9,
        "mira-in-model_not_found-anthropic_claude_sonnet_4_0-0": R9,
        "mira-in-model_not_found-anthropic_claude_sonnet_4_0-1": R9,
        "mira-in-model_not_found-google_gemini_2_5_flash-0": R9,
        "mira-in-model_not_found-google_gemini_2_5_flash-1": R9,
        "mira-in-model_not_found-openai_gpt_4o_completions-0": R9,
        "mira-in-model_not_found-openai_gpt_4o_completions-1": R9,
    },
    "render": {},
    "provider": {
        "pyd-resp-conversation_id_auto_respects_pydantic_ai_conversation_id-1": STATE_CONV,
        "pyd-resp-conversation_id_explicit_and_auto-1": STATE_CONV,
        "pyd-resp-conversation_id_explicit_and_auto-2": STATE_CONV,
        "pyd-resp-conversation_id_preserves_mismatched_history-1": STATE_CONV,
        "pyd-resp-conversation_id_streaming_provider_details-1": STATE_CONV,
        "pyd-resp-conversation_id_tool_call_continuation-1": STATE_CONV,
        "pyd-resp-previous_response_id-1": STATE_PREV,
        "pyd-resp-compact_with_auto_previous_response_id_chain-1": STATE_PREV,
        "pyd-ant-container_setting_explicit_dict_form_live-1": (
            "Anthropic refused `container` given as an object ('container: Input should be a "
            "valid string'); field types outside the conversation are not checked"
        ),
        "pyd-resp-conversation_id_tool_call_continuation-2": (
            "Responses continuation (`conversation`) is not resolved by the local provider, so "
            "its function_call_output is an orphan (issue 11 item 5)"
        ),
        "mira-call_with_tools-openai_responses_gpt_4o-sync-1": (
            "Responses continuation (`previous_response_id`) is not resolved by the local "
            "provider, so its function_call_output is an orphan (issue 11 item 5)"
        ),
        "pyd-chat-web_search_tool_model_not_supported-0": (
            "model-specific: gpt-4o refuses `web_search_options`; no per-model parameter rules"
        ),
        "mira-in-call_with_params-openai_gpt_5_mini_completions-0": (
            "model-specific: gpt-5-mini refuses `stop` (unsupported_parameter); no per-model "
            "parameter rules"
        ),
        "mira-in-call_with_params-openai_gpt_5_mini-0": (
            "model-specific: gpt-5-mini refuses `temperature` (unsupported_parameter); no per-"
            "model parameter rules"
        ),
        "pyd-resp-model_http_error-0": (
            "parameter range: OpenAI refuses temperature -1 (decimal_below_min_value); sampling "
            "parameters are not checked"
        ),
        "mira-call_with_thinking-anthropic_beta_claude_sonnet_4_0-async-1": R4,
        "mira-call_with_thinking-anthropic_beta_claude_sonnet_4_0-async_stream-1": R4,
        "mira-call_with_thinking-anthropic_beta_claude_sonnet_4_0-stream-1": R4,
        "mira-call_with_thinking-anthropic_beta_claude_sonnet_4_0-sync-1": R4,
        "mira-call_with_thinking-anthropic_claude_sonnet_4_0-async-1": R4,
        "mira-call_with_thinking-anthropic_claude_sonnet_4_0-async_stream-1": R4,
        "mira-call_with_thinking-anthropic_claude_sonnet_4_0-stream-1": R4,
        "mira-call_with_thinking-anthropic_claude_sonnet_4_0-sync-1": R4,
        "pyd-ant-mcp_servers-1": R4,
        "pyd-ant-model_thinking_part-1": R4,
        "pyd-ant-tool_with_thinking-1": R4,
        "pyd-ant-url_context_tool_multi_turn-1": R4,
        "pyd-ant-web_fetch_tool-1": R4,
        "mira-call_with_thinking-openai_gpt_5_responses-async-1": R5,
        "mira-call_with_thinking-openai_gpt_5_responses-async_stream-1": R5,
        "mira-call_with_thinking-openai_gpt_5_responses-stream-1": R5,
        "mira-call_with_thinking-openai_gpt_5_responses-sync-1": R5,
        "mira-call_with_tools-openai_gpt_5_mini-async_stream-1": R5,
        "pyd-resp-gpt5_freeform_text_sql_tool-1": R5,
        "pyd-resp-gpt5_freeform_text_sql_tool-2": R5,
        "pyd-resp-image_generation_tool_without_image_output-1": R5,
        "pyd-resp-image_generation_with_tools-1": R5,
        "pyd-resp-model_thinking_part-1": R5,
        "pyd-resp-model_web_search_tool_stream-1": R5,
        "pyd-ant-model_instructions-0": (
            "unknown model: the local provider answers 404 for claude-3-opus-latest, which the "
            "real API served (200)"
        ),
        "pyd-ant-opus_46_adaptive_thinking_accepts_tool_output-0": R11,
        "pyd-ant-opus_46_adaptive_thinking_accepts_tool_output_provider_specific_-0": R11,
        "pyd-ant-opus_46_adaptive_thinking_accepts_tool_output_unified_-0": R11,
        "pyd-ant-opus_46_features_adaptive-thinking_-0": R11,
        "pyd-ant-opus_46_features_basic_-0": R11,
        "pyd-ant-opus_46_features_effort_-0": R11,
        "pyd-ant-lazy_advertisement_live-0": R6,
        "pyd-ant-lazy_advertisement_live-1": R6,
        "pyd-ant-lazy_advertisement_live-2": R6,
        "pyd-ant-opus_48_features-0": R6,
        "pyd-port-_R1-T1-native-search_-0": R6,
        "pyd-port-_R2-T1-native-search_-0": R6,
        "pyd-port-_R3-T1-native-search_-0": R6,
        "pyd-port-_R4-T1-tool-addition_-0": R6,
        "pyd-port-_R5-T1-native-search_-0": R6,
        "pyd-ant-deferred_capability_without_tool_search_across_models_claud-594bc541": R20,
        "pyd-ant-deferred_capability_without_tool_search_across_models_claud-948a3ec2": R20,
        "pyd-ant-deferred_capability_without_tool_search_across_models_claud-ef85f59c": R20,
        "pyd-ant-advisor_tool_redacted-0": R13,
        "pyd-ant-advisor_tool_stream-0": R13,
        "pyd-ant-deferred_capability_without_tool_search_across_models_claud-05fd7fc1": R13,
        "pyd-ant-deferred_capability_without_tool_search_across_models_claud-690dc57f": R13,
        "pyd-ant-deferred_capability_without_tool_search_across_models_claud-bbd2eedb": R13,
        "pyd-gem-extra_headers-0": R10,
        "pyd-gem-model_max_tokens-0": R10,
        "pyd-gem-model_safety_settings-0": R10,
        "pyd-gem-model_stream-0": R10,
        "pyd-gem-model_top_p-0": R10,
        "pyd-gem-no_finish_reason-0": R10,
        "pyd-gem-timeout-0": R10,
        "pyd-gem-dict_with_additional_properties_native_output_gemini_2_0-0": R2,
        "pyd-gem-model_image_url_input-1": R2,
        "pyd-gem-model_instructions-0": R2,
        "pyd-gem-model_iter_stream-0": R2,
        "pyd-gem-model_iter_stream-1": R2,
        "pyd-gem-model_iter_stream-2": R2,
        "pyd-gem-model_structured_output-0": R2,
        "pyd-gem-model_structured_output-1": R2,
        "pyd-gem-model_text_as_binary_content_input-0": R2,
        "pyd-gem-model_text_document_url_input-1": R2,
        "pyd-gem-model_youtube_video_url_input_with_vendor_metadata-0": R2,
        "pyd-gem-native_output-0": R2,
        "pyd-gem-native_output_multiple-0": R2,
        "pyd-gem-optional_fields_native_output_gemini_2_0-0": R2,
        "pyd-gem-optional_fields_native_output_gemini_2_0-1": R2,
        "pyd-gem-prefix_items_native_output_gemini_2_0-0": R2,
        "pyd-gem-prompted_output-0": R2,
        "pyd-gem-prompted_output_multiple-0": R2,
        "pyd-gem-auto_native_structured_stream_gemini_3-0": R3,
        "pyd-gem-instructions_only_with_tool_calls-0": R3,
        "pyd-gem-instructions_only_with_tool_calls-1": R3,
        "pyd-gem-instructions_only_with_tool_calls-2": R3,
        "pyd-gem-instructions_only_with_tool_calls-3": R3,
        "pyd-gem-instructions_only_with_tool_calls-4": R3,
        "pyd-gem-model_file_search_grounding_gemini_3-3": R3,
        "pyd-gem-model_file_search_grounding_gemini_3_False_-3": R3,
        "pyd-gem-model_file_search_grounding_gemini_3_False_-4": R3,
        "pyd-gem-model_file_search_grounding_gemini_3_True_-3": R3,
        "pyd-gem-model_file_search_grounding_gemini_3_True_-4": R3,
        "pyd-port-_R1-T5-local-search_-0": R3,
        "pyd-port-_R2-T5-local-search_-0": R3,
        "pyd-port-_R3-T5-local-search_-0": R3,
        "pyd-port-_R4-T5-announcement_-0": R3,
        "pyd-port-_R4-T5-local-search_-0": R3,
        "pyd-port-_R5-T5-local-search_-0": R3,
        "pyd-gem-image_generation_with_text-0": (
            "unknown model: the local provider answers 404 for gemini-3-pro-image-preview, which "
            "the real API served (200)"
        ),
        "pyd-gem-image_generation_with_web_search-0": (
            "unknown model: the local provider answers 404 for gemini-3-pro-image-preview, which "
            "the real API served (200)"
        ),
        "pyd-gem-combined_tools_gemini_3-0": R7,
        "pyd-gem-combined_tools_gemini_3-1": R7,
        "pyd-gem-model_retrying_after_empty_response-0": R7,
        "pyd-gem-model_thinking_part-0": R7,
        "pyd-gem-model_thinking_part-1": R7,
        "pyd-gem-native_output_with_builtin_tools_gemini_3-0": R7,
        "pyd-gem-native_output_with_builtin_tools_gemini_3-1": R7,
        "pyd-gem-streaming_tool_call_thought_signature-0": R7,
        "pyd-gem-streaming_tool_call_thought_signature-1": R7,
        "pyd-chat-max_completion_tokens_gpt-4.5-preview_-0": (
            "unknown model: the local provider answers 404 for gpt-4.5-preview, which the real "
            "API served (200)"
        ),
        "pyd-resp-hosted_shell_with_uploaded_file_stream-1": R15,
        "pyd-resp-hosted_shell_with_uploaded_file_stream-4": R15,
        "pyd-resp-include_raw_annotations_streaming-0": R15,
        "pyd-resp-include_raw_annotations_streaming-1": R15,
        "pyd-resp-include_raw_annotations_streaming-2": R15,
        "pyd-chat-apply_patch_toolset_stream-0": R14,
        "pyd-chat-apply_patch_toolset_stream-1": R14,
        "pyd-chat-apply_patch_toolset_stream-2": R14,
        "pyd-chat-apply_patch_toolset_stream-3": R14,
        "pyd-chat-shell_tool-0": R14,
        "pyd-resp-deferred_capability_keeps_native_tool_search-0": R22,
        "pyd-resp-deferred_capability_keeps_native_tool_search-1": R22,
        "pyd-resp-deferred_capability_keeps_native_tool_search-2": R22,
        "pyd-resp-gpt_5_5_drops_sampling_params_by_default-0": R16,
        "pyd-resp-phase_live-0": R16,
        "pyd-resp-phase_live-1": R16,
        "pyd-resp-phase_streamed_on_part_start-0": R16,
        "pyd-resp-phase_streamed_on_part_start-1": R16,
        "pyd-port-_R1-T3-native-search_-0": R17,
        "pyd-port-_R2-T3-native-search_-0": R17,
        "pyd-port-_R3-T3-native-search_-0": R17,
        "pyd-port-_R4-T3-additional-tools_-0": R17,
        "pyd-port-_R5-T3-native-search_-0": R17,
        "pyd-resp-gpt_5_6_reasoning_off_keeps_sampling_params-0": (
            "unknown model: the local provider answers 404 for gpt-5.6-sol, which the real API "
            "served (200)"
        ),
        "pyd-chat-system_prompt_role_o1_mini-0": (
            "unknown model: the local provider answers 404 for o1-mini, which the real API served"
            " (200)"
        ),
        "pyd-chat-max_completion_tokens_o3-mini_-0": R8,
        "pyd-chat-model_thinking_part-0": R8,
        "pyd-chat-model_thinking_part-0-be912869": R8,
        "pyd-chat-model_thinking_part-1": R8,
        "pyd-chat-model_thinking_part-1-edaa964d": R8,
        "pyd-chat-model_thinking_part_iter-0": R8,
        "pyd-chat-model_without_system_prompt-0": R8,
        "pyd-chat-reasoning_model_with_temperature-0": R8,
        "pyd-resp-background_mode_reasoning_vcr-0": R19,
        "pyd-resp-model_mcp_server_tool-0": R19,
        "pyd-resp-model_mcp_server_tool-1": R19,
        "pyd-resp-model_mcp_server_tool_with_connector-0": R19,
        "pyd-chat-system_prompt_role_o4_mini-0": (
            "unknown model: the local provider answers 404 for o4-mini-2025-04-16, which the real"
            " API served (200)"
        ),
    },
}


def body_path(entry: dict) -> Path:
    return CORPUS / "bodies" / entry["format"] / f"{entry['id']}.json"


def accepted(entry: dict) -> bool:
    return entry["status"] == 200


def cases(path: str, only_accepted: bool = False) -> list:
    """One pytest param per corpus entry, marked xfail(strict) where DISAGREEMENTS says so."""
    params = []
    for entry in INDEX:
        if only_accepted and not accepted(entry):
            continue
        reason = DISAGREEMENTS[path].get(entry["id"])
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(entry, id=entry["id"], marks=marks))
    return params


def _cli_main():
    from helpers.machinery.cli import main

    return main


def run_check(entry: dict) -> tuple[int, str]:
    """``python -m helpers check FILE --profile FORMAT``, in process: (exit code, output)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = _cli_main()(["check", str(body_path(entry)), "--profile", entry["format"]])
    return code, out.getvalue() + err.getvalue()


# --- the index and the files -----------------------------------------------------------------


def test_index_and_files_match():
    ids = [e["id"] for e in INDEX]
    assert len(ids) == len(set(ids)), "duplicate ids in index.json"
    on_disk = {p.relative_to(CORPUS / "bodies").as_posix() for p in CORPUS.glob("bodies/*/*.json")}
    listed = {f"{e['format']}/{e['id']}.json" for e in INDEX}
    assert on_disk == listed, (
        sorted(on_disk - listed)[:5],
        sorted(listed - on_disk)[:5],
    )
    for e in INDEX:
        assert e["format"] in FORMATS, e["id"]
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", e["source"]), e["id"]
        assert re.fullmatch(r"[0-9a-f]{40}", e["commit"]), e["id"]
        assert e["path"] and isinstance(e["interaction"], int), e["id"]
        assert e["status"] == 200 or 400 <= e["status"] < 500, e["id"]
        if not accepted(e):
            assert e.get("error", {}).get("message"), f"{e['id']}: a refusal keeps its error text"
        assert isinstance(json.loads(body_path(e).read_text(encoding="utf-8")), dict), e["id"]


def test_every_disagreement_names_a_corpus_case():
    ids = {e["id"] for e in INDEX}
    assert set(DISAGREEMENTS) == {"check", "render", "provider"}
    for path, table in DISAGREEMENTS.items():
        for entry_id, reason in table.items():
            assert entry_id in ids, f"DISAGREEMENTS[{path!r}] lists {entry_id!r}, not in the corpus"
            assert reason.strip(), (path, entry_id)


def test_corpus_has_every_format_and_refusals():
    for fmt in FORMATS:
        assert sum(e["format"] == fmt for e in INDEX) >= 20, fmt
    assert sum(not accepted(e) for e in INDEX) >= 5


def summary_table() -> str:
    """The counts table of ``corpus/README.md``, recomputed from the index and the files."""
    import hashlib

    rows = [
        "| format | accepted (200) | refused (4xx) | distinct bodies | with recorded usage |",
        "| --- | --- | --- | --- | --- |",
    ]
    for fmt in FORMATS:
        entries = [e for e in INDEX if e["format"] == fmt]
        distinct = {hashlib.sha1(body_path(e).read_bytes()).hexdigest() for e in entries}
        accepted_n = sum(accepted(e) for e in entries)
        usage_n = sum("usage" in e for e in entries)
        rows.append(
            f"| {fmt} | {accepted_n} | {len(entries) - accepted_n} | {len(distinct)} | {usage_n} |"
        )
    return "\n".join(rows)


def test_readme_counts_match_the_index():
    assert summary_table() in (CORPUS / "README.md").read_text(encoding="utf-8")


# --- check -----------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", cases("check"))
def test_check_agrees_with_the_provider(entry):
    code, output = run_check(entry)
    expected = 0 if accepted(entry) else 1
    assert code == expected, (
        f"real provider answered {entry['status']}"
        f"{': ' + entry['error']['message'] if 'error' in entry else ''}; "
        f"check exited {code}:\n{output}"
    )


# --- parse + render --------------------------------------------------------------------------


@pytest.mark.parametrize("entry", cases("render", only_accepted=True))
def test_parse_and_render_an_accepted_body(entry):
    from helpers.formats import parse, render

    body = json.loads(body_path(entry).read_text(encoding="utf-8"))
    request = parse(body, entry["format"])
    rendered = render(request, entry["format"])
    assert isinstance(rendered.body, dict)


# --- the local provider ----------------------------------------------------------------------


HEADERS = {
    "content-type": "application/json",
    "authorization": f"Bearer {KEY}",
    "x-api-key": KEY,
    "x-goog-api-key": KEY,
    "anthropic-version": "2023-06-01",
}


@pytest.fixture(scope="module")
def local_answers() -> dict[str, httpx.Response]:
    """Every body POSTed once to the local provider, in parallel (each waits on its socket)."""
    from concurrent.futures import ThreadPoolExecutor

    from helpers.provider import LocalProvider

    with LocalProvider() as p, httpx.Client(timeout=30) as client:

        def send(entry: dict) -> httpx.Response:
            url = p.endpoint(entry["format"], entry.get("model") or "", stream=entry["stream"])
            return client.post(url, content=body_path(entry).read_bytes(), headers=HEADERS)

        with ThreadPoolExecutor(max_workers=16) as pool:
            return dict(zip([e["id"] for e in INDEX], pool.map(send, INDEX), strict=True))


@pytest.mark.parametrize("entry", cases("provider"))
def test_local_provider_agrees_with_the_provider(entry, local_answers):
    response = local_answers[entry["id"]]
    if accepted(entry):
        assert response.status_code == 200, response.text[:500]
    else:
        assert 400 <= response.status_code < 500, (
            f"real provider refused it ({entry['error']['message']}); local answered "
            f"{response.status_code}"
        )
