"""``python -m benchmarks``: how fast counting is, printed as a table (never asserted in tests).

Rows:

- import times of ``helpers`` and the counting modules, each in a fresh interpreter (target:
  ``import helpers`` under 150 ms; tokenizers load lazily);
- tokenizer load time (o200k, cl100k), in a fresh interpreter;
- counting overhead, cold caches, against tiktoken's ``encode`` of the same rendered text:
  ``count_text`` on that text and ``count`` (with the breakdown: rows for every message and
  block), the one rule the lessons, the CLI and the stand-in run;
- a growing Sundry ticket (50, 200, 1,000 turns) counted after every turn as the stand-in
  counts it (encodes memoised across requests); plus the naive way (caches cleared every turn);
- the stand-in's latency per request on a keep-alive connection, against a bare
  ``http.server`` answering the same bytes in the same run (target: p50 <= 5 ms);
- redaction of one exchange (``standin.redaction``): a 1 MB stream with a known key, and 1 MB
  bodies made to slow its patterns (escapes after ``sk-``, runs of backslashes or ``%``, a
  client's key of backslashes against a run of them);
- hostile requests to the stand-in (``benchmarks/hostile.py``: a backtracking schema
  ``pattern``, ``minLength`` of fifty million, ``minItems`` with ``uniqueItems``, a body nested
  100,000 deep, an unsatisfiable schema...): each one's status, wall time and peak traced
  memory (target: every one a 4xx or 200 in well under a second, memory in megabytes);
- with ``ON_THE_WIRE_CORPUS`` set (a directory of recorded request bodies with their bills,
  ``benchmarks/estimate_spread.py``): how many counts labelled exact equal the bill, and the
  spread of bill / count of the Claude and Gemini estimates. Without it the row says skipped.

Timings are CPU time, best of several runs with the garbage collector off (as ``timeit``
does), on whatever machine runs this; they are indicative only.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable

ROWS: list[tuple[str, str, str]] = []


def _row(what: str, value: str, note: str = "") -> None:
    ROWS.append((what, value, note))
    print(f"  {what:<58} {value:>12}  {note}", file=sys.stderr)


def _fresh(code: str, runs: int = 7) -> float:
    """Median wall time of ``code`` in a fresh interpreter, minus a bare interpreter's start."""

    def once(source: str) -> float:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", source], check=True)
        return time.perf_counter() - started

    bare = statistics.median(once("pass") for _ in range(runs))
    return statistics.median(once(code) for _ in range(runs)) - bare


def _timed(fn: Callable[[], object], runs: int = 21) -> float:
    """CPU seconds of ``fn``, the best of ``runs``, garbage collector off (as ``timeit`` does).

    CPU time, not wall time: on a shared machine a run that waits for a core is not slower
    code, and a long run waits more often than a short one, which would bias every ratio.
    """
    import gc

    times = []
    gc.disable()
    try:
        for _ in range(runs):
            started = time.process_time()
            fn()
            times.append(time.process_time() - started)
    finally:
        gc.enable()
    return min(times)


def _clear_caches() -> None:
    from helpers.tokens.tokenizers import encode

    encode.cache_clear()


def _import_seconds(module: str, runs: int = 7) -> float:
    """Median cumulative import time of ``module`` in a fresh interpreter (``-X importtime``).

    Python reports each import's own cost, so interpreter start-up noise does not enter it.
    """

    def once() -> float:
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            check=True,
            capture_output=True,
            text=True,
        )
        for line in done.stderr.splitlines():
            fields = [f.strip() for f in line.removeprefix("import time:").split("|")]
            if len(fields) == 3 and fields[2] == module:
                return int(fields[1]) / 1e6
        raise RuntimeError(f"no import time reported for {module}")

    return statistics.median(once() for _ in range(runs))


def imports() -> None:
    for module in ("helpers", "helpers.tokens", "helpers.cost"):
        seconds = _import_seconds(module)
        _row(f"import {module}", f"{1000 * seconds:.0f} ms", "target < 150 ms")
    for name in ("o200k_base", "cl100k_base"):
        code = f"from helpers.tokens.tokenizers import encoding; encoding('{name}')"
        load = _fresh(code, runs=5) - _fresh("import helpers.models", runs=5)
        _row(f"tokenizer load: {name}", f"{1000 * load:.0f} ms", "once per process, lazily")
    load = _fresh("from helpers.gemma import tokenizer; tokenizer()", runs=5) - _fresh(
        "import helpers.gemma", runs=5
    )
    _row("tokenizer load: gemma3 (Gemini 2.x)", f"{1000 * load:.0f} ms", "target < 1,000 ms")


def _everyday_requests() -> list:
    """Requests the size lessons send: Sundry's last turn, the crash-triage fixture."""
    from benchmarks.sundry_ticket import requests
    from helpers.examples import DATA
    from helpers.messages import load_file

    crash = load_file(DATA / "crash_triage" / "request.json")
    crash.model = "gpt-4o-mini"
    return [("Sundry's last request", requests("gpt-4o-mini")[-1]), ("crash-triage request", crash)]


def overhead() -> None:
    from benchmarks.sundry_ticket import long_ticket
    from helpers.tokens import count, count_text
    from helpers.tokens.tokenizers import encoding

    request = long_ticket(200, "gpt-4o-mini")[-1]
    counted = count(request)
    enc = encoding("o200k_base")
    text = "".join(enc.decode(list(p.ids)) for p in counted.pieces if p.ids)

    def cold(fn: Callable[[], object]) -> Callable[[], object]:
        return lambda: (_clear_caches(), fn())

    for label, small in _everyday_requests():
        small_text = "".join(enc.decode(list(p.ids)) for p in count(small).pieces if p.ids)
        small_raw = _timed(lambda t=small_text: _raw(enc, t))
        took = _timed(cold(lambda r=small: count(r)))  # what a lesson, the CLI and server run
        note = f"{took / small_raw:.2f}x encode"
        _row(f"count({label}), cold", f"{1000 * took:.2f} ms", note)
        count(small)
        took = _timed(lambda r=small: count(r))
        _row(f"count({label}), warm", f"{1000 * took:.2f} ms", "the same request again")

    raw = _timed(lambda: _raw(enc, text))
    _row(f"raw encode, a 200-turn request ({counted.total} tokens)", f"{1000 * raw:.2f} ms")
    for what, fn in [
        ("count_text(same text)", lambda: count_text(text, "gpt-4o-mini")),
        ("count(200-turn request)", lambda: count(request)),
    ]:
        took = _timed(cold(fn))
        _row(f"{what}, cold", f"{1000 * took:.2f} ms", f"{took / raw:.2f}x encode")


#: Framing tokens tiktoken may read as special in the rendered text (the raw-encode baseline).
ALLOWED = frozenset({"<|start|>", "<|end|>", "<|message|>", "<|constrain|>", "<|endoftext|>"})


def _raw(enc, text: str) -> list[int]:
    """tiktoken's encode of the rendered text, framing tokens allowed (the fastest call)."""
    return enc.encode(text, allowed_special=ALLOWED & enc.special_tokens_set, disallowed_special=())


def incremental(turns: tuple[int, ...] = (50, 200, 1000), naive_turns: int = 200) -> None:
    """Each request of a growing ticket counted as the stand-in counts it (encodes
    memoised across requests), against one count of the final request. Issue 34 removed the
    one-encode twins on these rows: the readable count was as fast up to about 200 turns."""
    from benchmarks.sundry_ticket import long_ticket
    from helpers.tokens import count

    for n in turns:
        ticket = long_ticket(n, "gpt-4o-mini")

        def every_turn(ticket: list = ticket) -> None:
            _clear_caches()
            for request in ticket:
                count(request)

        def final_only(ticket: list = ticket) -> None:
            _clear_caches()
            count(ticket[-1])

        per_turn, once = _timed(every_turn, runs=3 if n < 1000 else 1), _timed(final_only, runs=3)
        note = f"{per_turn / once:.0f}x one count of the final request, {n} requests"
        _row(f"{n}-turn ticket: count after every turn", f"{per_turn:.2f} s", note)
    short = long_ticket(naive_turns, "gpt-4o-mini")

    def naive() -> None:
        for request in short:
            _clear_caches()
            count(request)

    def short_once() -> None:
        _clear_caches()
        count(short[-1])

    slow, base = _timed(naive, runs=1), _timed(short_once, runs=3)
    _row(
        f"{naive_turns}-turn ticket, naive (no cache)",
        f"{slow:.2f} s",
        f"{slow / base:.0f}x one count",
    )


def provider() -> None:
    """The stand-in on a keep-alive connection vs a bare http.server (same bytes)."""
    from benchmarks.provider_latency import REQUESTS, measure

    m = measure()
    note = f"{REQUESTS} requests, keep-alive; target p50 <= 5 ms"
    _row("stand-in, p50 per request", f"{m['provider_p50']:.2f} ms", note)
    _row("stand-in, p95 per request", f"{m['provider_p95']:.2f} ms")
    _row("bare http.server, same bytes, p50", f"{m['bare_p50']:.2f} ms", "the floor")
    _row("stand-in / bare http.server (p50)", f"{m['ratio']:.1f}x", "same run")


def redaction() -> None:
    """Redacting one exchange by value and shape: a 1 MB stream, and hostile 1 MB bodies."""
    import json

    from standin.redaction import redact_body

    key = "gw-Tq7Rz2Lm9Xv4Kp8Wn3Hb6Jc"  # known by value (a request's own key)
    chunk = {"choices": [{"index": 0, "delta": {"content": "word "}}]}
    stream = "".join(f"data: {json.dumps(chunk)}\n\n" for _ in range(10_000)).encode()
    cases = {
        "a 1 MB stream, one known key": (stream, "text/event-stream"),
        "1 MB of JSON escapes after sk-": (("sk-" + "\\u0041" * 170_000).encode(), ""),
        "1 MB of backslashes": (b"\\" * 1_000_000, ""),
        "1 MB of percent signs": (b"%" * 1_000_000, ""),
    }
    for what, (body, kind) in cases.items():
        took = _timed(lambda b=body, k=kind: redact_body(b, k, {key}), runs=3)
        _row(f"redaction: {what}", f"{1000 * took:.0f} ms", "linear: no backtracking")
    # a client's own key of backslashes (its spellings overlap: 1 to 5 backslashes each), and
    # 200 KB of them: a backtracking pattern never returns; the scan is linear in the body
    for size in (40, 4000):
        body, bad = b"\\" * 200_000, "\\" * size + "Aa0"
        took = _timed(lambda b=body, k=bad: redact_body(b, "", {k}), runs=1)
        _row(
            f"redaction: a key of {size:,} backslashes, 200 KB of them",
            f"{1000 * took:.0f} ms",
            "linear, whatever the key's length",
        )


def hostile() -> None:
    """Each hostile request: status, wall time, peak traced memory (benchmarks/hostile.py)."""
    from benchmarks.hostile import connections, measure

    for row in measure():
        value = f"{1000 * row['seconds']:.0f} ms"
        note = f"HTTP {row['status']}, peak {row['peak_mb']:.1f} MB traced"
        _row(f"hostile: {row['name']}", value, note)
    _row("200 simultaneous connections, all connected", f"{connections():.2f} s", "target ~0 s")


def estimates() -> None:
    """Claude/Gemini estimates against recorded bills (needs ON_THE_WIRE_CORPUS, else skipped)."""
    from benchmarks.estimate_spread import (
        VARIABLE,
        by_project,
        corpus,
        held_out_structure,
        measure,
        spread,
    )

    root = corpus()
    if root is None:
        _row("estimate spread vs recorded bills", "skipped", f"{VARIABLE} not set")
        return
    rows, _ = measure(root)
    exact = [r for r in rows if r["exact"]]
    equal = sum(r["counted"] == r["billed"] for r in exact)
    _row("counts labelled exact that equal the bill", f"{equal} of {len(exact)}", "target: all")
    text = [r for r in rows if r["rule"] == "gemini-gemma3" and r["text_only"]]
    same = sum(r["counted"] == r["billed"] for r in text)
    _row("Gemini text on Gemma 3 = the bill", f"{same} of {len(text)}", "target: 95 %")
    for rule, s in spread(rows).items():
        whole = f"{s['low']:.2f}-{s['high']:.2f}"
        note = f"{s['requests']} requests, median {s['median']:.2f}, all ({whole})"
        _row(f"{rule}: bill / count p10-p90", f"{s['p10']:.2f}-{s['p90']:.2f}", note)
        for source, p in by_project(rows).get(rule, {}).items():
            note = f"{p['requests']} requests, median {p['median']:.2f}, {source}"
            _row(f"{rule}: bill / count p10-p90", f"{p['p10']:.2f}-{p['p90']:.2f}", note)
    held = held_out_structure(rows).get("spread")
    if held:
        note = f"{held['requests']} requests, median {held['median']:.2f}, target: 0.95-1.05"
        name = "gemini-gemma3, departures fitted on the other project: p10-p90"
        _row(name, f"{held['p10']:.2f}-{held['p90']:.2f}", note)


def main() -> int:
    print("running benchmarks (indicative timings)...", file=sys.stderr)
    imports()
    overhead()
    incremental()
    provider()
    redaction()
    hostile()
    estimates()
    width = max(len(r[0]) for r in ROWS)
    print(f"| {'benchmark':<{width}} | {'result':>12} | note |")
    print(f"|{'-' * (width + 2)}|{'-' * 14}|------|")
    for what, value, note in ROWS:
        print(f"| {what:<{width}} | {value:>12} | {note} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
