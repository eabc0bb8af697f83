"""The API reference (dist/api.html), written from the library's own docstrings.

``api_markdown()`` walks ``pysolver.__all__``: each function with its signature and docstring,
each class with its constructor, its docstring and its public methods (a puzzle class's shared
methods once, in their own section); ``readme_html`` (``buildtools.markdown``) makes it a page
like readme.html. ``undocumented()`` names every public function, class or method without a
docstring; tests/test_apidocs.py holds it empty.

Docstrings are written for ``help()``: reStructuredText's double backquotes become Markdown's
single ones, ``>>>`` examples and indented blocks become code blocks.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from buildtools.repo import ROOT

TITLE = "pysolver API reference"


def library() -> tuple[ModuleType, type]:
    """The package from this checkout (not an installed copy), and its puzzle classes' base."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import pysolver
    from pysolver.library import Puzzle

    return pysolver, Puzzle


def public_names() -> list[str]:
    """The names ``pysolver`` exports, the version string left out."""
    pysolver, _puzzle = library()
    return [name for name in pysolver.__all__ if not name.startswith("__")]


def methods(cls: type, own_only: bool) -> Iterator[tuple[str, Callable[..., Any]]]:
    """The public methods of ``cls`` (those it defines itself when ``own_only``), in the order
    of its source."""
    owners = [cls] if own_only else [klass for klass in cls.__mro__ if klass is not object]
    seen: set[str] = set()
    for owner in owners:
        for name, value in vars(owner).items():
            if name.startswith("_") or name in seen:
                continue
            if isinstance(value, classmethod | staticmethod):
                value = getattr(owner, name)  # bound: its signature leaves out ``cls``
            if inspect.isfunction(value) or inspect.ismethod(value):
                seen.add(name)
                yield name, value


def undocumented() -> list[str]:
    """Every public function, class and method of the API without a docstring of its own."""
    pysolver, puzzle = library()
    missing = []
    for name in public_names():
        value = getattr(pysolver, name)
        if not (value.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(value):
            for method, function in methods(value, own_only=False):
                if not (function.__doc__ or "").strip():
                    missing.append(f"{name}.{method}")
    for method, function in methods(puzzle, own_only=True):
        if not (function.__doc__ or "").strip():
            missing.append(f"{puzzle.__name__}.{method}")
    return sorted(set(missing))


def markdown_of_docstring(docstring: str | None) -> list[str]:
    """A docstring as Markdown lines: ``code`` marks as `code`; ``>>>`` examples (with their
    answers) and indented blocks after a blank line as code blocks."""
    out: list[str] = []
    block: list[str] = []
    paragraph: list[str] = []
    in_example = False

    def end_paragraph() -> None:
        if paragraph:
            text = " ".join(paragraph)
            out.extend([text[:-1] if text.endswith("::") else text, ""])
            paragraph.clear()

    def end_block() -> None:
        if block:
            out.extend(["```", *block, "```", ""])
            block.clear()

    for line in [*inspect.cleandoc(docstring or "").splitlines(), ""]:
        if line.startswith(">>>") or (in_example and line.strip()):
            end_paragraph()
            block.append(line)
            in_example = True
            continue
        in_example = False
        if line.startswith("    ") and not paragraph:
            block.append(line[4:])
            continue
        end_block()
        if line.strip():
            paragraph.append(re.sub(r"``([^`]+)``", r"`\1`", line.strip()))
        else:
            end_paragraph()
    end_block()
    return out


class _Written(str):
    """An annotation as the source writes it (the package's annotations are strings, from
    ``from __future__ import annotations``): shown without quotes."""

    def __repr__(self) -> str:
        return str(self)


def signature(name: str, value: Callable[..., Any]) -> str:
    """``name(arguments)`` as the source writes them."""
    try:
        found = inspect.signature(value)
    except (TypeError, ValueError):
        return name
    parameters = [
        parameter.replace(annotation=_Written(parameter.annotation))
        if isinstance(parameter.annotation, str)
        else parameter
        for parameter in found.parameters.values()
    ]
    returned = found.return_annotation
    if isinstance(returned, str):
        returned = _Written(returned)
    return f"{name}{found.replace(parameters=parameters, return_annotation=returned)}"


def entry(heading: str, shown: str, value: Any) -> list[str]:
    return [heading, "", "```", shown, "```", "", *markdown_of_docstring(value.__doc__)]


def api_markdown() -> str:
    """The whole reference as Markdown (the subset ``readme_html`` reads)."""
    pysolver, puzzle = library()
    lines = [
        f"# {TITLE}",
        "",
        *markdown_of_docstring(pysolver.__doc__),
        f"Version {pysolver.__version__}. Written by `python3 build.py` from the docstrings; "
        "[The protocol](docs/protocol.html), [the command line](docs/cli.html) and the "
        "[README](readme.html) are beside it.",
        "",
    ]
    functions = [name for name in public_names() if not inspect.isclass(getattr(pysolver, name))]
    classes = [name for name in public_names() if inspect.isclass(getattr(pysolver, name))]
    lines += ["## Functions", ""]
    for name in functions:
        value = getattr(pysolver, name)
        lines += entry(f"### {name}", f"pysolver.{signature(name, value)}", value)
    lines += ["## Classes", ""]
    for name in classes:
        value = getattr(pysolver, name)
        lines += entry(f"### {name}", f"pysolver.{signature(name, value)}", value)
        is_puzzle = issubclass(value, puzzle)
        for method, function in methods(value, own_only=is_puzzle):
            lines += entry(f"#### {name}.{method}", signature(method, function), function)
        if is_puzzle:
            lines += [
                "And the [methods of every puzzle class](#methods-of-every-puzzle-class).",
                "",
            ]
    lines += ["## Methods of every puzzle class", ""]
    lines += [*markdown_of_docstring(puzzle.__doc__)]
    for method, function in methods(puzzle, own_only=True):
        lines += entry(f"### Every puzzle's {method}", signature(method, function), function)
    return "\n".join(lines) + "\n"
