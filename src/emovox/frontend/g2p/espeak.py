"""espeak-ng through ctypes: text to IPA, punctuation kept.

espeak-ng is a process-wide C library with one current voice, so one lock guards every call
and the voice is set on each call instead of being left as global configuration.
The library and its data come from the `espeakng-loader` package.
"""

from __future__ import annotations

import ctypes
import re
import threading
from functools import cache

import numpy as np

from emovox.errors import ModelAssetError

_AUDIO_OUTPUT_SYNCHRONOUS = 0x02
_CHARS_UTF8 = 1
_PHONEMES_IPA = 0x02
_PHONEMES_TRACE = 0x08
#: How espeak's translation trace reports a word its dictionary holds.
_DICTIONARY_HIT = re.compile(r"^Found: '([^']+)'", re.MULTILINE)

#: Punctuation the models have symbols for; espeak drops it, so it is split off and re-attached.
PUNCTUATION = ",.!?;:—…"
_PUNCTUATION_RUN = re.compile(r"\s*([" + re.escape(PUNCTUATION) + r"]+)\s*")
_LANGUAGE_SWITCH = re.compile(r"\([a-z]{2,3}(?:-[a-z0-9]+)?\)")

_lock = threading.Lock()
_loading = threading.Lock()


class Espeak:
    """One loaded espeak-ng library; obtain it with `Espeak.shared()`."""

    def __init__(self, library_path: str, data_path: str) -> None:
        try:
            lib = ctypes.cdll.LoadLibrary(library_path)
        except OSError as e:
            raise ModelAssetError(
                f"cannot load espeak-ng from {library_path}: {e}; reinstall it with "
                "`pip install --force-reinstall espeakng-loader`"
            ) from e
        lib.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        lib.espeak_SetVoiceByName.argtypes = [ctypes.c_char_p]
        lib.espeak_TextToPhonemes.restype = ctypes.c_char_p
        lib.espeak_TextToPhonemes.argtypes = [ctypes.POINTER(ctypes.c_char_p), ctypes.c_int, ctypes.c_int]
        lib.espeak_SetPhonemeTrace.argtypes = [ctypes.c_int, ctypes.c_void_p]
        self.sample_rate = lib.espeak_Initialize(_AUDIO_OUTPUT_SYNCHRONOUS, 0, data_path.encode(), 0)
        if self.sample_rate <= 0:
            raise ModelAssetError(f"espeak-ng could not read its data at {data_path}")
        self._lib = lib

    @staticmethod
    def shared() -> Espeak:
        """The process's espeak-ng (the C library can only be initialized once per process:
        two threads whose first sentences arrived together both initialized it, and the
        process died in espeak_Initialize, hence the lock around the first call)."""
        with _loading:
            return _load()

    def _use_voice(self, name: str) -> None:
        """Make `name` the library's current voice (call with the lock held)."""
        if self._lib.espeak_SetVoiceByName(name.encode()) != 0:
            raise ModelAssetError(f"espeak-ng has no voice {name!r}")

    def _clauses(self, text: str) -> list[str]:
        pointer = ctypes.pointer(ctypes.c_char_p(text.encode("utf-8")))
        clauses = []
        while pointer.contents.value:
            result = self._lib.espeak_TextToPhonemes(pointer, _CHARS_UTF8, _PHONEMES_IPA)
            if result:
                clauses.append(result.decode("utf-8", errors="ignore").strip())
        return clauses

    def known_words(self, text: str, language: str = "en-us") -> set[str]:
        """The words of `text` espeak-ng reads from its dictionary rather than by its spelling
        rules (lower case), from its translation trace."""
        libc = _libc()
        buffer, size = ctypes.c_char_p(), ctypes.c_size_t()
        stream = libc.open_memstream(ctypes.byref(buffer), ctypes.byref(size))
        if not stream:
            raise MemoryError("open_memstream failed")
        try:
            with _lock:
                self._use_voice(language)
                self._lib.espeak_SetPhonemeTrace(_PHONEMES_IPA | _PHONEMES_TRACE, stream)
                try:
                    self._clauses(text)
                finally:
                    self._lib.espeak_SetPhonemeTrace(_PHONEMES_IPA, None)
        finally:
            libc.fclose(stream)
        try:
            trace = ctypes.string_at(buffer, size.value).decode("utf-8", errors="ignore")
        finally:
            libc.free(buffer)
        return set(_DICTIONARY_HIT.findall(trace))

    def speak(self, text: str, voice: str = "en-us") -> np.ndarray:
        """espeak-ng's own formant speech for `text` (int16 -> float32 at `sample_rate`).

        Used as a distinct synthetic speaker (e.g. "en-us+m3", "en+f4") in cloning benchmarks."""
        chunks: list[np.ndarray] = []
        callback_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.c_void_p)

        def collect(wav, count, _events):
            if count > 0:
                chunks.append(np.ctypeslib.as_array(wav, shape=(count,)).copy())
            return 0

        callback = callback_type(collect)
        data = text.encode("utf-8") + b"\0"
        with _lock:
            self._use_voice(voice)
            self._lib.espeak_SetSynthCallback(callback)
            self._lib.espeak_Synth(data, ctypes.c_size_t(len(data)), 0, 0, 0, _CHARS_UTF8, None, None)
            self._lib.espeak_Synchronize()
        return (np.concatenate(chunks) if chunks else np.zeros(0, np.int16)).astype(np.float32) / 32768.0

    def phonemize(self, text: str, language: str = "en-us") -> str:
        """IPA for `text`, with the punctuation of the input kept in place."""
        pieces = _PUNCTUATION_RUN.split(text)
        out: list[str] = []
        with _lock:
            self._use_voice(language)
            for index, piece in enumerate(pieces):
                if index % 2:  # a punctuation run
                    out.append(piece)
                elif piece.strip():
                    out.append(" " + " ".join(self._clauses(piece)))
        phonemes = _LANGUAGE_SWITCH.sub("", "".join(out))
        return re.sub(r"\s+", " ", phonemes).strip()


@cache
def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None)
    libc.open_memstream.restype = ctypes.c_void_p
    libc.open_memstream.argtypes = [ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_size_t)]
    libc.fclose.argtypes = [ctypes.c_void_p]
    libc.free.argtypes = [ctypes.c_void_p]
    return libc


@cache
def _load() -> Espeak:
    import espeakng_loader

    return Espeak(espeakng_loader.get_library_path(), espeakng_loader.get_data_path())
