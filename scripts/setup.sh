#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine: installs missing Debian packages, configures, builds, runs.
#   scripts/setup.sh main   build, lint the repository with emberlint (reports in build/reports/), run the example
#   scripts/setup.sh test   build and run the whole test suite: release, then ASan+UBSan, then the self-lint
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
  libclang-dev clang clang-tools libcli11-dev
  libopenblas-dev liblapacke-dev ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
  chromium
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
  mkdir -p build/reports
  status=0
  self_lint build/release --format json -o build/reports/emberlint.json || status=$?
  self_lint build/release --format text -o build/reports/emberlint.txt || status=$?
  cat build/reports/emberlint.txt 2>/dev/null || true
  echo "setup: emberlint reports written to build/reports/ (exit status $status)"
  ./build/release/ember_example
  exit "$status"
fi

# test
build release
ctest --preset release -j "$jobs"
self_lint build/release --statistics
build asan-ubsan
ctest --preset asan-ubsan -j "$jobs"
