"""Chinese text normalization: traditional characters to simplified, then digits and symbols
written out as the characters one reads.

Context decides the reading: phone numbers digit by digit (1 as 幺), years digit by digit,
times as 点/分, money and percentages, 2 as 两 before a measure word or a 百/千/万. What
is left of digits goes to cn2an, which reads integers, decimals, fractions, percentages and
dates (月/日) in Chinese.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from emovox.frontend.normalize import Normalized

DIGITS = "零一二三四五六七八九"
#: cn2an reads integers of up to 16 digits; longer ones (ID and card numbers) are read digit by digit.
MAX_CARDINAL_DIGITS = 16
#: Measure words after which a lone 2 is read 两 (两个人, 两本书, 两公里).
MEASURE_WORDS = ("个", "位", "本", "只", "张", "次", "条", "件", "台", "辆", "块", "斤", "公斤", "公里", "米",
                 "小时", "分钟", "种", "把", "双", "份", "杯", "瓶", "碗", "家", "岁", "天", "周", "年", "点", "层",
                 "页", "篇", "句", "场", "名", "头", "匹", "棵", "朵", "座", "所", "节", "套", "枚", "架", "艘")
#: Chinese punctuation kept as pauses; other symbols become the words for them or are dropped.
PUNCTUATION = "，。！？；：、,.!?;:…—"
SYMBOL_WORDS = {"+": "加", "=": "等于", "×": "乘", "÷": "除以", "~": "到", "～": "到", "℃": "摄氏度",
                "°C": "摄氏度", "kg": "公斤", "km": "公里", "cm": "厘米", "mm": "毫米", "&": "和", "@": "艾特"}

_PHONE = re.compile(r"(?<!\d)(?:\+?86[- ]?)?(1[3-9]\d[- ]?\d{4}[- ]?\d{4}|0\d{2,3}-\d{7,8}|400-?\d{3}-?\d{4})(?!\d)")
_TIME = re.compile(r"(?<!\d)([01]?\d|2[0-3])[:：]([0-5]\d)(?:[:：]([0-5]\d))?(?!\d)")
_ISO_DATE = re.compile(r"(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)")
_YEAR = re.compile(r"(?<!\d)(\d{2,4})(?=年)")
_MONEY = re.compile(r"[¥￥]\s*(-?\d+(?:\.\d+)?)")
_RANGE = re.compile(r"(?<=\d)\s*[-~～]\s*(?=\d)")
_TWO = re.compile(r"(?<![\d.])2(?![\d.])(?=(?:" + "|".join(MEASURE_WORDS) + "))")
_NUMBER = re.compile(r"\d+/\d+|-?\d+(?:\.\d+)?%?")
_ANY_DIGIT = re.compile(r"(?![0-9])\d")  # a decimal digit of another script


def digits(text: str, one: str = "一") -> str:
    """Digit by digit, as phone numbers and years are read."""
    return "".join(one if ch == "1" else DIGITS[int(ch)] for ch in text if ch.isdigit())


def cardinal(text: str) -> str:
    """An integer, decimal, negative, fraction or percentage, read in Chinese."""
    import cn2an

    if "/" in text:
        numerator, denominator = text.split("/")
        return f"{cardinal(denominator)}分之{cardinal(numerator)}"
    if text.endswith("%"):
        return "百分之" + cardinal(text[:-1])
    whole, _, fraction = text.removeprefix("-").partition(".")
    spoken = digits(whole) if len(whole) > MAX_CARDINAL_DIGITS else cn2an.an2cn(whole, "low")
    # cn2an keeps 16 decimals and warns; every decimal is read here, digit by digit as cn2an does.
    spoken = ("负" if text.startswith("-") else "") + spoken + ("点" + digits(fraction) if fraction else "")
    # 二百/二千/二万 at the head of a number is said 两百/两千/两万.
    return re.sub(r"^(负?)二(?=[百千万亿])", r"\g<1>两", spoken)


def _time(match: re.Match) -> str:
    hour, minute, second = match.group(1), match.group(2), match.group(3)
    spoken = ("两" if int(hour) == 2 else cardinal(str(int(hour)))) + "点"
    if int(minute):
        spoken += ("零" if int(minute) < 10 else "") + cardinal(str(int(minute))) + "分"
    if second and int(second):
        spoken += cardinal(str(int(second))) + "秒"
    return spoken


def _money(match: re.Match) -> str:
    amount = match.group(1)
    return cardinal(amount.rstrip("0").rstrip(".") if "." in amount else amount) + "元"


def normalize(text: str) -> Normalized:
    """Chinese text with every digit and symbol written as the characters one says."""
    text = unicodedata.normalize("NFKC", text)  # full-width digits, letters and symbols to half width
    text = _ANY_DIGIT.sub(lambda m: str(unicodedata.decimal(m.group())), text)  # ٣ and ३ are 3 (cn2an reads 0-9)
    text = to_simplified(text)
    text = text.replace(",", "，").replace("!", "！").replace("?", "？").replace(";", "；")
    text = _PHONE.sub(lambda m: digits(m.group(1), one="幺"), text)
    text = _ISO_DATE.sub(lambda m: f"{digits(m.group(1))}年{cardinal(str(int(m.group(2))))}月"
                                   f"{cardinal(str(int(m.group(3))))}日", text)
    text = _TIME.sub(_time, text)
    text = _YEAR.sub(lambda m: digits(m.group(1)), text)
    text = _MONEY.sub(_money, text)
    text = _RANGE.sub("到", text)
    text = _TWO.sub("两", text)
    text = _NUMBER.sub(lambda m: cardinal(m.group(0)), text)
    for symbol, word in SYMBOL_WORDS.items():
        text = text.replace(symbol, word)
    kept, dropped = [], []
    for ch in text:
        if _is_hanzi(ch) or ch in PUNCTUATION or ch.isspace() or ch.isascii() and ch.isalpha():
            kept.append(ch)
        elif ch not in dropped:
            dropped.append(ch)
    return Normalized(re.sub(r"\s+", " ", "".join(kept)).strip(), tuple(dropped))


@functools.cache
def _converter():
    import opencc

    return opencc.OpenCC("t2s")


def to_simplified(text: str) -> str:
    """Traditional characters to simplified (OpenCC): the word segmenter and the pinyin
    phrase books are made for simplified text."""
    return _converter().convert(text)


def _is_hanzi(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf"


def has_hanzi(text: str) -> bool:
    return any(_is_hanzi(ch) for ch in text)
