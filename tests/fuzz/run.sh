#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in build/fuzz and fuzzes each one for
# SECONDS seconds, one per core at a time. Usage: tests/fuzz/run.sh [SECONDS] [TARGET...]
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

# clang++ (the preset's) or ACSEL_FUZZ_CXX.
cxx="${ACSEL_FUZZ_CXX:-clang++}"
command -v "$cxx" >/dev/null ||
  { echo "run.sh: $cxx not found (ACSEL_WITH_FUZZ=1 bash packaging/setup.sh)" >&2; exit 2; }

# The fuzz preset: the asan preset's build (ASan + UBSan, GUI off) by clang, with libFuzzer.
build=build/fuzz
cmake --preset fuzz ${ACSEL_FUZZ_CXX:+-DCMAKE_CXX_COMPILER="$ACSEL_FUZZ_CXX"} >/dev/null
cmake --build "$build" -j "${ACSEL_FUZZ_JOBS:-2}" --target "${targets[@]/#/fuzz_}"

# Fuzzes one target; prints its report, returns 1 on a crash or a failing regression input.
fuzz_one() {
  local t=$1
  local bin="$build/tests/fuzz/fuzz_$t" seeds="tests/fuzz/corpus/$t" work="$build/corpus/$t"
  local artifacts="$build/artifacts/$t/" log="$build/fuzz_$t.log"
  mkdir -p "$work" "$artifacts"
  local dict=()
  [[ -f "tests/fuzz/dict/$t.dict" ]] && dict=(-dict="tests/fuzz/dict/$t.dict")
  # Known crashers first: a regression must stay fixed before new ground is searched.
  if [[ -d "tests/fuzz/regressions/$t" ]] && compgen -G "tests/fuzz/regressions/$t/*" >/dev/null; then
    "$bin" -runs=0 tests/fuzz/regressions/"$t"/* >/dev/null 2>&1 ||
      { echo "fuzz $t: a regression input fails again"; return 1; }
  fi
  echo "fuzz $t: ${seconds}s"
  # New inputs go to the work corpus (first folder); the committed seeds are only read.
  if "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$artifacts" "${dict[@]}" "$work" "$seeds" >"$log" 2>&1; then
    grep -E "^stat::number_of_executed_units|^stat::new_units_added" "$log" | tr '\n' ' '
    echo "corpus $(find "$work" -type f | wc -l) files: no crash"
  else
    echo "fuzz $t: FAILED (log $log, input in $artifacts)"
    grep -E "ERROR|SUMMARY|property violated|terminate called|what\(\)" "$log" | head -5 || true
    return 1
  fi
}

# One libFuzzer process per core (each is single-threaded): ACSEL_FUZZ_PARALLEL at a time,
# default nproc; the reports are printed in target order once all have run.
parallel="${ACSEL_FUZZ_PARALLEL:-$(nproc)}"
for t in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= parallel)); do
    wait -n || true # the status is in the target's file
  done
  (if fuzz_one "$t" >"$build/report_$t.txt" 2>&1; then echo 0; else echo 1; fi >"$build/status_$t") &
done
wait
status=0
for t in "${targets[@]}"; do
  cat "$build/report_$t.txt"
  [[ "$(cat "$build/status_$t")" == 0 ]] || status=1
done
exit "$status"
