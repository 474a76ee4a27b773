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
import math
import os
import statistics
import sys
from dataclasses import replace
from pathlib import Path

from helpers.examples import DATA

FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")
RULES = ("anthropic-estimate", "gemini-estimate", "gemini-gemma3")
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
    from helpers.models import UnknownModelError, model_info
    from standin.wire_count import count_body

    rows, skipped, seen = [], {"model no provider uses": 0, "duplicate body": 0}, set()
    for entry in json.loads((root / "index.json").read_text(encoding="utf-8")):
        if entry["status"] != 200 or not entry.get("usage") or entry["format"] not in FORMATS:
            continue
        try:  # every model a provider uses is counted since issue 34
            info = model_info(entry["model"])
        except UnknownModelError:
            skipped["model no provider uses"] += 1
            continue
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
        infos = [info]  # a Gemma 3 model is measured with the proxy too: the unmapped models' rule
        if info.counting == "gemini-gemma3":
            infos.append(replace(info, counting="gemini-estimate", encoding=None))
        for used in infos:
            row = _row(entry, used, count_body(body, entry["format"], used), billed)
            rows.append(row | {"body": body, "info": used})  # to count it again held out
    return rows, skipped


def _row(entry: dict, info, counted, billed: int) -> dict:
    """One measured request: its source, model, rule, count, bill and label."""
    return {
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
        "sees_everything": _plain(counted),  # no unmodelled or unknown part
        "text_only": _text_only(counted),
    }


def _plain(counted) -> bool:
    """Nothing in the body the count does not see (for ``gemini-gemma3``: nothing but what its
    own rule names as not exact, function declarations and calls, which the spread measures)."""
    from helpers.messages import Image

    blocks = [b for m in counted.request.messages for b in m.content] if counted.request else []
    if counted.info and counted.info.provider == "gemini" and any(type(b) is Image for b in blocks):
        return False  # Gemini bills an image by tiles of its size (a 2.0 bill: 1,817 for one)
    if counted.info is None or counted.info.counting != "gemini-gemma3":
        return not counted.uncertain
    from helpers.tokens.gemini import uncertain

    own = uncertain(counted.request, counted.info)
    unseen = [why for _, why in own.values() if "not seen" in why]  # a signature, a $ref
    return not unseen and all(own.get(part) == why for part, why in counted.uncertain.items())


def _text_only(counted) -> bool:
    """Only text (and thought text) in the request: no tools, calls, media or unseen fields."""
    from helpers.messages import Reasoning, Text

    request = counted.request
    blocks = [b for m in request.messages for b in m.content] if request else [None]
    plain = not counted.uncertain or set(counted.uncertain) == {"model"}
    return plain and not request.tools and all(type(b) in (Text, Reasoning) for b in blocks)


def spread(rows: list[dict]) -> dict[str, dict]:
    """Per estimate rule: how many requests, and billed / counted at its extremes and middle."""
    out = {}
    for rule in RULES:
        ratios = [r["billed"] / r["counted"] for r in _plain_rows(rows) if r["rule"] == rule]
        if ratios:
            out[rule] = _summary(ratios)
    return out


def by_project(rows: list[dict]) -> dict[str, dict[str, dict]]:
    """The same spread per estimate rule and recorded project (``source``)."""
    out: dict[str, dict[str, dict]] = {}
    for r in _plain_rows(rows):
        out.setdefault(r["rule"], {}).setdefault(r["source"], []).append(r["billed"] / r["counted"])
    return {
        rule: {source: _summary(ratios) for source, ratios in sorted(projects.items())}
        for rule, projects in sorted(out.items())
    }


def held_out(rows: list[dict], rule: str = "anthropic-estimate") -> dict[str, dict]:
    """The spread of ``rule`` if its counts were scaled by a factor fitted on the bills (the
    median bill / count) of the other recorded projects: one factor for all models, and one per
    model (dated snapshots with their model; a model the other projects lack gets theirs)."""
    plain = [r for r in _plain_rows(rows) if r["rule"] == rule]
    out = {}
    for name, key in (("one factor", lambda r: ""), ("per model", lambda r: r["counted_as"])):
        ratios = []
        for source in {r["source"] for r in plain}:
            train = [r for r in plain if r["source"] != source]
            factor = {"": statistics.median(r["billed"] / r["counted"] for r in train)}
            for k in {key(r) for r in train}:
                ratio = [r["billed"] / r["counted"] for r in train if key(r) == k]
                factor[k] = statistics.median(ratio)
            ratios += [
                r["billed"] / (factor.get(key(r), factor[""]) * r["counted"])
                for r in plain
                if r["source"] == source
            ]
        if ratios:
            out[name] = _summary(ratios)
    return out


def held_out_structure(rows: list[dict]) -> dict[str, dict]:
    """The ``gemini-gemma3`` spread if each generation's departures from the template
    (``helpers.tokens.gemini.QUIRKS``) were chosen on the other recorded project's bills (the
    published template unchanged for a generation that project lacks), measured on the
    project left out; and the choices made."""
    from helpers.tokens import gemini
    from standin.wire_count import count_body

    plain = [r for r in _plain_rows(rows) if r["rule"] == "gemini-gemma3"]
    options = [(a, b) for a in (False, True) for b in (False, True)]
    generation = {"gemini-3": "3", "gemini-2.5": "2.5"}

    def ratios(subset: list[dict], chosen: dict) -> list[float]:
        kept = gemini.QUIRKS
        gemini.QUIRKS = {g: chosen.get(g, (False, False)) for g in kept}
        try:
            return [r["billed"] / count_body(r["body"], "gemini", r["info"]).total for r in subset]
        finally:
            gemini.QUIRKS = kept

    out, measured = {}, []
    for source in sorted({r["source"] for r in plain}):
        train = [r for r in plain if r["source"] != source]
        chosen = {}
        for gen in set(generation.values()):
            mine = [r for r in train if _generation(r["model"], generation) == gen]
            if mine:
                error = {o: sum(abs(math.log(x)) for x in ratios(mine, {gen: o})) for o in options}
                chosen[gen] = min(options, key=lambda o: (error[o], o))
        measured += ratios([r for r in plain if r["source"] == source], chosen)
        out[f"chosen without {source}"] = {g: _departures(o) for g, o in sorted(chosen.items())}
    return {"spread": _summary(measured), **out} if measured else {}


def _departures(choice: tuple[bool, bool]) -> str:
    """``QUIRKS``' pair in words."""
    names = ("an empty description left out", "a string parameter's type left out")
    return ", ".join(n for n, on in zip(names, choice, strict=True) if on) or "the template as is"


def _generation(model: str, prefixes: dict[str, str]) -> str | None:
    return next((g for p, g in prefixes.items() if model.startswith(p)), None)


def _plain_rows(rows: list[dict]) -> list[dict]:
    return [r for r in rows if r["rule"] in RULES and r["sees_everything"] and r["counted"]]


def _summary(ratios: list[float]) -> dict:
    ratios = sorted(ratios)
    return {
        "requests": len(ratios),
        "low": round(ratios[0], 2),
        "p10": round(_rank(ratios, 0.1), 2),
        "median": round(statistics.median(ratios), 2),
        "p90": round(_rank(ratios, 0.9), 2),
        "high": round(ratios[-1], 2),
    }


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
    text = [r for r in rows if r["rule"] == "gemini-gemma3" and r["text_only"]]
    same = sum(r["counted"] == r["billed"] for r in text)
    lines.insert(1, f"gemini-gemma3 text-only requests: {same} of {len(text)} equal the bill")
    for rule, s in spread(rows).items():
        lines.append(
            f"| {rule} | {s['requests']} | {s['low']:.2f} | {s['p10']:.2f} | {s['median']:.2f} "
            f"| {s['p90']:.2f} | {s['high']:.2f} |"
        )
    unseen = sum(not r["sees_everything"] for r in rows)
    for rule, projects in by_project(rows).items():
        for source, s in projects.items():
            lines.append(
                f"| {rule}, {source} | {s['requests']} | {s['low']:.2f} | {s['p10']:.2f} "
                f"| {s['median']:.2f} | {s['p90']:.2f} | {s['high']:.2f} |"
            )
    for name, s in held_out(rows).items():
        lines.append(
            f"| anthropic-estimate x a factor ({name}) fitted on the other project | "
            f"{s['requests']} | {s['low']:.2f} | {s['p10']:.2f} | {s['median']:.2f} "
            f"| {s['p90']:.2f} | {s['high']:.2f} |"
        )
    structure = held_out_structure(rows)
    if structure:
        s = structure["spread"]
        lines.append(
            f"| gemini-gemma3, its departures from the template chosen on the other project | "
            f"{s['requests']} | {s['low']:.2f} | {s['p10']:.2f} | {s['median']:.2f} "
            f"| {s['p90']:.2f} | {s['high']:.2f} |"
        )
        lines += [f"{k}: {v}" for k, v in structure.items() if k != "spread"]
    lines.append(f"{unseen} requests left out: the count does not see part of the body")
    lines.append(", ".join(f"{n} skipped ({why})" for why, n in skipped.items()))
    return "\n".join(lines)


#: Why the Claude estimate's spread is stated, not narrowed (issue 34, item 3), from what
#: ``by_project`` and a held-out fit measured on the 2026-11-30 corpus.
WHY = {
    "anthropic-estimate": (
        "Not calibrated: no factor fitted on recorded bills narrows it on a project left out of "
        "the fit. One factor for all Claude models (billed = 1.0703 x count + 3.85) gave p10 "
        "0.83, median 1.11, p90 1.29 held out; one per model family p10 0.90, median 1.06, p90 "
        "1.22 (the target is 0.93-1.07). The error follows the request more than the model: "
        "claude-sonnet-4-5 is billed a median 1.12x the count in Mirascope (16 requests, "
        "1.04-1.20) and 1.01x in pydantic-ai (12, 0.69-1.46), and even leaving out one test "
        "file at a time a per-family factor leaves p10 0.86 and p90 1.12. Two recorded "
        "projects are too few to tell a model's factor from a project's way of building requests."
    ),
}


def write(rows: list[dict]) -> None:
    """``data/estimate_spread.json``: the spread and every measured request with its source."""
    from helpers.models import as_of

    used = _plain_rows(rows)
    data = {
        "about": (
            "Claude token counts are estimates (a proxy tokenizer), and so are Gemini's on models "
            "Google's SDK maps to Gemma 4 or to nothing (the proxy) and, on the models it maps to "
            "Gemma 3 (rule gemini-gemma3), those with function declarations, calls or responses "
            "(written as Gemma 4's chat template writes them, with the two departures Gemini "
            "2.5's and 3's bills show). This is how far the bill was from them on recorded real "
            "requests: billed input tokens (usage as the provider reported it, cached included) "
            "/ our offline count, on accepted requests from public projects' recorded test "
            "cassettes whose count sees everything in the body, each distinct body once. Left "
            "out as not seen: a request sending back a thought signature (streamed, it is billed "
            "the previous reply's thinking: 0.12-0.20 tokens per signature character on these "
            "bills) and a declaration with $ref or anyOf. gemini_gemma3_held_out: the same "
            "spread with the departures chosen on the other project's bills and measured on the "
            "project left out. Measured with the model table of "
            f"{as_of()} by benchmarks/estimate_spread.py; the sources of every request are below."
        ),
        "licences": {
            "pydantic/pydantic-ai": "MIT, Copyright (c) Pydantic Services Inc. 2024 to present",
            "Mirascope/mirascope": "MIT, Copyright (c) 2026 Mirascope, Inc.",
        },
        "spread": spread(rows),
        "spread_by_project": by_project(rows),
        "gemini_gemma3_held_out": held_out_structure(rows),
        "why_not_narrower": WHY,
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
