#!/usr/bin/env bash
set -euo pipefail
: "${NOTION_TOKEN:?set NOTION_TOKEN to your integration token}"
page=${1:?page id}

api() {
  curl -sS "https://api.notion.com/v1/$1" \
    -H "Authorization: Bearer $NOTION_TOKEN" \
    -H "Notion-Version: 2022-06-28"
}

cursor=""
while :; do
  resp=$(api "blocks/$page/children?page_size=100${cursor:+&start_cursor=$cursor}")
  echo "$resp" | jq -r '.results[] |
    if .type == "heading_1" then "# " + (.heading_1.rich_text | map(.plain_text) | join(""))
    elif .type == "heading_2" then "## " + (.heading_2.rich_text | map(.plain_text) | join(""))
    elif .type == "bulleted_list_item" then "- " + (.bulleted_list_item.rich_text | map(.plain_text) | join(""))
    elif .type == "code" then "```\n" + (.code.rich_text | map(.plain_text) | join("")) + "\n```"
    elif .type == "paragraph" then (.paragraph.rich_text | map(.plain_text) | join("")) + "\n"
    else empty end'
  [ "$(echo "$resp" | jq -r .has_more)" = "true" ] || break
  cursor=$(echo "$resp" | jq -r .next_cursor)
done
