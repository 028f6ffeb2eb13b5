/* simd.h: the one small SIMD vocabulary every kernel is written against.
 *
 * Four float lanes. Backed by wasm_simd128.h under `emcc -msimd128` (and
 * clang's `-mrelaxed-simd`: the relaxed build), and by
 * GCC/clang vector extensions in native builds (so the same kernels run under
 * sanitizers and fuzzers). Without either (the scalar wasm build) ATTN_HAVE_SIMD
 * is 0 and only the scalar kernels are compiled.
 */
#ifndef ATTN_SIMD_H
#define ATTN_SIMD_H

#include <stdint.h>
#include <string.h>

#if defined(__wasm_simd128__)
#define ATTN_HAVE_SIMD 1
#include <wasm_simd128.h>
typedef v128_t vf4;

static inline vf4 vf4_load(const float *p) { return wasm_v128_load(p); }
static inline void vf4_store(float *p, vf4 v) { wasm_v128_store(p, v); }
static inline vf4 vf4_splat(float x) { return wasm_f32x4_splat(x); }
/* One instruction (v128.load32_splat) instead of a load and a shuffle. */
static inline vf4 vf4_load_splat(const float *p) { return wasm_v128_load32_splat(p); }
static inline vf4 vf4_add(vf4 a, vf4 b) { return wasm_f32x4_add(a, b); }
static inline vf4 vf4_sub(vf4 a, vf4 b) { return wasm_f32x4_sub(a, b); }
static inline vf4 vf4_mul(vf4 a, vf4 b) { return wasm_f32x4_mul(a, b); }
/* a b + c. Relaxed SIMD: one instruction that the engine may fuse (one
 * rounding) or not (two, as mul + add); the error model allows either. */
#if defined(__wasm_relaxed_simd__)
static inline vf4 vf4_madd(vf4 a, vf4 b, vf4 c) { return wasm_f32x4_relaxed_madd(a, b, c); }
#else
static inline vf4 vf4_madd(vf4 a, vf4 b, vf4 c) { return wasm_f32x4_add(wasm_f32x4_mul(a, b), c); }
#endif
/* a < b ? b : a (so a NaN in a survives). */
static inline vf4 vf4_max(vf4 a, vf4 b) { return wasm_f32x4_pmax(a, b); }
/* b < a ? b : a (so a NaN in a survives). */
static inline vf4 vf4_min(vf4 a, vf4 b) { return wasm_f32x4_pmin(a, b); }
static inline vf4 vf4_div(vf4 a, vf4 b) { return wasm_f32x4_div(a, b); }
/* Lanes where x < limit become 0. */
static inline vf4 vf4_zero_below(vf4 v, vf4 x, vf4 limit) {
  return wasm_v128_andnot(v, wasm_f32x4_lt(x, limit));
}
/* Reinterpret the bits of v as int32 lanes, shift left by 23, back to float:
 * turns a biased exponent held in the low mantissa bits into 2^n. */
static inline vf4 vf4_shl23(vf4 v) { return wasm_i32x4_shl(v, 23); }
/* (a0 b0 a1 b1), (a2 b2 a3 b3), (a0 a1 b0 b1), (a2 a3 b2 b3) */
static inline vf4 vf4_zip_lo(vf4 a, vf4 b) { return wasm_i32x4_shuffle(a, b, 0, 4, 1, 5); }
static inline vf4 vf4_zip_hi(vf4 a, vf4 b) { return wasm_i32x4_shuffle(a, b, 2, 6, 3, 7); }
static inline vf4 vf4_cat_lo(vf4 a, vf4 b) { return wasm_i32x4_shuffle(a, b, 0, 1, 4, 5); }
static inline vf4 vf4_cat_hi(vf4 a, vf4 b) { return wasm_i32x4_shuffle(a, b, 2, 3, 6, 7); }
static inline float vf4_hsum(vf4 v) {
  v = wasm_f32x4_add(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
  v = wasm_f32x4_add(v, wasm_i32x4_shuffle(v, v, 1, 0, 3, 2));
  return wasm_f32x4_extract_lane(v, 0);
}
static inline float vf4_hmax(vf4 v) {
  v = wasm_f32x4_pmax(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
  v = wasm_f32x4_pmax(v, wasm_i32x4_shuffle(v, v, 1, 0, 3, 2));
  return wasm_f32x4_extract_lane(v, 0);
}

#elif !defined(__wasm__) && (defined(__GNUC__) || defined(__clang__))
#define ATTN_HAVE_SIMD 1
typedef float vf4 __attribute__((vector_size(16), aligned(4)));
typedef int32_t vi4 __attribute__((vector_size(16), aligned(4)));

static inline vf4 vf4_load(const float *p) { vf4 v; memcpy(&v, p, 16); return v; }
static inline void vf4_store(float *p, vf4 v) { memcpy(p, &v, 16); }
static inline vf4 vf4_splat(float x) { return (vf4){x, x, x, x}; }
static inline vf4 vf4_load_splat(const float *p) { return vf4_splat(*p); }
static inline vf4 vf4_add(vf4 a, vf4 b) { return a + b; }
static inline vf4 vf4_sub(vf4 a, vf4 b) { return a - b; }
static inline vf4 vf4_mul(vf4 a, vf4 b) { return a * b; }
/* Two statements: never contracted into an FMA, like wasm's mul + add. */
static inline vf4 vf4_madd(vf4 a, vf4 b, vf4 c) {
  const vf4 p = a * b;
  return p + c;
}
/* wasm's pmax: a < b ? b : a (so a NaN in a survives). */
static inline vf4 vf4_max(vf4 a, vf4 b) {
  vi4 m = a < b;
  return (vf4)(((vi4)b & m) | ((vi4)a & ~m));
}
/* wasm's pmin: b < a ? b : a. */
static inline vf4 vf4_min(vf4 a, vf4 b) {
  vi4 m = b < a;
  return (vf4)(((vi4)b & m) | ((vi4)a & ~m));
}
static inline vf4 vf4_div(vf4 a, vf4 b) { return a / b; }
static inline vf4 vf4_zero_below(vf4 v, vf4 x, vf4 limit) {
  return (vf4)((vi4)v & ~(x < limit));
}
static inline vf4 vf4_shl23(vf4 v) {
  vi4 i;
  memcpy(&i, &v, 16);
  i = (vi4)((uint32_t __attribute__((vector_size(16))))i << 23);
  memcpy(&v, &i, 16);
  return v;
}
static inline vf4 vf4_zip_lo(vf4 a, vf4 b) { return __builtin_shufflevector(a, b, 0, 4, 1, 5); }
static inline vf4 vf4_zip_hi(vf4 a, vf4 b) { return __builtin_shufflevector(a, b, 2, 6, 3, 7); }
static inline vf4 vf4_cat_lo(vf4 a, vf4 b) { return __builtin_shufflevector(a, b, 0, 1, 4, 5); }
static inline vf4 vf4_cat_hi(vf4 a, vf4 b) { return __builtin_shufflevector(a, b, 2, 3, 6, 7); }
static inline float vf4_hsum(vf4 v) { return (v[0] + v[2]) + (v[1] + v[3]); }
static inline float vf4_hmax(vf4 v) {
  float a = v[0] > v[2] ? v[0] : v[2], b = v[1] > v[3] ? v[1] : v[3];
  return a > b ? a : b;
}

#else
#define ATTN_HAVE_SIMD 0
#endif

#endif
