#!/usr/bin/env bash
# Installs the project's git hooks (tools/hooks/commit-msg) into the checkout at REPO (default:
# the source tree this script is in), for contributors; packaging/setup.sh runs it.
# Usage: install.sh [REPO]
# Does nothing outside a git checkout of REPO itself (a source tarball, a tree unpacked inside
# another repository), under core.hooksPath (the user manages the hooks), and keeps a
# commit-msg hook of the user's own. Never fails the caller: a hook is a convenience.
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "${1:-$here/../..}" && pwd -P)"
top="$(git -C "$repo" rev-parse --show-toplevel 2>/dev/null)" || exit 0
[[ "$(cd "$top" && pwd -P)" == "$repo" ]] || exit 0
if [[ -n "$(git -C "$repo" config core.hooksPath)" ]]; then
  echo "setup: core.hooksPath is set: install tools/hooks/commit-msg there yourself"
  exit 0
fi
hooks="$(git -C "$repo" rev-parse --git-path hooks)"
[[ "$hooks" = /* ]] || hooks="$repo/$hooks"
target="$hooks/commit-msg"
if [[ -e "$target" ]] && ! grep -q "acsel commit-msg hook" "$target"; then
  echo "setup: $target is your own: kept (the project's is tools/hooks/commit-msg)"
  exit 0
fi
cmp -s "$here/commit-msg" "$target" && exit 0
if mkdir -p "$hooks" && cp "$here/commit-msg" "$target.tmp" && chmod +x "$target.tmp" &&
  mv "$target.tmp" "$target"; then
  echo "setup: installed the commit-msg hook (subject <= 72 characters, blank line before the body)"
else
  echo "setup: could not write $target: the commit-msg hook is not installed"
fi
exit 0
