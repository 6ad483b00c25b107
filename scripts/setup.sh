#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine: installs missing Debian packages, configures, builds, runs.
#   scripts/setup.sh main   build; emberlint check and analyze of the repository and the legacy migration plan
#                           (reports in build/reports/); run the example
#   scripts/setup.sh install   only install the missing Debian packages (what the other two do first)
#   scripts/setup.sh test [STAGE...]
#                           build and run the whole test suite, stage by stage: the release build and its tests,
#                           the self-lint, the ASan+UBSan build (clang 19) and its tests, emberlint's fuzz
#                           targets from that build (EMBER_FUZZ_SECONDS per target, default 45), and the
#                           install-and-build check in a fresh Debian 12 root. Every stage runs even when an
#                           earlier one failed (a stage whose build failed is skipped); a summary names what
#                           failed and how to rerun that stage alone: `scripts/setup.sh test STAGE...` runs
#                           only the stages named.
set -euo pipefail

test_stages=(release-build release-ctest self-lint asan-build asan-ctest fuzz fresh-root)
mode=${1:-}
case "$mode" in
  main | test | install) ;;
  *)
    echo "usage: scripts/setup.sh main | install | test [${test_stages[*]}]" >&2
    exit 2
    ;;
esac
shift
if [ "$mode" = test ]; then
  for name in "$@"; do
    case " ${test_stages[*]} " in
      *" $name "*) ;;
      *)
        echo "setup: no test stage '$name'; the stages are: ${test_stages[*]}" >&2
        exit 2
        ;;
    esac
  done
elif [ $# -gt 0 ]; then
  echo "usage: scripts/setup.sh $mode (takes no stages)" >&2
  exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)

packages=(
  cmake ninja-build g++ pkg-config git
  libeigen3-dev libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev
  libclang-19-dev libomp-19-dev clang-19 libclang-rt-19-dev clang clang-tools libcli11-dev
  libopenblas-dev liblapacke-dev ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo libclblast-dev
  chromium pre-commit
  curl ca-certificates      # scripts/fetch-sarif-validator.sh (the SARIF validator test)
  python3 python3-numpy clang-tidy jq bc  # bench/report.sh, bench/numpy_bench.py and bench/lint/compare.sh
                                          # (the benchmark report and its test), tests/golden/generate.py
  python3-torch             # bench/torch_bench.py: PyTorch on the CPU, the report's multi-threaded peer
  debootstrap               # the fresh-root test stage
  dpkg-dev file             # cpack's DEB generator (dpkg-shlibdeps, file): emberlint's package, its test
  bazel-bootstrap           # the Bazel aspect's test (tests/bazel/bazel_test.sh)
  neovim                    # a real client of `emberlint lsp` (tests/lint/lsp/neovim_test.sh)
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
[ "$mode" = install ] && exit 0
if [ "$mode" = test ]; then
  # A test tool (tests/lint/sarif_validator_test.py): fetched, pinned, not built; its test fails without it.
  bash scripts/fetch-sarif-validator.sh ||
    echo "setup: could not fetch the SARIF validator; the emberlint_sarif_validator test will fail" >&2
fi

if [ "$mode" = main ]; then
  build release
  reports=build/reports
  mkdir -p "$reports"
  lint=build/release/bin/emberlint
  status=0
  # The shipped tree: one check (lint findings, in three formats) and one analyze (the operations inventory
  # of ember's three backends, in five); each report's format comes from its extension.
  self_lint build/release -o "$reports/emberlint.json" -o "$reports/emberlint.txt" \
    -o "$reports/emberlint.sarif" || status=$?
  "$lint" analyze -p build/release -o "$reports/inventory.txt" -o "$reports/inventory.html" \
    -o "$reports/inventory.md" -o "$reports/inventory.json" -o "$reports/inventory.sarif" || status=$?
  # The migration plan of the legacy example (a dry run: examples/legacy/ is left untouched). Its backend code
  # sits in the frontend on purpose, so the plan has moves and emberlint exits 1 (findings): that is the
  # expected result here; 2 or 3 (bad configuration, unparsable input) is a failure.
  plan=0
  (cd examples/legacy && "$root/$lint" analyze --migrate --backend all --dry-run \
    -o "$root/$reports/legacy-migration.md" -o "$root/$reports/legacy-migration.json") || plan=$?
  case "$plan" in
    1) ;;
    0) echo "setup: the legacy example's migration plan is empty; it should move its backend code" >&2
       status=1 ;;
    *) status=$plan ;;
  esac
  cat "$reports/emberlint.txt" 2>/dev/null || true
  cat "$reports/inventory.txt" 2>/dev/null || true
  echo "setup: reports written to $root/$reports:"
  ls -1 "$reports" | sed "s|^|  $reports/|"
  echo "setup: the legacy example's migration plan (moves expected): $reports/legacy-migration.md"
  ./build/release/ember_example || status=$?
  if [ "$status" -eq 0 ]; then
    echo "setup: main job done: emberlint check and analyze of this tree found nothing; reports in $reports/"
  else
    echo "setup: main job failed with exit status $status (see the output above)" >&2
  fi
  exit "$status"
fi

# test: every selected stage runs; a stage that needs a build which failed is skipped, not run on stale files.
selected=("$@")
[ ${#selected[@]} -gt 0 ] || selected=("${test_stages[@]}")
declare -A result seconds
wanted() { case " ${selected[*]} " in *" $1 "*) return 0 ;; esac; return 1; }

stage() {  # stage NAME [NEEDS] -- COMMAND...: runs COMMAND unless the stage NEEDS failed; records the outcome
  local name=$1 needs=${2:-} start=$SECONDS rc=0
  shift 2
  [ "${1:-}" = -- ] && shift
  wanted "$name" || return 0
  if [ -n "$needs" ] && [ "${result[$needs]:-}" = failed ]; then
    result[$name]="skipped ($needs failed)"
    seconds[$name]=0
    echo "setup: stage $name skipped: $needs failed"
    return 0
  fi
  echo "setup: stage $name"
  "$@" || rc=$?
  seconds[$name]=$((SECONDS - start))
  if [ "$rc" -eq 0 ]; then
    result[$name]=passed
  else
    result[$name]=failed
  fi
  echo "setup: stage $name ${result[$name]} in ${seconds[$name]} s"
}

failed_tests() {  # failed_tests BUILD_DIR: the tests ctest's last run in BUILD_DIR failed, one per line
  local log=$1/Testing/Temporary/LastTestsFailed.log
  [ -f "$log" ] && sed 's/^[0-9]*://' "$log"
}

rerun_hint() {  # rerun_hint STAGE: how to rerun just that stage, and for ctest stages just the failed tests
  local name=$1 preset tests
  echo "    rerun the stage:  bash scripts/setup.sh test $name"
  case "$name" in
    release-ctest) preset=release ;;
    asan-ctest) preset=asan-ubsan ;;
    fuzz) echo "    its logs:         build/asan-ubsan/logs/ (failing inputs in build/asan-ubsan/artifacts/)" ;;
    fresh-root) echo "    its log:          build/fresh-root.log" ;;
  esac
  if [ -n "${preset:-}" ]; then
    tests=$(failed_tests "build/$preset" | paste -sd '|' -)
    [ -n "$tests" ] &&
      echo "    rerun the failed: ctest --preset $preset --output-on-failure -R '^($tests)\$'"
  fi
  return 0
}

# fresh-root: the install-and-build part of this script in a Debian 12 root made from nothing by debootstrap,
# so that a package this script forgets to install, but the host happens to have, fails here first. Its
# downloads start at once in the background (they need the network, not the cores) and the stage waits for
# them at the end. The root lives in build/fresh-root; nothing of the host is mounted in it except /proc, and
# that only while a command runs in the root (fresh_root_run), so that a run stopped by SIGKILL, which no trap
# sees, leaves no mount behind for the next run's rm -rf to walk into.
fresh_root=$root/build/fresh-root
fresh_log=$root/build/fresh-root.log
fresh_pid=
fresh_root_unmount() {
  if mountpoint -q "$fresh_root/proc" 2>/dev/null; then umount "$fresh_root/proc" || umount -l "$fresh_root/proc"; fi
}
fresh_root_run() {  # runs bash -c "$1" in the root with /proc mounted, and unmounts it whatever happens
  local rc=0
  mount -t proc proc "$fresh_root/proc"
  chroot "$fresh_root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root bash -c "$1" || rc=$?
  fresh_root_unmount
  return "$rc"
}
fresh_root_prepare() {  # debootstrap + this script's package list, inside the root
  set -e
  fresh_root_unmount
  rm -rf --one-file-system "$fresh_root"
  mkdir -p "$fresh_root"
  # The host's own Debian mirror, read from its apt sources; debootstrap's default when there is none.
  local mirror
  mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
  debootstrap --variant=minbase bookworm "$fresh_root" $mirror
  cp /etc/apt/sources.list.d/debian.sources "$fresh_root/etc/apt/sources.list.d/" 2>/dev/null || true
  printf '#!/bin/sh\nexit 101\n' >"$fresh_root/usr/sbin/policy-rc.d"  # no service starts in the root
  chmod +x "$fresh_root/usr/sbin/policy-rc.d"
  mkdir -p "$fresh_root/src"
  git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$fresh_root/src"
  fresh_root_run 'cd /src && bash scripts/setup.sh install'
}
fresh_root_build() {  # waits for the preparation, then configures every dependency and builds in the root
  local rc=0
  wait "$fresh_pid" || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "setup: preparing the fresh root failed (exit $rc); the end of build/fresh-root.log:" >&2
    tail -n 30 "$fresh_log" >&2
    return "$rc"
  fi
  # Configuring finds every dependency of every target (Eigen, OpenBLAS, LAPACKE, OpenCL, GoogleTest, Google
  # Benchmark, libclang, CLI11, nlohmann-json); emberlint, the one that links libclang, builds and runs. (The
  # ember library's build is left to the other stages: it would add minutes and test no other package.)
  # Then emberlint's Debian package (cmake/EmberlintPackage.cmake) is made, installed with apt as a user
  # would, and /usr/bin/emberlint checks tests/lint/fixtures/package: exit 1 with its planted EL100 and EL101.
  fresh_root_run \
    "cd /src && cmake --preset release >/dev/null && cmake --build --preset release -j $jobs --target emberlint && build/release/bin/emberlint rules >/dev/null && rm -rf build/package && cpack --config build/release/CPackConfig.cmake -B build/package && apt-get install -y ./build/package/emberlint_*.deb && cd tests/lint/fixtures/package && { /usr/bin/emberlint check --no-cache src >/tmp/package-check.txt; status=\$?; cat /tmp/package-check.txt; [ \$status -eq 1 ] && grep -q 'EL100 frontend-includes-backend' /tmp/package-check.txt && grep -q 'EL101 frontend-uses-backend-symbol' /tmp/package-check.txt; }" \
    >>"$fresh_log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "setup: building in the fresh root failed (exit $rc); the end of build/fresh-root.log:" >&2
    tail -n 30 "$fresh_log" >&2
  fi
  return "$rc"
}
if wanted fresh-root; then
  if ! command -v debootstrap >/dev/null || [ "$(id -u)" -ne 0 ]; then
    echo "setup: the fresh-root stage needs root and debootstrap" >&2
  else
    mkdir -p build
    trap fresh_root_unmount EXIT
    (fresh_root_prepare) >"$fresh_log" 2>&1 &
    fresh_pid=$!
  fi
fi

stage release-build "" -- build release
# emberlint's own suites (label sanitized: its unit and end-to-end tests, the analyze suites but the parse-bound
# two, the language server's) run once per test command, in the asan-ubsan build, which runs the same tests
# with ASan and UBSan watching; the release stage runs them only when the asan-ctest stage is not selected.
# ember's suites run in both builds: its bit-identity contract holds for GCC's -O3 code and clang's alike.
release_filter=()
wanted asan-ctest && release_filter=(-LE '^sanitized$')
stage release-ctest release-build -- ctest --preset release -j "$jobs" "${release_filter[@]}"
stage self-lint release-build -- self_lint build/release --statistics
stage asan-build "" -- build asan-ubsan
stage asan-ctest asan-build -- ctest --preset asan-ubsan -j "$jobs"
# emberlint's fuzz targets (clang + libFuzzer), built by the asan-ubsan preset beside its tests (whose ctest
# replays their seed corpora and regression inputs): 45 seconds of fuzzing per target, two at a time.
stage fuzz asan-build -- bash fuzz/run.sh -B build/asan-ubsan "${EMBER_FUZZ_SECONDS:-45}"
if [ -n "$fresh_pid" ]; then
  stage fresh-root "" -- fresh_root_build
elif wanted fresh-root; then
  result[fresh-root]=failed
  seconds[fresh-root]=0
fi
fresh_root_unmount

status=0
echo
echo "setup: test stages"
for name in "${selected[@]}"; do
  printf '  %-14s %-24s %6s s\n' "$name" "${result[$name]:-not run}" "${seconds[$name]:-0}"
done
for name in "${selected[@]}"; do
  case "${result[$name]:-}" in
    passed) ;;
    *)
      status=1
      echo
      echo "setup: stage $name: ${result[$name]:-not run}"
      rerun_hint "$name"
      ;;
  esac
done
[ "$status" -eq 0 ] && echo "setup: all ${#selected[@]} stages passed"
exit "$status"
