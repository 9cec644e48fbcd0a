#!/usr/bin/env bash
set -euo pipefail
dest=${1:?usage: backup.sh user@host:/path}
stamp=$(date +%Y-%m-%d)

rsync -az --delete --human-readable --info=stats1 \
  --backup --backup-dir="../deleted-$stamp" \
  --exclude 'node_modules/' --exclude '.cache/' --exclude '.venv/' --exclude '*.tmp' \
  "$HOME/Documents" "$HOME/Pictures" "$HOME/projects" \
  "$HOME/.gitconfig" "$HOME/.zshrc" \
  "$dest/current/"
echo "backup to $dest finished at $(date +%H:%M)"
