/* ref64.h: the float64 reference of the kernels in src/attention.h, with an
 * error bound beside every value. Shared by the native tests
 * (tests/native/test_*.c) and the libFuzzer harnesses
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
 *   ref_score_row       one row of masked, scaled scores with their bounds
 * and the gradients (their error model is at "gradients" below):
 *   ref_softmax_backward_row  one row of attn_softmax_backward
 *   ref_gemm            op(A) op(B) on double inputs that may carry bounds
 *   ref_attention_backward    dQ, dK, dV (weights path or fused path)
 *   ref_mha_backward    every gradient of attn_mha_backward
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
/* Row i of the masked, scaled scores s (n_k; -INFINITY where hidden) and
 * their error bounds es. */
static inline void ref_score_row(double *s, double *es, int i, const ref_attn_args *a) {
  const int n_k = a->n_k;
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
}

static inline void ref_attention(double *out, double *eo, size_t ldo, double *w,
                                 double *ew, int *visible_rows, int *well_conditioned,
                                 const ref_attn_args *a) {
  const int n_k = a->n_k;
  double *s = ref_dbuf((size_t)n_k), *es = ref_dbuf((size_t)n_k);
  for (int i = 0; i < a->n_q; i++) {
    ref_score_row(s, es, i, a);
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

/* ==== gradients ====================================================== * The error model of the backward kernels, by the same rules (first order,
 * any summation order; the forward quantities carry the bounds above):
 *   softmax backward      D = sum_l y_l dy_l: (n + 1) u sum |y_l dy_l|;
 *                         dx_j = y_j (dy_j - D) / T: y_j eD / T + 3 u |dx_j|
 *                         (a subtraction, a product, a division)
 *   D_i = dO_i . O_i      (d_v + 1) u sum |dO O| + sum |dO| eO + sum edO |O|
 *   dP_ij = dO_i . V_j    (d_v + 1) u sum |dO V| + sum |dO| eV + sum edO |V|
 *   P_ij                  the forward's weight bound ew_ij; recomputed from
 *                         the log-sum-exp (fused path) it adds
 *                         P_ij (es_ij + 2 u |s_ij - lse_i| + 3 u |lse_i| +
 *                         E_EXP + 4 u): the score is rounded again, lse was
 *                         rounded three times (m ln 2, + ln l, ln's own ulp),
 *                         then a subtraction and an exp
 *   dS = scale P (dP - D) scale (eP |dP - D| + P (edP + eD)) + (3 u +
 *                         scale_err) |dS|
 *   every product         C = op(A) op(B) over k terms: (k + 1) u sum |a b| +
 *                         sum (ea |b| + |a| eb); a sum of several products
 *                         into one C counts all their terms in k
 * Every gradient adds REF_FLOOR for values flushed to 0 or to subnormals.
 * Blocked entries (y_j <= 0, masked keys) have value and bound 0: the
 * kernels must give exactly 0 there. */

/* One row of attn_softmax_backward: dx (n) and bounds edx from float y, dy. */
static inline void ref_softmax_backward_row(double *dx, double *edx, const float *y,
                                            const float *dy, int n, double T) {
  double D = 0, abs_D = 0;
  for (int j = 0; j < n; j++) {
    D += (double)y[j] * dy[j];
    abs_D += fabs((double)y[j] * dy[j]);
  }
  const double eD = (n + 1) * REF_U * abs_D + (n + 1) * 0x1p-149;
  for (int j = 0; j < n; j++) {
    if (!(y[j] > 0)) {
      dx[j] = 0, edx[j] = 0; /* blocked: exactly 0 */
      continue;
    }
    const double g = y[j] * (dy[j] - D);
    dx[j] = g / T;
    /* + 2^-149 / T: y_j (dy_j - D) may be subnormal before the division */
    edx[j] = (y[j] * eD + 3 * REF_U * fabs(g) + 0x1p-149) / T + REF_FLOOR;
  }
}

/* C (m x n, rows ldc apart) = op(A) op(B) (+= with accumulate), with bounds
 * E; op(A)(i, p) = ta ? A[p lda + i] : A[i lda + p], op(B)(p, j) = tb ?
 * B[j ldb + p] : B[p ldb + j]; eA, eB the inputs' bounds (same layout) or
 * NULL; `terms` the k of the (k + 1) u rounding term. */
static inline void ref_gemm(double *C, double *E, size_t ldc, int accumulate,
                            const double *A, const double *eA, size_t lda, int ta,
                            const double *B, const double *eB, size_t ldb, int tb,
                            int m, int k, int n, int terms) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double c = 0, abs_c = 0, prop = 0;
      for (int p = 0; p < k; p++) {
        const size_t ia = ta ? (size_t)p * lda + i : (size_t)i * lda + p;
        const size_t ib = tb ? (size_t)j * ldb + p : (size_t)p * ldb + j;
        c += A[ia] * B[ib];
        abs_c += fabs(A[ia] * B[ib]);
        if (eA) prop += eA[ia] * fabs(B[ib]);
        if (eB) prop += fabs(A[ia]) * eB[ib];
      }
      const double e = (terms + 1) * REF_U * abs_c + prop + (terms + 1) * 0x1p-149;
      double *cc = C + (size_t)i * ldc + j, *ee = E + (size_t)i * ldc + j;
      *cc = accumulate ? *cc + c : c;
      *ee = accumulate ? *ee + e : e + REF_FLOOR;
    }
}

/* Gradients of ref_attention's attention (args a, which may carry input
 * bounds) given dO (n_q x d_v, rows lddo apart, bounds edO or NULL), as
 * attn_attention_backward computes them: from the forward's weights
 * (fused = 0) or recomputing them from the log-sum-exp (fused = 1). dQ, edQ:
 * n_q x d_k (rows lddq apart); dK, edK: n_k x d_k (lddk); dV, edV: n_k x d_v
 * (lddv). */
static inline void ref_attention_backward(double *dQ, double *edQ, size_t lddq,
                                          double *dK, double *edK, size_t lddk,
                                          double *dV, double *edV, size_t lddv,
                                          const double *dO, const double *edO,
                                          size_t lddo, int fused,
                                          const ref_attn_args *a) {
  const int n_q = a->n_q, n_k = a->n_k, d_k = a->d_k, d_v = a->d_v;
  const size_t nq_nk = (size_t)n_q * n_k;
  double *w = ref_dbuf(nq_nk), *ew = ref_dbuf(nq_nk);
  double *O = ref_dbuf((size_t)n_q * d_v), *eO = ref_dbuf((size_t)n_q * d_v);
  ref_attention(O, eO, (size_t)d_v, w, ew, NULL, NULL, a);
  /* dS and its bound, and P's bound, as n_q x n_k */
  double *dS = ref_dbuf(nq_nk), *edS = ref_dbuf(nq_nk), *eP = ref_dbuf(nq_nk);
  double *s = ref_dbuf((size_t)n_k), *es = ref_dbuf((size_t)n_k);
  for (int i = 0; i < n_q; i++) {
    ref_score_row(s, es, i, a);
    double m = -INFINITY;
    for (int j = 0; j < n_k; j++) m = fmax(m, s[j]);
    double l = 0;
    for (int j = 0; j < n_k; j++) l += s[j] == -INFINITY ? 0 : exp(s[j] - m);
    const double lse = m + log(l);
    const double *dOi = dO + (size_t)i * lddo, *edOi = edO ? edO + (size_t)i * lddo : NULL;
    double D = 0, abs_D = 0, prop_D = 0;
    for (int c = 0; c < d_v; c++) {
      const double o = O[(size_t)i * d_v + c];
      D += dOi[c] * o;
      abs_D += fabs(dOi[c] * o);
      prop_D += fabs(dOi[c]) * eO[(size_t)i * d_v + c] + (edOi ? edOi[c] * fabs(o) : 0);
    }
    const double eD = (d_v + 1) * REF_U * abs_D + prop_D + (d_v + 1) * 0x1p-149;
    for (int j = 0; j < n_k; j++) {
      const size_t ij = (size_t)i * n_k + j;
      if (s[j] == -INFINITY) continue; /* blocked: dS = 0, bound 0 */
      const double *V = a->V + (size_t)j * a->ldv;
      double dP = 0, abs_dP = 0, prop_dP = 0;
      for (int c = 0; c < d_v; c++) {
        dP += dOi[c] * V[c];
        abs_dP += fabs(dOi[c] * V[c]);
        if (a->eV) prop_dP += fabs(dOi[c]) * a->eV[(size_t)j * a->ldv + c];
        if (edOi) prop_dP += edOi[c] * fabs(V[c]);
      }
      const double edP = (d_v + 1) * REF_U * abs_dP + prop_dP + (d_v + 1) * 0x1p-149;
      const double P = w[ij];
      eP[ij] = ew[ij];
      if (fused)
        eP[ij] += P * (es[j] + 2 * REF_U * fabs(s[j] - lse) + 3 * REF_U * fabs(lse) +
                       REF_E_EXP + 4 * REF_U);
      dS[ij] = a->scale * P * (dP - D);
      edS[ij] = a->scale * (eP[ij] * fabs(dP - D) + P * (edP + eD)) +
                (3 * REF_U + a->scale_err) * fabs(dS[ij]) + REF_FLOOR;
    }
  }
  /* dQ = dS K, dK = dS^T Q, dV = P^T dO */
  ref_gemm(dQ, edQ, lddq, 0, dS, edS, (size_t)n_k, 0, a->K, a->eK, a->ldk, 0, n_q,
           n_k, d_k, n_k);
  ref_gemm(dK, edK, lddk, 0, dS, edS, (size_t)n_k, 1, a->Q, a->eQ, a->ldq, 0, n_k,
           n_q, d_k, n_q);
  ref_gemm(dV, edV, lddv, 0, w, eP, (size_t)n_k, 1, dO, edO, lddo, 0, n_k, n_q,
           d_v, n_q);
  free(w), free(ew), free(O), free(eO), free(dS), free(edS), free(eP), free(s), free(es);
}

/* Gradients of ref_mha (attn_mha_backward): dXq (n_q x d) and, for cross
 * attention, dXkv (n_k x d; NULL: the key/value side is added into dXq),
 * dW[0..3] = dWq, dWk, dWv, dWo (d x d), db[0..3] (d), each with bounds e*. */
static inline void ref_mha_backward(double *dXq, double *edXq, double *dXkv,
                                    double *edXkv, double *dW[4], double *edW[4],
                                    double *db[4], double *edb[4], const float *Xq,
                                    const float *Xkv, const float *dY, int n_q,
                                    int n_k, int d, int heads, const attn_mha_params *P,
                                    const attn_masks *masks, int fused) {
  const int dh = d / heads;
  const size_t nq_d = (size_t)n_q * d, nk_d = (size_t)n_k * d, dd = (size_t)d * d;
  double *Xqd = ref_to_double(Xq, nq_d), *Xkvd = ref_to_double(Xkv, nk_d),
         *dYd = ref_to_double(dY, nq_d);
  const float *Wf[4] = {P->Wq, P->Wk, P->Wv, P->Wo};
  double *W[4];
  for (int t = 0; t < 4; t++) W[t] = ref_to_double(Wf[t], dd);
  double *Q = ref_dbuf(nq_d), *eQ = ref_dbuf(nq_d), *K = ref_dbuf(nk_d),
         *eK = ref_dbuf(nk_d), *V = ref_dbuf(nk_d), *eV = ref_dbuf(nk_d);
  ref_project(Q, eQ, Xqd, NULL, P->Wq, P->bq, n_q, d);
  ref_project(K, eK, Xkvd, NULL, P->Wk, P->bk, n_k, d);
  ref_project(V, eV, Xkvd, NULL, P->Wv, P->bv, n_k, d);
  double *Z = ref_dbuf(nq_d), *eZ = ref_dbuf(nq_d), *dZ = ref_dbuf(nq_d),
         *edZ = ref_dbuf(nq_d), *w = ref_dbuf((size_t)n_q * n_k),
         *ew = ref_dbuf((size_t)n_q * n_k);
  double *G[3], *eG[3]; /* dQ (n_q x d), dK, dV (n_k x d) */
  for (int t = 0; t < 3; t++) G[t] = ref_dbuf(t ? nk_d : nq_d), eG[t] = ref_dbuf(t ? nk_d : nq_d);
  ref_gemm(dZ, edZ, (size_t)d, 0, dYd, NULL, (size_t)d, 0, W[3], NULL, (size_t)d, 1,
           n_q, d, d, d); /* dZ = dY Wo^T */
  for (int h = 0; h < heads; h++) {
    const size_t col = (size_t)h * dh;
    const ref_attn_args a = {Q + col, K + col, V + col, eQ + col, eK + col, eV + col,
                             (size_t)d, (size_t)d, (size_t)d, n_q, n_k, dh, dh,
                             1.0 / sqrt((double)dh), 2 * REF_U, masks};
    ref_attention(Z + col, eZ + col, (size_t)d, w, ew, NULL, NULL, &a);
    ref_attention_backward(G[0] + col, eG[0] + col, (size_t)d, G[1] + col, eG[1] + col,
                           (size_t)d, G[2] + col, eG[2] + col, (size_t)d, dZ + col,
                           edZ + col, (size_t)d, fused, &a);
  }
  /* dWq = Xq^T dQ, dWk = Xkv^T dK, dWv = Xkv^T dV, dWo = Z^T dY */
  const double *X[4] = {Xqd, Xkvd, Xkvd, Z}, *eX[4] = {NULL, NULL, NULL, eZ};
  const double *dOut[4] = {G[0], G[1], G[2], dYd}, *edOut[4] = {eG[0], eG[1], eG[2], NULL};
  const int rows[4] = {n_q, n_k, n_k, n_q};
  for (int t = 0; t < 4; t++) {
    ref_gemm(dW[t], edW[t], (size_t)d, 0, X[t], eX[t], (size_t)d, 1, dOut[t], edOut[t],
             (size_t)d, 0, d, rows[t], d, rows[t]);
    for (int c = 0; c < d; c++) {
      double sum = 0, abs_sum = 0, prop = 0;
      for (int i = 0; i < rows[t]; i++) {
        sum += dOut[t][(size_t)i * d + c];
        abs_sum += fabs(dOut[t][(size_t)i * d + c]);
        if (edOut[t]) prop += edOut[t][(size_t)i * d + c];
      }
      db[t][c] = sum;
      edb[t][c] = (rows[t] + 1) * REF_U * abs_sum + prop + REF_FLOOR;
    }
  }
  /* dXq = dQ Wq^T (+ dK Wk^T + dV Wv^T for self-attention into dXq) */
  const int self = dXkv == NULL, terms = self ? 3 * d : d;
  ref_gemm(dXq, edXq, (size_t)d, 0, G[0], eG[0], (size_t)d, 0, W[0], NULL, (size_t)d, 1,
           n_q, d, d, terms);
  double *dX2 = self ? dXq : dXkv, *edX2 = self ? edXq : edXkv;
  ref_gemm(dX2, edX2, (size_t)d, self, G[1], eG[1], (size_t)d, 0, W[1], NULL, (size_t)d,
           1, n_k, d, d, self ? terms : 2 * d);
  ref_gemm(dX2, edX2, (size_t)d, 1, G[2], eG[2], (size_t)d, 0, W[2], NULL, (size_t)d, 1,
           n_k, d, d, self ? terms : 2 * d);
  free(Xqd), free(Xkvd), free(dYd), free(Q), free(eQ), free(K), free(eK), free(V), free(eV);
  free(Z), free(eZ), free(dZ), free(edZ), free(w), free(ew);
  for (int t = 0; t < 4; t++) free(W[t]);
  for (int t = 0; t < 3; t++) free(G[t]), free(eG[t]);
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
