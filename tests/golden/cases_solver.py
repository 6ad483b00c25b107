"""Golden cases for ember::ops solver (ops/solver.hpp).

Factorizations that are unique only up to signs (qr, svd vectors, eigh vectors) carry "check": the driver
verifies properties (reconstruction, orthonormality, NumPy's singular values / eigenvalues, |r|) instead of
comparing raw factors. NumPy's factors are stored for their shapes and dtypes.
"""

import numpy as np

from golden_common import T, arr, case, err

SOLVER_TOL = {"float64": (1e-10, 1e-10), "float32": (1e-4, 1e-4)}


def well_conditioned(shape, dt):
    """Random matrices plus n * I: condition numbers stay small."""
    a = np.asarray(arr(shape, "float64", -1, 1))
    n = shape[-1]
    return (a + n * np.eye(n)).astype(dt)


def spd(shape, dt):
    a = np.asarray(arr(shape, "float64", -1, 1))
    return (a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(dt)


def float_of(x):
    return x.dtype if np.issubdtype(x.dtype, np.floating) else np.dtype(np.float64)


def tol(dt):
    return SOLVER_TOL[np.dtype(dt).name]


def linear_cases():
    out = []
    for dt in ("float64", "float32"):
        for sa, sb in (((3, 3), (3,)), ((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 1)), ((1, 1), (1,)), ((4, 4), (4, 0)),
                       ((3, 3), (2, 3, 2)), ((2, 1, 3, 3), (1, 4, 3, 1))):
            a, b = well_conditioned(sa, dt), np.asarray(arr(sb, dt))
            out.append(case("solve", [T(a), T(b)], T(np.linalg.solve(a, b)), tol=tol(dt)))
        for shape in ((3, 3), (2, 2, 2), (1, 1)):
            a = well_conditioned(shape, dt)
            out.append(case("inv", [T(a)], T(np.linalg.inv(a)), tol=tol(dt)))
            out.append(case("det", [T(a)], T(np.linalg.det(a)), tol=tol(dt)))
        for shape in ((3, 3), (2, 4, 4), (1, 1)):
            a = spd(shape, dt)
            out.append(case("cholesky", [T(a)], T(np.linalg.cholesky(a)), tol=tol(dt)))
    ai = np.array([[2, 1], [1, 3]], np.int32)
    bi = np.array([1, 2], np.int32)
    out.append(case("solve", [T(ai), T(bi)], T(np.linalg.solve(ai, bi)), tol=tol("float64")))
    out.append(case("inv", [T(ai)], T(np.linalg.inv(ai)), tol=tol("float64")))
    out.append(case("det", [T(ai)], T(np.linalg.det(ai)), tol=tol("float64")))
    out.append(case("cholesky", [T(ai)], T(np.linalg.cholesky(ai)), tol=tol("float64")))
    out.append(case("det", [T(np.array([[1.0, 2.0], [2.0, 4.0]]))], T(np.float64(0.0)), tol=(0, 1e-12)))
    out.append(case("det", [T(np.zeros((0, 0)))], T(np.float64(1.0))))
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    out.append(case("solve", [T(singular), T(np.ones(2))], err("LinAlgError")))
    out.append(case("inv", [T(singular)], err("LinAlgError")))
    out.append(case("inv", [T(np.zeros((2, 2, 2)))], err("LinAlgError")))
    out.append(case("cholesky", [T(np.array([[1.0, 2.0], [2.0, 1.0]]))], err("LinAlgError")))
    out.append(case("solve", [T(well_conditioned((3, 3), "float64")), T(np.ones(4))], err("ShapeError")))
    out.append(case("inv", [T(np.ones((2, 3)))], err("ShapeError")))
    out.append(case("det", [T(np.ones((3,)))], err("ShapeError")))
    return out


def factor_cases():
    out = []
    for dt in ("float64", "float32"):
        for shape in ((4, 3), (3, 3), (3, 4), (2, 3, 2), (1, 1)):
            a = np.asarray(arr(shape, dt, -2, 2))
            q, r = np.linalg.qr(a)
            out.append(case("qr", [T(a)], [T(q), T(r)], tol=tol(dt), check="qr"))
            for full in (True, False):
                u, s, vt = np.linalg.svd(a, full_matrices=full)
                out.append(case("svd", [T(a)], [T(u), T(s), T(vt)], {"full_matrices": full}, tol=tol(dt),
                                check="svd"))
            s = np.linalg.svd(a, compute_uv=False)
            out.append(case("svd", [T(a)], [T(s)], {"compute_uv": False}, tol=tol(dt), check="svd"))
        for shape in ((3, 3), (2, 4, 4), (1, 1)):
            a = spd(shape, dt) - shape[-1] * np.eye(shape[-1], dtype=dt) * 1.5  # indefinite symmetric
            w, v = np.linalg.eigh(a)
            out.append(case("eigh", [T(a)], [T(w), T(v)], tol=tol(dt), check="eigh"))
    ai = np.array([[1, 2], [3, 4], [5, 7]], np.int32)
    out.append(case("qr", [T(ai)], [T(p) for p in np.linalg.qr(ai)], tol=tol("float64"), check="qr"))
    out.append(case("svd", [T(ai)], [T(p) for p in np.linalg.svd(ai)], tol=tol("float64"), check="svd"))
    si = np.array([[2, 1], [1, 2]], np.int64)
    out.append(case("eigh", [T(si)], [T(p) for p in np.linalg.eigh(si)], tol=tol("float64"), check="eigh"))
    out.append(case("qr", [T(np.ones((3,)))], err("ShapeError")))
    out.append(case("eigh", [T(np.ones((2, 3)))], err("ShapeError")))
    return out


def lstsq_cases():
    out = []
    for dt in ("float64", "float32"):
        for sa, sb in (((4, 3), (4,)), ((4, 3), (4, 2)), ((3, 3), (3, 1)), ((2, 4), (2,)), ((5, 2), (5, 3))):
            a, b = np.asarray(arr(sa, dt, -2, 2)), np.asarray(arr(sb, dt, -2, 2))
            x, res, rank, s = np.linalg.lstsq(a, b, rcond=None)
            out.append(case("lstsq", [T(a), T(b)], [T(x), T(res.astype(a.dtype)), T(np.int64(rank)), T(s)],
                            tol=tol(dt)))
    deficient = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    b = np.array([1.0, 2.0, 2.0])
    x, res, rank, s = np.linalg.lstsq(deficient, b, rcond=None)
    out.append(case("lstsq", [T(deficient), T(b)], [T(x), T(res), T(np.int64(rank)), T(s)], tol=tol("float64")))
    x, res, rank, s = np.linalg.lstsq(deficient, b, rcond=0.5)
    out.append(case("lstsq", [T(deficient), T(b)], [T(x), T(res), T(np.int64(rank)), T(s)], {"rcond": 0.5},
                    tol=tol("float64")))
    out.append(case("lstsq", [T(np.ones((3, 2))), T(np.ones((4,)))], err("ShapeError")))
    return out


def norm_cases():
    out = []
    for dt in ("float64", "float32", "int32"):
        v = np.asarray(arr((5,), dt, -3, 3))
        for ord_ in (None, "1", "2", "inf", "-inf", "0", "3", "-1", "0.5"):
            npord = None if ord_ is None else float(ord_)
            out.append(case("norm", [T(v)], T(np.linalg.norm(v, npord)), {"ord": ord_}, tol=tol(float_of(v))))
        m = np.asarray(arr((3, 4), dt, -3, 3))
        for ord_ in (None, "fro", "nuc", "1", "-1", "2", "-2", "inf", "-inf"):
            npord = ord_ if ord_ in (None, "fro", "nuc") else float(ord_)
            out.append(case("norm", [T(m)], T(np.linalg.norm(m, npord)), {"ord": ord_}, tol=tol(float_of(m))))
        for ord_, axis, keepdims in ((None, [1], False), ("1", [0], True), ("inf", [-1], False), (None, [0, 1], True),
                                     ("fro", [1, 0], False), ("1", [1, 0], False), ("inf", [1, 0], True),
                                     ("-1", [0, 1], False), ("2", [0, 1], False), ("-2", [1, 0], False)):
            npord = ord_ if ord_ in (None, "fro") else float(ord_)
            npord = int(npord) if npord in (1.0, -1.0, 2.0, -2.0) and len(axis) == 2 else npord
            expected = np.linalg.norm(m, npord, tuple(axis), keepdims)
            out.append(case("norm", [T(m)], T(expected), {"ord": ord_, "axis": axis, "keepdims": keepdims},
                            tol=tol(float_of(m))))
    t = np.asarray(arr((2, 3, 4), "float64"))
    out.append(case("norm", [T(t)], T(np.linalg.norm(t)), tol=tol("float64")))
    out.append(case("norm", [T(t)], T(np.linalg.norm(t, 2.0, 2)), {"ord": "2", "axis": [2]}, tol=tol("float64")))
    out.append(case("norm", [T(t)], T(np.linalg.norm(t, "fro", (1, 2))), {"ord": "fro", "axis": [1, 2]},
                    tol=tol("float64")))
    out.append(case("norm", [T(np.zeros((0,)))], T(np.float64(0.0))))
    out.append(case("norm", [T(t)], err("ValueError"), {"ord": "nuc", "axis": [0]}))
    out.append(case("norm", [T(t)], err("ShapeError"), {"axis": [3]}))
    return out


def structure_cases():
    out = []
    for dt in ("float64", "int32", "float32", "bool"):
        v = np.asarray(arr((3,), dt))
        for k in (0, 1, -2):
            out.append(case("diag", [T(v)], T(np.diag(v, k)), {"k": k}))
        m = np.asarray(arr((3, 4), dt))
        for k in (0, 1, -1, 5, -3):
            out.append(case("diag", [T(m)], T(np.diag(m, k)), {"k": k}))
        t = np.asarray(arr((2, 3, 4), dt))
        for offset, a1, a2 in ((0, 0, 1), (1, 1, 2), (-1, 0, 2), (0, 2, 1), (0, -1, -2), (1, -1, 0), (-1, 2, 0),
                               (2, 1, 0), (-2, 1, 0)):
            out.append(case("diagonal", [T(t)], T(np.diagonal(t, offset, a1, a2)),
                            {"offset": offset, "axis1": a1, "axis2": a2}))
        out.append(case("diagonal", [T(m)], T(np.diagonal(m, 2)), {"offset": 2}))
        if dt != "bool":
            for offset in (0, 1, -2, 4):
                expected = np.trace(m, offset)
                expected = expected.astype(np.int64) if dt == "int32" else expected
                out.append(case("trace", [T(m)], T(expected), {"offset": offset}))
        a, b = np.asarray(arr((3,), dt)), np.asarray(arr((2, 2), dt))
        if dt != "bool":
            out.append(case("outer", [T(a), T(b)], T(np.outer(a, b))))
    a, b = np.asarray(arr((3,), "int32")), np.asarray(arr((2,), "float32"))
    out.append(case("outer", [T(a), T(b)], T(np.outer(a, b))))
    out.append(case("outer", [T(np.zeros((0,))), T(np.ones((2,)))], T(np.zeros((0, 2)))))
    out.append(case("diag", [T(np.ones((2, 2, 2)))], err("ShapeError")))
    out.append(case("diagonal", [T(np.ones((3,)))], err("ShapeError")))
    out.append(case("diagonal", [T(np.ones((2, 2)))], err("ShapeError"), {"axis1": 0, "axis2": 0}))
    out.append(case("trace", [T(np.ones((3,)))], err("ShapeError")))
    return out


def cases():
    return linear_cases() + factor_cases() + lstsq_cases() + norm_cases() + structure_cases()
