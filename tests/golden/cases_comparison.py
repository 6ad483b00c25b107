"""Golden cases for ember::ops comparison (ops/comparison.hpp)."""

import numpy as np

from golden_common import MAIN, NP, SPECIALS, S, T, arr, case, err, scalar_dtype

COMPARE = {"equal": np.equal, "not_equal": np.not_equal, "less": np.less, "less_equal": np.less_equal,
           "greater": np.greater, "greater_equal": np.greater_equal}
LOGICAL = {"logical_and": np.logical_and, "logical_or": np.logical_or, "logical_xor": np.logical_xor}
PREDICATES = {"isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite}


def compare_cases():
    out = []
    shapes = [((6,), (6,)), ((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((), (3,)), ((0,), (0,)), ((2, 0), (1, 0))]
    for op, fn in COMPARE.items():
        for dt in MAIN + ("bool", "float16", "uint8", "int8"):
            for sa, sb in shapes:
                a, b = arr(sa, dt, -2, 2), arr(sb, dt, -2, 2)  # narrow range: many equal pairs
                out.append(case(op, [T(a), T(b)], T(fn(a, b))))
        for da, db in (("int32", "float32"), ("uint8", "int8"), ("bool", "int32"), ("int64", "float64")):
            a, b = arr((3, 4), da, -3, 3), arr((3, 4), db, -3, 3)
            out.append(case(op, [T(a), T(b)], T(fn(a, b))))
        sp = np.array(SPECIALS, np.float64)
        a, b = np.repeat(sp, len(sp)), np.tile(sp, len(sp))
        out.append(case(op, [T(a), T(b)], T(fn(a, b))))
        # Tensor-Scalar overloads: an int tensor against a float scalar compares as float64.
        for dt, s in (("int32", 1), ("int32", 0.5), ("float32", 1.5), ("float64", float("nan")),
                      ("bool", True), ("uint8", 3), ("float16", 1)):
            a = arr((2, 3), dt, -2, 4)
            sd = scalar_dtype(a.dtype, s)
            ct = np.result_type(a.dtype, sd)
            out.append(case(op, [T(a), S(s)], T(fn(a.astype(ct), np.array(s, sd).astype(ct)))))
        # Integer scalars outside the tensor's range compare by value (never wrapped into the dtype).
        for dt, data, s in (("uint8", [0, 5, 200, 255], -1), ("uint8", [0, 5, 200, 255], 256),
                            ("int8", [50, -100, 127, -128], 300), ("int8", [50, -100, 127, -128], -129),
                            ("int16", [0, -32768, 32767], 40000), ("int32", [0, -5, 2**31 - 1], 2**40),
                            ("int32", [0, -5, -2**31], -2**40)):
            a = np.array(data, NP[dt])
            expected = fn(a, s)
            assert expected.dtype == np.bool_ and (expected == fn(a.astype(np.int64), np.int64(s))).all()
            out.append(case(op, [T(a), S(s)], T(expected)))
        out.append(case(op, [T(arr((2, 3), "float32")), T(arr((2,), "float32"))], err("ShapeError")))
    return out


def logical_cases():
    out = []
    for op, fn in LOGICAL.items():
        for dt in ("bool", "int32", "float64", "float32", "uint8"):
            for sa, sb in (((2, 3), (2, 3)), ((3, 1), (1, 4)), ((), (4,)), ((0,), (0,))):
                a, b = arr(sa, dt, -1, 1), arr(sb, dt, -1, 1)
                if dt.startswith("float"):
                    a, b = np.round(a), np.round(b)
                out.append(case(op, [T(a), T(b)], T(fn(a, b))))
        a = np.array([np.nan, 0.0, -0.0, 1.0, np.nan, np.inf])
        b = np.array([0.0, np.nan, 1.0, -0.0, np.nan, 0.0])
        out.append(case(op, [T(a), T(b)], T(fn(a, b))))
        a, b = np.array([0, 2, -1, 0], np.int32), np.array([0.0, 0.0, 0.5, 0.25], np.float32)
        out.append(case(op, [T(a), T(b)], T(fn(a, b))))
        out.append(case(op, [T(arr((2,), "bool")), T(arr((3,), "bool"))], err("ShapeError")))
    for dt in ("bool", "int32", "float64", "int8"):
        x = arr((3, 4), dt, -1, 1)
        x = np.round(x) if dt.startswith("float") else x
        out.append(case("logical_not", [T(x)], T(np.logical_not(x))))
    x = np.array([np.nan, 0.0, -0.0, np.inf, 2.0], np.float32)
    out.append(case("logical_not", [T(x)], T(np.logical_not(x))))
    out.append(case("logical_not", [T(np.zeros((0, 2), np.bool_))], T(np.zeros((0, 2), np.bool_))))
    out.append(case("logical_not", [T(np.array(True))], T(np.array(False))))
    return out


def predicate_cases():
    out = []
    for op, fn in PREDICATES.items():
        for dt in ("float64", "float32", "float16"):
            x = np.array(SPECIALS + [1e300, -1e-300], np.float64).astype(NP[dt])
            out.append(case(op, [T(x)], T(fn(x))))
            out.append(case(op, [T(x.reshape(2, 6))], T(fn(x.reshape(2, 6)))))
        for dt in ("int32", "int64", "bool", "uint8"):
            x = arr((2, 3), dt, -5, 5)
            out.append(case(op, [T(x)], T(fn(x))))
        out.append(case(op, [T(np.zeros((0,), np.float64))], T(np.zeros((0,), np.bool_))))
        out.append(case(op, [T(np.array(np.nan, np.float32))], T(fn(np.array(np.nan, np.float32)))))
    return out


def close_cases():
    out = []
    a = np.array([1.0, 1.0, 1.0, np.nan, np.nan, np.inf, np.inf, -np.inf, 0.0, 1e-9, 1e10, 100.0])
    b = np.array([1.0 + 1e-6, 1.1, 1.0 + 2e-5, np.nan, 1.0, np.inf, -np.inf, -np.inf, 1e-9, 0.0, 1.00001e10,
                  100.0005])
    for kw in ({}, {"equal_nan": True}, {"rtol": 0.2, "atol": 0.0}, {"rtol": 0.0, "atol": 1e-8},
               {"rtol": 1e-3, "atol": 1e-3, "equal_nan": True}):
        out.append(case("isclose", [T(a), T(b)], T(np.isclose(a, b, **kw)), kw))
        out.append(case("allclose", [T(a[:3]), T(b[:3])], T(np.array(np.allclose(a[:3], b[:3], **kw))), kw))
        out.append(case("allclose", [T(a), T(b)], T(np.array(np.allclose(a, b, **kw))), kw))
    for dt in ("float32", "float64"):
        x = arr((3, 1), dt)
        y = (x + np.asarray(arr((1, 4), dt, -1e-5, 1e-5))).astype(NP[dt])
        out.append(case("isclose", [T(x), T(y)], T(np.isclose(x, y))))
        out.append(case("allclose", [T(x), T(y)], T(np.array(np.allclose(x, y)))))
    ai, bi = np.array([1, 2, 3, 100000], np.int32), np.array([1, 3, 3, 100001], np.int32)
    out.append(case("isclose", [T(ai), T(bi)], T(np.isclose(ai, bi))))
    out.append(case("allclose", [T(np.zeros((0,)))] * 2, T(np.array(True))))
    out.append(case("isclose", [T(np.zeros((2,))), T(np.zeros((3,)))], err("ShapeError")))
    return out


def all_any_cases():
    out = []
    for op, fn in (("all", np.all), ("any", np.any)):
        for dt, lo, hi in (("bool", 0, 1), ("int32", 0, 3), ("float64", 0, 1), ("float32", -1, 1), ("int64", 0, 2),
                           ("float16", 0, 1), ("uint8", 0, 2)):
            x = arr((2, 3, 4), dt, lo, hi)
            if dt == "bool" and op == "all":
                x = np.asarray(arr((2, 3, 4), "int32", 0, 6) > 0)  # mostly true: all() varies by axis
            for axes in (None, [0], [1], [-1], [0, 2]):
                for keepdims in (False, True):
                    ax = None if axes is None else tuple(axes)
                    out.append(case(op, [T(x)], T(np.asarray(fn(x, axis=ax, keepdims=keepdims))),
                                    {"axes": axes, "keepdims": keepdims}))
        x = np.array([np.nan, 0.0, -0.0])
        out.append(case(op, [T(x)], T(np.asarray(fn(x)))))
        out.append(case(op, [T(x[1:])], T(np.asarray(fn(x[1:])))))
        for shape, axes in (((0,), None), ((2, 0), [1]), ((2, 0), [0])):
            x = np.zeros(shape, np.bool_)
            ax = None if axes is None else tuple(axes)
            out.append(case(op, [T(x)], T(np.asarray(fn(x, axis=ax))), {"axes": axes}))
        out.append(case(op, [T(np.array(True))], T(np.array(True))))
        out.append(case(op, [T(arr((2, 3), "bool"))], err("ShapeError"), {"axes": [3]}))
    return out


def where_cases():
    out = []
    for dt in MAIN + ("bool", "float16", "int8"):
        for sc, sx, sy in (((2, 3), (2, 3), (2, 3)), ((3, 1), (1, 4), ()), ((2, 3, 4), (4,), (3, 1)),
                           ((0,), (0,), ()), ((), (2,), (2,))):
            c, x, y = arr(sc, "bool"), arr(sx, dt), arr(sy, dt)
            out.append(case("where", [T(c), T(x), T(y)], T(np.where(c, x, y))))
    for dx, dy in (("int32", "float32"), ("bool", "int64"), ("uint8", "int8"), ("float16", "float64")):
        c, x, y = arr((2, 3), "bool"), arr((2, 3), dx), arr((2, 3), dy)
        out.append(case("where", [T(c), T(x), T(y)], T(np.where(c, x, y))))
    c, x, y = np.array(True), arr((2, 2), "float32"), arr((1,), "float32")
    out.append(case("where", [T(c), T(x), T(y)], T(np.where(c, x, y))))
    c = np.array([True, False, True, False])
    x, y = np.array([np.nan, np.nan, -0.0, 1.0]), np.array([-0.0, np.inf, 2.0, -0.0])
    out.append(case("where", [T(c), T(x), T(y)], T(np.where(c, x, y)), signed_zeros=True))
    out.append(case("where", [T(arr((2,), "bool")), T(arr((3,), "float32")), T(arr((3,), "float32"))],
                    err("ShapeError")))
    return out


def cases():
    return compare_cases() + logical_cases() + predicate_cases() + close_cases() + all_any_cases() + where_cases()
