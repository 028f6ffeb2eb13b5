/* fuzz_linear_attention.c: libFuzzer harness for attn_random_features,
 * attn_linear_attention and attn_linear_attention_workspace_size, causal or
 * not, on the SIMD and the scalar path.
 *
 * Input layout (bytes; see fuzz_common.h for how each is decoded):
 *   [0] flags: bits 0-2 which pointer is NULL (1 out, 2 Q, 3 K, 4 V,
 *       5 omega, else none), bit 3 workspace NULL, bit 4 causal, bit 5
 *       extreme data (+-FLT_MAX, +-1e30, inf, NaN), bit 6 features from the
 *       bytes instead of attn_random_features, bit 7 causal 2 (malformed:
 *       ATTN_E_MASK)
 *   [1..5] n_q, n_k, d_k, d_v, m    [6] scale    [7..8] seed (16 bits)
 *   then Q, K, V (and the features with bit 6)
 * Checks: the status; inputs untouched; no malloc; the same features for
 * the same seed; with finite, moderate inputs: finite outputs, each a convex
 * combination of the values its query sees, and, where exponents stay within
 * float range, the float64 quadratic form (ref_linear_attention) within 4x
 * its error bound.
 * Build: clang -fsanitize=fuzzer,address,undefined -Isrc
 *        tests/fuzz/fuzz_linear_attention.c <every src .c file>
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 1 when every |sqrt(s) x|^2 and |w . sqrt(s) x| of the rows stays below
 * 1e37: the documented range where finite inputs give finite outputs. */
static int moderate(const float *X, int n, int d, const float *W, int m, double root) {
  for (int i = 0; i < n; i++) {
    double h = 0;
    for (int c = 0; c < d; c++) h += pow(root * X[(size_t)i * d + c], 2);
    if (!(h < 1e37)) return 0;
    for (int r = 0; r < m; r++) {
      double a = 0;
      for (int c = 0; c < d; c++) a += fabs((double)W[(size_t)r * d + c] * root * X[(size_t)i * d + c]);
      if (!(a < 1e37)) return 0;
    }
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_t f = fz_init(data, size);
  const uint8_t flags = fz_u8(&f);
  const int n_q = fz_size(&f), n_k = fz_size(&f), d_k = fz_size(&f), d_v = fz_size(&f),
            m = fz_size(&f);
  const float scale = fz_scale(&f, d_k);
  const uint32_t seed = (uint32_t)fz_u8(&f) << 8 | fz_u8(&f);
  /* bit 7: causal 2, a flag that is neither 0 nor 1 */
  const int null = flags & 7, ws_null = flags & 8, causal = (flags & 128) ? 2 : (flags >> 4) & 1,
            extreme = (flags & 32) != 0, given = (flags & 64) != 0;

  fz_expect e = {0};
  if (null >= 1 && null <= 5) fz_may(&e, ATTN_E_NULL);
  if (causal > 1) fz_may(&e, ATTN_E_MASK);
  if (!fz_scale_ok(scale)) fz_may(&e, ATTN_E_TEMP);
  const int sizes[5] = {n_q, n_k, d_k, d_v, m};
  const double largest = fmax(fmax(fz_bytes(n_q, d_k, 1), fz_bytes(n_k, d_k, 1)),
                              fmax(fmax(fz_bytes(n_k, d_v, 1), fz_bytes(n_q, d_v, 1)),
                                   fz_bytes(m, d_k, 1)));
  const int cls = fz_classify_sizes(&e, sizes, 5, largest);
  if (cls < 0) return 0;
  if (cls == 1) { /* rejected sizes: small dummies everywhere, nothing touched */
    FZ_CHECK(attn_linear_attention_workspace_size(n_q, n_k, d_k, d_v, m) == 0,
             "workspace size for rejected sizes is not 0");
    static _Alignas(16) unsigned char ws[64];
    for (int simd = 1; simd >= 0; simd--) {
      attn__set_simd(simd);
      int st;
      FZ_CALL(st, attn_linear_attention(null == 1 ? NULL : fz_dummy[0], null == 2 ? NULL : fz_dummy[1],
                                        null == 3 ? NULL : fz_dummy[2], null == 4 ? NULL : fz_dummy[2],
                                        null == 5 ? NULL : fz_dummy[3], n_q, n_k, d_k, d_v, m,
                                        scale, causal, ws));
      fz_check_status(&e, st, "attn_linear_attention");
    }
    attn__set_simd(1);
    if (m <= 0 || d_k <= 0) {
      int st;
      FZ_CALL(st, attn_random_features(fz_dummy[0], m, d_k, seed));
      FZ_CHECK(st == ATTN_E_SIZE, "attn_random_features(m=%d, d=%d) returned %d", m, d_k, st);
    }
    return 0;
  }
  if ((double)(n_q + n_k) * m * (d_k + d_v + 64) > 4e6 || (double)m * d_k * d_k > 4e6) return 0;

  const size_t nq_dk = (size_t)n_q * d_k, nk_dk = (size_t)n_k * d_k, nk_dv = (size_t)n_k * d_v,
               nq_dv = (size_t)n_q * d_v, m_dk = (size_t)m * d_k;
  float *Q = fz_floats(nq_dk), *K = fz_floats(nk_dk), *V = fz_floats(nk_dv), *W = fz_floats(m_dk);
  fz_fill(&f, Q, nq_dk, extreme), fz_fill(&f, K, nk_dk, extreme), fz_fill(&f, V, nk_dv, extreme);
  if (given) {
    fz_fill(&f, W, m_dk, extreme);
  } else {
    float *W2 = fz_floats(m_dk);
    int st;
    FZ_CALL(st, attn_random_features(W, m, d_k, seed));
    FZ_CHECK(st == ATTN_OK, "attn_random_features(%d, %d) returned %d", m, d_k, st);
    FZ_CALL(st, attn_random_features(W2, m, d_k, seed));
    FZ_CHECK(!memcmp(W, W2, m_dk * 4), "attn_random_features: two draws for seed %u differ", seed);
    fz_check_finite("features", W, m_dk);
    free(W2);
  }
  float *Q0 = fz_floats(nq_dk), *K0 = fz_floats(nk_dk), *V0 = fz_floats(nk_dv), *W0 = fz_floats(m_dk);
  memcpy(Q0, Q, nq_dk * 4), memcpy(K0, K, nk_dk * 4), memcpy(V0, V, nk_dv * 4), memcpy(W0, W, m_dk * 4);

  const size_t ws_bytes = attn_linear_attention_workspace_size(n_q, n_k, d_k, d_v, m);
  FZ_CHECK(ws_bytes > 0, "workspace size 0 for valid sizes");
  if (ws_null) fz_may(&e, ATTN_E_WORKSPACE);
  void *ws = ws_null ? NULL : fz_workspace(ws_bytes);
  float *out = fz_floats(nq_dv);

  const double root = sqrt((double)scale);
  const int sane = !e.set && fz_all_finite(Q, nq_dk) && fz_all_finite(K, nk_dk) &&
                   fz_all_finite(V, nk_dv) && fz_all_finite(W, m_dk) &&
                   (double)n_k * fz_max_abs(V, nk_dv) < 1e37 && moderate(Q, n_q, d_k, W, m, root) &&
                   moderate(K, n_k, d_k, W, m, root);
  double *want = NULL, *err = NULL, spread = INFINITY;
  if (sane) {
    want = calloc(nq_dv, 8), err = calloc(nq_dv, 8);
    if (!want || !err) abort();
    spread = ref_linear_attention(want, err, Q, K, V, W, n_q, n_k, d_k, d_v, m, scale, causal);
  }

  for (int simd = 1; simd >= 0; simd--) {
    attn__set_simd(simd);
    fz_poison(out, nq_dv);
    int st;
    FZ_CALL(st, attn_linear_attention(null == 1 ? NULL : out, null == 2 ? NULL : Q,
                                      null == 3 ? NULL : K, null == 4 ? NULL : V,
                                      null == 5 ? NULL : W, n_q, n_k, d_k, d_v, m, scale,
                                      causal, ws));
    fz_check_status(&e, st, "attn_linear_attention");
    FZ_CHECK(!memcmp(Q, Q0, nq_dk * 4) && !memcmp(K, K0, nk_dk * 4) &&
                 !memcmp(V, V0, nk_dv * 4) && !memcmp(W, W0, m_dk * 4),
             "attn_linear_attention modified an input");
    if (st != ATTN_OK || !sane) continue;
    fz_check_finite("out", out, nq_dv);
    for (int i = 0; i < n_q; i++) /* convex combinations of the visible values */
      for (int c = 0; c < d_v; c++) {
        double lo = INFINITY, hi = -INFINITY, mag = 0;
        for (int j = 0; j < (causal && i + 1 < n_k ? i + 1 : n_k); j++) {
          const double v = V[(size_t)j * d_v + c];
          lo = fmin(lo, v), hi = fmax(hi, v), mag = fmax(mag, fabs(v));
        }
        const double o = out[(size_t)i * d_v + c],
                     slack = 4 * (m + n_k + 8) * REF_U * mag + REF_FLOOR; /* subnormal V */
        FZ_CHECK(o == 0 || (o >= lo - slack && o <= hi + slack),
                 "out[%d][%d] = %g outside the visible values [%g, %g]", i, c, o, lo, hi);
      }
    if (spread < 60) fz_compare("out", out, want, err, nq_dv);
  }
  attn__set_simd(1);
  free(Q), free(K), free(V), free(W), free(Q0), free(K0), free(V0), free(W0);
  free(ws), free(out), free(want), free(err);
  return 0;
}
