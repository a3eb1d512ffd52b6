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
    # a numeral after a name, however written
    ("Henry VIII married Anne.", "Henry the Eighth married Anne."),
    ("Henry VIII married Anne.", "Henry the 8th married Anne."),
    ("Chapter XII covers World War II.", "Chapter 12 covers World War two."),
    # fractions, dates, times and titles as Whisper may write them
    ("Ms. Abara paid 3/4 of the bill.", "Miz Abara paid three quarters of the bill."),
    ("Cut by about 1/3 today.", "Cut by about one third today."),
    ("Signed on the 14th of June.", "Signed on 14 June."),
    ("Boards at 6:10 p.m.", "Boards at 6 10pm."),
    # a range written with a hyphen is the range spoken; an en dash before a number is a minus
    ("Open 2 to 4 p.m. daily.", "Open 2-4 pm daily."),
    ("The nineteen seventy to seventy-one budget.", "The 1970-71 budget."),
    ("Stored at -80°C.", "Stored at –80 degrees Celsius."),
    # a ratio and sides as they are spoken
    ("The vote was 4:1 on a 2.39:1 screen at 1:100 scale.", "The vote was 4 to 1 on a 2.39 to 1 screen at 1 to 100 scale."),
    ("Cut two 2x6 planks and a 4 x 8 sheet.", "Cut two 2 by 6 planks and a 4 by 8 sheet."),
    ('It is under 108" in length.', "It is under 108 inches in length."),
    ("Cut three 2x6 planks and one 4x8 sheet.", "Cut 3-2 by 6 planks and 1-4 by 8 sheet."),  # a count before sides
    # a number's leading zeros, which Whisper's normalizer keeps on one side and drops on the other
    ("Boston, MA 02109.", "Boston, MA 0-2-1-0-9."),
    ("The store is open 24/7 now.", "The store is open 24-7 now."),
    ("Portland, OR 97205.", "Portland, OR 972-05."),  # a ZIP code heard in two
    ("The store is open 24/7 now.", "The store is open 24.7 now."),
    ('A 27" monitor.', "A 27-inch monitor."),
    # letters as said: "&" is "and", a tripled letter is "triple"
    ("The Q&A session at the IEEE expo.", "The Q and A session at the I triple E expo."),
    ("Buy AAA batteries.", "Buy triple A batteries."),
    ("It was one hundred twenty over eighty-two millimeters of mercury.", "It was 120 over 82 mm of mercury."),
    # a possessive heard as a plural; a thousands group written short
    ("The car's 0-60 time beat the CEO's.", "The cars 0-60 time beat the CEOs."),
    ("Mount Everest is 29,032 ft tall.", "Mount Everest is 29,32 feet tall."),
    ("The library's hours.", "The libraries hours."),
    ("The bill passed the House 218 to 214 late Wednesday night.", "The bill passed the House 218-214 late Wednesday night."),
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



@pytest.mark.parametrize(("written", "heard"), [
    ("Henry VIII married Anne.", "Henry the Seventh married Anne."),  # another numeral
    ("We paid the first bill.", "We paid 1 bill."),  # an ordinal that is not a name's
    ("Cut by about 1/3 today.", "Cut by about one quarter today."),
    ("Signed on the 14th of June.", "Signed on 15 June."),
    ("Open 2 to 4 p.m. daily.", "Open 2-5 pm daily."),
    ("Stored at -80°C.", "Stored at 80 degrees Celsius."),
    ("Buy AAA batteries.", "Buy triple B batteries."),
    ("The Q&A session.", "The Q and E session."),
    ("The car's time.", "The car time."),
    ("Mount Everest is 29,032 ft tall.", "Mount Everest is 29,33 feet tall."),
    ("The bill passed 218-214.", "The bill passed 218-241."),
    ("Boston, MA 02109.", "Boston, MA 2108."),
    ("Cut three 2x6 planks.", "Cut 3-2 by 8 planks."),
    ("The store is open 24/7 now.", "The store is open 24-6 now."),
    ("Portland, OR 97205.", "Portland, OR 972-06."),
])
def test_what_a_fold_joins_still_counts_when_the_words_differ(written, heard):
    assert word_error_rate([written], heard)[0] > 0
