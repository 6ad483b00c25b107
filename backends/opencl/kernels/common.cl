#pragma OPENCL FP_CONTRACT OFF
// Prepended to every program of the OpenCL backend (runtime.cpp). Defines:
// - ember_dims: shapes and strides by value (the host's ClDims), at most EMBER_MAX_RANK axes, and
//   ember_offset() to turn a row-major linear index into an element offset under arbitrary strides, and
//   ember_rows_offset() for 2-D ranges over rows x columns;
// - with -DT=... (runtime.cpp's dtype_options): T the storage type, C the compute type (float for half),
//   UT the unsigned type integer arithmetic wraps in, IS_HALF/IS_FLOAT/IS_BOOL/IS_INT/IS_SIGNED/IS_F64 flags,
//   and LOAD(p, i) / STORE(p, i, v) that read and write element i of a __global T* in compute type
//   (float16 through vload_half and vstore_half_rte, i.e. rounded to nearest even like ember::half).
// Every kernel takes `long n` first (the real work-item count; the global size is rounded up).
#ifdef EMBER_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define EMBER_MAX_RANK 8
typedef struct {
  long v[EMBER_MAX_RANK];
} ember_dims;

// The offset of the element with row-major linear index i over dims[0..nd), given per-axis strides.
inline long ember_offset(long i, int nd, const ember_dims* dims, const ember_dims* strides) {
  long off = 0;
  for (int d = nd - 1; d >= 0; --d) {
    const long e = dims->v[d];
    const long q = i / e;
    off += (i - q * e) * strides->v[d];
    i = q;
  }
  return off;
}

// The offset of element (row, col) of an output seen as rows x columns of n elements each (layout.hpp's
// RowsView), in an operand of kind 0 (element row * n + col), 1 (its only element), 2 (broadcast along the
// rows: element col) or 3 (broadcast along the columns: element row). Kernels on a 2-D range find every
// broadcast operand without division, and neighbouring work-items read neighbouring or equal elements
// (steps rather than a branch per kind: the compiler then vectorizes across work-items).
inline long ember_rows_offset(long n, long row, long col, int kind) {
  const long row_step = kind == 0 ? n : kind == 3 ? 1 : 0, col_step = kind == 0 || kind == 2 ? 1 : 0;
  return row * row_step + col * col_step;
}

// The prologue of a kernel on a 2-D range over out as rows x columns of n (layout.hpp's
// launch_broadcast_rows): col and row of the work-item's out element, for ember_rows_offset.
#define EMBER_ROWS_INDEX             \
  const long col = get_global_id(0); \
  if (col >= n) return;              \
  const long row = get_global_id(1)

// The prologue of a binary op's kernel on that range (the _rows kernels of math.cl and comparison.cl): col,
// row, and the operands x and y (compute type C) of out element (row, col), from a and b of kinds akind and
// bkind.
#define EMBER_ROWS_OPERANDS                                           \
  EMBER_ROWS_INDEX;                                                   \
  const C x = LOAD(a, a_off + ember_rows_offset(n, row, col, akind)); \
  const C y = LOAD(b, b_off + ember_rows_offset(n, row, col, bkind))

// float -> float16 rounded to nearest even; NaN becomes the quiet NaN with the sign kept and no payload,
// exactly like ember::half (vstore_half may keep payload bits).
inline void ember_store_half(float v, long i, __global half* p) {
  if (isnan(v)) {
    ((__global ushort*)p)[i] = (ushort)((as_uint(v) >> 16) & 0x8000u) | (ushort)0x7e00u;
  } else {
    vstore_half_rte(v, i, p);
  }
}

#ifdef T
#if IS_HALF
#define LOAD(p, i) vload_half((i), (p))
#define STORE(p, i, v) ember_store_half((v), (i), (p))
#elif IS_BOOL
#define LOAD(p, i) ((C)((p)[i] != 0))
#define STORE(p, i, v) ((p)[i] = (T)((v) != 0))
#else
#define LOAD(p, i) ((C)(p)[i])
#define STORE(p, i, v) ((p)[i] = (T)(v))
#endif
#endif
