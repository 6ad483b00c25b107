#!/usr/bin/python3
"""NumPy as ember's peer: the cases of bench/ember_bench.cpp under the same GROUP names, as GROUP/peer_numpy,
written as Google Benchmark JSON so that bench/report.sh joins them into its one ratio table.

    /usr/bin/python3 bench/numpy_bench.py [--min-time SECONDS] [--repetitions N] [--shuffle SEED]
                                          [--out FILE] [--list] [--filter REGEX]

Timing and options: bench/peer_harness.py (shared with bench/torch_bench.py). Inputs are float32 uniforms on
[-1, 1) (solve: float64, diagonally dominant), made outside the timing. Needs NumPy (Debian: python3-numpy for /usr/bin/python3).
Run it with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset so OpenBLAS (matmul, solve) picks its own kernels.
"""

import sys

import numpy as np

import peer_harness  # bench/peer_harness.py: timing, options, JSON



def uniform(rng, shape, dtype=np.float32):
    return rng.uniform(-1.0, 1.0, shape).astype(dtype)


def cases():
    """(group, make(rng) -> inputs, run(*inputs)) in ember_bench's order."""
    out = []
    for side, n, g in peer_harness.sized():
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
    for label, side in peer_harness.SORT_SIZES:
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


def main():
    ap = peer_harness.parser(__doc__)
    args = ap.parse_args()
    return peer_harness.main(ap, args, "peer_numpy", cases(), lambda: np.random.default_rng(1),
                             {"executable": "numpy_bench.py", "numpy": np.__version__})


if __name__ == "__main__":
    sys.exit(main())
