from __future__ import annotations

from helpers.examples import crash_triage
from helpers.tokens import count_sections, count_text


def test_sections_add_up_to_the_whole_text():
    sections = count_sections(crash_triage.SYSTEM_PROMPT, "gpt-4o-mini")
    assert sum(s.tokens for s in sections) == count_text(crash_triage.SYSTEM_PROMPT, "gpt-4o-mini")
    assert len(sections) == crash_triage.SYSTEM_PROMPT.count("\n\n") + 1
    assert sections[-1].text.strip().startswith("Finishing:")


def test_a_token_across_the_break_goes_to_the_section_it_starts_in():
    sections = count_sections("one\n\ntwo", "gpt-4o-mini")
    assert [s.text for s in sections] == ["one", "two"]
    assert sum(s.tokens for s in sections) == count_text("one\n\ntwo", "gpt-4o-mini")
    assert sections[1].tokens == 1  # "two"; the break "\n\n" starts in section one


def test_estimates_are_flagged():
    from helpers.models import default_model

    assert all(s.estimate for s in count_sections("a\n\nb", default_model("anthropic")))
