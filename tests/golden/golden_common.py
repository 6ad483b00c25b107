"""Encoding helpers and ember's documented semantics where they differ from NumPy 1.24.

Every fixture case is a dict:
  {"op": name, "args": [...], "kwargs": {...}, "expected": ..., "tol": {"rtol": r, "atol": a} (optional),
   "signed_zeros": true (optional: zeros must keep their sign), "check": name (optional: property check)}
Arguments are tensors {"dtype", "shape", "data"}, scalars {"scalar": value} or lists of tensors.
Expected values are a tensor, a list of tensors, {"error": "ShapeError"} or {"value": json} (dtype ops).
Floats are written with repr (exact round trip); NaN/inf and -0.0 are the strings "nan", "inf", "-inf",
"-0.0".
"""

import math
import warnings

import numpy as np

warnings.simplefilter("ignore")  # NumPy warns on x/0, log(0), overflow: those cases are deliberate.
np.seterr(all="ignore")

SEED = 20240601
rng = np.random.default_rng(SEED)

NP = {
    "bool": np.bool_, "uint8": np.uint8, "int8": np.int8, "int16": np.int16, "int32": np.int32,
    "int64": np.int64, "float16": np.float16, "float32": np.float32, "float64": np.float64,
}
FLOATS = ("float16", "float32", "float64")
INTS = ("uint8", "int8", "int16", "int32", "int64")
MAIN = ("float32", "float64", "int32", "int64")


def name_of(dtype):
    return "bool" if np.dtype(dtype) == np.bool_ else np.dtype(dtype).name


def _float(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == 0.0 and math.copysign(1.0, v) < 0:
        return "-0.0"
    return v


def T(x, dtype=None):
    """Encodes an array (or anything np.asarray takes) as a fixture tensor."""
    a = np.asarray(x, dtype=NP[dtype] if isinstance(dtype, str) else dtype)
    name = name_of(a.dtype)
    flat = a.ravel().tolist() if name not in FLOATS else [_float(v) for v in a.ravel()]
    if name == "bool":
        flat = [bool(v) for v in flat]
    elif name in INTS:
        flat = [int(v) for v in flat]
    return {"dtype": name, "shape": list(a.shape), "data": flat}


def S(v):
    """A scalar argument: JSON bool, integer or float (NaN/inf as strings, which are floats)."""
    if isinstance(v, float):
        return {"scalar": _float(v)}
    return {"scalar": v}


def err(kind):
    return {"error": kind}


def case(op, args, expected, kwargs=None, tol=None, signed_zeros=False, check=None):
    c = {"op": op, "args": args, "kwargs": kwargs or {}, "expected": expected}
    if tol is not None:
        c["tol"] = {"rtol": tol[0], "atol": tol[1]}
    if signed_zeros:
        c["signed_zeros"] = True
    if check:
        c["check"] = check
    return c


def arr(shape, dtype, lo=-5.0, hi=5.0):
    """Deterministic random data of a dtype: floats uniform in [lo, hi), ints in [lo, hi], bools."""
    dtype = NP[dtype]
    if dtype == np.bool_:
        return np.asarray(rng.integers(0, 2, size=shape).astype(np.bool_))
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return np.asarray(rng.integers(max(int(lo), info.min), min(int(hi), info.max) + 1, size=shape).astype(dtype))
    return np.asarray(rng.uniform(lo, hi, size=shape).astype(dtype))


SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, np.inf, -np.inf, np.nan, 3.0]


# ---- ember's semantics ------------------------------------------------------------------------------------

def result_type(a, b):
    """ember::ops::result_type == NumPy's np.result_type on dtypes (ember's lattice extends NumPy's)."""
    return np.result_type(NP[a] if isinstance(a, str) else a, NP[b] if isinstance(b, str) else b)


def scalar_dtype(t, s):
    """detail::scalar_operand_dtype (ember/scalar.hpp): NumPy 1.24's value-based rule. A scalar of the tensor's
    kind takes the tensor's dtype when it fits; an integer out of an integer dtype's range widens to the
    narrowest of int16/int32/int64 holding both (NumPy would say uint16 for uint8 with 256; ember has none)."""
    t = np.dtype(t)
    tf, ti = np.issubdtype(t, np.floating), np.issubdtype(t, np.integer)
    if isinstance(s, bool):
        return t
    if isinstance(s, int) and ti:
        if np.iinfo(t).min <= s <= np.iinfo(t).max:
            return t
        for d in (np.int16, np.int32):
            if np.iinfo(d).min <= s <= np.iinfo(d).max and np.result_type(t, d) == d:
                return np.dtype(d)
        return np.dtype(np.int64)
    if isinstance(s, int) and tf:
        return t
    if isinstance(s, float) and tf:
        return t
    natural = np.bool_ if isinstance(s, bool) else np.int64 if isinstance(s, int) else np.float64
    return np.result_type(t, natural)


def transcendental_dtype(t):
    """Integers promote with float16 (int8/uint8 -> float16, int16 -> float32, int32/int64 -> float64)."""
    t = np.dtype(t)
    return t if np.issubdtype(t, np.floating) else np.result_type(t, np.float16)


def sum_dtype(t):
    """sum/prod/cumsum: bool and integers accumulate and return int64; floats keep their dtype."""
    t = np.dtype(t)
    return t if np.issubdtype(t, np.floating) else np.dtype(np.int64)


def cast_value(v, to):
    """DTypeOps::cast for one element: to bool is != 0 (NaN true); float -> int truncates, saturates and
    maps NaN to 0; int -> narrower int wraps; float -> float rounds to nearest even (NumPy's astype)."""
    to = np.dtype(to)
    if to == np.bool_:
        return bool(v != 0) if not (isinstance(v, float) and math.isnan(v)) else True
    if np.issubdtype(to, np.integer):
        info = np.iinfo(to)
        if isinstance(v, float):
            if math.isnan(v):
                return 0
            if math.isinf(v):
                return info.max if v > 0 else info.min
            v = math.trunc(v)
            return max(info.min, min(info.max, v))
        v = int(v)
        bits = info.bits
        v &= (1 << bits) - 1
        if info.min < 0 and v >= 1 << (bits - 1):
            v -= 1 << bits
        return v
    return np.array(v).astype(to)[()]


def as_ember_float16_reduction(fn, x, **kw):
    """float16 reductions accumulate in float32 and round once to float16."""
    return fn(x.astype(np.float32), **kw).astype(np.float16)
