"""Golden cases for ember::ops math (ops/math.hpp)."""

import numpy as np

from golden_common import (FLOATS, MAIN, NP, SPECIALS, S, T, arr, as_ember_float16_reduction, case, err,
                           scalar_dtype, sum_dtype, transcendental_dtype)

I32_MIN, I64_MIN = int(np.iinfo(np.int32).min), int(np.iinfo(np.int64).min)

BINARY = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.true_divide,
    "floor_divide": np.floor_divide, "mod": np.mod, "power": np.power, "minimum": np.minimum,
    "maximum": np.maximum,
}
# Ops with a Tensor-Scalar overload.
WITH_SCALAR = ("add", "subtract", "multiply", "divide", "power")

UNARY_ARITH = {"negative": np.negative, "abs": np.abs, "sign": np.sign, "square": np.square}
TRANSCENDENTAL = {
    # op: (function, low, high) of the random inputs
    "sqrt": (np.sqrt, 0.0, 100.0), "exp": (np.exp, -10.0, 10.0), "expm1": (np.expm1, -3.0, 3.0),
    "log": (np.log, 0.01, 100.0), "log1p": (np.log1p, -0.9, 5.0), "log2": (np.log2, 0.01, 100.0),
    "log10": (np.log10, 0.01, 100.0), "sin": (np.sin, -10.0, 10.0), "cos": (np.cos, -10.0, 10.0),
    "tan": (np.tan, -1.4, 1.4), "sinh": (np.sinh, -5.0, 5.0), "cosh": (np.cosh, -5.0, 5.0),
    "tanh": (np.tanh, -5.0, 5.0),
}
ROUNDING = {"floor": np.floor, "ceil": np.ceil, "round": np.round}


def binary_expected(op, a, b):
    if op == "divide" and not np.issubdtype(np.result_type(a, b), np.floating):
        return np.true_divide(a.astype(np.float64), b.astype(np.float64))
    return BINARY[op](a, b)


def positive_exponents(b):
    return np.abs(b) % 5


def binary_cases():
    out = []
    shapes = [((5,), (5,)), ((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((), (3,)), ((0,), (0,)), ((2, 0), (1, 0)),
              ((0,), ())]
    for op in BINARY:
        for dt in MAIN:
            for sa, sb in shapes:
                a, b = arr(sa, dt), arr(sb, dt)
                if op in ("floor_divide", "mod", "divide") and dt.startswith("int"):
                    b[b == 0] = 3  # x // 0 has its own case below
                if op == "power":  # (0-d operands would turn into NumPy scalars: keep the dtypes)
                    b = (positive_exponents(b) if dt.startswith("int") else np.abs(b)).astype(b.dtype)
                    a = a if dt.startswith("int") else (np.abs(a) + 0.5).astype(a.dtype)
                out.append(case(op, [T(a), T(b)], T(binary_expected(op, a, b))))
        for dt in ("float16", "int8", "uint8"):
            a, b = arr((2, 3), dt, 1, 6), arr((3,), dt, 1, 4)
            out.append(case(op, [T(a), T(b)], T(binary_expected(op, a, b))))
        # Mixed dtypes promote: int32 with float32 -> float64, int8 with uint8 -> int16.
        for da, db in (("int32", "float32"), ("int8", "uint8"), ("int16", "float16")):
            a, b = arr((2, 3), da, 1, 5), arr((2, 3), db, 1, 5)
            out.append(case(op, [T(a), T(b)], T(binary_expected(op, a, b))))
        # IEEE special values against each other (the Array API special cases), signed zeros kept.
        if op not in ("minimum", "maximum"):
            sp = np.array(SPECIALS, np.float64)
            a, b = np.repeat(sp, len(sp)), np.tile(sp, len(sp))
            out.append(case(op, [T(a), T(b)], T(binary_expected(op, a, b)), signed_zeros=op != "power"))
        else:
            sp = np.array([np.nan, 1.0, -np.inf, 2.0, np.nan], np.float32)
            sq = np.array([0.0, np.nan, 3.0, np.inf, np.nan], np.float32)
            out.append(case(op, [T(sp), T(sq)], T(binary_expected(op, sp, sq))))
        out.append(case(op, [T(arr((2, 3), "float32")), T(arr((4,), "float32"))], err("ShapeError")))
        out.append(case(op, [T([True, False]), T([True, True])], err("DTypeError")))
    # Integer edge cases: wrap-around, x // 0 == 0, x % 0 == 0, INT_MIN // -1 == INT_MIN.
    for dt, lo in (("int32", I32_MIN), ("int64", I64_MIN)):
        a = np.array([7, -7, 7, -7, 0, lo, lo, 5, -5, lo], NP[dt])
        b = np.array([2, 2, -2, -2, 3, -1, 1, 0, 0, 0], NP[dt])
        for op in ("floor_divide", "mod", "add", "subtract", "multiply"):
            out.append(case(op, [T(a), T(b)], T(BINARY[op](a, b))))
        a = np.array([3, -3, 2, 7, lo, -1, 0, 1], NP[dt])
        b = np.array([40, 3, 31, 0, 2, 63, 0, 62], NP[dt])
        out.append(case("power", [T(a), T(b)], T(np.power(a, b))))
    return out


def scalar_cases():
    out = []
    for op in WITH_SCALAR:
        for dt, s in (("float32", 2.5), ("float64", -0.75), ("int32", 3), ("int64", 2), ("float32", 2),
                      ("int32", 2.5), ("float16", 3), ("uint8", 2), ("int64", True)):
            a = arr((2, 3), dt, 1, 5)
            sd = scalar_dtype(a.dtype, s)
            b = np.array(s, sd)
            expected = binary_expected(op, a.astype(np.result_type(a.dtype, sd)), b)
            out.append(case(op, [T(a), S(s)], T(expected)))
        # An integer scalar outside the tensor's range widens the result instead of wrapping.
        for dt, s in (("int8", 300), ("uint8", -1), ("int16", -40000)):
            if op == "power" and s < 0:
                continue  # integers to negative integer powers are an error in NumPy
            a = np.array([[1, 2, 3], [4, 5, 1]], NP[dt])  # fixed data: the shared rng stream stays as it was
            sd = scalar_dtype(a.dtype, s)
            expected = binary_expected(op, a.astype(sd), np.array(s, sd))
            assert np.result_type(a, s) == sd, (op, dt, s)  # NumPy 1.24 widens the same way
            out.append(case(op, [T(a), S(s)], T(expected)))
        out.append(case(op, [T(np.zeros((0, 2), np.float64)), S(1.5)],
                        T(binary_expected(op, np.zeros((0, 2)), np.float64(1.5)))))
    return out


def unary_cases():
    out = []
    for op, fn in UNARY_ARITH.items():
        for dt in MAIN + ("float16", "int8"):
            x = arr((3, 4), dt, -20, 20)
            out.append(case(op, [T(x)], T(fn(x))))
        for shape in ((), (0,), (2, 0)):
            x = arr(shape, "float64")
            out.append(case(op, [T(x)], T(fn(x))))
        sp = np.array(SPECIALS, np.float64)
        expected = fn(sp)
        if op == "sign":  # ember: a zero keeps its sign
            expected = np.where(sp == 0, sp, expected)
        out.append(case(op, [T(sp)], T(expected), signed_zeros=True))
        lims = np.array([I32_MIN, -1, 0, 1, 2**31 - 1, 46341], np.int32)
        out.append(case(op, [T(lims)], T(fn(lims))))
        out.append(case(op, [T([True, False])], err("DTypeError")))
    for op, (fn, lo, hi) in TRANSCENDENTAL.items():
        for dt in ("float32", "float64", "float16"):
            x = arr((3, 4), dt, lo, hi)
            out.append(case(op, [T(x)], T(fn(x))))
        for dt in ("int32", "int64", "int8", "uint8", "int16"):
            x = arr((5,), dt, max(lo, 0 if op in ("sqrt", "log", "log2", "log10") else lo), min(hi, 5))
            if op in ("log", "log2", "log10"):
                x[x == 0] = 1
            out.append(case(op, [T(x)], T(fn(x.astype(transcendental_dtype(x.dtype))))))
        for dt in ("float64", "float32"):
            sp = np.array(SPECIALS + [1e-10, -1e-10], NP[dt])
            out.append(case(op, [T(sp)], T(fn(sp)), signed_zeros=True))
        out.append(case(op, [T(np.zeros((0, 3), np.float32))], T(np.zeros((0, 3), np.float32))))
        out.append(case(op, [T(np.array(0.5))], T(fn(np.array(0.5)))))
        out.append(case(op, [T([True, False])], err("DTypeError")))
    for op, fn in ROUNDING.items():
        x = np.array([-2.5, -1.5, -0.5, -0.4, -0.0, 0.0, 0.4, 0.5, 1.5, 2.5, 2.6, np.nan, np.inf, -np.inf])
        for dt in ("float64", "float32", "float16"):
            out.append(case(op, [T(x.astype(NP[dt]))], T(fn(x.astype(NP[dt]))), signed_zeros=True))
        x = arr((3, 4), "float64", -10, 10)
        out.append(case(op, [T(x)], T(fn(x))))
        for dt in ("int32", "int64", "int8", "uint8"):  # ember: integers are returned unchanged
            x = arr((4,), dt, -50, 50)
            out.append(case(op, [T(x)], T(x)))
        out.append(case(op, [T(np.zeros((), np.float32))], T(np.zeros((), np.float32))))
    return out


def clip_cases():
    out = []
    for dt, lo, hi in (("float64", -1.0, 2.0), ("float32", None, 0.5), ("float32", -0.5, None),
                       ("int32", -2, 3), ("int64", 0, None), ("float16", -1.0, 1.0), ("uint8", 2, 7),
                       ("float64", None, None)):
        x = arr((3, 4), dt, -5, 10)
        expected = x if lo is None and hi is None else np.clip(x, lo, hi).astype(x.dtype)
        out.append(case("clip", [T(x)], T(expected), {"lo": lo, "hi": hi}))
    # Integer bounds outside the tensor's range act by value: the result widens (NumPy 1.24's rule).
    for dt, data, lo, hi in (("int8", [50, -100, 127, -128], 0, 300), ("uint8", [0, 5, 200, 255], -1, 100),
                             ("int8", [50, -100, 127], -200, None), ("int16", [7, -32768, 32767], None, 40000)):
        x = np.array(data, NP[dt])
        expected = np.clip(x, lo, hi)
        widened = x.dtype
        for bound in (lo, hi):
            widened = widened if bound is None else np.result_type(widened, scalar_dtype(x.dtype, bound))
        assert expected.dtype == widened, (dt, lo, hi)
        out.append(case("clip", [T(x)], T(expected), {"lo": lo, "hi": hi}))
    x = np.array([np.nan, -3.0, 5.0, np.inf, -np.inf, 0.0], np.float64)
    out.append(case("clip", [T(x)], T(np.clip(x, -1.0, 1.0)), {"lo": -1.0, "hi": 1.0}))
    out.append(case("clip", [T(np.zeros((0,), np.float32))], T(np.zeros((0,), np.float32)),
                    {"lo": 0.0, "hi": 1.0}))
    return out


def matmul_cases():
    out = []
    shapes = [((2, 3), (3, 4)), ((3,), (3, 4)), ((2, 3), (3,)), ((3,), (3,)), ((2, 2, 3), (3, 4)),
              ((2, 1, 2, 3), (3, 3, 2)), ((0, 3), (3, 2)), ((2, 0), (0, 3)), ((1, 1), (1, 1))]
    for dt in MAIN:
        for sa, sb in shapes:
            a, b = arr(sa, dt, -4, 4), arr(sb, dt, -4, 4)
            out.append(case("matmul", [T(a), T(b)], T(np.matmul(a, b))))
    for da, db in (("int32", "float32"), ("float16", "float16"), ("int8", "int8")):
        a, b = arr((2, 3), da, -3, 3), arr((3, 2), db, -3, 3)
        expected = np.matmul(a.astype(np.float32), b.astype(np.float32)).astype(np.float16) \
            if da == "float16" else np.matmul(a, b)
        out.append(case("matmul", [T(a), T(b)], T(expected)))
    out.append(case("matmul", [T(arr((2, 3), "float32")), T(arr((4, 2), "float32"))], err("ShapeError")))
    out.append(case("matmul", [T(np.float32(2.0)), T(arr((2,), "float32"))], err("ShapeError")))
    dshapes = [((3,), (3,)), ((2, 3), (3, 4)), ((2, 3, 4), (4, 2)), ((2, 3), (4, 3, 2)), ((), (2, 3)),
               ((2, 3), ()), ((3,), (3, 2)), ((0,), (0,))]
    for dt in MAIN:
        for sa, sb in dshapes:
            a, b = arr(sa, dt, -4, 4), arr(sb, dt, -4, 4)
            out.append(case("dot", [T(a), T(b)], T(np.dot(a, b))))
    out.append(case("dot", [T(arr((3,), "float64")), T(arr((4,), "float64"))], err("ShapeError")))
    return out


REDUCTIONS = ("sum", "prod", "mean", "var", "std", "min", "max")
AXES = (None, [0], [1], [-1], [0, 2], [])


def reduce_expected(op, x, axes, keepdims, ddof=0.0):
    axis = None if axes is None else tuple(axes)
    fn = getattr(np, {"min": "amin", "max": "amax"}.get(op, op))
    kw = {"axis": axis, "keepdims": keepdims}
    if op in ("var", "std"):
        kw["ddof"] = ddof
    if x.dtype == np.float16:
        return as_ember_float16_reduction(fn, x, **kw)
    if op in ("sum", "prod"):
        return fn(x, dtype=sum_dtype(x.dtype), **kw)
    if op in ("mean", "var", "std") and not np.issubdtype(x.dtype, np.floating):
        return fn(x.astype(np.float64), **kw)
    return fn(x, **kw)


def reduction_cases():
    out = []
    for op in REDUCTIONS:
        lo, hi = (0.5, 1.5) if op == "prod" else (-5, 5)
        for dt in MAIN:
            x = arr((2, 3, 4), dt, lo, hi) if not dt.startswith("int") or op != "prod" else arr((2, 3, 4), dt, 1, 3)
            for axes in AXES:
                for keepdims in (False, True):
                    kw = {"axes": axes, "keepdims": keepdims}
                    out.append(case(op, [T(x)], T(reduce_expected(op, x, axes, keepdims)), kw))
        for dt in ("float16", "int8", "uint8", "bool"):
            if dt == "bool" and op not in ("sum", "prod", "min", "max"):
                continue
            x = arr((3, 4), dt, 1, 4)
            for axes in (None, [0], [1]):
                out.append(case(op, [T(x)], T(reduce_expected(op, x, axes, False)), {"axes": axes}))
        x = np.array(2.5)
        out.append(case(op, [T(x)], T(reduce_expected(op, x, None, False))))
        for shape, axes in (((0,), None), ((2, 0), [1]), ((2, 0), [0]), ((2, 0), None)):
            x = np.zeros(shape, np.float64)
            empty_extent = any(shape[a] == 0 for a in (axes or range(len(shape))))
            if op in ("min", "max") and empty_extent:
                out.append(case(op, [T(x)], err("ShapeError"), {"axes": axes}))
            else:
                out.append(case(op, [T(x)], T(reduce_expected(op, x, axes, False)), {"axes": axes}))
        out.append(case(op, [T(arr((2, 3), "float32"))], err("ShapeError"), {"axes": [2]}))
        out.append(case(op, [T(arr((2, 3), "float32"))], err("ShapeError"), {"axes": [0, 0]}))
    for op in ("var", "std"):
        for ddof in (1.0, 2.0, 3.0):
            x = arr((3, 4), "float64")
            out.append(case(op, [T(x)], T(reduce_expected(op, x, [0], False, ddof)), {"axes": [0], "ddof": ddof}))
    nanx = np.array([[1.0, np.nan, 3.0], [np.inf, -2.0, -np.inf]], np.float32)
    for op in ("min", "max", "sum", "mean"):
        for axes in (None, [0], [1]):
            out.append(case(op, [T(nanx)], T(reduce_expected(op, nanx, axes, False)), {"axes": axes}))
    return out


def arg_cases():
    out = []
    for op, fn in (("argmin", np.argmin), ("argmax", np.argmax)):
        for dt in MAIN + ("bool", "float16", "uint8"):
            x = arr((3, 4), dt, -3, 3)  # narrow range: ties, where the first occurrence wins
            for axis in (None, 0, 1, -1):
                for keepdims in (False, True):
                    out.append(case(op, [T(x)], T(fn(x, axis=axis, keepdims=keepdims).astype(np.int64)),
                                    {"axis": axis, "keepdims": keepdims}))
        x = np.array([[1.0, np.nan, 0.0, np.nan], [5.0, -1.0, -1.0, 2.0], [np.inf, 3.0, -np.inf, np.nan]])
        for axis in (None, 0, 1):
            out.append(case(op, [T(x)], T(fn(x, axis=axis).astype(np.int64)), {"axis": axis}))
        out.append(case(op, [T(np.array(4.0))], T(np.int64(0))))
        out.append(case(op, [T(np.zeros((0,)))], err("ShapeError")))
        out.append(case(op, [T(np.zeros((2, 0)))], err("ShapeError"), {"axis": 1}))
        out.append(case(op, [T(np.zeros((2, 0)))], T(np.zeros((0,), np.int64)), {"axis": 0}))
        out.append(case(op, [T(arr((2, 3), "float32"))], err("ShapeError"), {"axis": 2}))
    for dt in MAIN + ("bool", "float16", "int8"):
        x = arr((3, 4), dt, -3, 5)
        for axis in (None, 0, 1, -1):
            xe = x.astype(np.float32) if dt == "float16" else x
            expected = np.cumsum(xe, axis=axis, dtype=sum_dtype(x.dtype) if dt != "float16" else np.float32)
            out.append(case("cumsum", [T(x)], T(expected.astype(sum_dtype(x.dtype))), {"axis": axis}))
    out.append(case("cumsum", [T(np.zeros((0,), np.int32))], T(np.zeros((0,), np.int64))))
    out.append(case("cumsum", [T(np.array(3.5))], T(np.array([3.5]))))
    out.append(case("cumsum", [T(np.zeros((2, 0), np.float32))], T(np.zeros((2, 0), np.float32)), {"axis": 1}))
    out.append(case("cumsum", [T(arr((2, 3), "float32"))], err("ShapeError"), {"axis": 2}))
    return out


def overflow_cases():
    """Integer arithmetic wraps (two's complement) everywhere, never traps: NumPy wraps too."""
    out = []
    big = np.array([2**62, 2**62, 2**62, -2**63, 5], np.int64)
    for op in ("sum", "prod"):
        out.append(case(op, [T(big)], T(reduce_expected(op, big, None, False))))
    out.append(case("cumsum", [T(big)], T(np.cumsum(big))))
    m = np.array([[2**31 - 1, 2**31 - 1], [-2**31, 3]], np.int32)
    out.append(case("matmul", [T(m), T(m)], T(np.matmul(m, m))))
    out.append(case("dot", [T(m[0]), T(m[0])], T(np.dot(m[0], m[0]))))
    for dt in ("int8", "int16", "uint8"):
        info = np.iinfo(NP[dt])
        a = np.array([info.min, info.min, info.max, info.max, -7 if info.min else 7, 0, 9], NP[dt])
        b = np.array([-1 if info.min else 1, 1, 1, 2, 2, 0, 0], NP[dt])
        for op in ("add", "subtract", "multiply", "floor_divide", "mod"):
            out.append(case(op, [T(a), T(b)], T(BINARY[op](a, b))))
        for op, fn in UNARY_ARITH.items():
            out.append(case(op, [T(a)], T(fn(a))))
    return out


def edge_cases():
    out = []
    x = np.array([-3.0, 0.5, 7.0, np.nan])
    out.append(case("clip", [T(x)], T(np.minimum(np.maximum(x, 2.0), 1.0)), {"lo": 2.0, "hi": 1.0}))
    out.append(case("clip", [T(np.arange(6, dtype=np.float32))], T(np.clip(np.arange(6, dtype=np.float32), 1, 4)),
                    {"lo": 1, "hi": 4}))
    for op, fn in ROUNDING.items():
        big = np.array([2.0**52 + 1, -(2.0**52) - 1, 2.0**53, 1e300, -1e300, 4503599627370495.5, 0.49999999999999994])
        out.append(case(op, [T(big)], T(fn(big)), signed_zeros=True))
        big32 = np.array([8388609.0, -8388607.5, 16777216.0, 3.0e38, 0.49999997], np.float32)
        out.append(case(op, [T(big32)], T(fn(big32)), signed_zeros=True))
    for ddof in (4.0, 5.0, 3.0):  # N - ddof <= 0: x / 0 like NumPy (inf, or NaN when every deviation is 0)
        x = arr((3, 4), "float64")
        x[:, 0] = 1.0
        for op in ("var", "std"):
            out.append(case(op, [T(x)], T(reduce_expected(op, x, [0], False, ddof)), {"axes": [0], "ddof": ddof}))
    x = np.array([1e8, 1.0, -1e8, 1e-8], np.float64)  # cancellation in var's one-pass formula
    out.append(case("var", [T(x + 1e9)], T(np.var(x + 1e9)), tol=(1e-6, 1e-6)))
    for dt in ("uint8", "int8"):
        x = arr((6,), dt, -5, 5)
        out.append(case("sign", [T(x)], T(np.sign(x))))
    # float16 overflow, underflow and special values (computed in float32, rounded once).
    h = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 12.0, -20.0, 300.0, 6e-8], np.float16)
    for op, (fn, _, _) in TRANSCENDENTAL.items():
        out.append(case(op, [T(h)], T(fn(h.astype(np.float32)).astype(np.float16)), signed_zeros=True))
    g = np.array([300.0, -300.0, 1.0, 0.0, -0.0, np.inf, 2.0, np.nan, 1e-4], np.float16)
    for op in ("multiply", "divide", "add", "power"):
        out.append(case(op, [T(g), T(g[::-1].copy())], T(BINARY[op](g, g[::-1])), signed_zeros=op != "power"))
    for op in ("min", "max", "argmin", "argmax"):
        x = np.array([[1.0, np.nan, -2.0], [3.0, 0.5, -np.inf]], np.float16)
        fn = {"min": np.amin, "max": np.amax, "argmin": np.argmin, "argmax": np.argmax}[op]
        for axis in (None, 0, 1):
            kw = {"axis": axis} if op.startswith("arg") else {"axes": None if axis is None else [axis]}
            expected = fn(x, axis=axis)
            out.append(case(op, [T(x)], T(np.asarray(expected).astype(np.int64) if op.startswith("arg") else expected),
                            kw))
    for sa, sb in (((3,), (2, 3, 4)), ((2, 3, 4), (4,)), ((1, 2, 3), (4, 3, 2))):
        a, b = arr(sa, "float64"), arr(sb, "float64")
        out.append(case("matmul", [T(a), T(b)], T(np.matmul(a, b))))
        if len(sa) == 1 or len(sb) == 1:
            out.append(case("dot", [T(a), T(b)], T(np.dot(a, b))))
    return out


def cases():
    return (overflow_cases() + edge_cases() + binary_cases() + scalar_cases() + unary_cases() + clip_cases() + matmul_cases() +
            reduction_cases() + arg_cases())
