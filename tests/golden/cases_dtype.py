"""Golden tables for ember::ops dtype (ops/dtype.hpp): pure functions of dtypes, from NumPy's tables."""

import numpy as np

from golden_common import NP, case, name_of

ALL = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64")


def V(value):
    return {"value": value}


def cases():
    out = []
    for a in ALL:
        for b in ALL:
            rt = np.result_type(NP[a], NP[b])
            out.append(case("result_type", [], V("bool" if rt == np.bool_ else rt.name), {"a": a, "b": b}))
            out.append(case("can_cast", [], V(bool(np.can_cast(NP[a], NP[b], "safe"))), {"from": a, "to": b}))
    for d in ALL:
        dt = np.dtype(NP[d])
        out.append(case("dtype_name", [], V(d), {"dtype": d}))
        out.append(case("itemsize", [], V(dt.itemsize), {"dtype": d}))
        out.append(case("is_floating", [], V(bool(np.issubdtype(dt, np.floating))), {"dtype": d}))
        out.append(case("is_integer", [], V(bool(np.issubdtype(dt, np.integer))), {"dtype": d}))
        out.append(case("is_signed", [], V(bool(dt.kind in "if")), {"dtype": d}))
        if dt.kind == "f":
            fi = np.finfo(dt)
            out.append(case("finfo", [], V({"bits": int(fi.bits), "eps": float(fi.eps), "max": float(fi.max),
                                            "min": float(fi.min), "tiny": float(fi.tiny),
                                            "smallest_subnormal": float(fi.smallest_subnormal),
                                            "resolution": 10.0 ** -int(fi.precision)}), {"dtype": d}))
            out.append(case("iinfo", [], {"error": "DTypeError"}, {"dtype": d}))
        else:
            if dt.kind in "iu":
                ii = np.iinfo(dt)
                out.append(case("iinfo", [], V({"bits": int(ii.bits), "min": int(ii.min), "max": int(ii.max)}),
                                {"dtype": d}))
            out.append(case("finfo", [], {"error": "DTypeError"}, {"dtype": d}))
    for name in ALL:
        out.append(case("dtype_from_name", [], V(name), {"name": name}))
    # ember reads the aliases as NumPy does (Python's float and int: float64, int64), not as C type names.
    for name in ("float", "double", "half", "f2", "f4", "f8", "int", "long"):
        out.append(case("dtype_from_name", [], V(name_of(np.dtype(name))), {"name": name}))
    for name in ("complex64", "", "Float32", "i9"):
        out.append(case("dtype_from_name", [], {"error": "DTypeError"}, {"name": name}))
    return out
