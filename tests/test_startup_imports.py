"""Start-up is a feature: only `classify` (and `policy check`) may load bashlex."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = (
    "import sys\n"
    "from horizon_cli.cli import main\n"
    "try:\n"
    "    main(sys.argv[1:])\n"
    "except SystemExit:\n"
    "    pass\n"
    "print(sorted(m for m in ('bashlex', 'horizon_cli.guard.engine') if m in sys.modules), file=sys.stderr)\n"
)


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["halt", "--help"],
        ["compact", "--help"],
        ["verify", "--help"],
        ["seal", "--help"],
        ["rules", "--no-config"],
        ["rules", "HZ101", "--no-config"],
        ["policy", "show", "--no-config"],
        ["policy", "check", "--help"],
    ],
    ids=" ".join,
)
def test_no_bashlex(args, tmp_path):
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=tmp_path,
                          timeout=60, check=False)
    assert proc.stderr.strip().splitlines()[-1] == "[]", proc.stderr
