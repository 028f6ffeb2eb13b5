/* check.c: finding NaN and infinities in inputs, for the JS validation.
 * In wasm this is an order of magnitude faster than a JavaScript loop, and
 * it runs over every input of every call. */
#include <float.h>

#include "internal.h"
#include "simd.h"

/* 0 for a finite v; NaN for NaN or +-INFINITY (x * 0 is NaN exactly then).
 * With allow_minus_inf, -INFINITY is first raised to -FLT_MAX. */
static inline float poison(float v, int allow_minus_inf) {
  if (allow_minus_inf && v < -FLT_MAX) v = -FLT_MAX;
  return v * 0.0f;
}

size_t attn_first_nonfinite(const float *x, size_t n, int allow_minus_inf) {
  if (!x) return 0;
  size_t i = 0;
#if ATTN_HAVE_SIMD
  if (attn__use_simd()) {
    /* Sum poison over blocks of 256 in four chains (so the adds' latency
     * does not set the pace); a NaN sum sends the block to the scalar scan
     * below, which finds the exact index. */
    const vf4 zero = vf4_splat(0.0f), lowest = vf4_splat(-FLT_MAX);
    for (; i + 256 <= n; i += 256) {
      vf4 part[4] = {zero, zero, zero, zero};
      for (size_t j = i; j < i + 256; j += 16)
        for (int k = 0; k < 4; k++) {
          vf4 v = vf4_load(x + j + 4 * k);
          if (allow_minus_inf) v = vf4_max(v, lowest); /* NaN stays NaN */
          part[k] = vf4_add(part[k], vf4_mul(v, zero));
        }
      const vf4 sum = vf4_add(vf4_add(part[0], part[1]), vf4_add(part[2], part[3]));
      if (vf4_hsum(sum) != 0.0f) break;
    }
  }
#endif
  for (; i < n; i++)
    if (poison(x[i], allow_minus_inf) != 0.0f) return i;
  return n;
}
