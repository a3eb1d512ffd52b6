"""Free-text emotion prompts in English and Chinese -> an Emotion, with what produced it.

A deterministic lexicon parser: emotion words (each with its own inherent strength, so
"furious" is stronger than "annoyed"), degree words that raise or lower intensity
("slightly", "very", 有点, 非常), negation ("not angry at all" -> neutral), and direct
controls for rate, pitch and volume ("faster", 大声). Chinese is matched longest-first, so
快乐 (happy) is not read as 快 (fast).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field

from emovox.emotion.model import Emotion

#: word -> (emotion, inherent intensity)
EMOTION_WORDS: dict[str, tuple[str, float]] = {}


def _add(emotion: str, strength: float, words: str) -> None:
    for word in words.split():
        EMOTION_WORDS[word.replace("_", " ")] = (emotion, strength)


_add("happy", 0.7, "happy happily happiness joy joyful joyfully glad cheerful cheerfully cheery merry upbeat "
     "pleased delighted content bright playful excited exciting enthusiastic")
_add("happy", 0.95, "ecstatic overjoyed elated thrilled jubilant euphoric")
_add("angry", 0.7, "angry angrily anger mad cross hostile frustrated outraged indignant")
_add("angry", 0.45, "annoyed irritated grumpy")
_add("angry", 0.95, "furious furiously rage raging enraged livid irate fuming")
_add("sad", 0.7, "sad sadly sadness unhappy sorrow sorrowful gloomy melancholy melancholic upset blue "
     "mournful tearful crying grieving grief depressed down disappointed lonely")
_add("sad", 0.95, "heartbroken miserable devastated despairing")
_add("surprised", 0.7, "surprised surprise surprising amazed astonished shocked stunned astounded "
     "wow unexpected incredulous")
_add("fearful", 0.7, "scared afraid fear fearful fearfully frightened panic panicking panicked alarmed "
     "horrified")
_add("fearful", 0.45, "nervous anxious worried uneasy tense")
_add("fearful", 0.95, "terrified petrified")
_add("disgusted", 0.7, "disgust disgusted disgusting gross revolted repulsed sickened nauseated yuck "
     "contempt disdain grossed_out")
_add("neutral", 0.0, "neutral calm calmly plain normal normally flat monotone relaxed steady composed "
     "matter-of-fact even evenly")
_add("happy", 0.7, "开心 高兴 快乐 愉快 喜悦 欢快 欢乐 愉悦 兴奋 激动 开朗 喜 乐")
_add("angry", 0.7, "生气 愤怒 气愤 恼火 发火 火大 不爽 怒 气")
_add("angry", 0.95, "暴怒 狂怒")
_add("sad", 0.7, "难过 伤心 悲伤 沮丧 失落 忧伤 哀伤 低落 哭 悲 委屈")
_add("sad", 0.95, "悲痛 绝望")
_add("surprised", 0.7, "惊讶 吃惊 惊奇 意外 诧异 惊喜 惊")
_add("surprised", 0.95, "震惊")
_add("fearful", 0.7, "害怕 恐惧 惊恐 畏惧 惊慌 恐慌 怕")
_add("fearful", 0.45, "紧张 担心 不安")
_add("disgusted", 0.7, "厌恶 恶心 嫌弃 讨厌 反感 憎恶 嫌")
_add("neutral", 0.0, "平静 冷静 中性 正常 平淡 淡定 平和 平稳")

#: degree word -> multiplier applied to the inherent intensity (clipped to 1)
DEGREE_WORDS = {
    "slightly": 0.45, "a little": 0.5, "a bit": 0.5, "a little bit": 0.45, "somewhat": 0.6,
    "kind of": 0.6, "kinda": 0.6, "sort of": 0.6, "mildly": 0.5, "a touch": 0.5, "a tad": 0.5,
    "faintly": 0.4, "barely": 0.3, "rather": 0.8, "quite": 1.15, "pretty": 1.1, "almost": 1.1,
    "very": 1.3, "really": 1.3, "so": 1.3, "super": 1.4, "truly": 1.3, "deeply": 1.35, "highly": 1.3,
    "incredibly": 1.45, "extremely": 1.5, "totally": 1.4, "absolutely": 1.45, "utterly": 1.45,
    "completely": 1.4, "intensely": 1.45,
    "有点": 0.5, "有一点": 0.5, "有些": 0.55, "稍微": 0.45, "略微": 0.45, "略": 0.5, "一点": 0.5,
    "一些": 0.55, "些许": 0.45, "稍": 0.5, "比较": 0.8, "还算": 0.7,
    "很": 1.25, "挺": 1.15, "真": 1.25, "好": 1.25, "太": 1.4, "非常": 1.4, "特别": 1.4, "十分": 1.4,
    "相当": 1.3, "超级": 1.5, "超": 1.45, "极其": 1.5, "极": 1.5, "万分": 1.5, "格外": 1.4, "无比": 1.5,
}
NEGATIONS = {"not", "no", "never", "isn't", "aren't", "wasn't", "don't", "doesn't", "without", "nor",
             "不", "没", "没有", "别", "不要", "并不", "毫不", "一点也不", "一点都不", "不是"}

#: control word -> (field, value): speed factor, pitch semitones, energy dB
CONTROL_WORDS: dict[str, tuple[str, float]] = {
    "faster": ("speed", 1.2), "quickly": ("speed", 1.2), "quick": ("speed", 1.2), "fast": ("speed", 1.2),
    "rapidly": ("speed", 1.25), "hurried": ("speed", 1.2), "hurriedly": ("speed", 1.2),
    "slower": ("speed", 0.8), "slowly": ("speed", 0.8), "slow": ("speed", 0.8),
    "higher": ("pitch_st", 2.5), "high-pitched": ("pitch_st", 3.0), "high pitched": ("pitch_st", 3.0),
    "lower": ("pitch_st", -2.5), "deeper": ("pitch_st", -2.5), "deep": ("pitch_st", -2.0), "low": ("pitch_st", -2.0),
    "louder": ("energy_db", 4.0), "loud": ("energy_db", 4.0), "loudly": ("energy_db", 4.0),
    "shouting": ("energy_db", 6.0), "quieter": ("energy_db", -4.0), "quiet": ("energy_db", -4.0),
    "quietly": ("energy_db", -4.0), "softer": ("energy_db", -4.0), "softly": ("energy_db", -4.0),
    "whisper": ("energy_db", -6.0), "whispering": ("energy_db", -6.0),
    "快": ("speed", 1.2), "快点": ("speed", 1.2), "快一点": ("speed", 1.2), "快些": ("speed", 1.2),
    "慢": ("speed", 0.8), "慢点": ("speed", 0.8), "慢一点": ("speed", 0.8), "慢些": ("speed", 0.8),
    "高": ("pitch_st", 2.5), "高一点": ("pitch_st", 2.5), "尖": ("pitch_st", 3.0),
    "低": ("pitch_st", -2.5), "低沉": ("pitch_st", -3.0), "低一点": ("pitch_st", -2.5),
    "大声": ("energy_db", 4.0), "响亮": ("energy_db", 4.0), "大声点": ("energy_db", 4.0),
    "小声": ("energy_db", -4.0), "轻声": ("energy_db", -4.0), "轻柔": ("energy_db", -4.0),
}
_NEUTRAL_CONTROLS = {"speed": 1.0, "pitch_st": 0.0, "energy_db": 0.0}

_LEXICON = set(EMOTION_WORDS) | set(DEGREE_WORDS) | NEGATIONS | set(CONTROL_WORDS)
_LONGEST = max(len(w) for w in _LEXICON)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_NEGATION_REACH = 3  # tokens before an emotion word that a negation covers
_CLAUSE_MARKS = set(",，。.!！?？;；、:：")
_BOUNDARY = "|"  # degree words and negations do not reach across clause punctuation


@dataclass(frozen=True)
class ParsedPrompt:
    """The emotion a prompt resolved to and the words that produced it."""

    emotion: Emotion
    matched: tuple[str, ...] = ()
    understood: bool = True
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict:
        return {"emotion": self.emotion.to_dict(), "matched": list(self.matched),
                "understood": self.understood, "notes": list(self.notes)}


def _tokens(prompt: str) -> list[str]:
    """Lexicon words found in the prompt, in order: longest match first, CJK and Latin alike."""
    text = prompt.lower().replace("’", "'")
    tokens, position = [], 0
    while position < len(text):
        if not (_CJK.match(text[position]) or text[position].isalpha()):
            if text[position] in _CLAUSE_MARKS and tokens and tokens[-1] != _BOUNDARY:
                tokens.append(_BOUNDARY)
            position += 1
            continue
        match = None
        for length in range(min(_LONGEST, len(text) - position), 0, -1):
            candidate = text[position:position + length]
            at_word_end = _CJK.match(candidate[-1]) or position + length == len(text) \
                or not (text[position + length].isalpha() or text[position + length] == "'")
            if candidate in _LEXICON and at_word_end:
                match = candidate
                break
        if match is None:  # skip the rest of an unknown Latin word, or one CJK character
            step = 1 if _CJK.match(text[position]) else len(re.match(r"[\w'-]+", text[position:]).group(0))
            tokens.append("")
            position += step
        else:
            tokens.append(match)
            position += len(match)
    return tokens


def parse_prompt(prompt: str) -> ParsedPrompt:
    """Resolve a free-text style prompt; an unrecognized prompt gives neutral with a warning."""
    tokens = _tokens(prompt)
    best: tuple[float, str, float, list[str]] | None = None
    controls: dict[str, float] = {}
    matched: list[str] = []
    notes: list[str] = []
    for index, token in enumerate(tokens):
        if token in CONTROL_WORDS:
            field_name, value = CONTROL_WORDS[token]
            degree = _degree_before(tokens, index)
            controls[field_name] = _scale_control(field_name, value, degree)
            matched.append(token)
        elif token in EMOTION_WORDS:
            emotion, strength = EMOTION_WORDS[token]
            if any(w in NEGATIONS for w in _clause_before(tokens, index, _NEGATION_REACH)):
                matched.append(f"not {token}")
                notes.append(f"{token!r} is negated, so it is not used")
                continue
            degree = _degree_before(tokens, index)
            intensity = min(1.0, strength * degree)
            words = [w for w in _clause_before(tokens, index, 2) if w in DEGREE_WORDS] + [token]
            matched.append(" ".join(words))
            score = intensity if emotion != "neutral" else 0.01
            if best is None or score > best[0]:
                best = (score, emotion, intensity, words)
    if best is None and not controls:
        if any(t in NEGATIONS for t in tokens) and matched:
            return ParsedPrompt(Emotion("neutral", 0.0), tuple(matched), True, tuple(notes))
        warnings.warn(f"prompt {prompt!r} was not understood; speaking neutrally", stacklevel=2)
        return ParsedPrompt(Emotion("neutral", 0.0), (), False, (f"no emotion words in {prompt!r}",))
    name, intensity = ("neutral", 0.0) if best is None else (best[1], best[2])
    if name == "neutral":
        intensity = 0.0
    emotion = Emotion(name, round(intensity, 3), **{k: v for k, v in controls.items()})
    return ParsedPrompt(emotion, tuple(matched), True, tuple(notes))


def _clause_before(tokens: list[str], index: int, reach: int) -> list[str]:
    window = tokens[max(0, index - reach):index]
    return window[len(window) - window[::-1].index(_BOUNDARY):] if _BOUNDARY in window else window


def _degree_before(tokens: list[str], index: int) -> float:
    degree = 1.0
    for word in _clause_before(tokens, index, 2):
        degree *= DEGREE_WORDS.get(word, 1.0)
    return degree


def _scale_control(field_name: str, value: float, degree: float) -> float:
    neutral = _NEUTRAL_CONTROLS[field_name]
    if field_name == "speed":
        return round(value ** min(degree, 2.0), 3)
    return round(neutral + value * min(degree, 2.0), 3)
