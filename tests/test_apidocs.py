"""The API reference (dist/api.html, buildtools/apidocs.py): every public name of the library
documented, and each with its own section of the page."""

from __future__ import annotations

import re

import pysolver
from buildtools import apidocs, markdown


def test_every_public_function_class_and_method_has_a_docstring() -> None:
    assert apidocs.undocumented() == []


def test_the_reference_has_a_section_per_public_name() -> None:
    text = apidocs.api_markdown()
    page = markdown.readme_html(text, "API reference")
    names = [name for name in pysolver.__all__ if name != "__version__"]
    assert apidocs.public_names() == names
    for name in names:
        assert f'<h3 id="{markdown.heading_anchor(name)}">{name}</h3>' in page, name
        assert f"pysolver.{name}" in text, name
    for method, _function in apidocs.methods(pysolver.library.Puzzle, own_only=True):
        anchor = markdown.heading_anchor(f"Every puzzle's {method}")
        assert f'id="{anchor}"' in page, method
    # Docstrings' ``code`` marks come out as Markdown's, examples as code blocks.
    assert re.search(r"(?<!`)``(?!`)", text) is None
    assert "<pre><code>&gt;&gt;&gt; count([[&quot;a&quot;, &quot;b&quot;]" in page
    # Annotations as the source writes them (strings under ``from __future__ import
    # annotations``), not quoted.
    assert "pysolver.count(options: Options," in text


def test_an_undocumented_method_is_named(monkeypatch) -> None:
    def helper(self: object) -> None:
        pass

    monkeypatch.setattr(pysolver.Sudoku, "helper", helper, raising=False)
    assert apidocs.undocumented() == ["Sudoku.helper"]


def test_docstring_blocks_become_markdown() -> None:
    lines = apidocs.markdown_of_docstring(
        """One ``idea``.

        Puzzle::

            {"grid": "..."}

        >>> count([["a"]])
        1
        """
    )
    assert lines == [
        "One `idea`.",
        "",
        "Puzzle:",
        "",
        "```",
        '{"grid": "..."}',
        "```",
        "",
        "```",
        '>>> count([["a"]])',
        "1",
        "```",
        "",
    ]
