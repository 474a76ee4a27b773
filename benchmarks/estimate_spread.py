"""How far the Claude and Gemini estimates are from the bill: measured on recorded real requests.

Developer-only. It needs a corpus of recorded request bodies with the provider's billed usage
(a directory with ``index.json`` and ``bodies/<format>/<id>.json``, one entry per body with
``source``, ``path``, ``commit``, ``interaction``, ``format``, ``model``, ``status``, ``usage``:
the shape ``make evidence`` reads too), given by the environment variable
``ON_THE_WIRE_CORPUS``. The repository does not ship one: recorded bodies belong to the
projects that recorded them. Without it this prints that it was skipped and changes nothing.

For every accepted body with a recorded bill, on a model ``data/models.json`` knows, it counts
the body offline (``standin.wire_count.count_body``) and compares with the billed input tokens
(``helpers.formats.parse_usage``: input including cached). Then:

- counts labelled exact must equal the bill (printed: how many do);
- for the estimate rules (``anthropic-estimate``, ``gemini-estimate``) the spread of
  billed / counted over the requests whose count sees everything in the body (nothing
  ``unmodelled``: no server tools, files, extended thinking, image of unknown size...), each
  distinct body once.

``python -m benchmarks.estimate_spread --write`` stores the spread, with the public source of
every request it rests on (repository, path, commit, interaction) and the two numbers, in
``data/estimate_spread.json``; ``helpers.tokens.estimate.sentence`` prints it beside every estimate.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import sys
from pathlib import Path

from helpers.examples import DATA

FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")
RULES = ("anthropic-estimate", "gemini-estimate")
TARGET = DATA / "estimate_spread.json"
VARIABLE = "ON_THE_WIRE_CORPUS"


def corpus() -> Path | None:
    """The corpus directory named by ``ON_THE_WIRE_CORPUS``, or None if it is not set."""
    where = os.environ.get(VARIABLE)
    if not where:
        return None
    path = Path(where).expanduser()
    if not (path / "index.json").is_file():
        raise SystemExit(f"{VARIABLE}={path}: no index.json there (expected index.json + bodies/)")
    return path


def measure(root: Path) -> tuple[list[dict], dict[str, int]]:
    """Every countable body: its source, model, rule, count, bill and label; and the skips."""
    from helpers.formats import parse_usage
    from helpers.models import model_info, models
    from standin.wire_count import count_body

    rows, skipped, seen = [], {"model not in the table": 0, "duplicate body": 0}, set()
    table = models(include_legacy=True)
    for entry in json.loads((root / "index.json").read_text(encoding="utf-8")):
        if entry["status"] != 200 or not entry.get("usage") or entry["format"] not in FORMATS:
            continue
        name = entry["model"]  # the table's models and their dated snapshots, as measured so far:
        if name not in table and not any(name.startswith(k + "-") for k in table):
            skipped["model not in the table"] += 1  # counted since issue 34, not yet measured
            continue
        info = model_info(name)
        path = root / "bodies" / entry["format"] / f"{entry['id']}.json"
        body = json.loads(path.read_text(encoding="utf-8"))
        billed = parse_usage(entry["usage"], entry["format"]).input_tokens
        same = {k: v for k, v in body.items() if k not in ("stream", "stream_options")}
        key = hashlib.sha256(
            json.dumps([entry["model"], same, billed], sort_keys=True).encode()
        ).hexdigest()
        if key in seen or not billed:  # the same call recorded sync, async, streamed...
            skipped["duplicate body"] += key in seen
            continue
        seen.add(key)
        counted = count_body(body, entry["format"], info)
        rows.append(
            {
                "source": entry["source"],
                "path": entry["path"],
                "commit": entry["commit"],
                "interaction": entry["interaction"],
                "format": entry["format"],
                "model": entry["model"],
                "counted_as": info.id,
                "rule": info.counting,
                "counted": counted.total,
                "billed": billed,
                "exact": not counted.estimate,
                "sees_everything": not counted.uncertain,  # no unmodelled or unknown part
            }
        )
    return rows, skipped


def spread(rows: list[dict]) -> dict[str, dict]:
    """Per estimate rule: how many requests, and billed / counted at its extremes and middle."""
    out = {}
    for rule in RULES:
        ratios = sorted(
            r["billed"] / r["counted"]
            for r in rows
            if r["rule"] == rule and r["sees_everything"] and r["counted"]
        )
        if not ratios:
            continue
        out[rule] = {
            "requests": len(ratios),
            "low": round(ratios[0], 2),
            "p10": round(_rank(ratios, 0.1), 2),
            "median": round(statistics.median(ratios), 2),
            "p90": round(_rank(ratios, 0.9), 2),
            "high": round(ratios[-1], 2),
        }
    return out


def _rank(ordered: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile of an ordered list."""
    return ordered[round(q * (len(ordered) - 1))]


def table(rows: list[dict], skipped: dict[str, int]) -> str:
    exact = [r for r in rows if r["exact"]]
    lines = [
        f"counts labelled exact: {sum(r['counted'] == r['billed'] for r in exact)} of "
        f"{len(exact)} equal the bill",
        "| rule | requests | bill / count: low | p10 | median | p90 | high |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for rule, s in spread(rows).items():
        lines.append(
            f"| {rule} | {s['requests']} | {s['low']:.2f} | {s['p10']:.2f} | {s['median']:.2f} "
            f"| {s['p90']:.2f} | {s['high']:.2f} |"
        )
    unseen = sum(not r["sees_everything"] for r in rows)
    lines.append(f"{unseen} requests left out: the count does not see part of the body")
    lines.append(", ".join(f"{n} skipped ({why})" for why, n in skipped.items()))
    return "\n".join(lines)


def write(rows: list[dict]) -> None:
    """``data/estimate_spread.json``: the spread and every measured request with its source."""
    from helpers.models import as_of

    used = [r for r in rows if r["rule"] in RULES and r["sees_everything"] and r["counted"]]
    data = {
        "about": (
            "Claude and Gemini token counts here are estimates (a proxy tokenizer). This is how "
            "far the bill was from them on recorded real requests: billed input tokens "
            "(usage as the provider reported it, cached included) / our offline count, on "
            "accepted requests from public projects' recorded test cassettes whose count sees "
            "everything in the body, each distinct body once. Measured with the model table of "
            f"{as_of()} by benchmarks/estimate_spread.py; the sources of every request are below."
        ),
        "licences": {
            "pydantic/pydantic-ai": "MIT, Copyright (c) Pydantic Services Inc. 2024 to present",
            "Mirascope/mirascope": "MIT, Copyright (c) 2026 Mirascope, Inc.",
        },
        "spread": spread(rows),
        "requests": [
            {k: r[k] for k in ("source", "path", "commit", "interaction", "model", "counted_as")}
            | {"rule": r["rule"]}
            | {"counted": r["counted"], "billed": r["billed"]}
            for r in used
        ],
    }
    head = json.dumps({k: v for k, v in data.items() if k != "requests"}, indent=1)
    lines = ",\n".join(f"  {json.dumps(r)}" for r in data["requests"])  # one request a line
    text = f'{head[:-2]},\n "requests": [\n{lines}\n ]\n}}\n'
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}", file=sys.stderr)


def main(argv: list[str]) -> int:
    root = corpus()
    if root is None:
        print(
            f"estimate spread: skipped, {VARIABLE} is not set (a directory of recorded request "
            "bodies with their billed usage: index.json + bodies/); the measured figures in "
            f"{TARGET.name} are used as committed"
        )
        return 0
    rows, skipped = measure(root)
    print(table(rows, skipped))
    if "--write" in argv:
        write(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
