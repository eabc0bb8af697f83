"""The repository's Markdown (README.md, docs/*.md) as pages of the site: the subset of Markdown
they use, headings anchored as on GitHub so a link to a section works in both places (each tab's
help links to its puzzle's section of the guide)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

# How a page's links change on the site: a Markdown link's target (as written, relative to the
# Markdown file) to the site's address for it, or None where the site has no such file (the
# link's text stays, unlinked). Links written as site addresses (the API reference) need none.
Relink = Callable[[str], str | None]


def heading_anchor(title: str) -> str:
    """GitHub's anchor for a heading (lower case, punctuation dropped, spaces as hyphens).

    web/ui/help.js links each tab to guide.html#<anchor of the kind's title>; the same anchor
    works on GitHub's rendering of docs/guide.md.
    """
    kept = "".join(char for char in title.strip().lower() if char.isalnum() or char in " -_")
    return kept.replace(" ", "-")


def inline_html(text: str, relink: Relink | None = None) -> str:
    """Markdown's inline marks used in README.md (code, bold, links, images) as HTML, each link's
    and picture's target passed through ``relink`` when given.

    <img> tags written in the README (pictures with a width) pass through as they are.
    """

    def link(match: re.Match[str]) -> str:
        written = html.unescape(match.group(2))
        target = written if relink is None else relink(written)
        if target is None:
            return match.group(1)
        return f'<a href="{html.escape(target)}">{match.group(1)}</a>'

    def picture(match: re.Match[str]) -> str:
        written = html.unescape(match.group(2))
        source = written if relink is None else relink(written)
        return f'<img src="{html.escape(source or written)}" alt="{match.group(1)}">'

    pieces = re.split(r"(`[^`]+`|<img [^>]*>)", text)
    out = []
    for piece in pieces:
        if piece.startswith("`") and piece.endswith("`") and len(piece) > 1:
            out.append(f"<code>{html.escape(piece[1:-1])}</code>")
            continue
        if piece.startswith("<img "):
            out.append(piece)
            continue
        piece = html.escape(piece, quote=False)
        piece = re.sub(r"!\[([^\]]*)\]\(([^)\s]+)\)", picture, piece)
        piece = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", link, piece)
        piece = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", piece)
        out.append(piece)
    return "".join(out)


def readme_html(
    markdown: str, title: str = "README", relink: Relink | None = None, root: str = ""
) -> str:
    """README.md (or another of the repository's Markdown files, such as docs/guide.md) as a
    page of the site: the subset of Markdown it uses (headings, paragraphs, lists, tables, code
    blocks, inline marks), headings anchored as on GitHub, links through ``relink``; ``root``
    is the way from the page's folder to the site's top ("../" for docs/), for the style sheet."""

    def inline(text: str) -> str:
        return inline_html(text, relink)

    lines = markdown.splitlines()
    body: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("```"):
            end = index + 1
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            body.append(
                "<pre><code>" + html.escape("\n".join(lines[index + 1 : end])) + "</code></pre>"
            )
            index = end + 1
        elif match := re.match(r"(#{1,6}) (.*)", line):
            # Not ``title``: that names the page (a heading once overwrote it).
            level, heading = len(match.group(1)), match.group(2)
            anchor = heading_anchor(heading)
            body.append(f'<h{level} id="{anchor}">{inline(heading)}</h{level}>')
            index += 1
        elif line.startswith("|"):
            rows = []
            while index < len(lines) and lines[index].startswith("|"):
                cells = [cell.strip() for cell in lines[index].strip().strip("|").split(" | ")]
                if not all(set(cell) <= set("-: ") for cell in cells):
                    rows.append(cells)
                index += 1
            head, *rest = rows
            table = ["<table><thead><tr>"]
            table += [f"<th>{inline(cell)}</th>" for cell in head]
            table.append("</tr></thead><tbody>")
            for row in rest:
                table.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>")
            body.append("".join(table) + "</tbody></table>")
        elif line.startswith("- "):
            items: list[str] = []
            while index < len(lines) and (
                lines[index].startswith("- ") or (items and lines[index].startswith("  "))
            ):
                if lines[index].startswith("- "):
                    items.append(lines[index][2:])
                else:
                    items[-1] += " " + lines[index].strip()
                index += 1
            body.append("<ul>" + "".join(f"<li>{inline(item)}</li>" for item in items) + "</ul>")
        elif line.strip():
            paragraph = []
            while (
                index < len(lines)
                and lines[index].strip()
                and not re.match(r"(#{1,6} |```|\||- )", lines[index])
            ):
                paragraph.append(lines[index].strip())
                index += 1
            body.append(f"<p>{inline(' '.join(paragraph))}</p>")
        else:
            index += 1
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>pysolver: {html.escape(title)}</title>\n"
        f'<link rel="stylesheet" href="{html.escape(root)}style.css">\n</head>\n'
        '<body class="readme">\n<main>\n' + "\n".join(body) + "\n</main>\n</body>\n</html>\n"
    )
