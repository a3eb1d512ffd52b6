"""English text normalization: written forms (numbers, money, dates, URLs...) to words.

Every rule is a compiled pattern plus a function that speaks a match. Rules run in order,
most specific first (a URL before its dots, a date before its numbers). Patterns that start
with a repeated character class carry a negative lookbehind for that class, so a failed
match inside a long run costs O(1): a 100,000-character adversarial input stays linear.
A spoken form never touches the word beside it ("mp3" -> "mp three"), and the rules that
read words run once more on the text as spoken, so normalizing the output again changes
nothing (tests/test_properties.py says on which inputs that holds, and why).
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from emovox.frontend import compounds, numbers

Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]

MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)
_MONTH_BY_PREFIX = {m[:3].lower(): m for m in MONTHS}
_MONTH_NAME = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_INT = r"(?:\d{1,3}(?:,\d{3})+|\d+)"
_NUM = rf"(?:{_INT}(?:\.\d+)?|\.\d+)"
_MERIDIEM = r"(?:[AaPp]\.[Mm]\.|[AaPp][Mm](?![A-Za-z]))"

CURRENCIES = {
    "$": ("dollar", "dollars", "cent", "cents"),
    "€": ("euro", "euros", "cent", "cents"),
    "£": ("pound", "pounds", "penny", "pence"),
    "¥": ("yen", "yen", "sen", "sen"),
}

#: unit -> (singular, plural). Only read as a unit right after a number.
UNITS = {
    "km/h": ("kilometer per hour", "kilometers per hour"),
    "mph": ("mile per hour", "miles per hour"),
    "mpg": ("mile per gallon", "miles per gallon"),
    "km": ("kilometer", "kilometers"),
    "cm": ("centimeter", "centimeters"),
    "mm": ("millimeter", "millimeters"),
    "m": ("meter", "meters"),
    "mi": ("mile", "miles"),
    "ft": ("foot", "feet"),
    "kg": ("kilogram", "kilograms"),
    "mg": ("milligram", "milligrams"),
    "g": ("gram", "grams"),
    "lb": ("pound", "pounds"),
    "lbs": ("pound", "pounds"),
    "oz": ("ounce", "ounces"),
    "ml": ("milliliter", "milliliters"),
    "mL": ("milliliter", "milliliters"),
    "L": ("liter", "liters"),
    "°C": ("degree Celsius", "degrees Celsius"),
    "°F": ("degree Fahrenheit", "degrees Fahrenheit"),
    "°": ("degree", "degrees"),
    "kB": ("kilobyte", "kilobytes"),
    "KB": ("kilobyte", "kilobytes"),
    "MB": ("megabyte", "megabytes"),
    "GB": ("gigabyte", "gigabytes"),
    "TB": ("terabyte", "terabytes"),
    "Hz": ("hertz", "hertz"),
    "kHz": ("kilohertz", "kilohertz"),
    "MHz": ("megahertz", "megahertz"),
    "GHz": ("gigahertz", "gigahertz"),
    "kbps": ("kilobit per second", "kilobits per second"),
    "Mbps": ("megabit per second", "megabits per second"),
    "Gbps": ("gigabit per second", "gigabits per second"),
    "kWh": ("kilowatt hour", "kilowatt hours"),
    "MWh": ("megawatt hour", "megawatt hours"),
    "mAh": ("milliamp hour", "milliamp hours"),
    "kW": ("kilowatt", "kilowatts"),
    "MW": ("megawatt", "megawatts"),
    "GW": ("gigawatt", "gigawatts"),
    "W": ("watt", "watts"),
    "V": ("volt", "volts"),
    "ms": ("millisecond", "milliseconds"),
    "min": ("minute", "minutes"),
    "mins": ("minute", "minutes"),
    "hrs": ("hour", "hours"),
    "hr": ("hour", "hours"),
    "sec": ("second", "seconds"),
    "secs": ("second", "seconds"),
    "pts": ("point", "points"),
    "wk": ("week", "weeks"),
    "wks": ("week", "weeks"),
    "yr": ("year", "years"),
    "yrs": ("year", "years"),
    "tsp": ("teaspoon", "teaspoons"),
    "tbsp": ("tablespoon", "tablespoons"),
    "gal": ("gallon", "gallons"),
    "qt": ("quart", "quarts"),
    "yd": ("yard", "yards"),
    "in": ("inch", "inches"),
    "sq ft": ("square foot", "square feet"),
    "m²": ("square meter", "square meters"),
    "km²": ("square kilometer", "square kilometers"),
    "cm²": ("square centimeter", "square centimeters"),
    "ft²": ("square foot", "square feet"),
    "m³": ("cubic meter", "cubic meters"),
    "cm³": ("cubic centimeter", "cubic centimeters"),
    "m/s": ("meter per second", "meters per second"),
    "km/s": ("kilometer per second", "kilometers per second"),
    "doz": ("dozen", "dozen"),
    "pkg": ("package", "packages"),
    "pkgs": ("package", "packages"),
    "pcs": ("piece", "pieces"),
    "pct": ("percent", "percent"),
    "sq m": ("square meter", "square meters"),
    "sq km": ("square kilometer", "square kilometers"),
    "sq mi": ("square mile", "square miles"),
    "sq. ft": ("square foot", "square feet"),
    "sq. m": ("square meter", "square meters"),
    "sq. mi": ("square mile", "square miles"),
    "mo": ("month", "months"),
    "mos": ("month", "months"),
    "mmHg": ("millimeter of mercury", "millimeters of mercury"),
    "bpm": ("beat per minute", "beats per minute"),
    "mg/dL": ("milligram per deciliter", "milligrams per deciliter"),
    "BR": ("bedroom", "bedrooms"),  # a listing's "2BR, 1BA"
    "BA": ("bath", "baths"),
}
#: Units that are also common words: read as units only after a measurement in feet
#: ("5 ft 6 in"), never after a bare number ("born in 1990", "2 in 3 people").
_AFTER_FEET_ONLY = {"in"}
#: What a fraction measures when a singular noun follows it: "1/2 cup" is "half a cup".
MEASURE_NOUNS = frozenset({
    "cup", "teaspoon", "tablespoon", "pound", "ounce", "inch", "foot", "yard", "mile", "gallon", "quart",
    "pint", "liter", "litre", "meter", "kilometer", "kilogram", "gram", "hour", "minute", "second", "day",
    "week", "month", "year", "dozen", "stick", "slice", "can", "glass", "bottle", "page", "lap", "block",
})
#: Where a unit ends: not inside a longer word, and its abbreviation's period dropped when a
#: lowercase word follows ("3 gal. of water": the sentence goes on).
_UNIT_END = r"(?![\w/°])(?:\.(?=\s+(?:[a-z]|\d)|[,;:]))?"
_UNIT_ALTERNATION = "|".join(re.escape(u).replace(r"\ ", r"\s") for u in sorted(UNITS, key=len, reverse=True)
                             if u not in _AFTER_FEET_ONLY)

#: US postal abbreviations, read as the state's name before a ZIP code ("OR 97403").
STATES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "D C", "FL": "Florida",
    "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa",
    "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland",
    "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri",
    "MT": "Montana", "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey",
    "NM": "New Mexico", "NY": "New York", "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio",
    "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina",
    "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont",
    "VA": "Virginia", "WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming",
    "PR": "Puerto Rico",
}
#: Canadian provinces and territories, read as their names after a city ("Montreal, QC").
#: "ON" is left out: it is also a word people write in capitals.
PROVINCES = {
    "AB": "Alberta", "BC": "British Columbia", "MB": "Manitoba", "NB": "New Brunswick",
    "NL": "Newfoundland and Labrador", "NS": "Nova Scotia", "NT": "Northwest Territories", "NU": "Nunavut",
    "PE": "Prince Edward Island", "QC": "Quebec", "SK": "Saskatchewan", "YT": "Yukon",
}
#: Postal abbreviations that are also words people write in capitals ("Fine, OK."): read as a
#: state only before a ZIP code.
_STATES_ALSO_WORDS = frozenset({"OK", "HI"})
_REGIONS_AFTER_A_CITY = {**{code: name for code, name in STATES.items() if code not in _STATES_ALSO_WORDS}, **PROVINCES}
#: What ends a street name; a number before such a name is a house number, read in pairs.
STREET_TYPES = (
    "Street", "St", "Avenue", "Ave", "Road", "Rd", "Boulevard", "Blvd", "Lane", "Ln", "Drive", "Dr",
    "Terrace", "Way", "Court", "Ct", "Place", "Pl", "Parkway", "Pkwy", "Highway", "Hwy", "Circle",
    "Square", "Trail", "Plaza",
)
_STREET_TYPE = "(?:" + "|".join(STREET_TYPES) + ")"
#: What a number names rather than counts, read in pairs as people say them: "Suite 1200" is
#: "Suite twelve hundred", "room 214" "room two fourteen", "Hwy. 101" "Highway one oh one".
NUMBERED_PLACES = ("Suite", "Ste.", "Room", "room", "Rm.", "Gate", "gate", "Platform", "platform", "Flight", "flight", "Unit",
                   "Apartment", "Apt.", "Highway", "Hwy.", "Route", "Rte.", "Interstate", "Bus", "bus")
DIRECTIONS = {"N": "North", "S": "South", "E": "East", "W": "West",
              "NE": "Northeast", "NW": "Northwest", "SE": "Southeast", "SW": "Southwest"}

#: Abbreviations whose period is part of the word; the value is the spoken form.
#: Titles are read before a name, so their period never ends a sentence.
TITLES = {
    "Mr": "Mister", "Mrs": "Missus", "Ms": "Miz", "Prof": "Professor", "Capt": "Captain",
    "Gen": "General", "Lt": "Lieutenant", "Col": "Colonel", "Sgt": "Sergeant", "Rev": "Reverend",
    "Mt": "Mount", "Gov": "Governor", "Sen": "Senator", "Rep": "Representative", "Pres": "President",
    "Maj": "Major", "Adm": "Admiral", "Cmdr": "Commander", "Cpl": "Corporal", "Pvt": "Private",
    "Det": "Detective", "Supt": "Superintendent", "Hon": "Honorable", "Fr": "Father", "Ft": "Fort",
    "Pt": "Point", "Conf": "Conference", "Rm": "Room", "Bldg": "Building",
}
ABBREVIATIONS = {
    "Sr": "Senior", "Ave": "Avenue", "Blvd": "Boulevard",
    "Rd": "Road", "Ln": "Lane", "Pkwy": "Parkway", "Hwy": "Highway", "Rte": "Route", "Ct": "Court", "Pl": "Place",
    "Cir": "Circle", "Sq": "Square", "Hts": "Heights", "Expy": "Expressway", "Fwy": "Freeway",
    "Mt": "Mount", "Inc": "Incorporated", "Ltd": "Limited", "Corp": "Corporation",
    "Co": "Company",
    "max": "maximum", "Max": "Maximum",
    "vs": "versus", "etc": "et cetera", "Apt": "Apartment", "Ste": "Suite", "Jan": "January", "Feb": "February", "Aug": "August",
    "Sept": "September", "Oct": "October", "Nov": "November", "Dec": "December",
    "Mar": "March", "Apr": "April", "Jun": "June", "Jul": "July",
    "Mon": "Monday", "Tue": "Tuesday", "Tues": "Tuesday", "Wed": "Wednesday", "Thu": "Thursday",
    "Thur": "Thursday", "Thurs": "Thursday", "Fri": "Friday", "Sat": "Saturday", "Sun": "Sunday",
}
#: Common words written short in lower case (or capitalized to begin a sentence): "the avg.
#: price", "fruit, esp. apples", "Gov't funds". espeak-ng spells them letter by letter. Forms
#: that are words themselves ("temp.", "pop.", "ref.") are left alone: "He works as a temp."
SHORT_WORDS = {
    "avg": "average", "misc": "miscellaneous", "govt": "government", "esp": "especially", "qty": "quantity",
    "dept": "department", "asst": "assistant", "intl": "international", "natl": "national", "std": "standard",
    "ea": "each", "univ": "university", "assoc": "associate", "jr": "junior", "mgr": "manager",
    "tel": "telephone", "bros": "brothers", "hosp": "hospital", "hwy": "highway", "appt": "appointment",
    "appts": "appointments", "ppl": "people", "approx": "approximately", "est": "estimated",
}
#: Those that come before a noun ("Assoc. Prof. Lee", "Intl. Airport"): a capital after one
#: does not begin a sentence. ("est. 1902" is "established": a rule of its own, with the years.)
_MODIFIERS = frozenset({"asst", "assoc", "intl", "natl", "std"})
#: Words written short with an apostrophe for the letters left out ("Nat'l Guard", "int'l
#: airport"), or with no mark at all ("8-10 ppl").
ELIDED_WORDS = {"gov't": "government", "int'l": "international", "nat'l": "national", "dep't": "department",
                "ass'n": "association", "cont'd": "continued", "att'y": "attorney", "ppl": "people"}
#: "incl." and "excl." before what they take in ("incl. VAT") and after it ("taxes incl.").
_INCLUSIONS = {"incl": ("including", "included"), "excl": ("excluding", "excluded")}
#: Initialisms that are also English words, which espeak-ng reads as the word: after "the"
#: they name an organization and are spelled ("the WHO" is "the W H O", not "the who").
SPELLED_AFTER_THE = ("WHO",)
#: Initialisms espeak-ng reads as a word wherever they stand ("ETA" as "eta", "USPS" as "usps").
SPELLED = ("ETA", "USPS")
#: Abbreviations read one way before a name and another way after one.
TITLE_OR_PLACE = {"Dr": ("Doctor", "Drive"), "St": ("Saint", "Street")}
_LATIN = {"e.g.": "for example", "i.e.": "that is", "a.k.a.": "also known as"}
#: Shorthand written with a slash ("coffee w/ milk", "w/o sugar", "c/o the office"); the slash
#: alone is unspeakable and was dropped, leaving the letters "w o".
_SLASHED = {"w/o": "without", "w/": "with", "c/o": "care of"}
_WEEKDAY_ABBREVIATION = r"(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)"
_MONTH_ABBREVIATION = r"(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)"
#: What a long number names rather than counts: it is read digit by digit ("Invoice 20391",
#: "Order #4471023"; "twenty thousand three hundred ninety-one" was written "2391" by Whisper).
IDENTIFIED_BY_NUMBER = ("Invoice", "invoice", "Order", "order", "Account", "account", "Case", "case", "Ticket",
                        "ticket", "Serial", "serial", "Tracking", "tracking", "Confirmation", "confirmation")
#: Abbreviations that name a place in a document, read before its number ("Fig. 4", "p. 112").
REFERENCES = {"Fig": "Figure", "Figs": "Figures", "p": "page", "pp": "pages", "Vol": "Volume", "vol": "volume",
              "No": "Number", "no": "number", "Nos": "Numbers", "Ch": "Chapter", "ch": "chapter", "Sec": "Section",
              "Eq": "Equation", "Ex": "Example", "Art": "Article", "Para": "Paragraph"}
#: What a rate is per, after an amount and a slash ("$12/month", "$1,750/mo", "$40/hr").
PER = {"mo": "a month", "month": "a month", "yr": "a year", "year": "a year", "hr": "an hour", "hour": "an hour",
       "wk": "a week", "week": "a week", "day": "a day", "night": "a night", "person": "per person",
       "user": "per user", "seat": "per seat", "head": "per head"}
#: Units read after "per" without a number: two letters or more ("per m" may be a letter).
_UNITS_AFTER_PER = sorted((unit for unit in UNITS if sum(c.isalpha() for c in unit) >= 2), key=len, reverse=True)
#: Units of time read after "last", "a", "every"... without a number ("last yr.", "in a min.").
_TIME_UNITS = ("min", "hr", "sec", "wk", "mo", "yr")
#: Units of amount read after "a" with their period, as a price's ("$2.99 a gal.").
_PRICED_UNITS = ("gal", "lb", "oz", "doz", "qt")
#: A count's shorthand before a plural noun: "250K copies" is "two hundred fifty thousand copies"
#: ("a 5K run" keeps its K).
_COUNT_SCALES = {"K": "thousand", "k": "thousand", "M": "million", "B": "billion"}
#: Words ending in "s" that are not a plural noun ("Unit 12B is ...").
_NOT_PLURAL = r"(?:is|was|has|does|this|thus|yes|as|us|its|his|hers|ours|yours|theirs|plus|less|across|always|" \
              r"perhaps|unless|whereas|besides|afterwards|towards|sometimes|needs|seems|goes|makes|takes|gets)\b"
_YEAR = r"(?:1[1-9]\d\d|20\d\d)"
#: Time zones said after a clock time ("11:00 a.m. EST"); espeak spells them.
TIME_ZONES = ("EST", "EDT", "CST", "CDT", "MST", "MDT", "PST", "PDT", "AKST", "HST", "ET", "CT", "MT", "PT",
              "GMT", "UTC", "BST", "CET", "CEST", "JST", "IST", "AEST")
_ZONE = r"(?:\s(?P<zone>" + "|".join(TIME_ZONES) + r")\b)?"

#: Names that take a regnal number: "Henry VIII" is "Henry the Eighth", "John Paul II" "John
#: Paul the Second". espeak-ng reads a numeral as "roman eight". "I", "V" and "X" alone are
#: numerals only after one of these ("Malcolm X" stays as he is).
REGNAL_NAMES = frozenset({
    "Alexander", "Alfonso", "Anne", "Benedict", "Catherine", "Charles", "Clement", "Constantine", "Edward",
    "Elizabeth", "Ferdinand", "Francis", "Frederick", "George", "Gregory", "Gustav", "Henry", "Innocent",
    "Isabella", "Ivan", "James", "John", "Leo", "Leopold", "Louis", "Ludwig", "Mary", "Napoleon", "Nicholas",
    "Paul", "Peter", "Philip", "Pius", "Ramses", "Richard", "Robert", "Urban", "Victor", "Wilhelm", "William",
})
#: Words a numeral counts after, "I", "V" and "X" included: "World War I", "Part V".
COUNTED_BY_NUMERAL = frozenset({
    "War", "Chapter", "Part", "Act", "Scene", "Phase", "Type", "Title", "Volume", "Book", "Level", "Stage",
    "Class", "Round", "Article", "Section", "Schedule", "Appendix", "Episode", "Grade", "Tier", "Category",
})
#: What follows the pronoun "I" but never a king: "Mary I love you" keeps its "I", while
#: "Charles I was beheaded" and "Elizabeth I never married" are monarchs.
_PRONOUN_VERB_AFTER = re.compile(
    r"\s+(?:am|have|do|don't|love|hate|think|know|want|need|like|hope|guess|mean|feel|see|say|agree|wish|"
    r"believe|can't|won't|promise|miss|get|go|understand)\b|'(?:m|ve|ll|d)\b")
#: Words that do not name what a numeral after them numbers ("The XX", "In IV").
_NOT_BEFORE_NUMERAL = frozenset({"The", "A", "An", "In", "On", "At", "Of", "And", "Or", "To", "For", "By", "I"})

SYMBOLS = {"&": " and ", "@": " at ", "+": " plus ", "=": " equals ", "×": " times ",
           "%": " percent ", "°": " degrees ", "~": " about ", "#": " number ",
           "±": " plus or minus ", "²": " squared ", "³": " cubed "}
_SPEAKABLE_PUNCTUATION = set(".,!?;:'\"-—…()")


@dataclass(frozen=True)
class Normalized:
    """Normalized text plus the characters that could not be spoken and were dropped."""

    text: str
    dropped: tuple[str, ...] = ()


def _plural(count_text: str, singular: str, plural: str) -> str:
    return singular if count_text.lstrip("-−") in ("1", "1.0") else plural


# --- rules -----------------------------------------------------------------------------

def _speak_url(match: re.Match[str]) -> str:
    url, trailing = _split_trailing_punctuation(match.group(0))
    url = re.sub(r"^[a-zA-Z]+://", "", url).rstrip("/")
    spoken = re.sub(r"^www\.", "w w w dot ", _split_run_together(url))
    for symbol, word in ((".", " dot "), ("/", " slash "), ("-", " dash "), ("_", " underscore "),
                         (":", " colon "), ("?", " question mark "), ("=", " equals "),
                         ("&", " and "), ("#", " hash "), ("~", " tilde "), ("%", " percent ")):
        spoken = spoken.replace(symbol, word)
    return " " + _digits_in(spoken) + trailing


def _speak_email(match: re.Match[str]) -> str:
    user, domain = match.group(0).split("@", 1)
    spoken = _split_run_together(f"{user} at {domain}")
    for symbol, word in ((".", " dot "), ("_", " underscore "), ("-", " dash "), ("+", " plus ")):
        spoken = spoken.replace(symbol, word)
    return _digits_in(spoken)


_RUN_TOGETHER = re.compile(r"(?<![A-Za-z])[A-Za-z]{5,40}(?![A-Za-z])")


def _split_run_together(address: str) -> str:
    """"riverbendlibrary.org" -> "river bend library.org": words a name runs together."""
    return _RUN_TOGETHER.sub(lambda run: " ".join(compounds.split_words(run.group(0))), address)


def _digits_in(text: str) -> str:
    return re.sub(r"\d+", lambda m: " " + numbers.digits(m.group(0)) + " ", text)


def _split_trailing_punctuation(text: str) -> tuple[str, str]:
    stripped = text.rstrip(".,!?;:)")
    return stripped, text[len(stripped):]


def _speak_money(match: re.Match[str]) -> str:
    sign, symbol, whole, fraction, scale = match.group("sign", "symbol", "whole", "fraction", "scale")
    one, many, cent, cents = CURRENCIES[symbol]
    minus = "minus " if sign else ""
    # "a $2.3 million grant", "a $5 fee", "the $45 cab fare": the amount describes the noun,
    # so its unit is singular
    attributive = (_after_article(match) or _word_before(_DETERMINER_BEFORE, match)) \
        and _NOUN_AFTER.match(match.string, match.end()) is not None
    if scale:
        amount = numbers.number(whole + (fraction or ""))
        return f"{minus}{amount} {_SCALES[scale.lower()]} {one if attributive else many}"
    unit = one if attributive and not fraction else _plural(whole, one, many)
    spoken = f"{minus}{numbers.cardinal(whole)} {unit}"
    if fraction and len(fraction) > 3:  # "$0.125": a plain decimal amount
        return f"{minus}{numbers.decimal(whole + fraction)} {many}"
    if fraction:
        hundredths = int(fraction[1:].ljust(2, "0"))
        if hundredths:
            minor = f"{numbers.cardinal(str(hundredths))} {_plural(str(hundredths), cent, cents)}"
            spoken = minor if whole.strip("0,") == "" else f"{spoken} and {minor}"
            spoken = minus + spoken.removeprefix(minus)
    return spoken


_SCALE_WORDS = "thousand|million|billion|trillion"
_SCALES = {"thousand": "thousand", "million": "million", "billion": "billion", "trillion": "trillion",
           "k": "thousand", "m": "million", "mn": "million", "b": "billion", "bn": "billion"}


def _clock_minutes(minute: int) -> str:
    """Minutes past the hour as a clock is read: 5 is "oh five", 30 "thirty"."""
    return f"oh {numbers.cardinal(str(minute))}" if minute < 10 else numbers.cardinal(str(minute))


def _speak_time(match: re.Match[str]) -> str:
    hour, minute, second, meridiem = (match.group(k) for k in ("hour", "minute", "second", "meridiem"))
    h, m = int(hour), int(minute)
    if h > 23 or m > 59:
        return match.group(0).replace(":", " ")
    if second and not meridiem and not match.group("zone") and int(second) < 60 \
            and not _word_before(_CLOCK_BEFORE, match):
        return _speak_duration(h, m, int(second))
    spoken = numbers.cardinal(str(h))
    if m == 0:
        range_start = re.match(r" to \d", match.string[match.end():]) is not None  # "two to three thirty"
        spoken += "" if meridiem or h > 12 or range_start else " o'clock"
        if h > 12 and not meridiem:
            spoken += " hundred"
    else:
        spoken += f" {_clock_minutes(m)}"
    if second and int(second):
        spoken += f" and {numbers.cardinal(str(int(second)))} seconds"
    return spoken + _meridiem(match)


def _meridiem(match: re.Match[str]) -> str:
    """" AM" or " PM", then the time zone if one follows; the abbreviation's period stays only
    where it ends the sentence ("at 9 a.m. EST on Monday": it does not)."""
    meridiem, zone = match.group("meridiem", "zone")
    spoken = f" {meridiem[0].upper()}M" if meridiem else ""
    if zone:
        return f"{spoken} {zone}"
    return spoken + (_kept_period(match) if meridiem and meridiem.endswith(".") else "")


def _speak_hour_meridiem(match: re.Match[str]) -> str:
    """'9 a.m.', and a range of hours: '2-4 p.m.' is "two to four PM"."""
    start = f"{numbers.cardinal(match.group('from_hour'))} to " if match.group("from_hour") else ""
    return start + numbers.cardinal(match.group("hour")) + _meridiem(match)


#: Words after which h:mm:ss is a clock ("at 10:15:30"); elsewhere it is a duration.
_CLOCK_BEFORE = re.compile(r"\b(?:at|by|until|till|from|before|after|since)\s+$", re.IGNORECASE)


def _speak_duration(hours: int, minutes: int, seconds: int) -> str:
    """"1:02:33" as a race time: "one hour, two minutes and thirty-three seconds"."""
    parts = [f"{numbers.cardinal(str(value))} {_plural(str(value), unit, unit + 's')}"
             for value, unit in ((hours, "hour"), (minutes, "minute"), (seconds, "second")) if value]
    if not parts:
        return "zero seconds"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _speak_day_range(match: re.Match[str]) -> str:
    """'Mon.-Fri.' -> "Monday to Friday", 'Jan-Mar' -> "January to March"."""
    first = ABBREVIATIONS[match.group("first") or match.group("first_month")]
    last = ABBREVIATIONS[match.group("last") or match.group("last_month")]
    return f"{first} to {last}" + (_kept_period(match) if match.group(0).endswith(".") else "")


def _speak_year_range(match: re.Match[str]) -> str:
    """'1990-91' -> "nineteen ninety to ninety-one", '1995-2005' with both years whole."""
    start, end = int(match.group("start")), match.group("end")
    if len(end) == 2:
        if int(end) <= start % 100:
            return match.group(0)  # not a later year: left to the range rule
        spoken_end = numbers.year(start // 100 * 100 + int(end)).split(" ", 1)[-1] if int(end) >= 10 \
            else f"oh {numbers.cardinal(end)}"
    else:
        if int(end) <= start:
            return match.group(0)
        spoken_end = numbers.year(int(end))
    return f"{numbers.year(start)} to {spoken_end}"


def _speak_year_pair(match: re.Match[str]) -> str:
    """'from 1774 to 1792', 'between 1990 and 2005': both are years."""
    word, first, conjunction, second = match.group("word", "first", "conjunction", "second")
    return f"{word} {numbers.year(int(first))} {conjunction} {numbers.year(int(second))}"


def _speak_era_year(match: re.Match[str]) -> str:
    """'A.D. 1500', '1200 BC': a year, "fifteen hundred"; three digits or fewer stay a count."""
    value = match.group("year") or match.group("year_")
    spoken = numbers.year(int(value)) if len(value) == 4 else numbers.cardinal(value)
    before, after = match.group("era_before") or "", match.group("era_after") or ""
    return f"{before} {spoken}".strip() + (f" {after}" if after else "")


def _speak_designation(match: re.Match[str]) -> str:
    """'I-95', 'C-130', 'F-16', 'COVID-19', 'PG-13': the letters, then the number in pairs."""
    return f"{match.group('letters')} {numbers.in_pairs(int(match.group('number')))}"


def _speak_tripled_letter(match: re.Match[str]) -> str:
    """'AAA' is "triple A" and 'IEEE' "I triple E", as people say them; espeak-ng spelled them
    out letter by letter, and Whisper heard "AA" and "IE" from every voice."""
    before, letter, after = match.group("before", "letter", "after")
    if before.endswith(letter):  # four or more of a letter: a shout, not an initialism
        return match.group(0)
    return " ".join(part for part in (before, f"triple {letter}", after) if part)


def _speak_identifier(match: re.Match[str]) -> str:
    """'No. 20391', 'Invoice #20391': a number of five digits or more that names something, read
    digit by digit as people read it out."""
    name, said_number = match.group("name"), match.group("mark") or match.group("number")
    label = " ".join(word for word in (name, "Number" if said_number else "") if word)
    return f"{label} {numbers.digits(match.group('id'))}"


def _speak_roman(match: re.Match[str]) -> str:
    """"Henry VIII" -> "Henry the Eighth"; "World War II", "Chapter XII", "Rocky III" -> a
    count ("World War Two"). Where the word before is not a name, the numeral is left alone."""
    word, numeral = match.group("word", "numeral")
    value = numbers.roman(numeral)
    if value is None or word in _NOT_BEFORE_NUMERAL:
        return match.group(0)
    if len(numeral) == 1 and word not in COUNTED_BY_NUMERAL and (
            word not in REGNAL_NAMES or (numeral == "I" and _PRONOUN_VERB_AFTER.match(match.string, match.end()))):
        return match.group(0)
    if word in REGNAL_NAMES:
        return f"{word} the {numbers.ordinal(str(value)).capitalize()}"
    return f"{word} {numbers.cardinal(str(value))}"


def _date(month: int, day: int, year: str | None) -> str:
    spoken = f"{MONTHS[month - 1]} {numbers.ordinal(str(day))}"
    return f"{spoken}, {numbers.year(int(year))}" if year else spoken


def _valid_date(month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= 31


def _speak_iso_date(match: re.Match[str]) -> str:
    year, month, day = (int(g) for g in match.groups())
    if not _valid_date(month, day):
        return " ".join(numbers.cardinal(g) for g in match.groups())
    return _date(month, day, str(year))


def _speak_slash_date(match: re.Match[str]) -> str:
    first, second, year = match.groups()
    month, day = int(first), int(second)
    if month > 12 and day <= 12:  # 14/03/2026 is day-first
        month, day = day, month
    if len(year) == 2:
        year = f"20{year}"
    if not _valid_date(month, day):
        return f"{numbers.cardinal(first)} slash {numbers.cardinal(second)} slash {numbers.cardinal(year)}"
    return _date(month, day, year)


def _month(name: str) -> str:
    return _MONTH_BY_PREFIX[name[:3].lower()]


def _speak_month_day(match: re.Match[str]) -> str:
    """'Mar. 3, 1941' and a span of days, 'July 11-12, 2023': "July eleventh to twelfth"."""
    month, day, last_day, year = match.group("month", "day", "last_day", "year")
    spoken = f"{_month(month)} {numbers.ordinal(day)}"
    if last_day:
        spoken += (f" to {numbers.ordinal(last_day)}" if int(day) < int(last_day) <= 31
                   else f"-{last_day}")  # not a span of days: the number is read as any other
    return f"{spoken}, {numbers.year(int(year))}" if year else spoken


def _speak_day_month(match: re.Match[str]) -> str:
    """'23 Sept' and 'the 23rd of September' alike: 'the twenty-third of September', one 'the'."""
    the, day, month, year = match.group("the", "day", "month", "year")
    spoken = f"{the or 'the '}{numbers.ordinal(day)} of {_month(month)}"
    return f"{spoken}, {numbers.year(int(year))}" if year else spoken


def _speak_month_year(match: re.Match[str]) -> str:
    return f"{_month(match.group('month'))} {numbers.year(int(match.group('year')))}"


def _speak_year_after_word(match: re.Match[str]) -> str:
    return f"{match.group('word')} {numbers.year(int(match.group('year')))}"


def _speak_decade(match: re.Match[str]) -> str:
    spoken = numbers.year(int(match.group("decade")))
    return re.sub(r"y$", "ies", spoken) if spoken.endswith("y") else spoken + "s"


def _speak_us_phone(match: re.Match[str]) -> str:
    area = match.group("area") or match.group("area_")
    groups = [g for g in (area, match.group("exchange"), match.group("line")) if g]
    prefix = "one, " if match.group("country") else ""
    return prefix + ", ".join(numbers.digits(g) for g in groups) + _break_after(match)


def _speak_international_phone(match: re.Match[str]) -> str:
    groups = re.findall(r"\d+", match.group(0))
    return "plus " + ", ".join(numbers.digits(g) for g in groups) + _break_after(match)


def _break_after(match: re.Match[str]) -> str:
    """A comma after a number read digit by digit when words go on after it ("call 555-0148
    between 9 and 5"), as a reader pauses there: without it the digits ran into the next
    words, and Whisper heard "between nine and five" as more of the number."""
    return "," if re.match(r" [A-Za-z]", match.string[match.end():match.end() + 2]) else ""


def _speak_percent(match: re.Match[str]) -> str:
    """'17%', '-3%', and a range: '8-10%' is "eight to ten percent"."""
    minus = "minus " if match.group("sign") else ""
    start = f"{numbers.number(match.group('low'))} to " if match.group("low") else ""
    return f"{start}{minus}{numbers.number(match.group('value'))} percent"


#: What a reading of two numbers over each other follows: "blood pressure was 128/82".
_PRESSURE_BEFORE = re.compile(r"\b(?:pressure|BP)(?:\s+(?:was|is|of|at|reads|read|reading|measured|now))*\s+$")


def _speak_blood_pressure(match: re.Match[str]) -> str:
    """'128/82 mmHg', or '120/80' after 'blood pressure': 'one hundred twenty-eight over
    eighty-two'. Any other pair of numbers with a slash is left to the rules after."""
    if not match.group("unit") and not _word_before(_PRESSURE_BEFORE, match):
        return match.group(0)
    spoken = f"{numbers.number(match.group('high'))} over {numbers.number(match.group('low'))}"
    return f"{spoken} {UNITS['mmHg'][1]}" if match.group("unit") else spoken


def _speak_unit(match: re.Match[str]) -> str:
    """'5 km', '-4°C', '6.4 billion km', and a range of them: '10-15 km' is 'ten to fifteen kilometers'."""
    low, value, unit = match.group("low", "value", "unit")
    minus = "minus " if match.group("sign") else ""
    singular, plural = UNITS[unit]
    attributive = _after_article(match) or (_word_before(_DETERMINER_BEFORE, match)
                                            and _NOUN_AFTER.match(match.string, match.end()) is not None)
    start = f"{numbers.number(low)} to " if low else ""
    scale = f" {match.group('scale')}" if match.group("scale") else ""  # "6.4 billion km": many
    more = " plus" if match.group("more") else ""  # "20+ hrs": twenty plus hours
    counted = plural if scale or more else _plural(value, singular, plural)
    return f"{start}{minus}{numbers.number(value)}{more}{scale} {singular if attributive else counted}"


def _speak_compound_measure(match: re.Match[str]) -> str:
    """'a 5-gal. jug', 'a 10-km race': a hyphenated measure describes the noun after it, so its
    unit is singular and its abbreviation's period ends nothing."""
    return f"{numbers.number(match.group('value'))}-{UNITS[match.group('unit')][0]}"


#: How far back a rule looks for the word before a match: far enough for "until  " or "Every ",
#: and bounded, so a text of many matches stays linear.
_LOOKBACK = 16
#: "a 512 GB drive", "an 8 km run": after an article the measure describes a noun, so its
#: unit stays singular.
_ARTICLE_BEFORE = re.compile(r"\b(?:a|an|A|An)\s+$")


def _after_article(match: re.Match[str]) -> bool:
    return _word_before(_ARTICLE_BEFORE, match)


def _word_before(pattern: re.Pattern[str], match: re.Match[str]) -> bool:
    """Whether `pattern` (anchored with $) matches the text just before `match`."""
    return pattern.search(match.string, max(0, match.start() - _LOOKBACK), match.start()) is not None

#: "the 10 km loop", "each 5 lb bag": after a determiner the measure describes a noun only
#: when a noun follows ("the 10 km were hard" counts); a word that cannot be that noun ends it.
_DETERMINER_BEFORE = re.compile(r"\b(?:the|The|this|This|that|That|each|Each|every|Every)\s+$")
_NOUN_AFTER = re.compile(r"\s+(?!(?:of|in|on|at|to|from|for|with|by|per|and|or|but|than|that|which|who|was|were|is|"
                         r"are|be|had|has|have|will|would|can|could|took|left|away|long|wide|tall|deep|high|thick|"
                         r"ahead|behind|later|earlier|up|down|each|more|less|a|an|the|it|he|she|we|they|you|so|then|now|back|"
                         r"off|out|over|during|until|while|when|since|through|around|about|if|because|unless|as|into|ago|old)\b)"
                         r"[A-Za-z]+\b")


def _speak_zip(match: re.Match[str]) -> str:
    state = match.group("state")
    return f"{STATES.get(state, state)} " + " ".join(numbers.digits(g) for g in match.group("zip", "plus4") if g)


def _street_word(street: str) -> str:
    """A street type in full: "Ave" is "Avenue", and "St" and "Dr" after a name are places."""
    if street in TITLE_OR_PLACE:
        return TITLE_OR_PLACE[street][1]
    return ABBREVIATIONS.get(street, street)


_ROUND_PLURALS = {"100": "hundreds", "1000": "thousands", "10000": "tens of thousands",
                   "100000": "hundreds of thousands", "1000000": "millions"}


def _speak_round_plural(match: re.Match[str]) -> str:
    """"in his 50s" is "in his fifties", "100s of shelves" "hundreds of shelves"."""
    count = match.group("count").replace(",", "")
    if count in _ROUND_PLURALS:
        return _ROUND_PLURALS[count]
    tens = numbers.cardinal(count)
    return "tens" if tens == "ten" else tens[:-1] + "ies"


def _speak_house_number(match: re.Match[str]) -> str:
    return numbers.in_pairs(int(match.group("number")))


def _speak_ordinal(match: re.Match[str]) -> str:
    return numbers.ordinal(match.group("value"))


#: Before "3/15" these make it a date, not three fifteenths: "reported on 3/15", "due by 6/30".
_DATE_BEFORE = re.compile(r"\b(?:[Oo]n|[Bb]y|[Uu]ntil|[Tt]ill|[Ss]ince|[Bb]efore|[Aa]fter|[Tt]hrough|[Dd]ue|"
                          + _WEEKDAY_ABBREVIATION + r"\.?|[A-Z][a-z]+day),?\s+$")


def _speak_fraction(match: re.Match[str]) -> str:
    """"3/4" is three quarters; a month and day where the words before introduce a date, or a
    day of 1 or past 16 ("6/1" is never six firsts, nor "12/24" twelve twenty-fourths): "on
    3/15" is "on March fifteenth"."""
    numerator, denominator = int(match.group("num")), int(match.group("den"))
    a_day = denominator > 16 and not re.match(r"\s+of\b", match.string[match.end():])  # not "3/20 of it"
    if _valid_date(numerator, denominator) and (denominator == 1 or a_day or _word_before(_DATE_BEFORE, match)):
        return _date(numerator, denominator, None)
    if denominator == 0:
        return f"{numbers.cardinal(str(numerator))} slash zero"
    return _fraction_words(numerator, denominator)


#: Denominators fractions are written with: "1/2-3/4 cup" is a range of fractions, "8/15-8/16" of days.
_COMMON_DENOMINATORS = frozenset({2, 3, 4, 5, 6, 8, 10, 12, 16})


def _speak_date_range(match: re.Match[str]) -> str:
    m1, d1, m2, d2 = (int(match.group(k)) for k in ("m1", "d1", "m2", "d2"))
    if not (_valid_date(m1, d1) and _valid_date(m2, d2)) or {d1, d2} <= _COMMON_DENOMINATORS:
        return match.group(0)  # fractions, read by the rules after
    return f"{_date(m1, d1, None)} to {_date(m2, d2, None)}"


_FRACTION_NAMES = {2: ("half", "halves"), 4: ("quarter", "quarters")}


def _fraction_words(numerator: int, denominator: int, article: bool = False) -> str:
    """3/4 -> "three quarters"; with `article`, a numerator of one is "a": "a half"."""
    ordinal = numbers.ordinal(str(denominator))
    one, many = _FRACTION_NAMES.get(denominator, (ordinal, ordinal + "s"))
    if numerator == 1:
        return f"{'a' if article else 'one'} {one}"
    return f"{numbers.cardinal(str(numerator))} {many}"


def _speak_mixed_number(match: re.Match[str]) -> str:
    """"1 1/2 cups" -> "one and a half cups" (a whole number, then a proper fraction), and a
    unit after it in full: "1 1/2 tsp" -> "one and a half teaspoons"."""
    whole, numerator, denominator = (int(match.group(k)) for k in ("whole", "num", "den"))
    spoken = f"{numbers.cardinal(str(whole))} and {_fraction_words(numerator, denominator, article=True)}"
    return f"{spoken} {UNITS[match.group('unit')][1]}" if match.group("unit") else spoken


def _speak_fraction_of_measure(match: re.Match[str]) -> str:
    """"1/2 cup" -> "half a cup", "3/4 cup" -> "three quarters of a cup"."""
    numerator, denominator = int(match.group("num")), int(match.group("den"))
    noun = _singular_measure(match.group("noun"))
    article = "an" if noun[0] in "aeiou" else "a"
    if (numerator, denominator) == (1, 2):
        return f"half {article} {noun}"
    return f"{_fraction_words(numerator, denominator)} of {article} {noun}"


def _singular_measure(word: str) -> str:
    if word in UNITS:
        return UNITS[word][0]
    return word


def _speak_feet_and_inches(match: re.Match[str]) -> str:
    feet, inches = match.group("feet", "inches")
    return (f"{numbers.number(feet)} {_plural(feet, 'foot', 'feet')} "
            f"{numbers.number(inches)} {_plural(inches, 'inch', 'inches')}")


def _speak_foot_mark(match: re.Match[str]) -> str:
    """'6' tall', 'a 6' fence': an apostrophe after a number is feet where a measure word or,
    after an article, a noun follows (elsewhere it may close a quotation)."""
    value, attributive = match.group("value"), _after_article(match)
    if not (match.group("measure") or attributive):
        return match.group(0)
    return f"{numbers.number(value)} {'foot' if attributive else _plural(value, 'foot', 'feet')}"


def _speak_marked_sides(match: re.Match[str]) -> str:
    """'24"x18"x6"' is "twenty-four by eighteen by six inches" ("inch" before its noun: "a 24"x18" box"),
    and "12' x 14'" "twelve by fourteen feet"."""
    sides = re.findall(_NUM, match.group("sides"))
    singular, plural = UNITS["in" if match.group("mark") == '"' else "ft"]
    return " by ".join(numbers.number(side) for side in sides) + f" {singular if _after_article(match) else plural}"


def _speak_inch_mark(match: re.Match[str]) -> str:
    """'a 15.6" screen', '55" wide': a double quote after a number outside a quotation is the
    inch mark (inside one, '"I am 5"', it closes the quotation)."""
    if _inside_quotation(match.string, match.start()):
        return match.group(0)
    value = match.group("value")
    inch = UNITS["in"][0] if _after_article(match) else _plural(value, *UNITS["in"])
    return f"{numbers.number(value)} {inch}"


_OPENING_QUOTE = re.compile(r'(?:^|(?<=[\s(\[]))"(?=\S)')
#: A quote after a digit may be an inch mark, so only the others count as closing.
_CLOSING_QUOTE = re.compile(r'(?<=[^\s\d(\[])"')


@functools.lru_cache(maxsize=4)
def _quotes(text: str) -> tuple[list[int], list[int]]:
    """Where quotations open and close, found once per text (the rule asks at every inch mark)."""
    return ([m.start() for m in _OPENING_QUOTE.finditer(text)], [m.start() for m in _CLOSING_QUOTE.finditer(text)])


def _inside_quotation(text: str, position: int) -> bool:
    """More quotations opened than closed before `position`."""
    opening, closing = _quotes(text)
    return bisect.bisect_left(opening, position) > bisect.bisect_left(closing, position)


def _speak_dimensions(match: re.Match[str]) -> str:
    """'14 in by 10 in', '8 x 10 in': "in" is an inch where it measures a side."""
    first, second = match.group("first", "second")
    attributive = _after_article(match)  # "a 14 in by 10 in box"
    inches = {value: UNITS["in"][0] if attributive else _plural(value, *UNITS["in"]) for value in (first, second)}
    first_unit = f" {inches[first]}" if match.group("first_unit") else ""
    return f"{numbers.number(first)}{first_unit} by {numbers.number(second)} {inches[second]}"


def _speak_sides(match: re.Match[str]) -> str:
    """'40 x 30 x 20 cm' -> "forty by thirty by twenty centimeters"; singular after an article
    ("a 2 x 4 m sheet")."""
    sides = re.split(r"\s?[x×]\s?", match.group("sides"))
    singular, plural = UNITS[match.group("unit")]
    unit = singular if _after_article(match) else _plural(sides[-1], singular, plural)
    return " by ".join(numbers.number(side) for side in sides) + f" {unit}"


def _speak_side_in_inches(match: re.Match[str]) -> str:
    """'12 in long', '3 in thick', and 'in.' with its period inside a sentence: '3.7 in. of rain',
    and a range of them: '4-6 in. of snow' is "four to six inches"; "a 2 in. pipe" is one inch."""
    low, value = match.group("low", "value")
    start = f"{numbers.number(low)} to " if low else ""
    singular, plural = UNITS["in"]
    return f"{start}{numbers.number(value)} {singular if _after_article(match) else _plural(value, singular, plural)}"


def _speak_military_time(match: re.Match[str]) -> str:
    """'0600 hours' is "zero six hundred hours", '1430 hours' "fourteen thirty hours". (The
    other form, "oh six hundred", was heard "all six hundred" on four of five voices.)"""
    hour, minute = match.group("hour"), int(match.group("minute"))
    spoken_hour = "zero zero" if hour == "00" else ("zero " if hour[0] == "0" else "") + numbers.cardinal(hour)
    return f"{spoken_hour} {_clock_minutes(minute) if minute else 'hundred'} hours"


def _speak_short_decade(match: re.Match[str]) -> str:
    """"the '80s" -> "the eighties"."""
    return numbers.cardinal(match.group("tens"))[:-1] + "ies"


def _speak_range(match: re.Match[str]) -> str:
    return f"{numbers.number(match.group('low'))} to {numbers.number(match.group('high'))}"


def _speak_signed_number(match: re.Match[str]) -> str:
    return f"minus {numbers.number(match.group('value'))}"


def _speak_number(match: re.Match[str]) -> str:
    return numbers.number(match.group(0))


_DATE_AFTER = re.compile(r"\s+(?:" + _MONTH_NAME + r"\b|\d)")


def _speak_abbreviation(match: re.Match[str]) -> str:
    word = match.group("abbr")
    spoken = ABBREVIATIONS[word]
    if re.fullmatch(_WEEKDAY_ABBREVIATION, word) and _DATE_AFTER.match(match.string, match.end()):
        return spoken  # "Tue. July first": the day before its date, not a sentence's end
    return spoken + _kept_period(match)


def _kept_period(match: re.Match[str]) -> str:
    """An abbreviation's period still ends the sentence when a capital or the end follows."""
    rest = match.string[match.end():match.end() + 2]
    return "." if rest == "" or rest == "\n" or (rest[:1].isspace() and rest[1:2].isupper()) else ""


#: What a place abbreviation follows: a name ("Baker St.") or a numbered street ("42nd St.",
#: its ordinal already read as "forty-second").
_AFTER_NAME = re.compile(r"(?:(?:^|[^.!?\s]\s*)\b[A-Z0-9][\w']*|(?:first|second|third|th))\s+$")


#: A name after "St." that a place is named for ("Port St. Lucie", "Fort St. John", "Mount St.
#: Helens"): a capitalized word that does not start a new sentence after a street ("Baker St. The").
_SAINTS_NAME_AFTER = re.compile(r"\s+(?!(?:The|A|An|He|She|It|We|They|I|You|This|That|These|Those|There|Then|His|Her|Its|"
                                r"Our|Their|My|In|On|At|If|When|But|And|So|Or)\b)[A-Z][a-z]")


def _speak_title_or_place(match: re.Match[str]) -> str:
    """'Dr. Smith' / 'at St. Mary's' read as titles; 'Baker St.' / 'Mulholland Dr.' as places,
    and 'Port St. Lucie' as the saint its name follows."""
    title, place = TITLE_OR_PLACE[match.group("abbr")]
    before = match.string[max(0, match.start() - 40):match.start()]
    saint = title == "Saint" and _SAINTS_NAME_AFTER.match(match.string, match.end()) is not None
    if _AFTER_NAME.search(before) and not saint:
        return place + _kept_period(match)
    return title


def _either_case(words) -> str:
    """A pattern for lower-case `words` as written, or capitalized to begin a sentence."""
    return "(?:" + "|".join(f"[{w[0].upper()}{w[0]}]{re.escape(w[1:])}" for w in words) + ")"


def _in_case_of(written: str, spoken: str) -> str:
    """`spoken` capitalized as `written` is: "Avg." begins a sentence as "Average"."""
    return spoken[:1].upper() + spoken[1:] if written[:1].isupper() else spoken


def _speak_short_word(match: re.Match[str]) -> str:
    word = match.group("abbr")
    spoken = _in_case_of(word, SHORT_WORDS[word.lower()])
    modifier = word.lower() in _MODIFIERS and not _ends_the_text(match)
    return spoken if modifier else spoken + _kept_period(match)


def _ends_the_text(match: re.Match[str]) -> bool:
    return match.string[match.end():].strip() == ""


def _speak_inclusion(match: re.Match[str]) -> str:
    """'incl. VAT' is including, 'taxes incl.' (before the end, a comma or a new sentence)
    included."""
    word = match.group("abbr")
    taking, taken = _INCLUSIONS[word.lower()]
    what_follows = re.match(r"\s+(?:[a-z0-9$£€]|[A-Z]{2,}\b)", match.string[match.end():])
    return _in_case_of(word, taking) if what_follows else _in_case_of(word, taken) + _kept_period(match)


#: Words that begin a sentence after an initialism's period ("... in the U.S. The next day"),
#: where a name or a noun continues it ("the U.S. Army").
_SENTENCE_OPENERS = frozenset({
    "The", "A", "An", "It", "He", "She", "We", "They", "I", "You", "In", "On", "At", "But", "And", "So", "This",
    "That", "These", "Those", "There", "Then", "Its", "Our", "His", "Her", "Their", "My", "Your", "After",
    "Before", "When", "If", "As", "For", "What", "Why", "How", "Now", "Today", "Yesterday", "Tomorrow",
})


def _speak_dotted_letters(match: re.Match[str]) -> str:
    """Each letter as a word, and the last period kept only where the sentence ends."""
    letters = " ".join(c for c in match.group("letters") if c.isalpha()).upper()
    rest = match.string[match.end():]
    next_word = re.match(r"\s+([A-Za-z]+)", rest)
    ends = rest.strip() == "" or rest.startswith("\n") or (next_word is not None and next_word.group(1) in _SENTENCE_OPENERS)
    return letters + ("." if ends else "")


def _speak_recipe_cup(match: re.Match[str]) -> str:
    """"3/4 c. flour" is cup, "2 c. milk" cups; the amount is read by the rules after."""
    amount = match.group("amount")
    one_or_less = re.fullmatch(r"1|\d+/\d+", amount) is not None
    return f"{amount} {'cup' if one_or_less else 'cups'}"


def _speak_hashtag(match: re.Match[str]) -> str:
    return f"hashtag {match.group('tag')}"


def _lowercase_shouting(match: re.Match[str]) -> str:
    return match.group(0).lower()


#: Rules that read words (abbreviations, Latin, shouting), not digits or symbols. They run
#: in RULES, and once more on the text the voice will read, after symbols are spoken and
#: unspeakable characters dropped: "Dr.&" or "Dr.😀" then ends in "Dr." as "Dr." would.
WORD_RULES: tuple[Rule, ...] = (
    # a quadrant after the street: "Pennsylvania Ave. NW" is "Avenue Northwest"
    (re.compile(r"\b(?P<street>" + _STREET_TYPE + r")\.?\s(?P<quadrant>[NS][EW])\b(?!\.\w)"),
     lambda m: f"{_street_word(m.group('street'))} {DIRECTIONS[m.group('quadrant')]}"),
    # "last yr.", "in a min.": a unit of time with no number of its own
    (re.compile(r"\b(?P<word>last|next|this|every|a)\s(?P<unit>" + "|".join(_TIME_UNITS) + r")\b(?:\.(?=\s+[a-z]))?"),
     lambda m: f"{m.group('word')} {UNITS[m.group('unit')][0]}"),
    (re.compile(r"\ba\s(?P<unit>" + "|".join(_PRICED_UNITS) + r")\.(?=\s+[a-z]|[,;:]|$)"),
     lambda m: f"a {UNITS[m.group('unit')][0]}{_kept_period(m)}"),
    # "18 pages per min.", "$3.89 per gal.", "per sq. ft.": any unit of two letters or more after "per"
    (re.compile(r"\bper\s(?P<unit>" + "|".join(re.escape(u).replace(r"\ ", r"\s") for u in _UNITS_AFTER_PER)
                + r")" + _UNIT_END), lambda m: f"per {UNITS[m.group('unit')][0]}"),
    (re.compile(r"\b(?P<abbr>" + "|".join(TITLE_OR_PLACE) + r")\.(?=[\s,;]|$)"), _speak_title_or_place),
    (re.compile(r"\b(?P<abbr>" + "|".join(TITLES) + r")\.(?=\s)"), lambda m: TITLES[m.group("abbr")]),
    (re.compile(r"\b(?P<abbr>" + "|".join(ABBREVIATIONS) + r")\.(?=[\s,;]|$)"), _speak_abbreviation),
    (re.compile(r"(?<![\w.])(?:" + "|".join(re.escape(k) for k in _LATIN) + r")(?!\w)", re.IGNORECASE),
     lambda m: _LATIN[m.group(0).lower()]),
    (re.compile(r"\b(?P<abbr>" + _either_case(SHORT_WORDS) + r")\.(?=[\s,;:)]|$)"), _speak_short_word),
    (re.compile(r"\b(?P<abbr>" + _either_case(_INCLUSIONS) + r")\.(?=[\s,;:)]|$)"), _speak_inclusion),
    (re.compile(r"\b(?:" + _either_case(ELIDED_WORDS) + r")(?!\w)"),
     lambda m: _in_case_of(m.group(0), ELIDED_WORDS[m.group(0).lower()])),
    (re.compile(r"(?<![\w/])(?:[wc]/o(?![\w/])|w/(?=\s))", re.IGNORECASE), lambda m: _SLASHED[m.group(0).lower()]),
    (re.compile(r"\bvs\b"), lambda m: "versus"),
    # "a 2-bedroom apt. downtown" (and "apt." the word, which ends a sentence, is left alone)
    (re.compile(r"\bapt\.(?=\s+(?:[a-z]|\d|#))"), lambda m: "apartment"),
    (re.compile(r"(?<![\w-])M\s?[-–]\s?F(?![\w-])"), lambda m: "Monday to Friday"),  # office hours "M-F, 9-5"
    (re.compile(r"(?<=\b[Tt]he )(?P<acronym>" + "|".join(SPELLED_AFTER_THE) + r")\b"),
     lambda m: " ".join(m.group("acronym"))),
    (re.compile(r"\b(?P<acronym>" + "|".join(SPELLED) + r")(?=\b|'s)"), lambda m: " ".join(m.group("acronym"))),
    # "U.S.", "D.C.", "Ph.D.": letters, not sentences ("The U.S. Army" had been cut in three)
    (re.compile(r"(?<![\w.])(?P<letters>(?:[A-Z]\.){2,5}|Ph\.D\.)(?![\w'’]|\.\w)"), _speak_dotted_letters),
    (re.compile(r"\b(?:[A-Z][A-Z']+[,!?.]*\s+){2,}[A-Z][A-Z']+\b"), _lowercase_shouting),
    # after the abbreviations above, whose words they may follow ("Bldg. II", "Mar., MN")
    (re.compile(r"\b(?P<word>[A-Z][a-z]+) (?P<numeral>[IVX]{1,6})\b(?!['’](?!s\b)\w|-\w)"), _speak_roman),
    (re.compile(r"\b(?P<city>[A-Z][a-z]+),\s?(?P<state>" + "|".join(_REGIONS_AFTER_A_CITY) + r")(?=[.,;:!?)]|$)"),
     lambda m: f"{m.group('city')}, {_REGIONS_AFTER_A_CITY[m.group('state')]}"),
    (re.compile(r"(?<=\b[AP]M)\s?[-–]\s?(?=[a-z])"), lambda m: " to "),  # "8 a.m.-6 p.m."
    # "350 degrees F", and "5° C" once its symbol is read
    (re.compile(r"(?<=\bdegrees )(?P<scale>[CF])\b(?!['’]\w)"),
     lambda m: "Fahrenheit" if m.group("scale") == "F" else "Celsius"),
)

RULES: tuple[Rule, ...] = (
    # a direction after a route's number: "Hwy. 1 N" is "Highway one North"
    (re.compile(r"\b(?P<road>(?:Hwy|Rte)\.?|Highway|Route|Interstate|I-)\s?(?P<number>\d{1,3})\s(?P<direction>[NSEW])\b"
                r"(?!\.\w|')"), lambda m: f"{m.group(0)[:-1]}{DIRECTIONS[m.group('direction')]}"),
    (re.compile(r"(?<![\w@/.+-])(?:[a-zA-Z][a-zA-Z0-9+.-]*://|www\.)[^\s<>\"']+"), _speak_url),
    (re.compile(r"\b(?:(?P<name>" + "|".join(IDENTIFIED_BY_NUMBER) + r")\s?(?P<mark>No\.|#)?|(?P<number>No\.))"
                r"\s?(?P<id>\d{5,12})(?![\w,.]\d|\d)"), _speak_identifier),
    (re.compile(r"\b(?P<abbr>" + "|".join(REFERENCES) + r")\.\s?(?=\d)"), lambda m: REFERENCES[m.group("abbr")] + " "),
    (re.compile(r"\b[Ee]xt\.?\s?(?P<number>\d{1,6})\b(?![.,]\d)"),  # a phone extension, digit by digit
     lambda m: f"extension {numbers.digits(m.group('number'))}"),
    (re.compile(r"(?<=\d)\s?pp\.(?=[\s,;:!?)]|$)"), lambda m: f" {REFERENCES['pp']}{_kept_period(m)}"),
    (re.compile(r"(?<![\w/.])(?P<high>\d{2,3})/(?P<low>\d{2,3})(?P<unit>\s?mmHg\b)?(?![\w/])"), _speak_blood_pressure),
    (re.compile(r"(?<=[\da-z])\s?/\s?(?P<per>" + "|".join(PER) + r")\b(?:\.(?=\s+[a-z]))?"),
     lambda m: " " + PER[m.group("per")]),
    # "$9.99/bottle", "$12.99/lb." (a unit of two letters is read after "per" by the word rules)
    (re.compile(r"(?<=\d)/(?P<noun>[a-z]{3,20}|lb|oz|kg|mi|km|ft|yd|qt|ml)\b"), lambda m: f" per {m.group('noun')}"),
    (re.compile(r"\b(?:[Cc]a|c)\.\s?(?P<year>\d{3,4})\b(?![.,]\d)"),  # "ca. 1500", "c. 1560"
     lambda m: "circa " + numbers.year(int(m.group("year")))),
    (re.compile(r"(?<![\w/.,$-])(?P<code>9/11|911)(?![\w/]|[.,]\d)"),
     lambda m: "nine eleven" if m.group("code") == "9/11" else "nine one one"),
    (re.compile(r"\b(?P<note>[A-G])#(?!\w)"), lambda m: f"{m.group('note')} sharp"),  # C#, F#
    (re.compile(r"(?<![\w.,$€£¥'])(?P<count>[1-9]0|100|1,?000|10,?000|100,?000|1,?000,?000)s\b"), _speak_round_plural),
    (re.compile(r"\bFY\s?'?(?P<year>\d{4}|\d{2})\b"),
     lambda m: "fiscal year " + (numbers.year(int(m.group("year"))) if len(m.group("year")) == 4
                                 else numbers.cardinal(m.group("year")))),
    (re.compile(r"\b(?![AP]M-)(?P<letters>[A-Z]{1,5})-(?P<number>[1-9]\d{0,3})\b(?![.,]\d|-\d)"),
     _speak_designation),
    (re.compile(r"\b(?P<left>[A-Z]{1,3})\s?&\s?(?P<right>[A-Z]{1,3})\b"),  # Q&A, R&D, AT&T: letters
     lambda m: f"{' '.join(m.group('left'))} and {' '.join(m.group('right'))}"),
    (re.compile(r"\b(?![IVXLCDM]+\b)(?P<before>[A-Z]{0,3}?)(?P<letter>[A-Z])(?P=letter)(?P=letter)(?!(?P=letter))"
                r"(?P<after>[A-Z]{0,3})\b"),  # AAA, IEEE: "triple A", "I triple E"
     _speak_tripled_letter),
    (re.compile(r"(?<![\w-])1-(?P<code>8\d\d)(?![\d-])"),  # a toll-free prefix alone: "the 1-800 number"
     lambda m: "one " + ("eight hundred" if m.group("code") == "800" else numbers.digits(m.group("code")))),
    (re.compile(r"(?<![\w.$€£¥])(?P<value>" + _NUM + r")(?P<scale>[KkMB])"
                r"(?=\s+(?:(?!" + _NOT_PLURAL + r")[a-z]{2,}s|people|children|men|women)\b)"),
     lambda m: f"{numbers.number(m.group('value'))} {_COUNT_SCALES[m.group('scale')]}"),
    (re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}(?![\w-])"), _speak_email),
    (re.compile(r"(?<![\w@.-])(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|ai|edu|gov|app|co\.uk)(?![\w-]|\.\w)"),
     _speak_url),
    (re.compile(r"(?<![\w$€£¥])(?P<sign>[-−])?(?P<symbol>[$€£¥])\s?(?P<whole>\d{1,3}(?:,\d{3})+|\d+)"
                r"(?P<fraction>\.\d+)?(?:\s?(?P<scale>" + _SCALE_WORDS + r"|[kKmMbB][nN]?)\b)?"),
     _speak_money),
    # a range of clock times: "2:00-3:30 p.m.", "2-3:15 pm"
    (re.compile(r"(?<=\d:\d\d)\s?[-–]\s?(?=\d{1,2}:\d\d)"), lambda m: " to "),
    (re.compile(r"(?<![\d:/.,-])(?P<hour>1[0-2]|[1-9])\s?[-–]\s?(?=(?:1[0-2]|0?[1-9]):[0-5]\d)"),
     lambda m: f"{m.group('hour')} to "),
    (re.compile(r"(?<![\d:])(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2}))?(?![\d:])"
                r"(?:\s?(?P<meridiem>" + _MERIDIEM + "))?" + _ZONE), _speak_time),
    # a ratio: what follows the colon is not a clock's two digits ("3:1", "16:9", "1:100")
    (re.compile(r"(?<![\w.:])(?P<left>\d{1,3}(?:\.\d{1,2})?):(?P<right>\d|\d{3,4})(?![\w:]|[.,]\d)"),
     lambda m: f"{numbers.number(m.group('left'))} to {numbers.number(m.group('right'))}"),
    (re.compile(r"(?<![\w.:])(?<!\d-)(?:(?P<from_hour>1[0-2]|0?[1-9])\s?[-–]\s?)?(?P<hour>1[0-2]|0?[1-9])\s?(?P<meridiem>"
                + _MERIDIEM + ")" + _ZONE), _speak_hour_meridiem),
    (re.compile(r"(?<![\d-])(\d{4})-(\d{1,2})-(\d{1,2})(?![\d-])"), _speak_iso_date),
    (re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\d/])"), _speak_slash_date),
    (re.compile(rf"\b(?P<first>{_WEEKDAY_ABBREVIATION})\.?\s?[-–]\s?(?P<last>{_WEEKDAY_ABBREVIATION})\b\.?"
                rf"|\b(?P<first_month>{_MONTH_ABBREVIATION})\.?\s?[-–]\s?(?P<last_month>{_MONTH_ABBREVIATION})\b\.?"),
     _speak_day_range),
    (re.compile(r"(?<![\w.,$€£¥-])(?P<start>1[5-9]\d\d|20\d\d)[-–](?P<end>1[5-9]\d\d|20\d\d|\d\d)(?![\w-]|[.,:]\d)"),
     _speak_year_range),
    (re.compile(rf"\b(?P<month>{_MONTH_NAME})\.?\s+(?P<day>[0-3]?\d)(?:st|nd|rd|th)?(?!\d|:)\b"
                r"(?:\s?[-–]\s?(?P<last_day>[0-3]?\d)(?:st|nd|rd|th)?(?!\d|[:.,]\d))?"
                r"(?:,?\s+(?P<year>\d{4})(?!\d))?"), _speak_month_day),
    (re.compile(rf"(?<![\w.])(?P<the>\b[Tt]he\s+)?(?P<day>[0-3]?\d)(?:st|nd|rd|th)?\s+(?:of\s+)?"
                rf"(?P<month>{_MONTH_NAME})\b"
                r"(?:,?\s+(?P<year>\d{4})(?!\d))?"), _speak_day_month),
    (re.compile(rf"\b(?P<month>{_MONTH_NAME})\.?\s+(?P<year>\d{{4}})(?!\d)"), _speak_month_year),
    (re.compile(r"\b(?P<word>[Ff]rom|[Bb]etween)\s+(?P<first>" + _YEAR + r")\s+(?P<conjunction>to|and|until|through|till)"
                r"\s+(?P<second>" + _YEAR + r")(?![\d,.]\d|\s?%)\b"), _speak_year_pair),
    (re.compile(r"(?:\b(?P<era_before>A\.D\.|AD)\s?(?P<year>\d{1,4})\b(?![.,]\d)"
                r"|(?<![\w.,])(?P<year_>\d{1,4})\s?(?P<era_after>B\.C\.E\.|B\.C\.|BCE|BC|C\.E\.|CE|A\.D\.|AD)(?!\w))"),
     _speak_era_year),
    (re.compile(r"\b(?P<word>[Ee])st\.\s+(?P<year>" + _YEAR + r")(?![\d,.]\d|\s?%)\b"),
     lambda m: f"{m.group('word')}stablished {numbers.year(int(m.group('year')))}"),  # "est. 1902"
    (re.compile(r"\b(?P<word>[Ii]n|[Ss]ince|[Bb]y|[Ff]rom|[Uu]ntil|[Tt]ill|[Oo]f|[Yy]ear|[Dd]uring|[Bb]efore"
                r"|[Aa]fter|[Aa]round|[Cc]irca|[Ii]nto|[Tt]hrough|[Tt]he|[Aa]n?|[Tt]his|[Tt]hat|[Hh]is|[Hh]er|[Ii]ts|[Oo]ur"
                r"|[Tt]heir|[Mm]y|[Yy]our)\s+(?P<year>1[1-9]\d\d|20\d\d)(?![\d,.]\d|\s?%)\b"),
     _speak_year_after_word),
    (re.compile(r"(?<![\w.])(?P<decade>1[1-9]\d0|20\d0)'?s\b"), _speak_decade),
    (re.compile(r"(?<![\w'])'(?P<tens>[2-9]0)s\b"), _speak_short_decade),
    (re.compile(r"(?<![\w/])24/7(?![\w/])"), lambda m: "twenty-four seven"),
    (re.compile(r"\b(?P<state>[A-Z]{2})\s(?P<zip>\d{5})(?:-(?P<plus4>\d{4}))?(?![\d-])"), _speak_zip),
    (re.compile(r"(?<=\d )(?P<direction>[NSEW]|[NS][EW])\.?(?=\s+(?:(?:[A-Z][\w']*|\d{1,3}(?:st|nd|rd|th))\s+){1,3}"
                + _STREET_TYPE + r"\b)"),  # "15 E. 72nd St.", "4200 N. Central Ave."
     lambda m: DIRECTIONS[m.group("direction")]),
    (re.compile(r"(?<![\w.,:/$€£¥#-])(?P<number>[1-9]\d{2,3})(?=\s+(?:[A-Z][\w']*\s+){1,3}" + _STREET_TYPE
                + r"\b)"), _speak_house_number),
    (re.compile(r"\b(?P<label>" + "|".join(map(re.escape, NUMBERED_PLACES)) + r") (?P<code>[A-Z][A-Z0-9] )?"
                r"(?P<number>[1-9]\d{2,3})(?![\w]|[.,:/-]\d)"),  # "Flight DL 1407": the airline's code, then pairs
     lambda m: f"{m.group('label')} {m.group('code') or ''}{numbers.in_pairs(int(m.group('number')))}"),
    (re.compile(r"(?<![\w+])\+(?:\d{1,3})(?:[\s.-]\d{1,4}){2,5}(?![\d])"), _speak_international_phone),
    (re.compile(r"(?<![\w+(-])(?P<country>1[\s.-])?(?:\((?P<area>\d{3})\)\s?|(?P<area_>\d{3})[\s.-])?"
                r"(?P<exchange>\d{3})-(?P<line>\d{4})(?![\d-])"), _speak_us_phone),
    (re.compile(r"(?<![\w.])(?:(?P<low>" + _NUM + r")\s?[-–]\s?)?(?P<sign>[-−])?(?P<value>" + _NUM + r")\s?%"),
     _speak_percent),
    # "3/4 in. thick": a fraction of an inch (the word "in" only with its period or a dimension after it)
    (re.compile(r"(?<![\w/.])(?P<num>\d{1,2})/(?P<den>\d{1,2})\s?(?P<noun>in)(?:\.(?=\s+[a-z])|(?=\s+(?:long|wide|"
                r"tall|deep|high|thick|across)\b))"), _speak_fraction_of_measure),
    (re.compile(r"(?<![\w.])(?P<first>" + _NUM + r")(?P<first_unit>\s?in\.?)?\s*(?:by|x|×)\s*(?P<second>" + _NUM
                + r")\s?in\b(?:\.(?=\s+[a-z]))?"), _speak_dimensions),
    (re.compile(r"(?<![\w.])(?:(?P<low>" + _NUM + r")\s?[-–]\s?)?(?P<value>" + _NUM + r")\s?in"
                r"(?:\.?(?=\s+(?:long|wide|tall|deep|high|thick|across)\b)|\.(?=\s+[a-z]))"), _speak_side_in_inches),
    (re.compile(r"(?:(?<![\w.,:])(?=0)|(?:(?<=\bat )|(?<=\bby )|(?<=\buntil )|(?<=\bbefore )|(?<=\bafter )"
                r"|(?<=\bfrom )))(?P<hour>[01]\d|2[0-3])(?P<minute>[0-5]\d)\s?(?:hours|hrs)\b"), _speak_military_time),
    (re.compile(r"(?<![\w.])(?P<feet>" + _NUM + r")\s?(?:ft|')\s?(?P<inches>\d{1,2}(?:\.\d+)?)\s?(?:in\b|\")"),
     _speak_feet_and_inches),
    # "2h 30m": a duration in hours and minutes
    (re.compile(r"(?<![\w.])(?P<hours>\d{1,2})\s?h\s?(?P<minutes>[0-5]?\d)\s?m\b"),
     lambda m: f"{numbers.number(m.group('hours'))} {_plural(m.group('hours'), 'hour', 'hours')} "
               f"{numbers.number(m.group('minutes'))} {_plural(m.group('minutes'), 'minute', 'minutes')}"),
    (re.compile(r"(?<![\w.'])(?P<sides>" + _NUM + r"(?P<mark>[\"'])(?:\s?[x×]\s?" + _NUM + r"(?P=mark)){1,2})"),
     _speak_marked_sides),  # 24"x18"x6", 12' x 14'
    # the foot mark: "6' tall", "a 6' fence"
    (re.compile(r"(?<![\w.'])(?P<value>" + _NUM + r")'(?=\s(?P<measure>tall|long|wide|high|deep|thick|across|away|"
                r"under|below|above|of)\b|\s[a-z]+\b)"), _speak_foot_mark),
    (re.compile(r"(?<![\w.'])(?P<value>" + _NUM + r")\"(?![\w\"])"), _speak_inch_mark),
    # a recipe's cup: "3/4 c. flour", "2 c. milk"
    (re.compile(r"(?<![\w/.])(?P<amount>\d{1,3}(?:\s\d{1,2}/\d{1,2})?|\d{1,2}/\d{1,2})\s[cC]\.(?=\s+[a-z])"),
     _speak_recipe_cup),
    (re.compile(r"(?<![\w/.])(?P<whole>\d{1,3})\s(?P<num>\d{1,2})/(?P<den>\d{1,2})(?![\w/])"
                r"(?:\s(?P<unit>" + _UNIT_ALTERNATION + r")" + _UNIT_END + ")?"), _speak_mixed_number),
    (re.compile(r"(?<![\w/.])(?P<num>\d{1,2})/(?P<den>\d{1,2})\s(?P<noun>" + "|".join(sorted(MEASURE_NOUNS))
                + "|" + _UNIT_ALTERNATION + r")(?![\w/])(?:\.(?=\s+[a-z]))?"), _speak_fraction_of_measure),
    (re.compile(r"(?<![\w.])(?P<sides>" + _NUM + r"(?:\s?[x×]\s?" + _NUM + r"){1,2})\s?(?P<unit>" + _UNIT_ALTERNATION
                + r")" + _UNIT_END), _speak_sides),
    (re.compile(r"(?<![\w./-])(?P<value>" + _NUM + r")-(?P<unit>" + _UNIT_ALTERNATION + r")" + _UNIT_END),
     _speak_compound_measure),
    (re.compile(r"(?<![\w./-])(?P<value>" + _NUM + r")-(?P<unit>in)\.?(?=\s+[a-z])"),  # "a 14-in. screen": inches
     _speak_compound_measure),
    (re.compile(r"(?<![\w./-])(?:(?P<low>" + _NUM + r")\s?[-–]\s?)?(?P<sign>[-−])?(?P<value>" + _NUM + r")(?P<more>\+)?"
                r"(?:\s(?P<scale>" + _SCALE_WORDS + r"))?\s?(?P<unit>" + _UNIT_ALTERNATION + r")" + _UNIT_END),
     _speak_unit),
    (re.compile(r"(?<![\w.])(?P<value>" + _INT + r")(?:st|nd|rd|th)\b"), _speak_ordinal),
    # "a 4x4 truck", "2x4 lumber", "1920x1080": sides, "by"
    (re.compile(r"(?<![\w.])(?P<first>\d{1,4})[x×](?P<second>\d{1,4})(?![\w.]|[,]\d)"),
     lambda m: f"{numbers.number(m.group('first'))} by {numbers.number(m.group('second'))}"),
    (re.compile(r"(?<![\w.])(?P<value>" + _NUM + r")x(?!\w)"), lambda m: f"{numbers.number(m.group('value'))} times"),
    # a range of dates: "8/15-8/16" (a day no fraction is written in, so not "1/2-3/4")
    (re.compile(r"(?<![\w/.-])(?P<m1>\d{1,2})/(?P<d1>\d{1,2})\s?[-–]\s?(?P<m2>\d{1,2})/(?P<d2>\d{1,2})(?![\w/])"),
     _speak_date_range),
    (re.compile(r"(?<![\w/.])(?P<num>\d{1,2})/(?P<den>\d{1,2})(?![\w/])"), _speak_fraction),
    (re.compile(r"(?<![\w.,:-])(?P<low>" + _NUM + r")\s?[-–]\s?(?P<high>" + _NUM + r")(?![\w-]|[.,:]\d)"),
     _speak_range),
    (re.compile(r"(?<![\w.])[-−](?P<value>" + _NUM + r")"), _speak_signed_number),
    (re.compile(r"(?<![\w])#(?P<tag>[A-Za-z]\w*)"), _speak_hashtag),
    *WORD_RULES,
    (re.compile(r"(?<![\d.,])" + _NUM + r"(?=[A-Z]\b)"), lambda m: numbers.number(m.group(0)) + " "),
    (re.compile(r"(?<![\d.,])" + _NUM), _speak_number),
    # Digits the number above could not start on ("1.2.3", "1,5,7"): read, never dropped.
    (re.compile(r"\.?\d+"), _speak_number),
    (re.compile("[" + re.escape("".join(SYMBOLS)) + "]"), lambda m: SYMBOLS[m.group(0)]),
)


_TRANSLATE = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2212": "−",
    "\u00a0": " ", "\t": " ", "\u2044": "/",
})


def _is_speakable(char: str) -> bool:
    if char.isspace() or char in _SPEAKABLE_PUNCTUATION:
        return True
    if not char.isalpha():
        return False
    return unicodedata.name(char, "").startswith("LATIN")


def _drop_unspeakable(text: str) -> Normalized:
    kept, dropped = [], []
    for char in text:
        if _is_speakable(char):
            kept.append(char)
        elif unicodedata.category(char) in ("Mn", "Cf"):
            continue  # combining marks and joiners: silently part of what they follow
        else:
            kept.append(" ")
            if char not in dropped:
                dropped.append(char)
    return Normalized("".join(kept), tuple(dropped))


def _tidy(text: str) -> str:
    text = re.sub(r"[ ]{2,}", " ", text)
    text = re.sub(r" +([,.!?;:])", r"\1", text)
    text = re.sub(r"(?<=[,;:])(?=[^\s\d\"'”’)])", " ", text)  # not before a closing quote
    return re.sub(r" *\n *", "\n", text).strip()


def normalize(text: str) -> Normalized:
    """Rewrite English text as the words a reader would say."""
    text = _compatibility_forms(text).translate(_TRANSLATE)
    text = _apply(RULES, text)
    result = _drop_unspeakable(text)
    return Normalized(_tidy(_apply(WORD_RULES, _tidy(result.text))), result.dropped)


_POWERS = re.compile("([²³])")


def _compatibility_forms(text: str) -> str:
    """NFKC (full-width digits and letters, ligatures, fractions like ½ to plain forms), except
    the superscript powers, which NFKC makes digits: "12 m²" is square meters, not "m two"."""
    return "".join(part if index % 2 else unicodedata.normalize("NFKC", part)
                   for index, part in enumerate(_POWERS.split(text)))


def _apply(rules: tuple[Rule, ...], text: str) -> str:
    for pattern, speak in rules:
        text = pattern.sub(lambda match, speak=speak: _apart(match, speak(match)), text)
    return text


def _apart(match: re.Match[str], spoken: str) -> str:
    """`spoken` with a space where it would touch a letter or digit beside the match:
    "mp3" is "mp three", not "mpthree"."""
    before = match.string[match.start() - 1:match.start()] if match.start() else ""
    after = match.string[match.end():match.end() + 1]
    if before.isalnum() and spoken[:1].isalnum():
        spoken = " " + spoken
    if after.isalnum() and spoken[-1:].isalnum():
        spoken += " "
    return spoken
