# syntax=docker/dockerfile:1
#
# The registry as a container image: `docker build -t skill-registry .`
#
#   build      every dependency (dev included), then the workspaces under packages/, the server (tsc) and the web
#              console (vite)
#   prod-deps  production dependencies only, with better-sqlite3's native module compiled
#   runtime    the slim image: node, the production node_modules, dist/, package.json, and each workspace's
#              package.json and dist/ (node_modules/@skill-registry/* link to them); runs as `node`, not root
#
# Node 22 by default: Node 20 has left maintenance, and the AWS SDK's releases from 2027 need 22. The registry
# itself supports 20.19 and newer (`--build-arg NODE_VERSION=20` builds on 20).

ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm-slim AS toolchain
# better-sqlite3 compiles from source when no prebuilt binary matches the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app

# npm ci installs the workspaces (packages/*) with the rest and refuses to run without each one's package.json.
# Listed one by one: COPY with a wildcard would flatten them into one folder.
FROM toolchain AS manifests
COPY package.json package-lock.json ./
COPY packages/skill-package/package.json packages/skill-package/
COPY packages/api-schemas/package.json packages/api-schemas/
COPY packages/client/package.json packages/client/
COPY packages/cli/package.json packages/cli/

FROM manifests AS build
# Scripts off while installing: `prepare` would build before the sources are here. The two packages that need their
# install step (the SQLite binding, esbuild's binary check) get it explicitly.
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm rebuild better-sqlite3 esbuild
COPY . .
# `npm run build` builds the workspaces first (the server loads them from their dist/), then the server and console.
# What the runtime needs of each workspace is gathered into one folder, for one COPY below.
RUN npm run build \
 && for dir in packages/*/; do mkdir -p "/workspaces/$dir" && cp -R "$dir/package.json" "$dir/dist" "/workspaces/$dir"; done

FROM manifests AS prod-deps
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm rebuild better-sqlite3 \
 && npm cache clean --force

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=prod-deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /workspaces/packages ./packages
COPY --chown=root:root package.json ./
# The embedded default (SQLite and package files) lives in DATA_DIR; with PostgreSQL and S3 nothing is written there.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# /healthz answers once the server accepts requests; /readyz (database and package store) is for load balancers.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node is PID 1 and handles SIGTERM itself: in-flight requests finish, buffered counts and logs are written.
STOPSIGNAL SIGTERM
# A 1 MiB young generation: upload buffers are collected within a megabyte rather than thirty (docs/performance.md).
CMD ["node", "--max-semi-space-size=1", "dist/cli/main.js", "serve"]
