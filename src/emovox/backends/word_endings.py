"""Word-final stops and nasals held a little longer, so joe is heard saying the ends of his words.

joe (Piper VITS) closes a word-final stop and releases it within a frame or so, and Whisper
then hears the word without it: "reached" as "reach", "made" as "may", "the used piano" as
"the use piano", "built" as "build", "the lab cost" for "the lamp costs"; his word-final nasals
gain the same way. Two more frames (23 ms) on
each word-final t, d, k, p, b, ɡ, n, m or ŋ, added to the durations his own duration predictor
gave, make them audible. Whisper tiny.en WER, joe (benchmarks/README.md, "joe's word
endings"): over the 382 sentences of our English corpora, 6.33 % as the model times them,
5.80 % with the stops two frames longer, 5.43 % with the nasals too; over 200 held-out
sentences, 6.68 %, 6.39 % and 6.10 %.

The frames are an input of the timed model (vits.py `timed_model` adds them to the model's
durations before it expands the text into frames), so the whole graph, a batch and the
streamed windows all speak alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

#: Held longer at the end of a word: the stops and the nasals.
HELD = frozenset("tdkpbɡnmŋ")
#: Symbols that may stand between a held symbol and the boundary that ends its word: Piper's pad
#: after every phoneme, and stress and length marks.
_TRANSPARENT = frozenset("_ˈˌː")
#: What ends a word: a space, punctuation, or the end symbol.
_WORD_ENDS = frozenset(" ,.!?;:—…$")


def extra_frames(ids: Sequence[int], symbol_of: Mapping[int, str], frames: int) -> np.ndarray:
    """For each id, the frames added to its duration: `frames` on a word-final stop or nasal, else 0."""
    extra = np.zeros(len(ids), np.float32)
    if frames <= 0:
        return extra
    following = ""  # the nearest symbol after this id that is not transparent
    for index in range(len(ids) - 1, -1, -1):
        symbol = symbol_of.get(ids[index], "")
        if symbol in HELD and following in _WORD_ENDS:
            extra[index] = frames
        if symbol not in _TRANSPARENT:
            following = symbol
    return extra
