"""Property tests (Hypothesis) of the text side: the English and Chinese normalizers, the
markup/SSML parser, the prompt parser, and sentence and language splitting.

For any input each one returns a value or raises a documented error (an `EmovoxError`),
never an IndexError or a bare ValueError; normalization is idempotent; output length and
running time stay linear in the input. Every test is derandomized and keeps no example
database, so CI sees the examples a laptop sees; each bug these tests found is pinned with
an `@example`. No model is loaded: this is the fast tier.
"""

from __future__ import annotations

import math
import string
import time
import warnings
from xml.sax.saxutils import escape, quoteattr

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from emovox.emotion import markup
from emovox.emotion.model import EMOTIONS, OVERRIDES, Emotion
from emovox.emotion.prompt import ParsedPrompt, parse_prompt
from emovox.engine.planner import _dialogue_apart
from emovox.errors import EmovoxError
from emovox.frontend import language, segment, zh_normalize
from emovox.frontend.normalize import Normalized, normalize


def ci(max_examples: int) -> settings:
    """Reproducible settings: the same examples on every run, none remembered between runs."""
    return settings(max_examples=max_examples, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def outcome(function, text: str):
    """`function(text)`, or None where it raised a documented error; anything else fails the test."""
    try:
        return function(text)
    except EmovoxError:
        return None


# --- strategies ------------------------------------------------------------------------

_digits = st.integers(min_value=0, max_value=10**7).map(str)
_small = st.integers(min_value=0, max_value=99).map(str)
_two = st.integers(min_value=0, max_value=99).map(lambda n: f"{n:02d}")
_word = st.sampled_from(["the", "cats", "Smith", "May", "in", "a", "an", "IT", "FBI", "NASA", "I", "CAN'T", "STOP",
                         "Oak", "Street", "café", "Zürich", "x", "vs", "e.g.", "etc.", "Dr.", "St.", "Mr.", "Apt.", "Jan.",
                         "OR", "CA", "N", "pm", "AM"])
_money = st.builds(lambda sign, symbol, whole, cents, scale: f"{sign}{symbol}{whole}{cents}{scale}",
                   st.sampled_from(["", "-"]), st.sampled_from("$€£¥"), _digits,
                   st.one_of(st.just(""), _two.map(lambda c: "." + c), _digits.map(lambda c: "." + c)),
                   st.sampled_from(["", " million", "bn", "k", " thousand"]))
_time = st.builds(lambda h, m, s, meridiem: f"{h}:{m}{s}{meridiem}", _small, _two,
                  st.one_of(st.just(""), _two.map(lambda s: ":" + s)),
                  st.sampled_from(["", " PM", " a.m.", "am", " P.M."]))
_date = st.one_of(
    st.builds(lambda y, m, d: f"{y}-{m}-{d}", st.integers(1000, 2999), _small, _small),
    st.builds(lambda m, d, y: f"{m}/{d}/{y}", _small, _small, st.one_of(_two, st.integers(1000, 2999).map(str))),
    st.builds(lambda month, d, suffix, y: f"{month} {d}{suffix}{y}", st.sampled_from(["March", "Sept.", "Dec", "May"]),
              _small, st.sampled_from(["", "st", "th"]), st.sampled_from(["", ", 1999", " 2026"])),
    st.builds(lambda d, month: f"{d} of {month}", _small, st.sampled_from(["June", "Oct"])),
    st.builds(lambda y: f"in {y}", st.integers(1000, 2999)),
    st.builds(lambda y: f"{y}s", st.integers(100, 300).map(lambda n: n * 10)),
    st.sampled_from(["'60s", "'80s", "24/7"]),
)
_fraction = st.one_of(
    st.builds(lambda w, n, d: f"{w} {n}/{d}", _small, _small, _small),
    st.builds(lambda n, d, noun: f"{n}/{d} {noun}", _small, _small, st.sampled_from(["cup", "tsp", "inch", "km"])),
    st.builds(lambda n, d: f"{n}/{d}", _small, _small),
)
_ordinal = st.builds(lambda n, suffix: f"{n}{suffix}", _digits, st.sampled_from(["st", "nd", "rd", "th"]))
_unit = st.builds(lambda sign, n, space, unit: f"{sign}{n}{space}{unit}", st.sampled_from(["", "-", "a "]),
                  st.one_of(_digits, st.builds(lambda a, b: f"{a}.{b}", _small, _small)), st.sampled_from(["", " "]),
                  st.sampled_from(["km", "m", "kg", "°C", "°F", "°", "GB", "MHz", "sq ft", "mph", "km/h", "ft 2 in", "'4\"",
                                   "in", "L", "%", "gal.", "lbs"]))
_address = st.one_of(
    st.builds(lambda n, d, name: f"{n} {d}{name} St.", st.integers(100, 9999), st.sampled_from(["", "N ", "SW "]),
              st.sampled_from(["Oak", "Lake Shore", "Main"])),
    st.builds(lambda state, z, plus: f"{state} {z}{plus}", st.sampled_from(["OR", "NY", "ZZ"]),
              st.integers(10000, 99999), st.sampled_from(["", "-1234"])),
    st.builds(lambda a, b, c: f"({a}) {b}-{c}", st.integers(100, 999), st.integers(100, 999), st.integers(1000, 9999)),
    st.builds(lambda a, b: f"+{a} 20 {b} 0958", st.integers(1, 999), st.integers(1000, 9999)),
)
_symbols = st.sampled_from(["#winning", "#1", "Tom & Jerry", "1+1=2", "5×3", "~5", "100%", "&", "$", "/", "@"])
_web = st.one_of(
    st.builds(lambda scheme, host, path: f"{scheme}{host}.com{path}", st.sampled_from(["https://", "http://www.", "www.", ""]),
              st.sampled_from(["example", "a-b", "x1"]), st.sampled_from(["", "/docs", "/a?b=1&c=2#top", "/~me/"])),
    st.builds(lambda user, host: f"{user}@{host}.org", st.sampled_from(["john.doe", "a_b+c", "x-1"]),
              st.sampled_from(["example", "mail.example"])),
)
_punctuation = st.text(alphabet=".,!?;:'\"-—…()", min_size=1, max_size=6)
#: One written form or word: the readings the normalizer knows, and odd neighbours.
_form = st.one_of(_word, _digits, _money, _time, _date, _fraction, _ordinal, _unit, _address, _symbols,
                  st.builds(lambda a, b: f"{a}.{b}", _digits, _digits), st.builds(lambda a, b: f"{a},{b}", _digits, _small),
                  st.text(alphabet=string.ascii_letters, min_size=1, max_size=8))
_token = st.one_of(_form, _web)
#: Tokens that stand apart: whitespace between them, punctuation at their edges.
_spaced_english = st.lists(
    st.tuples(_token, st.sampled_from(["", ",", ".", "!", "?", ";", ":", "...", "!!!"]),
              st.sampled_from([" ", "  ", "\n", "\t", " — ", " ("])),
    max_size=10,
).map(lambda parts: "".join(token + mark + space for token, mark, space in parts))


def _glued(tokens):
    """Tokens glued to each other, to punctuation and to what is dropped: the forms' edges at work."""
    return st.lists(st.one_of(tokens, _punctuation, st.sampled_from([" ", "😀", "你", "\u0301", "½", "１２", "٣"])),
                    max_size=10).map("".join)

_zh_token = st.sampled_from([
    "2024年5月1日", "¥12.5", "￥80", "13812345678", "+86 138-1234-5678", "010-12345678", "400-123-4567", "3:30", "6：15",
    "17%", "3/4", "1/0", "2个", "2百", "1234", "-5", "3.14", "10-20", "5~8", "2008年", "99年", "℃", "25°C", "5kg", "3km",
    "&", "@", "+", "=", "×", "÷", "我们", "銀行", "长", "，", "。", "！", "？", "、", "…", ",", ".", "!", "?", ";", "hello",
    "２", "１２", "½", "²", "٣", "0", "0.0", "1.", ".5", "--5", "5%%", "1/2/3", "2020-13-45", "25:99", " ", "\n",
    "110101199003074514", "0.00000000000000000001",
])
_chinese = st.lists(st.one_of(_zh_token, _digits, st.text(max_size=3)), max_size=12).map("".join)

# --- English normalizer ----------------------------------------------------------------

#: Characters of output per character of input, at most: a 15-digit cardinal reads about
#: 12 characters a digit ("777777777777777" -> "seven hundred seventy-seven trillion ..."),
#: a symbol in a URL at most 15 ("?" -> " question mark "); anything longer is read digit
#: by digit (6 a digit). The constant covers a lone short form ("%" -> "percent").
EN_CHARS_PER_CHAR, EN_CHARS_EXTRA = 16, 20

@ci(300)
@given(st.one_of(st.text(), _spaced_english, _glued(_token)))
@example("Version 1.2.3 is out; scores were 1,5,7.")  # digits after "." or "," were dropped
@example("x,0Dr.")
@example("٣ and ३ and 𝟙")
def test_english_normalizer_reads_every_digit_and_stays_linear_in_length(text):
    """No error escapes, no digit survives (a digit left over is dropped or spelled by the
    G2P, so it must be read), none is dropped, and the output is at most
    EN_CHARS_PER_CHAR characters a character."""
    result = outcome(normalize, text)
    if result is None:
        return
    assert isinstance(result, Normalized) and isinstance(result.text, str)
    assert not any(ch.isdecimal() for ch in result.text), result.text
    assert not any(ch.isdecimal() for ch in result.dropped), result.dropped
    assert len(result.text) <= EN_CHARS_PER_CHAR * len(text) + EN_CHARS_EXTRA

@ci(250)
@given(st.one_of(st.text(), _spaced_english, _glued(_form)))
@example("Tom and Dr.&Mrs. Smith")  # abbreviations beside a symbol were read only on a second pass
@example("Ask the Dr.😀")  # ... and beside a dropped character
@example("Version 1.2.3 ships with mp3 support.")
def test_english_normalization_is_idempotent(text):
    """normalize(normalize(x)) == normalize(x): the output holds no written form left to read.

    The domain is any text, written forms standing apart, and written forms glued to each
    other, except URLs, e-mail addresses and domains glued to a number. Reading that number
    apart ("mp3" -> "mp three") puts a space beside the address, and a second pass reads
    what the first could not ("0www.x" -> "zero www.x" -> "zero w w w dot x", "a@b.com1"
    -> "a at b.com one" -> "a at b dot com one"). Those rules refuse a glued neighbour on
    purpose: their lookbehinds keep 100,000-character runs linear (see normalize.py).
    """
    once = normalize(text).text
    assert normalize(once).text == once

# --- Chinese normalizer ----------------------------------------------------------------

#: Characters of output per character of input, at most: "℃" -> "摄氏度" (3); a number
#: reads under two characters a digit ("7777" -> "七千七百七十七"), longer than 16 digits
#: one a digit.
ZH_CHARS_PER_CHAR, ZH_CHARS_EXTRA = 4, 10

@ci(200)
@given(st.one_of(st.text(), _chinese))
@example("٠")  # a digit of another script reached cn2an, which raised ValueError
@example("身份证号110101199003074514")  # over 16 digits: cn2an raised ValueError
@example("0.00000000000000000001")  # over 16 decimals: cn2an cut them (and warned)
def test_chinese_normalizer_raises_nothing_is_idempotent_and_linear_in_length(text):
    with warnings.catch_warnings():
        warnings.filterwarnings("error", module="cn2an")  # it warns where it drops digits
        result = outcome(zh_normalize.normalize, text)
    if result is None:
        return
    assert not any(ch.isdecimal() for ch in result.text), result.text
    assert len(result.text) <= ZH_CHARS_PER_CHAR * len(text) + ZH_CHARS_EXTRA
    assert zh_normalize.normalize(result.text).text == result.text

def test_chinese_long_numbers_are_read_digit_by_digit():
    assert zh_normalize.normalize("卡号6222021234567890123").text == "卡号六二二二零二一二三四五六七八九零一二三"
    assert zh_normalize.cardinal("0.00000000000000000001").endswith("零零零一")

# --- markup and SSML ---------------------------------------------------------------------

_ODD = st.one_of(st.sampled_from(["", " ", "nan", "inf", "-1", "1e400", "1.2.3", "&", "<", '"']), st.text(max_size=6))
#: Each element with the attributes it takes, good values and odd ones alike.
_ATTRIBUTES = {
    "prosody": {"rate": ["slow", "x-fast", "120%", "1000%", "0.5", "nan%"],
                "pitch": ["+2st", "-12st", "+99st", "nanst", "infst", "1e400%", "-100%", "-150%", "high"],
                "volume": ["-3dB", "loud", "silent", "infdB", "-35dB", "+1e300dB"]},
    "break": {"time": ["500ms", "1.5s", "1.2.3s", ".s", "99999s", "٣s", "1e3ms"], "strength": ["strong", "x-weak", "huge"]},
    "emphasis": {"level": ["strong", "reduced", "none", "loud"]},
    "emotion": {"name": list(EMOTIONS) + ["elated", "Happy"], "intensity": ["0", "0.7", "1", "1.5", "nan", "inf", "-0"]},
    "speak": {"version": ["1.0"], "xml:lang": ["en-US"], "xmlns": ["http://www.w3.org/2001/10/synthesis", "urn:other"]},
}
_ELEMENTS = st.sampled_from([*_ATTRIBUTES, "prosody", "emotion", "s", "p", "sentence", "audio", "voice", "Speak", "x:y"])

def _attributes(name: str):
    known = _ATTRIBUTES.get(name, {"name": ["x"]})
    value = st.sampled_from(sorted(known)).flatmap(
        lambda key: st.tuples(st.just(key), st.one_of(st.sampled_from(known[key]), _ODD)))
    return st.lists(value, max_size=3, unique_by=lambda kv: kv[0]).map(
        lambda pairs: "".join(f" {key}={quoteattr(value)}" for key, value in pairs))

def _tag(name: str, close: str = ""):
    return _attributes(name).map(lambda attrs: f"<{name}{attrs}{close}>")

_text = st.one_of(st.text(max_size=8).map(escape), st.sampled_from([
    "Hello", "world!", "&amp;", "&lt;", "&#65;", "&#x4F60;", "<!-- note -->", "<![CDATA[a < b]]>", "[happy]", "[sad:0.4]",
    "<?pi data?>", " ", "\n"]))
_break = _tag("break", "/")

def _element(children):
    return _ELEMENTS.flatmap(lambda name: st.builds(lambda open_tag, inner: f"{open_tag}{''.join(inner)}</{name}>",
                                                    _tag(name), st.lists(children, max_size=3)))

#: Well-formed XML of our elements and others, odd attribute values, entities and comments.
_ssml = st.recursive(st.one_of(_text, _break), _element, max_leaves=12)
#: Tag soup: tags opened and never closed, closed and never opened, and prologues anywhere.
_fragment = st.one_of(
    _text,
    _break,
    _ELEMENTS.flatmap(_tag),
    _ELEMENTS.map(lambda name: f"</{name}>"),
    st.sampled_from(["<", ">", "&", "&bogus;", "&#0;", "<speak>", "</speak>", "[happy", "[angry:2]", "[x]", "]",
                     "<?xml version='1.0'?>", "<!DOCTYPE speak>", "<!doctype html>", "<!ENTITY x 'y'>"]),
)
_soup = st.lists(_fragment, max_size=12).map("".join)
_markup = st.one_of(
    _ssml,
    _ssml.map(lambda body: f"<speak>{body}</speak>"),
    _ssml.map(lambda body: f'<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis">{body}</speak>'),
    _soup,
    st.text(),
)

def _finite(prosody) -> bool:
    return all(math.isfinite(v) for v in (prosody.pitch_st, prosody.pitch_range, prosody.speed, prosody.energy_db))

@ci(300)
@given(_markup)
@example('<speak><break time="1.2.3s"/>x</speak>')  # float() raised a bare ValueError
@example('<speak><prosody pitch="nanst">x</prosody></speak>')  # NaN semitones went through
@example('<speak><prosody pitch="+1e300st">x</prosody></speak>')
@example("<speak>" + "<s>" * 3000 + "x" + "</s>" * 3000 + "</speak>")  # RecursionError
@example('<speak>a' + '<break time="10s"/>' * 50 + 'b</speak>')  # 500 s of silence from 0.7 kB
@example('<speak xmlns="http://www.w3.org/2001/10/synthesis">Hi</speak>')  # standard SSML was refused
def test_markup_parses_or_raises_a_markup_error(text):
    """Any text gives spans or a documented error; spans hold finite prosody, pauses within
    MAX_BREAK_S, valid emotions, and no more text than was given."""
    assert isinstance(markup.has_markup(text), bool)
    spans = outcome(markup.parse, text)
    if spans is None:
        return
    for span in spans:
        assert isinstance(span, markup.Span)
        assert 0.0 <= span.pause_before_s <= markup.MAX_BREAK_S
        assert _finite(span.prosody), span
        assert span.emotion is None or (span.emotion.name in EMOTIONS and 0.0 <= span.emotion.intensity <= 1.0)
        assert span.text == " ".join(span.text.split())
    assert sum(len(span.text) for span in spans) <= len(text)

@ci(50)
@given(_ssml, _ssml, st.sampled_from(["<?xml version='1.0'?>", "<!DOCTYPE speak>", "<!doctype x [<!ENTITY a 'b'>]>",
                                      "<!ENTITY lol 'lol'>", "<?XML?>"]))
def test_a_prologue_anywhere_is_refused_before_parsing(before, after, prologue):
    text = before + prologue + after
    assert markup.has_markup(text)
    with pytest.raises(markup.MarkupError, match="document type definitions"):
        markup.parse(text)

_plain = st.text(alphabet=st.characters(exclude_characters="<[", exclude_categories=["Cs"]))

@ci(200)
@given(_plain)
def test_plain_text_round_trips_its_words(text):
    """Text without "<" or "[" is no markup: parsing keeps every word, in order."""
    spans = markup.parse(text)
    assert [word for span in spans for word in span.text.split()] == text.split()
    assert all(span.emotion is None and span.prosody.is_neutral for span in spans)

@ci(100)
@given(st.lists(st.one_of(st.lists(st.text(alphabet=st.characters(exclude_characters="<[]", exclude_categories=["Cs"]),
                                               min_size=1), min_size=1).map(" ".join),
                          st.builds(lambda name, value: f"[{name}{value}]", st.sampled_from(EMOTIONS),
                                    st.sampled_from(["", ":0", ":0.25", ":1", ":1.0"]))), max_size=8))
def test_inline_tags_leave_the_words_between_them(pieces):
    text = " ".join(pieces)
    spans = markup.parse(text)
    words = [word for piece in pieces if not piece.startswith("[") for word in piece.split()]
    assert [word for span in spans for word in span.text.split()] == words

# --- prompts -----------------------------------------------------------------------------

_PROMPT_WORDS = ("happy furious annoyed sad heartbroken surprised scared nervous disgusted calm slightly very "
                 "extremely a bit not never no faster slower louder whisper high-pitched deeper and but , . ! "
                 "开心 生气 难过 惊讶 害怕 恶心 平静 有点 非常 超级 不 没有 快 慢 大声 小声 一点也不 快乐 ， 。").split()
_prompt = st.one_of(st.text(), st.lists(st.one_of(st.sampled_from(_PROMPT_WORDS), st.text(max_size=3)), max_size=15)
                    .flatmap(lambda words: st.sampled_from([" ", ""]).map(lambda joiner: joiner.join(words))))

@ci(200)
@given(_prompt)
def test_prompt_parses_to_a_valid_emotion(prompt):
    """Any prompt gives a ParsedPrompt whose emotion is a known name with intensity in [0, 1]
    and every override within the range the API allows; only documented errors escape."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a prompt not understood warns, and that is fine here
        parsed = outcome(parse_prompt, prompt)
    if parsed is None:
        return
    assert isinstance(parsed, ParsedPrompt)
    assert parsed.emotion.name in EMOTIONS and 0.0 <= parsed.emotion.intensity <= 1.0
    for field_name, limit in OVERRIDES.items():
        value = getattr(parsed.emotion, field_name)
        assert value is None or limit.low <= value <= limit.high, (field_name, value)
    assert isinstance(parsed.understood, bool) and all(isinstance(word, str) for word in parsed.matched)

# --- sentences and languages ---------------------------------------------------------------

_mixed = st.lists(st.one_of(_token, _zh_token, _punctuation, st.text(max_size=3)), max_size=12).map("".join)

@ci(200)
@given(st.one_of(st.text(), _mixed, _spaced_english))
def test_sentences_keep_every_word(text):
    assert [w for sentence in segment.sentences(text) for w in sentence.split()] == text.split()
    assert [w for clause in segment.clauses(text) for w in clause.split()] == text.split()

_WIDE_TO_ASCII = str.maketrans("。，！？；：、（）“”‘’", ".,!?;:,()\"\"''")

@ci(200)
@given(st.one_of(st.text(), _mixed))
def test_language_split_keeps_all_but_whitespace(text):
    stretches = language.split(text)
    assert all(lang in ("zh", "en") and piece.strip() for lang, piece in stretches)
    joined = "".join(piece for _, piece in stretches)
    assert "".join(joined.translate(_WIDE_TO_ASCII).split()) == "".join(text.translate(_WIDE_TO_ASCII).split())

# --- running time --------------------------------------------------------------------------

#: A 10x longer input may take this many times longer (linear is 10, quadratic 100).
SLOWDOWN = 30
#: Seconds below which a long run passes whatever its ratio (timer noise on short runs).
NOISE_S = 0.05

def _seconds(function, text: str, runs: int) -> float:
    best = math.inf
    for _ in range(runs):
        started = time.perf_counter()
        outcome(function, text)
        best = min(best, time.perf_counter() - started)
    return best

def _quiet_prompt(text: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return parse_prompt(text)

#: (what, function, a pattern repeated, a tail that completes no match after the repeats:
#: where a backtracking regex spends its time).
LINEAR = [
    ("english", normalize, "Dr. $1.5 3:30 PM 555-0142 a@b.com 1,2 mp3 ", "1a"),
    ("english", normalize, "1.1,", "a"),
    ("english", normalize, "a.a-", "@"),
    ("chinese", zh_normalize.normalize, "价格是¥12.5，2个3:30 ", "1"),
    ("chinese", zh_normalize.normalize, "1.", "-"),
    ("markup", markup.parse, "[happy] Yes [sad:0.5] no ", "[sad"),
    ("markup", lambda text: markup.parse(f"<speak>{text}</speak>"), "<break time='1s'/>a ", "b"),
    ("prompt", _quiet_prompt, "very happy but not sad, 有点开心 ", "x"),
    ("prompt", _quiet_prompt, "a", "-"),
    ("sentences", lambda text: list(segment.sentences(text)), "!", "a"),  # was quadratic
    ("sentences", lambda text: list(segment.sentences(text)), "Hi. ", "."),
    ("languages", language.split, "1", " 1中"),  # was quadratic
    ("languages", language.split, "我们 use Python 写 2026年 ", "1"),
    ("dialogue", lambda text: _dialogue_apart([markup.Span(text)], Emotion("happy")), "“a「", "a"),  # was quadratic
]

@pytest.mark.parametrize(("what", "function", "unit", "tail"), LINEAR,
                         ids=[f"{what}-{unit[:12]!r}" for what, _, unit, _ in LINEAR])
def test_time_is_linear_in_input_length(what, function, unit, tail):
    """A repeated pattern 10x longer takes less than SLOWDOWN x longer."""
    short, long = unit * (2_000 // len(unit)) + tail, unit * (20_000 // len(unit)) + tail
    outcome(function, short)  # imports and caches
    took_short, took_long = _seconds(function, short, 3), _seconds(function, long, 2)
    assert took_long < SLOWDOWN * took_short + NOISE_S, (took_short, took_long)
