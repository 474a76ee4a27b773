"""The linter rules beyond the list: what the stand-in adds to ``helpers.rules``.

``helpers.rules`` is the learner's rules of the list. Here is the fidelity around them: the
settings a provider refuses (``params``), tool schemas (``schemas``), what a parser meets on the
wire (``wire``), the HTTP answer each provider sends (``errors``), where each text of
``helpers.rules`` comes from (``sources``) and ``ROWS`` (``table``), the table of every rule per
provider with its source that ``docs/rules.md`` is generated from.
Lessons 08 and 10 read ``ROWS`` through the ``standin`` door.
"""

from __future__ import annotations

from standin.rules.errors import FORMATS, error_response, first_violation_error, provider_of
from standin.rules.table import ROWS, RuleRow

__all__ = ["FORMATS", "ROWS", "RuleRow", "error_response", "first_violation_error", "provider_of"]
