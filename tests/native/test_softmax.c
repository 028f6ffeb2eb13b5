/* test_softmax.c: src/softmax.c: attn_softmax_rows, its backward
 * attn_softmax_backward, and the kernels' exp and exp2. */
#include "harness.h"

/* ==== attn_softmax_rows ================================================== */

enum { SM_UNIFORM, SM_BLOCKED, SM_HUGE, SM_MODES };
static const char *SM_NAMES[] = {"uniform", "with -inf and a blocked row",
                                 "values +-1e4 (overflow without the max)"};

static void softmax_case(rng_t *r, int rows, int cols, float T, int mode,
                         int in_place) {
  begin("attn_softmax_rows rows=%d cols=%d T=%g data=%s%s", rows, cols,
        (double)T, SM_NAMES[mode], in_place ? " in place" : "");
  const size_t count = (size_t)rows * cols;
  float *in = fbuf(count), *out = in_place ? in : fbuf(count);
  fill(r, in, count, mode == SM_HUGE ? 1e4f : 4.0f);
  if (mode == SM_BLOCKED) {
    for (size_t i = 0; i < count; i++)
      if (rng_unit(r) < 0.3) in[i] = -INFINITY;
    const int row = rows / 2;
    for (int j = 0; j < cols; j++) in[(size_t)row * cols + j] = -INFINITY;
  }
  float *in0 = clone_bytes(in, count * 4);
  if (!in_place) poison(out, count);
  const int st = attn_softmax_rows(out, in, rows, cols, T);
  expect_status(st, ATTN_OK, "attn_softmax_rows");
  if (st == ATTN_OK) {
    double *want = dbuf(count), *err = dbuf(count), *a = dbuf(cols),
           *ea = dbuf(cols);
    for (int i = 0; i < rows; i++) {
      double m = -INFINITY;
      for (int j = 0; j < cols; j++) m = fmax(m, in0[(size_t)i * cols + j]);
      for (int j = 0; j < cols; j++) {
        const double x = in0[(size_t)i * cols + j];
        a[j] = x == -INFINITY ? -INFINITY : x / T;
        /* (x - max) rounds once, the division by T once */
        ea[j] = x == -INFINITY ? 0 : 2 * REF_U * fabs((x - m) / T);
      }
      const int vis = ref_softmax_row(want + (size_t)i * cols,
                                      err + (size_t)i * cols, a, ea, cols);
      double sum = 0;
      for (int j = 0; j < cols; j++) {
        const float w = out[(size_t)i * cols + j];
        sum += w;
        if (a[j] == -INFINITY)
          CHECK(w == 0.0f, "blocked entry [%d][%d] has weight %g", i, j, (double)w);
      }
      if (vis)
        CHECK(fabs(sum - 1) <= 2 * (cols + 4) * REF_U,
              "row %d sums to 1 %+.3g (tol %.3g)", i, sum - 1, 2 * (cols + 4) * REF_U);
      else
        CHECK(sum == 0, "fully blocked row %d is not all zeros", i);
    }
    compare("out", out, want, err, count, (size_t)cols, 0);
    check_finite("out", out, count);
    free(want), free(err), free(a), free(ea);
  }
  if (!in_place) check_unchanged("in", in, in0, count * 4);
  if (!in_place) free(out);
  free(in), free(in0);
  end();
}

static void test_softmax(void) {
  rng_t r = rng_for("softmax");
  const int rows[] = {1, 2, 3, 5, 17};
  const float temps[] = {1.0f, 0.5f, 2.0f, 0.1f, 10.0f};
  for (int c = 0; c < N_SIZES; c++)
    for (int i = 0; i < 5; i++)
      for (int mode = 0; mode < SM_MODES; mode++)
        softmax_case(&r, rows[i], SIZES[c], mode == SM_HUGE ? 1.0f : temps[(c + i) % 5],
                     mode, (c + i + mode) % 3 == 0);
  const int wide[] = {255, 256, 257, 1000, 4099};
  for (int c = 0; c < 5; c++)
    for (int mode = 0; mode < SM_MODES; mode++)
      softmax_case(&r, 3, wide[c], 1.0f, mode, c % 2);

  /* The soft dictionary's limits: T -> 0 is argmax, T -> infinity uniform. */
  const float tiny[] = {1e-30f, FLT_TRUE_MIN}, big[] = {1e30f, FLT_MAX};
  for (int t = 0; t < 2; t++) {
    begin("attn_softmax_rows T=%g gives one-hot at the argmax, ties split",
          (double)tiny[t]);
    float in[10] = {0.5f, -2, 3, 1e4f, -1e4f, 2.9f, 3, -INFINITY, 0, 1}, out[10];
    in[3] = 2.0f, in[4] = -3.0f; /* max 3 at columns 2 and 6 */
    expect_status(attn_softmax_rows(out, in, 1, 10, tiny[t]), ATTN_OK,
                  "attn_softmax_rows");
    for (int j = 0; j < 10; j++) {
      const double want = (j == 2 || j == 6) ? 0.5 : 0.0;
      CHECK(fabs(out[j] - want) <= 4 * REF_U, "out[%d] = %.9g, want %g", j,
            (double)out[j], want);
    }
    float in2[5] = {1, 2, 7, 3, -1}, out2[5];
    expect_status(attn_softmax_rows(out2, in2, 1, 5, tiny[t]), ATTN_OK,
                  "attn_softmax_rows");
    for (int j = 0; j < 5; j++)
      CHECK(out2[j] == (j == 2 ? 1.0f : 0.0f), "one-hot: out[%d] = %.9g", j,
            (double)out2[j]);
    end();

    begin("attn_softmax_rows T=%g gives uniform weights", (double)big[t]);
    float in3[7] = {1, -2, 7, 3, -1, 0, 100}, out3[7];
    expect_status(attn_softmax_rows(out3, in3, 1, 7, big[t]), ATTN_OK,
                  "attn_softmax_rows");
    for (int j = 0; j < 7; j++)
      CHECK(fabs(out3[j] - 1.0 / 7) <= 32 * REF_U, "out[%d] = %.9g, want 1/7", j,
            (double)out3[j]);
    end();
  }

  /* Found by fuzzing: a row spanning more than FLT_MAX with T > 1. Shifting
   * first (x - max) overflowed to -inf although (x - max) / T is ordinary. */
  begin("attn_softmax_rows: a row wider than FLT_MAX at T > 1");
  {
    const float cases[2][3] = {{FLT_MAX, -FLT_MAX, FLT_MAX}, {2e38f, -2e38f, 1e38f}};
    for (int c = 0; c < 2; c++) {
      const float in[2] = {cases[c][0], cases[c][1]};
      float out[2];
      expect_status(attn_softmax_rows(out, in, 1, 2, cases[c][2]), ATTN_OK,
                    "attn_softmax_rows");
      const double d = (double)in[0] / cases[c][2] - (double)in[1] / cases[c][2];
      const double want0 = 1.0 / (1.0 + exp(-d));
      CHECK(fabs(out[0] - want0) <= 16 * REF_U && fabs(out[1] - (1 - want0)) <= 16 * REF_U,
            "case %d: out = [%.9g, %.9g], want [%.9g, %.9g]", c, (double)out[0],
            (double)out[1], want0, 1 - want0);
    }
  }
  end();

  begin("attn_softmax_rows adding a constant to a row changes nothing");
  {
    float x[2][9], y[2][9];
    for (int j = 0; j < 9; j++) x[0][j] = rng_sym(&r), x[1][j] = x[0][j] + 64.0f;
    expect_status(attn_softmax_rows(y[0], x[0], 2, 9, 1.0f), ATTN_OK,
                  "attn_softmax_rows");
    /* x + 64 is exact in float for |x| < 1 up to 2^-18 of rounding */
    for (int j = 0; j < 9; j++)
      CHECK(fabs(y[0][j] - y[1][j]) <= 4 * 0x1p-18 * y[0][j] + 32 * REF_U * y[0][j],
            "column %d: %.9g vs %.9g", j, (double)y[0][j], (double)y[1][j]);
  }
  end();
}

/* ==== the kernels' exp and exp2 ========================================== */

static double ulps(float got, double want) {
  if (want == 0) return got == 0 ? 0 : INFINITY;
  int e;
  frexp(want, &e); /* want in [2^(e-1), 2^e): one ulp is 2^(e-24) */
  return fabs(got - want) / ldexp(1.0, e - 24);
}

/* The base-e exp, straight: attn__exp_shifted(x, n, 0, 1) (the training
 * part's cross-entropy and GELU; softmax and attention run exp2 with log2(e)
 * folded into their scale, whose rounding the tolerances' u |a_j - max|
 * term covers). Range reduction (x = n ln2 + r) maps every x to a residual
 * r in [-ln2/2, ln2/2], so [-87.3, -20] reaches every r the polynomial
 * sees. softmax.c documents <= 2 ulp against libm's expf, which is itself
 * within 0.5 ulp: at most 2.5 ulp against the exact value, inside the
 * E_EXP = 8 u budget of the tolerances (1 ulp <= 2 u). Rows of eight run
 * the SIMD loop, rows of seven the scalar one. */
static void test_exp(void) {
  begin("exp within 2.5 ulp on [-87.3, -20]");
  enum { ROWS = 8192, COLS = 8 };
  float *x = fbuf((size_t)ROWS * COLS), *y = fbuf((size_t)ROWS * COLS);
  for (int i = 0; i < ROWS * COLS; i++) y[i] = x[i] = -20.0f - 67.3f * (float)i / (ROWS * COLS);
  for (int i = 0; i < ROWS; i++) attn__exp_shifted(y + (size_t)i * COLS, i % 2 ? COLS : COLS - 1, 0.0f, 1.0f);
  double worst = 0;
  float worst_x = 0;
  for (size_t i = 0; i < (size_t)ROWS * COLS; i++) {
    if (i % (2 * COLS) == COLS - 1) continue; /* the short rows' last value, left as it was */
    const double e = ulps(y[i], exp((double)x[i]));
    if (e > worst) worst = e, worst_x = x[i];
  }
  CHECK(worst <= 2.5, "worst error %.2f ulp at x = %.9g", worst, (double)worst_x);
  printf("note %s: exp worst error %.2f ulp (at x = %.6g)\n", g_group, worst,
         (double)worst_x);
  free(x), free(y);
  end();
}

/* The fused path's base-2 exp, straight: attn__exp2_shifted(x, n, 0, 1) turns
 * each x into 2^x. Over [-126, 0] (every reduced t in [-1/2, 1/2] and every
 * exponent down to the smallest normal), against libm's exp2 in double.
 * As for exp: <= 2 ulp against libm's exp2f, itself within 0.5 ulp, so at
 * most 2.5 ulp against the exact value. The sum: float partial sums of
 * N/8 terms on the SIMD path, gamma(N/8 + 3) relative. */
static void test_exp2(void) {
  begin("exp2 of the fused path within 2.5 ulp on [-126, 0]");
  enum { N = 1 << 16 };
  float *x = fbuf(N), *y = fbuf(N);
  for (int i = 0; i < N; i++) x[i] = y[i] = -126.0f * (float)i / (N - 1);
  const float sum = attn__exp2_shifted(y, N, 0.0f, 1.0f);
  double worst = 0, want_sum = 0;
  float worst_x = 0;
  for (int i = 0; i < N; i++) {
    const double want = exp2((double)x[i]);
    const double e = ulps(y[i], want);
    want_sum += want;
    if (e > worst) worst = e, worst_x = x[i];
  }
  CHECK(worst <= 2.5, "worst error %.2f ulp at x = %.9g", worst, (double)worst_x);
  CHECK(fabs(sum - want_sum) <= (N / 8 + 3) * REF_U * want_sum, "sum %.9g, want %.9g", (double)sum, want_sum);
  CHECK(attn__exp2f(-INFINITY) == 0.0f && attn__exp2f(-127.0f) == 0.0f && attn__exp2f(0.0f) == 1.0f,
        "exp2f(-inf), exp2f(-127) must be 0 and exp2f(0) 1");
  printf("note %s: exp2 worst error %.2f ulp (at x = %.6g)\n", g_group, worst,
         (double)worst_x);
  free(x), free(y);
  end();
}

/* ==== attn_softmax_backward ============================================= */

/* Y = softmax(X / T) of random rows with about a fifth of X at -INFINITY
 * (Y = 0 there) and one whole row blocked; then dX from a random dY, out of
 * place, in place over dY, in place over Y. */
static void softmax_backward_case(rng_t *r, int rows, int cols, float T, int inplace) {
  static const char *HOW[] = {"out of place", "dX = dY", "dX = Y"};
  begin("attn_softmax_backward rows=%d cols=%d T=%g %s", rows, cols, (double)T, HOW[inplace]);
  const size_t n = (size_t)rows * cols;
  float *X = fbuf(n), *Y = fbuf(n), *dY = fbuf(n), *dX = fbuf(n);
  fill(r, X, n, 3.0f), fill(r, dY, n, 1.0f), poison(dX, n);
  for (size_t i = 0; i < n; i++)
    if (rng_unit(r) < 0.2) X[i] = -INFINITY;
  if (rows > 1)
    for (int j = 0; j < cols; j++) X[(size_t)(rows / 2) * cols + j] = -INFINITY;
  expect_status(attn_softmax_rows(Y, X, rows, cols, T), ATTN_OK, "attn_softmax_rows");
  double *want = dbuf(n), *err = dbuf(n);
  for (int i = 0; i < rows; i++)
    ref_softmax_backward_row(want + (size_t)i * cols, err + (size_t)i * cols,
                             Y + (size_t)i * cols, dY + (size_t)i * cols, cols, T);
  float *Y0 = clone_bytes(Y, n * 4), *dY0 = clone_bytes(dY, n * 4);
  float *got = inplace == 1 ? dY : inplace == 2 ? Y : dX;
  expect_status(attn_softmax_backward(got, Y, dY, rows, cols, T), ATTN_OK,
                "attn_softmax_backward");
  compare("dX", got, want, err, n, (size_t)cols, 0);
  for (size_t i = 0; i < n; i++)
    if (Y0[i] == 0.0f)
      CHECK(got[i] == 0.0f && !signbit(got[i]), "blocked dX[%zu][%zu] = %g, want +0",
            i / cols, i % cols, (double)got[i]);
  /* each row of dX sums to 0: sum_j y_j (dy_j - D) = D - D */
  for (int i = 0; i < rows; i++) {
    double sum = 0, tol = 0;
    for (int j = 0; j < cols; j++) {
      const size_t at = (size_t)i * cols + j;
      sum += got[at];
      tol += 2 * err[at] + (cols + 1) * REF_U * fabs(got[at]);
    }
    CHECK(fabs(sum) <= tol, "row %d of dX sums to %.3g (tol %.3g)", i, sum, tol);
  }
  if (inplace != 2) check_unchanged("Y", Y, Y0, n * 4);
  if (inplace != 1) check_unchanged("dY", dY, dY0, n * 4);
  free(X), free(Y), free(dY), free(dX), free(want), free(err), free(Y0), free(dY0);
  end();
}

static void test_softmax_backward(void) {
  rng_t r = rng_for("softmax_backward");
  const int rows[] = {1, 2, 3, 5, 17};
  const float temps[] = {1.0f, 0.3f, 7.0f};
  int k = 0;
  for (int a = 0; a < 5; a++)
    for (int b = 0; b < N_SIZES; b++, k++)
      softmax_backward_case(&r, rows[a], SIZES[b], temps[k % 3], k % 3 == 0 ? (k / 3) % 3 : 0);
}

const test_group TEST_GROUPS[] = {
    {"softmax", test_softmax, 1},
    {"softmax_backward", test_softmax_backward, 1},
    {"exp", test_exp, 1},
    {"exp2", test_exp2, 1},
};
const int N_TEST_GROUPS = N_OF(TEST_GROUPS);
