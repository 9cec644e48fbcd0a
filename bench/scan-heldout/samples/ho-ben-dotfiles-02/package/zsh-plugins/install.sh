#!/usr/bin/env bash
set -euo pipefail
dir="$HOME/.zsh/plugins"
mkdir -p "$dir"

for repo in zsh-users/zsh-autosuggestions zsh-users/zsh-syntax-highlighting; do
  name=${repo#*/}
  if [ -d "$dir/$name/.git" ]; then
    git -C "$dir/$name" pull --ff-only -q
  else
    git clone -q --depth 1 "https://github.com/$repo.git" "$dir/$name"
  fi
done

rc="$HOME/.zshrc"
touch "$rc"
for name in zsh-autosuggestions zsh-syntax-highlighting; do
  src="source $dir/$name/$name.zsh"
  grep -qxF "$src" "$rc" || echo "$src" >> "$rc"
done
echo "done; restart zsh"
