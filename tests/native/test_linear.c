/* test_linear.c: src/linear.c: Performer's random features and linear
 * attention. */
#include "harness.h"

/* ==== attn_random_features, attn_linear_attention ======================== */

/* attn_random_features(m = 5, d = 3, seed = 1) in every build (the JS tests,
 * tests/linear.test.js, check the same numbers in both wasm builds). */
static const float FEATURES_5x3_SEED_1[15] = {
    0x1.81aa68p-1f, 0x1.6405aap+1f, 0x1.99ea5ap-1f, -0x1.ece52ap-1f, 0x1.d6d79p-6f,
    0x1.9c9e82p-1f, -0x1.41959p-1f, 0x1.8f6e22p-2f, -0x1.87455ap-1f, 0x1.a2da12p-4f,
    0x1.689422p+0f, 0x1.54c40cp+0f, -0x1.721f6ap+0f, 0x1.f28c48p-3f, -0x1.2c1112p-3f};

static void linear_case(rng_t *r, int n_q, int n_k, int d_k, int d_v, int m, int causal,
                        float k_scale) {
  begin("attn_linear_attention n_q=%d n_k=%d d_k=%d d_v=%d m=%d causal=%d |K|=%g", n_q, n_k,
        d_k, d_v, m, causal, (double)k_scale);
  const size_t nq_dk = (size_t)n_q * d_k, nk_dk = (size_t)n_k * d_k, nk_dv = (size_t)n_k * d_v,
               nq_dv = (size_t)n_q * d_v, m_dk = (size_t)m * d_k;
  float *Q = fbuf(nq_dk), *K = fbuf(nk_dk), *V = fbuf(nk_dv), *W = fbuf(m_dk), *out = fbuf(nq_dv);
  fill(r, Q, nq_dk, 1), fill(r, K, nk_dk, k_scale), fill(r, V, nk_dv, 1), poison(out, nq_dv);
  expect_status(attn_random_features(W, m, d_k, (uint32_t)rng_next(r)), ATTN_OK, "attn_random_features");
  float *Q0 = clone_bytes(Q, nq_dk * 4), *K0 = clone_bytes(K, nk_dk * 4),
        *V0 = clone_bytes(V, nk_dv * 4), *W0 = clone_bytes(W, m_dk * 4);
  const float scale = 1.0f / sqrtf((float)d_k);
  void *ws = wsbuf(attn_linear_attention_workspace_size(n_q, n_k, d_k, d_v, m));
  expect_status(attn_linear_attention(out, Q, K, V, W, n_q, n_k, d_k, d_v, m, scale, causal, ws),
                ATTN_OK, "attn_linear_attention");
  check_finite("out", out, nq_dv);
  double *want = dbuf(nq_dv), *err = dbuf(nq_dv);
  const double spread = ref_linear_attention(want, err, Q, K, V, W, n_q, n_k, d_k, d_v, m, scale, causal);
  CHECK(spread < 60, "test inputs too spread out to compare (%g)", spread);
  compare("out", out, want, err, nq_dv, (size_t)d_v, 0);
  /* each output is a convex combination of the values its query sees */
  for (int i = 0; i < n_q; i++)
    for (int c = 0; c < d_v; c++) {
      double lo = INFINITY, hi = -INFINITY;
      for (int j = 0; j < (causal && i + 1 < n_k ? i + 1 : n_k); j++)
        lo = fmin(lo, V[(size_t)j * d_v + c]), hi = fmax(hi, V[(size_t)j * d_v + c]);
      const double o = out[(size_t)i * d_v + c], slack = 2 * (m + n_k + 8) * REF_U;
      CHECK(o >= lo - slack && o <= hi + slack, "out[%d][%d] = %g outside [%g, %g]", i, c, o, lo, hi);
    }
  check_unchanged("Q", Q, Q0, nq_dk * 4), check_unchanged("K", K, K0, nk_dk * 4);
  check_unchanged("V", V, V0, nk_dv * 4), check_unchanged("features", W, W0, m_dk * 4);
  free(Q), free(K), free(V), free(W), free(out), free(Q0), free(K0), free(V0), free(W0);
  free(ws), free(want), free(err);
  end();
}

static void test_linear(void) {
  begin("attn_random_features: the documented bits for seed 1; orthogonal blocks");
  {
    float W[15];
    expect_status(attn_random_features(W, 5, 3, 1), ATTN_OK, "attn_random_features");
    for (int i = 0; i < 15; i++)
      CHECK(W[i] == FEATURES_5x3_SEED_1[i], "W[%d] = %a, want %a", i, (double)W[i],
            (double)FEATURES_5x3_SEED_1[i]);
    const int m = 70, d = 16;
    float *A = fbuf((size_t)m * d);
    expect_status(attn_random_features(A, m, d, 77), ATTN_OK, "attn_random_features");
    for (int a = 0; a < m; a++)
      for (int b = a / d * d; b < a; b++) {
        double ab = 0, aa = 0, bb = 0;
        for (int c = 0; c < d; c++) {
          const double x = A[(size_t)a * d + c], y = A[(size_t)b * d + c];
          ab += x * y, aa += x * x, bb += y * y;
        }
        CHECK(fabs(ab) <= 1e-6 * sqrt(aa * bb), "rows %d and %d: cosine %g", a, b, ab / sqrt(aa * bb));
      }
    free(A);
  }
  end();

  rng_t r = rng_for("linear");
  const int sizes[][5] = {{1, 1, 1, 1, 1},   {3, 5, 4, 2, 3},    {4, 4, 4, 4, 4},
                          {5, 9, 3, 7, 17},  {63, 63, 8, 8, 64}, {64, 64, 8, 5, 65},
                          {65, 65, 16, 16, 32}, {129, 40, 8, 3, 16}, {40, 129, 8, 3, 16},
                          {300, 300, 4, 4, 130}, {700, 700, 16, 8, 32}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    for (int causal = 0; causal < 2; causal++)
      linear_case(&r, sizes[i][0], sizes[i][1], sizes[i][2], sizes[i][3], sizes[i][4], causal, 1.0f);
  /* keys from 1 to 3 in size: exponents tens apart, the running max rises */
  linear_case(&r, 200, 500, 8, 4, 32, 0, 3.0f);
  linear_case(&r, 500, 500, 8, 4, 32, 1, 3.0f);

  begin("attn_linear_attention_workspace_size: grows with m, not with N");
  {
    const size_t small = attn_linear_attention_workspace_size(64, 64, 64, 64, 256),
                 big = attn_linear_attention_workspace_size(262144, 262144, 64, 64, 256);
    CHECK(small == big && big > 0 && big < 512 * 1024, "workspace %zu (N = 64) vs %zu (N = 262144)", small, big);
  }
  end();

  begin("attn_random_features and attn_linear_attention status codes");
}

const test_group TEST_GROUPS[] = {
    {"linear", test_linear, 1},
};
const int N_TEST_GROUPS = N_OF(TEST_GROUPS);
