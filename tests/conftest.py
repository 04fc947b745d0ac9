"""Shared test support: tests/support holds helpers used by several test folders."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "support"))
