#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in build/fuzz and fuzzes each one,
# one after another, for SECONDS seconds. Usage: tests/fuzz/run.sh [SECONDS] [TARGET...]
#   SECONDS  per target (default 60); TARGET e.g. hfconfig (default: every fuzz_*.cpp).
# Exit status 0 when no target crashed. A crash leaves its input in
# build/fuzz/artifacts/<target>/; once the bug is fixed, copy the input into
# tests/fuzz/regressions/<target>/ so every build replays it (see docs/FUZZING.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
shift || true
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "run.sh: SECONDS must be a whole number, got '$seconds'" >&2; exit 2; }

if (($#)); then
  targets=("$@")
else
  targets=()
  for f in tests/fuzz/fuzz_*.cpp; do
    t="${f##*/fuzz_}"
    targets+=("${t%.cpp}")
  done
fi

cxx="${ACSEL_FUZZ_CXX:-$(command -v clang++-14 || command -v clang++ || true)}"
[[ -n "$cxx" ]] || { echo "run.sh: clang++ not found (ACSEL_WITH_FUZZ=1 bash packaging/setup.sh)" >&2; exit 2; }

build=build/fuzz
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DACSEL_FUZZ=ON -DACSEL_SANITIZE=address -DACSEL_BUILD_GUI=OFF -DACSEL_WERROR=OFF >/dev/null
cmake --build "$build" -j "${ACSEL_FUZZ_JOBS:-2}" --target "${targets[@]/#/fuzz_}"

status=0
for t in "${targets[@]}"; do
  bin="$build/tests/fuzz/fuzz_$t"
  seeds="tests/fuzz/corpus/$t"
  work="$build/corpus/$t"
  artifacts="$build/artifacts/$t/"
  mkdir -p "$work" "$artifacts"
  dict=()
  [[ -f "tests/fuzz/dict/$t.dict" ]] && dict=(-dict="tests/fuzz/dict/$t.dict")
  # Known crashers first: a regression must stay fixed before new ground is searched.
  if [[ -d "tests/fuzz/regressions/$t" ]] && compgen -G "tests/fuzz/regressions/$t/*" >/dev/null; then
    "$bin" -runs=0 tests/fuzz/regressions/"$t"/* >/dev/null 2>&1 ||
      { echo "fuzz $t: a regression input fails again"; status=1; continue; }
  fi
  echo "fuzz $t: ${seconds}s"
  log="$build/fuzz_$t.log"
  # New inputs go to the work corpus (first folder); the committed seeds are only read.
  if "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$artifacts" "${dict[@]}" "$work" "$seeds" >"$log" 2>&1; then
    grep -E "^stat::number_of_executed_units|^stat::new_units_added" "$log" | tr '\n' ' '
    echo "corpus $(find "$work" -type f | wc -l) files: no crash"
  else
    status=1
    echo "fuzz $t: FAILED (log $log, input in $artifacts)"
    grep -E "ERROR|SUMMARY|property violated|terminate called|what\(\)" "$log" | head -5 || true
  fi
done
exit "$status"
