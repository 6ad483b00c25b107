"""The harness bench/numpy_bench.py and bench/torch_bench.py share: each peer lists its cases as (GROUP, make,
run) under ember_bench's GROUP names and this times them and writes Google Benchmark JSON (GROUP/VARIANT runs,
real_time per run) for bench/report.sh's one ratio table.

Each case runs once untimed (first-touch page faults, library setup, as ember_bench's warm-up run), then
repeatedly until --min-time seconds have passed (at least once); the time is the mean wall time per run, like
Google Benchmark's real_time. With --repetitions N that is done N times, each written as one run
(repetition_index 0 to N-1), as Google Benchmark's --benchmark_repetitions writes them. --shuffle SEED runs the
cases in a random order drawn from SEED (bench/report.sh's rounds, as ember_bench's
--benchmark_enable_random_interleaving). Standard library only.
"""

import argparse
import json
import platform
import random
import re
import sys
import time

# ember_bench's sizes: 1-d cases have side * side elements, 2-d cases are side x side; sort has its own.
SIZES = (("1K", 32), ("64K", 256), ("16M", 4096))
SORT_SIZES = (("64K", 256), ("1M", 1024))


def sized():
    """(side, n, group) for each of SIZES: group(op, dtype="f32") names the case `op_LABEL_dtype`."""
    for label, side in SIZES:
        yield side, side * side, lambda op, dtype="f32", label=label: f"{op}_{label}_{dtype}"


def measure(make, run, min_time, seed):
    inputs = make(seed)
    run(*inputs)  # untimed
    iterations, start = 0, time.perf_counter()
    while True:
        run(*inputs)
        iterations += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return elapsed / iterations, iterations


def parser(doc):
    """The options every peer takes; a peer adds its own before calling main()."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--min-time", type=float, default=0.5, help="seconds per case (default 0.5)")
    ap.add_argument("--repetitions", type=int, default=1, help="timed runs per case (default 1)")
    ap.add_argument("--shuffle", type=int, help="run the cases in a random order drawn from this seed")
    ap.add_argument("--out", help="Google Benchmark JSON to write (default: standard output)")
    ap.add_argument("--filter", default="", help="run only the cases whose name matches this regex")
    ap.add_argument("--list", action="store_true", help="print the benchmark names and exit")
    return ap


def main(ap, args, variant, cases, make_seed, context):
    """Runs `cases` (a list of (group, make(seed) -> inputs, run(*inputs))) as GROUP/VARIANT benchmarks;
    make_seed() is the seed each case's inputs are made from; context (a dict) goes into the JSON's context."""
    selected = [c for c in cases if re.search(args.filter, f"{c[0]}/{variant}")]
    if args.list:
        for name, _, _ in selected:
            print(f"{name}/{variant}")
        return 0
    if args.repetitions < 1:
        ap.error("--repetitions must be at least 1")
    if args.min_time < 0:
        ap.error("--min-time must not be negative")
    if args.shuffle is not None:
        random.Random(args.shuffle).shuffle(selected)
    benchmarks = []
    for name, make, run in selected:
        for repetition in range(args.repetitions):
            seconds, iterations = measure(make, run, args.min_time, make_seed())
            print(f"{name}/{variant} {seconds * 1e3:12.3f} ms {iterations:8d}", file=sys.stderr)
            benchmarks.append({"name": f"{name}/{variant}", "run_name": f"{name}/{variant}",
                               "run_type": "iteration", "repetitions": args.repetitions,
                               "repetition_index": repetition, "iterations": iterations,
                               "real_time": seconds * 1e3, "time_unit": "ms"})
    doc = {"context": dict(context, python=platform.python_version()), "benchmarks": benchmarks}
    text = json.dumps(doc, indent=1)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0
