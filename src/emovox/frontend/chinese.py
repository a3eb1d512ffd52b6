"""The Chinese text pipeline: normalize -> sentences -> words (jieba) -> pinyin with tones.

Readings come from context: pypinyin's phrase dictionaries choose between a polyphone's
readings (银行 háng / 行走 xíng, 重新 chóng / 重要 zhòng, 还钱 huán); where a polyphone is a
word of its own, jieba's part of speech decides (很长: adjective, cháng; 长了: verb, zhǎng).
jieba's words also place the word breaks. Tone sandhi: pypinyin's third-tone rule within
words, 3-3 across two words made only of third tones (很好 hén hǎo), and 一 / 不 by the tone
that follows (一样 yí, 一天 yì, 一千 yì, 第一 yī, 不是 bú), as Mandarin speakers say them.

A segment's phonemes are what the Mandarin model reads: syllables with tone digits
(5 = neutral), `#1` between words and `#3` at a pause (comma, colon, enumeration mark).
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass

from emovox.caching import CacheStats
from emovox.frontend.english import Segment
from emovox.frontend.lexicon import Lexicon
from emovox.frontend.normalize import Normalized
from emovox.frontend.zh_normalize import has_hanzi, normalize

WORD_BREAK, PAUSE_BREAK = "#1", "#3"
_SENTENCE_END = re.compile(r"(?<=[。！？；!?;…])")
_CLAUSE_MARKS = "，、：,:—"
#: Characters that, next to 一, make it part of a number or an ordinal (read yī); before
#: 百/千/万/亿 it takes the sandhi like any other (一千 yìqiān).
_NUMERIC_BEFORE = set("零一二三四五六七八九十第两")
_NUMERIC_AFTER = set("零一二三四五六七八九十")
#: A polyphone that is a word of its own, read by its part of speech (jieba's tags).
_BY_PART_OF_SPEECH = {
    "还": {"v": "huan2"}, "都": {"d": "dou1"},
    "好": {"a": "hao3", "v": "hao4"}, "了": {"ul": "le5", "y": "le5"}, "得": {"ud": "de5", "v": "de2"},
    "地": {"uv": "de5", "n": "di4"}, "着": {"uz": "zhe5"}, "为": {"p": "wei4", "v": "wei2"},
    "重": {"a": "zhong4", "d": "chong2"}, "只": {"d": "zhi3", "c": "zhi3", "q": "zhi1"},
    "种": {"q": "zhong3", "v": "zhong4"}, "数": {"n": "shu4", "v": "shu3"}, "少": {"a": "shao3", "d": "shao3"},
    "行": {"v": "xing2", "a": "xing2", "q": "hang2"}, "便": {"d": "bian4"}, "当": {"p": "dang1"},
}
#: Two-syllable words whose second syllable is neutral in standard speech, where pypinyin's
#: phrase book gives it a full tone.
_NEUTRAL_SECOND = {
    "衣服", "明白", "早上", "晚上", "时候", "朋友", "事情", "知道", "告诉", "喜欢", "认识", "休息", "意思",
    "客气", "舒服", "漂亮", "清楚", "麻烦", "窗户", "眼睛", "耳朵", "先生", "地方", "豆腐", "萝卜", "石头",
    "木头", "馒头", "枕头", "骨头", "舌头", "指头", "念头", "东西", "关系", "消息", "脑袋", "屁股",
    "钥匙", "商量", "打听", "收拾", "琢磨", "暖和", "凉快", "热闹", "粮食", "事儿", "月亮", "太阳", "尾巴",
    "便宜", "聪明", "糊涂", "结实", "老实", "规矩", "困难", "亲戚", "伙计", "姑娘", "媳妇", "丈夫", "学问",
    "部分", "名字", "味道", "态度", "生意", "力气", "别扭", "委屈", "称呼", "招呼", "答应", "打扮", "大方",
}
#: Reduplicated kinship and baby words: the second syllable is neutral (妈妈 māma).
_REDUPLICATED = set("妈爸哥姐弟妹爷奶姥叔婶舅姑宝")
#: 一 is read yī before these when it is a date or a floor (五月一日, 一楼).
_ORDINAL_AFTER = set("日号月楼")
#: Words ending in 儿 where it is a full syllable (child, son), not the erhua suffix.
_FULL_ER = {"女儿", "儿女", "婴儿", "幼儿", "孤儿", "健儿", "男儿", "胎儿", "患儿", "少儿", "孙儿", "宠儿", "混血儿",
            "新生儿", "体操健儿", "弃儿", "养儿", "侄儿"}


@dataclass(frozen=True)
class Syllable:
    """One character and how it is read, after sandhi."""

    char: str
    pinyin: str  # e.g. "hang2"; tone 5 is neutral
    word_start: bool = False


class ChineseFrontend:
    """Chinese text -> segments of pinyin syllables for the Mandarin model."""

    language = "zh"

    def __init__(self, cache_size: int = 4096) -> None:
        self._read = functools.lru_cache(maxsize=cache_size)(self._read_uncached)

    def normalize(self, text: str) -> Normalized:
        return normalize(text)

    def cache_stats(self) -> CacheStats:
        return CacheStats.of_lru(self._read)

    def syllables(self, text: str, lexicon: Lexicon | None = None) -> list[Syllable | str]:
        """Normalized text -> syllables, with `#3` where punctuation calls for a pause; a
        lexicon's pinyin entries replace the readings of the characters they match."""
        items = list(self._read(text))
        if not lexicon:
            return items
        readings: dict[int, tuple[str, bool]] = {}
        for match in lexicon.matches(text, ("pinyin",)):
            first = sum(1 for ch in text[:match.start] if has_hanzi(ch))
            for offset, syllable in enumerate(match.entry.say.split()):
                readings[first + offset] = (syllable, offset == 0)
        ordinal = 0
        for position, item in enumerate(items):
            if isinstance(item, Syllable):
                if ordinal in readings:
                    pinyin, starts = readings[ordinal]
                    items[position] = Syllable(item.char, pinyin, item.word_start or starts)
                ordinal += 1
        return items

    def phonemize(self, text: str, lexicon: Lexicon | None = None) -> str:
        tokens = []
        for item in self.syllables(text, lexicon):
            if isinstance(item, str):
                if tokens and tokens[-1] not in (WORD_BREAK, PAUSE_BREAK):
                    tokens.append(item)
                continue
            if item.word_start and tokens and tokens[-1] not in (WORD_BREAK, PAUSE_BREAK):
                tokens.append(WORD_BREAK)
            tokens.append(item.pinyin)
        while tokens and tokens[-1] in (WORD_BREAK, PAUSE_BREAK):
            tokens.pop()
        return " ".join(tokens)

    def segments(self, text: str, max_phonemes: int, first_segment_chars: int | None = None,
                 lexicon: Lexicon | None = None) -> Iterator[Segment]:
        """Sentences of normalized `text`, each cut at its pauses when over `max_phonemes`
        syllables (or, for the first, over `first_segment_chars` characters)."""
        for index, sentence in enumerate(s.strip() for s in _SENTENCE_END.split(text)):
            if not has_hanzi(sentence):
                continue
            limit_chars = first_segment_chars if index == 0 else None
            pieces = self._fit(sentence, max_phonemes, limit_chars)
            for number, piece in enumerate(pieces):
                phonemes = self.phonemize(piece, lexicon)
                if phonemes:
                    yield Segment(piece, phonemes, ends_sentence=number == len(pieces) - 1)

    def _fit(self, sentence: str, max_phonemes: int, limit_chars: int | None) -> list[str]:
        budget = max_phonemes // 2  # a syllable and its break
        if len(sentence) <= budget and (limit_chars is None or len(sentence) <= limit_chars):
            return [sentence]
        clauses = [c for c in re.split(f"(?<=[{_CLAUSE_MARKS}])", sentence) if has_hanzi(c)]
        if limit_chars is not None and len(clauses) > 1:
            return [clauses[0], *self._fit("".join(clauses[1:]), max_phonemes, None)]
        pieces, current = [], ""
        for clause in clauses:
            while len(clause) > budget:  # one clause longer than the model takes: cut it
                pieces.append(clause[:budget])
                clause = clause[budget:]
            if current and len(current) + len(clause) > budget:
                pieces.append(current)
                current = ""
            current += clause
        return pieces + ([current] if current else [])

    def _read_uncached(self, text: str) -> tuple[Syllable | str, ...]:
        import jieba
        from jieba import posseg
        from pypinyin import Style, lazy_pinyin

        jieba.setLogLevel(logging.WARNING)
        items: list[Syllable | str] = []
        for run in re.findall(r"[\u3400-\u4dbf\u4e00-\u9fff]+|[^\u3400-\u4dbf\u4e00-\u9fff]+", text):
            if not has_hanzi(run):
                if any(mark in run for mark in _CLAUSE_MARKS + "。！？；!?;…"):
                    items.append(PAUSE_BREAK)
                continue
            tagged = [(pair.word, pair.flag) for pair in posseg.lcut(run, HMM=True)]
            words = [word for word, _ in tagged]
            options = {"style": Style.TONE3, "neutral_tone_with_five": True, "tone_sandhi": True}
            readings = lazy_pinyin(words, **options)
            # pypinyin's own phrase matching over the whole run picks polyphones better where
            # a jieba word is missing from its phrase book (首都北京: dū); jieba's words give
            # the better sandhi (展览馆). Its syllable wins where the two disagree on one.
            phrases = lazy_pinyin(run, **options)
            if len(phrases) == len(readings):
                readings = [p if p[:-1] != w[:-1] else w for w, p in zip(readings, phrases)]
            chars = [(ch, i == 0) for word in words for i, ch in enumerate(word)]
            word_of = [word for word in words for _ in word]
            for position, (word, flag) in enumerate((w, f) for w, f in tagged for _ in w):
                if len(word) == 1 and flag in _BY_PART_OF_SPEECH.get(word, {}):
                    readings[position] = _BY_PART_OF_SPEECH[word][flag]
                elif word == "长":
                    readings[position] = _chang_or_zhang(run, position, readings[position])
            _third_tone_across_words(readings, words)
            for position, ((ch, _), word) in enumerate(zip(chars, word_of)):
                following = readings[position + 1] if position + 1 < len(readings) else None
                readings[position] = _yi_bu_sandhi(ch, readings[position], following, word, chars, position)
                if ch == "儿" and position and not chars[position][1] and word.endswith("儿") and word not in _FULL_ER:
                    readings[position] = "er5"  # erhua: 哪儿, 一会儿, 玩儿
                second_of = word[1:2] == ch and len(word) == 2 and not chars[position][1]
                if second_of and (word in _NEUTRAL_SECOND or (word[0] == word[1] and ch in _REDUPLICATED)):
                    readings[position] = readings[position][:-1] + "5"
            items.extend(Syllable(ch, reading, starts) for (ch, starts), reading in zip(chars, readings))
        return tuple(items)


#: 长 as "long" after a degree word (很长, 太长); as "grow" before a result (长大, 长了, 长高).
_DEGREE_WORDS = ("很", "太", "真", "挺", "更", "最", "好", "多", "这么", "那么", "非常", "特别", "比较", "不")
_GROWTH_RESULTS = set("了大高出成得胖")


def _chang_or_zhang(run: str, position: int, reading: str) -> str:
    if run[:position].endswith(_DEGREE_WORDS):
        return "chang2"
    if run[position + 1: position + 2] in _GROWTH_RESULTS:
        return "zhang3"
    return reading


def _yi_bu_sandhi(ch: str, reading: str, following: str | None, word: str, chars, position: int) -> str:
    """一 and 不 take their tone from the next syllable; 一 in numbers and ordinals stays yī."""
    if ch == "一":
        before = chars[position - 1][0] if position else ""
        after = chars[position + 1][0] if position + 1 < len(chars) else ""
        word_final = word.endswith("一") and len(word) > 1
        if (following is None or before in _NUMERIC_BEFORE or after in _NUMERIC_AFTER or word_final
                or after in _ORDINAL_AFTER):
            return "yi1"
        return "yi2" if following[-1] == "4" else "yi4"
    if ch == "不" and following is not None and reading.startswith("bu"):
        return "bu2" if following[-1] == "4" else "bu4"
    return reading


def _third_tone_across_words(readings: list[str], words: list[str]) -> None:
    """3-3 -> 2-3 where a one-syllable word meets a word made only of third tones (很好 hén
    hǎo, 很 + 好听 stays hěn), right to left so a changed tone is what the syllable before it
    sees (我很好: wǒ hén hǎo). Within words pypinyin has applied the rule already."""
    starts = [sum(len(w) for w in words[:i]) for i in range(len(words))]
    for index in range(len(words) - 2, -1, -1):
        left, right = starts[index], starts[index + 1]
        right_tones = readings[right: right + len(words[index + 1])]
        if len(words[index]) == 1 and readings[left].endswith("3") and all(r.endswith("3") for r in right_tones):
            readings[left] = readings[left][:-1] + "2"
