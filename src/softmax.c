/* softmax.c: exp and the numerically stable row-wise softmax.
 *
 * exp(x) for x <= 0 (softmax only ever needs exp of "score - row max"):
 *   x = n ln2 + r, |r| <= ln2/2     range reduction in two steps (ln2 split
 *                                   into a high part exact in float and a
 *                                   low correction), so r carries no error
 *   exp(r) ~ 1 + r p(r)             degree-5 minimax polynomial
 *   exp(x) = 2^n exp(r)             2^n built by shifting n into the exponent
 * Below about -87.34 the result would be subnormal; it is flushed to 0.
 * Measured error against libm expf: see tests/native (<= 2 ulp).
 *
 * 2^y, for scores already in base 2 (the fused path), reduces more cheaply:
 * y = n + t with t = y - n exact, then e^r with r = t ln2, same polynomial.
 */
#include <float.h>
#include <math.h>

#include "internal.h"
#include "simd.h"

/* 1.5 * 2^23 + 127: adding it rounds x*log2(e) to an integer n held in the
 * low mantissa bits, already biased for the float exponent. */
static const float MAGIC = 0x1.8000FEp23f;
static const float LOG2E = ATTN_LOG2E, LN2 = 0x1.62E430p-1f;
static const float MINUS_LN2_HI = -0x1.62E400p-1f;
static const float MINUS_LN2_LO = -0x1.7F7D1Cp-20f;
static const float C5 = 0x1.0F9F9Cp-7f, C4 = 0x1.573A1Ap-5f,
                   C3 = 0x1.555A80p-3f, C2 = 0x1.FFFDC6p-2f,
                   C1 = 0x1.FFFFF6p-1f;
static const float CUTOFF = -0x1.5D589Ep6f; /* ~ -87.3365 */

/* 2^n from n + MAGIC: the biased exponent sits in the low mantissa bits. */
static inline float pow2_biased(float n_magic) {
  uint32_t bits;
  memcpy(&bits, &n_magic, 4);
  bits <<= 23;
  float s;
  memcpy(&s, &bits, 4);
  return s;
}

/* s e^r, for s = 2^n and |r| <= ln2/2: the polynomial both exps end in. */
static inline float exp_poly(float r, float s) {
  float p = C5 * r + C4;
  p = p * r + C3;
  p = p * r + C2;
  p = p * r + C1;
  r *= s;
  return r * p + s;
}

float attn__expf(float x) {
  if (!(x >= CUTOFF)) return 0.0f; /* also -INFINITY */
  float n = x * LOG2E + MAGIC;
  const float s = pow2_biased(n);
  n -= MAGIC;
  float r = n * MINUS_LN2_HI + x;
  r = n * MINUS_LN2_LO + r;
  return exp_poly(r, s);
}

/* 2^y = 2^n 2^t with n = round(y) and t = y - n exact: the range reduction
 * needs no split constant, one multiply turns t into r = t ln2. At y <= -127
 * the exponent field is 0, so the result is 0 (for -INFINITY too). */
float attn__exp2f(float y) {
  if (!(y > -127.0f)) return 0.0f;
  float n = y + MAGIC;
  const float s = pow2_biased(n);
  n -= MAGIC;
  return exp_poly((y - n) * LN2, s);
}

#if ATTN_HAVE_SIMD
static inline vf4 vf4_exp_poly(vf4 r, vf4 s) {
  vf4 p = vf4_add(vf4_mul(vf4_splat(C5), r), vf4_splat(C4));
  p = vf4_add(vf4_mul(p, r), vf4_splat(C3));
  p = vf4_add(vf4_mul(p, r), vf4_splat(C2));
  p = vf4_add(vf4_mul(p, r), vf4_splat(C1));
  r = vf4_mul(r, s);
  return vf4_add(vf4_mul(r, p), s);
}

static inline vf4 vf4_exp(vf4 x) {
  vf4 n = vf4_add(vf4_mul(x, vf4_splat(LOG2E)), vf4_splat(MAGIC));
  const vf4 s = vf4_shl23(n);
  n = vf4_sub(n, vf4_splat(MAGIC));
  vf4 r = vf4_add(vf4_mul(n, vf4_splat(MINUS_LN2_HI)), x);
  r = vf4_add(vf4_mul(n, vf4_splat(MINUS_LN2_LO)), r);
  return vf4_zero_below(vf4_exp_poly(r, s), x, vf4_splat(CUTOFF));
}

/* Clamping at -127 (one max) replaces a compare and a mask: the exponent
 * field is then 0, and so is the result. */
static inline vf4 vf4_exp2(vf4 y) {
  y = vf4_max(y, vf4_splat(-127.0f));
  vf4 n = vf4_add(y, vf4_splat(MAGIC));
  const vf4 s = vf4_shl23(n);
  n = vf4_sub(n, vf4_splat(MAGIC));
  return vf4_exp_poly(vf4_mul(vf4_sub(y, n), vf4_splat(LN2)), s);
}
#endif

float attn__row_max(const float *x, int n) {
  float m = -INFINITY;
  int i = 0;
#if ATTN_HAVE_SIMD
  if (attn__use_simd() && n >= 8) {
    /* Two independent chains: max has a latency of several cycles. */
    vf4 m0 = vf4_splat(-INFINITY), m1 = m0;
    for (; i + 8 <= n; i += 8) {
      m0 = vf4_max(vf4_load(x + i), m0);
      m1 = vf4_max(vf4_load(x + i + 4), m1);
    }
    m = vf4_hmax(vf4_max(m0, m1));
  }
#endif
  for (; i < n; i++) m = x[i] > m ? x[i] : m;
  return m;
}

float attn__score_max(float *x, int n) {
  const float m = attn__row_max(x, n);
  if (m != INFINITY) return m;
  /* Finite inputs whose dot product overflowed: treat +INFINITY as the
   * largest float, so those keys share the weight instead of giving NaN. */
  for (int i = 0; i < n; i++)
    if (x[i] == INFINITY) x[i] = FLT_MAX;
  return FLT_MAX;
}

/* x[i] = exp((x[i] - shift) * scale), or 2^((x[i] - shift) * scale) with
 * base2 (a constant in both callers, so each gets its own specialised loop);
 * returns the sum. Double for the sequential sum of the scalar path: a float
 * accumulator over 16k keys drifts by ~1e-6, the SIMD path's 8 partial sums
 * do not. */
static inline float exp_rows(float *x, int n, float shift, float scale,
                             int base2) {
  double sum = 0.0;
  int i = 0;
#if ATTN_HAVE_SIMD
  if (attn__use_simd()) {
    const vf4 vs = vf4_splat(shift), vk = vf4_splat(scale);
    vf4 acc0 = vf4_splat(0), acc1 = acc0; /* two chains, as in row_max */
    for (; i + 8 <= n; i += 8) {
      const vf4 y0 = vf4_mul(vf4_sub(vf4_load(x + i), vs), vk);
      const vf4 y1 = vf4_mul(vf4_sub(vf4_load(x + i + 4), vs), vk);
      const vf4 e0 = base2 ? vf4_exp2(y0) : vf4_exp(y0);
      const vf4 e1 = base2 ? vf4_exp2(y1) : vf4_exp(y1);
      vf4_store(x + i, e0), vf4_store(x + i + 4, e1);
      acc0 = vf4_add(acc0, e0), acc1 = vf4_add(acc1, e1);
    }
    sum = vf4_hsum(vf4_add(acc0, acc1));
  }
#endif
  for (; i < n; i++) {
    const float y = (x[i] - shift) * scale;
    x[i] = base2 ? attn__exp2f(y) : attn__expf(y);
    sum += x[i];
  }
  return (float)sum;
}

float attn__exp_shifted(float *x, int n, float shift, float scale) {
  return exp_rows(x, n, shift, scale, 0);
}

float attn__exp2_shifted(float *x, int n, float shift, float scale) {
  return exp_rows(x, n, shift, scale, 1);
}

void attn__scale_row(float *x, int n, float s) {
  int i = 0;
#if ATTN_HAVE_SIMD
  if (attn__use_simd()) {
    const vf4 vs = vf4_splat(s);
    for (; i + 4 <= n; i += 4) vf4_store(x + i, vf4_mul(vf4_load(x + i), vs));
  }
#endif
  for (; i < n; i++) x[i] *= s;
}

int attn_softmax_rows(float *out, const float *in, int rows, int cols,
                      float temperature) {
  if (!out || !in) return ATTN_E_NULL;
  if (rows <= 0 || cols <= 0 || !attn__fits((uint64_t)rows * cols, 4))
    return ATTN_E_SIZE;
  if (!(temperature > 0.0f) || isinf(temperature)) return ATTN_E_TEMP;
  for (int r = 0; r < rows; r++) {
    const float *x = in + (size_t)r * cols;
    float *y = out + (size_t)r * cols;
    const float m = attn__row_max(x, cols);
    if (m == -INFINITY) { /* every entry blocked: zero weights, not NaN */
      for (int j = 0; j < cols; j++) y[j] = 0.0f;
      continue;
    }
    /* Shift by the max then divide by T, in the order that cannot overflow
     * where the true weight is not 0: for T < 1, (x - max) / T (x/T alone
     * could overflow); for T >= 1, x/T - max/T (x - max alone could). The
     * division, not a multiply by 1/T, keeps the max entry at exactly 0. */
    if (temperature < 1.0f)
      for (int j = 0; j < cols; j++) y[j] = (x[j] - m) / temperature;
    else
      for (int j = 0; j < cols; j++) y[j] = x[j] / temperature - m / temperature;
    attn__scale_row(y, cols, 1.0f / attn__exp_shifted(y, cols, 0.0f, 1.0f));
  }
  return ATTN_OK;
}
