"""Evidence from outside: real request bodies and what the real provider answered, run through
``python -m helpers check``, ``parse`` + ``render`` and the stand-in.

Run: ``make evidence CORPUS=dir`` (or ``.venv/bin/python scripts/evidence.py dir``). A corpus
directory holds ``index.json`` (a list of entries) and ``bodies/<format>/<id>.json`` (one request
body each, exactly as it was sent). An entry names ``id``, ``format`` (``openai-chat``,
``openai-responses``, ``anthropic``, ``gemini``), ``status`` (what the real provider answered:
200, or a 4xx) and for a refusal ``error.message``; ``model`` and ``stream`` say how the body was
sent; ``source``, ``path``, ``commit`` say where it was recorded (public cassettes of open-source
projects: they are not part of this repository).

Three paths must agree with the recorded verdict:

- ``check``: exit 0 for an accepted body, 1 for a refused one (2, "cannot read it", is wrong for
  both);
- ``render``: an accepted body parses and renders back in its format without an error;
- ``provider``: the stand-in answers 200 where the real one did, and a 4xx where it refused.

Disagreements we know and cannot (or will not) remove are explained below, in one place: by
kind (``KINDS``: a test on the body and the answer, e.g. a model the stand-in does not
know) or by corpus id (``KNOWN``). The script prints the agreement table and every unexplained
disagreement; it exits 1 if there is one, or if a known disagreement no longer happens (then
its entry is stale: remove it). Nothing here reaches the network: the stand-in listens
on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")
PATHS = ("check", "render", "provider")
KEY = "sk-local-evidence-0123456789"
HEADERS = {
    "content-type": "application/json",
    "authorization": f"Bearer {KEY}",
    "x-api-key": KEY,
    "x-goog-api-key": KEY,
    "anthropic-version": "2023-06-01",
}


@dataclass
class Case:
    """One body, its recorded verdict and what each path of ours made of it."""

    entry: dict
    body: Any
    #: path -> (agrees, what ours did, in a few words)
    results: dict[str, tuple[bool, str]] = field(default_factory=dict)
    #: the stand-in's answer: (status, text)
    answer: tuple[int, str] = (0, "")
    #: path -> the error text ours gives for a refusal (check: its "answers:" line)
    texts: dict[str, str] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.entry["id"]

    @property
    def accepted(self) -> bool:
        return self.entry["status"] == 200

    @property
    def format(self) -> str:
        return self.entry["format"]


# --- known disagreements -----------------------------------------------------------------------


def _unknown_to_us(case: Case) -> bool:
    """The real API served a model the stand-in does not know (it answers 404)."""
    from helpers.models import UnknownModelError, model_info

    model = case.entry.get("model") or (case.body or {}).get("model")
    try:
        model_info(str(model))
    except UnknownModelError:
        return case.accepted and case.answer[0] == 404
    return False


def _no_such_model(case: Case) -> bool:
    """The real API refused a model name that does not exist; ``check`` reads the body only."""
    message = str(case.entry.get("error", {}).get("message", ""))
    return not case.accepted and "this-model-does-not-exist" in message


def _foreign_signature(case: Case) -> bool:
    """A real reasoning signature the stand-in cannot verify (it signs its own)."""
    words = ("could not be verified", "Invalid `signature`")
    return case.accepted and case.answer[0] == 400 and any(w in case.answer[1] for w in words)


def _stored_at_openai(case: Case) -> bool:
    """A Responses body continuing a response or conversation stored at OpenAI, not here."""
    body = case.body if isinstance(case.body, dict) else {}
    continues = body.get("previous_response_id") or body.get("conversation")
    return bool(continues) and case.accepted and case.answer[0] in (400, 404)


def _beta_header_not_recorded(case: Case) -> bool:
    """A field of Anthropic's beta types, refused without the ``anthropic-beta`` header that the
    recorded request sent: the corpus keeps bodies, not headers (check only warns)."""
    from standin.known_fields import unknown_fields

    if not (case.accepted and case.format == "anthropic" and case.answer[0] == 400):
        return False
    if "Extra inputs are not permitted" not in case.answer[1]:
        return False
    return not unknown_fields(case.body, "anthropic-beta")


#: (path, test, reason): a disagreement of one of these kinds is known, whichever body shows it.
KINDS: list[tuple[str, Callable[[Case], bool], str]] = [
    (
        "provider",
        _unknown_to_us,
        "model unknown to the stand-in (404); the real API served it",
    ),
    ("check", _no_such_model, "model that does not exist: check has no list of models"),
    (
        "provider",
        _foreign_signature,
        "real reasoning signature/encrypted_content: the stand-in verifies only its own",
    ),
    (
        "provider",
        _beta_header_not_recorded,
        "a beta field (mcp_servers, context_management...): the recorded request sent the "
        "anthropic-beta header that opts in, which the corpus does not keep",
    ),
    (
        "provider",
        _stored_at_openai,
        "continues a response/conversation stored at OpenAI; the stand-in never saw it",
    ),
]

_PARAMS = "field types outside the conversation are not checked"
#: path -> corpus id -> why ours differs from the recorded verdict. Keep a reason per entry.
KNOWN: dict[str, dict[str, str]] = {
    "check": {
        "pyd-ant-container_setting_explicit_dict_form_live-1": (
            f"Anthropic refused `container` given as an object; {_PARAMS}"
        ),
        "pyd-port-_R5-T3-native-search_-0": (
            "Responses continuation (`conversation`) whose input is only function_call_output "
            "items: without the stored chain, check warns instead of refusing or accepting"
        ),
        "pyd-chat-web_search_tool_model_not_supported-0": (
            "gpt-4o refused `web_search_options` (not supported with this model); which models "
            "take it is not documented per model"
        ),
        "pyd-chat-model_thinking_part-1-edaa964d": (
            "recorded 2025-04 (o3-mini): OpenAI then accepted a reasoning item followed by a user "
            "turn; the pairing by id is enforced since (public reports from 2025-07, "
            "vercel/ai#7099; a refusal recorded 2026-01 on gpt-5, "
            "pyd-resp-thinking_with_modified_history-1)"
        ),
        "pyd-resp-previous_response_id_auto_mode-0": (
            "OpenAI refused an unknown previous_response_id: whether an id is stored is known "
            "only to OpenAI (the stand-in knows its own)"
        ),
    },
    "render": {},
    "provider": {
        "pyd-port-_R5-T3-native-search_-0": (
            "a client-run `tool_search_call` answered by a function_call_output: the local "
            "provider's rules of the list pair outputs with function calls only (seen once "
            "issue 34 let it serve gpt-5.6; it answered 404 before)"
        ),
        "pyd-ant-container_setting_explicit_dict_form_live-1": (
            f"Anthropic refused `container` given as an object; {_PARAMS}"
        ),
        "pyd-chat-web_search_tool_model_not_supported-0": (
            "gpt-4o refused `web_search_options`; which models take it is not documented per model"
        ),
    },
}


def known(case: Case, path: str) -> str | None:
    """Why ``case`` may disagree on ``path``, or None if it must agree."""
    reason = KNOWN[path].get(case.id)
    if reason:
        return reason
    return next((why for p, test, why in KINDS if p == path and test(case)), None)


# --- the three paths ---------------------------------------------------------------------------


def run_check(case: Case, file: Path) -> None:
    """``python -m helpers check FILE --profile FORMAT``, in process: exit 0, 1 or 2."""
    from standin.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(["check", str(file), "--profile", case.format])
    expected = 0 if case.accepted else 1
    lines = [line for line in out.getvalue().splitlines() if not line.startswith("note:")]
    answers = [line.split(" answers: ", 1)[1] for line in lines if " answers: " in line]
    case.texts["check"] = answers[0] if answers else ""
    said = f"exit {code}: {lines[0] if lines else ''}"
    case.results["check"] = (code == expected, said)


def run_render(case: Case) -> None:
    """``parse`` then ``render`` in the body's own format (accepted bodies only)."""
    from helpers.formats import render
    from standin.functions_era import parse

    if not case.accepted:
        return
    try:
        render(parse(case.body, case.format), case.format)
    except Exception as err:  # any error is the finding: report it, do not stop the run
        case.results["render"] = (False, f"{type(err).__name__}: {err}")
    else:
        case.results["render"] = (True, "rendered")


def run_provider(cases: list[Case], files: list[Path]) -> None:
    """POST every body to the stand-in (in parallel: each request waits on a socket)."""
    import httpx

    from standin import LocalProvider

    with LocalProvider() as local, httpx.Client(timeout=60) as client:

        def send(pair: tuple[Case, Path]) -> tuple[int, str]:
            case, file = pair
            model = case.entry.get("model") or case.body.get("model") or ""
            url = local.endpoint(case.format, model, stream=bool(case.entry.get("stream")))
            response = client.post(url, content=file.read_bytes(), headers=HEADERS)
            return response.status_code, response.text

        with ThreadPoolExecutor(max_workers=8) as pool:
            answers = list(pool.map(send, zip(cases, files, strict=True)))
    for case, (status, text) in zip(cases, answers, strict=True):
        case.answer = (status, text)
        case.texts["provider"] = _error_message(text)
        agrees = status == 200 if case.accepted else 400 <= status < 500
        case.results["provider"] = (agrees, f"{status}: {text[:160]}")


def _error_message(text: str) -> str:
    """The ``message`` of a provider-style error body (every format keeps it under ``error``)."""
    try:
        error = json.loads(text).get("error")
    except (ValueError, AttributeError):
        return ""
    return str(error.get("message", "")) if isinstance(error, dict) else ""


def same_text(case: Case, path: str) -> bool:
    """Whether ours refused ``case`` with the real provider's words (ids and positions too)."""
    recorded = str(case.entry.get("error", {}).get("message", "")).strip()
    return bool(recorded) and case.texts.get(path, "").strip() == recorded


# --- the run -----------------------------------------------------------------------------------


def load(corpus: Path) -> tuple[list[Case], list[Path]]:
    """The corpus's entries and body files, checked: every entry has its body and a verdict."""
    index = json.loads((corpus / "index.json").read_text(encoding="utf-8"))
    if not isinstance(index, list):
        raise SystemExit(f"{corpus / 'index.json'}: expected a list of entries")
    cases, files = [], []
    for n, entry in enumerate(index):
        where = f"index.json[{n}]"
        for key in ("id", "format", "status"):
            if key not in entry:
                raise SystemExit(f"{where}: no {key!r}")
        if entry["format"] not in FORMATS:
            raise SystemExit(f"{where}: format {entry['format']!r} is not one of {FORMATS}")
        file = corpus / "bodies" / entry["format"] / f"{entry['id']}.json"
        if not file.is_file():
            raise SystemExit(f"{where}: no body file bodies/{entry['format']}/{entry['id']}.json")
        cases.append(Case(entry, json.loads(file.read_text(encoding="utf-8"))))
        files.append(file)
    return cases, files


def run(corpus: Path, paths: tuple[str, ...] = PATHS, progress: bool = True) -> list[Case]:
    cases, files = load(corpus)
    if "provider" in paths:
        if progress:
            print(f"stand-in: {len(cases)} bodies ...", file=sys.stderr)
        run_provider(cases, files)
    for n, (case, file) in enumerate(zip(cases, files, strict=True)):
        if progress and n % 100 == 0:
            print(f"check, render: {n}/{len(cases)} ...", file=sys.stderr)
        if "check" in paths:
            run_check(case, file)
        if "render" in paths:
            run_render(case)
    return cases


@dataclass
class Tally:
    agree: int = 0
    known: int = 0
    new: list[tuple[Case, str]] = field(default_factory=list)
    stale: list[tuple[Case, str]] = field(default_factory=list)


def tally(cases: list[Case], paths: tuple[str, ...] = PATHS) -> dict[tuple[str, str], Tally]:
    """(format, path) -> counts; unexplained disagreements and stale known entries listed."""
    table = {(fmt, path): Tally() for fmt in FORMATS for path in paths}
    for case in cases:
        for path in paths:
            if path not in case.results:
                continue
            agrees, said = case.results[path]
            cell = table[case.format, path]
            reason = known(case, path)
            if agrees:
                cell.agree += 1
                if case.id in KNOWN[path]:
                    cell.stale.append((case, KNOWN[path][case.id]))
            elif reason:
                cell.known += 1
            else:
                cell.new.append((case, said))
    return table


def report(cases: list[Case], paths: tuple[str, ...] = PATHS) -> tuple[str, bool]:
    """The agreement table and every finding, as text; and whether the run is clean."""
    table = tally(cases, paths)
    lines = [
        f"{len(cases)} bodies: {sum(c.accepted for c in cases)} accepted, "
        f"{sum(not c.accepted for c in cases)} refused by the real provider",
        "",
        "| format | bodies | " + " | ".join(f"{p}: agree / known / new" for p in paths) + " |",
        "|---" * (len(paths) + 2) + "|",
    ]
    for fmt in FORMATS:
        n = sum(c.format == fmt for c in cases)
        cells = []
        for path in paths:
            t = table[fmt, path]
            cells.append(f"{t.agree} / {t.known} / {len(t.new)}")
        lines.append(f"| {fmt} | {n} | " + " | ".join(cells) + " |")
    refused = [c for c in cases if not c.accepted]
    if refused:
        words = [
            f"{p} {sum(same_text(c, p) for c in refused)}/{len(refused)}"
            for p in ("check", "provider")
            if p in paths
        ]
        lines += ["", "Refusals answered with the provider's exact error text: " + ", ".join(words)]
    reasons: dict[tuple[str, str], int] = {}
    for case in cases:
        for path in paths:
            if path in case.results and not case.results[path][0]:
                reason = known(case, path)
                if reason:
                    reasons[path, reason] = reasons.get((path, reason), 0) + 1
    if reasons:
        lines += ["", "Known disagreements:"]
        for (path, reason), count in sorted(reasons.items(), key=lambda kv: -kv[1]):
            lines.append(f"  {count:4d}  {path}: {reason}")
    clean = True
    for (fmt, path), t in table.items():
        for case, said in t.new:
            clean = False
            recorded = case.entry["status"]
            if not case.accepted:
                recorded = f"{recorded} {case.entry.get('error', {}).get('message', '')}"
            lines.append(f"NEW {path} {fmt} {case.id}: real {recorded}; ours {said}")
        for case, reason in t.stale:
            clean = False
            lines.append(f"STALE {path} {case.id}: agrees now; remove it from KNOWN ({reason})")
    return "\n".join(lines), clean


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="a directory with index.json and bodies/")
    parser.add_argument(
        "--paths", default=",".join(PATHS), help=f"which paths to run (default: {PATHS})"
    )
    args = parser.parse_args(argv)
    paths = tuple(p for p in args.paths.split(",") if p)
    if unknown := set(paths) - set(PATHS):
        parser.error(f"unknown path(s) {sorted(unknown)}; paths: {', '.join(PATHS)}")
    if not (args.corpus / "index.json").is_file():
        parser.error(
            f"{args.corpus}: no index.json (a corpus directory holds index.json and bodies/)"
        )
    text, clean = report(run(args.corpus, paths), paths)
    print(text)
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
