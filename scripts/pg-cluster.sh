#!/usr/bin/env bash
# A private PostgreSQL cluster for tests, run as the postgres user on 127.0.0.1.
#   scripts/pg-cluster.sh start DIR PORT   -> prints the admin URL (postgres://postgres@127.0.0.1:PORT/postgres)
#   scripts/pg-cluster.sh stop DIR
set -euo pipefail
cmd=${1:?start|stop}; dir=${2:?cluster directory}
bindir=$(dirname "$(readlink -f "$(command -v pg_ctl 2>/dev/null || ls /usr/lib/postgresql/*/bin/pg_ctl | tail -1)")")
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
case "$cmd" in
  start)
    port=${3:?port}
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_postgres "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync >/dev/null
    fi
    as_postgres "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    as_postgres "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    ;;
  *) echo "usage: $0 start DIR PORT | stop DIR" >&2; exit 2 ;;
esac
