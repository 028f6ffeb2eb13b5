/* softmax.c: exp, the numerically stable row-wise softmax, and its backward
 * (attn_softmax_backward, also the row kernels attention's backward uses).
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
 * y = n + t with t = y - n exact, then 2^t by the same polynomial rewritten
 * in t (no multiply by ln2).
 */
#include <float.h>
#include <math.h>

#include "internal.h"
#include "simd.h"

/* 1.5 * 2^23 + 127: adding it rounds x*log2(e) to an integer n held in the
 * low mantissa bits, already biased for the float exponent. */
static const float MAGIC = 0x1.8000FEp23f;
static const float LOG2E = ATTN_LOG2E;
static const float MINUS_LN2_HI = -0x1.62E400p-1f;
static const float MINUS_LN2_LO = -0x1.7F7D1Cp-20f;
static const float CUTOFF = -0x1.5D589Ep6f; /* ~ -87.3365 */

/* e^r ~ 1 + r p(r), p(r) = C[0] + C[1] r + ... + C[4] r^4, for |r| <= ln2/2;
 * and the same polynomial in t = r / ln2 (coefficients C[k] ln2^(k+1)), so
 * 2^t needs no multiply by ln2 first. */
static const float EXP_C[5] = {0x1.FFFFF6p-1f, 0x1.FFFDC6p-2f, 0x1.555A80p-3f,
                               0x1.573A1Ap-5f, 0x1.0F9F9Cp-7f};
static const float EXP2_C[5] = {0x1.62E42Ap-1f, 0x1.EBF9BCp-3f, 0x1.C6B770p-5f,
                                0x1.3CEA52p-7f, 0x1.5BAF14p-10f};

/* 2^n from n + MAGIC: the biased exponent sits in the low mantissa bits. */
static inline float pow2_biased(float n_magic) {
  uint32_t bits;
  memcpy(&bits, &n_magic, 4);
  bits <<= 23;
  float s;
  memcpy(&s, &bits, 4);
  return s;
}

/* s (1 + r p(r)) for s = 2^n: the polynomial both exps end in. */
static inline float poly(float r, float s, const float c[5]) {
  float p = c[4] * r + c[3];
  p = p * r + c[2];
  p = p * r + c[1];
  p = p * r + c[0];
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
  return poly(r, s, EXP_C);
}

/* 2^y = 2^n 2^t with n = round(y) and t = y - n exact: the range reduction
 * needs no split constant. At y <= -127 the exponent field is 0, so the
 * result is 0 (for -INFINITY too). */
float attn__exp2f(float y) {
  if (!(y > -127.0f)) return 0.0f;
  float n = y + MAGIC;
  const float s = pow2_biased(n);
  n -= MAGIC;
  return poly(y - n, s, EXP2_C);
}

#if ATTN_HAVE_SIMD
static inline vf4 vf4_poly(vf4 r, vf4 s, const float c[5]) {
  vf4 p = vf4_madd(vf4_splat(c[4]), r, vf4_splat(c[3]));
  p = vf4_madd(p, r, vf4_splat(c[2]));
  p = vf4_madd(p, r, vf4_splat(c[1]));
  p = vf4_madd(p, r, vf4_splat(c[0]));
  r = vf4_mul(r, s);
  return vf4_madd(r, p, s);
}

static inline vf4 vf4_exp(vf4 x) {
  vf4 n = vf4_add(vf4_mul(x, vf4_splat(LOG2E)), vf4_splat(MAGIC));
  const vf4 s = vf4_shl23(n);
  n = vf4_sub(n, vf4_splat(MAGIC));
  vf4 r = vf4_add(vf4_mul(n, vf4_splat(MINUS_LN2_HI)), x);
  r = vf4_add(vf4_mul(n, vf4_splat(MINUS_LN2_LO)), r);
  return vf4_zero_below(vf4_poly(r, s, EXP_C), x, vf4_splat(CUTOFF));
}

/* Clamping at -127 (one max) replaces a compare and a mask: the exponent
 * field is then 0, and so is the result. */
static inline vf4 vf4_exp2(vf4 y) {
  y = vf4_max(y, vf4_splat(-127.0f));
  vf4 n = vf4_add(y, vf4_splat(MAGIC));
  const vf4 s = vf4_shl23(n);
  n = vf4_sub(n, vf4_splat(MAGIC));
  return vf4_poly(vf4_sub(y, n), s, EXP2_C);
}
#endif

float attn__row_max(const float *x, int n) {
  float m = -INFINITY;
  int i = 0;
#if ATTN_HAVE_SIMD
  if (attn__use_simd() && n >= 4) {
    /* Four independent chains: max has a latency of several cycles. */
    vf4 m0 = vf4_splat(-INFINITY), m1 = m0, m2 = m0, m3 = m0;
    for (; i + 16 <= n; i += 16) {
      m0 = vf4_max(vf4_load(x + i), m0);
      m1 = vf4_max(vf4_load(x + i + 4), m1);
      m2 = vf4_max(vf4_load(x + i + 8), m2);
      m3 = vf4_max(vf4_load(x + i + 12), m3);
    }
    for (; i + 4 <= n; i += 4) m0 = vf4_max(vf4_load(x + i), m0);
    m = vf4_hmax(vf4_max(vf4_max(m0, m1), vf4_max(m2, m3)));
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
 * base2; without `scaled` the multiply is left out (scale 1). Both flags are
 * constants at every call, so each caller gets its own specialised loop.
 * Returns the sum. Double for the sequential sum of the scalar path: a float
 * accumulator over 16k keys drifts by ~1e-6, the SIMD path's 8 partial sums
 * do not. */
static inline float exp_rows(float *x, int n, float shift, float scale,
                             int base2, int scaled) {
  double sum = 0.0;
  int i = 0;
#if ATTN_HAVE_SIMD
  if (attn__use_simd()) {
    const vf4 vs = vf4_splat(shift), vk = vf4_splat(scale);
    vf4 acc0 = vf4_splat(0), acc1 = acc0; /* two chains for the adds' latency */
    for (; i + 8 <= n; i += 8) {
      vf4 y0 = vf4_sub(vf4_load(x + i), vs), y1 = vf4_sub(vf4_load(x + i + 4), vs);
      if (scaled) y0 = vf4_mul(y0, vk), y1 = vf4_mul(y1, vk);
      const vf4 e0 = base2 ? vf4_exp2(y0) : vf4_exp(y0);
      const vf4 e1 = base2 ? vf4_exp2(y1) : vf4_exp(y1);
      vf4_store(x + i, e0), vf4_store(x + i + 4, e1);
      acc0 = vf4_add(acc0, e0), acc1 = vf4_add(acc1, e1);
    }
    sum = vf4_hsum(vf4_add(acc0, acc1));
  }
#endif
  for (; i < n; i++) {
    const float y = scaled ? (x[i] - shift) * scale : x[i] - shift;
    x[i] = base2 ? attn__exp2f(y) : attn__expf(y);
    sum += x[i];
  }
  return (float)sum;
}

float attn__exp_shifted(float *x, int n, float shift, float scale) {
  return exp_rows(x, n, shift, scale, 0, 1);
}

float attn__exp2_shifted(float *x, int n, float shift, float scale) {
  /* The fused path's scores mostly come pre-scaled (scale 1): a loop of
   * their own, one multiply per vector shorter. */
  return scale == 1.0f ? exp_rows(x, n, shift, scale, 1, 0)
                       : exp_rows(x, n, shift, scale, 1, 1);
}

/* x[i] = s x[i], clamped to [-limit, limit]. */
static ATTN_NOINLINE void scale_clamped(float *x, int n, float s, float limit) {
  int i = 0;
#if ATTN_HAVE_SIMD
  if (attn__use_simd()) {
    const vf4 vs = vf4_splat(s), hi = vf4_splat(limit), lo = vf4_splat(-limit);
    for (; i + 4 <= n; i += 4)
      vf4_store(x + i, vf4_max(vf4_min(vf4_mul(vf4_load(x + i), vs), hi), lo));
  }
#endif
  for (; i < n; i++) {
    const float y = x[i] * s, below = limit < y ? limit : y;
    x[i] = below < -limit ? -limit : below;
  }
}

void attn__scale_row(float *x, int n, float s) { scale_clamped(x, n, s, INFINITY); }

void attn__scale_scores(float *x, int n, float s) { scale_clamped(x, n, s, FLT_MAX); }

int attn_softmax_rows(float *out, const float *in, int rows, int cols,
                      float temperature) {
  if (!out || !in) return ATTN_E_NULL;
  const int dims[1][2] = {{rows, cols}};
  int status = attn__check_matrices(1, dims);
  if (status == ATTN_OK) status = attn__check_scale(temperature);
  if (status != ATTN_OK) return status;
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
    attn__scale_row(y, cols, 1.0f / attn__exp2_shifted(y, cols, 0.0f, LOG2E));
  }
  return ATTN_OK;
}

/* ---- the softmax backward ------------------------------------------------ */

ATTN_NOINLINE void attn__softmax_grad_row(float *ds, const float *p, const float *dp, int n,
                            float D, float s) {
  int j = 0;
#if ATTN_HAVE_SIMD
  if (attn__use_simd()) {
    const vf4 vD = vf4_splat(D), vs = vf4_splat(s), tiny = vf4_splat(FLT_TRUE_MIN);
    for (; j + 4 <= n; j += 4) {
      const vf4 pj = vf4_load(p + j);
      const vf4 g = vf4_mul(vf4_mul(pj, vf4_sub(vf4_load(dp + j), vD)), vs);
      vf4_store(ds + j, vf4_zero_below(g, pj, tiny));
    }
  }
#endif
  for (; j < n; j++)
    ds[j] = p[j] < FLT_TRUE_MIN ? 0.0f : p[j] * (dp[j] - D) * s;
}

ATTN_NOINLINE float attn__dot(const float *a, const float *b, int n) {
  float sum = 0.0f;
  int i = 0;
#if ATTN_HAVE_SIMD
  if (attn__use_simd()) {
    vf4 acc = vf4_splat(0.0f);
    for (; i + 4 <= n; i += 4) acc = vf4_add(acc, vf4_mul(vf4_load(a + i), vf4_load(b + i)));
    sum = vf4_hsum(acc);
  }
#endif
  for (; i < n; i++) sum += a[i] * b[i];
  return sum;
}

ATTN_SMALL int attn_softmax_backward(float *dX, const float *Y, const float *dY, int rows,
                          int cols, float temperature) {
  if (!dX || !Y || !dY) return ATTN_E_NULL;
  const int dims[1][2] = {{rows, cols}};
  int status = attn__check_matrices(1, dims);
  if (status == ATTN_OK) status = attn__check_scale(temperature);
  if (status != ATTN_OK) return status;
  /* In the forward pass this was y = softmax(x / T), so
   * dx_j = y_j (dy_j - sum_l y_l dy_l) / T. A division, not a multiply by
   * 1/T: that overflows for T < 2^-128 and loses bits for T > 2^126. */
  for (int r = 0; r < rows; r++) {
    float *dx = dX + (size_t)r * cols;
    const float D = attn__dot(Y + (size_t)r * cols, dY + (size_t)r * cols, cols);
    attn__softmax_grad_row(dx, Y + (size_t)r * cols, dY + (size_t)r * cols, cols, D, 1.0f);
    if (temperature != 1.0f)
      for (int j = 0; j < cols; j++) dx[j] /= temperature;
  }
  return ATTN_OK;
}
