#!/usr/bin/env python3
"""Times index-benchmark over the hostile indexes in FOLDER, served by
`python3 -m http.server` on loopback, for this checkout and optionally a
baseline build; prints a Markdown section for scripts/bench-report.py.

  bench-index.py FOLDER CURRENT_TOOL [BASELINE_TOOL BASELINE_NAME]

Each case runs in a fresh process three times (the median time and the
largest peak resident memory are reported); a baseline run is stopped after
LIMIT seconds and reported as "over LIMIT s".
"""
import socket
import statistics
import subprocess
import sys
import time

LIMIT = 120
CASES = [
    ("links", "", "an HTML listing with 100,000 photo links", 0.5, None),
    ("entities", "", "an HTML link holding 20 MB of `&amp;`", 1.0, None),
    ("tokens", "", "10,000,000 `href` tokens that never make a link", None, None),
    ("manifest", "photos.json", "a manifest of 1,000,000 photos with sizes (60 MB)", 2.0, 300),
]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run(tool, url, index):
    start = time.monotonic()
    try:
        out = subprocess.run([tool, url, index], capture_output=True, text=True, timeout=LIMIT).stdout
    except subprocess.TimeoutExpired:
        return None
    fields = dict(part.split("=", 1) for part in out.split() if "=" in part)
    return float(fields["seconds"]), int(fields["photos"]), int(fields["peak_kib"]) / 1024, time.monotonic() - start


def measure(tool, url, index, repeats):
    results = [run(tool, url, index) for _ in range(repeats)]
    if any(r is None for r in results):
        return None
    return statistics.median(r[0] for r in results), results[0][1], max(r[2] for r in results)


def main():
    folder, current = sys.argv[1], sys.argv[2]
    baseline = sys.argv[3:5] if len(sys.argv) >= 5 else None
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port),
                               "--directory", folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        print("## Image indexes from hostile servers\n")
        print("`HTTPImageSource.imageIDs()` over loopback (`python3 -m http.server`), each case in a fresh "
              "process, median of 3 runs; peak = the process's largest resident memory (VmHWM). "
              "Targets from the real-inputs issue: 100,000 links ≤ 0.5 s, 20 MB of entities ≤ 1 s, a "
              "1,000,000-photo manifest read in ≤ 2 s with ≤ 300 MB."
              + (f" Baseline: {baseline[1]}, runs stopped after {LIMIT} s." if baseline else "") + "\n")
        head = "| case | photos | this checkout | peak MiB |" + (" baseline | ratio |" if baseline else "") + " target |"
        print(head)
        print("|" + "---|" * (head.count("|") - 1))
        for case, index, text, seconds_target, memory_target in CASES:
            url = f"http://127.0.0.1:{port}/{case}/"
            now = measure(current, url, index, 3)
            before = measure(baseline[0], url, index, 1) if baseline else None
            verdict = []
            if now and seconds_target is not None:
                verdict.append(("**PASS**" if now[0] <= seconds_target else "**FAIL**") + f" ≤ {seconds_target} s")
            if now and memory_target is not None:
                verdict.append(("**PASS**" if now[2] <= memory_target else "**FAIL**") + f" ≤ {memory_target} MB")
            row = f"| {text} | {now[1] if now else '?'} | {f'{now[0]:.3f} s' if now else f'over {LIMIT} s'} | " \
                  f"{f'{now[2]:.0f}' if now else '?'} |"
            if baseline:
                ratio = f"{before[0] / now[0]:.0f}× faster" if before and now and now[0] > 0 else (
                    f"over {LIMIT / now[0]:.0f}× faster" if now and now[0] > 0 else "?")
                row += f" {f'{before[0]:.2f} s, {before[2]:.0f} MiB' if before else f'over {LIMIT} s'} | {ratio} |"
            row += f" {', '.join(verdict) or 'no target'} |"
            print(row)
        print()
    finally:
        server.terminate()
        server.wait()


main()
