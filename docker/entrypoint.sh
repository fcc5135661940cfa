#!/bin/sh
# The image's commands: serve (the default), migrate, accounts <command>,
# healthcheck. Anything else runs as given (e.g. `sh` to look around).
set -eu
cd /app
command="${1:-serve}"
[ "$#" -gt 0 ] && shift
case "$command" in
  serve) exec node server.js "$@" ;;
  migrate) exec node migrate.mjs "$@" ;;
  accounts) exec node accounts.mjs "$@" ;;
  healthcheck) exec node healthcheck.mjs "$@" ;;
  *) exec "$command" "$@" ;;
esac
