#!/usr/bin/env python3
import argparse
import os
import subprocess
import sys

import sentry_sdk

ap = argparse.ArgumentParser()
ap.add_argument("--tag", action="append", default=[])
ap.add_argument("command", nargs=argparse.REMAINDER)
args = ap.parse_args()

dsn = os.environ.get("SENTRY_DSN")
if not dsn:
    sys.exit("SENTRY_DSN is not set; nothing to report to")
sentry_sdk.init(dsn=dsn, traces_sample_rate=0, send_default_pii=False)

cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
proc = subprocess.run(cmd, capture_output=True, text=True)
if proc.returncode == 0:
    print("command succeeded; nothing to report")
    sys.exit(0)

with sentry_sdk.push_scope() as scope:
    for t in args.tag:
        k, _, v = t.partition("=")
        scope.set_tag(k, v)
    scope.set_extra("command", " ".join(cmd))
    scope.set_extra("stderr_tail", proc.stderr[-4000:])
    event_id = sentry_sdk.capture_message(proc.stderr.strip().splitlines()[-1] if proc.stderr else "command failed", level="error")
sentry_sdk.flush()
print(f"reported event {event_id}")
