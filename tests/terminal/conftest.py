"""The pseudo-terminal tests need pexpect (a test dependency) and a POSIX system."""

from __future__ import annotations

import importlib.util
import os

collect_ignore_glob = [] if importlib.util.find_spec("pexpect") and os.name != "nt" else ["test_play_*.py"]
