"""Word-final stops held a little longer, so joe is heard saying the ends of his words.

joe (Piper VITS) closes a word-final stop and releases it within a frame or so, and Whisper
then hears the word without it: "reached" as "reach", "made" as "may", "the used piano" as
"the use piano", "built" as "build", "the lamp costs" as "the lab cost". A few more frames on
each word-final t, d, k, p, b or ɡ, added to the durations his own duration predictor gave,
make the closure and release audible. Whisper tiny.en WER over the 382 sentences of our
English corpora (benchmarks/README.md, "joe's word-final stops"): 6.33 % as the model times
them, 5.96 % with one frame more, 6.05 % with one frame only before a consonant, 5.80 % with
two frames (23 ms) more.

The frames are an input of the timed model (vits.py `timed_model` adds them to the model's
durations before it expands the text into frames), so the whole graph, a batch and the
streamed windows all speak alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

STOPS = frozenset("tdkpbɡ")
#: Symbols that may stand between a stop and the boundary that ends its word: Piper's pad
#: after every phoneme, and stress and length marks.
_TRANSPARENT = frozenset("_ˈˌː")
#: What ends a word: a space, punctuation, or the end symbol.
_WORD_ENDS = frozenset(" ,.!?;:—…$")


def extra_frames(ids: Sequence[int], symbol_of: Mapping[int, str], frames: int) -> np.ndarray:
    """For each id, the frames added to its duration: `frames` on a word-final stop, else 0."""
    extra = np.zeros(len(ids), np.float32)
    if frames <= 0:
        return extra
    following = ""  # the nearest symbol after this id that is not transparent
    for index in range(len(ids) - 1, -1, -1):
        symbol = symbol_of.get(ids[index], "")
        if symbol in STOPS and following in _WORD_ENDS:
            extra[index] = frames
        if symbol not in _TRANSPARENT:
            following = symbol
    return extra
