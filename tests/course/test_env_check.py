from __future__ import annotations

from course.env_check import Check, Report, check_environment


def test_this_environment_passes_every_check():
    report = check_environment()
    assert report.ok, str(report)
    assert "'Hello, world!' -> 4 tokens [13225, 11, 2375, 0]" in str(report)


def test_a_failed_check_is_reported_not_raised():
    report = Report([Check("a", True, "fine"), Check("b", False, "broken thing")])
    assert not report.ok
    text = str(report)
    assert "FAIL b" in text and "broken thing" in text and "Some checks failed" in text
    assert "✗ FAIL" in report._repr_html_()
