#!/usr/bin/env bash
# Regenerates test/golden/*.json from FastAPI (npm run golden:generate). Needs Python 3.10+; the tests
# that read the goldens do not. Set PIP_INDEX_URL (or pip's own config) for a local package mirror.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${ORACLE_VENV:-${TMPDIR:-/tmp}/campaign-calling-fastapi-oracle}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
"$venv/bin/python" -W ignore "$here/generate.py"
