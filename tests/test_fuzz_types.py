"""Every generated function of every installed module refuses an argument of a type no
parameter takes, before C is called (tools/fuzz_types.py: each call in a child process that
is restarted after a crash, so a crash is a finding, not the end of the run)."""

import subprocess
import sys

from conftest import REPO


def test_no_generated_function_accepts_a_plain_object_or_crashes():
    out = subprocess.run(
        [sys.executable, str(REPO / "tools" / "fuzz_types.py")], capture_output=True, text=True, timeout=900
    )
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    probed = int(out.stdout.splitlines()[-1].split()[0])
    assert probed > 5000, out.stdout
