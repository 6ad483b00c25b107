#!/usr/bin/python3
"""PyTorch (CPU) as ember's multi-threaded peer: the cases of bench/numpy_bench.py (ember_bench's GROUP names)
as GROUP/peer_torch, written as Google Benchmark JSON so that bench/report.sh joins them into its one ratio
table.

    /usr/bin/python3 bench/torch_bench.py --threads N [--min-time SECONDS] [--repetitions N] [--shuffle SEED]
                                          [--out FILE] [--list] [--filter REGEX]

--threads N: torch.set_num_threads(N), the count of ember's host threads (bench/report.sh passes ember_bench's
`ember_host_threads`); PyTorch splits element-wise ops over its OpenMP threads from 32K elements. Each case
is written the fastest way a PyTorch user writes it: a fresh result where ember makes one (`torch.add(a, b)`),
`out=` or in-place ops where ember writes no temporary either (`add_out`; the fused chains, which ember runs
as one loop with no temporaries, as in-place ops on one result; the dense layer as `addmm` then `relu_`);
`.contiguous()` after `.t()` and slicing, as ember's transpose and slice return contiguous tensors; `sort`
also returns the indices (PyTorch has no values-only sort). matmul and solve call the BLAS and LAPACK behind
Debian's alternatives libblas.so.3 and liblapack.so.3: the JSON's context names the files the process mapped
(`blas`). Timing and the other options: bench/peer_harness.py. Needs PyTorch (Debian: python3-torch, for
/usr/bin/python3).
"""

import sys

import torch

import peer_harness  # bench/peer_harness.py: timing, options, JSON

F32, F64 = torch.float32, torch.float64


def uniform(g, shape, dtype=F32):
    return torch.rand(shape, generator=g, dtype=dtype) * 2 - 1


def cases():
    """(group, make(generator) -> inputs, run(*inputs)) in numpy_bench.py's order."""
    out = []
    for side, n, g in peer_harness.sized():
        def rng(g, n=n):
            return (torch.Generator().manual_seed(7), n)

        out += [
            (g("add"), lambda r, n=n: (uniform(r, n), uniform(r, n)), torch.add),
            (g("add_bcast"), lambda r, s=side: (uniform(r, (s, s)), uniform(r, s)), torch.add),
            (g("add_out"), lambda r, n=n: (uniform(r, n), uniform(r, n), torch.empty(n)),
             lambda a, b, c: torch.add(a, b, out=c)),
            (g("where_bcast"), lambda r, s=side: (uniform(r, (s, s)) > 0, uniform(r, s), uniform(r, (s, 1))),
             torch.where),
            (g("abs"), lambda r, n=n: (uniform(r, n),), torch.abs),
            (g("exp"), lambda r, n=n: (uniform(r, n),), torch.exp),
            (g("exp", "f64"), lambda r, n=n: (uniform(r, n, F64),), torch.exp),
            (g("log"), lambda r, n=n: (uniform(r, n) + 2,), torch.log),  # on [1, 3)
            (g("sum"), lambda r, n=n: (uniform(r, n),), torch.sum),
            (g("sum_axis0"), lambda r, s=side: (uniform(r, (s, s)),), lambda x: torch.sum(x, 0)),
            (g("sum_axis1"), lambda r, s=side: (uniform(r, (s, s)),), lambda x: torch.sum(x, 1)),
            (g("transpose_copy"), lambda r, s=side: (uniform(r, (s, s)),), lambda x: x.t().contiguous()),
            (g("concatenate"), lambda r, n=n: (uniform(r, n // 2), uniform(r, n // 2)),
             lambda a, b: torch.cat((a, b))),
            (g("slice"), lambda r, s=side: (uniform(r, (s, s)),), lambda x: x[1:-1, ::2].contiguous()),
            (g("random_uniform"), rng, lambda gen, n: torch.rand(n, generator=gen)),
            (g("random_normal"), rng, lambda gen, n: torch.randn(n, generator=gen)),
            (g("random_exponential"), rng, lambda gen, n: torch.empty(n).exponential_(generator=gen)),
            # torch.distributions.Gamma(2, 1).sample((n,)) is this call on an expanded concentration tensor
            (g("random_gamma"), lambda r, n=n: (torch.Generator().manual_seed(7), torch.full((n,), 2.0)),
             lambda gen, alpha: torch._standard_gamma(alpha, generator=gen)),
        ]
    for label, side in peer_harness.SORT_SIZES:
        out.append((f"sort_{label}_f32", lambda r, n=side * side: (uniform(r, n),), lambda x: torch.sort(x).values))
    for n in (256, 1024):
        out.append((f"matmul_{n}_f32", lambda r, n=n: (uniform(r, (n, n)), uniform(r, (n, n))), torch.matmul))
    # relu(x @ w + b): the bias added by the GEMM itself (addmm, as torch.nn.functional.linear does), relu in place
    out.append(("dense_relu_256_f32", lambda r: (uniform(r, 256), uniform(r, (256, 256)), uniform(r, (256, 256))),
                lambda b, x, w: torch.addmm(b, x, w).relu_()))
    out.append(("dispatch_add_1", lambda r: (uniform(r, 1), uniform(r, 1)), torch.add))
    for n in (128, 512):
        out.append((f"solve_{n}_f64",
                    lambda r, n=n: (uniform(r, (n, n), F64) + n * torch.eye(n, dtype=F64), uniform(r, n, F64)),
                    torch.linalg.solve))

    def expression(x, y):  # exp(-x) + sqrt(x*x + y*x*y) * 0.5: two results made, the rest in place
        t = torch.mul(y, x)
        t.mul_(y).addcmul_(x, x).sqrt_().mul_(0.5)
        return t.add_(torch.neg(x).exp_())

    def chain10(x, y):  # one result made, every op in place on it
        t = torch.mul(x, y)
        t.add_(1).abs_().sqrt_().sub_(y).mul_(x).neg_().exp_()
        return t.mul_(0.5).add_(x)

    n = 16 << 20
    pair = lambda r: (torch.rand(n, generator=r) * 2, uniform(r, n))  # noqa: E731
    out.append(("fusion_expr_16M_f32", pair, expression))
    out.append(("fusion_chain10_16M_f32", pair, chain10))
    return out


def mapped_blas():
    """The BLAS and LAPACK files this process has mapped (after a matmul and a solve), e.g.
    /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3."""
    torch.matmul(torch.ones(64, 64), torch.ones(64, 64))
    torch.linalg.solve(torch.eye(4, dtype=F64), torch.ones(4, dtype=F64))
    found = set()
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            for line in maps:
                path = line.split()[-1]
                name = path.rsplit("/", 1)[-1]
                if name.startswith(("libblas", "liblapack.", "libopenblas", "libmkl", "libblis")):
                    found.add(path)
    except OSError:
        return "unknown (no /proc/self/maps)"
    return " ".join(sorted(found)) or "none mapped"


def main():
    ap = peer_harness.parser(__doc__)
    ap.add_argument("--threads", type=int, help="torch.set_num_threads (required unless --list)")
    args = ap.parse_args()
    if not args.list:
        if args.threads is None or args.threads < 1:
            ap.error("--threads N (N >= 1: ember's host thread count) is required")
        torch.set_num_threads(args.threads)
    context = {"executable": "torch_bench.py", "torch": torch.__version__, "threads": torch.get_num_threads(),
               "blas": "" if args.list else mapped_blas()}
    return peer_harness.main(ap, args, "peer_torch", cases(), lambda: torch.Generator().manual_seed(1), context)


if __name__ == "__main__":
    sys.exit(main())
