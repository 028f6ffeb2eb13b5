/* fuzz_softmax_backward.c: libFuzzer harness for attn_softmax_backward, out
 * of place and in place (over dY, over Y), on the SIMD and the scalar path.
 *
 * Input layout (see fuzz_common.h for the decoders):
 *   [0] flags: bits 0-1 which pointer is NULL (1 dX, 2 Y, 3 dY), bits 2-3
 *       in place (1 dX = dY, 2 dX = Y), bit 4 extreme data (+-FLT_MAX,
 *       +-1e30, inf, NaN), bit 5 Y is a softmax output (of entries < 48 =
 *       -inf, else a float; attn_softmax_rows at T = 1) rather than raw floats
 *   [1..2] rows, cols   [3] temperature
 *   then Y's entries, then dY
 * Checked: the status; entries with Y <= 0 are exactly +0; with finite
 * inputs whose gradient cannot overflow the output is finite, each row of a
 * softmax's gradient sums to 0 within its rounding, and each value is within 4x the error-model
 * bound of the float64 gradient (tests/native/ref64.h); inputs not written
 * over are unchanged; no allocation.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_t f = fz_init(data, size);
  const uint8_t flags = fz_u8(&f);
  const int rows = fz_size(&f), cols = fz_size(&f);
  const float T = fz_scale(&f, 0);
  const int null = flags & 3, in_place = (flags >> 2) & 3, extreme = (flags & 16) != 0,
            from_softmax = (flags & 32) != 0;

  fz_expect e = {0};
  if (null) fz_may(&e, ATTN_E_NULL);
  if (!fz_scale_ok(T)) fz_may(&e, ATTN_E_TEMP);
  const int sizes[2] = {rows, cols};
  const int cls = fz_classify_sizes(&e, sizes, 2, fz_bytes(rows, cols, 1));
  if (cls < 0) return 0;
  if (cls == 1) {
    for (int simd = 1; simd >= 0; simd--) {
      attn__set_simd(simd);
      int st;
      FZ_CALL(st, attn_softmax_backward(null == 1 ? NULL : fz_dummy[0], null == 2 ? NULL : fz_dummy[1],
                                        null == 3 ? NULL : fz_dummy[2], rows, cols, T));
      fz_check_status(&e, st, "attn_softmax_backward");
    }
    return 0;
  }
  if ((double)rows * cols > 2e5) return 0;

  const size_t count = (size_t)rows * cols;
  float *Y0 = fz_floats(count), *dY0 = fz_floats(count);
  float *Y = fz_floats(count), *dY = fz_floats(count), *dX = fz_floats(count);
  if (from_softmax) {
    for (size_t i = 0; i < count; i++) {
      const uint8_t b = fz_u8(&f);
      dX[i] = b < 48 ? -INFINITY : fz_float(&f, 0);
    }
    FZ_CHECK(attn_softmax_rows(Y0, dX, rows, cols, 1.0f) == ATTN_OK, "attn_softmax_rows failed");
  } else {
    fz_fill(&f, Y0, count, extreme);
  }
  fz_fill(&f, dY0, count, extreme);
  /* Finite inputs, and no |y (dy - D)| / T near overflow. */
  int sane = fz_all_finite(Y0, count) && fz_all_finite(dY0, count);
  if (sane) {
    const double y = fz_max_abs(Y0, count), dy = fz_max_abs(dY0, count);
    const double g = y * (dy + cols * y * dy); /* bounds |y_j (dy_j - D)| */
    if (g > 1e37 || g / T > 1e37) sane = 0;
  }
  double *want = calloc(count, 8), *err = calloc(count, 8);
  if (!want || !err) abort();
  if (sane && !e.set)
    for (int r = 0; r < rows; r++)
      ref_softmax_backward_row(want + (size_t)r * cols, err + (size_t)r * cols,
                               Y0 + (size_t)r * cols, dY0 + (size_t)r * cols, cols, T);

  for (int simd = 1; simd >= 0; simd--) {
    attn__set_simd(simd);
    memcpy(Y, Y0, count * 4), memcpy(dY, dY0, count * 4);
    fz_poison(dX, count);
    float *out = in_place == 1 ? dY : in_place == 2 ? Y : dX;
    int st;
    FZ_CALL(st, attn_softmax_backward(null == 1 ? NULL : out, null == 2 ? NULL : Y,
                                      null == 3 ? NULL : dY, rows, cols, T));
    fz_check_status(&e, st, "attn_softmax_backward");
    if (in_place != 2) FZ_CHECK(!memcmp(Y, Y0, count * 4), "attn_softmax_backward modified Y");
    if (in_place != 1) FZ_CHECK(!memcmp(dY, dY0, count * 4), "attn_softmax_backward modified dY");
    if (st != ATTN_OK) continue;
    for (size_t i = 0; i < count; i++)
      if (Y0[i] <= 0.0f)
        FZ_CHECK(out[i] == 0.0f && !signbit(out[i]), "blocked dX[%zu] = %g", i, (double)out[i]);
    if (!sane) continue;
    fz_check_finite("dX", out, count);
    fz_compare("dX", out, want, err, count);
    for (int r = 0; r < rows && from_softmax; r++) { /* sum_j y_j (dy_j - D) = 0 when sum y = 1 */
      double sum = 0, tol = 0;
      for (int j = 0; j < cols; j++) {
        const size_t i = (size_t)r * cols + j;
        sum += out[i], tol += 4 * err[i] + (cols + 1) * REF_U * fabs(out[i]);
      }
      FZ_CHECK(fabs(sum) <= tol, "row %d of dX sums to %g (tol %g)", r, sum, tol);
    }
  }
  attn__set_simd(1);
  free(Y0), free(dY0), free(Y), free(dY), free(dX), free(want), free(err);
  return 0;
}
