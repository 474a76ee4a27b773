"""Fuzz: every parser and every command, fed what an adversarial user would feed them.

The contract under test (docs/command-line.md): a parser raises only its own declared
error (``FormatError`` for bodies, ``StreamError`` for streams), each naming the place; a command
exits 0, 1 (``check`` found violations) or 2 (bad input, one line), and never 3 (our bug) nor a
traceback. Memory stays bounded while doing so: a 400-byte stream cannot make us allocate
gigabytes (``tracemalloc`` measures the peak of every generated input).

Inputs are real bodies: the Sundry and crash-triage requests of ``data/`` in every wire format,
the SDK-captured bodies of ``tests/support/fixtures/sdk``, replies in every format and the streams
the SDKs recorded (``tests/support/fixtures/sse``). Hypothesis puts a wrong value (null, a number, a
huge integer, NaN, a lone surrogate, a list, an object...) at one field of one body, or builds a
random sequence of (mutated) SSE events. ``derandomize=True``: the same inputs on every run, so a
failure reproduces; together the tests below feed more than 10,000 of them.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import resource
import subprocess
import sys
import tracemalloc
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import sse
from helpers.examples import crash_triage, sundry
from helpers.formats import FORMATS, detect, parse, parse_response, render
from helpers.messages import FormatError, Message, Reply, Usage
from helpers.rules import PROFILES, check
from standin import sse_write, stream_checks
from standin.cli import main
from standin.render_response import render_response

ROOT = Path(__file__).resolve().parents[2]
#: Peak memory any one generated input may take (the worst real one is well under 10 MB).
MEMORY_BOUND = 64 * 1024 * 1024
#: Inputs each test feeds; their sum is the suite's size (checked by the last test).
EXAMPLES = {
    "requests": 2500,
    "responses": 2500,
    "streams": 3000,
    "cli_fields": 1200,
    "cli_bytes": 800,
}
FED: Counter[str] = Counter()


def fuzz(examples: str):
    """The settings of every fuzz test: ``EXAMPLES[examples]`` inputs, the same on every run."""
    return settings(_FUZZ, max_examples=EXAMPLES[examples])


_FUZZ = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# --- the real bodies --------------------------------------------------------------------------


@cache
def request_bodies() -> list[tuple[str, dict]]:
    """(format, body): the two data/ requests in every format, and the SDK-captured bodies."""
    out: list[tuple[str, dict]] = []
    for path in (ROOT / "data/sundry/request.json", ROOT / "data/crash_triage/request.json"):
        body = json.loads(path.read_text(encoding="utf-8"))
        out.append(("neutral", body))
        request = parse(body)
        out += [(fmt, render(request, fmt).body) for fmt in FORMATS]
    for path in sorted((ROOT / "tests/support/fixtures/sdk").glob("*.json")):
        captured = json.loads(path.read_text(encoding="utf-8"))
        out.append((detect(captured["body"]), captured["body"]))
    return out


@cache
def replies() -> list[Reply]:
    """Real assistant turns: Sundry's tool calls and answers, the crash triage's first call."""
    crash = json.loads((ROOT / "data/crash_triage/request.json").read_text(encoding="utf-8"))
    messages = [*sundry.ticket().messages, *parse(crash).messages]
    turns = [m for m in messages if m.role == "assistant"]
    usage = Usage(1200, 40, 1024, 0)
    stop = {True: "tool_calls", False: "end_turn"}
    return [Reply(Message("assistant", m.content), usage, stop[bool(m.tool_calls)]) for m in turns]


@cache
def response_bodies() -> list[tuple[str, dict]]:
    return [(fmt, render_response(r, fmt)) for r in replies() for fmt in FORMATS]


def anthropic_reply() -> dict:
    return next(body for fmt, body in response_bodies() if fmt == "anthropic")


@cache
def streams() -> list[tuple[str, list[str]]]:
    """(format, events): every reply streamed in every format, and the recorded SDK streams."""
    out = [(fmt, list(sse_write.encode(body, fmt))) for fmt, body in response_bodies()]
    recorded = {"openai_chat": "openai-chat", "anthropic": "anthropic"}
    for path in sorted((ROOT / "tests/support/fixtures/sse").glob("*.sse")):
        fmt = next(f for prefix, f in recorded.items() if path.name.startswith(prefix))
        text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
        out.append((fmt, [e + "\n\n" for e in text.split("\n\n") if e.strip()]))
    return out


def paths(value: Any, at: tuple = ()) -> list[tuple]:
    """Every field of a JSON value (the root included), as key/index paths."""
    out = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths(item, (*at, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += paths(item, (*at, i))
    return out


def put(value: Any, at: tuple, new: Any) -> Any:
    """A copy of ``value`` with ``new`` at path ``at``."""
    if not at:
        return new
    value = copy.deepcopy(value)
    target = value
    for key in at[:-1]:
        target = target[key]
    target[at[-1]] = new
    return value


@cache
def field_sites(kind: str) -> list[tuple[int, tuple]]:
    bodies = request_bodies() if kind == "requests" else response_bodies()
    return [(i, at) for i, (_, body) in enumerate(bodies) for at in paths(body)]


wrong_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 99999999999, 2**200]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["\ud800", "sk-proj-" + "a" * 40, "", "[DONE]", "tool_use", "function"]),
    st.lists(st.integers(), max_size=3),
    st.sampled_from([[{}], [None], {"type": "text"}, {"type": "tool_use"}, {}]),
    st.dictionaries(st.text(max_size=6), st.integers(), max_size=3),
)


@contextlib.contextmanager
def bounded_memory(what: str):
    """Fail if the block allocates more than ``MEMORY_BOUND`` at its peak.

    ``tracemalloc`` triples the cost of a call, so it measures one input in ``TRACE_EVERY``
    (every kind of input gets measured); the module's fixture bounds the process's peak
    resident size over all of them.
    """
    _traced[0] += 1
    if _traced[0] % TRACE_EVERY:
        yield
        return
    tracemalloc.start()
    try:
        yield
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_BOUND, f"{what}: peak {peak / 1e6:.0f} MB"


TRACE_EVERY = 7
_traced = [0]


def _peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB


@pytest.fixture(scope="module", autouse=True)
def warm_and_bounded():
    """Load the tokenizers once (a one-time cost, not growth), then bound the process's growth."""
    from helpers.tokens import count

    for model in ("gpt-4o-mini", "claude-sonnet-4-5"):
        count(sundry.opening(), model)
    before = _peak_rss()
    yield
    grown = _peak_rss() - before
    assert grown < 4 * MEMORY_BOUND, f"the fuzz suite grew the process by {grown / 1e6:.0f} MB"


# --- the parsers ------------------------------------------------------------------------------


@fuzz("requests")
@given(site=st.sampled_from(field_sites("requests")), value=wrong_values, data=st.data())
def test_request_parsers_raise_only_format_errors(site, value, data):
    FED["requests"] += 1
    index, at = site
    fmt, body = request_bodies()[index]
    mutated = put(body, at, value)
    with bounded_memory(f"{fmt} {at}"):
        with contextlib.suppress(FormatError):
            detect(mutated)
        request = None
        for source in (fmt, None):
            with contextlib.suppress(FormatError):
                request = parse(mutated, source)
        if request is None:
            return
        target = data.draw(st.sampled_from(FORMATS))
        with contextlib.suppress(FormatError):
            render(request, target)
        check(request, data.draw(st.sampled_from(PROFILES)))


@fuzz("responses")
@given(site=st.sampled_from(field_sites("responses")), value=wrong_values)
def test_response_parsers_raise_only_format_errors(site, value):
    FED["responses"] += 1
    index, at = site
    fmt, body = response_bodies()[index]
    with bounded_memory(f"{fmt} response {at}"), contextlib.suppress(FormatError):
        parse_response(put(body, at, value), fmt)


WRONG_SAMPLES = [
    None,
    True,
    0,
    -1,
    -3,
    7,
    99999999999,
    2**64,
    1.5,
    float("nan"),
    float("inf"),
    "",
    "x",
    "\ud800",
    "[DONE]",
    "tool_use",
    [],
    [1],
    [{}],
    {},
    {"type": "text"},
    {"index": 99999999999},
]


def random_stream(seed: int) -> tuple[str, bytes]:
    """A random stream: real events of one format, dropped, repeated, shuffled or mutated.

    Built from one drawn seed with ``random.Random`` (cheap, so thousands fit in seconds; the
    seed reproduces it). Read as ``fmt`` or, one time in five, as another format.
    """
    rng = random.Random(seed)
    fmt, events = rng.choice(streams())
    if rng.random() < 0.5:
        events = [rng.choice(events) for _ in range(rng.randint(0, 12))]
    out = []
    for event in events:
        head, _, data = event.partition("data: ")
        choice = rng.randint(0, 9)
        if choice < 3 and data.strip().startswith("{"):
            parsed = json.loads(data)
            at = rng.choice(paths(parsed))
            event = head + "data: " + json.dumps(put(parsed, at, rng.choice(WRONG_SAMPLES)))
            event += "\n\n"
        elif choice == 3:
            event = head + "data: " + rng.choice(["5", "[1, 2]", '"x"', "{", "null", "1e999"])
            event += "\n\n"
        elif choice == 4:
            event = event[: rng.randint(0, len(event))]  # cut mid-event
        out.append(event)
    read_as = rng.choice(FORMATS) if rng.random() < 0.2 else fmt
    return read_as, "".join(out).encode("utf-8", "surrogatepass")


@fuzz("streams")
@given(seed=st.integers(0, 2**32))
def test_random_streams_raise_only_stream_errors(seed):
    FED["streams"] += 1
    fmt, raw = random_stream(seed)
    with bounded_memory(f"{fmt} stream {raw[:80]!r}"):
        with contextlib.suppress(sse.StreamError):
            stream_checks.accumulate(raw, fmt)
        with contextlib.suppress(sse.StreamError, FormatError):
            stream_checks.assemble(raw, fmt)


def test_a_huge_index_is_refused_before_any_list_grows():
    raw = (
        'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":'
        '{"tool_calls":[{"index":99999999999,"id":"x","function":{"name":"f","arguments":""}}]}'
        ',"finish_reason":null}]}\n\ndata: [DONE]\n\n'
    )
    assert len(raw) < 400
    with bounded_memory("index 99999999999"), pytest.raises(sse.StreamError) as err:
        stream_checks.accumulate(raw, "openai-chat")
    assert "index: 99999999999 is outside 0..4096" in str(err.value)
    assert str(err.value).startswith("event 0.choices[0].delta.tool_calls[0]")


# --- the commands -----------------------------------------------------------------------------


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def assert_contract(code: int, err: str, argv: list[str]) -> None:
    assert code in (0, 1, 2), f"{argv}: exit {code}: {err}"
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    if code == 2:  # one line, the last (``note:`` lines about the input may come before it)
        assert len(errors) == 1 and err.splitlines()[-1] == errors[0], err
    else:
        assert not errors, err


@cache
def small_bodies() -> list[tuple[str, dict]]:
    """Short real requests (the opening of each ticket, every format): quick to count."""
    out = []
    for request in (sundry.opening(), crash_triage.opening()):
        request.messages = request.messages[:2]
        out.append(("neutral", request.to_json()))
        out += [(fmt, render(request, fmt).body) for fmt in FORMATS]
    return out


@cache
def cli_sites() -> list[tuple[int, tuple]]:
    return [(i, at) for i, (_, body) in enumerate(small_bodies()) for at in paths(body)]


COMMANDS = [
    ["count", "{file}", "--total"],
    ["count", "{file}", "--total", "--model", "claude-sonnet-4-5"],
    ["render", "{file}", "--to", "gemini"],
    ["render", "{file}", "--to", "neutral"],
    ["check", "{file}", "--profile", "anthropic"],
    ["check", "{file}", "--profile", "openai-responses"],
    ["cost", "{trace}"],
    ["assemble", "{stream}", "--format", "anthropic"],
]


@fuzz("cli_fields")
@given(site=st.sampled_from(cli_sites()), value=wrong_values, command=st.sampled_from(COMMANDS))
def test_every_command_keeps_the_contract_on_wrong_types(tmp_path_factory, site, value, command):
    FED["cli_fields"] += 1
    folder = tmp_path_factory.getbasetemp()
    index, at = site
    body = put(small_bodies()[index][1], at, value)
    usage = put(
        {"input_tokens": 100, "cache_read_tokens": 0, "output_tokens": 5},
        (["input_tokens", "cache_read_tokens", "output_tokens"][len(at) % 3],),
        value,
    )
    trace = {"model": "claude-sonnet-4-5", "turns": [{"request": body}, {"usage": usage}]}
    if len(at) % 2:
        trace["turns"] = trace["turns"][:1]  # a projected ticket: every turn a request
    reply = anthropic_reply()
    files = {
        "file": json.dumps(body),
        "trace": json.dumps(trace),
        "stream": "".join(sse_write.encode(reply, "anthropic")),
    }
    with contextlib.suppress(KeyError, TypeError, AttributeError, IndexError, ValueError):
        # the encoder is ours and trusts its input: a wrong field may stop it, then keep the stream
        files["stream"] = "".join(sse_write.encode(put(reply, at[-1:], value), "anthropic"))
    argv = []
    for arg in command:
        if arg.startswith("{"):
            path = folder / f"fuzz-{arg[1:-1]}.json"
            path.write_text(files[arg[1:-1]], encoding="utf-8", errors="surrogatepass")
            arg = str(path)
        argv.append(arg)
    with bounded_memory(" ".join(argv)):
        code, _, err = run_cli(argv)
    assert_contract(code, err, argv)


hostile_texts = st.one_of(
    st.binary(max_size=64).map(lambda b: b"\xff" + b),  # not UTF-8
    st.integers(1, 30_000).map(lambda n: b"[" * n + b"]" * n),  # deep
    st.integers(31, 6000).map(lambda n: b'{"model": 1' + b"0" * n + b"}"),  # long integer
    st.sampled_from([b"NaN", b'{"model": Infinity}', b'{"model": "\\ud800"}', b"", b"{", b"[]"]),
    st.text(max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.recursive(
        st.none() | st.integers() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
        max_leaves=10,
    ).map(lambda v: json.dumps(v).encode()),
)


@fuzz("cli_bytes")
@given(raw=hostile_texts, command=st.sampled_from(COMMANDS))
def test_hostile_bytes_are_bad_input_never_a_crash(tmp_path_factory, raw, command):
    FED["cli_bytes"] += 1
    path = tmp_path_factory.getbasetemp() / "hostile.json"
    path.write_bytes(raw)
    argv = [str(path) if arg.startswith("{") else arg for arg in command]
    with bounded_memory(f"{argv[0]} {raw[:60]!r}"):
        code, _, err = run_cli(argv)
    assert_contract(code, err, argv)


def test_the_fuzz_suite_fed_at_least_10000_inputs():
    if set(FED) != set(EXAMPLES):
        pytest.skip("only part of the fuzz suite ran")
    assert sum(FED.values()) >= 10_000, FED


# --- the contract, per exit code, in real processes -------------------------------------------


UNANSWERED = {  # a tool call with no result: a violation of the shared core
    "model": "gpt-4o-mini",
    "messages": [
        {"role": "user", "content": [{"type": "text", "text": "Where is SO-48213?"}]},
        {
            "role": "assistant",
            "content": [{"type": "tool_call", "id": "c1", "name": "f", "arguments": {}}],
        },
        {"role": "user", "content": [{"type": "text", "text": "Hello?"}]},
    ],
}


def _python(*argv: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *argv], input=stdin, capture_output=True, cwd=ROOT, timeout=120
    )


@pytest.mark.parametrize(
    ("argv", "stdin", "code"),
    [
        (["check", "data/sundry/request.json"], b"", 0),
        (["check", "-"], json.dumps(UNANSWERED), 1),
        (["count", "-"], b"\xff\xfe not text", 2),
        (["count", "-"], b"[" * 50_000 + b"]" * 50_000, 2),
        (["cost", "-"], b'{"model":"gpt-4o-mini","turns":[{"usage":{"input_tokens":"9"}}]}', 2),
        (["serve", "--port", "99999"], b"", 2),
    ],
)
def test_each_exit_code_in_a_real_process(argv, stdin, code):
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = _python("-m", "helpers", *argv, stdin=data)
    assert done.returncode == code, done.stderr
    assert b"Traceback" not in done.stderr
    if code == 2:
        assert len(done.stderr.decode().strip().splitlines()) == 1


def test_an_internal_error_is_one_line_and_exit_3():
    program = (
        "import sys, standin.cli.count as command\n"
        "def broken(args): raise KeyError('a bug of ours')\n"
        "command.run = broken\n"
        "from standin.cli import main\n"
        "sys.exit(main(['count', 'data/sundry/request.json']))\n"
    )
    done = _python("-c", program)
    assert done.returncode == 3
    assert done.stderr.decode() == (
        "error: internal error, please report: KeyError: 'a bug of ours'\n"
    )


def test_a_lone_surrogate_in_a_stream_is_bad_input(tmp_path):
    stream = "".join(sse_write.encode(anthropic_reply(), "anthropic")).encode()
    raw = stream.replace(b'"text_delta","text":"', b'"text_delta","text":"\\ud800', 1)
    assert raw != stream
    path = tmp_path / "s.sse"
    path.write_bytes(raw)
    done = _python("-m", "helpers", "assemble", str(path), "--format", "anthropic")
    assert done.returncode == 2, done.stderr
    assert b"lone surrogate" in done.stderr
