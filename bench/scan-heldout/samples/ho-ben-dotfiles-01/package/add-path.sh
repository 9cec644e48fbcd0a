#!/bin/sh
line='export PATH="$HOME/.local/bin:$PATH"'
for rc in "$HOME/.bashrc" "$HOME/.zshrc"; do
  [ -f "$rc" ] || continue
  if grep -qF "$line" "$rc"; then
    echo "$rc: already set"
  else
    printf '\n# added by local-bin-path\n%s\n' "$line" >> "$rc"
    echo "$rc: PATH line added"
  fi
done
