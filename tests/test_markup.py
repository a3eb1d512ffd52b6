"""Inline emotion tags and the SSML subset: spans, prosody, pauses, and errors with positions."""

import pytest

from emovox.emotion.markup import MarkupError, has_markup, parse
from emovox.emotion.model import Emotion

pytestmark = pytest.mark.paired


def test_inline_tags_split_text_into_emotional_spans():
    spans = parse("[happy] We won! [sad:0.6] But the season is over.")
    assert [(s.text, s.emotion) for s in spans] == [
        ("We won!", Emotion("happy", 1.0)), ("But the season is over.", Emotion("sad", 0.6)),
    ]


def test_brackets_that_are_not_emotions_stay_text():
    assert not has_markup("See note [1] and [citation needed].")
    assert parse("See note [1].")[0].text == "See note [1]."


def test_ssml_prosody_break_emphasis_and_emotion():
    spans = parse('<speak>Hello <break time="500ms"/> <prosody rate="slow" pitch="+2st" volume="+3dB">slowly'
                  '</prosody> <emphasis>this</emphasis> <emotion name="angry" intensity="0.5">now!</emotion></speak>')
    hello, slowly, this, now = spans
    assert hello.text == "Hello" and slowly.pause_before_s == 0.5
    assert (slowly.prosody.speed, slowly.prosody.pitch_st, slowly.prosody.energy_db) == (0.8, 2.0, 3.0)
    assert this.prosody.energy_db > 0 and this.emotion is None
    assert now.emotion == Emotion("angry", 0.5)


def test_standard_ssml_with_its_namespace_parses_and_breaks_together_stop_at_the_limit():
    spans = parse('<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-US">Hi'
                  '<break time="6s"/><break time="6s"/><prosody rate="120%">there</prosody></speak>')
    assert [(s.text, s.pause_before_s, s.prosody.speed) for s in spans] == [("Hi", 0.0, 1.0), ("there", 10.0, 1.2)]


def test_ssml_elements_without_a_speak_root_are_still_markup():
    wait, now = parse('Wait <break time="300ms"/> <prosody rate="fast">now</prosody>')
    assert wait.text == "Wait" and now.pause_before_s == 0.3 and now.prosody.speed == 1.25
    assert not has_markup("if a < b and b > c, then a < c")


@pytest.mark.parametrize(("text", "message"), [
    ("<prosody rate='x'>hi</prosody>", "bad prosody rate 'x'"),
    ("Say <emphasis>this", "malformed SSML at line 1, column"),
    ("[happy We won", "unclosed emotion tag"),
    ("[sad:2] no", "out of range"),
    ("[sad:x] no", "bad intensity"),
    ("<speak>Hello <prosody>", "malformed SSML at line 1, column"),
    ("<speak><emotion name='elated'>x</emotion></speak>", "not an emotion"),
    ("<speak><prosody rate='zoom'>x</prosody></speak>", "bad prosody rate 'zoom'"),
    ("<speak><break time='soon'/>x</speak>", "bad break time"),
    ("<speak><audio src='x.wav'/></speak>", "unsupported SSML element <audio>"),
    ("<speak><break time='1.2.3s'/>x</speak>", "bad break time"),
    ("<speak><prosody pitch='nanst'>x</prosody></speak>", "bad prosody pitch 'nanst'.*-12 to 12 st"),
    ("<speak><prosody volume='+90dB'>x</prosody></speak>", "bad prosody volume"),
    ("<speak>" + "<s>" * 60 + "x" + "</s>" * 60 + "</speak>", "nested deeper than 50"),
])
def test_malformed_markup_is_a_clear_error(text, message):
    with pytest.raises(MarkupError, match=message):
        parse(text)


def test_engine_speaks_marked_up_text_with_pauses(engine):
    plain = engine.synthesize("Hello there.", voice="joe")
    paused = engine.synthesize('<speak>Hello <break time="1s"/> there.</speak>', voice="joe")
    assert paused.info.segments == 2 and paused.duration > plain.duration + 0.8


def test_engine_rejects_malformed_markup_before_any_audio(engine):
    with pytest.raises(MarkupError):
        engine.stream("[angry:5] Stop that!", voice="joe")


BILLION_LAUGHS = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">'
                  '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;">]><speak>&lol3;</speak>')
EXTERNAL_ENTITY = '<!DOCTYPE speak [<!ENTITY secret SYSTEM "file:///etc/passwd">]><speak>&secret;</speak>'


@pytest.mark.parametrize("text", [
    BILLION_LAUGHS,
    EXTERNAL_ENTITY,
    '<?xml version="1.0" encoding="UTF-8"?><speak>Hello there.</speak>',
    "Read this: <!DOCTYPE html> is how a page starts.",
    "<speak><!ENTITY x 'y'>Hello</speak>",
])
def test_xml_declarations_and_document_types_are_refused_before_any_parser(text):
    assert has_markup(text)
    with pytest.raises(MarkupError, match="document type definitions") as refused:
        parse(text)
    assert "root:" not in str(refused.value)  # nothing of /etc/passwd, nothing expanded
