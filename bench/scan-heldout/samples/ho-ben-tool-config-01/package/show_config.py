#!/usr/bin/env python3
import os
import sys
import tomllib
from pathlib import Path

path = Path(os.environ.get("STARSHIP_CONFIG", Path.home() / ".config" / "starship.toml"))
if not path.exists():
    sys.exit(f"no config at {path}; starship is using its defaults")

with path.open("rb") as fh:
    cfg = tomllib.load(fh)

print(f"config: {path}")
print(f"format: {cfg.get('format', '(default)')!r}")
for name, section in sorted((k, v) for k, v in cfg.items() if isinstance(v, dict)):
    state = "disabled" if section.get("disabled") else "enabled"
    extras = ", ".join(f"{k}={v!r}" for k, v in section.items() if k != "disabled")
    print(f"  [{name}] {state} {extras}")
