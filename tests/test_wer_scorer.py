"""The intelligibility scorer: formatting an ASR may choose is not counted as a misreading,
and a misreading still is. Fast tier (no model)."""

import pytest

from emovox.bench.intelligibility import word_error_rate


@pytest.mark.parametrize(("written", "heard"), [
    ("Dial (212) 555-0193 before 5 p.m.", "dial 212 555 0193 before 5pm."),
    ("Call me at 555-0142 now.", "Call me at 555 0142 now."),
    ("The train leaves at 6:45 AM.", "The train leaves at 6.45 am."),
    ("It is on March 14th.", "It is on March 14."),
    ("Suite 300, 1200 Oak Road.", "Suite 300 1200 Oak Road."),
    ("It was due on August ninth.", "It was due on August 9th."),
    ("She paid $14.50 at (617) 555-0148.", "She paid $14 and $0.50 at 617-5550, 1-4-8."),
    ("The crew met at 0600 hours.", "The crew met at O600 hours."),
    ("Reach the help line at www.greenvalleyfarms.com.", "Reach the helpline at www.green valley farms.com."),
    ("The lease starts on February 1st, 2027.", "The lease starts on February 1, 2027."),
    ("Add 1 1/2 cups of milk and 2 3/4 cups of flour.",
     "Add 1 and 1 half cups of milk and two and three quarters cups of flour."),
    ("Keep 12 kg of ice at -78°C for 90 min.", "Keep twelve kilograms of ice at minus 78 degrees Celsius for 90 minutes."),
])
def test_formatting_variants_are_not_errors(written, heard):
    assert word_error_rate([written], heard)[0] == 0.0


def test_a_different_unit_is_still_an_error():
    assert word_error_rate(["It weighs 12 kg."], "It weighs 12 grams.")[0] > 0


def test_a_misheard_digit_is_still_an_error():
    wer, words = word_error_rate(["Dial (212) 555-0193 now."], "dial 212 555 0198 now")
    assert wer > 0 and words == 3


def test_a_word_split_in_two_is_still_an_error_when_the_halves_differ():
    assert word_error_rate(["The helpline opens at noon."], "The help lime opens at noon.")[0] > 0


def test_a_different_fraction_is_still_an_error():
    assert word_error_rate(["Add 1 1/2 cups."], "Add 1.25 cups.")[0] > 0


def test_a_numeral_after_a_name_is_one_reading_however_written():
    assert word_error_rate(["Henry VIII married Anne."], "Henry the Eighth married Anne.")[0] == 0
    assert word_error_rate(["Henry VIII married Anne."], "Henry the 8th married Anne.")[0] == 0
    assert word_error_rate(["Chapter XII covers World War II."], "Chapter 12 covers World War two.")[0] == 0
    # a different numeral, or an ordinal that is not a name's, still counts
    assert word_error_rate(["Henry VIII married Anne."], "Henry the Seventh married Anne.")[0] > 0
    assert word_error_rate(["We paid the first bill."], "We paid 1 bill.")[0] > 0


def test_fractions_dates_and_titles_as_whisper_may_write_them():
    assert word_error_rate(["Ms. Abara paid 3/4 of the bill."], "Miz Abara paid three quarters of the bill.")[0] == 0
    assert word_error_rate(["Cut by about 1/3 today."], "Cut by about one third today.")[0] == 0
    assert word_error_rate(["Signed on the 14th of June."], "Signed on 14 June.")[0] == 0
    assert word_error_rate(["Boards at 6:10 p.m."], "Boards at 6 10pm.")[0] == 0
    # a different fraction or day is still wrong
    assert word_error_rate(["Cut by about 1/3 today."], "Cut by about one quarter today.")[0] > 0
    assert word_error_rate(["Signed on the 14th of June."], "Signed on 15 June.")[0] > 0


def test_a_range_written_with_a_hyphen_is_the_range_spoken():
    assert word_error_rate(["Open 2 to 4 p.m. daily."], "Open 2-4 pm daily.")[0] == 0
    assert word_error_rate(["The nineteen seventy to seventy-one budget."], "The 1970-71 budget.")[0] == 0
    assert word_error_rate(["Open 2 to 4 p.m. daily."], "Open 2-5 pm daily.")[0] > 0


def test_a_minus_sign_written_as_an_en_dash():
    assert word_error_rate(["Stored at -80°C."], "Stored at –80 degrees Celsius.")[0] == 0
    assert word_error_rate(["Stored at -80°C."], "Stored at 80 degrees Celsius.")[0] > 0
