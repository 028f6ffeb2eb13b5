/* linear.c: Performer's linear attention (FAVOR+, Choromanski et al. 2021)
 * and the orthogonal random features it needs.
 *
 * softmax(s Q K^T) V has weights exp(s q.k) / sum_k exp(s q.k). Positive
 * random features phi with E[phi(q) . phi(k)] = exp(s q.k) (attention.h
 * states the estimator) turn the n_q x n_k products into two passes over the
 * keys' features: out_i = phi(q_i)^T S / phi(q_i)^T z with S = sum_j
 * phi(k_j) v_j^T (m x d_v) and z = sum_j phi(k_j) (m). The causal form keeps
 * S and z as prefix sums, chunk by chunk, with the chunk's own keys added
 * through a small masked product, so memory stays a few chunks whatever N.
 *
 * Stabiliser: each feature r keeps M_r, the largest exponent of its keys so
 * far, and S, z hold exp(exponent - M_r); a query's feature r is exp(w_r.q'
 * + M_r - shift), shift the row's largest. Then every feature is <= 1, each
 * product is the right one, and without causal a query's sum phi(q)^T z is
 * >= 1 (its largest feature meets a key at that feature's maximum).
 *
 * Layout: key features are computed transposed, F (m x keys of a chunk), so
 * that S += F V_chunk and the causal chunk product PQ F are plain GEMMs. A
 * key row goes into the product as [sqrt(s) k, -|sqrt(s) k|^2/2] against
 * feature rows [w, 1], a query row as [sqrt(s) q, 1] against [w, M]: the
 * GEMMs give whole exponents. Every other step is a call to the softmax's
 * vectorised helpers or a GEMM, which keeps this file small in the .wasm.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "internal.h"

/* Every loop of this file is off the hot path (the GEMMs and the exps are
 * gemm.c's and softmax.c's), so all of it is compiled for size: SMALL. */
#define SMALL ATTN_SMALL ATTN_NOINLINE

enum { CH = 64 }; /* queries and keys per chunk */

/* ---- random features ---------------------------------------------------- */

/* Uniform in (-1, 1), 53 bits of splitmix64 (the same in every build). */
SMALL static double uniform_pm1(uint64_t *state) {
  return (double)(attn__splitmix64(state) >> 11) * 0x1p-52 - 1.0;
}

/* ln(x) for 0 < x < 1 from +, -, *, / alone (no libm, whose last bits differ
 * between the wasm and native C libraries): x = f 2^-e with f in
 * [sqrt(1/2), sqrt(2)), ln f = 2 atanh(t), t = (f - 1)/(f + 1), |t| < 0.172;
 * the odd series to t^39 is exact to double rounding. */
SMALL static double ln_unit(double x) {
  int e = 0;
  while (x < 0.70710678118654752) x *= 2.0, e++;
  const double t = (x - 1.0) / (x + 1.0), t2 = t * t;
  double sum = 0.0; /* Horner from t^25: later terms are below 2^-64 */
  for (int k = 25; k >= 1; k -= 2) sum = sum * t2 + 1.0 / k;
  return 2.0 * t * sum - e * 0.69314718055994531;
}

/* Two independent standard normal numbers (Marsaglia's polar method: only
 * ln and sqrt, both exactly reproducible here). */
SMALL static void gaussian_pair(uint64_t *state, double *a, double *b) {
  double u, v, s;
  do {
    u = uniform_pm1(state), v = uniform_pm1(state);
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double f = sqrt(-2.0 * ln_unit(s) / s);
  *a = u * f, *b = v * f;
}

/* x (n) filled with standard normal numbers. */
SMALL static void gaussian_row(float *x, int n, uint64_t *state) {
  for (int c = 0; c < n; c += 2) {
    double a, b;
    gaussian_pair(state, &a, &b);
    x[c] = (float)a;
    if (c + 1 < n) x[c + 1] = (float)b;
  }
}

/* sum of x_c y_c in double, in index order (the same in every build). */
SMALL static double dot64(const float *x, const float *y, int n) {
  double s = 0.0;
  for (int c = 0; c < n; c++) s += (double)x[c] * y[c];
  return s;
}

SMALL int attn_random_features(float *omega, int m, int d, uint32_t seed) {
  if (!omega) return ATTN_E_NULL;
  const int dims[1][2] = {{m, d}};
  const int status = attn__check_matrices(1, dims);
  if (status != ATTN_OK) return status;
  uint64_t state = seed;
  /* Blocks of d rows: Gaussian rows made orthonormal to the block's earlier
   * rows (Gram-Schmidt, dot products in double), each then given
   * the length of an independent Gaussian vector, so every row on its own
   * is still N(0, I_d). A row that projection leaves at length 0 (never seen
   * in practice) is drawn again. */
  for (int r0 = 0; r0 < m; r0 += d) {
    const int rows = m - r0 < d ? m - r0 : d;
    float *block = omega + (size_t)r0 * d;
    for (int r = 0; r < rows; r++) {
      float *w = block + (size_t)r * d;
      double norm2;
      do {
        gaussian_row(w, d, &state);
        /* Twice: the second pass removes what float rounding of the first
         * left (cosines ~1e-5 after one pass, ~1e-7 after two). */
        for (int pass = 0; pass < 2; pass++)
          for (int p = 0; p < r; p++) {
            const float *q = block + (size_t)p * d;
            const double proj = dot64(w, q, d);
            for (int c = 0; c < d; c++) w[c] = (float)((double)w[c] - proj * q[c]);
          }
        norm2 = dot64(w, w, d);
      } while (!(norm2 > 0.0));
      const double inv = 1.0 / sqrt(norm2);
      for (int c = 0; c < d; c++) w[c] = (float)(w[c] * inv);
    }
    /* Lengths last: the projections above need unit rows. The Gaussian
     * vector is drawn in d steps of two, in a row of the block's scratch
     * that is overwritten at once (the next row, or this row's length). */
    for (int r = 0; r < rows; r++) {
      double len2 = 0.0;
      for (int c = 0; c < d; c += 2) {
        double a, b;
        gaussian_pair(&state, &a, &b);
        len2 += a * a + (c + 1 < d ? b * b : 0.0);
      }
      const double len = sqrt(len2);
      float *w = block + (size_t)r * d;
      for (int c = 0; c < d; c++) w[c] = (float)(w[c] * len);
    }
  }
  return ATTN_OK;
}

/* ---- the estimator ------------------------------------------------------- */

typedef struct {
  float *W;    /* (m x d1) rows [w_r, 1]: key exponents; d1 = d_k + 1 */
  float *Wp;   /* (m x d1) rows [w_r, M_r]: M_r over the keys in S */
  float *Wc;   /* (m x d1) rows [w_r, Mc_r]: Mc_r over one chunk's keys */
  float *X;    /* (CH x d1) a chunk's keys [k', -|k'|^2/2] or queries [q', 1] */
  float *S;    /* (m x d_v) sum of phi(k_j) v_j^T over the keys so far */
  float *z;    /* (m) sum of phi(k_j) */
  float *zc;   /* (m) the same over one chunk's keys */
  float *F;    /* (m x CH) a chunk's key features, transposed */
  float *P;    /* (CH x m) a chunk's query features against S (M_r) */
  float *Pc;   /* (CH x m) causal: the same against the chunk's keys (Mc_r) */
  float *A;    /* (CH x CH) causal: Pc F, inside the chunk */
  float *den;  /* (CH) each query's sum */
  float *ones; /* (CH) 1s: row sums as products */
} lin_scratch;

/* Floats of each region, rounded up to 4 (16-byte aligned regions). */
static uint64_t up4(uint64_t n) { return (n + 3) & ~(uint64_t)3; }

SMALL static uint64_t lin_workspace_floats(int d_k, int d_v, int m) {
  const uint64_t M = (uint64_t)m, d1 = (uint64_t)d_k + 1;
  return 3 * up4(M * d1) + up4(CH * d1) + up4(M * d_v) + 2 * up4(M) + 3 * up4(M * CH) +
         up4((uint64_t)CH * CH) + 2 * up4(CH);
}

SMALL static lin_scratch lin_carve(float *ws, int d_k, int d_v, int m) {
  const uint64_t M = (uint64_t)m, d1 = (uint64_t)d_k + 1;
  lin_scratch w;
  w.W = ws;
  w.Wp = w.W + up4(M * d1);
  w.Wc = w.Wp + up4(M * d1);
  w.X = w.Wc + up4(M * d1);
  w.S = w.X + up4(CH * d1);
  w.z = w.S + up4(M * d_v);
  w.zc = w.z + up4(M);
  w.F = w.zc + up4(M);
  w.P = w.F + up4(M * CH);
  w.Pc = w.P + up4(M * CH);
  w.A = w.Pc + up4(M * CH);
  w.den = w.A + up4((uint64_t)CH * CH);
  w.ones = w.den + up4(CH);
  return w;
}

/* Row r's stabiliser, the last column of [w_r, M_r]. */
static float *max_of(float *Wx, int r, int d_k) { return Wx + (size_t)r * (d_k + 1) + d_k; }

/* Features of the bc keys at K into F (m x bc), each row against its own
 * largest exponent Mc_r (kept in Wc): F[r][j] = exp(w_r.k'_j - |k'_j|^2/2 -
 * Mc_r) <= 1; zc their row sums. A row whose exponents are all -inf (norms
 * that overflowed) is 0. */
SMALL static void chunk_keys(const lin_scratch *w, const float *K, int bc, int d_k, int m,
                             float root) {
  const int d1 = d_k + 1;
  for (int j = 0; j < bc; j++) {
    float *x = w->X + (size_t)j * d1, h = 0.0f;
    for (int c = 0; c < d_k; c++) x[c] = root * K[(size_t)j * d_k + c], h += x[c] * x[c];
    x[d_k] = -0.5f * h;
  }
  attn__gemm(w->F, (size_t)bc, w->W, (size_t)d1, w->X, (size_t)d1, m, d1, bc, 1, 0);
  for (int r = 0; r < m; r++) {
    float *f = w->F + (size_t)r * bc;
    const float mc = attn__score_max(f, bc); /* +inf -> FLT_MAX */
    *max_of(w->Wc, r, d_k) = mc == -INFINITY ? -FLT_MAX : mc;
    w->zc[r] = mc == -INFINITY ? 0.0f : attn__exp2_shifted(f, bc, mc, ATTN_LOG2E);
  }
}

/* S += F V and z += zc for the chunk's keys (values V), first bringing both
 * to M_r = max(M_r, Mc_r) (the fused softmax's rescaling, per feature). */
SMALL static void merge_keys(const lin_scratch *w, const float *V, int bc, int d_k, int d_v,
                             int m) {
  for (int r = 0; r < m; r++) {
    float *M = max_of(w->Wp, r, d_k);
    const float mc = *max_of(w->Wc, r, d_k), top = mc > *M ? mc : *M;
    if (*M < top) { /* S's row moves down (nothing there at -FLT_MAX) */
      const float alpha = attn__expf(*M - top);
      attn__scale_row(w->S + (size_t)r * d_v, d_v, alpha);
      w->z[r] *= alpha;
    } else if (mc < top) { /* the chunk's row moves down */
      const float beta = attn__expf(mc - top);
      attn__scale_row(w->F + (size_t)r * bc, bc, beta);
      w->zc[r] *= beta;
    }
    *M = top;
    w->z[r] += w->zc[r];
  }
  attn__gemm(w->S, (size_t)d_v, w->F, (size_t)bc, V, (size_t)d_v, m, bc, d_v, 0, 1);
}

/* Query features of the bq queries at Q: P against S (w_r.q' + M_r) and,
 * with Wc, Pc against the chunk's keys (w_r.q' + Mc_r), each row minus the
 * largest of both, exponentiated. The row's own constant (that largest,
 * |q'|^2/2, 1/sqrt(m)) cancels between numerator and denominator. */
SMALL static void query_features(const lin_scratch *w, const float *Q, int bq, int d_k, int m,
                                 float root, int with_chunk) {
  const int d1 = d_k + 1;
  for (int i = 0; i < bq; i++) {
    float *x = w->X + (size_t)i * d1;
    for (int c = 0; c < d_k; c++) x[c] = root * Q[(size_t)i * d_k + c];
    x[d_k] = 1.0f;
  }
  attn__gemm(w->P, (size_t)m, w->X, (size_t)d1, w->Wp, (size_t)d1, bq, d1, m, 1, 0);
  if (with_chunk) attn__gemm(w->Pc, (size_t)m, w->X, (size_t)d1, w->Wc, (size_t)d1, bq, d1, m, 1, 0);
  for (int i = 0; i < bq; i++) {
    float *p = w->P + (size_t)i * m, *pc = w->Pc + (size_t)i * m;
    float top = attn__score_max(p, m);
    if (with_chunk) {
      const float t = attn__score_max(pc, m);
      top = t > top ? t : top;
    }
    if (top == -INFINITY) top = 0.0f; /* every feature -inf: all become 0 */
    attn__exp2_shifted(p, m, top, ATTN_LOG2E);
    if (with_chunk) attn__exp2_shifted(pc, m, top, ATTN_LOG2E);
  }
}

/* Rows r0 .. r1-1 of a query chunk: out = P S, den = P z (the keys before
 * the chunk, or all of them without causal), then with the chunk's own bc
 * keys (causal) out += tril(Pc F) V and den += its row sums: query i of the
 * chunk sees the chunk's keys 0 .. i. */
SMALL static void chunk_rows(const lin_scratch *w, float *o, const float *Vc, int r0, int r1,
                             int bc, int d_v, int m) {
  const int rows = r1 - r0;
  float *out = o + (size_t)r0 * d_v, *den = w->den + r0;
  const float *p = w->P + (size_t)r0 * m;
  attn__gemm(out, (size_t)d_v, p, (size_t)m, w->S, (size_t)d_v, rows, m, d_v, 0, 0);
  attn__gemm(den, 1, p, (size_t)m, w->z, 1, rows, m, 1, 0, 0);
  if (!bc) return;
  float *A = w->A + (size_t)r0 * bc;
  attn__gemm(A, (size_t)bc, w->Pc + (size_t)r0 * m, (size_t)m, w->F, (size_t)bc, rows, m, bc, 0, 0);
  for (int i = r0; i < r1 && i + 1 < bc; i++)
    memset(w->A + (size_t)i * bc + i + 1, 0, sizeof(float) * (size_t)(bc - i - 1));
  attn__gemm(out, (size_t)d_v, A, (size_t)bc, Vc, (size_t)d_v, rows, bc, d_v, 0, 1);
  attn__gemm(den, 1, A, (size_t)bc, w->ones, 1, rows, bc, 1, 0, 1);
}

/* Q, K, V, out and omega as matrices, and the workspace; then m * d_v,
 * m * CH and m * (d_k + 1) floats are indexed with int. */
SMALL static int check_sizes(int n_q, int n_k, int d_k, int d_v, int m) {
  const int dims[5][2] = {{n_q, d_k}, {n_k, d_k}, {n_k, d_v}, {n_q, d_v}, {m, d_k}};
  const int status = attn__check_matrices(5, dims);
  if (status != ATTN_OK) return status;
  if (!attn__fits(lin_workspace_floats(d_k, d_v, m), 4)) return ATTN_E_SIZE;
  const int64_t d1 = (int64_t)d_k + 1, wide = d1 > d_v ? (d1 > CH ? d1 : CH) : (d_v > CH ? d_v : CH);
  if ((uint64_t)m * (uint64_t)wide > INT32_MAX) return ATTN_E_SIZE;
  return ATTN_OK;
}

SMALL size_t attn_linear_attention_workspace_size(int n_q, int n_k, int d_k, int d_v, int m) {
  if (check_sizes(n_q, n_k, d_k, d_v, m) != ATTN_OK) return 0;
  return sizeof(float) * lin_workspace_floats(d_k, d_v, m);
}

SMALL int attn_linear_attention(float *out, const float *Q, const float *K, const float *V,
                                const float *omega, int n_q, int n_k, int d_k, int d_v, int m,
                                float scale, int causal, void *workspace) {
  if (!out || !Q || !K || !V || !omega) return ATTN_E_NULL;
  int status = check_sizes(n_q, n_k, d_k, d_v, m);
  if (status == ATTN_OK) status = attn__check_scale(scale);
  if (status != ATTN_OK) return status;
  if (causal != 0 && causal != 1) return ATTN_E_MASK;
  if (!workspace) return ATTN_E_WORKSPACE;
  const lin_scratch w = lin_carve(workspace, d_k, d_v, m);
  /* sqrt(s) on both sides: phi(sqrt(s) q) . phi(sqrt(s) k) estimates
   * exp(s q.k); it goes into the keys and queries as they are copied. */
  const float root = sqrtf(scale);
  for (int r = 0; r < m; r++) {
    float *Wx[3] = {w.W, w.Wp, w.Wc};
    for (int x = 0; x < 3; x++)
      memcpy(Wx[x] + (size_t)r * (d_k + 1), omega + (size_t)r * d_k, sizeof(float) * d_k);
    *max_of(w.W, r, d_k) = 1.0f;
    *max_of(w.Wp, r, d_k) = -FLT_MAX; /* no key yet */
  }
  memset(w.S, 0, sizeof(float) * m * d_v);
  memset(w.z, 0, sizeof(float) * m);
  for (int c = 0; c < CH; c++) w.ones[c] = 1.0f;
  for (int j0 = 0; j0 < n_k && !causal; j0 += CH) {
    const int bc = n_k - j0 < CH ? n_k - j0 : CH;
    chunk_keys(&w, K + (size_t)j0 * d_k, bc, d_k, m, root);
    merge_keys(&w, V + (size_t)j0 * d_v, bc, d_k, d_v, m);
  }
  for (int i0 = 0; i0 < n_q; i0 += CH) {
    const int bq = n_q - i0 < CH ? n_q - i0 : CH;
    float *o = out + (size_t)i0 * d_v;
    const float *Vc = V + (size_t)i0 * d_v;
    /* causal: the keys of this chunk, at the queries' positions (none past n_k) */
    const int bc = !causal || i0 >= n_k ? 0 : (n_k - i0 < bq ? n_k - i0 : bq);
    if (bc) chunk_keys(&w, K + (size_t)i0 * d_k, bc, d_k, m, root);
    query_features(&w, Q + (size_t)i0 * d_k, bq, d_k, m, root, bc > 0);
    chunk_rows(&w, o, Vc, 0, bq, bc, d_v, m);
    /* A causal query's sum can be tiny: its best features may meet only
     * keys after it in the chunk. Below 2^-60 its products near float's
     * underflow have lost their digits: scale its features by 2^60 (a
     * factor the ratio cancels; at most twice, so they stay below 2^120)
     * and redo its row. */
    for (int i = 0; i < bq; i++)
      for (int lift = 0; lift < 2 && w.den[i] < 0x1p-60f; lift++) {
        attn__scale_row(w.P + (size_t)i * m, m, 0x1p60f);
        if (bc) attn__scale_row(w.Pc + (size_t)i * m, m, 0x1p60f);
        chunk_rows(&w, o, Vc, i, i + 1, bc, d_v, m);
      }
    if (bc) merge_keys(&w, Vc, bc, d_k, d_v, m);
    /* out / den, divided (1/den overflows for a den still tiny where out/den
     * does not); a row whose den is still 0 (no overlap within float's
     * range) becomes 0 */
    for (int i = 0; i < bq; i++)
      for (int c = 0; c < d_v; c++) {
        float *x = o + (size_t)i * d_v + c;
        *x = w.den[i] > 0.0f ? *x / w.den[i] : 0.0f;
      }
  }
  return ATTN_OK;
}
