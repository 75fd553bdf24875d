"""The documents of ``docs/`` the pages name: each as a page of the site,
and as the Markdown file it is written in.

The rules page tells a player who doubts the deal that the record format's
"Checking a deal yourself" describes the shuffle and gives a script that
re-deals a record. ``GET /docs/record-format`` shows that document as a
page of the site (its header, language, dark mode and print style; on a
phone its tables and code blocks scroll on their own, the page never
sideways); ``GET /docs/record-format.md`` sends the file itself, for
whoever wants the Markdown (the page links to it). The image holds the
file, so a self-hoster's players read it too.

Only the names in :data:`SERVED` are answered, from memory; any other name
is a 404, so nothing else of the tree can be asked for. The Markdown is
rendered by markdown-it-py (CommonMark and tables, with ids on the
headings for the links between sections), with raw HTML off: a ``<tag>``
in a document shows as written. The file is sent as UTF-8 plain text,
``public`` but checked each time (``no-cache`` with an ``ETag``), as a
static file asked for without its digest; it never loads or stores a
session. The page is a page like the others (it reads the session for
the language, and stores nothing).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from flask import Blueprint, Response, abort, render_template, request
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from markupsafe import Markup
from mdit_py_plugins.anchors import anchors_plugin
from werkzeug.wrappers import Response as BaseResponse

bp = Blueprint("docs", __name__)

#: The folder of the documents (``docs/`` beside ``app/``).
FOLDER = Path(__file__).resolve().parents[2] / "docs"
#: The file names of ``docs/`` the site answers (each one named by a page).
SERVED = ("record-format.md",)
#: The type a document's file is sent as: text a browser shows, in UTF-8.
TEXT = "text/plain; charset=utf-8"
#: The class of the boxes that scroll sideways on their own (a table, a
#: code block), so that the page itself never does.
SCROLLS = "doc-scroll"


class Rendered(NamedTuple):
    """A document as a page: ``title``, its first heading's words, and
    ``body``, its HTML (headings with ids, tables and code blocks in
    boxes that scroll on their own and take the keyboard's focus)."""

    title: str
    body: Markup


@lru_cache(maxsize=len(SERVED))
def _content(name: str) -> tuple[bytes, str]:
    """Document ``name`` (one of :data:`SERVED`) as bytes, with the first
    16 hex digits of their SHA-256 for its ``ETag``. Raises ``OSError``
    when the file is missing."""
    data = (FOLDER / name).read_bytes()
    return data, hashlib.sha256(data).hexdigest()[:16]


class _Renderer(RendererHTML):
    """markdown-it-py's HTML, with each table and code block in a box that
    scrolls sideways on its own (:data:`SCROLLS`) and takes the keyboard's
    focus, so that it can be scrolled without a pointer: a region named
    by what it is and the section it stands in (:func:`_box`)."""

    def table_open(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return f"<div {_box(tokens, idx, 'Table')}>\n<table>\n"

    def table_close(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return "</table>\n</div>\n"

    def fence(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return _scrolling(super().fence(tokens, idx, options, env), tokens, idx)

    def code_block(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return _scrolling(super().code_block(tokens, idx, options, env), tokens, idx)


def _box(tokens: Sequence[Token], idx: int, kind: str) -> str:
    """The attributes of the scrolling box of the table or code block at
    ``tokens[idx]``: its class, a stop of the Tab key, and a region's name
    saying ``kind`` ("Table", "Code") and the heading it stands under
    ("Table: The three games"; the second box of its kind there is
    "Code 2: What a replay prints", so that no two regions share a name),
    in English, as the documents are."""
    start = next((i for i in range(idx - 1, -1, -1) if tokens[i].type == "heading_open"), -1)
    heading = tokens[start + 1].content.replace("`", "") if start >= 0 else ""
    types = ("table_open",) if kind == "Table" else ("fence", "code_block")
    same = sum(token.type in types for token in tokens[start + 1 : idx])
    numbered = f"{kind} {same + 1}" if same else kind
    name = escapeHtml(f"{numbered}: {heading}" if heading else numbered)
    return f'class="{SCROLLS}" tabindex="0" role="region" aria-label="{name}"'


def _scrolling(html: str, tokens: Sequence[Token], idx: int) -> str:
    """A code block's ``html`` (``<pre>...``) with its ``<pre>`` scrolling
    (:func:`_box`; ``tokens[idx]`` is the block)."""
    return html.replace("<pre>", f"<pre {_box(tokens, idx, 'Code')}>", 1)


#: The renderer: CommonMark with tables, raw HTML off (shown as text), ids
#: on the headings of levels 1 to 3 (GitHub's: "The three games" is
#: ``the-three-games``).
MARKDOWN = (
    MarkdownIt("commonmark", {"html": False, "xhtmlOut": False}, renderer_cls=_Renderer)
    .enable("table")
    .use(anchors_plugin, max_level=3)
)


@lru_cache(maxsize=len(SERVED))
def rendered(name: str) -> Rendered:
    """Document ``name`` (one of :data:`SERVED`) as a page. Raises
    ``OSError`` when the file is missing."""
    tokens = MARKDOWN.parse(_content(name)[0].decode("utf-8"))
    title = next(
        (
            tokens[i + 1].content
            for i, token in enumerate(tokens)
            if token.type == "heading_open" and token.tag == "h1"
        ),
        name,
    )
    return Rendered(title, Markup(MARKDOWN.renderer.render(tokens, MARKDOWN.options, {})))


@bp.get("/docs/<name>.md")
def document(name: str) -> BaseResponse:
    """Document ``name``.md of :data:`SERVED` as UTF-8 plain text (a 304
    when the browser's copy is current); 404 for any other name."""
    if f"{name}.md" not in SERVED:
        abort(404)
    data, version = _content(f"{name}.md")
    response = Response(data, content_type=TEXT)
    response.set_etag(version)
    response.cache_control.public = True
    response.cache_control.no_cache = True
    return response.make_conditional(request)


@bp.get("/docs/<name>")
def page(name: str) -> str:
    """Document ``name``.md of :data:`SERVED` as a page of the site; 404
    for any other name."""
    if f"{name}.md" not in SERVED:
        abort(404)
    return render_template("docs/document.html", document=rendered(f"{name}.md"), file=f"{name}.md")
