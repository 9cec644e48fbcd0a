#!/bin/sh
case "$1" in
  table)
    pbpaste | awk -F, 'NR==1 { printf "|"; for (i=1;i<=NF;i++) printf " %s |", $i; printf "\n|"; for (i=1;i<=NF;i++) printf " --- |"; printf "\n"; next }
                       { printf "|"; for (i=1;i<=NF;i++) printf " %s |", $i; printf "\n" }' | pbcopy ;;
  sort) pbpaste | sort | pbcopy ;;
  uniq) pbpaste | awk '!seen[$0]++' | pbcopy ;;
  json) pbpaste | jq . | pbcopy ;;
  lower) pbpaste | tr '[:upper:]' '[:lower:]' | pbcopy ;;
  *) echo "usage: clip.sh table|sort|uniq|json|lower"; exit 2 ;;
esac
echo "clipboard: $1 done"
