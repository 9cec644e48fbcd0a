#!/usr/bin/env python3
from pathlib import Path

cfg = Path.home() / ".ssh" / "config"
if not cfg.exists():
    raise SystemExit("no ~/.ssh/config")

blocks, current = [], None
for raw in cfg.read_text().splitlines():
    line = raw.strip()
    if not line or line.startswith("#"):
        continue
    key, _, value = line.partition(" ")
    if key.lower() == "host":
        current = {"Host": value.strip()}
        blocks.append(current)
    elif current is not None:
        current[key] = value.strip()

print(f"{'Host':20} {'HostName':28} {'User':12} {'Port':6} ProxyJump")
for b in blocks:
    print(f"{b['Host']:20} {b.get('HostName', '-'):28} {b.get('User', '-'):12} {b.get('Port', '22'):6} {b.get('ProxyJump', '')}")
