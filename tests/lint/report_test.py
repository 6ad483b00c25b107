#!/usr/bin/env python3
"""The benchmark report command, quickly: `bench/report.sh --quick --no-build` on a build folder must write a
well-formed Markdown table: the header (date, uname, CPU, cores, load average), every expected row (each
ember_bench variant against each peer of its group, as its --benchmark_list_tests names them; emberlint's cache,
-j and scale pairs; emberlint vs clang-tidy and vs clang++ -fsyntax-only; NumPy's bench/numpy_bench.py and
PyTorch's bench/torch_bench.py runs against ember_bench's groups) with numeric times and ratios; the peers'
versions, PyTorch's thread count (ember's) and BLAS in the header; the memory bandwidth tables (the STREAM loops
on 1 and all threads, every memory-bound 16M case's GB/s and fraction of its limit for every backend, PyTorch
and NumPy); `--filter REGEX` keeping the matching ember cases and none of emberlint's; and a missing peer tool
(clang-tidy, PyTorch) must stop it with exit 2 and the tool's name.

    tests/lint/report_test.py REPORT_SH BUILD_DIR

Standard library only; a ctest (bench_report_quick) runs it. Exit 0 when every check passes.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

TIME = re.compile(r"^\d+(\.\d+)?(e[+-]?\d+)? (s|ms|µs|ns)$")
RATIO = re.compile(r"^(\d+(\.\d*)?(e[+-]?\d+)?)x$")
TABLE_HEADER = "| benchmark | ember/emberlint time | peer | peer time | ratio |"
# emberlint_bench's pairs in quick mode (EMBERLINT_BENCH_SCALE_UNITS=10,20) and compare.sh's on 6 units.
LINT_ROWS = [
    ("emberlint_cache: cache_warm", "cold"),
    ("emberlint_cache: cache_header_changed", "cold"),
    ("emberlint_cache: j2", "j1"),
    ("emberlint_cache: cache_warm_cpu", "cold_cpu"),
    ("emberlint_cache: j2_cpu", "j1_cpu"),
    ("emberlint_analyze_cache: analyze_warm", "cold"),
    ("emberlint_analyze_cache: analyze_warm_cpu", "cold_cpu"),
    ("emberlint_scale: scale_per_unit_20", "per_unit_10"),
    ("emberlint_scale: scale_cpu_per_unit_20", "cpu_per_unit_10"),
    ("lint_6_units_j2/emberlint", "lint_6_units_j2/peer_clang-tidy"),
    ("lint_6_units_j2/emberlint", "lint_6_units_j2/peer_clang++_-fsyntax-only"),
]

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
    return ok


# The 16M cases ember_bench labels memory-bound, each with its pattern's loop (bench/memory_bandwidth.cpp).
MEMORY_BOUND = {"add": "add", "add_out": "add", "add_bcast": "copy", "where_bcast": "copy", "abs": "copy",
                "exp": "copy", "log": "copy", "sum": "read", "sum_axis0": "read", "sum_axis1": "read",
                "transpose_copy": "copy", "concatenate": "copy", "slice": "copy"}
GBPS = r"\d+(\.\d+)?(e[+-]?\d+)? GB/s"


def peer_python(variable, module):
    """The Python report.sh runs a peer with: $VARIABLE's, else /usr/bin/python3 if it imports module, else
    python3."""
    for candidate in os.environ.get(variable, "/usr/bin/python3 python3").split():
        if subprocess.run([candidate, "-c", f"import {module}"], capture_output=True).returncode == 0:
            return candidate
    return None


def ember_host_threads():
    """ember's host thread count (frontend/src/host/parallel.hpp): EMBER_NUM_THREADS if >= 1, else the cores;
    at most 64."""
    env = os.environ.get("EMBER_NUM_THREADS", "")
    count = int(env) if env.isdigit() and int(env) >= 1 else os.cpu_count()
    return min(count, 64)


def numpy_python():
    return peer_python("EMBER_NUMPY_PYTHON", "numpy")


def torch_python():
    return peer_python("EMBER_TORCH_PYTHON", "torch")


def ember_rows(build, bench_dir):
    """(benchmark, peer) pairs the naming convention gives for ember_bench's, numpy_bench.py's and
    torch_bench.py's benchmarks (GROUP/peer_numpy and GROUP/peer_torch runs join ember_bench's groups), from
    their listings. The two peers list the same groups."""
    listing = subprocess.run([os.path.join(build, "ember_bench"), "--benchmark_list_tests"], check=True,
                             capture_output=True, text=True).stdout.split()
    ember_groups = {name.split("/")[0] for name in listing}
    peer_groups = {}
    for peer, python, package in (("numpy", numpy_python(), "python3-numpy"), ("torch", torch_python(), "python3-torch")):
        if not check(python is not None, f"no Python with {peer} (Debian: {package})"):
            continue
        peer_listing = subprocess.run([python, os.path.join(bench_dir, f"{peer}_bench.py"), "--list"], check=True,
                                      capture_output=True, text=True).stdout.split()
        for name in peer_listing:
            check(name.split("/")[0] in ember_groups, f"{peer}_bench.py case {name} has no ember_bench group")
            check(name.endswith(f"/peer_{peer}"), f"{peer}_bench.py case {name} is not GROUP/peer_{peer}")
        check(len(peer_listing) >= 60, f"{peer}_bench.py lists {len(peer_listing)} cases")
        peer_groups[peer] = [name.split("/")[0] for name in peer_listing]
        listing += peer_listing
    if len(peer_groups) == 2:
        check(peer_groups["numpy"] == peer_groups["torch"],
              f"numpy_bench.py and torch_bench.py list different cases: {peer_groups}")
    groups = {}
    for name in listing:
        parts = name.split("/")
        if len(parts) >= 2:
            groups.setdefault((parts[0], "".join("/" + a for a in parts[2:])), []).append(parts[1])
    def backend(variant):  # ember_eigen_fused, peer_eigen_eager -> eigen
        for prefix in ("ember_", "peer_"):
            if variant.startswith(prefix):
                return variant[len(prefix):].split("_")[0]
        return None

    rows = []
    for (group, suffix), variants in groups.items():
        peers = [v for v in variants if v.endswith("_raw") or v.startswith("peer_")]
        own = [v for v in variants if v not in peers]
        for p in peers:
            b = backend(p) if p.startswith("peer_") else None
            paired = [v for v in own if backend(v) == b] if b and any(backend(v) == b for v in own) else own
            if p == "opencl_raw":  # the OpenCL API alone: measured against the opencl backend only
                paired = [v for v in own if backend(v) == "opencl"]
            rows += [(f"{group}/{v}{suffix}", f"{group}/{p}{suffix}") for v in paired]
    return rows


def check_table(text, build, bench_dir):
    lines = text.splitlines()
    head = next((l for l in lines if l.startswith("Measured ")), "")
    check(bool(head), "no 'Measured ...' line")
    for part in (os.uname().sysname, "cores", "load average", "UTC", "the fastest of 2 alternating rounds"):
        check(part in head, f"header line lacks {part!r}: {head!r}")
    threads = str(ember_host_threads())
    check(re.search(rf"PyTorch \d[^ ]* on {threads} threads \(ember's host thread count\)", head) is not None,
          f"header line lacks PyTorch's version and thread count ({threads}): {head!r}")
    check(re.search(r"NumPy \d", head) is not None, f"header line lacks NumPy's version: {head!r}")
    check(re.search(r"BLAS and LAPACK: \S*/lib\S*(blas|lapack)", head) is not None,
          f"header line lacks the BLAS PyTorch mapped: {head!r}")
    check(TABLE_HEADER in lines, "no table header")
    rows = {}
    ratio_lines = lines[:next((i for i, l in enumerate(lines) if l.startswith("### Memory bandwidth")), len(lines))]
    for line in ratio_lines:
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if not check(len(cells) == 5, f"a row without 5 cells: {line}"):
            continue
        name, t, peer, pt, ratio = cells
        check(TIME.match(t) and TIME.match(pt), f"times not numeric: {line}")
        m = RATIO.match(ratio)
        check(m and float(m.group(1)) >= 0, f"ratio not numeric: {line}")
        key = (name.strip("`"), peer.strip("`"))
        check(key not in rows, f"row twice: {key}")
        rows[key] = line
    expected = ember_rows(build, bench_dir) + LINT_ROWS
    for peer in ("numpy", "torch"):
        peer_rows = [k for k in expected if k[1].endswith(f"/peer_{peer}")]
        check(("add_16M_f32/ember_eigen", f"add_16M_f32/peer_{peer}") in peer_rows, f"no add_16M_f32 row against {peer}")
    check(len(expected) > len(LINT_ROWS), "ember_bench lists no benchmark pairs")
    for key in expected:
        check(key in rows, f"missing row: {key[0]} vs {key[1]}")
    ember_pairs = set(expected) - set(LINT_ROWS)
    ember_groups = {name.split("/")[0] for name, _ in ember_pairs}
    for key in rows:  # a peer_B_ run is compared with backend B only, never with another backend's run
        if key[0].split("/")[0] in ember_groups:
            check(key in ember_pairs, f"unexpected row: {key[0]} vs {key[1]}")
    check("Not measured" not in text, "some benchmarks failed:\n" + text.split("Not measured", 1)[-1])
    check_bandwidth(lines, threads)


def table_after(lines, heading):
    """The rows (lists of cells) of the first table after the line that starts with `heading`."""
    start = next((i for i, l in enumerate(lines) if l.startswith(heading)), None)
    if start is None:
        return None
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif rows:
            break
    return rows


def check_bandwidth(lines, threads):
    """The memory bandwidth section: STREAM loops on 1 and all threads (ordinary and non-temporal stores), and
    each memory-bound 16M case with a GB/s and a percentage in every column."""
    loops = table_after(lines, "The machine's limit:")
    if not check(loops is not None, "no memory bandwidth section ('The machine's limit: ...')"):
        return
    header, body = loops[0], loops[2:]
    counts = ["1 thread"] + ([f"{threads} threads"] if threads != "1" else [])
    want = ["loop"] + counts + [f"{c}, non-temporal stores" for c in counts]
    check(header == want, f"the loops' columns are {header}, expected {want}")
    check([r[0] for r in body] == ["`read`", "`copy`", "`add`", "`triad`"], f"the loops are {[r[0] for r in body]}")
    for r in body:
        for i, cell in enumerate(r[1:], 1):
            # each loop's GB/s and the SIMD level it ran at (bench/memory_bandwidth.cpp's label)
            ok = (cell == "-" if r[0] == "`read`" and "non-temporal" in header[i]
                  else re.fullmatch(rf"{GBPS} \((sse2|avx2|avx512|generic)\)", cell))
            check(bool(ok), f"loop {r[0]}, {header[i]}: {cell!r}")
    cases = table_after(lines, "Each memory-bound case's bandwidth")
    if not check(cases is not None, "no table of the memory-bound cases"):
        return
    header, body = cases[0], cases[2:]
    for column in ("ember eigen", "ember blas", "PyTorch", "NumPy"):
        check(column in header, f"the memory-bound cases' table has no column {column!r}: {header}")
    seen = {r[0].strip("`"): r for r in body}
    for op, pattern in MEMORY_BOUND.items():
        row = seen.get(f"{op}_16M_f32")
        if not check(row is not None, f"no memory-bound row for {op}_16M_f32 (have {sorted(seen)})"):
            continue
        check(re.fullmatch(rf"`({pattern}|triad)` {GBPS}", row[2]) is not None, f"{op}: the limit cell {row[2]!r}")
        check(re.fullmatch(r"\d+(\.\d+)? MiB", row[1]) is not None, f"{op}: the bytes cell {row[1]!r}")
        for column, cell in zip(header[3:], row[3:]):
            check(re.fullmatch(GBPS + r" \(\d+%\)", cell) is not None, f"{op}, {column}: {cell!r}")
    check("exp_16M_f64" in seen, "no memory-bound row for exp_16M_f64")


def check_numpy_runs(numpy_bench, tmp):
    """numpy_bench.py --repetitions 3 writes three runs of each case, indexed 0 to 2; --shuffle SEED runs the
    same cases in an order drawn from SEED (two seeds, two orders; one seed, one order)."""
    python = numpy_python()
    if python is None:
        return

    def names(*options):
        out = os.path.join(tmp, "numpy_runs.json")
        subprocess.run([python, numpy_bench, "--filter", "_1K_f32/", "--min-time", "0.0001", "--out", out,
                        *options], check=True, capture_output=True)
        with open(out, encoding="utf-8") as f:
            return [(b["name"], b["repetition_index"]) for b in json.load(f)["benchmarks"]]

    runs = names("--filter", "^add_1K_f32/", "--repetitions", "3")
    check(runs == [("add_1K_f32/peer_numpy", i) for i in range(3)], f"numpy_bench.py --repetitions 3 wrote {runs}")
    plain, one, two = names(), names("--shuffle", "1"), names("--shuffle", "2")
    check(len(plain) >= 10 and sorted(one) == sorted(plain) and sorted(two) == sorted(plain),
          f"--shuffle changed the cases: {one} {two} against {plain}")
    check(one != plain and one != two and names("--shuffle", "1") == one,
          f"--shuffle 1 and 2 orders: {one} {two}, unshuffled {plain}")


def check_filter(report_sh, build, bench_dir, out):
    """--filter REGEX: the ember cases that match, against every peer of theirs (raw Eigen, NumPy, PyTorch), and
    nothing of emberlint's."""
    run = subprocess.run(["bash", report_sh, "--quick", "--no-build", "-B", build, "-o", out, "--filter", "^add_1K_f32/"],
                         capture_output=True, text=True)
    if not check(run.returncode == 0, f"report.sh --filter exited {run.returncode}:\n{run.stderr[-4000:]}"):
        return
    with open(out, encoding="utf-8") as f:
        text = f.read()
    rows = set()
    for line in text.splitlines():
        if line.startswith("| `"):
            cells = [c.strip().strip("`") for c in line.strip("|").split("|")]
            rows.add((cells[0], cells[2]))
    expected = {k for k in ember_rows(build, bench_dir) if k[0].startswith("add_1K_f32/")}
    check(len(expected) >= 9 and rows == expected,
          f"report.sh --filter '^add_1K_f32/' rows: {sorted(rows)}, expected {sorted(expected)}")
    check("matching --filter '^add_1K_f32/' only" in text, "the header does not say the report is filtered")


def path_without(tool_prefix, folder):
    """A folder of links to every program on PATH except those whose names start with tool_prefix."""
    os.makedirs(folder, exist_ok=True)
    for d in os.environ.get("PATH", "/usr/bin:/bin").split(":"):
        if not os.path.isdir(d):
            continue
        for name in os.listdir(d):
            link = os.path.join(folder, name)
            if not name.startswith(tool_prefix) and not os.path.lexists(link):
                os.symlink(os.path.join(d, name), link)
    return folder


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    report_sh, build = sys.argv[1], os.path.abspath(sys.argv[2])
    bench_dir = os.path.dirname(os.path.abspath(report_sh))
    with tempfile.TemporaryDirectory(prefix="ember_report_test_") as tmp:
        out = os.path.join(tmp, "report.md")
        run = subprocess.run(["bash", report_sh, "--quick", "--no-build", "-B", build, "-o", out],
                             capture_output=True, text=True)
        if check(run.returncode == 0, f"report.sh --quick exited {run.returncode}:\n{run.stderr[-4000:]}"):
            with open(out, encoding="utf-8") as f:
                text = f.read()
            check_table(text, build, bench_dir)
            print(text)
        check_numpy_runs(os.path.join(bench_dir, "numpy_bench.py"), tmp)

        check_filter(report_sh, build, bench_dir, out + ".filter")

        bin_dir = path_without("clang-tidy", os.path.join(tmp, "bin"))
        run = subprocess.run(["bash", report_sh, "--quick", "--no-build", "-B", build, "-o", out + ".2"],
                             capture_output=True, text=True, env=dict(os.environ, PATH=bin_dir))
        check(run.returncode == 2 and "clang-tidy" in run.stderr,
              f"without clang-tidy: exit {run.returncode}, stderr {run.stderr!r} (expected 2, naming clang-tidy)")
        check(not os.path.exists(out + ".2"), "a report was written without clang-tidy")
        run = subprocess.run(["bash", report_sh, "--quick", "--no-build", "-B", build, "-o", out + ".3"],
                             capture_output=True, text=True,
                             env=dict(os.environ, EMBER_TORCH_PYTHON=os.path.join(tmp, "no-such-python")))
        check(run.returncode == 2 and "PyTorch" in run.stderr,
              f"without PyTorch: exit {run.returncode}, stderr {run.stderr!r} (expected 2, naming PyTorch)")
        check(not os.path.exists(out + ".3"), "a report was written without PyTorch")
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
