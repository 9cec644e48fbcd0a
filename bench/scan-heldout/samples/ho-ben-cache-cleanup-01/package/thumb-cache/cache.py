#!/usr/bin/env python3
import os
import shutil
import sys
from pathlib import Path

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "mkdocs-thumbs"


def size(p):
    return sum(f.stat().st_size for f in p.rglob("*") if f.is_file()) if p.exists() else 0


cmd = sys.argv[1] if len(sys.argv) > 1 else "info"
if cmd == "info":
    print(f"{CACHE}: {size(CACHE) / 1e6:.1f} MB")
elif cmd == "clear":
    if CACHE.name != "mkdocs-thumbs" or not CACHE.exists():
        sys.exit("nothing to clear")
    if input(f"delete {CACHE}? [y/N] ").lower() == "y":
        shutil.rmtree(CACHE)
        print("cleared")
