#!/usr/bin/env bash
# One benchmark report: builds and runs every benchmark in bench/ (ember_bench: each ember backend vs raw Eigen,
# raw OpenBLAS, NumPy (bench/numpy_bench.py) and PyTorch on the CPU (bench/torch_bench.py, ember's thread count),
# and the memory limit (STREAM-style loops, bench/memory_bandwidth.cpp); emberlint_bench: cache warm vs cold, -j 2
# vs -j 1, per-unit cost as the code base grows; bench/lint/compare.sh: emberlint vs clang-tidy and clang++
# -fsyntax-only) and writes ONE Markdown table of ratios against the peers measured in the same run, headed with
# the date, `uname -srm`, the CPU model, the core count, the load average and the peers' versions.
#
#   bench/report.sh [-B BUILD_DIR] [-o FILE] [--quick] [--no-build] [--compare-filter REGEX] [--filter REGEX]
#
#   -B BUILD_DIR      build folder (default build/release); configured with -DEMBER_BUILD_BENCH=ON and built
#                     (ember_bench, emberlint_bench, emberlint) unless --no-build
#   -o FILE           the Markdown report (default: standard output); benchmark output goes to stderr
#   --quick           (or EMBER_REPORT_QUICK=1) a smoke run of everything: tiny trees, each ember_bench and
#                     NumPy case run for one iteration (a fixed count, not a time: a loaded machine makes it
#                     slower, never different); checks that the table is complete, its numbers mean little
#   --compare-filter  the files of BUILD_DIR's compile database that compare.sh times (a regular expression;
#                     default emberlint's own sources: ROOT/(lint|rules|reports|analyze)/)
#   --filter REGEX    only ember's benchmarks whose GROUP/VARIANT matches (ember_bench, NumPy and PyTorch alike),
#                     and none of emberlint's (emberlint_bench, compare.sh), e.g. '^(add|sum)_16M|^stream_'
#
# Naming convention: how a benchmark's rows are found, so that new benchmarks join the table without an edit
# here.
#   1. Google Benchmark names GROUP/VARIANT[/ARGS...]. A VARIANT that ends in `_raw` or starts with `peer_` is
#      a peer; each other VARIANT of the same GROUP (and ARGS) is measured against each peer: one row per
#      pair, e.g. matmul_1024_f32/ember_blas vs matmul_1024_f32/cblas_raw and vs .../eigen_raw. A peer named
#      peer_B_... is paired only with the variants named ember_B... when the group has any, so that
#      chain/ember_eigen_fused is measured against chain/peer_eigen_eager, not against another backend's
#      eager run. Time: real_time per
#      iteration, the fastest of the runs of that name: ember_bench and NumPy run in 5 alternating rounds
#      of 0.12 s a case, each after the first in a new random order, and taking each side's fastest keeps a
#      machine's noise and drift out of the ratio (aggregates of --benchmark_repetitions are ignored).
#   2. Counters of one benchmark named `vs:ROW:ember` and `vs:ROW:PEER`, in seconds: a row ROW, the ember
#      side against PEER (emberlint_bench: cache_warm vs cold, j2 vs j1, scale_per_unit_2000 vs per_unit_200).
#   Ratio = ember time / peer time: below 1 is faster than the peer. A benchmark that failed or was skipped is
#   listed under the table with its message.
#   3. Memory bandwidth: ember_bench's stream_KERNEL_16M_f32/threads_N[_nt] loops (counter `bytes`, label: the
#      SIMD level each ran at, the fastest of the CPU's; on ember's own thread pool, so that no ember case can
#      beat the loop of its pattern by threading alone) give the
#      machine's limit for each access pattern (read, copy, add: the fastest loop of that pattern); a case
#      labelled `memory-bound: PATTERN` (counter `bytes`: what one run must move) gets a row in a second table
#      with each backend's, PyTorch's and NumPy's GB/s and its fraction of that limit.
#
# Needs python3 (standard library only), a Python with NumPy for numpy_bench.py (/usr/bin/python3 with Debian's
# python3-numpy, else python3 on PATH; EMBER_NUMPY_PYTHON overrides), a Python with PyTorch for torch_bench.py
# (likewise: Debian's python3-torch; EMBER_TORCH_PYTHON overrides; PyTorch's matmul and solve go through the
# libblas.so.3 and liblapack.so.3 alternatives, so the report's header names the BLAS it mapped), cmake and ninja
# (to build), and compare.sh's peers: clang-tidy, clang++, jq and bc (Debian: python3 python3-numpy python3-torch
# cmake ninja-build clang-tidy clang jq bc). A missing tool is an error (exit 2) that names it; a benchmark
# program that fails is an error (exit 1). ember_bench, NumPy and PyTorch run with OPENBLAS_CORETYPE and
# OPENBLAS_L2_SIZE unset: in each process OpenBLAS picks its own kernels for the CPU (an environment that
# forces Haswell's on an AVX-512 machine would otherwise slow ember's matmul and solve but not NumPy's, or the
# other way round).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build/release"
out=""
quick=${EMBER_REPORT_QUICK:-0}
do_build=1
filter=""
# emberlint's own sources: the top-level folders lint/, rules/, reports/ and analyze/ (not tests/lint/).
# shellcheck disable=SC2016  # $ inside the sed expression is a character to escape, not an expansion
compare_filter="^$(printf '%s' "$root" | sed 's/[].[\*^$()+?{}|]/\\&/g')/(lint|rules|reports|analyze)/"
usage() { sed -n '8,19p' "$0" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    -B) [[ $# -ge 2 ]] || usage; build=$2; shift 2 ;;
    -o) [[ $# -ge 2 ]] || usage; out=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --no-build) do_build=0; shift ;;
    --compare-filter) [[ $# -ge 2 ]] || usage; compare_filter=$2; shift 2 ;;
    --filter) [[ $# -ge 2 ]] || usage; filter=$2; shift 2 ;;
    -h | --help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "report.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$quick" == 0 ]] || quick=1
build=$(realpath -m "$build")
if [[ -n "$out" && ! -d "$(dirname "$out")" ]]; then
  echo "report.sh: -o $out: the folder $(dirname "$out") does not exist" >&2
  exit 2
fi

# ---- tools: all of them before anything runs --------------------------------------------------------------
missing=()
for tool in python3 jq bc; do command -v "$tool" > /dev/null || missing+=("$tool"); done
command -v clang-tidy > /dev/null || command -v clang-tidy-14 > /dev/null || missing+=("clang-tidy (peer)")
command -v clang++ > /dev/null || command -v clang++-14 > /dev/null || missing+=("clang++ (peer)")
if [[ $do_build == 1 ]]; then
  for tool in cmake ninja; do command -v "$tool" > /dev/null || missing+=("$tool"); done
fi
peer_python() {  # peer_python MODULE CANDIDATES...: the first candidate Python that imports MODULE
  local module=$1 candidate
  shift
  for candidate in "$@"; do
    if command -v "$candidate" > /dev/null && "$candidate" -c "import $module" 2> /dev/null; then
      command -v "$candidate"
      return
    fi
  done
}
# shellcheck disable=SC2086  # the overrides are lists of candidates
numpy_python=$(peer_python numpy ${EMBER_NUMPY_PYTHON:-/usr/bin/python3 python3})
[[ -n "$numpy_python" ]] || missing+=("NumPy (peer)")
# shellcheck disable=SC2086
torch_python=$(peer_python torch ${EMBER_TORCH_PYTHON:-/usr/bin/python3 python3})
[[ -n "$torch_python" ]] || missing+=("PyTorch (peer)")
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "report.sh: missing: ${missing[*]} (Debian packages: python3 python3-numpy python3-torch jq bc" \
    "clang-tidy clang cmake ninja-build)" >&2
  exit 2
fi
python=$(command -v python3)

# ---- build ------------------------------------------------------------------------------------------------
if [[ $do_build == 1 ]]; then
  configure=(-DEMBER_BUILD_BENCH=ON)
  [[ -f "$build/CMakeCache.txt" ]] ||
    configure+=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
  echo "report.sh: configuring and building $build" >&2
  cmake -S "$root" -B "$build" "${configure[@]}" > /dev/null
  cmake --build "$build" --target ember_bench emberlint_bench emberlint >&2
fi
for exe in "$build/ember_bench" "$build/emberlint_bench" "$build/bin/emberlint"; do
  [[ -x "$exe" ]] || { echo "report.sh: no $exe (build it, or drop --no-build)" >&2; exit 2; }
done
[[ -f "$build/compile_commands.json" ]] || [[ $quick == 1 ]] ||
  { echo "report.sh: no $build/compile_commands.json (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u '+%Y-%m-%d %H:%M UTC')

# ---- run --------------------------------------------------------------------------------------------------
run_json() {  # run_json NAME COMMAND...: Google Benchmark's JSON into $work/NAME.json, its console to stderr
  local name=$1
  shift
  echo "report.sh: running $name" >&2
  if ! "$@" --benchmark_out="$work/$name.json" --benchmark_out_format=json >&2; then
    echo "report.sh: $name failed (exit status above)" >&2
    exit 1
  fi
}
if [[ $quick == 1 ]]; then
  min_time=0  # Google Benchmark and numpy_bench.py stop after the first iteration that reaches it: one
  rounds=2
  export EMBERLINT_BENCH_UNITS=4 EMBERLINT_BENCH_SCALE_UNITS=10,20 EMBERLINT_BENCH_ANALYZE_SMALL=1 EMBERLINT_BENCH_LSP_EDITS=1
else
  min_time=0.12
  rounds=5
fi
# Rounds: ember_bench, then NumPy, then PyTorch, then ember_bench again..., each after the first in a new
# random order of its cases: a shared machine's speed drifts over minutes, and each side's fastest run of a
# case then comes from across the whole run, not from one stretch of it. (The first round's order is the
# table's.) PyTorch gets ember's host thread count, which the first ember_bench round writes into its context.
threads=""
for ((round = 1; round <= rounds; ++round)); do
  shuffle_ember=() shuffle_numpy=()
  if ((round > 1)); then
    shuffle_ember=(--benchmark_enable_random_interleaving=true)
    shuffle_numpy=(--shuffle "$round")
  fi
  run_json "ember_bench_$round" env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$build/ember_bench" \
    --benchmark_min_time=$min_time "${shuffle_ember[@]}" --benchmark_filter="$filter"
  echo "report.sh: running bench/numpy_bench.py (round $round of $rounds)" >&2
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$numpy_python" "$root/bench/numpy_bench.py" \
    --min-time $min_time "${shuffle_numpy[@]}" --filter "$filter" --out "$work/numpy_bench_$round.json" ||
    { echo "report.sh: bench/numpy_bench.py failed" >&2; exit 1; }
  if [[ -z "$threads" ]]; then
    threads=$("$python" -c \
      'import json, sys; print(json.load(open(sys.argv[1]))["context"]["ember_host_threads"])' \
      "$work/ember_bench_1.json") ||
      { echo "report.sh: ember_bench wrote no ember_host_threads" >&2; exit 1; }
  fi
  echo "report.sh: running bench/torch_bench.py (round $round of $rounds, $threads threads)" >&2
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$torch_python" "$root/bench/torch_bench.py" \
    --threads "$threads" --min-time $min_time "${shuffle_numpy[@]}" --filter "$filter" \
    --out "$work/torch_bench_$round.json" ||
    { echo "report.sh: bench/torch_bench.py failed" >&2; exit 1; }
done
# Every round's runs, ember_bench's, NumPy's and PyTorch's (GROUP/peer_numpy and GROUP/peer_torch join
# ember_bench's groups), in one file for the table, which takes each name's fastest.
"$python" - "$work/ember_bench.json" "$work"/ember_bench_*.json "$work"/numpy_bench_*.json \
  "$work"/torch_bench_*.json << 'PYTHON'
import json
import sys

merged = None
for path in sys.argv[2:]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if merged is None:
        merged = data
    else:
        merged["benchmarks"] += data["benchmarks"]
with open(sys.argv[1], "w", encoding="utf-8") as f:
    json.dump(merged, f)
PYTHON
if [[ -n "$filter" ]]; then  # ember's benchmarks only
  echo '{"benchmarks": []}' > "$work/emberlint_bench.json"
  echo '{"benchmarks": []}' > "$work/compare.json"
else
run_json emberlint_bench "$build/emberlint_bench"

# compare.sh: over emberlint's own sources, or in quick mode a tiny generated tree.
compare_build=$build
if [[ $quick == 1 ]]; then
  "$python" "$root/bench/generate_tree.py" "$work/tree" --units 6 --light 2> /dev/null
  compare_build=$work/tree/build
  compare_filter=.
fi
echo "report.sh: running bench/lint/compare.sh" >&2
(cd "$(dirname "$compare_build")" &&
  bash "$root/bench/lint/compare.sh" -p "$compare_build" -j 2 --emberlint "$build/bin/emberlint" \
    --json "$work/compare.json" "$compare_filter") >&2 ||
  { echo "report.sh: bench/lint/compare.sh failed" >&2; exit 1; }
fi

# ---- the table --------------------------------------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
header="Measured $started on $(uname -srm), ${cpu:-unknown CPU}, $(nproc) cores; load average"
header+=" $load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end."
header+=" ember_bench, NumPy and PyTorch times:"
header+=" the fastest of $rounds alternating rounds of each case, each after the first in a random order."
header+=" $("$python" - "$work/numpy_bench_1.json" "$work/torch_bench_1.json" << 'PYTHON'
import json
import sys

numpy, torch = (json.load(open(path, encoding="utf-8"))["context"] for path in sys.argv[1:])
print(f"Peers: NumPy {numpy['numpy']}; PyTorch {torch['torch']} on {torch['threads']} threads (ember's host"
      f" thread count), BLAS and LAPACK: {torch['blas']}.")
PYTHON
)"
mode=full
[[ $quick == 0 ]] || mode="quick (--quick: numbers not meaningful)"
[[ -z "$filter" ]] || mode+=", ember's benchmarks matching --filter '$filter' only"
report=$work/report.md
"$python" - "$header" "$mode" "$work/ember_bench.json" "$work/emberlint_bench.json" "$work/compare.json" \
  > "$report" << 'PYTHON'
import json
import re
import sys

header, mode, files = sys.argv[1], sys.argv[2], sys.argv[3:]
UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def is_peer(variant):
    return variant.endswith("_raw") or variant.startswith("peer_")


def backend_of(variant):
    """`eigen` for ember_eigen_fused and peer_eigen_eager; None for other names."""
    for prefix in ("ember_", "peer_"):
        if variant.startswith(prefix):
            return variant[len(prefix):].split("_")[0]
    return None


def pairs_with(variant, peer, variants):
    """A peer_B_... peer is measured against the ember_B... variants only, when the group has any; opencl_raw
    (the OpenCL API alone, on the same device) against ember_opencl only."""
    if peer == "opencl_raw":
        return backend_of(variant) == "opencl"
    b = backend_of(peer) if peer.startswith("peer_") else None
    if b is None or not any(backend_of(v) == b for v in variants if not is_peer(v)):
        return True
    return backend_of(variant) == b


def seconds(b):
    return b["real_time"] * UNIT[b.get("time_unit", "ns")]


def show(t):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if t >= scale:
            return f"{t / scale:.3g} {unit}"
    return f"{t / 1e-9:.3g} ns"


def natural(text):
    """Sort key: numbers by value, so scale_per_unit_500 comes before scale_per_unit_1000."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


def ratio(r):
    return f"{r:.2f}x" if r >= 0.1 else f"{r:.2g}x"


def gbps(rate):
    return f"{rate / 1e9:.3g} GB/s"


def column_name(variant):
    return {"peer_torch": "PyTorch", "peer_numpy": "NumPy"}.get(variant, variant.replace("_", " "))


def bandwidth_tables(measured):
    """Convention 3: the STREAM loops' table and the memory-bound cases' fractions of their pattern's limit,
    as Markdown lines (none when ember_bench ran no stream_ loops)."""
    loops = {}  # kernel -> {(threads, non-temporal): bytes a second}
    levels = {}  # (kernel, threads, non-temporal) -> the SIMD level the loop ran at (its label)
    for name, b in measured.items():
        m = re.fullmatch(r"stream_([a-z]+)_16M_f32/threads_(\d+)(_nt)?", name)
        if m and b.get("bytes"):
            key = (int(m.group(2)), bool(m.group(3)))
            loops.setdefault(m.group(1), {})[key] = b["bytes"] / seconds(b)
            levels[(m.group(1),) + key] = b.get("label", "")
    if not loops:
        return []
    counts = sorted({t for variants in loops.values() for t, _ in variants})
    kinds = [(t, nt) for nt in (False, True) for t in counts]
    title = {False: "", True: ", non-temporal stores"}
    out = ["### Memory bandwidth", "",
           "The machine's limit: ember_bench's STREAM-style loops (`bench/memory_bandwidth.cpp`) over 64 MiB"
           " float32 arrays on ember's host thread pool, in vectors of the SIMD level that was fastest (in"
           " brackets), GB/s (10^9 bytes a second, each array read or written once a pass):", "",
           "| loop | " + " | ".join(f"{t} thread{'s' if t > 1 else ''}{title[nt]}" for t, nt in kinds) + " |",
           "| --- |" + " --- |" * len(kinds)]
    for kernel in ("read", "copy", "add", "triad"):
        if kernel in loops:
            cells = [(gbps(loops[kernel][k]) + (f" ({levels[(kernel,) + k]})" if levels[(kernel,) + k] else ""))
                     if k in loops[kernel] else "-" for k in kinds]
            out.append(f"| `{kernel}` | " + " | ".join(cells) + " |")
    pattern_loops = {"read": ("read",), "copy": ("copy",), "add": ("add", "triad")}
    cases = {}  # group -> (bytes, pattern, {variant: run})
    for name, b in measured.items():
        m = re.fullmatch(r"memory-bound: ([a-z]+)", b.get("label", ""))
        group, _, variant = name.partition("/")
        if m and b.get("bytes") and m.group(1) in pattern_loops:
            cases.setdefault(group, (b["bytes"], m.group(1), {}))[2][variant] = b
    for name, b in measured.items():  # the peers of those groups (NumPy, PyTorch), with the group's bytes
        group, _, variant = name.partition("/")
        if group in cases and variant.startswith("peer_") and variant not in cases[group][2]:
            cases[group][2][variant] = b
    if not cases:
        return out
    columns = list(dict.fromkeys(v for _, _, vs in cases.values() for v in vs if not is_peer(v)))  # as run
    columns += [p for p in ("peer_torch", "peer_numpy") if any(p in vs for _, _, vs in cases.values())]
    out += ["", "Each memory-bound case's bandwidth (the bytes one run must move at least / its time) and its"
            " fraction of the fastest loop of its pattern:", "",
            "| case | bytes a run | limit | " + " | ".join(column_name(c) for c in columns) + " |",
            "| --- | --- | --- |" + " --- |" * len(columns)]
    for group, (nbytes, pattern, variants) in cases.items():
        rates = ((k, rate) for k in pattern_loops[pattern] for rate in loops.get(k, {}).values())
        limit_loop, limit = max(rates, key=lambda kr: kr[1], default=(pattern, 0.0))
        cells = []
        for c in columns:
            if c not in variants:
                cells.append("-")
                continue
            rate = nbytes / seconds(variants[c])
            cells.append(f"{gbps(rate)} ({rate / limit:.0%})" if limit > 0 else gbps(rate))
        head = f"| `{group}` | {nbytes / 2**20:.4g} MiB | `{limit_loop}` {gbps(limit)} | "
        out.append(head + " | ".join(cells) + " |")
    return out


rows, problems, measured = [], [], {}
for path in files:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    runs = {}  # name -> the run to use: the fastest repetition
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if b.get("error_occurred"):
            problems.append(f"`{name}`: {b.get('error_message', 'failed')}")
            continue
        if b.get("run_type") == "aggregate":
            continue
        if name not in runs or seconds(b) < seconds(runs[name]):
            runs[name] = b
    measured.update(runs)
    groups = {}  # (GROUP, ARGS) -> {VARIANT: run}
    counter_rows = []
    for name, b in runs.items():
        parts = name.split("/")
        if len(parts) >= 2:
            groups.setdefault((parts[0], tuple(parts[2:])), {})[parts[1]] = b
        for key, value in b.items():  # convention 2: vs:ROW:SIDE counters
            m = re.fullmatch(r"vs:(.+):(ember)", key)
            if not m:
                continue
            row = m.group(1)
            for peer_key, peer_value in b.items():
                pm = re.fullmatch(r"vs:" + re.escape(row) + r":(.+)", peer_key)
                if pm and pm.group(1) != "ember":
                    label = parts[0].removeprefix("BM_")
                    counter_rows.append((f"{label}: {row}", value, pm.group(1), peer_value))
    rows += sorted(counter_rows, key=lambda r: (natural(r[0]), natural(r[2])))
    for (group, args), variants in groups.items():  # convention 1: GROUP/VARIANT names
        suffix = "".join("/" + a for a in args)
        for v, b in variants.items():
            if is_peer(v):
                continue
            for p, pb in variants.items():
                if is_peer(p) and pairs_with(v, p, variants):
                    rows.append((f"{group}/{v}{suffix}", seconds(b), f"{group}/{p}{suffix}", seconds(pb)))

print("## Benchmark report")
print()
print(header + f" Mode: {mode}.")
print()
print("| benchmark | ember/emberlint time | peer | peer time | ratio |")
print("| --- | --- | --- | --- | --- |")
for name, t, peer, pt in rows:
    r = ratio(t / pt) if pt > 0 else "n/a"
    print(f"| `{name}` | {show(t)} | `{peer}` | {show(pt)} | {r} |")
print()
print("Ratio: ember (or emberlint) time / peer time, both measured in this run; below 1 is faster than the peer.")
bandwidth = bandwidth_tables(measured)
if bandwidth:
    print()
    print("\n".join(bandwidth))
if problems:
    print()
    print("Not measured:")
    for p in problems:
        print(f"- {p}")
PYTHON
if [[ -n "$out" ]]; then
  tmp=$(mktemp "$(dirname "$out")/.$(basename "$out").report-XXXXXX")  # beside it, then renamed: never half-written
  cat "$report" > "$tmp" && mv "$tmp" "$out"
  echo "report.sh: wrote $out" >&2
else
  cat "$report"
fi
