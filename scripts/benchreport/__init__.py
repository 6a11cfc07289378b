"""The one writer of BENCHMARKS.md (scripts/bench-report.py is its command).

One module per concern, each small enough to read whole:

    cli.py         the command line: `section` and `harness`
    jmh.py         the ordo-one harness's JMH export, read into per-operation results
    machine.py     the machine facts every section lists
    markdown.py    a section's block (markers, shared header lines) and splicing it into the file
    units.py       how times and allocation counts are written
    targets.py     every threshold, read from targets.json (shared with the gallery's Swift reports)
    verdicts.py    a target's table row, and the judgements the harness sections share
    section.py     a harness section: its table and its rendering
    frame.py       the per-frame grid section      (frame-benchmarks)
    quilt.py       the quilt and waterfall section (quilt-benchmarks)
    pinch.py       the pinch section               (pinch-benchmarks)

Standard library only; scripts/test-bench-report.sh checks it on temporary files.
"""
