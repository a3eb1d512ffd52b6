"""Free-text emotion prompts in English and Chinese -> an Emotion, with what produced it.

A deterministic lexicon parser. It reads words, not characters: English by longest match
over whole words and multiword expressions ("caught off guard", "at my wits' end"),
Chinese over jieba's words, so 语气 (tone of voice), 天气 and 客气 are never 生气 while
气 on its own is. The data is by class: single words (`lexicon.py`), English idioms and
situations (`phrases.py`), Chinese idioms (`idioms.py`), and body reactions in both
languages, a body word with what it does near it in the clause ("my jaw dropped", "heart
pounding", 腿都软了, 心情特别好).

Emotion words carry their own strength ("furious" > "annoyed"); degree words before them
("slightly", "very", 有点, 非常) or after them (死了, 极了, "to death", "scared stiff") scale
it. Negation reaches three words back and covers phrases and idioms too ("not over the
moon", 一点也不开心, 并不害怕, 没那么生气): a negated emotion is dropped, and a negated joy
alone means displeasure (sad, at half strength). "Not very", 不太 and 不怎么 are negations
too: 不太害怕 is calm, 不太高兴 displeased, never a weaker fear or joy, because that is how
they are meant when someone asks for a voice. Words the lexicon lacks are read by their
parts: an English inflection of a listed word ("cheerfully", "revolting"), the emotion
morphemes of an unlisted Chinese idiom (怒不可遏; fear outranks the 惊 of startle, so
胆战心惊 is fear), or an emotion verb with its result (吓坏, 气疯; 吓死 is stronger than
吓醒) or a face (愁容). "?!" alone is a weak surprise. Direct controls for rate, pitch and
volume ("faster", 大声) ride along.

The parse is linear in the prompt's length (no backtracking regexes, bounded windows) and
takes well under a millisecond once jieba's dictionary is loaded (on the first Chinese
prompt, about a second).
"""
from __future__ import annotations

import logging
import re
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from emovox.emotion import idioms, lexicon, phrases
from emovox.emotion.model import Emotion

if TYPE_CHECKING:
    from emovox.emotion.semantic import LazyFallback, SemanticFallback

__all__ = ["ParsedPrompt", "parse_prompt"]

_EMOTIONS = {**lexicon.EMOTION_WORDS, **phrases.PHRASES, **idioms.IDIOMS}
_NEUTRAL_CONTROLS = {"speed": 1.0, "pitch_st": 0.0, "energy_db": 0.0}
_NEGATION_REACH = 3  # words before an emotion word that a negation covers
_DEGREE_REACH = 2  # words before an emotion word that a degree word covers
_CLAUSE_MARKS = set(",，。.!！?？;；、:：")
_STARTLED_MARKS = {"?!", "!?", "？！", "！？"}  # a question in disbelief: a weak surprise
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
_LATIN_WORD = re.compile(r"[^\W\d_\u3400-\u9fff](?:[^\W\u3400-\u9fff]|['-])*")
_POSSESSIVES = re.compile(r"\b(?:your|his|her|their|our)\b")
#: (ending, replacement) tried on an unlisted English word to find a listed one: cheerfully -> cheerful
_SUFFIXES = (("ily", "y"), ("ly", ""), ("ness", ""), ("ing", "ed"), ("ing", ""), ("ied", "y"), ("ier", "y"),
             ("iest", "y"), ("er", ""), ("est", ""), ("ed", ""), ("s", ""))
_LEXICON = {*_EMOTIONS, *lexicon.DEGREE_WORDS, *lexicon.AFTER_DEGREE_WORDS, *lexicon.NEGATIONS, *lexicon.CONTROL_WORDS,
            *lexicon.FEELING_NOUNS}
_LONGEST = max(len(w) for w in _LEXICON)
_BODY_REACTIONS = {**phrases.BODY_REACTIONS, **idioms.BODY_REACTIONS}
_LONGEST_REACTION = max(len(r) for reactions in _BODY_REACTIONS.values() for r in reactions)


def _is_cjk(char: str) -> bool:
    return "\u3400" <= char <= "\u4dbf" or "\u4e00" <= char <= "\u9fff"


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


@dataclass(frozen=True)
class _Word:
    """One word of a prompt and what it means to the parser (None: nothing)."""

    text: str
    emotion: tuple[str, float] | None = None
    boundary: bool = False  # clause punctuation: degree words and negations stop here

    @property
    def degree(self) -> float | None:
        return lexicon.DEGREE_WORDS.get(self.text)

    @property
    def after_degree(self) -> float | None:
        return lexicon.AFTER_DEGREE_WORDS.get(self.text)

    @property
    def negation(self) -> bool:
        return self.text in lexicon.NEGATIONS

    @property
    def control(self) -> tuple[str, float] | None:
        return lexicon.CONTROL_WORDS.get(self.text)


_BOUNDARY = _Word("|", boundary=True)


def _known(text: str) -> _Word:
    return _Word(text, _EMOTIONS.get(text))


def _words(prompt: str) -> list[_Word]:
    """The prompt as words: Latin text by longest lexicon match, Chinese runs by jieba's words."""
    text = _POSSESSIVES.sub("my", prompt.lower().replace("’", "'"))
    words: list[_Word] = []
    position = 0
    while position < len(text):
        char = text[position]
        if _is_cjk(char):
            run = _CJK_RUN.match(text, position).group(0)
            words.extend(_chinese_words(run))
            position += len(run)
        elif char.isalpha():
            word, position = _latin_word(text, position)
            words.append(word)
        else:
            if text[position:position + 2] in _STARTLED_MARKS:  # "wait, what?!"
                words.append(_Word(text[position:position + 2], ("surprised", lexicon.WEAK)))
            if char in _CLAUSE_MARKS and words and not words[-1].boundary:
                words.append(_BOUNDARY)
            position += 1
    return _with_body_reactions(words)


def _with_body_reactions(words: list[_Word]) -> list[_Word]:
    """A body word read with a reaction near it in its clause ("my heart was pounding", "jaw
    dropped", "knees shaking") becomes one emotion word, put where the later of the two
    stands so that a negation or degree word before either reaches it; the two words' own
    emotions, if any ("shaking"), give way to the pair's."""
    for index, word in enumerate(words):
        reactions = _BODY_REACTIONS.get(phrases.BODY_PLURALS.get(word.text, word.text))
        if reactions is None:
            continue
        for distance in range(1, phrases.BODY_REACH + 1):
            partner = next((other for other in (index + distance, index - distance) if 0 <= other < len(words)
                            and not _boundary_between(words, index, other)
                            and _reaction(words[other].text, reactions)), None)
            if partner is not None:
                emotion = _reaction(words[partner].text, reactions)
                first, last = sorted((index, partner))
                words[first] = _Word(words[first].text)
                words[last] = _Word(f"{words[first].text} {words[last].text}", (emotion, lexicon.PLAIN))
                break
    return words


def _boundary_between(words: list[_Word], a: int, b: int) -> bool:
    return any(w.boundary for w in words[min(a, b):max(a, b) + 1])


def _reaction(word: str, reactions: dict[str, str]) -> str | None:
    """The emotion of `word` as one of `reactions`: English in any tense (dropped, racing ->
    drop, race), Chinese with fillers after it (酸酸的 -> 酸, 糟透了 -> 糟)."""
    if word in reactions:
        return reactions[word]
    if _is_cjk(word[:1]):
        for end in range(min(len(word) - 1, _LONGEST_REACTION), 0, -1):
            if word[:end] in reactions and all(c in idioms.REACTION_FILLERS or c == word[end - 1] for c in word[end:]):
                return reactions[word[:end]]
        return None
    for suffix in ("ing", "ed", "es", "s", "y"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            base = word[: -len(suffix)]
            for stem in (base, base + "e", base[:-1] if base[-1] == base[-2] else base):
                if stem in reactions:
                    return reactions[stem]
    return None


def _latin_word(text: str, position: int) -> tuple[_Word, int]:
    """The longest lexicon entry that starts here and ends at a word's end, else the plain word."""
    for length in range(min(_LONGEST, len(text) - position), 0, -1):
        end = position + length
        candidate = text[position:end]
        at_word_end = end == len(text) or not (text[end].isalpha() or text[end] == "'")
        if at_word_end and candidate in _LEXICON:
            return _known(candidate), end
    plain = _LATIN_WORD.match(text, position).group(0)
    return _Word(plain, _inflected(plain.rstrip("'-"))), position + len(plain)


def _inflected(word: str) -> tuple[str, float] | None:
    """The emotion of an inflection of a listed word: cheerfully, revolting, grumpier."""
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            stem = word[: -len(suffix)] + replacement
            for candidate in (stem, stem + "e", stem[:-1] if stem[-1:] == stem[-2:-1] else stem):
                if candidate in lexicon.EMOTION_WORDS:
                    return lexicon.EMOTION_WORDS[candidate]
    return None


def _chinese_words(run: str) -> list[_Word]:
    """A run of hanzi as words. A lexicon entry counts only where it starts and ends on jieba's
    word boundaries (so 气 inside 语气 is not a word); a jieba word the lexicon lacks is read
    by its parts (`_inside_word`)."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    pieces = jieba.lcut(run, HMM=False)
    next_boundary, offset = {}, 0  # word start -> the next word's start
    for piece in pieces:
        next_boundary[offset] = offset + len(piece)
        offset += len(piece)
    boundaries = {*next_boundary, len(run)}
    words, position = [], 0
    while position < len(run):
        end = next((position + n for n in range(min(_LONGEST, len(run) - position), 0, -1)
                    if position + n in boundaries and run[position:position + n] in _LEXICON), None)
        if end is None:
            end = next_boundary[position]
            piece = run[position:end]
            words.extend(_inside_word(piece))
        else:
            words.append(_known(run[position:end]))
        position = end
    return words


def _inside_word(piece: str) -> list[_Word]:
    """A jieba word the lexicon lacks, by its parts: listed words of two characters or more
    and single-character degree words and negations (心情愉快 -> 愉快, 太高兴 -> 太 高兴), an
    emotion verb with its result (气死我了 -> 气死); failing those, an idiom's morphemes. Single
    emotion characters are not read here: 气 inside 语气 or 天气预报 is not anger."""
    parts, position, found = [], 0, False
    while position < len(piece):
        length = next((n for n in range(min(_LONGEST, len(piece) - position), 0, -1)
                       if _readable_inside(piece[position:position + n])), 0)
        compound = _two_character_compound(piece[position:position + 2])
        if length:
            parts.append(_known(piece[position:position + length]))
        elif compound:
            parts.append(_Word(piece[position:position + 2], compound))
            length = 2
        else:
            parts.append(_Word(piece[position]))
            length = 1
        found = found or parts[-1].emotion is not None
        position += length
    return parts if found else [_Word(piece, _idiom_by_morphemes(piece))]


def _readable_inside(part: str) -> bool:
    return part in _LEXICON and (len(part) > 1 or part in lexicon.DEGREE_WORDS or part in lexicon.NEGATIONS)


def _two_character_compound(piece: str) -> tuple[str, float] | None:
    """An unlisted emotion verb with its result (吓坏, 气疯) or emotion with its face (愁容)."""
    if len(piece) != 2:
        return None
    if piece[0] in idioms.EMOTION_VERBS and piece[1] in idioms.VERB_RESULTS:
        return idioms.EMOTION_VERBS[piece[0]], min(1.0, lexicon.PLAIN * idioms.VERB_RESULTS[piece[1]])
    if piece[0] in idioms.IDIOM_MORPHEMES and piece[1] in idioms.FACE_NOUNS:
        return idioms.IDIOM_MORPHEMES[piece[0]], lexicon.PLAIN
    return None


def _idiom_by_morphemes(piece: str) -> tuple[str, float] | None:
    """An unlisted idiom (three characters or more) by the emotion its morphemes vote for: sure
    morphemes anywhere, unsure ones only in a four-character word; fear outranks startle. A
    two-character word counts only when both are sure morphemes (惊骇, 悲愤)."""
    if len(piece) < 2 or (len(piece) == 2 and not all(c in idioms.IDIOM_MORPHEMES for c in piece)):
        return None
    votes: dict[str, float] = {}
    for index, char in enumerate(piece):
        emotion = idioms.IDIOM_MORPHEMES.get(char) or (idioms.UNSURE_MORPHEMES.get(char) if len(piece) == 4 else None)
        if emotion == "happy" and index and piece[index - 1] in idioms.JOY_NEGATORS:
            emotion = "sad"
        if emotion:
            votes[emotion] = votes.get(emotion, 0) + 1
    for emotion, outranked in idioms.OUTRANKS.items():
        if emotion in votes:
            for other in outranked:
                votes.pop(other, None)
    if not votes:
        return None
    ranked = sorted(votes.values(), reverse=True)
    if len(ranked) > 1 and ranked[0] == ranked[1]:
        return None  # 悲喜交加: no one emotion
    return max(votes, key=votes.get), lexicon.PLAIN


def _clause_before(words: list[_Word], index: int, reach: int) -> list[_Word]:
    window = words[max(0, index - reach):index]
    for back, word in enumerate(reversed(window)):
        if word.boundary:
            return window[len(window) - back:]
    return window


def _clause_after(words: list[_Word], index: int, reach: int) -> list[_Word]:
    window = words[index + 1:index + 1 + reach]
    for ahead, word in enumerate(window):
        if word.boundary:
            return window[:ahead]
    return window


def _degree(words: list[_Word], index: int) -> float:
    degree = 1.0
    for word in _clause_before(words, index, _DEGREE_REACH):
        degree *= word.degree or 1.0
    for word in _clause_after(words, index, 2):
        if word.emotion:
            break
        degree *= word.after_degree or 1.0
    return degree


def parse_prompt(prompt: str, fallback: SemanticFallback | LazyFallback | None = None) -> ParsedPrompt:
    """Resolve a free-text style prompt; an unrecognized prompt gives neutral with a warning.

    `fallback` (optional, emovox[prompts]) names the emotion of a prompt in which the lexicon
    finds no emotion word, negation or control, by the nearest lexicon entries in meaning; a
    prompt near none of them is still not understood. It is not consulted otherwise, so a
    `LazyFallback` loads only for the first prompt that needs it."""
    words = _words(prompt)
    best: tuple[float, str, float] | None = None
    negated_joy: tuple[str, float] | None = None
    controls: dict[str, float] = {}
    matched: list[str] = []
    notes: list[str] = []
    negated_count = 0
    for index, word in enumerate(words):
        negated = any(w.negation for w in _clause_before(words, index, _NEGATION_REACH))
        if word.control:
            field_name, value = word.control
            controls[field_name] = _scale_control(field_name, value, _degree(words, index))
            matched.append(word.text)
        elif word.text in lexicon.FEELING_NOUNS and negated:  # "no emotion", 不带感情
            matched.append(f"no {word.text}")
            best = best or (0.01, "neutral", 0.0)
        elif word.emotion:
            emotion, strength = word.emotion
            if negated:
                matched.append(f"not {word.text}")
                notes.append(f"{word.text!r} is negated, so it is not used")
                negated_count += 1
                negated_joy = lexicon.NEGATED_AS.get(emotion)
                continue
            intensity = min(1.0, strength * _degree(words, index))
            shown = [w.text for w in _clause_before(words, index, _DEGREE_REACH) if w.degree] + [word.text]
            shown += [w.text for w in _clause_after(words, index, 2) if w.after_degree and not w.emotion]
            matched.append(" ".join(shown))
            score = intensity if emotion != "neutral" else 0.01
            if best is None or score > best[0]:
                best = (score, emotion, intensity)
    if best is None and negated_joy and negated_count == 1:
        best = (negated_joy[1], *negated_joy)
        notes.append(f"a negated joy reads as {negated_joy[0]}")
    understood = best is not None or negated_count or controls
    near = fallback.match(prompt) if not understood and fallback is not None else None
    if near is not None:
        best = (lexicon.PLAIN, near.emotion, lexicon.PLAIN)
        matched.append(f"~{near.nearest[0]}")
        notes.append(f"no listed emotion words; nearest in meaning: {', '.join(near.nearest)}")
    if best is None and not controls:
        if negated_count:
            return ParsedPrompt(Emotion("neutral", 0.0), tuple(matched), True, tuple(notes))
        warnings.warn(f"prompt {prompt!r} was not understood; speaking neutrally", stacklevel=2)
        return ParsedPrompt(Emotion("neutral", 0.0), (), False, (f"no emotion words in {prompt!r}",))
    name, intensity = ("neutral", 0.0) if best is None else (best[1], best[2])
    if name == "neutral":
        intensity = 0.0
    emotion = Emotion(name, round(intensity, 3), **controls)
    return ParsedPrompt(emotion, tuple(matched), True, tuple(notes))


def _scale_control(field_name: str, value: float, degree: float) -> float:
    neutral = _NEUTRAL_CONTROLS[field_name]
    if field_name == "speed":
        return round(value ** min(degree, 2.0), 3)
    return round(neutral + value * min(degree, 2.0), 3)
