"""Pronunciation lexicons: files, case rules, both frontends, the store, the CLI and the API. Fast tier."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import httpx
import pytest

from emovox.frontend.lexicon import Entry, Lexicon, LexiconError
from emovox.lexicons import LexiconStore
from emovox.options import SpeechOptions

PLS = """<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-US">
  <lexeme><grapheme>Garcia</grapheme><phoneme>ɡɑɹsˈiːə</phoneme></lexeme>
  <lexeme><grapheme>W3C</grapheme><alias>World Wide Web Consortium</alias></lexeme>
</lexicon>"""


def test_files_in_json_yaml_and_pls(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps({"SQL": "sequel", "Garcia": {"ipa": "ɡɑɹsˈiːə"}}), "utf-8")
    (tmp_path / "b.yaml").write_text("- text: 银行\n  pinyin: yin2 hang2\n- text: NASA\n  alias: nasa\n", "utf-8")
    (tmp_path / "c.pls").write_text(PLS, "utf-8")
    kinds = {e.text: e.kind for name in ("a.json", "b.yaml", "c.pls") for e in Lexicon.load(tmp_path / name).entries}
    assert kinds == {"SQL": "alias", "Garcia": "ipa", "银行": "pinyin", "NASA": "alias", "W3C": "alias"}


@pytest.mark.parametrize(("data", "words"), [
    ({"银行": {"pinyin": "yin2"}}, "one syllable per character"),
    ({"银行": {"pinyin": "yinhang"}}, "tone numbers"),
    ({"x": {"ipa": "a", "alias": "b"}}, "only one of"),
    ({"": "nothing"}, "both sides"),
    ("just a string", "mapping"),
])
def test_bad_entries_say_what_is_wrong(data, words):
    with pytest.raises(LexiconError, match=words):
        Lexicon.from_data(data)


def test_case_rules_and_whole_words():
    lexicon = Lexicon((Entry("SQL", "sequel", "alias"), Entry("nice", "NEESE", "alias")))
    assert lexicon.with_aliases("SQL and sql; Nice, nicer, NICE.") == "sequel and sql; NEESE, nicer, NEESE."


def test_the_planner_reads_aliases_ipa_and_pinyin(tiny_engine):
    lexicon = Lexicon((Entry("SQL", "sequel", "alias"), Entry("Garcia", "ɡɑɹsˈiːə", "ipa"),
                       Entry("银行", "yin2 xing2", "pinyin")))
    plan = tiny_engine.plan("Mr. Garcia likes SQL. 我去银行。", options=SpeechOptions(voice="tiny", lexicon=lexicon))
    english, chinese = plan.jobs[0], next(j for j in plan if j.voice == "baker")
    assert "sequel" in english.text and "ɡɑɹsˈiːə" in english.phonemes
    assert "yin2 xing2" in chinese.phonemes
    plain = tiny_engine.plan("Mr. Garcia likes SQL. 我去银行。", voice="tiny")
    assert "ɡɑɹsˈiːə" not in plain.jobs[0].phonemes and "yin2 hang2" in next(j for j in plain if j.voice == "baker").phonemes


def test_the_store_keeps_entries_across_runs(tmp_path):
    store = LexiconStore(tmp_path)
    store.add([Entry("SQL", "sequel", "alias")])
    store.add([Entry("SQL", "S Q L", "alias"), Entry("Garcia", "ɡɑɹsˈiːə", "ipa")])  # replaces, adds
    assert [(e.text, e.say) for e in LexiconStore(tmp_path).load().entries] == [("SQL", "S Q L"),
                                                                                ("Garcia", "ɡɑɹsˈiːə")]
    store.remove("SQL")
    with pytest.raises(LexiconError, match="no lexicon entry"):
        store.remove("SQL")


def _emovox(*args: str, home) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "emovox.cli", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "EMOVOX_HOME": str(home)})


def test_phonemize_shows_where_a_stored_entry_was_used(tmp_path):
    assert _emovox("lexicon", "add", "Garcia", "ɡɑɹsˈiːə", "--kind", "ipa", home=tmp_path).returncode == 0
    shown = json.loads(_emovox("phonemize", "Ask Mr. Garcia.", "--json", home=tmp_path).stdout)
    assert shown["lexicon"] == [{"text": "Garcia", "ipa": "ɡɑɹsˈiːə"}]
    assert "ɡɑɹsˈiːə" in shown["segments"][0]["phonemes"]
    listed = json.loads(_emovox("lexicon", "list", "--json", home=tmp_path).stdout)
    assert listed == [{"text": "Garcia", "ipa": "ɡɑɹsˈiːə"}]
    bad = _emovox("lexicon", "add", "银行", "yin2", "--kind", "pinyin", home=tmp_path)
    assert bad.returncode == 2 and "one syllable per character" in bad.stderr


def test_the_api_takes_lexicon_entries_per_request(tiny_engine):
    from emovox.server.app import ServerSettings, create_app
    from emovox.server.background import BackgroundServer

    with BackgroundServer(create_app(tiny_engine, ServerSettings(warmup=False))) as server:
        url = f"{server.url}/v1/audio/captioned_speech"
        body = {"input": "We love SQL.", "voice": "tiny", "response_format": "wav"}
        plain = httpx.post(url, json=body, timeout=60).json()
        aliased = httpx.post(url, json={**body, "lexicon": [{"text": "SQL", "alias": "sequel"}]}, timeout=60).json()
        bad = httpx.post(url, json={**body, "lexicon": [{"text": "SQL"}]}, timeout=60)
    assert [t["word"] for t in plain["timestamps"]][-1] == "SQL"
    assert [t["word"] for t in aliased["timestamps"]][-1] == "SQL"  # the word as written, read as its alias
    assert aliased["audio"] != plain["audio"]
    assert bad.status_code == 400 and bad.json()["error"]["param"] == "lexicon"
