"""What one run of each live cell costs, computed from the dated price table (never typed).

Usage: python scripts/live_costs.py            (prints the Markdown table)
       python scripts/live_costs.py --write    (puts it into docs/live.md, the live-mode page)

The only cell that goes live is lesson 11's LIVE cell: Maya's ticket through the agent loop, in
the lesson's wire format (Anthropic by default; a learner may switch it). For each format this
runs that same ticket against the stand-in, which plays the model and counts usage with
the offline counter, and prices every request with ``helpers.cost`` (genai-prices, pinned, at
``data/models.json``'s ``as_of`` date). A real model may take more or fewer turns, and the counts
the stand-in could only estimate are marked (its meter says which and by how much).
``tests/standin/test_live.py`` checks that docs/live.md holds exactly this table.
"""

from __future__ import annotations

import sys
import textwrap
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PAGE = ROOT / "docs" / "live.md"  # the live-mode page (the README links to it)
START, END = "<!-- live-costs:start -->\n", "\n<!-- live-costs:end -->"
FORMATS = ["anthropic", "openai-chat", "openai-responses", "gemini"]  # lesson 11's default first

#: Dated facts about a default model that change what a run costs or whether it runs, each with
#: its public source and the date it was read. Printed under the table for the models in it.
MODEL_NOTES = {
    "gpt-4o-mini": (
        "`gpt-4o-mini` (its snapshot `gpt-4o-mini-2024-07-18`) **shuts down on 2027-01-14**; "
        "OpenAI names `gpt-6-luna` as its replacement. Source: OpenAI's deprecations page "
        "(https://developers.openai.com/api/docs/deprecations; the shutdown was announced "
        '2026-10-14), as quoted on 2026-10-15 (dev.to/importstatic, "Every OpenAI model '
        'shutdown date until January 2027") and checked against the `shutdown_date` that '
        '`GET /v1/models` returned on 2026-10-27 (dev.to/max_bob, "OpenAI API deprecations '
        '2026-2027"). After that date the `openai-chat` and `openai-responses` rows fail '
        "live until `default_model` names another model."
    ),
    "gemini-3.8-flash": (
        "`gemini-3.8-flash`'s price here is **introductory, until 2026-12-31**: \"$0.75 "
        "through December 31, 2026\" per million input tokens on Google's pricing page "
        "(https://ai.google.dev/gemini-api/docs/pricing, as transcribed on 2026-10-07 in "
        "api-evangelist/deepmind `plans/deepmind-plans-pricing.yml`); from 2027-01-01 it is "
        "$1.50 input and $7.50 output per million (BerriAI/litellm discussion #39357, "
        '"Gemini 3.8 Flash is now live on LiteLLM", read 2026-12-07), twice these '
        "rates, so the `gemini` run costs about twice as much."
    ),
}


def rows() -> list[dict]:
    """One row per wire format: key, model, requests, tokens and the price of one run."""
    from helpers.examples import sundry
    from helpers.loop import run
    from helpers.models import default_model, model_info
    from standin import LocalProvider
    from standin.live import KEYS, family

    out = []
    with LocalProvider("sundry") as local:
        for wire_format in FORMATS:
            model = default_model(family(wire_format))
            trace = run(
                sundry.opening(model), sundry.run_tool, format=wire_format, base_url=local.url
            )
            out.append(
                {
                    "format": wire_format,
                    "key": KEYS[family(wire_format)],
                    "model": model,
                    "input estimate": bool(trace.count_notes()),  # the provider says so
                    "output estimate": model_info(model).counting.endswith("estimate"),
                    "requests": len(trace.steps),
                    "input": trace.total("input_tokens"),
                    "output": trace.total("output_tokens"),
                    "cost": trace.cost_usd,
                }
            )
    return out


def table() -> str:
    """The Markdown table and its one-line caption (the price table's date and source)."""
    from helpers.models import as_of

    lines = [
        "| `wire_format` in the LIVE cell | key it uses | model | requests | input tokens "
        "| output tokens | one run |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    rows_ = rows()
    for r in rows_:
        inp, out = ("≈ " if r[f"{part} estimate"] else "" for part in ("input", "output"))
        lines.append(
            f"| `{r['format']}` | `{r['key']}` | `{r['model']}` | {r['requests']} "
            f"| {inp}{r['input']:,} | {out}{r['output']:,} | {inp or out}${r['cost']:.5f} |"
        )
    lines.append("")
    caption = (
        f"Prices: genai-prices {version('genai-prices')} at {as_of()} (`data/models.json`), "
        "for the requests the stand-in makes; ≈ marks token counts that are estimates "
        "offline (Claude and Gemini; OpenAI tool definitions of a shape whose rendering is not "
        "verified: `python -m helpers count` says by how much). A real model may take more or "
        "fewer turns. Computed by `python scripts/live_costs.py`, checked by the tests."
    )
    notes = [MODEL_NOTES[m] for m in dict.fromkeys(r["model"] for r in rows_) if m in MODEL_NOTES]
    dated = []
    for note in notes:
        wrapped = textwrap.wrap(note, width=94, break_on_hyphens=False, break_long_words=False)
        dated += ["", "- " + wrapped[0], *("  " + line for line in wrapped[1:])]
    return "\n".join(lines + textwrap.wrap(caption, width=96, break_on_hyphens=False) + dated)


def write(text: str) -> bool:
    """Put ``text`` between the live-mode page's markers; True if the file changed."""
    page = PAGE.read_text(encoding="utf-8")
    head, rest = page.split(START, 1)
    _, tail = rest.split(END, 1)
    new = head + START + text + END + tail
    if new != page:
        PAGE.write_text(new, encoding="utf-8")
    return new != page


def main(args: list[str]) -> int:
    text = table()
    if args == ["--write"]:
        print(PAGE.relative_to(ROOT).as_posix(), "updated" if write(text) else "unchanged")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
