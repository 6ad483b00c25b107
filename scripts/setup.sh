#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine: installs missing Debian packages, configures, builds, runs.
#   scripts/setup.sh main   build; emberlint check and analyze of the repository and the legacy migration plan
#                           (reports in build/reports/); run the example
#   scripts/setup.sh test   build and run the whole test suite: release, then ASan+UBSan, then the self-lint,
#                           then emberlint's fuzz targets (EMBER_FUZZ_SECONDS per target, default 60)
set -euo pipefail

mode=${1:-}
case "$mode" in
  main | test) ;;
  *)
    echo "usage: scripts/setup.sh main|test" >&2
    exit 2
    ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)

packages=(
  cmake ninja-build g++ pkg-config git
  libeigen3-dev libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev
  libclang-dev clang clang-tools libclang-rt-14-dev libcli11-dev
  libopenblas-dev liblapacke-dev ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
  chromium pre-commit
  python3 clang-tidy jq bc  # bench/report.sh and bench/lint/compare.sh (the benchmark report and its test)
)

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "setup: installing missing Debian packages: ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "setup: not root and no sudo; install these packages first: ${missing[*]}" >&2
      exit 2
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {  # build PRESET [TARGETS...]
  local preset=$1
  shift
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs" "$@"
}

stage() {  # stage NAME COMMAND...: runs COMMAND, then says how long it took
  local name=$1 start=$SECONDS
  shift
  "$@"
  echo "setup: $name took $((SECONDS - start)) s"
}

self_lint() {  # self_lint BUILD_DIR [emberlint options...]
  local dir=$1
  shift
  if [ -x "$dir/bin/emberlint" ]; then
    "$dir/bin/emberlint" check -p "$dir" "$@"
  else
    echo "setup: $dir/bin/emberlint was not built" >&2
    return 1
  fi
}

install_missing

if [ "$mode" = main ]; then
  build release
  reports=build/reports
  mkdir -p "$reports"
  lint=build/release/bin/emberlint
  status=0
  # The shipped tree: lint findings, then the operations inventory of ember's three backends.
  self_lint build/release --format json -o "$reports/emberlint.json" || status=$?
  self_lint build/release --format text -o "$reports/emberlint.txt" || status=$?
  self_lint build/release --format sarif -o "$reports/emberlint.sarif" || status=$?
  for format in html markdown json sarif; do
    ext=$format
    [ "$format" = markdown ] && ext=md
    "$lint" analyze -p build/release --format "$format" -o "$reports/inventory.$ext" || status=$?
  done
  # The migration plan of the legacy example (a dry run: examples/legacy/ is left untouched).
  for format in markdown json; do
    ext=$format
    [ "$format" = markdown ] && ext=md
    (cd examples/legacy && "$root/$lint" analyze --migrate --backend all --dry-run --format "$format") \
      > "$reports/legacy-migration.$ext" || status=$?
  done
  cat "$reports/emberlint.txt" 2>/dev/null || true
  "$lint" analyze -p build/release --format table || status=$?
  echo "setup: reports written to $root/$reports:"
  ls -1 "$reports" | sed "s|^|  $reports/|"
  echo "setup: exit status $status"
  ./build/release/ember_example
  exit "$status"
fi

# test
stage "release build" build release
stage "release ctest" ctest --preset release -j "$jobs"
stage "self-lint" self_lint build/release --statistics
stage "asan-ubsan build" build asan-ubsan
stage "asan-ubsan ctest" ctest --preset asan-ubsan -j "$jobs"
# emberlint's fuzz targets (clang + libFuzzer): the regression inputs, then a minute of fuzzing per target.
stage "fuzz build and run" bash fuzz/run.sh "${EMBER_FUZZ_SECONDS:-60}"
