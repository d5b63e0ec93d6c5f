#!/usr/bin/env bash
# Runs the README's two commands the way a stranger would: in a fresh minimal
# Debian 12 root that has only python3 (debootstrap --variant=minbase), as
# root, with the committed repository (HEAD) copied in by `git archive`.
#   1. the serve line, in the background: the served page must answer, then
#      the server is stopped;
#   2. the test line, which must pass (engine and browser tests).
# Each command's time is printed at the end. On a 2-core machine at load 1-3
# (2026-11-25): debootstrap 38 s, line 1 89 s (apt, npm, pip, build), line 2
# 641 s (923 tests, in Chromium and Firefox), line 1 again 1 s.
#
#   sudo bash scripts/fresh_root_check.sh [DIR]   # DIR: where to build the root (default: a new temp dir)
#
# SERVE_ONLY=1 stops after line 1 (the set-up from nothing and the served page),
# when the suite itself is run elsewhere on the same lock files (a fresh clone's CI).
#
# It needs root (debootstrap, chroot, mounts) and the network (Debian's mirror,
# PyPI, the npm registry); without them it says why and exits 0. Port 8000 must
# be free: the chroot shares this machine's network. The root is deleted at the
# end unless KEEP_ROOT=1.
set -euo pipefail
cd "$(dirname "$0")/.."

MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SERVE_WAIT="${SERVE_WAIT:-1800}"  # seconds for the first line to install, build and answer

skip() { echo "fresh-root check skipped: $*"; exit 0; }
fail() { echo "fresh-root check FAILED: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || skip "it needs root (debootstrap, chroot, mounts)"
command -v apt-get >/dev/null || skip "it needs a Debian-like host (apt-get) to install debootstrap"
for url in "$MIRROR/dists/bookworm/Release" https://pypi.org/simple/pytest/ https://registry.npmjs.org/pyodide; do
  python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=15)' "$url" \
    2>/dev/null || skip "no network access to $url"
done
python3 -c 'import socket; socket.create_server(("127.0.0.1", 8000)).close()' 2>/dev/null \
  || fail "port 8000 is in use on this machine: the serve line inside the root needs it"

# The two commands, exactly as the README writes them: the first code block's lines.
mapfile -t LINES < <(python3 - <<'EOF'
import re
from pathlib import Path

block = re.search(r"```sh\n(.*?)```", Path("README.md").read_text(encoding="utf-8"), re.S)
print(block.group(1).strip())
EOF
)
[ ${#LINES[@]} -eq 2 ] || fail "README's first code block should hold exactly two commands"
SERVE_LINE="${LINES[0]}"
TEST_LINE="${LINES[1]}"
[[ "$SERVE_LINE" == *"game serve"* && "$TEST_LINE" == *pytest* ]] \
  || fail "README's first two lines should serve the site, then run the tests"

command -v debootstrap >/dev/null || {
  echo "installing debootstrap"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
}

ROOT="${1:-$(mktemp -d /var/tmp/fresh-root.XXXXXX)}"
[ ! -e "$ROOT" ] || [ -z "$(ls -A "$ROOT")" ] || fail "$ROOT must be a new or empty folder"
mkdir -p "$ROOT"
ROOT="$(realpath "$ROOT")"
export ROOT PROJECT=/root/jekyll-hyde-games
SERVER_PID=""

mounted() { grep -q " $ROOT/" /proc/mounts; }

cleanup() {
  if [ -n "$SERVER_PID" ]; then
    kill -TERM -- "-$SERVER_PID" 2>/dev/null || true
  fi
  for m in dev/shm dev/pts dev sys proc; do
    if mountpoint -q "$ROOT/$m"; then umount "$ROOT/$m" || umount -l "$ROOT/$m" || true; fi
  done
  # Never delete through a mount left behind: it would reach this machine's /dev or /proc.
  if mounted; then
    echo "warning: something is still mounted under $ROOT; not deleting it" >&2
  elif [ "${KEEP_ROOT:-0}" != 1 ]; then
    rm -rf "$ROOT"
  else
    echo "the root is kept in $ROOT"
  fi
}
trap cleanup EXIT

seconds() { date +%s; }
t0=$(seconds)
echo "== debootstrap bookworm (minbase, python3, ca-certificates) into $ROOT"
debootstrap --variant=minbase --include=python3,ca-certificates bookworm "$ROOT" "$MIRROR" >/dev/null
t_boot=$(( $(seconds) - t0 ))

# This machine's network settings: its DNS, and the certificate authorities it
# added itself (a network behind a TLS-inspecting proxy needs them for npm and pip).
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
  chroot "$ROOT" update-ca-certificates >/dev/null 2>&1
fi
mount -t proc proc "$ROOT/proc"
mount -t sysfs sys "$ROOT/sys"
mount --bind /dev "$ROOT/dev"
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$ROOT/dev/pts"
mount -t tmpfs -o mode=1777 shm "$ROOT/dev/shm"

mkdir -p "$ROOT$PROJECT"
commit="$(git rev-parse --short HEAD)"
git archive HEAD | tar -x -C "$ROOT$PROJECT"
echo "== the repository at $commit is in $PROJECT; the root has: $(chroot "$ROOT" python3 -V)," \
  "no pip, no venv, no node, no chromium"

# A login-like environment: nothing of this machine's PATH, pip or npm settings.
in_root() {
  chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c "cd $PROJECT && $1"
}
export -f in_root

echo "== line 1: $SERVE_LINE"
t0=$(seconds)
# Its own process group, to stop the server and everything it started at once.
setsid bash -c 'in_root "$0"' "$SERVE_LINE" > >(sed 's/^/   | /') 2>&1 &
SERVER_PID=$!
page=""
while [ $(( $(seconds) - t0 )) -lt "$SERVE_WAIT" ]; do
  kill -0 "$SERVER_PID" 2>/dev/null || fail "the serve line stopped before the page answered"
  page="$(in_root "python3 -c 'import urllib.request; print(urllib.request.urlopen(\"http://127.0.0.1:8000/\", timeout=5).read().decode())'" 2>/dev/null)" && break
  page=""
  sleep 2
done
t_serve=$(( $(seconds) - t0 ))
# The start page: it loads the game's runtime from static/js/front.mjs.
[[ "$page" == *"static/js/front.mjs"* ]] \
  || fail "no page at http://127.0.0.1:8000/ after ${t_serve}s"
echo "== the page answers at http://127.0.0.1:8000/ (${#page} bytes) after ${t_serve}s; stopping the server"
kill -TERM -- "-$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""
if [ "${SERVE_ONLY:-0}" = 1 ]; then
  echo "fresh-root check (line 1 only, SERVE_ONLY=1) passed at $commit: debootstrap ${t_boot}s;" \
    "line 1 (install + serve) ${t_serve}s"
  exit 0
fi

echo "== line 2: $TEST_LINE"
t0=$(seconds)
set +e
in_root "$TEST_LINE" 2>&1 | sed 's/^/   | /'
status=${PIPESTATUS[0]}
set -e
t_test=$(( $(seconds) - t0 ))
[ "$status" -eq 0 ] || fail "the test line exited with status $status after ${t_test}s"

echo "== line 1 again (everything installed): it must answer at once"
t0=$(seconds)
setsid bash -c 'in_root "$0"' "$SERVE_LINE" >/dev/null 2>&1 &
SERVER_PID=$!
until in_root "python3 -c 'import urllib.request; urllib.request.urlopen(\"http://127.0.0.1:8000/\", timeout=5)'" 2>/dev/null; do
  kill -0 "$SERVER_PID" 2>/dev/null || fail "the second serve stopped before the page answered"
  [ $(( $(seconds) - t0 )) -lt 120 ] || fail "the second serve did not answer within 120s"
  sleep 1
done
t_again=$(( $(seconds) - t0 ))
kill -TERM -- "-$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""

echo "fresh-root check passed at $commit: debootstrap ${t_boot}s; line 1 (install + serve) ${t_serve}s;" \
  "line 2 (setup again + every test) ${t_test}s; line 1 again ${t_again}s"
