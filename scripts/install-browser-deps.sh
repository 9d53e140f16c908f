#!/usr/bin/env bash
# Installs the headless browser the kharbaga-server browser test drives: Debian's Chromium
# and its WebDriver (chromedriver). Idempotent: quick when both are already installed.
set -euo pipefail

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    echo "chromium and chromedriver are installed: $(/usr/bin/chromium --version 2>/dev/null || true)"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium chromium-driver fonts-dejavu-core
/usr/bin/chromium --version
/usr/bin/chromedriver --version
