#!/usr/bin/env bash
# Builds the Dockerfile's image with podman from a Node 20 Debian base
# assembled on this machine (no registry is reachable here), then runs it as
# docs/deploy.md says (SQLite in a volume, read-only root file system) and
# checks: migrate and accounts write into the volume; the server answers
# /healthz and /readyz, takes an API write and serves the sign-in page, as
# uid 10001; the image's HEALTHCHECK passes with the server up; nothing can be
# written outside /data and /tmp.
#
#   npm run test:container        (opt-in: 10-20 minutes, the image builds the app)
#
# Environment: CONTAINER_PORT (default 4890), DEBIAN_MIRROR (default
# http://deb.debian.org/debian), STATEHOUSE_BASE_IMAGE (a Node 20 Debian
# image to use instead of assembling one), KEEP_IMAGE=1 to keep the image.
# Exit 0 passed, 1 failed, 77 skipped (no podman, or not root for debootstrap).
#
# podman 4.3 (Debian 12) needs three settings on these machines, all given
# here per command, nothing changed on the machine:
# - no default ulimits (crun: "setrlimit RLIMIT_NOFILE: Operation not permitted"): CONTAINERS_CONF;
# - runc with cgroupfs instead of crun (crun: "cgroups in hybrid mode not supported"): --runtime runc
#   --cgroup-manager cgroupfs (Debian's runc package); builds use --isolation chroot;
# - the machine's CA bundle, for npm behind a TLS-inspecting egress: mounted into the build
#   and named by NODE_EXTRA_CA_CERTS (a build argument the Dockerfile declares).
# --format docker keeps HEALTHCHECK (the OCI format has none).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
port="${CONTAINER_PORT:-4890}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
tag="localhost/statehouse-test:$$"
base="${STATEHOUSE_BASE_IMAGE:-localhost/statehouse-node20-base:bookworm}"
name="statehouse-test-$$"
volume="statehouse-test-data-$$"
work="$(mktemp -d)"
started=$(date +%s)

say() { printf '[container-test %4ss] %s\n' "$(($(date +%s) - started))" "$*"; }
fail() { say "FAILED: $*"; exit 1; }

command -v podman >/dev/null || { say "skipped: podman is not installed"; exit 77; }
command -v runc >/dev/null || { say "skipped: runc is not installed (apt-get install runc): crun cannot run containers on this machine's hybrid cgroups"; exit 77; }

conf="$work/containers.conf"
printf '[containers]\ndefault_ulimits = []\n' >"$conf"
export CONTAINERS_CONF="$conf"
podman() { command podman --runtime runc --cgroup-manager cgroupfs "$@"; }

cleanup() {
  podman rm -f "$name" >/dev/null 2>&1 || true
  podman volume rm -f "$volume" >/dev/null 2>&1 || true
  [ "${KEEP_IMAGE:-}" = 1 ] || podman rmi -f "$tag" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# 1. The base: Debian bookworm (debootstrap) with this machine's Node 20 in /usr/local, as the node:20-bookworm-slim image lays it out.
if ! podman image exists "$base"; then
  [ "$(id -u)" = 0 ] || { say "skipped: assembling the base needs root (debootstrap); or set STATEHOUSE_BASE_IMAGE"; exit 77; }
  command -v debootstrap >/dev/null || { say "skipped: debootstrap is not installed"; exit 77; }
  node_version="$(node --version)"
  case "$node_version" in v20.*) ;; *) say "skipped: this machine's Node is $node_version, the image needs 20"; exit 77 ;; esac
  say "assembling the base $base (debootstrap bookworm from $mirror, Node $node_version from this machine)"
  rootfs="$work/rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log"; fail "debootstrap"; }
  node_bin="$(readlink -f "$(command -v node)")"
  node_prefix="$(dirname "$(dirname "$node_bin")")"
  mkdir -p "$rootfs/usr/local/bin" "$rootfs/usr/local/lib" "$rootfs/usr/local/include"
  cp "$node_bin" "$rootfs/usr/local/bin/node"
  cp -a "$node_prefix/lib/node_modules" "$rootfs/usr/local/lib/"
  cp -a "$node_prefix/include/node" "$rootfs/usr/local/include/"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  rm -rf "$rootfs/var/cache/apt/archives/"*.deb "$rootfs/var/lib/apt/lists/"*
  tar -C "$rootfs" -c . | podman import --change 'CMD ["node"]' - "$base" >/dev/null
  rm -rf "$rootfs"
fi
podman run --rm "$base" node --version | grep -q '^v20\.' || fail "the base has no Node 20"

# 2. The image, from the Dockerfile as it is.
ca=/etc/ssl/certs/ca-certificates.crt
build_flags=(--format docker --isolation chroot --build-arg "NODE_IMAGE=$base")
if [ -f "$ca" ]; then build_flags+=(--volume "$ca:/etc/ssl/certs/host-ca.crt:ro" --build-arg NODE_EXTRA_CA_CERTS=/etc/ssl/certs/host-ca.crt); fi
say "building $tag"
podman build "${build_flags[@]}" -t "$tag" "$here" >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail "podman build"; }
say "built: $(podman image inspect "$tag" --format '{{.Size}}' | awk '{printf "%.0f MB", $1/1e6}')"
[ "$(podman image inspect "$tag" --format '{{.Config.User}}')" = statehouse ] || fail "the image does not run as the statehouse user"
podman image inspect "$tag" --format '{{json .Config.Healthcheck}}' | grep -q healthcheck.mjs || fail "the image has no HEALTHCHECK"

# 3. Migrate and an account with a token, into the volume (SQLite).
podman volume create "$volume" >/dev/null
podman run --rm -v "$volume:/data" "$tag" migrate >"$work/migrate.log" 2>&1 || { cat "$work/migrate.log"; fail "migrate"; }
STATEHOUSE_PASSWORD='container test password, long enough' \
  podman run --rm -e STATEHOUSE_PASSWORD -v "$volume:/data" "$tag" accounts create admin --role admin >/dev/null || fail "accounts create"
token="$(podman run --rm -v "$volume:/data" "$tag" accounts token create admin --label container-test | tail -1 | tr -d '[:space:]')"
case "$token" in sht_*) ;; *) fail "no token from accounts token create: $token" ;; esac

# 4. The server: read-only root, /tmp a tmpfs, the volume for data.
podman run -d --name "$name" --read-only --tmpfs /tmp -v "$volume:/data" -p "127.0.0.1:$port:3000" \
  -e STATEHOUSE_AUTH=protected "$tag" >/dev/null
url="http://127.0.0.1:$port"
for _ in $(seq 1 120); do
  curl -fsS "$url/healthz" >/dev/null 2>&1 && break
  [ "$(podman inspect "$name" --format '{{.State.Running}}')" = true ] || { podman logs "$name" | tail -30; fail "the server exited"; }
  sleep 1
done
curl -fsS "$url/healthz" >/dev/null || { podman logs "$name" | tail -30; fail "/healthz does not answer"; }
say "serving after $(($(date +%s) - started)) s in all"
curl -fsS "$url/readyz" | grep -q . || fail "/readyz"
podman healthcheck run "$name" || fail "the HEALTHCHECK failed with the server up"
[ "$(podman exec "$name" id -u)" = 10001 ] || fail "the server does not run as uid 10001"
podman exec "$name" sh -c 'touch /app/x' 2>/dev/null && fail "/app is writable"
podman exec "$name" sh -c 'touch /x' 2>/dev/null && fail "the root file system is writable"
podman exec "$name" sh -c 'touch /tmp/x && touch /data/x && rm /tmp/x /data/x' || fail "/tmp or /data is not writable"
status="$(curl -s -o /dev/null -w '%{http_code}' "$url/api/list-apps")"
[ "$status" = 401 ] || fail "the API answered $status without a token (expected 401)"
created="$(curl -fsS -X POST -H "authorization: Bearer $token" -H 'content-type: application/json' \
  -d '{"sessionId": "s1", "state": {"topic": "tea"}}' "$url/api/apps/container/users/u1/sessions")" || fail "the API write"
echo "$created" | grep -q '"topic":"tea"' || fail "the write answered $created"
curl -fsS -H "authorization: Bearer $token" "$url/api/apps/container/users/u1/sessions/s1" | grep -q '"topic":"tea"' || fail "the write was not read back"
curl -fsS "$url/sign-in" | grep -qi 'sign in' || fail "the sign-in page"

# 5. The data outlives the container: a new one on the same volume reads the session.
podman rm -f "$name" >/dev/null
podman run -d --name "$name" --read-only --tmpfs /tmp -v "$volume:/data" -p "127.0.0.1:$port:3000" \
  -e STATEHOUSE_AUTH=protected "$tag" >/dev/null
for _ in $(seq 1 60); do curl -fsS "$url/healthz" >/dev/null 2>&1 && break; sleep 1; done
curl -fsS -H "authorization: Bearer $token" "$url/api/apps/container/users/u1/sessions/s1" | grep -q '"topic":"tea"' || fail "the session did not outlive the container"
podman stop -t 10 "$name" >/dev/null
podman run --rm --network none "$tag" healthcheck >/dev/null 2>&1 && fail "the HEALTHCHECK passed with no server"

say "passed (podman $(podman --version | awk '{print $3}'))"
