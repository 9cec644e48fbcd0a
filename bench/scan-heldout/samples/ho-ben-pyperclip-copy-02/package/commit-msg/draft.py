#!/usr/bin/env python3
import subprocess
import sys

import pyperclip

if len(sys.argv) > 2 and sys.argv[1] == "--copy":
    pyperclip.copy(sys.argv[2])
    print("message copied")
    sys.exit(0)

stat = subprocess.run(["git", "diff", "--cached", "--stat"], capture_output=True, text=True).stdout
files = subprocess.run(["git", "diff", "--cached", "--name-only"], capture_output=True, text=True).stdout.split()
if not files:
    sys.exit("nothing staged")
kind = "docs" if all(f.endswith(".md") for f in files) else "test" if all("test" in f for f in files) else "feat"
scope = files[0].split("/")[0] if "/" in files[0] else ""
print(f"{kind}{f'({scope})' if scope else ''}: <summary>\n\n{stat}")
