"""Markdown from comments and decisions renders, and nothing in it can run."""

from __future__ import annotations

from incidents.triage.markdown import render_markdown


def test_markdown_renders_emphasis_code_lists_and_tables():
    html = render_markdown("Rank **2** skipped `all_reduce`:\n\n- a\n- b\n\n|x|y|\n|-|-|\n|1|2|")
    assert "<strong>2</strong>" in html
    assert "<code>all_reduce</code>" in html
    assert "<li>a</li>" in html
    assert "<td>1</td>" in html


def test_raw_html_and_script_urls_are_neutralised():
    html = render_markdown(
        "<script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1))"
    )
    assert "<script" not in html
    assert "<img" not in html
    assert 'href="javascript' not in html


def test_links_open_without_referrer():
    html = render_markdown("[ticket](https://jira.example.com/browse/PROJ-1)")
    assert 'href="https://jira.example.com/browse/PROJ-1"' in html
    assert "noreferrer" in html
