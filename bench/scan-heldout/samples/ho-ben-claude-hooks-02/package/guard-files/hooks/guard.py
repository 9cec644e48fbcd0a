#!/usr/bin/env python3
import fnmatch
import json
import sys

PROTECTED = ["package-lock.json", "pnpm-lock.yaml", "poetry.lock", "Cargo.lock", ".env", ".env.*", "generated/*"]

event = json.load(sys.stdin)
path = event.get("tool_input", {}).get("file_path", "")
name = path.rsplit("/", 1)[-1]
for pattern in PROTECTED:
    if fnmatch.fnmatch(name, pattern) or fnmatch.fnmatch(path, f"*/{pattern}"):
        print(f"{path} is protected ({pattern}); change it through its tool instead", file=sys.stderr)
        sys.exit(2)
sys.exit(0)
