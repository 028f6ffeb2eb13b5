/* test_gemm.c: src/gemm.c: attn_matmul, and the internal products the
 * other kernels build on: attn__gemm_at (weight gradients) and attn__linear
 * (the one linear layer of multi-head attention, the trainer, the decoder). */
#include "harness.h"

/* ==== attn_matmul ======================================================== */

static void matmul_case(rng_t *r, int m, int k, int n, int tb) {
  begin("attn_matmul m=%d k=%d n=%d transpose_b=%d", m, k, n, tb);
  float *A = fbuf((size_t)m * k), *B = fbuf((size_t)k * n), *C = fbuf((size_t)m * n);
  fill(r, A, (size_t)m * k, 1.0f);
  fill(r, B, (size_t)k * n, 1.0f);
  poison(C, (size_t)m * n);
  float *A0 = clone_bytes(A, (size_t)m * k * 4), *B0 = clone_bytes(B, (size_t)k * n * 4);
  const int st = attn_matmul(C, A, B, m, k, n, tb);
  expect_status(st, ATTN_OK, "attn_matmul");
  if (st == ATTN_OK) {
    double *want = dbuf((size_t)m * n), *err = dbuf((size_t)m * n);
    ref_matmul(want, err, A, B, m, k, n, tb);
    compare("C", C, want, err, (size_t)m * n, (size_t)n, 0);
    free(want);
    free(err);
  }
  check_unchanged("A", A, A0, (size_t)m * k * 4);
  check_unchanged("B", B, B0, (size_t)k * n * 4);
  free(A), free(B), free(C), free(A0), free(B0);
  end();
}

static void test_matmul(void) {
  rng_t r = rng_for("matmul");
  /* every (m, n) of the sweep, k rotating through it, both layouts */
  for (int a = 0; a < N_SIZES; a++)
    for (int b = 0; b < N_SIZES; b++)
      for (int tb = 0; tb < 2; tb++)
        matmul_case(&r, SIZES[a], SIZES[(a + 2 * b + tb) % N_SIZES], SIZES[b], tb);
  /* depths across a packed panel boundary (256 at the time of writing) */
  const int deep[] = {255, 256, 257, 513};
  for (int i = 0; i < 4; i++)
    for (int tb = 0; tb < 2; tb++) matmul_case(&r, 5, deep[i], 9, tb);
  matmul_case(&r, 1, 1000, 1, 1);
  matmul_case(&r, 200, 3, 300, 0);

  begin("attn_matmul exact small integers (no rounding at all)");
  {
    const float A[6] = {1, 2, 3, 4, 5, 6};   /* 2 x 3 */
    const float B[6] = {7, 8, 9, 10, 11, 12}; /* 3 x 2, or 2 x 3 for B^T */
    float C[4];
    expect_status(attn_matmul(C, A, B, 2, 3, 2, 0), ATTN_OK, "attn_matmul");
    CHECK(C[0] == 58 && C[1] == 64 && C[2] == 139 && C[3] == 154,
          "A B = [%g %g; %g %g], want [58 64; 139 154]", C[0], C[1], C[2], C[3]);
    expect_status(attn_matmul(C, A, B, 2, 3, 2, 1), ATTN_OK, "attn_matmul B^T");
    CHECK(C[0] == 50 && C[1] == 68 && C[2] == 122 && C[3] == 167,
          "A B^T = [%g %g; %g %g], want [50 68; 122 167]", C[0], C[1], C[2], C[3]);
  }
  end();
}


/* attn__gemm_at (internal, for weight gradients): C = A^T B and C += A^T B,
 * A (k x m) and B (k x n) with row strides past their widths, k past one
 * packed block (512). */
static void test_gemm_at(void) {
  rng_t r = rng_for("gemm_at");
  const int dims[][3] = {{1, 1, 1}, {2, 3, 5}, {17, 4, 33}, {16, 64, 16}, {65, 511, 9},
                         {3, 512, 70}, {31, 513, 17}, {9, 1100, 65}, {130, 7, 129}};
  for (int t = 0; t < 9; t++)
    for (int acc = 0; acc < 2; acc++) {
      const int m = dims[t][0], k = dims[t][1], n = dims[t][2];
      begin("attn__gemm_at m=%d k=%d n=%d accumulate=%d", m, k, n, acc);
      const size_t lda = (size_t)m + 3, ldb = (size_t)n + 1, ldc = (size_t)n + 2;
      float *A = fbuf((size_t)k * lda), *B = fbuf((size_t)k * ldb), *C = fbuf((size_t)m * ldc);
      fill(&r, A, (size_t)k * lda, 1), fill(&r, B, (size_t)k * ldb, 1), fill(&r, C, (size_t)m * ldc, 1);
      double *Ad = ref_to_double(A, (size_t)k * lda), *Bd = ref_to_double(B, (size_t)k * ldb);
      double *want = ref_to_double(C, (size_t)m * ldc), *err = dbuf((size_t)m * ldc);
      float *C0 = clone_bytes(C, (size_t)m * ldc * 4);
      ref_gemm(want, err, ldc, acc, Ad, NULL, lda, 1, Bd, NULL, ldb, 0, m, k, n, k + acc);
      attn__gemm_at(C, ldc, A, lda, B, ldb, m, k, n, acc);
      for (int i = 0; i < m; i++) {
        compare("C", C + (size_t)i * ldc, want + (size_t)i * ldc, err + (size_t)i * ldc,
                (size_t)n, (size_t)n, 0);
        for (size_t c = (size_t)n; c < ldc; c++) /* past n: untouched */
          CHECK(C[(size_t)i * ldc + c] == C0[(size_t)i * ldc + c], "C[%d][%zu] was written", i, c);
      }
      free(A), free(B), free(C), free(C0), free(Ad), free(Bd), free(want), free(err);
      end();
    }
}

/* attn__linear: Y = X W + b and Y += X W + b, with and without the bias,
 * on both of its paths (a few rows one at a time, more through the GEMM). */
static void test_linear_layer(void) {
  rng_t r = rng_for("linear_layer");
  const int dims[][3] = {{1, 1, 1}, {1, 8, 5}, {2, 3, 17}, {3, 16, 16}, {4, 33, 7},
                         {5, 4, 9},  {9, 64, 12}, {17, 5, 130}, {70, 520, 3}};
  for (int t = 0; t < N_OF(dims); t++)
    for (int bias = 0; bias < 2; bias++)
      for (int acc = 0; acc < 2; acc++) {
        const int n = dims[t][0], IC = dims[t][1], OC = dims[t][2];
        begin("attn__linear n=%d IC=%d OC=%d bias=%d accumulate=%d", n, IC, OC, bias, acc);
        float *X = fbuf((size_t)n * IC), *W = fbuf((size_t)IC * OC), *b = bias ? fbuf((size_t)OC) : NULL;
        float *Y = fbuf((size_t)n * OC);
        fill(&r, X, (size_t)n * IC, 1), fill(&r, W, (size_t)IC * OC, 1), fill(&r, Y, (size_t)n * OC, 1);
        if (b) fill(&r, b, (size_t)OC, 1);
        double *Xd = ref_to_double(X, (size_t)n * IC), *Wd = ref_to_double(W, (size_t)IC * OC);
        double *want = ref_to_double(Y, (size_t)n * OC), *err = dbuf((size_t)n * OC);
        ref_gemm(want, err, (size_t)OC, acc, Xd, NULL, (size_t)IC, 0, Wd, NULL, (size_t)OC, 0, n, IC, OC,
                 IC + acc + bias);
        for (int i = 0; i < n && b; i++)
          for (int o = 0; o < OC; o++) {
            want[(size_t)i * OC + o] += b[o];
            err[(size_t)i * OC + o] += REF_U * (fabs(want[(size_t)i * OC + o]) + fabs((double)b[o]));
          }
        attn__linear(Y, X, W, b, n, IC, OC, acc);
        compare("Y", Y, want, err, (size_t)n * OC, (size_t)OC, 0);
        free(X), free(W), free(b), free(Y), free(Xd), free(Wd), free(want), free(err);
        end();
      }
}

/* ==== the two register tiles ============================================ */

/* C from attn_matmul, attn__gemm (accumulating) and attn__gemm_at under one
 * tile, concatenated. */
static float *products(int which, const float *A, const float *B, const float *C0, int m, int k,
                       int n, int tb) {
  expect_status(attn_set_gemm_tiles(which), ATTN_OK, "attn_set_gemm_tiles");
  const size_t mn = (size_t)m * n;
  float *C = fbuf(3 * mn);
  expect_status(attn_matmul(C, A, B, m, k, n, tb), ATTN_OK, "attn_matmul");
  memcpy(C + mn, C0, mn * 4);
  attn__gemm(C + mn, (size_t)n, A, (size_t)k, B, tb ? (size_t)k : (size_t)n, m, k, n, tb, 1);
  memcpy(C + 2 * mn, C0, mn * 4); /* A read as k x m: a different product, same shapes */
  attn__gemm_at(C + 2 * mn, (size_t)n, A, (size_t)m, B, (size_t)n, m, k, n, 1);
  return C;
}

/* 6 x 8 tiles give the very bits 2 x 16 tiles do: each element of C sums
 * its k products in the same order in either shape. Rows around multiples
 * of 6 (whole tall tiles and the 2 x 16 rows left over), columns around
 * multiples of 8 and 16 (half panels), depths across a packed block. */
static void test_tiles(void) {
  rng_t r = rng_for("tiles");
  const int ms[] = {1, 2, 5, 6, 7, 11, 12, 13, 96, 130}, ns[] = {1, 7, 8, 9, 16, 17, 24, 64, 257};
  const int ks[] = {1, 3, 64, 513};
  for (int a = 0; a < N_OF(ms); a++)
    for (int b = 0; b < N_OF(ns); b++) {
      const int m = ms[a], n = ns[b], k = ks[(a + b) % N_OF(ks)], tb = (a + b) % 2;
      begin("attn_set_gemm_tiles: 6 x 8 = 2 x 16 bitwise, m=%d k=%d n=%d transpose_b=%d", m, k, n, tb);
      float *A = fbuf((size_t)m * k), *B = fbuf((size_t)k * n), *C0 = fbuf((size_t)m * n);
      fill(&r, A, (size_t)m * k, 1.0f), fill(&r, B, (size_t)k * n, 1.0f), fill(&r, C0, (size_t)m * n, 1.0f);
      float *want = products(ATTN_TILES_2X16, A, B, C0, m, k, n, tb);
      float *got = products(ATTN_TILES_6X8, A, B, C0, m, k, n, tb);
      CHECK(memcmp(got, want, (size_t)3 * m * n * 4) == 0, "the two tiles' products differ");
      free(A), free(B), free(C0), free(want), free(got);
      end();
    }
  begin("attn_set_gemm_tiles: attention, fused and with weights, bitwise");
  {
    enum { NQ_ = 130, NK_ = 300, D = 64 };
    float *Q = fbuf(NQ_ * D), *K = fbuf(NK_ * D), *V = fbuf(NK_ * D);
    fill(&r, Q, NQ_ * D, 1), fill(&r, K, NK_ * D, 1), fill(&r, V, NK_ * D, 1);
    void *ws = wsbuf(attn_attention_workspace_size(NQ_, NK_, D, D, 0));
    float *out[2];
    for (int t = 0; t < 2; t++) {
      expect_status(attn_set_gemm_tiles(t), ATTN_OK, "attn_set_gemm_tiles");
      out[t] = fbuf(2 * NQ_ * D + NQ_ * NK_);
      expect_status(attn_attention(out[t], NULL, Q, K, V, NQ_, NK_, D, D, 0.125f, NULL, ws), ATTN_OK,
                    "attn_attention (fused)");
      expect_status(attn_attention(out[t] + NQ_ * D, out[t] + 2 * NQ_ * D, Q, K, V, NQ_, NK_, D, D,
                                   0.125f, NULL, NULL),
                    ATTN_OK, "attn_attention (weights)");
    }
    CHECK(memcmp(out[0], out[1], (2 * NQ_ * D + NQ_ * NK_) * 4) == 0, "outputs or weights differ");
    free(Q), free(K), free(V), free(ws), free(out[0]), free(out[1]);
  }
  end();
  expect_status(attn_set_gemm_tiles(ATTN_TILES_2X16), ATTN_OK, "attn_set_gemm_tiles");
}

const test_group TEST_GROUPS[] = {
    {"matmul", test_matmul, 1},
    {"gemm_at", test_gemm_at, 1},
    {"linear_layer", test_linear_layer, 1},
    {"tiles", test_tiles, 0},
};
const int N_TEST_GROUPS = N_OF(TEST_GROUPS);
