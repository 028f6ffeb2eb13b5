/* ref64.h: the float64 reference of the kernels in src/attention.h, with an
 * error bound beside every value. Shared by the native tests
 * (tests/native/test_kernels.c) and the libFuzzer harnesses
 * (tests/fuzz/fuzz_common.h); each decides how to compare (the tests allow
 * 2 * bound + floor, the fuzzers 4 * bound, only where well conditioned).
 *
 *   ref_matmul          C = A B or A B^T (float inputs); returns the largest
 *                       sum_p |a_ip b_pj| (a caller may skip what overflows)
 *   ref_softmax_row     one row of weights from exponent arguments a_j that
 *                       carry error bounds; -inf entries are blocked
 *   ref_visible         whether the masks let query i see key j
 *   ref_attention       softmax(scale Q K^T + masks) V per query row, on
 *                       double inputs that may carry error bounds (MHA)
 *   ref_project         Y = X W + b (the MHA projections)
 *   ref_mha             projections, one ref_attention per head, output
 *                       projection: attn_mha with bounds carried through
 *   ref_posenc          one sinusoidal positional encoding value
 *   ref_linear_attention Performer's FAVOR+ estimate with given features, in
 *                       its quadratic form, and an error bound per output
 *   ref_first_nonfinite the first non-finite index (exact, no bound)
 *   ref_to_double       a float buffer widened to double (for ref_attention)
 *
 * Error model: a bound on the error float32 arithmetic may make, whatever
 * the summation order or vector width (u = REF_U = 2^-24, the unit roundoff
 * of float32; first-order terms):
 *   dot product of n terms           (n + 1) u  sum |a_p b_p|
 *     plus the propagated input errors sum (|da_p||b_p| + |a_p||db_p|)
 *     plus one smallest subnormal (2^-149) per operation (gradual underflow)
 *   adding a bias / mask             u |result|
 *   softmax weight w_j = e^{a_j}/S   relative  err(a_j) + sum_l w_l err(a_l)
 *                                    + u |a_j - max| + 2 E_EXP + (3 n + 4) u
 *     E_EXP = 8 u budgets the kernels' own exp (a polynomial, documented at
 *     <= 2 ulp); 3 n u covers the sum of n terms plus, in the fused path, one
 *     rescale of the running sum and output per key tile.
 *   attention output sum_j w_j v_j   sum_j (err(w_j)|v_j| + w_j err(v_j))
 *                                    + (n + 1) u sum_j w_j |v_j|
 *   positional encoding              16 u |angle| + 4 u
 * Weights and outputs add REF_FLOOR (a few FLT_MIN) for results float32
 * flushes to zero or to subnormals. Blocked weights and fully masked rows
 * have value 0 and bound 0: they must be exactly 0.
 * Scratch memory that cannot be allocated aborts (a test bug, not a result).
 */
#ifndef REF64_H
#define REF64_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "attention.h" /* attn_masks, attn_mha_params */

#define REF_U (0x1p-24)            /* float32 unit roundoff */
#define REF_E_EXP (8 * 0x1p-24)    /* error budget of the kernels' exp */
#define REF_FLOOR (4.0 * FLT_MIN)  /* flushed / subnormal results */

/* `count` doubles, zeroed; aborts when out of memory. */
static inline double *ref_dbuf(size_t count) {
  double *p = calloc(count ? count : 1, sizeof(double));
  if (!p) {
    fprintf(stderr, "ref64: out of memory (%zu doubles)\n", count);
    abort();
  }
  return p;
}

static inline double *ref_to_double(const float *x, size_t count) {
  double *y = ref_dbuf(count);
  for (size_t i = 0; i < count; i++) y[i] = x[i];
  return y;
}

/* C (m x n) = A (m x k) B, B (k x n) or with tb B (n x k) and B^T; E the
 * bounds. Returns the largest sum_p |a_ip b_pj| (0 when m or n is 0). */
static inline double ref_matmul(double *C, double *E, const float *A, const float *B,
                                int m, int k, int n, int tb) {
  double largest = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double s = 0, abs_s = 0;
      for (int p = 0; p < k; p++) {
        const double b = tb ? B[(size_t)j * k + p] : B[(size_t)p * n + j];
        s += (double)A[(size_t)i * k + p] * b;
        abs_s += fabs((double)A[(size_t)i * k + p] * b);
      }
      if (abs_s > largest) largest = abs_s;
      C[(size_t)i * n + j] = s;
      /* + one smallest subnormal per operation for gradual underflow */
      E[(size_t)i * n + j] = (k + 1) * REF_U * abs_s + (k + 1) * 0x1p-149;
    }
  return largest;
}

/* Softmax of one row of `n` exponent arguments already divided by T:
 * a[j] = -INFINITY for blocked entries; ea[j] = error bound of a[j]. Writes
 * weights w and their error bounds ew. Returns the number of visible
 * entries (0: the row is all zeros). */
static inline int ref_softmax_row(double *w, double *ew, const double *a,
                                  const double *ea, int n) {
  double m = -INFINITY;
  int visible = 0;
  for (int j = 0; j < n; j++)
    if (a[j] != -INFINITY) {
      visible++;
      if (a[j] > m) m = a[j];
    }
  if (!visible) {
    for (int j = 0; j < n; j++) w[j] = 0, ew[j] = 0;
    return 0;
  }
  double S = 0;
  for (int j = 0; j < n; j++) S += a[j] == -INFINITY ? 0 : exp(a[j] - m);
  double avg_err = 0;
  for (int j = 0; j < n; j++) {
    w[j] = a[j] == -INFINITY ? 0 : exp(a[j] - m) / S;
    if (w[j] > 0) avg_err += w[j] * ea[j];
  }
  for (int j = 0; j < n; j++) {
    if (a[j] == -INFINITY) {
      ew[j] = 0; /* a blocked entry must be exactly 0 */
      continue;
    }
    const double rho = ea[j] + avg_err + REF_U * fabs(a[j] - m) + 2 * REF_E_EXP +
                       (3.0 * visible + 4) * REF_U;
    ew[j] = rho * w[j] + REF_FLOOR;
  }
  return visible;
}

/* 1 when position p is in the global list (a plain scan: the reference). */
static inline int ref_is_global(const attn_masks *mk, int p) {
  for (int g = 0; g < mk->n_global; g++)
    if (mk->global[g] == p) return 1;
  return 0;
}

static inline int ref_visible(const attn_masks *mk, int i, int j, int n_k) {
  if (!mk) return 1;
  if (mk->causal && j > i) return 0;
  if (mk->has_window && abs(i - j) > mk->window && !ref_is_global(mk, i) &&
      !ref_is_global(mk, j))
    return 0;
  if (mk->key_padding && mk->key_padding[j]) return 0;
  if (mk->add && mk->add[(size_t)i * n_k + j] == -INFINITY) return 0;
  return 1;
}

/* One attention, on double inputs that may carry error bounds (from an MHA
 * projection) or not (eQ, eK, eV NULL). Q, K, V have row strides. */
typedef struct {
  const double *Q, *K, *V, *eQ, *eK, *eV;
  size_t ldq, ldk, ldv;
  int n_q, n_k, d_k, d_v;
  double scale, scale_err; /* relative error of the float scale used */
  const attn_masks *masks;
} ref_attn_args;

/* out/eo (n_q rows, stride ldo); w/ew (n_q x n_k). Optional outputs (NULL:
 * not wanted): visible_rows[i] = number of visible keys of query i;
 * well_conditioned[i] = 1 when every key of row i that could matter (score
 * within 200 of the row's largest) has a score error bound <= 0.01, so that
 * its values are worth comparing (1 for a fully masked row). */
static inline void ref_attention(double *out, double *eo, size_t ldo, double *w,
                                 double *ew, int *visible_rows, int *well_conditioned,
                                 const ref_attn_args *a) {
  const int n_k = a->n_k;
  double *s = ref_dbuf((size_t)n_k), *es = ref_dbuf((size_t)n_k);
  for (int i = 0; i < a->n_q; i++) {
    const double *q = a->Q + (size_t)i * a->ldq;
    for (int j = 0; j < n_k; j++) {
      if (!ref_visible(a->masks, i, j, n_k)) {
        s[j] = -INFINITY, es[j] = 0;
        continue;
      }
      const double *k = a->K + (size_t)j * a->ldk;
      double dot = 0, abs_dot = 0, prop = 0;
      for (int p = 0; p < a->d_k; p++) {
        dot += q[p] * k[p];
        abs_dot += fabs(q[p] * k[p]);
        if (a->eQ) prop += a->eQ[(size_t)i * a->ldq + p] * fabs(k[p]);
        if (a->eK) prop += fabs(q[p]) * a->eK[(size_t)j * a->ldk + p];
      }
      const double add =
          a->masks && a->masks->add ? a->masks->add[(size_t)i * n_k + j] : 0;
      s[j] = a->scale * dot + add;
      es[j] = a->scale * (prop + (a->d_k + 1) * REF_U * abs_dot) +
              (REF_U + a->scale_err) * fabs(a->scale * dot) + REF_U * fabs(s[j]) +
              a->scale * (a->d_k + 1) * 0x1p-149;
    }
    if (well_conditioned) {
      double m = -INFINITY;
      for (int j = 0; j < n_k; j++)
        if (s[j] != -INFINITY && s[j] > m) m = s[j];
      well_conditioned[i] = 1;
      for (int j = 0; j < n_k; j++)
        if (s[j] != -INFINITY && s[j] + es[j] >= m - 200 && es[j] > 0.01)
          well_conditioned[i] = 0;
    }
    double *wi = w + (size_t)i * n_k, *ewi = ew + (size_t)i * n_k;
    const int vis = ref_softmax_row(wi, ewi, s, es, n_k);
    if (visible_rows) visible_rows[i] = vis;
    for (int c = 0; c < a->d_v; c++) {
      double o = 0, e = 0, abs_o = 0;
      for (int j = 0; j < n_k; j++) {
        if (wi[j] == 0 && ewi[j] == 0) continue; /* blocked */
        const double v = a->V[(size_t)j * a->ldv + c];
        o += wi[j] * v;
        abs_o += wi[j] * fabs(v);
        e += ewi[j] * fabs(v) + (a->eV ? wi[j] * a->eV[(size_t)j * a->ldv + c] : 0);
      }
      out[(size_t)i * ldo + c] = o;
      eo[(size_t)i * ldo + c] = vis ? e + (vis + 1) * REF_U * abs_o + REF_FLOOR : 0;
    }
  }
  free(s);
  free(es);
}

/* Y (n x d) = X W + b in double, with error bounds EY; X may carry errors EX
 * (NULL: exact); b may be NULL. */
static inline void ref_project(double *Y, double *EY, const double *X, const double *EX,
                               const float *W, const float *b, int n, int d) {
  for (int i = 0; i < n; i++)
    for (int c = 0; c < d; c++) {
      double s = 0, abs_s = 0, prop = 0;
      for (int p = 0; p < d; p++) {
        const double wv = W[(size_t)p * d + c];
        s += X[(size_t)i * d + p] * wv;
        abs_s += fabs(X[(size_t)i * d + p] * wv);
        if (EX) prop += EX[(size_t)i * d + p] * fabs(wv);
      }
      const double bias = b ? b[c] : 0;
      Y[(size_t)i * d + c] = s + bias;
      EY[(size_t)i * d + c] = prop + (d + 2) * REF_U * (abs_s + fabs(bias)) +
                              (d + 2) * 0x1p-149;
    }
}

/* Multi-head attention as attn_mha defines it: Q = Xq Wq + bq, K = Xkv Wk +
 * bk, V = Xkv Wv + bv; head h attends with columns h dh .. h dh + dh - 1
 * (dh = d / heads) and scale 1/sqrt(dh) (a float scale: relative error 2 u)
 * into Z; Y = Z Wo + bo. Bounds go with every step. Y, eY, Z, eZ: n_q x d;
 * w, ew: heads x n_q x n_k. Optional (NULL: not wanted), heads x n_q:
 * visible_rows and well_conditioned, as in ref_attention. */
static inline void ref_mha(double *Y, double *eY, double *Z, double *eZ, double *w,
                           double *ew, int *visible_rows, int *well_conditioned,
                           const float *Xq, const float *Xkv, int n_q, int n_k, int d,
                           int heads, const attn_mha_params *P, const attn_masks *masks) {
  const int dh = d / heads;
  const size_t nq_d = (size_t)n_q * d, nk_d = (size_t)n_k * d, hw = (size_t)n_q * n_k;
  double *Xqd = ref_to_double(Xq, nq_d), *Xkvd = ref_to_double(Xkv, nk_d);
  double *Q = ref_dbuf(nq_d), *eQ = ref_dbuf(nq_d), *K = ref_dbuf(nk_d),
         *eK = ref_dbuf(nk_d), *V = ref_dbuf(nk_d), *eV = ref_dbuf(nk_d);
  ref_project(Q, eQ, Xqd, NULL, P->Wq, P->bq, n_q, d);
  ref_project(K, eK, Xkvd, NULL, P->Wk, P->bk, n_k, d);
  ref_project(V, eV, Xkvd, NULL, P->Wv, P->bv, n_k, d);
  for (int h = 0; h < heads; h++) {
    const size_t col = (size_t)h * dh;
    const ref_attn_args a = {Q + col, K + col, V + col, eQ + col, eK + col, eV + col,
                             (size_t)d, (size_t)d, (size_t)d, n_q, n_k, dh, dh,
                             1.0 / sqrt((double)dh), 2 * REF_U, masks};
    ref_attention(Z + col, eZ + col, (size_t)d, w + h * hw, ew + h * hw,
                  visible_rows ? visible_rows + (size_t)h * n_q : NULL,
                  well_conditioned ? well_conditioned + (size_t)h * n_q : NULL, &a);
  }
  ref_project(Y, eY, Z, eZ, P->Wo, P->bo, n_q, d);
  free(Xqd), free(Xkvd), free(Q), free(eQ), free(K), free(eK), free(V), free(eV);
}

/* Row p, column c of the d-wide sinusoidal encoding; *err its bound. A
 * float32 kernel forms the angle with a few roundings (the frequency itself
 * comes from a pow/exp of up to ln 1e4 ~ 9.2), so the angle's error grows
 * with p: budget 16 u |angle|, plus 4 u for sin/cos and the final rounding. */
static inline double ref_posenc(int p, int c, int d, double *err) {
  const int two_i = c - c % 2;
  const double angle = p / pow(10000.0, (double)two_i / d);
  *err = 16 * REF_U * angle + 4 * REF_U;
  return c % 2 ? cos(angle) : sin(angle);
}

/* Index of the first element that is NaN or +-inf (-inf allowed when
 * allow_minus_inf); n when there is none. */
static inline size_t ref_first_nonfinite(const float *x, size_t n, int allow_minus_inf) {
  for (size_t i = 0; i < n; i++)
    if (!(isfinite(x[i]) || (allow_minus_inf && x[i] == -INFINITY))) return i;
  return n;
}

/* attn_linear_attention's specification in its quadratic form, in double:
 *   phi(x)_r = exp(w_r . x' - |x'|^2/2),  x' = sqrt(scale) x  (1/sqrt(m) cancels)
 *   A_ij = phi(q_i) . phi(k_j), 0 for j > i with causal
 *   out_i = sum_j A_ij v_j / sum_j A_ij, 0 when that sum is 0.
 * err (n_q x d_v): the float32 kernel's error bound. Each feature's
 * exponent is off by (d_k + 3)u (sum |w x'| + |x'|^2/2) plus u times the
 * exponent's distance to its stabiliser (the row's max for queries, the
 * running max over keys for keys: at most the spread of all key exponents,
 * once per chunk of 64 that raised it); the sums add (m + n_k + 4)u; the
 * output, a ratio of sums of positive terms, errs by (sum_j w_j |v_j| +
 * |out|) times the sum of those, plus u |out| (see tests/helpers.js
 * linearBound, the same model). Exponents are computed relative to the
 * largest one so that double does not overflow where float32 would not.
 * Returns the largest spread of exponents (over all keys, or over one query's
 * features); past ~80 float32 features underflow where double ones do not,
 * so callers compare only below that. Past 700 nothing is computed. */
static inline double ref_linear_attention(double *out, double *err, const float *Q,
                                       const float *K, const float *V, const float *W,
                                       int n_q, int n_k, int d_k, int d_v, int m,
                                       double scale, int causal) {
  const double root = sqrt(scale);
  double *eq = ref_dbuf((size_t)n_q * m), *ek = ref_dbuf((size_t)n_k * m);
  double *bq = ref_dbuf((size_t)n_q), *bk = ref_dbuf((size_t)n_k);
  /* exponents; bq/bk: each row's (d_k + 3)u (max_r sum |w x'| + |x'|^2/2) */
  for (int pass = 0; pass < 2; pass++) {
    const float *X = pass ? K : Q;
    const int n = pass ? n_k : n_q;
    double *E = pass ? ek : eq, *B = pass ? bk : bq;
    for (int i = 0; i < n; i++) {
      double h = 0, pa = 0;
      for (int c = 0; c < d_k; c++) h += pow(root * X[(size_t)i * d_k + c], 2);
      for (int r = 0; r < m; r++) {
        double p = 0, a = 0;
        for (int c = 0; c < d_k; c++) {
          const double t = (double)W[(size_t)r * d_k + c] * root * X[(size_t)i * d_k + c];
          p += t, a += fabs(t);
        }
        E[(size_t)i * m + r] = p - (pass ? h / 2 : 0);
        pa = fmax(pa, a);
      }
      B[i] = (d_k + 3) * REF_U * (pa + h / 2);
    }
  }
  double kmax = -INFINITY, kmin = INFINITY, qspread = 0;
  for (size_t i = 0; i < (size_t)n_k * m; i++) kmax = fmax(kmax, ek[i]), kmin = fmin(kmin, ek[i]);
  double spread = kmax - kmin;
  const int chunks = (n_k + 63) / 64;
  double ekey = 0;
  for (int j = 0; j < n_k; j++) ekey = fmax(ekey, bk[j]);
  ekey += REF_U * (kmax - kmin) * (chunks + 2) + (3.0 * chunks + 6) * REF_U;
  for (int i = 0; i < n_q && spread < 700; i++) {
    double qmax = -INFINITY, qmin = INFINITY;
    for (int r = 0; r < m; r++) qmax = fmax(qmax, eq[(size_t)i * m + r]), qmin = fmin(qmin, eq[(size_t)i * m + r]);
    qspread = qmax - qmin;
    spread = fmax(spread, qspread);
    if (qspread > 700) break;
    const double E = 2 * bq[i] + REF_U * qspread + 3 * REF_U + ekey + (m + n_k + 4) * REF_U;
    double sum = 0;
    double *num = ref_dbuf((size_t)d_v), *wabs = ref_dbuf((size_t)d_v);
    const int last = causal ? (i + 1 < n_k ? i + 1 : n_k) : n_k;
    for (int j = 0; j < last; j++) {
      double a = 0;
      for (int r = 0; r < m; r++) a += exp(eq[(size_t)i * m + r] - qmax + ek[(size_t)j * m + r] - kmax);
      sum += a;
      for (int c = 0; c < d_v; c++) {
        num[c] += a * V[(size_t)j * d_v + c];
        wabs[c] += a * fabs((double)V[(size_t)j * d_v + c]);
      }
    }
    for (int c = 0; c < d_v; c++) {
      const double o = sum > 0 ? num[c] / sum : 0, wv = sum > 0 ? wabs[c] / sum : 0;
      out[(size_t)i * d_v + c] = o;
      err[(size_t)i * d_v + c] = (wv + fabs(o)) * E + REF_U * fabs(o) + REF_FLOOR;
    }
    free(num), free(wabs);
  }
  free(eq), free(ek), free(bq), free(bk);
  return spread;
}

#endif
