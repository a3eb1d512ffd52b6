"""What `emovox bench` writes: results.json, report.md and PNG plots."""

from __future__ import annotations

import json
from pathlib import Path

from emovox.paths import written_atomically


def write(results: dict, out: Path) -> list[Path]:
    """Write the results, the Markdown report and (with matplotlib installed) the plots."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "results.json", out / "report.md"]
    with written_atomically(written[0]) as partial:
        partial.write_text(json.dumps(results, indent=2))
    plots = _plots(results, out)
    with written_atomically(written[1]) as partial:
        partial.write_text(markdown(results, [p.name for p in plots]))
    return written + plots


def markdown(results: dict, plots: list[str] = ()) -> str:
    machine = results["machine"]
    lines = [
        "# emovox bench",
        "",
        f"{machine['cpu']}, {machine['cores']} cores, {machine['memory_gb']} GB; onnxruntime "
        f"{machine['onnxruntime']} ({', '.join(machine['providers'])}); {results['date']}; "
        f"{'quick' if results['config']['repeats'] < 5 else 'full'} run: {results['config']['repeats']} repeats of "
        f"{results['config']['sentences']} sentences, {results['config']['seconds_per_level']:g} s per concurrency level.",
        "",
        "## Per profile",
        "",
        "Audio cache off and a new sentence for every first-audio and concurrency request: the "
        "figures are synthesis. A cache hit (the same sentence again, cache on) is its own column.",
        "",
        "| profile | voice | precision | model (MB) | load (s) | RTF | first audio (ms) | cache hit (ms) "
        "| peak RSS (MB) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for run in results["profiles"]:
        for voice in run["voices"]:
            model = f"{voice['model_mb']:.0f}" if voice["model_mb"] else "?"
            lines.append(f"| {run['profile']['name']} | {voice['voice']} | "
                         f"{run['profile']['precision'] if voice['backend'] == 'vits' else 'int8 (as shipped)'} | "
                         f"{model} | {run['load_s']:.1f} | {voice['rtf']['median']:.3f} | "
                         f"{voice['first_chunk_ms']:.0f} | {_ms(voice.get('cache_hit_ms'))} | "
                         f"{run['peak_rss_mb']:.0f} |")
    lines += ["", "## Concurrency (through the scheduler, no HTTP)", "",
              "| profile | voice | clients | requests | audio s / s | TTFA p50 (ms) | TTFA p95 (ms) |",
              "|---|---|---|---|---|---|---|"]
    for run in results["profiles"]:
        for voice in run["voices"]:
            for level in voice["concurrency"]:
                lines.append(f"| {run['profile']['name']} | {voice['voice']} | {level['clients']} | {level['requests']} | "
                             f"{level['audio_s_per_s']:.1f} | {_ms(level['ttfa_p50_ms'])} | {_ms(level['ttfa_p95_ms'])} |")
    lines += ["", "## Live listeners (through the scheduler, no HTTP)", "",
              f"Listeners arrive at random within {results['config'].get('stream_arrivals_s', 1):g} s and play "
              "their stream from its first audio without a pause; a level passes when no stream ran dry. "
              "Levels are tried in turn until one fails.", "",
              "| profile | voice | listeners | ran dry | worst lateness (ms) | TTFA p95 (ms) |",
              "|---|---|---|---|---|---|"]
    for run in results["profiles"]:
        for voice in run["voices"]:
            for level in voice.get("live_streams", {}).get("levels", []):
                lines.append(f"| {run['profile']['name']} | {voice['voice']} | {level['streams']} | {level['underran']} | "
                             f"{level['worst_late_ms']:.0f} | {level['ttfa_p95_ms']:.0f} |")
    lines += ["", "## Peer runtimes, same model and text, side by side", ""]
    if results["peers"]:
        lines += ["| voice | peer | emovox RTF | peer RTF | ratio |", "|---|---|---|---|---|"]
        for row in results["peers"]:
            if row.get("peer"):
                lines.append(f"| {row['voice']} | {row['peer']} | {row['emovox_rtf']:.3f} | {row['peer_rtf']:.3f} | "
                             f"{row['ratio']:.2f} |")
            else:
                lines.append(f"| {row['voice']} | - | | | {row['reason']} |")
    else:
        lines.append("Not run (--no-peers).")
    if plots:
        lines += ["", "## Plots", ""] + [f"![{name}]({name})" for name in plots]
    return "\n".join(lines) + "\n"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def _plots(results: dict, out: Path) -> list[Path]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    runs = [(run["profile"]["name"], voice) for run in results["profiles"] for voice in run["voices"]]
    paths = []

    figure, axis = plt.subplots(figsize=(7, 3.5))
    labels = [f"{name}\n{voice['voice']}" for name, voice in runs]
    axis.bar(labels, [voice["rtf"]["median"] for _, voice in runs], color="#4477aa")
    axis.set_ylabel("real-time factor (lower is faster)")
    axis.set_title("RTF by profile and voice")
    figure.tight_layout()
    paths.append(out / "rtf_by_profile.png")
    with written_atomically(paths[-1]) as partial:
        figure.savefig(partial, dpi=110, format="png")
    plt.close(figure)

    figure, (throughput, latency) = plt.subplots(1, 2, figsize=(10, 3.8))
    for name, voice in runs:
        clients = [level["clients"] for level in voice["concurrency"]]
        throughput.plot(clients, [level["audio_s_per_s"] for level in voice["concurrency"]], marker="o",
                        label=f"{name} / {voice['voice']}")
        latency.plot(clients, [level["ttfa_p95_ms"] or float("nan") for level in voice["concurrency"]], marker="o",
                     label=f"{name} / {voice['voice']}")
    for axis, label in ((throughput, "audio seconds per wall second"), (latency, "time to first audio, p95 (ms)")):
        axis.set_xscale("log", base=2)
        axis.set_xlabel("concurrent clients")
        axis.set_ylabel(label)
    latency.set_yscale("log")
    throughput.legend(fontsize=7)
    figure.tight_layout()
    paths.append(out / "concurrency.png")
    with written_atomically(paths[-1]) as partial:
        figure.savefig(partial, dpi=110, format="png")
    plt.close(figure)
    return paths
