"""The audit log of cloned voices: who cloned, used, exported, imported or deleted which voice.

Append-only twice over: the database refuses to change or remove a row (triggers in both
stores), and each entry carries the SHA-256 of the previous entry's digest and its own
content, so an entry edited or removed behind the database's back breaks the chain at that
point (`verify`). Entries outlive the voices they name: deleting a voice adds an entry and
keeps the ones before it, its consent among them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

#: What is recorded. `use` is one API request that spoke with a cloned voice.
EVENTS = ("clone", "use", "export", "import", "delete")
GENESIS = "0" * 64


@dataclass(frozen=True)
class AuditEntry:
    seq: int
    at: float  # Unix time
    event: str
    voice: str
    actor: str  # who asked: "cli:<user>", "api:<key fingerprint>" or "api:<client address>"
    detail: dict
    digest: str

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_row(cls, row) -> AuditEntry:
        """An entry from a row of `COLUMNS` (detail as JSON text, or already decoded)."""
        seq, at, event, voice, actor, detail, digest = row
        return cls(seq, at, event, voice, actor, detail if isinstance(detail, dict) else json.loads(detail), digest)


#: The audit table's columns, in `AuditEntry`'s order (both stores select them so).
COLUMNS = "seq, at, event, voice, actor, detail, digest"


def chain_digest(previous: str, at: float, event: str, voice: str, actor: str, detail: dict) -> str:
    content = json.dumps([previous, repr(float(at)), event, voice, actor, detail], sort_keys=True,
                         ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(content.encode()).hexdigest()


def check_event(event: str) -> str:
    if event not in EVENTS:
        raise ValueError(f"unknown audit event {event!r}; one of {', '.join(EVENTS)}")
    return event


def verify(entries: list[AuditEntry]) -> int | None:
    """The sequence number of the first entry whose digest does not follow from the one
    before it (None: the whole chain holds). `entries` is the whole log, oldest first."""
    previous = GENESIS
    for entry in entries:
        if entry.digest != chain_digest(previous, entry.at, entry.event, entry.voice, entry.actor, entry.detail):
            return entry.seq
        previous = entry.digest
    return None


def key_fingerprint(key: str) -> str:
    """An API key as the log names it: enough to tell keys apart, never the key."""
    return hashlib.sha256(key.encode()).hexdigest()[:12]
