"""Books to chaptered audio on the tiny voices: chapters, subtitles, manifest, and a run
killed with SIGKILL that resumes to the very same bytes. Fast tier."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import soundfile

from conftest import build_tiny_engine
from emovox.longform.book import make_book
from emovox.longform.source import BookSourceError, NotTextError, read_book
from emovox.options import SpeechOptions

BOOK = """# A Walk in Town

## Morning

Dr. Smith left home on March 14th at 7:30 AM. She had $12.75 and a map.

"Is it far?" she asked. It was not far.

## Noon

[happy] The market was full of music. [sad:0.5] Then the rain came.

## Evening

She counted 250 lanterns on the way back, and slept well.
"""


@pytest.fixture
def book_file(tmp_path) -> Path:
    path = tmp_path / "walk.md"
    path.write_text(BOOK, "utf-8")
    return path


def test_markdown_headings_are_chapters_under_the_title(book_file):
    book = read_book(book_file)
    assert book.title == "A Walk in Town"
    assert [c.title for c in book.chapters] == ["Morning", "Noon", "Evening"]
    assert book.chapters[1].text.startswith("[happy] The market")


def test_plain_text_is_one_chapter(tmp_path):
    path = tmp_path / "short_story.txt"
    path.write_text("Once upon a time. The end.", "utf-8")
    book = read_book(path)
    assert book.title == "short story" and len(book.chapters) == 1


def _epub(path: Path, chapters: list[tuple[str, str]], drm: bool = False) -> Path:
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("test-book")
    book.set_title("The EPUB Test")
    book.set_language("en")
    items = []
    for number, (title, body) in enumerate(chapters, 1):
        item = epub.EpubHtml(title=title, file_name=f"chap{number}.xhtml", lang="en")
        item.content = f"<html><body><h1>{title}</h1><p>{body}</p></body></html>"
        book.add_item(item)
        items.append(item)
    book.toc = [epub.Link(item.file_name, item.title, f"c{n}") for n, item in enumerate(items, 1)]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = ["nav", *items]
    epub.write_epub(str(path), book)
    if drm:
        import zipfile

        with zipfile.ZipFile(path, "a") as archive:
            archive.writestr("META-INF/encryption.xml", "<encryption/>")
    return path


def test_an_epub_reads_in_the_order_of_its_table_of_contents(tmp_path):
    path = _epub(tmp_path / "book.epub", [("First Light", "The sun rose at six."), ("Second Wind", "We ran.")])
    book = read_book(path)
    assert book.title == "The EPUB Test"
    assert [(c.title, c.text) for c in book.chapters] == [("First Light", "The sun rose at six."),
                                                          ("Second Wind", "We ran.")]


@pytest.mark.parametrize(("content", "error", "words"), [
    (b"", BookSourceError, "empty"),
    (b"   \n\n", BookSourceError, "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", NotTextError, "binary"),
    ("café".encode("latin-1"), NotTextError, "not UTF-8"),
    (b"PK\x03\x04 not really a zip", BookSourceError, "damaged EPUB"),
])
def test_bad_books_get_a_clear_error(tmp_path, content, error, words):
    path = tmp_path / ("book.epub" if content.startswith(b"PK") else "book.txt")
    path.write_bytes(content)
    with pytest.raises(error, match=words):
        read_book(path)


def test_a_drm_protected_epub_is_refused(tmp_path):
    path = _epub(tmp_path / "locked.epub", [("One", "Secret words.")], drm=True)
    with pytest.raises(BookSourceError, match="DRM"):
        read_book(path)


def test_a_book_becomes_chapters_with_subtitles_and_a_manifest(tiny_engine, book_file, tmp_path):
    out = tmp_path / "out"
    events = []
    manifest = make_book(tiny_engine, read_book(book_file), out, SpeechOptions(voice="tiny"), "flac",
                         workers=2, on_progress=events.append)
    assert manifest == json.loads((out / "manifest.json").read_text("utf-8"))
    assert manifest["complete"] and manifest["title"] == "A Walk in Town" and manifest["voice"] == "tiny"
    assert [c["title"] for c in manifest["chapters"]] == ["Morning", "Noon", "Evening"]
    for chapter in manifest["chapters"]:
        info = soundfile.info(str(out / chapter["audio"]))
        assert info.format == "FLAC" and abs(info.duration - chapter["duration_s"]) < 0.01
        srt = (out / chapter["srt"]).read_text("utf-8")
        vtt = (out / chapter["vtt"]).read_text("utf-8")
        assert srt.count(" --> ") == chapter["sentences"] == vtt.count(" --> ") and vtt.startswith("WEBVTT")
    first = (out / manifest["chapters"][0]["srt"]).read_text("utf-8")
    # subtitles show the text as written, not as it is read aloud
    assert "Dr. Smith left home on March 14th at 7:30 AM." in first and "She had $12.75 and a map." in first
    assert '"Is it far?"' in first and "Doctor" not in first
    assert "[happy]" not in (out / manifest["chapters"][1]["srt"]).read_text("utf-8")
    assert events[-1].event == "done" and events[-1].rendered == sum(c["sentences"] for c in manifest["chapters"])
    again = []
    make_book(tiny_engine, read_book(book_file), out, SpeechOptions(voice="tiny"), "flac", on_progress=again.append)
    assert again[-1].rendered == 0  # everything came from the first run


_WRITER = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {tests!r})
    from pathlib import Path
    from conftest import build_tiny_engine
    from emovox.longform.book import make_book
    from emovox.longform.source import read_book
    from emovox.options import SpeechOptions

    engine = build_tiny_engine(Path({voices!r}))
    def report(progress):
        print(json.dumps(progress.to_dict()), flush=True)
    make_book(engine, read_book(Path({book!r})), Path(sys.argv[1]), SpeechOptions(voice="tiny", emotion="sad"),
              "opus", workers=1, on_progress=report)
""")


def test_a_run_killed_at_any_moment_resumes_to_the_same_bytes(tiny_dir, book_file, tmp_path):
    script = tmp_path / "writer.py"
    script.write_text(_WRITER.format(tests=str(Path(__file__).parent), voices=str(tiny_dir), book=str(book_file)))
    whole, resumed = tmp_path / "whole", tmp_path / "resumed"
    options = SpeechOptions(voice="tiny", emotion="sad")
    make_book(build_tiny_engine(tiny_dir), read_book(book_file), whole, options, "opus", workers=1)  # as the writer
    for kill_after in (3, 2):  # chunks rendered before the SIGKILL, in two runs
        writer = subprocess.Popen([sys.executable, str(script), str(resumed)], stdout=subprocess.PIPE)
        seen = 0
        for line in writer.stdout:
            event = json.loads(line)
            seen += event["event"] == "chunk" and event["rendered"] > 0
            if seen >= kill_after:
                writer.send_signal(signal.SIGKILL)
                break
        writer.wait(timeout=60)
        manifest = json.loads((resumed / "manifest.json").read_text("utf-8"))
        assert not manifest["complete"]
    finish = []
    make_book(build_tiny_engine(tiny_dir), read_book(book_file), resumed, options, "opus", workers=1,
              on_progress=finish.append)
    total = sum(c["sentences"] for c in json.loads((whole / "manifest.json").read_text("utf-8"))["chapters"])
    assert finish[-1].event == "done" and 0 < finish[-1].rendered < total  # only what the killed runs had not made
    finished = sorted(p.name for p in resumed.iterdir() if p.is_file())
    assert finished == sorted(p.name for p in whole.iterdir() if p.is_file())
    for name in finished:
        assert (resumed / name).read_bytes() == (whole / name).read_bytes(), name
    assert not list(resumed.glob("**/*.partial"))


def test_make_book_checks_the_format(tiny_dir, book_file, tmp_path):
    from emovox.errors import InvalidOptionError

    with pytest.raises(InvalidOptionError, match="unknown audio format"):
        make_book(build_tiny_engine(tiny_dir), read_book(book_file), tmp_path, SpeechOptions(), "xyz")


def test_an_m4b_holds_the_whole_book_with_a_mark_per_chapter(tiny_engine, book_file, tmp_path):
    import av

    out = tmp_path / "out"
    manifest = make_book(tiny_engine, read_book(book_file), out, SpeechOptions(voice="tiny"), "wav", m4b=True)
    with av.open(str(out / manifest["m4b"])) as container:
        marks = container.chapters()
        seconds = container.duration / 1e6
    assert [m["metadata"]["title"] for m in marks] == ["Morning", "Noon", "Evening"]
    ends = [m["end"] / 1000 for m in marks]
    expected = [sum(c["duration_s"] for c in manifest["chapters"][: i + 1]) for i in range(3)]
    assert all(abs(a - b) < 0.05 for a, b in zip(ends, expected)) and abs(seconds - expected[-1]) < 0.2
    first = (out / manifest["m4b"]).read_bytes()
    make_book(tiny_engine, read_book(book_file), tmp_path / "again", SpeechOptions(voice="tiny"), "wav", m4b=True)
    assert (tmp_path / "again" / manifest["m4b"]).read_bytes() == first  # bit-exact
