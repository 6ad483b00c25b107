#pragma OPENCL FP_CONTRACT OFF
// Helpers of the generated fused element-wise kernels (fusion_ops.cpp writes the kernels of one program
// structure after this file; the runtime puts common.cl, the random headers and math_scalar.cl first).
// Never built on its own.
//
// A fused kernel loads each input like math.cl's BINARY kernels do (mode 0: element i, 1: the only element,
// 2: broadcast; the "fused_strided" kernel takes mode 2 and finds the coordinates of element i, with the
// divisions that mode needs; the "fused_rows" kernel runs on a 2-D range over out seen as rows x columns,
// where each input is one of common.cl's ember_rows_offset kinds), computes every step with math_scalar.cl's
// OP_<name> expression, keeps each intermediate exactly as a tensor of T would hold it (ROUNDTRIP) and
// STOREs the last one. Built with -DEMBER_FUSED=1 (see canonical_nan in math_scalar.cl).

// The value LOAD(p, i) reads back after STORE(p, i, v), without memory: float16 rounds to nearest even
// (with ember_store_half's NaN), bool becomes 0 or 1, every other dtype computes in T itself.
inline float ember_round_half(float v) {
  ushort bits;
  if (isnan(v)) {
    bits = (ushort)((as_uint(v) >> 16) & 0x8000u) | (ushort)0x7e00u;
  } else {
    vstore_half_rte(v, 0, (__private half*)&bits);
  }
  return vload_half(0, (const __private half*)&bits);
}
#if IS_HALF
#define ROUNDTRIP(v) ember_round_half(v)
#elif IS_BOOL
#define ROUNDTRIP(v) ((C)((v) != 0))
#else
#define ROUNDTRIP(v) ((C)(v))
#endif

// A scalar operand (FusedConstant) travels as the bits a 0-d tensor of T holds (float16: its binary16 bits,
// as a ushort) and is read with LOAD's conversion.
#if IS_HALF
#define CONST_T ushort
#define LOAD_CONST(k) vload_half(0, (const __private half*)&(k))
#else
#define CONST_T T
#define LOAD_CONST(k) LOAD(&(k), 0)
#endif

// The row-major coordinates of element i of an array of extents dims[0..nd).
inline void ember_unravel(long i, int nd, const ember_dims* dims, long* idx) {
  for (int d = nd - 1; d >= 0; --d) {
    const long e = dims->v[d];
    const long q = i / e;
    idx[d] = i - q * e;
    i = q;
  }
}
// The offset, in a contiguous input broadcast to dims[0..nd), of the element at coordinates idx: axes whose
// bit is set in `broadcast` have extent 1 in the input (its shape left-padded with 1s to nd axes).
inline long ember_ravel(int nd, const ember_dims* dims, const long* idx, int broadcast) {
  long off = 0;
  for (int d = 0; d < nd; ++d) {
    if (((broadcast >> d) & 1) == 0) off = off * dims->v[d] + idx[d];
  }
  return off;
}
// The offset of element i of out in an input of mode 0 or 1.
inline long ember_flat_offset(long i, int mode) {
  return mode == 0 ? i : 0;
}
// The offset of element i of out in an input of mode 0, 1 or 2 (then through idx and `broadcast`).
inline long ember_input_offset(long i, int mode, int nd, const ember_dims* dims, const long* idx,
                               int broadcast) {
  return mode == 0 ? i : mode == 1 ? 0 : ember_ravel(nd, dims, idx, broadcast);
}
