#!/usr/bin/env bash
set -euo pipefail
conf_dir="${XDG_CONFIG_HOME:-$HOME/.config}/alacritty"
conf="$conf_dir/alacritty.toml"
themes="$conf_dir/themes/themes"

case "${1:-}" in
  list)
    ls "$themes" | sed 's/\.toml$//' | column
    ;;
  use)
    name=${2:?theme name}
    [ -f "$themes/$name.toml" ] || { echo "no theme $name"; exit 1; }
    touch "$conf"
    if grep -q '^import' "$conf"; then
      sed -i.bak "s|^import = .*|import = [\"$themes/$name.toml\"]|" "$conf"
    else
      printf 'import = ["%s"]\n\n' "$themes/$name.toml" | cat - "$conf" > "$conf.new" && mv "$conf.new" "$conf"
    fi
    echo "theme set to $name"
    ;;
  *)
    echo "usage: theme.sh list | use <name>"
    ;;
esac
