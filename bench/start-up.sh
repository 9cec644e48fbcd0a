#!/usr/bin/env bash
# What a newcomer waits for: a cold `npm install` of a fresh clone (an empty npm cache, so every package is
# downloaded and better-sqlite3 compiled), the first `npm start` after it, and later restarts with nothing changed.
# Each start is timed from `npm start` to the first 200 from /healthz.
#   bash bench/start-up.sh [RESTARTS]        (default 3; uses a clone of this checkout's HEAD under $TMPDIR)
set -euo pipefail
restarts=${1:-3}
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/skreg-start-up-XXXXXX")"
port=${BENCH_PORT:-39871}
trap 'rm -rf "$work"' EXIT

git clone -q "$here" "$work/clone"
cd "$work/clone"
echo "commit $(git rev-parse --short HEAD), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), node $(node --version), npm $(npm --version), $(date -u '+%Y-%m-%d %H:%M UTC')"

seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

started=$(date +%s.%N)
npm_config_cache="$work/npm-cache" npm install --no-audit --no-fund >"$work/install.log" 2>&1
echo "cold install (empty npm cache, build included): $(seconds "$started" "$(date +%s.%N)") s"

start_once() {
  local label=$1 began pid
  began=$(date +%s.%N)
  PORT=$port DATA_DIR="$work/data" LOG_LEVEL=warn setsid npm start >"$work/start.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 6000); do
    if curl -sf "http://127.0.0.1:$port/healthz" >/dev/null; then break; fi
    sleep 0.05
  done
  echo "$label: $(seconds "$began" "$(date +%s.%N)") s ($(grep -E "build is current|^built" "$work/start.log" | paste -sd, -))"
  kill -TERM -- "-$pid"
  wait "$pid" 2>/dev/null || true
}

start_once "first start"
for i in $(seq 1 "$restarts"); do start_once "restart $i"; done
