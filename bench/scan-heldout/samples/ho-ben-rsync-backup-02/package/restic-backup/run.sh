#!/bin/bash
set -euo pipefail
: "${RESTIC_REPOSITORY:?source restic.env first}"
restic backup "$HOME" \
  --exclude-caches --exclude "$HOME/.cache" --exclude "$HOME/Downloads" --exclude '**/node_modules' \
  --tag laptop
restic forget --keep-daily 7 --keep-weekly 5 --keep-monthly 12 --prune
restic snapshots --latest 3
