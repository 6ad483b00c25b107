#pragma OPENCL FP_CONTRACT OFF
// Casts to the dtype of this program (common.cl's T) from every source dtype: one kernel per source
// storage type, cast_from_<dtype>. The rules are the eigen backend's (backends/eigen/dtype_ops.cpp): to
// bool is != 0 (NaN is true); float to integer truncates, saturates and maps NaN to 0 (OpenCL's _sat_rtz
// conversions do exactly that); integer to integer wraps; to float16 rounds once to nearest even (a
// double goes straight to half; integers go through float first, like half(static_cast<float>(v))).

#define EMBER_CAT2(a, b) a##b
#define EMBER_CAT(a, b) EMBER_CAT2(a, b)
#define CONVERT_SAT_RTZ(v) EMBER_CAT(EMBER_CAT(convert_, T), _sat_rtz)(v)

#if IS_BOOL
#define STORE_INT_SOURCE(o, i, v) ((o)[i] = (T)((v) != 0))
#define STORE_FLOAT_SOURCE(o, i, v) ((o)[i] = (T)((v) != 0))
#elif IS_HALF
#define STORE_INT_SOURCE(o, i, v) ember_store_half((float)(v), (i), (o))
#define STORE_FLOAT_SOURCE(o, i, v) ember_store_half((float)(v), (i), (o))
#elif IS_FLOAT
#define STORE_INT_SOURCE(o, i, v) ((o)[i] = (T)(v))
#define STORE_FLOAT_SOURCE(o, i, v) ((o)[i] = (T)(v))
#else
#define STORE_INT_SOURCE(o, i, v) ((o)[i] = (T)(v))
#define STORE_FLOAT_SOURCE(o, i, v) ((o)[i] = CONVERT_SAT_RTZ(v))
#endif

#define CAST_KERNEL(name, S, READ, STORE_AS)                                                            \
  __kernel void name(long n, __global const S* x, long x_off, __global T* o, long o_off) {              \
    const long i = get_global_id(0);                                                                     \
    if (i >= n) return;                                                                                  \
    STORE_AS(o, o_off + i, READ(x, x_off + i));                                                          \
  }
#define READ_PLAIN(x, i) ((x)[i])
#define READ_BOOL(x, i) ((uchar)((x)[i] != 0))
#define READ_HALF(x, i) vload_half((i), (x))

CAST_KERNEL(cast_from_bool, uchar, READ_BOOL, STORE_INT_SOURCE)
CAST_KERNEL(cast_from_uint8, uchar, READ_PLAIN, STORE_INT_SOURCE)
CAST_KERNEL(cast_from_int8, char, READ_PLAIN, STORE_INT_SOURCE)
CAST_KERNEL(cast_from_int16, short, READ_PLAIN, STORE_INT_SOURCE)
CAST_KERNEL(cast_from_int32, int, READ_PLAIN, STORE_INT_SOURCE)
CAST_KERNEL(cast_from_int64, long, READ_PLAIN, STORE_INT_SOURCE)
CAST_KERNEL(cast_from_float16, half, READ_HALF, STORE_FLOAT_SOURCE)
CAST_KERNEL(cast_from_float32, float, READ_PLAIN, STORE_FLOAT_SOURCE)

#ifdef EMBER_FP64
#if IS_HALF
inline void store_half_from_double(__global half* o, long i, double v) {
  if (isnan(v)) {
    ember_store_half((float)v, i, o);
  } else {
    vstore_half_rte(v, i, o);  // one rounding, straight from double
  }
}
CAST_KERNEL(cast_from_float64, double, READ_PLAIN, store_half_from_double)
#else
CAST_KERNEL(cast_from_float64, double, READ_PLAIN, STORE_FLOAT_SOURCE)
#endif
#endif
