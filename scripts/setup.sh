#!/usr/bin/env bash
# Installs everything the site and the tests need on a fresh Debian machine:
# Debian's Chromium (browser tests), the pinned PyScript/Pyodide runtime from
# the npm lock file, and this package with its test dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."

# The browser tests drive $CHROMIUM_PATH (default: Debian's /usr/bin/chromium).
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
npm ci --no-audit --no-fund --loglevel=error
python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'
