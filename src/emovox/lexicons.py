"""The user's own lexicon, kept in the emovox home (`lexicon.json`) and read by every engine
the composition root builds; `emovox lexicon add|rm|list|import` changes it."""

from __future__ import annotations

import json
from pathlib import Path

from emovox.frontend.lexicon import Entry, Lexicon
from emovox.paths import home_dir, written_atomically

FILE = "lexicon.json"


class LexiconStore:
    def __init__(self, home: Path | None = None) -> None:
        self.path = Path(home or home_dir()) / FILE

    def load(self) -> Lexicon:
        if not self.path.is_file():
            return Lexicon()
        return Lexicon.load(self.path)

    def save(self, lexicon: Lexicon) -> None:
        with written_atomically(self.path, durable=True) as partial:
            partial.write_text(json.dumps(lexicon.to_list(), indent=2, ensure_ascii=False) + "\n", "utf-8")

    def add(self, entries: list[Entry]) -> Lexicon:
        lexicon = self.load().with_entries(entries)
        self.save(lexicon)
        return lexicon

    def remove(self, text: str) -> Lexicon:
        lexicon = self.load().without(text)
        self.save(lexicon)
        return lexicon
