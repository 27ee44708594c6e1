#!/usr/bin/env bash
# Installs Debian packages for the end-to-end checks of .ci/run (Slurm, the browser test).
# `apt-get update` runs once per CI run: it is skipped when the package lists were refreshed
# in the last hour (by the check that ran before).
# Usage: bash tests/apt-install.sh PACKAGE...
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -60 2>/dev/null | head -n 1)" ]; then
    echo "apt-get update (package lists older than an hour)"
    apt-get update -qq
fi
apt-get install -y -qq "$@" >/dev/null
