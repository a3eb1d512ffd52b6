"""Generated requests from the server's own OpenAPI document, many more than the test run's.

    .venv/bin/python benchmarks/fuzz.py [--max-examples 150] [--json results/fuzz.json]

schemathesis with every check (tests/schemathesis.toml: its one setting) against
`tests/tiny_serve.py`, the real app and serving loop on the tiny voices, in a process of its
own (input limit 100 characters, so no generated text asks for minutes of audio). Records the
cases generated, the failures and errors schemathesis reports, and the server's own tally of
responses by status from /metrics.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx

from emovox.server.background import ServerProcess

HERE = Path(__file__).parent
TESTS = HERE.parent / "tests"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-examples", type=int, default=150)
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--json", type=Path, default=HERE / "results" / "fuzz.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="emovox-fuzz-") as home:
        server = ServerProcess([sys.executable, str(TESTS / "tiny_serve.py"), "{port}", home,
                                "--max-input-chars", "100"])
        try:
            run = subprocess.run([sys.executable, "-m", "schemathesis.cli", "--config-file",
                                  str(TESTS / "schemathesis.toml"), "run", f"{server.url}/openapi.json",
                                  "--checks", "all", "--max-examples", str(args.max_examples), "--workers", "2",
                                  "--seed", str(args.seed), "--request-timeout", "60", "--no-color"],
                                 capture_output=True, text=True)
            metrics = httpx.get(f"{server.url}/metrics", timeout=30).text
        finally:
            server.stop()
    statuses: dict[str, float] = {}
    for match in re.finditer(r'emovox_requests_total\{[^}]*status="(\d+)"[^}]*\} ([0-9.e+]+)', metrics):
        statuses[match.group(1)] = statuses.get(match.group(1), 0) + float(match.group(2))
    generated = re.search(r"(\d+) generated", run.stdout)
    result = {"max_examples": args.max_examples, "seed": args.seed, "exit_code": run.returncode,
              "generated": int(generated.group(1)) if generated else None,
              "summary": run.stdout[run.stdout.rfind("Test cases:"):].strip()[:2000],
              "server_responses_by_status": dict(sorted(statuses.items()))}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "summary"}, indent=1))
    print(result["summary"])


if __name__ == "__main__":
    main()
