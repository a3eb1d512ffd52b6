"""Spoken forms of numbers in American English.

num2words does the arithmetic; this module fixes the style (no "and" inside numbers,
digit-by-digit reading for long or zero-padded strings) so every rule reads numbers alike.
"""

from __future__ import annotations

import re

from num2words import num2words

#: Integers with more digits than this are read digit by digit (IDs, serials, junk).
MAX_CARDINAL_DIGITS = 15

_DIGIT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _american(words: str) -> str:
    return words.replace(",", "").replace(" and ", " ")


def digits(text: str, zero: str = "zero") -> str:
    """"0142" -> "zero one four two" (zero="oh" reads it the conversational way)."""
    return " ".join(zero if ch == "0" else _DIGIT_WORDS[int(ch)] for ch in text if ch.isdigit())


def cardinal(text: str) -> str:
    """'1,234' -> 'one thousand two hundred thirty-four'."""
    plain = text.replace(",", "")
    if len(plain) > MAX_CARDINAL_DIGITS:
        return digits(plain)
    return _american(num2words(int(plain)))


def ordinal(text: str) -> str:
    """'21' -> 'twenty-first'."""
    plain = text.replace(",", "")
    if len(plain) > MAX_CARDINAL_DIGITS:
        return digits(plain)
    return _american(num2words(int(plain), to="ordinal"))


def year(value: int) -> str:
    """1999 -> 'nineteen ninety-nine', 2005 -> 'two thousand five', 1905 -> 'nineteen oh five'."""
    if 2000 <= value <= 2009:
        return _american(num2words(value))
    century, rest = divmod(value, 100)
    if 1000 <= value <= 9999 and rest != 0 and rest < 10:
        return f"{cardinal(str(century))} oh {cardinal(str(rest))}"
    return _american(num2words(value, to="year"))


def in_pairs(value: int) -> str:
    """A house number as people say it: 742 -> 'seven forty-two', 1200 -> 'twelve hundred',
    1005 -> 'ten oh five'. Outside 100-9999 it is a plain cardinal."""
    if not 100 <= value <= 9999:
        return cardinal(str(value))
    high, low = divmod(value, 100)
    if low == 0:
        return f"{cardinal(str(high))} hundred"
    if low < 10:
        return f"{cardinal(str(high))} oh {cardinal(str(low))}"
    return f"{cardinal(str(high))} {cardinal(str(low))}"


def decimal(text: str) -> str:
    """'4.25' -> 'four point two five', '.5' -> 'point five'."""
    whole, _, fraction = text.replace(",", "").partition(".")
    spoken_whole = cardinal(whole) if whole else ""
    spoken = f"{spoken_whole} point {digits(fraction)}" if fraction else spoken_whole
    return spoken.strip()


def number(text: str) -> str:
    """Cardinal or decimal, whichever the string is."""
    return decimal(text) if "." in text else cardinal(text)


_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_ROMAN_FORM = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")


def roman(text: str) -> int | None:
    """'VIII' -> 8; None where `text` is not a numeral in its usual form ('IIII', 'VX', '')."""
    if not text or not _ROMAN_FORM.fullmatch(text):
        return None
    values = [_ROMAN_VALUES[ch] for ch in text]
    return sum(-v if later > v else v for v, later in zip(values, values[1:] + [0]))
