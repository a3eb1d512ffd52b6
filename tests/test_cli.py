"""The `emovox` command as a user runs it: a real process, real files."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
import soundfile

pytestmark = [pytest.mark.models, pytest.mark.paired]


def emovox(*args, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "emovox.cli", *args], input=stdin, capture_output=True,
                          cwd=cwd, timeout=300)


@pytest.mark.parametrize(("suffix", "container", "rate"), [
    ("wav", "WAV", 22050), ("flac", "FLAC", 22050), ("mp3", "MP3", 22050),
    ("opus", "OGG", 48000), ("ogg", "OGG", 48000),  # Opus in Ogg: libsndfile decodes it at 48 kHz
])
def test_say_writes_each_format(tmp_path, suffix, container, rate):
    out = tmp_path / f"hello.{suffix}"
    result = emovox("say", "Hello from the command line.", "-o", str(out), "--voice", "joe")
    assert result.returncode == 0, result.stderr
    info = soundfile.info(str(out))
    assert info.format == container and info.samplerate == rate and info.duration > 0.8
    assert str(out) in result.stdout.decode()


def test_say_reads_stdin_and_names_the_file_from_the_text(tmp_path):
    result = emovox("say", "-", "--voice", "kumo", "--speed", "1.1", stdin=b"Read me aloud, please.",
                    cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    written = tmp_path / "read-me-aloud-please.wav"
    assert soundfile.info(str(written)).samplerate == 24000


def test_non_utf8_stdin_is_a_one_line_error(tmp_path):
    result = emovox("say", "-", "-o", str(tmp_path / "x.wav"), stdin=b"caf\xe9 au lait")
    assert result.returncode == 2
    lines = result.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "UTF-8" in lines[0] and "0xe9" in lines[0]
    assert not (tmp_path / "x.wav").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["say", "Hello.", "--voice", "nobody"], "unknown voice 'nobody'; valid voices:"),
    (["say", "   "], "empty"),
    (["say", "🙂🙂"], "nothing speakable"),
    (["say", "Hello.", "--speed", "9"], "out of range"),
])
def test_bad_input_exits_non_zero_with_one_line(tmp_path, args, message):
    result = emovox(*args, cwd=tmp_path)
    assert result.returncode == 2
    stderr = result.stderr.decode().strip()
    assert len(stderr.splitlines()) == 1 and message in stderr
    assert not list(tmp_path.iterdir())  # no partial output left behind


def test_verbose_shows_the_traceback(tmp_path):
    result = emovox("--verbose", "say", "Hello.", "--voice", "nobody", cwd=tmp_path)
    assert result.returncode != 0 and "Traceback" in result.stderr.decode()


def test_voices_json():
    result = emovox("voices", "--json")
    voices = json.loads(result.stdout)
    assert {v["name"] for v in voices} >= {"joe", "jf_alpha", "jm_kumo"}
    assert {"name", "backend", "language", "gender", "sample_rate"} <= set(voices[0])


def test_phonemize_shows_normalized_text_segments_and_ipa():
    result = emovox("phonemize", "Dr. Smith paid $5. Then he left.", "--json")
    data = json.loads(result.stdout)
    assert data["normalized"] == "Doctor Smith paid five dollars. Then he left."
    assert [s["text"] for s in data["segments"]] == ["Doctor Smith paid five dollars.", "Then he left."]
    assert data["segments"][0]["phonemes"].startswith("dˈɑːktɚ")


def test_phonemize_in_a_voices_alphabet():
    data = json.loads(emovox("phonemize", "Hello.", "--voice", "jf_alpha", "--json").stdout)
    assert data["max_phonemes"] == 510 and data["segments"][0]["phonemes"] == "həlˈoʊ."


def test_say_with_an_emotion_reports_what_it_understood(tmp_path):
    out = tmp_path / "happy.wav"
    result = emovox("say", "We won the game!", "-o", str(out), "--voice", "jf_alpha", "--prompt", "very happy")
    assert result.returncode == 0, result.stderr
    assert "emotion: happy at intensity" in result.stdout.decode() and out.exists()


@pytest.mark.parametrize(("args", "message"), [
    (["say", "Hi.", "--emotion", "elated"], "unknown emotion 'elated'"),
    (["say", "Hi.", "--emotion", "sad", "--intensity", "2"], "intensity"),
    (["say", "Hi.", "--emotion", "sad", "--prompt", "happy"], "either an emotion label or a prompt"),
])
def test_bad_emotion_options_are_one_line_errors(tmp_path, args, message):
    result = emovox(*args, cwd=tmp_path)
    assert result.returncode == 2 and message in result.stderr.decode()


def test_emotions_parse_shows_the_resolution_as_json():
    data = json.loads(emovox("emotions", "--parse", "有点难过", "--json").stdout)
    assert data["emotion"]["name"] == "sad" and data["emotion"]["intensity"] < 0.7
    assert data["matched"] == ["有点 难过"]


def test_emotions_lists_every_preset():
    data = json.loads(emovox("emotions", "--json").stdout)
    assert [e["name"] for e in data] == ["neutral", "happy", "angry", "sad", "surprised", "fearful", "disgusted"]


def test_say_writes_word_timestamps_and_subtitles(tmp_path):
    out, stamps, subtitles = tmp_path / "s.wav", tmp_path / "s.json", tmp_path / "s.vtt"
    result = emovox("say", "Meet me at the station at noon.", "-o", str(out), "--voice", "joe",
                    "--timestamps", str(stamps), "--subtitles", str(subtitles))
    assert result.returncode == 0, result.stderr
    words = json.loads(stamps.read_text("utf-8"))["words"]
    assert [w["word"] for w in words] == ["Meet", "me", "at", "the", "station", "at", "noon"]
    assert all(a["end"] <= b["start"] + 1e-3 for a, b in zip(words, words[1:]))
    assert words[-1]["end"] <= soundfile.info(str(out)).duration
    assert subtitles.read_text("utf-8").startswith("WEBVTT") and "station" in subtitles.read_text("utf-8")
    bad = emovox("say", "Hi.", "-o", str(tmp_path / "x.wav"), "--subtitles", str(tmp_path / "x.txt"))
    assert bad.returncode == 2 and ".srt or .vtt" in bad.stderr.decode() and not (tmp_path / "x.wav").exists()


def test_book_makes_chapters_with_a_real_voice(tmp_path):
    source = tmp_path / "story.md"
    source.write_text("# Story\n\n## One\n\nThe bus left at 7:15 AM.\n\n## Two\n\nIt came back at noon.\n", "utf-8")
    result = emovox("book", str(source), "-o", str(tmp_path / "out"), "--voice", "joe", "--format", "mp3", "--json")
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert events[-1]["event"] == "done" and events[-1]["rendered"] == 2
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text("utf-8"))
    assert manifest["complete"] and [c["title"] for c in manifest["chapters"]] == ["One", "Two"]
    assert soundfile.info(str(tmp_path / "out" / manifest["chapters"][0]["audio"])).format == "MP3"
    assert "The bus left at 7:15 AM." in (tmp_path / "out" / manifest["chapters"][0]["srt"]).read_text("utf-8")


@pytest.mark.mandarin
def test_demo_shows_every_voice_the_emotions_a_prompt_and_mandarin(tmp_path):
    import numpy as np

    out = tmp_path / "demo"
    result = emovox("demo", "--out", str(out))
    assert result.returncode == 0, result.stderr
    voices = sorted(p.stem for p in (out / "01-voices").glob("*.wav"))
    assert voices == sorted(["heart", "joe", "jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"])
    emotions = sorted(p.stem for p in (out / "02-emotions").glob("*.wav"))
    assert emotions == sorted(f"heart-{e}" for e in ("neutral", "happy", "angry", "sad", "surprised", "fearful",
                                                     "disgusted"))
    files = sorted(out.rglob("*.wav"))
    assert {p.parent.name for p in files} == {"01-voices", "02-emotions", "03-prompt", "04-mandarin", "05-mixed"}
    for path in files:  # speech, not silence
        samples, rate = soundfile.read(str(path), dtype="float32")
        assert len(samples) / rate > 1.0 and np.sqrt(np.mean(samples**2)) > 0.01, path
    listed = (out / "README.txt").read_text("utf-8")
    assert all(str(p.relative_to(out)) in listed for p in files)
    assert "voices loaded first" in listed and "jf_alpha" in listed.split("voices loaded first")[1]
