#!/usr/bin/env bash
# One command for a newcomer: install what is missing, build, and run the main job.
# With a display: the GUI on the default workspace. Without one: the headless equivalent.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/setup.sh
bash packaging/build.sh release
bin=build/release/app
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
  exec "$bin/studio/acsel-studio" "$@"
fi
# Without arguments the answer is also saved as a results folder (docs/CLI.md, "Results
# folder"), replaced on every run.
if (($#)); then
  echo "No display: running the headless equivalent (acsel recommend)."
  exec "$bin/acsel" recommend "$@"
fi
echo "No display: running the headless equivalent (acsel recommend), saved in build/recommendation/."
exec "$bin/acsel" recommend --save-dir build/recommendation --force
