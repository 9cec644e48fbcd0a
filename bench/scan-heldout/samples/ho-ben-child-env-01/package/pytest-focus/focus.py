#!/usr/bin/env python3
import os
import re
import subprocess
import sys

env = {**os.environ, "PYTHONHASHSEED": "0", "PY_COLORS": "0", "PYTEST_ADDOPTS": "--no-header"}
proc = subprocess.run([sys.executable, "-m", "pytest", "--lf", "-x", "-q", *sys.argv[1:]], env=env, capture_output=True, text=True)
print(proc.stdout[-3000:])

for m in re.finditer(r"^FAILED (\S+) - (.+)$", proc.stdout, re.M):
    print(f"* {m.group(1)}\n    {m.group(2)}")
sys.exit(proc.returncode)
