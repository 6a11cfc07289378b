#!/usr/bin/env python3
"""The one writer of BENCHMARKS.md: every benchmark's section goes through here.

    bench-report.py section OUT_MD KEY [BODY_MD|-] --by COMMAND --rerun COMMAND [--fact 'LABEL: VALUE']...
    bench-report.py harness OUT_MD JMH_JSON [--by COMMAND] [--rerun COMMAND]

The work is done by the package beside this file, scripts/benchreport/ (its
__init__.py lists the modules; cli.py describes both commands). Every target
the report judges by is in scripts/benchreport/targets.json.
scripts/test-bench-report.sh checks it on temporary files. Standard library only.
"""

import sys
from pathlib import Path

# No __pycache__ beside the sources: the package is read once per run.
sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchreport.cli import main  # noqa: E402  (after the path it is found on)

if __name__ == "__main__":
    sys.exit(main(sys.argv))
