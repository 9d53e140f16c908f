#!/usr/bin/env bash
# Installs the Python packages of the Dask tablebase driver (cluster/requirements.txt),
# unless they are importable already.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c "import distributed" 2>/dev/null; then
    python3 -m pip install -q -r cluster/requirements.txt
fi
