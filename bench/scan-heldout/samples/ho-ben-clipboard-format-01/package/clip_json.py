#!/usr/bin/env python3
import json
import sys

import pyperclip

text = pyperclip.paste()
try:
    data = json.loads(text)
except json.JSONDecodeError as e:
    sys.exit(f"not JSON: {e.msg} at line {e.lineno}, column {e.colno}")

out = json.dumps(data, separators=(",", ":")) if "--min" in sys.argv else json.dumps(data, indent=2, ensure_ascii=False)
pyperclip.copy(out)
print(f"clipboard updated ({len(text)} -> {len(out)} characters)")
