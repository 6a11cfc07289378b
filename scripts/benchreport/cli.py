"""The command line of scripts/bench-report.py, the one writer of BENCHMARKS.md.

    bench-report.py section OUT_MD KEY [BODY_MD|-] --by COMMAND --rerun COMMAND [--fact 'LABEL: VALUE']...
    bench-report.py harness OUT_MD JMH_JSON [--by COMMAND] [--rerun COMMAND]

`section` puts one benchmark's report into OUT_MD. BODY_MD (a file, or
standard input when it is `-` or left out) is the Markdown the benchmark
printed: a `## Title` line, then its text, tables and verdicts. The block
adds the lines every section shares, in one format, right under the title:
which command made it and when, how to regenerate it, and the machine (the
common facts, plus any `--fact` the caller knows, e.g. the libvips version).
So the benchmarks themselves never collect machine facts, dates or markers.

`harness` renders the JMH export of an ordo-one/benchmark run of the
ParallaxBenchmarks package (`benchmark run --format jmh`, see
scripts/bench.sh) into the sections of HARNESS_SECTIONS, and writes them the
same way. A harness section reports the benchmarks whose name starts with
one of its kinds (the part before the first "/"); a benchmark that no
section claims is named on stderr and left out; a section with no results in
the run (a filtered run) keeps its block as it was.

Both print every verdict of what they wrote (the lines with **PASS**,
**FAIL** or **MISSING**) and exit 0 whether or not the targets are met.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Callable, NoReturn

from . import frame, pinch, quilt
from .jmh import load_results
from .machine import machine_facts
from .markdown import block, utc_now, write_sections

# The harness's blocks of BENCHMARKS.md, in the order missing ones are appended.
HARNESS_SECTIONS = (frame.SECTION, quilt.SECTION, pinch.SECTION)


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bench-report.py", description="The one writer of BENCHMARKS.md.")
    commands = parser.add_subparsers(dest="command", required=True)
    section = commands.add_parser("section", help="one benchmark's Markdown body into its section")
    section.add_argument("out", type=Path, help="the Markdown file to update (BENCHMARKS.md)")
    section.add_argument("key", help="the section key (its markers are <!-- KEY:start --> and <!-- KEY:end -->)")
    section.add_argument("body", nargs="?", default="-", help="the body: a file, or - for standard input (the default)")
    section.add_argument("--by", required=True, help="the command that measured, as the section names it")
    section.add_argument("--rerun", required=True, help="the command that regenerates the section")
    section.add_argument("--fact", action="append", default=[], metavar="'LABEL: VALUE'",
                         help="a machine fact beside the common ones (repeatable)")
    harness = commands.add_parser("harness", help="the ordo-one harness's JMH export into its sections")
    harness.add_argument("out", type=Path, help="the Markdown file to update (BENCHMARKS.md)")
    harness.add_argument("jmh", type=Path, help="the JMH export of the run")
    harness.add_argument("--by", default="swift package benchmark run", help="the command that measured")
    harness.add_argument("--rerun", default="scripts/bench.sh", help="the command that regenerates the sections")
    return parser


def write_section(args: argparse.Namespace, fail: Callable[[str], NoReturn], machine: list[tuple[str, str]], generated: str) -> int:
    """`section`: the body given into its block of the file; `fail` refuses the command line."""
    if not re.fullmatch(r"[a-z0-9-]+", args.key):
        fail(f"the key must be lower-case letters, digits and dashes, not {args.key!r}")
    body = sys.stdin.read() if args.body == "-" else Path(args.body).read_text(encoding="utf-8")
    if not body.strip():
        print(f"bench-report: the {args.key} body is empty; {args.out} is left as it was", file=sys.stderr)
        return 1
    for fact in args.fact:
        label, separator, value = fact.partition(":")
        if not separator:
            fail(f"--fact takes 'LABEL: VALUE', not {fact!r}")
        machine.append((label.strip(), value.strip()))
    write_sections(args.out, [(args.key, block(args.key, body, args.by, args.rerun, machine, generated))])
    return 0


def write_harness(args: argparse.Namespace, machine: list[tuple[str, str]], generated: str) -> int:
    """`harness`: every section with results in the JMH export, each into its block of the file."""
    results = load_results(args.jmh)
    if not results:
        print(f"bench-report: no benchmark results in {args.jmh}", file=sys.stderr)
        return 1
    for result in results:
        if not any(section.claims(result) for section in HARNESS_SECTIONS):
            print(f"bench-report: {result.name} belongs to no section of the report; left out", file=sys.stderr)
    blocks = []
    for section in HARNESS_SECTIONS:
        ours = sorted((result for result in results if section.claims(result)), key=section.sort_key)
        if not ours:
            # A filtered run (e.g. `scripts/bench.sh --filter 'Frame/.*'`) keeps the other suites' blocks.
            print(f"bench-report: no {section.key} results in this run; that block is left as it was", file=sys.stderr)
            continue
        blocks.append((section.key, block(section.key, section.render(ours), args.by, args.rerun, machine, generated)))
    write_sections(args.out, blocks)
    return 0


def main(argv: list[str]) -> int:
    command_line = parser()
    args = command_line.parse_args(argv[1:])
    generated, machine = utc_now(), machine_facts()
    if args.command == "section":
        return write_section(args, command_line.error, machine, generated)
    return write_harness(args, machine, generated)
