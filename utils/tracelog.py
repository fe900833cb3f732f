"""The TORCH_TRACE writer of utils/gen-fixtures.py: tlplog.log.TraceLog
(utils/tlplog, docs/testing.md "The log toolkit"). Kept until the YAML
fixtures replace gen-fixtures.py."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tlplog.log import TraceLog  # noqa: E402,F401
