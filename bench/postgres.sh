#!/bin/sh
# A throw-away PostgreSQL of Debian's postgresql package for make bench's jobs with a PostgreSQL store:
#   bench/postgres.sh start FOLDER   makes a cluster in FOLDER, starts it on a free loopback port and
#                                    prints the --job-store URL (user folio, database folio);
#   bench/postgres.sh stop FOLDER    stops it and removes FOLDER.
# As root the cluster is the postgres user's (PostgreSQL refuses to run as root).
set -eu
action=$1 folder=$2
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
case $action in
start)
  mkdir -p "$folder"
  chmod 755 "$folder"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$folder"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  as_owner "$bin/initdb" -D "$folder/data" -U folio --auth trust -E UTF8 --no-sync >/dev/null
  as_owner "$bin/pg_ctl" -D "$folder/data" -l "$folder/log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$folder" >/dev/null
  as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U folio folio
  echo "postgresql://folio@127.0.0.1:$port/folio?sslmode=disable"
  ;;
stop)
  as_owner "$bin/pg_ctl" -D "$folder/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$folder"
  ;;
esac
