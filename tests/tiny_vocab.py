"""What the tiny voices read, apart from their graphs: the symbol table and the Kokoro-format
voice pack. Kept out of tiny_models.py so that a process which only loads voices already
built (tests/tiny_serve.py, the book writer a test kills) does not import onnx, a second and
a half of every such start."""

from __future__ import annotations

import numpy as np

#: The symbols espeak-ng's English IPA uses, plus the digits, letters and marks of pinyin.
IPA = ("abcdefghijklmnopqrstuvwxyzæçðøŋœɐɑɒɔɕəɘɚɛɜɝɞɟɡɣɤɥɨɪɬɭɯɰɲɳɴɵɸɹɺɻɽɾʀʁʂʃʈʉʊʋʌʍʎʏʐʑʒʔʕʝʰʲ"
       "ʷˈˌːˑ̃ᵻθχ ,.!?;:-'\"…—()")
#: Where tiny_models.kokoro_model writes the Kokoro-format graph, under the voices' folder.
KOKORO_MODEL = "kokoro/tiny-kokoro.onnx"


def kokoro_vocab() -> dict[str, int]:
    return {symbol: index + 1 for index, symbol in enumerate(dict.fromkeys(IPA))}


def kokoro_packs() -> dict[str, np.ndarray]:
    return {"af_kiko": np.random.default_rng(3).normal(0, 0.01, (510, 1, 256)).astype(np.float32)}
