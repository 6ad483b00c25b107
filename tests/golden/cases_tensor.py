"""Golden cases for ember::ops tensor (ops/tensor.hpp): creation, conversion and manipulation."""

import math

import numpy as np

from golden_common import FLOATS, INTS, MAIN, NP, S, T, arr, case, cast_value, err

ALL = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64")


def creation_cases():
    out = []
    for op, fn in (("zeros", np.zeros), ("ones", np.ones)):
        for shape, dt in (((2, 3), "float32"), ((0,), "int64"), ((), "bool"), ((2, 0, 3), "float16"),
                          ((4,), "uint8"), ((1, 2), "float64"), ((3,), "int32")):
            out.append(case(op, [], T(fn(shape, NP[dt])), {"shape": list(shape), "dtype": dt}))
        out.append(case(op, [], T(fn((2,), np.float32)), {"shape": [2]}))  # default dtype float32
        out.append(case(op, [], err("ShapeError"), {"shape": [2, -1]}))
    for shape, value, dt in (((2, 2), 7, None), ((2,), 2.5, None), ((3,), True, None), ((2,), 3.7, "int32"),
                             ((2,), -3.7, "uint8"), ((2,), float("nan"), "float32"), ((0, 2), 1, "float64"),
                             ((), -0.0, "float64"), ((2,), 1e10, "int32"), ((2,), 300, "uint8"),
                             ((2,), float("nan"), "int64"), ((1,), 0.1, "float16")):
        natural = np.bool_ if isinstance(value, bool) else np.int64 if isinstance(value, int) else np.float64
        target = NP[dt] if dt else natural
        expected = np.full(shape, cast_value(value, target), target)
        kw = {"shape": list(shape), "dtype": dt}
        out.append(case("full", [S(value)], T(expected), kw, signed_zeros=True))
    for op, fn in (("zeros_like", np.zeros_like), ("ones_like", np.ones_like)):
        for dt, to in (("float32", None), ("int32", None), ("float64", "int64"), ("bool", "float16"),
                       ("int8", None)):
            x = arr((2, 3), dt)
            out.append(case(op, [T(x)], T(fn(x, dtype=NP[to] if to else None)), {"dtype": to}))
        out.append(case(op, [T(np.zeros((0, 3), np.float32))], T(np.zeros((0, 3), np.float32))))
    for dt, value, to in (("float32", 2.5, None), ("int32", 7, None), ("int64", 2.9, None),
                          ("float64", 1, "uint8"), ("bool", 0, None), ("int32", -1, "uint8")):
        x = arr((2, 2), dt)
        target = NP[to] if to else x.dtype
        out.append(case("full_like", [T(x), S(value)], T(np.full(x.shape, cast_value(value, target), target)),
                        {"dtype": to}))
    for n, m, k, dt in ((3, None, 0, "float32"), (3, 4, 1, "float64"), (4, 3, -2, "int32"), (0, None, 0, "float32"),
                        (2, None, 5, "float32"), (1, 1, 0, "bool"), (3, 5, -1, "int64")):
        out.append(case("eye", [], T(np.eye(n, m, k, NP[dt])), {"n": n, "m": m, "k": k, "dtype": dt}))
    for args, dt in (((5,), None), ((1, 10, 3), None), ((0.0, 1.0, 0.1), None), ((10, 0, -2), None),
                     ((0, 5, 1), "float32"), ((5, 1, 1), None), ((-3, 3, 1.5), None), ((0, 1, 0.25), "float16"),
                     ((2, 7, 2), "int32"), ((-1.0, -2.0, -0.3), None), ((0,), None)):
        if len(args) == 1:
            expected = np.arange(args[0])
            out.append(case("arange", [S(args[0])], T(expected)))
        else:
            start, stop, step = args
            n = max(0, math.ceil((stop - start) / step))
            natural = np.int64 if all(isinstance(a, int) for a in args) else np.float64
            # ember: out[i] = start + i * step in float64 (ints exactly), then converted once.
            vals = [start + i * step for i in range(n)]
            target = NP[dt] if dt else natural
            expected = np.array(vals, np.float64 if target in (np.float16, np.float32) else target).astype(target)
            out.append(case("arange", [S(start), S(stop), S(step)], T(expected.reshape(n)), {"dtype": dt}))
    out.append(case("arange", [S(0), S(5), S(0)], err("ValueError")))
    for start, stop, num, endpoint, dt in ((0.0, 1.0, 5, True, "float64"), (0.0, 1.0, 5, False, "float64"),
                                           (-1.0, 1.0, 1, True, "float64"), (0.0, 1.0, 0, True, "float64"),
                                           (2.0, -3.0, 7, True, "float32"), (0.0, 10.0, 4, False, "float32"),
                                           (1.0, 2.0, 2, True, "float64")):
        expected = np.linspace(start, stop, num, endpoint=endpoint, dtype=np.float64).astype(NP[dt])
        out.append(case("linspace", [], T(expected), {"start": start, "stop": stop, "num": num,
                                                       "endpoint": endpoint, "dtype": dt}))
    out.append(case("linspace", [], err("ValueError"), {"start": 0.0, "stop": 1.0, "num": -1}))
    return out


def conversion_cases():
    out = []
    for dt in ALL:
        for shape in ((2, 3), (), (0,), (2, 0)):
            x = arr(shape, dt)
            out.append(case("from_data", [T(x)], T(x)))
            out.append(case("copy", [T(x)], T(x)))
        x = arr((3, 2), dt)
        out.append(case("from_bytes", [], T(x), {"tensor": T(x)}))
    for x in (np.array(2.5), np.array([[7]], np.int32), np.array([True]), np.array(-0.0, np.float32)):
        natural = np.bool_ if x.dtype == np.bool_ else np.float64 if x.dtype.kind == "f" else np.int64
        out.append(case("item", [T(x)], T(x.reshape(()).astype(natural)), signed_zeros=True))
    out.append(case("item", [T(np.zeros((2,)))], err("ShapeError")))
    out.append(case("item", [T(np.zeros((0,)))], err("ShapeError")))
    float_src = [0.0, -0.0, 1.5, -1.5, 2.5, -2.7, 127.9, 128.5, -129.5, 255.5, 300.7, -300.2, 65504.0, 1e10,
                 -1e10, 3e9, 1e19, -1e19, float("nan"), float("inf"), float("-inf"), 1e-8, 2.0**31, -2.0**31,
                 2147483647.5, -2147483648.5, 2.0**63, -2.0**63, 2.0**64, 32767.9, -32768.9]
    int_src = [0, 1, -1, 127, 128, 255, 256, -128, -129, 32767, 40000, 2**31 - 1, -2**31, 2**31, 2**40 + 3,
               -2**63, 2**63 - 1, 2049, 16777217]
    for src in ALL:
        for dst in ALL:
            if src in FLOATS:
                vals = [v for v in float_src if not (src == "float16" and abs(v) > 65504 and math.isfinite(v))]
                x = np.array(vals, np.float64).astype(NP[src])
                vals = [float(v) for v in x]
            elif src == "bool":
                x = np.array([True, False, True])
                vals = [bool(v) for v in x]
            else:
                info = np.iinfo(NP[src])
                vals = [v for v in int_src if info.min <= v <= info.max]
                x = np.array(vals, NP[src])
            expected = np.array([cast_value(v, NP[dst]) for v in vals], NP[dst])
            out.append(case("cast", [T(x)], T(expected), {"dtype": dst}, signed_zeros=True))
    return out


def view_cases():
    out = []
    x = arr((2, 3), "float32")
    for shape in ((3, 2), (6,), (1, 6, 1), (-1,), (3, -1), (-1, 2)):
        out.append(case("reshape", [T(x)], T(x.reshape(shape)), {"shape": list(shape)}))
    out.append(case("reshape", [T(np.array(5, np.int32))], T(np.array([5], np.int32)), {"shape": [1]}))
    out.append(case("reshape", [T(np.zeros((0, 3), np.int64))], T(np.zeros((3, 0), np.int64)), {"shape": [3, 0]}))
    out.append(case("reshape", [T(x)], err("ShapeError"), {"shape": [4, 2]}))
    out.append(case("reshape", [T(x)], err("ShapeError"), {"shape": [-1, -1]}))
    for dt in ("float64", "int32", "bool"):
        y = arr((2, 3, 4), dt)
        for axes in (None, [1, 0, 2], [2, 0, 1], [-1, 0, 1]):
            out.append(case("transpose", [T(y)], T(np.transpose(y, axes)), {"axes": axes}))
    out.append(case("transpose", [T(np.array(1.5))], T(np.array(1.5))))
    out.append(case("transpose", [T(np.zeros((0, 2)))], T(np.zeros((2, 0)))))
    out.append(case("transpose", [T(x)], err("ShapeError"), {"axes": [0, 0]}))
    out.append(case("transpose", [T(x)], err("ShapeError"), {"axes": [0]}))
    for axis in (0, 1, 2, -1, -3):
        out.append(case("expand_dims", [T(x)], T(np.expand_dims(x, axis)), {"axis": axis}))
    out.append(case("expand_dims", [T(np.array(3))], T(np.array([3])), {"axis": 0}))
    out.append(case("expand_dims", [T(x)], err("ShapeError"), {"axis": 4}))
    y = arr((1, 3, 1, 2), "int64")
    for axes in (None, [0], [2], [0, 2], [-2]):
        out.append(case("squeeze", [T(y)], T(np.squeeze(y, None if axes is None else tuple(axes))), {"axes": axes}))
    out.append(case("squeeze", [T(np.ones((1, 1)))], T(np.array(1.0))))
    out.append(case("squeeze", [T(y)], err("ShapeError"), {"axes": [1]}))
    for y in (arr((2, 3, 2), "int32"), np.array(2.0), np.zeros((2, 0)), arr((4,), "bool")):
        out.append(case("flatten", [T(y)], T(y.reshape(-1))))
    for src, dst, dt in (((3, 1), (2, 3, 4), "float32"), ((1,), (0,), "int32"), ((), (2, 2), "float64"),
                         ((4,), (3, 4), "bool"), ((2, 1), (2, 3), "int8")):
        y = arr(src, dt)
        out.append(case("broadcast_to", [T(y)], T(np.broadcast_to(y, dst)), {"shape": list(dst)}))
    out.append(case("broadcast_to", [T(arr((3,), "float32"))], err("ShapeError"), {"shape": [4]}))
    out.append(case("broadcast_to", [T(arr((2, 3), "float32"))], err("ShapeError"), {"shape": [3]}))
    return out


def dtype_sweep_cases():
    """Data movement is dtype-blind: run the common view/copy ops once on every main dtype."""
    out = []
    for dt in MAIN + ("bool", "float16", "uint8", "int8"):
        x = arr((2, 3, 2), dt)
        out.append(case("reshape", [T(x)], T(x.reshape(3, 4)), {"shape": [3, 4]}))
        out.append(case("expand_dims", [T(x)], T(np.expand_dims(x, 1)), {"axis": 1}))
        out.append(case("squeeze", [T(x[:1])], T(np.squeeze(x[:1], 0)), {"axes": [0]}))
        out.append(case("flatten", [T(x)], T(x.reshape(-1))))
        out.append(case("transpose", [T(x)], T(np.transpose(x))))
        out.append(case("broadcast_to", [T(x[:, :1])], T(np.broadcast_to(x[:, :1], (2, 2, 3, 2))),
                        {"shape": [2, 2, 3, 2]}))
        out.append(case("slice", [T(x)], T(x[::-1, 1:, :1]), {"slices": [[None, None, -1], [1, None, 1], [None, 1, 1]]}))
        out.append(case("flip", [T(x)], T(np.flip(x, (0, 2))), {"axes": [0, 2]}))
        out.append(case("tile", [T(x)], T(np.tile(x, (1, 2, 1))), {"reps": [1, 2, 1]}))
        out.append(case("pad", [T(x), S(1)], T(np.pad(x, [(0, 1), (1, 0), (0, 0)], constant_values=1)),
                        {"pad_width": [[0, 1], [1, 0], [0, 0]], "mode": "constant"}))
        out.append(case("pad", [T(x), S(0)], T(np.pad(x, [(1, 1), (0, 1), (1, 0)], mode="edge")),
                        {"pad_width": [[1, 1], [0, 1], [1, 0]], "mode": "edge"}))
        ind = np.array([1, 0, 1], np.int64)
        out.append(case("gather", [T(x), T(ind)], T(np.take(x, ind, axis=2)), {"axis": 2}))
        if dt != "bool":
            upd = arr((2, 3, 3), dt, 0, 3)
            expected = x.copy()
            np.add.at(expected, (slice(None), slice(None), ind), upd)
            out.append(case("scatter_add", [T(x), T(ind), T(upd)], T(expected), {"axis": 2}))
        out.append(case("cast", [T(x)], T(x.astype(np.float64) if dt != "float64" else x.astype(np.float32)),
                        {"dtype": "float64" if dt != "float64" else "float32"}))
    return out


def join_cases():
    out = []
    for dt in MAIN + ("bool", "float16"):
        a, b, c = arr((2, 3), dt), arr((1, 3), dt), arr((2, 3), dt)
        out.append(case("concatenate", [[T(a), T(b), T(c)]], T(np.concatenate([a, b, c])), {"axis": 0}))
        out.append(case("concatenate", [[T(a), T(c)]], T(np.concatenate([a, c], 1)), {"axis": 1}))
        out.append(case("concatenate", [[T(a), T(c)]], T(np.concatenate([a, c], -1)), {"axis": -1}))
        for axis in (0, 1, 2, -1):
            out.append(case("stack", [[T(a), T(c)]], T(np.stack([a, c], axis)), {"axis": axis}))
    a, b = arr((2,), "int32"), arr((3,), "float32")
    out.append(case("concatenate", [[T(a), T(b)]], T(np.concatenate([a, b]))))
    out.append(case("concatenate", [[T(np.zeros((0, 3))), T(np.ones((2, 3)))]], T(np.ones((2, 3)))))
    y = arr((4,), "int64")
    out.append(case("concatenate", [[T(y)]], T(y)))
    out.append(case("stack", [[T(np.array(1.0)), T(np.array(2.0))]], T(np.array([1.0, 2.0]))))
    out.append(case("stack", [[T(a), T(a.astype(np.int64))]], T(np.stack([a, a.astype(np.int64)]))))
    out.append(case("concatenate", [[T(arr((2, 3), "float32")), T(arr((2, 4), "float32"))]], err("ShapeError")))
    out.append(case("concatenate", [[T(arr((2, 3), "float32")), T(arr((3,), "float32"))]], err("ShapeError")))
    out.append(case("concatenate", [[T(arr((2, 3), "float32"))]], err("ShapeError"), {"axis": 2}))
    out.append(case("stack", [[T(arr((2, 3), "float32")), T(arr((3, 2), "float32"))]], err("ShapeError")))
    out.append(case("stack", [[T(arr((2,), "float32"))]], err("ShapeError"), {"axis": 2}))
    for dt in ("float32", "int64", "bool"):
        x = arr((4, 6), dt)
        for sections, axis in ((2, 0), (3, 1), (1, 0), (6, -1)):
            out.append(case("split", [T(x)], [T(p) for p in np.split(x, sections, axis)],
                            {"sections": sections, "axis": axis}))
        for indices, axis in (([1, 4], 1), ([2, 2], 0), ([3, 10], 1), ([], 0), ([-2], 1)):
            out.append(case("split", [T(x)], [T(p) for p in np.array_split(x, indices, axis)],
                            {"indices": indices, "axis": axis}))
    x0 = np.zeros((0, 2), np.float32)
    out.append(case("split", [T(x0)], [T(p) for p in np.split(x0, 3)], {"sections": 3, "axis": 0}))
    out.append(case("concatenate", [[T(x0), T(x0)]], T(np.concatenate([x0, x0], 1)), {"axis": 1}))
    out.append(case("split", [T(arr((5,), "float32"))], err("ShapeError"), {"sections": 2, "axis": 0}))
    out.append(case("split", [T(arr((4,), "float32"))], err("ShapeError"), {"sections": 2, "axis": 1}))
    for dt in ("float64", "int32", "bool"):
        x = arr((2, 3), dt)
        for reps in ([2], [2, 1], [1, 3], [2, 1, 2], [0, 2]):
            out.append(case("tile", [T(x)], T(np.tile(x, reps)), {"reps": reps}))
    out.append(case("tile", [T(np.array(4))], T(np.tile(np.array(4), [3])), {"reps": [3]}))
    return out


def pad_cases():
    out = []
    x1, x2 = arr((4,), "float32"), arr((3, 4), "int32")
    for x, widths in ((x1, [[1, 2]]), (x1, [[0, 3]]), (x2, [[1, 0], [2, 2]]), (x2, [[0, 0], [1, 3]]),
                      (x1, [[3, 3]])):
        pw = [tuple(w) for w in widths]
        out.append(case("pad", [T(x), S(0)], T(np.pad(x, pw)), {"pad_width": widths, "mode": "constant"}))
        out.append(case("pad", [T(x), S(5)], T(np.pad(x, pw, constant_values=5)),
                        {"pad_width": widths, "mode": "constant"}))
        out.append(case("pad", [T(x), S(0)], T(np.pad(x, pw, mode="edge")), {"pad_width": widths, "mode": "edge"}))
        out.append(case("pad", [T(x), S(0)], T(np.pad(x, pw, mode="reflect")),
                        {"pad_width": widths, "mode": "reflect"}))
    xb = arr((2, 2), "bool")
    out.append(case("pad", [T(xb), S(True)], T(np.pad(xb, [(1, 1), (0, 1)], constant_values=True)),
                    {"pad_width": [[1, 1], [0, 1]], "mode": "constant"}))
    x0 = np.zeros((0, 2), np.float64)
    out.append(case("pad", [T(x0), S(1.5)], T(np.pad(x0, [(1, 1), (0, 0)], constant_values=1.5)),
                    {"pad_width": [[1, 1], [0, 0]], "mode": "constant"}))
    out.append(case("pad", [T(x1), S(0)], err("ShapeError"), {"pad_width": [[1, 1], [1, 1]], "mode": "constant"}))
    out.append(case("pad", [T(x1), S(0)], err("ValueError"), {"pad_width": [[-1, 1]], "mode": "constant"}))
    return out


def index_cases():
    out = []
    x = arr((4, 5), "float64")
    for slices in ([[1, 3, 1]], [[None, None, -1]], [[None, None, 2], [1, None, 1]], [[-3, None, 1]],
                   [[-100, 100, 1], [None, -1, 1]], [[3, 1, 1]], [[None, None, -2], [4, 0, -2]],
                   [[10, None, 1]], [], [[None, None, 1], [None, None, 3]], [[5, -100, -1]]):
        pyslices = tuple(slice(*s) for s in slices)
        out.append(case("slice", [T(x)], T(x[pyslices]), {"slices": slices}))
    out.append(case("slice", [T(np.array(2))], T(np.array(2)), {"slices": []}))
    out.append(case("slice", [T(x)], err("ShapeError"), {"slices": [[0, 1, 1]] * 3}))
    for dt in ("float32", "int64", "bool"):
        y = arr((3, 4), dt)
        for idx, idt, axis in (([0, 5, -1, 11], "int64", None), ([[2, 0], [1, 1]], "int64", 0),
                               ([3, -4, 0], "int32", 1), ([], "int64", 0), ([1], "uint8", -1), (2, "int64", 0)):
            ind = np.array(idx, NP[idt]).reshape(np.shape(idx)) if idx != [] else np.zeros((0,), np.int64)
            out.append(case("gather", [T(y), T(ind)], T(np.take(y, ind, axis=axis)), {"axis": axis}))
    y = arr((3, 4), "float32")
    out.append(case("gather", [T(y), T(np.array([3], np.int64))], err("IndexError"), {"axis": 0}))
    out.append(case("gather", [T(y), T(np.array([-13], np.int64))], err("IndexError")))
    out.append(case("gather", [T(y), T(np.array([0.0]))], err("DTypeError"), {"axis": 0}))
    for dt in ("float64", "int32", "int64", "float32"):
        x = arr((5,), dt)
        ind = np.array([0, 1, 1, 4, -1], np.int64)
        upd = arr((5,), dt)
        expected = x.copy()
        np.add.at(expected, ind, upd)
        out.append(case("scatter_add", [T(x), T(ind), T(upd)], T(expected), {"axis": 0}))
        x2 = arr((2, 3), dt)
        ind2 = np.array([2, 0, 2, 2], np.int32)
        upd2 = arr((2, 4), dt)
        expected = x2.copy()
        np.add.at(expected, (slice(None), ind2), upd2)
        out.append(case("scatter_add", [T(x2), T(ind2), T(upd2)], T(expected), {"axis": 1}))
    x = arr((5,), "float32")
    out.append(case("scatter_add", [T(x), T(np.array([5], np.int64)), T(arr((1,), "float32"))], err("IndexError")))
    out.append(case("scatter_add", [T(x), T(np.array([1, 2], np.int64)), T(arr((3,), "float32"))],
                    err("ShapeError")))
    return out


def order_cases():
    out = []
    for dt in ("float64", "int32", "bool"):
        y = arr((2, 3, 4), dt)
        for axes in (None, [0], [1, 2], [-1]):
            out.append(case("flip", [T(y)], T(np.flip(y, None if axes is None else tuple(axes))), {"axes": axes}))
    out.append(case("flip", [T(np.array(3.0))], T(np.array(3.0))))
    out.append(case("flip", [T(arr((2,), "float32"))], err("ShapeError"), {"axes": [1]}))
    for dt in MAIN + ("bool", "float16", "uint8", "int8"):
        y = arr((3, 5), dt, -3, 3)  # ties: stability matters for argsort
        for axis in (-1, 0):
            for desc in (False, True):
                out.append(sort_case("sort", y, axis, desc))
                out.append(sort_case("argsort", y, axis, desc))
    y = np.array([3.0, np.nan, -np.inf, 1.0, np.nan, np.inf, -0.0, 0.0, 1.0, -2.0])
    for desc in (False, True):
        out.append(sort_case("sort", y, -1, desc))
        out.append(sort_case("argsort", y, -1, desc))
    y = np.array([[np.nan, 1.0, 2.0], [1.0, np.nan, 2.0], [1.0, 1.0, np.nan], [0.0, 1.0, -np.inf]])
    for axis in (0, 1):
        for desc in (False, True):
            out.append(sort_case("sort", y, axis, desc))
            out.append(sort_case("argsort", y, axis, desc))
    for y in (np.zeros((0,)), np.zeros((2, 0), np.int32), np.array([5.0])):
        out.append(sort_case("sort", y, -1, False))
        out.append(sort_case("argsort", y, -1, True))
    out.append(case("sort", [T(arr((2, 3), "float32"))], err("ShapeError"), {"axis": 2}))
    return out


def _sort_key(v):
    """NumPy's order: NaN after +inf."""
    return (1, 0.0) if isinstance(v, float) and math.isnan(v) else (0, v)


def sort_case(op, y, axis, descending):
    """Stable sort with NaN last; descending reverses the order (NaN first) keeping ties in order."""
    moved = np.moveaxis(y, axis, -1)
    idx = np.zeros(moved.shape, np.int64)
    for pos in np.ndindex(moved.shape[:-1]):
        row = [v.item() for v in moved[pos]]
        order = sorted(range(len(row)), key=lambda i: _sort_key(row[i]), reverse=False)
        if descending:  # stable descending: sort by the negated key
            order = sorted(range(len(row)), key=lambda i: _neg(_sort_key(row[i])))
        idx[pos] = order
    idx = np.moveaxis(idx, -1, axis)
    if op == "argsort":
        return case(op, [T(y)], T(idx), {"axis": axis, "descending": descending})
    return case(op, [T(y)], T(np.take_along_axis(y, idx, axis)), {"axis": axis, "descending": descending})


def _neg(key):
    group, v = key
    return (-group, -v)


def cases():
    return creation_cases() + conversion_cases() + view_cases() + dtype_sweep_cases() + join_cases() + pad_cases() + index_cases() + \
        order_cases()
