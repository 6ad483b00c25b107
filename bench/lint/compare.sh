#!/usr/bin/env bash
# Times cold runs of emberlint, of clang-tidy with one cheap check, and of `clang++ -fsyntax-only` over the
# same translation units of a compile database, in one run and at the same parallelism, and prints the
# ratios. Targets: emberlint <= 0.5x clang-tidy and <= 1.0x the plain syntax check.
#
#   bench/lint/compare.sh [-p BUILD_DIR] [-j JOBS] [--emberlint PATH] [PATH_FILTER]
#
# BUILD_DIR defaults to build/release, JOBS to the number of cores, PATH_FILTER (a regular expression over
# the files of the database) to every file. Needs jq, clang-tidy and clang++ (Debian: jq clang-tidy clang).
set -euo pipefail

build=build/release
jobs=$(nproc)
emberlint=""
filter="."
while [[ $# -gt 0 ]]; do
  case "$1" in
    -p) build=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --emberlint) emberlint=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) filter=$1; shift ;;
  esac
done
db="$build/compile_commands.json"
[[ -f "$db" ]] || { echo "compare.sh: no $db (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)" >&2; exit 2; }
[[ -n "$emberlint" ]] || emberlint="$build/bin/emberlint"
[[ -x "$emberlint" ]] || { echo "compare.sh: no emberlint at $emberlint (build it, or pass --emberlint)" >&2; exit 2; }
tidy=$(command -v clang-tidy || command -v clang-tidy-14)
clangxx=$(command -v clang++ || command -v clang++-14)

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

seconds() { local start end; start=$(date +%s.%N); "$@" > /dev/null 2>&1 || true; end=$(date +%s.%N); echo "$end - $start" | bc; }

echo "translation units: $count   jobs: $jobs   database: $db"
t_syntax=$(seconds bash -c "tr '\n' '\0' < '$work/syntax.sh' | xargs -0 -P $jobs -n 1 bash -c")
t_tidy=$(seconds bash -c "xargs -a '$work/files' -P $jobs -n 1 '$tidy' -p '$build' --quiet -checks='-*,misc-unused-using-decls'")
t_ember=$(seconds "$emberlint" check -p "$build" -j "$jobs" --quiet --exit-zero $(cat "$work/files"))

printf '%-28s %8.2f s\n' "clang++ -fsyntax-only" "$t_syntax" "clang-tidy (1 cheap check)" "$t_tidy" "emberlint check" "$t_ember"
r_tidy=$(echo "scale=3; $t_ember / $t_tidy" | bc)
r_syntax=$(echo "scale=3; $t_ember / $t_syntax" | bc)
printf 'emberlint / clang-tidy      %6.2fx (target <= 0.50x)\n' "$r_tidy"
printf 'emberlint / -fsyntax-only   %6.2fx (target <= 1.00x)\n' "$r_syntax"
