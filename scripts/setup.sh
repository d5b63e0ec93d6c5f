#!/usr/bin/env bash
# Installs what the site and the tests need, and only what is missing:
#   - Debian packages, through apt-get as root or with sudo: python3-venv (to
#     make .venv), nodejs and npm (to install the runtime), chromium and
#     firefox-esr (for the browser tests; $CHROMIUM_PATH and $FIREFOX_PATH
#     name other browsers);
#   - the PyScript/Pyodide runtime pinned in package-lock.json, and the
#     tests' axe-core, puppeteer-core (puppeteer drives Firefox),
#     qrcode-generator and jsqr (tests/test_qr.py's oracle and decoder), all
#     devDependencies, into node_modules/ (npm ci);
#   - this package and its test tools (pytest, pytest-xdist, hypothesis,
#     playwright, and Dask for the cluster tests), into the project's virtual environment
#     .venv/ (Debian's own Python refuses pip installs, PEP 668).
# When everything is in place it checks and returns within a second or two.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

command -v python3 >/dev/null || die "python3 is missing (Python >= 3.11 is needed)"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || die "Python >= 3.11 is needed; python3 is $(python3 -V 2>&1)"

venv_stamp=.venv/.setup-stamp
venv_wanted="$(sha256sum pyproject.toml | cut -d' ' -f1)"

venv_usable() { [ -x .venv/bin/python ] && .venv/bin/python -c '' 2>/dev/null; }
# The stamp holds the hash of pyproject.toml the packages were installed from.
venv_ready() { venv_usable && [ "$(cat "$venv_stamp" 2>/dev/null)" = "$venv_wanted" ]; }

# True when node_modules holds every package of package-lock.json at its
# locked version (what `npm ci` would install), read from each package.json.
runtime_ready() {
  python3 - <<'EOF'
import json
import sys
from pathlib import Path

lock = json.loads(Path("package-lock.json").read_text(encoding="utf-8"))
for path, locked in lock["packages"].items():
    if not path.startswith("node_modules/") or locked.get("optional"):
        continue
    try:
        installed = json.loads(Path(path, "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        sys.exit(1)
    if installed.get("version") != locked.get("version"):
        sys.exit(1)
EOF
}

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
firefox="${FIREFOX_PATH:-/usr/bin/firefox-esr}"

# Debian packages, all in one apt-get run.
missing=()
# Debian's python3 can make a virtual environment only with python3-venv (ensurepip).
venv_usable || python3 -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
if ! runtime_ready; then
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
fi
[ -x "$chromium" ] || missing+=(chromium)
[ -x "$firefox" ] || missing+=(firefox-esr)

if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null \
    || die "no apt-get here: install ${missing[*]} yourself (or set CHROMIUM_PATH, FIREFOX_PATH), then run this again"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "installing ${missing[*]} needs root: run this as root or install sudo"
    sudo=(sudo)
  fi
  say "installing Debian packages: ${missing[*]} (a few minutes the first time)"
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  [ -x "$chromium" ] || die "no browser at $chromium after installing chromium: set CHROMIUM_PATH"
  [ -x "$firefox" ] || die "no browser at $firefox after installing firefox-esr: set FIREFOX_PATH"
fi

if ! runtime_ready; then
  say "installing the PyScript/Pyodide runtime from package-lock.json (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  runtime_ready || die "npm ci did not install the versions in package-lock.json"
fi

if ! venv_ready; then
  if ! venv_usable; then
    say "creating the virtual environment .venv/"
    rm -rf .venv
    python3 -m venv .venv
  fi
  say "installing this package and its test tools into .venv/ (pip install -e '.[test]')"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
  printf '%s\n' "$venv_wanted" >"$venv_stamp"
fi

say "ready. Tests: .venv/bin/python -m pytest -n auto (quick: -n auto -m 'not browser and not slow')." \
  "Site: .venv/bin/python -m game serve, then open http://127.0.0.1:8000/"
