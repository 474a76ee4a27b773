"""The one-page cheat sheet of the series: HTML, and a printable PDF made by Chromium.

Usage: python scripts/cheat_sheet.py [OUTPUT_DIR] [--html-only]   (``make cheat-sheet``;
default: build/cheat-sheet/)

What is on it, and where each part comes from (nothing on it is typed by hand but the words
and the commands; every number and every provider spelling is computed when it is built):

- the four roles and how each format spells them: found in the bodies ``helpers.formats.render``
  writes for one small conversation;
- that conversation in the four formats (the bodies, tool definitions left out for room);
- the rules of the list with each provider's answer: the texts of ``standin/rules/table.py``
  (the ones ``check`` and the stand-in use), cut to one line;
- the cost formula with caching, each default model's rates and cache minimum (genai-prices,
  ``data/models.json``), and Sundry's turn-2 request priced with ``helpers.cost.price``;
- the commands.

The PDF is Chromium's print-to-PDF (Playwright drives Debian's Chromium, as in the browser
tests; ``make browser`` installs it): the same HTML, on one A4 page. Not for: slides (``make
slides``) or the answer key (``make site``).
"""

from __future__ import annotations

import html
import json
import shutil
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from helpers.cost import price  # noqa: E402
from helpers.cost.caching import openai_cached_tokens, shared_prefix  # noqa: E402
from helpers.examples import sundry  # noqa: E402
from helpers.formats import FORMATS, family, render_for  # noqa: E402
from helpers.messages import (  # noqa: E402
    Request,
    Tool,
    Usage,
    assistant,
    system,
    tool,
    tool_call,
    tool_result,
    user,
)
from helpers.models import as_of, default_model, info_for, rates  # noqa: E402
from helpers.tokens import count  # noqa: E402
from standin.rules.table import ROWS  # noqa: E402

HTML_NAME, PDF_NAME = "cheat_sheet.html", "cheat_sheet.pdf"
#: The words the example conversation uses; the sheet finds where each format puts them.
TEXTS = {
    "system": "Answer in one line.",
    "user": "Where is order 42?",
    "assistant": "lookup_order",
    "tool": "shipped on Monday",
}
#: The rules the sheet lists (the lessons' core list rules), in this order.
RULES = (
    "call-not-answered",
    "result-without-call",
    "duplicate-result",
    "empty-content",
    "arguments-not-object",
    "system-not-first",
)
LONGEST = 70  # characters of a provider's error text on the sheet


def example() -> Request:
    """One small conversation with all four roles: system, user, a tool call, its result."""
    return Request(
        model="",
        tools=[Tool("lookup_order", "Find an order by id.", {"type": "object"})],
        messages=[
            system(TEXTS["system"]),
            user(TEXTS["user"]),
            assistant(tool_call("call_1", TEXTS["assistant"], {"id": 42})),
            tool(tool_result("call_1", TEXTS["tool"])),
        ],
    )


def _path_to(value: Any, text: str, path: tuple = ()) -> tuple | None:
    """The path of keys and indexes to the first string holding ``text`` (or None)."""
    if isinstance(value, str):
        return path if text in value else None
    if not isinstance(value, dict | list):
        return None
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, inner in items:
        found = _path_to(inner, text, (*path, key))
        if found is not None:
            return found
    return None


def spelling(body: dict, text: str) -> str:
    """How a body spells the role that holds ``text``: a top-level field, or a message's role
    and, inside it, the field or block type that carries it."""
    path = _path_to({k: v for k, v in body.items() if k != "tools"}, text)
    if path is None:
        return "(not sent)"
    if not isinstance(body[path[0]], list):
        return f"top-level {path[0]}"
    item = body[path[0]][path[1]]
    words = []
    if "role" in item:
        words.append(f'role "{item["role"]}"')
    if "type" in item and item.get("type") != "message":
        words.append(f'type "{item["type"]}"')
    if len(path) > 2 and path[2] not in ("content", "parts"):
        words.append(f"+ {path[2]}")
    elif len(path) > 3 and isinstance(path[3], int):  # a block in content / parts
        block = item[path[2]][path[3]]
        kind = block.get("type") or next(iter(block))
        if kind != "text":
            words.append(f"+ {kind} block")
    return ", ".join(words) or f"{path[0]}[]"


def roles_table() -> tuple[list[str], list[list[str]], dict[str, dict]]:
    """(the formats, a row per role with each format's spelling, the bodies by format)."""
    bodies = {f: render_for(example(), f).body for f in FORMATS}
    rows = [[role, *(spelling(bodies[f], text) for f in FORMATS)] for role, text in TEXTS.items()]
    return list(FORMATS), rows, bodies


def rules_table() -> list[list[str]]:
    """A row per rule: the rule, then each format's answer (its error text, cut), from the
    rules table ``check`` and the stand-in use."""
    first: dict[tuple[str, str], Any] = {}
    for row in ROWS:
        first.setdefault((row.rule, row.profile), row)
    out = []
    for rule in RULES:
        cells = [rule]
        for f in FORMATS:
            row = first.get((rule, f))
            if row is None or row.verdict != "refused":
                cells.append(
                    f"accepted ({row.verdict})" if row and row.verdict != "accepted" else "accepted"
                )
            else:
                text = " ".join(row.error.split())
                cells.append(
                    "400: " + (text if len(text) <= LONGEST else text[: LONGEST - 1] + "…")
                )
        out.append(cells)
    return out


def _rate(value: Decimal) -> str:
    """A rate as the price list has it: at least cents, every digit it has ($0.15, $0.075)."""
    whole, _, cents = f"{value.normalize():f}".partition(".")
    return f"${whole}.{cents:0<2}"


def _usd(value: Decimal) -> str:
    return f"${value:,.6f}".rstrip("0").rstrip(".") if value else "$0"


def cost_rows() -> list[list[str]]:
    """Per provider's default model: its rates, its cache minimum, and Sundry's turn-2 request
    priced uncached and with its tools + system prefix read from the cache (if long enough)."""
    out = []
    for provider in dict.fromkeys(family(f) for f in FORMATS):
        model = default_model(provider)
        info, r = info_for(model), rates(model)
        counted = count(sundry.ticket(model), model)
        prefix = shared_prefix(counted)
        minimum = info.cache.get("min_tokens", 0)
        if info.cache.get("kind") == "openai-prefix":
            cached = openai_cached_tokens(prefix, minimum, info.cache.get("step_tokens", 1))
        else:
            cached = prefix if prefix >= minimum else 0
        cold = price(Usage(input_tokens=counted.total), model).total_usd
        warm = price(Usage(input_tokens=counted.total, cache_read_tokens=cached), model).total_usd
        write = f" / write {_rate(r['cache_write'])}" if "cache_write" in r else ""
        hit = (
            f"{cached:,} read: {_usd(warm)}"
            if cached
            else f"prefix {prefix:,} < minimum {minimum:,}: no hit"
        )
        out.append(
            [
                model,
                f"{_rate(r['input'])} / {_rate(r['cached_input'])}{write} / {_rate(r['output'])}",
                f"{minimum:,}",
                f"{counted.total:,} ({prefix:,} tools + system)",
                _usd(cold),
                hit,
            ]
        )
    return out


COMMANDS = [
    ("make lab", "set up (first time) and open lesson 00: your copies in student/"),
    ("make update", "pull the new version; copies you changed are kept"),
    ("make student RESET=05", "a fresh lesson 05; yours saved in student/backup/"),
    ('show_solution("05.2")', "in a new cell: the reference solution of exercise 05.2"),
    ("python -m helpers serve", "the stand-in on 127.0.0.1, with curl examples"),
    ("python -m helpers check body.json", "the rules of the list, each provider's verdict"),
    ("python -m helpers count body.json", "the tokens of a request, part by part"),
    ("make room", "instructors: which exercises each learner's checks passed"),
]


def _table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return f'<table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


STYLE = """
@page { size: A4; margin: 8mm; }
* { box-sizing: border-box; }
body { font: 7.4pt/1.25 system-ui, "DejaVu Sans", sans-serif; margin: 0; color: #111; }
h1 { font-size: 13pt; margin: 0 0 2px; }
h2 { font-size: 9pt; margin: 6px 0 2px; color: #0b4f8a; }
p { margin: 2px 0; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 0.5px solid #bbb; padding: 1.5px 3px; text-align: left; vertical-align: top; }
th { background: #eef3f8; }
code, pre, .mono td { font-family: "DejaVu Sans Mono", monospace; font-size: 6.4pt; }
.bodies { display: grid; grid-template-columns: 1fr 1fr; gap: 3px; }
.bodies pre { margin: 0; padding: 2px 3px; background: #f6f6f6; border: 0.5px solid #ddd;
  white-space: pre-wrap; word-break: break-all; }
.bodies b { font-size: 7pt; }
.foot { color: #555; font-size: 6.4pt; margin-top: 4px; }
"""


def _compact(body: dict) -> str:
    shown = {k: ("[…]" if k == "tools" else v) for k, v in body.items()}
    text = json.dumps(shown, ensure_ascii=False, separators=(",", ":"))
    return text.replace('"[…]"', "[…]")


def page() -> str:
    """The cheat sheet as one HTML page (computed now; reads nothing from the network)."""
    formats, roles, bodies = roles_table()
    bodies_html = "".join(
        f"<div><b>{html.escape(f)}</b> <code>{html.escape(render_for(example(), f).path)}</code>"
        f"<pre>{html.escape(_compact(bodies[f]))}</pre></div>"
        for f in formats
    )
    commands = _table(["command", "what it does"], [list(c) for c in COMMANDS], "mono")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>On the Wire: cheat sheet</title>
<style>{STYLE}</style></head><body>
<h1>On the Wire: cheat sheet</h1>
<p>The provider keeps nothing between requests: every turn re-sends the whole list (system,
user, assistant, tool), plus every tool definition, and every token of it is billed again.</p>
<h2>The four roles, as each format spells them</h2>
{_table(["role", *formats], roles)}
<h2>One request in the four formats</h2>
<div class="bodies">{bodies_html}</div>
<h2>The rules of the list: what each provider answers</h2>
{_table(["rule", *formats], rules_table(), "mono")}
<h2>Cost, with caching</h2>
<p><b>cost = (uncached × input + cache reads × cached input + cache writes × write + output ×
output) / 1,000,000</b>, where uncached = input tokens − cache reads − cache writes. Rates in
$ per million tokens (input / cached input [/ cache write] / output); Sundry's turn-2 request,
input only, full price and with its tools + system prefix read from the cache: a prefix
shorter than the model's minimum is never cached (lesson 06).</p>
{
        _table(
            ["model", "rates", "cache from", "Sundry turn 2 (tokens)", "full price", "cached"],
            cost_rows(),
        )
    }
<h2>Commands</h2>
{commands}
<p class="foot">Generated by scripts/cheat_sheet.py from the series' own code: prices from
genai-prices at {html.escape(as_of())}, rule texts from standin/rules/table.py (docs/rules.md
has the sources). Claude and Gemini counts are estimates offline.</p>
</body></html>
"""


class SheetError(Exception):
    """The sheet cannot be made as asked; the message says what to do."""


def pdf(html_path: Path, pdf_path: Path) -> int:
    """Print the page to PDF with Chromium; returns the number of pages."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SheetError("Chromium is not installed (make browser); --html-only skips the PDF")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as err:
        raise SheetError("Playwright is not installed (make setup-test)") from err
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page_ = browser.new_page()
            page_.route("**/*", _local_only)
            page_.goto(html_path.resolve().as_uri())
            page_.pdf(
                path=str(pdf_path), format="A4", print_background=True, prefer_css_page_size=True
            )
        finally:
            browser.close()
    return pages(pdf_path)


def _local_only(route) -> None:
    if route.request.url.startswith(("file:", "data:")):
        route.continue_()
    else:
        route.abort()


def pages(pdf_path: Path) -> int:
    """How many pages a PDF Chromium wrote has (its /Type /Page objects)."""
    data = pdf_path.read_bytes()
    return data.count(b"/Type /Page") - data.count(b"/Type /Pages")


def main(args: list[str]) -> int:
    out = Path(next((a for a in args if not a.startswith("--")), ROOT / "build" / "cheat-sheet"))
    out.mkdir(parents=True, exist_ok=True)
    target = out / HTML_NAME
    target.write_text(page(), encoding="utf-8")
    print(f"wrote {target}")
    if "--html-only" in args:
        return 0
    try:
        n = pdf(target, out / PDF_NAME)
    except SheetError as err:
        print(f"cheat_sheet: {err}", file=sys.stderr)
        return 2
    print(f"wrote {out / PDF_NAME} ({n} page{'s' if n != 1 else ''})")
    return 0 if n == 1 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
