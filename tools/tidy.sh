#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy's checks) on the core's .cpp files changed since a git revision
# (default: the newest commit's parent), with the core's own flags.
# Usage: tools/tidy.sh [REVISION]
set -euo pipefail
cd "$(dirname "$0")/.."
since="${1:-HEAD~1}"
if ! git rev-parse -q --verify "$since^{commit}" >/dev/null; then
  echo "tidy: no revision '$since' in this clone; nothing to check"
  exit 0
fi
mapfile -t files < <(git diff --name-only --diff-filter=d "$since" -- 'core/*.cpp')
if ((${#files[@]} == 0)); then
  echo "tidy: no core .cpp file changed since $since"
  exit 0
fi
# The core is plain C++ (no Qt): its own flags replace a compile database, which unity builds
# fill with batch files instead of sources.
echo "tidy: ${files[*]}"
# Two files at a time (one per core); any finding fails the run (.clang-tidy: warnings are errors).
printf '%s\n' "${files[@]}" |
  xargs -P 2 -I{} clang-tidy --quiet --extra-arg=-Wno-unknown-warning-option {} -- \
    -std=c++20 -I. -I/usr/include/eigen3 -DACSEL_VERSION='"tidy"'
