#!/usr/bin/python3
"""Writes ember's golden fixtures: one JSON file per op category, expected values from NumPy 1.24.

Run with Debian's Python (it has NumPy): /usr/bin/python3 tests/golden/generate.py
The output is deterministic (fixed seed, sorted keys): re-running it must leave the files unchanged.
Case format and ember's deviations from NumPy: see golden_common.py.
"""

import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import cases_comparison  # noqa: E402
import cases_dtype  # noqa: E402
import cases_math  # noqa: E402
import cases_solver  # noqa: E402
import cases_tensor  # noqa: E402

CATEGORIES = {"math": cases_math, "comparison": cases_comparison, "tensor": cases_tensor,
              "solver": cases_solver, "dtype": cases_dtype}


def main():
    if not np.__version__.startswith("1.24"):
        print(f"warning: fixtures are defined against NumPy 1.24, this is {np.__version__}", file=sys.stderr)
    here = os.path.dirname(os.path.abspath(__file__))
    total = 0
    for name, module in CATEGORIES.items():
        cases = module.cases()
        path = os.path.join(here, f"{name}.json")
        doc = {"category": name, "numpy": np.__version__, "cases": cases}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, separators=(",", ":"), allow_nan=False)
            f.write("\n")
        ops = sorted({c["op"] for c in cases})
        size = os.path.getsize(path)
        total += size
        print(f"{name}.json: {len(cases)} cases, {len(ops)} ops, {size // 1024} KiB")
    print(f"total {total // 1024} KiB")


if __name__ == "__main__":
    main()
