"""Exit codes (R6) as the core defines them: one table for every command.

0 done/drained · 1 failed, a retry may help · 2 the answer did not match ``--json-schema``
· 3 stopped at a limit · 64 usage · 65 bad input data · 66 an input file is missing ·
130/143 cancelled by SIGINT/SIGTERM.
"""

from __future__ import annotations

import signal

from scrubline._core import EXIT_CODES

OK: int = EXIT_CODES["ok"]
FAILED: int = EXIT_CODES["failed"]
SCHEMA_MISMATCH: int = EXIT_CODES["schema_mismatch"]
LIMIT: int = EXIT_CODES["limit"]
USAGE: int = EXIT_CODES["usage"]
BAD_INPUT: int = EXIT_CODES["bad_input"]
NO_INPUT: int = EXIT_CODES["no_input"]
#: The exit code of a run cancelled by each signal.
BY_SIGNAL: dict[int, int] = {
    signal.SIGINT: EXIT_CODES["interrupted"],
    signal.SIGTERM: EXIT_CODES["terminated"],
}
