"""Books and articles in: plain text, Markdown or EPUB, read into a title and its chapters.

- Plain text is one chapter, titled after the file.
- Markdown: headings start chapters. A document with a single `#` title and `##` sections
  is a book of `##` chapters under that title; otherwise the top heading level present
  cuts the chapters. Text before the first heading is a chapter of its own. Inline markup
  is dropped (emphasis, links, code marks), the words kept.
- EPUB (ebooklib): chapters in the order of the table of contents, their text from the
  XHTML; without a usable table of contents, one chapter per spine document. An EPUB
  with an encryption manifest (DRM) is refused.

Emotion tags and SSML written in the text pass through: the planner reads them.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from emovox.errors import EmovoxError, UnsupportedMediaError

#: A file larger than this is not a book we read in one go.
MAX_BOOK_BYTES = 64 * 2**20
_TEXT_SUFFIXES = {".txt", ".text", ""}
_MARKDOWN_SUFFIXES = {".md", ".markdown", ".mdown"}


class BookSourceError(EmovoxError, ValueError):
    """A book file that cannot be read; the message says why and what to do."""

    param = "file"


class NotTextError(BookSourceError, UnsupportedMediaError):
    """The file holds something other than text (and is not an EPUB)."""


@dataclass(frozen=True)
class Chapter:
    title: str
    text: str


@dataclass(frozen=True)
class Book:
    title: str
    chapters: tuple[Chapter, ...]


def read_book(path: Path) -> Book:
    """The book in the file at `path` (the format from its content and name)."""
    path = Path(path)
    if not path.is_file():
        raise BookSourceError(f"no such file: {path}")
    size = path.stat().st_size
    if size > MAX_BOOK_BYTES:
        raise BookSourceError(f"{path} is {size / 2**20:.0f} MB; the limit is {MAX_BOOK_BYTES / 2**20:.0f} MB")
    data = path.read_bytes()
    if data[:4] == b"PK\x03\x04":
        if path.suffix.lower() not in (".epub", ""):
            raise NotTextError(f"{path} is a zip archive, not text; books are plain text, Markdown or EPUB")
        book = _epub(path, data)
    else:
        text = _decoded(path, data)
        if path.suffix.lower() in _MARKDOWN_SUFFIXES:
            book = _markdown(text, _title_of(path))
        else:
            book = Book(_title_of(path), (Chapter(_title_of(path), text.strip()),))
    chapters = tuple(c for c in book.chapters if any(ch.isalnum() for ch in c.text))
    if not chapters:
        raise BookSourceError(f"{path} has no text to read")
    return Book(book.title, chapters)


def _title_of(path: Path) -> str:
    return path.stem.replace("_", " ").replace("-", " ").strip() or "Untitled"


def _decoded(path: Path, data: bytes) -> str:
    if not data.strip():
        raise BookSourceError(f"{path} is empty")
    if b"\x00" in data[:4096]:
        raise NotTextError(f"{path} is binary, not text; books are plain text, Markdown or EPUB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise NotTextError(f"{path} is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start}); convert "
                           "it first, e.g. `iconv -f latin1 -t utf-8`") from None


def _markdown(text: str, fallback_title: str) -> Book:
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(text)
    levels = [int(t.tag[1]) for t in tokens if t.type == "heading_open"]
    if not levels:
        return Book(fallback_title, (Chapter(fallback_title, _plain_markdown(tokens)),))
    title, cut = fallback_title, min(levels)
    if levels.count(cut) == 1 and levels[0] == cut and any(level > cut for level in levels):
        cut = min(level for level in levels if level > cut)  # one title heading over its sections
        title = _heading_text(tokens, next(i for i, t in enumerate(tokens) if t.type == "heading_open"))
    chapters: list[Chapter] = []
    current_title, start = title, 0
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and int(token.tag[1]) <= cut:
            body = _plain_markdown(tokens[start:index], skip_heading_level=cut)
            if body.strip() or chapters:
                chapters.append(Chapter(current_title, body))
            current_title, start = _heading_text(tokens, index), index + 3
    chapters.append(Chapter(current_title, _plain_markdown(tokens[start:], skip_heading_level=cut)))
    return Book(title, tuple(c for c in chapters if c.text.strip()))


def _heading_text(tokens, index: int) -> str:
    return tokens[index + 1].content.strip()


def _plain_markdown(tokens, skip_heading_level: int | None = None) -> str:
    """Paragraph-separated words of Markdown tokens (headings deeper than the cut are kept as
    lines of their own; the title heading is not)."""
    blocks: list[str] = []
    skip_next = False
    for token in tokens:
        if token.type == "heading_open":
            skip_next = skip_heading_level is not None and int(token.tag[1]) <= skip_heading_level
            continue
        if token.type == "inline":
            if skip_next:
                skip_next = False
                continue
            words = "".join(child.content if child.type in ("text", "code_inline") else
                            " " if child.type in ("softbreak", "hardbreak") else ""
                            for child in token.children or ())
            if words.strip():
                blocks.append(words.strip())
        elif token.type in ("fence", "code_block"):
            continue  # code is not read aloud
    return "\n\n".join(blocks)


def _epub(path: Path, data: bytes) -> Book:
    import io

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
    except zipfile.BadZipFile:
        raise BookSourceError(f"{path} is a damaged EPUB (not a readable zip archive)") from None
    if "META-INF/encryption.xml" in names or "META-INF/rights.xml" in names:
        raise BookSourceError(f"{path} is DRM-protected (it has an encryption manifest); emovox reads only EPUBs "
                              "without DRM")
    from ebooklib import ITEM_DOCUMENT, epub

    try:
        book = epub.read_epub(str(path), options={"ignore_ncx": False})
    except Exception as e:  # ebooklib raises bare exceptions and lxml errors for bad files
        raise BookSourceError(f"{path} is not a readable EPUB ({type(e).__name__}: {e})") from None
    titles = book.get_metadata("DC", "title")
    title = titles[0][0].strip() if titles and titles[0][0].strip() else _title_of(path)
    documents = {item.get_name(): item for item in book.get_items_of_type(ITEM_DOCUMENT)}
    chapters = []
    for heading, href in _toc_links(book.toc):
        item = documents.get(href.split("#", 1)[0])
        if item is not None:
            chapters.append(Chapter(heading, _html_text(item.get_content(), drop_heading=heading)))
    if not chapters:
        for item_id, _ in book.spine:
            item = book.get_item_with_id(item_id)
            if item is not None and item.get_type() == ITEM_DOCUMENT:
                text = _html_text(item.get_content())
                chapters.append(Chapter(_first_line(text) or title, text))
    return Book(title, tuple(chapters))


def _toc_links(toc) -> list[tuple[str, str]]:
    """(title, href) of the table of contents, depth first, each document once."""
    from ebooklib import epub

    links: list[tuple[str, str]] = []
    seen: set[str] = set()

    def walk(entries) -> None:
        for entry in entries:
            if isinstance(entry, tuple):  # (Section, children)
                section, children = entry
                if getattr(section, "href", None):
                    add(section.title, section.href)
                walk(children)
            elif isinstance(entry, epub.Link):
                add(entry.title, entry.href)

    def add(title: str, href: str) -> None:
        document = href.split("#", 1)[0]
        if document not in seen:
            seen.add(document)
            links.append(((title or "").strip(), href))

    walk(toc)
    return links


_BLOCKS = ("p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "blockquote", "section", "br", "tr")


def _html_text(content: bytes, drop_heading: str = "") -> str:
    """The words of an XHTML document, a paragraph per block element; a first heading equal
    to the chapter's title is not read twice."""
    from lxml import etree, html

    try:
        root = html.fromstring(content)
    except (etree.ParserError, ValueError):
        return ""
    for element in root.iter("script", "style"):
        element.drop_tree()
    for element in root.iter(*_BLOCKS):
        element.tail = "\n\n" + (element.tail or "")
    text = re.sub(r"[ \t\r\f\v]+", " ", root.text_content())
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    if paragraphs and drop_heading and paragraphs[0] == drop_heading.strip():
        paragraphs = paragraphs[1:]
    return "\n\n".join(paragraphs)


def _first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0][:80] if text.strip() else ""
