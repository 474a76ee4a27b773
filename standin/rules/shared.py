"""Used in lessons: none directly (imported by rules.table).

The rows of the shared rules (``helpers.rules.core``, ``pairing``, the verdict's own
``malformed``) that the provider modules do not answer: each provider's list is its ``SHARED``
(``standin/providers/NAME.py``), written with the helpers below.

Each says what the verdict decides and why: *refused* (the provider's text where one is wired,
else ours, said so), *accepted* (a warning: no public 400 known, or the evidence), or *not on
the wire*: the format cannot carry the mistake as this rule (the field's type is named, from
the pinned SDK), so only a neutral request breaks it; the same mistake in a body is another
rule, named in the source. The decisions are the verdict's; a row never changes one.
"""

from __future__ import annotations

from helpers.formats.providers import PROVIDERS
from standin.rules.sources import SOURCES

SHARED_CHECKED = "2026-12-01"
#: The pinned SDKs whose request types the "not on the wire" rows cite.
OPENAI_SDK = "openai-python 3.57.0 types/"
ANTHROPIC_SDK = "anthropic-sdk-python 2.14.0 types/"
GENAI_SDK = "python-genai 3.6.1 types.py"
NONE_KNOWN = "no public report of a 400 for it is known to us"
OURS = "the text is ours (the message check prints): no public report quotes the provider's answer"


def theirs(rule: str, text: str) -> tuple[str, str, str, str]:
    """Refused with the provider module's text (it answers this finding so)."""
    return (rule, "refused", text, SOURCES[text])


def not_on_the_wire(rule: str, typed: str, instead: str) -> tuple[str, str, str, str]:
    return (rule, "not on the wire", "", f"{typed}; {instead}")


_MALFORMED = "Invalid request: {where}: {what}"
_MALFORMED_SOURCE = (
    "the text is ours: the parser's error, naming the place (standin/verdict.py); the "
    "provider's own wording for a value of the wrong type is not modelled"
)


def shared_rows(row: type, checked: str) -> list:
    """Each provider's rows (its ``SHARED``, ``standin/providers/NAME.py``) as ``row``
    (``table.RuleRow``), plus ``malformed`` for every provider."""
    from standin.providers import of

    out = [
        row(profile, rule, verdict, text, source, checked)
        for profile in PROVIDERS
        for rule, verdict, text, source in of(profile).SHARED
    ]
    for profile in PROVIDERS:
        out.append(row(profile, "malformed", "refused", _MALFORMED, _MALFORMED_SOURCE, checked))
    return out
