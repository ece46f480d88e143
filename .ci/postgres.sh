#!/usr/bin/env bash
# A throwaway PostgreSQL server for the store tests (sourced by .ci/run; usable by hand):
#   source .ci/postgres.sh && pg_start    # sets BANSHA_TEST_PG, starts the server
#   pg_stop                               # stops it and removes its folder
# It installs PostgreSQL from the system packages when no initdb is found, makes a cluster in
# a temporary folder owned by a non-root user (initdb refuses root), and listens on a loopback
# port only (no other address: the tests send no traffic off this machine).

pg_bindir() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && { echo "$d"; return 0; }
  done
  command -v initdb >/dev/null 2>&1 && { dirname "$(command -v initdb)"; return 0; }
  return 1
}

pg_start() {
  local bin port user
  if ! bin=$(pg_bindir); then
    echo "installing PostgreSQL from the system packages" >&2
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    else
      sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    fi
    bin=$(pg_bindir) || { echo "PostgreSQL did not install" >&2; return 1; }
  fi
  PG_DIR=$(mktemp -d /tmp/bansha-pg.XXXXXX)
  chmod 755 "$PG_DIR"
  user=$(id -un)
  run_as() { "$@"; }
  if [ "$(id -u)" = 0 ]; then
    user=postgres
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    chown postgres "$PG_DIR"
    run_as() { su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; }
  fi
  # a free loopback port (the kernel picks it; PostgreSQL binds it a moment later)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
  run_as "$bin/initdb" -D "$PG_DIR/data" -U bansha --auth=trust -E UTF8 --no-locale >/dev/null || return 1
  # fsync off: a throwaway test cluster; the crash test kills the client, not the server
  run_as "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $PG_DIR -c fsync=off -c max_connections=200" start >/dev/null || {
      cat "$PG_DIR/log" >&2; return 1; }
  run_as "$bin/createdb" -h 127.0.0.1 -p "$port" -U bansha bansha_test || return 1
  PG_BIN=$bin
  export BANSHA_TEST_PG="postgresql://bansha@127.0.0.1:$port/bansha_test"
  echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') at $BANSHA_TEST_PG" >&2
}

pg_stop() {
  [ -n "${PG_DIR:-}" ] || return 0
  if [ -d "$PG_DIR/data" ]; then
    if [ "$(id -u)" = 0 ]; then
      su postgres -s /bin/sh -c "$PG_BIN/pg_ctl -D $PG_DIR/data -m immediate -w stop" >/dev/null 2>&1 || true
    else
      "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
  fi
  rm -rf "$PG_DIR"
  PG_DIR=
}
