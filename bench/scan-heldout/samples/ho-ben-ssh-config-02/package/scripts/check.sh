#!/bin/sh
for k in ~/.ssh/id_ed25519.pub ~/.ssh/id_rsa.pub; do
  [ -f "$k" ] && { echo "found $k"; ssh-keygen -lf "$k"; }
done
ssh-add -l 2>/dev/null || echo "agent has no keys (or is not running)"
