"""Mandarin: the Chinese frontend's readings, `emovox phonemize --lang zh`, and synthesis."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from emovox.frontend.chinese import ChineseFrontend, Syllable

pytestmark = pytest.mark.paired

READINGS = [
    # polyphones by word context
    ("我去银行取钱", "wo3 qu4 yin2 hang2 qu3 qian2"),
    ("他在街上行走", "ta1 zai4 jie1 shang4 xing2 zou3"),
    ("我们重新开始", "wo3 men5 chong2 xin1 kai1 shi3"),
    ("这件事很重要", "zhe4 jian4 shi4 hen3 zhong4 yao4"),
    ("孩子长大了", "hai2 zi5 zhang3 da4 le5"),
    ("这条河的长度", "zhe4 tiao2 he2 de5 chang2 du4"),
    ("头发很长", "tou2 fa4 hen3 chang2"),
    ("首都北京", "shou3 du1 bei3 jing1"),
    ("音乐很好听", "yin1 yue4 hen3 hao3 ting1"),
    # third-tone sandhi, within and across words
    ("你好", "ni2 hao3"),
    ("我很好", "wo3 hen2 hao3"),
    ("展览馆", "zhan2 lan2 guan3"),
    # 一 and 不
    ("一样", "yi2 yang4"),
    ("一天", "yi4 tian1"),
    ("一起", "yi4 qi3"),
    ("第一", "di4 yi1"),
    ("统一", "tong3 yi1"),
    ("不是", "bu2 shi4"),
    ("不好", "bu4 hao3"),
    ("他会不会来", "ta1 hui4 bu2 hui4 lai2"),
    # numbers in context
    ("我有2个苹果", "wo2 you3 liang3 ge4 ping2 guo3"),
    ("2008年", "er4 ling2 ling2 ba1 nian2"),
    ("3月14日", "san1 yue4 shi2 si4 ri4"),
    ("增长了17%", "zeng1 zhang3 le5 bai3 fen1 zhi1 shi2 qi1"),
    ("价格是¥12.5", "jia4 ge2 shi4 shi2 er4 dian3 wu3 yuan2"),
    ("电话13812345678", "dian4 hua4 yao1 san1 ba1 yao1 er4 san1 si4 wu3 liu4 qi1 ba1"),
    ("下午3:30开会", "xia4 wu3 san1 dian3 san1 shi2 fen1 kai1 hui4"),
    ("一共1234人", "yi2 gong4 yi4 qian1 er4 bai3 san1 shi2 si4 ren2"),
    ("完成了3/4", "wan2 cheng2 le5 si4 fen1 zhi1 san1"),
    ("今天是2024年5月1日", "jin1 tian1 shi4 er4 ling2 er4 si4 nian2 wu3 yue4 yi1 ri4"),
    ("他每天早上6:15起床", "ta1 mei3 tian1 zao3 shang5 liu4 dian3 shi2 wu3 fen1 qi3 chuang2"),
    ("门票是¥80", "men2 piao4 shi4 ba1 shi2 yuan2"),
    # neutral tones
    ("他打电话给妈妈", "ta1 da3 dian4 hua4 gei3 ma1 ma5"),
    ("这件衣服不大不小", "zhe4 jian4 yi1 fu5 bu2 da4 bu4 xiao3"),
    ("请你给我一杯水", "qing2 ni3 gei2 wo3 yi4 bei1 shui3"),
    # traditional characters are converted first
    ("我們去銀行，長城很長", "wo3 men5 qu4 yin2 hang2 chang2 cheng2 hen3 chang2"),
    # full-width digits and punctuation
    ("２个人，", "liang3 ge4 ren2"),
]


@pytest.fixture(scope="module")
def frontend() -> ChineseFrontend:
    return ChineseFrontend()


@pytest.mark.parametrize("text, expected", READINGS)
def test_reading_after_sandhi(frontend, text, expected):
    syllables = [s for s in frontend.syllables(frontend.normalize(text).text) if isinstance(s, Syllable)]
    assert " ".join(s.pinyin for s in syllables) == expected


def test_phonemes_mark_words_and_pauses(frontend):
    assert frontend.phonemize("我们去银行，然后回家") == "wo3 men5 #1 qu4 #1 yin2 hang2 #3 ran2 hou4 #1 hui2 jia1"


def test_long_text_is_cut_into_sentences_and_clauses(frontend):
    text = frontend.normalize("今天天气很好。" + "我们一起去公园散步，" * 30 + "然后回家。").text
    segments = list(frontend.segments(text, max_phonemes=120))
    assert segments[0].text == "今天天气很好。" and len(segments) > 3
    assert all(len(s.phonemes.split()) <= 120 for s in segments)


def test_phonemize_command_prints_one_syllable_per_character():
    run = subprocess.run([sys.executable, "-m", "emovox.cli", "phonemize", "我们去银行。", "--lang", "zh", "--json"],
                         capture_output=True, text=True, check=True)
    result = json.loads(run.stdout)
    assert result["pinyin"] == "wo3 men5 qu4 yin2 hang2"
    assert [s["char"] for s in result["syllables"]] == list("我们去银行")


@pytest.mark.mandarin
def test_the_mandarin_voice_speaks(engine):
    audio = engine.synthesize("欢迎使用语音合成系统。今天是2026年11月30日。", voice="baker")
    assert audio.sample_rate == 24_000 and 3.0 < audio.duration < 9.0
    assert np.abs(audio.samples).max() > 0.1
    assert audio.info.phonemes[0].startswith("huan1 ying2")
    faster = engine.synthesize("欢迎使用语音合成系统。", voice="zh", speed=1.5)
    slower = engine.synthesize("欢迎使用语音合成系统。", voice="zh")
    assert faster.duration < 0.8 * slower.duration


@pytest.mark.mandarin
def test_english_only_text_is_a_clear_error_for_the_mandarin_voice(engine):
    from emovox.errors import InvalidTextError

    with pytest.raises(InvalidTextError):
        engine.synthesize("☃☃", voice="baker")


@pytest.mark.mandarin
def _segments(pieces):
    """(text, samples, rate) per segment of a stream, its pieces joined."""
    segments, parts = [], []
    for piece in pieces:
        parts.append(piece.samples)
        if piece.final:
            segments.append((piece.text, np.concatenate(parts), piece.sample_rate))
            parts = []
    return segments


@pytest.mark.mandarin
def test_mixed_text_is_one_stream_in_two_voices_at_one_loudness(engine):
    segments = _segments(engine.stream("我们明天用 Python 写一个 demo。", voice="baker"))
    assert [text for text, *_ in segments] == ["我们明天用", "Python", "写一个", "demo."]
    assert {rate for *_, rate in segments} == {24_000}
    from emovox.audio.effects import speech_level_db

    levels = [speech_level_db(samples, rate) for _, samples, rate in segments]
    assert max(levels) - min(levels) < 4.0, levels

    english_voice = _segments(engine.stream("Say 你好 to everyone.", voice="joe"))
    assert [text for text, *_ in english_voice] == ["Say", "你好", "to everyone."]
    assert {rate for *_, rate in english_voice} == {22_050}  # the Mandarin segment is resampled


@pytest.mark.mandarin
def test_lang_reads_the_whole_text_as_one_language(engine):
    audio = engine.synthesize("你好 world", voice="joe", lang="en")
    assert audio.info.segments == 1 and any("你 好" in w for w in audio.info.warnings)
    with pytest.raises(Exception, match="unknown language"):
        engine.synthesize("hello", voice="joe", lang="fr")
