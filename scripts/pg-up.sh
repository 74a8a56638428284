#!/usr/bin/env bash
# Throwaway PostgreSQL cluster on 127.0.0.1 (loopback only) for the production-path tests.
# Prints DATABASE_URL=... on success. Stop and wipe with scripts/pg-down.sh.
set -euo pipefail
PGROOT=${PGROOT:-$PWD/.pg-test}
PGPORT=${PGPORT:-55432}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$PGBIN" ]; then echo "pg-up: no PostgreSQL server binaries under /usr/lib/postgresql" >&2; exit 3; fi
RUNAS=()
if [ "$(id -u)" = 0 ]; then RUNAS=(runuser -u postgres --); fi # postgres refuses to run as root
mkdir -p "$PGROOT"
[ "$(id -u)" = 0 ] && chown postgres:postgres "$PGROOT"
if [ ! -f "$PGROOT/data/PG_VERSION" ]; then
  "${RUNAS[@]}" "$PGBIN/initdb" -D "$PGROOT/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
fi
if ! "${RUNAS[@]}" "$PGBIN/pg_ctl" -D "$PGROOT/data" -l "$PGROOT/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $PGROOT -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100 -c shared_buffers=32MB" start >/dev/null; then
  echo "pg-up: PostgreSQL did not start; its log says:" >&2
  tail -n 20 "$PGROOT/server.log" >&2 || true
  exit 1
fi
for db in app app_shadow; do
  "${RUNAS[@]}" "$PGBIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -qc "CREATE DATABASE $db" >/dev/null 2>&1 || true
done
echo "DATABASE_URL=postgresql://postgres@127.0.0.1:$PGPORT/app"
