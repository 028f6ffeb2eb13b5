/* gpt_block.c: the pieces a GPT block adds to the attention-only trainer:
 * LayerNorm and the GELU of the MLP, each a forward/backward pair over rows
 * (llm.c's layernorm_forward/backward, gelu_forward/backward), with SIMD
 * twins that mirror the scalar loops.
 *
 * GELU is the exact one, x Phi(x) = x (1 + erf(x / sqrt 2)) / 2, not the tanh
 * approximation. erf is a rational function of x (odd numerator of degree
 * 13, even denominator of degree 8, x clamped to [-4, 4] where erf is 1 in
 * float; Eigen's and TensorFlow's coefficients): within 4.2e-7 of erf
 * everywhere (tests/native measures it), the same operations in both paths.
 */
#include <math.h>

#include "internal.h"
#include "simd.h"

/* ==== erf and GELU ======================================================= */

static const float ERF_P[7] = {-1.60960333262415e-02f, -2.95459980854025e-03f,
                               -7.34990630326855e-04f, -5.69250639462346e-05f,
                               -2.10102402082508e-06f, 2.77068142495902e-08f,
                               -2.72614225801306e-10f};
static const float ERF_Q[5] = {-1.42647390514189e-02f, -7.37332916720468e-03f,
                               -1.68282697438203e-03f, -2.13374055278905e-04f,
                               -1.45660718464996e-05f};
#define SQRT1_2 0.70710678118654752f    /* 1 / sqrt(2) */
#define INV_SQRT_2PI 0.39894228040143268f /* 1 / sqrt(2 pi) */

float attn__erff(float x) {
  x = x < -4.0f ? -4.0f : x; /* clamps; a NaN passes through both */
  x = 4.0f < x ? 4.0f : x;
  const float x2 = x * x;
  float p = x2 * ERF_P[6] + ERF_P[5];
  for (int i = 4; i >= 0; i--) p = x2 * p + ERF_P[i];
  float q = x2 * ERF_Q[4] + ERF_Q[3];
  for (int i = 2; i >= 0; i--) q = x2 * q + ERF_Q[i];
  return x * p / q;
}

#if ATTN_HAVE_SIMD
static inline vf4 vf4_erf(vf4 x) {
  x = vf4_min(vf4_max(x, vf4_splat(-4.0f)), vf4_splat(4.0f));
  const vf4 x2 = vf4_mul(x, x);
  vf4 p = vf4_add(vf4_mul(x2, vf4_splat(ERF_P[6])), vf4_splat(ERF_P[5]));
  for (int i = 4; i >= 0; i--) p = vf4_add(vf4_mul(x2, p), vf4_splat(ERF_P[i]));
  vf4 q = vf4_add(vf4_mul(x2, vf4_splat(ERF_Q[4])), vf4_splat(ERF_Q[3]));
  for (int i = 2; i >= 0; i--) q = vf4_add(vf4_mul(x2, q), vf4_splat(ERF_Q[i]));
  return vf4_div(vf4_mul(x, p), q);
}
#endif

/* out[i] = x[i] Phi(x[i]) for n values. */
ATTN_NOINLINE void attn__gelu_forward(float *out, const float *x, int n) {
  int i = 0;
#if ATTN_HAVE_SIMD
  if (attn__use_simd()) {
    const vf4 half = vf4_splat(0.5f), one = vf4_splat(1.0f), r2 = vf4_splat(SQRT1_2);
    for (; i + 4 <= n; i += 4) {
      const vf4 v = vf4_load(x + i);
      const vf4 cdf = vf4_mul(half, vf4_add(one, vf4_erf(vf4_mul(v, r2))));
      vf4_store(out + i, vf4_mul(v, cdf));
    }
  }
#endif
  for (; i < n; i++) out[i] = x[i] * (0.5f * (1.0f + attn__erff(x[i] * SQRT1_2)));
}

/* In the forward pass: out = x Phi(x), so now
 *   dx[i] = dout[i] (Phi(x[i]) + x[i] phi(x[i])),  phi(x) = exp(-x^2/2) / sqrt(2 pi).
 * dx must not overlap x or dout: it holds -x^2/2 and then phi on the way. */
ATTN_NOINLINE void attn__gelu_backward(float *dx, const float *x, const float *dout, int n) {
  for (int i = 0; i < n; i++) dx[i] = -0.5f * x[i] * x[i];
  attn__exp_shifted(dx, n, 0.0f, 1.0f); /* SIMD in its own twin */
  int i = 0;
#if ATTN_HAVE_SIMD
  if (attn__use_simd()) {
    const vf4 half = vf4_splat(0.5f), one = vf4_splat(1.0f), r2 = vf4_splat(SQRT1_2),
              c = vf4_splat(INV_SQRT_2PI);
    for (; i + 4 <= n; i += 4) {
      const vf4 v = vf4_load(x + i);
      const vf4 cdf = vf4_mul(half, vf4_add(one, vf4_erf(vf4_mul(v, r2))));
      const vf4 pdf = vf4_mul(vf4_load(dx + i), c);
      vf4_store(dx + i, vf4_mul(vf4_load(dout + i), vf4_add(cdf, vf4_mul(v, pdf))));
    }
  }
#endif
  for (; i < n; i++) {
    const float cdf = 0.5f * (1.0f + attn__erff(x[i] * SQRT1_2));
    dx[i] = dout[i] * (cdf + x[i] * (dx[i] * INV_SQRT_2PI));
  }
}

/* ==== LayerNorm ========================================================== */

/* sum of x[0..n) and of (x[i] - mean)^2: four lanes, then the tail. */
static float row_sum(const float *x, int n) {
  float s = 0.0f;
  int i = 0;
#if ATTN_HAVE_SIMD
  if (attn__use_simd() && n >= 4) {
    vf4 acc = vf4_splat(0.0f);
    for (; i + 4 <= n; i += 4) acc = vf4_add(acc, vf4_load(x + i));
    s = vf4_hsum(acc);
  }
#endif
  for (; i < n; i++) s += x[i];
  return s;
}

static float row_sq_dev(const float *x, float mean, int n) {
  float s = 0.0f;
  int i = 0;
#if ATTN_HAVE_SIMD
  if (attn__use_simd() && n >= 4) {
    const vf4 m = vf4_splat(mean);
    vf4 acc = vf4_splat(0.0f);
    for (; i + 4 <= n; i += 4) {
      const vf4 d = vf4_sub(vf4_load(x + i), m);
      acc = vf4_add(acc, vf4_mul(d, d));
    }
    s = vf4_hsum(acc);
  }
#endif
  for (; i < n; i++) s += (x[i] - mean) * (x[i] - mean);
  return s;
}

/* out (N, C) = (x - mean) rstd g + b per row of x (N, C), with mean and
 * rstd = 1 / sqrt(biased variance + 1e-5) kept (N each) for the backward.
 * Two passes (the mean, then squared deviations): no cancellation. */
ATTN_NOINLINE void attn__layernorm_forward(float *out, float *mean, float *rstd,
                                           const float *x, const float *g,
                                           const float *b, int N, int C) {
  for (int r = 0; r < N; r++) {
    const float *xr = x + (size_t)r * C;
    float *o = out + (size_t)r * C;
    const float m = row_sum(xr, C) / (float)C;
    const float s = 1.0f / sqrtf(row_sq_dev(xr, m, C) / (float)C + 1e-5f);
    mean[r] = m, rstd[r] = s;
    int i = 0;
#if ATTN_HAVE_SIMD
    if (attn__use_simd()) {
      const vf4 vm = vf4_splat(m), vs = vf4_splat(s);
      for (; i + 4 <= C; i += 4) {
        const vf4 n = vf4_mul(vf4_sub(vf4_load(xr + i), vm), vs);
        vf4_store(o + i, vf4_add(vf4_mul(n, vf4_load(g + i)), vf4_load(b + i)));
      }
    }
#endif
    for (; i < C; i++) o[i] = (xr[i] - m) * s * g[i] + b[i];
  }
}

/* In the forward pass: n = (x - mean) rstd, out = n g + b, so now
 *   db += dout   dg += n dout
 *   dx += rstd (dn - mean(dn) - n mean(dn n)),  dn = g dout
 * (the gradient through mean and rstd folded in; all += ). */
ATTN_NOINLINE void attn__layernorm_backward(float *dx, float *dg, float *db,
                                            const float *dout, const float *x,
                                            const float *g, const float *mean,
                                            const float *rstd, int N, int C) {
  for (int r = 0; r < N; r++) {
    const float *xr = x + (size_t)r * C, *d = dout + (size_t)r * C;
    float *dxr = dx + (size_t)r * C;
    const float m = mean[r], s = rstd[r];
    float dn_mean = 0.0f, dnn_mean = 0.0f;
    int i = 0;
#if ATTN_HAVE_SIMD
    if (attn__use_simd() && C >= 4) {
      const vf4 vm = vf4_splat(m), vs = vf4_splat(s);
      vf4 a1 = vf4_splat(0.0f), a2 = a1;
      for (; i + 4 <= C; i += 4) {
        const vf4 n = vf4_mul(vf4_sub(vf4_load(xr + i), vm), vs);
        const vf4 dn = vf4_mul(vf4_load(g + i), vf4_load(d + i));
        a1 = vf4_add(a1, dn);
        a2 = vf4_add(a2, vf4_mul(dn, n));
      }
      dn_mean = vf4_hsum(a1), dnn_mean = vf4_hsum(a2);
    }
#endif
    for (; i < C; i++) {
      const float n = (xr[i] - m) * s, dn = g[i] * d[i];
      dn_mean += dn, dnn_mean += dn * n;
    }
    dn_mean /= (float)C, dnn_mean /= (float)C;
    i = 0;
#if ATTN_HAVE_SIMD
    if (attn__use_simd()) {
      const vf4 vm = vf4_splat(m), vs = vf4_splat(s), v1 = vf4_splat(dn_mean),
                v2 = vf4_splat(dnn_mean);
      for (; i + 4 <= C; i += 4) {
        const vf4 n = vf4_mul(vf4_sub(vf4_load(xr + i), vm), vs);
        const vf4 dy = vf4_load(d + i);
        const vf4 dn = vf4_mul(vf4_load(g + i), dy);
        vf4_store(db + i, vf4_add(vf4_load(db + i), dy));
        vf4_store(dg + i, vf4_add(vf4_load(dg + i), vf4_mul(n, dy)));
        const vf4 t = vf4_sub(vf4_sub(dn, v1), vf4_mul(n, v2));
        vf4_store(dxr + i, vf4_add(vf4_load(dxr + i), vf4_mul(t, vs)));
      }
    }
#endif
    for (; i < C; i++) {
      const float n = (xr[i] - m) * s, dn = g[i] * d[i];
      db[i] += d[i];
      dg[i] += n * d[i];
      dxr[i] += (dn - dn_mean - n * dnn_mean) * s;
    }
  }
}
