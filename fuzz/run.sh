#!/usr/bin/env bash
# Builds the `fuzz` preset (clang, libFuzzer, ASan + UBSan; emberlint only), replays the seed corpora and the
# regression inputs (ctest), then fuzzes every target for SECONDS (default 60), two at a time, each from a
# copy of its committed corpus plus the folders fuzz/corpus/<target>.seeds names, read in place (libFuzzer
# adds new inputs to its first folder only, the copy: nothing committed is modified). Fails on any crash,
# leak, timeout, out-of-memory or sanitizer report, and prints each target's executions per second.
#   fuzz/run.sh [-B BUILD_DIR] [SECONDS] [TARGET...]      e.g. fuzz/run.sh 300 fuzz_config
# -B: fuzz the targets of a build folder configured with -DEMBERLINT_FUZZ=ON instead of the `fuzz` preset's
# (the `asan-ubsan` preset builds them too, so CI builds the sanitized engine once); the seed corpora and the
# regression inputs are then left to that folder's own ctest run, which replays them.
# A failing input is kept in BUILD/artifacts/ (build/fuzz/ without -B; the log in BUILD/logs/): fix the bug, then add
# the input to fuzz/regressions/<target>/ and a test to tests/lint/fuzz_regression_test.cpp.
set -euo pipefail

usage() {
  echo "usage: fuzz/run.sh [-B BUILD_DIR] [SECONDS] [TARGET...]" >&2
  exit 2
}
build=
if [ "${1:-}" = -B ]; then
  [ $# -ge 2 ] || usage
  build=$2
  shift 2
fi
seconds=${1:-60}
shift || true
case "$seconds" in
  '' | *[!0-9]*) usage ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)
parallel=2
targets=("$@")

if [ -n "$build" ]; then
  if [ ! -f "$build/CMakeCache.txt" ] || ! grep -q '^EMBERLINT_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
    echo "fuzz: $build is not a build folder configured with -DEMBERLINT_FUZZ=ON" >&2
    exit 2
  fi
  echo "fuzz: building the fuzz targets in $build"
  cmake --build "$build" -j "$jobs" --target emberlint_fuzz
else
  build=build/fuzz
  echo "fuzz: building the fuzz preset"
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz -j "$jobs"
  echo "fuzz: replaying the seed corpora and the regression inputs"
  if [ ${#targets[@]} -gt 0 ]; then
    ctest --preset fuzz -j "$parallel" -R "^($(IFS='|'; echo "${targets[*]}"))_"
  else
    ctest --preset fuzz -j "$parallel"
  fi
fi

if [ ${#targets[@]} -eq 0 ]; then
  for exe in "$build"/fuzz/fuzz_*; do
    [ -x "$exe" ] && targets+=("$(basename "$exe")")
  done
fi
[ ${#targets[@]} -gt 0 ] || { echo "fuzz: no fuzz targets in $build/fuzz" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/emberlint-fuzz-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$build/logs" "$build/artifacts"

# use_sigaltstack=0 is compiled into every fuzz target (tests/sanitizers/sanitizer_defaults.cpp says why).
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=${LSAN_OPTIONS:-}

seed_folders() {  # seed_folders NAME: the folders fuzz/corpus/NAME.seeds names (comments and blanks skipped)
  local list=fuzz/corpus/$1.seeds line
  [ -f "$list" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in '' | '#'*) continue ;; esac
    [ -d "$line" ] || { echo "fuzz: $list: $line is not a folder of the repository" >&2; return 2; }
    echo "$line"
  done <"$list"
}

run_target() {  # run_target NAME: fuzzes one target; its exit status is libFuzzer's
  local name=$1
  local corpus=$work/corpus/$name
  local seeds
  mkdir -p "$corpus" "$work/tmp/$name"
  cp fuzz/corpus/"$name"/* "$corpus"/
  mapfile -t seeds < <(seed_folders "$name")
  local args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -detect_leaks=1 -print_final_stats=1
              -artifact_prefix="$build/artifacts/$name-")
  [ -f "fuzz/dict/$name.dict" ] && args+=(-dict="fuzz/dict/$name.dict")
  # One libclang parse per input: a bounded input keeps it short.
  [ "$name" = fuzz_pipeline ] && args+=(-max_len=4096)
  TMPDIR=$work/tmp/$name "$build/fuzz/$name" "${args[@]}" "$corpus" "${seeds[@]}" </dev/null \
    >"$build/logs/$name.log" 2>&1
}

declare -A status
pids=()
names=()
for name in "${targets[@]}"; do
  if [ ! -x "$build/fuzz/$name" ]; then
    echo "fuzz: no target $name in $build/fuzz" >&2
    exit 2
  fi
  seed_folders "$name" >/dev/null || exit 2
  # Two at a time: wait for one to finish before starting a third.
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do sleep 1; done
  echo "fuzz: $name for ${seconds}s (log: $build/logs/$name.log)"
  run_target "$name" &
  pids+=($!)
  names+=("$name")
done
for i in "${!pids[@]}"; do
  rc=0
  wait "${pids[$i]}" || rc=$?
  status[${names[$i]}]=$rc
done

failed=()
printf '\n%-20s %10s %10s %8s  %s\n' target runs exec/s seconds result
for name in "${names[@]}"; do
  log=$build/logs/$name.log
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  result=ok
  # Any report fails the run, also one that somehow left the exit status at 0.
  if [ "${status[$name]}" -ne 0 ] || grep -qE '^(==[0-9]+==)?ERROR: |^SUMMARY: |runtime error:|invariant broken' "$log"; then
    result="FAILED (exit ${status[$name]})"
    failed+=("$name")
  fi
  printf '%-20s %10s %10s %8s  %s\n' "$name" "${runs:-?}" "${rate:-?}" "$seconds" "$result"
done
if [ ${#failed[@]} -gt 0 ]; then
  for name in "${failed[@]}"; do
    echo
    echo "fuzz: $name failed; the end of $build/logs/$name.log:"
    grep -vE '^#[0-9]+' "$build/logs/$name.log" | tail -40
  done
  echo
  echo "fuzz: failing inputs are in $build/artifacts/"
  exit 1
fi
echo "fuzz: all ${#names[@]} targets ran ${seconds}s without a crash, leak, timeout or sanitizer report"
