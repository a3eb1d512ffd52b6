"""Pronunciation lexicons: how a word or phrase is read, by the user's say.

An entry maps a word or phrase as written to one of

- `ipa`: the IPA an English voice reads instead of espeak's ("Garcia" -> "ɡɑɹsˈiːə");
- `pinyin`: tone-numbered syllables a Chinese voice reads, one per character, as spoken
  (after sandhi: "银行" -> "yin2 hang2");
- `alias`: other words to read instead ("SQL" -> "sequel", "Dr. Who" -> "Doctor Who").

Where each applies: aliases replace the text before normalization, so an alias is read as
any text is (it may hold numbers); IPA and pinyin entries are matched in the normalized text
at G2P, so they match the words as spoken ("Dr." is "Doctor" by then). Case: an entry
written all in lower case matches any case ("nice" matches "Nice"); one with a capital
letter matches only as written ("SQL" leaves "sql" alone). Entries match whole words;
longer entries win over shorter ones they overlap.

Files: JSON or YAML, either a mapping `{"SQL": "sequel", "Garcia": {"ipa": "..."}}` (a bare
string is an alias, unless it is tone-numbered pinyin) or a list of
`{"text": ..., "ipa"|"pinyin"|"alias": ...}`; or a W3C PLS document (`<lexeme>` with
`<grapheme>` and `<phoneme>` or `<alias>`).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from emovox.errors import InvalidOptionError

KINDS = ("ipa", "pinyin", "alias")
MAX_ENTRIES = 10_000
_PINYIN = re.compile(r"[a-zü]+[1-5](?: [a-zü]+[1-5])*")
_HANZI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


class LexiconError(InvalidOptionError):
    """A lexicon file or entry that cannot be used; the message says which and why."""

    param = "lexicon"


@dataclass(frozen=True)
class Entry:
    text: str
    say: str
    kind: str

    def __post_init__(self) -> None:
        if not self.text.strip() or not self.say.strip():
            raise LexiconError(f"lexicon entry {self.text!r} -> {self.say!r}: both sides need text")
        if self.kind not in KINDS:
            raise LexiconError(f"lexicon entry {self.text!r}: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.kind == "pinyin":
            if not _PINYIN.fullmatch(self.say):
                raise LexiconError(f"lexicon entry {self.text!r}: {self.say!r} is not pinyin with tone numbers, "
                                   "e.g. 'yin2 hang2'")
            if len(self.say.split()) != len(_HANZI.findall(self.text)):
                raise LexiconError(f"lexicon entry {self.text!r}: give one syllable per character "
                                   f"({len(_HANZI.findall(self.text))} characters, {len(self.say.split())} syllables)")

    @property
    def case_sensitive(self) -> bool:
        return any(ch.isupper() for ch in self.text)

    def to_dict(self) -> dict:
        return {"text": self.text, self.kind: self.say}


@dataclass(frozen=True)
class Match:
    start: int
    end: int
    entry: Entry


@dataclass(frozen=True)
class Lexicon:
    entries: tuple[Entry, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.entries)

    def with_entries(self, entries: Iterable[Entry]) -> Lexicon:
        """This lexicon with `entries` added; an entry for the same text replaces the old one."""
        new = list(entries)
        replaced = {e.text for e in new}
        merged = [e for e in self.entries if e.text not in replaced] + new
        if len(merged) > MAX_ENTRIES:
            raise LexiconError(f"a lexicon holds at most {MAX_ENTRIES} entries")
        return Lexicon(tuple(merged))

    def without(self, text: str) -> Lexicon:
        if all(e.text != text for e in self.entries):
            raise LexiconError(f"no lexicon entry for {text!r}")
        return Lexicon(tuple(e for e in self.entries if e.text != text))

    def matches(self, text: str, kinds: tuple[str, ...]) -> list[Match]:
        """Non-overlapping whole-word matches of entries of `kinds`, longest first, in order."""
        found: list[Match] = []
        taken = [False] * len(text)
        for entry in sorted((e for e in self.entries if e.kind in kinds), key=lambda e: -len(e.text)):
            for hit in self._patterns[entry].finditer(text):
                if not any(taken[hit.start():hit.end()]):
                    found.append(Match(hit.start(), hit.end(), entry))
                    taken[hit.start():hit.end()] = [True] * (hit.end() - hit.start())
        return sorted(found, key=lambda m: m.start)

    def with_aliases(self, text: str) -> str:
        """`text` with every alias entry replaced by what it says."""
        pieces, position = [], 0
        for match in self.matches(text, ("alias",)):
            pieces += [text[position:match.start], match.entry.say]
            position = match.end
        return "".join(pieces) + text[position:]

    def split(self, text: str, kind: str) -> Iterator[tuple[str, Entry | None]]:
        """`text` in pieces: the stretches an entry of `kind` reads, and those between."""
        position = 0
        for match in self.matches(text, (kind,)):
            if match.start > position:
                yield text[position:match.start], None
            yield text[match.start:match.end], match.entry
            position = match.end
        if position < len(text):
            yield text[position:], None

    @cached_property
    def _patterns(self) -> dict[Entry, re.Pattern]:
        def pattern(entry: Entry) -> re.Pattern:
            body = re.escape(entry.text)
            if not _HANZI.search(entry.text):  # Chinese has no spaces between words
                body = rf"(?<![\w]){body}(?![\w])"
            return re.compile(body, 0 if entry.case_sensitive else re.IGNORECASE)

        return {entry: pattern(entry) for entry in self.entries}

    def to_list(self) -> list[dict]:
        return [entry.to_dict() for entry in self.entries]

    # -- reading ---------------------------------------------------------------------------

    @classmethod
    def from_data(cls, data) -> Lexicon:
        """From a parsed JSON/YAML value: a mapping or a list of entries."""
        if isinstance(data, dict):
            items = [{"text": text, **(value if isinstance(value, dict) else {"say": value})}
                     for text, value in data.items()]
        elif isinstance(data, list):
            items = data
        else:
            raise LexiconError("a lexicon is a mapping of text to pronunciation, or a list of entries")
        return Lexicon().with_entries(_entry(item) for item in items)

    @classmethod
    def load(cls, path: Path) -> Lexicon:
        path = Path(path)
        try:
            raw = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise LexiconError(f"cannot read the lexicon {path}: {e}") from None
        if path.suffix.lower() in (".pls", ".xml") or raw.lstrip().startswith("<"):
            return cls.from_pls(raw)
        if path.suffix.lower() in (".yaml", ".yml"):
            import yaml

            try:
                data = yaml.safe_load(raw)
            except yaml.YAMLError as e:
                raise LexiconError(f"{path} is not valid YAML: {e}") from None
        else:
            try:
                data = json.loads(raw)
            except ValueError as e:
                raise LexiconError(f"{path} is not valid JSON: {e}") from None
        return cls.from_data(data)

    @classmethod
    def from_pls(cls, document: str) -> Lexicon:
        """W3C Pronunciation Lexicon Specification 1.0: `<lexeme>`s of graphemes with a phoneme
        (IPA, or pinyin where the alphabet says so) or an alias."""
        if len(document) > 5 * 2**20:
            raise LexiconError("the PLS document is over 5 MB")
        try:
            root = ElementTree.fromstring(document)
        except ElementTree.ParseError as e:
            raise LexiconError(f"the PLS document is not well-formed XML ({e})") from None
        alphabet = root.get("alphabet", "ipa").lower()
        entries = []
        for lexeme in root.iter():
            if not lexeme.tag.endswith("lexeme"):
                continue
            graphemes = [g.text.strip() for g in lexeme if g.tag.endswith("grapheme") and g.text]
            phonemes = [p.text.strip() for p in lexeme if p.tag.endswith("phoneme") and p.text]
            aliases = [a.text.strip() for a in lexeme if a.tag.endswith("alias") and a.text]
            for grapheme in graphemes:
                if phonemes:
                    kind = "pinyin" if "pinyin" in alphabet or _PINYIN.fullmatch(phonemes[0]) else "ipa"
                    entries.append(Entry(grapheme, phonemes[0], kind))
                elif aliases:
                    entries.append(Entry(grapheme, aliases[0], "alias"))
        return Lexicon().with_entries(entries)


def _entry(item) -> Entry:
    if not isinstance(item, dict) or not isinstance(item.get("text"), str):
        raise LexiconError(f"lexicon entry {item!r}: give 'text' and one of {', '.join(KINDS)}")
    given = [kind for kind in KINDS if kind in item]
    if len(given) > 1:
        raise LexiconError(f"lexicon entry {item['text']!r}: give only one of {', '.join(KINDS)}")
    if given:
        kind, say = given[0], item[given[0]]
    elif "say" in item:
        say = item["say"]
        kind = "pinyin" if isinstance(say, str) and _PINYIN.fullmatch(say) and _HANZI.search(item["text"]) \
            else "alias"
    else:
        raise LexiconError(f"lexicon entry {item['text']!r}: give one of {', '.join(KINDS)}")
    if not isinstance(say, str):
        raise LexiconError(f"lexicon entry {item['text']!r}: the pronunciation must be text")
    return Entry(item["text"], say, kind)
