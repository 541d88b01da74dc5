#!/usr/bin/env bash
# One command for a newcomer and for CI: install what is missing, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/setup.sh
bash packaging/build.sh release
ctest --preset release -j "$(nproc)"
