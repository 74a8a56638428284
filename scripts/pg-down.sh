#!/usr/bin/env bash
# Stops the throwaway PostgreSQL cluster started by scripts/pg-up.sh and removes its files.
set -euo pipefail
PGROOT=${PGROOT:-$PWD/.pg-test}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
RUNAS=()
if [ "$(id -u)" = 0 ]; then RUNAS=(runuser -u postgres --); fi
if [ -f "$PGROOT/data/postmaster.pid" ]; then
  "${RUNAS[@]}" "$PGBIN/pg_ctl" -D "$PGROOT/data" -m immediate -w stop >/dev/null || true
fi
rm -rf "$PGROOT"
