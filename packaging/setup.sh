#!/usr/bin/env bash
# Installs the Debian packages ACSeL Studio needs, only those that are missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev libgl-dev
  libqcustomplot-dev libeigen3-dev nlohmann-json3-dev libyaml-cpp-dev
  xvfb xauth
  # The bad-input corpus (tests/corpus/corpus.py) is a Python 3 script (standard library only).
  python3
  # The package test: dpkg-shlibdeps checks Depends; the validators check the desktop files.
  dpkg-dev desktop-file-utils appstream
  # tools/measure_rmqd (the RMQD measurement companion) and its tests; numpy and yaml come
  # with python3-torch, named for the imports they serve.
  python3-torch python3-numpy python3-yaml
  # The locale test and CI's second GUI test run need a decimal-comma locale (de_DE.UTF-8).
  locales
)
# The fuzzers (tests/fuzz/run.sh) and the lint of changed core files (tools/tidy.sh).
[[ "${ACSEL_WITH_FUZZ:-0}" == 1 ]] && packages+=(clang libclang-rt-14-dev clang-tidy)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# acsel import-aic reads AIConfigurator's Parquet tables with npm's hyparquet (no Parquet reader
# is packaged for Debian 12); installed beside its script when npm is there, optional otherwise.
import_aic="$(dirname "$0")/../tools/import_aic"
if [[ ! -f "$import_aic/node_modules/hyparquet/package.json" ]] && command -v npm >/dev/null; then
  echo "setup: npm install in tools/import_aic (the Parquet reader of acsel import-aic)"
  npm install --prefix "$import_aic" --no-audit --no-fund --silent ||
    echo "setup: npm install failed: acsel import-aic will say how to install it"
fi

# Generated once (localedef, from the locales package's definitions); the locale test fails
# without it.
if ! locale -a 2>/dev/null | grep -qix 'de_DE.utf-\?8'; then
  echo "setup: generating the de_DE.UTF-8 locale"
  sudo_cmd=""
  [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
  $sudo_cmd localedef -i de_DE -f UTF-8 de_DE.UTF-8
fi

# For contributors: the commit-msg hook (HACKING.md, "Commits") into .git/hooks, only when this
# tree is a git checkout; a user's own hook is kept.
bash "$(dirname "$0")/../tools/hooks/install.sh"
