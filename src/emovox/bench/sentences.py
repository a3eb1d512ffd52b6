"""Sentences no request has used before, for measuring synthesis rather than caches.

Made from templates (who, did what, when, why), so a run can take a new one for every
request, in three lengths: short (under 30 characters), medium (30-100) and long (100-200).
"""

from __future__ import annotations

import itertools
import random

BUCKETS = {"short (<30)": (10, 30), "medium (30-100)": (30, 100), "long (100-200)": (100, 201)}
_WHO = ["The bus", "Our neighbour", "A tired waiter", "The new manager", "My cousin", "The night nurse",
        "Every student", "The old ferry", "Her brother", "The delivery van", "A stray cat", "The choir"]
_DID = ["left early", "came back late", "forgot the keys", "found a wallet", "missed the train",
        "painted the fence", "sang all evening", "fixed the radio", "lost the match", "won a prize"]
_WHEN = ["on Monday", "after lunch", "before the storm", "last winter", "in the morning", "at dawn",
         "during the fair", "near the station", "by the river", "this weekend"]
_NAMES = ["Anna", "Tom", "Maria", "Kenji", "Priya", "Omar", "Lena", "Jack", "Sofia", "Ravi"]
_SHORT = ["smiled", "waved back", "called twice", "said hello", "agreed at once", "came home", "laughed",
          "slept well", "paid later", "won again"]
_GREETINGS = ["Good morning", "Hello there", "Welcome back", "Good night", "Thank you", "See you soon",
              "Happy birthday", "Well done"]
_WHY = ["because the roads were flooded", "although nobody had asked", "while the others were asleep",
        "so that the children could rest", "since the shop was closing", "and then told everyone about it",
        "even though it was raining hard", "which surprised the whole street"]


def fresh_sentences(seed: int) -> dict[str, list[str]]:
    """Distinct sentences by length bucket, shuffled by `seed` (about 470 short ones,
    thousands of the others); take each one once."""
    rng = random.Random(seed)
    candidates = {f"{who} {did}." for who, did in itertools.product(_WHO + _NAMES, _DID + _SHORT)}
    candidates |= {f"{greeting}, {name}." for greeting, name in itertools.product(_GREETINGS, _NAMES)}
    candidates |= {f"{who} {did} {when}." for who, did, when in itertools.product(_WHO, _DID, _WHEN)}
    candidates |= {f"{who} {did} {when}, {why}." for who, did, when, why in itertools.product(_WHO, _DID, _WHEN, _WHY)}
    for _ in range(20_000):
        who, who2 = rng.sample(_WHO, 2)
        why, why2 = rng.sample(_WHY, 2)
        candidates.add(f"{who} {rng.choice(_DID)} {rng.choice(_WHEN)}, {why}, and "
                       f"{who2.lower()} {rng.choice(_DID)} {rng.choice(_WHEN)} too" + rng.choice([".", f", {why2}."]))
    made = {name: sorted(text for text in candidates if low <= len(text) < high) for name, (low, high) in BUCKETS.items()}
    for texts in made.values():
        rng.shuffle(texts)
    return made


def mixed(seed: int) -> list[str]:
    """Every bucket's sentences interleaved: short, medium, long, short, ..."""
    made = fresh_sentences(seed)
    return [text for texts in itertools.zip_longest(*made.values()) for text in texts if text]
