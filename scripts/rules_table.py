"""Write docs/rules.md from standin/rules/table.py (the rules, provider by provider).

Run: ``.venv/bin/python scripts/rules_table.py``. ``tests/standin/test_rules_table.py`` fails when
the page is out of date, so change the table in ``standin/rules/table.py`` and run this.
"""

from __future__ import annotations

from pathlib import Path

from standin.rules.table import markdown

PAGE = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def main() -> None:
    PAGE.write_text(markdown(), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(PAGE.parents[1])}")


if __name__ == "__main__":
    main()
