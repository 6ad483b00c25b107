#!/usr/bin/env bash
# Times cold runs of emberlint, of clang-tidy with one cheap check, and of `clang++ -fsyntax-only` over the
# same translation units of a compile database, in one run and at the same parallelism, and prints the
# ratios. Targets: emberlint <= 0.5x clang-tidy and <= 1.0x the plain syntax check.
#
#   bench/lint/compare.sh [-p BUILD_DIR] [-j JOBS] [--emberlint PATH] [--json FILE] [PATH_FILTER]
#
# BUILD_DIR defaults to build/release, JOBS to the number of cores, PATH_FILTER (a regular expression over
# the files of the database) to every file. Needs jq, bc, clang-tidy and clang++ (Debian: jq bc clang-tidy
# clang); a missing one is an error (exit 2). --json FILE also writes the three times the way Google
# Benchmark's --benchmark_format=json does (benchmarks lint_<N>_units_j<J>/emberlint, .../peer_clang-tidy and
# .../peer_clang++_-fsyntax-only, real_time in seconds), for bench/report.sh.
set -euo pipefail

build=build/release
jobs=$(nproc)
emberlint=""
json=""
filter="."
while [[ $# -gt 0 ]]; do
  case "$1" in
    -p) build=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --emberlint) emberlint=$2; shift 2 ;;
    --json) json=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) filter=$1; shift ;;
  esac
done
need() {  # need NAME...: the first of these commands on PATH, or exit 2 naming them
  local c
  for c in "$@"; do command -v "$c" && return 0; done
  echo "compare.sh: none of '$*' is on PATH (Debian packages: jq bc clang-tidy clang)" >&2
  exit 2
}
need jq > /dev/null
need bc > /dev/null
db="$build/compile_commands.json"
[[ -f "$db" ]] || { echo "compare.sh: no $db (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)" >&2; exit 2; }
[[ -n "$emberlint" ]] || emberlint="$build/bin/emberlint"
[[ -x "$emberlint" ]] || { echo "compare.sh: no emberlint at $emberlint (build it, or pass --emberlint)" >&2; exit 2; }
tidy=$(need clang-tidy clang-tidy-14)
clangxx=$(need clang++ clang++-14)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jq -r '.[].file' "$db" | grep -E -- "$filter" | sort -u > "$work/files"
count=$(wc -l < "$work/files")
[[ $count -gt 0 ]] || { echo "compare.sh: no file of $db matches '$filter'" >&2; exit 2; }

# One shell command per file: the database's command run by clang++ with -fsyntax-only, outputs dropped.
jq -r --rawfile files "$work/files" '
  ($files | split("\n") | map(select(length > 0))) as $keep
  | .[] | select(.file as $f | $keep | index($f))
  | (if .arguments then (.arguments | map(@sh) | join(" ")) else .command end) as $cmd
  | "cd \(.directory | @sh) && \($cmd)"' "$db" |
  sed -E -e "s#&& [^ ]+#\&\& $clangxx#" -e 's/ -o [^ ]+//; s/ -c / /; s/ -M[DT]+ [^ ]+| -MF [^ ]+| -MD//g' \
      -e 's/$/ -fsyntax-only -w/' > "$work/syntax.sh"

seconds() {  # seconds COMMAND...: its wall-clock time, as a plain decimal number (0.52, never bc's .52)
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1 || true
  end=$(date +%s.%N)
  printf '%.3f\n' "$(echo "$end - $start" | bc)"
}

echo "translation units: $count   jobs: $jobs   database: $db"
t_syntax=$(seconds bash -c "tr '\n' '\0' < '$work/syntax.sh' | xargs -0 -P $jobs -n 1 bash -c")
t_tidy=$(seconds bash -c "xargs -a '$work/files' -P $jobs -n 1 '$tidy' -p '$build' --quiet -checks='-*,misc-unused-using-decls'")
mapfile -t units < "$work/files"
t_ember=$(seconds "$emberlint" check -p "$build" -j "$jobs" --no-cache --quiet --exit-zero "${units[@]}")

printf '%-28s %8.2f s\n' "clang++ -fsyntax-only" "$t_syntax" "clang-tidy (1 cheap check)" "$t_tidy" "emberlint check" "$t_ember"
r_tidy=$(echo "scale=3; $t_ember / $t_tidy" | bc)
r_syntax=$(echo "scale=3; $t_ember / $t_syntax" | bc)
printf 'emberlint / clang-tidy      %6.2fx (target <= 0.50x)\n' "$r_tidy"
printf 'emberlint / -fsyntax-only   %6.2fx (target <= 1.00x)\n' "$r_syntax"
if [[ -n "$json" ]]; then
  group="lint_${count}_units_j${jobs}"
  jq -n --arg g "$group" --argjson e "$t_ember" --argjson t "$t_tidy" --argjson s "$t_syntax" '
    def run($name; $t): {name: ($g + "/" + $name), run_type: "iteration", iterations: 1, real_time: $t,
                         time_unit: "s"};
    {context: {source: "bench/lint/compare.sh"},
     benchmarks: [run("emberlint"; $e), run("peer_clang-tidy"; $t), run("peer_clang++_-fsyntax-only"; $s)]}' \
    > "$json"
fi
