#!/usr/bin/python3
"""NumPy as ember's peer: the cases of bench/ember_bench.cpp under the same GROUP names, as GROUP/peer_numpy,
written as Google Benchmark JSON so that bench/report.sh joins them into its one ratio table.

    /usr/bin/python3 bench/numpy_bench.py [--min-time SECONDS] [--repetitions N] [--shuffle SEED]
                                          [--out FILE] [--list] [--filter REGEX]

Each case runs once untimed, then repeatedly until --min-time seconds have passed (at least once); the time is
the mean wall time per run, like Google Benchmark's real_time. With --repetitions N that is done N times, each
written as one run (repetition_index 0 to N-1), as Google Benchmark's --benchmark_repetitions writes them.
--shuffle SEED runs the cases in a random order drawn from SEED (bench/report.sh's rounds, as ember_bench's
--benchmark_enable_random_interleaving). Inputs are float32 uniforms on [-1, 1) (solve:
float64, diagonally dominant), made outside the timing. Needs NumPy (Debian: python3-numpy for /usr/bin/python3).
Run it with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset so OpenBLAS (matmul, solve) picks its own kernels.
"""

import argparse
import json
import platform
import random
import re
import sys
import time

import numpy as np

# 1-d cases have side * side elements, 2-d cases are side x side
SIZES = (("1K", 32), ("64K", 256), ("16M", 4096))


def uniform(rng, shape, dtype=np.float32):
    return rng.uniform(-1.0, 1.0, shape).astype(dtype)


def cases():
    """(group, make(rng) -> inputs, run(*inputs)) in ember_bench's order."""
    out = []
    for label, side in SIZES:
        n = side * side

        def g(op, dtype="f32"):
            return f"{op}_{label}_{dtype}"

        out += [
            (g("add"), lambda r, n=n: (uniform(r, n), uniform(r, n)), np.add),
            (g("add_bcast"), lambda r, s=side: (uniform(r, (s, s)), uniform(r, s)), np.add),
            # out=: the result written into a preallocated array (ember::eval_into)
            (g("add_out"), lambda r, n=n: (uniform(r, n), uniform(r, n), np.empty(n, np.float32)),
             lambda a, b, c: np.add(a, b, out=c)),
            # where(c, x, y) with c (n, n) bool, x a row (n,) and y a column (n, 1)
            (g("where_bcast"), lambda r, s=side: (uniform(r, (s, s)) > 0, uniform(r, s), uniform(r, (s, 1))),
             np.where),
            (g("abs"), lambda r, n=n: (uniform(r, n),), np.abs),
            (g("exp"), lambda r, n=n: (uniform(r, n),), np.exp),
            (g("exp", "f64"), lambda r, n=n: (uniform(r, n, np.float64),), np.exp),
            (g("log"), lambda r, n=n: (uniform(r, n) + np.float32(2.0),), np.log),  # on [1, 3)
            (g("sum"), lambda r, n=n: (uniform(r, n),), np.sum),
            (g("sum_axis0"), lambda r, s=side: (uniform(r, (s, s)),), lambda x: x.sum(axis=0)),
            (g("sum_axis1"), lambda r, s=side: (uniform(r, (s, s)),), lambda x: x.sum(axis=1)),
            (g("transpose_copy"), lambda r, s=side: (uniform(r, (s, s)),), lambda x: x.T.copy()),
            (g("concatenate"), lambda r, n=n: (uniform(r, n // 2), uniform(r, n // 2)),
             lambda a, b: np.concatenate((a, b))),
            (g("slice"), lambda r, s=side: (uniform(r, (s, s)),), lambda x: x[1:-1, ::2].copy()),
            (g("random_uniform"), lambda r, n=n: (np.random.default_rng(7), n),
             lambda rng, n: rng.random(n, dtype=np.float32)),
            (g("random_normal"), lambda r, n=n: (np.random.default_rng(7), n),
             lambda rng, n: rng.standard_normal(n, dtype=np.float32)),
            (g("random_exponential"), lambda r, n=n: (np.random.default_rng(7), n),
             lambda rng, n: rng.standard_exponential(n, dtype=np.float32)),
            (g("random_gamma"), lambda r, n=n: (np.random.default_rng(7), n),
             lambda rng, n: rng.standard_gamma(2.0, n, dtype=np.float32)),
        ]
    for label, side in (("64K", 256), ("1M", 1024)):  # ember_bench's kSortSizes
        out.append((f"sort_{label}_f32", lambda r, n=side * side: (uniform(r, n),), np.sort))
    for n in (256, 1024):
        out.append((f"matmul_{n}_f32", lambda r, n=n: (uniform(r, (n, n)), uniform(r, (n, n))), np.matmul))
    # a dense layer, relu(x @ w + b), written in place after the product (no temporaries, as ember's fused add
    # and maximum have none)
    def dense_relu(x, w, b):
        y = x @ w
        y += b
        return np.maximum(y, np.float32(0), out=y)

    out.append(("dense_relu_256_f32", lambda r: (uniform(r, (256, 256)), uniform(r, (256, 256)), uniform(r, 256)),
                dense_relu))
    # the per-op overhead: a 1-element add (ember_bench's dispatch_add_1)
    out.append(("dispatch_add_1", lambda r: (uniform(r, 1), uniform(r, 1)), np.add))
    for n in (128, 512):
        out.append((f"solve_{n}_f64",
                    lambda r, n=n: (uniform(r, (n, n), np.float64) + n * np.eye(n), uniform(r, n, np.float64)),
                    np.linalg.solve))

    def expression(x, y):
        return np.exp(-x) + np.sqrt(x * x + y * x * y) * np.float32(0.5)

    def chain10(x, y):
        t = x * y + np.float32(1.0)
        t = (np.sqrt(np.abs(t)) - y) * x
        t = np.exp(-t)
        return t * np.float32(0.5) + x

    n = 16 << 20
    pair = lambda r: (r.uniform(0.0, 2.0, n).astype(np.float32), uniform(r, n))  # noqa: E731
    out.append(("fusion_expr_16M_f32", pair, expression))
    out.append(("fusion_chain10_16M_f32", pair, chain10))
    return out


def measure(make, run, min_time):
    inputs = make(np.random.default_rng(1))
    run(*inputs)  # untimed: first-touch page faults and library setup, as ember_bench's warm-up run
    iterations, start = 0, time.perf_counter()
    while True:
        run(*inputs)
        iterations += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return elapsed / iterations, iterations


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--min-time", type=float, default=0.5, help="seconds per case (default 0.5)")
    ap.add_argument("--repetitions", type=int, default=1, help="timed runs per case (default 1)")
    ap.add_argument("--shuffle", type=int, help="run the cases in a random order drawn from this seed")
    ap.add_argument("--out", help="Google Benchmark JSON to write (default: standard output)")
    ap.add_argument("--filter", default="", help="run only the cases whose name matches this regex")
    ap.add_argument("--list", action="store_true", help="print the benchmark names and exit")
    args = ap.parse_args()
    selected = [c for c in cases() if re.search(args.filter, c[0] + "/peer_numpy")]
    if args.list:
        for name, _, _ in selected:
            print(f"{name}/peer_numpy")
        return 0
    if args.repetitions < 1:
        ap.error("--repetitions must be at least 1")
    if args.shuffle is not None:
        random.Random(args.shuffle).shuffle(selected)
    benchmarks = []
    for name, make, run in selected:
        for repetition in range(args.repetitions):
            seconds, iterations = measure(make, run, args.min_time)
            print(f"{name}/peer_numpy {seconds * 1e3:12.3f} ms {iterations:8d}", file=sys.stderr)
            benchmarks.append({"name": f"{name}/peer_numpy", "run_name": f"{name}/peer_numpy",
                               "run_type": "iteration", "repetitions": args.repetitions,
                               "repetition_index": repetition, "iterations": iterations,
                               "real_time": seconds * 1e3, "time_unit": "ms"})
    doc = {"context": {"executable": "numpy_bench.py", "numpy": np.__version__,
                       "python": platform.python_version()}, "benchmarks": benchmarks}
    text = json.dumps(doc, indent=1)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
